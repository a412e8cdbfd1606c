"""Properties every ordered pair of kinds (8 x 8) must have, for every predicate.

Scenes are random but seeded, with small integers, so that many pairs touch exactly, share edges
or are degenerate. Checked: result types and dtypes, broadcasting, scalar == element of batch,
symmetry and mirroring, invariance under exact transforms (integer translation, quarter rotation,
power-of-two scaling), agreement between ``relate`` and the boolean predicates, ``contains_xy``,
errors; plus exact known answers for points and circles, and shapely for the flat kinds.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import numpy as np
import pytest
from conftest import KINDS, build, random_batch, random_fields, stack_fields, transform_fields

import collide2d as c2

R = c2.Relation
BOOLEAN_PREDICATES = ("intersects", "disjoint", "touches", "overlaps", "contains", "within", "covers", "covered_by", "equals")
SYMMETRIC = ("intersects", "disjoint", "touches", "overlaps", "equals")
PREDICATES = BOOLEAN_PREDICATES + ("relate",)
PAIRS = list(itertools.product(KINDS, KINDS))
PAIR_IDS = [f"{a}-{b}" for a, b in PAIRS]
MIRROR = np.array([0, 1, 2, 4, 3, 5], dtype=np.int8)  # relation of (b, a) from that of (a, b)
SCENE_SIZE = 32


def _seed(kind_a, kind_b, salt):
    return [20251122, KINDS.index(kind_a), KINDS.index(kind_b), salt]


@functools.lru_cache(maxsize=None)
def scene(kind_a, kind_b, exact_angles=False):
    """Two batches of shape (SCENE_SIZE,) paired element by element, and their field lists.

    One in four b's is built from the a of the same row (a copy, or a shape of the same kind
    sharing data), so that equal and touching pairs are frequent.
    """
    rng = np.random.default_rng(_seed(kind_a, kind_b, int(exact_angles)))
    fa = [random_fields(kind_a, rng, exact_angles=exact_angles) for _ in range(SCENE_SIZE)]
    fb = [random_fields(kind_b, rng, exact_angles=exact_angles) for _ in range(SCENE_SIZE)]
    if kind_a == kind_b:
        for k in range(0, SCENE_SIZE, 4):
            fb[k] = {name: np.copy(value) for name, value in fa[k].items()}
    a = build(kind_a, stack_fields(kind_a, fa, (SCENE_SIZE,)))
    b = build(kind_b, stack_fields(kind_b, fb, (SCENE_SIZE,)))
    return a, b, fa, fb


@functools.lru_cache(maxsize=None)
def scene_relations(kind_a, kind_b, exact_angles=False):
    a, b, _, _ = scene(kind_a, kind_b, exact_angles)
    return c2.relate(a, b)


def call(name, a, b):
    return getattr(c2, name)(a, b)


# -- types, broadcasting, scalar == element --------------------------------------------------------


@pytest.mark.parametrize("predicate", PREDICATES)
@pytest.mark.parametrize(("kind_a", "kind_b"), PAIRS, ids=PAIR_IDS)
def test_types_broadcasting_and_scalar_agreement(kind_a, kind_b, predicate):
    rng = np.random.default_rng(_seed(kind_a, kind_b, 7))
    a, fields_a = random_batch(kind_a, rng, (3, 1))
    b, fields_b = random_batch(kind_b, rng, (4,))
    batch = call(predicate, a, b)
    assert isinstance(batch, np.ndarray)
    assert batch.shape == (3, 4)
    assert batch.dtype == (np.int8 if predicate == "relate" else np.bool_)
    if predicate == "relate":
        assert set(np.unique(batch).tolist()) <= {int(r) for r in R}
    swapped = call(predicate, b, a)
    assert swapped.shape == (3, 4)
    for i, j in itertools.product(range(3), range(4)):
        single_a, single_b = build(kind_a, fields_a[i]), build(kind_b, fields_b[j])
        value = call(predicate, single_a, single_b)
        if predicate == "relate":
            assert type(value) is R
        else:
            assert type(value) is bool
        assert value == batch[i, j], (i, j, single_a, single_b)
        assert call(predicate, a[i, 0], b[j]) == value  # indexed batch elements too
    if predicate != "relate":
        return  # the single-against-batch cases below go through the same path for every predicate
    # one side single, the other a batch
    single = call(predicate, a[0, 0], b)
    assert single.shape == (4,)
    np.testing.assert_array_equal(single, batch[0])
    column = call(predicate, a, b[1])
    assert column.shape == (3, 1)
    np.testing.assert_array_equal(column[:, 0], batch[:, 1])


@pytest.mark.parametrize(("kind_a", "kind_b"), PAIRS, ids=PAIR_IDS)
def test_empty_and_size_one_batches(kind_a, kind_b):
    rng = np.random.default_rng(_seed(kind_a, kind_b, 8))
    a, _ = random_batch(kind_a, rng, (0,))
    b, fields_b = random_batch(kind_b, rng, (1,))
    for predicate in PREDICATES:
        result = call(predicate, a, b)
        assert result.shape == (0,)
        assert result.dtype == (np.int8 if predicate == "relate" else np.bool_)
    a1, fields_a = random_batch(kind_a, rng, (1, 1))
    result = c2.relate(a1, b)
    assert result.shape == (1, 1)
    assert result[0, 0] == c2.relate(build(kind_a, fields_a[0]), build(kind_b, fields_b[0]))


@pytest.mark.parametrize(("kind_a", "kind_b"), PAIRS, ids=PAIR_IDS)
def test_non_broadcastable_batches(kind_a, kind_b):
    rng = np.random.default_rng(_seed(kind_a, kind_b, 9))
    a, _ = random_batch(kind_a, rng, (3,))
    b, _ = random_batch(kind_b, rng, (4,))
    for predicate in PREDICATES:
        with pytest.raises(ValueError, match="broadcast"):
            call(predicate, a, b)


@pytest.mark.parametrize("predicate", PREDICATES)
def test_non_shape_arguments(predicate):
    shape = c2.Circle((0, 0), 1)
    for bad in (None, (0.0, 0.0), np.zeros(2), "circle", 1.0):
        with pytest.raises(TypeError, match=r"\ba\b"):
            call(predicate, bad, shape)
        with pytest.raises(TypeError, match=r"\bb\b"):
            call(predicate, shape, bad)


@pytest.mark.parametrize("predicate", [c2.contains_xy, c2.intersects_xy])
def test_xy_predicate_errors(predicate):
    with pytest.raises(TypeError, match="shape"):
        predicate((0, 0), (0, 0))
    with pytest.raises(ValueError, match="xy"):
        predicate(c2.Circle((0, 0), 1), (0, 0, 0))
    with pytest.raises(ValueError, match="xy"):
        predicate(c2.Circle((0, 0), 1), (np.nan, 0))
    with pytest.raises(ValueError, match="broadcast"):
        predicate(c2.Circle(np.zeros((3, 2)), 1), np.zeros((4, 2)))


# -- symmetry and agreement ----------------------------------------------------------------------


@pytest.mark.parametrize(("kind_a", "kind_b"), PAIRS, ids=PAIR_IDS)
def test_symmetry(kind_a, kind_b):
    a, b, _, _ = scene(kind_a, kind_b)
    for name in SYMMETRIC:
        np.testing.assert_array_equal(call(name, a, b), call(name, b, a), err_msg=name)
    np.testing.assert_array_equal(c2.contains(a, b), c2.within(b, a))
    np.testing.assert_array_equal(c2.within(a, b), c2.contains(b, a))
    np.testing.assert_array_equal(c2.covers(a, b), c2.covered_by(b, a))
    np.testing.assert_array_equal(c2.covered_by(a, b), c2.covers(b, a))
    np.testing.assert_array_equal(c2.relate(b, a), MIRROR[scene_relations(kind_a, kind_b)])


@pytest.mark.parametrize(("kind_a", "kind_b"), PAIRS, ids=PAIR_IDS)
def test_relate_agrees_with_predicates(kind_a, kind_b):
    a, b, _, _ = scene(kind_a, kind_b)
    rel = scene_relations(kind_a, kind_b)
    intersects = c2.intersects(a, b)
    np.testing.assert_array_equal(intersects, ~c2.disjoint(a, b))
    np.testing.assert_array_equal(intersects, rel != R.DISJOINT)
    np.testing.assert_array_equal(c2.disjoint(a, b), rel == R.DISJOINT)
    np.testing.assert_array_equal(c2.touches(a, b), rel == R.TOUCHING)
    np.testing.assert_array_equal(c2.contains(a, b), (rel == R.CONTAINS) | (rel == R.EQUAL))
    np.testing.assert_array_equal(c2.within(a, b), (rel == R.WITHIN) | (rel == R.EQUAL))
    np.testing.assert_array_equal(c2.equals(a, b), rel == R.EQUAL)
    # covers: contains, or b in the boundary of a, which only a point or a segment (along a polygon's
    # edge, checked against shapely in test_flat_kinds_agree_with_shapely) can be
    covers = c2.covers(a, b)
    contained = (rel == R.CONTAINS) | (rel == R.EQUAL)
    assert np.all(covers[contained])
    assert not np.any(covers[(rel != R.TOUCHING) & ~contained])
    if kind_b == "Point":
        np.testing.assert_array_equal(covers, contained | (rel == R.TOUCHING))
    elif kind_b != "Segment" or kind_a in ("Circle", "Ellipse", "Line", "Point", "Segment"):
        np.testing.assert_array_equal(covers, contained)
    overlaps = c2.overlaps(a, b)
    assert np.all(rel[overlaps] == R.OVERLAPPING)
    # overlaps needs equal dimensions; regions, curves and points never overlap each other
    dimension = {"Point": 0, "Segment": 1, "Line": 1}
    if dimension.get(kind_a, 2) != dimension.get(kind_b, 2):
        assert not overlaps.any()
    if kind_a == "Point" or kind_b == "Point":
        assert not overlaps.any()  # a point cannot partially overlap anything


@pytest.mark.parametrize(("kind_a", "kind_b"), [p for p in PAIRS if p[0] == p[1]], ids=[f"{k}" for k in KINDS])
def test_shape_equals_itself(kind_a, kind_b):
    a, _, _, _ = scene(kind_a, kind_b)
    np.testing.assert_array_equal(c2.relate(a, a), np.full(a.shape, int(R.EQUAL), dtype=np.int8))
    assert c2.equals(a[0], a[0]) is True
    assert c2.contains(a[0], a[0]) is True
    assert c2.within(a[0], a[0]) is True
    assert c2.touches(a[0], a[0]) is False
    assert c2.overlaps(a[0], a[0]) is False


def test_covers_spot_checks():
    """Hand-derived cases: covers is containment that allows lying in the boundary."""
    box = c2.Box((0, 0), (2, 2))
    # 1: a segment along an edge is covered, not contained; half along it and half beyond is not
    assert (c2.covers(box, c2.Segment((0, 0), (2, 0))), c2.contains(box, c2.Segment((0, 0), (2, 0)))) == (True, False)
    assert c2.covers(box, c2.Segment((1, 0), (3, 0))) is False
    # 2: a segment touching from outside at a corner, and a box touching along an edge: not covered
    assert c2.covers(box, c2.Segment((2, 2), (3, 3))) is False
    assert c2.covers(box, c2.Box((2, 0), (3, 2))) is False
    # 3: the end point of a segment is covered (not contained); a point on an ellipse too
    assert (c2.covers(c2.Segment((0, 0), (2, 0)), c2.Point((2, 0))), c2.contains(c2.Segment((0, 0), (2, 0)), c2.Point((2, 0)))) == (True, False)
    assert c2.covers(c2.Ellipse((0, 0), (4, 2)), c2.Point((0, -2))) is True
    # 4: a segment tangent to an ellipse is not covered (no segment lies in a curved boundary)
    assert c2.covers(c2.Ellipse((0, 0), (4, 2)), c2.Segment((4, -1), (4, 1))) is False
    # 5: equal shapes cover each other; a line covers a segment on it, never the other way
    assert c2.covers(box, c2.Polygon([(0, 0), (2, 0), (2, 2), (0, 2)])) is True
    assert (c2.covers(c2.Line((0, 0), (1, 1)), c2.Segment((1, 1), (2, 2))), c2.covered_by(c2.Line((0, 0), (1, 1)), c2.Segment((1, 1), (2, 2)))) == (True, False)
    # 6: the boundary case in a batch, against single shapes on either side
    segments = c2.Segment([(0, 0), (1, 0), (0, 2)], [(2, 0), (3, 0), (0, 1)])
    assert c2.covers(box, segments).tolist() == [True, False, True]
    assert c2.covered_by(segments, box).tolist() == [True, False, True]
    assert c2.covers(c2.Box([(0, 0), (5, 5)], [(2, 2), (6, 6)])[:, None], segments).tolist() == [[True, False, True], [False] * 3]


def test_relation_prints_its_name():
    r = R.TOUCHING
    assert (str(r), f"{r}", f"{r!s}", f"{r:>10}", f"{r:d}", f"{r:03d}") == ("TOUCHING", "TOUCHING", "TOUCHING", "  TOUCHING", "1", "001")
    assert repr(r) == "<Relation.TOUCHING: 1>"
    assert r == 1 and int(r) == 1 and R(1) is r


def test_dimension_rules_spot_checks():
    """Hand-derived cases for the dimension-dependent rules of shapely's predicates."""
    box = c2.Box((0, 0), (2, 2))
    # 1: a segment crossing a box: interiors meet, but no overlap (dimensions differ)
    assert c2.relate(box, c2.Segment((-1, 1), (3, 1))) == R.OVERLAPPING
    assert c2.overlaps(box, c2.Segment((-1, 1), (3, 1))) is False
    # 2: a segment along an edge of the box only touches it
    assert c2.relate(box, c2.Segment((0, 0), (2, 0))) == R.TOUCHING
    assert c2.contains(box, c2.Segment((0, 0), (2, 0))) is False
    # 3: a point on the boundary touches, a point inside is contained
    assert c2.relate(box, c2.Point((2, 1))) == R.TOUCHING
    assert c2.relate(box, c2.Point((1, 1))) == R.CONTAINS
    # 4: a chord of a circle is contained (its interior lies in the interior)
    assert c2.contains(c2.Circle((0, 0), 5), c2.Segment((-3, -4), (3, 4))) is True
    # 5: two circles tangent (3-4-5 triangle: distance 5 = 2 + 3) touch
    assert c2.relate(c2.Circle((0, 0), 2), c2.Circle((3, 4), 3)) == R.TOUCHING
    # 6: internally tangent circles: containment
    assert c2.relate(c2.Circle((0, 0), 7), c2.Circle((3, 4), 2)) == R.CONTAINS  # distance 5 = 7 - 2
    # 7: a line through a polygon: interiors meet
    assert c2.relate(c2.Line((0, 1), (1, 0)), box) == R.OVERLAPPING
    # 8: a line along an edge touches
    assert c2.relate(c2.Line((0, 0), (1, 0)), box) == R.TOUCHING
    # 9: two crossing segments do not overlap, collinear overlapping ones do
    assert c2.overlaps(c2.Segment((0, 0), (2, 2)), c2.Segment((0, 2), (2, 0))) is False
    assert c2.overlaps(c2.Segment((0, 0), (2, 0)), c2.Segment((1, 0), (3, 0))) is True
    # 10: a segment on a line is within it; two equal lines written differently are equal
    assert c2.relate(c2.Segment((1, 1), (2, 2)), c2.Line((0, 0), (-3, -3))) == R.WITHIN
    assert c2.equals(c2.Line((0, 0), (1, 1)), c2.Line((5, 5), (-2, -2))) is True
    # 11: the same box as Box, RotatedBox and Polygon
    assert c2.equals(box, c2.RotatedBox((1, 1), (1, 1), angle=np.pi / 2)) is True
    assert c2.equals(box, c2.Polygon([(0, 0), (0, 2), (2, 2), (2, 0)])) is True
    # 12: a circle is an ellipse with equal radii, at any angle
    assert c2.equals(c2.Circle((1, 2), 3), c2.Ellipse((1, 2), (3, 3), angle=0.7)) is True
    # 13: swapped radii with a quarter-turned direction, and the opposite direction, are the same
    # ellipse (the float angles 0.3 and 0.3 + pi/2 are not exactly a quarter turn apart)
    assert c2.equals(c2.Ellipse((0, 0), (2, 1), direction=(3, 1)), c2.Ellipse((0, 0), (1, 2), direction=(-1, 3))) is True
    assert c2.equals(c2.Ellipse((0, 0), (2, 1), direction=(3, 1)), c2.Ellipse((0, 0), (2, 1), direction=(-6, -2))) is True
    assert c2.equals(c2.Ellipse((0, 0), (2, 1), angle=np.pi), c2.Ellipse((0, 0), (1, 2), angle=np.pi / 2)) is True
    # 14: axis-aligned ellipses meeting vertex to vertex touch (the documented contract)
    assert c2.relate(c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((3, 0), (1, 3))) == R.TOUCHING


# -- invariance under exact transforms ------------------------------------------------------------


def _transformed_relations(kind_a, kind_b, exact_angles, **transform):
    _, _, fa, fb = scene(kind_a, kind_b, exact_angles)
    ta = [transform_fields(kind_a, f, **transform) for f in fa]
    tb = [transform_fields(kind_b, f, **transform) for f in fb]
    a = build(kind_a, stack_fields(kind_a, ta, (SCENE_SIZE,)))
    b = build(kind_b, stack_fields(kind_b, tb, (SCENE_SIZE,)))
    return a, b, c2.relate(a, b)


def _check_stored_transform(original, moved, map_point, map_vector, length=1.0):
    """Precondition: the stored data of ``moved`` is exactly the transform of ``original``'s.

    ``map_point`` maps positions, ``map_vector`` directions, ``length`` scales sizes.
    """
    kind = original._kind
    for k in range(original.size):
        p, q = original[k]._params, moved[k]._params
        if kind == "polygon":
            v = original._verts[int(p[0]) : int(p[0] + p[1])]
            w = moved._verts[int(q[0]) : int(q[0] + q[1])]
            assert {tuple(map_point(x)) for x in v} == {tuple(x) for x in w}
        elif kind == "ellipse":
            np.testing.assert_array_equal(q[:2], map_point(p[:2]))
            np.testing.assert_array_equal(q[2:4], p[2:4] * length)
            if p[2] != p[3]:  # the direction of a circle is irrelevant (stored as (1, 0))
                np.testing.assert_array_equal(q[4:6], map_vector(p[4:6]))
        elif kind in ("segment", "point"):
            np.testing.assert_array_equal(q, np.concatenate([map_point(x) for x in p.reshape(-1, 2)]))
        else:  # line
            np.testing.assert_array_equal(q[:2], map_point(p[:2]))
            np.testing.assert_array_equal(q[2:], map_vector(p[2:]))


@pytest.mark.parametrize(("kind_a", "kind_b"), PAIRS, ids=PAIR_IDS)
def test_translation_invariance(kind_a, kind_b):
    shift = np.array([7.0, -3.0])
    original = scene_relations(kind_a, kind_b, True)
    a, b, moved = _transformed_relations(kind_a, kind_b, True, translate=shift)
    a0, b0, _, _ = scene(kind_a, kind_b, True)
    _check_stored_transform(a0, a, lambda x: x + shift, lambda v: v)
    _check_stored_transform(b0, b, lambda x: x + shift, lambda v: v)
    np.testing.assert_array_equal(moved, original)


@pytest.mark.parametrize(("kind_a", "kind_b"), PAIRS, ids=PAIR_IDS)
def test_quarter_rotation_invariance(kind_a, kind_b):
    def rot(x):
        return np.array([-x[1], x[0]])

    original = scene_relations(kind_a, kind_b)
    a, b, moved = _transformed_relations(kind_a, kind_b, False, rotate=True)
    a0, b0, _, _ = scene(kind_a, kind_b)
    _check_stored_transform(a0, a, rot, rot)
    _check_stored_transform(b0, b, rot, rot)
    np.testing.assert_array_equal(moved, original)


@pytest.mark.parametrize("power", [-7, 9])
@pytest.mark.parametrize(("kind_a", "kind_b"), PAIRS, ids=PAIR_IDS)
def test_power_of_two_scaling_invariance(kind_a, kind_b, power):
    scale = 2.0**power
    original = scene_relations(kind_a, kind_b)
    a, b, moved = _transformed_relations(kind_a, kind_b, False, scale=scale)
    a0, b0, _, _ = scene(kind_a, kind_b)
    _check_stored_transform(a0, a, lambda x: x * scale, lambda v: v, scale)
    _check_stored_transform(b0, b, lambda x: x * scale, lambda v: v, scale)
    np.testing.assert_array_equal(moved, original)


# -- contains_xy and intersects_xy ------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("predicate, point_predicate", [(c2.contains_xy, c2.contains), (c2.intersects_xy, c2.intersects)])
def test_xy_predicate_matches_the_point_predicate(kind, predicate, point_predicate):
    rng = np.random.default_rng([5150, KINDS.index(kind)])
    shapes, fields = random_batch(kind, rng, (6,))
    xy = rng.integers(-5, 6, size=(10, 1, 2)).astype(np.float64)
    result = predicate(shapes, xy)
    assert result.shape == (10, 6)
    assert result.dtype == np.bool_
    np.testing.assert_array_equal(result, point_predicate(shapes, c2.Point(xy)))
    for i, j in itertools.product(range(10), range(6)):
        single = predicate(build(kind, fields[j]), xy[i, 0])
        assert type(single) is bool
        assert single == result[i, j]
        assert single == point_predicate(build(kind, fields[j]), c2.Point(xy[i, 0]))
    # a single shape against many points, and a list of tuples
    points = [(0.0, 0.0), (1.0, 2.0), (-3.0, 1.0)]
    many = predicate(shapes[0], points)
    assert many.shape == (3,)
    np.testing.assert_array_equal(many, [predicate(shapes[0], p) for p in points])


# -- exact known answers ---------------------------------------------------------------------------


def _fr(x):
    return Fraction(float(x))


def _orient(a, b, c):
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def exact_point_relation(shape, xy):
    """Relation of a single shape (a) against a point (b), in rationals from the stored numbers."""
    x, y = map(_fr, xy)
    kind = shape._kind
    p = [_fr(v) for v in shape._params]
    if kind == "point":
        return R.EQUAL if (p[0], p[1]) == (x, y) else R.DISJOINT
    if kind == "ellipse":
        cx, cy, a, b, wx, wy = p
        dx, dy = x - cx, y - cy
        value = b * b * (wx * dx + wy * dy) ** 2 + a * a * (-wy * dx + wx * dy) ** 2 - a * a * b * b * (wx * wx + wy * wy)
        return R.CONTAINS if value < 0 else R.TOUCHING if value == 0 else R.DISJOINT
    if kind == "polygon":
        offset, count = int(p[0]), int(p[1])
        v = [(_fr(u), _fr(w)) for u, w in shape._verts[offset : offset + count]]
        turns = [_orient(v[i], v[(i + 1) % count], (x, y)) for i in range(count)]
        if min(turns) < 0:
            return R.DISJOINT
        return R.CONTAINS if min(turns) > 0 else R.TOUCHING
    if kind == "segment":
        a, b = (p[0], p[1]), (p[2], p[3])
        if _orient(a, b, (x, y)) != 0:
            return R.DISJOINT
        t = (x - a[0]) * (b[0] - a[0]) + (y - a[1]) * (b[1] - a[1])
        length2 = (b[0] - a[0]) ** 2 + (b[1] - a[1]) ** 2
        if t < 0 or t > length2:
            return R.DISJOINT
        return R.TOUCHING if t in (0, length2) else R.CONTAINS
    if kind == "line":
        return R.CONTAINS if _orient((p[0], p[1]), (p[0] + p[2], p[1] + p[3]), (x, y)) == 0 else R.DISJOINT
    raise KeyError(kind)


@pytest.mark.parametrize("kind", KINDS)
def test_point_relations_exact(kind):
    """Every kind against integer points (many on boundaries), checked against exact rationals."""
    rng = np.random.default_rng([4242, KINDS.index(kind)])
    shapes, _ = random_batch(kind, rng, (20, 1))
    xy = rng.integers(-5, 6, size=(16, 2)).astype(np.float64)
    rel = c2.relate(shapes, c2.Point(xy))
    for i, j in itertools.product(range(20), range(16)):
        expected = exact_point_relation(shapes[i, 0], xy[j])
        assert rel[i, j] == expected, (shapes[i, 0], xy[j], R(int(rel[i, j])), expected)
    # ellipses at arbitrary angles with points exactly on their axes' ends are a hard case: the
    # stored direction is not unit, so the point (c + a w) is usually just outside or inside
    ellipses = c2.Ellipse((1.0, 2.0), (3.0, 1.0), angle=rng.uniform(-3, 3, 12))
    ends = np.asarray(ellipses.center) + 3.0 * np.asarray(ellipses.direction)
    rel = c2.relate(ellipses, c2.Point(ends))
    for k in range(12):
        assert rel[k] == exact_point_relation(ellipses[k], ends[k])


def _ellipse_boundary_points(rng, n):
    """``n`` ellipses with points exactly on their boundaries, and those points' float neighbours.

    Direction ``(3, 4)`` (length 5) and radii that are multiples of 25 put
    ``c + a cos(t) u + b sin(t) u_perp`` on integers whenever ``cos(t), sin(t)`` come from a
    Pythagorean triple over 5 or 25: exact boundary points of the stored ellipse.
    """
    triples = [(3, 4, 5), (4, 3, 5), (5, 0, 5), (0, 5, 5), (7, 24, 25), (24, 7, 25), (15, 20, 25)]
    centers = rng.integers(-50, 50, size=(n, 2)).astype(np.float64)
    radii = 25.0 * rng.integers(1, 5, size=(n, 2))
    ellipses = c2.Ellipse(centers, radii, direction=(3.0, 4.0))
    points = np.empty((n, 3, 2))
    for k in range(n):
        p, q, r = triples[rng.integers(len(triples))]
        sx, sy = rng.choice([-1, 1], size=2)
        along, across = sx * radii[k, 0] * p / r, sy * radii[k, 1] * q / r  # multiples of 5
        on = centers[k] + (along * 3 / 5 - across * 4 / 5, along * 4 / 5 + across * 3 / 5)
        outward = np.sign(on - centers[k]) + (on == centers[k])
        points[k] = on, np.nextafter(on, on + outward), np.nextafter(on, on - outward)
    return ellipses, points


@pytest.mark.parametrize("kind", KINDS)
def test_xy_predicates_exact(kind):
    """contains_xy (interior) and intersects_xy (closed) against exact rationals, with points on
    the boundaries: integer points on integer shapes, and for ellipses points exactly on the
    curve and their float neighbours."""
    rng = np.random.default_rng([4343, KINDS.index(kind)])
    shapes, _ = random_batch(kind, rng, (20, 1))
    xy = rng.integers(-5, 6, size=(16, 2)).astype(np.float64)
    cases = [(shapes, xy[None, :, :], [(shapes[i, 0], xy[j], (i, j)) for i in range(20) for j in range(16)])]
    if kind in ("Circle", "Ellipse"):
        ellipses, points = _ellipse_boundary_points(rng, 40)
        cases.append((ellipses[:, None], points, [(ellipses[i], points[i, j], (i, j)) for i in range(40) for j in range(3)]))
    # the relation whose presence shows the test reaches the hard cases: on the boundary, or on
    # the shape when it has no boundary (a point's equal point, a line's points)
    hard = {"Point": R.EQUAL, "Line": R.CONTAINS}.get(kind, R.TOUCHING)
    hard_cases = 0
    for batch, points, singles in cases:
        inside, closed = c2.contains_xy(batch, points), c2.intersects_xy(batch, points)
        for shape, point, index in singles:
            expected = exact_point_relation(shape, point)
            hard_cases += expected == hard
            assert inside[index] == (expected in (R.CONTAINS, R.EQUAL)), (shape, point, expected)
            assert closed[index] == (expected != R.DISJOINT), (shape, point, expected)
            assert c2.contains_xy(shape, tuple(point.tolist())) == inside[index]  # the one-point path
            assert c2.intersects_xy(shape, tuple(point.tolist())) == closed[index]
    assert hard_cases >= (2 if kind in ("Point", "Line") else 5)


@pytest.mark.parametrize("kind", ["Point", "Box", "RotatedBox", "Polygon", "Segment"])
def test_xy_predicates_agree_with_shapely(kind):
    """Exact agreement with shapely's contains_xy and intersects_xy on the flat kinds, with
    points on vertices and edges (integer data, and rotated boxes at any angle with their
    stored corners and edge midpoints as points)."""
    shapely = pytest.importorskip("shapely")
    rng = np.random.default_rng([4444, KINDS.index(kind)])
    shapes, _ = random_batch(kind, rng, (30,))
    xy = rng.integers(-5, 6, size=(40, 2)).astype(np.float64)
    if kind == "RotatedBox":
        turned = c2.RotatedBox(rng.uniform(-3, 3, (30, 2)), rng.uniform(0.5, 2, (30, 2)), rng.uniform(-3, 3, 30))
        shapes = turned
        corners = turned.corners
        xy = np.concatenate([corners, 0.5 * (corners + np.roll(corners, 1, axis=1)), np.broadcast_to(xy, (30, 40, 2))], axis=1)
    else:
        xy = np.array(np.broadcast_to(xy, (30, 40, 2)))
        if kind == "Point":
            xy[:, 0] = shapes.xy  # a point contains itself
    inside = c2.contains_xy(shapes[:, None], xy)
    closed = c2.intersects_xy(shapes[:, None], xy)
    for k in range(30):
        geometry = _to_shapely(shapes[k])
        np.testing.assert_array_equal(inside[k], shapely.contains_xy(geometry, xy[k, :, 0], xy[k, :, 1]), err_msg=str(shapes[k]))
        np.testing.assert_array_equal(closed[k], shapely.intersects_xy(geometry, xy[k, :, 0], xy[k, :, 1]), err_msg=str(shapes[k]))
    assert np.all(inside[:, 0]) if kind == "Point" else np.any(closed & ~inside)  # points on boundaries


def test_circle_circle_exact():
    """Circle pairs against exact rational comparisons of d^2 with (r1 +- r2)^2."""
    rng = np.random.default_rng(777)
    n = 400
    ca = rng.integers(-4, 5, size=(n, 2)).astype(np.float64)
    cb = rng.integers(-4, 5, size=(n, 2)).astype(np.float64)
    ra = rng.integers(1, 6, size=n).astype(np.float64)
    rb = rng.integers(1, 6, size=n).astype(np.float64)
    rel = c2.relate(c2.Circle(ca, ra), c2.Circle(cb, rb))
    for k in range(n):
        d2 = sum((Fraction(int(u)) - Fraction(int(w))) ** 2 for u, w in zip(ca[k], cb[k]))
        r1, r2 = int(ra[k]), int(rb[k])
        if d2 > (r1 + r2) ** 2:
            expected = R.DISJOINT
        elif d2 == (r1 + r2) ** 2:
            expected = R.TOUCHING
        elif d2 == 0 and r1 == r2:
            expected = R.EQUAL
        elif d2 <= (r1 - r2) ** 2:
            expected = R.CONTAINS if r1 > r2 else R.WITHIN
        else:
            expected = R.OVERLAPPING
        assert rel[k] == expected, (ca[k], ra[k], cb[k], rb[k], R(int(rel[k])), expected)


FLAT_KINDS = ("Point", "Box", "RotatedBox", "Polygon", "Segment")


def _to_shapely(shape):
    shapely = pytest.importorskip("shapely")
    kind = shape._kind
    if kind == "polygon":
        offset, count = (int(x) for x in shape._params)
        return shapely.Polygon(shape._verts[offset : offset + count])
    if kind == "segment":
        return shapely.LineString(shape._params.reshape(2, 2))
    if kind == "point":
        return shapely.Point(shape._params)
    raise KeyError(kind)


@pytest.mark.parametrize(("kind_a", "kind_b"), list(itertools.product(FLAT_KINDS, FLAT_KINDS)), ids=lambda v: v)
def test_flat_kinds_agree_with_shapely(kind_a, kind_b):
    """Integer data with quarter-turn angles: shapely's predicates are exact here."""
    a, b, _, _ = scene(kind_a, kind_b, True)
    sa = [_to_shapely(x) for x in a]
    sb = [_to_shapely(x) for x in b]
    for name in BOOLEAN_PREDICATES:
        ours = call(name, a, b)
        theirs = np.array([getattr(x, name)(y) for x, y in zip(sa, sb)])
        bad = np.flatnonzero(ours != theirs)
        assert bad.size == 0, [(name, a[k], b[k], bool(ours[k]), bool(theirs[k])) for k in bad[:3]]


# -- curved kinds against an independent polygonal oracle -------------------------------------------

_N_OUTLINE = 256


def _ellipse_outlines(shape):
    """Inscribed and circumscribed shapely polygons of a single Circle/Ellipse (with safety margins)."""
    shapely = pytest.importorskip("shapely")
    cx, cy, a, b, wx, wy = shape._params
    norm = np.hypot(wx, wy)
    ux, uy = wx / norm, wy / norm
    t = 2 * np.pi * np.arange(_N_OUTLINE) / _N_OUTLINE
    px, py = a * np.cos(t), b * np.sin(t)
    local = np.stack([px * ux - py * uy, px * uy + py * ux], axis=-1)
    inner = shapely.Polygon(np.array([cx, cy]) + local * (1 - 1e-9))
    outer = shapely.Polygon(np.array([cx, cy]) + local * ((1 + 1e-9) / np.cos(np.pi / _N_OUTLINE)))
    return inner, outer


def _oracle_ellipse_vs(inner, outer, other):
    """The set of relations allowed by the outlines (None when the outlines cannot tell)."""
    if outer.disjoint(other):
        return {R.DISJOINT}
    if other.geom_type == "Polygon":
        if inner.contains(other) and other.area > 0:
            return {R.CONTAINS}
        if other.contains(outer):
            return {R.WITHIN}
        if inner.intersection(other).area > 0 and not outer.contains(other) and not other.contains(inner):
            return {R.OVERLAPPING}
    else:  # a segment
        if inner.covers(other):
            return {R.CONTAINS}
        if inner.relate_pattern(other, "T********") and not outer.covers(other):
            return {R.OVERLAPPING}
    return None


@pytest.mark.parametrize("kind_b", ["Ellipse", "Circle", "RotatedBox", "Polygon", "Segment"])
def test_ellipse_against_outline_oracle(kind_b):
    """Float-valued random ellipses against shapely on 256-gon outlines: wherever the inscribed and
    circumscribed outlines decide the relation, ours must agree (an oracle independent of the kernels)."""
    shapely = pytest.importorskip("shapely")
    rng = np.random.default_rng([8080, len(kind_b)])
    n = 60
    radii = rng.uniform(0.3, 3.0, size=(n, 2))
    a = c2.Ellipse(rng.uniform(-2, 2, size=(n, 2)), radii, rng.uniform(-3, 3, size=n))
    if kind_b == "Ellipse":
        b = c2.Ellipse(rng.uniform(-2, 2, size=(n, 2)), rng.uniform(0.1, 3.0, size=(n, 2)), rng.uniform(-3, 3, size=n))
    elif kind_b == "Circle":
        b = c2.Circle(rng.uniform(-2, 2, size=(n, 2)), rng.uniform(0.1, 3.0, size=n))
    elif kind_b == "RotatedBox":
        b = c2.RotatedBox(rng.uniform(-2, 2, size=(n, 2)), rng.uniform(0.1, 2.0, size=(n, 2)), rng.uniform(-3, 3, size=n))
    elif kind_b == "Polygon":
        b = c2.Polygon(np.stack([_random_convex(rng) for _ in range(n)]))
    else:
        start = rng.uniform(-3, 3, size=(n, 2))
        b = c2.Segment(start, start + rng.uniform(-3, 3, size=(n, 2)))
    rel = c2.relate(a, b)
    decided = 0
    for k in range(n):
        inner, outer = _ellipse_outlines(a[k])
        if kind_b in ("Ellipse", "Circle"):
            b_inner, b_outer = _ellipse_outlines(b[k])
            allowed = None
            if outer.disjoint(b_outer):
                allowed = {R.DISJOINT}
            elif inner.contains(b_outer):
                allowed = {R.CONTAINS}
            elif b_inner.contains(outer):
                allowed = {R.WITHIN}
            elif inner.intersection(b_inner).area > 0 and not outer.contains(b_inner) and not b_outer.contains(inner):
                allowed = {R.OVERLAPPING}
        elif kind_b == "Segment":
            allowed = _oracle_ellipse_vs(inner, outer, shapely.LineString(b[k]._params.reshape(2, 2)))
        else:
            offset, count = (int(x) for x in b[k]._params)
            allowed = _oracle_ellipse_vs(inner, outer, shapely.Polygon(b[k]._verts[offset : offset + count]))
        if allowed is not None:
            decided += 1
            assert R(int(rel[k])) in allowed, (a[k]._params.tolist(), b[k]._params.tolist(), R(int(rel[k])), allowed)
    assert decided >= n // 2


def _random_convex(rng):
    """A strictly convex pentagon: one vertex in each fifth of a circle, float coordinates."""
    t = rng.uniform(0, 2 * np.pi) + 2 * np.pi * (np.arange(5) + rng.uniform(0.1, 0.9, 5)) / 5
    return rng.uniform(-2, 2, 2) + rng.uniform(0.3, 2.0) * np.stack([np.cos(t), np.sin(t)], -1)
