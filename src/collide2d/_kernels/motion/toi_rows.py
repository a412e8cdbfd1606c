"""The rows of the compiled translation search for a whole batch, in one pass.

:class:`collide2d.motion.search._Motion` builds the frame of each pair and its rows with a few
dozen NumPy calls over the batch (reference points, extents, the frame, the shapes shifted into
it, the table of numbers :data:`.toi.ROW`); for the kinds without vertex lists (ellipses,
segments, lines, points) :func:`translation_rows` computes the same floats, operation for
operation, in one compiled pass, so that a translating batch costs its search and little more.

Per pair ``k`` (rows ``pa[ia[k]]``, ``pb[ib[k]]``), as there:

* the reference point (the centre of an ellipse, the midpoint of a segment, a line's point, the
  point) and the extent about it (the larger semi-axis, the farther end, 0 for a point, inf for a
  line), the extent rounded up by ``1 + 8 ulp``;
* the frame ``c``: the reference point of ``a`` rounded to a multiple of the power of two ``G >= 2
  D``, ``D = max(r_a, |ref_b - ref_a| + r_b)`` over the finite extents (see
  :func:`collide2d.motion.search._frame_offsets`, which derives why ``x - c`` is exact there;
  ``c = ref_a`` where the rounding overflows);
* when any pair of the batch has a frame other than 0, every pair's rows shifted by ``-c`` (the
  floats of ``move_<kind>_loop`` of :mod:`.loops` with the turn ``(1, 0)``: a point ``+ (dx,
  dy)``, a direction ``(1 x - 0 y, 0 x + 1 y)``), its reference points those of the shifted rows
  and its given ``b`` unshifted (``gdx = gdy = 0``); else the rows as given, indexed by ``ia``,
  ``ib``, and ``gd = (v_b - v_a) 0``.

The helpers read rows by index (no array views: a view per row, and its reference count, would
cost more than the arithmetic).
"""

import math

import numpy as np
from numba.extending import register_jitable

from collide2d._jit import kernel

from .toi import ELLIPSE, LINE, SEGMENT

GROW = 1.0 + 8 * 2.0**-52  # the extents rounded up (collide2d.motion.rigid._extents)
TINY = 2.2250738585072014e-308  # the smallest normal float: the frame of a pair of extent 0


@register_jitable
def _reach(kind, p, i):
    """Reference point and extent of row ``i`` of ``p`` (a line's extent: inf)."""
    if kind == SEGMENT:
        rx = 0.5 * (p[i, 0] + p[i, 2])
        ry = 0.5 * (p[i, 1] + p[i, 3])
        r = max(math.hypot(p[i, 0] - rx, p[i, 1] - ry), math.hypot(p[i, 2] - rx, p[i, 3] - ry))
    elif kind == ELLIPSE:
        rx, ry, r = p[i, 0], p[i, 1], max(p[i, 2], p[i, 3])
    elif kind == LINE:
        rx, ry, r = p[i, 0], p[i, 1], math.inf
    else:
        rx, ry, r = p[i, 0], p[i, 1], 0.0
    return rx, ry, r * GROW


@register_jitable
def _grid_point(x, grid):
    """``x`` rounded to a multiple of ``grid`` (exact: scaling by a power of two, an integer,
    scaled back), or ``x`` where ``x / grid`` overflows (a pair of extent 0)."""
    scaled = x / grid
    return np.rint(scaled) * grid if math.isfinite(scaled) else x


@register_jitable
def _shifted(kind, p, i, dx, dy, out, k):
    """``out[k]`` = row ``i`` of ``p`` shifted by ``(dx, dy)`` (see the module notes)."""
    out[k, 0] = p[i, 0] + dx
    out[k, 1] = p[i, 1] + dy
    if kind == SEGMENT:
        out[k, 2] = p[i, 2] + dx
        out[k, 3] = p[i, 3] + dy
        return
    j = 4 if kind == ELLIPSE else 2  # the column of the direction (of an ellipse, a line)
    if kind == ELLIPSE:
        out[k, 2] = p[i, 2]
        out[k, 3] = p[i, 3]
    if kind == ELLIPSE or kind == LINE:
        out[k, j] = 1.0 * p[i, j] - 0.0 * p[i, j + 1]
        out[k, j + 1] = 0.0 * p[i, j] + 1.0 * p[i, j + 1]


@kernel
def translation_rows(kind_a, pa, kind_b, pb, ia, ib, va, vb, wa, wb, t_max):
    """``(shifted, index, numbers, fa, fb)`` of the translating pairs ``pa[ia[k]]``, ``pb[ib[k]]``
    (kind codes of :mod:`.toi`, no polygon): the index table and the numbers (:data:`.toi.ROW`)
    of the loops of :mod:`collide2d._kernels.toi_loops`, and, when ``shifted``, the rows in the
    frame (else ``fa``, ``fb`` are empty: the loops take the rows as given)."""
    n = ia.shape[0]
    numbers = np.empty((n, 16))
    index = np.empty((n, 4), dtype=np.int64)
    shifted = False
    for k in range(n):
        ax, ay, reach_a = _reach(kind_a, pa, ia[k])
        bx, by, reach_b = _reach(kind_b, pb, ib[k])
        finite_a = reach_a if math.isfinite(reach_a) else 0.0
        finite_b = reach_b if math.isfinite(reach_b) else 0.0
        span = max(finite_a, math.hypot(bx - ax, by - ay) + finite_b)
        grid = math.ldexp(1.0, math.frexp(max(2.0 * span, TINY))[1])  # a power of two >= 2 D
        frame_x = _grid_point(ax, grid)
        frame_y = _grid_point(ay, grid)
        shifted = shifted or frame_x != 0.0 or frame_y != 0.0
        numbers[k, 8], numbers[k, 9], numbers[k, 10], numbers[k, 11] = ax, ay, bx, by
        numbers[k, 12], numbers[k, 13] = frame_x, frame_y
        numbers[k, 14] = max(finite_a, finite_b)
    fa = np.empty((n if shifted else 0, pa.shape[1]))
    fb = np.empty((n if shifted else 0, pb.shape[1]))
    for k in range(n):
        if shifted:  # both shifted by -frame once; the given b is searched unshifted
            dx, dy = -numbers[k, 12], -numbers[k, 13]
            _shifted(kind_a, pa, ia[k], dx, dy, fa, k)
            _shifted(kind_b, pb, ib[k], dx, dy, fb, k)
            numbers[k, 8], numbers[k, 9], _ = _reach(kind_a, fa, k)
            numbers[k, 10], numbers[k, 11], _ = _reach(kind_b, fb, k)
            numbers[k, 0] = 0.0
            numbers[k, 1] = 0.0
            index[k, 2] = k
            index[k, 3] = k
        else:  # the search's own evaluation at time 0 (see _Motion.contact)
            numbers[k, 0] = (vb[k, 0] - va[k, 0]) * 0.0
            numbers[k, 1] = (vb[k, 1] - va[k, 1]) * 0.0
            index[k, 2] = ia[k]
            index[k, 3] = ib[k]
        index[k, 0] = ia[k]
        index[k, 1] = ib[k]
        numbers[k, 2], numbers[k, 3], numbers[k, 4], numbers[k, 5] = va[k, 0], va[k, 1], vb[k, 0], vb[k, 1]
        numbers[k, 6], numbers[k, 7] = wa[k], wb[k]
        numbers[k, 15] = t_max[k]
    return shifted, index, numbers, fa, fb
