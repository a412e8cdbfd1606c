"""Ellipse kernels: an ellipse (or circle) against every kind.

Frame: all pair formulas use only differences to the ellipse centre, ``y = x - c``; the ellipse
is ``b^2 (w.y)^2 + a^2 (w^.y)^2 <= a^2 b^2 |w|^2`` (see the package docstring), a positive sum of
squares that is exact in rationals.

Notation used in every comment below (all in the centre frame, after the power-of-two scaling of
:func:`_frame`): ``A = a^2``, ``B = b^2``, ``W = |w|^2``, ``R = A B W`` and the quadratic form

    ``Q(y) = B (w.y)^2 + A (w^.y)^2``,   ``Q(e, y) = B (w.e)(w.y) + A (w^.e)(w^.y)``,

so the closed ellipse is ``Q(y) <= R``. ``Q = y^T G y`` with ``G = B w w^T + A w^ w^^T``, whose
eigenvalues are ``B W`` (along ``w``) and ``A W`` (along ``w^``); hence ``det G = A B W^2``. This is
``a^2 b^2 |w|^4`` times the ellipse's metric ``M``, so every test below is the
section 9 test (Eberly, GTE ``DistPoint2Ellipse2`` / ``IntrLine2Ellipse2`` use the same metric)
multiplied through by positive factors to clear all divisions.

Error bounds: each deciding sign goes through :func:`vec.certain_sign` with ``magnitude * (K eps)``
where ``magnitude`` is the same polynomial on absolute values and ``K = k + 2``, ``k`` being the
largest number of rounding factors ``(1 + delta)`` in any monomial of the computed value (for a
product the counts of both factors add, plus one for the product itself). Inputs formed by one
subtraction (``y = p - c``, ``e = p1 - p0``) count 1; stored ``a, b, w`` count 0. Circles
(``a == b``, ``w = (1, 0)``) run through the same formulas: they are exact for any ``a, b, w``.
"""

import math

from collide2d._jit import kernel

from .. import codes
from ..codes import UNKNOWN_SIGN
from .conic import intersects_ellipse_ellipse, relate_ellipse_ellipse  # noqa: F401  (ellipse vs ellipse lives in conic.py)
from ..vec import certain_sign, xadd, xmul, xsign


@kernel
def _pow2_normalizer(m, eps):
    """Return ``2**-k`` with ``m * 2**-k`` in ``[1/2, 1)``: an exact rescaling (float mode only).

    Every sign below is the sign of a homogeneous polynomial in separate groups of variables
    (lengths ``y, a, b``; the direction ``w``; an edge or line direction ``e``), so scaling a group
    by a power of two changes no sign and introduces no rounding. It keeps the products (at most
    six factors) away from underflow and overflow; a group already within
    ``2**-60 .. 2**60`` is left alone, since six-factor products of such numbers stay far inside the
    normal float range. In exact mode (``eps == 0``,
    Fractions) no scaling is needed: return the integer 1 so that Fractions stay Fractions.
    """
    if eps == 0:
        return 1
    if 2.0**-60 < m < 2.0**60:  # float mode only: already safe, skip the slow libm calls (~35 ns)
        return 1.0
    return math.ldexp(1.0, -math.frexp(m)[1])


@kernel
def _frame(pa, eps, checked=False):
    """Centre, length scale ``s`` and the scaled ``A = (s a)^2``, ``B = (s b)^2``, ``w`` of a row.

    With ``checked`` (the exact float stage, run with ``eps = 0``: no scaling) ``A`` and ``B`` are
    exact or NaN (:func:`vec.xmul`).
    """
    s = _pow2_normalizer(max(pa[2], pa[3]), eps)
    a = pa[2] * s
    b = pa[3] * s
    sw = _pow2_normalizer(max(abs(pa[4]), abs(pa[5])), eps)
    return pa[0], pa[1], s, xmul(a, a, checked), xmul(b, b, checked), pa[4] * sw, pa[5] * sw


@kernel
def _offset(p, c, s, checked):
    """``(p - c) s`` (``s`` a power of two): one rounding; exact or NaN with ``checked``."""
    return xmul(xadd(p, -c, checked), s, checked)


@kernel
def _running_square(x, xm, eps):
    """Bound on ``|x^2 - x*^2|`` for a computed linear form ``x`` of magnitude ``xm``.

    ``x`` is a two-term form ``p q + r s`` whose inputs carry at most one rounding each (``y``,
    ``e``; ``w`` is exact): ``|x - x*| <= e = 5 eps xm`` (3 roundings on each product's path and
    1 for the sum, plus slack for second-order terms and for using the computed ``xm``), and then ``|x^2 - x*^2| = |x - x*| |x + x*| <= e (2 |x| + e)``.
    """
    e = xm * (5 * eps)
    return e * (2 * abs(x) + e)


@kernel
def _running_product(x, xm, y, ym, eps):
    """Bound on ``|x y - x* y*|`` for two computed linear forms as in :func:`_running_square`."""
    ex = xm * (5 * eps)
    ey = ym * (5 * eps)
    return abs(x) * ey + abs(y) * ex + ex * ey


@kernel
def _point_sign(yx, yy, A, B, wx, wy, eps, checked=False):
    """Sign of ``Q(y) - R``: -1 inside, 0 on the boundary, 1 outside the ellipse.

    Rounding count: ``y`` 1, ``w.y`` 3, its square 7, ``B (w.y)^2`` 9, the sum 10; ``R = (A B) W``
    is 3 + 2 + 1 = 6; the difference 11. K = 13.

    That bound squares the magnitudes ``|w.y|`` and ``|w^.y|`` of the two linear forms. Near the
    long side of a thin ellipse, ``w^.y`` cancels (about ``b |w|`` from terms of size ``a |w|``),
    so the bound is ``(a / b)^2`` times the value's scale ``R``. The second, running bound
    (see :func:`_running_square`) charges each form only with its own error ``5 eps`` times its
    magnitude: ``|x^2 - x*^2| <= e (2 |x| + e)``, ``(a / b)`` times ``R eps``. The rest (``B``,
    ``A``, ``R``, the squares, products and sums, 9 roundings at most, relative to the computed
    terms) is ``12 eps (B u^2 + A v^2 + R)``. The smaller bound is used; both are zero on Fractions.
    With ``checked`` (the exact float stage) the value is exact or NaN (:func:`vec.xmul`,
    :func:`vec.xadd`) and :func:`vec.xsign` needs no bound; the same holds for the signs below.
    """
    u = xadd(xmul(wx, yx, checked), xmul(wy, yy, checked), checked)  # w . y
    v = xadd(xmul(wx, yy, checked), -xmul(wy, yx, checked), checked)  # w^ . y with w^ = (-wy, wx)
    R = xmul(xmul(A, B, checked), xadd(xmul(wx, wx, checked), xmul(wy, wy, checked), checked), checked)
    uu = xmul(u, u, checked)
    vv = xmul(v, v, checked)
    value = xadd(xadd(xmul(B, uu, checked), xmul(A, vv, checked), checked), -R, checked)
    um = abs(wx * yx) + abs(wy * yy)
    vm = abs(wx * yy) + abs(wy * yx)
    magnitude = B * (um * um) + A * (vm * vm) + R
    running = (B * uu + A * vv + R) * (12 * eps) + 2 * (
        B * _running_square(u, um, eps) + A * _running_square(v, vm, eps)
    )
    return xsign(value, min(magnitude * (13 * eps), running), checked)


@kernel
def _bilinear_sign(ex, ey, yx, yy, A, B, wx, wy, eps, checked=False):
    """Sign of ``Q(e, y) = B (w.e)(w.y) + A (w^.e)(w^.y)``.

    Rounding count: ``w.e`` and ``w.y`` 3 each, their product 7, times ``B`` 9, the sum 10. K = 12.
    As in :func:`_point_sign`, a second, running bound charges the cancelling forms only with
    their own errors (:func:`_running_product`) plus ``6 eps`` times the computed terms (``B``,
    the two products and the sum); the smaller bound is used.
    """
    ue = xadd(xmul(wx, ex, checked), xmul(wy, ey, checked), checked)
    uy = xadd(xmul(wx, yx, checked), xmul(wy, yy, checked), checked)
    ve = xadd(xmul(wx, ey, checked), -xmul(wy, ex, checked), checked)
    vy = xadd(xmul(wx, yy, checked), -xmul(wy, yx, checked), checked)
    tb = xmul(B, xmul(ue, uy, checked), checked)
    ta = xmul(A, xmul(ve, vy, checked), checked)
    value = xadd(tb, ta, checked)
    uem = abs(wx * ex) + abs(wy * ey)
    uym = abs(wx * yx) + abs(wy * yy)
    vem = abs(wx * ey) + abs(wy * ex)
    vym = abs(wx * yy) + abs(wy * yx)
    magnitude = B * (uem * uym) + A * (vem * vym)
    running = (abs(tb) + abs(ta)) * (6 * eps) + 2 * (
        B * _running_product(ue, uem, uy, uym, eps) + A * _running_product(ve, vem, vy, vym, eps)
    )
    return xsign(value, min(magnitude * (12 * eps), running), checked)


@kernel
def _line_sign(ex, ey, yx, yy, A, B, wx, wy, eps, checked=False):
    """Sign of ``W (e x y)^2 - A (e x w)^2 - B (e.w)^2`` for the line ``y + t e`` (centre frame).

    1 the line misses the ellipse, 0 tangent, -1 secant. Derivation: with
    the normal ``n = e^ = (-ey, ex)`` the line meets the ellipse iff ``(n.y)^2 <= n^T S n`` where
    ``S = a^2 u u^T + b^2 v v^T`` (``u = w / |w|``, ``v = w^ / |w|``) is the shape matrix, i.e. iff
    ``W (n.y)^2 <= A (n.w)^2 + B (n.w^)^2``; here ``n.y = e x y``, ``n.w = e x w``, ``n.w^ = e.w``.

    The same sign is that of the minimum of ``f(t) = Q(y + t e) - R``: ``alpha gamma - beta^2`` with
    ``alpha = Q(e)``, ``beta = Q(e, y)``, ``gamma = Q(y) - R`` equals
    ``det G (e x y)^2 - R Q(e) = A B W [W (e x y)^2 - Q(e)]`` (Lagrange's identity for the Gram
    determinant), and ``Q(e) = A (e x w)^2 + B (e.w)^2``. This form has degree 6, not 8, and no
    cancellation between ``Q(e) Q(y)`` and ``Q(e, y)^2``.

    Rounding count: ``e x y`` 4, squared 9, times ``W`` (2) 12; ``e x w`` 3, squared 7, times ``A``
    9, the sum 10; the difference 13. K = 15.
    As in :func:`_point_sign`, a second, running bound charges the cancelling forms (``e x y``
    for a line passing near the long side of a thin ellipse, ``e x w`` for a line nearly parallel
    to ``w``) only with their own errors (:func:`_running_square`) plus ``10 eps`` times the
    computed terms (``W``, ``A``, ``B``, the squares, products, sum and difference); the smaller
    bound is used.
    """
    d = xadd(xmul(ex, yy, checked), -xmul(ey, yx, checked), checked)  # e x y
    n = xadd(xmul(ex, wy, checked), -xmul(ey, wx, checked), checked)  # e x w
    t = xadd(xmul(ex, wx, checked), xmul(ey, wy, checked), checked)  # e . w
    W = xadd(xmul(wx, wx, checked), xmul(wy, wy, checked), checked)
    dd = xmul(d, d, checked)
    nn = xmul(n, n, checked)
    tt = xmul(t, t, checked)
    value = xadd(xmul(W, dd, checked), -xadd(xmul(A, nn, checked), xmul(B, tt, checked), checked), checked)
    dm = abs(ex * yy) + abs(ey * yx)
    nm = abs(ex * wy) + abs(ey * wx)
    tm = abs(ex * wx) + abs(ey * wy)
    magnitude = W * (dm * dm) + (A * (nm * nm) + B * (tm * tm))
    running = (W * dd + A * nn + B * tt) * (10 * eps) + 2 * (
        W * _running_square(d, dm, eps) + A * _running_square(n, nm, eps) + B * _running_square(t, tm, eps)
    )
    return xsign(value, min(magnitude * (15 * eps), running), checked)


@kernel
def _edge_min_sign(y0x, y0y, y1x, y1y, ex, ey, A, B, wx, wy, eps, checked=False):
    """Sign of ``min over t in [0, 1] of f(t) = Q(y0 + t e) - R`` for the segment ``y0 -> y1``.

    ``e = y1 - y0``. ``f(t) = alpha t^2 + 2 beta t + gamma`` is convex (``alpha = Q(e) > 0``), with
    ``f'(0) / 2 = beta = Q(e, y0)`` and ``f'(1) / 2 = alpha + beta = Q(e, y1)``. Three regions:
    ``f'(0) >= 0``: the minimum is ``f(0)``; ``f'(1) <= 0``: it is ``f(1)``; otherwise it lies at
    ``t* = -beta / alpha`` in (0, 1) and has the sign of ``alpha gamma - beta^2``, which is the line
    test of :func:`_line_sign`. No division.
    ``UNKNOWN_SIGN`` when a needed sign is not certain.
    """
    b0 = _bilinear_sign(ex, ey, y0x, y0y, A, B, wx, wy, eps, checked)
    if b0 == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    if b0 >= 0:
        return _point_sign(y0x, y0y, A, B, wx, wy, eps, checked)
    b1 = _bilinear_sign(ex, ey, y1x, y1y, A, B, wx, wy, eps, checked)
    if b1 == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    if b1 <= 0:
        return _point_sign(y1x, y1y, A, B, wx, wy, eps, checked)
    return _line_sign(ex, ey, y0x, y0y, A, B, wx, wy, eps, checked)


@kernel
def relate_ellipse_point(pa, va, pb, vb, eps):
    """Ellipse ``pa`` against the point ``pb = (x, y)``.

    ``CONTAINS`` (open ellipse), ``TOUCHING`` (boundary) or ``DISJOINT``, by the sign of
    ``Q(p - c) - R``. What the float bounds leave undecided is run once more as the exact float
    stage (``checked``: every deciding operation exact or NaN, see :mod:`vec`); this settles
    inputs with few significant bits, such as points placed exactly on the boundary of a
    lattice of shapes. The kernels below do the same.
    """
    code = _ellipse_point(pa, pb, eps, bool(False))
    if code == codes.UNDECIDED and eps > 0:
        return _ellipse_point(pa, pb, 0.0, bool(True))
    return code


@kernel
def _ellipse_point(pa, pb, eps, checked):
    cx, cy, s, A, B, wx, wy = _frame(pa, eps, checked)
    sign = _point_sign(_offset(pb[0], cx, s, checked), _offset(pb[1], cy, s, checked), A, B, wx, wy, eps, checked)
    return _sign_code(sign, int(codes.CONTAINS))


@kernel
def _sign_code(sign, negative):
    """Code of a boundary sign: ``negative`` below 0, ``TOUCHING`` at 0, ``DISJOINT`` above."""
    if sign == UNKNOWN_SIGN:
        return codes.UNDECIDED
    if sign < 0:
        return negative
    if sign == 0:
        return codes.TOUCHING
    return codes.DISJOINT


@kernel
def relate_ellipse_line(pa, va, pb, vb, eps):
    """Ellipse ``pa`` against the line ``pb = (px, py, dx, dy)``: ``DISJOINT``, ``TOUCHING``
    (tangent) or ``CROSSING`` (secant; the line's interior is the whole line)."""
    code = _ellipse_line(pa, pb, eps, bool(False))
    if code == codes.UNDECIDED and eps > 0:
        return _ellipse_line(pa, pb, 0.0, bool(True))
    return code


@kernel
def _ellipse_line(pa, pb, eps, checked):
    cx, cy, s, A, B, wx, wy = _frame(pa, eps, checked)
    se = _pow2_normalizer(max(abs(pb[2]), abs(pb[3])), eps)
    sign = _line_sign(pb[2] * se, pb[3] * se, _offset(pb[0], cx, s, checked), _offset(pb[1], cy, s, checked),
                      A, B, wx, wy, eps, checked)
    return _sign_code(sign, int(codes.CROSSING))


@kernel
def relate_ellipse_segment(pa, va, pb, vb, eps):
    """Ellipse ``pa`` against the closed segment ``pb = (x0, y0, x1, y1)``.

    Both end points in the closed ellipse: ``CONTAINS`` (by strict convexity the open segment then
    lies in the open ellipse). One end point strictly inside, the other outside: ``CROSSING``.
    Otherwise both end points are outside or on the boundary and the sign of the minimum of
    ``Q(y0 + t e) - R`` over ``[0, 1]`` decides: > 0 ``DISJOINT``, = 0 ``TOUCHING`` (tangent, or an
    end point on the boundary with the rest outside), < 0 ``CROSSING``.
    """
    code = _ellipse_segment(pa, pb, eps, bool(False))
    if code == codes.UNDECIDED and eps > 0:
        return _ellipse_segment(pa, pb, 0.0, bool(True))
    return code


@kernel
def _ellipse_segment(pa, pb, eps, checked):
    cx, cy, s, A, B, wx, wy = _frame(pa, eps, checked)
    y0x = _offset(pb[0], cx, s, checked)
    y0y = _offset(pb[1], cy, s, checked)
    y1x = _offset(pb[2], cx, s, checked)
    y1y = _offset(pb[3], cy, s, checked)
    ex = xadd(pb[2], -pb[0], checked)
    ey = xadd(pb[3], -pb[1], checked)
    se = _pow2_normalizer(max(abs(ex), abs(ey)), eps)
    ex = ex * se
    ey = ey * se
    s0 = _point_sign(y0x, y0y, A, B, wx, wy, eps, checked)
    s1 = _point_sign(y1x, y1y, A, B, wx, wy, eps, checked)
    if s0 == UNKNOWN_SIGN or s1 == UNKNOWN_SIGN:
        return codes.UNDECIDED
    if s0 <= 0 and s1 <= 0:
        return codes.CONTAINS
    if s0 < 0 or s1 < 0:
        return codes.CROSSING
    m = _edge_min_sign(y0x, y0y, y1x, y1y, ex, ey, A, B, wx, wy, eps, checked)
    if m == UNKNOWN_SIGN:
        return codes.UNDECIDED
    if m < 0:
        return codes.CROSSING
    if m == 0:
        return codes.TOUCHING
    return codes.DISJOINT


@kernel
def relate_ellipse_polygon(pa, va, pb, vb, eps):
    """Ellipse ``pa`` against the convex counter-clockwise polygon ``pb = (offset, count)`` in ``vb``.

    Regions, in the order tested (E the closed ellipse, P the closed polygon):

    1. All vertices in E: ``CONTAINS`` (P is their convex hull; it has interior points, so the
       interiors meet). A vertex strictly inside E while another is outside: ``OVERLAPPING``.
    2. Otherwise no vertex is strictly inside E. For each edge, ``m`` = sign of the minimum of
       ``Q - R`` over the closed edge (:func:`_edge_min_sign`). Some ``m < 0``: the boundary of P
       enters the open ellipse, so the interiors meet, E is not inside P and (some vertex being
       outside) P is not inside E: ``OVERLAPPING``.
    3. All ``m >= 0``: the boundary of P misses the open ellipse, so the (connected) open ellipse
       lies in the open polygon or outside P. The centre strictly left of every edge decides
       ``WITHIN`` (tangency to edges allowed); else the centre is outside, and ``m == 0`` on some
       edge means ``TOUCHING``, none ``DISJOINT``.

    Shortcut: the centre strictly right of an edge whose line misses the ellipse (``_line_sign > 0``)
    separates the two: ``DISJOINT``. (Centre inside, or an edge meets.)
    """
    code = _ellipse_polygon(pa, pb, vb, eps, bool(False))
    if code == codes.UNDECIDED and eps > 0:
        return _ellipse_polygon(pa, pb, vb, 0.0, bool(True))
    return code


@kernel
def _ellipse_polygon(pa, pb, vb, eps, checked):
    cx, cy, s, A, B, wx, wy = _frame(pa, eps, checked)
    offset = int(pb[0])
    count = int(pb[1])

    # 1. vertices
    all_inside = True
    any_strict = False
    unknown = False
    for i in range(offset, offset + count):
        sign = _point_sign(_offset(vb[i, 0], cx, s, checked), _offset(vb[i, 1], cy, s, checked), A, B, wx, wy, eps, checked)
        if sign == UNKNOWN_SIGN:
            unknown = True
        elif sign > 0:
            all_inside = False
        elif sign < 0:
            any_strict = True
    if all_inside:
        return codes.UNDECIDED if unknown else codes.CONTAINS
    if any_strict:
        return codes.OVERLAPPING

    # 2. and 3. edges; ``inside`` is 1 (centre strictly left of every edge so far), 0 or UNKNOWN_SIGN
    inside = 1
    touching = False
    undecided = False
    for i in range(count):
        k0 = offset + i
        k1 = offset + i + 1 if i + 1 < count else offset
        y0x = _offset(vb[k0, 0], cx, s, checked)
        y0y = _offset(vb[k0, 1], cy, s, checked)
        y1x = _offset(vb[k1, 0], cx, s, checked)
        y1y = _offset(vb[k1, 1], cy, s, checked)
        ex = xadd(vb[k1, 0], -vb[k0, 0], checked)
        ey = xadd(vb[k1, 1], -vb[k0, 1], checked)
        se = _pow2_normalizer(max(abs(ex), abs(ey)), eps)
        ex = ex * se
        ey = ey * se
        # the centre is left of the edge iff e x (c - v0) = y0 x e > 0; as vec.orient: K = 6
        side = xsign(xadd(xmul(y0x, ey, checked), -xmul(y0y, ex, checked), checked),
                     (abs(y0x * ey) + abs(y0y * ex)) * (6 * eps), checked)
        if side == UNKNOWN_SIGN:
            if inside == 1:
                inside = UNKNOWN_SIGN
        elif side <= 0:
            inside = 0
            if side < 0 and _line_sign(ex, ey, y0x, y0y, A, B, wx, wy, eps, checked) == 1:
                return codes.DISJOINT
        m = _edge_min_sign(y0x, y0y, y1x, y1y, ex, ey, A, B, wx, wy, eps, checked)
        if m == UNKNOWN_SIGN:
            undecided = True
        elif m < 0:
            return codes.OVERLAPPING
        elif m == 0:
            touching = True
    if undecided or inside == UNKNOWN_SIGN:
        return codes.UNDECIDED
    if inside == 1:
        return codes.WITHIN
    return codes.TOUCHING if touching else codes.DISJOINT
