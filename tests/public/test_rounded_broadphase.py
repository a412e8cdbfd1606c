"""Rounded shapes (capsules, polygons and boxes with a radius) in the broad phase, the Index, the
ShapeTable and query_nearest, against brute force.

The reference is independent of the rounded kernels: a rounded shape is the set of points within
its radius of its core, so ``distance(a, b) = max(0, distance(core_a, core_b) - r_a - r_b)``, the
cores' distance by the plain kernels (a circle is a point core with its radius). Scenes keep every
pair's core distance at least ``GAP`` away from ``r_a + r_b (+ d)``, so that the float reference
decides each pair surely.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import collide2d as c2

GAP = 1e-6


def _shape(kind, rng, centre):
    x, y = centre
    r = float(rng.uniform(0.05, 0.4))
    if kind == "capsule":
        a = (x, y)
        b = (x + rng.uniform(-1, 1), y + rng.uniform(-1, 1))
        return c2.Capsule(a, b, r), c2.Segment(a, b), r
    if kind == "disc capsule":
        return c2.Capsule((x, y), (x, y), r), c2.Point((x, y)), r
    if kind == "box":
        lo, hi = (x, y), (x + rng.uniform(0.1, 1), y + rng.uniform(0.1, 1))
        return c2.Box(lo, hi, radius=r), c2.Box(lo, hi), r
    if kind == "rotated box":
        half, angle = (rng.uniform(0.1, 0.6), rng.uniform(0.1, 0.6)), rng.uniform(0, 3)
        return c2.RotatedBox((x, y), half, angle, radius=r), c2.RotatedBox((x, y), half, angle), r
    if kind == "triangle":
        v = [(x, y), (x + rng.uniform(0.2, 1), y), (x, y + rng.uniform(0.2, 1))]
        return c2.Polygon(v, radius=r), c2.Polygon(v), r
    if kind == "circle":
        return c2.Circle((x, y), r), c2.Point((x, y)), r
    if kind == "box0":
        lo, hi = (x, y), (x + rng.uniform(0.1, 1), y + rng.uniform(0.1, 1))
        return c2.Box(lo, hi), c2.Box(lo, hi), 0.0
    if kind == "segment":
        a, b = (x, y), (x + rng.uniform(-1, 1), y + rng.uniform(-1, 1))
        return c2.Segment(a, b), c2.Segment(a, b), 0.0
    return c2.Point((x, y)), c2.Point((x, y)), 0.0


KINDS = ("capsule", "disc capsule", "box", "rotated box", "triangle", "circle", "box0", "segment", "point")


def scene(n, seed, span=6.0, kinds=KINDS):
    """``n`` single shapes of mixed kinds, their cores and radii."""
    rng = np.random.default_rng(seed)
    items = [_shape(kinds[k % len(kinds)], rng, rng.uniform(0, span, 2)) for k in range(n)]
    return [s for s, _, _ in items], [c for _, c, _ in items], [r for _, _, r in items]


def core_distances(cores_a, cores_b):
    return np.array([[c2.distance(p, q) for q in cores_b] for p in cores_a])


def reference(a, b, d=0.0):
    """Pairs ``(i, j)`` at distance <= d and whether every pair is far from the decision."""
    shapes_a, cores_a, r_a = a
    shapes_b, cores_b, r_b = b
    reach = np.add.outer(r_a, r_b) + d
    dist = core_distances(cores_a, cores_b)
    sure = np.abs(dist - reach) > GAP
    if shapes_a is shapes_b:
        np.fill_diagonal(sure, True)
    return dist <= reach, sure, dist - np.add.outer(r_a, r_b)


def pairs_of(mask, upper):
    i, j = np.nonzero(np.triu(mask, 1) if upper else mask)
    return sorted(zip(i.tolist(), j.tolist()))


def as_list(pairs):
    return sorted(zip(pairs[0].tolist(), pairs[1].tolist()))


@pytest.mark.parametrize("backend", ["auto", "grid", "sweep", "brute"])
def test_query_pairs_mixed_table_matches_brute_force(backend):
    a = scene(36, 1)
    inside, sure, _ = reference(a, a)
    assert sure.all()
    table = c2.ShapeTable(a[0])
    assert as_list(c2.query_pairs(table, backend=backend)) == pairs_of(inside, True)
    assert len(pairs_of(inside, True)) > 5  # the scene has hits
    # the same through the single-pair function on the rounded shapes themselves
    assert all(c2.intersects(a[0][i], a[0][j]) for i, j in pairs_of(inside, True))


def test_query_pairs_within_distance_and_index_match_brute_force():
    a = scene(30, 2)
    d = 0.3
    inside, sure, _ = reference(a, a, d)
    assert sure.all()
    expected = pairs_of(inside, True)
    assert as_list(c2.query_pairs(a[0], max_distance=d)) == expected
    index = c2.Index(a[0], margin=0.2)
    assert as_list(index.query_pairs(max_distance=d)) == expected
    touching, _, _ = reference(a, a)
    assert as_list(index.query_pairs()) == pairs_of(touching, True)


def test_query_both_orders_and_batches():
    a = scene(20, 3, kinds=("capsule", "box", "triangle", "rotated box"))
    b = scene(15, 4)
    inside, sure, _ = reference(a, b)
    assert sure.all()
    expected = pairs_of(inside, False)
    assert as_list(c2.query(a[0], b[0])) == expected
    swapped = c2.query(b[0], a[0])
    assert sorted(zip(swapped[1].tolist(), swapped[0].tolist())) == expected
    # a batch of capsules (one kind: no table) against a mixed list, and the Index's query
    rng = np.random.default_rng(5)
    ends = rng.uniform(0, 6, (25, 2, 2))
    radii = rng.uniform(0.05, 0.4, 25)
    caps = c2.Capsule(ends[:, 0], ends[:, 1], radii)
    cores = [c2.Segment(e[0], e[1]) for e in ends]
    inside, sure, _ = reference((list(caps), cores, radii.tolist()), b)
    assert sure.all()
    assert as_list(c2.query(caps, b[0])) == pairs_of(inside, False)
    assert as_list(c2.Index(b[0], margin=0.1).query(caps)) == pairs_of(inside, False)  # row 0: the query's
    for j in range(3):  # the batched single-pair functions, both orders
        assert c2.intersects(caps, b[0][j]).tolist() == c2.intersects(b[0][j], caps).tolist() == inside[:, j].tolist()
    gap = np.array([[c2.distance(p, q) for q in cores] for p in cores]) - np.add.outer(radii, radii)
    np.testing.assert_allclose(c2.distance(caps[:, None], caps[None, :]), np.maximum(gap, 0.0), rtol=0, atol=1e-12)


def test_query_nearest_matches_brute_force():
    tree = scene(30, 6)
    queries = scene(12, 7, kinds=("point", "capsule", "box", "circle"))
    _, sure, gap = reference(queries, tree)
    assert sure.all()
    dist = np.maximum(gap, 0.0)  # overlapping pairs: 0, ties kept by all_matches
    pairs, got = c2.query_nearest(tree[0], queries[0], return_distance=True)
    best = dist.min(axis=1)
    assert (best == 0).sum() >= 2 and (best > 0).sum() >= 2  # the scene has both
    assert as_list(pairs) == pairs_of(dist == best[:, None], False)
    np.testing.assert_allclose(got, best[pairs[0]], rtol=0, atol=1e-12)
    index_pairs = c2.Index(c2.ShapeTable(tree[0])).query_nearest(queries[0])
    assert index_pairs.tolist() == pairs.tolist()
    # the same numbers as the single-pair distance (the rounded kernels), both orders
    for q, t, value in zip(pairs[0].tolist(), pairs[1].tolist(), got.tolist()):
        assert value == c2.distance(queries[0][q], tree[0][t]) == c2.distance(tree[0][t], queries[0][q])
    swapped, back = c2.query_nearest(queries[0], tree[0], return_distance=True, max_distance=0.5)
    near = dist.T <= 0.5
    assert {(t, q) for t, q in zip(*swapped.tolist())} <= set(zip(*np.nonzero(near)))


def test_periodic_query_pairs_with_rounded_shapes():
    # capsules across the edges of a periodic box meet their images: against translated copies
    box = (4.0, 4.0)
    caps = c2.Capsule([(0.1, 1.0), (3.8, 1.0), (2.0, 3.9), (2.0, 0.05)], [(0.5, 1.0), (3.95, 1.0), (2.2, 3.95), (2.1, 0.3)], 0.1)
    boxes = c2.Box([(1.0, 2.0)], [(1.5, 2.5)], radius=0.05)
    shapes = [caps, boxes]
    got = as_list(c2.query_pairs(shapes, periodic=box))
    flat = list(caps) + list(boxes)
    expected = []
    for i in range(len(flat)):
        for j in range(i + 1, len(flat)):
            hit = any(c2.intersects(flat[i], _moved(flat[j], sx, sy))
                      for sx in (-4.0, 0.0, 4.0) for sy in (-4.0, 0.0, 4.0))
            if hit:
                expected.append((i, j))
    assert got == expected == [(0, 1), (2, 3)]


def _moved(shape, sx, sy):
    if isinstance(shape, c2.Capsule):
        return c2.Capsule(shape.a + (sx, sy), shape.b + (sx, sy), shape.radius)
    return c2.Box(shape.min + (sx, sy), shape.max + (sx, sy), radius=shape.radius)


def test_shape_table_packs_rounded_rows():
    cap = c2.Capsule((0, 0), (1, 0), 0.5)
    tri = c2.Polygon([(0, 0), (1, 0), (0, 1)], radius=0.25)
    plain = c2.Polygon([(5, 5), (6, 5), (5, 6)])
    table = c2.ShapeTable([plain, cap, tri, c2.Circle((3, 3), 1)])
    assert table.kind_names == ["polygon", "rounded", "rounded", "ellipse"]
    assert table.params.shape == (4, 7)
    assert table.params[1].tolist() == [0.0, 2.0, 0.5, 0.0, 0.0, 1.0, 0.0]
    assert table.params[2, :3].tolist() == [3.0, 3.0, 0.25]  # after the plain triangle's 3 vertices
    assert table.vertex_offsets.tolist() == [0, 3, 3, 6, 6]
    np.testing.assert_array_equal(table.vertices[3:6], [(0, 0), (1, 0), (0, 1)])
    np.testing.assert_array_equal(table.bounds[1:3], [cap.bounds, tri.bounds])
    assert repr(table[2]) == repr(tri) and repr(table) == "<ShapeTable of 4 shapes: 1 ellipse, 1 polygon, 2 rounded>"
    # radius 0: the plain kinds, today's table bit for bit
    zero = c2.ShapeTable([c2.Capsule((0, 0), (1, 0), 0.0), c2.Box((0, 0), (1, 1), radius=0.0)])
    same = c2.ShapeTable([c2.Segment((0, 0), (1, 0)), c2.Box((0, 0), (1, 1))])
    assert zero.params.shape == (2, 6)
    np.testing.assert_array_equal(zero.params, same.params)
    np.testing.assert_array_equal(zero.kinds, same.kinds)


def test_distance_rows_near_the_decision_are_exact():
    # capsules whose distance is d within rounding: the exact decision on the cores settles them
    d = 0.5
    a = c2.Capsule((0, 0), (1, 0), 0.25)
    b = c2.Capsule((0, 1.0), (1, 1.0), 0.25)  # distance exactly 0.5
    c = c2.Capsule((0, 1.0 + 2**-40), (1, 1.0 + 2**-40), 0.25)  # distance 0.5 + 2**-40
    assert as_list(c2.query_pairs([a, b], max_distance=d)) == [(0, 1)]
    assert as_list(c2.query_pairs([a, c], max_distance=d)) == []
    assert as_list(c2.query_pairs([a, c, c2.Point((0.5, -0.75))], max_distance=d)) == [(0, 2)]
    assert c2.distance(a, b) == 0.5 < c2.distance(a, c) < 0.5 + 2**-39


def test_mixed_table_rows_of_other_kinds_do_not_leak_into_the_rounded_glue():
    # a circle's row (cx, cy, ...) has cy >= 3 where a rounded row holds its vertex count: the glue
    # must read only the rows of its pairs (a demo scene once indexed vertices with cy = 150)
    shapes = [c2.Circle((40, 150), 5), c2.Capsule((200, 150), (240, 150), 15), c2.RotatedBox((250, 150), (30, 20), 0.0, radius=8),
              c2.Polygon([(100, 100), (130, 100), (100, 130)]), c2.Circle((260, 180), 10)]
    inside = [(i, j) for i in range(5) for j in range(i + 1, 5) if c2.intersects(shapes[i], shapes[j])]
    assert as_list(c2.query_pairs(shapes)) == inside == [(1, 2), (2, 4)]
    assert as_list(c2.query_pairs(shapes, max_distance=20.0)) == [(1, 2), (1, 4), (2, 4)]
