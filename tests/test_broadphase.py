"""query_pairs / query against brute force, and the ShapeTable container.

The reference is the pairwise predicate evaluated on every pair by broadcasting
(``c2.intersects(s[:, None], s[None, :])``), so every backend must return exactly the pairs the
exact predicates return: same pairs, same order.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import numba
import numpy as np
import pytest
from conftest import JIT_DISABLED, random_fields, random_polygon_vertices, stack_fields

import collide2d as c2
from collide2d.broadphase import _backend, _settle
from collide2d.broadphase import query, query_pairs
from collide2d.table import ShapeTable

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


# -- one kind, random scenes -----------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def ellipse_scene(density):
    rng = np.random.default_rng(11)
    n = 300
    side = 20.0 if density == "dense" else 200.0
    return (c2.Ellipse(rng.uniform(0, side, (n, 2)), rng.uniform(0.3, 2.0, (n, 2)), rng.uniform(0, np.pi, n)),)


@pytest.mark.nojit
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("density", ["dense", "sparse"])
def test_query_pairs_random_ellipses_match_brute_force(backend, density):
    scene = ellipse_scene(density)
    assert_same(query_pairs(scene[0], backend=backend), brute_pairs(scene))


@functools.lru_cache(maxsize=None)
def kind_scene(kind):
    return (random_batch(kind, np.random.default_rng(12), 80, span=8),)


@pytest.mark.nojit
@pytest.mark.parametrize("kind", ALL_KINDS)
@pytest.mark.parametrize("backend", BACKENDS)
def test_query_pairs_each_kind_matches_brute_force(kind, backend):
    scene = kind_scene(kind)
    assert_same(query_pairs(scene[0], backend=backend), brute_pairs(scene))


@pytest.mark.parametrize("predicate", ["touches", "overlaps", "contains", "within", "equals"])
def test_query_pairs_other_predicates_match_brute_force(predicate):
    batches = mixed_scene(13, 16, kinds=BOUNDED_KINDS, span=3)
    for backend in ("grid", "sweep"):
        assert_same(query_pairs(batches, predicate=predicate, backend=backend), brute_pairs(batches, predicate))


# -- mixed kinds ---------------------------------------------------------------------------------


@pytest.mark.nojit
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("density", ["dense", "sparse"])
def test_query_pairs_mixed_kinds_match_brute_force(backend, density):
    batches = mixed_scene(14, 30, span=4 if density == "dense" else 40)
    expected = brute_pairs(batches)
    assert_same(query_pairs(batches, backend=backend), expected)
    assert_same(query_pairs(ShapeTable(batches), backend=backend), expected)


def test_query_pairs_list_of_single_shapes():
    shapes = [c2.Circle((0, 0), 1), c2.Box((1, -1), (3, 1)), c2.Segment((5, 5), (3, 0)), c2.Point((9, 9)),
              c2.Line((0, 9), (1, 0)), c2.Polygon([(8, 8), (10, 8), (9, 10)])]
    assert query_pairs(shapes).tolist() == [[0, 1, 3, 3, 4], [1, 2, 4, 5, 5]]  # the point lies on the line


@pytest.mark.nojit
def test_query_pairs_candidates_are_all_box_overlaps():
    batches = mixed_scene(15, 20, span=5)
    table = ShapeTable(batches)
    b = table.bounds
    overlap = (b[:, None, 0] <= b[None, :, 2]) & (b[None, :, 0] <= b[:, None, 2])
    overlap &= (b[:, None, 1] <= b[None, :, 3]) & (b[None, :, 1] <= b[:, None, 3])
    expected = np.stack(np.nonzero(np.triu(overlap, 1))).astype(np.int64)
    for backend in BACKENDS:
        assert_same(query_pairs(table, predicate=None, backend=backend), expected)
    # and the candidates contain every intersecting pair
    found = set(map(tuple, expected.T.tolist()))
    assert set(map(tuple, brute_pairs(batches).T.tolist())) <= found


# -- hard scenes --------------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def huge_among_tiny_scene():
    rng = np.random.default_rng(16)
    tiny = c2.Circle(rng.uniform(0, 100, (250, 2)), rng.uniform(0.01, 0.3, 250))
    huge = c2.Ellipse(rng.uniform(0, 100, (3, 2)), [(40.0, 5.0), (30.0, 30.0), (60.0, 1.0)], [0.3, 0.0, 1.2])
    boxes = c2.Box([(10.0, 10.0)], [(90.0, 12.0)])
    return (tiny, huge, boxes)


@pytest.mark.nojit
@pytest.mark.parametrize("backend", BACKENDS)
def test_query_pairs_few_huge_among_tiny(backend):
    scene = huge_among_tiny_scene()
    assert_same(query_pairs(list(scene), backend=backend), brute_pairs(scene))


@functools.lru_cache(maxsize=None)
def lattice_scene():
    # circles of radius 1 on a lattice of spacing 2 touch their 4 neighbours exactly; unit boxes on
    # an integer lattice share edges and corners with their 8 neighbours; the ellipses' radii are
    # swapped by a quarter turn, so they too touch vertex to vertex
    g = np.stack(np.meshgrid(np.arange(12), np.arange(12)), -1).reshape(-1, 2).astype(float)
    return ((c2.Circle(2 * g, 1.0),), (c2.Box(g + 0.5, g + 1.5),), (c2.Ellipse(2 * g + (0.5, 0.25), (1.0, 2.0), np.pi / 2),))


@pytest.mark.nojit
@pytest.mark.parametrize("backend", BACKENDS)
def test_query_pairs_exact_touches_across_cells(backend):
    circles, boxes, ellipses = lattice_scene()
    expected = brute_pairs(circles)
    assert expected.shape[1] == 2 * 12 * 11
    assert_same(query_pairs(circles[0], backend=backend), expected)
    assert_same(query_pairs(circles[0], predicate="touches", backend=backend), expected)
    expected = brute_pairs(boxes)
    assert expected.shape[1] == 2 * 12 * 11 + 2 * 11 * 11
    assert_same(query_pairs(boxes[0], backend=backend), expected)
    assert_same(query_pairs(ellipses[0], backend=backend), brute_pairs(ellipses))


@pytest.mark.nojit
def test_query_pairs_points_all_equal_and_collinear():
    same = c2.Point(np.zeros((40, 2)))
    for backend in BACKENDS:
        assert query_pairs(same, backend=backend).shape == (2, 40 * 39 // 2)
    line_up = c2.Point(np.stack([np.arange(50.0) // 2, np.zeros(50)], -1))
    for backend in BACKENDS:
        assert_same(query_pairs(line_up, backend=backend), brute_pairs([line_up]))


def test_query_pairs_batch_with_two_dimensions_uses_flat_indices():
    centers = np.arange(12.0).reshape(3, 4)[..., None] * np.array([1.5, 0.0])
    circles = c2.Circle(centers, 1.0)
    expected = brute_pairs([c2.Circle(centers.reshape(-1, 2), 1.0)])
    assert_same(query_pairs(circles), expected)


@pytest.mark.nojit
def test_query_pairs_empty_and_single():
    for shapes in ([], c2.Circle(np.zeros((0, 2)), 1.0), c2.Circle((0, 0), 1), [c2.Box((0, 0), (1, 1))]):
        for backend in BACKENDS:
            pairs = query_pairs(shapes, backend=backend)
            assert pairs.shape == (2, 0) and pairs.dtype == np.int64
    pairs, shifts = query_pairs([], periodic=(1, 1), return_shifts=True)
    assert pairs.shape == (2, 0) and shifts.shape == (0, 2)


@pytest.mark.nojit
def test_query_pairs_output_independent_of_threads_and_chunks(monkeypatch):
    batches = mixed_scene(17, 25, span=6)
    reference = query_pairs(batches, backend="brute")  # small input: one thread
    monkeypatch.setattr(_settle, "SERIAL_BELOW", 0)  # every thread from here on
    assert numba.get_num_threads() == numba.config.NUMBA_NUM_THREADS
    for backend in ("grid", "sweep", "brute"):
        assert_same(query_pairs(batches, backend=backend), reference)
    monkeypatch.setattr(_backend, "CHUNK", 97)  # many small chunks
    for backend in ("grid", "sweep", "brute"):
        assert_same(query_pairs(batches, backend=backend), reference)


def test_query_pairs_auto_choice():
    rng = np.random.default_rng(18)
    similar = _backend._Elements(np.c_[rng.uniform(0, 9, (100, 2)), rng.uniform(10, 12, (100, 2))],
                                   np.arange(100), np.arange(100), True)
    assert _backend._choose_backend(similar, "auto") == "grid"
    spread = np.c_[rng.uniform(0, 1, (100, 2)), rng.uniform(1, 2, (100, 2))]
    spread[0, 2:] = 100.0  # one big box among small ones: the grid copes
    one_big = _backend._Elements(spread, np.arange(100), np.arange(100), True)
    assert _backend._choose_backend(one_big, "auto") == "grid"
    spread[:5, 2:] = 100.0  # 5 % big: sizes vary broadly
    varied = _backend._Elements(spread, np.arange(100), np.arange(100), True)
    assert _backend._choose_backend(varied, "auto") == "sweep"
    small = _backend._Elements(spread[:10], np.arange(10), np.arange(10), True)
    assert _backend._choose_backend(small, "auto") == "brute"
    assert _backend._choose_backend(small, "grid") == "grid"


# -- query(a, b) -----------------------------------------------------------------------------------


@pytest.mark.nojit
@pytest.mark.parametrize("backend", BACKENDS)
def test_query_between_collections_matches_brute_force(backend):
    a = mixed_scene(19, 15, span=6)
    b = mixed_scene(20, 15, span=6)
    assert_same(query(a, b, backend=backend), brute_query(a, b))
    assert_same(query(a, b, predicate="contains", backend=backend), brute_query(a, b, "contains"))
    assert_same(query(b[1], a, predicate="within", backend=backend), brute_query((b[1],), a, "within"))


def test_query_edge_cases():
    boxes = c2.Box([(0, 0), (3, 0)], [(1, 1), (4, 1)])
    assert query(boxes, []).shape == (2, 0)
    assert query([], boxes).shape == (2, 0)
    assert query(c2.Point((1, 1)), boxes).tolist() == [[0], [0]]
    assert query(boxes, boxes).tolist() == [[0, 1], [0, 1]]  # a shape meets itself


# -- periodic boxes ---------------------------------------------------------------------------------

_IMAGES = [(kx, ky) for kx in (-1, 0, 1) for ky in (-1, 0, 1)]


@memoized
def periodic_brute(batches_a, batches_b, length, predicate="intersects", self_pairs=True):
    """Pairs and the shift of ``b`` over the 9 images (shapes inside the box)."""
    found = {}
    for kx, ky in _IMAGES:
        shift = (kx * length[0], ky * length[1])
        matrix = relation_matrix(batches_a, batches_b, predicate, shift=shift)
        if self_pairs:
            matrix = np.triu(matrix, 1)
        for i, j in zip(*np.nonzero(matrix)):
            assert (i, j) not in found, "two images meet: the box is too small for this test"
            found[int(i), int(j)] = shift
    keys = sorted(found)
    pairs = np.array(keys, dtype=np.int64).reshape(-1, 2).T
    shifts = np.array([found[k] for k in keys], dtype=float).reshape(-1, 2)
    return pairs, shifts


@functools.lru_cache(maxsize=None)
def periodic_scene(seed, length, n):
    """Small integer shapes of every bounded kind, centres spread over the box [0, L)."""
    rng = np.random.default_rng(seed)

    def corner(count, margin=0):
        return np.stack(
            [rng.integers(margin, int(length[0]) - margin, count), rng.integers(margin, int(length[1]) - margin, count)],
            -1,
        ).astype(float)

    def size(count, hi=3):
        return rng.integers(1, hi + 1, (count, 2)).astype(float)

    quarter = rng.integers(0, 4, n) * (np.pi / 2)
    step = rng.integers(-2, 3, (n, 2)).astype(float)
    step[np.all(step == 0, axis=1)] = (1.0, 0.0)
    low = corner(n, 1)
    start = corner(n, 2)
    polygons = np.stack([random_polygon_vertices(rng, span=2) for _ in range(n)]) + corner(n, 2)[:, None]
    return (
        c2.Point(corner(n)),
        c2.Circle(corner(n), rng.integers(1, 4, n).astype(float)),
        c2.Ellipse(corner(n), size(n), quarter),
        c2.Box(low, low + size(n, 2)),
        c2.RotatedBox(corner(n), size(n, 2), quarter),
        c2.Polygon(polygons),
        c2.Segment(start, start + step),
    )


@pytest.mark.nojit
@pytest.mark.parametrize("backend", BACKENDS)
def test_query_pairs_periodic_matches_nine_images(backend):
    length = (20.0, 16.0)
    inside = periodic_scene(21, length, 18)
    for batch in inside:  # the brute force over 9 images needs centres in the box
        center = 0.5 * (batch.bounds[:, :2] + batch.bounds[:, 2:])
        assert np.all(center >= 0) and np.all(center < length)
    expected_pairs, expected_shifts = periodic_brute(inside, inside, length)
    assert expected_shifts.any(), "the scene should have pairs across the edges"
    pairs, shifts = query_pairs(inside, periodic=length, backend=backend, return_shifts=True)
    assert_same(pairs, expected_pairs)
    np.testing.assert_array_equal(shifts, expected_shifts)
    # the same shapes moved by random whole lattice steps: same pairs, shifts account for the moves
    rng = np.random.default_rng(25)
    moves = [rng.integers(-2, 3, (batch.size, 2)) * np.array(length) for batch in inside]
    moved = [translate(batch, move) for batch, move in zip(inside, moves)]
    move = np.concatenate(moves)
    pairs, shifts = query_pairs(moved, periodic=length, backend=backend, return_shifts=True)
    assert_same(pairs, expected_pairs)
    np.testing.assert_array_equal(shifts, expected_shifts + move[expected_pairs[0]] - move[expected_pairs[1]])
    touching = query_pairs(inside, periodic=length, backend=backend, predicate="touches")
    assert_same(touching, periodic_brute(inside, inside, length, "touches")[0])


@pytest.mark.nojit
def test_query_pairs_periodic_touching_across_the_edge():
    # radius-1 circles at x = 1 and x = 9 in a box of width 10 touch at x = 0 == 10
    circles = c2.Circle([(1.0, 5.0), (9.0, 5.0), (5.0, 1.0), (5.0, 9.0)], 1.0)
    pairs, shifts = query_pairs(circles, periodic=(10, 10), return_shifts=True, predicate="touches")
    assert pairs.tolist() == [[0, 2], [1, 3]]
    assert shifts.tolist() == [[-10.0, 0.0], [0.0, -10.0]]
    box = c2.Box((-5, -5), (5, 5))  # the same lattice with an origin
    shifted = c2.Circle([(-4.0, 0.0), (4.0, 0.0)], 1.0)
    pairs, shifts = query_pairs(shifted, periodic=box, return_shifts=True)
    assert pairs.tolist() == [[0], [1]] and shifts.tolist() == [[-10.0, 0.0]]


@pytest.mark.nojit
@pytest.mark.parametrize("backend", BACKENDS)
def test_query_periodic_between_collections(backend):
    length = (14.0, 14.0)
    a = periodic_scene(23, length, 10)
    b = [c2.Circle([(0.5, 0.5), (13.5, 6.0), (6.0, 13.8)], 1.0), c2.Box([(13.0, 13.0)], [(14.5, 14.5)])]
    expected_pairs, expected_shifts = periodic_brute(tuple(a), tuple(b), length, "intersects", False)
    pairs, shifts = query(a, b, periodic=length, backend=backend, return_shifts=True)
    assert_same(pairs, expected_pairs)
    np.testing.assert_array_equal(shifts, expected_shifts)


# -- errors ---------------------------------------------------------------------------------------


def test_errors():
    circles = c2.Circle([(0, 0), (1, 0)], 1.0)
    with pytest.raises(ValueError, match="predicate must be one of None, 'intersects'"):
        query_pairs(circles, predicate="crosses")
    with pytest.raises(ValueError, match="disjoint"):
        query_pairs(circles, predicate="disjoint")
    with pytest.raises(ValueError, match="backend"):
        query_pairs(circles, backend="octree")
    with pytest.raises(ValueError, match="positive"):
        query_pairs(circles, periodic=(0, 10))
    with pytest.raises(ValueError, match="positive"):
        query_pairs(circles, periodic=(np.inf, 10))
    with pytest.raises(ValueError, match="twice the largest shape extent"):
        query_pairs(circles, periodic=(3.9, 100))
    with pytest.raises(ValueError, match="twice the largest shape extent"):
        query_pairs([c2.Line((0, 0), (1, 0))], periodic=(10, 10))
    with pytest.raises(ValueError, match="Lx, Ly"):
        query_pairs(circles, periodic=(1, 2, 3))
    with pytest.raises(TypeError, match="return_shifts"):
        query_pairs(circles, return_shifts="yes")
    with pytest.raises(TypeError, match="shapes"):
        query_pairs(42)
    with pytest.raises(TypeError, match=r"shapes\[1\]"):
        query_pairs([circles, "circle"])
    with pytest.raises(ValueError, match="twice the largest shape extent: b\\[0\\]"):
        query(circles, c2.Circle((0, 0), 3.0), periodic=(10, 10))


def test_return_shifts_without_periodic_is_zero():
    pairs, shifts = query_pairs(c2.Circle([(0, 0), (1, 0)], 1.0), return_shifts=True)
    assert pairs.tolist() == [[0], [1]] and shifts.tolist() == [[0.0, 0.0]]


# -- ShapeTable ------------------------------------------------------------------------------------


def test_shape_table_layout_and_indexing():
    circle = c2.Circle([(0, 0), (3, 0)], 1)
    box = c2.Box((1, -1), (2, 1))
    triangles = c2.Polygon([[(0, 0), (1, 0), (0, 1)], [(5, 5), (6, 5), (5, 7)]])
    segment = c2.Segment((0, 0), (1, 1))
    table = ShapeTable([circle, box, triangles, segment, c2.Point((9, 9)), c2.Line((0, 0), (0, 1))])
    assert len(table) == 8
    assert table.kinds.dtype == np.int8
    assert table.kinds.tolist() == [0, 0, 1, 1, 1, 2, 4, 3]
    assert table.kind_names[2] == "polygon"
    assert table.params.shape == (8, 6) and table.params.dtype == np.float64
    assert table.vertex_offsets.tolist() == [0, 0, 0, 4, 7, 10, 10, 10, 10]
    np.testing.assert_array_equal(table.vertices[7:10], triangles[1].vertices)
    np.testing.assert_array_equal(table.bounds[1], circle[1].bounds)
    assert table.bounds[7].tolist() == [0.0, -np.inf, 0.0, np.inf]
    assert type(table[0]) is c2.Circle and table[1].center.tolist() == [3.0, 0.0]
    assert table[2] is box
    np.testing.assert_array_equal(table[4].vertices, triangles[1].vertices)
    assert table[-1].direction.tolist() == [0.0, 1.0]
    assert "8 shapes" in repr(table)
    with pytest.raises(IndexError):
        table[8]
    with pytest.raises(TypeError):
        table[1.0]
    with pytest.raises(TypeError, match=r"shapes\[0\]"):
        ShapeTable([1.0])
    for k in range(len(table)):  # the packed rows give the same relations as the shapes
        assert c2.relate(table[k], circle[0]) == c2.relate(list(table)[k], circle[0])
    assert not table.params.flags.writeable


def test_shape_table_matches_original_relations():
    batches = mixed_scene(24, 6)
    table = ShapeTable(batches)
    flat = [shape for batch in batches for shape in batch]
    assert len(table) == len(flat)
    assert_same(query_pairs(table), brute_pairs(batches))


# -- kernels ----------------------------------------------------------------------------------------


@pytest.mark.nojit
def test_sweep_kernels_python_and_compiled_agree():
    """The broad-phase kernels as plain Python (``py_func``) give the compiled result."""
    from collide2d._kernels.broadphase import sweep

    rng = np.random.default_rng(26)
    lo = rng.integers(0, 12, (40, 2)).astype(float)
    bounds = np.c_[lo, lo + rng.integers(0, 3, (40, 2))]
    bounds[3] = (-np.inf, 4.0, np.inf, 4.0)  # a horizontal line
    xmin, ymin, xmax, ymax = (np.ascontiguousarray(bounds[:, k]) for k in range(4))
    ids = np.arange(40)
    x0, y0, inv, nx, ny = _backend._grid_shape(bounds, 40)
    results = []
    for compiled in (True, False):
        def pick(function):
            return function if compiled else getattr(function, "py_func", function)  # plain under NUMBA_DISABLE_JIT

        start, entries = pick(sweep.grid_build)(xmin, ymin, xmax, ymax, ids, x0, y0, inv, nx, ny)
        counts = np.empty(40, dtype=np.int64)
        pick(sweep.grid_rows)(0, 40, xmin, ymin, xmax, ymax, ids, ids, True, x0, y0, inv, nx, ny, start, entries,
                              counts, np.empty(0, dtype=np.int64))
        brute = np.empty(40, dtype=np.int64)
        pick(sweep.brute_rows)(0, 40, xmin, ymin, xmax, ymax, ids, ids, True, brute, np.empty(0, dtype=np.int64))
        results.append((counts, brute))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][0], results[0][1])
    assert sweep.cell_of(-np.inf, 0.0, 1.0, 5) == 0 and sweep.cell_of(np.inf, 0.0, 1.0, 5) == 4
    assert getattr(sweep.cell_of, "py_func", sweep.cell_of)(2.5, 0.0, 1.0, 5) == sweep.cell_of(2.5, 0.0, 1.0, 5) == 2


@pytest.mark.nojit
def test_ellipse_filter_is_certain():
    """Bounding-circle answers agree with the exact relation, including exact tangency."""
    from collide2d._kernels.broadphase import sweep

    a = c2.Circle((0.0, 0.0), 1.0)
    b = c2.Ellipse([(2.0, 0.0), (3.0, 0.0), (0.5, 0.0), (2.0 + 1e-15, 0.0), (1.9, 0.0)], (1.0, 0.5))
    status = np.empty(5, dtype=np.int8)
    pa, pb = a._flat_params(), b._flat_params()
    sweep.ellipse_pair_filter(pa, np.zeros(5, dtype=np.int64), pb, np.arange(5), 0.0, status)
    assert status.tolist() == [2, 0, 1, 2, 2]  # touching at distance 2 is left to the exact kernel
    assert query(a, b)[1].tolist() == np.flatnonzero(c2.intersects(a, b)).tolist() == [0, 2, 4]


# -- the fused grid (grid + circle filter + centre-line filter + exact intersects in one pass) --------


@functools.lru_cache(maxsize=None)
def fused_scenes():
    """Ellipse scenes for the fused grid: dense and sparse, huge among tiny, exact touches."""
    rng = np.random.default_rng(41)
    dense = c2.Ellipse(rng.uniform(0, 12, (400, 2)), rng.uniform(0.05, 1.5, (400, 2)), rng.uniform(0, np.pi, 400))
    sparse = c2.Ellipse(rng.uniform(0, 300, (400, 2)), rng.uniform(0.3, 3.0, (400, 2)), rng.uniform(0, np.pi, 400))
    tiny = c2.Ellipse(rng.uniform(0, 50, (300, 2)), rng.uniform(0.01, 0.4, (300, 2)), rng.uniform(0, np.pi, 300))
    huge = c2.Ellipse(rng.uniform(0, 50, (3, 2)), [(20.0, 2.0), (15.0, 15.0), (30.0, 0.5)], [0.3, 0.0, 1.2])
    circles, _, ellipses = lattice_scene()
    return {"dense": (dense,), "sparse": (sparse,), "huge among tiny": (tiny, huge),
            "touching circles": circles, "touching ellipses": ellipses}


def _count_fused(monkeypatch):
    monkeypatch.setattr(_backend, "CIRCLE_SPREAD", 0.0)  # circles too take the fused grid (not the circle grid)
    calls = []
    original = _backend._fused_pairs
    monkeypatch.setattr(_backend, "_fused_pairs", lambda *args: calls.append(1) or original(*args))
    return calls


@pytest.mark.nojit
@pytest.mark.parametrize("pack", ["element order", "cell order"])
@pytest.mark.parametrize("threads", ["serial", "parallel"])
def test_fused_grid_matches_brute_force(monkeypatch, threads, pack):
    calls = _count_fused(monkeypatch)
    monkeypatch.setattr(_settle, "PARALLEL_WORK", 0 if threads == "parallel" else 1 << 62)
    monkeypatch.setattr(_backend, "PACK_BY_CELL", 0 if pack == "cell order" else 1 << 62)
    for name, scene in fused_scenes().items():
        shapes = scene[0] if len(scene) == 1 else list(scene)
        expected = brute_pairs(scene)
        assert expected.shape[1] > 0, name
        assert_same(query_pairs(shapes, backend="grid"), expected)
        monkeypatch.setattr(_backend, "FUSED_CHUNK", 53)  # many row chunks
        assert_same(query_pairs(shapes, backend="grid"), expected)
        monkeypatch.setattr(_backend, "FUSED_CHUNK", 1 << 22)
    assert len(calls) == 2 * len(fused_scenes())  # the fused path answered every query above


@pytest.mark.nojit
@pytest.mark.parametrize("threads", ["serial", "parallel"])
def test_fused_grid_candidates_and_queries_match_brute_force(monkeypatch, threads):
    calls = _count_fused(monkeypatch)
    monkeypatch.setattr(_settle, "PARALLEL_WORK", 0 if threads == "parallel" else 1 << 62)
    monkeypatch.setattr(_backend, "PACK_BY_CELL", 0 if threads == "parallel" else 1 << 62)
    monkeypatch.setattr(_backend, "FUSED_CHUNK", 40)
    batches = mixed_scene(15, 20, span=5)  # every kind, lines too: the candidates go through the fused grid
    b = ShapeTable(batches).bounds
    overlap = (b[:, None, 0] <= b[None, :, 2]) & (b[None, :, 0] <= b[:, None, 2])
    overlap &= (b[:, None, 1] <= b[None, :, 3]) & (b[None, :, 1] <= b[:, None, 3])
    assert_same(query_pairs(batches, predicate=None, backend="grid"), np.stack(np.nonzero(np.triu(overlap, 1))))
    a, e = fused_scenes()["dense"][0], fused_scenes()["huge among tiny"]
    assert_same(query(a, list(e), backend="grid"), brute_query((a,), e))
    assert_same(query(list(e), a, backend="grid"), brute_query(e, (a,)))
    assert len(calls) == 3


@pytest.mark.nojit
def test_fused_grid_independent_of_threads():
    shapes = fused_scenes()["dense"][0]
    results = []
    for work in (0, 1 << 62):
        previous = _settle.PARALLEL_WORK
        _settle.PARALLEL_WORK = work
        try:
            results.append(query_pairs(shapes, backend="grid"))
        finally:
            _settle.PARALLEL_WORK = previous
    assert_same(results[0], results[1])


@functools.lru_cache(maxsize=None)
def near_tangent_pairs():
    """``(a, [(t, b, truth), ...])``: ellipse pairs around exact tangency and their exact answers.

    Built once for both middle filters: the bisection and the answers at 1 ulp from tangency take
    tens of thousands of exact (Fraction) fallbacks, since these are full 53-bit numbers.
    """
    rng = np.random.default_rng(43)
    n = 300 if JIT_DISABLED else 3000  # as plain Python: a tenth
    a = c2.Ellipse(rng.uniform(-1, 1, (n, 2)), rng.uniform(0.1, 2.0, (n, 2)), rng.uniform(0, np.pi, n))
    radii = rng.uniform(0.1, 2.0, (n, 2))
    radii[: n // 3, 1] = radii[: n // 3, 0] * 0.02  # needles: aspect ratio 50
    angle = rng.uniform(0, np.pi, n)
    direction = rng.normal(size=(n, 2))
    direction /= np.hypot(direction[:, 0], direction[:, 1])[:, None]
    # centres on a ray from a's centre, at the distances where the pair is about to separate: bisect
    lo, hi = np.zeros(n), np.full(n, 10.0)
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        meet = np.asarray(c2.intersects(a, c2.Ellipse(a.center + mid[:, None] * direction, radii, angle)))
        lo, hi = np.where(meet, mid, lo), np.where(meet, hi, mid)
    cases = []
    for t in (lo, hi, 0.5 * lo, 0.9 * lo, 0.999 * lo, 1.001 * hi, 1.1 * hi, 2 * hi):
        b = c2.Ellipse(a.center + t[:, None] * direction, radii, angle)
        cases.append((t is lo, b, np.asarray(c2.intersects(a, b))))
    return a, cases


@pytest.mark.nojit
@pytest.mark.parametrize("name", ["_centre_line_filter", "_witness_filter"])
def test_middle_filters_are_certain(name):
    """The middle filters never contradict the exact predicate, down to exact tangency."""
    from collide2d._kernels.broadphase import grid

    middle = getattr(grid, name)
    extra = (0.0,) if name == "_centre_line_filter" else ()  # no gap: the intersects question
    a, cases = near_tangent_pairs()
    n = a.size
    decided = {1: 0, 0: 0}
    for first, b, truth in cases:
        pa, pb = a._flat_params(), b._flat_params()
        flags = np.array([middle(*pa[k], *pb[k], *extra) for k in range(n)])
        assert np.all(truth[flags == 1]) and not np.any(truth[flags == 0])
        decided[1] += np.count_nonzero(flags == 1)
        decided[0] += np.count_nonzero(flags == 0)
        if first:
            py = np.array([getattr(middle, "py_func", middle)(*pa[k], *pb[k], *extra) for k in range(0, n, 10)])
            np.testing.assert_array_equal(py, flags[::10])
    assert decided[1] > n // 2 and decided[0] > n // 2  # and it does decide pairs either way


def _support(centre, radii, direction, v):
    """mpmath: the support point of an ellipse in the direction ``v`` and its support ``h(v) |v|``."""
    from mpmath import mpf, sqrt

    cx, cy = (mpf(float(c)) for c in centre)
    a, b = (mpf(float(r)) for r in radii)
    wx, wy = (mpf(float(w)) for w in direction)
    norm = sqrt(wx * wx + wy * wy)
    wx, wy = wx / norm, wy / norm
    vx, vy = (mpf(float(c)) for c in v)
    p, q = wx * vx + wy * vy, wx * vy - wy * vx  # v in the ellipse's frame
    h = sqrt(a * a * p * p + b * b * q * q)
    sx, sy = a * a * p / h, b * b * q / h
    return (cx + sx * wx - sy * wy, cy + sx * wy + sy * wx), h


def _form(centre, radii, direction, point):
    """mpmath: the ellipse's quadratic form at ``point`` (1 on the boundary)."""
    from mpmath import mpf, sqrt

    a, b = (mpf(float(r)) for r in radii)
    wx, wy = (mpf(float(w)) for w in direction)
    norm = sqrt(wx * wx + wy * wy)
    dx, dy = point[0] - mpf(float(centre[0])), point[1] - mpf(float(centre[1]))
    return ((wx * dx + wy * dy) / (a * norm)) ** 2 + ((wx * dy - wy * dx) / (b * norm)) ** 2


def _centre_line_terms(a, b, pa, pb, k):
    """mpmath, pair ``k``: ``(ea, eb, d, |d|, reach, apart)``, the terms of the centre-line filter's
    rule. A's boundary lies at ``1 / sqrt(X_A)`` of ``d = c_B - c_A`` from ``c_A``, B's at ``1 - 1 /
    sqrt(X_B)``: ``reach`` is the sum of the two fractions; ``apart`` is ``|d|`` minus the supports
    of both along ``d``."""
    from mpmath import mpf, sqrt

    ea = (a.center[k], a.radii[k], pa[k, 4:6])
    eb = (b.center[k], b.radii[k], pb[k, 4:6])
    d = [mpf(float(b.center[k][i])) - mpf(float(a.center[k][i])) for i in range(2)]
    length = sqrt(d[0] ** 2 + d[1] ** 2)
    far = (mpf(float(b.center[k][0])), mpf(float(b.center[k][1])))
    near = (mpf(float(a.center[k][0])), mpf(float(a.center[k][1])))
    reach = 1 / sqrt(_form(*ea, far)) + 1 / sqrt(_form(*eb, near))
    apart = length - (_support(*ea, d)[1] + _support(*eb, d)[1]) / length
    return ea, eb, d, length, reach, apart


@pytest.mark.nojit
def test_middle_filters_decide_the_clear_cases():
    """Each middle filter settles every pair its own rule settles with a margin (1e-6 here), the rule
    evaluated in 40-digit mpmath from the definitions: the centre-line filter when the boundaries'
    points on the centre line pass each other (meet) or the supports along it leave a gap (apart);
    the witness filter when a support point of one ellipse towards the other lies inside the other
    (meet) or the projections on an ellipse axis leave a gap (apart). Undecided is always *allowed*
    for a certified filter; here it would mean a filter that settles less than it says."""
    from mpmath import mp, mpf, sqrt

    from collide2d._kernels.broadphase import grid

    mp.dps = 40
    rng = np.random.default_rng(47)
    n = 400
    a = c2.Ellipse(rng.uniform(-1, 1, (n, 2)), rng.uniform(0.1, 2.0, (n, 2)), rng.uniform(0, 7, n))
    b = c2.Ellipse(rng.uniform(-2.5, 2.5, (n, 2)), rng.uniform(0.1, 2.0, (n, 2)), rng.uniform(0, 7, n))
    pa, pb = a._flat_params(), b._flat_params()
    margin = mpf("1e-6")
    expected = {"_centre_line_filter": [], "_witness_filter": []}
    for k in range(n):
        ea, eb, d, length, reach, gap = _centre_line_terms(a, b, pa, pb, k)
        expected["_centre_line_filter"].append(1 if reach > 1 + margin else (0 if gap > margin * length else None))
        # witness: support points towards the other, projections on the four axes
        inside = _form(*eb, _support(*ea, d)[0]) < 1 - margin or _form(*ea, _support(*eb, [-d[0], -d[1]])[0]) < 1 - margin
        apart = False
        for w in (pa[k, 4:6], pb[k, 4:6]):
            for v in (w, (-w[1], w[0])):
                v = (mpf(float(v[0])), mpf(float(v[1])))
                norm = sqrt(v[0] ** 2 + v[1] ** 2)
                separation = abs(d[0] * v[0] + d[1] * v[1]) - _support(*ea, v)[1] - _support(*eb, v)[1]
                apart = apart or separation > margin * norm
        expected["_witness_filter"].append(1 if inside else (0 if apart else None))
    truth = np.asarray(c2.intersects(a, b))
    for name, rows in expected.items():
        middle = getattr(grid, name)
        extra = (0.0,) if name == "_centre_line_filter" else ()  # gap 0: the intersects test
        got = np.array([middle(*pa[k], *pb[k], *extra) for k in range(n)])
        want = np.array([-1 if e is None else e for e in rows])
        assert np.count_nonzero(want == 1) > n // 10 and np.count_nonzero(want == 0) > n // 10
        np.testing.assert_array_equal(got[want >= 0], want[want >= 0])
        assert np.array_equal(want[want >= 0] == 1, truth[want >= 0])  # the rules themselves hold


@pytest.mark.nojit
def test_centre_line_filter_with_a_gap_decides_the_clear_cases():
    """With ``gap > 0`` (is the distance at most ``gap``?) the centre-line filter settles every pair
    its rule settles with a relative margin of 1e-6, the rule in 40-digit mpmath: within (1) when
    the boundary points on the centre line are less than ``gap`` apart, ``(1 - s_A - s_B) |d| <
    gap``; beyond (0) when the supports along the centre line leave more than ``gap``. The rule
    itself is checked against ``c2.distance``."""
    from mpmath import mp, mpf

    from collide2d._kernels.broadphase import grid

    mp.dps = 40
    rng = np.random.default_rng(53)
    n = 400
    a = c2.Ellipse(rng.uniform(-1, 1, (n, 2)), rng.uniform(0.1, 2.0, (n, 2)), rng.uniform(0, 7, n))
    b = c2.Ellipse(rng.uniform(-4, 4, (n, 2)), rng.uniform(0.1, 2.0, (n, 2)), rng.uniform(0, 7, n))
    gaps = 2.0 ** rng.uniform(-4, 1, n)
    pa, pb = a._flat_params(), b._flat_params()
    margin = mpf("1e-6")
    want = np.full(n, -1)
    for k in range(n):
        _, _, _, length, reach, apart = _centre_line_terms(a, b, pa, pb, k)
        gap = mpf(float(gaps[k]))
        if (1 - reach) * length < gap * (1 - margin):
            want[k] = 1
        elif apart > gap * (1 + margin):
            want[k] = 0
    got = np.array([grid._centre_line_filter(*pa[k], *pb[k], float(gaps[k])) for k in range(n)])
    assert np.count_nonzero(want == 1) > n // 10 and np.count_nonzero(want == 0) > n // 10
    assert np.count_nonzero((want == 1) & (np.asarray(c2.intersects(a, b)) == 0)) > n // 20  # apart, within gap
    np.testing.assert_array_equal(got[want >= 0], want[want >= 0])
    distance = np.asarray(c2.distance(a, b))
    assert np.array_equal(want[want >= 0] == 1, distance[want >= 0] <= gaps[want >= 0])  # the rule holds


def _form_exact(a, b, wx, wy, dx, dy):
    """Exact rationals: the quadratic form of the ellipse with radii ``a, b`` along ``w`` at ``d``."""
    a, b, wx, wy, dx, dy = map(Fraction, (a, b, wx, wy, dx, dy))
    p, r = wx * dx + wy * dy, wx * dy - wy * dx
    return (p * p / (a * a) + r * r / (b * b)) / (wx * wx + wy * wy)


@pytest.mark.nojit
def test_middle_filters_on_touching_translated_needles():
    """A needle (aspect ratio 2^10 to 2^40) and its translate by ``d``: they meet exactly when
    ``d / 2`` lies in the needle (``A ∩ (A + d)`` is not empty iff ``d`` is in ``A - A = 2 A``), and
    then touch on the centre line, where the centre-line filter looks. ``d`` is taken at an angle of
    a few ``b / a`` from the long axis, where the rounding of the form grows with the aspect ratio,
    and scaled to tangency within 1e-8 relative (exact answer from rationals). Neither middle filter
    may contradict it; their error bounds must cover the aspect ratio."""
    from collide2d._kernels.broadphase import grid

    rng = np.random.default_rng(5)
    for _ in range(120):
        ratio = 2.0 ** rng.uniform(10, 40)
        a = float(rng.uniform(0.5, 2.0))
        b = a / ratio
        turn = rng.uniform(0, 2 * np.pi)
        wx, wy = math.cos(turn), math.sin(turn)
        along = turn + rng.uniform(-3, 3) * b / a
        ux, uy = math.cos(along), math.sin(along)
        t = 2 / math.sqrt(float(_form_exact(a, b, wx, wy, ux, uy))) * (1 + rng.uniform(-1, 1) * 1e-8)
        xa, ya = float(rng.uniform(-1, 1)), float(rng.uniform(-1, 1))
        xb, yb = xa + t * ux, ya + t * uy
        meet = _form_exact(a, b, wx, wy, Fraction(xb) - Fraction(xa), Fraction(yb) - Fraction(ya)) <= 4
        flags = (
            grid._centre_line_filter(xa, ya, a, b, wx, wy, xb, yb, a, b, wx, wy, 0.0),
            grid._centre_line_filter(xb, yb, a, b, wx, wy, xa, ya, a, b, wx, wy, 0.0),
            grid._witness_filter(xa, ya, a, b, wx, wy, xb, yb, a, b, wx, wy),
            grid._witness_filter(xb, yb, a, b, wx, wy, xa, ya, a, b, wx, wy),
        )
        assert all(flag == grid.UNDECIDED or flag == int(meet) for flag in flags), (ratio, t, meet, flags)


@pytest.mark.nojit
def test_cell_order_is_a_stable_sort_by_the_cell_of_the_box_centre():
    """``grid.cell_order``: element indices in row-major order of the cell of their box centre,
    equal cells in index order. Boxes with integer corners in a grid of 8 x 8 cells of side 4 (and
    some outside it, clamped to the edge cells): the centre and its cell are exact, the reference
    is a stable sort by ``floor((centre - origin) / 4)`` on exact rationals."""
    from collide2d._kernels.broadphase import grid

    rng = np.random.default_rng(71)
    n = 300
    lo = rng.integers(-8, 36, (n, 2)).astype(float)
    hi = lo + rng.integers(0, 7, (n, 2))
    nx = ny = 8
    x0, y0, inv = -2.0, 1.0, 0.25

    def cell(a, b, origin):
        return min(max(math.floor((Fraction(a) + Fraction(b)) / 2 - Fraction(origin)) // 4, 0), 7)

    key = [cell(lo[e, 1], hi[e, 1], y0) * nx + cell(lo[e, 0], hi[e, 0], x0) for e in range(n)]
    want = sorted(range(n), key=lambda e: (key[e], e))
    got = grid.cell_order(lo[:, 0].copy(), lo[:, 1].copy(), hi[:, 0].copy(), hi[:, 1].copy(), x0, y0, inv, nx, ny)
    assert len(set(key)) > 40
    np.testing.assert_array_equal(got, want)


@pytest.mark.nojit
def test_grid_kernels_python_and_compiled_agree():
    """The fused-grid kernels as plain Python (``py_func``) give the compiled result, with the
    targets packed in element order or in cell order (``PACK_BY_CELL``)."""
    from collide2d._kernels.broadphase import grid

    shapes = fused_scenes()["huge among tiny"]
    table = ShapeTable(list(shapes))
    n = len(table.bounds)
    e = _backend._Elements(table.bounds, np.arange(n), np.arange(n), True)
    x0, y0, inv, nx, ny = _backend._fused_grid_shape(e.bounds, n)
    assert nx * ny > 4
    xmin, ymin, xmax, ymax, qid, tid = e.columns()
    results = []
    for in_cell_order in (False, True):
        for compiled in (True, False):
            def pick(function):
                return function if compiled else getattr(function, "py_func", function)  # plain under NUMBA_DISABLE_JIT

            order = pick(grid.cell_order)(xmin, ymin, xmax, ymax, x0, y0, inv, nx, ny)
            by_cell = tuple(np.ascontiguousarray(a[order]) for a in (xmin, ymin, xmax, ymax, qid, tid))
            params = np.ascontiguousarray(table.params[order])
            if in_cell_order:
                packed = pick(grid.grid_pack)(*by_cell[:4], by_cell[5], params, x0, y0, inv, nx, ny)
            else:
                packed = pick(grid.grid_pack)(xmin, ymin, xmax, ymax, tid, table.params, x0, y0, inv, nx, ny)
            common = by_cell[:5] + (params, True, x0, y0, inv, nx, ny) + packed + (True,)
            counts = np.empty(n, dtype=np.int64)
            empty = np.empty(0, dtype=np.int64)
            pick(grid.fused_rows)(0, n, *common, counts, empty, empty)
            off = np.concatenate([[0], np.cumsum(counts)])
            out = np.empty(off[-1], dtype=np.int64)
            kept = np.zeros(n, dtype=np.int64)
            pick(grid.fused_rows)(0, n, *common, off, kept, out)
            pick(grid.resolve_rows)(0, off, kept, out, table.params, table.params, None)
            kept_offsets = np.concatenate([[0], np.cumsum(kept)])
            result = np.empty(kept_offsets[-1], dtype=np.int64)
            pick(grid.compact_rows)(off, kept, kept_offsets, out, result)
            results.append((order, counts, kept, result))
    for other in results[1:]:
        for x, y in zip(results[0], other):
            np.testing.assert_array_equal(x, y)
    expected = brute_pairs(shapes)
    assert np.all(results[0][3] >= 0)  # nothing undecided in this scene
    np.testing.assert_array_equal(results[0][3], expected[1])
    np.testing.assert_array_equal(np.repeat(np.arange(n), results[0][2]), expected[0])


@pytest.mark.nojit
def test_brute_rows_counts_a_range_of_rows():
    """``brute_rows`` counting the rows ``r0 .. r1 - 1`` (as ``grid_rows`` documents: row ``row``'s
    count goes to ``offsets[row - r0]``) gives the slice of the counts of all rows, for ranges that
    do not start at 0; self mode and two sets. The counts are checked by brute force on the boxes."""
    from collide2d._kernels.broadphase import sweep

    rng = np.random.default_rng(61)
    lo = rng.uniform(0, 10, (40, 2))
    bounds = np.c_[lo, lo + rng.uniform(0.2, 3, (40, 2))]
    meets = (bounds[:, None, 0] <= bounds[None, :, 2]) & (bounds[None, :, 0] <= bounds[:, None, 2])
    meets &= (bounds[:, None, 1] <= bounds[None, :, 3]) & (bounds[None, :, 1] <= bounds[:, None, 3])
    for self_mode in (True, False):
        if self_mode:  # every box a query and a target; pairs (q, t) with t > q
            qid, tid = np.arange(40), np.arange(40)
            want = np.triu(meets, 1).sum(axis=1)
        else:  # boxes 0..24 query boxes 25..39
            qid = np.r_[np.arange(25), np.full(15, -1)]
            tid = np.r_[np.full(25, -1), np.arange(15)]
            want = meets[:25, 25:].sum(axis=1)
        elements = _backend._Elements(bounds, qid, tid, self_mode)
        columns = elements.columns() + (self_mode,)
        empty = np.empty(0, dtype=np.int64)
        for r0, r1 in ((0, len(want)), (3, 11), (7, len(want))):
            counts = np.full(r1 - r0, -1, dtype=np.int64)
            sweep.brute_rows(r0, r1, *columns, counts, empty)
            np.testing.assert_array_equal(counts, want[r0:r1])


@pytest.mark.nojit
@pytest.mark.parametrize("backend", ["grid", "sweep", "brute"])
def test_a_single_candidate_pair_is_written(backend):
    """Scenes with exactly one candidate pair (a write buffer of one slot): the pair is found, in
    self mode and between two sets; against the exact predicate."""
    pair = [c2.Circle((0.0, 0.0), 1.0), c2.Circle((1.5, 0.0), 1.0)]
    assert_same(query_pairs(pair, backend=backend), np.array([[0], [1]]))
    ellipses = c2.Ellipse([(0.0, 0.0), (1.5, 0.5)], [(1.0, 0.5), (0.75, 0.5)], [0.3, 1.0])
    want = np.array([[0], [1]]) if c2.intersects(ellipses[0], ellipses[1]) else np.zeros((2, 0), dtype=np.int64)
    assert_same(query_pairs(ellipses, backend=backend), want)
    assert_same(query(c2.Circle((0.0, 0.0), 1.0), c2.Circle([(1.5, 0.0), (9.0, 9.0)], 1.0), backend=backend), np.array([[0], [0]]))
