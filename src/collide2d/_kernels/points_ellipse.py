"""Boundary intersection points of an ellipse (or circle) with every kind.

Contract (see :mod:`collide2d._kernels`): ``points_ellipse_<b>(pa, va, pb, vb, relation, out)``
writes the points where the two outlines meet into ``out[0:count, 0:2]`` and returns ``count``.
``relation`` is the *exact* relation code of the pair (from the relate kernels plus the rational
fallback), so the kernels never decide how many points there are from how close two computed
points are (ALGORITHMS.md 2.2 item 5). For a segment, a line or a point the "outline" is the shape
itself; for a region it is its boundary.

Frame
-----
Every computation runs in the *unit frame* of the ellipse ``A = pa``: with ``u = w / |w|``,
``v = (-u_y, u_x)`` and ``y = x - c_A``,

    ``X = (u.y) / a,  Y = (v.y) / b``,

in which ``A`` is the unit circle ``X^2 + Y^2 = 1`` (ALGORITHMS.md 2.2 item 1; the map is affine
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
``{|X|^2 = 1, q_B(X) = 1}`` (ALGORITHMS.md 2.2).

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

from . import codes
from .conic import _definite_exact, _pencil, _pencil_exact, _relate_float
from .ellipse import _edge_min_sign, _frame, _point_sign
from .codes import UNKNOWN_SIGN
from .vec import hypot

_EPS = 2.0**-53
# Newton polishing of a crossing point is skipped when the two boundary normals are closer to
# parallel than this (sine of the crossing angle): the step would then amplify rounding instead of
# removing it. Unit: dimensionless (normalised cross product of the two gradients).
_MIN_CROSSING_SINE = 1e-7


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
    """``B`` in the unit frame of ``A``: ``(p1, p2, r1, r2, sp, sr)``, ``q_B = |P X - s|^2``."""
    cx, cy, a, b, ux, uy = unit_frame(pa)
    bx, by, ab, bb, vx, vy = unit_frame(pb)
    # columns of L = [a u, b v] projected on u_B and v_B = (-vy, vx)
    p1 = (vx * ux + vy * uy) * a / ab
    p2 = (vy * ux - vx * uy) * b / ab
    r1 = (vx * uy - vy * ux) * a / bb
    r2 = (vx * ux + vy * uy) * b / bb
    dx = bx - cx
    dy = by - cy
    sp = (vx * dx + vy * dy) / ab
    sr = (vx * dy - vy * dx) / bb
    return p1, p2, r1, r2, sp, sr


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
    Newton steps on the original cubic (ALGORITHMS.md 2.2 item 2).
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
def _polish(X, Y, p1, p2, r1, r2, sp, sr):
    """Newton steps on ``F1 = |X|^2 - 1 = 0``, ``F2 = |P X - s|^2 - 1 = 0`` (transversal points).

    Jacobian rows ``2 X`` and ``2 P^T (P X - s)``; a step is kept only if it lowers the residual.
    """
    for _ in range(3):
        zp = p1 * X + p2 * Y - sp
        zr = r1 * X + r2 * Y - sr
        f1 = (X * X + Y * Y) - 1.0
        f2 = (zp * zp + zr * zr) - 1.0
        if f1 == 0.0 and f2 == 0.0:
            break
        g1x = X
        g1y = Y
        g2x = p1 * zp + r1 * zr
        g2y = p2 * zp + r2 * zr
        det = g1x * g2y - g1y * g2x
        if not (abs(det) > _MIN_CROSSING_SINE * hypot(g1x, g1y) * hypot(g2x, g2y)):
            break
        # J = 2 [[g1x, g1y], [g2x, g2y]]; solve J (dX, dY) = -(f1, f2)
        dX = -(f1 * g2y - f2 * g1y) / (2.0 * det)
        dY = -(g1x * f2 - g2x * f1) / (2.0 * det)
        nX = X + dX
        nY = Y + dY
        zp = p1 * nX + p2 * nY - sp
        zr = r1 * nX + r2 * nY - sr
        n1 = (nX * nX + nY * nY) - 1.0
        n2 = (zp * zp + zr * zr) - 1.0
        if abs(n1) + abs(n2) < abs(f1) + abs(f2):
            X = nX
            Y = nY
        else:
            break
    return X, Y


@kernel
def crossings_in_frame(p1, p2, r1, r2, sp, sr):
    """Crossing points of the unit circle with ``|P X - s| = 1``: ``(n, X0, Y0, ..., X3, Y3)``.

    The pencil splitting of the module docstring. Among the real roots of the cubic the kernel uses
    those whose member is a *real* line pair (``adj D`` negative semidefinite), preferring the root
    farthest from the others (best conditioned, ALGORITHMS.md 2.2 item 2). Candidates with
    ``|delta| > 1`` (the line misses the circle) are dropped; the rest are polished.
    """
    # Delta = C_B - J (see the docstring): N - I, -e and g + 1 = |s|^2 (no cancellation)
    d11, d12, d22 = n_minus_identity(p1, p2, r1, r2)
    d13 = -(p1 * sp + r1 * sr)
    d23 = -(p2 * sp + r2 * sr)
    d33 = sp * sp + sr * sr
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
    bi = 0
    bj = 0
    bv = abs(c00)
    for i in range(3):
        for j in range(3):
            v = abs(_m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, i, j))
            if v > bv:
                bv = v
                bi = i
                bj = j
    la0 = _m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, bi, 0)
    la1 = _m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, bi, 1)
    la2 = _m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, bi, 2)
    lb0 = _m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, 0, bj)
    lb1 = _m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, 1, bj)
    lb2 = _m3(c00, c01, c02, c10, c11, c12, c20, c21, c22, 2, bj)
    na, xa0, ya0, xa1, ya1 = _line_circle(la0, la1, la2)
    nb, xb0, yb0, xb1, yb1 = _line_circle(lb0, lb1, lb2)
    n = 0
    X0 = Y0 = X1 = Y1 = X2 = Y2 = X3 = Y3 = math.nan
    if na == 2:
        X0, Y0 = _polish(xa0, ya0, p1, p2, r1, r2, sp, sr)
        X1, Y1 = _polish(xa1, ya1, p1, p2, r1, r2, sp, sr)
        n = 2
    if nb == 2:
        u0, v0 = _polish(xb0, yb0, p1, p2, r1, r2, sp, sr)
        u1, v1 = _polish(xb1, yb1, p1, p2, r1, r2, sp, sr)
        if n == 0:
            X0, Y0, X1, Y1 = u0, v0, u1, v1
        else:
            X2, Y2, X3, Y3 = u0, v0, u1, v1
        n += 2
    return n, X0, Y0, X1, Y1, X2, Y2, X3, Y3


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
    p1, p2, r1, r2, sp, sr = conic_in_frame(pa, pb)
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
        return tangent_points_ellipse_ellipse(pa, pb, False, 1, out)
    if relation == codes.CONTAINS or relation == codes.WITHIN:
        if _relate_float(pa, pb, _EPS) == relation:
            return 0
        return -1
    cx, cy, a, b, ux, uy = unit_frame(pa)
    p1, p2, r1, r2, sp, sr = conic_in_frame(pa, pb)
    n, X0, Y0, X1, Y1, X2, Y2, X3, Y3 = crossings_in_frame(p1, p2, r1, r2, sp, sr)
    for i in range(n):
        X = X0 if i == 0 else (X1 if i == 1 else (X2 if i == 2 else X3))
        Y = Y0 if i == 0 else (Y1 if i == 1 else (Y2 if i == 2 else Y3))
        out[i, 0], out[i, 1] = from_frame(X, Y, cx, cy, a, b, ux, uy)
    return n


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
        if _definite_exact(g11, g12, g13, g22, g23, g33, 1) or _definite_exact(g11, g12, g13, g22, g23, g33, -1):
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

    Decisions (ALGORITHMS.md section 9, "Segment / ray"), exact where the certified signs of
    :mod:`ellipse` can settle them (``UNKNOWN_SIGN`` falls back to the float value's sign):
    end points on the boundary (sign 0) are reported as themselves (when included); the edge meets
    the open ellipse (``min < 0``) at the roots of ``f(t) = alpha t^2 + 2 beta t + gamma`` that lie
    strictly inside ``(0, 1)`` and are not end points on the boundary; ``min == 0`` with both end
    points outside is a tangency, reported once at the foot ``t* = -beta / alpha``.

    Roots in the unit frame of the ellipse (``X(t) = X0 + t E``): ``alpha = |E|^2``,
    ``beta = E.X0``, discriminant ``alpha - (E x X0)^2`` (Lagrange's identity; no ``gamma``), the
    pair from ``q = -(beta + sign(beta) sqrt(disc))``: ``t1 = q / alpha``, ``t2 = gamma / q``.
    """
    fcx, fcy, s, A, B, wx, wy = _frame(pa, eps)
    y0x = (x0 - fcx) * s
    y0y = (y0 - fcy) * s
    y1x = (x1 - fcx) * s
    y1y = (y1 - fcy) * s
    s0 = _point_sign(y0x, y0y, A, B, wx, wy, eps)
    s1 = _point_sign(y1x, y1y, A, B, wx, wy, eps)
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
        msign = _edge_min_sign(y0x, y0y, y1x, y1y, ex_w * se, ey_w * se, A, B, wx, wy, eps)
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
    return _edge_points(pb[0], pb[1], pb[2], pb[3], cx, cy, a, b, ux, uy, pa, _EPS, True, True, out, 0)


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
    n = 0
    for i in range(count):
        k0 = offset + i
        k1 = offset + i + 1 if i + 1 < count else offset
        n = _edge_points(vb[k0, 0], vb[k0, 1], vb[k1, 0], vb[k1, 1], cx, cy, a, b, ux, uy, pa, _EPS, True, False, out, n)
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
