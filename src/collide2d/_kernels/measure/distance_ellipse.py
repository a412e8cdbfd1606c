"""Contact kernels for an ellipse against every kind, and the Perram-Wertheim contact kernel.

Every ``contact_ellipse_<b>(pa, va, pb, vb)`` returns the 9-tuple
``(separation, nx, ny, pax, pay, pbx, pby, curvature_a, curvature_b)``:

* ``separation`` is the signed distance: the gap when apart, 0 when touching, minus the
  penetration depth (length of the shortest translation of ``b`` that separates the pair) when the
  interiors overlap;
* ``(nx, ny)`` is a unit normal from ``a`` to ``b``; ``point_b - point_a == separation * normal``
  (apart: closest points; overlapping: ``point_a`` is the support point of ``a`` in direction
  ``normal`` and ``point_b`` the support point of ``b`` in direction ``-normal``);
* curvatures of each boundary at its witness point: the ellipse curvature, 0 on a straight edge or
  for a face contact, ``inf`` at a polygon corner / segment end whose normal cone strictly contains
  the normal, and for a point.

Frames and scaling
------------------
All pair computations run in the *frame of ellipse a*: origin at its centre, x axis along its
stored direction ``w`` (normalised once with ``hypot``), y axis along ``w`` turned by +90 degrees,
and every length divided by ``S``, the power of two nearest above the largest semi-axis of the pair
(exact: translate first, scale before squaring).
Results are mapped back with the same (rounded) rotation and ``S``. Circles (``a == b``) ignore
``w`` and use the world axes. Since dividing by a power of two is exact, ``S`` only matters where
squares could overflow or underflow: the point kernel, the hottest, takes ``S = 1`` when the
largest semi-axis lies in ``(2^-300, 2^300)``.

The core identity (section 4.2, "exact signed distance via support functions"): for convex A, B
with centre offset ``d = c_B - c_A`` the signed distance is

    s = max over unit u of g(u),   g(u) = min_{x in B} x.u - h_A(u) = d.u - rho_A(u) - rho_B(u),

``rho(u) = sqrt(u^T Sigma u)`` the support function of an ellipse about its centre. For a polygon
the support function is the maximum over its vertices. The maximiser ``u*`` is the normal.

With ``u = (cos t, sin t)``, ``u' = (-sin t, cos t)`` and an ellipse with semi-axes ``a`` (along
its axis) and ``b``, ``(c, s)`` the components of ``u`` in the ellipse's own frame:

    rho  = hypot(a c, b s)
    rho' = (b^2 - a^2) c s / rho
    rho + rho'' = R = a^2 b^2 / rho^3      (radius of curvature at the support point)

so that ``g' = d.u' - rho_A' - rho_B'`` and ``g'' = -g - R_A - R_B``: ``g`` is strictly concave
wherever ``g > 0`` (separated pairs have a single maximum on the arc of separating directions).

Numba notes: no allocation, no exceptions; fixed iteration caps with bracketing safeguards.
"""

import math

import numpy as np
from numba import prange

from collide2d._jit import kernel, loop

from ..contact_function import pw_offset as _pw_offset
from ..contact_function import pw_ratio_root as _pw_ratio_root
from ..contact_function import pw_solve as _pw_solve
from ..contact_function import pw_sums as _pw_sums
from ..vec import hypot

_EPS = 2.0**-53
_INF = math.inf
_NAN = math.nan
# Safety caps on iteration counts (never reached in the tests; each loop is bracketed).
_POINT_MAXIT = 120
_LOCAL_MAXIT = 100


# -- small helpers ---------------------------------------------------------------------------------


@kernel
def _pow2_above(x):
    """Smallest power of two >= x (x > 0 finite); 1 for x == 0 or non-finite."""
    if not (x > 0.0) or x == _INF:
        return 1.0
    m, e = math.frexp(x)
    if m == 0.5:
        return x
    return math.ldexp(1.0, e)


@kernel
def _axis(a, b, wx, wy):
    """Unit axis direction of an ellipse row: ``w / |w|``; the world x axis for circles."""
    if a == b:
        return 1.0, 0.0
    n = hypot(wx, wy)
    return wx / n, wy / n


@kernel
def _curvature(a, b, rho):
    """Curvature ``rho^3 / (a^2 b^2)`` of an ellipse at its support point in a direction of support
    value ``rho`` (equal to ``a b / (a^2 sin^2 t + b^2 cos^2 t)^{3/2}``); ``1/r`` for circles."""
    q = (rho / a) * (rho / b)
    return q * q / rho


# -- point versus ellipse: Eberly's secular equation in sigma (section 3) --------------------------


@kernel
def _foot_q1(e0, e1, y0, y1):
    """Nearest point of the ellipse ``(x0/e0)^2 + (x1/e1)^2 = 1`` to ``(y0, y1)``, first quadrant.

    Requires ``e0 >= e1 > 0``, ``y0 > 0``, ``y1 > 0`` and lengths of order 1 (the caller scales).
    Returns ``(sigma, iterations)``; the foot point is ``x0 = r0 y0 / (sigma + r0 - 1)``,
    ``x1 = y1 / sigma`` with ``r0 = (e0/e1)^2`` and ``sigma`` the root of Eberly's secular equation
    in the shifted variable (``z = y / e``, ``c = r0 - 1``):

        p = r0 z0 / (sigma + c),  q = z1 / sigma,  p^2 + q^2 = 1.

    Fast path. Newton's method runs on ``K(sigma) = (p^2 + q^2)^(-1/2) - 1`` rather than on
    ``G = p^2 + q^2 - 1``: ``(p^2 + q^2)^(-1/2)`` is a weighted power mean of exponent -2 of
    ``sigma + c`` and ``sigma`` (times a constant), hence concave and increasing in ``sigma``, and
    it is linear when either ``z`` is 0 and asymptotically linear for far points, where ``G`` has
    poles. Concavity makes every Newton iterate from the left of the root stay left of it and
    increase; a start on the right overshoots once to the left (clamped to the lower bound
    ``max(z1, r0 z0 - c)`` of the root, where ``p <= 1`` and ``q <= 1``). The start is one
    trig-free Chatfield evolute step from the point at 45 degrees (section 3.2), ``sigma0 = y1 /
    x1``, used when it lies inside Eberly's bracket. The loop stops once a step is below
    ``2^-17 sigma``; one more step then leaves an error of order ``(2^-17)^4``.

    Measured against a 40-digit bisection (aspects 3 to 1e4; points far, within 1e-3 of the
    boundary, inside, and near the major axis inside the evolute): foot and distance errors below
    4.7e-15 of the major semi-axis, as with the bracketed Newton on ``G``; 1.2-3.1 iterations on
    average, at most 21; about 60-170 ns against 160-300 ns for three Chatfield steps and Newton on
    ``G``. Should the fast path fail (no convergence in 32 steps, a non-finite or bracket-leaving
    iterate, possible for subnormal coordinates), :func:`_foot_q1_bracketed` answers.
    """
    z0 = y0 / e0
    z1 = y1 / e1
    # c = r0 - 1 = (e0 - e1)(e0 + e1)/e1^2 without cancellation for near-circles
    c = ((e0 - e1) / e1) * ((e0 + e1) / e1)
    t0 = (c + 1.0) * z0
    g = z0 * z0 + z1 * z1 - 1.0
    if g == 0.0:
        return 1.0, 0
    lo = max(z1, t0 - c)
    hi = 1.0 if g < 0.0 else hypot(t0, z1)
    # one Chatfield step from (cos t, sin t) = (1, 1)/sqrt(2): the centre of curvature of that
    # point is ex, ey (on the evolute); the new point faces the query from there at the same radius
    h = 0.7071067811865476
    ie0 = 1.0 / e0  # the start needs no correct rounding: multiply by reciprocals
    ie1 = 1.0 / e1
    ab = (e0 - e1) * (e0 + e1) * (h * h * h)
    ex = ab * ie0
    ey = -ab * ie1
    r = hypot(e0 * h - ex, e1 * h - ey)
    qx = y0 - ex
    qy = y1 - ey
    rq = r / hypot(qx, qy)
    tx = min(1.0, max(0.0, (qx * rq + ex) * ie0))
    ty = min(1.0, max(0.0, (qy * rq + ey) * ie1))
    sigma = lo
    if ty > 0.0:
        s0 = y1 * ie1 * (hypot(tx, ty) / ty)  # y1 / x1 with x1 = e1 ty / |(tx, ty)|
        if lo < s0 < hi:
            sigma = s0
    it = 0
    last = False
    while it < 32:
        it += 1
        ia = 1.0 / (sigma + c)
        ib = 1.0 / sigma
        p = t0 * ia
        q = z1 * ib
        hh = p * p + q * q
        # K = hh^(-1/2) - 1, dK/dsigma = hh^(-3/2) (p^2 / (sigma + c) + q^2 / sigma), so the Newton
        # step -K / K' is (sqrt(hh) - 1) hh / (p^2 / (sigma + c) + q^2 / sigma)
        step = (math.sqrt(hh) - 1.0) * hh / (p * p * ia + q * q * ib)
        new = max(sigma + step, lo)
        if not (new <= hi):  # also catches NaN
            break
        sigma = new
        if last:
            return sigma, it
        last = abs(step) <= 2.0**-17 * sigma
    return _foot_q1_bracketed(e0, e1, y0, y1)


@kernel
def _foot_q1_bracketed(e0, e1, y0, y1):
    """The safeguard of :func:`_foot_q1`: nearest point of the ellipse ``(x0/e0)^2 + (x1/e1)^2 = 1`` to ``(y0, y1)``, first quadrant.

    Requires ``e0 >= e1 > 0``, ``y0 > 0``, ``y1 > 0`` and lengths of order 1 (the caller scales).
    Returns ``(sigma, iterations)``; the foot point is ``x0 = r0 y0 / (sigma + r0 - 1)``,
    ``x1 = y1 / sigma`` with ``r0 = (e0/e1)^2``.

    Equation (Eberly, "Distance from a point to an ellipse...", in the variable sigma = s + 1,
    which avoids the cancellation of the plain form near the centre):

        G(sigma) = (r0 z0 / (sigma + r0 - 1))^2 + (z1 / sigma)^2 - 1 = 0,   z = y / e,

    G is convex and strictly decreasing on sigma > 0; the root lies in ``[z1, 1]`` inside and in
    ``[z1, hypot(r0 z0, z1)]`` outside. Warm start: three trig-free Chatfield evolute steps
    (section 3.2) give a boundary point, sigma0 = y1 / x1. Then Newton inside the bracket, with
    bisection whenever a step leaves it. Stop at the noise floor: |G| below 4 eps times the sum of
    its positive terms, or a step below 4 eps sigma (section 3.3).
    """
    z0 = y0 / e0
    z1 = y1 / e1
    # r0 - 1 = (e0 - e1)(e0 + e1)/e1^2 without cancellation for near-circles
    r0m1 = ((e0 - e1) / e1) * ((e0 + e1) / e1)
    r0 = r0m1 + 1.0
    t0 = r0 * z0
    g = z0 * z0 + z1 * z1 - 1.0
    lo = z1
    if g < 0.0:
        hi = 1.0
    else:
        hi = hypot(t0, z1)
    if g == 0.0:
        return 1.0, 0
    # Chatfield warm start (0xfaded/ellipse_demo issue #1, trig-free form)
    tx = 0.7071067811865476
    ty = 0.7071067811865476
    ab = (e0 - e1) * (e0 + e1)
    for _ in range(3):
        x = e0 * tx
        y = e1 * ty
        ex = ab * tx * tx * tx / e0
        ey = -ab * ty * ty * ty / e1
        rx = x - ex
        ry = y - ey
        qx = y0 - ex
        qy = y1 - ey
        r = hypot(rx, ry)
        q = hypot(qx, qy)
        tx = min(1.0, max(0.0, (qx * r / q + ex) / e0))
        ty = min(1.0, max(0.0, (qy * r / q + ey) / e1))
        t = hypot(tx, ty)
        tx /= t
        ty /= t
    sigma = 0.5 * (lo + hi)
    if ty > 0.0:
        s0 = y1 / (e1 * ty)
        if lo < s0 < hi:
            sigma = s0
    it = 0
    while it < _POINT_MAXIT:
        it += 1
        p = t0 / (sigma + r0m1)
        q = z1 / sigma
        p2 = p * p
        q2 = q * q
        gv = p2 + q2 - 1.0
        if gv > 0.0:
            lo = sigma
        elif gv < 0.0:
            hi = sigma
        else:
            break
        if abs(gv) <= 4.0 * _EPS * (p2 + q2 + 1.0):
            break
        dg = -2.0 * p2 / (sigma + r0m1) - 2.0 * q2 / sigma
        new = sigma - gv / dg
        if abs(new - sigma) <= 4.0 * _EPS * sigma:
            # converged: the Newton correction is below a few ulps of sigma
            if lo < new < hi:
                sigma = new
            break
        if not (lo < new < hi):
            new = 0.5 * (lo + hi)
            if new == lo or new == hi:
                break
        sigma = new
    return sigma, it


@kernel
def _point_ellipse_local(e0, e1, y0, y1):
    """Nearest boundary point, outward unit normal and signed distance in the ellipse frame.

    ``e0 >= e1`` are the semi-axes along local x and y; ``(y0, y1)`` the query point, all scaled
    to order 1. Returns ``(x0, x1, n0, n1, signed_distance)``.

    Non-unique cases (section 3.4), resolved deterministically:
    * on the major-axis segment inside the evolute (``y1 == 0``, ``|y0| < (e0^2 - e1^2)/e0``) the
      two feet ``(x0, +-x1)`` are equally near: the sign bit of ``y1`` picks one (``-0.0`` the
      lower);
    * at the centre the feet ``(0, +-e1)``: again the sign bit of ``y1`` (and of ``y0`` is
      irrelevant).
    """
    s0 = math.copysign(1.0, y0)
    s1 = math.copysign(1.0, y1)
    p0 = abs(y0)
    p1 = abs(y1)
    if e0 == e1:
        # circle: the radial answer (never divide by e0 - e1)
        r = hypot(p0, p1)
        if r == 0.0:
            n0 = 0.0
            n1 = s1
        else:
            n0 = y0 / r
            n1 = y1 / r
        return e0 * n0, e0 * n1, n0, n1, r - e0
    # Offsets below 2^-900 of the semi-axis count as 0: the foot moves by about as much, far below
    # an ulp of anything here, whereas the secular equation's 1/sigma (sigma >= y1/e1) and its
    # subnormal operands would overflow or lose digits.
    if p1 >= 2.0**-900 * e1:
        if p0 >= 2.0**-900 * e0:
            sigma, _ = _foot_q1(e0, e1, p0, p1)
            r0m1 = ((e0 - e1) / e1) * ((e0 + e1) / e1)
            r0 = r0m1 + 1.0
            den = sigma + r0m1
            x0 = r0 * p0 / den
            x1 = p1 / sigma
            # outward normal M x = (x0/e0^2, x1/e1^2) = (y0/(sigma + r0 - 1), y1/sigma) / e1^2
            m0 = p0 / den
            m1 = p1 / sigma
            # y - x = (sigma - 1) m (from x0 = p0 - (sigma - 1) p0 / den, x1 = p1 - (sigma - 1) p1 /
            # sigma), so the signed distance is (sigma - 1) |m|, without the cancellation of y - x;
            # sigma - 1 is exact near the boundary (Sterbenz), where the distance is small
            m = hypot(m0, m1)
            return s0 * x0, s1 * x1, s0 * (m0 / m), s1 * (m1 / m), (sigma - 1.0) * m
        else:
            x0 = 0.0
            x1 = e1
            m0 = 0.0
            m1 = 1.0
    else:
        # on the major axis: inside the evolute two symmetric feet, else the vertex (e0, 0)
        c = (e0 - e1) * (e0 + e1)
        if e0 * p0 < c:
            x0 = e0 * e0 * p0 / c
            rr = x0 / e0
            x1 = e1 * math.sqrt((1.0 - rr) * (1.0 + rr))
            m0 = x0 / (e0 * e0)
            m1 = x1 / (e1 * e1)
        else:
            x0 = e0
            x1 = 0.0
            m0 = 1.0
            m1 = 0.0
    m = hypot(m0, m1)
    n0 = s0 * (m0 / m)
    n1 = s1 * (m1 / m)
    x0 = s0 * x0
    x1 = s1 * x1
    dist = (y0 - x0) * n0 + (y1 - x1) * n1
    return x0, x1, n0, n1, dist


@kernel
def _point_ellipse_any(a, b, y0, y1):
    """:func:`_point_ellipse_local` for any order of the semi-axes ``a`` (local x), ``b`` (local y)."""
    if a >= b:
        return _point_ellipse_local(a, b, y0, y1)
    # rotate the frame by +90 degrees so the major axis is local x: (x, y) -> (y, -x)
    x0, x1, n0, n1, dist = _point_ellipse_local(b, a, y1, -y0)
    return -x1, x0, -n1, n0, dist


@kernel
def contact_ellipse_point(pa, va, pb, vb):
    """Signed distance of a point to an ellipse boundary (negative inside), nearest point.

    Frame of the ellipse (scaled by a power of two only for huge or tiny ellipses); section 3 of
    :func:`_foot_q1`. Normal: outward normal of the ellipse at the nearest
    point (from a to b when outside; when inside ``point_b - point_a = separation * normal`` still
    holds with negative separation). Non-unique nearest points follow the sign bit of the local y
    coordinate of the point (see :func:`_point_ellipse_local`).
    """
    return _ellipse_point_core(pa, pb[0], pb[1])


@kernel
def _point_in_frame(pa, px, py):
    """The point ``(px, py)`` in the frame of the ellipse row ``pa``: ``(ux, uy, S, y0, y1)``.

    ``(ux, uy)`` is the unit axis and ``S`` the scale: 1 for semi-axes in ``(2^-300, 2^300)``
    (see the module notes; it saves the 15 ns of frexp), else a power of two.
    """
    cx, cy, a, b, wx, wy = pa[0], pa[1], pa[2], pa[3], pa[4], pa[5]
    ux, uy = _axis(a, b, wx, wy)
    S = max(a, b)
    S = 1.0 if 2.0**-300 < S < 2.0**300 else _pow2_above(S)
    dx = px - cx
    dy = py - cy
    return ux, uy, S, (ux * dx + uy * dy) / S, (ux * dy - uy * dx) / S


@kernel
def separation_ellipse_point(pa, va, pb, vb):
    """The separation of :func:`contact_ellipse_point` alone, for :func:`collide2d.distance`.

    The same operations, so the same value; it skips the normal, the foot in world coordinates
    and the curvature (about a third of the point kernel's time).
    """
    ux, uy, S, y0, y1 = _point_in_frame(pa, pb[0], pb[1])
    return _point_ellipse_any(pa[2] / S, pa[3] / S, y0, y1)[4] * S


@kernel
def _ellipse_point_core(pa, px, py):
    """:func:`contact_ellipse_point` for the point ``(px, py)``."""
    cx, cy, a, b = pa[0], pa[1], pa[2], pa[3]
    ux, uy, S, y0, y1 = _point_in_frame(pa, px, py)
    x0, x1, n0, n1, dist = _point_ellipse_any(a / S, b / S, y0, y1)
    nx = ux * n0 - uy * n1
    ny = uy * n0 + ux * n1
    nn = hypot(nx, ny)
    nx /= nn
    ny /= nn
    qx = cx + S * (ux * x0 - uy * x1)
    qy = cy + S * (uy * x0 + ux * x1)
    # curvature at the foot: a b / (a^2 sin^2 t + b^2 cos^2 t)^{3/2} with x = (a cos t, b sin t)
    al = a / S
    bl = b / S
    rho = hypot(al * n0, bl * n1)
    kappa = _curvature(al, bl, rho) / S
    return dist * S, nx, ny, qx, qy, px, py, kappa, _INF


# -- ellipse versus line: closed form --------------------------------------------------------------


@kernel
def contact_ellipse_line(pa, va, pb, vb):
    """Ellipse against an infinite line, closed form via the support function (section 9).

    With the line's unit normal ``m = d^perp / |d|`` and ``delta = m.(p - c)`` (world frame,
    relative to the centre), the signed distance is ``|delta| - rho(m)``: the line is separated by
    moving it along ``+-m`` and the shorter way is away from the centre. The normal is
    ``sign(delta) m`` (``+m`` for ``delta == +0.0``, ``-m`` for ``-0.0``). ``point_a`` is the support
    point of the ellipse in that direction, ``point_b = point_a + separation * normal`` (it lies
    on the line).
    """
    cx, cy, a, b, wx, wy = pa[0], pa[1], pa[2], pa[3], pa[4], pa[5]
    px, py, ldx, ldy = pb[0], pb[1], pb[2], pb[3]
    ux, uy = _axis(a, b, wx, wy)
    L = hypot(ldx, ldy)
    mx = -ldy / L
    my = ldx / L
    delta = mx * (px - cx) + my * (py - cy)
    sg = math.copysign(1.0, delta)
    nx = sg * mx
    ny = sg * my
    S = _pow2_above(max(a, b))
    al = a / S
    bl = b / S
    n0 = ux * nx + uy * ny
    n1 = ux * ny - uy * nx
    rho = hypot(al * n0, bl * n1)
    s0 = al * (al * n0 / rho)
    s1 = bl * (bl * n1 / rho)
    qx = cx + S * (ux * s0 - uy * s1)
    qy = cy + S * (uy * s0 + ux * s1)
    sep = abs(delta) - rho * S
    return sep, nx, ny, qx, qy, qx + sep * nx, qy + sep * ny, _curvature(al, bl, rho) / S, 0.0


# -- ellipse versus segment / polygon: exact finite candidate set (section 9) ----------------------


@kernel
def _secondary_foot(e0, e1, p0, p1):
    """The second local maximum of ``g_v(u) = v.u - rho(u)`` for a point inside the evolute.

    First-quadrant point ``(p0, p1)``, both > 0, ``e0 > e1``. The stationary directions of ``g_v``
    are the normals through ``v``: the roots of the secular equation G(sigma) = 0. Besides the
    primary root (sigma > 0, the nearest point), the branch ``sigma in (1 - r0, 0)`` (feet in the
    quadrant with x0 > 0, x1 < 0) holds two roots when the point lies inside the evolute (astroid):
    G is convex there with its minimum at ``sigma_m = -(r0 - 1)/(1 + k)``,
    ``k = (r0 z0 / z1)^{2/3}`` (from G' = 0). The root between ``sigma_m`` and 0 is the second
    local maximum of g_v (the local minimum of the distance; the other root is a local maximum of
    the distance and can never be a maximiser of ``min_j g_j``). Returns its unnormalised outward
    normal ``(m0, m1)`` with ``m1 < 0``, or ``(0, 0)`` when there is none.
    """
    z0 = p0 / e0
    z1 = p1 / e1
    r0m1 = ((e0 - e1) / e1) * ((e0 + e1) / e1)
    r0 = r0m1 + 1.0
    t0 = r0 * z0
    k = (t0 / z1) ** (2.0 / 3.0)
    sm = -r0m1 / (1.0 + k)
    if not (sm < 0.0):
        return 0.0, 0.0
    # sm + r0m1 = r0m1 k / (1 + k), without the cancellation that made it 0 for a vertex almost on
    # the minor axis (k below 2**-53: an ellipse turned by 2**-99 rad, a vertex beside its centre)
    pm = t0 / (r0m1 * (k / (1.0 + k)))
    qm = z1 / sm
    if pm * pm + qm * qm - 1.0 >= 0.0:
        return 0.0, 0.0
    lo = sm  # G < 0
    hi = -z1  # G >= 0 there when -z1 > sm
    if not (hi > sm):
        hi = 0.5 * sm
        for _ in range(2000):
            q = z1 / hi
            p = t0 / (hi + r0m1)
            if p * p + q * q - 1.0 >= 0.0:
                break
            hi *= 0.5
    # bisection between lo (G < 0) and hi (G >= 0), terminated when the midpoint repeats
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid == lo or mid == hi:
            break
        p = t0 / (mid + r0m1)
        q = z1 / mid
        if p * p + q * q - 1.0 < 0.0:
            lo = mid
        else:
            hi = mid
    sigma = 0.5 * (lo + hi)
    return p0 / (sigma + r0m1), p1 / sigma


@kernel
def _vertex_normals(a, b, y0, y1):
    """Candidate directions for one vertex ``(y0, y1)`` (ellipse frame, scaled, any axis order).

    Returns ``(count, c0, c1, d0, d1)``: one or two unit normals, the local maxima of
    ``g_v(u) = v.u - rho(u)`` (the nearest-point normal ``c`` and, inside the evolute or on the
    minor axis, the second one ``d``; a candidate that is a minimum instead only adds a lower
    bound, which is harmless).
    """
    if a >= b:
        e0 = a
        e1 = b
        q0 = y0
        q1 = y1
        swap = False
    else:
        e0 = b
        e1 = a
        q0 = y1
        q1 = -y0
        swap = True
    x0, x1, n0, n1, dist = _point_ellipse_local(e0, e1, q0, q1)
    c0 = n0
    c1 = n1
    d0 = 0.0
    d1 = 0.0
    count = 1
    if e0 != e1:
        p0 = abs(q0)
        p1 = abs(q1)
        if p0 == 0.0 and p1 == 0.0:
            d0, d1 = 0.0, -math.copysign(1.0, q1)
            count = 2
        elif p0 == 0.0:
            # on the minor axis: the foot on the far side is a local maximum of g_v as well
            d0, d1 = 0.0, -math.copysign(1.0, q1)
            count = 2
        elif p1 == 0.0:
            # on the major axis inside the evolute: the mirror foot
            if e0 * p0 < (e0 - e1) * (e0 + e1):
                d0, d1 = n0, -n1
                count = 2
        else:
            m0, m1 = _secondary_foot(e0, e1, p0, p1)
            if m1 != 0.0:
                m = hypot(m0, m1)
                d0 = math.copysign(m0 / m, q0)
                # the secondary foot lies on the other side of the major axis from the point
                d1 = -math.copysign(abs(m1) / m, q1)
                count = 2
    if swap:
        # back from the rotated frame: (x, y) -> (-y, x)
        c0, c1 = -c1, c0
        d0, d1 = -d1, d0
    return count, c0, c1, d0, d1


@kernel
def _finish_flat(cx, cy, ux, uy, S, al, bl, n0, n1, sep, bx, by, vertex, kappa_b):
    """World outputs for ellipse-vs-flat contact from the local normal and separation."""
    rho = hypot(al * n0, bl * n1)
    s0 = al * (al * n0 / rho)
    s1 = bl * (bl * n1 / rho)
    qx = cx + S * (ux * s0 - uy * s1)
    qy = cy + S * (uy * s0 + ux * s1)
    nx = ux * n0 - uy * n1
    ny = uy * n0 + ux * n1
    nn = hypot(nx, ny)
    nx /= nn
    ny /= nn
    if not vertex:
        bx = qx + sep * nx
        by = qy + sep * ny
    return sep, nx, ny, qx, qy, bx, by, _curvature(al, bl, rho) / S, kappa_b


@kernel
def _segment_g(al, bl, q0x, q0y, q1x, q1y, n0, n1, end):
    """``g(u) = min(v0.u, v1.u) - rho(u)`` for a segment (ellipse frame, scaled), and whether the
    end ``end`` (0 or 1; -1 for none) attains the min (see :func:`_polygon_g`)."""
    d0 = q0x * n0 + q0y * n1
    d1 = q1x * n0 + q1y * n1
    active = d0 <= d1 if end == 0 else d1 <= d0
    return min(d0, d1) - hypot(al * n0, bl * n1), active


@kernel
def contact_ellipse_segment(pa, va, pb, vb):
    """Ellipse against a closed segment: exact finite candidate set of the support search.

    Ellipse frame, scaled. ``g(u) = min(v0.u, v1.u) - rho(u)``; its maximiser is either a kink
    (``u = +-`` the segment normal, where both ends are active: face contact, curvature 0) or a
    stationary point of ``v_i.u - rho(u)`` (the nearest-point normal of end ``i``, or inside the
    evolute the second local maximum; end contact, curvature ``inf``). Evaluating ``g`` at every
    candidate and keeping the best is exact; ties keep the face.
    """
    cx, cy, a, b, wx, wy = pa[0], pa[1], pa[2], pa[3], pa[4], pa[5]
    ux, uy = _axis(a, b, wx, wy)
    ax0, ay0, ax1, ay1 = pb[0], pb[1], pb[2], pb[3]
    S = _pow2_above(max(a, b))
    al = a / S
    bl = b / S
    dx = ax0 - cx
    dy = ay0 - cy
    q0x = (ux * dx + uy * dy) / S
    q0y = (ux * dy - uy * dx) / S
    dx = ax1 - cx
    dy = ay1 - cy
    q1x = (ux * dx + uy * dy) / S
    q1y = (ux * dy - uy * dx) / S
    ex = q1x - q0x
    ey = q1y - q0y
    el = hypot(ex, ey)
    best = -_INF
    bn0 = 0.0
    bn1 = 0.0
    bvert = -1
    for sgn in (1.0, -1.0):
        if el == 0.0:
            # the ends round to one point in the ellipse's frame (a unit segment beside an ellipse
            # of size 1e149, or moved to 4e148 by a search): a point, whose candidates are the
            # ends' normals below; a segment's own normal needs a direction
            break
        n0 = -sgn * ey / el
        n1 = sgn * ex / el
        gv, _ = _segment_g(al, bl, q0x, q0y, q1x, q1y, n0, n1, int(-1))
        if gv > best:
            best = gv
            bn0 = n0
            bn1 = n1
            bvert = -1
    for i in range(2):
        if i == 0:
            y0 = q0x
            y1 = q0y
        else:
            y0 = q1x
            y1 = q1y
        cnt, c0, c1, d0, d1 = _vertex_normals(al, bl, y0, y1)
        for j in range(cnt):
            if j == 0:
                n0, n1 = c0, c1
            else:
                n0, n1 = d0, d1
            gv, active = _segment_g(al, bl, q0x, q0y, q1x, q1y, n0, n1, i)
            if active and gv > best:  # an end that is not active: see contact_ellipse_polygon
                best = gv
                bn0 = n0
                bn1 = n1
                bvert = i
    if bvert == 0:
        return _finish_flat(cx, cy, ux, uy, S, al, bl, bn0, bn1, best * S, ax0, ay0, bool(True), _INF)
    if bvert == 1:
        return _finish_flat(cx, cy, ux, uy, S, al, bl, bn0, bn1, best * S, ax1, ay1, bool(True), _INF)
    return _finish_flat(cx, cy, ux, uy, S, al, bl, bn0, bn1, best * S, 0.0, 0.0, bool(False), 0.0)


@kernel
def _polygon_g(al, bl, cx, cy, ux, uy, S, vb, off, cnt, n0, n1, vertex):
    """``g(u) = min_j v_j.u - rho(u)`` for a polygon (ellipse frame, scaled), and whether the
    vertex ``vertex`` (-1 for none) attains the min: is *active* in direction ``u``."""
    best = _INF
    own = _INF
    for j in range(cnt):
        dx = vb[off + j, 0] - cx
        dy = vb[off + j, 1] - cy
        y0 = (ux * dx + uy * dy) / S
        y1 = (ux * dy - uy * dx) / S
        v = y0 * n0 + y1 * n1
        best = min(best, v)
        if j == vertex:
            own = v
    return best - hypot(al * n0, bl * n1), own <= best


@kernel
def contact_ellipse_polygon(pa, va, pb, vb):
    """Ellipse against a convex polygon: exact finite candidate set of the support search.

    Ellipse frame, scaled. ``g(u) = min_j v_j.u - rho(u)`` (the polygon's support in ``-u``); a
    maximiser is either a kink of the min (``u`` = minus an outward edge normal: face contact,
    curvature 0) or a stationary point of a single ``v_j.u - rho(u)`` inside vertex ``j``'s cone
    (its nearest-point normal or, inside the evolute, its second local maximum: corner contact,
    curvature ``inf``). The true ``g`` is evaluated at every candidate; the maximum over this
    finite set is the maximum over all directions; ties keep the face.
    ``O(n^2)`` for ``n`` vertices.
    """
    cx, cy, a, b, wx, wy = pa[0], pa[1], pa[2], pa[3], pa[4], pa[5]
    off = int(pb[0])
    cnt = int(pb[1])
    ux, uy = _axis(a, b, wx, wy)
    S = _pow2_above(max(a, b))
    al = a / S
    bl = b / S
    best = -_INF
    bn0 = 0.0
    bn1 = 0.0
    bvert = -1
    for i in range(cnt):
        j = i + 1
        if j == cnt:
            j = 0
        # inward normal of the CCW edge i -> j is the left normal (-ey, ex)
        ex = (vb[off + j, 0] - vb[off + i, 0]) / S
        ey = (vb[off + j, 1] - vb[off + i, 1]) / S
        e0 = ux * ex + uy * ey
        e1 = ux * ey - uy * ex
        el = hypot(e0, e1)
        if el == 0.0:  # an edge whose ends round to one point (see contact_ellipse_segment)
            continue
        n0 = -e1 / el
        n1 = e0 / el
        gv, _ = _polygon_g(al, bl, cx, cy, ux, uy, S, vb, off, cnt, n0, n1, int(-1))
        if gv > best:
            best = gv
            bn0 = n0
            bn1 = n1
            bvert = -1
    for i in range(cnt):
        dx = vb[off + i, 0] - cx
        dy = vb[off + i, 1] - cy
        y0 = (ux * dx + uy * dy) / S
        y1 = (ux * dy - uy * dx) / S
        k, c0, c1, d0, d1 = _vertex_normals(al, bl, y0, y1)
        for j in range(k):
            if j == 0:
                n0, n1 = c0, c1
            else:
                n0, n1 = d0, d1
            gv, active = _polygon_g(al, bl, cx, cy, ux, uy, S, vb, off, cnt, n0, n1, i)
            # A normal of vertex i is a maximum of g only where vertex i is active (attains the
            # min): elsewhere g is another vertex's function, not stationary there, and the
            # candidate's value only bounds the maximum from below. It is skipped: near a maximum
            # g is flat to second order, so such a candidate can round above the true one (the
            # ends of a 1.4e-9 long edge, whose normals differ by 7e-9 rad at distance 0.2 while
            # their values differ by 2e-17), and its witness, the other end, then lay 1.4e-9 beside
            # the normal's line. Which vertex is active is well decided: projections differ by
            # the edge's length times the angle, not by a second-order amount.
            if active and gv > best:
                best = gv
                bn0 = n0
                bn1 = n1
                bvert = i
    if bvert >= 0:
        return _finish_flat(
            cx, cy, ux, uy, S, al, bl, bn0, bn1, best * S, vb[off + bvert, 0], vb[off + bvert, 1], bool(True), _INF
        )
    return _finish_flat(cx, cy, ux, uy, S, al, bl, bn0, bn1, best * S, 0.0, 0.0, bool(False), 0.0)


# -- Perram-Wertheim contact function (section 1.2) ------------------------------------------------


@kernel
def _pair_frame(pa, pb):
    """Frame of ``a`` scaled by ``S``: ``(S, ux, uy, aA, bA, aB, bB, cphi, sphi, dx, dy)``."""
    aA, bA = pa[2], pa[3]
    aB, bB = pb[2], pb[3]
    ux, uy = _axis(aA, bA, pa[4], pa[5])
    vx, vy = _axis(aB, bB, pb[4], pb[5])
    S = _pow2_above(max(max(aA, bA), max(aB, bB)))
    wx = pb[0] - pa[0]
    wy = pb[1] - pa[1]
    dx = (ux * wx + uy * wy) / S
    dy = (ux * wy - uy * wx) / S
    cphi = ux * vx + uy * vy
    sphi = ux * vy - uy * vx
    return S, ux, uy, aA / S, bA / S, aB / S, bB / S, cphi, sphi, dx, dy


_PW_NEAR_B = 2.0**-6  # 1 - l below it: the contact point is measured from B's centre


@kernel
def perram_wertheim_ellipse_ellipse(pa, va, pb, vb):
    """Perram-Wertheim contact of two ellipses: ``(px, py, nx, ny, scale, approach_distance)``.

    ``p`` is the PW contact point x*, ``n`` the unit normal (parallel to C(l*)^{-1} d, from a to
    b), ``scale = sqrt(F*)`` the factor by which both ellipses, scaled about their centres, become
    externally tangent, and ``approach_distance = |d| / sqrt(F*)`` the distance of closest approach
    along the centre line (Zheng & Palffy-Muhoray 2007). Concentric pairs: point = centre, normal
    and approach distance NaN, scale 0.

    Sizes far apart: the maximiser ``l`` of F is then of the order of the size ratio (or ``1 - l``
    is), and the contact point lies at that relative distance from the small ellipse's centre. So
    ``l`` and ``1 - l`` both come from the ratio ``t`` of the smaller weight to the larger
    (:func:`_pw_ratio_root`, full relative precision), and the point is measured from the centre
    of the ellipse with the smaller weight: ``x* = c_A + (1 - l) Sigma_A C^{-1} d`` or
    ``x* = c_B - l Sigma_B C^{-1} d`` (the same point: ``C = (1 - l) Sigma_A + l Sigma_B``), each
    product by a diagonal matrix in that ellipse's own frame (:func:`_pw_offset`, called with the
    roles swapped for B). The second form when B's weight ``1 - l`` is below ``_PW_NEAR_B``: the
    point is then much nearer B's centre, and measured from A's it would keep only an absolute
    ``2**-53 |d|``.
    """
    S, ux, uy, aA, bA, aB, bB, cphi, sphi, dx, dy = _pair_frame(pa, pb)
    seed, F, _ = _pw_solve(aA, bA, aB, bB, cphi, sphi, dx, dy)
    if F == 0.0:
        return pa[0], pa[1], _NAN, _NAN, 0.0, _NAN
    dB0, dB1, nA, nB, DA, DB, T = _pw_sums(aA, bA, aB, bB, cphi, sphi, dx, dy)
    b_small = seed > 0.5  # B has the smaller weight 1 - l: the ratio is (1 - l) / l, roles swapped
    if b_small:
        t = _pw_ratio_root(nB, nA, DB, DA, T, (1.0 - seed) / seed)
        lam, mu = 1.0 / (1.0 + t), t / (1.0 + t)
    else:
        t = _pw_ratio_root(nA, nB, DA, DB, T, seed / (1.0 - seed))
        lam, mu = t / (1.0 + t), 1.0 / (1.0 + t)
    F = lam * mu * (mu * nA + lam * nB) / (mu * mu * DA + lam * lam * DB + lam * mu * T)
    x0, x1, m0, m1 = _pw_offset(aA, bA, aB, bB, cphi, sphi, dx, dy, lam, mu)
    ox, oy = pa[0], pa[1]
    if mu < _PW_NEAR_B:  # x* - c_B, the same formula in B's frame (roles swapped, d reversed)
        y0, y1, _, _ = _pw_offset(aB, bB, aA, bA, cphi, -sphi, -dB0, -dB1, mu, lam)
        x0 = cphi * y0 - sphi * y1  # from B's frame into A's (B's axes at angle phi)
        x1 = sphi * y0 + cphi * y1
        ox, oy = pb[0], pb[1]
    m = hypot(m0, m1)
    n0 = m0 / m
    n1 = m1 / m
    nx = ux * n0 - uy * n1
    ny = uy * n0 + ux * n1
    nn = hypot(nx, ny)
    px = ox + S * (ux * x0 - uy * x1)
    py = oy + S * (uy * x0 + ux * x1)
    sc = math.sqrt(F)
    return px, py, nx / nn, ny / nn, sc, S * (hypot(dx, dy) / sc)


@loop
def perram_wertheim_ellipse_ellipse_loop(pa, va, ia, pb, vb, ib, out):
    """Batch PW contact: ``out[k] = perram_wertheim_ellipse_ellipse(pa[ia[k]], ..., pb[ib[k]], ...)``."""
    for k in prange(ia.shape[0]):
        r = perram_wertheim_ellipse_ellipse(pa[ia[k]], va, pb[ib[k]], vb)
        out[k, 0] = r[0]
        out[k, 1] = r[1]
        out[k, 2] = r[2]
        out[k, 3] = r[3]
        out[k, 4] = r[4]
        out[k, 5] = r[5]


# -- ellipse versus ellipse: support-function search (section 4.2) ---------------------------------
#
# Directions are unit vectors ``u = (c, s)`` in the frame of A; the search forms no angle, so it
# calls no sin, cos or atan2. A move from ``u`` along ``u' = (-s, c)`` by the *tangent step* tau
# lands on the direction at angle ``atan(tau)`` from ``u``:
#
#     u(tau) = (u + tau u') / |u + tau u'|.
#
# Since ``d atan(tau) / d tau = 1`` and ``d^2 atan(tau) / d tau^2 = 0`` at ``tau = 0``, the first
# two tau-derivatives of ``g(u(tau))`` at 0 are the angle derivatives ``g'`` and ``g''``: Newton's
# step in tau is ``tau = -g' / g''`` and keeps Newton's quadratic convergence. Every unit vector is
# a valid direction, so rounding in ``u`` only moves the evaluation point (by about an ulp: ``u``
# is renormalised with its computed length at every move, so the errors do not accumulate).

# the grid of the branch and bound: _EE_GRID directions, each turned by 2 pi / _EE_GRID from the last
_EE_GRID = 8
_GRID_COS = math.cos(2.0 * math.pi / _EE_GRID)
_GRID_SIN = math.sin(2.0 * math.pi / _EE_GRID)
# most arcs the branch and bound makes (the size of its table)
_EE_CAP = 64


@kernel
def _turn(c, s, tau):
    """The unit direction at angle ``atan(tau)`` from ``(c, s)`` (counter-clockwise for tau > 0)."""
    x = c - tau * s
    y = s + tau * c
    r = math.sqrt(x * x + y * y)
    return x / r, y / r


@kernel
def _g_ee(aA, bA, aB, bB, cphi, sphi, dx, dy, c, s):
    """``(g, g', g'')`` at the unit direction ``u = (c, s)`` (frame of A, scaled); module notes.

    Derivatives are taken in the angle of ``u``. Lengths are scaled to order 1 (semi-axes <= 1), so
    ``sqrt(x^2 + y^2)`` cannot overflow and replaces the slower ``hypot`` in this hot loop
    (underflow needs an aspect ratio above 1e150).
    """
    pA = aA * c
    qA = bA * s
    rA = math.sqrt(pA * pA + qA * qA)
    cb = c * cphi + s * sphi
    sb = s * cphi - c * sphi
    pB = aB * cb
    qB = bB * sb
    rB = math.sqrt(pB * pB + qB * qB)
    g = dx * c + dy * s - rA - rB
    gp = -dx * s + dy * c - (bA - aA) * (bA + aA) * c * s / rA - (bB - aB) * (bB + aB) * cb * sb / rB
    # radii of curvature at the support points: R = (a b)^2 / rho^3; g'' = -g - R_A - R_B
    abA = aA * bA
    abB = aB * bB
    gpp = -g - abA * abA / (rA * rA * rA) - abB * abB / (rB * rB * rB)
    return g, gp, gpp


@kernel
def _local_max_ee(aA, bA, aB, bB, cphi, sphi, dx, dy, c, s, g, gp, gpp, positive_only):
    """Local maximum of g from the seed direction ``(c, s)``, where ``(g, g', g'')`` are given.

    Returns ``(c*, s*, g*, g'(u*), evaluations)``. Phase 1 walks uphill (Newton's tangent step when
    g'' < 0, capped by ``h``; else a step ``h``, doubled after a success and halved after a
    failure) until g' changes sign. A move is kept when g rose or, for a Newton step, when |g'|
    shrank (near the maximum g changes by less than its rounding). With ``positive_only`` every
    kept point and both bracket ends must have g > 0, so the bracket lies in the arc of separating
    directions, where g is strictly concave (one root of g'). Phase 2: Newton on g' inside the
    bracket (an arc narrower than 0.5 rad), bisection (the normalised sum of the ends) when a step
    leaves it; stop when the Newton step falls below 2 ulps or the bracket collapses.
    """
    it = 0
    if gp == 0.0:
        return c, s, g, gp, it
    h = 0.25
    found = False
    lc = ls = hc = hs = 0.0
    cn = sn = gn = gpn = gppn = 0.0
    while it < _LOCAL_MAXIT:
        sg = 1.0 if gp > 0.0 else -1.0
        if gpp < 0.0:
            step = min(-gp / gpp * sg, h)  # Newton step length, capped
        else:
            step = h
        if step <= 4.0 * _EPS:
            return c, s, g, gp, it
        cn, sn = _turn(c, s, sg * step)
        gn, gpn, gppn = _g_ee(aA, bA, aB, bB, cphi, sphi, dx, dy, cn, sn)
        it += 1
        if gpn == 0.0 and gn >= g:
            return cn, sn, gn, gpn, it
        if (gpn > 0.0) != (gp > 0.0):
            if (not positive_only) or gn > 0.0:
                if sg > 0.0:
                    lc, ls, hc, hs = c, s, cn, sn
                else:
                    lc, ls, hc, hs = cn, sn, c, s
                found = True
                break
            h = 0.5 * step
            continue
        # accept the move when g rose or, for a Newton step, when |g'| shrank (near the maximum
        # the changes of g are below its rounding error and cannot be trusted)
        if (gn > g or (gpp < 0.0 and abs(gpn) < abs(gp))) and ((not positive_only) or gn > 0.0):
            c, s, g, gp, gpp = cn, sn, gn, gpn, gppn
            h = min(2.0 * step, 0.5)
        else:
            h = 0.5 * step
    if not found:
        return c, s, g, gp, it
    # phase 2: g' > 0 at l, < 0 at h (the arc from l to h counter-clockwise). Safeguarded Newton
    # on g' from the bracket end with the smaller |g'| (usually the Newton iterate that just
    # overshot the maximum); g itself is not compared (near the maximum its changes are below
    # rounding).
    if abs(gpn) < abs(gp):
        c, s, g, gp, gpp = cn, sn, gn, gpn, gppn
    tol = 2.0 * _EPS  # a few ulps of the direction (radians)
    # step sizes (tangents, ~ radians) of the last two iterations; as in rtsafe (Numerical
    # Recipes 9.4) a Newton step longer than half the step before last is replaced by a bisection:
    # near the flat side of a thin ellipse g'' has a narrow spike, and plain Newton can then bounce
    # between the two sides of the bracket, shrinking it by a few per cent per step
    step = lc * hs - ls * hc
    step_old = step
    for _ in range(_LOCAL_MAXIT):
        inside = False
        if gpp < 0.0:
            tau = -gp / gpp
            if abs(tau) <= tol:
                break  # converged: the Newton step is below the direction's resolution
            if abs(tau) <= 0.5 * step_old:
                cn, sn = _turn(c, s, tau)
                inside = lc * sn - ls * cn > 0.0 and cn * hs - sn * hc > 0.0
        step_old = step
        if inside:
            step = abs(tau)
        else:
            width = lc * hs - ls * hc  # sine of the bracket's angle
            if width <= tol:
                break  # the bracket collapsed
            step = 0.5 * width
            cn = lc + hc
            sn = ls + hs
            r = math.sqrt(cn * cn + sn * sn)
            cn /= r
            sn /= r
        c, s = cn, sn
        g, gp, gpp = _g_ee(aA, bA, aB, bB, cphi, sphi, dx, dy, c, s)
        it += 1
        if gp > 0.0:
            lc, ls = c, s
        elif gp < 0.0:
            hc, hs = c, s
        else:
            break
    return c, s, g, gp, it


@kernel
def _ee_search(aA, bA, aB, bB, cphi, sphi, dx, dy):
    """Global maximiser of g for an ellipse pair (frame of A, scaled): ``(c*, s*, g*, evaluations)``.

    Separated pairs (g > 0 at the Perram-Wertheim normal, a guaranteed separating direction,
    section 1.2): one local solve from that normal, in the concave arc. Otherwise (and directly,
    without the PW solve, when a centre lies inside the other ellipse or the inscribed circles
    overlap) the branch and bound of :func:`_ee_search_overlap`, started at the PW normal (or at
    the centre direction). ``evaluations`` counts evaluations of g and PW iterations.
    """
    total = int(0)
    dd = math.sqrt(dx * dx + dy * dy)
    if dd > 0.0:
        c0 = dx / dd
        s0 = dy / dd
    else:
        c0 = 1.0
        s0 = 0.0
    dB0 = cphi * dx + sphi * dy
    dB1 = cphi * dy - sphi * dx
    if (
        (dx / aA) ** 2 + (dy / bA) ** 2 <= 1.0
        or (dB0 / aB) ** 2 + (dB1 / bB) ** 2 <= 1.0
        or dd <= min(aA, bA) + min(aB, bB)
    ):
        # a centre inside the other ellipse, or overlapping inscribed circles: certainly not apart
        # (the branch and bound below is correct in any case; this only skips the PW solve)
        return _ee_search_overlap(aA, bA, aB, bB, cphi, sphi, dx, dy, c0, s0, total)
    # g > 0 at the centre direction: a separating direction already, so the pair is apart and
    # the arc where g > 0 (one arc: the separating directions of two disjoint convex sets) holds
    # the maximum; solve from there and skip the PW solve (96 % of the apart random pairs)
    apart, c, s, g, total = _climb_if_separating(aA, bA, aB, bB, cphi, sphi, dx, dy, c0, s0, total)
    if apart:
        return c, s, g, total
    lam, F, itpw = _pw_solve(aA, bA, aB, bB, cphi, sphi, dx, dy)
    total += itpw
    if F > 0.0:
        x0, x1, m0, m1 = _pw_offset(aA, bA, aB, bB, cphi, sphi, dx, dy, lam, 1.0 - lam)
        m = hypot(m0, m1)
        c0 = m0 / m
        s0 = m1 / m
        apart, c, s, g, total = _climb_if_separating(aA, bA, aB, bB, cphi, sphi, dx, dy, c0, s0, total)
        if apart:
            return c, s, g, total
    return _ee_search_overlap(aA, bA, aB, bB, cphi, sphi, dx, dy, c0, s0, total)


@kernel
def _climb_if_separating(aA, bA, aB, bB, cphi, sphi, dx, dy, c0, s0, total):
    """One local solve from ``u0 = (c0, s0)`` when ``g(u0) > 0``: ``(apart, c, s, g, total)``.

    ``g(u0) > 0`` makes ``u0`` a separating direction, so the pair is apart and the maximum lies
    in the one arc where ``g > 0``; the solver climbs it (``positive_only``). Otherwise
    ``apart`` is False and ``(c0, s0, g(u0))`` come back unchanged. ``total`` counts the
    evaluations of ``g``.
    """
    g, gp, gpp = _g_ee(aA, bA, aB, bB, cphi, sphi, dx, dy, c0, s0)
    total += 1
    if not (g > 0.0):
        return False, c0, s0, g, total
    c, s, gv, _, it = _local_max_ee(aA, bA, aB, bB, cphi, sphi, dx, dy, c0, s0, g, gp, gpp, bool(True))
    total += it
    if gv >= g:
        return True, c, s, gv, total
    return True, c0, s0, g, total


@kernel
def _g_w(aA, bA, aB, bB, cphi, sphi, dx, dy, r, c, s):
    """``g(u)`` and ``w = d - x_A(u) - y_B(u) + r u`` at the unit direction ``u = (c, s)``.

    ``x_A(u)`` is the support point of A (about its centre) in direction ``u`` and ``y_B(u)`` that
    of B, so ``w.u = g(u) + r``. ``r = r_A + r_B`` with ``r = min(a, b)^2 / max(a, b)`` the smallest
    radius of curvature of each ellipse. By Blaschke's rolling theorem (curvature everywhere at
    most ``1 / r_A``), the disc of radius ``r_A`` tangent to A from inside at ``x_A(u)`` lies in
    A; its support function bounds A's from below: ``rho_A(v) >= (x_A(u) - r_A u).v + r_A`` for
    every ``v``, likewise for B. So ``w.v - r`` is an upper bound of ``g(v)`` on the whole circle,
    touching it at ``u``. (With ``r = 0`` this is the tangent-line bound ``rho_A(v) >= x_A(u).v``;
    the discs make the bound curve like ``g`` near ``u``: at a maximum ``u*`` with ``g* > -r`` the
    bound is below ``g*`` on the whole circle but at ``u*``, which prunes the arcs beside it.)
    """
    pA = aA * c
    qA = bA * s
    rA = math.sqrt(pA * pA + qA * qA)
    cb = c * cphi + s * sphi
    sb = s * cphi - c * sphi
    pB = aB * cb
    qB = bB * sb
    rB = math.sqrt(pB * pB + qB * qB)
    yb0 = aB * (pB / rB)
    yb1 = bB * (qB / rB)
    w0 = dx - aA * (pA / rA) - (cphi * yb0 - sphi * yb1) + r * c
    w1 = dy - bA * (qA / rA) - (sphi * yb0 + cphi * yb1) + r * s
    return dx * c + dy * s - rA - rB, w0, w1


@kernel
def _arc_bound(u0x, u0y, u1x, u1y, w0x, w0y, w1x, w1y):
    """Upper bound of ``min(w0.v, w1.v)`` on the arc from ``u0`` to ``u1`` (counter-clockwise,
    narrower than pi); ``g`` lies below it, up to the constant of :func:`_g_w`.

    The maximum of the minimum of two sinusoids over the arc lies at an end, at the peak of one of
    them (``w0 / |w0|`` or ``w1 / |w1|``) or where they cross (``v`` perpendicular to
    ``w0 - w1``), whichever lie in the arc. Whether a candidate lies in the arc is decided on the
    unnormalised vector (two cross products), so only the candidates inside (usually none or one)
    cost a square root. Returns ``(bound, vx, vy)`` with ``v`` the direction attaining it (a seed
    for the arc).
    """
    best = min(w0x * u0x + w0y * u0y, w1x * u0x + w1y * u0y)
    bx = u0x
    by = u0y
    val = min(w0x * u1x + w0y * u1y, w1x * u1x + w1y * u1y)
    if val > best:
        best, bx, by = val, u1x, u1y
    ex = w0x - w1x
    ey = w0y - w1y
    for j in range(4):
        if j == 0:
            vx, vy = w0x, w0y
        elif j == 1:
            vx, vy = w1x, w1y
        elif j == 2:
            vx, vy = -ey, ex
        else:
            vx, vy = ey, -ex
        if u0x * vy - u0y * vx >= 0.0 and vx * u1y - vy * u1x >= 0.0:
            m = math.sqrt(vx * vx + vy * vy)
            if not (m > 0.0):
                continue
            val = min(w0x * vx + w0y * vy, w1x * vx + w1y * vy) / m
            if val > best:
                best, bx, by = val, vx / m, vy / m
    return best, bx, by


@kernel
def _set_arc(arcs, j, r, u0x, u0y, w0x, w0y, u1x, u1y, w1x, w1y):
    """Store the arc ``j`` from ``u0`` to ``u1`` with its bound and bound-attaining direction.

    ``g(v) <= min(w0.v, w1.v) - r`` on the arc (:func:`_g_w`, :func:`_arc_bound`).
    """
    ub, vx, vy = _arc_bound(u0x, u0y, u1x, u1y, w0x, w0y, w1x, w1y)
    arcs[j, 0] = ub - r
    arcs[j, 1] = vx
    arcs[j, 2] = vy
    arcs[j, 3] = u0x
    arcs[j, 4] = u0y
    arcs[j, 5] = w0x
    arcs[j, 6] = w0y
    arcs[j, 7] = u1x
    arcs[j, 8] = u1y
    arcs[j, 9] = w1x
    arcs[j, 10] = w1y


@kernel
def _in_arc(arcs, j, c, s):
    """Whether the unit direction ``(c, s)`` lies in arc ``j`` (arcs are narrower than pi)."""
    return arcs[j, 3] * s - arcs[j, 4] * c >= 0.0 and c * arcs[j, 8] - s * arcs[j, 7] >= 0.0


@kernel
def _split_arc(arcs, j, m, c, s, aA, bA, aB, bB, cphi, sphi, dx, dy, r):
    """Split arc ``j`` at the direction ``(c, s)`` into arcs ``j`` and ``m`` (new bounds)."""
    g, w0, w1 = _g_w(aA, bA, aB, bB, cphi, sphi, dx, dy, r, c, s)
    _set_arc(arcs, m, r, c, s, w0, w1, arcs[j, 7], arcs[j, 8], arcs[j, 9], arcs[j, 10])
    _set_arc(arcs, j, r, arcs[j, 3], arcs[j, 4], arcs[j, 5], arcs[j, 6], c, s, w0, w1)


@kernel
def _disc_certified(g, gp, r, tol):
    """Whether the disc bound proves that no direction has ``g`` above ``g + tol``.

    At a direction ``u`` with values ``g``, ``g'`` the vector ``w`` of :func:`_g_w` is
    ``(g + r) u + g' u'`` (``w.u = g + r``; ``w.u' = d.u' - x_A.u' - y_B.u' = g'``, since the
    derivative of a support function is its support point's component along ``u'``), so the bound
    ``g(v) <= w.v - r`` gives ``max g <= |w| - r = sqrt((g + r)^2 + g'^2) - r``. At a local
    maximum (``g' ~ 0``) with ``g >= -r`` (penetration at most the sum of the smallest radii of
    curvature) this equals ``g``: such a local maximum is the global one.
    """
    return math.sqrt((g + r) * (g + r) + gp * gp) - r <= g + tol


@kernel
def _ee_search_overlap(aA, bA, aB, bB, cphi, sphi, dx, dy, c0, s0, total):
    """Global maximum of g for an overlapping pair: branch and bound on arcs of directions.

    First a local solve from ``(c0, s0)``; when the disc bound certifies its maximum
    (:func:`_disc_certified`: penetration at most the sum of the smallest radii of curvature),
    that is the answer. Otherwise ``g`` is evaluated, with its bounding sinusoid (:func:`_g_w`),
    at ``_EE_GRID`` directions evenly spaced from ``(c0, s0)``; each arc between neighbours gets
    the rigorous upper bound of :func:`_arc_bound`, and the arc holding the maximum found is split
    there. Then, in decreasing order of the bound, every arc whose bound exceeds the best maximum
    found (plus a rounding allowance) is refined from the direction ``v`` attaining its bound.
    When the local maximum reached is an end of the arc (a maximum found before), the part of the
    arc between that end and ``v`` is done and the part beyond ``v`` goes back to the pool with
    its own bound; otherwise the arc is split at that maximum (inside the arc) or bisected (the
    solver left the arc), and the halves, with tighter bounds, go back to the pool. Arcs whose
    bound is below the best maximum cannot hold a higher value of ``g``; a new best maximum that
    the disc bound certifies ends the search. At most ``_EE_CAP`` arcs are made. Returns
    ``(c*, s*, g*, evaluations)``; ``evaluations`` adds the evaluations of ``g`` to ``total``.
    """
    # smallest radii of curvature (rolling discs, see _g_w)
    r = min(aA, bA) ** 2 / max(aA, bA) + min(aB, bB) ** 2 / max(aB, bB)
    tol = 64.0 * _EPS * (math.sqrt(dx * dx + dy * dy) + aA + bA + aB + bB)
    # a local maximum from the start direction; when the disc bound certifies it (_disc_certified),
    # it is the global maximum and the branch and bound is skipped (most moderately deep pairs)
    g, gp, gpp = _g_ee(aA, bA, aB, bB, cphi, sphi, dx, dy, c0, s0)
    bc, bs, best, gp, it = _local_max_ee(aA, bA, aB, bB, cphi, sphi, dx, dy, c0, s0, g, gp, gpp, bool(False))
    total += it + 1
    if _disc_certified(best, gp, r, tol):
        return bc, bs, best, total
    n = int(_EE_GRID)
    cap = _EE_CAP
    arcs = np.empty((cap, 11))
    fx = fy = fw0 = fw1 = px = py = pw0 = pw1 = 0.0
    c = c0
    s = s0
    for k in range(n + 1):
        if k < n:
            if k > 0:
                # next grid direction by rotation (drifts by a few ulps over the grid; only the
                # bounds use the grid directions, and an allowance covers that)
                c, s = c * _GRID_COS - s * _GRID_SIN, s * _GRID_COS + c * _GRID_SIN
            g, w0, w1 = _g_w(aA, bA, aB, bB, cphi, sphi, dx, dy, r, c, s)
        else:
            c, s, w0, w1 = fx, fy, fw0, fw1
        if k == 0:
            fx, fy, fw0, fw1 = c, s, w0, w1
        else:
            _set_arc(arcs, k - 1, r, px, py, pw0, pw1, c, s, w0, w1)
        px, py, pw0, pw1 = c, s, w0, w1
    total += n
    m = n
    for j in range(n):
        if _in_arc(arcs, j, bc, bs):
            _split_arc(arcs, j, m, bc, bs, aA, bA, aB, bB, cphi, sphi, dx, dy, r)
            total += 1
            m += 1
            break
    for _ in range(cap):
        km = int(-1)
        um = best + tol
        for k in range(m):
            if arcs[k, 0] > um:
                um = arcs[k, 0]
                km = k
        if km < 0:
            break
        arcs[km, 0] = -_INF
        vx = arcs[km, 1]
        vy = arcs[km, 2]
        g, gp, gpp = _g_ee(aA, bA, aB, bB, cphi, sphi, dx, dy, vx, vy)
        c, s, gv, gp, it = _local_max_ee(aA, bA, aB, bB, cphi, sphi, dx, dy, vx, vy, g, gp, gpp, bool(False))
        total += it + 1
        if gv > best:
            best = gv
            bc = c
            bs = s
            if _disc_certified(best, gp, r, tol):
                break
        at_start = abs(arcs[km, 3] * s - arcs[km, 4] * c) < 1e-9 and arcs[km, 3] * c + arcs[km, 4] * s > 0.0
        at_end = abs(arcs[km, 7] * s - arcs[km, 8] * c) < 1e-9 and arcs[km, 7] * c + arcs[km, 8] * s > 0.0
        if m == cap:
            continue
        if at_start or at_end:
            # the solver climbed from the seed v back to a maximum found before, at an end of the
            # arc: the part between that end and v is done; the part beyond v stays in the pool
            # with its own (tighter) bound, unless v is (nearly) the other end
            if at_start:
                if abs(arcs[km, 7] * vy - arcs[km, 8] * vx) < 1e-9 or not _in_arc(arcs, km, vx, vy):
                    continue
                _split_arc(arcs, km, m, vx, vy, aA, bA, aB, bB, cphi, sphi, dx, dy, r)
                arcs[km, 0] = -_INF
            else:
                if abs(arcs[km, 3] * vy - arcs[km, 4] * vx) < 1e-9 or not _in_arc(arcs, km, vx, vy):
                    continue
                _split_arc(arcs, km, m, vx, vy, aA, bA, aB, bB, cphi, sphi, dx, dy, r)
                arcs[m, 0] = -_INF
            total += 1
            m += 1
            continue
        if not _in_arc(arcs, km, c, s):
            # the solver left the arc: bisect it
            c = arcs[km, 3] + arcs[km, 7]
            s = arcs[km, 4] + arcs[km, 8]
            q = math.sqrt(c * c + s * s)
            c /= q
            s /= q
        _split_arc(arcs, km, m, c, s, aA, bA, aB, bB, cphi, sphi, dx, dy, r)
        total += 1
        m += 1
    return bc, bs, best, total


@kernel
def contact_ellipse_ellipse(pa, va, pb, vb):
    """Exact signed distance of two ellipses (section 4.2), frame of ``a`` scaled by ``S``.

    ``s = max_u g(u)`` found by :func:`_ee_search`; normal ``u*`` (the maximiser); witness
    points are the support points ``c_A + Sigma_A u / rho_A`` and ``c_B - Sigma_B u / rho_B``
    (closest points when apart, deepest points when overlapping); at a stationary point
    ``p_B - p_A = g u``. When two local optima exchange, the normal and the witness points jump
    while ``s`` stays continuous.
    """
    if pa[2] == pa[3] and pb[2] == pb[3]:
        # two circles: the radial answer, sep = |d| - r_A - r_B along d / |d|; concentric
        # circles take the normal (0, +-1) from the sign bit of d_y
        dx = pb[0] - pa[0]
        dy = pb[1] - pa[1]
        L = hypot(dx, dy)
        if L == 0.0:
            nx = 0.0
            ny = math.copysign(1.0, dy)
        else:
            nx = dx / L
            ny = dy / L
        rA = pa[2]
        rB = pb[2]
        return (
            (L - rA) - rB,
            nx,
            ny,
            pa[0] + rA * nx,
            pa[1] + rA * ny,
            pb[0] - rB * nx,
            pb[1] - rB * ny,
            1.0 / rA,
            1.0 / rB,
        )
    if pb[2] == pb[3]:
        # ellipse and circle: max_u [d.u - rho_A(u)] - r_B is the signed distance of the circle's
        # centre to A, minus r_B (section 3, exact in one Eberly solve)
        dist, nx, ny, fx, fy, _, _, ka, _ = _ellipse_point_core(pa, pb[0], pb[1])
        rB = pb[2]
        return dist - rB, nx, ny, fx, fy, pb[0] - rB * nx, pb[1] - rB * ny, ka, 1.0 / rB
    if pa[2] == pa[3]:
        # circle and ellipse: the same with the roles exchanged; the normal is minus B's outward
        # normal at the foot of A's centre
        dist, mx, my, fx, fy, _, _, kb, _ = _ellipse_point_core(pb, pa[0], pa[1])
        rA = pa[2]
        return dist - rA, -mx, -my, pa[0] - rA * mx, pa[1] - rA * my, fx, fy, 1.0 / rA, kb
    S, ux, uy, aA, bA, aB, bB, cphi, sphi, dx, dy = _pair_frame(pa, pb)
    n0, n1, g, _ = _ee_search(aA, bA, aB, bB, cphi, sphi, dx, dy)
    # scaled lengths (semi-axes <= 1): sqrt cannot overflow here (see _g_ee)
    rA = math.sqrt((aA * n0) ** 2 + (bA * n1) ** 2)
    sa0 = aA * (aA * n0 / rA)
    sa1 = bA * (bA * n1 / rA)
    cb = n0 * cphi + n1 * sphi
    sb = n1 * cphi - n0 * sphi
    rB = math.sqrt((aB * cb) ** 2 + (bB * sb) ** 2)
    sbx = aB * (aB * cb / rB)
    sby = bB * (bB * sb / rB)
    # B's support point back to the frame of A
    sb0 = cphi * sbx - sphi * sby
    sb1 = sphi * sbx + cphi * sby
    nx = ux * n0 - uy * n1
    ny = uy * n0 + ux * n1
    nn = math.sqrt(nx * nx + ny * ny)
    pax = pa[0] + S * (ux * sa0 - uy * sa1)
    pay = pa[1] + S * (uy * sa0 + ux * sa1)
    pbx = pb[0] - S * (ux * sb0 - uy * sb1)
    pby = pb[1] - S * (uy * sb0 + ux * sb1)
    return (
        g * S,
        nx / nn,
        ny / nn,
        pax,
        pay,
        pbx,
        pby,
        _curvature(aA, bA, rA) / S,
        _curvature(aB, bB, rB) / S,
    )


@kernel
def contact_ellipse_ellipse_iterations(pa, va, pb, vb):
    """Total local-solver iterations :func:`contact_ellipse_ellipse` spends (for tests/benchmarks)."""
    S, ux, uy, aA, bA, aB, bB, cphi, sphi, dx, dy = _pair_frame(pa, pb)
    c, s, g, total = _ee_search(aA, bA, aB, bB, cphi, sphi, dx, dy)
    return total
