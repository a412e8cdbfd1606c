"""query_pairs / query against brute force, and the ShapeTable container.

The reference is the pairwise predicate evaluated on every pair by broadcasting
(``c2.intersects(s[:, None], s[None, :])``, in ``broadphase_references.py``), so every backend must
return exactly the pairs the exact predicates return: same pairs, same order. The fused grid (grid,
circle filter, centre-line filter and exact intersects in one pass) is tested in
``test_broadphase_fused.py``.
"""

from __future__ import annotations

import functools

import numba
import numpy as np
import pytest
from broadphase_references import (
    ALL_KINDS, BACKENDS, BOUNDED_KINDS, assert_same, brute_pairs, brute_query, lattice_scene, memoized,
    mixed_scene, random_batch, relation_matrix, translate,
)
from conftest import random_polygon_vertices

import collide2d as c2
from collide2d.broadphase import _backend, _settle
from collide2d.broadphase import query, query_pairs
from collide2d.table import ShapeTable


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
