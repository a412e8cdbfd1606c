"""Exact: a rounded shape against an ellipse, on the stored numbers, at any magnitudes.

A rounded row is ``A = K + D(r)`` (``K`` a convex polygon, segment or point, ``r > 0``; see
:mod:`collide2d._kernels.relate.rounded`), the ellipse ``E`` is ``Q(x - c) <= k`` with
``Q(y) = b^2 (w.y)^2 + a^2 (w^.y)^2`` and ``k = a^2 b^2 |w|^2`` (``w^ = (-wy, wx)``; rational in
the stored numbers, :mod:`collide2d._kernels.relate.ellipse`). The compiled kernel decides the
separation ``dist(K, E) - r`` within a band relative to the pair's scale: for a capsule of size 1
beside an ellipse of size 1e149 the band is 1e137 wide, and a capsule 2.5 outside came out
TOUCHING. Here every sign is decided on Fractions (every float is a dyadic rational), so the
answer does not depend on the pair's scale:

1. ``K`` meets ``E`` (closed sets): a core vertex in ``E``, the least of the quadratic ``Q`` on
   an edge (its minimiser clamped to the edge, a rational) at most ``k``, or the centre in a
   polygon core. Then the interiors of ``A`` and ``E`` meet.
2. Else ``dist(K, E) = min`` over the core's features (``K`` convex, ``E`` outside it):

   * a vertex ``v``: ``dist(v, E)`` against ``r`` is the relative position of the disc
     ``D(v, r)`` and ``E``: apart, externally tangent or meeting, by the sign rule of the pencil's
     characteristic cubic (Wang, Wang & Kim 2001; Choi, Wang, Liu & Kim 2006; the exact branch of
     :mod:`collide2d._kernels.relate.conic`, run on Fractions);
   * the inside of an edge ``p0 p1`` (``e = p1 - p0``, ``m`` its normal towards ``c``): a least
     distance inside the edge is attained by ``E``'s support point ``x_s = c - S m / sqrt(m.S m)``
     in the direction ``-m`` (``S = (a^2 w w^T + b^2 w^ w^^T) / |w|^2``, the shape matrix), when
     ``E`` lies strictly beyond the edge's line (``P = (c - p0).m > sqrt(m.S m)``) and the foot
     of ``x_s`` lies on the edge (``0 <= (x_s - p0).e <= e.e``); it is then ``(P - sqrt(m.S m)) /
     |m|`` (Ericson, "Real-Time Collision Detection", 5.1.2; an interior least distance has
     ``x - p`` normal to the edge, so ``x`` is that support point). Its sign against ``r``,
     ``P - sqrt(m.S m) - r |m|``, and the foot's range are signs of expressions with square roots
     of rationals, decided by squaring with the signs kept (:func:`_root_sign`).

   The sign of ``min_i d_i - r`` is the least of the signs of ``d_i - r``: DISJOINT (> 0),
   TOUCHING (0), else the interiors meet.
3. Meeting: ``A`` lies in ``E`` iff every disc ``D(v, r)`` about a core vertex does (``A`` is their
   convex hull, ``E`` convex; the pencil's exact containment test); ``E`` lies in ``A`` by
   :func:`collide2d._robust.ellipse_in_rounded.ellipse_in_rounded` (exact), after the exact
   check that ``A`` holds the centre ``c``.

Cheap exact filters run first: the discs about ``c`` of radii ``min(a, b)`` and ``max(a, b)`` lie
in and around ``E``, so ``dist(c, K)`` beyond ``r + max(a, b)`` is DISJOINT and below
``r + min(a, b)`` meets (squares of rationals, no root).
"""

from __future__ import annotations

from fractions import Fraction

from collide2d._kernels import codes
from collide2d._robust import exact


def _sign(x):
    return (x > 0) - (x < 0)


def _root_sign(x, s, h):
    """``sign(x sqrt(s) - h)`` for rationals ``x``, ``h`` and ``s >= 0``."""
    left = _sign(x) if s > 0 else 0
    right = _sign(h)
    if left >= 0 >= right:
        return 0 if left == 0 and right == 0 else 1
    if left <= 0 <= right:
        return -1
    gap = x * x * s - h * h  # both sides of one sign: compare their squares
    return _sign(gap) if left > 0 else -_sign(gap)


class _Ellipse:
    """The ellipse row as Fractions: centre, ``a^2``, ``b^2``, ``w``, ``|w|^2`` and ``k``."""

    def __init__(self, row):
        self.row = row
        self.cx, self.cy, a, b, self.wx, self.wy = (Fraction(float(x)) for x in row[:6])
        self.a, self.b = a, b
        self.A, self.B = a * a, b * b
        self.W = self.wx * self.wx + self.wy * self.wy
        self.k = self.A * self.B * self.W

    def q(self, yx, yy):
        """``Q(y)`` (the ellipse is ``Q(x - c) <= k``)."""
        p = self.wx * yx + self.wy * yy
        s = self.wx * yy - self.wy * yx
        return self.B * p * p + self.A * s * s

    def q2(self, ex, ey, yx, yy):
        """The bilinear form ``Q(e, y)``."""
        return (self.B * (self.wx * ex + self.wy * ey) * (self.wx * yx + self.wy * yy)
                + self.A * (self.wx * ey - self.wy * ex) * (self.wx * yy - self.wy * yx))

    def s2(self, mx, my, ex, ey):
        """``m.S e`` with the shape matrix ``S`` (``h_E(m) = c.m + sqrt(m.S m)``)."""
        return (self.A * (self.wx * mx + self.wy * my) * (self.wx * ex + self.wy * ey)
                + self.B * (self.wx * my - self.wy * mx) * (self.wx * ey - self.wy * ex)) / self.W

    def contains(self, x, y):
        return self.q(x - self.cx, y - self.cy) <= self.k


def _edges(core):
    n = len(core)
    if n == 1:
        return []
    if n == 2:
        return [(core[0], core[1])] if core[0] != core[1] else []
    return [(core[i], core[(i + 1) % n]) for i in range(n) if core[i] != core[(i + 1) % n]]


def _counter_clockwise(core):
    """A polygon core's vertices counter-clockwise (as given, or reversed)."""
    if len(core) < 3:
        return core
    twice_area = sum(a[0] * b[1] - a[1] * b[0] for a, b in zip(core, core[1:] + core[:1]))
    return core if twice_area >= 0 else core[::-1]


def _centre_in_core(core, E):
    if len(core) < 3:
        return False
    return all((b[0] - a[0]) * (E.cy - a[1]) - (b[1] - a[1]) * (E.cx - a[0]) >= 0 for a, b in _edges(core))


def _core_meets(core, E):
    """Whether the closed core meets the closed ellipse (step 1 of the module notes)."""
    if any(E.contains(x, y) for x, y in core):
        return True
    for p0, p1 in _edges(core):
        ex, ey = p1[0] - p0[0], p1[1] - p0[1]
        yx, yy = p0[0] - E.cx, p0[1] - E.cy
        t = min(max(-E.q2(ex, ey, yx, yy) / E.q(ex, ey), 0), 1)  # the least of Q(y + t e) on [0, 1]
        if E.q(yx + t * ex, yy + t * ey) <= E.k:
            return True
    return _centre_in_core(core, E)


def _conic():
    return exact.twin_module("relate.conic")


def _disc_sign(v, r, E):
    """``sign(dist(v, E) - r)`` for a vertex ``v`` outside the ellipse: the disc ``D(v, r)`` and
    ``E`` apart (+1), externally tangent (0) or meeting (-1), by the pencil's cubic."""
    conic = _conic()
    one, zero = Fraction(1), Fraction(0)
    out = conic._pencil_cubic(E.cx - v[0], E.cy - v[1], r, r, one, zero, E.a, E.b, E.wx, E.wy, False)
    c2, c1, disc = out[12], out[13], out[15]
    if c2 < 0 or c1 > 0:
        return _sign(disc) if disc >= 0 else -1
    return -1


def _edge_candidate(p0, p1, E, polygon):
    """``(mx, my, P, S, length2)`` of the edge ``p0 p1`` when the least distance of ``E`` from the
    edge is attained inside it (step 2 of the module notes: ``m`` the edge's normal towards ``c``,
    ``P = (c - p0).m``, ``S = m.S m``, ``length2 = e.e = m.m``), else None."""
    ex, ey = p1[0] - p0[0], p1[1] - p0[1]
    mx, my = ey, -ex  # outward for a counter-clockwise polygon
    P = (E.cx - p0[0]) * mx + (E.cy - p0[1]) * my
    if P < 0 and not polygon:  # a segment: its normal towards the centre
        mx, my, P = -mx, -my, -P
    if P <= 0:
        return None
    S = E.s2(mx, my, mx, my)
    if P * P <= S:  # the ellipse reaches the edge's line: no least distance inside the edge
        return None
    G = (E.cx - p0[0]) * ex + (E.cy - p0[1]) * ey
    H = E.s2(ex, ey, mx, my)
    length2 = ex * ex + ey * ey
    # the foot of x_s at (x_s - p0).e = G - H / sqrt(S), in [0, e.e]
    if _root_sign(G, S, H) < 0 or _root_sign(G - length2, S, H) > 0:
        return None
    return mx, my, P, S, length2


def _edge_sign(candidate, r):
    """``sign(d - r)`` of an edge's least distance ``d = (P - sqrt(S)) / |m|`` (:func:`_edge_candidate`):
    the sign of ``P - sqrt(S) - r sqrt(m.m)``, squared once (``P > 0``), then again."""
    _, _, P, S, length2 = candidate
    Y = P * P - S - r * r * length2
    if Y <= 0:
        return -1
    return _sign(Y * Y - 4 * r * r * S * length2)


def separation_sign(core, r, E):
    """``sign(dist(K, E) - r)``: -1 also when the core meets the ellipse."""
    d2 = 0 if _centre_in_core(core, E) else min(
        [exact.point_segment2((E.cx, E.cy), p0, p1) for p0, p1 in _edges(core)]
        + [(x - E.cx) ** 2 + (y - E.cy) ** 2 for x, y in core])
    lo, hi = min(E.a, E.b), max(E.a, E.b)
    if d2 > (r + hi) ** 2:
        return 1
    if d2 < (r + lo) ** 2:
        return -1
    if _core_meets(core, E):
        return -1
    best = 1
    for v in core:
        best = min(best, _disc_sign(v, r, E))
        if best < 0:
            return -1
    polygon = len(core) >= 3
    for p0, p1 in _edges(core):
        candidate = _edge_candidate(p0, p1, E, polygon)
        if candidate is not None:
            best = min(best, _edge_sign(candidate, r))
            if best < 0:
                return -1
    return best


def _disc_within(v, r, E):
    """Whether the disc ``D(v, r)`` lies in the closed ellipse: a certificate first, else the
    pencil's exact relate.

    Certificate: with ``y = v - c`` on the level ``Q(y) = l^2 k`` (``l <= 1``), ``y + D((1 - l) b)``
    lies in ``E`` (``l E + (1 - l) D(b)`` does, ``D(b)`` the inscribed disc, ``b`` the smaller
    semi-axis), so ``r <= (1 - l) b``, that is ``Q(y) / k <= (1 - r / b)^2`` with ``r <= b``,
    proves it."""
    q = E.q(v[0] - E.cx, v[1] - E.cy)
    if q > E.k:
        return False
    lo = min(E.a, E.b)
    if r <= lo and q <= (1 - r / lo) ** 2 * E.k:
        return True
    one, zero = Fraction(1), Fraction(0)
    circle = [v[0], v[1], r, r, one, zero]
    ellipse = [E.cx, E.cy, E.a, E.b, E.wx, E.wy]
    return int(_conic()._relate_exact(circle, ellipse)) in (codes.WITHIN, codes.EQUAL)


def _beyond(px, py, nx, ny, E):
    """``sign(h_E(n) - p.n)``: the ellipse's support in the direction ``n`` beyond the point ``p``
    (``c.n + sqrt(n.S n)`` against ``p.n``)."""
    return _root_sign(Fraction(1), E.s2(nx, ny, nx, ny), (px - E.cx) * nx + (py - E.cy) * ny)


def _ellipse_in_flat(core, r, E):
    """Whether the ellipse lies in ``A``, decided beside one flat of ``A``, else None.

    When the ellipse lies within the slab of an edge ``p0 p1`` (between the lines through its
    ends normal to it), a point of it on the edge's outer side is at the distance from the core
    of its distance from the edge's line: the ellipse is not in ``A`` when it reaches more than
    ``r`` beyond that line (either side of a segment core). When it does not, and it lies on the
    inner side of every other edge line of a polygon core, each of its points lies in the core or
    in the rectangle of the edge's flat: it is in ``A``. Each bound is a support-function test with
    one square root (:func:`_beyond`, :func:`_offset_within`)."""
    edges = _edges(core)
    polygon = len(core) >= 3
    for i, (p0, p1) in enumerate(edges):
        ex, ey = p1[0] - p0[0], p1[1] - p0[1]
        if _beyond(p0[0], p0[1], -ex, -ey, E) > 0 or _beyond(p1[0], p1[1], ex, ey, E) > 0:
            continue  # the ellipse leaves the slab
        sides = [(ey, -ex)] if polygon else [(ey, -ex), (-ey, ex)]
        if not all(_offset_within(p0, mx, my, r, E) for mx, my in sides):
            return False
        if not polygon or all(_beyond(q0[0], q0[1], q1[1] - q0[1], q0[0] - q1[0], E) <= 0
                              for j, (q0, q1) in enumerate(edges) if j != i):
            return True
    return None


def _offset_within(p0, mx, my, r, E):
    """Whether ``h_E(m) <= p0.m + r |m|``: ``sqrt(m.S m) <= t + r sqrt(m.m)`` with ``t = (p0 - c).m``."""
    S = E.s2(mx, my, mx, my)
    t = (p0[0] - E.cx) * mx + (p0[1] - E.cy) * my
    M = mx * mx + my * my
    # sqrt(S) - t <= r sqrt(M): when sqrt(S) <= t it holds; else square (both sides >= 0)
    if _root_sign(Fraction(1), S, t) <= 0:
        return True
    # (sqrt(S) - t)^2 = S + t^2 - 2 t sqrt(S) <= r^2 M  <=>  S + t^2 - r^2 M <= 2 t sqrt(S)
    return _root_sign(2 * t, S, S + t * t - r * r * M) >= 0


def _core(pa, va):
    """A rounded row's core vertices (polygon, counter-clockwise), end points (capsule) or centre
    (disc), as exact ``(x, y)`` pairs of Fractions, and its radius."""
    count = int(pa[1])
    if count >= 3:
        offset = int(pa[0])
        core = [(Fraction(float(x)), Fraction(float(y))) for x, y in va[offset : offset + count]]
    else:
        ends = [Fraction(float(x)) for x in pa[3 : 3 + 2 * count]]
        core = list(zip(ends[0::2], ends[1::2]))
    return _counter_clockwise(core), Fraction(float(pa[2]))


def relation(name, pa, va, pb):
    """The exact code of the rounded row ``pa`` (vertices ``va``) and the ellipse row ``pb`` for the
    kernel ``name``: ``relate_rounded_ellipse`` (a relation code, the rounded shape first) or
    ``intersects_rounded_ellipse`` (1 or 0). Module notes; a circle by :func:`circle_relation`."""
    from collide2d._robust.ellipse_in_rounded import ellipse_in_rounded

    if pb[2] == pb[3]:
        return circle_relation(name, pa, va, pb)
    core, r = _core(pa, va)
    E = _Ellipse(pb)
    sign = separation_sign(core, r, E)
    if name.startswith("intersects"):
        return int(sign <= 0)
    if sign > 0:
        return codes.DISJOINT
    if sign == 0:
        return codes.TOUCHING
    a_in_b = all(_disc_within(v, r, E) for v in core)
    centre_in_a = _centre_in_core(core, E) or min(
        [exact.point_segment2((E.cx, E.cy), p0, p1) for p0, p1 in _edges(core)]
        + [(x - E.cx) ** 2 + (y - E.cy) ** 2 for x, y in core]) <= r * r
    b_in_a = centre_in_a and _ellipse_in_flat(core, r, E)
    if b_in_a is None:
        b_in_a = ellipse_in_rounded(pb, [(float(x), float(y)) for x, y in core], float(pa[2]))
    if a_in_b:
        return codes.EQUAL if b_in_a else codes.WITHIN
    return codes.CONTAINS if b_in_a else codes.OVERLAPPING


def circle_relation(name, pa, va, pb):
    """The exact relation code (``relate_rounded_ellipse``) or meeting (``intersects_...``) of the
    rounded row ``pa`` (core ``K``, radius ``r``) and the circle ``pb`` (an ellipse row of equal
    semi-axes: centre ``c``, radius ``rho``) on the stored numbers.

    ``A = K + D(r)`` and the disc ``D(c, rho)`` are convex; with ``d = dist(c, K)``: they meet iff
    ``d <= r + rho`` (touching at equality); ``A`` lies in the disc iff every core vertex ``v`` has
    ``|v - c| <= rho - r`` (the farthest point of a convex core is a vertex); the disc lies in ``A``
    iff ``d <= r - rho`` (``rho <= r``) or, for a polygon core and ``rho > r``, every edge line
    has ``c`` at least ``rho - r`` on its inner side (the support functions add: ``D(c, rho - r)``
    in ``K``). Every comparison is made on squares of exact Fractions."""
    core, r = _core(pa, va)
    cx, cy, rho = Fraction(float(pb[0])), Fraction(float(pb[1])), Fraction(float(pb[2]))
    n = len(core)
    edges = [(core[i], core[(i + 1) % n]) for i in range(n)] if n >= 3 else [(core[0], core[-1])]
    crosses = [(b[0] - a[0]) * (cy - a[1]) - (b[1] - a[1]) * (cx - a[0]) for a, b in edges]
    if n >= 3:  # the polygon's orientation: crosses of an interior point are >= 0 when counter-clockwise
        twice_area = sum(a[0] * b[1] - a[1] * b[0] for a, b in edges)
        crosses = [x if twice_area > 0 else -x for x in crosses]
    inside_core = n >= 3 and all(x >= 0 for x in crosses)
    d2 = Fraction(0) if inside_core else min(exact.point_segment2((cx, cy), a, b) for a, b in edges)
    reach = r + rho
    if name.startswith("intersects"):
        return int(d2 <= reach * reach)
    if d2 > reach * reach:
        return codes.DISJOINT
    if d2 == reach * reach:
        return codes.TOUCHING
    a_in_b = rho >= r and all((x - cx) ** 2 + (y - cy) ** 2 <= (rho - r) ** 2 for x, y in core)
    if rho <= r:
        b_in_a = d2 <= (r - rho) ** 2
    else:
        b_in_a = n >= 3 and all(x >= 0 and x * x >= (rho - r) ** 2 * ((b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2)
                                for x, (a, b) in zip(crosses, edges))
    if a_in_b:
        return codes.EQUAL if b_in_a else codes.WITHIN
    return codes.CONTAINS if b_in_a else codes.OVERLAPPING


# -- contact at the small shape's scale ------------------------------------------------------------
# When the core does not meet the ellipse, the contact is that of the nearest feature of the core
# (step 2 above) with the radius taken off. Its distance is computed in decimal arithmetic at a
# precision that covers the pair's span of magnitudes (the differences ``v - c`` are formed exactly,
# on Fractions, first), so that a capsule 2.5 from an ellipse of size 1e149 is measured to a few
# ulps of 2.5, not of 1e149: the nearest point of a vertex by Eberly's root of the distance
# equation ("Distance from a Point to an Ellipse, an Ellipsoid, or a Hyperellipsoid", Geometric
# Tools, 2013; ``F(s) = (r0 z0 / (s + r0))^2 + (z1 / (s + 1))^2 - 1``, convex and decreasing, so
# Newton's steps from the lower bound ``|z| - 1`` rise monotonically to the root), the inside of an
# edge by its support point ``x_s`` in closed form.

_GUARD_DIGITS = 40


def _digits(pa, va, pb):
    """Decimal digits that cover the span of the pair's non-zero magnitudes plus a guard."""
    import math

    values = [abs(float(x)) for x in pb[:4]] + [abs(float(x)) for x in pa[2:7]]
    if int(pa[1]) >= 3:
        offset, count = int(pa[0]), int(pa[1])
        values += [abs(float(x)) for x in va[offset : offset + count].ravel()]
    values = [x for x in values if x != 0.0]
    span = math.frexp(max(values))[1] - math.frexp(min(values))[1]
    return int(span * 0.30103) + 17 + _GUARD_DIGITS


def _decimal(x):
    from decimal import Decimal

    return Decimal(x.numerator) / Decimal(x.denominator)


def _nearest_on_ellipse(yx, yy, E, frame):
    """``(distance, qx, qy)`` from the point ``c + y`` (outside ``E``; ``y`` exact Fractions) to
    ``E``, ``q - c`` its nearest point, in the current decimal context (Eberly, notes above)."""
    from decimal import Decimal, getcontext

    ux, uy = frame
    a, b = _decimal(E.a), _decimal(E.b)
    Y0, Y1 = _decimal(yx) * ux + _decimal(yy) * uy, _decimal(yy) * ux - _decimal(yx) * uy  # in the ellipse's frame
    swap = a < b
    if swap:  # the larger semi-axis first
        a, b, Y0, Y1 = b, a, Y1, Y0
    y0, y1 = abs(Y0), abs(Y1)
    z0, z1 = y0 / a, y1 / b
    r0 = (a / b) ** 2
    s = (z0 * z0 + z1 * z1).sqrt() - 1  # a lower bound: F(s) >= (z0^2 + z1^2) / (s + 1)^2 - 1 (r0 >= 1)
    tiny = Decimal(10) ** (5 - getcontext().prec)  # the relative step at which Newton has converged
    for _ in range(4000):
        p0, p1 = r0 * z0 / (s + r0), z1 / (s + 1)
        f = p0 * p0 + p1 * p1 - 1
        if f <= 0:
            break
        slope = 2 * (p0 * p0 / (s + r0) + p1 * p1 / (s + 1))
        step = f / slope
        s += step
        if step <= tiny * (abs(s) + 1):
            break
    x0, x1 = r0 * y0 / (s + r0), y1 / (s + 1)
    d0, d1 = y0 - x0, y1 - x1
    distance = (d0 * d0 + d1 * d1).sqrt()
    x0, x1 = x0.copy_sign(Y0), x1.copy_sign(Y1)
    if swap:
        x0, x1 = x1, x0
    return distance, x0 * ux - x1 * uy, x0 * uy + x1 * ux


def contact(pa, va, pb):
    """The contact 9-tuple of the rounded row ``pa`` (``r > 0``, vertices ``va``) and the ellipse
    row ``pb``, the rounded shape first (notes above; a core that meets the ellipse:
    :func:`_penetration`, or None)."""
    from decimal import localcontext

    core, r = _core(pa, va)
    E = _Ellipse(pb)
    if _core_meets(core, E):
        return _penetration(core, r, E, pa, va, pb)
    with localcontext() as ctx:
        ctx.prec = _digits(pa, va, pb)
        norm = _decimal(E.W).sqrt()
        frame = (_decimal(E.wx) / norm, _decimal(E.wy) / norm)
        best = None
        for v in core:
            d, qx, qy = _nearest_on_ellipse(v[0] - E.cx, v[1] - E.cy, E, frame)
            if best is None or d < best[0]:
                best = (d, _decimal(v[0] - E.cx), _decimal(v[1] - E.cy), qx, qy, True)
        polygon = len(core) >= 3
        for p0, p1 in _edges(core):
            candidate = _edge_candidate(p0, p1, E, polygon)
            if candidate is None:
                continue
            mx, my, P, S, length2 = (_decimal(x) for x in candidate)
            m = length2.sqrt()
            d = (P - S.sqrt()) / m
            if d < best[0]:
                # x_s - c = -S m / sqrt(m.S m); its foot on the edge is x_s - d m / |m|
                root = S.sqrt()
                sx, sy = _decimal(E.s2(candidate[0], candidate[1], 1, 0)), _decimal(E.s2(candidate[0], candidate[1], 0, 1))
                qx, qy = -sx / root, -sy / root
                best = (d, qx - d * mx / m, qy - d * my / m, qx, qy, False)
        d, px, py, qx, qy, vertex = best
        nx, ny = (qx - px) / d, (qy - py) / d
        cx, cy = _decimal(E.cx), _decimal(E.cy)
        rr = _decimal(r)
        return (float(d - rr), float(nx), float(ny), float(cx + px + rr * nx), float(cy + py + rr * ny),
                float(cx + qx), float(cy + qy), float(1 / rr) if vertex else 0.0, float(_curvature(qx, qy, E, frame)))


def _curvature(qx, qy, E, frame):
    """The curvature of ``E`` at its boundary point ``c + q`` (decimal)."""
    ux, uy = frame
    a, b = _decimal(E.a), _decimal(E.b)
    x0, x1 = qx * ux + qy * uy, qy * ux - qx * uy
    level = (x0 / (a * a)) ** 2 + (x1 / (b * b)) ** 2  # |grad| / 2 of x0^2 / a^2 + x1^2 / b^2, squared
    return 1 / (a * a * b * b * (level**3).sqrt())  # 1 / (a^2 b^2 level^(3/2))


_FAR = 2**20  # how much the ellipse's least radius of curvature exceeds the rounded shape's size


def _penetration(core, r, E, pa, va, pb):
    """The contact of a small core that meets a far larger ellipse near its boundary (its least
    radius of curvature :data:`_FAR` times the rounded shape's size; the core's first vertex on a
    level of the ellipse's quadratic form within ``1 / _FAR`` of its boundary's), or None for other
    pairs (measured at the pair's scale, the scale of such a penetration).

    The signed separation of convex sets is ``max`` over unit ``n`` of ``s(n) = min_{x in E} x.n -
    max_{y in K} y.n = min_v (c - v).n - sqrt(n.S n)`` (its negative, the penetration depth, when
    they overlap; the separating-axis form of the support functions). Beside an ellipse far larger
    than the core, ``s`` is single-peaked near the ellipse's inward normal ``n0`` at the core (the
    ellipse's support varies with the angle like its radius of curvature times the angle squared):
    its peak is found by bisection on the sign of its slope (well conditioned, where its value is
    flat to about the square root of the precision) over ``n0`` turned by ``delta``, ``(cos, sin)
    delta`` from ``t = tan(delta / 2)`` (rational: no trigonometry), in decimal at the pair's span
    of precision. The witnesses: the core's vertex of ``max y.n`` moved
    by ``r n``, the ellipse's support point ``c - S n / sqrt(n.S n)``."""
    from decimal import localcontext

    xs, ys = [x for x, _ in core], [y for _, y in core]
    lo, hi = min(E.a, E.b), max(E.a, E.b)
    if lo * lo / hi <= _FAR * (max(max(xs) - min(xs), max(ys) - min(ys)) + r):  # its least radius of curvature
        return None
    if E.q(core[0][0] - E.cx, core[0][1] - E.cy) < (1 - Fraction(1, _FAR)) * E.k:  # not near its boundary
        return None
    with localcontext() as ctx:
        ctx.prec = _digits(pa, va, pb)
        cx, cy = _decimal(E.cx), _decimal(E.cy)
        points = [(_decimal(x) - cx, _decimal(y) - cy) for x, y in core]  # v - c, exact differences rounded once
        S = [_decimal(E.s2(1, 0, 1, 0)), _decimal(E.s2(1, 0, 0, 1)), _decimal(E.s2(0, 1, 0, 1))]
        gx, gy = _decimal(E.q2(1, 0, core[0][0] - E.cx, core[0][1] - E.cy)), _decimal(E.q2(0, 1, core[0][0] - E.cx, core[0][1] - E.cy))
        norm = (gx * gx + gy * gy).sqrt()
        ux, uy = -gx / norm, -gy / norm  # the inward normal of the ellipse's level through the first vertex

        def direction(t):
            w = 1 + t * t
            c, s_ = (1 - t * t) / w, 2 * t / w
            return ux * c - uy * s_, ux * s_ + uy * c

        def value(t):
            nx, ny = direction(t)
            lowest = min(-(x * nx + y * ny) for x, y in points)
            return lowest - (S[0] * nx * nx + 2 * S[1] * nx * ny + S[2] * ny * ny).sqrt()

        def rising(t):  # the sign of ds/dt: dn/dt is a positive multiple of n^ = (-ny, nx)
            nx, ny = direction(t)
            px, py = -ny, nx
            vx, vy = max(points, key=lambda p: p[0] * nx + p[1] * ny)  # the active vertex of min_v (c - v).n
            root = (S[0] * nx * nx + 2 * S[1] * nx * ny + S[2] * ny * ny).sqrt()
            return -(vx * px + vy * py) - (S[0] * nx * px + S[1] * (nx * py + ny * px) + S[2] * ny * py) / root > 0

        lo, hi = _decimal(Fraction(-1, 4)), _decimal(Fraction(1, 4))  # delta within about +-0.5 rad
        for _ in range(int(ctx.prec * 3.33) + 8):  # bisection on the slope's sign: to the precision's last digit
            mid = (lo + hi) / 2
            if rising(mid):
                lo = mid
            else:
                hi = mid
        t = (lo + hi) / 2
        separation = value(t)
        nx, ny = direction(t)
        vx, vy = max(points, key=lambda p: p[0] * nx + p[1] * ny)
        root = (S[0] * nx * nx + 2 * S[1] * nx * ny + S[2] * ny * ny).sqrt()
        qx, qy = -(S[0] * nx + S[1] * ny) / root, -(S[1] * nx + S[2] * ny) / root
        rr = _decimal(r)
        frame = (_decimal(E.wx) / _decimal(E.W).sqrt(), _decimal(E.wy) / _decimal(E.W).sqrt())
        return (float(separation - rr), float(nx), float(ny), float(cx + vx + rr * nx), float(cy + vy + rr * ny),
                float(cx + qx), float(cy + qy), float(1 / rr), float(_curvature(qx, qy, E, frame)))
