"""Issue 28, items 5 and 7-11: measurements and arguments at the edges.

Each test checks an answer against an independent reference on the stored numbers: exact
rationals (``fractions.Fraction``) for nearest boundary points, penetration depths and the side of
an exactly turned ellipse, mpmath for eigen-decompositions and quarter turns; in both argument
orders where a pair is involved, for single shapes and batches.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import collide2d as c2

EPS = 2.0**-53


# -- references --------------------------------------------------------------------------------


def stored_vertices(shape):
    """The stored (counter-clockwise) vertices of a single polygon, box or rotated box, or the
    end points of a segment."""
    p = shape._params
    if shape._kind == "segment":
        return p.reshape(2, 2).tolist()
    offset, count = int(p[0]), int(p[1])
    return shape._verts[offset : offset + count].tolist()


def nearest_on_boundary(vertices, xy):
    """The exact nearest point of the closed edge chain (a segment: its one edge) to ``xy``, and
    its squared distance, on Fractions."""
    V = [(Fraction(x), Fraction(y)) for x, y in vertices]
    px, py = Fraction(xy[0]), Fraction(xy[1])
    edges = [(V[0], V[1])] if len(V) == 2 else [(V[i], V[(i + 1) % len(V)]) for i in range(len(V))]
    best = None
    for (x0, y0), (x1, y1) in edges:
        ex, ey = x1 - x0, y1 - y0
        t = min(max(((px - x0) * ex + (py - y0) * ey) / (ex * ex + ey * ey), Fraction(0)), Fraction(1))
        qx, qy = x0 + t * ex, y0 + t * ey
        d2 = (qx - px) ** 2 + (qy - py) ** 2
        if best is None or d2 < best[0]:
            best = (d2, (qx, qy))
    return best


def off_by(got, exact):
    """Euclidean distance of a float point from an exact one (a float)."""
    return math.sqrt(float((Fraction(float(got[0])) - exact[0]) ** 2 + (Fraction(float(got[1])) - exact[1]) ** 2))


def inside_convex(vertices, xy):
    """Whether ``xy`` lies strictly inside the counter-clockwise polygon (exact)."""
    V = [(Fraction(x), Fraction(y)) for x, y in vertices]
    px, py = Fraction(xy[0]), Fraction(xy[1])
    n = len(V)
    return all((V[(i + 1) % n][0] - V[i][0]) * (py - V[i][1]) - (V[(i + 1) % n][1] - V[i][1]) * (px - V[i][0]) > 0
               for i in range(n))


# -- item 5: booleans are not numbers; a float distance; quarter turns at every magnitude ----------


@pytest.mark.parametrize("call", [
    lambda: c2.rotate(c2.Box((0, 0), (4, 2)), True),
    lambda: c2.rotate(c2.Box([(0, 0), (1, 1)], [(4, 2), (2, 3)]), np.array([True, False])),
    lambda: c2.rotate(c2.Circle((0, 0), 1), 0.5, origin=(True, False)),
    lambda: c2.Ellipse.from_covariance((0, 0), [[1, 0], [0, 1]], n_sigma=True),
    lambda: c2.Ellipse.from_covariance(np.zeros((2, 2)), [[1, 0], [0, 1]], n_sigma=[True, False]),
    lambda: c2.Circle((True, False), 1.0),
], ids=["rotate", "rotate-batch", "rotate-origin", "n_sigma", "n_sigma-batch", "circle-centre"])
def test_booleans_are_refused_as_numbers(call):
    with pytest.raises(TypeError, match=r"not a boolean|real numbers, got dtype bool"):
        call()


@pytest.mark.parametrize("limit", [np.float64(3.9), np.float64(4.1), np.array(4.1), 5, math.inf])
def test_raycast_single_ray_gives_python_float_distance(limit):
    """One shape and one ray: ``distance`` a Python float and ``point``, ``normal`` of shape (2,),
    whatever the type of ``max_distance`` and of the origin; the exact hit is at 4."""
    circle = c2.Circle((5, 0), 1)
    expected = 4.0 if 4.0 <= float(limit) else math.inf
    for origin in ((0, 0), np.zeros(2)):
        hit = c2.raycast(circle, origin, (1, 0), max_distance=limit)
        assert type(hit.distance) is float and hit.distance == expected
        assert hit.point.shape == (2,) and hit.normal.shape == (2,)
        assert hit.point.tolist() == [4.0, 0.0] if expected == 4.0 else np.isnan(hit.point).all()
    batch = c2.raycast(c2.Circle([(5, 0), (-5, 0)], 1), (0, 0), (1, 0), max_distance=limit)
    assert batch.distance.shape == (2,) and batch.distance.tolist() == [expected, math.inf]


QUARTER_TURN_LIMIT = 2.0**50 * math.pi  # the promise's range (beyond, every float is within an ulp of one)


def _quarter_turn_angles(ks=(1001, 10**6, 10**6 + 1, 7 * 10**8 + 3, 3 * 10**11 + 2, 10**14 + 1, 2 * 10**15 + 3)):
    """Floats within 2**-52 |theta| of k pi/2 (checked with mpmath), from 1e3 to 3.1e15 rad."""
    out = []
    with mpmath.workdps(60):
        for k in ks:
            theta = float(k * (mpmath.pi / 2))
            rest = mpmath.mpf(theta) - k * (mpmath.pi / 2)
            assert abs(rest) <= 2.0**-52 * abs(theta)  # the promise applies to this float
            out.append((theta, k % 4))
    return out


def test_rotate_float_within_an_ulp_of_a_quarter_turn_is_exact_at_every_magnitude():
    axis = {0: [1.0, 0.0], 1: [0.0, 1.0], 2: [-1.0, 0.0], 3: [0.0, -1.0]}
    angles = _quarter_turn_angles()
    box = c2.Box((0, 0), (4, 2))
    for theta, quarter in angles:
        for sign in (1.0, -1.0):
            turned = c2.rotate(box, sign * theta)
            assert type(turned) is c2.Box, theta
            expected = [(0.0, 0.0), (4.0, 2.0)] if quarter % 2 == 0 else [(1.0, -1.0), (3.0, 3.0)]
            assert [tuple(turned.min.tolist()), tuple(turned.max.tolist())] == expected
            w = c2.Ellipse((0, 0), (2, 1), angle=sign * theta).direction.tolist()
            assert w == (axis[quarter] if sign > 0 else axis[(-quarter) % 4])
    # batches: under 64 angles in Python, from 64 on the compiled loop (large angles in Python)
    for count in (len(angles), 70):
        theta = np.resize([t for t, _ in angles], count)
        w = c2.Ellipse(np.zeros((count, 2)), (2, 1), angle=theta).direction
        assert np.all((w == 0.0).sum(axis=1) == 1) and np.all(np.abs(w).max(axis=1) == 1.0)
        assert type(c2.rotate(c2.Box(np.zeros((count, 2)), (4, 2)), theta)) is c2.Box


def test_beyond_the_quarter_turn_range_angles_keep_their_own_direction():
    """From 2**50 pi on every float is within an ulp of a quarter turn: the direction is then that
    of the float, reduced exactly (within an ulp of the exact cosine and sine, mpmath)."""
    for theta in [t for t, _ in _quarter_turn_angles((10**16 + 1, 10**18 + 1))] + [4e15, 1e200]:
        assert abs(theta) >= QUARTER_TURN_LIMIT
        with mpmath.workdps(400):
            exact = (mpmath.cos(mpmath.mpf(theta)), mpmath.sin(mpmath.mpf(theta)))
        for w in (c2.Ellipse((0, 0), (2, 1), angle=theta).direction.tolist(),
                  c2.Ellipse(np.zeros((70, 2)), (2, 1), angle=np.full(70, theta)).direction[-1].tolist()):
            assert all(abs(mpmath.mpf(g) - e) <= 2.0**-52 for g, e in zip(w, exact)), (theta, w)


def test_rotate_just_off_a_quarter_turn_keeps_its_turn():
    """Four ulps off ``1e6 pi / 2`` (beyond the quarter-turn tolerance): a turn, within an ulp of
    the exact cosine and sine of the float (mpmath)."""
    theta = 1e6 * math.pi / 2
    for _ in range(4):
        theta = math.nextafter(theta, math.inf)
    w = c2.Ellipse((0, 0), (2, 1), angle=theta).direction.tolist()
    with mpmath.workdps(60):
        exact = (mpmath.cos(mpmath.mpf(theta)), mpmath.sin(mpmath.mpf(theta)))
    assert w[1] != 0.0
    assert all(abs(mpmath.mpf(g) - e) <= 2.0**-52 for g, e in zip(w, exact))
    assert type(c2.rotate(c2.Box((0, 0), (4, 2)), theta)) is c2.RotatedBox


# -- item 7: closest points on polygons, boxes, segments and lines ------------------------------


def _check_nearest(shape, queries):
    """``closest_point`` and both orders of ``contact`` against the exact nearest boundary point,
    within a few ulps of the shape's coordinates, single and batched."""
    vertices = stored_vertices(shape)
    scale = max(abs(v) for vertex in vertices for v in vertex)
    batch = c2.closest_point(shape, queries)
    for xy, got_batch in zip(queries, batch):
        d2, exact = nearest_on_boundary(vertices, xy)
        single = c2.closest_point(shape, xy)
        assert off_by(single, exact) <= 16 * EPS * scale, (xy, single.tolist(), [float(v) for v in exact])
        assert got_batch.tolist() == single.tolist()
        forward = c2.contact(shape, c2.Point(xy))
        backward = c2.contact(c2.Point(xy), shape)
        assert off_by(forward.point_a, exact) <= 16 * EPS * scale
        assert off_by(backward.point_b, exact) <= 16 * EPS * scale
        if shape._kind == "polygon":
            depth = math.sqrt(float(d2))
            inside = inside_convex(vertices, xy)
            for s in (forward.separation, backward.separation):
                assert (s <= 0.0) if inside else (s >= 0.0)
                assert abs(abs(s) - depth) <= 16 * EPS * (scale + depth)


def test_closest_point_of_a_point_just_inside_an_edge():
    """(0.3, 0.7) is 3.9e-17 inside the hypotenuse: its nearest boundary point is on it, not the
    opposite corner (0, 0)."""
    triangle = c2.Polygon([(0, 0), (1, 0), (0, 1)])
    _check_nearest(triangle, [(0.3, 0.7), (0.7, 0.3), (0.1, 0.9), (0.5, 0.5)])
    assert c2.contact(triangle, c2.Point((0.3, 0.7))).separation < 0.0


def test_closest_point_of_points_within_1e_15_of_a_random_pentagon_edge():
    rng = np.random.default_rng(2801)
    for _ in range(6):
        angles = np.sort(rng.uniform(0, 2 * math.pi, 5))
        pentagon = c2.Polygon(np.column_stack([np.cos(angles), np.sin(angles)]) * rng.uniform(0.5, 2.0))
        vertices = np.array(stored_vertices(pentagon))
        queries = []
        for i in range(len(vertices)):
            a, b = vertices[i], vertices[(i + 1) % len(vertices)]
            e = b - a
            inward = np.array([-e[1], e[0]]) / np.hypot(*e)
            for t in (0.3, 0.5, 0.8):
                for depth in (1e-15, -1e-15, 3e-16):
                    queries.append(tuple((a + t * e + depth * inward).tolist()))
        _check_nearest(pentagon, queries)


def test_closest_point_of_far_points_on_small_shapes():
    """A point 1e12 away: the foot is taken from the face (the rounding of ``p - s n`` put it
    1.3e-4 inside a rotated box)."""
    far = [(1e12, 1e12), (-3e12, 1e12), (7e11, -2e12), (1e9, 0.05), (0.01, -1e13)]
    _check_nearest(c2.RotatedBox((0, 0), (0.125, 0.375), math.pi / 4), far)
    _check_nearest(c2.RotatedBox((0.5, -0.25), (1.0, 0.01), 0.3), far)
    _check_nearest(c2.Box((-0.25, -0.5), (0.75, 0.125)), far)
    _check_nearest(c2.Segment((0.1, 0.2), (0.4, -0.3)), far)
    # a long thin box 310 away: the rounding of the edge vector turned the line by an ulp and moved
    # the foot by 1.3e-14 (the edge vector is summed exactly now)
    sliver = c2.Polygon([(-3.585090370047576, 0.03443247174759834), (-0.3619880545570515, -2.040616698695084),
                         (-0.3619690580058661, -2.0405871920072496), (-3.5850713734963904, 0.034461978435432306)])
    _check_nearest(sliver, [(166.01892742113233, 262.27046870310375), (-1e6, -2e6)])


def test_closest_point_on_a_line_for_far_points():
    """The foot on a line from the line's own point when that adds smaller numbers (exact
    reference: the projection on Fractions)."""
    for point, direction, xy in [((0.5, 0.25), (0.6, 0.8), (1e12, -1e12)), ((0, 0), (1, 0), (0.5, 1e12)),
                                 ((1e12, 1e12), (1, -1), (0.0, 0.0)), ((3, -2), (1, 3), (-4e12, 1e12))]:
        line = c2.Line(point, direction)
        px, py, dx, dy = (Fraction(v) for v in (*point, *direction))
        qx, qy = Fraction(xy[0]), Fraction(xy[1])
        t = ((qx - px) * dx + (qy - py) * dy) / (dx * dx + dy * dy)
        exact = (px + t * dx, py + t * dy)
        scale = max(abs(float(v)) for v in (*point, *exact))
        for got in (c2.closest_point(line, xy), c2.contact(line, c2.Point(xy)).point_a,
                    c2.contact(c2.Point(xy), line).point_b, c2.closest_point(c2.Line([point] * 2, direction), xy)[1]):
            assert off_by(got, exact) <= 16 * EPS * scale, (got.tolist(), [float(v) for v in exact])


# -- item 8: a box inside a box ----------------------------------------------------------------


def _box_depth(inner, outer):
    """The exact penetration depth of two overlapping axis-aligned boxes: the shortest of the four
    translations that separate them (Fractions)."""
    (ax0, ay0), (ax1, ay1) = [[Fraction(v) for v in p] for p in (inner.min.tolist(), inner.max.tolist())]
    (bx0, by0), (bx1, by1) = [[Fraction(v) for v in p] for p in (outer.min.tolist(), outer.max.tolist())]
    return min(ax1 - bx0, bx1 - ax0, ay1 - by0, by1 - ay0)


def test_contact_of_a_thin_box_inside_a_tall_one():
    cases = [((3, 0), (3.125, 1e-6), (3, 0), (3.125, 1e9)), ((0, 0), (1, 1e-9), (-1, 0), (2, 1e12)),
             ((-5, 2), (-5 + 1e-7, 2.5), (-5, -3e10), (7, 2.5)), ((1, 1), (1 + 3e-6, 1.5), (1, -1e8), (1e8, 1e8))]
    inner = c2.Box([c[0] for c in cases], [c[1] for c in cases])
    outer = c2.Box([c[2] for c in cases], [c[3] for c in cases])
    forward, backward = c2.contact(inner, outer), c2.contact(outer, inner)
    for k, case in enumerate(cases):
        a, b = c2.Box(case[0], case[1]), c2.Box(case[2], case[3])
        assert c2.relate(a, b) == c2.Relation.WITHIN
        depth = float(_box_depth(a, b))
        for s in (c2.contact(a, b).separation, c2.contact(b, a).separation, forward.separation[k], backward.separation[k]):
            assert s < 0.0 and abs(s + depth) <= 8 * EPS * depth, (case, s, -depth)
        c = c2.contact(a, b)
        moved = c2.translate(b, -c.separation * c.normal * (1 + 2.0**-20))  # just past the depth: apart
        assert not c2.intersects(a, moved)


# -- item 9: an ellipse direction used exactly ---------------------------------------------------


def _exact_side(center, radii, w, xy):
    """Sign of ``Q(xy) - 1`` for the ellipse turned exactly to ``w`` (Fractions): -1 inside, 0 on,
    +1 outside. ``Q = ((d.w)/a)^2 + ((d x w)/b)^2 / |w|^2``."""
    cx, cy, a, b, wx, wy, px, py = (Fraction(v) for v in (*center, *radii, *w, *xy))
    dx, dy = px - cx, py - cy
    q = ((dx * wx + dy * wy) / a) ** 2 + ((dx * wy - dy * wx) / b) ** 2 - (wx * wx + wy * wy)
    return (q > 0) - (q < 0)


_CODE_OF_SIDE = {1: c2.Relation.DISJOINT, 0: c2.Relation.TOUCHING}


def test_ellipse_direction_turn_below_2_pow_minus_100_is_kept():
    """``direction=(1, 2**-101)``: the tip of an ellipse of radius 2**60 moves by 2**-41, and the
    point at the unturned tip lies outside (it touched when the component was stored as 0)."""
    cases = [((0, 0), (2.0**60, 1), (1, 2.0**-101), (2.0**60, 0)),
             ((0, 0), (2.0**60, 1), (1, -(2.0**-120)), (2.0**60, 0)),
             ((1, 2), (2.0**40, 2.0**-20), (-(2.0**-110), 1), (1, 2 + 2.0**40)),
             ((0, 0), (4, 1), (1, 5e-324), (-4, 0)),
             ((0, 0), (2.0**60, 1), (1, 0), (2.0**60, 0))]  # unturned: touching
    for center, radii, w, xy in cases:
        e, p = c2.Ellipse(center, radii, direction=w), c2.Point(xy)
        assert e.direction.tolist() == list(w)
        expected = _CODE_OF_SIDE[_exact_side(center, radii, w, xy)]
        assert c2.relate(e, p) == expected and c2.relate(p, e) == expected  # both symmetric
        assert c2.intersects(e, p) == (expected != c2.Relation.DISJOINT)
        assert (c2.distance(e, p) > 0.0) == (expected == c2.Relation.DISJOINT)
    batch = c2.Ellipse([c[0] for c in cases], [c[1] for c in cases], direction=[c[2] for c in cases])
    points = c2.Point([c[3] for c in cases])
    expected = [_CODE_OF_SIDE[_exact_side(*c)] for c in cases]
    assert c2.relate(batch, points).tolist() == [int(r) for r in expected]
    assert c2.relate(points, batch).tolist() == [int(r) for r in expected]


def test_ellipse_turned_by_2_pow_minus_99_measures_against_a_box():
    """A turn just above the kernels' floor: a box vertex beside the minor axis made the ellipse
    contact kernel divide by zero (the secondary foot's ``sm + r0m1`` cancelled)."""
    box = c2.Box((0, 0), (1, 1))
    for w in [(1, 2.0**-99), (1, 2.0**-101), (1, -(2.0**-80))]:
        e = c2.Ellipse((1, 2), (3, 1), direction=w)
        forward, backward = c2.contact(e, box), c2.contact(box, e)
        assert forward.separation == backward.separation and math.isfinite(forward.separation)
        assert c2.intersects(e, box) and forward.separation <= 0.0
        assert c2.distance(c2.Ellipse([(1, 2)] * 2, (3, 1), direction=[w, w]), box).tolist() == [0.0, 0.0]


# -- item 10: from_covariance over the whole range -----------------------------------------------


_COVARIANCES = [
    [[1e-200, 0], [0, 1e-200]], [[1e200, 0], [0, 1e199]], [[1e-290, 0], [0, 1e-290]],
    [[1e250, 1e249], [1e249, 1e250]], [[3e-300, 1e-300], [1e-300, 2e-300]], [[2.0, 1.0], [1.0, 2.0]],
    [[1e300, -3e299], [-3e299, 2e299]], [[5e-301, 1e-302], [1e-302, 4e-301]],
]


def _eigen_reference(cov):
    """Radii ``sqrt(λ)`` (larger first) and the unit eigenvector of the larger λ (mpmath, 60 digits)."""
    with mpmath.workdps(60):
        values, vectors = mpmath.eigsy(mpmath.matrix([[mpmath.mpf(v) for v in row] for row in cov]))
        big = 0 if values[0] >= values[1] else 1
        return [mpmath.sqrt(values[big]), mpmath.sqrt(values[1 - big])], (vectors[0, big], vectors[1, big])


def test_from_covariance_accepts_every_matrix_whose_ellipse_is_in_range():
    batch = c2.Ellipse.from_covariance(np.zeros((len(_COVARIANCES), 2)), _COVARIANCES, n_sigma=2.0)
    for k, cov in enumerate(_COVARIANCES):
        e = c2.Ellipse.from_covariance((0, 0), cov, n_sigma=2.0)
        radii, vector = _eigen_reference(cov)
        for got, exact in zip(e.radii.tolist(), radii):
            assert abs(mpmath.mpf(got) / (2 * exact) - 1) <= 8 * EPS, (cov, e.radii, radii)
        w = e.direction.tolist()
        sine = abs(w[0] * vector[1] - w[1] * vector[0]) / mpmath.sqrt(w[0] ** 2 + w[1] ** 2)
        assert sine <= 1e-14, (cov, w)
        assert batch.radii[k].tolist() == e.radii.tolist() and batch.direction[k].tolist() == w


@pytest.mark.parametrize("cov, message", [
    ([[1e-310, 0], [0, 1e-310]], "radii must lie in the supported range"),
    ([[1e308, 0], [0, 1e308]], "radii must lie in the supported range"),
    ([[1.0, 0], [0, 1e-70]], "radii may differ by at most"),
    ([[1e-200, 2e-200], [2e-200, 1e-200]], "positive definite"),
])
def test_from_covariance_out_of_range_is_refused_by_the_rule(cov, message):
    with pytest.raises(ValueError, match=message):
        c2.Ellipse.from_covariance((0, 0), cov)


# -- item 11: measure_pairs' shifts ---------------------------------------------------------------


@pytest.mark.parametrize("shifts, error, message", [
    ([[np.inf, 0]], ValueError, "shifts must be finite, got infinity"),
    ([[np.nan, 0]], ValueError, "shifts must be finite, got NaN"),
    ([["a", "b"]], TypeError, "shifts must contain real numbers"),
    ([[True, False]], TypeError, "shifts must be a number or an array of numbers, not a boolean"),
    ([[1.0, 2.0, 3.0]], ValueError, r"shifts must have shape \(1, 2\)"),
    ([[2.0**500, 0.0]], ValueError, "shifts must keep the moved shapes in the supported range"),
])
def test_measure_pairs_validates_shifts(shifts, error, message):
    circles = c2.Circle(np.full((3, 2), 2.0**499), 1)
    with pytest.raises(error, match=message):
        c2.measure_pairs(circles, np.array([[0], [1]]), shifts=shifts)


def test_measure_pairs_with_valid_shifts_measures_the_moved_pair():
    circles = c2.Circle(np.zeros((3, 2)), 1)
    m = c2.measure_pairs(circles, np.array([[0, 1], [1, 2]]), shifts=[[3.0, 0.0], [0.0, -4.0]])
    assert m.separation.tolist() == [1.0, 2.0]
    assert m.separation.tolist() == [c2.contact(circles[0], c2.Circle((3, 0), 1)).separation,
                                     c2.contact(c2.Circle((0, -4), 1), circles[1]).separation]
