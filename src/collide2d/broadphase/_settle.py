"""Deciding the candidate pairs: the narrow phase (the relate kernel of each kind pair behind the
bounding-circle filter, or a distance test), the end of a grid pass (the full ``intersects``
kernel on what the grid's filters left open, then the exact fallback on what the float kernel
left undecided), and when a pass runs on both cores.
"""

from __future__ import annotations

import contextlib

import numpy as np

from collide2d import _jit
from collide2d._glue import run
from collide2d._robust import ladder
from collide2d._glue.registry import INTERSECTS
from collide2d._pairs import shifted_rows
from collide2d.broadphase._inputs import PREDICATES, conic, grid, sweep
from collide2d.table import KIND_NAMES

SERIAL_BELOW = 20_000  # fewer shapes than this run on one thread (all but the fused grid)
PARALLEL_WORK = 8192  # elements or candidates per pass from which the fused grid uses every thread


def _tame(kind, params, verts):
    """Whether every row lies where the float kernels' error bounds hold (:mod:`collide2d._robust.magnitude`);
    other rows skip the fused grid and the circle filter, whose float tests assume that range."""
    return bool(np.all(ladder.table_tame(kind, params, verts)))


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


def _threads_for(size):
    """Run small problems on the calling thread only: starting threads costs more than it saves
    below ``SERIAL_BELOW`` shapes (and much more on a busy machine); other threads keep theirs."""
    return contextlib.nullcontext() if size >= SERIAL_BELOW else _jit.one_thread()


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
    coll_b = coll_a if coll_b is None else coll_b
    where = np.flatnonzero(columns < 0)
    rows = np.searchsorted(kept_offsets, where, side="right") - 1
    drop = np.zeros(columns.size, dtype=bool)
    for k, r in zip(where.tolist(), rows.tolist()):
        j = -1 - int(columns[k])
        flag = run.exact_pair(INTERSECTS, "ellipse", coll_a.params[r0 + r], coll_a.verts,
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


# -- narrow phase ---------------------------------------------------------------------------------


def _relate_filtered(kind_a, params_a, verts_a, ia, kind_b, params_b, verts_b, jb, predicate):
    """Predicate values for one kind pair; ellipse pairs first go through the bounding-circle filter."""
    table = PREDICATES[predicate]
    if kind_a != "ellipse" or kind_b != "ellipse" or ia.size == 0 or not (
        _tame(kind_a, params_a[ia], verts_a) and _tame(kind_b, params_b[jb], verts_b)
    ):
        return table[run.relate_rows(kind_a, params_a, verts_a, ia, kind_b, params_b, verts_b, jb)]
    status = np.empty(ia.shape[0], dtype=np.int8)
    sweep.ellipse_pair_filter(params_a, ia, params_b, jb, 0.0, status)
    result = np.zeros(ia.shape[0], dtype=bool)  # status 0: disjoint, no predicate holds
    if predicate in ("intersects", "touches"):  # status 1: the interiors meet
        result[status == 1] = predicate == "intersects"
        rest = np.flatnonzero(status == 2)
    else:
        rest = np.flatnonzero(status != 0)
    codes = run.relate_rows(kind_a, params_a, verts_a, ia[rest], kind_b, params_b, verts_b, jb[rest])
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
