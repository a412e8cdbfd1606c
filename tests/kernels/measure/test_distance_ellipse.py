"""Contact kernels of the ellipse (``collide2d._kernels.measure.distance_ellipse``) against point,
ellipse, line, segment and polygon, checked against the independent high-precision references of
``ellipse_references.py`` (40-digit mpmath on the stored rows), plus invariants and consistency with
the exact predicates. The Perram-Wertheim contact, the osculating-circle approximation and the
global optimum of the overlapping search are in ``test_distance_ellipse_search.py``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest
from ellipse_references import (
    EMPTY, TOL_PAIR, TOL_POINT, _plain, check_invariants, ellipse_curvature_at, ellipse_support, kern, on_boundary,
    random_pair, ref_boundary_distance, ref_point, ref_support_max, vertices_support,
)

import collide2d as c2
from collide2d._kernels.measure import distance_ellipse as K
from collide2d.measurement import contact


# -- point versus ellipse --------------------------------------------------------------------------


def _local_to_world(e, y0, y1):
    cx, cy, a, b, wx, wy = e._params
    n = math.hypot(wx, wy)
    ux, uy = wx / n, wy / n
    return cx + ux * y0 - uy * y1, cy + uy * y0 + ux * y1


@pytest.mark.parametrize("aspect", [1.0001, 10.0, 100.0, 1e4])
def test_point_matches_reference_in_every_regime(aspect):
    rng = np.random.default_rng(11)
    worst = {}
    for regime in ("generic", "near boundary", "evolute (inside, near major axis)", "near centre"):
        for _ in range(5):
            e = c2.Ellipse((0.3, -0.2), (1.0, 1.0 / aspect), rng.uniform(-3, 3))
            a, b = 1.0, 1.0 / aspect
            if regime == "generic":
                y = rng.uniform(-2, 2, 2)
            elif regime == "near boundary":
                t = rng.uniform(-np.pi, np.pi)
                y = np.array([a * math.cos(t), b * math.sin(t)]) * (1 + rng.uniform(-1e-6, 1e-6))
            elif regime.startswith("evolute"):
                y = np.array([rng.uniform(-1, 1) * (a * a - b * b) / a, rng.uniform(-1, 1) * b * 1e-3])
            else:
                y = rng.uniform(-1, 1, 2) * b * 1e-3
            x, yy = _local_to_world(e, *y)
            r = kern("point", e, c2.Point((x, yy)))
            err = abs(float(mp.mpf(r[0]) - ref_point(e._params, x, yy)))
            worst[regime] = max(worst.get(regime, 0.0), err)
            check_invariants(r, 1.0)
            assert abs(on_boundary(e, r[3], r[4])) <= 1e-15 * aspect
    assert max(worst.values()) <= TOL_POINT, worst


def test_point_batch_matches_reference_on_random_points():
    # 240 points, one ellipse each (aspect 10**U(0, 4), random angle), in the four regimes, through
    # the public batch call (the loop and the glue): the fast path of _foot_q1 and its fallback
    rng = np.random.default_rng(12)
    n = 240
    aspect = 10.0 ** rng.uniform(0.0, 4.0, n)
    angle = rng.uniform(-3, 3, n)
    local = np.empty((n, 2))
    for k in range(n):
        a, b = 1.0, 1.0 / aspect[k]
        regime = k % 4
        if regime == 0:  # generic
            local[k] = rng.uniform(-3, 3, 2)
        elif regime == 1:  # within 1e-9 relative of the boundary
            t = rng.uniform(-np.pi, np.pi)
            local[k] = np.array([a * math.cos(t), b * math.sin(t)]) * (1 + rng.uniform(-1e-9, 1e-9))
        elif regime == 2:  # inside the evolute, near the major axis
            local[k] = (rng.uniform(-1, 1) * (a * a - b * b) / a, rng.uniform(-1, 1) * b * 10.0 ** rng.uniform(-12, -2))
        else:  # near the centre
            local[k] = rng.uniform(-1, 1, 2) * b * 10.0 ** rng.uniform(-9, -1)
    e = c2.Ellipse(np.tile((0.3, -0.2), (n, 1)), np.stack([np.ones(n), 1.0 / aspect], axis=-1), angle)
    xy = np.array([_local_to_world(e[k], *local[k]) for k in range(n)])
    c = contact(e, c2.Point(xy))
    d = c2.distance(e, c2.Point(xy))
    for k in range(n):
        ref = ref_point(e[k]._params, *xy[k])
        assert abs(float(mp.mpf(c.separation[k]) - ref)) <= TOL_POINT * max(1.0, abs(float(ref))), (k, aspect[k])
        assert d[k] == max(c.separation[k], 0.0)
        assert abs(on_boundary(e[k], *c.point_a[k])) <= 1e-15 * aspect[k]


def test_point_with_subnormal_offsets_uses_the_safeguard():
    # local y of 5e-324 or 1e-310 (subnormal) overflows 1 / sigma in the fast Newton iteration;
    # the bracketed safeguard answers, and the results match the reference and reflect exactly
    e = c2.Ellipse((0.0, 0.0), (1.0, 0.25), 0.0)
    for x in (0.1, 0.5, 0.95, 2.0):
        for y in (5e-324, 1e-310, 1e-300):
            up = kern("point", e, c2.Point((x, y)))
            down = kern("point", e, c2.Point((x, -y)))
            assert all(math.isfinite(v) for v in up[:7])
            assert up[0] == down[0] and up[3] == down[3] and up[4] == -down[4]
            assert abs(float(mp.mpf(up[0]) - ref_point(e._params, x, y))) <= TOL_POINT


def test_point_foot_iteration_count():
    """The cost of the point-ellipse foot (``_foot_q1``): its Chatfield start makes the Newton
    iteration short, 3.34 iterations on average (the confirming step included) and at most 10 on
    these 400 first-quadrant points (aspects 3 to 1e4: far, within 1e-3 of the boundary, inside,
    inside the evolute near the major axis); a worse start still converges but costs 4 or more on
    average. The root is checked too: ``p^2 + q^2 = 1`` of Eberly's equation to 1e-14 (40-digit
    mpmath on the returned float ``sigma``)."""
    rng = np.random.default_rng(3)
    counts = []
    for k in range(400):
        e1 = 10.0 ** -rng.uniform(math.log10(3), 4)
        regime = k % 4
        if regime == 0:  # far
            t, r = rng.uniform(0, math.pi / 2), 10 ** rng.uniform(0.1, 2)
            y0, y1 = r * math.cos(t), r * e1 * math.sin(t) + rng.uniform(0, 2)
        elif regime == 1:  # near the boundary
            t, f = rng.uniform(0, math.pi / 2), 1 + rng.uniform(-1e-3, 1e-3)
            y0, y1 = f * math.cos(t), f * e1 * math.sin(t)
        elif regime == 2:  # inside
            t, f = rng.uniform(0, math.pi / 2), rng.uniform(0.05, 0.95)
            y0, y1 = f * math.cos(t), f * e1 * math.sin(t)
        else:  # inside the evolute, near the major axis
            y0, y1 = rng.uniform(0, 1) * (1 - e1 * e1), e1 * 10 ** rng.uniform(-12, -1)
        sigma, it = K._foot_q1(1.0, e1, y0, y1)
        counts.append(it)
        with mp.workdps(40):
            e0, e1m, s = mp.mpf(1), mp.mpf(e1), mp.mpf(sigma)
            c = (e0 / e1m) ** 2 - 1
            p, q = (c + 1) * (mp.mpf(y0) / e0) / (s + c), (mp.mpf(y1) / e1m) / s
            assert abs(p * p + q * q - 1) <= 1e-14, (k, e1, y0, y1)
    assert np.mean(counts) <= 3.6 and max(counts) <= 12, (np.mean(counts), max(counts))


def test_pow2_above_is_the_smallest_power_of_two_at_least_x():
    # the scale of the rescaled kernels: the smallest power of two >= x for x > 0 finite (checked on
    # exact rationals, subnormal to 2^1023), and 1 for 0, negative and non-finite x (its docstring)
    rng = np.random.default_rng(73)
    xs = [1.0, 3.0, 0.75, 2.0**-1074, 3 * 2.0**-1074, 2.0**-1022, 2.0**1023, 1e300, 1e-300]
    xs += [float(v) for v in 2.0 ** rng.uniform(-1070, 1020, 200)]
    for x in xs:
        f = Fraction(x)
        k = f.numerator.bit_length() - f.denominator.bit_length()
        while Fraction(2) ** k < f:
            k += 1
        while Fraction(2) ** (k - 1) >= f:
            k -= 1
        assert K._pow2_above(x) == 2.0**k, x
    for x in (0.0, -0.0, -2.5, math.inf, -math.inf, math.nan):
        assert K._pow2_above(x) == 1.0, x


def test_point_scaling_by_powers_of_two_is_exact():
    """Scaling an ellipse and a point by ``2^k`` scales the contact exactly (every operation
    commutes with it), also for semi-axes beyond ``2^300`` and below ``2^-300``, where the kernel
    rescales by a power of two itself; circles, the separation-only path, and a circle about the
    point (the point problem for its centre) too."""
    rng = np.random.default_rng(17)
    for _ in range(6):
        radii = (float(rng.uniform(0.5, 2)), float(rng.uniform(0.05, 0.5)))
        angle = float(rng.uniform(-3, 3))
        centre = rng.uniform(-1, 1, 2)
        point = rng.uniform(-3, 3, 2)
        for shape in (c2.Ellipse(centre, radii, angle), c2.Circle(centre, radii[0])):
            base = contact(shape, c2.Point(point))
            for k in (-450, -310, 310, 450):
                f = 2.0**k
                moved = c2.Ellipse(centre * f, (radii[0] * f, radii[1] * f), angle) if shape._kind == "ellipse" and shape._params[2] != shape._params[3] else c2.Circle(centre * f, radii[0] * f)
                got = contact(moved, c2.Point(point * f))
                assert got.separation == base.separation * f, (k, shape)
                np.testing.assert_array_equal(got.normal, base.normal)
                np.testing.assert_array_equal(got.point_a, base.point_a * f)
                assert c2.distance(moved, c2.Point(point * f)) == max(base.separation, 0.0) * f
                # a circle about the point (the point problem for its centre), both orders, the
                # kernel itself (the public functions may rescale the pair before calling it)
                small, big = c2.Circle(point, 0.125), c2.Circle(point * f, 0.125 * f)
                for first, second, want in ((moved, big, kern("ellipse", shape, small)), (big, moved, kern("ellipse", small, shape))):
                    got = kern("ellipse", first, second)
                    assert got[0] == want[0] * f and got[1:3] == want[1:3], (k, shape)
                    assert got[3:7] == tuple(v * f for v in want[3:7]) and got[7:9] == tuple(v / f for v in want[7:9])


def test_point_exactly_on_the_boundary():
    # (3a/5, 4b/5) with a = 5, b = 2.5: the point (3, 2) lies exactly on the stored ellipse.
    e = c2.Ellipse((0.0, 0.0), (5.0, 2.5))
    r = kern("point", e, c2.Point((3.0, 2.0)))
    assert abs(r[0]) <= 1e-15 * 5
    np.testing.assert_allclose(r[3:5], (3.0, 2.0), rtol=0, atol=1e-15 * 5)
    # outward normal there is proportional to (x / a^2, y / b^2) = (3/25, 2/6.25)
    m = np.array([3 / 25, 2 / 6.25])
    np.testing.assert_allclose(r[1:3], m / np.hypot(*m), rtol=0, atol=4e-16)
    # curvature a b / (a^2 sin^2 t + b^2 cos^2 t)^{3/2} with cos t = 3/5, sin t = 4/5
    kappa = 5 * 2.5 / (25 * 0.64 + 6.25 * 0.36) ** 1.5
    assert r[7] == pytest.approx(kappa, rel=1e-14)
    assert r[8] == math.inf


def test_point_at_the_centre_is_deterministic():
    # Two nearest points (0, +-b): the sign bit of the local y picks one; -0.0 picks the lower.
    e = c2.Ellipse((0.0, 0.0), (2.0, 1.0))
    up = kern("point", e, c2.Point((0.0, 0.0)))
    down = kern("point", e, c2.Point((0.0, -0.0)))
    assert up[0] == -1.0 and down[0] == -1.0
    assert (up[3], up[4]) == (0.0, 1.0) and (up[1], up[2]) == (0.0, 1.0)
    assert (down[3], down[4]) == (0.0, -1.0) and (down[1], down[2]) == (0.0, -1.0)
    # radii given in the other order: the major axis is local y, the nearest points are (+-1, 0)
    e2 = c2.Ellipse((0.0, 0.0), (1.0, 2.0))
    r = kern("point", e2, c2.Point((0.0, 0.0)))
    assert r[0] == -1.0 and abs(abs(r[3]) - 1.0) <= 1e-16 and r[4] == 0.0


def test_point_on_the_major_axis_inside_the_evolute():
    # a = 2, b = 1, y = (1/2, 0): inside the evolute (cusp at (a^2 - b^2)/a = 3/2), two feet
    # x0 = a^2 y0 / (a^2 - b^2) = 2/3, x1 = +-b sqrt(1 - (x0/a)^2) = +-sqrt(8)/3.
    e = c2.Ellipse((0.0, 0.0), (2.0, 1.0))
    up = kern("point", e, c2.Point((0.5, 0.0)))
    down = kern("point", e, c2.Point((0.5, -0.0)))
    x1 = math.sqrt(8.0) / 3.0
    expected = -math.hypot(0.5 - 2 / 3, x1)
    for r, sign in ((up, 1.0), (down, -1.0)):
        assert r[0] == pytest.approx(expected, rel=1e-15)
        assert r[3] == pytest.approx(2 / 3, rel=1e-15) and r[4] == pytest.approx(sign * x1, rel=1e-15)
    # beyond the cusp the vertex is the unique foot
    r = kern("point", e, c2.Point((1.75, 0.0)))
    assert r[0] == pytest.approx(-0.25, rel=1e-15) and (r[3], r[4]) == (2.0, 0.0)


def test_point_far_away_and_aspect_1e4():
    e = c2.Ellipse((0.5, 0.25), (1.0, 1e-4), 0.7)
    for p in [(1e12, 3e11), (-2e12, 1.0), (0.5, 1e12)]:
        r = kern("point", e, c2.Point(p))
        ref = ref_point(e._params, *p)
        assert abs(float((mp.mpf(r[0]) - ref) / ref)) <= 4e-16
        check_invariants(r, abs(r[0]))


def test_point_huge_coordinates_and_tiny_sizes():
    # translation by 2**20 (exact differences) and scaling by 2**-20 (exact) leave the answer
    # unchanged up to the rounding of the translated witness point
    e, p = c2.Ellipse((0.0, 0.0), (1.0, 0.125), 0.3), (0.75, 0.5)
    base = kern("point", e, c2.Point(p))
    t = 1048576.0
    far = kern("point", c2.Ellipse((t, -t), (1.0, 0.125), 0.3), c2.Point((p[0] + t, p[1] - t)))
    assert far[0] == base[0] and far[1:3] == base[1:3]
    np.testing.assert_allclose(np.array(far[3:5]) - (t, -t), base[3:5], atol=2.5e-10)
    k = 2.0**-20
    tiny = kern("point", c2.Ellipse((0.0, 0.0), (k, 0.125 * k), 0.3), c2.Point((p[0] * k, p[1] * k)))
    assert tiny[0] == base[0] * k and tiny[7] == base[7] / k
    assert abs(float(mp.mpf(base[0]) - ref_point(e._params, *p))) <= TOL_POINT


def test_point_circle_is_radial_and_ignores_the_angle():
    c = c2.Circle((1.0, 2.0), 3.0)
    r = kern("point", c, c2.Point((4.0, 6.0)))
    assert r[0] == 2.0 and r[1:3] == (0.6, 0.8)
    np.testing.assert_allclose(r[3:5], (1 + 9 / 5, 2 + 12 / 5), rtol=1e-15)
    assert r[7] == pytest.approx(1 / 3, rel=1e-15)
    for angle in (0.0, 0.3, 1.7, -2.9):
        assert kern("point", c2.Ellipse((1.0, 2.0), (3.0, 3.0), angle), c2.Point((4.0, 6.0))) == r
    centre = kern("point", c, c2.Point((1.0, 2.0)))
    assert centre[0] == -3.0 and centre[3:5] == (1.0, 5.0)


def test_point_curvature_matches_the_eccentric_angle_formula():
    rng = np.random.default_rng(5)
    for _ in range(30):
        e = c2.Ellipse(rng.uniform(-3, 3, 2), rng.uniform(0.1, 3, 2), rng.uniform(-3, 3))
        r = kern("point", e, c2.Point(rng.uniform(-4, 4, 2)))
        assert r[7] == pytest.approx(ellipse_curvature_at(e, r[3], r[4]), rel=1e-12)


# -- ellipse versus ellipse ------------------------------------------------------------------------


@pytest.mark.parametrize("aspect", [1.0, 10.0, 1e3, 1e4])
@pytest.mark.parametrize("mode", ["apart", "overlap"])
def test_pair_matches_reference(aspect, mode):
    rng = np.random.default_rng(int(aspect) + (7 if mode == "apart" else 0))
    for _ in range(3):
        A, B = random_pair(rng, aspect, mode)
        r = kern("ellipse", A, B)
        L = max(A._params[2], B._params[2])
        ref, _ = ref_support_max(ellipse_support(A._params), ellipse_support(B._params))
        assert abs(float(mp.mpf(r[0]) - ref)) <= TOL_PAIR * L
        assert (r[0] > 0) == (mode == "apart")
        check_invariants(r, L)
        if mode == "apart":
            gap = ref_boundary_distance(A._params, B._params)
            assert abs(float(mp.mpf(r[0]) - gap)) <= TOL_PAIR * L
        assert r[7] == pytest.approx(ellipse_curvature_at(A, r[3], r[4]), rel=1e-6)
        assert r[8] == pytest.approx(ellipse_curvature_at(B, r[5], r[6]), rel=1e-6)


@pytest.mark.parametrize("aspect", [1e3, 1e4])
def test_crossed_needles_find_the_global_optimum(aspect):
    # Two thin needles crossing near their middles: g has several local maxima (push along
    # either needle's normal, or along either needle's axis); the depth is the best of them.
    b = 1.0 / aspect
    for shift, turn in [((0.1, 0.3 * b), 1.3), ((-0.2, 0.0), 1.5707963267948966), ((0.05, -0.5 * b), 0.4)]:
        A = c2.Ellipse((0.0, 0.0), (1.0, b), 0.0)
        B = c2.Ellipse(shift, (0.8, 0.7 * b), turn)
        r = kern("ellipse", A, B)
        ref, _ = ref_support_max(ellipse_support(A._params), ellipse_support(B._params), samples=1 << 18)
        assert abs(float(mp.mpf(r[0]) - ref)) <= TOL_PAIR
        assert r[0] < 0
        # several local maxima of g: the reference's sampled g has at least two
        t = np.linspace(-np.pi, np.pi, 1 << 16, endpoint=False)
        g = -ellipse_support(B._params)[0](t + np.pi) - ellipse_support(A._params)[0](t)
        assert np.count_nonzero((g > np.roll(g, 1)) & (g >= np.roll(g, -1))) >= 2
        check_invariants(r, 1.0)


def test_nested_and_concentric_pairs():
    big = c2.Ellipse((0.0, 0.0), (3.0, 2.0), 0.2)
    for small in [
        c2.Ellipse((0.3, -0.1), (0.5, 0.1), 1.0),
        c2.Ellipse((0.0, 0.0), (1.0, 0.5), 0.2),
        c2.Circle((0.0, 0.0), 1.0),
    ]:
        for A, B in ((big, small), (small, big)):
            r = kern("ellipse", A, B)
            ref, _ = ref_support_max(ellipse_support(A._params), ellipse_support(B._params))
            assert abs(float(mp.mpf(r[0]) - ref)) <= TOL_PAIR * 3
            check_invariants(r, 3.0)
    # concentric circles: depth r1 + r2 in any direction
    r = kern("ellipse", c2.Circle((1.0, 1.0), 1.0), c2.Circle((1.0, 1.0), 2.0))
    assert r[0] == -3.0


def test_touching_pairs_report_zero():
    # circles at distance r1 + r2, axis-aligned ellipses vertex to vertex (exact tangency)
    cases = [
        (c2.Circle((0.0, 0.0), 1.0), c2.Circle((3.0, 4.0), 4.0)),
        (c2.Ellipse((0.0, 0.0), (2.0, 1.0)), c2.Ellipse((3.0, 0.0), (1.0, 3.0))),
        (c2.Ellipse((0.0, 0.0), (2.0, 1.0)), c2.Ellipse((0.0, 1.5), (4.0, 0.5))),
    ]
    for A, B in cases:
        r = kern("ellipse", A, B)
        assert abs(r[0]) <= 4e-16 * 4
        check_invariants(r, 4.0)


def test_ellipse_and_circle_pairs_both_orders():
    # An ellipse with a circle reduces to the point problem for the circle's centre; checked
    # against the support-function reference in both orders, apart, overlapping and concentric.
    rng = np.random.default_rng(14)
    cases = [(c2.Ellipse((0.0, 0.0), (2.0, 0.002), 0.4), c2.Circle((0.0, 0.0), 0.5))]
    for aspect in (3.0, 1e3):
        for _ in range(3):
            e = c2.Ellipse(rng.uniform(-1, 1, 2), (1.0, 1.0 / aspect), rng.uniform(-3, 3))
            cases.append((e, c2.Circle(rng.uniform(-2, 2, 2), rng.uniform(0.05, 1.0))))
    for e, c in cases:
        for A, B in ((e, c), (c, e)):
            r = kern("ellipse", A, B)
            ref, _ = ref_support_max(ellipse_support(A._params), ellipse_support(B._params))
            assert abs(float(mp.mpf(r[0]) - ref)) <= TOL_PAIR * 2
            check_invariants(r, 2.0)
            assert (r[0] > 0) == c2.disjoint(A, B)
            # curvatures at the witness points: 1 / r for the circle, the ellipse's own at its point
            for shape, k, point in ((A, r[7], r[3:5]), (B, r[8], r[5:7])):
                if shape is c:
                    assert k == 1.0 / c.radius
                else:
                    assert k == pytest.approx(ellipse_curvature_at(shape, *point), rel=1e-9)


def test_concentric_circles_report_a_unit_normal():
    # no direction is preferred: the normal is (0, +-1) (by the sign bit of d_y), a unit vector,
    # and the witness points lie on the circles along it, both orders
    A, B = c2.Circle((1.0, 2.0), 0.5), c2.Circle((1.0, 2.0), 2.0)
    for first, second in ((A, B), (B, A)):
        r = kern("ellipse", first, second)
        ra, rb = first.radius, second.radius
        assert r[0] == -2.5 and r[1] == 0.0 and abs(r[2]) == 1.0
        assert (r[3], r[4]) == (1.0, 2.0 + ra * r[2]) and (r[5], r[6]) == (1.0, 2.0 - rb * r[2])
        assert (r[7], r[8]) == (1.0 / ra, 1.0 / rb)
        check_invariants(r, 2.0)


def test_circles_as_ellipses_at_any_angle():
    rng = np.random.default_rng(3)
    for _ in range(10):
        c1, c2_ = rng.uniform(-3, 3, 2), rng.uniform(-3, 3, 2)
        r1, r2 = rng.uniform(0.5, 2, 2)
        base = kern("ellipse", c2.Circle(c1, r1), c2.Circle(c2_, r2))
        d = c2_ - c1
        assert base[0] == pytest.approx(math.hypot(*d) - r1 - r2, abs=1e-15 * 8)
        np.testing.assert_allclose(base[1:3], d / np.hypot(*d), atol=4e-16)
        assert base[7] == pytest.approx(1 / r1, rel=1e-15) and base[8] == pytest.approx(1 / r2, rel=1e-15)
        for angle in rng.uniform(-3, 3, 3):
            assert kern("ellipse", c2.Ellipse(c1, (r1, r1), angle), c2.Ellipse(c2_, (r2, r2), -angle)) == base


def test_huge_coordinates_and_tiny_sizes():
    # Same pair placed near 1e6 (dyadic offsets, so c_B - c_A is exact) and scaled by 2**-20.
    A = c2.Ellipse((0.0, 0.0), (1.0, 0.25), 0.3)
    B = c2.Ellipse((1.5, 0.75), (0.5, 0.125), 1.1)
    base = kern("ellipse", A, B)
    far = kern(
        "ellipse",
        c2.Ellipse((1048576.0, -1048576.0), (1.0, 0.25), 0.3),
        c2.Ellipse((1048577.5, -1048575.25), (0.5, 0.125), 1.1),
    )
    assert far[0] == pytest.approx(base[0], abs=1e-15)
    np.testing.assert_allclose(far[1:3], base[1:3], atol=1e-15)
    np.testing.assert_allclose(np.array(far[3:7]) - [1048576.0, -1048576.0] * 2, base[3:7], atol=1e-9)
    k = 2.0**-20
    tiny = kern("ellipse", c2.Ellipse((0.0, 0.0), (k, 0.25 * k), 0.3), c2.Ellipse((1.5 * k, 0.75 * k), (0.5 * k, 0.125 * k), 1.1))
    assert tiny[0] == base[0] * k  # scaling by a power of two is exact end to end
    ref, _ = ref_support_max(ellipse_support(A._params), ellipse_support(B._params))
    assert abs(float(mp.mpf(base[0]) - ref)) <= TOL_PAIR


def test_exact_transforms():
    rng = np.random.default_rng(8)
    for mode in ("apart", "overlap"):
        for _ in range(4):
            A, B = random_pair(rng, 5.0, mode)
            r = kern("ellipse", A, B)
            fa, fb = A._fields, B._fields
            # quarter turn about the origin: (x, y) -> (-y, x), the stored direction turned exactly
            rot = lambda c: np.array([-c[1], c[0]])  # noqa: E731
            Ar = c2.Ellipse(rot(fa["center"]), fa["radii"], direction=rot(A.direction))
            Br = c2.Ellipse(rot(fb["center"]), fb["radii"], direction=rot(B.direction))
            rr = kern("ellipse", Ar, Br)
            assert rr[0] == pytest.approx(r[0], abs=1e-15 * 4)
            np.testing.assert_allclose(rr[1:3], rot(r[1:3]), atol=1e-14)
            # integer translation
            t = np.array([7.0, -3.0])
            rt = kern("ellipse", c2.Ellipse(fa["center"] + t, fa["radii"], fa["angle"]), c2.Ellipse(fb["center"] + t, fb["radii"], fb["angle"]))
            assert rt[0] == pytest.approx(r[0], abs=1e-14)


def test_sign_agrees_with_the_exact_predicate_and_shifting_touches():
    # separation > 0 iff c2.disjoint, outside a band |separation| < 1e-12 L; moving b by
    # -separation * normal * (1 -+ 1e-9) lands on either side of tangency (checked by relate).
    rng = np.random.default_rng(21)
    for aspect in (1.0, 4.0, 100.0):
        for mode in ("apart", "overlap"):
            for _ in range(4):
                A, B = random_pair(rng, aspect, mode)
                r = kern("ellipse", A, B)
                s, n = r[0], np.array(r[1:3])
                assert (s > 0) == c2.disjoint(A, B)
                if abs(s) < 1e-6:
                    continue
                fb = B._fields
                for factor, apart in ((1 - 1e-9, s > 0), (1 + 1e-9, s < 0)):
                    moved = c2.Ellipse(fb["center"] - factor * s * n, fb["radii"], fb["angle"])
                    assert c2.disjoint(A, moved) == apart, (aspect, mode, factor)


def test_iteration_counts():
    # Local-solver evaluations of g per pair (PW iterations included); see docs/contact.md.
    rng = np.random.default_rng(4)
    counts = {"apart": [], "overlap": []}
    for aspect in (1.0, 10.0, 1e3, 1e4):
        for mode in counts:
            for _ in range(20):
                A, B = random_pair(rng, aspect, mode)
                counts[mode].append(K.contact_ellipse_ellipse_iterations(A._params, EMPTY, B._params, EMPTY))
    assert max(counts["apart"]) <= 40
    assert max(counts["overlap"]) <= 200
    assert min(counts["apart"] + counts["overlap"]) >= 1  # g is evaluated at least once
    # apart pairs symmetric about their centre line (the centre direction is the maximiser, g' = 0
    # there exactly): the one evaluation of g at the centre direction settles them
    for A, B in (
        (c2.Circle((0, 0), 1), c2.Circle((3, 0), 1)),
        (c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((5, 0), (2, 1))),
        (c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((0, 4), (1, 2))),
    ):
        assert K.contact_ellipse_ellipse_iterations(A._params, EMPTY, B._params, EMPTY) == 1


def test_kernel_python_function_agrees():
    rng = np.random.default_rng(9)
    for mode in ("apart", "overlap"):
        A, B = random_pair(rng, 10.0, mode)
        compiled = kern("ellipse", A, B)
        plain = _plain(K.contact_ellipse_ellipse)(A._params, EMPTY, B._params, EMPTY)
        np.testing.assert_allclose(plain, compiled, rtol=1e-15, atol=1e-15)
    e = c2.Ellipse((0.0, 0.0), (2.0, 1.0), 0.4)
    p = c2.Point((0.7, 0.1))
    assert _plain(K.contact_ellipse_point)(e._params, EMPTY, p._params, EMPTY) == kern("point", e, p)


# -- ellipse versus line, segment, polygon ---------------------------------------------------------


def test_line_closed_form():
    rng = np.random.default_rng(12)
    for _ in range(20):
        e = c2.Ellipse(rng.uniform(-2, 2, 2), rng.uniform(0.01, 2, 2), rng.uniform(-3, 3))
        line = c2.Line(rng.uniform(-3, 3, 2), rng.uniform(-1, 1, 2))
        r = kern("line", e, line)
        px, py, dx, dy = (mp.mpf(float(v)) for v in line._params)
        ha_np, ha_mp = ellipse_support(e._params)
        m = (-dy / mp.sqrt(dx * dx + dy * dy), dx / mp.sqrt(dx * dx + dy * dy))
        t = mp.atan2(m[1], m[0])
        delta = m[0] * px + m[1] * py  # line offset along m; the ellipse spans [-h(-m), h(m)]
        ref = max(delta - ha_mp(t), -ha_mp(t + mp.pi) - delta)
        assert abs(float(mp.mpf(r[0]) - ref)) <= 4e-15 * 4
        check_invariants(r, 4.0)
        assert r[8] == 0.0 and r[7] == pytest.approx(ellipse_curvature_at(e, r[3], r[4]), rel=1e-9)


def _polygon_reference(e, pts):
    return ref_support_max(ellipse_support(e._params), vertices_support(pts))[0]


@pytest.mark.parametrize("mode", ["apart", "overlap"])
def test_segment_and_polygon_match_reference(mode):
    rng = np.random.default_rng(31 if mode == "apart" else 32)
    done = 0
    while done < 8:
        e = c2.Ellipse(rng.uniform(-1, 1, 2), (1.0, rng.choice([1.0, 0.3, 0.01])), rng.uniform(-3, 3))
        n = rng.integers(3, 7)
        ang = np.sort(rng.uniform(0, 2 * np.pi, n))
        centre = rng.uniform(-3, 3, 2)
        pts = centre + rng.uniform(0.2, 1.5) * np.c_[np.cos(ang), np.sin(ang)]
        try:
            poly = c2.Polygon(pts)
        except ValueError:
            continue
        seg = c2.Segment(pts[0], pts[1])
        for shape, verts in ((poly, poly._verts), (seg, pts[:2])):
            if c2.disjoint(e, shape) != (mode == "apart"):
                continue
            kind = "polygon" if shape is poly else "segment"
            r = kern(kind, e, shape)
            assert abs(float(mp.mpf(r[0]) - _polygon_reference(e, verts))) <= TOL_PAIR * 4
            check_invariants(r, 4.0)
            assert r[8] in (0.0, math.inf)
            done += 1


def test_segment_end_inside_the_evolute_needs_the_second_foot():
    # Thin ellipse a = 1, b = 0.01; a vertical segment whose top end (0.3, 0.001) is inside the
    # ellipse, near the major axis, and which leaves through the bottom. The shortest push moves
    # it down past the bottom; the optimal normal is the *second* local maximum of
    # v.u - rho(u) for that end (the nearest boundary point of the end is on the top side).
    e = c2.Ellipse((0.0, 0.0), (1.0, 0.01))
    for shape, verts in (
        (c2.Segment((0.3, 0.001), (0.3, -5.0)), [(0.3, 0.001), (0.3, -5.0)]),
        (c2.Box((0.29, -5.0), (0.31, 0.001)), c2.Box((0.29, -5.0), (0.31, 0.001))._verts),
    ):
        kind = "segment" if isinstance(shape, c2.Segment) else "polygon"
        r = kern(kind, e, shape)
        ref = _polygon_reference(e, verts)
        assert abs(float(mp.mpf(r[0]) - ref)) <= TOL_PAIR
        assert r[2] < -0.99 and -0.011 < r[0] < -0.009
        assert r[8] == math.inf  # corner contact
        check_invariants(r, 1.0)


def test_face_and_corner_curvatures():
    e = c2.Ellipse((0.0, 0.0), (2.0, 1.0))
    face = kern("polygon", e, c2.Box((-1.0, 1.5), (1.0, 2.5)))  # flat face above the top vertex
    assert face[0] == pytest.approx(0.5, rel=1e-15) and face[8] == 0.0
    assert face[1:3] == pytest.approx((0.0, 1.0), abs=1e-16)
    assert face[7] == pytest.approx(1.0 / 2.0**2, rel=1e-14)  # b / a^2 at the minor vertex
    corner = kern("polygon", e, c2.Box((3.0, 3.0), (4.0, 4.0)))
    assert corner[8] == math.inf and corner[5:7] == (3.0, 3.0)
    end = kern("segment", e, c2.Segment((3.0, 0.0), (5.0, 0.0)))
    assert end[0] == 1.0 and end[8] == math.inf and end[3:5] == (2.0, 0.0)
    side = kern("segment", e, c2.Segment((-1.0, 2.0), (1.0, 2.0)))
    assert side[0] == pytest.approx(1.0, rel=1e-15) and side[8] == 0.0


# -- through the public API (glue written concurrently) --------------------------------------------


def test_public_contact_is_symmetric():
    rng = np.random.default_rng(41)
    shapes = [c2.Point((2.5, 0.3)), c2.Segment((2.5, -1.0), (2.2, 1.0)), c2.Box((1.0, 0.5), (3.0, 2.0)), c2.Line((0.0, 0.7), (1.0, 0.2))]
    for _ in range(4):
        A, B = random_pair(rng, 3.0, rng.choice(["apart", "overlap"]))
        shapes.append(B)
    e = c2.Ellipse((0.0, 0.0), (2.0, 1.0), 0.3)
    for other in shapes:
        ab, ba = contact(e, other), contact(other, e)
        assert ab.separation == pytest.approx(ba.separation, abs=1e-14)
        np.testing.assert_allclose(ab.normal, -ba.normal, atol=1e-12)
        if not isinstance(other, c2.Line):
            np.testing.assert_allclose(ab.point_a, ba.point_b, atol=1e-12)
            np.testing.assert_allclose(ab.point_b, ba.point_a, atol=1e-12)
    batch = contact(e, c2.Ellipse([(3.0, 0.0), (0.5, 0.5)], (1.0, 0.5), 0.0))
    single = contact(e, c2.Ellipse((3.0, 0.0), (1.0, 0.5), 0.0))
    assert batch.separation[0] == pytest.approx(single.separation, abs=1e-15)
