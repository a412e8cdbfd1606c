"""Shapes' orientations: the stored direction of an angle (quarter turns exact, otherwise within an
ulp of the float angle's cos and sin, against mpmath), ``direction=`` used exactly,
``Ellipse.from_covariance``, and distances to rotated shapes for the requested float angle."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import collide2d as c2
from collide2d.shapes import direction_from_angle


# -- angles ------------------------------------------------------------------------------------


def test_quarter_turns_exact():
    expected = {0: (1.0, 0.0), 1: (0.0, 1.0), 2: (-1.0, 0.0), 3: (0.0, -1.0)}
    for k in range(-8, 9):
        direction = direction_from_angle(k * (math.pi / 2))
        assert tuple(direction.tolist()) == expected[k % 4], k
    assert c2.Ellipse((0, 0), (2, 1), angle=math.pi / 2).direction.tolist() == [0.0, 1.0]
    assert c2.Ellipse((0, 0), (2, 1), angle=math.pi).direction.tolist() == [-1.0, 0.0]
    assert c2.Ellipse((0, 0), (2, 1), angle=-math.pi / 2).direction.tolist() == [0.0, -1.0]
    assert not np.signbit(direction_from_angle(math.pi / 2)).any()  # no -0.0 stored
    assert c2.RotatedBox((0, 0), (2, 1), angle=math.pi).corners.tolist() == [[2.0, 1.0], [-2.0, 1.0], [-2.0, -1.0], [2.0, -1.0]]


def _ulps(got, exact):
    """Error of a float against an mpmath value, in ulps of the exact value (at least 2**-1074)."""
    return float(abs(mpmath.mpf(float(got)) - exact) / np.spacing(abs(float(exact))))


# angles near quarter turns, in all quadrants, and far from 0 (exact reduction above 1e6)
_ANGLES = np.concatenate(
    [
        np.random.default_rng(21).uniform(-10, 10, 300),
        np.random.default_rng(22).uniform(-1e5, 1e5, 50),
        [0.3, 0.5, 1.0, 2.5, -1.2, math.pi / 4, 3 * math.pi / 4, -math.pi / 4, math.pi / 8, 1e-300, 5e-324],
        [np.nextafter(math.pi / 2, 4), np.nextafter(math.pi, 0), 2 * math.pi + 1e-9, 1e6, -3.7e6, 1e22, 2.0**1000, -1.7e308],
    ]
)


def test_direction_is_cos_sin_of_the_float_angle():
    """Each component within one ulp of cos/sin of the exact float angle (mpmath, 60 digits),
    except at angles within 2**-52 |angle| of a quarter turn, which store the axis vector."""
    mpmath.mp.dps = 60
    w = direction_from_angle(_ANGLES)
    worst = 0.0
    for angle, (wx, wy) in zip(_ANGLES, w):
        theta = mpmath.mpf(float(angle))
        exact = (mpmath.cos(theta), mpmath.sin(theta))
        if 0.0 in (wx, wy) and angle != 0:  # snapped to a quarter turn (within 2**-100 rad too)
            slack = max(2.0**-52 * abs(angle), 2.0**-100)
            assert all(abs(mpmath.mpf(float(g)) - e) <= slack for g, e in zip((wx, wy), exact))
            continue
        worst = max(worst, _ulps(wx, exact[0]), _ulps(wy, exact[1]))
    assert worst <= 1.0, worst  # measured 0.52 (the C library's cos and sin)


@pytest.mark.parametrize("direction", [(1.0, 2.0**-101), (-3.0, 1e-300), (2.0**-1074, 1.0)])
def test_direction_component_below_2_pow_minus_100_of_the_other_is_stored_exactly(direction):
    """A ``direction`` is used exactly, also a turn far below an ulp (issue 28, item 9); the
    kernels square direction components (a component of 1e-162 against 1 underflows there, and
    the contact kernel divided by zero), so such rows take the exact predicates."""
    e = c2.Ellipse((0, 0), (2, 1), direction=direction)
    assert e.direction.tolist() == list(direction)
    batch = c2.Ellipse(np.zeros((2, 2)), (2, 1), direction=[direction, (1.0, 1.0)])
    assert batch.direction[0].tolist() == list(direction)
    c = c2.contact(e, c2.Polygon([(0, 0), (0.5, 0), (0, 0.5)]))
    assert c.separation < 0 and np.isfinite(c.separation)
    t = c2.Ellipse((0, 0), (2, 1), angle=1e-162)
    assert t.direction.tolist() == [1.0, 0.0]


def test_direction_that_cannot_be_stored_exactly_is_refused():
    """Components more than about 2**1000 apart cannot both survive the power-of-two scaling of
    the direction into ``[2**-500, 2**500]``: refused, not rounded to an axis."""
    with pytest.raises(ValueError, match="direction has components too different in size"):
        c2.Ellipse((0, 0), (2, 1), direction=(2.0**-1074, 2.0**1000))


def test_direction_scalar_and_array_paths_bit_identical():
    from collide2d import _angles

    batch = direction_from_angle(_ANGLES)
    for angle, row in zip(_ANGLES, batch):
        assert _angles.direction_scalar(float(angle)) == tuple(row.tolist()), angle
        assert c2.Ellipse((0, 0), (2, 1), float(angle)).direction.tolist() == row.tolist()
    np.testing.assert_array_equal(c2.Ellipse(np.zeros((len(_ANGLES), 2)), (2, 1), _ANGLES).direction, batch)
    boxes = c2.RotatedBox(np.zeros((len(_ANGLES), 2)), (2, 1), _ANGLES)  # compiled, large angles in Python
    for k in (0, 5, 300, len(_ANGLES) - 4, len(_ANGLES) - 1):
        np.testing.assert_array_equal(boxes[k].corners, c2.RotatedBox((0, 0), (2, 1), float(_ANGLES[k])).corners)
        np.testing.assert_array_equal(c2.RotatedBox(np.zeros((1, 2)), (2, 1), _ANGLES[k : k + 1]).corners[0], boxes[k].corners)


def test_reduction_constants():
    from collide2d import _angles
    from collide2d._kernels import angles

    mpmath.mp.dps = 60
    split = mpmath.mpf(angles.P1) + mpmath.mpf(angles.P2) + mpmath.mpf(angles.P2T)
    assert abs(split - mpmath.pi / 2) < mpmath.mpf(2) ** -120
    mpmath.mp.dps = 450
    assert abs(mpmath.mpf(_angles.half_pi_fixed()) - mpmath.pi / 2 * mpmath.mpf(2) ** _angles._PI_BITS) <= 1


def test_quarter_turns_typed_as_floats_are_exact():
    """The usual spellings of a quarter turn store an axis vector; angles a few ulps away do not."""
    for k in range(-40, 41):
        for angle in (k * (math.pi / 2), k * math.pi / 2, np.pi / 2 * k, math.radians(90 * k), k * 90 * math.pi / 180):
            assert 0.0 in direction_from_angle(angle).tolist() or k == 0, (k, angle)
    assert direction_from_angle(math.pi + 4 * np.spacing(math.pi))[1] != 0.0
    assert direction_from_angle(2.0**-60)[1] == 2.0**-60  # no snapping to 0 itself


def test_angle_plus_pi_is_another_float_rotation():
    """No promise that ``angle + pi`` stores ``-w``: it is a different float angle. The stored
    directions differ by the rounding of ``angle + pi`` (and one ulp of each), no more."""
    angles = np.random.default_rng(23).uniform(-4, 4, 2000)
    w = direction_from_angle(angles)
    other = -direction_from_angle(angles + np.pi)
    gap = np.abs(((angles + np.pi) - angles) - np.pi)  # how far the float sum is from angle + pi
    assert np.all(np.abs(other - w) <= gap[:, None] + 4 * 2.0**-53)
    assert np.any(other != w)


def _conic(shape):
    """Exact quadratic form of an ellipse row: the set is q(y) <= rhs, y = x - c (Fractions)."""
    cx, cy, a, b, wx, wy = (Fraction(float(x)) for x in shape._params)
    # b^2 (w.y)^2 + a^2 (w^.y)^2 with w^ = (-wy, wx), normalised by rhs = a^2 b^2 |w|^2
    rhs = a * a * b * b * (wx * wx + wy * wy)
    xx = (b * b * wx * wx + a * a * wy * wy) / rhs
    yy = (b * b * wy * wy + a * a * wx * wx) / rhs
    xy = 2 * (b * b - a * a) * wx * wy / rhs
    return cx, cy, xx, yy, xy


@pytest.mark.parametrize("direction", [(1.0, 0.0), (0.3, 0.7), (-2.0, 5.0), (1e-3, -1.0), (3.0, 4.0)])
def test_swapped_radii_with_quarter_turned_direction_same_ellipse(direction):
    wx, wy = direction
    base = c2.Ellipse((1.0, 2.0), (3.0, 1.0), direction=direction)
    assert _conic(base) == _conic(c2.Ellipse((1.0, 2.0), (1.0, 3.0), direction=(-wy, wx)))
    assert _conic(base) == _conic(c2.Ellipse((1.0, 2.0), (1.0, 3.0), direction=(wy, -wx)))
    assert _conic(base) == _conic(c2.Ellipse((1.0, 2.0), (3.0, 1.0), direction=(-wx, -wy)))
    assert _conic(base) == _conic(c2.Ellipse((1.0, 2.0), (3.0, 1.0), direction=(4 * wx, 4 * wy)))
    assert c2.equals(base, c2.Ellipse((1.0, 2.0), (1.0, 3.0), direction=(-wy, wx)))


@pytest.mark.parametrize("k", range(-4, 5))
def test_swapped_radii_with_quarter_turn_angles_same_ellipse(k):
    base = c2.Ellipse((1.0, 2.0), (3.0, 1.0), angle=k * (math.pi / 2))
    assert _conic(base) == _conic(c2.Ellipse((1.0, 2.0), (1.0, 3.0), angle=(k + 1) * (math.pi / 2)))
    assert _conic(base) == _conic(c2.Ellipse((1.0, 2.0), (3.0, 1.0), angle=(k + 2) * (math.pi / 2)))


def test_rotated_box_swapped_half_sizes_with_quarter_turn():
    for wx, wy in ((1.0, 0.0), (0.3, 0.7), (1.0, 1.0), (-2.0, -1.0)):
        a = c2.RotatedBox((1.0, 2.0), (3.0, 1.0), direction=(wx, wy))
        b = c2.RotatedBox((1.0, 2.0), (1.0, 3.0), direction=(-wy, wx))
        np.testing.assert_allclose(np.sort(a.corners, axis=0), np.sort(b.corners, axis=0), rtol=0, atol=4e-15)
    for k in range(-4, 5):
        a = c2.RotatedBox((1.0, 2.0), (3.0, 1.0), angle=k * (math.pi / 2))
        b = c2.RotatedBox((1.0, 2.0), (1.0, 3.0), angle=(k + 1) * (math.pi / 2))
        assert {tuple(v) for v in a.corners.tolist()} == {tuple(v) for v in b.corners.tolist()}, k


# -- direction= and from_covariance -------------------------------------------------------------


def test_direction_argument_used_exactly():
    e = c2.Ellipse((1, 2), (3, 1), direction=(0.1, 0.7))
    assert e.direction.tolist() == [0.1, 0.7]
    assert e.angle == math.atan2(0.7, 0.1)
    assert isinstance(e.angle, float)
    batch = c2.Ellipse(np.zeros((3, 2)), (3, 1), direction=[(1, 0), (0, 2), (-3, -4)])
    assert batch.direction.tolist() == [[1.0, 0.0], [0.0, 2.0], [-3.0, -4.0]]
    np.testing.assert_array_equal(batch.angle, np.arctan2([0, 2, -4], [1, 0, -3]))
    for index in range(3):
        np.testing.assert_array_equal(batch[index]._params, c2.Ellipse((0, 0), (3, 1), direction=batch.direction[index])._params)
    assert c2.Ellipse((0, 0), (2, 2), direction=(0.0, 1.0)).direction.tolist() == [1.0, 0.0]  # a circle
    box = c2.RotatedBox((0, 0), (2, 1), direction=(0, 3))
    assert box.corners.tolist() == [[1.0, -2.0], [1.0, 2.0], [-1.0, 2.0], [-1.0, -2.0]]
    assert box.angle == math.pi / 2
    rotated = c2.RotatedBox(np.zeros((2, 2)), (2, 1), direction=[(0, 3), (1, 1)])
    np.testing.assert_array_equal(rotated[0].corners, box.corners)


def test_direction_of_extreme_size_scaled_by_a_power_of_two():
    for scale in (2.0**-900, 2.0**900):
        e = c2.Ellipse((0, 0), (2, 1), direction=(3 * scale, 4 * scale))
        wx, wy = e.direction.tolist()
        assert 2.0**-500 <= max(abs(wx), abs(wy)) <= 2.0**500
        assert Fraction(wx) / Fraction(wy) == Fraction(3, 4)  # the same direction, exactly
        np.testing.assert_array_equal(c2.Ellipse(np.zeros((1, 2)), (2, 1), direction=[(3 * scale, 4 * scale)])._params[0], e._params)


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: c2.Ellipse((0, 0), (2, 1), 0.5, direction=(1, 0)), ValueError, ["angle", "direction"]),
        (lambda: c2.RotatedBox((0, 0), (2, 1), np.full(3, 0.5), direction=(1, 0)), ValueError, ["angle", "direction"]),
        (lambda: c2.Ellipse((0, 0), (2, 1), direction=(0.0, 0.0)), ValueError, ["direction", "non-zero"]),
        (lambda: c2.Ellipse((0, 0), (2, 1), direction=[(1, 0), (0, 0)]), ValueError, ["direction", "non-zero"]),
        (lambda: c2.RotatedBox((0, 0), (2, 1), direction=(0, -0.0)), ValueError, ["direction", "non-zero"]),
        (lambda: c2.Ellipse((0, 0), (2, 1), direction=(np.nan, 1)), ValueError, ["direction", "finite"]),
        (lambda: c2.Ellipse((0, 0), (2, 1), direction=(1, 2, 3)), ValueError, ["direction"]),
        (lambda: c2.Ellipse((0, 0), (2, 1), direction="xy"), TypeError, ["direction"]),
    ],
    ids=["both-ellipse", "both-box", "zero", "zero-in-batch", "zero-box", "nan", "shape", "string"],
)
def test_direction_validation(make, error, words):
    with pytest.raises(error) as info:
        make()
    for word in words:
        assert word in str(info.value)


def _mahalanobis(cov, mean, points):
    inverse = np.linalg.inv(cov)
    y = points - mean
    return np.sqrt(np.einsum("...i,ij,...j->...", y, inverse, y))


def test_from_covariance_boundary_at_n_sigma():
    rng = np.random.default_rng(41)
    for _ in range(50):
        m = rng.normal(size=(2, 2))
        cov = m @ m.T + 0.1 * np.eye(2)
        cov[1, 0] = cov[0, 1]
        mean = rng.normal(size=2)
        e = c2.Ellipse.from_covariance(mean, cov, n_sigma=2.0)
        u = e.direction / np.hypot(*e.direction)
        t = np.linspace(0, 2 * np.pi, 16)
        a, b = e.radii
        points = mean + np.outer(a * np.cos(t), u) + np.outer(b * np.sin(t), (-u[1], u[0]))
        np.testing.assert_allclose(_mahalanobis(cov, mean, points), 2.0, rtol=1e-13)
        assert a >= b
        evals = np.linalg.eigvalsh(cov)
        np.testing.assert_allclose(sorted(e.radii), 2 * np.sqrt(evals), rtol=1e-14)


def test_from_covariance_examples_and_batches():
    e = c2.Ellipse.from_covariance((1, 2), [[4.0, 0.0], [0.0, 9.0]], n_sigma=3)
    assert e.radii.tolist() == [9.0, 6.0]
    assert e.center.tolist() == [1.0, 2.0]
    assert e.direction.tolist()[0] == 0.0  # the major axis is y
    circle = c2.Ellipse.from_covariance((0, 0), [[2.0, 0.0], [0.0, 2.0]])
    assert circle.radii[0] == circle.radii[1] == math.sqrt(2.0)
    covs = np.array([[[4.0, 1.0], [1.0, 3.0]], [[1.0, -0.5], [-0.5, 2.0]], [[1e-12, 0], [0, 1e12]]])
    batch = c2.Ellipse.from_covariance(np.zeros((3, 2)), covs, n_sigma=[1.0, 2.0, 1.0])
    assert batch.shape == (3,)
    for k, cov in enumerate(covs):
        single = c2.Ellipse.from_covariance((0, 0), cov, n_sigma=[1.0, 2.0, 1.0][k])
        np.testing.assert_array_equal(batch[k]._params, single._params)
    np.testing.assert_allclose(batch[2].radii, [1e6, 1e-6], rtol=1e-15)


def test_from_covariance_nearly_singular_keeps_small_eigenvalue():
    """det = p q - r^2 from error-free products: the small eigenvalue is accurate."""
    mpmath.mp.dps = 50
    p, q, r = 1.0, 1.0, 1.0 - 2.0**-30
    e = c2.Ellipse.from_covariance((0, 0), [[p, r], [r, q]])
    small = 2.0**-30  # eigenvalues of [[1, 1-d], [1-d, 1]] are 2-d and d
    assert abs(e.radii[1] ** 2 - small) <= 4 * 2.0**-53 * small


@pytest.mark.parametrize(
    "cov",
    [
        [[1.0, 0.5], [0.4, 1.0]],  # not symmetric
        [[1.0, 2.0], [2.0, 1.0]],  # indefinite
        [[1.0, 1.0], [1.0, 1.0]],  # singular
        [[-1.0, 0.0], [0.0, 1.0]],
        [[0.0, 0.0], [0.0, 1.0]],
        [[np.nan, 0.0], [0.0, 1.0]],
        [[np.inf, 0.0], [0.0, 1.0]],
        [1.0, 2.0],
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
    ],
    ids=["asymmetric", "indefinite", "singular", "negative", "zero", "nan", "inf", "vector", "shape"],
)
def test_from_covariance_invalid(cov):
    with pytest.raises(ValueError, match="cov"):
        c2.Ellipse.from_covariance((0, 0), cov)


def test_from_covariance_other_arguments():
    with pytest.raises(ValueError, match="n_sigma"):
        c2.Ellipse.from_covariance((0, 0), np.eye(2), n_sigma=0.0)
    with pytest.raises(ValueError, match="mean"):
        c2.Ellipse.from_covariance((0, np.nan), np.eye(2))
    with pytest.raises(TypeError, match="cov"):
        c2.Ellipse.from_covariance((0, 0), "cov")


# -- distances for the requested float angle (the grid of the past cost up to 2.6e-11) -------


def _reference_ellipse_distance(center, radii, angle, point):
    """Distance from an outside point to the ellipse rotated by the exact float angle (mpmath)."""
    theta = mpmath.mpf(float(angle))
    c, s = mpmath.cos(theta), mpmath.sin(theta)
    dx, dy = (mpmath.mpf(float(p)) - mpmath.mpf(float(q)) for p, q in zip(point, center))
    y1, y2 = abs(c * dx + s * dy), abs(-s * dx + c * dy)
    a, b = (mpmath.mpf(float(r)) for r in radii)

    def excess(t):  # decreasing on t > 0; zero at the Lagrange multiplier of the closest point
        return (a * y1 / (t + a * a)) ** 2 + (b * y2 / (t + b * b)) ** 2 - 1

    hi = (a + b) * (y1 + y2) + a * a + b * b
    t = mpmath.findroot(excess, (mpmath.mpf(0), hi), solver="anderson")
    x1, x2 = a * a * y1 / (t + a * a), b * b * y2 / (t + b * b)
    return mpmath.sqrt((y1 - x1) ** 2 + (y2 - x2) ** 2)


def _reference_box_distance(center, half, angle, point):
    theta = mpmath.mpf(float(angle))
    c, s = mpmath.cos(theta), mpmath.sin(theta)
    dx, dy = (mpmath.mpf(float(p)) - mpmath.mpf(float(q)) for p, q in zip(point, center))
    y1, y2 = abs(c * dx + s * dy), abs(-s * dx + c * dy)
    gx, gy = max(y1 - mpmath.mpf(float(half[0])), 0), max(y2 - mpmath.mpf(float(half[1])), 0)
    return mpmath.sqrt(gx * gx + gy * gy)


def test_distances_to_rotated_shapes_match_the_float_angle():
    """Point to rotated ellipse and to rotated box, against mpmath (40 digits) for the exact float
    angle: within a few ulps of the scale (the old 2**-40 angle grid gave up to ~1e4 ulps here)."""
    mpmath.mp.dps = 40
    rng = np.random.default_rng(43)
    worst = {"ellipse": 0.0, "box": 0.0}
    for _ in range(40):
        center = rng.uniform(-100, 100, 2)
        size = rng.uniform(5, 60, 2)
        angle = rng.uniform(-4, 4)
        direction = rng.normal(size=2)
        point = center + (np.max(size) + rng.uniform(1, 40)) * direction / np.hypot(*direction)
        scale = np.spacing(max(np.max(np.abs(center)), np.max(np.abs(point)), np.max(size)))
        got = c2.distance(c2.Ellipse(center, size, angle), c2.Point(point))
        want = _reference_ellipse_distance(center, size, angle, point)
        worst["ellipse"] = max(worst["ellipse"], float(abs(mpmath.mpf(got) - want)) / scale)
        got = c2.distance(c2.RotatedBox(center, size, angle), c2.Point(point))
        want = _reference_box_distance(center, size, angle, point)
        worst["box"] = max(worst["box"], float(abs(mpmath.mpf(got) - want)) / scale)
    assert worst["ellipse"] <= 8, worst
    assert worst["box"] <= 8, worst



def test_circle_like_ellipse_ignores_angle():
    for angle in (0.0, 0.4, 2.0):
        assert c2.Ellipse((0, 0), (2.0, 2.0), angle=angle).direction.tolist() == [1.0, 0.0]
    assert c2.Ellipse((0, 0), (2.0, 2.0), angle=0.4).angle == 0.4  # the field keeps what was given
    np.testing.assert_array_equal(c2.Circle((1, 2), 3)._params, c2.Ellipse((1, 2), (3, 3), 0.7)._params)
