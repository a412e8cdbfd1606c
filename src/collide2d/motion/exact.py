"""Exact first contact of translating pairs of points, segments, lines, polygons (boxes, rotated
boxes) and circles, every pair of them, in rational arithmetic (:class:`fractions.Fraction`).

Each shape moves by its velocity; seen from `a`, `b` moves by ``V = v_b - v_a`` (exact: the
velocities are floats, their difference a rational). The question "do they ever share a point in
``[0, t_max]``, and when first" then has an exact answer:

* **Flat pairs** (points, segments, lines, polygons): the shapes touch at ``t`` exactly when no axis
  separates them (the separating-axis theorem for convex sets; Ericson, *Real-Time Collision
  Detection*, 2005, 4.4 and 5.5 for moving objects). On an axis ``n`` the projections of `a` and of
  `b` moved by ``V t`` overlap for ``t`` in an interval, whose ends are rationals (a linear
  inequality in ``t`` per side); the times of contact are the intersection of these intervals over
  the axes and ``[0, t_max]``, the first contact its lower end. The axes: the edge normals of both
  shapes (a segment's normal and its direction too, the edges of a degenerate Minkowski
  difference), ``V`` and its normal (the sides of the swept path): every edge normal of the
  Minkowski difference ``b - a`` and of the path ``[0, t_max] V``. An extra axis never separates
  sets that meet. A line projects onto every axis but its normal as the whole real line.
* **Circles and points** (a point is a circle of radius 0): the centres meet at distance ``R = r_a +
  r_b`` at the roots of ``|d + V t|**2 = R**2``, ``a t**2 + 2 b t + c = 0`` with ``a = V . V``,
  ``b = d . V``, ``c = d . d - R**2``; they touch exactly when ``c <= 0`` or ``b < 0``, the exact
  discriminant ``b**2 - a c >= 0`` and the smaller root ``(-b - sqrt(b**2 - a c)) / a <= t_max``
  (decided without the square root: ``-b - a t_max <= sqrt(D)``). The root itself is computed to
  about 2**-100 relative and rounded down to a float.

* **Circles against flat shapes** (points, segments, lines, polygons: boxes and rotated boxes
  too): the centre ``P(t) = P0 + W t`` of the circle, seen from the flat shape, must come within
  ``r`` of it: into the shape itself (a polygon; only at 0 can it get there without crossing its
  boundary first), or into the capsule of an edge, the union of the discs of radius ``r`` about its
  ends (the quadratic above) and of the rectangle ``0 <= (P - e0) . E <= |E|**2``, ``|(P - e0) x E|
  <= r |E|`` (a line: the slab ``|(P - q) x d| <= r |d|``). On the rectangle each condition is an
  interval of times whose ends are ``x + y sqrt(D)`` with rationals ``x``, ``y`` and ``D =
  |E|**2``, compared exactly (the sign of ``x + y sqrt(D)`` from those of ``x``, ``y`` and ``x**2 -
  y**2 D``); the first contact is the smallest first time over the features, computed to about
  2**-190 relative.

The search in floats (:mod:`collide2d.motion.search`) reports a pair that passes within its band
(about ``2**-49`` of the pair's coordinates) as touching, at the minimum of its separation; for these
kinds the contacts it finds through its band (and those the Python search finds) are decided here
instead.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

EXACT_KINDS = ("polygon", "segment", "line", "point")  # and circles: ellipses with equal radii


def _core(kind, row, verts):
    """``(vertices, line, radius)`` of a kernel row as Fractions: the vertex list of a flat shape
    or of a circle's centre, a line's ``(point, direction)`` (else None), the radius (0 if none)."""
    f = Fraction
    if kind == "polygon":
        offset, count = int(row[0]), int(row[1])
        return [(f(x), f(y)) for x, y in verts[offset : offset + count].tolist()], None, f(0)
    p = [f(x) for x in row.tolist()]
    if kind == "ellipse":
        return [(p[0], p[1])], None, p[2]
    if kind == "segment":
        return [(p[0], p[1]), (p[2], p[3])], None, f(0)
    if kind == "line":
        return [(p[0], p[1])], (p[2], p[3]), f(0)
    return [(p[0], p[1])], None, f(0)


def exact_capable(kind_a, rows_a, kind_b, rows_b):
    """Per pair of kernel rows (``rows_a[k]`` against ``rows_b[k]``): whether its first contact is
    decided here: two flat shapes, a circle against a flat shape, or two circles."""
    capable = np.ones(rows_a.shape[0], dtype=bool)
    for kind, rows in ((kind_a, rows_a), (kind_b, rows_b)):
        if kind == "ellipse":
            capable &= rows[:, 2] == rows[:, 3]
        elif kind not in EXACT_KINDS:
            capable[:] = False
    return capable


def _edges(vertices, line):
    """Edge directions of a core: a polygon's edges, a segment's one, a line's direction."""
    if line is not None:
        return [line]
    n = len(vertices)
    if n < 2:
        return []
    return [(vertices[(i + 1) % n][0] - vertices[i][0], vertices[(i + 1) % n][1] - vertices[i][1])
            for i in range(n if n > 2 else 1)]


def _projection(vertices, line, axis):
    """``(lo, hi)`` of a core projected onto ``axis`` (None for an unbounded end)."""
    values = [x * axis[0] + y * axis[1] for x, y in vertices]
    if line is not None and line[0] * axis[0] + line[1] * axis[1] != 0:
        return None, None
    return min(values), max(values)


def _flat_times(core_a, core_b, v, t_max):
    """The first time in ``[0, t_max]`` at which two translating flat cores share a point, or None."""
    axes = []
    for vertices, line in (core_a, core_b):
        for ex, ey in _edges(vertices, line):
            axes += [(-ey, ex), (ex, ey)]
    axes += [(-v[1], v[0]), v]
    lo, hi = Fraction(0), t_max  # t_max: a Fraction, or None for infinity
    for axis in axes:
        if axis[0] == 0 and axis[1] == 0:
            continue
        a_lo, a_hi = _projection(*core_a, axis)
        b_lo, b_hi = _projection(*core_b, axis)
        rate = v[0] * axis[0] + v[1] * axis[1]
        # b's interval moves by rate * t: need b_lo + rate t <= a_hi and b_hi + rate t >= a_lo
        for b_end, a_end, sign in ((b_lo, a_hi, 1), (b_hi, a_lo, -1)):
            if b_end is None or a_end is None:
                continue
            gap = sign * (a_end - b_end)  # need sign * rate * t <= gap
            slope = sign * rate
            if slope == 0:
                if gap < 0:
                    return None
            elif slope > 0:
                hi = gap / slope if hi is None else min(hi, gap / slope)
            else:
                lo = max(lo, gap / slope)
        if hi is not None and lo > hi:
            return None
    return lo


def _round_sqrt(value, bits=200):
    """``sqrt(value)`` of a non-negative Fraction, to within ``2**-bits`` of its size (rounded down)."""
    scale = 1 << (2 * bits)
    return Fraction(math.isqrt(value.numerator * scale // value.denominator), 1 << bits)


def _round_times(core_a, core_b, v, t_max):
    """The first time in ``[0, t_max]`` at which two translating circles (or points) touch, to about
    ``2**-100`` relative and not above it, or None; ``0`` when they overlap at 0."""
    (ax, ay), = core_a[0]
    (bx, by), = core_b[0]
    radius = core_a[2] + core_b[2]
    dx, dy = bx - ax, by - ay
    a = v[0] * v[0] + v[1] * v[1]
    b = dx * v[0] + dy * v[1]
    c = dx * dx + dy * dy - radius * radius
    if c <= 0:
        return Fraction(0)
    discriminant = b * b - a * c
    if a == 0 or b >= 0 or discriminant < 0:
        return None
    if t_max is not None and -b - a * t_max > 0 and (b + a * t_max) ** 2 > discriminant:
        return None
    return (-b - _round_sqrt(discriminant)) / a


def _sign_root(x, y, d):
    """The sign of ``x + y sqrt(d)`` (rationals, ``d > 0``), exactly."""
    if y == 0 or x == 0:
        return (x > 0) - (x < 0) if y == 0 else (y > 0) - (y < 0)
    if (x > 0) == (y > 0):
        return 1 if x > 0 else -1
    square = x * x - y * y * d  # |x| against |y| sqrt(d)
    return ((square > 0) - (square < 0)) * (1 if x > 0 else -1)


def _root_value(x, y, d):
    """``x + y sqrt(d)`` as a Fraction, to about ``2**-200`` of ``y sqrt(d)``, not below it."""
    low = _round_sqrt(d)
    return x + y * (low + Fraction(1, 1 << 200) if y > 0 else low)


def _capsule_time(p, w, e0, edge, radius, ends, limit):
    """The first time in ``[0, limit]`` (``limit`` None: no end) at which ``p + w t`` lies in the
    rectangle of the capsule of radius ``radius`` about the edge ``e0 -> e0 + edge`` (``ends``
    False: a line through ``e0`` along ``edge``, the slab), or None. Each condition is ``u0 + u1 t
    >= x + y sqrt(d)`` or ``<=``, over the common ``d = |edge|**2``; the ends of the interval of
    times are kept as pairs ``(x, y)``."""
    d = edge[0] * edge[0] + edge[1] * edge[1]
    if d == 0:
        return None
    zero = Fraction(0)
    rx, ry = p[0] - e0[0], p[1] - e0[1]
    across = (rx * edge[1] - ry * edge[0], w[0] * edge[1] - w[1] * edge[0])  # (P - e0) x E, as u0 + u1 t
    bounds = [(across, (zero, -radius), 1), (across, (zero, radius), -1)]  # |(P - e0) x E| <= r sqrt(d)
    if ends:
        along = (rx * edge[0] + ry * edge[1], w[0] * edge[0] + w[1] * edge[1])  # 0 <= (P - e0) . E <= d
        bounds += [(along, (zero, zero), 1), (along, (d, zero), -1)]
    lo, hi = [(zero, zero)], [] if limit is None else [(limit, zero)]
    for (u0, u1), (x, y), side in bounds:  # side 1: u0 + u1 t >= x + y sqrt(d); -1: <=
        if u1 == 0:
            if _sign_root(side * (u0 - x), -side * y, d) < 0:
                return None
            continue
        end = ((x - u0) / u1, y / u1)
        (lo if (u1 > 0) == (side > 0) else hi).append(end)
    first = lo[0]
    for end in lo[1:]:
        if _sign_root(end[0] - first[0], end[1] - first[1], d) > 0:
            first = end
    for end in hi:
        if _sign_root(end[0] - first[0], end[1] - first[1], d) < 0:
            return None
    return _root_value(first[0], first[1], d)


def _disc_time(p, w, q, radius, limit):
    """The first time in ``[0, limit]`` at which ``p + w t`` comes within ``radius`` of ``q``, or
    None (:func:`_round_times` of a point against a circle)."""
    return _round_times(([q], None, Fraction(0)), ([p], None, radius), w, limit)


def _inside(p, vertices):
    """Whether the point ``p`` lies in the convex polygon ``vertices`` (either orientation)."""
    signs = set()
    for i, (x, y) in enumerate(vertices):
        nx, ny = vertices[(i + 1) % len(vertices)]
        cross = (nx - x) * (p[1] - y) - (ny - y) * (p[0] - x)
        signs.add((cross > 0) - (cross < 0))
    return not (1 in signs and -1 in signs)


def _circle_flat_time(centre, radius, vertices, line, w, limit):
    """The first time in ``[0, limit]`` at which a circle whose centre moves by ``centre + w t``
    touches a fixed flat shape (its core: vertices, or a line), or None."""
    if line is not None:
        return _capsule_time(centre, w, vertices[0], line, radius, False, limit)
    if len(vertices) > 2 and _inside(centre, vertices):
        return Fraction(0)
    times = [_disc_time(centre, w, q, radius, limit) for q in vertices]
    count = len(vertices) if len(vertices) > 2 else len(vertices) - 1
    for i in range(count):
        e0, e1 = vertices[i], vertices[(i + 1) % len(vertices)]
        times.append(_capsule_time(centre, w, e0, (e1[0] - e0[0], e1[1] - e0[1]), radius, True, limit))
    times = [t for t in times if t is not None]
    return min(times) if times else None


def first_contact(kind_a, row_a, verts_a, kind_b, row_b, verts_b, shift_b, va, vb, t_max):
    """The exact first contact time of a translating pair (a Fraction, possibly rounded down for
    circles, see :func:`_round_times`) or None: `b`'s row shifted by ``shift_b``, velocities ``va``,
    ``vb``, ``t_max`` a float (``inf`` allowed). Only for the kinds of :func:`exact_capable`."""
    vertices_a, line_a, radius_a = _core(kind_a, row_a, verts_a)
    vertices_b, line_b, radius_b = _core(kind_b, row_b, verts_b)
    sx, sy = Fraction(shift_b[0]), Fraction(shift_b[1])
    vertices_b = [(x + sx, y + sy) for x, y in vertices_b]
    v = (Fraction(vb[0]) - Fraction(va[0]), Fraction(vb[1]) - Fraction(va[1]))
    limit = None if math.isinf(t_max) else Fraction(t_max)
    if (radius_a or radius_b) and len(vertices_a) == 1 == len(vertices_b) and line_a is None is line_b:
        return _round_times((vertices_a, line_a, radius_a), (vertices_b, line_b, radius_b), v, limit)
    if radius_a:  # a circle against a flat shape: its centre seen from the shape moves by -V
        return _circle_flat_time(vertices_a[0], radius_a, vertices_b, line_b, (-v[0], -v[1]), limit)
    if radius_b:
        return _circle_flat_time(vertices_b[0], radius_b, vertices_a, line_a, v, limit)
    return _flat_times((vertices_a, line_a), (vertices_b, line_b), v, limit)


def float_below(value):
    """The largest float not above the Fraction ``value``."""
    x = float(value)
    if Fraction(x) > value:
        x = math.nextafter(x, -math.inf)
    return x
