"""2-vector helpers and the filtered sign test that every exact predicate is built on.

Error bounds (Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., section 3.1):
if a polynomial is evaluated in float64 with at most ``k`` rounded operations on any path from the
inputs, the computed value differs from the exact one by at most ``gamma_k * P`` where ``P`` is the
same expression evaluated on absolute values with every subtraction turned into an addition (its
*magnitude*) and ``gamma_k = k u / (1 - k u) < (k + 1) u`` for ``u = 2**-53``. Kernels pass
``magnitude * (K * eps)`` with ``K`` at least ``k + 2`` (one extra for rounding the magnitude itself).
This holds while no intermediate underflows into subnormals or overflows, i.e. for coordinates
between about 1e-70 and 1e70; infinite magnitudes make the sign UNKNOWN and go to the exact path.
"""

import math

from collide2d._jit import kernel

from .codes import UNKNOWN_SIGN


@kernel
def certain_sign(value, bound):
    """Return the sign (1, -1, 0) of an exact quantity whose float value is ``value`` within ``bound``.

    ``UNKNOWN_SIGN`` when ``|value| <= bound`` and ``bound > 0``. With ``bound == 0`` the value is
    exact (all terms were zero, or the kernel runs on Fractions) and its sign is returned as is.
    """
    if value > bound:
        return 1
    if value < -bound:
        return -1
    if bound == 0:
        if value > 0:
            return 1
        if value < 0:
            return -1
        return 0
    return UNKNOWN_SIGN


@kernel
def orient(ax, ay, bx, by, cx, cy, eps):
    """Sign of the turn a -> b -> c: 1 left (counter-clockwise), -1 right, 0 collinear.

    ``(b - a) x (c - a)``: three rounded differences, two products, one difference: k = 4
    (Shewchuk 1997 gives the sharper ``3u + 16u^2`` for this expression); K = 6.
    """
    abx = bx - ax
    aby = by - ay
    acx = cx - ax
    acy = cy - ay
    value = abx * acy - aby * acx
    magnitude = abs(abx * acy) + abs(aby * acx)
    return certain_sign(value, magnitude * (6 * eps))


@kernel
def dot_sign(ax, ay, bx, by, cx, cy, dx, dy, eps):
    """Sign of ``(b - a) . (d - c)``; K = 6 as for :func:`orient`."""
    ux = bx - ax
    uy = by - ay
    vx = dx - cx
    vy = dy - cy
    value = ux * vx + uy * vy
    magnitude = abs(ux * vx) + abs(uy * vy)
    return certain_sign(value, magnitude * (6 * eps))


# Sums of squares strictly between these bounds took no overflow and lost nothing that matters to
# underflow (see :func:`hypot`).
_SQUARES_LO = 2.0**-960
_SQUARES_HI = 2.0**960


@kernel
def hypot(x, y):
    """``sqrt(x^2 + y^2)`` within 1.5 ulps, about ten times faster than ``math.hypot``.

    glibc's ``hypot`` is correctly rounded to within 1 ulp but costs about 22 ns, the plain
    ``sqrt(x*x + y*y)`` about 2 ns: three roundings of relative size ``u`` (two squares, one sum)
    give ``3u`` on the square and ``1.5u`` after the square root, plus ``u`` for rounding the
    root. The plain formula is used when the sum of squares ``q`` lies in ``(2^-960, 2^960)``:
    then no square overflowed, and the larger square is a normal number at least ``q / 2``, so a
    square that underflowed changed ``q`` by at most ``2^-1074``, a relative ``2^-113``. Outside
    that range (and for inf or NaN) ``math.hypot`` decides.
    """
    q = x * x + y * y
    if _SQUARES_LO < q < _SQUARES_HI:
        return math.sqrt(q)
    return math.hypot(x, y)


# -- error-free transformations ----------------------------------------------------------------------

_SPLITTER = 134217729.0  # 2**27 + 1: splits a double into two halves of at most 26 bits (Dekker)


@kernel
def two_sum(a, b):
    """``a + b = s + e`` exactly (Knuth)."""
    s = a + b
    bv = s - a
    av = s - bv
    return s, (a - av) + (b - bv)


@kernel
def two_product(a, b):
    """``a b = p + e`` exactly (Dekker; :data:`_SPLITTER` splits a float64 in two halves)."""
    p = a * b
    c = _SPLITTER * a
    ahi = c - (c - a)
    alo = a - ahi
    c = _SPLITTER * b
    bhi = c - (c - b)
    blo = b - bhi
    return p, alo * blo - (((p - ahi * bhi) - alo * bhi) - ahi * blo)


# -- exact float stage: operations that either are exact or say so ------------------------------
# When a filter's bound cannot settle a sign, the same polynomial is evaluated once more with every
# ``*`` and ``+`` checked by an error-free transformation: Knuth's TwoSum (Knuth, TAOCP vol. 2,
# 4.2.2, theorem B) and Dekker's splitting TwoProduct (Dekker, "A floating-point technique for
# extending the available precision", Numer. Math. 18, 1971; Numba offers no fused multiply-add).
# An operation whose rounding error is not zero returns NaN, which then propagates through every
# later operation and fails every comparison; a value that comes out finite was computed without
# any rounding, so its sign is exact. This settles the inputs that carry few significant bits
# (integers, lattices, dyadic sizes and offsets, exact quarter turns), which are exactly the ones
# that make shapes touch exactly; the others keep the exact rational path. Float mode only.

_PRODUCT_LO = 2.0**-900  # a non-zero product below this may have lost bits to underflow
_PRODUCT_HI = 2.0**900  # above this the splitting of a factor may overflow


@kernel
def exact_add(x, y):
    """``x + y`` if the float sum is exact, else NaN (TwoSum: the rounding error is computed exactly)."""
    s, err = two_sum(x, y)
    if err == 0.0:
        return s
    return math.nan  # also for inf and NaN inputs: err is NaN


@kernel
def exact_mul(x, y):
    """``x * y`` if the float product is exact, else NaN (Dekker's TwoProduct).

    Dekker's error term is exact while no partial product underflows and no split overflows,
    which holds for products of magnitude in ``(2**-900, 2**900)``; a non-zero product outside
    that range is reported as inexact. A zero factor gives an exact zero.
    """
    p = x * y
    if x == 0.0 or y == 0.0:
        return p
    if not (_PRODUCT_LO < abs(p) < _PRODUCT_HI):
        return math.nan
    err = two_product(x, y)[1]
    if err == 0.0:
        return p
    return math.nan


@kernel
def exact_sign(value):
    """Sign (1, -1, 0) of a value from :func:`exact_add` / :func:`exact_mul`, ``UNKNOWN_SIGN`` if NaN."""
    if value > 0.0:
        return 1
    if value < 0.0:
        return -1
    if value == 0.0:
        return 0
    return UNKNOWN_SIGN


@kernel
def short(x):
    """True when ``x`` has at most 26 significant bits (its low Dekker half is zero).

    A cheap hint, not a proof: products of such numbers are exact, so the exact float stage is
    likely to succeed and worth trying before a longer float computation.
    """
    t = _SPLITTER * x
    return x - (t - (t - x)) == 0.0


@kernel
def xmul(x, y, checked):
    """``x * y``; with ``checked`` (float mode) exact or NaN (:func:`exact_mul`).

    Kernels write the products and sums that decide a sign with :func:`xmul` and :func:`xadd`
    and test the sign with :func:`xsign`: run with ``checked`` false they are the plain float
    (or Fraction) operations; a second run with ``checked`` true is the exact float stage.
    """
    if checked:
        return exact_mul(x, y)
    return x * y


@kernel
def xadd(x, y, checked):
    """``x + y``; with ``checked`` (float mode) exact or NaN (:func:`exact_add`)."""
    if checked:
        return exact_add(x, y)
    return x + y


@kernel
def xsign(value, bound, checked):
    """Sign of a value within ``bound`` (:func:`certain_sign`); with ``checked`` the value is
    exact or NaN and the bound is not needed (:func:`exact_sign`)."""
    if checked:
        return exact_sign(value)
    return certain_sign(value, bound)
