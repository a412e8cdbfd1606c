"""Ray casts: the first boundary point of a shape along a ray ``o + t d``, ``t >= 0``.

A ray row is ``ox, oy, dx, dy`` (the origin and a non-zero direction, not necessarily unit): the
row of the line through the ray, so the line kernels of :mod:`..relate` apply to it unchanged.

Each kind has two kernels:

* ``raycast_code_<kind>(row, verts, ray, eps) -> (code, feature)`` decides *whether and where* the
  ray meets the shape: ``MISS``, ``HIT`` (from outside), ``ON`` (the origin lies on the boundary)
  or ``INSIDE`` (the origin lies in the interior; only regions have one), and for flat kinds the
  feature hit first (an edge, a vertex, a segment end). Every deciding sign goes through
  :func:`..vec.certain_sign`; when a bound cannot settle one the kernel returns ``UNDECIDED`` and
  the glue runs the same source on Fractions with ``eps = 0`` (see :mod:`collide2d._exact`), so
  the decision is exact for the stored numbers: a ray that grazes an ellipse is a hit exactly when
  its line touches the ellipse. Only ``+ - *`` and integer literals here.
* ``raycast_<kind>(row, verts, ray, code, feature) -> (distance, px, py, nx, ny)`` measures in
  floating point what the decision found: the distance along the *unit* direction, the point and
  the unit outward normal there.

Accuracy of the measurements: the offsets ``q - o`` from the origin to the shape are kept as exact
two-term sums (TwoSum) and the cross products that locate the hit across the ray use TwoProduct,
so a far origin (1e6 away from a shape of size 1e-6) loses nothing to the subtraction; the
distance is then accurate to a few ulps of itself plus a few ulps of the shape's size, except near
a grazing ray, where the hit moves like the square root of any perturbation (that is the
conditioning of the problem, not of the method).
"""

import math

from collide2d._jit import kernel

from .. import codes
from ..codes import UNKNOWN_SIGN
from ..relate.ellipse import _bilinear_sign, _frame, _line_sign, _offset, _point_sign, _pow2_normalizer
from ..relate.linear import line_side, relate_line_point, relate_segment_point
from ..relate.polygon import relate_polygon_point
from ..vec import certain_sign, orient, two_product, two_sum

MISS = 0
HIT = 1
ON = 2
INSIDE = 3
UNDECIDED = codes.UNDECIDED

_NAN = math.nan


# -- decisions (exact: Fraction-safe) ------------------------------------------------------------------


@kernel
def _dot_sign(dx, dy, qx, qy, ox, oy, eps):
    """Sign of ``d . (q - o)`` (``d`` stored, ``q - o`` one rounding each): k = 3, K = 5."""
    ux = qx - ox
    uy = qy - oy
    value = dx * ux + dy * uy
    magnitude = abs(dx * ux) + abs(dy * uy)
    return certain_sign(value, magnitude * (5 * eps))


@kernel
def _cross_sign(dx, dy, ex, ey, eps):
    """Sign of ``d x e`` for two stored vectors: k = 2, K = 4."""
    return certain_sign(dx * ey - dy * ex, (abs(dx * ey) + abs(dy * ex)) * (4 * eps))


@kernel
def _ray_ellipse(pe, ray, eps, checked):
    cx, cy, s, A, B, wx, wy = _frame(pe, eps, checked)
    yx = _offset(ray[0], cx, s, checked)
    yy = _offset(ray[1], cy, s, checked)
    side = _point_sign(yx, yy, A, B, wx, wy, eps, checked)  # Q(y) - R: the origin against the ellipse
    if side == UNKNOWN_SIGN:
        return UNDECIDED
    if side < 0:
        return INSIDE
    if side == 0:
        return ON
    se = _pow2_normalizer(max(abs(ray[2]), abs(ray[3])), eps)
    ex = ray[2] * se
    ey = ray[3] * se
    # f(t) = Q(y + t e) - R = alpha t^2 + 2 beta t + gamma with gamma > 0 (the origin is outside):
    # real roots iff the line through the ray meets the ellipse (the line test), and then both
    # roots have the sign of -beta = -Q(e, y) (their product gamma / alpha is positive, and
    # beta = 0 would make the discriminant -alpha gamma < 0): the ray hits iff beta < 0.
    line = _line_sign(ex, ey, yx, yy, A, B, wx, wy, eps, checked)
    if line == UNKNOWN_SIGN:
        return UNDECIDED
    if line > 0:
        return MISS
    ahead = _bilinear_sign(ex, ey, yx, yy, A, B, wx, wy, eps, checked)
    if ahead == UNKNOWN_SIGN:
        return UNDECIDED
    return HIT if ahead < 0 else MISS


@kernel
def raycast_code_ellipse(pe, ve, ray, eps):
    """Decision for an ellipse row (feature always 0); the exact float stage before ``UNDECIDED``."""
    code = _ray_ellipse(pe, ray, eps, bool(False))
    if code == UNDECIDED and eps > 0:
        code = _ray_ellipse(pe, ray, 0.0, bool(True))
    return code, 0


@kernel
def raycast_code_polygon(pp, vp, ray, eps):
    """Decision for a convex counter-clockwise polygon; the feature hit first.

    ``s_i`` is the side of vertex ``i`` of the ray's line (sign of ``d x (v_i - o)``: 1 left).
    Walking counter-clockwise, the boundary crosses the line from left to right where the ray
    enters (there the edge's outward normal ``n = (e_y, -e_x)`` has ``n . d = d x e < 0``). Feature
    ``i >= 0``: the interior of edge ``i`` (from vertex ``i`` to ``i + 1``), with ``s_i > 0 > s_i+1``;
    feature ``-1 - k``: vertex ``k`` (the line passes through it, or runs along an edge of which it
    is the nearer end). With the origin outside, both points where the line meets the boundary lie
    on the same side of the origin, so the sign of ``t`` at the entering feature decides the hit.
    """
    off = int(pp[0])
    n = int(pp[1])
    inside = relate_polygon_point(pp, vp, ray, vp, eps)
    if inside == codes.UNDECIDED:
        return UNDECIDED, 0
    if inside == codes.CONTAINS:
        return INSIDE, 0
    if inside == codes.TOUCHING:
        return ON, 0
    ox, oy, dx, dy = ray[0], ray[1], ray[2], ray[3]
    n_pos = 0
    n_neg = 0
    for i in range(n):
        s = line_side(ox, oy, dx, dy, vp[off + i, 0], vp[off + i, 1], eps)
        if s == UNKNOWN_SIGN:
            return UNDECIDED, 0
        if s > 0:
            n_pos += 1
        elif s < 0:
            n_neg += 1
    if n_pos == n or n_neg == n:
        return MISS, 0
    feature = 0
    found = False
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        h = i - 1 if i > 0 else n - 1
        si = line_side(ox, oy, dx, dy, vp[off + i, 0], vp[off + i, 1], eps)
        sj = line_side(ox, oy, dx, dy, vp[off + j, 0], vp[off + j, 1], eps)
        if si > 0 and sj < 0:  # the ray's line crosses the interior of edge i, entering
            feature = i
            found = True
            break
        if si == 0:
            sh = line_side(ox, oy, dx, dy, vp[off + h, 0], vp[off + h, 1], eps)
            if sh > 0 and sj < 0:  # through vertex i, entering
                feature = -1 - i
                found = True
                break
            if sh != 0 and sj != 0 and (n_pos == 0 or n_neg == 0):  # the line touches vertex i only
                feature = -1 - i
                found = True
                break
            if sj == 0:  # edge i lies on the line: the nearer end is the one d points away from
                along = _dot_sign(dx, dy, vp[off + j, 0], vp[off + j, 1], vp[off + i, 0], vp[off + i, 1], eps)
                if along == UNKNOWN_SIGN:
                    return UNDECIDED, 0
                feature = -1 - i if along > 0 else -1 - j
                found = True
                break
    if not found:
        return UNDECIDED, 0  # cannot happen for a convex polygon with certain signs
    if feature >= 0:
        j = feature + 1 if feature + 1 < n else 0
        # t = ((v_i - o) x e) / (d x e) with d x e < 0 (entering): t > 0 iff orient(o, v_i, v_j) < 0
        turn = orient(ox, oy, vp[off + feature, 0], vp[off + feature, 1], vp[off + j, 0], vp[off + j, 1], eps)
        if turn == UNKNOWN_SIGN:
            return UNDECIDED, 0
        return (HIT, feature) if turn < 0 else (MISS, 0)
    k = -1 - feature
    ahead = _dot_sign(dx, dy, vp[off + k, 0], vp[off + k, 1], ox, oy, eps)
    if ahead == UNKNOWN_SIGN:
        return UNDECIDED, 0
    return (HIT, feature) if ahead > 0 else (MISS, 0)


@kernel
def raycast_code_segment(ps, vs, ray, eps):
    """Decision for a segment ``p0 -> p1``; feature 0 its interior, 1 / 2 the end ``p0`` / ``p1``
    on the ray's line, 3 / 4 the nearer end when the ray runs along the segment."""
    on = relate_segment_point(ps, vs, ray, vs, eps)
    if on == codes.UNDECIDED:
        return UNDECIDED, 0
    if on != codes.DISJOINT:
        return ON, 0
    ox, oy, dx, dy = ray[0], ray[1], ray[2], ray[3]
    s0 = line_side(ox, oy, dx, dy, ps[0], ps[1], eps)
    s1 = line_side(ox, oy, dx, dy, ps[2], ps[3], eps)
    if s0 == UNKNOWN_SIGN or s1 == UNKNOWN_SIGN:
        return UNDECIDED, 0
    if s0 * s1 > 0:
        return MISS, 0
    if s0 != 0 and s1 != 0:
        # t = ((p0 - o) x e) / (d x e), e = p1 - p0; d x e has the sign of s1 (s1 = s0 + d x e)
        turn = orient(ox, oy, ps[0], ps[1], ps[2], ps[3], eps)  # (p0 - o) x (p1 - o) = (p0 - o) x e
        if turn == UNKNOWN_SIGN:
            return UNDECIDED, 0
        return (HIT, 0) if turn * s1 > 0 else (MISS, 0)
    if s0 == 0 and s1 == 0:  # the ray's line contains the segment (the origin is not on it)
        ahead = _dot_sign(dx, dy, ps[0], ps[1], ox, oy, eps)  # both ends lie on the same side
        if ahead == UNKNOWN_SIGN:
            return UNDECIDED, 0
        if ahead < 0:
            return MISS, 0
        along = _dot_sign(dx, dy, ps[2], ps[3], ps[0], ps[1], eps)
        if along == UNKNOWN_SIGN:
            return UNDECIDED, 0
        return (HIT, 3) if along > 0 else (HIT, 4)
    end = 0 if s0 == 0 else 2  # one end on the ray's line
    ahead = _dot_sign(dx, dy, ps[end], ps[end + 1], ox, oy, eps)
    if ahead == UNKNOWN_SIGN:
        return UNDECIDED, 0
    return (HIT, 1 + end // 2) if ahead > 0 else (MISS, 0)


@kernel
def raycast_code_line(pl, vl, ray, eps):
    """Decision for a line ``q + s e``: parallel rays miss unless they start on it."""
    on = relate_line_point(pl, vl, ray, vl, eps)
    if on == codes.UNDECIDED:
        return UNDECIDED, 0
    if on != codes.DISJOINT:
        return ON, 0
    turn = _cross_sign(ray[2], ray[3], pl[2], pl[3], eps)  # d x e
    if turn == UNKNOWN_SIGN:
        return UNDECIDED, 0
    if turn == 0:
        return MISS, 0
    # t = ((q - o) x e) / (d x e) and (q - o) x e = -(e x (q - o))
    side = line_side(ray[0], ray[1], pl[2], pl[3], pl[0], pl[1], eps)
    if side == UNKNOWN_SIGN:
        return UNDECIDED, 0
    return (HIT, 0) if side * turn < 0 else (MISS, 0)


@kernel
def raycast_code_point(pq, vq, ray, eps):
    """Decision for a point: on the ray's line, ahead of the origin."""
    if pq[0] == ray[0] and pq[1] == ray[1]:
        return ON, 0
    side = line_side(ray[0], ray[1], ray[2], ray[3], pq[0], pq[1], eps)
    if side == UNKNOWN_SIGN:
        return UNDECIDED, 0
    if side != 0:
        return MISS, 0
    ahead = _dot_sign(ray[2], ray[3], pq[0], pq[1], ray[0], ray[1], eps)
    if ahead == UNKNOWN_SIGN:
        return UNDECIDED, 0
    return (HIT, 0) if ahead > 0 else (MISS, 0)


# -- measurements (floats) -------------------------------------------------------------------------


@kernel
def _cross_offset(dx, dy, qx, qy, ox, oy):
    """``d x (q - o)`` to about one ulp of itself (plus ``eps**2`` of its terms).

    ``q - o`` is kept as the exact sums ``h + l`` (TwoSum) and the two products of ``d x h`` with
    their errors (TwoProduct), so a far origin's cancellation costs nothing.
    """
    hx, lx = two_sum(qx, -ox)
    hy, ly = two_sum(qy, -oy)
    p1, e1 = two_product(dx, hy)
    p2, e2 = two_product(dy, hx)
    s, e3 = two_sum(p1, -p2)
    return s + ((e3 + (e1 - e2)) + (dx * ly - dy * lx))


@kernel
def _cross_vectors(dx, dy, ex, ey):
    """``d x e`` of two stored vectors to about one ulp of itself (TwoProduct)."""
    p1, e1 = two_product(dx, ey)
    p2, e2 = two_product(dy, ex)
    s, e3 = two_sum(p1, -p2)
    return s + (e3 + (e1 - e2))


@kernel
def _unit(x, y):
    """``(x, y)`` divided by its length (NaN for the zero vector)."""
    r = math.hypot(x, y)
    if r == 0.0:
        return _NAN, _NAN
    return x / r, y / r


@kernel
def _missed():
    return math.inf, _NAN, _NAN, _NAN, _NAN


@kernel
def _facing(nx, ny, dx, dy):
    """The unit normal ``n`` or ``-n``, whichever faces the ray (``n . d <= 0``)."""
    ux, uy = _unit(nx, ny)
    if ux * dx + uy * dy > 0.0:
        return -ux, -uy
    return ux, uy


@kernel
def _side_normal(ex, ey, dx, dy, along):
    """The unit normal of the direction ``e`` on the side facing the ray, or ``-d / |d|`` when the
    ray runs ``along`` it (a segment's end cap, as seen along the segment)."""
    if along:
        ux, uy = _unit(dx, dy)
        return -ux, -uy
    return _facing(-ey, ex, dx, dy)


@kernel
def raycast_ellipse(pe, ve, ray, code, feature):
    """Distance, point and outward normal of the ray against an ellipse row.

    Frame: the centre ``c`` at the origin, lengths scaled by ``s = 2**-k`` so that the larger
    semi-axis lies in ``[1/2, 1)`` (exact). There ``Q(y) = b^2 (w.y)^2 + a^2 (w^.y)^2`` and the
    ellipse is ``Q(y) <= a^2 b^2 |w|^2 = R``. Along ``y = p + t d`` (``p = o - c``),
    ``Q(p + t d) - R = alpha t^2 + 2 beta t + gamma`` with ``alpha = Q(d)``, ``beta = Q(d, p)``,
    ``gamma = Q(p) - R``, and ``beta^2 - alpha gamma = a^2 b^2 |w|^2 (Q(d) - |w|^2 (d x p)^2)``
    (Lagrange's identity), whose cross product ``d x p`` is computed accurately
    (:func:`_cross_offset`). The hit is the smaller root.

    * Origin near the ellipse (``|p| <= 4``): ``t = gamma / (sqrt(disc) - beta)``, the
      cancellation-free form of ``(-beta - sqrt(disc)) / alpha`` for ``beta < 0``; accurate to
      ulps of ``t`` itself, even for an origin a hair outside the boundary.
    * Far origin: re-based at the foot ``f = ((d x p) / |d|^2) d^`` of the centre on the ray's
      line: ``t = -(d.p) / |d|^2 + s1`` with ``s1`` the smaller root of the same quadratic in ``f``;
      the point ``f + s1 d`` then keeps the accuracy of the shape's size, not of the origin's.
    """
    ox, oy, dx, dy = ray[0], ray[1], ray[2], ray[3]
    if code == MISS:
        return _missed()
    if code == INSIDE:
        return 0.0, ox, oy, _NAN, _NAN
    cx, cy, a, b, wx, wy = pe[0], pe[1], pe[2], pe[3], pe[4], pe[5]
    k = math.frexp(max(a, b))[1]
    a = math.ldexp(a, -k)
    b = math.ldexp(b, -k)
    kw = math.frexp(max(abs(wx), abs(wy)))[1]
    wx = math.ldexp(wx, -kw)
    wy = math.ldexp(wy, -kw)
    hx, lx = two_sum(ox, -cx)
    hy, ly = two_sum(oy, -cy)
    hx, lx, hy, ly = math.ldexp(hx, -k), math.ldexp(lx, -k), math.ldexp(hy, -k), math.ldexp(ly, -k)
    aa = a * a
    bb = b * b
    W = wx * wx + wy * wy
    if code == ON:  # the gradient of Q at the origin
        px = hx + lx
        py = hy + ly
        u = wx * px + wy * py
        v = wx * py - wy * px
        nx, ny = _unit(bb * u * wx - aa * v * wy, bb * u * wy + aa * v * wx)
        return 0.0, ox, oy, nx, ny
    dd = dx * dx + dy * dy
    ud = wx * dx + wy * dy  # w . d
    vd = wx * dy - wy * dx  # w^ . d
    alpha = bb * ud * ud + aa * vd * vd
    X = _cross_offset(dx, dy, hx, hy, -lx, -ly)  # d x (h + l)
    G = alpha - W * (X * X)
    root = a * b * math.sqrt(W) * math.sqrt(G) if G > 0.0 else 0.0
    if max(abs(hx), abs(hy)) <= 4.0:
        px = hx + lx
        py = hy + ly
        u = wx * px + wy * py
        v = wx * py - wy * px
        beta = bb * ud * u + aa * vd * v
        gamma = (bb * u * u + aa * v * v) - aa * bb * W
        den = root - beta
        t = gamma / den if den > 0.0 else -beta / alpha
        if not t > 0.0:
            t = 0.0
        qx = (hx + t * dx) + lx
        qy = (hy + t * dy) + ly
    else:
        along = ((dx * hx + dy * hy) + (dx * lx + dy * ly)) / dd  # d . p / |d|^2
        fx = -dy * (X / dd)
        fy = dx * (X / dd)
        u = wx * fx + wy * fy
        v = wx * fy - wy * fx
        beta = bb * ud * u + aa * vd * v
        s1 = -(beta + root) / alpha
        t = s1 - along
        if not t > 0.0:
            t = 0.0
        qx = fx + s1 * dx
        qy = fy + s1 * dy
    u = wx * qx + wy * qy
    v = wx * qy - wy * qx
    nx, ny = _unit(bb * u * wx - aa * v * wy, bb * u * wy + aa * v * wx)
    return math.ldexp(t * math.sqrt(dd), k), cx + math.ldexp(qx, k), cy + math.ldexp(qy, k), nx, ny


@kernel
def _crossing(dx, dy, ox, oy, x0, y0, x1, y1):
    """Where the ray's line crosses the segment ``(x0, y0) -> (x1, y1)`` (known to cross it):
    ``p0 + lambda (p1 - p0)`` with ``lambda = s0 / (s0 - s1)`` from the sides ``s = d x (p - o)``,
    which have opposite signs (no cancellation in ``s0 - s1``) and are computed accurately."""
    s0 = _cross_offset(dx, dy, x0, y0, ox, oy)
    s1 = _cross_offset(dx, dy, x1, y1, ox, oy)
    lam = min(max(s0 / (s0 - s1), 0.0), 1.0)
    return x0 + lam * (x1 - x0), y0 + lam * (y1 - y0)


@kernel
def _edge_normal(vp, off, n, i):
    """Unit outward normal ``(e_y, -e_x) / |e|`` of edge ``i`` of a counter-clockwise polygon."""
    j = i + 1 if i + 1 < n else 0
    return _unit(vp[off + j, 1] - vp[off + i, 1], vp[off + i, 0] - vp[off + j, 0])


@kernel
def _corner_normal(vp, off, n, k):
    """At vertex ``k``: the unit bisector of the outward normals of its two edges."""
    h = k - 1 if k > 0 else n - 1
    ax, ay = _edge_normal(vp, off, n, h)
    bx, by = _edge_normal(vp, off, n, k)
    return _unit(ax + bx, ay + by)


@kernel
def raycast_polygon(pp, vp, ray, code, feature):
    """Distance, point and outward normal of the ray against a convex polygon row.

    Edge ``i`` entered in its interior: the point ``v_i + lambda e`` with
    ``lambda = s_i / (s_i - s_j)`` from the two sides ``s = d x (v - o)`` (accurate cross products);
    at a vertex the vertex itself and the bisector of the two edge normals. On the boundary: the
    normal of the edge the origin is nearest to (the bisector at a vertex).
    """
    ox, oy, dx, dy = ray[0], ray[1], ray[2], ray[3]
    if code == MISS:
        return _missed()
    if code == INSIDE:
        return 0.0, ox, oy, _NAN, _NAN
    off = int(pp[0])
    n = int(pp[1])
    if code == ON:
        best = int(0)
        best_value = -math.inf
        for i in range(n):
            if vp[off + i, 0] == ox and vp[off + i, 1] == oy:
                nx, ny = _corner_normal(vp, off, n, i)
                return 0.0, ox, oy, nx, ny
            nx, ny = _edge_normal(vp, off, n, i)
            value = nx * (ox - vp[off + i, 0]) + ny * (oy - vp[off + i, 1])
            if value > best_value:
                best_value = value
                best = i
        nx, ny = _edge_normal(vp, off, n, best)
        return 0.0, ox, oy, nx, ny
    length = math.hypot(dx, dy)
    if feature < 0:
        k = -1 - feature
        qx = vp[off + k, 0]
        qy = vp[off + k, 1]
        nx, ny = _corner_normal(vp, off, n, k)
    else:
        i = feature
        j = i + 1 if i + 1 < n else 0
        qx, qy = _crossing(dx, dy, ox, oy, vp[off + i, 0], vp[off + i, 1], vp[off + j, 0], vp[off + j, 1])
        nx, ny = _edge_normal(vp, off, n, i)
    t = max((dx * (qx - ox) + dy * (qy - oy)) / length, 0.0)
    return t, qx, qy, nx, ny


@kernel
def raycast_segment(ps, vs, ray, code, feature):
    """Distance, point and the segment's normal facing the ray (``-d / |d|`` along it)."""
    ox, oy, dx, dy = ray[0], ray[1], ray[2], ray[3]
    if code == MISS:
        return _missed()
    ex = ps[2] - ps[0]
    ey = ps[3] - ps[1]
    ux, uy = _unit(dx, dy)
    nx, ny = _side_normal(ex, ey, dx, dy, feature >= 3 or dx * ey - dy * ex == 0.0)
    if code == ON:
        return 0.0, ox, oy, nx, ny
    if feature == 0:
        qx, qy = _crossing(dx, dy, ox, oy, ps[0], ps[1], ps[2], ps[3])
    elif feature == 1 or feature == 3:
        qx, qy = ps[0], ps[1]
    else:
        qx, qy = ps[2], ps[3]
    t = max(ux * (qx - ox) + uy * (qy - oy), 0.0)
    return t, qx, qy, nx, ny


@kernel
def raycast_line(pl, vl, ray, code, feature):
    """Distance, point and the line's normal facing the ray (``-d / |d|`` along it)."""
    ox, oy, dx, dy = ray[0], ray[1], ray[2], ray[3]
    if code == MISS:
        return _missed()
    ex, ey = pl[2], pl[3]
    nx, ny = _side_normal(ex, ey, dx, dy, dx * ey - dy * ex == 0.0)
    if code == ON:
        return 0.0, ox, oy, nx, ny
    # t = ((q - o) x e) / (d x e) in units of |d|; the point as q + mu e with d x (q + mu e - o) = 0,
    # which keeps the accuracy of the line's stored point rather than of a far origin
    turn = _cross_vectors(dx, dy, ex, ey)
    t = max(-_cross_offset(ex, ey, pl[0], pl[1], ox, oy) / turn, 0.0)
    mu = -_cross_offset(dx, dy, pl[0], pl[1], ox, oy) / turn
    return t * math.hypot(dx, dy), pl[0] + mu * ex, pl[1] + mu * ey, nx, ny


@kernel
def raycast_point(pq, vq, ray, code, feature):
    """Distance and point; the normal is ``-d / |d|`` (the point faces the ray)."""
    ox, oy, dx, dy = ray[0], ray[1], ray[2], ray[3]
    if code == MISS:
        return _missed()
    ux, uy = _unit(dx, dy)
    if code == ON:
        return 0.0, ox, oy, -ux, -uy
    t = max(ux * (pq[0] - ox) + uy * (pq[1] - oy), 0.0)
    return t, pq[0], pq[1], -ux, -uy
