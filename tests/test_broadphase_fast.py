"""The one-kind fast paths of ``query_pairs``: the circle grid, the polygon grid and the compiled
polygon bounds.

Every answer is checked against brute force over all pairs of a small scene with the exact
predicate (``c2.intersects``) or ``c2.distance <= max_distance``, on random scenes, exactly
tangent circles (integer centres, radius 1/2) and near-tangent ones (centres moved by a few ulps),
and the fast path is checked to have answered. Near ``max_distance`` the reference is exact
rational arithmetic (``c2.distance`` is a float, within ulps of the distance).
"""

from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np
import pytest

import collide2d as c2
from collide2d import _jit, broadphase
from collide2d.broadphase import _backend
from collide2d.table import ShapeTable


@functools.lru_cache(maxsize=None)
def circle_scenes():
    """(centres, radii) of small circle scenes: random, tangent, near-tangent, large coordinates."""
    rng = np.random.default_rng(3030)
    lattice = np.stack(np.meshgrid(np.arange(12.0), np.arange(12.0)), axis=-1).reshape(-1, 2)
    steps = rng.integers(-3, 4, lattice.shape)
    near = lattice.copy()
    for _ in range(3):  # each coordinate moved by up to three ulps either way
        near = np.where(steps > 0, np.nextafter(near, np.inf), np.where(steps < 0, np.nextafter(near, -np.inf), near))
        steps -= np.sign(steps)
    half = np.full(len(lattice), 0.5)
    return {
        "random": (rng.uniform(0.0, 14.0, (250, 2)), np.full(250, 0.5)),
        "random radii": (rng.uniform(0.0, 14.0, (250, 2)), rng.uniform(0.3, 0.6, 250)),
        "tangent": (lattice, half),
        "near-tangent": (near, half),
        "tangent far out": (lattice * 2.0**40 + 2.0**60, half * 2.0**40),
        "tiny": (rng.uniform(0.0, 1e-118, (120, 2)), rng.uniform(1e-120, 1.5e-120, 120)),
    }


def _all_pairs(n):
    i, j = np.triu_indices(n, 1)
    return i, j


def reversed_pairs(pairs, n):
    """The pairs of the same shapes in the reverse order: ``(i, j)`` becomes ``(n - 1 - j, n - 1 - i)``, sorted."""
    mirrored = np.stack([n - 1 - pairs[1], n - 1 - pairs[0]])
    return mirrored[:, np.lexsort((mirrored[1], mirrored[0]))]


def brute_intersects(centres, radii):
    i, j = _all_pairs(len(radii))
    hit = c2.intersects(c2.Circle(centres[i], radii[i]), c2.Circle(centres[j], radii[j]))
    return np.stack([i[hit], j[hit]])


def brute_within(centres, radii, d):
    """The pairs at distance <= d, exactly, and the pairs within a few ulps of d beyond it.

    ``c2.distance`` where it is clearly apart from ``d``; where it is within 1e-9, exact
    rationals: ``|c_j - c_i|**2 <= (r_i + r_j + d)**2``, and "within a few ulps" when the two
    sides differ by at most ``2**-40`` of the right one.
    """
    i, j = _all_pairs(len(radii))
    distance = c2.distance(c2.Circle(centres[i], radii[i]), c2.Circle(centres[j], radii[j]))
    near = distance <= d
    close = np.zeros_like(near)
    for k in np.flatnonzero(np.abs(distance - d) <= 1e-9).tolist():
        (xa, ya), (xb, yb) = (map(Fraction, centres[i[k]].tolist()), map(Fraction, centres[j[k]].tolist()))
        reach2 = (Fraction(radii[i[k]]) + Fraction(radii[j[k]]) + Fraction(d)) ** 2
        gap2 = (xb - xa) ** 2 + (yb - ya) ** 2
        near[k] = gap2 <= reach2
        close[k] = not near[k] and gap2 - reach2 <= reach2 * Fraction(2) ** -40
    return np.stack([i[near], j[near]]), {(a, b) for a, b in zip(i[close].tolist(), j[close].tolist())}


def _answers(monkeypatch, name):
    """The list of the answers of the fast path ``broadphase._backend.<name>`` (None when it declined)."""
    calls = []
    original = getattr(_backend, name)
    monkeypatch.setattr(_backend, name, lambda *args: calls.append(original(*args)) or calls[-1])
    return calls


@pytest.fixture
def circle_grid_calls(monkeypatch):
    return _answers(monkeypatch, "_circle_pairs")


@pytest.mark.parametrize("name", list(circle_scenes()))
def test_circle_grid_intersects_matches_brute_force(name, circle_grid_calls):
    centres, radii = circle_scenes()[name]
    expected = brute_intersects(centres, radii)
    assert expected.shape[1] > 0
    found = c2.query_pairs(c2.Circle(centres, radii))
    assert found.dtype == np.int64 and found.flags.c_contiguous
    np.testing.assert_array_equal(found, expected)
    reverse = c2.query_pairs(c2.Circle(centres[::-1], radii[::-1]))
    np.testing.assert_array_equal(reverse, reversed_pairs(expected, len(radii)))
    assert len(circle_grid_calls) == 2 and all(call is not None for call in circle_grid_calls)


@pytest.mark.parametrize("name", ["random", "random radii", "tangent", "near-tangent"])
@pytest.mark.parametrize("d", [0.3, 1.0])
def test_circle_grid_within_matches_brute_force(name, d, circle_grid_calls, monkeypatch):
    """Every pair at distance <= d, and beyond d only pairs within ulps of it (kept, as
    documented, where the certificates cannot tell): the general path's answer, pair for pair."""
    centres, radii = circle_scenes()[name]
    exact, close = brute_within(centres, radii, d)
    circles = c2.Circle(centres, radii)
    found, shifts = c2.query_pairs(circles, max_distance=d, return_shifts=True)
    assert circle_grid_calls[-1] is not None
    assert shifts.shape == (found.shape[1], 2) and not shifts.any()
    assert exact.shape[1] > 0
    found_set = set(zip(*found.tolist()))
    exact_set = set(zip(*exact.tolist()))
    assert exact_set <= found_set and found_set - exact_set <= close
    assert np.all((found[0] < found[1]) & (np.lexsort((found[1], found[0])) == np.arange(found.shape[1])))
    monkeypatch.setattr(_backend, "CIRCLE_SPREAD", 0.0)  # the general path: grown boxes, then within_pairs
    np.testing.assert_array_equal(c2.query_pairs(circles, max_distance=d), found)
    assert circle_grid_calls[-1] is None


def test_circle_grid_takes_single_circles_and_tables(circle_grid_calls):
    """A list of single circles and a ShapeTable of circles take the circle grid too."""
    centres, radii = circle_scenes()["near-tangent"]
    expected = brute_intersects(centres, radii)
    singles = [c2.Circle(tuple(p), r) for p, r in zip(centres.tolist(), radii.tolist())]
    np.testing.assert_array_equal(c2.query_pairs(singles), expected)
    np.testing.assert_array_equal(c2.query_pairs(ShapeTable(singles)), expected)
    assert len(circle_grid_calls) == 2 and all(call is not None for call in circle_grid_calls)


def test_circle_grid_declines_other_scenes(circle_grid_calls):
    """Ellipses, widely spread radii, other predicates and periodic boxes keep the general paths."""
    rng = np.random.default_rng(5)
    centres = rng.uniform(0, 10, (60, 2))
    ellipses = c2.Ellipse(centres, (0.6, 0.5), 0.2)
    spread = c2.Circle(centres, np.where(np.arange(60) == 0, 1.5, 0.5))  # 3x: beyond CIRCLE_SPREAD
    i, j = _all_pairs(60)
    for shapes in (ellipses, spread):
        hit = c2.intersects(shapes[i], shapes[j])
        np.testing.assert_array_equal(c2.query_pairs(shapes), np.stack([i[hit], j[hit]]))
    assert circle_grid_calls == [None, None]
    circles = c2.Circle(centres, 0.5)
    c2.query_pairs(circles, predicate="touches")
    c2.query_pairs(circles, predicate=None)
    c2.query_pairs(circles, periodic=(10.0, 10.0))
    c2.query_pairs(circles, backend="sweep")
    assert circle_grid_calls == [None, None]
    with pytest.raises(TypeError, match="return_shifts"):
        c2.query_pairs(circles, return_shifts=1)


def test_circle_grid_threads_give_the_same_pairs(monkeypatch):
    """The row passes cut into slices in threads write the same pairs as one pass."""
    centres, radii = circle_scenes()["near-tangent"]
    circles = c2.Circle(centres, radii)
    serial = c2.query_pairs(circles, max_distance=0.3)
    monkeypatch.setattr(_jit, "PARALLEL_FROM", 0)
    monkeypatch.setattr(_jit, "SERIAL_BELOW", 16)  # slices of a few entries
    np.testing.assert_array_equal(c2.query_pairs(circles, max_distance=0.3), serial)
    exact, close = brute_within(centres, radii, 0.3)
    assert not close
    np.testing.assert_array_equal(serial, exact)


def test_circle_grid_small_collections():
    assert c2.query_pairs(c2.Circle(np.zeros((0, 2)), np.zeros(0))).shape == (2, 0)
    assert c2.query_pairs(c2.Circle((0, 0), 1)).shape == (2, 0)
    assert c2.query_pairs(c2.Circle([(0, 0), (2, 0)], 1)).tolist() == [[0], [1]]  # tangent
    assert c2.query_pairs(c2.Circle([(0, 0), (2, 0)], 1), max_distance=0.5).tolist() == [[0], [1]]
    assert c2.query_pairs(c2.Circle([(0, 0), (3, 0)], 1), max_distance=1.0).tolist() == [[0], [1]]  # exactly 1
    assert c2.query_pairs(c2.Circle([(0, 0), (3, 0)], 1), max_distance=0.75).shape == (2, 0)
    same = c2.query_pairs(c2.Circle([(1, 1)] * 3, 0.5))  # a common centre
    assert same.tolist() == [[0, 0, 1], [1, 2, 2]]


def quad_batch(n, seed):
    rng = np.random.default_rng(seed)
    centres = rng.uniform(0.0, 10.0, (n, 2))
    gaps = rng.uniform(0.5, 1.5, (n, 4))
    gaps *= 2.0 * np.pi / gaps.sum(axis=1, keepdims=True)
    angles = rng.uniform(0.0, 2.0 * np.pi, (n, 1)) + np.cumsum(gaps, axis=1)
    return c2.Polygon(np.stack([centres[:, :1] + 0.5 * np.cos(angles), centres[:, 1:] + 0.5 * np.sin(angles)], -1))


def test_polygon_bounds_compiled_match_the_vertices():
    """The compiled bounds of a polygon batch (``bounds``, and the broad phase's boxes) are the
    extremes of the vertices given, also for a batch taken out of another (offsets into the shared
    vertices out of order) and where a vertex on a straight stretch was dropped."""
    quads = quad_batch(300, 11)
    rng = np.random.default_rng(12)
    # pentagons, some with a vertex where the boundary goes straight on (stored as quads)
    pentagon = np.array([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.5, 1.5), (0.0, 1.0)])
    straight = np.array([(0.0, 0.0), (1.0, 0.0), (2.0, 0.0), (2.0, 2.0), (0.0, 2.0)])
    mixed = c2.Polygon([(pentagon if k % 3 else straight) * rng.uniform(0.5, 2.0) + rng.uniform(0, 9, 2)
                        for k in range(40)])
    assert len(set(mixed._params[:, 1].tolist())) == 2
    for shapes in (quads, quads[::-3], mixed, mixed[[5, 1, 30]]):
        v = shapes.vertices
        expected = np.concatenate([v.min(axis=-2), v.max(axis=-2)], axis=-1)
        np.testing.assert_array_equal(shapes.bounds, expected)
        np.testing.assert_array_equal(broadphase._Collection(shapes, "shapes").bounds, expected)


@functools.lru_cache(maxsize=None)
def polygon_scenes():
    """Polygon batches: random quads, unit squares on the integer lattice (sharing edges and
    corners), the same squares with corners moved by a few 2**-50, diamonds meeting at corners."""
    rng = np.random.default_rng(14)
    lattice = np.stack(np.meshgrid(np.arange(12.0), np.arange(12.0)), axis=-1).reshape(-1, 2)
    squares = lattice[:, None, :] + np.array([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)])
    diamonds = lattice[:, None, :] + np.array([(0.5, 0.0), (1.0, 0.5), (0.5, 1.0), (0.0, 0.5)])
    return {
        "random quads": quad_batch(300, 13),
        "touching squares": c2.Polygon(squares),
        "near-touching squares": c2.Polygon(squares + rng.integers(-2, 3, squares.shape) * 2.0**-50),
        "diamonds": c2.Polygon(diamonds),
    }


@pytest.fixture
def polygon_grid_calls(monkeypatch):
    return _answers(monkeypatch, "_polygon_pairs")


@pytest.mark.parametrize("name", list(polygon_scenes()))
def test_polygon_grid_matches_brute_force(name, polygon_grid_calls):
    shapes = polygon_scenes()[name]
    n = shapes.shape[0]
    i, j = _all_pairs(n)
    hit = c2.intersects(shapes[i], shapes[j])
    assert hit.any()
    expected = np.stack([i[hit], j[hit]])
    np.testing.assert_array_equal(c2.query_pairs(shapes), expected)
    np.testing.assert_array_equal(c2.query_pairs(shapes[::-1]), reversed_pairs(expected, n))
    assert len(polygon_grid_calls) == 2 and all(call is not None for call in polygon_grid_calls)


def test_polygon_grid_declines_spread_and_extreme_scenes(polygon_grid_calls):
    """Widely spread box sizes and vertices outside the tame range keep the general path."""
    quads = quad_batch(120, 15)
    vertices = np.asarray(quads.vertices)
    spread = vertices.copy()
    spread[0] = spread[0] * 30.0 - 200.0  # one quad 30 times wider than the rest
    for shapes in (c2.Polygon(spread), c2.Polygon(vertices * 1e-110)):
        i, j = _all_pairs(120)
        hit = c2.intersects(shapes[i], shapes[j])
        np.testing.assert_array_equal(c2.query_pairs(shapes), np.stack([i[hit], j[hit]]))
    assert polygon_grid_calls == [None, None]
    c2.query_pairs(quads, max_distance=0.1)  # distances: the general path
    assert polygon_grid_calls == [None, None]


def test_polygon_grid_takes_tables(polygon_grid_calls):
    """A ShapeTable of polygons (zero-padded rows, its own vertex array) takes the polygon grid."""
    shapes = polygon_scenes()["near-touching squares"]
    singles = [shapes[k] for k in range(shapes.shape[0])]
    np.testing.assert_array_equal(c2.query_pairs(ShapeTable(singles)), c2.query_pairs(shapes))
    assert len(polygon_grid_calls) == 2 and all(call is not None for call in polygon_grid_calls)
