"""Rigid motions of kernel parameter rows: a turn by ``(c, s) = (cos, sin)`` about ``(ox, oy)``,
then a shift by ``(dx, dy)``.

A pure shift rounds each coordinate once (exact whenever the shifted value is a float). A quarter
turn (``c, s`` in ``{-1, 0, 1}``) is exact up to one final rounding of each coordinate: the
coordinate is a sum of a few floats, summed as an exact expansion (Knuth's TwoSum, as in
:mod:`collide2d._kernels.vec`) and rounded once to nearest, ties to even (the method of
Shewchuk's *Adaptive precision floating-point arithmetic*, 1997, and of Python's ``math.fsum``).
Any other turn is evaluated in plain floats, a few ulps of the coordinates.
"""

from collide2d._jit import kernel

from ..vec import two_sum


@kernel
def _grow(p0, p1, p2, n, x):
    """Add ``x`` to the non-overlapping expansion ``p0 .. p(n-1)`` (increasing magnitude)."""
    q0 = 0.0
    q1 = 0.0
    q2 = 0.0
    m = 0
    for i in range(n):
        y = p0 if i == 0 else (p1 if i == 1 else p2)
        x, lo = two_sum(x, y)
        if lo != 0.0:
            if m == 0:
                q0 = lo
            elif m == 1:
                q1 = lo
            else:
                q2 = lo
            m += 1
    if m == 0:
        q0 = x
    elif m == 1:
        q1 = x
    else:
        q2 = x
    return q0, q1, q2, m + 1


@kernel
def rounded_sum3(a, b, c):
    """``a + b + c`` rounded once, to nearest with ties to even (three floats; no overflow)."""
    p0, p1, p2, n = _grow(0.0, 0.0, 0.0, int(0), a)
    p0, p1, p2, n = _grow(p0, p1, p2, n, b)
    p0, p1, p2, n = _grow(p0, p1, p2, n, c)
    # the components are non-overlapping, increasing: round from the top
    n -= 1
    hi = p0 if n == 0 else (p1 if n == 1 else p2)
    lo = 0.0
    while n > 0:
        x = hi
        n -= 1
        y = p0 if n == 0 else p1
        hi = x + y
        lo = y - (hi - x)
        if lo != 0.0:
            break
    if n > 0:
        below = p0 if n == 1 else p1
        if (lo < 0.0 and below < 0.0) or (lo > 0.0 and below > 0.0):
            y = lo * 2.0
            x = hi + y
            if y == x - hi:  # the rounded sum was a tie broken the wrong way
                hi = x
    return hi


@kernel
def is_quarter(c, s):
    """Whether ``(c, s)`` is an exact quarter turn (one of ``(±1, 0)``, ``(0, ±1)``)."""
    return (c == 0.0 and (s == 1.0 or s == -1.0)) or (s == 0.0 and (c == 1.0 or c == -1.0))


@kernel
def move_xy(x, y, ox, oy, c, s, dx, dy):
    """The point ``(x, y)`` turned by ``(c, s)`` about ``(ox, oy)``, then shifted by ``(dx, dy)``."""
    if c == 1.0 and s == 0.0:
        return x + dx, y + dy
    if is_quarter(c, s) and dx == 0.0 and dy == 0.0:
        # x' = ox + c (x - ox) - s (y - oy): each product is exact, the sum has at most 3 terms
        if s == 0.0:  # a half turn: x' = 2 ox - x, one rounding
            return 2.0 * ox - x, 2.0 * oy - y
        return rounded_sum3(ox, s * oy, -s * y), rounded_sum3(oy, -s * ox, s * x)
    rx = x - ox
    ry = y - oy
    return (ox + (c * rx - s * ry)) + dx, (oy + (s * rx + c * ry)) + dy


@kernel
def turn_vector(x, y, c, s):
    """The vector ``(x, y)`` turned by ``(c, s)`` (exact for quarter turns)."""
    return c * x - s * y, s * x + c * y  # a quarter turn: one product of each pair is 0, no rounding
