"""Overlap area of an ellipse (or circle) with an ellipse or a convex polygon.

Contract (see :mod:`collide2d._kernels`): ``area_ellipse_<b>(pa, va, pb, vb, relation) -> float``
where ``relation`` is the exact relation code of the pair, so that the kernel never re-decides
containment or disjointness: ``DISJOINT`` / ``TOUCHING`` give 0, ``CONTAINS`` the area of ``b``,
``WITHIN`` and ``EQUAL`` the area of ``a``. Only ``OVERLAPPING`` pairs are computed.

Frame: the unit frame of the *smaller* ellipse ``A`` (:mod:`points_ellipse`; the arguments are
swapped when ``pb`` is smaller, ties broken by the rows, so the area is the same number in both
argument orders), where ``A`` is the unit circle; the map from the world has determinant
``1 / (a b)``, so world areas are frame areas times ``a b``. The piece of the
smaller ellipse then stays on the scale of one whatever the size ratio, and the level of ``A``'s
centre in ``B`` comes from :func:`points_ellipse.offset_at` without cancellation.

Segment formula (Eberly, "The Area of Intersecting Ellipses", 2008, uses polar
angles, Hughes & Chraibi 2012 sectors and triangles; the eccentric-angle form is the same area): the
region between the chord ``P -> Q`` of an ellipse and its counter-clockwise arc from ``P`` to ``Q``
has area ``a b (dt - sin dt) / 2`` where ``dt`` in ``[0, 2 pi)`` is the eccentric-angle step,
obtained as ``atan2(cross, dot)`` of the two points in the ellipse's unit frame (no difference of
two angles). ``dt - sin dt`` is taken from its Taylor series below ``dt = 0.25`` (terms to
``dt^15``: the first omitted term is below ``2e-17`` of the sum), since the direct difference loses
``log10(6 / dt^2)`` digits.

Ellipse against ellipse (Hughes & Chraibi, "Calculating ellipse overlap
areas", Comput. Visual. Sci. 15 (2012); Eberly, "The Area of Intersecting Ellipses", Geometric
Tools): the points where the boundaries meet, sorted by angle on ``A``, are the corners of the
convex region ``A n B``; the region is the polygon of those corners plus, between consecutive
corners, the segment of whichever ellipse bounds the region there: the one whose arc lies inside
the other ellipse, found by testing points along the arc (:func:`_arc_inside`). No alternation
A, B, A, B is assumed: a tangent point among the corners (found once, twice or not at all) breaks
it. Since the corners lie on a convex curve, the steps on either ellipse sum to exactly ``2 pi``,
which guards against an angle of ``-tiny`` rounded to ``2 pi - tiny`` (and, for two corners that
coincide, tells which step is the full turn). Crossings that the pencil cannot resolve (clusters
of three or four intersections near a contact of order 3 or 4) are found again as the sign
changes of ``B``'s level along the unit circle (:func:`points_ellipse.crossings_by_sign`).

Ellipse against polygon: the polygon is mapped to the frame and clipped by the unit disc in one
pass over its edges (vertices inside, entry and exit points, in order); the area is the shoelace
sum of that chain (in coordinates relative to the first vertex, to keep slivers and polygons far
smaller than the ellipse accurate; for a polygon reaching beyond the ellipse, in plain frame
coordinates with each edge's distance from the centre computed without cancellation) plus a
circular segment for every arc from an exit point to the next entry point.

No allocation, no exceptions.
"""

import math

from collide2d._jit import kernel

from .. import codes
from .points_ellipse import conic_in_frame, level_at, pick4, put4, resolved_crossings, to_frame, unit_frame
from ..vec import hypot, two_product, two_sum

_TWO_PI = 2.0 * math.pi
# Series switch for dt - sin dt (see the module docstring). Dimensionless (radians).
_SERIES_BELOW = 0.25
# Levels (q - 1 of the other ellipse) at least this far from 0 at the middle of an arc decide its
# side alone (see _arc_inside); closer ones ask the quarter points too. Dimensionless.
_LEVEL_BAND = 1e-3


@kernel
def segment_area(dt):
    """``(dt - sin dt) / 2``: the unit-circle segment cut off by a chord spanning the angle ``dt``."""
    if dt < _SERIES_BELOW:
        x = dt * dt
        s = 1.0 / 1307674368000.0
        s = 1.0 / 6227020800.0 - x * s
        s = 1.0 / 39916800.0 - x * s
        s = 1.0 / 362880.0 - x * s
        s = 1.0 / 5040.0 - x * s
        s = 1.0 / 120.0 - x * s
        s = 1.0 / 6.0 - x * s
        return 0.5 * (dt * x) * s
    return 0.5 * (dt - math.sin(dt))


@kernel
def ccw_angle(x0, y0, x1, y1):
    """Counter-clockwise angle in ``[0, 2 pi)`` from direction ``(x0, y0)`` to ``(x1, y1)``."""
    t = math.atan2(x0 * y1 - y0 * x1, x0 * x1 + y0 * y1)
    if t < 0.0:
        t += _TWO_PI
    return t


@kernel
def ellipse_area(pa):
    """``pi a b``."""
    return math.pi * pa[2] * pa[3]


@kernel
def polygon_area(pb, vb):
    """Shoelace area of a counter-clockwise polygon row, about its first vertex."""
    offset = int(pb[0])
    count = int(pb[1])
    ox = vb[offset, 0]
    oy = vb[offset, 1]
    s = 0.0
    for i in range(1, count - 1):
        ax = vb[offset + i, 0] - ox
        ay = vb[offset + i, 1] - oy
        bx = vb[offset + i + 1, 0] - ox
        by = vb[offset + i + 1, 1] - oy
        s += ax * by - ay * bx
    return 0.5 * s


@kernel
def _sort_step(t0, x0, y0, t1, x1, y1):
    if t1 < t0:
        return t1, x1, y1, t0, x0, y0
    return t0, x0, y0, t1, x1, y1


@kernel
def _fix_wrap(n, d0, d1, d2, d3, long_index):
    """Make the steps around a closed convex chain sum to ``2 pi``.

    A sum near ``4 pi`` (``6 pi``) means that one (two) steps of ``-tiny`` came out as
    ``2 pi - tiny``: the largest step is set back to 0 (twice). A sum near 0 means that all corners coincide to rounding (a crossing
    pair at a tangency): the step ``long_index`` is the full turn.
    """
    total = d0 + d1 + (d2 if n > 2 else 0.0) + (d3 if n > 3 else 0.0)
    while n > 2 and total > 3.0 * math.pi:  # once per step rounded the wrong way (at most twice)
        big = max(max(d0, d1), max(d2 if n > 2 else 0.0, d3 if n > 3 else 0.0))
        if d0 == big:
            d0 = 0.0
        elif d1 == big:
            d1 = 0.0
        elif d2 == big:
            d2 = 0.0
        else:
            d3 = 0.0
        total -= big
    if total < math.pi:
        if long_index == 0:
            d0 += _TWO_PI
        elif long_index == 1:
            d1 += _TWO_PI
        elif long_index == 2:
            d2 += _TWO_PI
        else:
            d3 += _TWO_PI
    return d0, d1, d2, d3


@kernel
def _arc_middle(x0, y0, x1, y1, dt):
    """Unit vector halfway along the counter-clockwise arc of the unit circle from ``(x0, y0)``.

    The arc ends at ``(x1, y1)`` after the angle ``dt``; both ends lie on the unit circle (to
    rounding). Without trigonometry: the bisector ``u0 + u1`` for ``dt <= pi / 2`` (its opposite
    for ``dt >= 3 pi / 2``), else the chord ``u1 - u0`` turned clockwise by a quarter (well
    conditioned where ``u0 + u1`` is small).
    """
    if dt <= 0.5 * math.pi:
        mx = x0 + x1
        my = y0 + y1
    elif dt >= 1.5 * math.pi:
        mx = -(x0 + x1)
        my = -(y0 + y1)
    else:
        mx = y1 - y0
        my = x0 - x1
    m = hypot(mx, my)
    if not (m > 0.0):
        return x0, y0
    return mx / m, my / m


@kernel
def _level_b(X, Y, p1, p2, r1, r2, sp, sr):
    """``q_B - 1`` at the frame point ``X`` (``|P X - s|^2 - 1``; negative inside ``B``)."""
    zp = p1 * X + p2 * Y - sp
    zr = r1 * X + r2 * Y - sr
    return (zp * zp + zr * zr) - 1.0


@kernel
def _level_a(zp, zr, p1, p2, r1, r2, sp, sr, det_p):
    """``|X|^2 - 1`` at the point ``Z`` of ``B``'s unit frame (``X = P^-1 (Z + s)``)."""
    u = zp + sp
    v = zr + sr
    x = (r2 * u - p2 * v) / det_p
    y = (p1 * v - r1 * u) / det_p
    return (x * x + y * y) - 1.0


@kernel
def _level_other(on_a, x, y, p1, p2, r1, r2, sp, sr, det_p):
    """The other ellipse's level at a point of ``A`` (``on_a``, ``A``'s frame) or of ``B`` (its frame)."""
    if on_a:
        return _level_b(x, y, p1, p2, r1, r2, sp, sr)
    return _level_a(x, y, p1, p2, r1, r2, sp, sr, det_p)


@kernel
def _arc_inside(on_a, x0, y0, x1, y1, dt, p1, p2, r1, r2, sp, sr, det_p):
    """Does the arc of ``dt`` from ``(x0, y0)`` to ``(x1, y1)`` lie inside the other ellipse?

    The arc is one of ``A`` (``on_a``, points in ``A``'s frame) or of ``B`` (points in ``B``'s
    unit frame). Along an arc between consecutive meeting points the other ellipse's level has one
    sign, except at a tangent point that rounding dropped from the corners (a zero) or inside a
    pair of crossings closer than the pencil resolves (a sliver of the other sign); such a point
    is often exactly the arc's middle (symmetric pairs). The level at the middle decides unless it
    is within ``_LEVEL_BAND`` of 0; then the majority of the quarter points and the middle does
    (a tangent point or a sliver spoils one of the three at most).
    """
    mx, my = _arc_middle(x0, y0, x1, y1, dt)
    mid = _level_other(on_a, mx, my, p1, p2, r1, r2, sp, sr, det_p)
    if abs(mid) >= _LEVEL_BAND:
        return mid < 0.0
    qx, qy = _arc_middle(x0, y0, mx, my, 0.5 * dt)
    wx, wy = _arc_middle(mx, my, x1, y1, 0.5 * dt)
    votes = (1 if mid < 0.0 else 0) + (1 if _level_other(on_a, qx, qy, p1, p2, r1, r2, sp, sr, det_p) < 0.0 else 0)
    votes += 1 if _level_other(on_a, wx, wy, p1, p2, r1, r2, sp, sr, det_p) < 0.0 else 0
    return votes >= 2


@kernel
def _b_step(xi, yi, xj, yj, p1, p2, r1, r2, sp, sr):
    """Counter-clockwise step on ``B`` from corner ``i`` to corner ``j`` (frame points of ``A``).

    ``Z_j = Z_i + P (X_j - X_i)``: the cross and dot products are taken with the difference, which
    keeps their relative accuracy when ``B`` is far larger than ``A`` (``Z_i`` and ``Z_j`` agree in
    their leading digits).
    """
    zpi = p1 * xi + p2 * yi - sp
    zri = r1 * xi + r2 * yi - sr
    dx = xj - xi
    dy = yj - yi
    ep = p1 * dx + p2 * dy
    er = r1 * dx + r2 * dy
    cr = zpi * er - zri * ep
    dot = (zpi * zpi + zri * zri) + (zpi * ep + zri * er)
    t = math.atan2(cr, dot)
    if t < 0.0:
        t += _TWO_PI
    return t


@kernel
def overlap_in_frame(p1, p2, r1, r2, sp, sr, n, X0, Y0, X1, Y1, X2, Y2, X3, Y3):
    """Area of ``A n B`` in the unit frame of ``A`` from its ``n`` (2..4) boundary meeting points.

    The points may include tangent points (once or twice) besides the crossings, or miss them;
    nothing here assumes that the pieces alternate between the two ellipses.
    """
    # sort the corners by angle on A (a sorting network on up to four entries; absent ones last)
    t0 = math.atan2(Y0, X0)
    t1 = math.atan2(Y1, X1)
    t2 = math.atan2(Y2, X2) if n > 2 else math.inf
    t3 = math.atan2(Y3, X3) if n > 3 else math.inf
    t0, X0, Y0, t1, X1, Y1 = _sort_step(t0, X0, Y0, t1, X1, Y1)
    t2, X2, Y2, t3, X3, Y3 = _sort_step(t2, X2, Y2, t3, X3, Y3)
    t0, X0, Y0, t2, X2, Y2 = _sort_step(t0, X0, Y0, t2, X2, Y2)
    t1, X1, Y1, t3, X3, Y3 = _sort_step(t1, X1, Y1, t3, X3, Y3)
    t1, X1, Y1, t2, X2, Y2 = _sort_step(t1, X1, Y1, t2, X2, Y2)
    det_p = p1 * r2 - p2 * r1  # > 0: B's unit frame Z = P X - s keeps the orientation
    # corner polygon about X0
    poly = 0.0
    for i in range(1, n - 1):
        ax = pick4(i, X0, X1, X2, X3) - X0
        ay = pick4(i, Y0, Y1, Y2, Y3) - Y0
        bx = pick4(i + 1, X0, X1, X2, X3) - X0
        by = pick4(i + 1, Y0, Y1, Y2, Y3) - Y0
        poly += 0.5 * (ax * by - ay * bx)
    # steps on A and on B between consecutive corners
    dA0 = dA1 = dA2 = dA3 = 0.0
    dB0 = dB1 = dB2 = dB3 = 0.0
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        xi = pick4(i, X0, X1, X2, X3)
        yi = pick4(i, Y0, Y1, Y2, Y3)
        xj = pick4(j, X0, X1, X2, X3)
        yj = pick4(j, Y0, Y1, Y2, Y3)
        dA0, dA1, dA2, dA3 = put4(i, ccw_angle(xi, yi, xj, yj), dA0, dA1, dA2, dA3)
        dB0, dB1, dB2, dB3 = put4(i, _b_step(xi, yi, xj, yj, p1, p2, r1, r2, sp, sr), dB0, dB1, dB2, dB3)
    # sorted by angle on A, only the last step (back to the first corner) can be the full turn
    dA0, dA1, dA2, dA3 = _fix_wrap(n, dA0, dA1, dA2, dA3, n - 1)
    longest = int(0)
    for i in range(1, n):
        if pick4(i, dA0, dA1, dA2, dA3) > pick4(longest, dA0, dA1, dA2, dA3):
            longest = i
    dB0, dB1, dB2, dB3 = _fix_wrap(n, dB0, dB1, dB2, dB3, longest)
    # Between consecutive corners the region is bounded by the arc of A or by the arc of B, the one
    # inside the other ellipse (Hughes & Chraibi 2012; Eberly 2008): points along the arc are tested
    # against the other ellipse (_arc_inside), with no assumption that the pieces alternate (a
    # tangent point among the corners breaks the alternation). The test is made on the longer of
    # the two arcs (in angle): near the corners, whose error along the curves is up to ~sqrt(eps)
    # near tangency, both arcs nearly coincide and the test means nothing, while along the longer
    # arc it is decisive; a short arc contributes a segment below rounding either way.
    if n == 2:
        # Two corners: one arc of each ellipse bounds the region. When the corners coincide within
        # rounding their order along the two curves may disagree, so the arcs are paired per
        # ellipse, not per corner pair: each ellipse keeps its longer arc if that one is inside the
        # other ellipse, else its shorter one.
        la = 0 if dA0 >= dA1 else 1
        inside = _arc_inside(bool(True), pick4(la, X0, X1, X0, X0), pick4(la, Y0, Y1, Y0, Y0), pick4(1 - la, X0, X1, X0, X0), pick4(1 - la, Y0, Y1, Y0, Y0), max(dA0, dA1), p1, p2, r1, r2, sp, sr, det_p)
        piece_a = max(dA0, dA1) if inside else min(dA0, dA1)
        lb = 0 if dB0 >= dB1 else 1
        zpi = p1 * pick4(lb, X0, X1, X0, X0) + p2 * pick4(lb, Y0, Y1, Y0, Y0) - sp
        zri = r1 * pick4(lb, X0, X1, X0, X0) + r2 * pick4(lb, Y0, Y1, Y0, Y0) - sr
        zpj = p1 * pick4(1 - lb, X0, X1, X0, X0) + p2 * pick4(1 - lb, Y0, Y1, Y0, Y0) - sp
        zrj = r1 * pick4(1 - lb, X0, X1, X0, X0) + r2 * pick4(1 - lb, Y0, Y1, Y0, Y0) - sr
        inside = _arc_inside(bool(False), zpi, zri, zpj, zrj, max(dB0, dB1), p1, p2, r1, r2, sp, sr, det_p)
        piece_b = max(dB0, dB1) if inside else min(dB0, dB1)
        return segment_area(piece_a) + segment_area(piece_b) / det_p
    total = poly
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        xi = pick4(i, X0, X1, X2, X3)
        yi = pick4(i, Y0, Y1, Y2, Y3)
        xj = pick4(j, X0, X1, X2, X3)
        yj = pick4(j, Y0, Y1, Y2, Y3)
        da = pick4(i, dA0, dA1, dA2, dA3)
        db = pick4(i, dB0, dB1, dB2, dB3)
        if da >= db:
            on_a = _arc_inside(bool(True), xi, yi, xj, yj, da, p1, p2, r1, r2, sp, sr, det_p)
        else:
            zpi = p1 * xi + p2 * yi - sp
            zri = r1 * xi + r2 * yi - sr
            zpj = p1 * xj + p2 * yj - sp
            zrj = r1 * xj + r2 * yj - sr
            on_a = not _arc_inside(bool(False), zpi, zri, zpj, zrj, db, p1, p2, r1, r2, sp, sr, det_p)
        if on_a:
            total += segment_area(da)
        else:
            total += segment_area(db) / det_p
    return total


@kernel
def _second_first(pa, pb):
    """Should ``pb`` be the frame ellipse? The smaller one is (ties: the lexicographically smaller row).

    Working in the unit frame of the smaller ellipse keeps its piece of the area on the scale of
    one, and taking the same frame in both argument orders makes the area symmetric bit for bit.
    """
    sa = pa[2] * pa[3]
    sb = pb[2] * pb[3]
    if sb != sa:
        return sb < sa
    for k in range(6):
        if pb[k] != pa[k]:
            return pb[k] < pa[k]
    return False


@kernel
def area_ellipse_ellipse(pa, va, pb, vb, relation):
    """Area of the intersection of two ellipses (see the module docstring).

    ``OVERLAPPING`` pairs whose crossing points cannot be resolved in floating point (fewer than
    two found: boundaries that agree to rounding, e.g. near-identical ellipses) return the smaller
    area; the true value then differs from it by at most the perimeter times the distance between
    the boundaries, i.e. by rounding.
    """
    if relation == codes.DISJOINT or relation == codes.TOUCHING:
        return 0.0
    if relation == codes.CONTAINS:
        return ellipse_area(pb)
    if relation == codes.WITHIN or relation == codes.EQUAL:
        return ellipse_area(pa)
    small = min(ellipse_area(pa), ellipse_area(pb))
    if _second_first(pa, pb):
        pa, pb = pb, pa
    p1, p2, r1, r2, sp, sr, g = conic_in_frame(pa, pb)
    n, X0, Y0, X1, Y1, X2, Y2, X3, Y3, gap, fx, fy = resolved_crossings(p1, p2, r1, r2, sp, sr, g)
    if n < 2:
        # The boundaries meet (exactly) but no crossing survived rounding: the pair is within
        # rounding of a tangency or of equality. Nested-like pairs (either centre inside the
        # other: internal tangency, near-identical) have the smaller area, externally tangent ones
        # a lens below rounding.
        cx, cy, a, b, ux, uy = unit_frame(pa)
        X, Y = to_frame(pb[0], pb[1], cx, cy, a, b, ux, uy)
        if g < 0.0 or X * X + Y * Y < 1.0:  # g = q_B - 1 at the centre of A
            return small
        return 0.0
    area = pa[2] * pa[3] * overlap_in_frame(p1, p2, r1, r2, sp, sr, n, X0, Y0, X1, Y1, X2, Y2, X3, Y3)
    return max(0.0, min(area, small))


@kernel
def _inside_polygon(X, Y, pb, vb, cx, cy, a, b, ux, uy, tol):
    """Is the frame point ``(X, Y)`` left of (or within ``tol`` of) every edge of the polygon?"""
    offset = int(pb[0])
    count = int(pb[1])
    for i in range(count):
        k0 = offset + i
        k1 = offset + i + 1 if i + 1 < count else offset
        x0, y0 = to_frame(vb[k0, 0], vb[k0, 1], cx, cy, a, b, ux, uy)
        x1, y1 = to_frame(vb[k1, 0], vb[k1, 1], cx, cy, a, b, ux, uy)
        ex = x1 - x0
        ey = y1 - y0
        if ex * (Y - y0) - ey * (X - x0) < -tol * hypot(ex, ey):
            return False
    return True


@kernel
def _edge_cross(x0, y0, x1, y1, cx, cy):
    """``(V1 - V0) x (V0 - c)`` from the stored numbers, to a few roundings of the result.

    Both differences are carried as ``hi + lo`` (TwoSum) and the products by TwoProduct (see
    :func:`points_ellipse.offset_at`): for an edge of length ``L`` passing at a distance ``delta``
    from ``c`` the plain formula would lose ``log10(L |V0 - c| / (L delta))`` digits.
    """
    ex, exl = two_sum(x1, -x0)
    ey, eyl = two_sum(y1, -y0)
    dx, dxl = two_sum(x0, -cx)
    dy, dyl = two_sum(y0, -cy)
    p, pl = two_product(ex, dy)
    q, ql = two_product(ey, dx)
    h, hl = two_sum(p, -q)
    return h + (hl + (pl - ql) + ((ex * dyl + exl * dy) - (ey * dxl + eyl * dx)))


@kernel
def _vertex_level(dx, dy, xr, yr, gr, a, b, ux, uy):
    """Frame offset ``D`` of the world offset ``(dx, dy)`` from ``V_r``, and ``|X_r + D|^2 - 1``."""
    Dx, Dy = to_frame(dx, dy, 0.0, 0.0, a, b, ux, uy)
    return Dx, Dy, gr + ((xr + xr + Dx) * Dx + (yr + yr + Dy) * Dy)


@kernel
def disc_polygon_in_frame(pa, pb, vb, cx, cy, a, b, ux, uy):
    """Area of (unit disc) n (polygon mapped to the unit frame of the ellipse).

    One pass over the edges emits the boundary chain of the intersection: vertices inside the disc
    (``|V| < 1``), the entry and exit points of each edge (roots of ``|V + t E|^2 = 1`` with the
    discriminant ``|E|^2 - (E x V)^2`` from Lagrange's identity and the cancellation-free pair
    ``q = -(beta + sign(beta) sqrt(disc))``, ``t1 = q / alpha``, ``t2 = gamma / q``). Which roots
    exist follows from the inside/outside state of the two end points, so entries and exits always
    alternate. The shoelace sum is accumulated about the first emitted point; every exit adds the
    segment up to the next entry (the last exit wraps to the first entry).

    An arc whose exit and entry lie on the same edge (the only crossing pair) takes its angle from
    the half chord, ``dt = 2 asin(sqrt(disc) / |E|)`` (the small side when the disc centre is right
    of the edge, else ``2 pi - dt``), which keeps thin caps accurate to a few ulps. An arc longer
    than pi whose midpoint is outside the polygon by more than ``1e-9`` (frame units, i.e. relative
    to the semi-axes) can only be a rounded ``-tiny`` angle: it is set to 0.
    """
    offset = int(pb[0])
    count = int(pb[1])
    have_first = False
    ox = oy = 0.0  # first emitted point (shoelace origin)
    first_is_entry = False
    first_edge = -1
    px = py = 0.0  # previous emitted point, relative to the origin
    shoelace = 0.0
    arcs = 0.0
    pending = False  # an exit waits for its entry
    exit_x = exit_y = 0.0
    exit_edge = -1
    exit_small = 0.0  # half-chord angle of the exit's own edge
    exit_right = bool(False)  # disc centre strictly right of the exit's edge
    n_emitted = 0
    n_cross = 0
    # Vertices relative to the first one, V = V_r + D, with the level |X|^2 - 1 of each vertex
    # from the accurate level of V_r (level_at): gamma = gamma_r + (2 X_r + D) . D. A polygon far
    # smaller than the ellipse and near its boundary has |X| = 1 + tiny, whose plain |X|^2 - 1
    # would carry an absolute error of eps, i.e. eps times the size ratio relative to the polygon.
    # A polygon that reaches far beyond the ellipse (a vertex more than 2 semi-axes out) works in
    # plain frame coordinates instead, with each edge's distance from the centre (E x V) from the
    # stored vertices without cancellation (_edge_cross) and its crossings placed from the foot of
    # that distance: X_r + D would carry the rounding of the far vertices.
    vrx = vb[offset, 0]
    vry = vb[offset, 1]
    xr, yr = to_frame(vrx, vry, cx, cy, a, b, ux, uy)
    far = False
    for i in range(count):
        x, y = to_frame(vb[offset + i, 0], vb[offset + i, 1], cx, cy, a, b, ux, uy)
        far = far or x * x + y * y > 4.0
    if far:
        xr = yr = gr = 0.0  # gr is not read then
    else:
        gr = level_at(vrx, vry, pa)
    for i in range(count):
        k0 = offset + i
        k1 = offset + i + 1 if i + 1 < count else offset
        if far:
            X0, Y0 = to_frame(vb[k0, 0], vb[k0, 1], cx, cy, a, b, ux, uy)
            X1, Y1 = to_frame(vb[k1, 0], vb[k1, 1], cx, cy, a, b, ux, uy)
            gamma = (X0 * X0 + Y0 * Y0) - 1.0
            gamma1 = (X1 * X1 + Y1 * Y1) - 1.0
            # E x V in the frame is det(frame map) = 1 / (a b) times the world (V1 - V0) x (V0 - c)
            cr = _edge_cross(vb[k0, 0], vb[k0, 1], vb[k1, 0], vb[k1, 1], cx, cy) / (a * b)
        else:
            # local coordinates D (X = X_r + D): every emitted point, the shoelace sum and the
            # arcs' chords use them, so that the polygon keeps its own relative accuracy
            X0, Y0, gamma = _vertex_level(vb[k0, 0] - vrx, vb[k0, 1] - vry, xr, yr, gr, a, b, ux, uy)
            X1, Y1, gamma1 = _vertex_level(vb[k1, 0] - vrx, vb[k1, 1] - vry, xr, yr, gr, a, b, ux, uy)
        in0 = gamma < 0.0
        in1 = gamma1 < 0.0
        ex = X1 - X0
        ey = Y1 - Y0
        alpha = ex * ex + ey * ey
        beta = (ex * xr + ey * yr) + (ex * X0 + ey * Y0)
        if not far:
            # E x V: the origin is right of the edge iff V x E < 0 iff cr > 0
            cr = (ex * yr - ey * xr) + (ex * Y0 - ey * X0)
        sa = math.sqrt(alpha)
        disc = (sa - abs(cr)) * (sa + abs(cr))
        # up to three points from this edge: [vertex], [entry], [exit]
        for slot in range(3):
            kind = 0  # 0 none, 1 vertex, 2 entry, 3 exit
            qx = qy = 0.0
            if slot == 0:
                if in0:
                    kind = 1
                    qx, qy = X0, Y0
            else:
                want_entry = slot == 1
                has = False
                if (not in0) and (not in1):
                    has = disc > 0.0 and -beta > 0.0 and -beta < alpha
                elif want_entry:
                    has = (not in0) and in1
                else:
                    has = in0 and (not in1)
                if has:
                    root = math.sqrt(max(disc, 0.0))
                    q = -(beta + root) if beta >= 0.0 else -(beta - root)
                    t1 = q / alpha
                    t2 = gamma / q if q != 0.0 else t1
                    if t1 > t2:
                        t1, t2 = t2, t1
                    if far:
                        # foot f = cr (-E_y, E_x) / alpha, then -+ sqrt(disc) / alpha along E
                        h = (-root if want_entry else root) / alpha
                        qx = (-cr * ey) / alpha + h * ex
                        qy = (cr * ex) / alpha + h * ey
                    else:
                        t = t1 if want_entry else t2
                        t = max(0.0, min(1.0, t))
                        qx = X0 + t * ex
                        qy = Y0 + t * ey
                    kind = 2 if want_entry else 3
            if kind == 0:
                continue
            n_emitted += 1
            if not have_first:
                have_first = True
                ox = qx
                oy = qy
                px = 0.0
                py = 0.0
                first_is_entry = kind == 2
                first_edge = i
            else:
                rx = qx - ox
                ry = qy - oy
                shoelace += px * ry - py * rx
                px = rx
                py = ry
            if kind == 2 and pending:
                arcs += _arc(exit_x, exit_y, qx, qy, xr, yr, exit_edge == i, exit_small, exit_right, pb, vb, cx, cy, a, b, ux, uy)
                pending = False
            if kind == 3:
                n_cross += 1
                pending = True
                exit_x = qx
                exit_y = qy
                exit_edge = i
                exit_small = 2.0 * math.asin(min(1.0, math.sqrt(max(disc, 0.0)) / sa))
                exit_right = cr > 0.0
    if n_emitted == 0:
        # the boundary of the polygon misses the open disc: the disc is inside the polygon or outside
        return math.pi if _inside_polygon(0.0, 0.0, pb, vb, cx, cy, a, b, ux, uy, 0.0) else 0.0
    # close the chain: the last point -> the first point adds nothing (the first point is the origin)
    if pending and first_is_entry:
        arcs += _arc(exit_x, exit_y, ox, oy, xr, yr, exit_edge == first_edge and n_cross == 1, exit_small, exit_right, pb, vb, cx, cy, a, b, ux, uy)
    return 0.5 * shoelace + arcs


@kernel
def _arc(xe, ye, xn, yn, xr, yr, same_edge, small, right, pb, vb, cx, cy, a, b, ux, uy):
    """Segment area of the unit-circle arc counter-clockwise from exit ``X_r + (xe, ye)`` to entry
    ``X_r + (xn, yn)`` (local coordinates, see :func:`disc_polygon_in_frame`)."""
    if same_edge:
        dt = small if right else _TWO_PI - small
        return segment_area(dt)
    # the angle from the exit X_e to the entry X_e + Delta: cross and dot with the local Delta
    Xe = xr + xe
    Ye = yr + ye
    dx = xn - xe
    dy = yn - ye
    dt = math.atan2(Xe * dy - Ye * dx, (Xe * Xe + Ye * Ye) + (Xe * dx + Ye * dy))
    if dt < 0.0:
        dt += _TWO_PI
    if dt > math.pi:
        h = math.atan2(Ye, Xe) + 0.5 * dt
        if not _inside_polygon(math.cos(h), math.sin(h), pb, vb, cx, cy, a, b, ux, uy, 1e-9):
            dt = 0.0
    return segment_area(dt)


@kernel
def area_ellipse_polygon(pa, va, pb, vb, relation):
    """Area of the intersection of an ellipse and a convex polygon (see the module docstring)."""
    if relation == codes.DISJOINT or relation == codes.TOUCHING:
        return 0.0
    if relation == codes.CONTAINS:
        return polygon_area(pb, vb)
    if relation == codes.WITHIN or relation == codes.EQUAL:
        return ellipse_area(pa)
    cx, cy, a, b, ux, uy = unit_frame(pa)
    area = a * b * disc_polygon_in_frame(pa, pb, vb, cx, cy, a, b, ux, uy)
    return max(0.0, min(area, min(ellipse_area(pa), polygon_area(pb, vb))))
