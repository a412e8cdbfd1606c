"""Index: the kept broad phase answers exactly what a fresh query_pairs answers, step after step.

The reference is the fresh :func:`collide2d.query_pairs` on the same shapes (itself checked
against brute force in test_broadphase.py and test_within.py), plus a brute-force check of the
first and last step.
"""

from __future__ import annotations

import numpy as np
import pytest

import collide2d as c2
from collide2d.table import ShapeTable


def brute_intersects(shapes):
    i, j = np.triu_indices(shapes.size, 1)
    hit = np.asarray(c2.intersects(shapes[i], shapes[j]))
    return np.stack([i[hit], j[hit]]).astype(np.int64)


def walk(rng, n, side, steps, *, step=0.05, turn=0.02, grow=0.0, radii=(0.3, 1.0)):
    """Ellipses on a random walk: centres, radii and angles per step."""
    center = rng.uniform(0, side, (n, 2))
    size = rng.uniform(*radii, (n, 2))
    angle = rng.uniform(0, np.pi, n)
    for _ in range(steps):
        yield c2.Ellipse(center, size, angle)
        center = center + rng.normal(0, step, (n, 2))
        angle = angle + rng.normal(0, turn, n)
        if grow:
            size = size * np.exp(rng.normal(0, grow, (n, 2)))


@pytest.mark.parametrize("margin", [0.0, 0.1, 0.5])
def test_random_walk_matches_fresh_query(margin):
    rng = np.random.default_rng(1)
    frames = list(walk(rng, 400, 30.0, 25, grow=0.01))
    index = c2.Index(frames[0], margin=margin)
    rebinned = []
    for k, shapes in enumerate(frames):
        if k:
            rebinned.append(index.update(shapes))
        np.testing.assert_array_equal(index.query_pairs(), c2.query_pairs(shapes))
        np.testing.assert_array_equal(index.query_pairs(max_distance=0.3), c2.query_pairs(shapes, max_distance=0.3))
        np.testing.assert_array_equal(index.query_pairs(None), c2.query_pairs(shapes, predicate=None))
        if k % 8 == 0:
            np.testing.assert_array_equal(index.query_pairs("overlaps"), c2.query_pairs(shapes, predicate="overlaps"))
            np.testing.assert_array_equal(index.query_pairs(None, max_distance=0.2),
                                          c2.query_pairs(shapes, predicate=None, max_distance=0.2))
    np.testing.assert_array_equal(index.query_pairs(), brute_intersects(frames[-1]))
    if margin == 0.0:
        assert min(rebinned) > 0  # every step moves some box out
    if margin == 0.5:
        assert 0 in rebinned and max(rebinned) < 400  # the lists are reused, and patched


def test_still_shapes_reuse_the_list():
    shapes = c2.Ellipse(np.random.default_rng(2).uniform(0, 10, (50, 2)), (0.8, 0.4))
    index = c2.Index(shapes, margin=0.1)
    first = index.query_pairs()
    entry = index._candidates(0.0)
    assert index.update(shapes) == 0
    assert index._candidates(0.0) is entry
    np.testing.assert_array_equal(index.query_pairs(), first)


def test_lattice_touching_then_moving_apart():
    # a lattice of circles touching exactly; one row moves away by more than the margin, then back
    n = 6
    x, y = np.meshgrid(np.arange(n) * 2.0, np.arange(n) * 2.0)
    centres = np.stack([x.ravel(), y.ravel()], axis=-1)
    index = c2.Index(c2.Circle(centres, 1.0), margin=0.25)
    for offset in (0.0, 0.125, 0.5, 3.0, 0.0):
        moved = centres.copy()
        moved[:n, 1] -= offset  # the bottom row
        shapes = c2.Circle(moved, 1.0)
        index.update(shapes)
        np.testing.assert_array_equal(index.query_pairs(), c2.query_pairs(shapes))
        np.testing.assert_array_equal(index.query_pairs("touches"), c2.query_pairs(shapes, predicate="touches"))
        np.testing.assert_array_equal(index.query_pairs(max_distance=0.5), c2.query_pairs(shapes, max_distance=0.5))
    assert index.query_pairs().shape[1] == 2 * n * (n - 1)


def test_periodic_walk_matches_fresh_query():
    rng = np.random.default_rng(3)
    length = (20.0, 16.0)
    frames = list(walk(rng, 250, 20.0, 20, step=0.15, radii=(0.3, 1.2)))
    index = c2.Index(frames[0], margin=0.3, periodic=length)
    for k, shapes in enumerate(frames):
        if k:
            index.update(shapes)
        pairs, shifts = index.query_pairs(return_shifts=True)
        fresh, fresh_shifts = c2.query_pairs(shapes, periodic=length, return_shifts=True)
        np.testing.assert_array_equal(pairs, fresh)
        np.testing.assert_array_equal(shifts, fresh_shifts)
        np.testing.assert_array_equal(index.query_pairs(max_distance=0.4),
                                      c2.query_pairs(shapes, max_distance=0.4, periodic=length))
        if k % 5 == 0:
            np.testing.assert_array_equal(index.query_pairs(None), c2.query_pairs(shapes, predicate=None, periodic=length))
    assert np.any(shifts != 0), "pairs across the edges expected"


def test_mixed_table_walk():
    rng = np.random.default_rng(4)
    n = 40
    centres = rng.uniform(0, 12, (5, n, 2))
    for step in range(12):
        c = centres + step * rng.normal(0, 0.05, centres.shape)
        table = ShapeTable([
            c2.Ellipse(c[0], (0.7, 0.3), 0.1 * step),
            c2.Box(c[1], c[1] + 0.8),
            c2.Polygon(c[2][:, None, :] + np.array([(0, 0), (1.0, 0), (0.3, 0.9)])),
            c2.Segment(c[3], c[3] + (1.0, 0.5)),
            c2.Point(c[4]),
        ])
        if step == 0:
            index = c2.Index(table, margin=0.2)
        else:
            index.update(table)
        for predicate in ("intersects", "touches", "contains", None):
            np.testing.assert_array_equal(index.query_pairs(predicate), c2.query_pairs(table, predicate=predicate))
        np.testing.assert_array_equal(index.query_pairs(max_distance=0.25), c2.query_pairs(table, max_distance=0.25))


def test_query_other_shapes():
    rng = np.random.default_rng(5)
    shapes = c2.Ellipse(rng.uniform(0, 10, (60, 2)), rng.uniform(0.3, 1, (60, 2)), rng.uniform(0, 3, 60))
    probes = c2.Circle(rng.uniform(0, 10, (20, 2)), 0.7)
    index = c2.Index(shapes, margin=0.2)
    np.testing.assert_array_equal(index.query(probes), c2.query(probes, shapes))
    np.testing.assert_array_equal(index.query(probes, "within", max_distance=None), c2.query(probes, shapes, predicate="within"))
    np.testing.assert_array_equal(index.query(probes, max_distance=0.5), c2.query(probes, shapes, max_distance=0.5))


def test_errors():
    shapes = c2.Circle([(0, 0), (3, 0)], 1)
    with pytest.raises(ValueError, match="shapes must hold the 2 shapes"):
        c2.Index(shapes).update(c2.Circle([(0, 0)], 1))
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ValueError, match="margin"):
            c2.Index(shapes, margin=bad)
    for bad in ("1", True, None):
        with pytest.raises(TypeError, match="margin"):
            c2.Index(shapes, margin=bad)
    with pytest.raises(TypeError, match="shapes"):
        c2.Index(3.0)
    with pytest.raises(ValueError, match="periodic"):
        c2.Index(shapes, periodic=(0, 10))
    index = c2.Index(shapes)
    with pytest.raises(ValueError, match="predicate"):
        index.query_pairs("disjoint")
    with pytest.raises(ValueError, match="max_distance"):
        index.query_pairs("touches", max_distance=1.0)
    with pytest.raises(TypeError, match="return_shifts"):
        index.query_pairs(return_shifts=1)
    assert len(index) == 2 and "margin=0.0" in repr(index)
