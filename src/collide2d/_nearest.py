"""The nearest shapes of one collection to each shape of another, by exact distance.

The search behind :func:`collide2d.query_nearest` and :meth:`collide2d.Index.query_nearest`.
Every step rests on one rule: if the smallest exact distance ``b`` among a query's candidates is
at most a reach ``r``, and the candidates include every tree shape whose bounding box lies within
``r`` of the query's box, the query is settled, because a shape at distance ``<= b`` has its box
within ``b <= r`` of the query's box. (Distances are :func:`collide2d.distance`'s, bit for bit:
the float separation of the contact kernels, its sign made exact, clamped at 0,
:func:`pair_distances`.)

1. *First pass*, on the broad phase the caller passes in (``candidates(boxes_q, boxes_t)``, the
   pairs of overlapping boxes, :func:`collide2d.query` with ``predicate=None``): both sides' boxes
   grown by ``r / 2``, for ``r`` the 90th percentile of the nearest distances of a sample of the
   queries (:func:`_first_reach`, capped at ``max_distance``). Their distances settle the queries
   whose nearest is within ``r``, about nine in ten. It is skipped for few queries, and when the
   sample shows that it would meet many tree shapes per query (large or crowded shapes).
2. *Tree search* for the others (far from the tree, or with a nearest beyond ``r``): the tree's
   boxes packed into an R-tree (Sort-Tile-Recursive, :class:`_Tree`), and for each query one
   depth-first search (:func:`collide2d._kernels.broadphase.nearest.nearest_rows`) that lowers a
   reach ``U``, from ``max_distance``, to the smallest ``MAXDIST`` between the query's box and a
   tree box (an upper bound of the nearest distance) and lists the tree shapes whose boxes lie
   within ``U``. Their distances settle every query whose nearest is within ``U``; a query whose
   nearest candidate lies beyond ``U`` (possible only with ``exclusive``, when ``U`` came from a
   dropped shape) is searched once more with that distance as the reach.

With ``exclusive`` the equal tree shapes are dropped before the smallest distance is taken, and
a tree box identical to the query's does not lower ``U``. Reaches carry a slack of ``2**-30``
times the largest coordinate, far above the few ulps by which a float distance or a box distance
can be off, so that no shape whose float distance ties the nearest is left out.

The work per query is the tree shapes (and nodes) within its reach: a few where shapes are about
as large as their spacing, also for a query far from the whole tree (its candidates are the tree
shapes near the point of the tree nearest to it); more where large boxes overlap the query's (a
line meets every box along it).
"""

from __future__ import annotations

import math

import numpy as np

from collide2d import _within, measurement
from collide2d._glue import run
from collide2d._kernels import codes
from collide2d._validate import is_real_scalar
from collide2d.table import KIND_NAMES

LEAF = 8  # boxes per node of the tree
SLACK = 2.0**-30  # the reach's slack, relative to the largest coordinate (see the module docstring)
QUERY_CHUNK = 1 << 16  # queries per pass (bounds the candidates held at once)
SAMPLE = 256  # queries whose nearest distances choose the first reach; fewer queries: no first pass
FIRST_QUANTILE = 0.9  # the first reach: this quantile of the sample's nearest distances
FIRST_PASS_BUDGET = 32  # tree shapes per query within the first reach, on average, at most
GRID_CELLS = 2.0  # the broad phase's smallest cell (span / tree shapes), in grown box extents, at most


def _kernels():
    import importlib

    return importlib.import_module("collide2d._kernels.broadphase.nearest")


def check_arguments(max_distance, return_distance, all_matches, exclusive):
    """``max_distance`` as a float (``None`` for no limit); TypeError or ValueError on bad input."""
    if max_distance is not None:
        if isinstance(max_distance, np.bool_) or not is_real_scalar(max_distance):
            raise TypeError(f"max_distance must be a real number or None, got {type(max_distance).__name__}")
        limit = float(max_distance)
        if not limit >= 0.0:
            raise ValueError(f"max_distance must be >= 0 (None or inf for no limit), got {max_distance!r}")
        max_distance = None if limit == math.inf else limit
    for name, value in (("return_distance", return_distance), ("all_matches", all_matches), ("exclusive", exclusive)):
        if not isinstance(value, (bool, np.bool_)):
            raise TypeError(f"{name} must be True or False, got {value!r}")
    return max_distance


def _kind_groups(coll_a, coll_b, ia, jb):
    """``(kind_a, kind_b, selection)`` for each kind pair among the pairs ``(ia[k], jb[k])``."""
    if coll_a.kind is not None and coll_b.kind is not None:
        return [(coll_a.kind, coll_b.kind, slice(None))]
    n = len(KIND_NAMES)
    pair_kind = coll_a.kind_codes(ia).astype(np.int16) * n + coll_b.kind_codes(jb)
    return [(KIND_NAMES[code // n], KIND_NAMES[code % n], np.flatnonzero(pair_kind == code))
            for code in np.unique(pair_kind).tolist()]


def pair_distances(coll_a, coll_b, ia, jb):
    """``distance(a[ia[k]], b[jb[k]])`` for every ``k``, as :func:`collide2d.distance` returns it."""
    out = np.empty(ia.shape[0])
    for kind_a, kind_b, sel in _kind_groups(coll_a, coll_b, ia, jb):
        ga, gb = ia[sel], jb[sel]
        sep = _within.separation_rows(kind_a, coll_a.params, coll_a.verts, ga, kind_b, coll_b.params, coll_b.verts, gb)
        measurement.sign_consistent_rows(kind_a, coll_a.params, coll_a.verts, ga, kind_b, coll_b.params,
                                         coll_b.verts, gb, sep)
        out[sel] = np.maximum(sep, 0.0)
    return out


def _equal(coll_a, coll_b, ia, jb):
    """Exact :func:`collide2d.equals` of the pairs ``(a[ia[k]], b[jb[k]])``."""
    out = np.zeros(ia.shape[0], dtype=bool)
    for kind_a, kind_b, sel in _kind_groups(coll_a, coll_b, ia, jb):
        code = run.relate_rows(kind_a, coll_a.params, coll_a.verts, ia[sel], kind_b, coll_b.params,
                                      coll_b.verts, jb[sel])
        out[sel] = code == codes.EQUAL
    return out


def grow_bounds(bounds, h):
    """``bounds`` (rows ``xmin, ymin, xmax, ymax``) grown by ``h`` on every side, rounded outward."""
    with np.errstate(invalid="ignore"):
        lo = np.nextafter(bounds[:, :2] - h, -np.inf)
        hi = np.nextafter(bounds[:, 2:] + h, np.inf)
    return np.concatenate([lo, hi], axis=1)


def _first_reach(coll_q, coll_t, tree, slack, limit, exclusive):
    """The reach of the first pass, or ``inf`` for none.

    The ``FIRST_QUANTILE`` quantile of the nearest distances of an evenly strided sample of
    ``SAMPLE`` queries (by the tree search), so that the first pass settles about nine queries in
    ten and meets, per query, the tree shapes within a typical nearest distance; ``inf`` when the sample finds within that reach
    more than ``FIRST_PASS_BUDGET`` tree shapes per query on average (a few large shapes, or
    dense spots among sparse ones: the tree search, whose reach adapts to each query, is then
    cheaper).
    """
    nq = len(coll_q)
    sample = np.arange(0, nq, max(1, nq // SAMPLE))
    found = []
    _search(coll_q, coll_t, tree, sample, slack, limit, exclusive, found)
    i, _, dist = (np.concatenate(part) for part in zip(*found))
    nearest = np.full(sample.size, np.inf)
    nearest[np.searchsorted(sample, i)] = dist
    reach = min(float(np.quantile(nearest, FIRST_QUANTILE, method="higher")), limit)  # no inf - inf
    if not math.isfinite(reach):
        return math.inf
    # the broad phase's grid has at most about one cell per tree shape over the span of all the
    # boxes: when that cell is much larger than a grown box, the shapes crowd into few cells
    # (a cluster with outliers) and each query would scan a crowd
    every = np.concatenate([coll_q.bounds, coll_t.bounds])
    every = every[np.isfinite(every).all(axis=1)]
    sample_t = coll_t.bounds[:: max(1, len(coll_t) // SAMPLE)]
    with np.errstate(invalid="ignore"):
        extent = np.median(np.maximum(sample_t[:, 2] - sample_t[:, 0], sample_t[:, 3] - sample_t[:, 1]))
    span = 0.0
    if every.size:
        span = float(max(every[:, 2].max() - every[:, 0].min(), every[:, 3].max() - every[:, 1].min()))
    if span > GRID_CELLS * (len(coll_t) + 16) * (reach + float(extent)):
        return math.inf
    boxes = [np.ascontiguousarray(coll_q.bounds[sample, k]) for k in range(4)]
    met = _candidates(tree, boxes, np.full(sample.size, reach), False, False, slack, 4 * FIRST_PASS_BUDGET)[1].size
    return reach if met <= FIRST_PASS_BUDGET * sample.size else math.inf


def _str_order(bounds, per_node):
    """Sort-Tile-Recursive order of boxes: ``sqrt(groups)`` vertical slabs by centre x, each
    sorted by centre y, so that runs of ``per_node`` boxes are compact tiles."""
    n = bounds.shape[0]
    with np.errstate(invalid="ignore"):  # the centre of an unbounded box is NaN or infinite: sorted last or first
        cx, cy = bounds[:, 0] + bounds[:, 2], bounds[:, 1] + bounds[:, 3]
    groups = -(-n // per_node)
    slabs = max(1, math.ceil(math.sqrt(groups)))
    per_slab = -(-groups // slabs) * per_node
    slab = np.empty(n, dtype=np.int64)
    slab[np.argsort(cx, kind="stable")] = np.arange(n) // per_slab
    return np.lexsort((cy, slab))


class _Tree:
    """A packed R-tree of the tree shapes' boxes (see :mod:`collide2d._kernels.broadphase.nearest`).

    ``item[t]``: the tree index of leaf position ``t``; ``arrays``: the leaf boxes and the
    nodes, as :func:`nearest.nearest_rows` takes them. Each level groups ``LEAF`` consecutive
    boxes of the level below (in STR order) and is put in STR order of its own boxes.
    """

    def __init__(self, bounds):
        self.item = _str_order(bounds, LEAF)
        boxes = bounds[self.item]
        items = [np.ascontiguousarray(boxes[:, k]) for k in range(4)]
        levels, base, is_leaf, offset = [], 0, True, 0
        while True:  # one level of nodes over the boxes below (children ``base + ...``), in STR order
            starts = np.arange(0, boxes.shape[0], LEAF)
            node_boxes = np.stack([np.minimum.reduceat(boxes[:, 0], starts), np.minimum.reduceat(boxes[:, 1], starts),
                                   np.maximum.reduceat(boxes[:, 2], starts), np.maximum.reduceat(boxes[:, 3], starts)],
                                  axis=1)
            children = np.stack([base + starts, base + np.minimum(starts + LEAF, boxes.shape[0])], axis=1)
            order = _str_order(node_boxes, LEAF)
            levels.append((node_boxes[order], children[order], np.full(order.size, is_leaf)))
            if order.size <= LEAF:
                break
            boxes, is_leaf, base = node_boxes[order], False, offset
            offset += order.size
        node_boxes, children, leaf = (np.concatenate(part) for part in zip(*levels))
        nodes = [np.ascontiguousarray(node_boxes[:, k]) for k in range(4)]
        root1 = node_boxes.shape[0]
        self.arrays = (*items, *nodes, np.ascontiguousarray(children[:, 0]), np.ascontiguousarray(children[:, 1]),
                       leaf, root1 - levels[-1][0].shape[0], root1, len(levels))


def _candidates(tree, boxes, bound, use_max, skip_same, slack, most=2**62):
    """``(rows, leaf positions, U)`` of :func:`nearest.nearest_rows` over every row of ``boxes``."""
    from collide2d import _jit

    n = boxes[0].shape[0]
    out_bound = np.empty(n)
    pieces = {}

    def piece(r0, r1):
        pieces[r0] = _kernels().nearest_rows(r0, r1, *boxes, bound, use_max, skip_same, *tree.arrays, slack, most,
                                             out_bound)

    _jit.run_in_threads(n, piece)
    counts, positions = (np.concatenate(part) for part in zip(*(pieces[r0] for r0 in sorted(pieces))))
    return np.repeat(np.arange(n), counts), positions, out_bound


def nearest(coll_q, coll_t, max_distance, all_matches, exclusive, candidates):
    """``(pairs, distances)`` of :func:`collide2d.query_nearest`: for each query shape the tree
    shapes at the smallest distance (``<= max_distance`` when given), sorted by query then tree
    index. ``coll_q``, ``coll_t``: flat collections (``bounds``, ``params``, ``verts``,
    ``kind``, ``kind_codes``; see :class:`collide2d.broadphase._Collection`); ``candidates``:
    the broad phase (see the module docstring)."""
    nq, nt = len(coll_q), len(coll_t)
    found = []
    if nq and nt:
        every = np.concatenate([coll_q.bounds.ravel(), coll_t.bounds.ravel()])
        slack = SLACK * float(np.abs(every[np.isfinite(every)]).max(initial=0.0))
        limit = math.inf if max_distance is None else max_distance
        tree = _Tree(coll_t.bounds)
        reach = _first_reach(coll_q, coll_t, tree, slack, limit, exclusive) if nq > SAMPLE else math.inf
        for start in range(0, nq, QUERY_CHUNK):
            rows = np.arange(start, min(start + QUERY_CHUNK, nq))
            if math.isfinite(reach):
                rows = _first_pass(coll_q, coll_t, candidates, rows, reach, limit, slack, exclusive, found)
            if rows.size:
                _search(coll_q, coll_t, tree, rows, slack, limit, exclusive, found)
    if not found:
        return np.empty((2, 0), dtype=np.int64), np.empty(0)
    i, j, dist = (np.concatenate(part) for part in zip(*found))
    order = np.lexsort((j, i))
    i, j, dist = i[order], j[order], dist[order]
    if not all_matches and i.size:  # the lowest tree index of each query
        first = np.concatenate([[True], i[1:] != i[:-1]])
        i, j, dist = i[first], j[first], dist[first]
    return np.stack([i, j]).astype(np.int64), dist


def _measure(coll_q, coll_t, rows, local, j, exclusive):
    """The candidate pairs ``(rows[local[k]], j[k])``: ``(local, i, j, distance)`` (``exclusive``:
    the equal tree shapes dropped) and the smallest distance of each row."""
    i = rows[local]
    dist = pair_distances(coll_q, coll_t, i, j)
    if exclusive:
        zero = np.flatnonzero(dist == 0.0)
        keep = np.ones(i.size, dtype=bool)
        keep[zero[_equal(coll_q, coll_t, i[zero], j[zero])]] = False
        local, i, j, dist = local[keep], i[keep], j[keep], dist[keep]
    best = np.full(rows.size, np.inf)
    np.minimum.at(best, local, dist)
    return (local, i, j, dist), best


def _ties(measured, best, settled):
    """``(i, j, distance)`` of the pairs at their row's smallest distance, in the settled rows."""
    local, i, j, dist = measured
    keep = settled[local] & (dist == best[local])
    return i[keep], j[keep], dist[keep]


def _first_pass(coll_q, coll_t, candidates, rows, reach, limit, slack, exclusive, found):
    """Settle the queries ``rows`` whose nearest tree shape lies within ``reach`` (the tree
    shapes whose boxes are within ``reach`` of theirs along both axes, from the broad phase);
    append their pairs to ``found`` and return the others."""
    half = 0.5 * (reach + slack)  # both sides grown by half: boxes of like sizes keep the broad phase on its grid
    pairs = candidates(grow_bounds(coll_q.bounds[rows], half), grow_bounds(coll_t.bounds, half))
    measured, best = _measure(coll_q, coll_t, rows, pairs[0], pairs[1], exclusive)
    settled = (best <= reach) | (reach >= limit)  # reach == max_distance: every shape within it was met
    found.append(_ties(measured, best, settled & (best <= limit)))
    return rows[~settled]


def _search(coll_q, coll_t, tree, rows, slack, limit, exclusive, found):
    """Settle the queries ``rows`` by the tree search (see the module docstring); append their
    pairs to ``found``."""
    boxes = [np.ascontiguousarray(coll_q.bounds[rows, k]) for k in range(4)]
    local, positions, bound = _candidates(tree, boxes, np.full(rows.size, limit), True, exclusive, slack)
    measured, best = _measure(coll_q, coll_t, rows, local, tree.item[positions], exclusive)
    # settled: the nearest is within U, so among the candidates; or U is max_distance, and every
    # tree shape within it was a candidate
    settled = (best <= bound) | (bound >= limit)
    found.append(_ties(measured, best, settled & (best <= limit)))
    again = np.flatnonzero(~settled)  # exclusive only: U came from a dropped shape
    if again.size:
        sub = [box[again] for box in boxes]
        local, positions, _ = _candidates(tree, sub, np.minimum(best[again], limit), False, exclusive, slack)
        measured, best = _measure(coll_q, coll_t, rows[again], local, tree.item[positions], exclusive)
        found.append(_ties(measured, best, best <= limit))
