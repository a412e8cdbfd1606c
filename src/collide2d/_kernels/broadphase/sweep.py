"""Broad-phase kernels: which axis-aligned boxes overlap (closed boxes, comparisons only).

The glue (:mod:`collide2d.broadphase`) describes a query as a list of *elements*, each an
axis-aligned box ``xmin[e], ymin[e], xmax[e], ymax[e]`` (bounds already rounded outward, so that
comparing them is exact for the question "may these shapes touch"):

* element ``e`` is a *query* when ``qid[e] >= 0``; ``qid[e]`` is its row of the result;
* element ``e`` is a *target* when ``tid[e] >= 0``; ``tid[e]`` is its column (several elements may
  share one column: periodic images of one shape);
* in *self* mode a query keeps only targets with ``tid[e] > qid[query]`` (pairs ``i < j`` of one
  collection); otherwise every (query, target) pair counts.

The elements may come in any order; the glue sorts them spatially (grid cell or sweep order)
so that neighbours sit close in memory, and rows are addressed through ``qid``.

Every kernel reports, for each row, the keys ``tid[e] * ne + e`` of the targets whose box overlaps
the query's box (``ne`` the number of elements), each (query, element) pair once. Rows are filled
count-then-fill: a first pass counts each row's pairs, the glue takes the prefix sum, a second
pass writes each row into its own slice, and :func:`sort_rows` sorts every slice. The result is
therefore identical whatever the number of threads.

Three structures share that contract:

* :func:`grid_build` + :func:`grid_rows`: uniform grid over the targets, built with a counting
  sort; a box is inserted into every cell it overlaps and a pair is reported only in the cell that
  holds the corner ``(max(xmin), max(ymin))`` of the two boxes (the "reference point" rule,
  Ericson, *Real-Time Collision Detection*, 2005, chapter 7), so each pair once. The cell of a
  coordinate is a monotone function of it, and that corner lies in both boxes, so its cell is in
  the cell range of both: no pair is lost and none is doubled.
* :func:`sweep_rows`: sweep and prune along x (Baraff 1992): elements sorted by ``xmin``; each
  element scans forward while ``xmin <= its xmax`` and tests y. A pair is found once, from the
  element that comes first in the sorted order; :func:`scatter_rows` then groups pairs by row.
* :func:`brute_rows`: every query against every target (tests, and tiny inputs).
"""

import numpy as np
from numba import prange

from collide2d._jit import kernel, loop

_SHORT_ROW = 24  # rows up to this length are sorted by insertion, longer ones by np.sort


# How the loops below are cut into slices of rows for threads (see collide2d._jit.loop). A loop
# over a range of rows ``r0 .. r1 - 1`` (its first two arguments) runs the rows ``s .. e - 1`` of
# that range on the same arrays; grid_rows and brute_rows also take the part of ``offsets`` and
# ``out`` (their last two arguments) that those rows own: when counting (``out`` empty),
# ``offsets[row - r0]`` is the count of row ``row``; when filling, ``offsets`` holds prefix sums
# and the row is written at ``out[offsets[row - r0] - offsets[0]]``.
def _range_count(args):
    return args[1] - args[0]


def _range_cut(args, s, e):
    return (args[0] + s, args[0] + e) + args[2:]


def _range_and_rows_cut(args, s, e):
    offsets, out = args[-2], args[-1]
    owned = (offsets[s:e], out) if out.shape[0] == 0 else (offsets[s : e + 1], out[offsets[s] - offsets[0] :])
    return _range_cut(args[:-2], s, e) + owned


_RANGE = (_range_count, _range_cut)
_RANGE_AND_ROWS = (_range_count, _range_and_rows_cut)


@kernel
def cell_of(x, x0, inv, n):
    """Cell index of coordinate ``x``: ``floor((x - x0) * inv)`` clamped to ``[0, n - 1]``.

    Monotone non-decreasing in ``x`` (a rounded subtraction and a product by a positive constant
    are monotone in IEEE arithmetic); infinite ``x`` clamps to the first or last cell, and NaN
    (the centre of an unbounded box, ``0.5 * (-inf) + 0.5 * inf``) to the first.
    """
    if n == 1:
        return 0
    t = (x - x0) * inv
    if not t > 0.0:
        return 0
    if t >= n - 1:
        return n - 1
    return int(t)


@kernel
def cell_range(xmin, ymin, xmax, ymax, x0, y0, inv, nx, ny):
    """Cell columns and rows ``(cx0, cx1, cy0, cy1)`` that the box overlaps (see :func:`cell_of`)."""
    return (
        cell_of(xmin, x0, inv, nx),
        cell_of(xmax, x0, inv, nx),
        cell_of(ymin, y0, inv, ny),
        cell_of(ymax, y0, inv, ny),
    )


@kernel
def grid_build(xmin, ymin, xmax, ymax, tid, x0, y0, inv, nx, ny):
    """Counting sort of the targets into ``nx * ny`` cells: ``(start, entries)``.

    The targets of cell ``c = cy * nx + cx`` are ``entries[start[c]:start[c + 1]]``, in increasing
    element order.
    """
    ne = xmin.shape[0]
    start = np.zeros(nx * ny + 1, dtype=np.int64)
    for e in range(ne):
        if tid[e] < 0:
            continue
        cx0, cx1, cy0, cy1 = cell_range(xmin[e], ymin[e], xmax[e], ymax[e], x0, y0, inv, nx, ny)
        for cy in range(cy0, cy1 + 1):
            for cx in range(cx0, cx1 + 1):
                start[cy * nx + cx + 1] += 1
    for c in range(nx * ny):
        start[c + 1] += start[c]
    entries = np.empty(start[nx * ny], dtype=np.int64)
    fill = start[:-1].copy()
    for e in range(ne):
        if tid[e] < 0:
            continue
        cx0, cx1, cy0, cy1 = cell_range(xmin[e], ymin[e], xmax[e], ymax[e], x0, y0, inv, nx, ny)
        for cy in range(cy0, cy1 + 1):
            for cx in range(cx0, cx1 + 1):
                c = cy * nx + cx
                entries[fill[c]] = e
                fill[c] += 1
    return start, entries


@kernel
def _grid_row(q, row, xmin, ymin, xmax, ymax, tid, self_mode, x0, y0, inv, nx, ny, start, entries, out, pos):
    """Pairs of query element ``q`` (row ``row``) in the grid; writes keys from ``out[pos]`` unless
    ``out`` is empty. Returns the number of pairs."""
    ne = xmin.shape[0]
    write = out.shape[0] > 0
    count = 0
    qx0, qy0, qx1, qy1 = xmin[q], ymin[q], xmax[q], ymax[q]
    cx0, cx1, cy0, cy1 = cell_range(qx0, qy0, qx1, qy1, x0, y0, inv, nx, ny)
    for cy in range(cy0, cy1 + 1):
        for cx in range(cx0, cx1 + 1):
            c = cy * nx + cx
            for k in range(start[c], start[c + 1]):
                e = entries[k]
                t = tid[e]
                if self_mode and t <= row:
                    continue
                if xmin[e] > qx1 or xmax[e] < qx0 or ymin[e] > qy1 or ymax[e] < qy0:
                    continue
                # reference point: the lower-left corner of the overlap, reported in its own cell only
                if cell_of(max(qx0, xmin[e]), x0, inv, nx) != cx or cell_of(max(qy0, ymin[e]), y0, inv, ny) != cy:
                    continue
                if write:
                    out[pos + count] = t * ne + e
                count += 1
    return count


@loop(pieces=_RANGE_AND_ROWS)
def grid_rows(r0, r1, xmin, ymin, xmax, ymax, qid, tid, self_mode, x0, y0, inv, nx, ny, start, entries, offsets, out):
    """Count or fill the rows ``r0 .. r1 - 1`` (queries with ``r0 <= qid < r1``).

    Counting (``out`` empty): ``offsets[row - r0]`` receives the row's count. Filling:
    ``offsets`` holds the prefix sums for those rows and row ``row`` goes to
    ``out[offsets[row - r0] - offsets[0] : ...]``, unsorted.
    """
    fill = out.shape[0] > 0
    for q in prange(xmin.shape[0]):
        row = qid[q]
        if row < r0 or row >= r1:
            continue
        if fill:
            _grid_row(q, row, xmin, ymin, xmax, ymax, tid, self_mode, x0, y0, inv, nx, ny, start, entries, out,
                      offsets[row - r0] - offsets[0])
        else:
            offsets[row - r0] = _grid_row(q, row, xmin, ymin, xmax, ymax, tid, self_mode, x0, y0, inv, nx, ny,
                                          start, entries, out, int(0))


@kernel
def _brute_row(q, row, xmin, ymin, xmax, ymax, tid, self_mode, out, pos):
    ne = xmin.shape[0]
    write = out.shape[0] > 0
    count = 0
    qx0, qy0, qx1, qy1 = xmin[q], ymin[q], xmax[q], ymax[q]
    for e in range(ne):
        t = tid[e]
        if t < 0 or (self_mode and t <= row):
            continue
        if xmin[e] > qx1 or xmax[e] < qx0 or ymin[e] > qy1 or ymax[e] < qy0:
            continue
        if write:
            out[pos + count] = t * ne + e
        count += 1
    return count


@loop(pieces=_RANGE_AND_ROWS)
def brute_rows(r0, r1, xmin, ymin, xmax, ymax, qid, tid, self_mode, offsets, out):
    """As :func:`grid_rows`, testing every query against every target."""
    fill = out.shape[0] > 0
    for q in prange(xmin.shape[0]):
        row = qid[q]
        if row < r0 or row >= r1:
            continue
        if fill:
            _brute_row(q, row, xmin, ymin, xmax, ymax, tid, self_mode, out, offsets[row - r0] - offsets[0])
        else:
            offsets[row - r0] = _brute_row(q, row, xmin, ymin, xmax, ymax, tid, self_mode, out, int(0))


@kernel
def _sweep_position(u, xmin, ymin, xmax, ymax, qid, tid, self_mode, rows, keys, pos):
    """Pairs found from element ``u`` (elements sorted by ``xmin``): scan forward while the next
    box starts before ours ends."""
    ne = xmin.shape[0]
    write = rows.shape[0] > 0
    count = 0
    ux1, uy0, uy1 = xmax[u], ymin[u], ymax[u]
    for v in range(u + 1, ne):
        if xmin[v] > ux1:
            break
        if ymin[v] > uy1 or ymax[v] < uy0:
            continue
        # u as the query and v as the target, or the other way round; at most one applies
        if qid[u] >= 0 and tid[v] >= 0 and not (self_mode and tid[v] <= qid[u]):
            row, key = qid[u], tid[v] * ne + v
        elif qid[v] >= 0 and tid[u] >= 0 and not (self_mode and tid[u] <= qid[v]):
            row, key = qid[v], tid[u] * ne + u
        else:
            continue
        if write:
            rows[pos + count] = row
            keys[pos + count] = key
        count += 1
    return count


@loop(pieces=_RANGE)
def sweep_rows(u0, u1, xmin, ymin, xmax, ymax, qid, tid, self_mode, offsets, rows, keys):
    """Sweep and prune over elements sorted by ``xmin``: count or fill the pairs found from the
    elements ``u0 .. u1 - 1``.

    Counting (``rows`` empty): ``offsets[u]`` receives the number of pairs found from element
    ``u``. Filling: ``offsets`` holds their prefix sums and the pairs found from ``u`` go to
    ``rows/keys[offsets[u]:offsets[u + 1]]``.
    """
    fill = rows.shape[0] > 0
    for u in prange(u0, u1):
        if fill:
            _sweep_position(u, xmin, ymin, xmax, ymax, qid, tid, self_mode, rows, keys, offsets[u])
        else:
            offsets[u] = _sweep_position(u, xmin, ymin, xmax, ymax, qid, tid, self_mode, rows, keys, int(0))


@kernel
def scatter_rows(rows, keys, offsets):
    """Group the pairs ``(rows[k], keys[k])`` by row (a serial counting sort).

    ``offsets`` (length ``nq + 1``) holds the prefix sums of the row counts; returns the keys in
    row order (each row still unsorted).
    """
    out = np.empty_like(keys)
    fill = offsets[:-1].copy()
    for k in range(rows.shape[0]):
        r = rows[k]
        out[fill[r]] = keys[k]
        fill[r] += 1
    return out


def _sorted_rows_cut(args, s, e):
    # rows s .. e - 1 of sort_rows: their offsets, and the keys from the first one's slice on
    offsets, keys = args
    return offsets[s : e + 1], keys[offsets[s] - offsets[0] :]


@loop(pieces=(lambda args: args[0].shape[0] - 1, _sorted_rows_cut))
def sort_rows(offsets, keys):
    """Sort each row slice ``keys[offsets[r] - offsets[0] : offsets[r + 1] - offsets[0]]`` in place."""
    base = offsets[0]
    for r in prange(offsets.shape[0] - 1):
        lo = offsets[r] - base
        hi = offsets[r + 1] - base
        if hi - lo > _SHORT_ROW:
            keys[lo:hi].sort()
        else:
            for a in range(lo + 1, hi):  # insertion sort
                value = keys[a]
                b = a - 1
                while b >= lo and keys[b] > value:
                    keys[b + 1] = keys[b]
                    b -= 1
                keys[b + 1] = value


# Bounding-circle filter for ellipse pairs, in units of the unit roundoff u = 2**-53: the squared
# distance d2 = dx*dx + dy*dy carries at most 5u of relative error (one rounded difference per
# coordinate, squared, then summed), the squared sums of radii (and gap) at most 5u; 16u covers both.
_CIRCLE_MARGIN = 16 * 2.0**-53
_CIRCLE_RANGE = 2.0**460  # outside [1 / range, range] squares could underflow or overflow: no decision


@kernel
def circle_pair_status(dx, dy, big, small):
    """0 when a centre offset ``(dx, dy)`` (each one rounded difference) is longer than ``big``,
    1 when it is shorter than ``small``, 2 when the rounding leaves it open (or outside the range
    where the squares are safe): the bounding-circle filter of :func:`ellipse_pair_filter`."""
    m = max(big, max(abs(dx), abs(dy)))
    if not (small > 1.0 / _CIRCLE_RANGE and m < _CIRCLE_RANGE):
        return 2
    d2 = dx * dx + dy * dy
    if d2 > big * big * (1.0 + _CIRCLE_MARGIN):
        return 0
    if d2 < small * small * (1.0 - _CIRCLE_MARGIN):
        return 1
    return 2


@loop(rows=("ia", "ib", "out"))
def ellipse_pair_filter(pa, ia, pb, ib, gap, out):
    """Cheap certain answers for ellipse pairs ``pa[ia[k]]``, ``pb[ib[k]]`` before the exact kernel.

    ``out[k]`` is 0 when the circumscribed circles (radius ``max(a, b)``) are more than ``gap``
    apart, so the ellipses are too (with ``gap = 0``: disjoint); 1 when the inscribed circles
    (radius ``min(a, b)``) are less than ``gap`` apart (with ``gap = 0``: overlap with interior,
    so the interiors meet); 2 otherwise (the exact kernels decide). The comparisons of squared
    lengths keep a relative margin that covers their rounding (see ``_CIRCLE_MARGIN``).
    """
    for k in prange(ia.shape[0]):
        a = pa[ia[k]]
        b = pb[ib[k]]
        dx = b[0] - a[0]
        dy = b[1] - a[1]
        big = max(a[2], a[3]) + max(b[2], b[3]) + gap
        small = min(a[2], a[3]) + min(b[2], b[3]) + gap
        out[k] = circle_pair_status(dx, dy, big, small)


@kernel
def expand_rows(counts, out):
    """Write row ``r`` ``counts[r]`` times into ``out``, rows in order (``np.repeat`` in place)."""
    k = 0
    for r in range(counts.shape[0]):
        for _ in range(counts[r]):
            out[k] = r
            k += 1
