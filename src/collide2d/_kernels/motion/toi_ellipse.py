"""Time of impact of two translating ellipses (circles included) by the Perram-Wertheim function.

Frame: the pair's frame of :mod:`.toi` (rows ``cx, cy, a, b, wx, wy`` shifted once by
``-frame``), ``b`` moving by the relative translation ``u = v_b - v_a``, so that the offset of the
centres is ``r(t) = r0 + t u``. The fast path of the loops of :mod:`collide2d._kernels.toi_loops`:
it returns an outcome code of :mod:`.constants`, or -1 to hand the pair to
:func:`.toi.search_translation` (in the same loop).

Method. For an ellipse write ``Q(y) = b^2 (w.y)^2 + a^2 (w^.y)^2`` (``w^ = (-wy, wx)``,
``W = |w|^2``): the closed ellipse is ``Q(x - c) <= a^2 b^2 W``. Perram and Wertheim's contact
function (J. Comput. Phys. 58, 1985), in the positive-sum form of
:mod:`collide2d._kernels.relate.conic` (multiplied through by ``W_A W_B``), is, for
``l in (0, 1)``, ``m = 1 - l``::

    F(l, t) = N(l, t) / D(l),   N = l m (m W_B Q_A(r(t)) + l W_A Q_B(r(t))),
    D = m^2 a_A^2 b_A^2 W_A W_B + l^2 a_B^2 b_B^2 W_A W_B + l m T,
    T = (a_A^2 b_B^2 + b_A^2 a_B^2) (w_A.w_B)^2 + (a_A^2 a_B^2 + b_A^2 b_B^2) (w_A x w_B)^2,

and the ellipses are apart iff ``max_l F > 1``, touching iff it equals 1. So *every* ``l`` with
``F(l, t) > 1`` certifies the pair apart at ``t``. Under translation ``N`` is a quadratic in
``t`` with non-negative leading coefficient and ``D`` does not depend on ``t``; let ``t_l`` be the
first ``t >= 0`` with ``F(l, t) = 1`` (the smaller root of ``N - D``; infinite when there is
none). Then ``t_l <= t*`` (the first contact) for every ``l``: at ``t*`` the maximum of
``F(., t*)`` is 1. And ``t_l* = t*`` for the maximiser ``l*`` at ``t*``: ``F(l*, .)`` is convex
with a non-positive slope at ``t*`` (by the envelope theorem the slope of ``max F``, which falls
through 1 there), so above 1 before it. Hence ``t* = max_l t_l``, a one-dimensional maximisation
of a closed form whose every iterate is a lower bound, and one ``l`` with ``t_l > t_max`` (no
root before ``t_max``) certifies a miss. ``{l : t_l >= tau}`` is an intersection of the intervals
``{l : F(l, t) > 1}`` (``F`` is concave in ``l``), so ``t_l`` is unimodal: Newton's method on its
stationarity condition ``dN/dl - dD/dl = 0`` at ``(l, t_l)``, safeguarded by bisection, converges
quadratically, and the error of ``t_l`` is of second order in that of ``l``. The continuous
collision test of ellipses by the characteristic polynomial of their pencil answers the same
question by following the roots of its discriminant in time (Choi, Wang, Liu and Kim,
*Continuous collision detection for two moving elliptic disks*, IEEE Trans. Robotics 22, 2006;
Choi, Chang, Wang, Kim and Elber, *Continuous collision detection for ellipsoids*, IEEE TVCG 15,
2009); the contact function gives it as one closed form per ``l``, without cancelling terms.
Two circles have the maximiser ``l = R_a / (R_a + R_b)`` at every time and ``t_l`` is the root of
``|r(t)| = R_a + R_b``: the first iterate is the answer. An ellipse and a point
(:func:`translate_ellipse_point`) are the function at its end ``l = 1``, the whole test there:
the root of one quadratic.

The answer is then certified as :func:`.toi.search_translation` certifies it: the float-moved
rows apart at the time 0 (the rows as given) and at ``2**-40 t_max`` (or four times the rounding
of the coordinates over the approach speed) before the answer, here by ``F(l) > 1`` evaluated with
running error bounds (Higham, *Accuracy and Stability of Numerical Algorithms*, 2002, ch. 3; the
certificate of the relation kernel :func:`collide2d._kernels.relate.conic.relate_ellipse_ellipse`);
a miss by ``min F(l, t)`` over ``[0, t_max]`` above ``1 + 2**-36`` (plus its rounding bound), far
outside the float noise. Anything else (a pair touching or overlapping at 0, a graze, where the
root is ill-conditioned, rows outside the tame magnitudes, a failed certificate) goes to the
general search.
"""

import math

from numba.extending import register_jitable

from collide2d._jit import kernel

from .constants import CERTIFY, HIT, MISS, NOISE, TIME_TOL

U = 2.0**-53  # the unit roundoff
MISS_BAND = 2.0**-36  # a miss is certified when F - 1 stays above this (and its rounding bound)
ROOT_TOL = 4.0  # the bound on the rounding of the root, in the search's tolerances TIME_TOL t_max
LAMBDA_STEPS = 32  # Newton steps on l (a pair converges in 1 to 5)
TAME_LO = 2.0**-100  # the tame magnitudes of collide2d._robust.magnitude (as .toi)
TAME_HI = 2.0**100

# The helpers are inlined into translate_ellipses (one kernel: a call per helper, with its
# arrays' reference counts, would cost as much as the arithmetic); they take plain floats.
inline = register_jitable(inline="always")


@inline
def _tame(x):
    m = abs(x)
    return (m == 0.0) | ((m >= TAME_LO) & (m <= TAME_HI))  # (no branches: the inliner wants none)


@inline
def _tame_shape(a, b, wx, wy):
    """Semi-axes and direction within the tame magnitudes (the direction's components within
    2**-100 of each other's scale, as :func:`.toi._row_facts` asks), the semi-axes positive."""
    small, large = min(abs(wx), abs(wy)), max(abs(wx), abs(wy))
    return (_tame(a) & _tame(b) & _tame(wx) & _tame(wy) & ((small == 0.0) | (small >= TAME_LO * large))
            & (a > 0.0) & (b > 0.0))


@inline
def _form(a2, b2, wx, wy, dx, edx, dy, edy):
    """``Q(d) = b^2 (w.d)^2 + a^2 (w^.d)^2`` (``a2 = a^2``, ``b2 = b^2``, each one rounding) and a
    bound on its rounding error, ``d`` known to ``(edx, edy)``."""
    p = wx * dx + wy * dy
    q = wx * dy - wy * dx
    ep = abs(wx) * edx + abs(wy) * edy + 2.0 * U * (abs(wx * dx) + abs(wy * dy))
    eq = abs(wx) * edy + abs(wy) * edx + 2.0 * U * (abs(wx * dy) + abs(wy * dx))
    value = b2 * (p * p) + a2 * (q * q)
    error = b2 * (2.0 * abs(p) * ep + ep * ep) + a2 * (2.0 * abs(q) * eq + eq * eq) + 6.0 * U * value
    return value, error


@inline
def _apart(shapes, dx, edx, dy, edy, lam):
    """``(g, e, D)``: ``g = N - D`` of the contact function at ``lam`` for the offset ``d = c_b -
    c_a`` of the centres known to ``(edx, edy)``, twice its rounding bound ``e = 2 (eN + eD)``,
    and ``D``; the rows are certified apart when ``g > e``. ``shapes``: :func:`_shapes`."""
    aa, ba, wxa, wya, ab, bb, wxb, wyb, wa, wb, da, db, t, et = shapes
    qa, eqa = _form(aa, ba, wxa, wya, dx, edx, dy, edy)
    qb, eqb = _form(ab, bb, wxb, wyb, dx, edx, dy, edy)
    l = lam
    m = 1.0 - l  # (rounded: a relative error of U, in the bounds below)
    na = qa * wb
    nb = qb * wa
    ena = eqa * wb + 4.0 * U * na
    enb = eqb * wa + 4.0 * U * nb
    n = l * m * (m * na + l * nb)
    en = l * m * (m * ena + l * enb) + 10.0 * U * n
    d = m * m * da + l * l * db + l * m * t
    ed = l * m * et + 12.0 * U * d
    return n - d, 2.0 * (en + ed), d


@inline
def _shapes(aa, ba, wxa, wya, ab, bb, wxb, wyb):
    """The numbers of the contact function that do not depend on the centres, from the squared
    semi-axes and the directions: ``(a_A^2, b_A^2, w_A, a_B^2, b_B^2, w_B, W_A, W_B, DA, DB, T,
    eT)`` with ``D(l) = m^2 DA + l^2 DB + l m T``, ``eT`` the rounding bound of ``T`` (the two
    products of directions may cancel; every other term is a product or sum of non-negative
    numbers, bounded in :func:`_apart` by its count of roundings)."""
    wa = wxa * wxa + wya * wya
    wb = wxb * wxb + wyb * wyb
    wab = wa * wb
    dot = wxa * wxb + wya * wyb
    crs = wxa * wyb - wya * wxb
    edot = 2.0 * U * (abs(wxa * wxb) + abs(wya * wyb))
    ecrs = 2.0 * U * (abs(wxa * wyb) + abs(wya * wxb))
    s1 = aa * bb + ba * ab
    s2 = aa * ab + ba * bb
    t = s1 * (dot * dot) + s2 * (crs * crs)
    et = s1 * (2.0 * abs(dot) * edot + edot * edot) + s2 * (2.0 * abs(crs) * ecrs + ecrs * ecrs) + 8.0 * U * t
    return aa, ba, wxa, wya, ab, bb, wxb, wyb, wa, wb, (aa * ba) * wab, (ab * bb) * wab, t, et


@inline
def _quadratic(a2, b2, wx, wy, weight, rx, ry, ux, uy):
    """``(n2, n1, n0)`` with ``weight Q(r0 + t u) = n2 t^2 + 2 n1 t + n0``."""
    pr, qr = wx * rx + wy * ry, wx * ry - wy * rx
    pu, qu = wx * ux + wy * uy, wx * uy - wy * ux
    return ((b2 * pu * pu + a2 * qu * qu) * weight, (b2 * pr * pu + a2 * qr * qu) * weight,
            (b2 * pr * pr + a2 * qr * qr) * weight)


@inline
def _first_root(c2, c1, g0):
    """The smaller root ``t >= 0`` of ``c2 t^2 + 2 c1 t + g0`` with ``g0 > 0`` (no cancellation:
    ``g0 / (-c1 + sqrt(c1^2 - c2 g0))``); ``inf`` when it never reaches 0 for ``t >= 0``."""
    if not c1 < 0.0:
        return math.inf
    disc = c1 * c1 - c2 * g0
    if disc < 0.0:
        return math.inf
    return g0 / (math.sqrt(disc) - c1)


@inline
def _exact_motion(shapes, rx, ry, ux, uy, t, lam):
    """:func:`_apart` at time ``t`` of the exact motion ``r0 + t u`` (``r0 =
    (rx, ry)`` one rounding of ``c_b - c_a``; the offset three roundings, bounded)."""
    x = rx + t * ux
    y = ry + t * uy
    ex = 2.0 * U * (abs(rx) + 2.0 * abs(t * ux)) + U * abs(x)
    ey = 2.0 * U * (abs(ry) + 2.0 * abs(t * uy)) + U * abs(y)
    return _apart(shapes, x, ex, y, ey, lam)


@inline
def _apart_moved(shapes, xa, ya, xb, yb, sx, sy, lam):
    """The ellipses centred at ``(xa, ya)`` and ``(xb, yb) + (sx, sy)`` apart (``b`` shifted as
    :func:`.toi._shift_row` shifts it: its centre ``+ s``, one rounding), certified at ``lam``;
    the offset of the centres carries one more rounding."""
    dx = (xb + sx) - xa
    dy = (yb + sy) - ya
    g, e, _ = _apart(shapes, dx, U * abs(dx), dy, U * abs(dy), lam)
    return g > e


@kernel
def translate_ellipses(ga, gb, fa, fb, row, out):
    """The time of impact of the translating ellipses ``a``, ``b`` (the arguments of
    :func:`.toi.search_translation`: rows as given ``ga``, ``gb``, in the frame ``fa``, ``fb``,
    the pair's numbers ``row``): ``out[1:6] = (time, px, py, nx, ny)`` and the outcome code
    (``HIT`` or ``MISS``), or -1 when the general search decides (``out`` then unspecified)."""
    gdx, gdy, vax, vay, vbx, vby = row[0], row[1], row[2], row[3], row[4], row[5]
    frame_x, frame_y, t_max = row[12], row[13], row[15]
    xa, ya, a_a, b_a, wxa, wya = fa[0], fa[1], fa[2], fa[3], fa[4], fa[5]
    xb, yb, a_b, b_b, wxb, wyb = fb[0], fb[1], fb[2], fb[3], fb[4], fb[5]
    gxa, gya, gxb, gyb = ga[0], ga[1], gb[0], gb[1]  # (the rows as given differ in their centres only)
    if not (_tame_shape(a_a, b_a, wxa, wya) & _tame_shape(a_b, b_b, wxb, wyb) & _tame(xa) & _tame(ya) & _tame(xb)
            & _tame(yb) & _tame(gxa) & _tame(gya) & _tame(gxb) & _tame(gyb) & (t_max > 0.0)):
        return -1
    shapes = _shapes(a_a * a_a, b_a * b_a, wxa, wya, a_b * a_b, b_b * b_b, wxb, wyb)
    aa, ba, _, _, ab, bb, _, _, wa, wb, da, db, tt, _ = shapes
    ux = vbx - vax
    uy = vby - vay
    rx = xb - xa
    ry = yb - ya
    a2, a1, a0 = _quadratic(aa, ba, wxa, wya, wb, rx, ry, ux, uy)  # W_B Q_A(r(t)) and W_A Q_B(r(t))
    b2, b1, b0 = _quadratic(ab, bb, wxb, wyb, wa, rx, ry, ux, uy)
    if not (math.isfinite(a2 + b2 + a1 + b1 + a0 + b0 + da + db + tt) and da > 0.0 and db > 0.0 and a0 > 0.0
            and b0 > 0.0):
        return -1  # (a0 = b0 = 0: the centres coincide, overlapping at the start)
    # the start: l = rho_A / (rho_A + rho_B), rho the distance from each centre to its boundary
    # along r0 (rho^2 = |r0|^2 k / Q(r0), k = a^2 b^2 W): the maximiser for two circles
    ratio = (db * a0) / (da * b0)  # (rho_B / rho_A)^2
    l = 1.0 / (1.0 + math.sqrt(ratio)) if ratio > 0.0 and math.isfinite(ratio) else 0.5
    lo, hi = 0.0, 1.0
    finite = math.isfinite(t_max)
    for _ in range(LAMBDA_STEPS):
        if not (0.0 < l < 1.0):
            return -1
        m = 1.0 - l
        lm = l * m
        c2 = lm * (m * a2 + l * b2)
        c1 = lm * (m * a1 + l * b1)
        g0 = lm * (m * a0 + l * b0) - (m * m * da + l * l * db + lm * tt)
        if not g0 > 0.0:
            return -1  # not apart at 0 for this l (touching or overlapping, or a poor start)
        t = _first_root(c2, c1, g0)
        if not t <= t_max:
            # this l keeps F above 1 up to t_max: a miss, certified at the minimum of the quadratic
            # N(l, .) - D over [0, t_max] (F - 1 above MISS_BAND beyond its rounding bound)
            if c2 > 0.0 and c1 < 0.0:
                at = min(-c1 / c2, t_max)
            elif c1 < 0.0:
                return -1  # (c2 == 0: F falls without end; a finite root was expected)
            else:
                at = 0.0
            g, e, d = _exact_motion(shapes, rx, ry, ux, uy, at, l)
            if not (g - e > MISS_BAND * d and _apart_moved(shapes, gxa, gya, gxb, gyb, gdx, gdy, l)):
                return -1
            out[1] = math.inf
            for i in range(2, 6):
                out[i] = math.nan
            return MISS
        # Newton's step on dg/dl(l, t_l) = 0 (g = N - D), t_l's slope -g_l / g_t
        na = (a2 * t + 2.0 * a1) * t + a0
        nb = (b2 * t + 2.0 * b1) * t + b0
        dna = 2.0 * (a2 * t + a1)
        dnb = 2.0 * (b2 * t + b1)
        gl = m * (1.0 - 3.0 * l) * na + l * (2.0 - 3.0 * l) * nb + 2.0 * m * da - 2.0 * l * db - (m - l) * tt
        gll = (6.0 * l - 4.0) * na + (2.0 - 6.0 * l) * nb - 2.0 * (da + db - tt)
        gt = lm * (m * dna + l * dnb)
        glt = m * (1.0 - 3.0 * l) * dna + l * (2.0 - 3.0 * l) * dnb
        if not gt < 0.0:
            return -1  # F flat in t at its crossing (a graze): the general search
        slope = -gl / gt
        if slope > 0.0:
            lo = l
        else:
            hi = l
        curvature = gll + glt * slope
        step = -gl / curvature if curvature < 0.0 else math.nan
        tol = TIME_TOL * (t_max if finite else max(t, 1e-300))
        if abs(slope * step) <= tol * 2.0**-4:  # the gain left in t is about half of this
            # (l itself is only known to about sqrt(tol): the point and normal, first order in l,
            # take the last step)
            return _hit(shapes, xa, ya, xb, yb, gxa, gya, gxb, gyb, gdx, gdy, rx, ry, ux, uy, vax, vay,
                        l, l + step, t, gt, frame_x, frame_y, tol, t_max, out)
        nxt = l + step
        if not (lo < nxt < hi):
            nxt = 0.5 * (lo + hi)
        l = nxt
    return -1


@inline
def _hit(shapes, xa, ya, xb, yb, gxa, gya, gxb, gyb, gdx, gdy, rx, ry, ux, uy, vax, vay, l, l_next, t, gt, frame_x,
         frame_y, tol, t_max, out):
    """The contact at ``t = t_l`` (``l`` converged, ``l_next`` its next Newton step): ``t`` polished
    by Newton's step on ``N - D`` evaluated directly (the quadratic's coefficients may cancel),
    its rounding within ``ROOT_TOL tol``; the point and normal by Perram and Wertheim's formulas
    at ``l_next``; the rows apart at the start and at the search's margin before ``t``; ``HIT``,
    else -1."""
    # the rounding of N - D at t (at most half its bound e from _apart) moves the root by at most
    # that over the slope: within ROOT_TOL tol (1.1e-13 t_max; the bound is pessimistic)
    g, e, _ = _exact_motion(shapes, rx, ry, ux, uy, t, l)
    if not (e <= -gt * tol * (2.0 * ROOT_TOL) and abs(g) <= -gt * tol * 64.0):
        return -1  # a graze or an ill-conditioned root: the general search
    t = t - g / gt
    if not 0.0 < t <= t_max:
        return -1
    # C = m Sigma_A + l Sigma_B (Sigma = S / W, S = a^2 w w^T + b^2 w^ w^T), y = C^-1 r: the
    # normal is y / |y|, the point c_A + m Sigma_A y (Perram and Wertheim 1985)
    aa, ba, wxa, wya, ab, bb, wxb, wyb, wa, wb, _, _, _, _ = shapes
    lam = l_next if 0.0 < l_next < 1.0 else l
    m = 1.0 - lam
    x = rx + t * ux
    y = ry + t * uy
    s11a, s12a, s22a = (aa * wxa * wxa + ba * wya * wya) / wa, (aa - ba) * wxa * wya / wa, (aa * wya * wya + ba * wxa * wxa) / wa
    s11b, s12b, s22b = (ab * wxb * wxb + bb * wyb * wyb) / wb, (ab - bb) * wxb * wyb / wb, (ab * wyb * wyb + bb * wxb * wxb) / wb
    c11 = m * s11a + lam * s11b
    c12 = m * s12a + lam * s12b
    c22 = m * s22a + lam * s22b
    det = c11 * c22 - c12 * c12
    if not det > 0.0:
        return -1
    yx = (c22 * x - c12 * y) / det
    yy = (c11 * y - c12 * x) / det
    norm = math.sqrt(yx * yx + yy * yy)  # (tame rows: no overflow)
    if not norm > 0.0:
        return -1
    nx = yx / norm
    ny = yy / norm
    px = xa + m * (s11a * yx + s12a * yy)
    py = ya + m * (s12a * yx + s22a * yy)
    speed = -(ux * nx + uy * ny)
    if not speed > 0.0:
        return -1
    scale = t_max if math.isfinite(t_max) else t
    noise = NOISE * max(abs(px + vax * t), abs(py + vay * t))
    check = max(t - max(CERTIFY * scale, 4.0 * noise / speed), 0.0)
    if not _apart_moved(shapes, gxa, gya, gxb, gyb, gdx, gdy, l):
        return -1
    if check > 0.0 and not _apart_moved(shapes, xa, ya, xb, yb, ux * check, uy * check, l):
        return -1
    out[1] = t
    out[2] = px + vax * t + frame_x
    out[3] = py + vay * t + frame_y
    out[4] = nx
    out[5] = ny
    return HIT


@inline
def _point_gap(a2, b2, wx, wy, k, dx, edx, dy, edy):
    """``(Q(d) - k, 2 (eQ + ek))`` for the offset ``d`` of a point from an ellipse's centre known
    to ``(edx, edy)``: the point is certainly outside the closed ellipse when the first is larger."""
    q, eq = _form(a2, b2, wx, wy, dx, edx, dy, edy)
    return q - k, 2.0 * (eq + 8.0 * U * k)


@kernel
def translate_ellipse_point(swapped, ga, gb, fa, fb, row, out):
    """The time of impact of a translating ellipse and point (``swapped``: the point is ``a``), the
    arguments of :func:`translate_ellipses`: the closed form. The offset ``d(t)`` of the point from
    the centre moves on a line, and the first contact is the smaller root of the quadratic
    ``Q(d(t)) = a^2 b^2 W`` (Perram and Wertheim's function at its end ``l = 1``, where it is the
    whole test); a circle and a point are the special case. Certified as there: apart at the
    start and at the search's margin before the root, the root's rounding within ``ROOT_TOL``
    tolerances, a miss by ``Q / k - 1 > MISS_BAND`` over ``[0, t_max]``; else -1."""
    gdx, gdy, vax, vay, vbx, vby = row[0], row[1], row[2], row[3], row[4], row[5]
    frame_x, frame_y, t_max = row[12], row[13], row[15]
    ux = vbx - vax
    uy = vby - vay
    if swapped:  # d = point - centre: the ellipse is b, moving by u
        fe, ge, xp, yp, gxp, gyp, sign = fb, gb, fa[0], fa[1], ga[0], ga[1], -1.0
    else:
        fe, ge, xp, yp, gxp, gyp, sign = fa, ga, fb[0], fb[1], gb[0], gb[1], 1.0
    xe, ye, a, b, wx, wy = fe[0], fe[1], fe[2], fe[3], fe[4], fe[5]
    gxe, gye = ge[0], ge[1]
    if not (_tame_shape(a, b, wx, wy) & _tame(xe) & _tame(ye) & _tame(xp) & _tame(yp) & _tame(gxe) & _tame(gye)
            & _tame(gxp) & _tame(gyp) & (t_max > 0.0)):
        return -1
    a2, b2 = a * a, b * b
    k = (a2 * b2) * (wx * wx + wy * wy)
    rx, ry = xp - xe, yp - ye
    ex, ey = sign * ux, sign * uy  # the point's velocity relative to the ellipse
    q2, q1, q0 = _quadratic(a2, b2, wx, wy, 1.0, rx, ry, ex, ey)
    g0 = q0 - k
    if not (math.isfinite(q2 + q1 + q0 + k) and k > 0.0 and g0 > 0.0):
        return -1
    # the rows as given apart at the start (b shifted by (gdx, gdy): its centre or point + g, one rounding)
    if swapped:
        sx, sy = gxp - (gxe + gdx), gyp - (gye + gdy)
    else:
        sx, sy = (gxp + gdx) - gxe, (gyp + gdy) - gye
    g, e = _point_gap(a2, b2, wx, wy, k, sx, U * abs(sx), sy, U * abs(sy))
    if not g > e:
        return -1
    t = _first_root(q2, q1, g0)
    if not t <= t_max:  # a miss, certified at the minimum of the quadratic over [0, t_max]
        if q2 > 0.0 and q1 < 0.0:
            at = min(-q1 / q2, t_max)
        elif q1 < 0.0:
            return -1
        else:
            at = 0.0
        x, y = rx + at * ex, ry + at * ey
        e_x = 2.0 * U * (abs(rx) + 2.0 * abs(at * ex)) + U * abs(x)
        e_y = 2.0 * U * (abs(ry) + 2.0 * abs(at * ey)) + U * abs(y)
        g, e = _point_gap(a2, b2, wx, wy, k, x, e_x, y, e_y)
        if not g - e > MISS_BAND * k:
            return -1
        out[1] = math.inf
        for i in range(2, 6):
            out[i] = math.nan
        return MISS
    tol = TIME_TOL * (t_max if math.isfinite(t_max) else max(t, 1e-300))
    x, y = rx + t * ex, ry + t * ey
    e_x = 2.0 * U * (abs(rx) + 2.0 * abs(t * ex)) + U * abs(x)
    e_y = 2.0 * U * (abs(ry) + 2.0 * abs(t * ey)) + U * abs(y)
    slope = 2.0 * (q2 * t + q1)  # dQ/dt at the root (negative: entering)
    g, e = _point_gap(a2, b2, wx, wy, k, x, e_x, y, e_y)
    if not (slope < 0.0 and e <= -slope * tol * (2.0 * ROOT_TOL) and abs(g) <= -slope * tol * 64.0):
        return -1  # a graze or an ill-conditioned root
    t = t - g / slope  # Newton's step on Q(d(t)) - k evaluated directly (the coefficients may cancel)
    if not 0.0 < t <= t_max:
        return -1
    x, y = rx + t * ex, ry + t * ey
    p = wx * x + wy * y  # the outward normal of the ellipse at the point: grad Q / 2
    q = wx * y - wy * x
    gx = b2 * p * wx - a2 * q * wy
    gy = b2 * p * wy + a2 * q * wx
    norm = math.sqrt(gx * gx + gy * gy)
    if not norm > 0.0:
        return -1
    nx, ny = gx / norm, gy / norm
    speed = -(ex * nx + ey * ny)
    if not speed > 0.0:
        return -1
    if swapped:  # the point is a, still in the frame; the ellipse b moved by u t
        px, py = xp + vax * t, yp + vay * t
    else:
        px, py = (xp + ux * t) + vax * t, (yp + uy * t) + vay * t
    scale = t_max if math.isfinite(t_max) else t
    noise = NOISE * max(abs(px), abs(py))
    check = max(t - max(CERTIFY * scale, 4.0 * noise / speed), 0.0)
    if check > 0.0:  # the float-moved rows apart there (b shifted by u check, one rounding)
        if swapped:
            cx, cy = xp - (xe + ux * check), yp - (ye + uy * check)
        else:
            cx, cy = (xp + ux * check) - xe, (yp + uy * check) - ye
        g, e = _point_gap(a2, b2, wx, wy, k, cx, U * abs(cx), cy, U * abs(cy))
        if not g > e:
            return -1
    out[1] = t
    out[2] = px + frame_x
    out[3] = py + frame_y
    out[4] = sign * nx  # from a to b: outward from the ellipse when it is a
    out[5] = sign * ny
    return HIT
