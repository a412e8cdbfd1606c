"""Circles and polygons on a grid of their centres: the fast paths of ``query_pairs`` for one kind.

For circles the bounding-circle filter (:func:`sweep.circle_pair_status`) is the whole
question up to rounding, so the broad phase needs no boxes: the centres are sorted into square
cells of side ``h`` by a counting sort (:func:`centre_cells`) and each circle meets the circles of
its own and the eight neighbouring cells (:func:`neighbour_ranges`: each pair of cells once),
the filter deciding each pair as soon as it is found (:func:`circle_rows`). The pairs the filter
leaves open (within a few ulps of touching, or of the distance asked for) are marked; the glue
decides them with the narrow phase of the general path.

Why the neighbouring cells suffice: the filter answers "apart" for every pair whose centres are
farther than ``r_i + r_j + gap`` apart by more than its margin and rounding (a few dozen ulps,
``u = 2**-53``), so a pair it does not reject has ``|dx|, |dy| <= (2 r_max + gap) (1 + 2**-40)``.
With ``h >= (2 r_max + gap) (1 + 2**-10)`` the scaled offsets differ by less than ``1 - 2**-11``;
the cell coordinate ``t = (x - x0) / h`` is computed with a relative error of a few ``u`` and
``t < 2**32`` (the glue keeps at most a few cells per circle), so the two floors, clamped to the
grid (:func:`sweep.cell_of`, monotone), differ by at most one.

Polygons take the same grid over the centres of their boxes (:func:`box_rows`), with cells at
least as wide as the widest box: two closed boxes meet only if their centres are at most half
the sum of their widths apart in each axis, which is at most the widest.

Each pair is met once; rows are written count-then-fill at positions fixed by prefix sums, so the
result does not depend on the number of threads.
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
def centre_cells(x, y, x0, y0, inv, nx, ny):
    """Counting sort of the points ``(x[i], y[i])`` into ``nx * ny`` cells (stable).

    Returns ``(start, order, pcell)``: the points of cell ``c = cy * nx + cx`` are the entries
    ``start[c] .. start[c + 1] - 1``; entry ``k`` is point ``order[k]``, in cell ``pcell[k]``.
    """
    n = x.shape[0]
    cells = nx * ny
    cell = np.empty(n, dtype=np.int64)
    start = np.zeros(cells + 1, dtype=np.int64)
    for i in range(n):
        c = cell_of(y[i], y0, inv, ny) * nx + cell_of(x[i], x0, inv, nx)
        cell[i] = c
        start[c + 1] += 1
    for c in range(cells):
        start[c + 1] += start[c]
    fill = start[:-1].copy()
    order = np.empty(n, dtype=np.int64)
    pcell = np.empty(n, dtype=np.int64)
    for i in range(n):
        c = cell[i]
        k = fill[c]
        fill[c] = k + 1
        order[k] = i
        pcell[k] = c
    return start, order, pcell


@kernel
def neighbour_ranges(k, pcell, start, nx, ny):
    """The entries that entry ``k`` meets, as two ranges ``m0 .. m1 - 1`` and ``m2 .. m3 - 1``:
    the later entries of its own cell and of the cell to its right, and the entries of the three
    cells below-left, below and below-right (row ``cy + 1``). Over all entries, every pair of
    entries in the same or neighbouring cells comes once. In the packed order, cells next to
    each other in a grid row are next to each other in memory: hence two contiguous ranges."""
    cy = pcell[k] // nx
    cx = pcell[k] - cy * nx
    m1 = start[cy * nx + min(cx + 1, nx - 1) + 1]
    if cy + 1 >= ny:
        return k + 1, m1, 0, 0
    below = (cy + 1) * nx
    return k + 1, m1, start[below + max(cx - 1, 0)], start[below + min(cx + 1, nx - 1) + 1]


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
    """Count or fill the pairs found from the entries ``k0 .. k1 - 1`` of :func:`centre_cells`
    (``px, py, pr, pid``: centre, radius and row of each entry, in entry order).

    Entry ``k`` meets the entries of :func:`neighbour_ranges`; a pair ``i < j`` is kept unless
    :func:`sweep.circle_pair_status` finds it apart. Counting (``rows`` empty): ``offsets[k]``
    receives the number of pairs of entry ``k``. Filling: they go to ``rows[offsets[k] :]``
    (``i``) and ``keys[offsets[k] :]`` (``2 j + 1`` when the filter cannot decide, ``2 j`` when
    it says they meet: for ``gap > 0``, are within ``gap``).
    """
    for k in prange(k0, k1):
        m0, m1, m2, m3 = neighbour_ranges(k, pcell, start, nx, ny)
        pos = offsets[k] if rows.shape[0] > 0 else 0
        count = _scan(k, m0, m1, px, py, pr, pid, gap, pos, rows, keys)
        count += _scan(k, m2, m3, px, py, pr, pid, gap, pos + count, rows, keys)
        if rows.shape[0] == 0:
            offsets[k] = count


@kernel
def _box_scan(k, m0, m1, bounds, pid, pos, rows, keys):
    """The pairs of entry ``k`` with the entries ``m0 .. m1 - 1`` whose closed boxes meet (rows of
    ``bounds``, indexed by shape), written as in :func:`_scan` (key ``2 j``)."""
    write = rows.shape[0] > 0
    count = 0
    p = pid[k]
    for m in range(m0, m1):
        q = pid[m]
        if (bounds[q, 0] > bounds[p, 2] or bounds[q, 2] < bounds[p, 0]
                or bounds[q, 1] > bounds[p, 3] or bounds[q, 3] < bounds[p, 1]):
            continue
        if write:
            rows[pos + count] = min(p, q)
            keys[pos + count] = 2 * max(p, q)
        count += 1
    return count


@loop(pieces=_RANGE)
def box_rows(k0, k1, bounds, pid, pcell, start, nx, ny, unused, offsets, rows, keys):
    """As :func:`circle_rows` for boxes (rows of ``bounds``; entry ``k`` is box ``pid[k]``): the
    pairs ``i < j`` whose closed boxes meet, all with key ``2 j`` (``unused``: the place of the
    circles' gap)."""
    for k in prange(k0, k1):
        m0, m1, m2, m3 = neighbour_ranges(k, pcell, start, nx, ny)
        pos = offsets[k] if rows.shape[0] > 0 else 0
        count = _box_scan(k, m0, m1, bounds, pid, pos, rows, keys)
        count += _box_scan(k, m2, m3, bounds, pid, pos + count, rows, keys)
        if rows.shape[0] == 0:
            offsets[k] = count
