"""Circles on a grid of their centres: the fast path of ``query_pairs`` among circles.

For circles the bounding-circle filter (:func:`sweep.circle_pair_status`) is the whole
question up to rounding, so the broad phase needs no boxes: the centres are sorted into square
cells of side ``h`` by a counting sort (:func:`circle_cells`) and each circle meets the circles of
its own and the eight neighbouring cells (:func:`circle_rows`), the filter deciding each pair as
soon as it is found. The pairs the filter leaves open (within a few ulps of touching, or of the
distance asked for) come back as ``-1 - j``; the glue decides them with the exact narrow phase.

Why the neighbouring cells suffice: the filter answers "apart" for every pair whose centres are
farther than ``r_i + r_j + gap`` apart by more than its margin and rounding (a few dozen ulps,
``u = 2**-53``), so a pair it does not reject has ``|dx|, |dy| <= (2 r_max + gap) (1 + 2**-40)``. With ``h >= (2 r_max + gap) (1 + 2**-10)`` the
scaled offsets differ by less than ``1 - 2**-11``; the cell coordinate ``t = (x - x0) / h`` is
computed with a relative error of a few ``u`` and ``t < 2**32`` (the glue keeps at most about
``2 n`` cells), so the two floors, clamped to the grid (:func:`sweep.cell_of`, monotone), differ
by at most one. Each pair is met once, from its smaller index; rows are written count-then-fill at
positions fixed by prefix sums, so the result does not depend on the number of threads.
"""

import math

import numpy as np
from numba import prange

from collide2d._jit import kernel, loop

from .bounds import widen
from .sweep import _RANGE, cell_of, circle_pair_status


@kernel
def circle_extent(params):
    """``(all_circles, x0, y0, x1, y1, r_min, r_max)`` of the ellipse rows ``cx, cy, a, b, wx, wy``:
    whether every row has ``a == b``, the range of the centres and of the radii (stops at the first
    row that is not a circle)."""
    x0 = y0 = r_min = math.inf
    x1 = y1 = r_max = -math.inf
    for i in range(params.shape[0]):
        r = params[i, 2]
        if params[i, 3] != r:
            return False, x0, y0, x1, y1, r_min, r_max
        x0, y0, x1, y1 = widen(x0, y0, x1, y1, params[i, 0], params[i, 1])
        r_min = min(r_min, r)
        r_max = max(r_max, r)
    return True, x0, y0, x1, y1, r_min, r_max


@kernel
def circle_cells(params, x0, y0, inv, nx, ny):
    """Counting sort of the circles into ``nx * ny`` cells by their centre (stable).

    Returns ``(start, px, py, pr, pid, pcell)``: the circles of cell ``c = cy * nx + cx`` are the
    entries ``start[c] .. start[c + 1] - 1``, entry ``k`` holding the centre, the radius, the row
    ``pid[k]`` and the cell ``pcell[k]`` of one circle, so that the row pass reads them in order.
    """
    n = params.shape[0]
    cells = nx * ny
    cell = np.empty(n, dtype=np.int64)
    start = np.zeros(cells + 1, dtype=np.int64)
    for i in range(n):
        c = cell_of(params[i, 1], y0, inv, ny) * nx + cell_of(params[i, 0], x0, inv, nx)
        cell[i] = c
        start[c + 1] += 1
    for c in range(cells):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    px = np.empty(n)
    py = np.empty(n)
    pr = np.empty(n)
    pid = np.empty(n, dtype=np.int64)
    pcell = np.empty(n, dtype=np.int64)
    for i in range(n):
        c = cell[i]
        k = fill[c]
        fill[c] = k + 1
        px[k] = params[i, 0]
        py[k] = params[i, 1]
        pr[k] = params[i, 2]
        pid[k] = i
        pcell[k] = c
    return start, px, py, pr, pid, pcell


@kernel
def _scan(k, m0, m1, px, py, pr, pid, gap, pos, rows, keys):
    """The pairs of entry ``k`` with the entries ``m0 .. m1 - 1`` that the filter does not find
    apart: written from ``rows[pos]``, ``keys[pos]`` on unless ``rows`` is empty. Returns their number."""
    write = rows.shape[0] > 0
    count = 0
    for m in range(m0, m1):
        i = min(pid[k], pid[m])
        j = max(pid[k], pid[m])
        a = k if pid[k] == i else m
        b = m if a == k else k
        # the test ``sweep.ellipse_pair_filter`` makes on the pair (i, j): offset c_j - c_i, bound r_i + r_j + gap
        reach = pr[a] + pr[b] + gap
        status = circle_pair_status(px[b] - px[a], py[b] - py[a], reach, reach)
        if status == 0:
            continue
        if write:
            rows[pos + count] = i
            keys[pos + count] = 2 * j + (1 if status == 2 else 0)
        count += 1
    return count


@loop(pieces=_RANGE)
def circle_rows(k0, k1, px, py, pr, pid, pcell, start, nx, ny, gap, offsets, rows, keys):
    """Count or fill the pairs found from the entries ``k0 .. k1 - 1`` of :func:`circle_cells`.

    Entry ``k`` meets the later entries of its own cell and of the cell to its right, and the
    entries of the three cells below-left, below and below-right (with ``cy + 1``): each pair of
    neighbouring cells once. In the packed order, the cells of one grid row that are next to each
    other are next to each other in memory, so that is two contiguous ranges of entries. A pair
    ``i < j`` is kept unless :func:`sweep.circle_pair_status` finds it apart.

    Counting (``rows`` empty): ``offsets[k]`` receives the number of pairs of entry ``k``.
    Filling: they go to ``rows[offsets[k] :]`` (``i``) and ``keys[offsets[k] :]`` (``2 j + 1`` when
    the filter cannot decide, ``2 j`` when it says they meet: for ``gap > 0``, are within ``gap``).
    """
    write = rows.shape[0] > 0
    for k in prange(k0, k1):
        cy = pcell[k] // nx
        cx = pcell[k] - cy * nx
        pos = offsets[k] if write else 0
        right = cy * nx + min(cx + 1, nx - 1) + 1
        count = _scan(k, k + 1, start[right], px, py, pr, pid, gap, pos, rows, keys)
        if cy + 1 < ny:
            below = (cy + 1) * nx
            count += _scan(k, start[below + max(cx - 1, 0)], start[below + min(cx + 1, nx - 1) + 1],
                           px, py, pr, pid, gap, pos + count, rows, keys)
        if not write:
            offsets[k] = count
