"""Exact first contact of translating flat shapes (points, segments, lines, polygons: boxes and
rotated boxes too) in rational arithmetic, written for the tests independently of
``collide2d.motion.exact`` and of the kernels: the separating-axis theorem over every edge normal
and direction of both shapes, the relative velocity and its normal and the coordinate axes (enough
axes for any pair of convex sets, whatever their dimension), one interval of times per axis."""

import math
from fractions import Fraction

from collide2d._glue import run
from collide2d._kernels.motion import constants

F = Fraction


def core(shape):
    """A single flat shape as exact rationals: ``("points", [(x, y), ...])`` (a polygon's
    vertices, a segment's ends, a point) or ``("line", point, direction)``."""
    kind, p, verts = run.flat_rows(shape)
    p = p[0]
    if kind == "polygon":
        offset, count = int(p[0]), int(p[1])
        return "points", [(F(x), F(y)) for x, y in verts[offset : offset + count].tolist()]
    if kind == "segment":
        return "points", [(F(p[0]), F(p[1])), (F(p[2]), F(p[3]))]
    if kind == "line":
        return "line", (F(p[0]), F(p[1])), (F(p[2]), F(p[3]))
    return "points", [(F(p[0]), F(p[1]))]


def _directions(c):
    if c[0] == "line":
        return [c[2]]
    pts = c[1]
    return [(pts[(i + 1) % len(pts)][0] - pts[i][0], pts[(i + 1) % len(pts)][1] - pts[i][1]) for i in range(len(pts))]


def _interval(c, u):
    """The projection of a core onto ``u`` as ``(lo, hi)``, or None when it is unbounded."""
    if c[0] == "line":
        (px, py), (dx, dy) = c[1], c[2]
        if u[0] * dx + u[1] * dy != 0:
            return None
        value = u[0] * px + u[1] * py
        return value, value
    values = [u[0] * x + u[1] * y for x, y in c[1]]
    return min(values), max(values)


def first_contact(a, b, va, vb, t_max, shift=(0.0, 0.0)):
    """The exact first time in ``[0, t_max]`` at which ``a`` (moving by ``va``) and ``b`` (by
    ``vb``, shifted by ``shift`` first) share a point, or None: the intersection over the axes of
    the times at which their projections overlap."""
    ca, cb = core(a), core(b)
    sx, sy = F(shift[0]), F(shift[1])
    cb = ("points", [(x + sx, y + sy) for x, y in cb[1]]) if cb[0] == "points" else ("line", (cb[1][0] + sx, cb[1][1] + sy), cb[2])
    v = (F(vb[0]) - F(va[0]), F(vb[1]) - F(va[1]))
    axes = [v, (-v[1], v[0]), (F(1), F(0)), (F(0), F(1))]
    for d in _directions(ca) + _directions(cb):
        axes += [d, (-d[1], d[0])]
    lo, hi = F(0), None if math.isinf(t_max) else F(t_max)
    for u in axes:
        if u == (0, 0):
            continue
        ia, ib = _interval(ca, u), _interval(cb, u)
        if ia is None or ib is None:
            continue
        rate = u[0] * v[0] + u[1] * v[1]
        # b_lo + rate t <= a_hi and b_hi + rate t >= a_lo
        for gap, slope in ((ia[1] - ib[0], rate), (ib[1] - ia[0], -rate)):  # slope t <= gap
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


def check(result, exact, t_max, strict=False):
    """A time of impact against the exact first contact: a miss for a miss, else within
    ``TIME_TOL`` of the time scale of it, and (``strict``: the closed form's promise) not after it.
    The search's answers through its band may lie up to its tolerance after the contact."""
    t = float(result)
    if exact is None:
        assert t == math.inf
        return
    scale = t_max if math.isfinite(t_max) else max(float(exact), 1.0)
    tolerance = F(constants.TIME_TOL * scale)
    assert 0.0 <= t and F(t) <= exact + (0 if strict else tolerance)
    assert exact - F(t) <= tolerance
