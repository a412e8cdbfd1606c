"""The nearest shapes of one collection to each shape of another, by exact distance.

The search behind :func:`collide2d.query_nearest` and :meth:`collide2d.Index.query_nearest`. The
broad phase comes in as ``candidates(boxes_q, boxes_t)``: the pairs ``(row of boxes_q, row of
boxes_t)`` whose closed boxes overlap, sorted by row then column (the broad phase of
:func:`collide2d.query` with ``predicate=None``), so that this module sits below it.

For each query shape ``q`` the search grows ``q``'s box by a reach ``h`` on every side: a tree
shape at distance ``<= h`` from ``q`` has its box within ``h`` of ``q``'s box along both axes, so
it is among the candidates (a superset). The exact distance of every candidate gives the
nearest distance ``b`` among them; when ``b <= h`` no shape outside the candidates can be
nearer, and the query is settled. A query whose candidates are all farther than ``h`` has the
upper bound ``b`` on its nearest distance and is settled by one more pass with its box grown by
``b``; a query without candidates tries again with ``h`` doubled. The first reach is the mean
spacing of the tree's box centres, ``sqrt(area / n)``, so that a query meets a few tree shapes
on average; the reach never exceeds ``max_distance`` nor the span of all the finite
coordinates (within which every box is within reach of every other).

The distances are :func:`collide2d.distance`'s, bit for bit (the float separation of the
contact kernels, its sign made exact, clamped at 0); the grown boxes carry a slack of ``2**-30``
times the largest coordinate, far above the few ulps by which a float distance can fall short of
the true one, so that no shape whose float distance ties the nearest is left out.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d import _dispatch, _within, measurement
from collide2d._kernels import codes
from collide2d._validate import is_real_scalar
from collide2d.table import KIND_NAMES

GROWTH = 2.0  # factor of the reach between passes for queries with no candidate yet
SLACK = 2.0**-30  # the boxes' slack, relative to the largest coordinate (see the module docstring)
QUERY_CHUNK = 1 << 16  # queries per search, at least (bounds the candidates held at once)


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
        code = _dispatch.relate_pairs(kind_a, coll_a.params, coll_a.verts, ia[sel], kind_b, coll_b.params,
                                      coll_b.verts, jb[sel])
        out[sel] = code == codes.EQUAL
    return out


def _grow(bounds, h):
    """``bounds`` grown by ``h`` (a float or a column of them) on every side, rounded outward."""
    with np.errstate(invalid="ignore"):
        lo = np.nextafter(bounds[:, :2] - h, -np.inf)
        hi = np.nextafter(bounds[:, 2:] + h, np.inf)
    return np.concatenate([lo, hi], axis=1)


def _first_reach(tree_bounds):
    """The mean spacing of the finite tree boxes' centres (``inf`` when there is none)."""
    b = tree_bounds[np.isfinite(tree_bounds).all(axis=1)]
    if b.shape[0] == 0:
        return math.inf
    cx, cy = b[:, 0] + b[:, 2], b[:, 1] + b[:, 3]  # twice the centres
    width, height = 0.5 * float(cx.max() - cx.min()), 0.5 * float(cy.max() - cy.min())
    if width > 0.0 and height > 0.0:
        return math.sqrt(width * height / b.shape[0])
    return max(width, height) / b.shape[0] or math.inf  # on a line, or all at one spot


class _Pass:
    """One broad phase pass: the candidates of the queries ``rows`` within their reach, their
    distances (``exclusive``: equal tree shapes dropped) and each query's nearest distance."""

    def __init__(self, coll_q, coll_t, candidates, rows, reach, exclusive):
        pairs = candidates(_grow(coll_q.bounds[rows], reach), coll_t.bounds)
        self.i, self.j = rows[pairs[0]], pairs[1]
        self.dist = pair_distances(coll_q, coll_t, self.i, self.j)
        if exclusive:
            zero = np.flatnonzero(self.dist == 0.0)
            drop = zero[_equal(coll_q, coll_t, self.i[zero], self.j[zero])]
            if drop.size:
                keep = np.ones(self.i.size, dtype=bool)
                keep[drop] = False
                self.i, self.j, self.dist = self.i[keep], self.j[keep], self.dist[keep]
        self.best = np.full(len(coll_q), np.inf)
        if self.i.size:  # the rows come sorted: the minimum of each run of equal i
            starts = np.flatnonzero(np.concatenate([[True], self.i[1:] != self.i[:-1]]))
            self.best[self.i[starts]] = np.minimum.reduceat(self.dist, starts)

    def ties(self, settled, all_matches):
        """The pairs ``(i, j, distance)`` of the settled queries at their nearest distance."""
        keep = np.flatnonzero(settled[self.i] & (self.dist == self.best[self.i]))
        if not all_matches and keep.size:  # the lowest tree index: the first of each row
            keep = keep[np.concatenate([[True], self.i[keep[1:]] != self.i[keep[:-1]]])]
        return self.i[keep], self.j[keep], self.dist[keep]


def nearest(coll_q, coll_t, candidates, max_distance, all_matches, exclusive):
    """``(pairs, distances)`` of :func:`collide2d.query_nearest`: for each query shape the tree
    shapes at the smallest distance (``<= max_distance`` when given), sorted by query then tree
    index. ``coll_q``, ``coll_t``: flat collections (``bounds``, ``params``, ``verts``,
    ``kind``, ``kind_codes``), ``candidates`` the broad phase (see the module docstring)."""
    nq, nt = len(coll_q), len(coll_t)
    found = []
    if nq and nt:
        every = np.concatenate([coll_q.bounds.ravel(), coll_t.bounds.ravel()])
        every = every[np.isfinite(every)]
        span = float(every.max() - every.min()) if every.size else 0.0
        slack = SLACK * float(np.abs(every).max(initial=0.0))
        cap = span if max_distance is None else min(max_distance, span)
        first = min(_first_reach(coll_t.bounds), cap)
        chunk = max(QUERY_CHUNK, nt)
        for start in range(0, nq, chunk):
            rows = np.arange(start, min(start + chunk, nq))
            found += _search(coll_q, coll_t, candidates, rows, first, cap, slack, max_distance, all_matches, exclusive)
    if not found:
        return np.empty((2, 0), dtype=np.int64), np.empty(0)
    i, j, dist = (np.concatenate(part) for part in zip(*found))
    order = np.lexsort((j, i))
    return np.stack([i[order], j[order]]).astype(np.int64), dist[order]


def _search(coll_q, coll_t, candidates, pending, h, cap, slack, max_distance, all_matches, exclusive):
    """The nearest pairs of the queries ``pending`` (see the module docstring), as a list of
    ``(i, j, distance)`` arrays."""
    limit = math.inf if max_distance is None else max_distance
    found, bounded, bound = [], [], []
    while pending.size:
        step = _Pass(coll_q, coll_t, candidates, pending, h + slack, exclusive)
        best = step.best[pending]
        complete = h >= cap  # every tree shape within cap is a candidate
        settled = (best <= h) | (complete & (best <= limit))
        mask = np.zeros(len(coll_q), dtype=bool)
        mask[pending[settled]] = True
        found.append(step.ties(mask, all_matches))
        if not complete:
            more = ~settled & np.isfinite(best)  # an upper bound: one pass with that reach
            bounded.append(pending[more])
            bound.append(np.minimum(best[more], limit))
            pending = pending[np.isinf(best)]
            h = min(GROWTH * h, cap)
        else:
            pending = pending[:0]
    rows = np.concatenate(bounded) if bounded else np.empty(0, dtype=np.int64)
    if rows.size:
        reach = np.concatenate(bound)[:, None] + slack
        step = _Pass(coll_q, coll_t, candidates, rows, reach, exclusive)
        mask = np.zeros(len(coll_q), dtype=bool)
        mask[rows] = step.best[rows] <= limit
        found.append(step.ties(mask, all_matches))
    return found
