"""References and scenes of the broad-phase tests (``test_broadphase.py``,
``test_broadphase_fused.py``): the pairwise predicate evaluated on every pair by broadcasting
(``c2.intersects(s[:, None], s[None, :])``), against which every backend must return exactly the
pairs the exact predicates return, in the same order; random and lattice scenes.
"""

from __future__ import annotations

import functools

import numpy as np
from conftest import random_fields, stack_fields

import collide2d as c2


BACKENDS = ("grid", "sweep", "brute", "auto")
PREDICATE_FUNCTIONS = {
    "intersects": c2.intersects,
    "touches": c2.touches,
    "overlaps": c2.overlaps,
    "contains": c2.contains,
    "within": c2.within,
    "equals": c2.equals,
}
ALL_KINDS = ("Point", "Circle", "Ellipse", "Box", "RotatedBox", "Polygon", "Segment", "Line")
BOUNDED_KINDS = tuple(kind for kind in ALL_KINDS if kind != "Line")


# -- references ------------------------------------------------------------------------------------


def reshaped(shape, batch_shape):
    """The same shapes with another batch shape (batches cannot be indexed with ``None``)."""
    out = object.__new__(type(shape))
    fields = {name: value.reshape(batch_shape + value.shape[shape.ndim :]) for name, value in shape._fields.items()}
    out._finish(fields, shape._params.reshape(batch_shape + shape._params.shape[-1:]), shape._verts)
    return out


def relation_matrix(batches_a, batches_b, predicate, shift=None):
    """Dense boolean matrix ``predicate(a_i, b_j)`` over the concatenated batches (1-D each)."""
    function = PREDICATE_FUNCTIONS[predicate]
    rows = []
    for a in batches_a:
        row = []
        for b in batches_b:
            b_moved = b if shift is None else translate(b, shift)
            value = function(reshaped(a, (a.size, 1)), reshaped(b_moved, (1, b.size)))
            row.append(np.asarray(value, dtype=bool).reshape(a.size, b.size))
        rows.append(np.concatenate(row, axis=1) if row else np.zeros((a.size, 0), bool))
    n_b = sum(b.size for b in batches_b)
    return np.concatenate(rows, axis=0) if rows else np.zeros((0, n_b), bool)


_REFERENCES: dict = {}


def memoized(function):
    """Cache a reference by the identity of its shape arguments (scenes below are cached too).

    The cache keeps the arguments alive with the result: an identity is unique only while its
    object lives, and a test's temporary batch could otherwise get a dead one's id and its answer.
    """

    def wrapper(*args):
        key = (function.__name__,) + tuple(tuple(map(id, a)) if isinstance(a, (list, tuple)) else a for a in args)
        if key not in _REFERENCES:
            _REFERENCES[key] = (args, function(*args))
        return _REFERENCES[key][1]

    return wrapper


@memoized
def brute_pairs(batches, predicate="intersects"):
    matrix = relation_matrix(batches, batches, predicate)
    i, j = np.nonzero(np.triu(matrix, 1))
    return np.stack([i, j]).astype(np.int64)


@memoized
def brute_query(batches_a, batches_b, predicate="intersects"):
    i, j = np.nonzero(relation_matrix(batches_a, batches_b, predicate))
    return np.stack([i, j]).astype(np.int64)


def translate(shape, t):
    """The same 1-D batch moved by ``t`` (shape (2,) or (n, 2)).

    Centres and points move; polygons, boxes and rotated boxes become polygons of their stored
    vertices moved (which is what the periodic narrow phase does).
    """
    t = np.asarray(t, dtype=np.float64)
    name = type(shape).__name__
    if name == "Point":
        return c2.Point(shape.xy + t)
    if name == "Circle":
        return c2.Circle(shape.center + t, shape.radius)
    if name == "Ellipse":
        return c2.Ellipse(shape.center + t, shape.radii, shape.angle)
    if name == "Segment":
        return c2.Segment(shape.start + t, shape.end + t)
    if name == "Line":
        return c2.Line(shape.point + t, shape.direction)
    rows = shape._params.reshape(-1, 2).astype(np.int64)
    width = int(rows[:, 1].max())
    vertices = np.empty((len(rows), width, 2))
    for k, (offset, count) in enumerate(rows):
        v = shape._verts[offset : offset + count]
        vertices[k] = np.concatenate([v, np.repeat(v[-1:], width - count, axis=0)])  # repeats are dropped
    return c2.Polygon(vertices + (t[:, None] if t.ndim == 2 else t))


POSITION_FIELDS = ("xy", "center", "start", "end", "point", "min", "max", "vertices")


def random_batch(kind, rng, n, *, span=4, offset=(0.0, 0.0)):
    """A 1-D batch of ``n`` random shapes with small-integer data (many exact touches)."""
    stacked = stack_fields(kind, [random_fields(kind, rng, span=span) for _ in range(n)], (n,))
    for name in POSITION_FIELDS:
        if name in stacked:
            stacked[name] = stacked[name] + np.asarray(offset)
    return getattr(c2, kind)(**stacked)


@functools.lru_cache(maxsize=None)
def mixed_scene(seed, n_per_kind, *, kinds=ALL_KINDS, span=4, offset=(0.0, 0.0)):
    rng = np.random.default_rng(seed)
    return tuple(random_batch(kind, rng, n_per_kind, span=span, offset=offset) for kind in kinds)


def assert_same(actual, expected):
    assert actual.dtype == np.int64 and actual.shape[0] == 2
    np.testing.assert_array_equal(actual, expected)


@functools.lru_cache(maxsize=None)
def lattice_scene():
    # circles of radius 1 on a lattice of spacing 2 touch their 4 neighbours exactly; unit boxes on
    # an integer lattice share edges and corners with their 8 neighbours; the ellipses' radii are
    # swapped by a quarter turn, so they too touch vertex to vertex
    g = np.stack(np.meshgrid(np.arange(12), np.arange(12)), -1).reshape(-1, 2).astype(float)
    return ((c2.Circle(2 * g, 1.0),), (c2.Box(g + 0.5, g + 1.5),), (c2.Ellipse(2 * g + (0.5, 0.25), (1.0, 2.0), np.pi / 2),))
