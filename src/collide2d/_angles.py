"""Orientation of ellipses and rotated boxes: an angle to the direction vector stored for it.

An angle θ (radians, float64) is stored as the direction ``(wx, wy)`` of the shape's own x axis:

1. Reduction: ``θ = k·π/2 + r`` with an integer ``k`` and ``|r| ≲ π/4``. Below ``REDUCE_LIMIT``
   this is Cody and Waite's reduction with π/2 split in three pieces (fdlibm's ``pio2_1``,
   ``pio2_2``, ``pio2_2t`` of ``e_rem_pio2.c``): ``k·P1`` and ``k·P2`` are exact products because
   ``P1`` and ``P2`` have 33 significant bits and ``|k| < 2**20``, ``θ − k·P1`` is exact by
   Sterbenz's lemma, and Knuth's two-sum keeps the remainder as an unevaluated sum ``hi + lo``
   (error below 1e-36 rad). Above it the remainder is computed exactly with Python integers from
   π to 1,400 bits (Machin's formula), as Payne and Hanek's reduction does with the bits of 2/π.
2. Quarter turns: ``θ`` within ``2**-52·|θ|`` (between one and two ulps of θ) of ``k·π/2`` is
   taken as that quarter turn exactly (``r = 0``), so ``math.pi / 2``, ``np.pi``,
   ``3 * math.pi / 2`` and ``1e6 * math.pi / 2`` give axis vectors, for every
   ``|θ| < QUARTER_TURN_LIMIT = 2**50·π`` (about 3.5e15 rad). There the tolerance reaches ``π/4``:
   every larger float is within an ulp of a quarter turn (its ulp is 0.5 rad or more), and the
   promise would turn every such angle into one; those keep the direction of the float, reduced
   exactly (step 1).
3. ``cos r`` and ``sin r`` from the C library (within 0.52 ulp measured; correctly rounded in all
   but about 0.2% of cases), corrected to first order for ``lo``:
   ``cos(hi + lo) ≈ cos hi − lo·sin hi``, ``sin(hi + lo) ≈ sin hi + lo·cos hi``.
4. The ``k mod 4`` quarter turns are applied exactly: ``wx = C·c + S·s``, ``wy = −S·c + C·s`` with
   ``C, S`` in ``{0, ±1}``, where one product is an exact zero; this also turns ``−0.0`` into 0.0.

The stored direction is therefore within about one ulp of ``(cos θ, sin θ)`` for the float θ
given, except for the quarter turns of step 2. ``angle + pi`` is a different float rotation and is *not* promised to store ``−w``.

Below ``REDUCE_LIMIT`` the four steps are :func:`collide2d._kernels.angles.direction_reduced`, one
function that Python runs for single shapes and Numba compiles for batches; this module adds the
exact reduction beyond it and the array paths.

References: W. J. Cody and W. Waite, *Software Manual for the Elementary Functions* (1980), ch. 8;
M. H. Payne and R. N. Hanek, "Radian reduction for trigonometric functions", SIGNUM Newsl. 18
(1983); fdlibm ``e_rem_pio2.c`` (Sun Microsystems, 1993); D. E. Knuth, TAOCP vol. 2, 4.2.2
(two-sum); J.-M. Muller, *Elementary Functions*, 3rd ed. (2016), ch. 11.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d._kernels.angles import QUARTER_C, QUARTER_S, REDUCE_LIMIT, SNAP, direction_reduced

QUARTER_TURN_LIMIT = 2.0**50 * math.pi  # ... while |theta| is below it (SNAP*|theta| < pi/4)

_PI_BITS = 1400  # covers |theta| up to 2**1024 with 2**-300 rad to spare
_HALF_PI_FIXED: list[int] = []  # round(pi/2 * 2**_PI_BITS), computed on first use


def _atan_inverse_fixed(x, one):
    """arctan(1/x) * one for an integer x > 1, by its alternating series (integer arithmetic)."""
    power = one // x
    total, n, sign = power, 1, 1
    x2 = x * x
    while power:
        power //= x2
        n += 2
        sign = -sign
        total += sign * (power // n)
    return total


def half_pi_fixed():
    """``round(pi/2 * 2**_PI_BITS)`` (Machin: pi/4 = 4 arctan(1/5) - arctan(1/239)), cached."""
    if not _HALF_PI_FIXED:
        guard = 32
        one = 1 << (_PI_BITS + guard)
        quarter_pi = 4 * _atan_inverse_fixed(5, one) - _atan_inverse_fixed(239, one)
        _HALF_PI_FIXED.append((2 * quarter_pi + (1 << (guard - 1))) >> guard)
    return _HALF_PI_FIXED[0]


def reduce_exact(theta):
    """``(hi, lo, k mod 4)`` for any finite float ``theta``: ``theta - k pi/2 = hi + lo``, exactly
    rounded to a double-double (used above ``REDUCE_LIMIT``)."""
    num, den = theta.as_integer_ratio()  # den is a power of two not above 2**1074 < 2**_PI_BITS
    x = num * ((1 << _PI_BITS) // den)
    half_pi = half_pi_fixed()
    k = (2 * x + half_pi) // (2 * half_pi)  # round(x / half_pi), ties up
    rest = x - k * half_pi
    hi = rest / (1 << _PI_BITS)  # correctly rounded (integer true division)
    hi_num, hi_den = hi.as_integer_ratio()
    lo = (rest - hi_num * ((1 << _PI_BITS) // hi_den)) / (1 << _PI_BITS)
    return hi, lo, k & 3


def direction_scalar(theta):
    """``(wx, wy)`` for any finite Python float ``theta``."""
    if -REDUCE_LIMIT < theta < REDUCE_LIMIT:
        return direction_reduced(theta)
    hi, lo, quarter = reduce_exact(theta)
    if abs(hi) <= SNAP * abs(theta) and abs(theta) < QUARTER_TURN_LIMIT:  # a quarter turn (step 2)
        hi = lo = 0.0
    c0, s0 = math.cos(hi), math.sin(hi)
    c, s = c0 - s0 * lo, s0 + c0 * lo
    cq, sq = QUARTER_C[quarter], QUARTER_S[quarter]
    return cq * c + sq * s, -sq * c + cq * s


COMPILED_FROM = 64  # arrays of at least this many angles use the compiled loop


def fix_large(theta, w):
    """Overwrite the rows of ``w`` (flat ``(n, 2)``) whose angle is beyond ``REDUCE_LIMIT``."""
    for i in np.flatnonzero(np.isnan(w[:, 0])):
        w[i] = direction_scalar(float(theta[i]))


def direction(theta):
    """Directions ``(..., 2)`` for an array of finite angles (see the module notes)."""
    theta = np.array(theta, dtype=np.float64)  # a copy: the compiled loop sees one array type
    flat = theta.reshape(-1)
    w = np.empty((flat.size, 2))
    if flat.size < COMPILED_FROM:
        for i, value in enumerate(flat.tolist()):
            w[i] = direction_scalar(value)
    else:
        from collide2d._kernels.construct import direction_loop

        if direction_loop(flat, w):
            fix_large(flat, w)
    return w.reshape(theta.shape + (2,))


def angle_of(w):
    """``atan2(wy, wx)`` of directions ``(..., 2)``, with the C library's ``atan2`` as for single
    shapes (``math.atan2``); a new writable array."""
    w = np.array(w, dtype=np.float64)  # a copy: the compiled loop sees one array type
    flat = w.reshape(-1, 2)
    out = np.empty(len(flat))
    if len(flat) < COMPILED_FROM:
        for i, (x, y) in enumerate(flat.tolist()):
            out[i] = math.atan2(y, x)
    else:
        from collide2d._kernels.construct import atan2_loop

        atan2_loop(flat, out)
    return out.reshape(w.shape[:-1])


def fill_ellipse_rows(theta, rows):
    """Write the directions of ``theta`` (flat, writable) into ellipse rows ``(n, 6)`` whose
    centre and radii are filled; ``(1, 0)`` where the radii are equal (a circle)."""
    if len(theta) < COMPILED_FROM:
        rows[:, 4:6] = direction(theta)
        rows[rows[:, 2] == rows[:, 3], 4:6] = (1.0, 0.0)
        return
    from collide2d._kernels.construct import ellipse_direction_loop

    if ellipse_direction_loop(theta, rows):
        fix_large(theta, rows[:, 4:6])


def eigen_2x2(p, r, q):
    """Closed-form eigen-decomposition of symmetric ``[[p, r], [r, q]]`` (arrays, ``p, q > 0``).

    Returns ``(big, small, det, vx, vy)``: the eigenvalues ``big >= small``, the determinant and
    an eigenvector ``(vx, vy)`` of ``big`` (not normalised). ``big = m + h`` with ``m = (p + q)/2``,
    ``h = hypot((p - q)/2, r)`` has no cancellation; ``small = det / big`` avoids the cancellation
    of ``m - h``, with ``det = p q - r²`` from error-free products (Dekker's two-product) so that
    nearly singular matrices keep their small eigenvalue. The eigenvector is
    ``(d + h, r)`` when ``d = (p - q)/2 >= 0`` and ``(r, h - d)`` otherwise, both sums of
    same-sign terms. Golub and Van Loan, *Matrix Computations*, 4th ed., 8.5.2 (the symmetric
    Schur decomposition); T. J. Dekker, Numer. Math. 18 (1971) (two-product).
    """
    d = 0.5 * p - 0.5 * q
    m = 0.5 * p + 0.5 * q
    h = np.hypot(d, r)
    big = m + h
    pq, pq_err = _two_product(p, q)
    rr, rr_err = _two_product(r, r)
    det = (pq - rr) + (pq_err - rr_err)
    small = det / big
    positive = d >= 0
    vx = np.where(positive, d + h, r)
    vy = np.where(positive, r, h - d)
    return big, small, det, vx, vy


def _split(x):
    """Veltkamp's split: ``x == high + low`` with 26-bit halves."""
    t = 134217729.0 * x  # 2**27 + 1
    high = t - (t - x)
    return high, x - high


def _two_product(x, y):
    """Dekker's two-product: ``x*y == product + error`` exactly (no overflow assumed)."""
    product = x * y
    xh, xl = _split(x)
    yh, yl = _split(y)
    error = ((xh * yh - product) + xh * yl + xl * yh) + xl * yl
    return product, error
