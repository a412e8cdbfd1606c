"""Pairs found by the broad phase as batches the pairwise operations accept.

:func:`pair_batches` turns the pairs of :func:`collide2d.query_pairs` (with their periodic shifts)
into batches; :func:`shifted_rows` is the one translation of stored kernel rows, shared by the
periodic narrow phase and :func:`translate`, so that :func:`collide2d.measure_pairs` measures the
very numbers the query tested.
"""

from __future__ import annotations

import numpy as np

from collide2d._glue import run
from collide2d.shapes import Shape
from collide2d.table import ShapeTable

def shifted_rows(kind, params, verts, index, shift):
    """Kernel rows (and vertices) of ``params[index]`` translated by ``shift`` (shape (k, 2)).

    The one translation of stored shapes: :func:`translate` and the periodic narrow phase of
    :func:`collide2d.query_pairs` both use it, so that :func:`collide2d.measure_pairs` measures
    the very numbers the query tested (a polygon's stored vertices plus the shift, rounded once;
    rebuilding a rotated box from its moved centre would round its corners differently).
    """
    rows = np.array(params[index], dtype=np.float64)
    shift = np.asarray(shift, dtype=np.float64)
    if kind in ("polygon", "rounded"):
        core = rows[:, 1] >= 3 if kind == "rounded" else True  # a rounded row: its polygon core, if any
        offsets = rows[:, 0].astype(np.int64)
        counts = np.where(core, rows[:, 1], 0).astype(np.int64)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        gather = np.repeat(offsets - starts, counts) + np.arange(int(counts.sum()))
        new_verts = verts[gather] + np.repeat(shift, counts, axis=0)
        rows[:, 0] = np.where(core, starts, 0)
        verts = np.ascontiguousarray(new_verts)
        verts.flags.writeable = False
        if kind == "rounded":  # the end points of segment and point cores (zero for polygon cores: kept)
            rows[:, 3:7] += np.where(core[:, None], 0.0, np.tile(shift, 2))
    else:
        rows[:, 0:2] += shift
        if kind == "segment":
            rows[:, 2:4] += shift
    rows.flags.writeable = False  # read-only like the shapes' own rows: the same compiled loops
    return rows, verts


def translate(shape, offset):
    """Return ``shape`` moved by ``offset`` (shape ``(2,)`` or ``(n, 2)``, broadcast with the batch).

    The stored kernel rows are moved (:func:`shifted_rows`), not rebuilt from the moved fields, so
    the result is exactly what the periodic narrow phase of :func:`collide2d.query_pairs` tests.

    Examples
    --------
    >>> import collide2d as c2
    >>> from collide2d import _pairs
    >>> _pairs.translate(c2.Box((0, 0), (1, 1)), (10, 0))
    Box(min=(10.0, 0.0), max=(11.0, 1.0))
    >>> _pairs.translate(c2.Circle((0, 0), 1), [(1, 0), (2, 0)]).shape
    (2,)
    """
    offset = np.asarray(offset, dtype=np.float64)
    batch = np.broadcast_shapes(shape.shape, offset.shape[:-1])
    index = np.broadcast_to(np.arange(shape.size).reshape(shape.shape), batch).ravel()
    shift = np.broadcast_to(offset, batch + (2,)).reshape(-1, 2)
    kind, flat, shape_verts = run.flat_rows(shape)
    rows, verts = shifted_rows(kind, flat, shape_verts, index, shift)
    fields = {}
    for name, value in shape.fields.items():
        trailing = value.shape[shape.ndim :]
        value = value.reshape((shape.size,) + trailing)[index].reshape(batch + trailing)
        if name in ("xy", "center", "min", "max", "start", "end", "point"):
            value = value + offset  # the same sums as the rows: the fields describe the moved rows
        elif name == "vertices":
            value = value + offset[..., None, :]
        fields[name] = value
    return run.shape_like(shape, fields, rows.reshape(batch + flat.shape[-1:]), verts)


def _sources(shapes):
    """The batches of a collection (a batch, a list of shapes, or a ShapeTable) and their starts."""
    if isinstance(shapes, Shape):
        sources = [shapes]
    elif isinstance(shapes, ShapeTable):
        sources = list(shapes._sources)
    else:
        sources = list(shapes)
    for source in sources:
        if not isinstance(source, Shape):
            raise TypeError(f"shapes must be collide2d shapes, got {type(source).__name__}")
    sizes = np.array([source.size for source in sources], dtype=np.int64)
    return sources, np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


def _take(source, local):
    if not source.shape:
        return source  # a single shape broadcasts against the other side of the pair
    if source.ndim == 1:
        return source[local]
    return source[np.unravel_index(local, source.shape)]


def pair_batches(shapes, pairs, shifts=None):
    """Yield ``(where, a, b)``: the pairs of a collection as batches the operations accept.

    ``shapes`` is what :func:`collide2d.query_pairs` took and ``pairs`` what it returned (with
    ``shifts`` when ``return_shifts=True``). Pairs are grouped by the batches their two shapes come
    from; ``where`` indexes the pairs of a group, ``a`` and ``b`` are batches (or single shapes that
    broadcast) of its first and second shapes, ``b`` moved by its shift.

    Examples
    --------
    >>> import collide2d as c2
    >>> from collide2d import _pairs
    >>> shapes = [c2.Circle([(0, 0), (1, 0)], 1), c2.Box((0, 0), (1, 1))]
    >>> from collide2d.broadphase import query_pairs
    >>> pairs = query_pairs(shapes)
    >>> [(where.tolist(), a.shape, type(b).__name__) for where, a, b in _pairs.pair_batches(shapes, pairs)]
    [([0], (1,), 'Circle'), ([1, 2], (2,), 'Box')]
    """
    sources, starts = _sources(shapes)
    i, j = np.asarray(pairs, dtype=np.int64)
    si = np.searchsorted(starts, i, side="right") - 1
    sj = np.searchsorted(starts, j, side="right") - 1
    key = si * len(sources) + sj
    order = np.argsort(key, kind="stable")
    bounds = np.flatnonzero(np.diff(key[order])) + 1
    for where in np.split(order, bounds) if order.size else []:
        a_source, b_source = sources[si[where[0]]], sources[sj[where[0]]]
        a = _take(a_source, i[where] - starts[si[where[0]]])
        b = _take(b_source, j[where] - starts[sj[where[0]]])
        if shifts is not None and np.any(shifts[where]):
            b = translate(b, shifts[where])
        yield where, a, b
