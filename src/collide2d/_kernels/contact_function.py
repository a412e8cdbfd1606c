"""The Perram-Wertheim contact function of two ellipses, shared by the measure kernels
(:func:`collide2d.perram_wertheim`, the seed of the ellipse pair's contact) and the event loop of
hard ellipses (:mod:`collide2d.events`): kernel families may not import each other, so the
function they both need lives here, beside :mod:`vec` and :mod:`expansion`.

The function
------------
An ellipse with centre ``c`` and shape matrix ``Sigma = R diag(a^2, b^2) R^T`` is
``(x - c)^T Sigma^-1 (x - c) <= 1``. For two of them, with ``d = c_B - c_A`` and
``C(l) = (1 - l) Sigma_A + l Sigma_B``,

    F(l) = l (1 - l) d^T C(l)^-1 d,   0 <= l <= 1,

is concave; its maximum ``F*`` is the square of the factor by which both ellipses, scaled about
their centres, just touch, at the point ``x* = c_A + (1 - l) Sigma_A C^-1 d`` with the normal
along ``C^-1 d`` (Perram and Wertheim, *J. Comput. Phys.* 58, 409, 1985; Donev, Torquato and
Stillinger, *J. Comput. Phys.* 202, 765, 2005, sec. 3). Any ``l`` gives a lower bound of ``F*``.

Two forms, for two uses
-----------------------
* **On world shape matrices** (:func:`shape_matrix`, :func:`newton_on_matrices`,
  :func:`contact_geometry`): a safeguarded Newton step on ``F'`` from a warm start, a few steps a
  call; the event loop calls it at every step of its conservative advancement, where a lower bound
  and a separating direction are all it needs until contact.
* **In the frame of ellipse A, scaled** (:func:`pw_sums`, :func:`pw_solve`,
  :func:`pw_ratio_value`, :func:`pw_ratio_root`, :func:`pw_offset`): ``Sigma_A`` diagonal, ``Sigma_B``
  turned by ``phi``, and ``F`` written with sums of positive terms (``n_A = d^T adj Sigma_A d``,
  ``n_B``, ``D = a^2 b^2``, ``T = tr(adj Sigma_A Sigma_B)``), solved to full relative precision
  also when the sizes are far apart: the measure kernels' answer (frame and scaling: see
  :mod:`collide2d._kernels.measure.distance_ellipse`).
"""

import math

from collide2d._jit import kernel

from .relate.conic import pw_maximise
from .vec import hypot

_EPS = 2.0**-53
_INF = math.inf


# -- on world shape matrices (the event loop) ------------------------------------------------------


@kernel
def shape_matrix(a, b, angle):
    """The shape matrix ``R diag(a^2, b^2) R^T`` as ``(m11, m12, m22)``."""
    c = math.cos(angle)
    s = math.sin(angle)
    aa = a * a
    bb = b * b
    return aa * c * c + bb * s * s, (aa - bb) * c * s, aa * s * s + bb * c * c


@kernel
def newton_on_matrices(rx, ry, p11, p12, p22, q11, q12, q22, lam, iterations):
    """Perram-Wertheim: ``(F, l, sx, sy)`` at the maximiser ``l`` of ``F(l) = l (1 - l) r^T C^-1 r``,
    ``C = (1 - l) P + l Q``, ``s = C^-1 r``; safeguarded Newton on ``F'`` from ``lam`` (``F`` is
    concave: ``F'(0) > 0 > F'(1)``), at most ``iterations`` steps (any ``l`` gives a lower bound
    of the maximum and a separating direction to bound the gap with)."""
    d11 = q11 - p11
    d12 = q12 - p12
    d22 = q22 - p22
    lo = 0.0
    hi = 1.0
    if not (lam > 0.0 and lam < 1.0):
        lam = 0.5
    f = 0.0
    sx = 0.0
    sy = 0.0
    at = lam
    for _ in range(iterations):
        at = lam
        c11 = p11 + lam * d11
        c12 = p12 + lam * d12
        c22 = p22 + lam * d22
        det = c11 * c22 - c12 * c12
        sx = (c22 * rx - c12 * ry) / det
        sy = (c11 * ry - c12 * rx) / det
        g = rx * sx + ry * sy  # r^T C^-1 r
        ds_x = d11 * sx + d12 * sy  # D s
        ds_y = d12 * sx + d22 * sy
        g1 = -(sx * ds_x + sy * ds_y)  # d/dl r^T C^-1 r = -s^T D s
        tx = (c22 * ds_x - c12 * ds_y) / det  # C^-1 D s
        ty = (c11 * ds_y - c12 * ds_x) / det
        g2 = 2.0 * (ds_x * tx + ds_y * ty)  # 2 s^T D C^-1 D s
        h = lam * (1.0 - lam)
        f = h * g
        f1 = (1.0 - 2.0 * lam) * g + h * g1
        f2 = -2.0 * g + 2.0 * (1.0 - 2.0 * lam) * g1 + h * g2
        if f1 > 0.0:
            lo = lam
        else:
            hi = lam
        step = lam - f1 / f2 if f2 < 0.0 else -1.0
        if abs(step - lam) <= 1e-15 * max(lam, 1e-300):
            # converged: tested before the safeguard, since Newton's step from the maximiser rounds
            # onto it, an end of the bracket, where the safeguard would bisect away from it
            break
        if not (step > lo and step < hi):
            step = 0.5 * (lo + hi)
        if abs(step - lam) <= 1e-15 * max(lam, 1e-300) or hi - lo <= 1e-15:
            break
        lam = step
    return f, at, sx, sy


@kernel
def contact_geometry(xi, yi, rx, ry, p11, p12, p22, lam, sx, sy):
    """Contact point ``r_i + (1 - l) P s`` and unit normal along ``s = C^-1 r``."""
    px = xi + (1.0 - lam) * (p11 * sx + p12 * sy)
    py = yi + (1.0 - lam) * (p12 * sx + p22 * sy)
    norm = math.sqrt(sx * sx + sy * sy)
    return px, py, sx / norm, sy / norm


# -- in the frame of ellipse A (the measure kernels) -----------------------------------------------


@kernel
def pw_sums(aA, bA, aB, bB, cphi, sphi, dx, dy):
    """``d`` in B's axes and the positive sums of F (see :func:`pw_solve`):
    ``(dB0, dB1, n_A, n_B, D_A, D_B, T)``."""
    dB0 = cphi * dx + sphi * dy
    dB1 = cphi * dy - sphi * dx
    nA = (bA * dx) ** 2 + (aA * dy) ** 2
    nB = (bB * dB0) ** 2 + (aB * dB1) ** 2
    DA = (aA * bA) ** 2
    DB = (aB * bB) ** 2
    T = ((aA * bB) ** 2 + (bA * aB) ** 2) * cphi * cphi + ((aA * aB) ** 2 + (bA * bB) ** 2) * sphi * sphi
    return dB0, dB1, nA, nB, DA, DB, T


@kernel
def pw_solve(aA, bA, aB, bB, cphi, sphi, dx, dy):
    """Maximise the Perram-Wertheim function in the frame of A (scaled); section 1.2.

    F(l) = l (1 - l) [(1 - l) n_A + l n_B] / [(1 - l)^2 D_A + l^2 D_B + l (1 - l) T] with the
    positive sums n_A = b_A^2 dx^2 + a_A^2 dy^2 (= d^T adj Sigma_A d), n_B likewise in B's axes,
    D = a^2 b^2, T = tr(adj Sigma_A Sigma_B). Newton on the stationarity polynomial
    P = N'D - N D' (one sign change on (0, 1), P(0) > 0 > P(1)) inside a bracket, bisection when a
    step leaves it, started at h_A / (h_A + h_B) (exact for circles).
    Returns ``(lam, F*, iterations)``; :func:`perram_wertheim_ellipse_ellipse` refines ``lam``
    (:func:`pw_ratio_root`).
    """
    dB0, dB1, nA, nB, DA, DB, T = pw_sums(aA, bA, aB, bB, cphi, sphi, dx, dy)
    if nA == 0.0 and nB == 0.0:
        return 0.5, 0.0, 0
    dd = hypot(dx, dy)
    hA = hypot(aA * dx, bA * dy) / dd
    hB = hypot(aB * dB0, bB * dB1) / dd
    lam, it = pw_maximise(nA, nB, DA, DB, T, hA / (hA + hB))
    mu = 1.0 - lam
    F = lam * mu * (mu * nA + lam * nB) / (mu * mu * DA + lam * lam * DB + lam * mu * T)
    return lam, F, it


@kernel
def pw_ratio_value(t, nA, nB, DA, DB, T):
    """The stationarity polynomial of F in the ratio ``t = l / (1 - l)`` and its derivative.

    With ``l = t / (1 + t)``, ``F = t (t n_B + n_A) / ((1 + t)(D_A + t T + t^2 D_B))``, and
    ``F' = 0`` is the quartic (derived by expanding ``n' q - n q'`` with ``n = t n_A + t^2 n_B``,
    ``q = (1 + t)(D_A + t T + t^2 D_B)``)::

        Q(t) = n_A D_A + 2 n_B D_A t + (n_B (T + D_A) - n_A (D_B + T)) t^2 - 2 n_A D_B t^3 - n_B D_B t^4

    The form in ``l`` (:func:`conic._pw_value`, ``N'D - ND'``) subtracts two products that agree
    to a relative ``l`` at the root when the ellipses' sizes are far apart (``l`` is then of the
    order of their ratio, and both products are ``2 l^3 n_B D_B`` to leading order), so the root
    it finds is off by a relative ``2**-53 / l``. Here that leading cancellation is done in the
    algebra: Horner's rule on Q has an error bound ``2**-53 sum |c_k| t^k``, of the order of the
    terms that set the root, so ``t`` (and with it the contact point) keeps full relative
    precision."""
    c2 = nB * (T + DA) - nA * (DB + T)
    c3 = -2.0 * nA * DB
    c4 = -nB * DB
    value = nA * DA + t * (2.0 * nB * DA + t * (c2 + t * (c3 + t * c4)))
    slope = 2.0 * nB * DA + t * (2.0 * c2 + t * (3.0 * c3 + t * (4.0 * c4)))
    return value, slope


@kernel
def pw_ratio_root(nA, nB, DA, DB, T, t):
    """The root of :func:`pw_ratio_value` in ``(0, inf)`` (``Q(0) = n_A D_A > 0``, ``Q -> -inf``,
    one sign change: F has one maximum) from the start ``t``: Newton inside a bracket, a
    geometric or arithmetic bisection when a step leaves it, until a step is within 4 ulps."""
    lo = 0.0
    hi = _INF
    if not (t > 0.0 and t < _INF):
        t = 1.0
    for _ in range(200):
        value, slope = pw_ratio_value(t, nA, nB, DA, DB, T)
        if value > 0.0:
            lo = t
        elif value < 0.0:
            hi = t
        else:
            return t
        new = t - value / slope if slope < 0.0 else -1.0
        if not (new > lo and new < hi):
            if hi == _INF:
                new = 2.0 * t
            elif lo == 0.0:
                new = 0.0625 * hi
            elif hi > 4.0 * lo:
                new = math.sqrt(lo * hi)
            else:
                new = 0.5 * (lo + hi)
        if abs(new - t) <= 4.0 * _EPS * t:
            return new
        t = new
    return t


@kernel
def pw_offset(aA, bA, aB, bB, cphi, sphi, dx, dy, lam, mu):
    """``x* - c_A = (1 - l) Sigma_A C^{-1} d`` in A's frame (scaled), with ``m = adj(C) d``:
    ``(x0, x1, m0, m1)``; ``C = mu Sigma_A + lam Sigma_B``, ``det C`` as a sum of positive terms."""
    c2 = cphi * cphi
    s2 = sphi * sphi
    aB2 = aB * aB
    bB2 = bB * bB
    cxx = mu * aA * aA + lam * (aB2 * c2 + bB2 * s2)
    cyy = mu * bA * bA + lam * (aB2 * s2 + bB2 * c2)
    cxy = lam * ((aB - bB) * (aB + bB) * cphi * sphi)
    m0 = cyy * dx - cxy * dy
    m1 = cxx * dy - cxy * dx
    T = ((aA * bB) ** 2 + (bA * aB) ** 2) * c2 + ((aA * aB) ** 2 + (bA * bB) ** 2) * s2
    det = mu * mu * (aA * bA) ** 2 + lam * lam * (aB * bB) ** 2 + lam * mu * T
    return mu * aA * aA * m0 / det, mu * bA * bA * m1 / det, m0, m1
