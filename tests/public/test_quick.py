"""A newcomer's first check (``make test-quick``): the public API of the README tour on small inputs.

Circles (an ellipse kind, so the ellipse kernels run), a box and an ellipse against lattices of
points, each answer checked against an independent reference: relations decided in exact rational
arithmetic (:class:`fractions.Fraction`, exact for the float inputs), distances, areas, contact
times and ray hits from their closed forms. Single shapes and batches, both argument orders.
The whole file compiles about the kernels the README tour compiles, so that it runs in well under
two minutes on an empty kernel cache; the full suite (``make test``) checks every kind pair.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import collide2d as c2

pytestmark = pytest.mark.quick

R = c2.Relation
_MIRROR = {R.CONTAINS: R.WITHIN, R.WITHIN: R.CONTAINS}


def circle_relation(p, r, q, s):
    """The relation of circle (p, r) to circle (q, s), decided exactly in rationals."""
    dx, dy = Fraction(q[0]) - Fraction(p[0]), Fraction(q[1]) - Fraction(p[1])
    d2, r, s = dx * dx + dy * dy, Fraction(r), Fraction(s)
    if d2 > (r + s) ** 2:
        return R.DISJOINT
    if d2 == (r + s) ** 2:
        return R.TOUCHING
    if d2 == 0 and r == s:
        return R.EQUAL
    if r >= s and d2 <= (r - s) ** 2:  # internal tangency included: interiors still meet
        return R.CONTAINS
    if s >= r and d2 <= (s - r) ** 2:
        return R.WITHIN
    return R.OVERLAPPING


@pytest.fixture(scope="module")
def circles():
    """40 circles on a small integer lattice (3-4-5 triangles: many exact tangencies) and one at the origin."""
    rng = np.random.default_rng(29)
    centres = rng.integers(-6, 7, size=(40, 2)).astype(np.float64)
    radii = rng.choice([0.5, 1.0, 2.0, 3.0, 5.0], size=40)
    # against the circle of radius 5 at the origin: crossing, equal, touching, touching inside,
    # inside, touching (3-4-5 triangles: exact tangencies)
    centres[:6] = [(3, 4), (0, 0), (8, 0), (1, 0), (0, 0), (6, 8)]
    radii[:6] = [2.0, 5.0, 3.0, 4.0, 2.0, 5.0]
    return centres, radii, c2.Circle(centres, radii), c2.Circle((0, 0), 5)


def test_relate_and_predicates_match_exact_rationals(circles):
    centres, radii, batch, one = circles
    expected = np.array([circle_relation((0, 0), 5, p, r) for p, r in zip(centres.tolist(), radii.tolist())])
    assert {R.DISJOINT, R.TOUCHING, R.OVERLAPPING, R.CONTAINS, R.EQUAL} <= set(expected.tolist())
    np.testing.assert_array_equal(c2.relate(one, batch), expected)
    np.testing.assert_array_equal(c2.relate(batch, one), [_MIRROR.get(R(e), R(e)) for e in expected])
    for k in range(8):  # single shapes: a Relation member
        assert c2.relate(one, batch[k]) is R(expected[k])
        assert c2.relate(batch[k], one) is _MIRROR.get(R(expected[k]), R(expected[k]))
    truth = {
        c2.intersects: expected != R.DISJOINT,
        c2.disjoint: expected == R.DISJOINT,
        c2.touches: expected == R.TOUCHING,
        c2.overlaps: expected == R.OVERLAPPING,
        c2.contains: (expected == R.CONTAINS) | (expected == R.EQUAL),
        c2.covers: (expected == R.CONTAINS) | (expected == R.EQUAL),
        c2.equals: expected == R.EQUAL,
    }
    for predicate, want in truth.items():
        np.testing.assert_array_equal(predicate(one, batch), want, err_msg=predicate.__name__)
        assert predicate(one, batch[0]) == want[0]
    np.testing.assert_array_equal(c2.within(batch, one), truth[c2.contains])
    np.testing.assert_array_equal(c2.covered_by(batch, one), truth[c2.covers])
    # broadcasting: (n, 1) against (1, m), against every pair's reference
    grid = c2.relate(batch[:12, None], batch[None, :12])
    want = [[circle_relation(p, r, q, s) for q, s in zip(centres[:12].tolist(), radii[:12].tolist())]
            for p, r in zip(centres[:12].tolist(), radii[:12].tolist())]
    np.testing.assert_array_equal(grid, want)


def test_points_in_an_ellipse_and_a_box_match_exact_rationals():
    ellipse = c2.Ellipse((0, 0), (2, 1), angle=0.0)
    box = c2.Box((-1, -0.5), (1.5, 1))
    lattice = np.array([(x, y) for x in np.arange(-2.5, 2.75, 0.25) for y in np.arange(-1.25, 1.5, 0.25)])
    level = [Fraction(x) ** 2 / 4 + Fraction(y) ** 2 for x, y in lattice.tolist()]  # 1 on the boundary
    assert sum(v == 1 for v in level) >= 4
    np.testing.assert_array_equal(c2.contains_xy(ellipse, lattice), [v < 1 for v in level])
    np.testing.assert_array_equal(c2.intersects_xy(ellipse, lattice), [v <= 1 for v in level])
    inside = [(-1 < x < 1.5) and (-0.5 < y < 1) for x, y in lattice.tolist()]
    closed = [(-1 <= x <= 1.5) and (-0.5 <= y <= 1) for x, y in lattice.tolist()]
    np.testing.assert_array_equal(c2.contains_xy(box, lattice), inside)
    np.testing.assert_array_equal(c2.intersects_xy(box, lattice), closed)
    assert c2.contains_xy(ellipse, (2, 0)) is False and c2.intersects_xy(ellipse, (2, 0)) is True
    assert c2.contains(box, c2.Point((1.5, 0))) is False and c2.covers(box, c2.Point((1.5, 0))) is True


def test_contact_and_distance_match_the_closed_form(circles):
    centres, radii, batch, one = circles
    d = np.hypot(centres[:, 0], centres[:, 1])
    away = d > 0
    contact = c2.contact(one, batch)
    np.testing.assert_allclose(contact.separation, d - 5 - radii, rtol=0, atol=1e-12)
    normal = centres[away] / d[away, None]  # from the origin circle towards each circle
    np.testing.assert_allclose(contact.normal[away], normal, rtol=0, atol=1e-12)
    np.testing.assert_allclose(contact.point_a[away], 5 * normal, rtol=0, atol=1e-12)
    back = c2.contact(batch, one)  # the other order: the same separation, the normal reversed
    np.testing.assert_allclose(back.separation, contact.separation, rtol=0, atol=1e-12)
    np.testing.assert_allclose(back.normal[away], -normal, rtol=0, atol=1e-12)
    np.testing.assert_allclose(c2.distance(batch, one), np.maximum(d - 5 - radii, 0), rtol=0, atol=1e-12)
    single = c2.contact(one, c2.Circle((8, 6), 2))  # 10 apart, radii 5 and 2
    assert single.separation == pytest.approx(3.0, abs=1e-12) and isinstance(single.separation, float)
    np.testing.assert_allclose(single.normal, [0.8, 0.6], atol=1e-15)
    np.testing.assert_allclose(c2.closest_point(one, (8, 6)), [4, 3], atol=1e-12)


def lens(d, r, s):
    """The area of the intersection of two circles of radii r and s, d apart (two circular segments)."""
    if d >= r + s:
        return 0.0
    if d <= abs(r - s):
        return math.pi * min(r, s) ** 2
    a = math.acos((d * d + r * r - s * s) / (2 * d * r))
    b = math.acos((d * d + s * s - r * r) / (2 * d * s))
    return r * r * (a - math.sin(2 * a) / 2) + s * s * (b - math.sin(2 * b) / 2)


def test_overlap_area_iou_and_intersection_points_match_the_closed_form(circles):
    centres, radii, batch, one = circles
    d = np.hypot(centres[:, 0], centres[:, 1])
    area = np.array([lens(dk, 5.0, rk) for dk, rk in zip(d.tolist(), radii.tolist())])
    assert np.count_nonzero((area > 0) & (area < np.pi * np.minimum(25, radii**2))) >= 5  # real lenses
    for first, second in ((one, batch), (batch, one)):
        np.testing.assert_allclose(c2.overlap_area(first, second), area, rtol=1e-11, atol=1e-12)
        np.testing.assert_allclose(c2.iou(first, second), area / (25 * np.pi + np.pi * radii**2 - area), rtol=1e-11, atol=1e-12)
    points, count = c2.intersection_points(one, batch)
    relation = c2.relate(one, batch)
    np.testing.assert_array_equal(count[relation == R.TOUCHING], 1)
    np.testing.assert_array_equal(count[relation == R.DISJOINT], 0)
    crossing = (relation == R.OVERLAPPING) & (d > np.abs(5 - radii))
    np.testing.assert_array_equal(count[crossing], 2)
    for k in np.flatnonzero(count).tolist():
        found = points[k, : count[k]]
        np.testing.assert_allclose(np.hypot(*found.T), 5, rtol=1e-13)  # on both circles
        np.testing.assert_allclose(np.hypot(*(found - centres[k]).T), radii[k], rtol=1e-12)
    tangent = c2.intersection_points(c2.Circle((0, 3), 2), one)  # touching inside, at (0, 5): once
    np.testing.assert_allclose(tangent, [[0, 5]], atol=1e-12)
    np.testing.assert_allclose(c2.intersection_points(one, c2.Circle((8, 0), 3)), [[5, 0]], atol=1e-12)


def test_query_pairs_and_measure_pairs_match_brute_force(circles):
    centres, radii, batch, _ = circles
    brute = [[i, j] for i in range(len(radii)) for j in range(i + 1, len(radii))
             if circle_relation(centres[i], radii[i], centres[j], radii[j]) != R.DISJOINT]
    pairs = c2.query_pairs(batch)
    assert pairs.dtype == np.int64 and pairs.T.tolist() == brute
    measured = c2.measure_pairs(batch, pairs)
    np.testing.assert_array_equal(
        measured.relation, [circle_relation(centres[i], radii[i], centres[j], radii[j]) for i, j in brute]
    )
    i, j = pairs
    np.testing.assert_allclose(measured.separation, np.hypot(*(centres[j] - centres[i]).T) - radii[i] - radii[j], atol=1e-12)
    between = c2.query(batch[:10], batch[10:])  # two collections: row 0 indexes a, row 1 indexes b
    assert between.T.tolist() == [[i, j - 10] for i in range(10) for j in range(10, len(radii))
                                  if circle_relation(centres[i], radii[i], centres[j], radii[j]) != R.DISJOINT]


def test_time_of_impact_and_raycast_match_the_closed_form():
    a, b = c2.Circle((0, 0), 1), c2.Circle((9, 0), 1)
    # b approaches at speed 2: the gap of 7 closes at t = 3.5, beyond the default t_max = 1
    assert c2.time_of_impact(a, b, (0, 0), (-2, 0)).time == math.inf
    hit = c2.time_of_impact(a, b, (0, 0), (-2, 0), t_max=4)
    assert hit.time == pytest.approx(3.5, abs=1e-12)
    np.testing.assert_allclose(hit.point, [1, 0], atol=1e-9)
    np.testing.assert_allclose(hit.normal, [1, 0], atol=1e-9)
    assert c2.time_of_impact(b, a, (-2, 0), t_max=4).time == pytest.approx(3.5, abs=1e-12)
    # a batch: gaps 7, 5, 3 closing at speed 2, and one moving away
    far = c2.Circle([(9, 0), (7, 0), (5, 0), (-5, 0)], 1)
    times = c2.time_of_impact(a, far, (0, 0), (-2, 0), t_max=10).time
    np.testing.assert_allclose(times[:3], [3.5, 2.5, 1.5], atol=1e-12)
    assert times[3] == math.inf
    ray = c2.raycast(c2.Circle((5, 0), 1), (0, 0), [(1, 0), (3, 4), (-1, 0)])
    # along +x: 4; along (3, 4)/5 the line misses a circle 4 from it; backwards: a miss
    np.testing.assert_allclose(ray.distance, [4, np.inf, np.inf], atol=1e-12)
    one = c2.raycast(c2.Circle((5, 0), 1), (0, 0), (1, 0))
    assert one.distance == pytest.approx(4.0, abs=1e-12)
    np.testing.assert_allclose(one.normal, [-1, 0], atol=1e-12)
