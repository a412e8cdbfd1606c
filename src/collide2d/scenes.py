"""Deterministic built-in scenes shared by the command line, tests, benchmarks and docs.

:func:`load` returns a :class:`Scene` by name (``collide2d sample NAME``); the generators return
shapes. Also here: :func:`translate` and :func:`pair_batches`, which turn the pairs found by
:func:`collide2d.query_pairs` into batches for the pairwise operations.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from collide2d.shapes import Box, Circle, Ellipse, Line, Point, Polygon, RotatedBox, Segment, Shape

__all__ = ["SCENES", "Scene", "catalogue", "load", "mixed", "pair_batches", "random_ellipses", "suspension", "translate"]


class Scene(NamedTuple):
    """A built-in scene: ids, shapes (one batch or a list of single shapes) and an optional period."""

    ids: list
    shapes: object
    periodic: tuple | None = None


def mixed():
    """A small scene of every kind, with exact touches, crossings and containments.

    Examples
    --------
    >>> from collide2d import scenes
    >>> [name for name, _ in scenes.mixed()][:3]
    ['ellipse-A', 'ellipse-B', 'circle-C']
    """
    return [
        ("ellipse-A", Ellipse((0, 0), (2, 1))),
        ("ellipse-B", Ellipse((3, 0), (1, 3))),  # touches A vertex to vertex at (2, 0)
        ("circle-C", Circle((0, 2), 1)),  # touches A at its co-vertex (0, 1)
        ("ellipse-D", Ellipse((-1.5, -1), (1.5, 0.4), angle=math.radians(30))),
        ("box-E", Box((4, -1), (6, 1))),  # touches B's vertex (4, 0)
        ("rotated-box-F", RotatedBox((5, 3), (1, 0.5), angle=math.radians(45))),
        ("polygon-G", Polygon([(-4, 2), (-2, 2), (-3, 4)])),
        ("segment-H", Segment((-3, 3), (1, 3))),  # crosses G, touches C at (0, 3)
        ("line-I", Line((0, -3), (1, 0))),  # tangent to B at (3, -3)
        ("point-J", Point((5, 0))),  # inside box E
        ("circle-K", Circle((5, 0), 0.5)),  # inside box E
    ]


def random_ellipses(n, *, seed=0, extent=100.0, size=(0.5, 2.0)):
    """A batch of ``n`` random ellipses in a square of side ``extent``.

    Examples
    --------
    >>> from collide2d import scenes
    >>> scenes.random_ellipses(1000, seed=1).shape
    (1000,)
    """
    rng = np.random.default_rng(seed)
    center = rng.uniform(0, extent, size=(n, 2))
    radii = rng.uniform(size[0], size[1], size=(n, 2))
    angle = rng.uniform(0, np.pi, size=n)
    return Ellipse(center, radii, angle)


def suspension(n=2000, *, packing=0.55, aspect=2.5, seed=0):
    """A dense suspension of ``n`` elliptical particles in a periodic square box.

    The box side is chosen so that the particles' area fraction is ``packing``; positions and
    orientations are random, so many pairs overlap (an unrelaxed initial state of a simulation).

    Examples
    --------
    >>> from collide2d import scenes
    >>> ellipses, box = scenes.suspension(100, seed=1)
    >>> ellipses.shape, round(box[0], 3)
    ((100,), 38.233)
    """
    rng = np.random.default_rng(seed)
    b = rng.uniform(0.8, 1.2, size=n)
    radii = np.stack([aspect * b, b], axis=-1)
    side = math.sqrt(np.sum(np.pi * radii[:, 0] * radii[:, 1]) / packing)
    center = rng.uniform(0, side, size=(n, 2))
    return Ellipse(center, radii, rng.uniform(0, np.pi, size=n)), (side, side)


def catalogue(n=1_000_000, *, seed=0):
    """A sparse catalogue of ``n`` ellipses (craters, galaxies) with a power-law size spread.

    About one ellipse in ten touches another.

    Examples
    --------
    >>> from collide2d import scenes
    >>> scenes.catalogue(1000, seed=2).shape
    (1000,)
    """
    rng = np.random.default_rng(seed)
    side = math.sqrt(n) * 20.0
    size = 1.0 / rng.uniform(0.1, 1.0, size=n) ** 0.5  # 1 to ~3.2, more small than large
    radii = np.stack([size, size * rng.uniform(0.3, 1.0, size=n)], axis=-1)
    return Ellipse(rng.uniform(0, side, size=(n, 2)), radii, rng.uniform(0, np.pi, size=n))


def load(name, *, size=None, seed=0):
    """Return the built-in scene ``name`` as a :class:`Scene`.

    Parameters
    ----------
    name : {"mixed", "suspension", "catalogue"}
        ``"mixed"``: 11 shapes of every kind with exact touches, crossings and containments;
        ``"suspension"``: a dense suspension of elliptical particles in a periodic box (2000 by
        default); ``"catalogue"``: a sparse catalogue of ellipses (a million by default).
    size : int, optional
        Number of shapes of the random scenes (ignored for ``"mixed"``).
    seed : int, default 0
        Seed of the random scenes.

    Examples
    --------
    >>> from collide2d import scenes
    >>> scene = scenes.load("mixed")
    >>> scene.ids[0], len(scene.shapes), scene.periodic
    ('ellipse-A', 11, None)
    >>> scene = scenes.load("suspension", size=50)
    >>> scene.ids, scene.shapes.shape, [round(x, 3) for x in scene.periodic]
    (None, (50,), [27.187, 27.187])
    """
    if name not in SCENES:
        raise ValueError(f"sample must be one of {', '.join(SCENES)}; got {name!r}")
    if size is not None and (not isinstance(size, (int, np.integer)) or size < 1):
        raise ValueError(f"size must be a positive integer, got {size!r}")
    if name == "mixed":
        named = mixed()
        return Scene([k for k, _ in named], [shape for _, shape in named])
    if name == "suspension":
        ellipses, box = suspension(size or 2000, seed=seed)
        return Scene(None, ellipses, box)
    return Scene(None, catalogue(size or 1_000_000, seed=seed))


def shifted_rows(kind, params, verts, index, shift):
    """Kernel rows (and vertices) of ``params[index]`` translated by ``shift`` (shape (k, 2)).

    The one translation of stored shapes: :func:`translate` and the periodic narrow phase of
    :func:`collide2d.query_pairs` both use it, so that :func:`collide2d.measure_pairs` measures
    the very numbers the query tested (a polygon's stored vertices plus the shift, rounded once;
    rebuilding a rotated box from its moved centre would round its corners differently).
    """
    rows = np.array(params[index], dtype=np.float64)
    shift = np.asarray(shift, dtype=np.float64)
    if kind == "polygon":
        offsets = rows[:, 0].astype(np.int64)
        counts = rows[:, 1].astype(np.int64)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        gather = np.repeat(offsets - starts, counts) + np.arange(int(counts.sum()))
        new_verts = verts[gather] + np.repeat(shift, counts, axis=0)
        rows[:, 0] = starts
        verts = np.ascontiguousarray(new_verts)
        verts.flags.writeable = False
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
    >>> from collide2d import scenes
    >>> scenes.translate(c2.Box((0, 0), (1, 1)), (10, 0))
    Box(min=(10.0, 0.0), max=(11.0, 1.0))
    >>> scenes.translate(c2.Circle((0, 0), 1), [(1, 0), (2, 0)]).shape
    (2,)
    """
    offset = np.asarray(offset, dtype=np.float64)
    batch = np.broadcast_shapes(shape.shape, offset.shape[:-1])
    index = np.broadcast_to(np.arange(shape.size).reshape(shape.shape), batch).ravel()
    shift = np.broadcast_to(offset, batch + (2,)).reshape(-1, 2)
    flat = shape._flat_params()
    rows, verts = shifted_rows(shape._kind, flat, shape._verts, index, shift)
    fields = {}
    for name, value in shape._fields.items():
        trailing = value.shape[shape.ndim :]
        value = value.reshape((shape.size,) + trailing)[index].reshape(batch + trailing)
        if name in ("xy", "center", "min", "max", "start", "end", "point"):
            value = value + offset  # the same sums as the rows: the fields describe the moved rows
        elif name == "vertices":
            value = value + offset[..., None, :]
        fields[name] = value
    moved = object.__new__(type(shape))
    moved._finish(fields, rows.reshape(batch + flat.shape[-1:]), verts)
    return moved


def _sources(shapes):
    """The batches of a collection (a batch, a list of shapes, or a ShapeTable) and their starts."""
    from collide2d.table import ShapeTable

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
    >>> from collide2d import scenes
    >>> shapes = [c2.Circle([(0, 0), (1, 0)], 1), c2.Box((0, 0), (1, 1))]
    >>> from collide2d.broadphase import query_pairs
    >>> pairs = query_pairs(shapes)
    >>> [(where.tolist(), a.shape, type(b).__name__) for where, a, b in scenes.pair_batches(shapes, pairs)]
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


SCENES = {"mixed": mixed, "suspension": suspension, "catalogue": catalogue}
