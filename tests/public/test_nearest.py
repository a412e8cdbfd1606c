"""query_nearest and Index.query_nearest against brute force: every pair's c2.distance, then the
smallest per query with its ties (equal floats), as shapely's STRtree.query_nearest defines them."""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import random_batch

import collide2d as c2
from collide2d import _nearest

FLAT_KINDS = ("Point", "Circle", "Ellipse", "Box", "RotatedBox", "Polygon", "Segment")


def _singles(collection):
    """The single shapes of a list of 1-D batches (and single shapes), numbered like the broad phase."""
    out = []
    for source in collection:
        out.extend([source] if not source.shape else [source[k] for k in range(source.size)])
    return out


def brute_force(tree, queries, *, max_distance=None, all_matches=True, exclusive=False):
    """``(pairs, distances)`` from every pair's c2.distance: per query the smallest with its ties."""
    tree, queries = _singles(tree), _singles(queries)
    rows = []
    for i, q in enumerate(queries):
        d = {j: c2.distance(q, t) for j, t in enumerate(tree)}
        allowed = [j for j in d if (max_distance is None or d[j] <= max_distance)
                   and not (exclusive and c2.equals(q, tree[j]))]
        if not allowed:
            continue
        best = min(d[j] for j in allowed)
        ties = [j for j in allowed if d[j] == best]
        rows += [(i, j, best) for j in (ties if all_matches else ties[:1])]
    pairs = np.array([[i for i, _, _ in rows], [j for _, j, _ in rows]], dtype=np.int64).reshape(2, -1)
    return pairs, np.array([d for _, _, d in rows], dtype=np.float64)


@pytest.fixture(params=["first pass", "tree search"])
def path(request, monkeypatch):
    """Run a test twice: with the broad phase's first pass (its reach chosen on a sample of 2
    queries; the tree search settles the rest) and with the tree search alone (no first reach)."""
    if request.param == "tree search":
        monkeypatch.setattr(_nearest, "_first_reach", lambda *args: math.inf)
    else:
        monkeypatch.setattr(_nearest, "SAMPLE", 2)
        monkeypatch.setattr(_nearest, "FIRST_PASS_BUDGET", 10**6)
    return request.param


def check(tree, queries, **options):
    """Function and Index method, with and without distances, equal to the brute force."""
    expected_pairs, expected_distances = brute_force(tree, queries, **options)
    for searched in (tree, c2.Index(tree)):
        pairs, distances = c2.query_nearest(searched, queries, return_distance=True, **options)
        np.testing.assert_array_equal(pairs, expected_pairs)
        np.testing.assert_array_equal(distances, expected_distances)  # bit for bit
        assert pairs.dtype == np.int64 and distances.dtype == np.float64
        np.testing.assert_array_equal(c2.query_nearest(searched, queries, **options), expected_pairs)
    np.testing.assert_array_equal(c2.Index(tree).query_nearest(queries, **options), expected_pairs)
    return expected_pairs, expected_distances


def scene(seed, kinds, n, span):
    """A list of small random batches of the given kinds (integer data: many exact ties)."""
    rng = np.random.default_rng([20261127, seed])
    return [random_batch(kind, rng, (n,), span=span)[0] for kind in kinds]


@pytest.mark.parametrize("seed", range(3))
def test_random_mixed_scenes_match_brute_force(seed, path):
    tree = scene(seed, FLAT_KINDS, 5, 12)
    queries = scene(100 + seed, FLAT_KINDS[::-1], 3, 14)
    pairs, _ = check(tree, queries)
    assert np.unique(pairs[0]).size == 21  # every query has a nearest
    check(tree, queries, all_matches=False)
    check(tree, queries, max_distance=1.5)
    check(tree, queries, exclusive=True)


def test_random_one_kind_scene_and_far_queries_match_brute_force(path):
    # 60 circles in [-20, 20]^2; queries near, inside and far away (the reach doubles many times)
    tree = scene(7, ("Circle",), 60, 20)
    queries = scene(8, ("Point", "Segment"), 10, 20) + [c2.Point([(500, -300), (-1e4, 2.5), (0.5, 1e5)])]
    pairs, distances = check(tree, queries)
    assert distances[-1] > 9e4
    check(tree, queries, max_distance=3.0)


def test_box_near_but_shape_far_needs_the_second_pass(path):
    # the segment's box is 1 from the query along each axis but the segment is 9.19 away; the
    # points 7.07, 8.49 and 8: the first pass meets the segment only, the second the point (5, 5)
    tree = [c2.Segment((1, 14), (14, 1)), c2.Point([(5, 5), (6, 6), (-8, 0)])]
    queries = c2.Point([(0, 0), (0, 0), (0, 0), (0, 0)])  # more queries than the sample: the first pass runs
    pairs, distances = check(tree, [queries])
    assert pairs.tolist() == [[0, 1, 2, 3], [1, 1, 1, 1]] and distances.tolist() == [math.hypot(5, 5)] * 4
    check(tree, [c2.Point((0, 0))], all_matches=False)


def test_lattice_every_query_has_two_or_four_tied_nearest(path):
    # unit boxes at (3i, 3j); queries halfway between two boxes (2 ties at 1) or amid four (4 at sqrt(2))
    corners = np.array([(3 * i, 3 * j) for i in range(4) for j in range(4)], dtype=np.float64)
    tree = c2.Box(corners, corners + 1)
    edge = np.array([(3 * i + 2, 3 * j + 0.5) for i in range(3) for j in range(4)])
    middle = np.array([(3 * i + 2, 3 * j + 2) for i in range(3) for j in range(3)])
    queries = c2.Point(np.concatenate([edge, middle]))
    pairs, distances = check([tree], [queries])
    counts = np.bincount(pairs[0])
    assert counts[: len(edge)].tolist() == [2] * len(edge) and counts[len(edge) :].tolist() == [4] * len(middle)
    assert set(distances[pairs[0] < len(edge)].tolist()) == {1.0}
    assert set(distances[pairs[0] >= len(edge)].tolist()) == {math.sqrt(2)}
    first = c2.query_nearest(tree, queries, all_matches=False)
    lowest = pairs[1][np.concatenate([[True], pairs[0][1:] != pairs[0][:-1]])]
    assert first[0].tolist() == list(range(len(queries))) and first[1].tolist() == lowest.tolist()
    # circles of radius 1/2 on the integer lattice, points at the cell centres: 4 ties each
    centres = np.array([(i, j) for i in range(5) for j in range(5)], dtype=np.float64)
    cells = np.array([(i + 0.5, j + 0.5) for i in range(4) for j in range(4)])
    pairs, _ = check([c2.Circle(centres, 0.5)], [c2.Point(cells)])
    assert np.bincount(pairs[0]).tolist() == [4] * 16


def test_a_deep_tree_against_the_distance_matrix(path):
    # 600 ellipses: a tree of three levels; queries inside, around and far outside the scene
    rng = np.random.default_rng(20261127)
    tree = c2.Ellipse(rng.uniform(-30, 30, (600, 2)), rng.uniform(0.2, 1.5, (600, 2)), rng.uniform(0, np.pi, 600))
    queries = c2.Point(np.concatenate([rng.uniform(-40, 40, (150, 2)), rng.uniform(-1e3, 1e3, (50, 2))]))
    matrix = c2.distance(queries[:, None], tree[None, :])
    best = matrix.min(axis=1, keepdims=True)
    expected = np.stack(np.nonzero(matrix == best))
    for searched in (tree, c2.Index(tree)):
        pairs, distances = c2.query_nearest(searched, queries, return_distance=True)
        np.testing.assert_array_equal(pairs, expected)
        np.testing.assert_array_equal(distances, matrix[expected[0], expected[1]])
    pairs = c2.query_nearest(tree, queries, max_distance=2.0)
    np.testing.assert_array_equal(pairs, expected[:, best[expected[0], 0] <= 2.0])


def test_exclusive_searches_again_when_the_bound_came_from_an_equal_shape(monkeypatch):
    # an equal shape whose box differs from the query's would set the bound of the tree search;
    # with the identical-box rule switched off every equal shape does, and the second search runs
    kernels = _nearest._kernels()

    def bound_from_every_box(r0, r1, *args):
        args = list(args)
        args[6] = False  # skip_same (after the four box columns, bound and use_max)
        return kernels.nearest_rows(r0, r1, *args)

    monkeypatch.setattr(_nearest, "_first_reach", lambda *args: math.inf)
    patched = type("Kernels", (), {"nearest_rows": staticmethod(bound_from_every_box)})
    monkeypatch.setattr(_nearest, "_kernels", lambda: patched)
    calls = []
    measure = _nearest._measure
    monkeypatch.setattr(_nearest, "_measure", lambda *args: calls.append(args[2].size) or measure(*args))
    shapes = scene(3, ("Point", "Circle", "Box"), 8, 10)
    check(shapes, shapes, exclusive=True)
    assert len(calls) == 10 and min(calls[1::2]) > 0  # five searches, each searched again for some queries


def test_max_distance_keeps_a_tie_at_the_limit_and_drops_queries_without_a_match():
    tree = c2.Circle([(0, 0), (10, 0)], 1)
    queries = c2.Point([(3, 0), (5, 0), (5, 20)])  # 2 from circle 0; 4 from both; 19 from both
    pairs, distances = c2.query_nearest(tree, queries, max_distance=4, return_distance=True)
    assert pairs.tolist() == [[0, 1, 1], [0, 0, 1]] and distances.tolist() == [2.0, 4.0, 4.0]
    assert c2.query_nearest(tree, queries, max_distance=2).tolist() == [[0], [0]]
    assert c2.query_nearest(tree, queries, max_distance=0).shape == (2, 0)
    unlimited = c2.query_nearest(tree, queries, max_distance=math.inf)
    np.testing.assert_array_equal(unlimited, c2.query_nearest(tree, queries))
    check([tree], [queries], max_distance=4.0)


def test_exclusive_skips_equal_shapes_only(path):
    circles = c2.Circle([(0, 0), (3, 0), (7, 0)], 1)
    tree = [circles, c2.Ellipse((0, 0), (1, 1)), c2.Circle((0, 0), 2)]  # 3 equals circle 0; 4 contains it
    pairs, distances = c2.query_nearest(tree, circles, exclusive=True, return_distance=True)
    assert pairs.tolist() == [[0, 1, 2], [4, 4, 1]] and distances.tolist() == [0.0, 0.0, 2.0]
    assert c2.query_nearest(tree, circles).tolist() == [[0, 0, 0, 1, 1, 2], [0, 3, 4, 1, 4, 2]]
    check(tree, [circles], exclusive=True)
    only = c2.Point((1, 1))  # nothing but the query itself: no row
    assert c2.query_nearest(only, only, exclusive=True).shape == (2, 0)


def test_empty_and_single_inputs():
    circles = c2.Circle([(0, 0), (4, 0)], 1)
    for tree, queries in (([], circles), (circles, []), ([], []), (circles, circles[:0])):
        pairs, distances = c2.query_nearest(tree, queries, return_distance=True)
        assert pairs.shape == (2, 0) and pairs.dtype == np.int64 and distances.shape == (0,)
    assert c2.Index(circles).query_nearest([]).shape == (2, 0)
    pairs, distances = c2.query_nearest(c2.Point((1, 1)), c2.Box((3, 5), (4, 6)), return_distance=True)
    assert pairs.tolist() == [[0], [0]] and distances.tolist() == [math.hypot(2, 4)]
    check([c2.Ellipse((0, 0), (3, 1), 0.3)], [c2.Segment((2, 2), (5, -1))])


def test_lines_in_the_tree_and_as_queries(path):
    tree = [c2.Line((0, 5), (1, 0)), c2.Circle([(0, 0), (8, 8)], 1), c2.Line((20, 0), (1, 1))]
    queries = [c2.Point([(0, 3), (9, 10), (30, 0), (-40, -40)]), c2.Line((0, -3), (1, 0)), c2.Segment((2, 2), (3, 2))]
    check(tree, queries)
    check(tree, queries, max_distance=2.0)


def test_a_coincident_tree(path):
    # every tree shape at one point: the spacing is 0, the whole tree is one tie
    tree = c2.Point(np.zeros((5, 2)))
    pairs, distances = check([tree], [c2.Point([(1, 0), (0, 0)])])
    assert pairs.tolist() == [[0] * 5 + [1] * 5, list(range(5)) * 2] and distances.tolist() == [1.0] * 5 + [0.0] * 5


@pytest.mark.parametrize(
    "options, error, match",
    [
        ({"max_distance": -1.0}, ValueError, "max_distance must be >= 0"),
        ({"max_distance": math.nan}, ValueError, "max_distance must be >= 0"),
        ({"max_distance": True}, TypeError, "max_distance must be a real number or None, got bool"),
        ({"max_distance": np.True_}, TypeError, "max_distance must be a real number"),
        ({"max_distance": "1"}, TypeError, "max_distance must be a real number"),
        ({"max_distance": [1.0]}, TypeError, "max_distance must be a real number"),
        ({"return_distance": 1}, TypeError, "return_distance must be True or False"),
        ({"all_matches": None}, TypeError, "all_matches must be True or False"),
        ({"exclusive": "yes"}, TypeError, "exclusive must be True or False"),
    ],
)
def test_bad_arguments(options, error, match):
    circles = c2.Circle([(0, 0), (4, 0)], 1)
    with pytest.raises(error, match=match):
        c2.query_nearest(circles, circles, **options)
    with pytest.raises(error, match=match):
        c2.Index(circles).query_nearest(circles, **options)


def test_bad_collections_and_periodic_index():
    circles = c2.Circle([(0, 0), (4, 0)], 1)
    with pytest.raises(TypeError, match="tree_or_shapes must be a shape"):
        c2.query_nearest(3.0, circles)
    with pytest.raises(TypeError, match="shapes must be a shape"):
        c2.query_nearest(circles, "circles")
    with pytest.raises(TypeError, match="shapes must be a shape"):
        c2.Index(circles).query_nearest(None)
    with pytest.raises(ValueError, match="periodic"):
        c2.query_nearest(c2.Index(circles, periodic=(20, 20)), circles)
