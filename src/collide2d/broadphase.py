"""Many shapes at once: every pair that satisfies a predicate, without testing all pairs.

Two steps. The *broad phase* finds the candidate pairs whose axis-aligned bounds overlap (closed
boxes, bounds rounded outward so that a touching pair is never dropped) with a uniform grid, a
sweep and prune, or a brute-force loop (:mod:`collide2d._kernels.broadphase.sweep`). The *narrow phase* runs
the exact relate kernel of each kind pair on the candidates, in chunks, and keeps the pairs the
predicate accepts. Both steps count before they fill, so the result never depends on the number
of threads.

The common queries (candidates of any kinds, or ``"intersects"`` among ellipses, without periodic
images, on a grid) take a faster path that does both steps in one grid pass,
:mod:`collide2d._kernels.broadphase.grid` (:func:`_fused_pairs`): the circle filter runs as each candidate is
found, two certified middle filters and the ``intersects`` kernel on the rest. Circles of similar
radii (``"intersects"``, also with ``max_distance``) and polygons of similar widths
(``"intersects"``) take a grid of their centres instead (:func:`_circle_pairs`,
:func:`_polygon_pairs`, :mod:`collide2d._kernels.broadphase.circles`), with the general path's
decision for every pair.
"""

from __future__ import annotations

import contextlib
import functools
import math
import numbers
from collections.abc import Iterable, Sequence
from typing import Any, Literal, NamedTuple, Union, overload

import numpy as np
from numpy.typing import ArrayLike

from collide2d import _dispatch, _formats, _jit, _pairs, _within, predicates
from collide2d._kernels.codes import DISJOINT
from collide2d._pairs import pair_batches, shifted_rows
from collide2d._validate import as_float_array, check_option, check_range
from collide2d.shapes import Box, Shape
from collide2d.table import KIND_NAMES, ShapeTable
from collide2d.typing import FloatArray, Int8Array, IntArray

#: What :func:`query_pairs`, :func:`query` and :func:`measure_pairs` accept as a collection.
Shapes = Union[Shape[Any], Iterable[Shape[Any]], ShapeTable]


class _LazyKernels:
    """Kernels of one module, imported (with Numba) on first use so that ``import collide2d`` stays fast."""

    def __init__(self, module):
        self._module = module

    def __getattr__(self, name):
        import importlib

        return getattr(importlib.import_module(f"collide2d._kernels.{self._module}"), name)


sweep = _LazyKernels("broadphase.sweep")
grid = _LazyKernels("broadphase.grid")
circles = _LazyKernels("broadphase.circles")
conic = _LazyKernels("relate.conic")
screen = _LazyKernels("broadphase.index")

__all__ = ["Index", "PairMeasures", "measure_pairs", "query", "query_pairs"]


def _truth_array(table):
    """A predicate's truth table over the relation codes as a bool array (see :mod:`predicates`)."""
    return np.asarray(getattr(table, "array", table), dtype=bool)


PREDICATES = {
    "intersects": _truth_array(predicates._INTERSECTS),
    "touches": _truth_array(predicates._TOUCHES),
    "overlaps": _truth_array(predicates._OVERLAPS),
    "contains": _truth_array(predicates._CONTAINS),
    "within": _truth_array(predicates._WITHIN),
    "equals": _truth_array(predicates._EQUALS),
}
BACKENDS = ("auto", "grid", "sweep", "brute")

# Grid when the 99th percentile of the bounding-box extents is below this multiple of the median
# (a cell of the largest extent is the textbook choice; the percentile lets a few big shapes stay in the grid).
GRID_MAX_SPREAD = 4.0
BRUTE_MAX_ELEMENTS = 32  # below this many boxes a plain double loop is fastest
CHUNK = 1 << 20  # candidate pairs per narrow-phase chunk: bounds the working memory
SERIAL_BELOW = 20_000  # fewer shapes than this run on one thread (all but the fused grid)
FUSED_CHUNK = 1 << 22  # bounding-box candidates per fill pass of the fused grid (32 MiB of int64)
FUSED_CELL = 1.0  # cell size of the fused grid, in median box extents (see _fused_grid_shape)
PACK_BY_CELL = 0  # above this many elements the fused grid reads targets in cell order (0: always;
# measured 2026-11-22: sparse 1e4 7.2 against 7.8 ms wall, 11 against 14 ms CPU, dense 1e4 equal)
PARALLEL_WORK = 8192  # elements or candidates per pass from which the fused grid uses every thread
CIRCLE_SPREAD = 2.0  # the circle grid takes circles whose largest radius is at most this multiple of the smallest
CIRCLE_CELLS = 4  # the circle and polygon grids have at most this many cells per shape (plus 16)
POLYGON_SPREAD = 4.0  # the polygon grid takes boxes whose widest is at most this multiple of their mean width
_EPS = 2.0**-53


# -- inputs ---------------------------------------------------------------------------------------


class _Collection:
    """Flat kernel view of a shape batch, a list of shapes or a :class:`ShapeTable`."""

    def __init__(self, shapes, name):
        if isinstance(shapes, Shape):
            self.kind = shapes._kind
            self.kinds = None
            self.params = np.ascontiguousarray(shapes._flat_params())
            self.verts = np.ascontiguousarray(shapes._verts)
            self._shape = shapes  # bounds on first use: the circle grid never reads them
            return
        if not isinstance(shapes, ShapeTable):
            if isinstance(shapes, (str, bytes)) or not hasattr(shapes, "__iter__"):
                raise TypeError(
                    f"{name} must be a shape, a batch of shapes, a list of shapes or a ShapeTable, "
                    f"got {type(shapes).__name__}"
                )
            try:
                shapes = ShapeTable(shapes)
            except TypeError as error:
                raise TypeError(f"{name}: {error}") from None
        codes = np.unique(shapes.kinds)
        self.kind = KIND_NAMES[int(codes[0])] if len(codes) == 1 else ("point" if len(codes) == 0 else None)
        self.kinds = shapes.kinds
        self.params = shapes.params
        self.verts = shapes.vertices
        self.bounds = shapes.bounds

    @functools.cached_property
    def bounds(self):
        """The boxes ``(n, 4)`` of a batch, computed on first use (a table's are set in ``__init__``)."""
        return np.asarray(self._shape._bounds(), dtype=np.float64).reshape(-1, 4)

    def __len__(self):
        return self.params.shape[0]

    def grown(self, h):
        """A copy whose bounds are grown by ``h`` on every side, rounded outward."""
        from collide2d._nearest import grow_bounds

        out = object.__new__(_Collection)
        out.__dict__.update(self.__dict__)
        out.bounds = grow_bounds(self.bounds, h)
        return out

    def kind_codes(self, index):
        if self.kinds is None:
            return np.full(index.shape[0], KIND_NAMES.index(self.kind), dtype=np.int8)
        return self.kinds[index]


def _check_predicate(predicate):
    if predicate is None:
        return None
    if predicate == "disjoint":
        raise ValueError(
            "predicate 'disjoint' is not supported: nearly every pair of many shapes is disjoint, so "
            "the answer has O(n**2) pairs; take the complement of the 'intersects' pairs instead"
        )
    if not isinstance(predicate, str) or predicate not in PREDICATES:
        allowed = ", ".join(["None"] + [repr(name) for name in PREDICATES])
        raise ValueError(f"predicate must be one of {allowed}; got {predicate!r}")
    return PREDICATES[predicate]


def _check_max_distance(max_distance, predicate):
    """``max_distance`` as a float (``None`` when not given), checked against the predicate."""
    if max_distance is None:
        return None
    if isinstance(max_distance, (bool, np.bool_)) or not isinstance(max_distance, numbers.Real):
        raise TypeError(f"max_distance must be a real number or None, got {type(max_distance).__name__}")
    d = float(max_distance)
    if not (math.isfinite(d) and d >= 0.0):
        raise ValueError(f"max_distance must be finite and non-negative, got {max_distance!r}")
    if predicate not in ("intersects", None):
        raise ValueError(
            "max_distance combines with predicate 'intersects' (the pairs at distance <= max_distance) "
            f"or None (the pairs whose bounds are within max_distance), not with {predicate!r}"
        )
    return d


def _check_periodic(periodic):
    """Return ``(origin, length)`` as float arrays of shape (2,) for a periodic box, or None."""
    if periodic is None:
        return None
    if isinstance(periodic, Box):
        if periodic.shape:
            raise ValueError("periodic must be a single Box, not a batch")
        origin = np.array(periodic.min, dtype=np.float64)
        length = np.array(periodic.max, dtype=np.float64) - origin
    else:
        try:
            length = np.array(periodic, dtype=np.float64)
        except (TypeError, ValueError):
            raise TypeError(f"periodic must be (Lx, Ly) or a Box, got {periodic!r}") from None
        if length.shape != (2,):
            raise ValueError(f"periodic must be (Lx, Ly) or a Box, got an array of shape {length.shape}")
        origin = np.zeros(2)
    if not np.all(np.isfinite(length)) or np.any(length <= 0):
        raise ValueError(f"periodic box lengths must be finite and positive, got {tuple(length.tolist())}")
    return origin, length


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


def _tame(kind, params, verts):
    """Whether every row lies where the float kernels' error bounds hold (:mod:`collide2d._magnitude`);
    other rows skip the fused grid and the circle filter, whose float tests assume that range."""
    from collide2d import _magnitude

    return bool(np.all(_magnitude.table_tame(kind, params, verts)))


def _use_parallel(work):
    """Both cores only when a pass has enough work to repay starting them (see ``PARALLEL_WORK``)."""
    return work >= PARALLEL_WORK and _jit.threads_here() > 1


# The grid loops run on both cores as their serial copies on slices of their rows, in threads
# (no loop has a Numba parallel copy: see collide2d._jit.loop). For each loop: its number of
# rows, and its arguments for the rows ``s .. e - 1``. fused_rows: the queries (their boxes, rows
# and ellipse rows; each writes only its own row); resolve_rows and compact_rows: the result rows
# (a slice of ``offsets`` keeps its absolute values, so ``out`` is cut at the slice's first one).
_GRID_PIECES = {
    "fused_rows": (lambda a: a[2].shape[0], lambda a, s, e: a[:2] + tuple(x[s:e] for x in a[2:8]) + a[8:]),
    "resolve_rows": (
        lambda a: a[2].shape[0],
        lambda a, s, e: (a[0] + s, a[1][s:], a[2][s:e], a[3][a[1][s] - a[1][0] :], a[4], a[5], a[6]),
    ),
    "compact_rows": (
        lambda a: a[1].shape[0],
        lambda a, s, e: (a[0][s:], a[1][s:e], a[2][s:], a[3][a[0][s] - a[0][0] :], a[4]),
    ),
    "screen_rows": (
        lambda a: a[9].shape[0],
        lambda a, s, e: (a[0] + s, a[1][s:], a[2][a[1][s] - a[1][0] :]) + a[3:9] + (a[9][s:e], a[10][a[1][s] - a[1][0] :]),
    ),
}


def _run_grid(function, work, *args):
    """Run a grid loop on its serial copy, in threads over slices of its rows when ``work`` repays it."""
    if not _use_parallel(work):
        return function.serial(*args)
    rows, piece_args = _GRID_PIECES[function.__name__]
    _jit.run_in_threads(rows(args), lambda s, e: function.serial(*piece_args(args, s, e)))


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


def _finish_rows(coll_a, coll_b, r0, off, kept, out, narrow):
    """The end of a grid pass over rows ``r0 ..``: ``out`` holds each row's kept columns from
    ``off[r] - off[0]`` on (``kept[r]`` of them; ``-1 - j`` for the circle filter's undecided ones
    with ``narrow``). Decide those (:func:`grid.resolve_rows`, then exactly), pack the rows
    (:func:`grid.compact_rows`) and return ``(kept, columns)``."""
    total = int(off[-1] - off[0])
    if narrow:
        from collide2d import _by_address

        # the full intersects kernel is called at its own machine code, not linked into the loop:
        # a query of 90,000 shapes on a lattice (every candidate touching) or at random takes as
        # long either way, and the README tour's first query_pairs costs 0.2 s less CPU
        params_b = coll_a.params if coll_b is None else coll_b.params
        at = _by_address.address_of(conic.intersects_ellipse_ellipse, coll_a.params, coll_a.params, params_b, params_b,
                                    "float64")
        _run_grid(grid.resolve_rows, total, r0, off, kept, out, coll_a.params, params_b, at)
    kept_offsets = np.zeros(kept.size + 1, dtype=np.int64)
    np.cumsum(kept, out=kept_offsets[1:])
    columns = np.empty(int(kept_offsets[-1]), dtype=np.int64)
    _run_grid(grid.compact_rows, columns.size, off, kept, kept_offsets, out, columns)
    if narrow and (columns < 0).any():
        kept, columns = _settle_undecided(coll_a, coll_b, r0, kept, kept_offsets, columns)
    return kept, columns


def _settle_undecided(coll_a, coll_b, r0, kept, kept_offsets, columns):
    """Decide exactly the pairs stored as ``-1 - j`` (the float kernel left them undecided), drop
    the disjoint ones and re-sort the rows they were in. Returns the new ``kept`` and columns."""
    from collide2d import _exact

    coll_b = coll_a if coll_b is None else coll_b
    where = np.flatnonzero(columns < 0)
    rows = np.searchsorted(kept_offsets, where, side="right") - 1
    drop = np.zeros(columns.size, dtype=bool)
    for k, r in zip(where.tolist(), rows.tolist()):
        j = -1 - int(columns[k])
        flag = _exact.run("intersects_ellipse_ellipse", "ellipse", coll_a.params[r0 + r], coll_a.verts,
                          "ellipse", coll_b.params[j], coll_b.verts)
        columns[k] = j
        drop[k] = flag == 0
    kept = kept.copy()
    for r in np.unique(rows).tolist():
        lo, hi = int(kept_offsets[r]), int(kept_offsets[r + 1])
        row = np.sort(columns[lo:hi][~drop[lo:hi]])
        columns[lo : lo + row.size] = row
        drop[lo:hi] = False
        drop[lo + row.size : hi] = True
        kept[r] = row.size
    return kept, columns[~drop]


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
    tame range (:mod:`collide2d._magnitude`).

    The pairs whose boxes meet come from a grid of the box centres with cells as wide as the
    widest box (:func:`circles.box_rows`); the relate kernel of the general path decides them
    (:func:`collide2d._dispatch.relate_indexed`, undecided signs settled exactly).
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
        codes = _dispatch.relate_indexed("relate_polygon_polygon", "polygon", params, verts, pairs[0],
                                         "polygon", params, verts, pairs[1], True, True)
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


# -- narrow phase ---------------------------------------------------------------------------------


def _relate_filtered(kind_a, params_a, verts_a, ia, kind_b, params_b, verts_b, jb, predicate):
    """Predicate values for one kind pair; ellipse pairs first go through the bounding-circle filter."""
    table = PREDICATES[predicate]
    if kind_a != "ellipse" or kind_b != "ellipse" or ia.size == 0 or not (
        _tame(kind_a, params_a[ia], verts_a) and _tame(kind_b, params_b[jb], verts_b)
    ):
        return table[_dispatch.relate_pairs(kind_a, params_a, verts_a, ia, kind_b, params_b, verts_b, jb)]
    status = np.empty(ia.shape[0], dtype=np.int8)
    sweep.ellipse_pair_filter(params_a, ia, params_b, jb, 0.0, status)
    result = np.zeros(ia.shape[0], dtype=bool)  # status 0: disjoint, no predicate holds
    if predicate in ("intersects", "touches"):  # status 1: the interiors meet
        result[status == 1] = predicate == "intersects"
        rest = np.flatnonzero(status == 2)
    else:
        rest = np.flatnonzero(status != 0)
    codes = _dispatch.relate_pairs(kind_a, params_a, verts_a, ia[rest], kind_b, params_b, verts_b, jb[rest])
    result[rest] = table[codes]
    return result


def _narrow(coll_a, coll_b, ia, jb, shift, test):
    """Boolean mask: which candidate pairs ``(ia[k], jb[k])`` pass ``test``.

    ``test(kind_a, params_a, verts_a, ia, kind_b, params_b, verts_b, jb)`` decides the pairs of
    one kind pair (:func:`_relate_filtered` for a predicate, :func:`collide2d._within.within_pairs`
    for a distance); ``shift`` (shape (k, 2), or None) translates ``b`` of each pair (periodic images).
    """
    keep = np.zeros(ia.shape[0], dtype=bool)
    if coll_a.kind is not None and coll_b.kind is not None:
        groups = [(coll_a.kind, coll_b.kind, None)]
    else:
        pair_kind = coll_a.kind_codes(ia).astype(np.int16) * len(KIND_NAMES) + coll_b.kind_codes(jb)
        groups = [
            (KIND_NAMES[code // len(KIND_NAMES)], KIND_NAMES[code % len(KIND_NAMES)], np.flatnonzero(pair_kind == code))
            for code in np.unique(pair_kind).tolist()
        ]
    for kind_a, kind_b, sel in groups:
        ga = ia if sel is None else ia[sel]
        gb = jb if sel is None else jb[sel]
        moved = None if shift is None else np.any((shift if sel is None else shift[sel]) != 0, axis=1)
        if moved is None or not moved.any():
            result = test(kind_a, coll_a.params, coll_a.verts, ga, kind_b, coll_b.params, coll_b.verts, gb)
        else:
            result = np.empty(ga.shape[0], dtype=bool)
            still = np.flatnonzero(~moved)
            result[still] = test(kind_a, coll_a.params, coll_a.verts, ga[still],
                                 kind_b, coll_b.params, coll_b.verts, gb[still])
            go = np.flatnonzero(moved)
            pair_shift = (shift if sel is None else shift[sel])[go]
            rows, verts = shifted_rows(kind_b, coll_b.params, coll_b.verts, gb[go], pair_shift)
            result[go] = test(kind_a, coll_a.params, coll_a.verts, ga[go], kind_b, rows, verts, np.arange(go.size))
        if sel is None:
            keep[:] = result
        else:
            keep[sel] = result
    return keep


# -- the query -----------------------------------------------------------------------------------


def _threads_for(size):
    """Run small problems on the calling thread only: starting threads costs more than it saves
    below ``SERIAL_BELOW`` shapes (and much more on a busy machine); other threads keep theirs."""
    return contextlib.nullcontext() if size >= SERIAL_BELOW else _jit.one_thread()


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


@overload
def query_pairs(
    shapes: Shapes, *, predicate: str | None = "intersects", max_distance: float | None = None, backend: str = "auto",
    periodic: Sequence[float] | Box[Any] | None = None, return_shifts: Literal[False] = False,
) -> IntArray: ...
@overload
def query_pairs(
    shapes: Shapes, *, predicate: str | None = "intersects", max_distance: float | None = None, backend: str = "auto",
    periodic: Sequence[float] | Box[Any] | None = None, return_shifts: Literal[True],
) -> tuple[IntArray, FloatArray]: ...
def query_pairs(
    shapes: Shapes, *, predicate: str | None = "intersects", max_distance: float | None = None, backend: str = "auto",
    periodic: Sequence[float] | Box[Any] | None = None, return_shifts: bool = False
) -> IntArray | tuple[IntArray, FloatArray]:
    """Return every pair ``i < j`` of ``shapes`` that satisfies a predicate.

    Parameters
    ----------
    shapes : Shape, sequence of Shape or ShapeTable
        A batch (its shapes are numbered in C order, ``0 .. shapes.size - 1``), a list of single
        shapes and batches of any kinds, or a :class:`ShapeTable`.
    predicate : str or None, default "intersects"
        ``"intersects"``, ``"touches"``, ``"overlaps"``, ``"contains"``, ``"within"`` or
        ``"equals"``: keep the pairs for which ``predicate(shapes[i], shapes[j])`` is true
        (exactly, like the function of that name). ``None`` returns the broad-phase candidates
        instead: the pairs whose closed bounding boxes (:attr:`Shape.bounds`) overlap, a superset
        of the intersecting pairs. ``"disjoint"`` is refused (almost all pairs are disjoint).
    max_distance : float, optional
        With ``predicate="intersects"``: keep every pair at Euclidean distance at most
        ``max_distance`` (:func:`collide2d.distance`), a pair at exactly that distance included
        (see Notes). With ``predicate=None``: the pairs whose bounding boxes, each grown by
        ``max_distance / 2`` on every side, overlap (a superset). ``0`` is the same as not giving
        it; other predicates are refused.
    backend : {"auto", "grid", "sweep", "brute"}, default "auto"
        Broad-phase structure. ``"grid"``: uniform grid (larger boxes go into every cell they
        cover; cells of the median bounding-box extent on the fused path, about the 99th
        percentile otherwise), best when most sizes are similar; ``"sweep"``: sweep and prune along the axis of wider spread, for sizes that
        vary broadly; ``"brute"``: all pairs.
        ``"auto"`` takes ``"grid"`` when the 99th percentile of the box extents is under 4 times
        their median, ``"sweep"`` otherwise (or with lines) and ``"brute"`` below 33 shapes.
        Every backend gives the same result.
    periodic : (float, float) or Box, optional
        A periodic domain: ``(Lx, Ly)`` for the box ``[0, Lx) x [0, Ly)``, or a single
        :class:`Box` ``(min, max)`` for ``[min, max)``. Shapes may lie anywhere; each pair is
        tested in its minimum image, with ``b`` translated by whole box lengths. Every shape's
        bounding box must be less than half the box in each direction (else ``ValueError``), so
        that at most one image of a pair can meet; lines are refused.
    return_shifts : bool, default False
        Also return, per pair, the translation applied to ``shapes[j]``: float64 array of shape
        ``(n, 2)``, whole multiples of ``(Lx, Ly)`` (zeros without ``periodic``).

    Returns
    -------
    pairs : ndarray of int64, shape (2, n)
        Row 0 holds ``i``, row 1 ``j``, with ``i < j``, sorted by ``i`` then ``j``.
    shifts : ndarray of float64, shape (n, 2)
        Only with ``return_shifts=True``.

    Raises
    ------
    ValueError
        For an unknown predicate or backend, a non-positive periodic box, or a shape too large for
        the periodic box.

    See Also
    --------
    query : the pairs between two collections.

    Notes
    -----
    Bounds are rounded outward, so shapes that touch exactly are always candidates. The narrow
    phase is the exact kernel of each kind pair (``intersects`` for ``"intersects"`` between
    ellipses, after certified filters; ``relate`` otherwise), so the answer equals the pairwise
    predicate. With ``periodic``, the narrow phase tests ``shapes[i]`` against ``shapes[j]``
    translated by the shift, with the translated coordinates rounded to float64.

    With ``max_distance=d`` the broad phase grows every bounding box by ``d / 2`` and the narrow
    phase decides ``distance <= d``: certain answers from bounding and inscribed circles first,
    then the floating-point separation wherever it is farther from ``d`` than ``2**-32`` of the
    pair's coordinates (it is accurate to a few ulps of them), and the remaining close calls one
    by one in exact rational arithmetic. That decision is exact for pairs without curves (squared
    distances of vertices to edges). With an ellipse it rests on two certificates: *in* when the
    ellipse with both semi-axes grown by ``d`` meets the other shape (exact for a circle when
    ``r + d`` is a float, and whenever the nearest points include an end of an ellipse's axis,
    as in lattices of aligned ellipses), *out* when the supports of the two shapes along the
    contact normal are more than ``d`` apart. A pair for which neither holds is kept: a pair at
    distance ``<= d`` is never dropped, and a kept pair is farther than ``d`` by at most a few
    ulps of its distance (8 ulps at most over 200 random pairs of turned ellipses).

    Memory stays bounded by processing the candidates in chunks (about four million pairs on
    the fused grid of ``"intersects"`` among ellipses and of ``predicate=None``, a million
    otherwise). Each pass uses every thread when it has enough work (``PARALLEL_WORK``).

    Examples
    --------
    >>> import collide2d as c2
    >>> circles = c2.Circle([(0, 0), (2, 0), (5, 0), (5.5, 0)], 1)
    >>> c2.query_pairs(circles).tolist()  # 0 and 1 touch at (1, 0)
    [[0, 2], [1, 3]]
    >>> c2.query_pairs(circles, predicate="touches").tolist()
    [[0], [1]]
    >>> c2.query_pairs([c2.Box((0, 0), (4, 4)), c2.Point((1, 1)), c2.Segment((3, 3), (9, 9))]).tolist()
    [[0, 0], [1, 2]]
    >>> pairs, shifts = c2.query_pairs(c2.Circle([(0.5, 5), (9.5, 5)], 1), periodic=(10, 10), return_shifts=True)
    >>> pairs.tolist(), shifts.tolist()  # they overlap across the left/right edge
    ([[0], [1]], [[-10.0, 0.0]])
    >>> c2.query_pairs(c2.Circle((0, 0), 1)).shape  # a single shape has no pairs
    (2, 0)
    >>> c2.query_pairs(circles, max_distance=1.0).tolist()  # 1 and 2 are exactly 1 apart
    [[0, 1, 2], [1, 2, 3]]
    """
    return _run(_Collection(shapes, "shapes"), None, predicate, backend, periodic, return_shifts, max_distance)


@overload
def query(
    a: Shapes, b: Shapes, /, *, predicate: str | None = "intersects", max_distance: float | None = None, backend: str = "auto",
    periodic: Sequence[float] | Box[Any] | None = None, return_shifts: Literal[False] = False,
) -> IntArray: ...
@overload
def query(
    a: Shapes, b: Shapes, /, *, predicate: str | None = "intersects", max_distance: float | None = None, backend: str = "auto",
    periodic: Sequence[float] | Box[Any] | None = None, return_shifts: Literal[True],
) -> tuple[IntArray, FloatArray]: ...
def query(
    a: Shapes, b: Shapes, /, *, predicate: str | None = "intersects", max_distance: float | None = None, backend: str = "auto",
    periodic: Sequence[float] | Box[Any] | None = None, return_shifts: bool = False
) -> IntArray | tuple[IntArray, FloatArray]:
    """Return every pair ``(i, j)`` with ``predicate(a[i], b[j])`` true, between two collections.

    Parameters
    ----------
    a, b : Shape, sequence of Shape or ShapeTable
        Two collections, as for :func:`query_pairs` (batches are numbered in C order).
    predicate : str or None, default "intersects"
        As for :func:`query_pairs`; asymmetric predicates read ``contains(a[i], b[j])``.
    max_distance : float, optional
        As for :func:`query_pairs`: the pairs at distance at most ``max_distance``.
    backend : {"auto", "grid", "sweep", "brute"}, default "auto"
        As for :func:`query_pairs`.
    periodic : (float, float) or Box, optional
        As for :func:`query_pairs`; ``b[j]`` is translated into the minimum image of ``a[i]``.
    return_shifts : bool, default False
        Also return the translation applied to ``b[j]`` per pair.

    Returns
    -------
    pairs : ndarray of int64, shape (2, n)
        Row 0 indexes ``a``, row 1 indexes ``b``; sorted by row 0, then row 1.
    shifts : ndarray of float64, shape (n, 2)
        Only with ``return_shifts=True``.

    Raises
    ------
    TypeError
        If `a` or `b` is not a shape, a list of shapes or a ShapeTable, `max_distance` is not a
        real number, `periodic` is neither a pair of numbers nor a Box, or `return_shifts` is not
        True or False.
    ValueError
        For an unknown predicate or backend (``"disjoint"`` is refused), a negative or non-finite
        `max_distance` or one given with a predicate other than ``"intersects"`` or None, a
        periodic box that is a batch or not finite and positive, or a shape too large for the
        periodic box (a line is always).

    See Also
    --------
    query_pairs : the pairs within one collection.

    Examples
    --------
    >>> import collide2d as c2
    >>> boxes = c2.Box([(0, 0), (3, 0)], [(1, 1), (4, 1)])
    >>> dots = c2.Point([(1, 1), (2, 2), (3.5, 0.5)])
    >>> c2.query(boxes, dots).tolist()  # (1, 1) is a corner of box 0: closed shapes intersect
    [[0, 1], [0, 2]]
    >>> c2.query(boxes, dots, predicate="contains").tolist()
    [[1], [2]]
    >>> c2.query(boxes, []).shape
    (2, 0)
    >>> c2.query(boxes, dots, max_distance=1.5).tolist()  # (2, 2) is sqrt(2) from both boxes
    [[0, 0, 1, 1], [0, 1, 1, 2]]
    """
    return _run(_Collection(a, "a"), _Collection(b, "b"), predicate, backend, periodic, return_shifts, max_distance)


# -- a broad phase kept between calls -------------------------------------------------------------


class _Bounds:
    """Only the boxes of a collection: what the broad phase reads when it returns candidates."""

    kind = None

    def __init__(self, bounds):
        self.bounds = bounds

    def __len__(self):
        return self.bounds.shape[0]


def _box_candidates(bounds_a, bounds_b):
    """The pairs ``(i, j)`` whose closed boxes ``bounds_a[i]`` and ``bounds_b[j]`` overlap, sorted
    (the broad phase :mod:`collide2d._nearest` starts with)."""
    return _query(_Bounds(bounds_a), _Bounds(bounds_b), None, "auto", None, False)


def _check_margin(margin):
    if isinstance(margin, (bool, np.bool_)) or not isinstance(margin, numbers.Real):
        raise TypeError(f"margin must be a real number, got {type(margin).__name__}")
    margin = float(margin)
    if not (math.isfinite(margin) and margin >= 0.0):
        raise ValueError(f"margin must be finite and non-negative, got {margin!r}")
    return margin


class _Candidates(NamedTuple):
    """Pairs whose inflated boxes, grown by ``max_distance / 2``, overlap: sorted (2, k), with
    their periodic shifts (or None) and the row offsets (CSR) of row 0."""

    pairs: np.ndarray
    shifts: np.ndarray | None
    offsets: np.ndarray


class Index:
    """A broad phase kept between calls, for shapes that move a little from one call to the next.

    The index keeps every shape's bounding box inflated by ``margin`` and, per distance asked
    for, the pairs whose inflated boxes overlap (a *neighbour list* with a *skin*, in the words of
    molecular dynamics). A query screens that list against the current boxes and runs the exact
    narrow phase of :func:`query_pairs`; :meth:`update` takes the moved shapes and re-bins only
    those whose box left its inflated box, so while nothing did the list is reused as it is.

    Parameters
    ----------
    shapes : Shape, sequence of Shape or ShapeTable
        The collection, as for :func:`query_pairs` (batches are numbered in C order).
    margin : float, default 0.0
        How far each bounding box is inflated on every side. A larger margin re-bins less often
        but screens more candidates per query; about the distance a shape moves in ten to twenty
        steps is a good start.
    periodic : (float, float) or Box, optional
        A periodic domain, as for :func:`query_pairs`. The inflated boxes must stay below half
        the box.

    Raises
    ------
    TypeError
        If ``shapes`` is not a collection of shapes or ``margin`` not a number.
    ValueError
        If ``margin`` is negative or not finite, or the periodic box is too small.

    See Also
    --------
    query_pairs : the same answers, computed from scratch.

    Notes
    -----
    Every answer is exactly what :func:`query_pairs` (or :func:`query`) returns on the current
    shapes with the same arguments: the kept list only ever holds a superset of the candidates,
    and the narrow phase is the same. A shape's box is inside its inflated box when it moved by
    less than ``margin`` (turns and size changes count through the box), so with displacements
    below the margin no re-binning happens. This is the Verlet list with a skin of molecular
    dynamics codes (Allen and Tildesley, *Computer Simulation of Liquids*, 2017, section 5.3),
    applied to bounding boxes rather than centres.

    Examples
    --------
    >>> import collide2d as c2
    >>> circles = c2.Circle([(0, 0), (2.5, 0), (6, 0)], 1)
    >>> index = c2.Index(circles, margin=0.5)
    >>> index.query_pairs().tolist()
    [[], []]
    >>> index.query_pairs(max_distance=0.5).tolist()
    [[0], [1]]
    >>> index.update(c2.Circle([(0, 0), (2.0, 0), (6, 0)], 1))  # moved by 0.5: nothing re-binned
    0
    >>> index.query_pairs().tolist()  # they touch now
    [[0], [1]]
    >>> index.query(c2.Point((6, 0.5))).tolist()  # row 0 indexes the query's shapes
    [[0], [2]]
    """

    def __init__(
        self,
        shapes: Shape | Sequence[Shape] | ShapeTable,
        *,
        margin: float = 0.0,
        periodic: tuple[float, float] | Box | None = None,
    ) -> None:
        self._margin = _check_margin(margin)
        _check_periodic(periodic)
        self._periodic = periodic
        self._coll = _Collection(shapes, "shapes")
        self._inflated = self._coll.grown(self._margin).bounds
        self._lists: dict[Any, Any] = {}

    def __len__(self) -> int:
        return len(self._coll)

    def __repr__(self) -> str:
        return f"<Index of {len(self)} shapes, margin={self._margin!r}, periodic={self._periodic!r}>"

    @property
    def margin(self) -> float:
        """How far each bounding box is inflated on every side."""
        return self._margin

    def update(self, shapes: Shape | Sequence[Shape] | ShapeTable) -> int:
        """Replace the shapes by their moved, turned or resized versions.

        Parameters
        ----------
        shapes : Shape, sequence of Shape or ShapeTable
            As many shapes as the index holds, in the same order.

        Returns
        -------
        int
            How many shapes left their inflated box and were re-binned (0: the kept candidate
            lists are reused as they are).

        Raises
        ------
        ValueError
            If ``shapes`` does not hold as many shapes as the index.
        """
        coll = _Collection(shapes, "shapes")
        if len(coll) != len(self._coll):
            raise ValueError(f"shapes must hold the {len(self._coll)} shapes of the index, got {len(coll)}")
        b, box = coll.bounds, self._inflated
        with np.errstate(invalid="ignore"):
            inside = (b[:, 0] >= box[:, 0]) & (b[:, 1] >= box[:, 1]) & (b[:, 2] <= box[:, 2]) & (b[:, 3] <= box[:, 3])
        left = np.flatnonzero(~inside)
        self._coll = coll
        if left.size:
            self._inflated[left] = coll.grown(self._margin).bounds[left]
            if 4 * left.size > len(coll):  # most moved: rebuilding is cheaper than patching
                self._lists.clear()
            for d in list(self._lists):
                self._lists[d] = self._patch(self._lists[d], left, d)
        return int(left.size)

    def _grown_inflated(self, d):
        if not d:
            return self._inflated
        with np.errstate(invalid="ignore"):
            lo = np.nextafter(self._inflated[:, :2] - 0.5 * d, -np.inf)
            hi = np.nextafter(self._inflated[:, 2:] + 0.5 * d, np.inf)
        return np.concatenate([lo, hi], axis=1)

    def _candidates(self, d):
        entry = self._lists.get(d)
        if entry is None:
            pairs, shifts = _query(_Bounds(self._grown_inflated(d)), None, None, "auto", self._periodic, True)
            entry = self._lists[d] = self._entry(pairs, shifts)
        return entry

    def _entry(self, pairs, shifts):
        offsets = np.zeros(len(self._coll) + 1, dtype=np.int64)
        np.cumsum(np.bincount(pairs[0], minlength=len(self._coll)), out=offsets[1:])
        return _Candidates(pairs, shifts if self._periodic is not None else None, offsets)

    def _patch(self, entry, left, d):
        """The candidate list after the shapes ``left`` were re-binned: their old pairs out, the
        pairs of their new inflated boxes with every box in."""
        n = len(self._coll)
        moved = np.zeros(n, dtype=bool)
        moved[left] = True
        pairs, shifts = entry.pairs, entry.shifts
        keep = ~(moved[pairs[0]] | moved[pairs[1]])
        boxes = self._grown_inflated(d)
        found, found_shifts = _query(_Bounds(boxes[left]), _Bounds(boxes), None, "auto", self._periodic, True)
        i, j = left[found[0]], found[1]
        other = i != j
        i, j, found_shifts = i[other], j[other], found_shifts[other]
        swap = i > j
        i, j = np.where(swap, j, i), np.where(swap, i, j)
        found_shifts = np.where(swap[:, None], -found_shifts, found_shifts) + 0.0  # no -0.0
        all_i = np.concatenate([pairs[0, keep], i])
        all_j = np.concatenate([pairs[1, keep], j])
        key, first = np.unique(all_i * n + all_j, return_index=True)  # sorted; a pair of two movers once
        merged = np.stack([key // n, key % n])
        merged_shifts = None
        if shifts is not None:
            merged_shifts = np.concatenate([shifts[keep], found_shifts])[first]
        return self._entry(merged, merged_shifts)

    def query_pairs(
        self,
        predicate: str | None = "intersects",
        *,
        max_distance: float | None = None,
        return_shifts: bool = False,
    ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """Return every pair ``i < j`` of the current shapes that satisfies a predicate.

        Parameters
        ----------
        predicate : str or None, default "intersects"
            As for :func:`query_pairs`.
        max_distance : float, optional
            As for :func:`query_pairs`: the pairs at distance at most ``max_distance``. Each
            distance asked for keeps its own candidate list.
        return_shifts : bool, default False
            As for :func:`query_pairs`.

        Returns
        -------
        pairs : ndarray of int64, shape (2, n)
            Exactly ``query_pairs(shapes, predicate=predicate, max_distance=max_distance,
            periodic=periodic)`` of the current shapes.
        shifts : ndarray of float64, shape (n, 2)
            Only with ``return_shifts=True``.

        Examples
        --------
        >>> import collide2d as c2
        >>> index = c2.Index(c2.Box([(0, 0), (1, 0), (3, 0)], [(1, 1), (2, 1), (4, 1)]), margin=0.25)
        >>> index.query_pairs().tolist(), index.query_pairs(predicate="overlaps").tolist()
        ([[0], [1]], [[], []])
        """
        _check_predicate(predicate)
        d = _check_max_distance(max_distance, predicate) or 0.0
        if not isinstance(return_shifts, (bool, np.bool_)):
            raise TypeError(f"return_shifts must be True or False, got {return_shifts!r}")
        coll = self._coll
        if self._periodic is not None and predicate is None:  # the periodic candidates: the fresh query's own
            return _run(coll, None, None, "auto", self._periodic, return_shifts, max_distance)
        entry = self._candidates(d)
        if self._periodic is not None:
            pairs, shifts = entry.pairs, entry.shifts
        else:
            # intersects among ellipses: the fused grid's filters and kernel, in the screening pass
            fused = (d == 0.0 and predicate == "intersects" and coll.kind == "ellipse"
                     and _tame(coll.kind, coll.params, coll.verts))
            pairs = self._screen(entry, coll.grown(0.5 * d) if d else coll, fused)
            shifts = None
            if predicate is None or fused:
                return (pairs, np.zeros((pairs.shape[1], 2))) if return_shifts else pairs
        test = (functools.partial(_within.within_pairs, d=d) if d
                else functools.partial(_relate_filtered, predicate=predicate))
        keep = np.empty(pairs.shape[1], dtype=bool)
        with _threads_for(len(coll)):
            for s in range(0, pairs.shape[1], CHUNK):
                shift = None if shifts is None else shifts[s : s + CHUNK]
                keep[s : s + CHUNK] = _narrow(coll, coll, pairs[0, s : s + CHUNK], pairs[1, s : s + CHUNK], shift, test)
        pairs = np.ascontiguousarray(pairs[:, keep])
        if not return_shifts:
            return pairs
        return pairs, (shifts[keep] if shifts is not None else np.zeros((pairs.shape[1], 2)))

    def _screen(self, entry, coll, narrow):
        """The kept candidates whose current boxes (``coll.bounds``) overlap, and with ``narrow``
        (ellipses, ``intersects``) the intersecting ones: sorted (2, n)."""
        n = len(coll)
        columns_in = np.ascontiguousarray(entry.pairs[1])
        boxes = tuple(np.ascontiguousarray(coll.bounds[:, k]) for k in range(4))
        params = coll.params if narrow else np.zeros((0, 6))
        row_counts = np.zeros(n, dtype=np.int64)
        found = []
        for r0, r1, off in _row_ranges(entry.offsets, FUSED_CHUNK):
            total = int(off[-1] - off[0])
            if total == 0:
                continue
            out = np.empty(total, dtype=np.int64)
            kept = np.zeros(r1 - r0, dtype=np.int64)
            _run_grid(screen.screen_rows, total, r0, off, columns_in[off[0] : off[-1]], *boxes, params, narrow, kept, out)
            kept, columns = _finish_rows(coll, None, r0, off, kept, out, narrow)
            row_counts[r0:r1] = kept
            found.append(columns)
        pairs = np.empty((2, int(row_counts.sum())), dtype=np.int64)
        if pairs.shape[1]:
            sweep.expand_rows(row_counts, pairs[0])
            np.concatenate(found, out=pairs[1])
        return pairs

    def query(
        self,
        other: Shape | Sequence[Shape] | ShapeTable,
        predicate: str | None = "intersects",
        *,
        max_distance: float | None = None,
        return_shifts: bool = False,
    ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """Return every pair ``(i, j)`` with ``predicate(other[i], shapes[j])`` true.

        Exactly ``query(other, shapes, ...)`` of the current shapes (row 0 indexes ``other``,
        row 1 the index's shapes), computed afresh: ``other`` changes from call to call.

        Parameters
        ----------
        other : Shape, sequence of Shape or ShapeTable
            The query shapes.
        predicate : str or None, default "intersects"
            As for :func:`query`.
        max_distance : float, optional
            As for :func:`query`.
        return_shifts : bool, default False
            As for :func:`query`: the translation applied to ``shapes[j]``.

        Returns
        -------
        pairs : ndarray of int64, shape (2, n)
        shifts : ndarray of float64, shape (n, 2)
            Only with ``return_shifts=True``.

        Examples
        --------
        >>> import collide2d as c2
        >>> index = c2.Index(c2.Circle([(0, 0), (3, 0)], 1))
        >>> index.query(c2.Segment((-2, 0.5), (5, 0.5))).tolist()
        [[0, 0], [0, 1]]
        """
        return _run(_Collection(other, "other"), self._coll, predicate, "auto", self._periodic, return_shifts,
                    max_distance)

    @overload
    def query_nearest(
        self, shapes: Shapes, *, max_distance: float | None = None, return_distance: Literal[False] = False,
        all_matches: bool = True, exclusive: bool = False,
    ) -> IntArray: ...
    @overload
    def query_nearest(
        self, shapes: Shapes, *, max_distance: float | None = None, return_distance: Literal[True],
        all_matches: bool = True, exclusive: bool = False,
    ) -> tuple[IntArray, FloatArray]: ...
    def query_nearest(
        self, shapes: Shapes, *, max_distance: float | None = None, return_distance: bool = False,
        all_matches: bool = True, exclusive: bool = False,
    ) -> IntArray | tuple[IntArray, FloatArray]:
        """For each of ``shapes``, the nearest of the index's current shapes: :func:`collide2d.query_nearest`.

        Exactly ``query_nearest(index, shapes, ...)``; see there for the arguments, the result and
        how it compares with shapely's ``STRtree.query_nearest``. The search is made afresh on the
        current shapes (the kept candidate lists serve :meth:`query_pairs` only).

        Raises
        ------
        ValueError
            For a periodic index (the nearest image is not searched), and as
            :func:`collide2d.query_nearest`.

        Examples
        --------
        >>> import collide2d as c2
        >>> index = c2.Index(c2.Circle([(0, 0), (4, 0), (8, 0)], 1))
        >>> index.query_nearest(c2.Point([(2, 0), (7, 1)])).tolist()  # (2, 0) is 1 from both 0 and 1
        [[0, 0, 1], [0, 1, 2]]
        """
        from collide2d import _nearest

        limit = _nearest.check_arguments(max_distance, return_distance, all_matches, exclusive)
        if self._periodic is not None:
            raise ValueError("query_nearest does not search periodic images: build the Index without periodic")
        pairs, distances = _nearest.nearest(_Collection(shapes, "shapes"), self._coll, limit, all_matches, exclusive,
                                            _box_candidates)
        return (pairs, distances) if return_distance else pairs


class PairMeasures(NamedTuple):
    """Everything a simulation step or a catalogue comparison needs about a list of pairs.

    Arrays of length ``n`` (vectors of shape ``(n, 2)``); see :func:`collide2d.contact` for the
    meaning and signs of the contact fields. ``iou`` is NaN when a shape of the pair has no area.

    Examples
    --------
    >>> import collide2d as c2
    >>> boxes = c2.Box([(0, 0), (1, 0)], [(2, 1), (3, 1)])
    >>> m = c2.measure_pairs(boxes, c2.query_pairs(boxes))
    >>> m.overlap_area.tolist(), m.iou.tolist()
    ([1.0], [0.3333333333333333])
    """

    relation: Int8Array
    separation: FloatArray
    normal: FloatArray
    point_a: FloatArray
    point_b: FloatArray
    curvature_a: FloatArray
    curvature_b: FloatArray
    overlap_area: FloatArray
    iou: FloatArray

    def to_dataframe(self, pairs: ArrayLike | None = None, ids: ArrayLike | None = None) -> Any:
        """Return a pandas DataFrame with one row per pair (vectors as ``_x``/``_y`` columns).

        Parameters
        ----------
        pairs : array_like of int, shape (2, n), optional
            The pairs measured: adds the columns ``a`` and ``b``.
        ids : array_like, optional
            Labels of the shapes (for example a catalogue's index), used for ``a`` and ``b``.

        Returns
        -------
        pandas.DataFrame
            See :func:`collide2d.convert.pair_measures_to_dataframe`.

        Examples
        --------
        >>> import collide2d as c2
        >>> circles = c2.Circle([(0, 0), (1.5, 0), (4, 0)], 1)
        >>> pairs = c2.query_pairs(circles)
        >>> df = c2.measure_pairs(circles, pairs).to_dataframe(pairs, ids=["p", "q", "r"])
        >>> df[["a", "b", "relation", "separation", "overlap_area"]].round(6)
           a  b     relation  separation  overlap_area
        0  p  q  OVERLAPPING        -0.5      0.453312
        """
        return _formats.pair_measures_frame(self, pairs, ids, predicates.Relation)


_REGION_KINDS = ("ellipse", "polygon", "rounded")  # rounded: overlap_area raises NotImplementedError


def measure_pairs(shapes: Shapes, pairs: ArrayLike, /, *, shifts: ArrayLike | None = None) -> PairMeasures:
    """Return relation, contact, overlap area and IoU of every pair found by :func:`query_pairs`.

    Parameters
    ----------
    shapes : Shape, sequence of Shape or ShapeTable
        The collection given to :func:`query_pairs`.
    pairs : array_like of int, shape (2, n)
        Its result (row 0 the first shape of each pair).
    shifts : array_like of float, shape (n, 2), optional
        The image shifts from ``query_pairs(..., periodic=..., return_shifts=True)``: the second
        shape of each pair is moved by its shift before measuring.

    Returns
    -------
    PairMeasures
        ``relation`` (int8 codes of :class:`collide2d.Relation`), ``separation``, ``normal``,
        ``point_a``, ``point_b``, ``curvature_a``, ``curvature_b``, ``overlap_area``, ``iou``.

    Raises
    ------
    TypeError
        When ``shifts`` is not numeric.
    ValueError
        When ``pairs`` is not an integer array of shape (2, n), or holds an index that is
        negative or not below the number of shapes (negative indices do not count from the end);
        when ``shifts`` is not finite, not of shape (n, 2), or moves a shape beyond the supported
        range of coordinates.

    Examples
    --------
    >>> import collide2d as c2
    >>> circles = c2.Circle([(0, 0), (1.5, 0), (4, 0)], [1, 1, 1.5])
    >>> pairs = c2.query_pairs(circles)
    >>> m = c2.measure_pairs(circles, pairs)
    >>> pairs.tolist(), m.separation.tolist(), m.normal.tolist()
    ([[0, 1], [1, 2]], [-0.5, 0.0], [[1.0, 0.0], [1.0, 0.0]])
    """
    from collide2d import measurement, overlay

    pairs = np.asarray(pairs)
    if pairs.ndim != 2 or pairs.shape[0] != 2 or not np.issubdtype(pairs.dtype, np.integer):
        raise ValueError(f"pairs must be an integer array of shape (2, n), got {pairs.dtype} {pairs.shape}")
    n = pairs.shape[1]
    if n:
        count = int(_pairs._sources(shapes)[1][-1])
        low, high = int(pairs.min()), int(pairs.max())
        if low < 0 or high >= count:
            wrong = low if low < 0 else high
            within = f"shapes 0 to {count - 1}" if count else "no shape (the collection is empty)"
            raise ValueError(f"pairs must index {within}; got {wrong}")
    if shifts is not None:
        shifts = as_float_array(shifts, "shifts")  # numbers, finite
        if shifts.shape != (n, 2):
            raise ValueError(f"shifts must have shape ({n}, 2) to match pairs, got {shifts.shape}")
    out = PairMeasures(
        np.zeros(n, dtype=np.int8), np.zeros(n), np.zeros((n, 2)), np.zeros((n, 2)), np.zeros((n, 2)),
        np.zeros(n), np.zeros(n), np.zeros(n), np.full(n, np.nan),
    )
    for where, a, b in pair_batches(shapes, pairs, shifts):
        m = len(where)
        if shifts is not None:
            try:
                check_range(type(b).__name__.lower(), b._fields)
            except ValueError as error:
                raise ValueError(f"shifts must keep the moved shapes in the supported range: {error}") from None
        out.relation[where] = np.broadcast_to(np.asarray(predicates.relate(a, b), dtype=np.int8), (m,))
        contact = measurement.contact(a, b)
        for name in ("separation", "curvature_a", "curvature_b"):
            getattr(out, name)[where] = np.broadcast_to(getattr(contact, name), (m,))
        for name in ("normal", "point_a", "point_b"):
            getattr(out, name)[where] = np.broadcast_to(getattr(contact, name), (m, 2))
        if a._kind in _REGION_KINDS and b._kind in _REGION_KINDS:
            out.overlap_area[where] = np.broadcast_to(overlay.overlap_area(a, b), (m,))
            out.iou[where] = np.broadcast_to(overlay.iou(a, b), (m,))
    return out
