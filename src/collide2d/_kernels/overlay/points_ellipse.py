"""Boundary intersection points of an ellipse (or circle) with every kind.

Contract (see :mod:`collide2d._kernels`): ``points_ellipse_<b>(pa, va, pb, vb, relation, out)``
writes the points where the two outlines meet into ``out[0:count, 0:2]`` and returns ``count``.
``relation`` is the *exact* relation code of the pair (from the relate kernels plus the rational
fallback), so the kernels never decide how many points there are from how close two computed
points are. For a segment, a line or a point the "outline" is the shape
itself; for a region it is its boundary.

Frame
-----
Every computation runs in the *unit frame* of the ellipse ``A = pa``: with ``u = w / |w|``,
``v = (-u_y, u_x)`` and ``y = x - c_A``,

    ``X = (u.y) / a,  Y = (v.y) / b``,

in which ``A`` is the unit circle ``X^2 + Y^2 = 1`` (the map is affine
and orientation preserving, so straight lines stay straight and counter-clockwise stays
counter-clockwise). Points are mapped back with ``x = c_A + a X u + b Y v``.

An ellipse ``B`` becomes, in that frame, ``q_B(X) = (p.X - s_p)^2 + (r.X - s_r)^2 = 1`` with

    ``p = (u_B.(a u), u_B.(b v)) / a_B,   r = (v_B.(a u), v_B.(b v)) / b_B``,
    ``s_p = u_B.d / a_B,  s_r = v_B.d / b_B,  d = c_B - c_A``,

(``Z = P X - s`` with ``P = [p; r]`` is then the unit frame of ``B``; ``det P > 0``). Its
homogeneous matrix is ``C_B = [[N, -e], [-e^T, g]]`` with ``N = P^T P``, ``e = P^T s`` and
``g = |s|^2 - 1``; that of ``A`` is ``J = diag(1, 1, -1)``.

Ellipse against ellipse (Richter-Gebert, *Perspectives on Projective Geometry*, 2011, ch. 11,
"Intersecting two conics"): a real root ``mu`` of ``det(C_B - mu J) = 0`` gives a degenerate member
``D = C_B - mu J`` of the pencil, a pair of lines through all four intersection points. The pencil
is written about ``J`` itself, ``D = Delta - nu J`` with ``Delta = C_B - J`` formed entry by entry
(``mu = 1 + nu``): for near-identical ellipses ``Delta`` is small and the three roots, clustered
near ``mu = 1``, would otherwise be lost to cancellation (a triple cluster loses two thirds of the
digits); in this form they keep their relative accuracy. ``D`` is split into its two lines
(``adj D = -p p^T`` up to a positive factor, ``p`` the lines' crossing point;
``D + [p]_x`` has rank one and a row and a column of it are the two lines); each line is met with
the unit circle (a stable half-chord formula), and every point is polished by Newton steps on
``{|X|^2 = 1, q_B(X) = 1}``.

Tangent points (relation ``TOUCHING``, or containment whose boundaries touch) are the global
minimisers (``B`` outside ``A`` or inside ``A``) or maximisers (``A`` inside ``B``) of ``q_B`` on
the unit circle, where the extreme value is exactly 1. They solve the trust-region secular
equation ``(N - nu I) X = e``, ``|X| = 1`` with ``nu`` below the smallest (minimum) or above the
largest (maximum) eigenvalue of ``N`` (Eberly, "Distance from a point to an ellipse", the same
secular function; Hughes & Chraibi 2012 compute tangent points from the quartic instead, which
loses half the digits). Two tangent points (the number comes from the exact pencil, see
:func:`contact_count_ellipse_ellipse`) are the "hard case" ``nu`` = an eigenvalue.

No allocation, no exceptions. Fixed iteration caps, every iteration bracketed.
"""

import math

from collide2d._jit import kernel

from .. import codes
from ..relate.conic import _definite_exact, _pencil, _pencil_exact, _relate_float
from ..relate.ellipse import _edge_min_sign, _frame, _point_sign
from ..codes import UNKNOWN_SIGN
from ..vec import hypot, two_product, two_sum

_EPS = 2.0**-53
# Newton polishing of a crossing point is skipped when the two boundary normals are closer to
# parallel than this (sine of the crossing angle): the step would then amplify rounding instead of
# removing it. Unit: dimensionless (normalised cross product of the two gradients).
_MIN_CROSSING_SINE = 1e-7
# Computed crossings that suggest a tangent point among them (unit-frame units): a line of the
# split pencil member within this of tangency to the unit circle (a tangent point makes it exact;
# rounding leaves ~1e-8), or two points this close (a tangent point found on two lines). Such
# pairs get an exact check (crossing_contact_ellipse_ellipse); crossings this close or lines this
# near tangency are otherwise rare.
_NEAR_TANGENT = 1e-6
_NEAR_PAIR = 1e-5
# A crossing point whose Newton polish ends with a residual above this (relative to the size of
# the terms of the two equations, see _polish) is unresolved: the pencil could not resolve it (a
# cluster of three or four intersections, a contact of order 3 or 4 within rounding), and the
# crossings are searched again by crossings_by_sign. Polished points end within a few eps; the
# unresolved ones measured 1e-9 and more.
UNRESOLVED = 1e-12
# Equal steps of the angle at which crossings_by_sign samples the level of B on the unit circle.
_SIGN_SAMPLES = 32


# -- the unit frame of an ellipse ------------------------------------------------------------------


@kernel
def unit_frame(pa):
    """Centre, semi-axes and unit axis ``(ux, uy)`` of ellipse row ``pa``."""
    n = hypot(pa[4], pa[5])
    if pa[2] == pa[3] or not (n > 0.0):  # a circle: any axis, use the world's
        return pa[0], pa[1], pa[2], pa[3], 1.0, 0.0
    return pa[0], pa[1], pa[2], pa[3], pa[4] / n, pa[5] / n


@kernel
def to_frame(x, y, cx, cy, a, b, ux, uy):
    """World point to the unit frame of the ellipse (see the module docstring)."""
    dx = x - cx
    dy = y - cy
    return (ux * dx + uy * dy) / a, (ux * dy - uy * dx) / b


@kernel
def from_frame(X, Y, cx, cy, a, b, ux, uy):
    """Unit-frame point back to world coordinates: ``c + a X u + b Y v``."""
    ax = a * X
    by = b * Y
    return cx + (ax * ux - by * uy), cy + (ax * uy + by * ux)


@kernel
def conic_in_frame(pa, pb):
    """``B`` in the unit frame of ``A``: ``(p1, p2, r1, r2, sp, sr, g)``, ``q_B = |P X - s|^2``.

    ``g = q_B(c_A) - 1 = |s|^2 - 1``. ``s`` and ``g`` come from :func:`offset_at`: when ``A``'s
    centre lies near the boundary of a far larger or far longer ``B``, ``|s|`` is within a tiny
    ``delta`` of 1 while ``A``'s piece of the area and its crossings depend on ``g ~ 2 delta``;
    formed from rounded projections on a rounded unit axis, ``s`` and ``g`` would carry absolute
    errors of ``eps`` times ``B``'s size, i.e. ``eps`` times the size ratio relative to ``A``.
    """
    cx, cy, a, b, ux, uy = unit_frame(pa)
    bx, by, ab, bb, vx, vy = unit_frame(pb)
    # columns of L = [a u, b v] projected on u_B and v_B = (-vy, vx)
    if vx == ux and vy == uy:
        # equal axes (always so for two circles): P is diagonal, without the rounding of
        # u.u = 1 that would make a translated copy of A look a few ulps smaller or larger
        p1 = a / ab
        p2 = 0.0
        r1 = 0.0
        r2 = b / bb
    else:
        p1 = (vx * ux + vy * uy) * a / ab
        p2 = (vy * ux - vx * uy) * b / ab
        r1 = (vx * uy - vy * ux) * a / bb
        r2 = (vx * ux + vy * uy) * b / bb
    osp, osr, g = offset_at(pa[0], pa[1], pb)
    return p1, p2, r1, r2, -osp, -osr, g


@kernel
def level_at(x, y, pb):
    """``q_B(x, y) - 1`` for the ellipse row ``pb`` (see :func:`offset_at`)."""
    return offset_at(x, y, pb)[2]


@kernel
def offset_at(x, y, pb):
    """``(u_B.d / a_B, v_B.d / b_B, q_B(x, y) - 1)`` for ``d = (x, y) - c_B``, from the stored numbers.

    With the stored axis ``w`` of ``B`` (any length, not rounded to a unit vector):
    ``q_B - 1 = ((w.d / a_B)^2 + (w_perp.d / b_B)^2 - |w|^2) / |w|^2``, every intermediate carried
    as an unevaluated sum ``hi + lo`` (Knuth's TwoSum, Dekker's TwoProduct; Ogita, Rump & Oishi,
    "Accurate sum and dot product", SIAM J. Sci. Comput. 26 (2005)): the level to a few roundings
    of itself, the two projections to a few roundings of themselves (divided by ``|w|`` last).
    """
    wx = pb[4]
    wy = pb[5]
    if pb[2] == pb[3]:  # a circle: the axis is irrelevant (and may be anything)
        wx = 1.0
        wy = 0.0
    dx, dxl = two_sum(x, -pb[0])
    dy, dyl = two_sum(y, -pb[1])
    sp, spl = _dd_quotient(wx, dx, dxl, wy, dy, dyl, pb[2])
    sr, srl = _dd_quotient(wx, dy, dyl, -wy, dx, dxl, pb[3])
    s2, s2l = two_product(sp, sp)
    t2, t2l = two_product(sr, sr)
    w2, w2l = two_product(wx, wx)
    v2, v2l = two_product(wy, wy)
    ww, wwl = two_sum(w2, v2)
    wwl += w2l + v2l
    h, hl = two_sum(s2, t2)
    h2, h2l = two_sum(h, -ww)
    g = (h2 + (h2l + (hl - wwl + (s2l + 2.0 * sp * spl) + (t2l + 2.0 * sr * srl)))) / ww
    norm = math.sqrt(ww + wwl)
    return (sp + spl) / norm, (sr + srl) / norm, g


@kernel
def _dd_quotient(v1, x1, x1l, v2, x2, x2l, c):
    """``(v1 (x1 + x1l) + v2 (x2 + x2l)) / c`` as ``hi + lo`` (to about two roundings of ``hi``)."""
    a1, a1l = two_product(v1, x1)
    a2, a2l = two_product(v2, x2)
    u, ul = two_sum(a1, a2)
    ul += (a1l + a2l) + (v1 * x1l + v2 * x2l)
    q = u / c
    ph, pl = two_product(q, c)
    return q, (((u - ph) - pl) + ul) / c


# -- cubic ------------------------------------------------------------------------------------------


@kernel
def _cubic_newton(c2, c1, c0, x):
    """Two Newton steps on the monic cubic ``x^3 + c2 x^2 + c1 x + c0`` (kept only if better)."""
    for _ in range(2):
        f = ((x + c2) * x + c1) * x + c0
        df = (3.0 * x + 2.0 * c2) * x + c1
        if df == 0.0:
            break
        nx = x - f / df
        fn = ((nx + c2) * nx + c1) * nx + c0
        if abs(fn) < abs(f):
            x = nx
        else:
            break
    return x


@kernel
def real_cubic_roots(c2, c1, c0):
    """Real roots of ``x^3 + c2 x^2 + c1 x + c0``: ``(n, r0, r1, r2)`` with ``n`` in {1, 3}.

    Depressed cubic ``t^3 + P t + Q`` (``x = t - c2/3``); three real roots by the trigonometric
    form when ``4 P^3 + 27 Q^2 < 0``, else one by Cardano's formula written without cancellation
    (``u = cbrt(-Q/2 - sign(Q) sqrt(...))``, ``t = u - P / (3 u)``). Every root is polished with
    Newton steps on the original cubic.
    """
    s = c2 / 3.0
    P = c1 - c2 * s
    Q = (2.0 * s * s - c1) * s + c0  # = 2 c2^3/27 - c2 c1 / 3 + c0
    h = (Q * Q) / 4.0 + (P * P * P) / 27.0
    if h < 0.0 and P < 0.0:
        m = 2.0 * math.sqrt(-P / 3.0)
        arg = 3.0 * Q / (P * m)
        arg = max(-1.0, min(1.0, arg))
        th = math.acos(arg) / 3.0
        r0 = m * math.cos(th) - s
        r1 = m * math.cos(th - 2.0 * math.pi / 3.0) - s
        r2 = m * math.cos(th - 4.0 * math.pi / 3.0) - s
        return 3, _cubic_newton(c2, c1, c0, r0), _cubic_newton(c2, c1, c0, r1), _cubic_newton(c2, c1, c0, r2)
    sq = math.sqrt(max(h, 0.0))
    w = -Q / 2.0 - sq if Q >= 0.0 else -Q / 2.0 + sq
    u = math.copysign(abs(w) ** (1.0 / 3.0), w)
    t = u - P / (3.0 * u) if u != 0.0 else 0.0
    r = _cubic_newton(c2, c1, c0, t - s)
    return 1, r, r, r


# -- crossing points of two ellipses -----------------------------------------------------------------


@kernel
def _det3_sym(d11, d12, d13, d22, d23, d33):
    """Determinant of a symmetric 3x3 matrix."""
    return d11 * (d22 * d33 - d23 * d23) - d12 * (d12 * d33 - d23 * d13) + d13 * (d12 * d23 - d22 * d13)


@kernel
def n_minus_identity(p1, p2, r1, r2):
    """``N - I`` for ``N = P^T P``, with the diagonal as ``(h - 1)(h + 1)``, ``h = hypot(p1, r1)``.

    For near-identical ellipses ``N`` is within ``eta`` of ``I``; forming ``N - I`` first (instead of
    ``N - mu I`` with ``mu`` near 1) keeps the pencil's cubic on the scale of ``eta``, so its three
    clustered roots keep their relative accuracy (see :func:`crossings_in_frame`).
    """
    h1 = hypot(p1, r1)
    h2 = hypot(p2, r2)
    return (h1 - 1.0) * (h1 + 1.0), p1 * p2 + r1 * r2, (h2 - 1.0) * (h2 + 1.0)


@kernel
def _adj_diag(d11, d12, d13, d22, d23, d33):
    """Diagonal of the adjugate of a symmetric 3x3 matrix."""
    return d22 * d33 - d23 * d23, d11 * d33 - d13 * d13, d11 * d22 - d12 * d12


@kernel
def _line_foot(l0, l1, l2):
    """``(||delta| - 1|, direction of the foot)`` of the line ``l0 X + l1 Y + l2 = 0`` (see :func:`_line_circle`).

    A gap near 0 is a line nearly tangent to the unit circle: a tangent point of the two ellipses
    (found once or twice, or dropped by rounding), or a pair of crossings or a near miss.
    """
    nn = hypot(l0, l1)
    if not (nn > 0.0):
        return math.inf, 1.0, 0.0
    delta = -l2 / nn
    sign = 1.0 if delta >= 0.0 else -1.0
    return abs(abs(delta) - 1.0), sign * l0 / nn, sign * l1 / nn


@kernel
def _line_circle(l0, l1, l2):
    """Points of the line ``l0 X + l1 Y + l2 = 0`` on the unit circle: ``(n, X0, Y0, X1, Y1)``.

    Foot ``f = delta n`` with unit normal ``n = (l0, l1) / |(l0, l1)|`` and ``delta = -l2 / |.|``;
    half chord ``h = sqrt((1 - |delta|)(1 + |delta|))`` (no cancellation in ``1 - delta^2``);
    points ``f -+ h t`` with ``t = (-n_y, n_x)``.
    """
    nn = hypot(l0, l1)
    if not (nn > 0.0):
        return 0, 0.0, 0.0, 0.0, 0.0
    nx = l0 / nn
    ny = l1 / nn
    delta = -l2 / nn
    ad = abs(delta)
    if not (ad <= 1.0):
        return 0, 0.0, 0.0, 0.0, 0.0
    h = math.sqrt((1.0 - ad) * (1.0 + ad))
    fx = delta * nx
    fy = delta * ny
    return 2, fx + h * ny, fy - h * nx, fx - h * ny, fy + h * nx


@kernel
def _polish(X, Y, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr):
    """Newton steps on ``F1 = |X|^2 - 1 = 0`` and ``F2 = (X, 1)^T D (X, 1) = 0`` (crossing points).

    ``D`` is the base member of the pencil (:func:`base_member`): ``C_B - J`` (``form`` 1, so that
    ``F2 = q_B - |X|^2``, small and accurate for near-identical ellipses) or ``C_B`` itself
    (``form`` 0, with the accurate ``g`` (:func:`conic_in_frame`), for an ellipse ``B`` far larger than
    ``A``); either way ``{F1, F2}`` has the same roots as ``{|X|^2 = 1, q_B = 1}`` and both are
    evaluated without the cancellation of ``q_B - 1 = F2 + shift F1`` (``shift`` = ``form``).
    ``form`` 2 (``B`` very elongated in this frame, where ``N = P^T P`` has huge entries that cancel
    in ``X^T N X``): ``F2 = |P X - s|^2 - 1`` from ``Z = P X - s`` itself. Jacobian rows ``2 X``
    and ``2 (D_2 X + d)`` (``2 P^T Z`` in form 2). A step is kept only while it lowers the sum of the first-order distances
    ``|F| / |grad F|`` to the two curves (so the loop ends at rounding level); none is taken where
    the curves are nearly tangent (the sine of their angle below ``_MIN_CROSSING_SINE``).
    Returns ``(X, Y, r)``, ``r`` the two residuals relative to the magnitudes of their terms (a
    few ``eps`` where both equations hold to rounding), divided by the sine of the crossing angle
    when above that (the point's first-order error then).
    """
    res = math.inf
    rel = math.inf
    prel = math.inf
    pX = X
    pY = Y
    shift = 1.0 if form == 1 else 0.0
    cond = 1.0
    pcond = cond
    for it in range(10):
        f1 = (X * X + Y * Y) - 1.0
        if form == 2:
            zp = p1 * X + p2 * Y - sp
            zr = r1 * X + r2 * Y - sr
            g2x = p1 * zp + r1 * zr
            g2y = p2 * zp + r2 * zr
            f2 = (zp * zp + zr * zr) - 1.0
        else:
            g2x = d11 * X + d12 * Y + d13
            g2y = d12 * X + d22 * Y + d23
            f2 = (g2x + d13) * X + (g2y + d23) * Y + d33
        h1 = hypot(X, Y)
        gbx = g2x + shift * X  # half the gradient of q_B
        gby = g2y + shift * Y
        hb = hypot(gbx, gby)
        if not (h1 > 0.0 and hb > 0.0):
            rel = math.inf
            break
        nres = abs(f1) / h1 + abs(f2 + shift * f1) / hb
        if it > 0:
            if not (nres < res):
                X = pX  # the last step did not help: undo it
                Y = pY
                rel = prel
                cond = pcond
                break
        res = nres
        # the residuals relative to the magnitudes of their terms (rounding gives a few eps)
        if form == 2:
            mag = (zp * zp + zr * zr) + 1.0
        else:
            ax = abs(X)
            ay = abs(Y)
            mag = ax * (abs(d11) * ax + 2.0 * abs(d12) * ay + 2.0 * abs(d13)) + ay * (abs(d22) * ay + 2.0 * abs(d23))
            mag += abs(d33) + shift * (h1 * h1 + 1.0)
        rel = abs(f1) / (h1 * h1 + 1.0) + abs(f2 + shift * f1) / mag
        det = X * g2y - Y * g2x
        # at the level of rounding already (the usual case for the line-circle points): done
        cond = (h1 * hb) / max(abs(det), 1e-300)  # 1 / sine of the crossing angle
        if not (rel > 4.0 * _EPS) or not (abs(det) > _MIN_CROSSING_SINE * h1 * hb) or it == 9:
            break
        # J = 2 [[X, Y], [g2x, g2y]]; solve J (dX, dY) = -(f1, f2)
        pX = X
        pY = Y
        prel = rel
        pcond = cond
        X = pX - (f1 * g2y - f2 * Y) / (2.0 * det)
        Y = pY - (pX * f2 - g2x * f1) / (2.0 * det)
    if rel > 4.0 * _EPS:
        # not at the level of rounding: the point is only known to about its residual over the
        # sine of the crossing angle (a residual of 1e-13 at a sine of 1e-8 leaves it 1e-5 off)
        rel = rel * cond
    return X, Y, rel


@kernel
def circle_level(t, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr):
    """``q_B - 1`` at the point ``(cos t, sin t)`` of the unit circle, in the form of :func:`base_member`."""
    X = math.cos(t)
    Y = math.sin(t)
    if form == 2:
        zp = p1 * X + p2 * Y - sp
        zr = r1 * X + r2 * Y - sr
        return (zp * zp + zr * zr) - 1.0
    return (d11 * X + 2.0 * (d12 * Y + d13)) * X + (d22 * Y + 2.0 * d23) * Y + d33


@kernel
def base_member(p1, p2, r1, r2, sp, sr, g):
    """The member of the pencil that the crossings are computed from: ``(d11, d12, d22, d13, d23, d33, form)``.

    Three forms, by the shape of ``B`` in this frame (``N = P^T P``, ``s``):

    * ``form`` 1, ``Delta = C_B - J`` (see the module docstring): ``N - I``, ``-e`` and
      ``g + 1 = |s|^2`` without cancellation, for ellipses of similar size and shape (every entry
      of ``N - I`` at most 1/2): on the unit circle its quadratic form ``F2 = q_B - |X|^2`` is
      small for near-identical ellipses and computed to its own relative accuracy, and equal
      shapes (``N = I`` exactly, two equal circles) keep the exact zero that the line at
      infinity of their pencil needs.
    * ``form`` 0, ``C_B`` itself with the accurate ``g`` of :func:`conic_in_frame`: ``B`` larger than
      ``A`` in every direction (trace of ``N`` below 1/2), where ``N - I`` would lose the small
      ``N`` (all of ``B``'s curvature) to rounding, and every pair of dissimilar ellipses that is
      not elongated (``A``'s centre near the boundary of a far longer ``B`` needs the accurate
      ``g``).
    * ``form`` 2, ``Delta`` again, for a ``B`` much narrower than ``A`` in some direction (an entry
      of ``N - I`` above 4): its huge entries cancel in the quadratic form, so the points are
      polished on ``|P X - s|^2 - 1`` itself (:func:`_polish`).

    On the unit circle ``(X, 1)^T D (X, 1) = q_B - 1`` in all forms.
    """
    n11 = p1 * p1 + r1 * r1
    n12 = p1 * p2 + r1 * r2
    n22 = p2 * p2 + r2 * r2
    e1 = -(p1 * sp + r1 * sr)
    e2 = -(p2 * sp + r2 * sr)
    if n11 + n22 >= 0.5:
        d11, d12, d22 = n_minus_identity(p1, p2, r1, r2)
        big = max(abs(d11), max(abs(d12), abs(d22)))
        if big > 4.0:
            return d11, d12, d22, e1, e2, sp * sp + sr * sr, 2
        if big <= 0.5:
            return d11, d12, d22, e1, e2, sp * sp + sr * sr, 1
    return n11, n12, n22, e1, e2, g, 0


@kernel
def crossings_in_frame(p1, p2, r1, r2, sp, sr, g, tol):
    """Crossing points of the unit circle with ``|P X - s| = 1``: ``(n, X0, Y0, ..., X3, Y3, gap, fx, fy)``.

    ``gap, (fx, fy)``: :func:`_line_foot` of the line of the split member nearest to tangency.
    ``n`` counts the points whose polish ends with a relative residual (:func:`_polish`) within
    ``tol``; they come first, followed by the others, ``n_all`` points in all (the last value).

    The pencil splitting of the module docstring. Among the real roots of the cubic the kernel uses
    those whose member is a *real* line pair (``adj D`` negative semidefinite), preferring the root
    farthest from the others (best conditioned). Candidates with
    ``|delta| > 1`` (the line misses the circle) are dropped; the rest are polished.
    """
    d11, d12, d22, d13, d23, d33, form = base_member(p1, p2, r1, r2, sp, sr, g)
    e11, e12, e22, e13, e23, e33 = d11, d12, d22, d13, d23, d33
    # eigenvalues nu of J Delta: nu^3 - T nu^2 + S nu + det(Delta) = 0 (det(J Delta) = -det Delta)
    T = d11 + d22 - d33
    S = (d11 * d22 - d12 * d12) - (d11 * d33 - d13 * d13) - (d22 * d33 - d23 * d23)
    det_d = _det3_sym(d11, d12, d13, d22, d23, d33)
    nroots, m0, m1, m2 = real_cubic_roots(-T, S, det_d)
    best = -1.0
    mu = m0
    scale = max(abs(m0), max(abs(m1), abs(m2))) + 1.0
    fallback = math.inf
    mu_fallback = m0
    for j in range(nroots):
        m = m0 if j == 0 else (m1 if j == 1 else m2)
        a0, a1, a2 = _adj_diag(d11 - m, d12, d13, d22 - m, d23, d33 + m)
        big = a0
        if abs(a1) > abs(big):
            big = a1
        if abs(a2) > abs(big):
            big = a2
        sep = math.inf
        if nroots == 3:
            for jj in range(3):
                if jj != j:
                    o = m0 if jj == 0 else (m1 if jj == 1 else m2)
                    sep = min(sep, abs(m - o))
        sep = sep / scale if sep < math.inf else 1.0
        if big <= 0.0:
            if sep > best:
                best = sep
                mu = m
        elif big < fallback:
            fallback = big
            mu_fallback = m
    if best < 0.0:
        mu = mu_fallback
    d11 = d11 - mu
    d22 = d22 - mu
    d33 = d33 + mu
    # adj D (symmetric): B_ij
    b11 = d22 * d33 - d23 * d23
    b22 = d11 * d33 - d13 * d13
    b33 = d11 * d22 - d12 * d12
    b12 = d13 * d23 - d12 * d33
    b13 = d12 * d23 - d13 * d22
    b23 = d12 * d13 - d11 * d23
    # crossing point p = column i of adj D divided by sqrt(-B_ii), i the largest |B_ii|
    if abs(b11) >= abs(b22) and abs(b11) >= abs(b33):
        beta = math.sqrt(max(-b11, 0.0))
        q0, q1, q2 = b11, b12, b13
    elif abs(b22) >= abs(b33):
        beta = math.sqrt(max(-b22, 0.0))
        q0, q1, q2 = b12, b22, b23
    else:
        beta = math.sqrt(max(-b33, 0.0))
        q0, q1, q2 = b13, b23, b33
    if beta > 0.0:
        q0 = q0 / beta
        q1 = q1 / beta
        q2 = q2 / beta
    else:
        q0 = 0.0
        q1 = 0.0
        q2 = 0.0
    # C = D + [p]_x, rank one: C = g h^T; a row and a column through its largest entry are the lines
    c00 = d11
    c01 = d12 + q2
    c02 = d13 - q1
    c10 = d12 - q2
    c11 = d22
    c12 = d23 + q0
    c20 = d13 + q1
    c21 = d23 - q0
    c22 = d33
    bi = int(0)
    bj = int(0)
    bv = abs(c00)
    for i in range(3):
        for j in range(3):
            v = abs(_m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, i, j))
            if v > bv:
                bv = v
                bi = i
                bj = j
    la0 = _m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, bi, int(0))
    la1 = _m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, bi, int(1))
    la2 = _m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, bi, int(2))
    lb0 = _m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, int(0), bj)
    lb1 = _m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, int(1), bj)
    lb2 = _m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, int(2), bj)
    na, xa0, ya0, xa1, ya1 = _line_circle(la0, la1, la2)
    nb, xb0, yb0, xb1, yb1 = _line_circle(lb0, lb1, lb2)
    gap_a, fxa, fya = _line_foot(la0, la1, la2)
    gap_b, fxb, fyb = _line_foot(lb0, lb1, lb2)
    if gap_b < gap_a:
        gap_a, fxa, fya = gap_b, fxb, fyb
    # polished points, those within tol first (the order of their lines otherwise)
    qx0 = qy0 = qx1 = qy1 = qx2 = qy2 = qx3 = qy3 = math.nan
    rq0 = rq1 = rq2 = rq3 = math.nan
    if na == 2:
        qx0, qy0, rq0 = _polish(xa0, ya0, e11, e12, e22, e13, e23, e33, form, p1, p2, r1, r2, sp, sr)
        qx1, qy1, rq1 = _polish(xa1, ya1, e11, e12, e22, e13, e23, e33, form, p1, p2, r1, r2, sp, sr)
    if nb == 2:
        qx2, qy2, rq2 = _polish(xb0, yb0, e11, e12, e22, e13, e23, e33, form, p1, p2, r1, r2, sp, sr)
        qx3, qy3, rq3 = _polish(xb1, yb1, e11, e12, e22, e13, e23, e33, form, p1, p2, r1, r2, sp, sr)
    n = 0
    n_all = int(0)
    X0 = Y0 = X1 = Y1 = X2 = Y2 = X3 = Y3 = math.nan
    for sweep in range(2):
        for k in range(4):
            if (na if k < 2 else nb) != 2:
                continue
            res = pick4(k, rq0, rq1, rq2, rq3)
            if (res <= tol) != (sweep == 0):
                continue
            X0, X1, X2, X3 = put4(n_all, pick4(k, qx0, qx1, qx2, qx3), X0, X1, X2, X3)
            Y0, Y1, Y2, Y3 = put4(n_all, pick4(k, qy0, qy1, qy2, qy3), Y0, Y1, Y2, Y3)
            n_all += 1
            if sweep == 0:
                n += 1
    return n, X0, Y0, X1, Y1, X2, Y2, X3, Y3, gap_a, fxa, fya, n_all


@kernel
def resolved_crossings(p1, p2, r1, r2, sp, sr, g):
    """The crossings of :func:`crossings_in_frame`, searched again by :func:`crossings_by_sign` when
    the pencil left some unresolved, split off a line within ``_NEAR_TANGENT`` of tangency or found
    fewer than two (both lines missing the circle by rounding, as near a contact of order 4).

    Returns ``(n, X0, Y0, ..., X3, Y3, gap, fx, fy)``; after the search, ``(fx, fy)`` is the
    extremum of the level next to the foot (nearer the cluster or tangent point than the foot).
    """
    n, X0, Y0, X1, Y1, X2, Y2, X3, Y3, gap, fx, fy, n_all = crossings_in_frame(p1, p2, r1, r2, sp, sr, g, UNRESOLVED)
    if n_all > n or gap < _NEAR_TANGENT or n < 2:
        n, X0, Y0, X1, Y1, X2, Y2, X3, Y3, fx, fy = crossings_by_sign(p1, p2, r1, r2, sp, sr, g, n, n_all, X0, Y0, X1, Y1, X2, Y2, X3, Y3, fx, fy)
    return n, X0, Y0, X1, Y1, X2, Y2, X3, Y3, gap, fx, fy


@kernel
def crossings_by_sign(p1, p2, r1, r2, sp, sr, g, n, n_all, X0, Y0, X1, Y1, X2, Y2, X3, Y3, fx, fy):
    """The crossings again, as the sign changes of ``F(t) = q_B(cos t, sin t) - 1`` on the unit circle.

    For pairs where the pencil left points unresolved (residual above ``UNRESOLVED``) or split off
    a line nearly tangent to the unit circle (``gap`` below ``_NEAR_TANGENT``, foot ``(fx, fy)``):
    a cluster of three or four intersections, such as two crossings a fourth root of the distance
    from a contact of order 4 apart, which the pencil resolves only to about that root of eps.
    ``F`` (:func:`circle_level`, without the cancellation of ``q_B - 1``) is sampled at
    ``_SIGN_SAMPLES`` equal steps of the angle, at every unresolved point, at the foot and at the
    extremum of ``F`` next to the foot (those lie inside their cluster, where the sign differs
    from around it; resolved points sit on a root, where the sign is noise), and each sign change
    between neighbouring samples is bisected
    to the last bit of the angle. The
    new corners replace the old ones when there are 2 or 4 of them and no fewer than the ``n``
    resolved points (each snapped to a resolved point within 1e-9 rad); otherwise those stay (a
    pair of crossings closer than the samples can be missed: its sliver then counts for the arc
    test of the area). Also returns the extremum next to the foot, ``(ex, ey)``.
    """
    d11, d12, d22, d13, d23, d33, form = base_member(p1, p2, r1, r2, sp, sr, g)
    count = int(0)
    R0 = R1 = R2 = R3 = 0.0
    step = (2.0 * math.pi) / _SIGN_SAMPLES
    t_foot = math.atan2(fy, fx)
    t_ext = _extremum_near(t_foot, 0.25 * step, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr)
    ex = math.cos(t_ext)
    ey = math.sin(t_ext)
    for k in range(_SIGN_SAMPLES):
        lo = -math.pi + k * step
        hi = lo + step if k + 1 < _SIGN_SAMPLES else math.pi
        # the computed points, the foot and the extremum inside [lo, hi) (absent ones at +inf), sorted
        s0 = s1 = s2 = s3 = s4 = s5 = math.inf
        for i in range(6):
            if n <= i < n_all:  # unresolved points (resolved ones have a level of ~0, no sign)
                t = math.atan2(pick4(i, Y0, Y1, Y2, Y3), pick4(i, X0, X1, X2, X3))
            elif i >= 4:
                t = t_foot if i == 4 else t_ext
            else:
                continue
            if lo <= t < hi:
                if i < 4:
                    s0, s1, s2, s3 = put4(i, t, s0, s1, s2, s3)
                elif i == 4:
                    s4 = t
                else:
                    s5 = t
        for _ in range(5):  # bubble sort of six entries
            s0, s1 = min(s0, s1), max(s0, s1)
            s1, s2 = min(s1, s2), max(s1, s2)
            s2, s3 = min(s2, s3), max(s2, s3)
            s3, s4 = min(s3, s4), max(s3, s4)
            s4, s5 = min(s4, s5), max(s4, s5)
        a = lo
        fa = circle_level(a, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr)
        for j in range(7):
            b = hi if j == 6 else (s0 if j == 0 else (s1 if j == 1 else (s2 if j == 2 else (s3 if j == 3 else (s4 if j == 4 else s5)))))
            if not (b < math.inf) or b <= a:
                continue
            fb = circle_level(b, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr)
            if (fa < 0.0) != (fb < 0.0):
                if count == 4:
                    return n, X0, Y0, X1, Y1, X2, Y2, X3, Y3, ex, ey
                root = _bisect_level(a, b, fa < 0.0, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr)
                R0, R1, R2, R3 = put4(count, root, R0, R1, R2, R3)
                count += 1
            a = b
            fa = fb
    if (count != 2 and count != 4) or count < n:
        return n, X0, Y0, X1, Y1, X2, Y2, X3, Y3, ex, ey
    # a root next to a resolved point is that point (polished, usually more accurate)
    Z0x, Z0y = _snap(R0, n, X0, Y0, X1, Y1, X2, Y2, X3, Y3)
    Z1x, Z1y = _snap(R1, n, X0, Y0, X1, Y1, X2, Y2, X3, Y3)
    Z2x, Z2y = _snap(R2, n, X0, Y0, X1, Y1, X2, Y2, X3, Y3)
    Z3x, Z3y = _snap(R3, n, X0, Y0, X1, Y1, X2, Y2, X3, Y3)
    return count, Z0x, Z0y, Z1x, Z1y, Z2x, Z2y, Z3x, Z3y, ex, ey


@kernel
def _extremum_near(t0, h, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr):
    """The extremum of :func:`circle_level` in ``[t0 - h, t0 + h]`` (in ``[-pi, pi)``).

    A cluster of crossings next to the foot of a nearly tangent line need not straddle the foot,
    but it surrounds the extremum of the level there: the minimum when the level is positive at
    the ends of the window, else the maximum. Golden-section search (the level has no usable
    derivative at a contact of order 4, where Newton's method on ``F'`` stalls).
    """
    lo = t0 - h
    hi = t0 + h
    f_lo = circle_level(lo, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr)
    f_hi = circle_level(hi, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr)
    sign = 1.0 if f_lo + f_hi > 0.0 else -1.0  # minimise sign * level
    ratio = 0.6180339887498949
    x1 = hi - ratio * (hi - lo)
    x2 = lo + ratio * (hi - lo)
    f1 = sign * circle_level(x1, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr)
    f2 = sign * circle_level(x2, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr)
    for _ in range(90):
        if not (lo < x1 < x2 < hi):
            break
        if f1 <= f2:
            hi = x2
            x2 = x1
            f2 = f1
            x1 = hi - ratio * (hi - lo)
            f1 = sign * circle_level(x1, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr)
        else:
            lo = x1
            x1 = x2
            f1 = f2
            x2 = lo + ratio * (hi - lo)
            f2 = sign * circle_level(x2, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr)
    t = 0.5 * (lo + hi)
    if t >= math.pi:
        return t - 2.0 * math.pi
    if t < -math.pi:
        return t + 2.0 * math.pi
    return t


@kernel
def _snap(t, n, X0, Y0, X1, Y1, X2, Y2, X3, Y3):
    """The point at angle ``t`` on the unit circle, or the first of the ``n`` points within 1e-9 rad of it."""
    x = math.cos(t)
    y = math.sin(t)
    for i in range(n):
        px = pick4(i, X0, X1, X2, X3)
        py = pick4(i, Y0, Y1, Y2, Y3)
        if abs(math.atan2(x * py - y * px, x * px + y * py)) < 1e-9:
            return px, py
    return x, y


@kernel
def _bisect_level(a, b, negative_at_a, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr):
    """The angle in ``[a, b]`` where :func:`circle_level` changes sign, to the last bit."""
    for _ in range(200):
        m = 0.5 * (a + b)
        if not (a < m < b):
            break
        if (circle_level(m, d11, d12, d22, d13, d23, d33, form, p1, p2, r1, r2, sp, sr) < 0.0) == negative_at_a:
            a = m
        else:
            b = m
    return 0.5 * (a + b)


@kernel
def _m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, i, j):
    """Entry (i, j) of a 3x3 matrix passed by entries (no allocation)."""
    if i == 0:
        return c00 if j == 0 else (c01 if j == 1 else c02)
    if i == 1:
        return c10 if j == 0 else (c11 if j == 1 else c12)
    return c20 if j == 0 else (c21 if j == 1 else c22)


# -- tangent points -----------------------------------------------------------------------------------


@kernel
def _sym_eig(n11, n12, n22):
    """Eigenvalues ``lo <= hi`` of a symmetric 2x2 matrix and the unit eigenvector of ``hi``.

    ``lo = det / hi`` for accuracy when ``hi > 0`` (``N = P^T P`` is positive definite here).
    """
    half = 0.5 * (n11 - n22)
    rad = hypot(half, n12)
    mean = 0.5 * (n11 + n22)
    hi = mean + rad
    det = n11 * n22 - n12 * n12
    lo = det / hi if hi > 0.0 else mean - rad
    # eigenvector of hi: (n12, hi - n11) or (hi - n22, n12), the longer one
    ax = n12
    ay = hi - n11
    bx = hi - n22
    by = n12
    if ax * ax + ay * ay >= bx * bx + by * by:
        vx, vy = ax, ay
    else:
        vx, vy = bx, by
    nv = hypot(vx, vy)
    if nv > 0.0:
        return lo, hi, vx / nv, vy / nv
    return lo, hi, 1.0, 0.0


@kernel
def tangent_points_in_frame(p1, p2, r1, r2, sp, sr, maximise, count):
    """The ``count`` (1 or 2) global extremisers of ``q_B`` on the unit circle.

    Stationarity: ``N X - e = nu X``. In the eigenbasis of ``N`` (``lo <= hi``, gap ``hi - lo``)
    with ``z = (e.e_lo, e.e_hi)``: a minimiser has ``nu = lo - s``, ``X = (z_lo / s, z_hi / (gap +
    s))``; a maximiser ``nu = hi + s``, ``X = (-z_lo / (gap + s), -z_hi / s)``; ``s >= 0`` solves
    ``|X|^2 = 1``. ``|X|^2`` decreases in ``s`` and the root lies in ``[|z_a|, |z|]`` (``a`` the
    active component), found by bisection to the last bit. Two points (the hard case, ``z_a = 0``
    exactly): ``s = 0``, ``X_p = z_p / gap`` and ``X_a = +-sqrt(1 - X_p^2)``.
    Returns ``(X0, Y0, X1, Y1)``.
    """
    n11 = p1 * p1 + r1 * r1
    n12 = p1 * p2 + r1 * r2
    n22 = p2 * p2 + r2 * r2
    e1 = p1 * sp + r1 * sr
    e2 = p2 * sp + r2 * sr
    lo, hi, hx, hy = _sym_eig(n11, n12, n22)
    lx = -hy  # eigenvector of lo
    ly = hx
    gap = hi - lo
    z_lo = lx * e1 + ly * e2
    z_hi = hx * e1 + hy * e2
    if maximise:
        za, zp, sign = z_hi, z_lo, -1.0
        ax, ay, px, py = hx, hy, lx, ly
    else:
        za, zp, sign = z_lo, z_hi, 1.0
        ax, ay, px, py = lx, ly, hx, hy
    if count == 2:
        xp = sign * zp / gap if gap > 0.0 else 0.0
        xp = max(-1.0, min(1.0, xp))
        xa = math.sqrt((1.0 - xp) * (1.0 + xp))
        return (xa * ax + xp * px, xa * ay + xp * py, -xa * ax + xp * px, -xa * ay + xp * py)
    s_lo = abs(za)
    s_hi = hypot(za, zp)
    for _ in range(1100):
        mid = 0.5 * (s_lo + s_hi)
        if not (mid > s_lo and mid < s_hi):
            break
        ta = za / mid
        tp = zp / (gap + mid)
        if ta * ta + tp * tp > 1.0:
            s_lo = mid
        else:
            s_hi = mid
    s = 0.5 * (s_lo + s_hi)
    xa = sign * za / s if s > 0.0 else 0.0
    xp = sign * zp / (gap + s) if gap + s > 0.0 else 0.0
    X = xa * ax + xp * px
    Y = xa * ay + xp * py
    nrm = hypot(X, Y)
    if nrm > 0.0:  # onto A exactly (up to rounding): the extremiser has |X| = 1
        X = X / nrm
        Y = Y / nrm
    return X, Y, math.nan, math.nan


@kernel
def tangent_points_ellipse_ellipse(pa, pb, maximise, count, out):
    """Write the ``count`` tangent points of ellipses ``pa``, ``pb`` into ``out``; return ``count``.

    ``maximise`` is true when ``A`` lies inside ``B`` (``q_B <= 1`` on ``A``, maximum 1), false when
    ``B`` lies outside ``A`` (external tangency) or inside it (``q_B >= 1`` on ``A``, minimum 1).
    """
    if count <= 0:
        return 0
    cx, cy, a, b, ux, uy = unit_frame(pa)
    p1, p2, r1, r2, sp, sr, g = conic_in_frame(pa, pb)
    X0, Y0, X1, Y1 = tangent_points_in_frame(p1, p2, r1, r2, sp, sr, maximise, count)
    out[0, 0], out[0, 1] = from_frame(X0, Y0, cx, cy, a, b, ux, uy)
    if count == 2:
        out[1, 0], out[1, 1] = from_frame(X1, Y1, cx, cy, a, b, ux, uy)
    return count


@kernel
def points_ellipse_ellipse(pa, va, pb, vb, relation, out):
    """Boundary intersection points of two ellipses; see the module docstring.

    ``DISJOINT``, ``EQUAL`` (no finite set of points; documented as empty): 0. ``TOUCHING``: the
    single tangent point (two strictly convex regions with disjoint interiors meet in one point).
    ``CONTAINS`` / ``WITHIN``: 0 when the float filter certifies strict containment (a definite
    pencil member, :func:`conic._relate_float`), else -1: the glue then counts the tangent points
    exactly (:func:`contact_count_ellipse_ellipse`) and calls
    :func:`tangent_points_ellipse_ellipse`. ``OVERLAPPING``: the crossing points (2 or 4; a
    crossing whose two points coincide within rounding can appear as two close points).
    """
    if relation == codes.DISJOINT or relation == codes.EQUAL:
        return 0
    if relation == codes.TOUCHING:
        return tangent_points_ellipse_ellipse(pa, pb, bool(False), int(1), out)
    if relation == codes.CONTAINS or relation == codes.WITHIN:
        if _relate_float(pa, pb, _EPS) == relation:
            return 0
        return -1
    return crossing_points_ellipse_ellipse(pa, pb, int(-1), out)


@kernel
def crossing_points_ellipse_ellipse(pa, pb, kind, out):
    """The points where the boundaries of two overlapping ellipses meet; return their count.

    ``kind`` is the exact kind of meeting (:func:`crossing_contact_ellipse_ellipse`): 2 or 4
    simple crossings, 3 (two crossings and a tangent point), 1 (one crossing and a contact of
    order 3: two points), or -1 not known yet: then, when the computed points look like a
    tangency (a line of the split pencil member within ``_NEAR_TANGENT`` of tangency to the unit
    circle, or two points within ``_NEAR_PAIR`` of each other, in frame units), the kernel
    returns -2 and the glue decides ``kind`` exactly; otherwise the points found are returned.
    A computed pair of points (or single point next to the foot of the nearly tangent line) that
    the exact count says does not exist (a near miss within rounding) is dropped; a missing one (a nearly tangent line that missed the circle) is
    returned as two copies of the foot of that line.

    A tangent point is found twice (once on each of two lines through it), once, or not at all
    (the nearly tangent line misses the circle by rounding); it is rebuilt from the nearest pair
    or the foot of that line and polished by Newton's method on ``dq/dt = 0`` along the unit
    circle (``t`` the angle; a simple root where ``q_B - 1`` has a double one), a contact of
    order 3 on ``d2q/dt2 = 0``, started from the point where ``|dq/dt|`` is least (the points
    come in no particular order; the simple crossing is the one where it is greatest).
    """
    cx, cy, a, b, ux, uy = unit_frame(pa)
    p1, p2, r1, r2, sp, sr, g = conic_in_frame(pa, pb)
    n, X0, Y0, X1, Y1, X2, Y2, X3, Y3, gap, fx, fy = resolved_crossings(p1, p2, r1, r2, sp, sr, g)
    # the closest pair of four points, and the point farthest from all others (two points close
    # together come from one line, which is then nearly tangent: gap tells)
    ci = cj = int(0)
    close = math.inf
    lone = int(0)
    lone_d = -1.0
    for i in range(n if n == 4 else 0):
        nearest = math.inf
        for j in range(n):
            if j != i:
                d = hypot(pick4(i, X0, X1, X2, X3) - pick4(j, X0, X1, X2, X3), pick4(i, Y0, Y1, Y2, Y3) - pick4(j, Y0, Y1, Y2, Y3))
                nearest = min(nearest, d)
                if j > i and d < close:
                    close = d
                    ci = i
                    cj = j
        if nearest > lone_d:
            lone_d = nearest
            lone = i
    if kind < 0:
        # fewer than two points: rounding hid a cluster of crossings (at least two exist)
        if gap < _NEAR_TANGENT or close < _NEAR_PAIR or n < 2:
            return -2
        kind = n
    if kind == n or kind == 2 or kind == 4 or (kind == 1 and n < 2):
        # 3 found, 2 exist: drop the one nearest the foot (a near miss, as 4 found drop a pair)
        drop = -1
        if n == 3 and kind == 2:
            near = math.inf
            for i in range(3):
                d = hypot(pick4(i, X0, X1, X2, X3) - fx, pick4(i, Y0, Y1, Y2, Y3) - fy)
                if d < near:
                    near = d
                    drop = i
        count = 0
        for i in range(n):
            if i == drop:
                continue
            if kind == n or n < 4 or (i != ci and i != cj):  # 4 found, 2 exist: drop the closest pair
                out[count, 0], out[count, 1] = from_frame(pick4(i, X0, X1, X2, X3), pick4(i, Y0, Y1, Y2, Y3), cx, cy, a, b, ux, uy)
                count += 1
        while count < kind and kind != 3:  # 2 found, 4 exist: the foot of the missed line, twice
            out[count, 0], out[count, 1] = from_frame(fx, fy, cx, cy, a, b, ux, uy)
            count += 1
        return count
    d11, d12, d22, d13, d23, d33, form = base_member(p1, p2, r1, r2, sp, sr, g)
    count = 0
    if kind == 3:
        if n == 4:
            tx = pick4(ci, X0, X1, X2, X3) + pick4(cj, X0, X1, X2, X3)
            ty = pick4(ci, Y0, Y1, Y2, Y3) + pick4(cj, Y0, Y1, Y2, Y3)
        else:
            tx = fx
            ty = fy
        for i in range(n):
            if n < 4 or (i != ci and i != cj):
                out[count, 0], out[count, 1] = from_frame(pick4(i, X0, X1, X2, X3), pick4(i, Y0, Y1, Y2, Y3), cx, cy, a, b, ux, uy)
                count += 1
        order = int(1)
    else:
        if n == 4:  # three points of the cluster of the order-3 contact, one crossing apart
            tx = ty = 0.0
            for i in range(n):
                if i != lone:
                    tx += pick4(i, X0, X1, X2, X3)
                    ty += pick4(i, Y0, Y1, Y2, Y3)
            out[0, 0], out[0, 1] = from_frame(pick4(lone, X0, X1, X2, X3), pick4(lone, Y0, Y1, Y2, Y3), cx, cy, a, b, ux, uy)
        else:
            # two or three points, in no particular order (crossings_by_sign lists them by angle):
            # the level F has a triple root at the contact, so F' vanishes there and not at the
            # simple crossing. Keep the point of largest |F'|, polish the one of smallest as the contact.
            lone = int(0)
            contact = n - 1
            steep = -1.0
            flat = math.inf
            for i in range(n):
                t_i = math.atan2(pick4(i, Y0, Y1, Y2, Y3), pick4(i, X0, X1, X2, X3))
                slope = abs(_circle_slopes(t_i, d11, d12, d22, d13, d23)[0])
                if slope > steep:
                    steep = slope
                    lone = i
                if slope < flat:
                    flat = slope
                    contact = i
            if contact == lone:  # no usable slopes (NaN): the order of the points
                lone = int(0)
                contact = n - 1
            tx = pick4(contact, X0, X1, X2, X3)
            ty = pick4(contact, Y0, Y1, Y2, Y3)
            out[0, 0], out[0, 1] = from_frame(pick4(lone, X0, X1, X2, X3), pick4(lone, Y0, Y1, Y2, Y3), cx, cy, a, b, ux, uy)
        count = 1
        order = int(2)
    t = _circle_newton(math.atan2(ty, tx), d11, d12, d22, d13, d23, order)
    out[count, 0], out[count, 1] = from_frame(math.cos(t), math.sin(t), cx, cy, a, b, ux, uy)
    return count + 1


@kernel
def pick4(i, a0, a1, a2, a3):
    """Entry ``i`` of four scalars (no allocation)."""
    return a0 if i == 0 else (a1 if i == 1 else (a2 if i == 2 else a3))


@kernel
def put4(i, v, a0, a1, a2, a3):
    """The four scalars with entry ``i`` replaced by ``v``."""
    if i == 0:
        return v, a1, a2, a3
    if i == 1:
        return a0, v, a2, a3
    if i == 2:
        return a0, a1, v, a3
    return a0, a1, a2, v


@kernel
def _circle_slopes(t, d11, d12, d22, d13, d23):
    """The first three derivatives of ``F(t)`` (:func:`_circle_newton`) at the angle ``t``."""
    c = math.cos(t)
    s = math.sin(t)
    xdx = c * (d11 * c + d12 * s) + s * (d12 * c + d22 * s)
    xdp = -s * (d11 * c + d12 * s) + c * (d12 * c + d22 * s)
    pdp = s * (d11 * s - d12 * c) - c * (d12 * s - d22 * c)
    dx = d13 * c + d23 * s
    dp = d23 * c - d13 * s
    return 2.0 * (xdp + dp), 2.0 * (pdp - xdx - dx), -8.0 * xdp - 2.0 * dp


@kernel
def _circle_newton(t, d11, d12, d22, d13, d23, order):
    """Newton's method on the ``order``-th derivative (1 or 2) of ``F(t) = (X, 1)^T D (X, 1)``.

    ``X = (cos t, sin t)``, ``D`` the base member (:func:`base_member`; ``F = q_B - 1`` on the
    circle). With ``X' = (-sin t, cos t)``, ``D_2`` the quadratic block and ``d = (d13, d23)``:
    ``F' = 2 X'.D_2 X + 2 d.X'``, ``F'' = 2 X'.D_2 X' - 2 X.D_2 X - 2 d.X`` and
    ``F''' = -8 X.D_2 X' - 2 d.X'``. Steps are kept while they lower the residual.
    """
    best = math.inf
    for _ in range(12):
        f1, f2, f3 = _circle_slopes(t, d11, d12, d22, d13, d23)
        value = f1 if order == 1 else f2
        slope = f2 if order == 1 else f3
        if not (abs(value) < best) or slope == 0.0:
            break
        best = abs(value)
        step = value / slope
        t = t - step
        if abs(step) <= 1e-17 * (1.0 + abs(t)):
            break
    return t


@kernel
def crossing_contact_ellipse_ellipse(pa, pb):
    """Exact kind of meeting of two overlapping (crossing) ellipses: 2, 4, 3 or 1.

    Runs on :class:`fractions.Fraction` rows in the exact twin. Crossing boundaries meet with a
    total multiplicity of 4, at two real points at least. The degenerate members of the pencil
    are the line pairs through the four points; a multiple point makes two of them coincide, so
    the discriminant of the cubic ``c(tau)`` of :mod:`conic` vanishes (complex conjugate double
    points would leave no room for the real crossings). ``disc > 0``: three real line pairs, four
    real crossings (4). ``disc < 0``: one real pair, two real and two complex points (2). A double
    root: a tangent point besides two crossings (3). A triple root: a contact of order 3 besides
    one crossing, two distinct points (1). Two circles cross at two points (2).
    """
    if pa[2] == pa[3] and pb[2] == pb[3]:
        return 2
    a11, a12, a22, ka, b11, b12, b22, kb, e1, e2, g, c3, c2, c1, c0, disc = _pencil_exact(pa, pb)
    if disc > 0:
        return 4
    if disc < 0:
        return 2
    return 3 if c2 * c2 - 3 * c3 * c1 != 0 else 1


@kernel
def contact_count_ellipse_ellipse(pa, pb):
    """Exact number of points where the boundaries of two nested, distinct ellipses meet (0, 1, 2).

    Runs on :class:`fractions.Fraction` rows in the exact twin (``collide2d._kernels_exact``); the
    coefficients ``c3 .. c0`` of ``c(tau) = det(tau E_B - E_A)`` are those of :mod:`conic`.
    Nested pairs are strictly nested iff some pencil member is definite (S-lemma, strict form):

    * ``disc(c) > 0``: three simple roots; a real tangency would be a multiple intersection point,
      making ``disc = 0``; hence strictly nested: 0.
    * ``disc(c) = 0`` with double root ``r`` and simple root ``s != r``: strictly nested iff the
      member at ``(r + s) / 2`` is definite (the only open interval that can hold one). Otherwise
      the boundaries touch: at two points when ``G(r)`` has rank one (a double line through both
      tangency points), else at one.
    * triple root: no open interval, the boundaries touch at one point (contact of order 4).

    Circles: touching iff ``|d| = |r_A - r_B|`` (one point).
    """
    xa, ya, aa_, ba_, wxa, wya = pa[0], pa[1], pa[2], pa[3], pa[4], pa[5]
    xb, yb, ab_, bb_, wxb, wyb = pb[0], pb[1], pb[2], pb[3], pb[4], pb[5]
    dx = xb - xa
    dy = yb - ya
    if aa_ == ba_ and ab_ == bb_:
        t = aa_ - ab_
        return 1 if dx * dx + dy * dy == t * t else 0
    a11, a12, a22, ka, b11, b12, b22, kb, e1, e2, g, c3, c2, c1, c0, disc = _pencil_exact(pa, pb)
    if disc != 0:
        return 0
    h = c2 * c2 - 3 * c3 * c1
    if h == 0:
        return 1
    r = (9 * c3 * c0 - c2 * c1) / (2 * h)
    s = -c2 / c3 - 2 * r
    mid = (r + s) / 2
    if mid > 0:
        g11, g12, g13, g22, g23, g33 = _pencil(mid, a11, a12, a22, ka, b11, b12, b22, e1, e2, g)
        if _definite_exact(g11, g12, g13, g22, g23, g33, int(1), bool(False)) or _definite_exact(g11, g12, g13, g22, g23, g33, int(-1), bool(False)):
            return 0
    g11, g12, g13, g22, g23, g33 = _pencil(r, a11, a12, a22, ka, b11, b12, b22, e1, e2, g)
    rank_one = (
        g11 * g22 - g12 * g12 == 0
        and g11 * g33 - g13 * g13 == 0
        and g22 * g33 - g23 * g23 == 0
        and g11 * g23 - g12 * g13 == 0
        and g12 * g33 - g13 * g23 == 0
        and g12 * g23 - g13 * g22 == 0
    )
    return 2 if rank_one else 1


# -- an ellipse against flat kinds -------------------------------------------------------------------


@kernel
def _edge_points(x0, y0, x1, y1, cx, cy, a, b, ux, uy, pa, eps, include_start, include_end, out, n):
    """Append the points where the closed edge ``(x0, y0) -> (x1, y1)`` meets the ellipse boundary.

    Decisions, exact where the certified signs of
    :mod:`ellipse` can settle them (``UNKNOWN_SIGN`` falls back to the float value's sign):
    end points on the boundary (sign 0) are reported as themselves (when included); the edge meets
    the open ellipse (``min < 0``) at the roots of ``f(t) = alpha t^2 + 2 beta t + gamma`` that lie
    strictly inside ``(0, 1)`` and are not end points on the boundary; ``min == 0`` with both end
    points outside is a tangency, reported once at the foot ``t* = -beta / alpha``.

    Roots in the unit frame of the ellipse (``X(t) = X0 + t E``): ``alpha = |E|^2``,
    ``beta = E.X0``, discriminant ``alpha - (E x X0)^2`` (Lagrange's identity; no ``gamma``), the
    pair from ``q = -(beta + sign(beta) sqrt(disc))``: ``t1 = q / alpha``, ``t2 = gamma / q``.
    """
    fcx, fcy, s, A, B, wx, wy = _frame(pa, eps, bool(False))
    y0x = (x0 - fcx) * s
    y0y = (y0 - fcy) * s
    y1x = (x1 - fcx) * s
    y1y = (y1 - fcy) * s
    s0 = _point_sign(y0x, y0y, A, B, wx, wy, eps, bool(False))
    s1 = _point_sign(y1x, y1y, A, B, wx, wy, eps, bool(False))
    X0, Y0 = to_frame(x0, y0, cx, cy, a, b, ux, uy)
    X1, Y1 = to_frame(x1, y1, cx, cy, a, b, ux, uy)
    if s0 == UNKNOWN_SIGN:
        v = X0 * X0 + Y0 * Y0 - 1.0
        s0 = 1 if v > 0.0 else (-1 if v < 0.0 else 0)
    if s1 == UNKNOWN_SIGN:
        v = X1 * X1 + Y1 * Y1 - 1.0
        s1 = 1 if v > 0.0 else (-1 if v < 0.0 else 0)
    if include_start and s0 == 0:
        out[n, 0] = x0
        out[n, 1] = y0
        n += 1
    if s0 <= 0 and s1 <= 0:  # the open edge lies in the open ellipse (strict convexity)
        if include_end and s1 == 0:
            out[n, 0] = x1
            out[n, 1] = y1
            n += 1
        return n
    ex = X1 - X0
    ey = Y1 - Y0
    alpha = ex * ex + ey * ey
    beta = ex * X0 + ey * Y0
    cr = ex * Y0 - ey * X0
    disc = (math.sqrt(alpha) - abs(cr)) * (math.sqrt(alpha) + abs(cr))
    gamma = (X0 * X0 + Y0 * Y0) - 1.0
    if s0 > 0 and s1 > 0:
        ex_w = x1 - x0
        ey_w = y1 - y0
        se = 1.0
        m = max(abs(ex_w), abs(ey_w))
        if eps > 0 and m > 0.0:
            se = math.ldexp(1.0, -math.frexp(m)[1])
        msign = _edge_min_sign(y0x, y0y, y1x, y1y, ex_w * se, ey_w * se, A, B, wx, wy, eps, bool(False))
        if msign == UNKNOWN_SIGN:
            tstar = -beta / alpha
            msign = 1 if disc < 0.0 or tstar <= 0.0 or tstar >= 1.0 else (0 if disc == 0.0 else -1)
        if msign > 0:
            return n
        if msign == 0:
            t = -beta / alpha
            t = max(0.0, min(1.0, t))
            out[n, 0], out[n, 1] = from_frame(X0 + t * ex, Y0 + t * ey, cx, cy, a, b, ux, uy)
            return n + 1
    root = math.sqrt(max(disc, 0.0))
    q = -(beta + root) if beta >= 0.0 else -(beta - root)
    if q != 0.0:
        t1 = q / alpha
        t2 = gamma / q
    else:
        t1 = 0.0
        t2 = 0.0
    if t1 > t2:
        t1, t2 = t2, t1
    # which roots exist: entering the ellipse (t1) when the start is outside, leaving (t2) when the
    # end is outside. An end point on the boundary is a root itself (reported as the end point);
    # the other root is then found from the sum of the roots, -2 beta / alpha, and is reported
    # only when it lies strictly inside the edge (the edge dips into the ellipse first).
    if s0 > 0 and s1 > 0:
        n = _put(out, n, t1, X0, Y0, ex, ey, cx, cy, a, b, ux, uy)
        n = _put(out, n, t2, X0, Y0, ex, ey, cx, cy, a, b, ux, uy)
    elif s0 > 0 and s1 < 0:
        n = _put(out, n, t1, X0, Y0, ex, ey, cx, cy, a, b, ux, uy)
    elif s0 < 0 and s1 > 0:
        n = _put(out, n, t2, X0, Y0, ex, ey, cx, cy, a, b, ux, uy)
    elif s0 == 0 and s1 > 0:
        other = -2.0 * beta / alpha
        if other > 0.0 and other < 1.0:
            n = _put(out, n, other, X0, Y0, ex, ey, cx, cy, a, b, ux, uy)
    elif s0 > 0 and s1 == 0:
        other = -2.0 * beta / alpha - 1.0
        if other > 0.0 and other < 1.0:
            n = _put(out, n, other, X0, Y0, ex, ey, cx, cy, a, b, ux, uy)
        if include_end:
            out[n, 0] = x1
            out[n, 1] = y1
            n += 1
    return n


@kernel
def _put(out, n, t, X0, Y0, ex, ey, cx, cy, a, b, ux, uy):
    """Write the point at parameter ``t`` (clamped to [0, 1]) of the frame edge as row ``n``."""
    t = max(0.0, min(1.0, t))
    out[n, 0], out[n, 1] = from_frame(X0 + t * ex, Y0 + t * ey, cx, cy, a, b, ux, uy)
    return n + 1


@kernel
def points_ellipse_segment(pa, va, pb, vb, relation, out):
    """Points where the closed segment ``pb`` meets the ellipse boundary (0, 1 or 2)."""
    if relation == codes.DISJOINT:
        return 0
    cx, cy, a, b, ux, uy = unit_frame(pa)
    return _edge_points(pb[0], pb[1], pb[2], pb[3], cx, cy, a, b, ux, uy, pa, _EPS, bool(True), bool(True), out, int(0))


@kernel
def points_ellipse_polygon(pa, va, pb, vb, relation, out):
    """Points where the polygon boundary meets the ellipse boundary (at most 2 per edge).

    Each edge is taken half-open ``[v_i, v_{i+1})`` so that a vertex on the ellipse is reported
    once. ``DISJOINT`` and strict containment give none; the per-edge decisions are certified signs
    of :mod:`ellipse` (see :func:`_edge_points`).
    """
    if relation == codes.DISJOINT:
        return 0
    cx, cy, a, b, ux, uy = unit_frame(pa)
    offset = int(pb[0])
    count = int(pb[1])
    n = int(0)
    for i in range(count):
        k0 = offset + i
        k1 = offset + i + 1 if i + 1 < count else offset
        n = _edge_points(vb[k0, 0], vb[k0, 1], vb[k1, 0], vb[k1, 1], cx, cy, a, b, ux, uy, pa, _EPS, bool(True), bool(False), out, n)
    return n


@kernel
def points_ellipse_line(pa, va, pb, vb, relation, out):
    """Points where the line ``pb = (px, py, dx, dy)`` meets the ellipse boundary.

    ``CROSSING``: two roots of the quadratic in the unit frame (stable pair); ``TOUCHING``: the
    foot of the tangent line, once; ``DISJOINT``: none.
    """
    if relation == codes.DISJOINT:
        return 0
    cx, cy, a, b, ux, uy = unit_frame(pa)
    X0, Y0 = to_frame(pb[0], pb[1], cx, cy, a, b, ux, uy)
    X1, Y1 = to_frame(pb[0] + pb[2], pb[1] + pb[3], cx, cy, a, b, ux, uy)
    ex = X1 - X0
    ey = Y1 - Y0
    alpha = ex * ex + ey * ey
    beta = ex * X0 + ey * Y0
    if relation == codes.TOUCHING:
        t = -beta / alpha
        X = X0 + t * ex
        Y = Y0 + t * ey
        nrm = hypot(X, Y)
        out[0, 0], out[0, 1] = from_frame(X / nrm, Y / nrm, cx, cy, a, b, ux, uy)
        return 1
    # stable roots of |X0 + t E|^2 = 1 written from the foot: t = t* -+ sqrt(disc) / alpha
    cr = ex * Y0 - ey * X0
    sa = math.sqrt(alpha)
    disc = max((sa - abs(cr)) * (sa + abs(cr)), 0.0)
    gamma = (X0 * X0 + Y0 * Y0) - 1.0
    root = math.sqrt(disc)
    q = -(beta + root) if beta >= 0.0 else -(beta - root)
    t1 = q / alpha
    t2 = gamma / q if q != 0.0 else -t1
    if t1 > t2:
        t1, t2 = t2, t1
    out[0, 0], out[0, 1] = from_frame(X0 + t1 * ex, Y0 + t1 * ey, cx, cy, a, b, ux, uy)
    out[1, 0], out[1, 1] = from_frame(X0 + t2 * ex, Y0 + t2 * ey, cx, cy, a, b, ux, uy)
    return 2


@kernel
def points_ellipse_point(pa, va, pb, vb, relation, out):
    """The point itself when it lies on the ellipse boundary (relation ``TOUCHING``), else none."""
    if relation == codes.TOUCHING:
        out[0, 0] = pb[0]
        out[0, 1] = pb[1]
        return 1
    return 0
