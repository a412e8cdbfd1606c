"""The broad phase and its drivers: the backend choice (grid, sweep or brute force), the
candidate chunks, the fused grid (broad and narrow phase in one pass), the grids of centres for
circles and polygons of similar sizes, the periodic images, and the query that runs them.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from collide2d import _within
from collide2d._glue import run
from collide2d._kernels.codes import DISJOINT
from collide2d._tolerances import EPS as _EPS  # the float-mode eps of the pair kernels
from collide2d._validate import check_option
from collide2d.broadphase._inputs import (
    BACKENDS, _check_max_distance, _check_periodic, _check_predicate, circles, grid, sweep,
)
from collide2d.broadphase._settle import _finish_rows, _narrow, _relate_filtered, _run_grid, _tame, _threads_for

# Grid when the 99th percentile of the bounding-box extents is below this multiple of the median
# (a cell of the largest extent is the textbook choice; the percentile lets a few big shapes stay in the grid).
GRID_MAX_SPREAD = 4.0
BRUTE_MAX_ELEMENTS = 32  # below this many boxes a plain double loop is fastest
CHUNK = 1 << 20  # candidate pairs per narrow-phase chunk: bounds the working memory
FUSED_CHUNK = 1 << 22  # bounding-box candidates per fill pass of the fused grid (32 MiB of int64)
FUSED_CELL = 1.0  # cell size of the fused grid, in median box extents (see _fused_grid_shape)
PACK_BY_CELL = 0  # above this many elements the fused grid reads targets in cell order (0: always;
# measured 2026-11-22: sparse 1e4 7.2 against 7.8 ms wall, 11 against 14 ms CPU, dense 1e4 equal)
CIRCLE_SPREAD = 2.0  # the circle grid takes circles whose largest radius is at most this multiple of the smallest
CIRCLE_CELLS = 4  # the circle and polygon grids have at most this many cells per shape (plus 16)
POLYGON_SPREAD = 4.0  # the polygon grid takes boxes whose widest is at most this multiple of their mean width


# -- broad phase ----------------------------------------------------------------------------------


class _Elements:
    """The boxes the sweep kernels see (see :mod:`collide2d._kernels.broadphase.sweep`).

    ``qid`` / ``tid``: row of a query element / column of a target element, -1 otherwise;
    ``image``: lattice steps of periodic images (int8, shape (ne, 2)) or None.
    """

    def __init__(self, bounds, qid, tid, self_mode, image=None):
        self.bounds = np.asarray(bounds, dtype=np.float64)
        self.qid = np.asarray(qid, dtype=np.int64)
        self.tid = np.asarray(tid, dtype=np.int64)
        self.nq = int(np.count_nonzero(self.qid >= 0))
        self.self_mode = bool(self_mode)
        self.image = image

    def __len__(self):
        return self.bounds.shape[0]

    def columns(self, perm=None):
        """Contiguous ``xmin, ymin, xmax, ymax, qid, tid`` (reordered by ``perm``)."""
        b = self.bounds if perm is None else self.bounds[perm]
        qid = self.qid if perm is None else self.qid[perm]
        tid = self.tid if perm is None else self.tid[perm]
        return tuple(np.ascontiguousarray(b[:, k]) for k in range(4)) + (qid, tid)


def _choose_backend(elements, backend):
    if backend != "auto":
        return backend
    if len(elements) <= BRUTE_MAX_ELEMENTS:
        return "brute"
    b = elements.bounds
    if not np.isfinite(b).all():
        return "sweep"  # unbounded lines would dictate the cell size
    # the 99th percentile, not the largest: the grid inserts the few big boxes into every cell
    # they cover, so only a broad spread of sizes makes the sweep worth it; both from an evenly
    # strided sample of at most about 65,536 boxes (deterministic; 0.6 s saved at 1e7 boxes)
    b = b[:: max(1, len(b) // 65_536)]
    extent = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])
    large, median = float(np.quantile(extent, 0.99)), float(np.median(extent))
    if large == 0.0 or (median > 0.0 and large < GRID_MAX_SPREAD * median):
        return "grid"
    return "sweep"


def _grid_shape(bounds, n_targets):
    """Origin, inverse cell size and cell counts of the grid.

    Cells start at the 99th percentile of the finite box extents (not the largest, so that a few
    big shapes do not dictate the cell size; they are inserted into every cell they cover) and
    grow until the grid has at most about two cells per target and the boxes cover at most about
    eight cells per box on average.
    """
    finite = [a[np.isfinite(a)] for a in bounds.T]
    if any(a.size == 0 for a in finite):
        return 0.0, 0.0, 1.0, 1, 1
    x0, y0 = float(finite[0].min()), float(finite[1].min())
    width, height = float(finite[2].max()) - x0, float(finite[3].max()) - y0
    extent = np.maximum(bounds[:, 2] - bounds[:, 0], bounds[:, 3] - bounds[:, 1])
    extent = extent[np.isfinite(extent)]
    size = max(width, height)
    if not size > 0.0 or not math.isfinite(size):
        return x0, y0, 1.0, 1, 1
    cap = 2 * n_targets + 16  # cells: bounded memory
    cell = max(float(np.quantile(extent, 0.99)) if extent.size else 0.0, size / cap)
    with np.errstate(invalid="ignore", over="ignore"):
        lo = np.nan_to_num(bounds[:, :2] - (x0, y0), neginf=0.0, posinf=size)
        hi = np.nan_to_num(bounds[:, 2:] - (x0, y0), neginf=0.0, posinf=size)
    for _ in range(200):
        inv = 1.0 / cell
        cells = (math.floor(width * inv) + 1) * (math.floor(height * inv) + 1)
        if cells <= cap:
            span = np.floor(np.minimum(hi, size) * inv) - np.floor(np.maximum(lo, 0.0) * inv) + 1
            if float(np.prod(span, axis=1).sum()) <= 8 * len(bounds) + 16:
                break
        cell *= 1.25
    inv = 1.0 / cell
    nx = min(int(width * inv) + 1, cap)
    ny = min(int(height * inv) + 1, cap)
    return x0, y0, inv, nx, ny


def _fused_grid_shape(bounds, n_targets):
    """Origin, inverse cell size and cell counts of the fused grid (:mod:`collide2d._kernels.broadphase.grid`).

    The fused grid meets each (query, target) pair once whatever the cell size, so the cost of a
    query is the number of targets in the cells it covers, about ``n (e + c)**2`` for boxes of
    extent ``e`` and cells of size ``c``, while the entries grow like ``(e / c + 1)**2`` per
    box: cells of ``FUSED_CELL`` times the median extent balance the two. The median comes from
    an evenly strided sample of at most 65,536 boxes (deterministic, O(1) in n). The cells then
    grow until there are at most ``n_targets + 16`` of them and the sample covers at most 16
    cells per box on average (bounded memory when a few boxes are huge).
    """
    n = bounds.shape[0]
    sample = bounds[:: max(1, n // 65_536)]
    with np.errstate(invalid="ignore", over="ignore"):
        x0, y0 = float(np.min(bounds[:, 0], initial=np.inf)), float(np.min(bounds[:, 1], initial=np.inf))
        x1, y1 = float(np.max(bounds[:, 2], initial=-np.inf)), float(np.max(bounds[:, 3], initial=-np.inf))
        if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
            return _grid_shape(bounds, n_targets)  # unbounded shapes (lines): the general sizing
        extent = np.maximum(sample[:, 2] - sample[:, 0], sample[:, 3] - sample[:, 1])
    width, height = x1 - x0, y1 - y0
    size = max(width, height)
    if not size > 0.0:
        return x0, y0, 1.0, 1, 1
    cap = n_targets + 16
    cell = max(FUSED_CELL * float(np.median(extent)), size / cap, size * 2.0**-40)
    lo, hi = sample[:, :2] - (x0, y0), sample[:, 2:] - (x0, y0)
    for _ in range(200):
        inv = 1.0 / cell
        if (math.floor(width * inv) + 1) * (math.floor(height * inv) + 1) <= cap:
            span = np.floor(hi * inv) - np.floor(lo * inv) + 1
            if float(np.prod(span, axis=1).mean()) <= 16.0:
                break
        cell *= 1.25
    inv = 1.0 / cell
    return x0, y0, inv, min(int(width * inv) + 1, cap), min(int(height * inv) + 1, cap)


def _cell_keys(bounds, x0, y0, inv, nx, ny):
    """Row-major grid cell of each box centre (infinite boxes clamp): a spatial sort key."""
    with np.errstate(invalid="ignore"):
        center = np.nan_to_num(0.5 * (bounds[:, :2] + bounds[:, 2:]), nan=0.0, posinf=1e300, neginf=-1e300)
    cx = np.clip(np.floor((center[:, 0] - x0) * inv), 0, nx - 1).astype(np.int64)
    cy = np.clip(np.floor((center[:, 1] - y0) * inv), 0, ny - 1).astype(np.int64)
    return cy * nx + cx


def _candidate_chunks(elements, backend, chunk=None):
    """Yield ``(r0, r1, offsets, keys, perm)``: candidate keys of rows ``r0 .. r1 - 1``, sorted per row.

    Row ``r`` owns ``keys[offsets[r - r0] - offsets[0] : offsets[r + 1 - r0] - offsets[0]]``; a key
    is ``tid * ne + e`` with ``e`` an element index after the reordering ``perm``.
    """
    e = elements
    nq, ne = e.nq, len(e)
    chunk = CHUNK if chunk is None else chunk
    if nq == 0 or ne == 0:
        return
    empty = np.empty(0, dtype=np.int64)
    if backend == "sweep":
        b = e.bounds
        with np.errstate(invalid="ignore"):
            cx = (b[:, 0] + b[:, 2])[np.isfinite(b[:, 0] + b[:, 2])]
            cy = (b[:, 1] + b[:, 3])[np.isfinite(b[:, 1] + b[:, 3])]
        axis = 1 if cy.size > 1 and (cx.size < 2 or np.var(cy) > np.var(cx)) else 0  # the wider spread
        perm = np.argsort(b[:, axis], kind="stable")
        xmin, ymin, xmax, ymax, qid, tid = e.columns(perm)
        if axis == 1:
            xmin, ymin, xmax, ymax = ymin, xmin, ymax, xmax
        counts = np.zeros(ne + 1, dtype=np.int64)
        sweep.sweep_rows(0, ne, xmin, ymin, xmax, ymax, qid, tid, e.self_mode, counts, empty, empty)
        offsets = np.zeros(ne + 1, dtype=np.int64)
        np.cumsum(counts[:-1], out=offsets[1:])
        del counts
        total = int(offsets[-1])
        rows = np.empty(total, dtype=np.int64)
        keys = np.empty(total, dtype=np.int64)
        if total:
            sweep.sweep_rows(0, ne, xmin, ymin, xmax, ymax, qid, tid, e.self_mode, offsets, rows, keys)
        del xmin, ymin, xmax, ymax, offsets
        row_offsets = np.zeros(nq + 1, dtype=np.int64)
        np.cumsum(np.bincount(rows, minlength=nq), out=row_offsets[1:])
        keys = sweep.scatter_rows(rows, keys, row_offsets) if total else keys
        del rows
        sweep.sort_rows(row_offsets, keys)
        yield from _split(row_offsets, chunk, lambda r0, r1, off: keys[off[0] : off[-1]], perm)
        return
    counts = np.empty(nq, dtype=np.int64)
    if backend == "grid":
        n_targets = int(np.count_nonzero(e.tid >= 0))
        x0, y0, inv, nx, ny = _grid_shape(e.bounds, n_targets)
        perm = np.argsort(_cell_keys(e.bounds, x0, y0, inv, nx, ny), kind="stable")
        xmin, ymin, xmax, ymax, qid, tid = e.columns(perm)
        start, entries = sweep.grid_build(xmin, ymin, xmax, ymax, tid, x0, y0, inv, nx, ny)
        grid = (xmin, ymin, xmax, ymax, qid, tid, e.self_mode, x0, y0, inv, nx, ny, start, entries)

        def rows_kernel(r0, r1, off, out):
            sweep.grid_rows(r0, r1, *grid, off, out)

    else:
        perm = None
        brute = e.columns() + (e.self_mode,)

        def rows_kernel(r0, r1, off, out):
            sweep.brute_rows(r0, r1, *brute, off, out)

    rows_kernel(0, nq, counts, empty)
    row_offsets = np.zeros(nq + 1, dtype=np.int64)
    np.cumsum(counts, out=row_offsets[1:])
    del counts

    def fill(r0, r1, off):
        out = np.empty(int(off[-1] - off[0]), dtype=np.int64)
        if out.size:
            rows_kernel(r0, r1, off, out)
            sweep.sort_rows(off, out)
        return out

    yield from _split(row_offsets, chunk, fill, perm)


def _split(row_offsets, chunk, keys_of, perm):
    """Cut the rows into consecutive ranges of about ``chunk`` candidates each."""
    nq = row_offsets.shape[0] - 1
    r0 = 0
    while r0 < nq:
        r1 = int(np.searchsorted(row_offsets, row_offsets[r0] + chunk, side="right")) - 1
        r1 = min(max(r1, r0 + 1), nq)
        off = np.ascontiguousarray(row_offsets[r0 : r1 + 1])
        yield r0, r1, off, keys_of(r0, r1, off), perm
        r0 = r1


# -- the fused grid: broad and narrow phase in one pass ---------------------------------------------


def _fused_applies(coll_a, coll_b, elements, backend, box, predicate):
    """Whether :func:`_fused_pairs` answers this query: a grid without periodic images, returning
    the candidates or the ``"intersects"`` pairs of ellipses (circles are ellipses)."""
    if backend != "grid" or box is not None or len(elements) == 0:
        return False
    if predicate is None:
        return True
    return (
        predicate == "intersects" and coll_a.kind == "ellipse" and (coll_b is None or coll_b.kind == "ellipse")
        and _tame(coll_a.kind, coll_a.params, coll_a.verts)  # extreme magnitudes: the exact-aware glue
        and (coll_b is None or _tame(coll_b.kind, coll_b.params, coll_b.verts))
    )


def _fused_pairs(coll_a, coll_b, elements, predicate):
    """``(row_counts, columns)`` of :func:`_query` through :mod:`collide2d._kernels.broadphase.grid`.

    The count pass counts the bounding-box candidates per row; the rows are then filled in chunks
    of about ``FUSED_CHUNK`` candidates (bounded memory), each candidate settled by the circle
    filter as soon as it is found, the others in ``resolve_rows`` by the centre-line and witness
    filters and then the full ``intersects`` kernel; the few that the float kernel leaves
    undecided come back as ``-1 - j`` and are settled here by the exact fallback.
    """
    e = elements
    nq, ne = e.nq, len(e)
    n_targets = int(np.count_nonzero(e.tid >= 0))
    x0, y0, inv, nx, ny = _fused_grid_shape(e.bounds, n_targets)
    xmin, ymin, xmax, ymax, qid, tid = e.columns()
    order = grid.cell_order(xmin, ymin, xmax, ymax, x0, y0, inv, nx, ny)
    narrow = predicate is not None
    if not narrow:
        params = np.zeros((0, 6))
    elif coll_b is None:
        params = coll_a.params  # elements are the shapes, in order
    else:
        params = np.concatenate([coll_a.params, coll_b.params])  # elements: a then b
    # the queries in cell order: sequential reads in the row passes
    by_cell = tuple(np.ascontiguousarray(a[order]) for a in (xmin, ymin, xmax, ymax, qid, tid))
    params_by_cell = np.ascontiguousarray(params[order]) if narrow else params
    # the targets: in cell order (local writes; a group's entries come as a few runs of
    # increasing columns, one per source cell), or in element order (a group's entries follow
    # the columns) below PACK_BY_CELL elements
    if ne > PACK_BY_CELL:
        packed = grid.grid_pack(*by_cell[:4], by_cell[5], params_by_cell, x0, y0, inv, nx, ny)
    else:
        packed = grid.grid_pack(xmin, ymin, xmax, ymax, tid, params, x0, y0, inv, nx, ny)
    del xmin, ymin, xmax, ymax, qid, tid, order, params
    common = by_cell[:5] + (params_by_cell, e.self_mode, x0, y0, inv, nx, ny) + packed + (narrow,)
    empty = np.empty(0, dtype=np.int64)
    counts = np.empty(nq, dtype=np.int64)
    _run_grid(grid.fused_rows, ne, 0, nq, *common, counts, empty, empty)
    row_offsets = np.zeros(nq + 1, dtype=np.int64)
    np.cumsum(counts, out=row_offsets[1:])
    del counts
    row_counts = np.zeros(nq, dtype=np.int64)
    found = []
    for r0, r1, off in _row_ranges(row_offsets, FUSED_CHUNK):
        total = int(off[-1] - off[0])
        if total == 0:
            continue
        out = np.empty(total, dtype=np.int64)
        kept = np.zeros(r1 - r0, dtype=np.int64)
        _run_grid(grid.fused_rows, max(total, ne // 4), r0, r1, *common, off, kept, out)
        kept, columns = _finish_rows(coll_a, coll_b, r0, off, kept, out, narrow)
        row_counts[r0:r1] = kept
        found.append(columns)
    return row_counts, found


def _row_ranges(row_offsets, chunk):
    """Consecutive row ranges ``(r0, r1, offsets[r0 : r1 + 1])`` of about ``chunk`` candidates each."""
    nq = row_offsets.shape[0] - 1
    r0 = 0
    while r0 < nq:
        r1 = int(np.searchsorted(row_offsets, row_offsets[r0] + chunk, side="right")) - 1
        r1 = min(max(r1, r0 + 1), nq)
        yield r0, r1, np.ascontiguousarray(row_offsets[r0 : r1 + 1])
        r0 = r1


# -- circles and polygons of similar sizes: a grid of their centres ---------------------------------


def _centre_grid(x0, y0, x1, y1, reach, n):
    """Inverse cell size and cell counts of a grid over points in ``[x0, x1] x [y0, y1]``: cells
    of side at least ``reach``, at most ``CIRCLE_CELLS * n + 16`` of them (larger cells when the
    points spread wider)."""
    width, height = x1 - x0, y1 - y0
    cap = CIRCLE_CELLS * n + 16
    # the square cells that tile the points' box in about ``cap`` cells; each factor of the
    # products below is at most cap + 1, so the loop ends within about log(cap) / log(1.25) rounds
    cell = max(reach, math.sqrt(width) * math.sqrt(height / cap), max(width, height) / cap)
    while (math.floor(width / cell) + 1) * (math.floor(height / cell) + 1) > cap:
        cell *= 1.25
    inv = 1.0 / cell
    return inv, min(math.floor(width * inv) + 1, cap), min(math.floor(height * inv) + 1, cap)


def _centre_grid_pairs(x, y, extent, reach, rows_kernel, data, scalar):
    """The pairs that ``rows_kernel`` (:func:`circles.circle_rows` or :func:`circles.box_rows`)
    keeps on a grid of the points ``(x, y)`` with cells of side at least ``reach``: sorted (2, m),
    and the positions of the pairs it left undecided.

    ``data(order)`` gives the kernel's arrays for the entries in cell order (``order[k]``: the
    shape of entry ``k``); ``scalar`` its gap or ``eps``.
    """
    n = x.shape[0]
    inv, nx, ny = _centre_grid(*extent, reach, n)
    start, order, pcell = circles.centre_cells(x, y, extent[0], extent[1], inv, nx, ny)
    found = data(order) + (order, pcell, start, nx, ny, scalar)
    counts = np.empty(n, dtype=np.int64)
    empty = np.empty(0, dtype=np.int64)
    rows_kernel(0, n, *found, counts, empty, empty)
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    total = int(offsets[-1])
    rows, keys = np.empty(total, dtype=np.int64), np.empty(total, dtype=np.int64)
    if total:
        rows_kernel(0, n, *found, offsets, rows, keys)
    # group by row (i), then sort each row by key (2 j + undecided): sorted by (i, j)
    row_counts = np.bincount(rows, minlength=n)
    np.cumsum(row_counts, out=offsets[1:])
    keys = sweep.scatter_rows(rows, keys, offsets)
    sweep.sort_rows(offsets, keys)
    pairs = np.empty((2, total), dtype=np.int64)
    sweep.expand_rows(row_counts, pairs[0])
    np.right_shift(keys, 1, out=pairs[1])
    return pairs, np.flatnonzero(keys & 1)


def _circle_pairs(coll, d):
    """The pairs ``i < j`` of circles at distance at most ``d`` (``d = 0``: that intersect), sorted;
    ``None`` when the collection is not made of circles of similar radii (``CIRCLE_SPREAD``).

    The grid of :mod:`collide2d._kernels.broadphase.circles` finds every pair that the
    bounding-circle filter does not reject and decides it with that filter (exactly the test that
    ``sweep.ellipse_pair_filter`` makes on the pair ``(i, j)``); the pairs it leaves open go to the
    narrow phase of the general path, :func:`_relate_filtered` (``intersects``, exact) or
    :func:`collide2d._within.within_pairs` (``d > 0``). So the answer is the general path's, pair for pair.
    """
    if coll.kind != "ellipse" or len(coll) < 2:
        return None
    params = coll.params
    is_circles, x0, y0, x1, y1, r_min, r_max = circles.circle_extent(params)
    if not (is_circles and r_max <= CIRCLE_SPREAD * r_min):
        return None
    # cells wider than the reach of any pair the filter keeps (see the kernels' module)
    reach = (2.0 * r_max + d) * (1.0 + 2.0**-10)
    pairs, undecided = _centre_grid_pairs(
        np.ascontiguousarray(params[:, 0]), np.ascontiguousarray(params[:, 1]), (x0, y0, x1, y1), reach,
        circles.circle_rows,
        lambda order: tuple(np.ascontiguousarray(params[order, k]) for k in range(3)), d)
    if undecided.size == 0:
        return pairs
    ia, jb, verts = pairs[0, undecided], pairs[1, undecided], coll.verts
    if d:
        meet = _within.within_pairs("ellipse", params, verts, ia, "ellipse", params, verts, jb, d)
    else:
        meet = _relate_filtered("ellipse", params, verts, ia, "ellipse", params, verts, jb, "intersects")
    keep = np.ones(pairs.shape[1], dtype=bool)
    keep[undecided] = meet
    return np.ascontiguousarray(pairs[:, keep])


def _polygon_pairs(coll):
    """The intersecting pairs ``i < j`` of a polygon batch, sorted; ``None`` when the boxes'
    widths spread more than ``POLYGON_SPREAD`` times their mean, or a vertex lies outside the
    tame range (:mod:`collide2d._robust.magnitude`).

    The pairs whose boxes meet come from a grid of the box centres with cells as wide as the
    widest box (:func:`circles.box_rows`); the relate kernel of the general path decides them
    (:func:`collide2d._glue.run.relate_rows`, undecided signs settled exactly).
    """
    if coll.kind != "polygon" or len(coll) < 2 or not _tame("polygon", coll.params, coll.verts):
        return None
    bounds = coll.bounds
    widths = np.maximum(bounds[:, 2] - bounds[:, 0], bounds[:, 3] - bounds[:, 1])
    widest = float(widths.max())
    if not widest <= POLYGON_SPREAD * float(widths.mean()):
        return None
    cx = 0.5 * bounds[:, 0] + 0.5 * bounds[:, 2]
    cy = 0.5 * bounds[:, 1] + 0.5 * bounds[:, 3]
    extent = (float(cx.min()), float(cy.min()), float(cx.max()), float(cy.max()))
    params, verts = coll.params, coll.verts
    pairs, _ = _centre_grid_pairs(cx, cy, extent, widest * (1.0 + 2.0**-10), circles.box_rows, lambda order: (bounds,),
                                  0.0)
    with _threads_for(len(coll)):
        codes = run.relate_rows("polygon", params, verts, pairs[0], "polygon", params, verts, pairs[1], True, True)
    return np.ascontiguousarray(pairs[:, codes != DISJOINT])


# -- periodic boxes ---------------------------------------------------------------------------------


_STEPS = np.array([(kx, ky) for kx in (-1, 0, 1) for ky in (-1, 0, 1) if (kx, ky) != (0, 0)], dtype=np.int8)


def _check_extent(bounds, length, name, grown=0.0):
    extent = bounds[:, 2:] - bounds[:, :2]
    too_big = ~(2 * extent < length)  # also catches infinite extents (lines)
    if np.any(too_big):
        k = int(np.flatnonzero(too_big.any(axis=1))[0])
        what = f"bounds grown by max_distance / 2 = {0.5 * grown!r} on every side" if grown else "bounds"
        raise ValueError(
            f"periodic box {tuple(length.tolist())} must exceed twice the largest shape extent: "
            f"{name}[{k}] has {what} of size {tuple(extent[k].tolist())}"
        )


def _wrap(bounds, origin, length, pad):
    """Lattice counts ``w`` that bring each box centre into the periodic box, and the wrapped boxes."""
    center = 0.5 * (bounds[:, :2] + bounds[:, 2:])
    w = np.floor((center - origin) / length)
    shift = w * length
    wrapped = np.concatenate([bounds[:, :2] - shift - pad, bounds[:, 2:] - shift + pad], axis=1)
    return w, wrapped


def _periodic_elements(bounds_a, bounds_b, box):
    """Elements for the minimum-image query: queries wrapped into the box, targets and their images.

    Every box is wrapped so that its centre lies in the periodic box; a target also gets the images
    shifted by one box length in each direction that can reach a query. Boxes are padded by a few
    ulps of the largest coordinate, which covers the rounding of every translation here and of the
    translated shapes the narrow phase builds.
    """
    origin, length = box
    self_mode = bounds_b is None
    _check_extent(bounds_a, length, "shapes" if self_mode else "a")
    if not self_mode:
        _check_extent(bounds_b, length, "b")
    every = bounds_a if self_mode else np.concatenate([bounds_a, bounds_b])
    scale = float(np.abs(every).max(initial=0.0)) + float(np.abs(origin).max()) + 3 * float(length.max())
    pad = 8 * _EPS * scale
    w_a, wrapped_a = _wrap(bounds_a, origin, length, pad)
    w_b, wrapped_b = (w_a, wrapped_a) if self_mode else _wrap(bounds_b, origin, length, pad)
    na, nb = len(bounds_a), len(bounds_b if not self_mode else bounds_a)
    if na == 0 or nb == 0:
        reach = np.zeros(4)
    else:
        reach = np.concatenate([wrapped_a[:, :2].min(axis=0), wrapped_a[:, 2:].max(axis=0)])
    steps = _STEPS if self_mode else np.concatenate([np.zeros((1, 2), np.int8), _STEPS])
    parts, tids, images = [], [], []
    for step in steps:
        moved = wrapped_b + np.tile(step * length, 2)
        moved[:, :2] -= pad  # the translation rounds too
        moved[:, 2:] += pad
        keep = np.flatnonzero(
            (moved[:, 0] <= reach[2]) & (moved[:, 2] >= reach[0]) & (moved[:, 1] <= reach[3]) & (moved[:, 3] >= reach[1])
        )
        parts.append(moved[keep])
        tids.append(keep)
        images.append(np.broadcast_to(step, (keep.size, 2)))
    n_images = sum(part.shape[0] for part in parts)
    bounds = np.concatenate([wrapped_a] + parts)
    qid = np.concatenate([np.arange(na), np.full(n_images, -1)])
    tid = np.concatenate([np.arange(na) if self_mode else np.full(na, -1)] + tids)
    image = np.concatenate([np.zeros((na, 2), np.int8)] + images).astype(np.int8)
    return _Elements(bounds, qid, tid, self_mode, image), w_a, w_b

def _run(coll_a, coll_b, predicate, backend, periodic, return_shifts, max_distance=None):
    _check_predicate(predicate)
    d = _check_max_distance(max_distance, predicate)
    if (coll_b is None and predicate == "intersects" and backend in ("auto", "grid") and periodic is None
            and isinstance(return_shifts, (bool, np.bool_))):
        pairs = _circle_pairs(coll_a, d or 0.0)  # each returns None for a scene it does not take
        if pairs is None and not d:
            pairs = _polygon_pairs(coll_a)
        if pairs is not None:
            return (pairs, np.zeros((pairs.shape[1], 2))) if return_shifts else pairs
    if not d:  # None or 0.0: distance 0 is "intersects"
        return _query(coll_a, coll_b, predicate, backend, periodic, return_shifts)
    return _query_within(coll_a, coll_b, d, predicate is None, backend, periodic, return_shifts)


def _query_within(coll_a, coll_b, d, candidates, backend, periodic, return_shifts):
    """The pairs at distance ``<= d > 0``: the candidates of the bounds grown by ``d / 2`` on every
    side (boxes farther apart than ``d`` along an axis hold no such pair), then
    :func:`collide2d._within.within_pairs` on them (``candidates``: the candidates only)."""
    box = _check_periodic(periodic)
    if box is not None:
        for coll, name in ((coll_a, "shapes" if coll_b is None else "a"), (coll_b, "b")):
            if coll is not None:
                _check_extent(coll.grown(0.5 * d).bounds, box[1], name, grown=d)
    grown_b = None if coll_b is None else coll_b.grown(0.5 * d)
    pairs, shifts = _query(coll_a.grown(0.5 * d), grown_b, None, backend, periodic, True)
    if not candidates and pairs.shape[1]:
        keep = np.empty(pairs.shape[1], dtype=bool)
        test = functools.partial(_within.within_pairs, d=d)
        with _threads_for(len(coll_a) + (0 if coll_b is None else len(coll_b))):
            for s in range(0, pairs.shape[1], CHUNK):
                shift = shifts[s : s + CHUNK] if box is not None else None
                keep[s : s + CHUNK] = _narrow(coll_a, coll_a if coll_b is None else coll_b,
                                              pairs[0, s : s + CHUNK], pairs[1, s : s + CHUNK], shift, test)
        pairs, shifts = np.ascontiguousarray(pairs[:, keep]), shifts[keep]
    return (pairs, shifts) if return_shifts else pairs


def _query(coll_a, coll_b, predicate, backend, periodic, return_shifts):
    _check_predicate(predicate)
    check_option(backend, "backend", BACKENDS)
    box = _check_periodic(periodic)
    if not isinstance(return_shifts, (bool, np.bool_)):
        raise TypeError(f"return_shifts must be True or False, got {return_shifts!r}")
    self_mode = coll_b is None
    if box is None:
        if self_mode:
            n = len(coll_a)
            elements = _Elements(coll_a.bounds, np.arange(n), np.arange(n), True)
        else:
            na, nb = len(coll_a), len(coll_b)
            elements = _Elements(
                np.concatenate([coll_a.bounds, coll_b.bounds]),
                np.concatenate([np.arange(na), np.full(nb, -1)]),
                np.concatenate([np.full(na, -1), np.arange(nb)]),
                False,
            )
        w_a = w_b = None
    else:
        elements, w_a, w_b = _periodic_elements(coll_a.bounds, None if self_mode else coll_b.bounds, box)
    coll_b = coll_a if self_mode else coll_b
    backend = _choose_backend(elements, backend)
    ne = len(elements)
    index_dtype = np.int32 if len(coll_b) < 2**31 - 1 else np.int64
    row_counts = np.zeros(len(coll_a), dtype=np.int64)  # pairs kept per row: row 0 of the result
    found_j, found_shift = [], []
    chunks = _candidate_chunks(elements, backend)
    if _fused_applies(coll_a, None if self_mode else coll_b, elements, backend, box, predicate):
        chunks = ()
        row_counts, found_j = _fused_pairs(coll_a, None if self_mode else coll_b, elements, predicate)
        found_j = [j.astype(index_dtype) for j in found_j]
        if return_shifts:
            found_shift = [np.zeros((int(row_counts.sum()), 2))]
    with _threads_for(len(coll_a) + (0 if self_mode else len(coll_b))):
        for r0, r1, off, keys, perm in chunks:
            if keys.size == 0:
                continue
            ia = np.repeat(np.arange(r0, r1, dtype=np.int64), np.diff(off))
            jb = keys // ne
            shift = None
            if box is not None:
                element = keys % ne
                step = elements.image[element if perm is None else perm[element]]
                shift = (step + w_a[ia] - w_b[jb]) * box[1]
            del keys
            if predicate is not None:
                keep = _narrow(coll_a, coll_b, ia, jb, shift, functools.partial(_relate_filtered, predicate=predicate))
                ia, jb = ia[keep], jb[keep]
                shift = None if shift is None else shift[keep]
            row_counts[r0:r1] = np.bincount(ia - r0, minlength=r1 - r0)
            del ia
            found_j.append(jb.astype(index_dtype))
            if return_shifts:
                found_shift.append(np.zeros((jb.size, 2)) if shift is None else shift)
    n = int(row_counts.sum())
    pairs = np.empty((2, n), dtype=np.int64)
    if n:
        sweep.expand_rows(row_counts, pairs[0])
        np.concatenate(found_j, out=pairs[1], casting="unsafe")
    del found_j, row_counts
    shifts = np.concatenate(found_shift) if found_shift else np.zeros((0, 2))
    if box is not None and n > 1:
        # a pair reached through two images would need a box under twice the extents; drop repeats
        repeat = (pairs[0, 1:] == pairs[0, :-1]) & (pairs[1, 1:] == pairs[1, :-1])
        if repeat.any():
            first = np.concatenate([[True], ~repeat])
            pairs = np.ascontiguousarray(pairs[:, first])
            shifts = shifts[first] if return_shifts else shifts
    return (pairs, shifts) if return_shifts else pairs
