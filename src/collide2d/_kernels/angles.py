"""The angle reduction of one float: ``theta`` to the direction ``(cos theta, sin theta)`` stored
for it, for ``|theta| < REDUCE_LIMIT``.

Plain float arithmetic and ``math`` only, so that one function serves both paths:
:mod:`collide2d._angles` runs :func:`direction_reduced` as Python for single shapes, and
:mod:`construct` compiles the very same function for batches; a shape therefore stores the same
bits whichever path built it. The method (Cody and Waite's reduction with pi/2 in three pieces,
the quarter-turn snap, the first-order correction for the low part, the exact quarter turns) and
the exact reduction beyond ``REDUCE_LIMIT`` are described in :mod:`collide2d._angles`.

References: W. J. Cody and W. Waite, *Software Manual for the Elementary Functions* (1980), ch. 8;
fdlibm ``e_rem_pio2.c`` (Sun Microsystems, 1993); D. E. Knuth, TAOCP vol. 2, 4.2.2 (two-sum).
"""

import math

# pi/2 = P1 + P2 + P2T + O(2e-37), fdlibm e_rem_pio2.c: pio2_1, pio2_2 (33 bits each), pio2_2t.
P1 = float.fromhex("0x1.921fb544p+0")  # 1.57079632673412561417e+00
P2 = float.fromhex("0x1.0b4611a6p-34")  # 6.07710050630396597660e-11
P2T = float.fromhex("0x1.3198a2e037073p-69")  # 2.02226624879595063154e-21
TWO_OVER_PI = 2.0 / math.pi
REDUCE_LIMIT = 1.0e6  # |theta| below it: |k| < 2**20, so k*P1 and k*P2 are exact products
SNAP = 2.0**-52  # |r| <= SNAP*|theta| (about one ulp of theta) is taken as an exact quarter turn
# An angle below TURN_FLOOR is no turn: (1, 0), within 2**-100 of (cos θ, sin θ). A direction
# given by the caller is stored exactly instead; collide2d._magnitude sends the rows whose
# components differ by more than this to the exact predicates (a component of 1e-162 squared
# underflows in the float kernels).
TURN_FLOOR = 2.0**-100

# Quarter-turn factors for k mod 4 = 0, 1, 2, 3: (wx, wy) = (C c + S s, -S c + C s).
QUARTER_C = (1.0, 0.0, -1.0, 0.0)
QUARTER_S = (0.0, -1.0, 0.0, 1.0)


def direction_reduced(theta):
    """``(wx, wy)`` for one float ``theta`` with ``|theta| < REDUCE_LIMIT``, else ``(nan, nan)``.

    Plain float arithmetic and ``math`` only: Python runs it for single shapes, and Numba
    compiles the very same function for batches (:mod:`construct`), so both paths store the same
    bits.
    """
    if not -REDUCE_LIMIT < theta < REDUCE_LIMIT:
        return math.nan, math.nan
    k = math.floor(theta * TWO_OVER_PI + 0.5)  # the nearest integer (either one at a tie)
    if k == 0.0:
        if -TURN_FLOOR < theta < TURN_FLOOR:  # a turn below 2**-100 rad: none (see TURN_FLOOR)
            return 1.0, 0.0
        return math.cos(theta), math.sin(theta) + 0.0
    r1 = theta - k * P1  # exact (see collide2d._angles, step 1)
    w = -(k * P2)  # exact
    hi = r1 + w  # two-sum: hi + lo == r1 + w exactly
    bb = hi - r1
    lo = (r1 - (hi - bb)) + (w - bb)
    lo = lo - k * P2T
    s = hi + lo  # two-sum again, to renormalise
    bb = s - hi
    lo = (hi - (s - bb)) + (lo - bb)
    hi = s
    if abs(hi) <= SNAP * abs(theta):
        hi = 0.0
        lo = 0.0
    quarter = int(k) & 3
    c0, s0 = math.cos(hi), math.sin(hi)
    c, s = c0 - s0 * lo, s0 + c0 * lo
    cq, sq = QUARTER_C[quarter], QUARTER_S[quarter]
    return cq * c + sq * s, -sq * c + cq * s
