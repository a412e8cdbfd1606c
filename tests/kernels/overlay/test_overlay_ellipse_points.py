"""Intersection points with ellipses (``collide2d.overlay.intersection_points``): each point within
a few ulps of both boundaries, the count and order at tangencies and crossings, against the 30-digit
mpmath crossing points of ``overlay_references.py`` and exact rationals where the answer is
rational. Overlap area and IoU are in ``test_overlay_ellipse.py``.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath as mpm
import numpy as np
import pytest
from mpmath import mp, mpf
from overlay_references import EPS, RESIDUAL_ULPS, TANGENT_AND_CROSSINGS, _area, _crossings, _ell, _mp_precision, _q, _random_ellipse  # noqa: F401 - the autouse fixture

from conftest import JIT_DISABLED

import collide2d as c2
from collide2d._kernels import codes
from collide2d._kernels.overlay import area_ellipse
from collide2d._kernels.overlay import points_ellipse
from collide2d.overlay import intersection_points, iou, overlap_area


# -- intersection points --------------------------------------------------------------------------------------


def _root_error_bound(c2_, c1, c0, root):
    """First-order error of a float root of ``x^3 + c2 x^2 + c1 x + c0`` whose cubic is evaluated
    to rounding: ``u sum |c_i| |x|^i / |f'(x)|`` (exact arithmetic on the exact ``root``)."""
    x = Fraction(root)
    magnitude = abs(x) ** 3 + abs(Fraction(c2_)) * x * x + abs(Fraction(c1) * x) + abs(Fraction(c0))
    slope = abs((3 * x + 2 * Fraction(c2_)) * x + Fraction(c1))
    return float(Fraction(EPS) * magnitude / slope)


def test_real_cubic_roots_against_exact_roots():
    """The pencil's cubic solver (``points_ellipse.real_cubic_roots``) on cubics built from exact
    dyadic roots (coefficients exact in floats): three distinct real roots, each within 4 times its
    first-order error bound (measured 2.1), and one real root (the other two complex) within 4
    ulps of the larger of the root and the complex pair's modulus (measured 0.9). Scaled by 2^-20
    to 2^20, so the trigonometric and Cardano branches see every magnitude."""
    rng = np.random.default_rng(1832)
    for _ in range(150):
        while True:
            ks = sorted(int(v) for v in rng.integers(-64, 65, 3))
            if ks[0] < ks[1] < ks[2]:
                break
        e = int(rng.integers(-20, 21))
        roots = [math.ldexp(k, e - 3) for k in ks]
        c2_ = -(roots[0] + roots[1] + roots[2])
        c1 = roots[0] * roots[1] + roots[0] * roots[2] + roots[1] * roots[2]
        c0 = -roots[0] * roots[1] * roots[2]
        n, *got = points_ellipse.real_cubic_roots(c2_, c1, c0)
        assert n == 3, (roots, n)
        for x, r in zip(sorted(got), roots):
            assert abs(x - r) <= 4 * _root_error_bound(c2_, c1, c0, r), (roots, got)
        # (x - r)(x^2 + p x + q) with p^2 < 4 q: one real root
        r = math.ldexp(int(rng.integers(-64, 65)), e - 3)
        p = math.ldexp(int(rng.integers(-16, 17)), e - 3)
        q = math.ldexp(int(rng.integers(70, 200)), 2 * (e - 3))
        n, x0, x1, x2 = points_ellipse.real_cubic_roots(p - r, q - r * p, -r * q)
        assert n == 1 and x0 == x1 == x2, (r, p, q, n)
        assert abs(x0 - r) <= 4 * EPS * max(abs(r), math.sqrt(q)), (r, p, q, x0)
    # two roots 2^-34 to 2^-24 apart, where the cosine of the trigonometric form rounds to
    # 1 + 2^-52 or -1 - 2^-52 (and must be clamped); reference: 60-digit polyroots of the float
    # coefficients (these products round), within the same first-order bound
    for k0, k1, gap in ((17, -34, 2.0**-34), (-51, 51, 2.0**-26), (-57, 21, 2.0**-24), (-15, 61, 2.0**-29)):
        roots = [k0 / 8, k0 / 8 + gap, k1 / 8]
        c2_ = -(roots[0] + roots[1] + roots[2])
        c1 = roots[0] * roots[1] + roots[0] * roots[2] + roots[1] * roots[2]
        c0 = -roots[0] * roots[1] * roots[2]
        n, *got = points_ellipse.real_cubic_roots(c2_, c1, c0)
        with mp.workdps(60):
            want = sorted(float(mpm.re(z)) for z in mpm.polyroots([1, c2_, c1, c0], maxsteps=200, extraprec=200))
        assert n == 3, (roots, n)
        for x, r in zip(sorted(got), want):
            assert abs(x - r) <= 4 * _root_error_bound(c2_, c1, c0, r), (roots, got, want)


def test_dd_quotient_against_exact_rationals():
    """``points_ellipse._dd_quotient``: ``(v1 (x1 + x1l) + v2 (x2 + x2l)) / c`` as ``hi + lo`` (the
    offset of ``B``'s centre in ``A``'s frame, carried to double-double), against the exact
    rational value: within ``16 u^2`` of ``(|v1 x1| + |v2 x2|) / |c|`` (measured 5.4 on 2e4
    inputs; the products and sums are exact but for a few roundings of the low-order terms,
    each at most ``u`` of a term of size ``u`` times that magnitude)."""
    rng = np.random.default_rng(61)
    for _ in range(500):
        v1, x1, v2, x2 = (float(t) for t in rng.uniform(-2, 2, 4) * 2.0 ** rng.integers(-20, 20, 4))
        x1l = float(x1 * EPS * rng.uniform(-1, 1))
        x2l = float(x2 * EPS * rng.uniform(-1, 1))
        c = float(rng.uniform(0.1, 10))
        hi, lo = points_ellipse._dd_quotient(v1, x1, x1l, v2, x2, x2l, c)
        exact = (Fraction(v1) * (Fraction(x1) + Fraction(x1l)) + Fraction(v2) * (Fraction(x2) + Fraction(x2l))) / Fraction(c)
        magnitude = (abs(Fraction(v1) * Fraction(x1)) + abs(Fraction(v2) * Fraction(x2))) / Fraction(c)
        assert abs(Fraction(hi) + Fraction(lo) - exact) <= 16 * EPS * EPS * magnitude, (v1, x1, x1l, v2, x2, x2l, c)


@pytest.mark.parametrize("k", [3, 20, 27])
def test_crossings_by_sign_samples_an_unresolved_point_beside_the_foot(k):
    """``crossings_by_sign`` samples the level at every unresolved point, besides the foot and the
    extremum next to it (its docstring). A sliver of depth 1e-6 (a circle of radius 1/2 poking
    into the unit circle, about 1.6e-3 rad wide) lies inside the ``k``-th of the sample intervals,
    at 0.8 of it, where only the fourth unresolved point sees it: the foot is at 0.2 of the same
    interval, beyond the window of the extremum search (a quarter of an interval), the other
    unresolved points are far off. The two crossings are found (30-digit mpmath, from the stored
    centre; 1e-12, measured 5.3e-14: the curves cross at a small angle)."""
    step = 2 * math.pi / points_ellipse._SIGN_SAMPLES
    lo = -math.pi + k * step
    sliver, foot = lo + 0.8 * step, lo + 0.2 * step
    d = 1.5 - 1e-6
    a, b = c2.Circle((0.0, 0.0), 1.0), c2.Circle((d * math.cos(sliver), d * math.sin(sliver)), 0.5)
    p1, p2, r1, r2, sp, sr, g = points_ellipse.conic_in_frame(a._params, b._params)
    points = [v for t in (sliver + 1.0, sliver + 2.5, sliver - 2.0, sliver) for v in (math.cos(t), math.sin(t))]
    n, *xy = points_ellipse.crossings_by_sign(p1, p2, r1, r2, sp, sr, g, 0, 4, *points, math.cos(foot), math.sin(foot))
    assert n == 2
    cx, cy, r = (mpf(float(v)) for v in b._params[:3])
    centre = mpm.atan2(cy, cx)
    half = mpm.acos((1 + cx * cx + cy * cy - r * r) / (2 * mpm.sqrt(cx * cx + cy * cy)))
    want = sorted((float(mpm.cos(centre + s * half)), float(mpm.sin(centre + s * half))) for s in (-1, 1))
    got = sorted([(xy[0], xy[1]), (xy[2], xy[3])])
    for (x, y), (u, v) in zip(got, want):
        assert abs(x - u) <= 1e-12 and abs(y - v) <= 1e-12, (got, want)


def test_crossings_in_frame_count_each_point_once():
    """``crossings_in_frame`` puts the points whose polish residual is within ``tol`` first and the
    others after them, ``n_all`` in all: ``tol`` only orders the points. On pairs crossing at four
    points (a circle and ellipses through it) and at two, ``n_all`` and the set of points are the
    same for ``tol = 0`` (every point after), ``UNRESOLVED`` and ``inf`` (every point first), and
    ``n_all`` is the number of crossings of the 30-digit reference."""
    rng = np.random.default_rng(67)
    counts = []
    for k in range(40):
        a = c2.Ellipse(rng.uniform(-0.1, 0.1, 2), (rng.uniform(1.2, 2.0), rng.uniform(0.6, 0.9)), rng.uniform(0, 3))
        turn = rng.uniform(0, 2 * np.pi)
        offset = rng.uniform(0.0, 0.1) if k % 2 else rng.uniform(1.2, 1.8)  # 4 crossings, or 2
        b = c2.Circle((offset * math.cos(turn), offset * math.sin(turn)), 1.0)
        frame, other = (a, b) if _area(a) <= _area(b) else (b, a)
        want = len(_crossings(_ell(frame), _ell(other), imag_tol=mpf(10) ** -10, merge=mpf(10) ** -10))
        counts.append(want)
        args = points_ellipse.conic_in_frame(frame._params, other._params)
        sets = []
        for tol in (0.0, points_ellipse.UNRESOLVED, math.inf):
            n, *xy, _, _, _, n_all = points_ellipse.crossings_in_frame(*args, tol)
            assert n_all == want and n <= n_all, (k, tol, n, n_all, want)
            sets.append(sorted((xy[2 * i], xy[2 * i + 1]) for i in range(n_all)))
        assert sets[0] == sets[1] == sets[2], k
    assert counts.count(2) >= 10 and counts.count(4) >= 10


def test_tangent_points_in_frame_are_the_extremisers():
    """``points_ellipse.tangent_points_in_frame`` returns the global extremisers of ``q_B = |P X -
    s|^2`` on the unit circle, for any ``P, s`` (a tangent point when ``B`` touches the circle).

    One extremiser: random ``P, s``, the reference from 30-digit mpmath (the best of 120 samples,
    then ``findroot`` on ``dq/dt``); within 32 ulps (measured 15) and on the circle within 2 ulps
    (measured 1.5). Two (the symmetric case, ``P`` diagonal and ``s`` on the passive axis, with an
    axis gap ``|r2^2 - p1^2|`` below and above 1): ``(+-sqrt(1 - y^2), y)``, ``y = r2 s / gap``,
    within 4 ulps."""
    rng = np.random.default_rng(7)
    for k in range(32):
        size = 2.0 if k < 16 else 0.4  # B small in A's frame, or large: axis gaps above and below 1
        P = [float(v) for v in rng.uniform(-size, size, 4)]
        s = [float(v) for v in rng.uniform(-size, size, 2)]
        maximise = bool(k % 2)
        X, Y, _, _ = points_ellipse.tangent_points_in_frame(*P, *s, maximise, 1)
        p1, p2, r1, r2 = map(mpf, P)
        sp, sr = map(mpf, s)

        def q(t):
            return (p1 * mpm.cos(t) + p2 * mpm.sin(t) - sp) ** 2 + (r1 * mpm.cos(t) + r2 * mpm.sin(t) - sr) ** 2

        def dq(t):
            c, z = mpm.cos(t), mpm.sin(t)
            return (p1 * c + p2 * z - sp) * (p2 * c - p1 * z) + (r1 * c + r2 * z - sr) * (r2 * c - r1 * z)

        # q is a trigonometric polynomial of degree 2 (at most 4 stationary points): 120 samples
        # find the global extremum's basin
        ts = [2 * mpm.pi * i / 120 for i in range(120)]
        values = [q(t) for t in ts]
        best = (max if maximise else min)(range(120), key=values.__getitem__)
        t = mpm.findroot(dq, ts[best])
        assert float(mpm.hypot(X - mpm.cos(t), Y - mpm.sin(t))) <= 32 * EPS, (P, s, maximise, X, Y)
        assert abs(float(mpm.hypot(X, Y) - 1)) <= 2 * EPS
    for p1, r2, side in ((0.5, 0.9, 0.2), (0.5, 1.5, 0.75), (1.25, 0.375, -0.125), (0.25, 2.0, -1.5)):
        gap = abs(r2 * r2 - p1 * p1)
        # the axis of the larger |entry| is the one where the extremisers sit apart; the passive axis
        # carries s: minimise with s on the larger entry's axis, maximise with s on the smaller's
        if abs(p1) < abs(r2):
            got = points_ellipse.tangent_points_in_frame(p1, 0.0, 0.0, r2, 0.0, side, False, 2)
            y = mpf(r2) * mpf(side) / mpf(gap)
            want = [(mpm.sqrt(1 - y * y), y), (-mpm.sqrt(1 - y * y), y)]
        else:
            got = points_ellipse.tangent_points_in_frame(p1, 0.0, 0.0, r2, side, 0.0, False, 2)
            x = mpf(p1) * mpf(side) / mpf(gap)
            want = [(x, mpm.sqrt(1 - x * x)), (x, -mpm.sqrt(1 - x * x))]
        pairs = [(got[0], got[1]), (got[2], got[3])]
        for wx, wy in want:
            assert min(float(mpm.hypot(gx - wx, gy - wy)) for gx, gy in pairs) <= 4 * EPS, (p1, r2, side, got)


def _residual(shape, point):
    """Distance of the float ``point`` from the ellipse boundary, in ulps of its coordinate scale.

    ``|q - 1| / |grad q|`` evaluated in mpmath (first order in the distance, which is tiny here).
    """
    cx, cy, a, b, ux, uy = _ell(shape)
    x, y = mpf(float(point[0])), mpf(float(point[1]))
    u = (ux * (x - cx) + uy * (y - cy)) / a
    v = (ux * (y - cy) - uy * (x - cx)) / b
    gx, gy = 2 * (u * ux / a - v * uy / b), 2 * (u * uy / a + v * ux / b)
    distance = abs(u * u + v * v - 1) / mpm.sqrt(gx * gx + gy * gy)
    return float(distance / (EPS * max(abs(float(point[0])), abs(float(point[1])), float(a))))


def test_intersection_points_random_pairs_on_both_boundaries_and_counted():
    rng = np.random.default_rng(9)
    checked = 0
    while checked < 25:
        a, b = _random_ellipse(rng), _random_ellipse(rng)
        if c2.relate(a, b) != c2.Relation.OVERLAPPING:
            continue
        checked += 1
        points = intersection_points(a, b)
        assert points.shape in ((2, 2), (4, 2))
        assert len(points) == len(_crossings(_ell(a), _ell(b)))
        for p in points:
            assert _residual(a, p) <= RESIDUAL_ULPS and _residual(b, p) <= RESIDUAL_ULPS
        swapped = intersection_points(b, a)
        assert len(swapped) == len(points)
        for p in points:  # the same set, whatever the order
            assert np.min(np.hypot(*(swapped - p).T)) <= 1e-13 * max(1.0, np.abs(p).max())


@pytest.mark.parametrize("direction", [(0.6, 0.8), (3.0, 4.0), (-5.0, 12.0), (0.25, -0.125)], ids=str)
def test_intersection_points_with_stored_directions_of_any_length(direction):
    """An ellipse's stored direction is used exactly, whatever its length, also when a component
    equals a semi-axis (here ``a = |w_x|``): the crossing points of a circle and the ellipse with
    semi-axes ``|w_x|``, ``|w_x| / 2`` about (0.3, 0.1) lie on both boundaries, as many as the
    reference finds, both orders (30-digit residuals)."""
    a = abs(direction[0])
    ellipse = c2.Ellipse((0.3, 0.1), (a, 0.5 * a), direction=direction)
    circle = c2.Circle((0.3 + 0.7 * a, 0.1), 0.8 * a)
    assert c2.relate(circle, ellipse) == c2.Relation.OVERLAPPING
    for first, second in ((circle, ellipse), (ellipse, circle)):
        points = intersection_points(first, second)
        assert len(points) == len(_crossings(_ell(first), _ell(second)))
        for p in points:
            assert _residual(first, p) <= RESIDUAL_ULPS and _residual(second, p) <= RESIDUAL_ULPS


def test_intersection_points_gte_case():
    points = intersection_points(c2.Circle((0, 0), 1), c2.Ellipse((0, 1), (0.5, 1)))
    # 4x^2 + (y - 1)^2 = 1 and x^2 + y^2 = 1: 3 y^2 + 2 y - 4 = 0 -> y = (sqrt(13) - 1) / 3
    y = (math.sqrt(13) - 1) / 3
    expected = np.array([[-math.sqrt(1 - y * y), y], [math.sqrt(1 - y * y), y]])
    np.testing.assert_allclose(points[np.argsort(points[:, 0])], expected, rtol=0, atol=4 * EPS)


_TANGENT_CASES = {
    # name: (a, b, expected points) -- each tangency reported once
    "circles-external": (c2.Circle((0, 0), 1), c2.Circle((2, 0), 1), [(1, 0)]),
    "ellipses-vertex-to-vertex": (c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((3, 0), (1, 3)), [(2, 0)]),
    "rotated-external": (c2.Ellipse((0, 0), (2, 1), math.pi / 2), c2.Ellipse((0, 3), (2, 1)), [(0, 2)]),
    "circle-in-ellipse-two-points": (c2.Ellipse((0, 0), (2, 1)), c2.Circle((0, 0), 1), [(0, 1), (0, -1)]),
    "circle-in-circle": (c2.Circle((0, 0), 1), c2.Circle((0.5, 0), 0.5), [(1, 0)]),
    "ellipse-in-ellipse-at-vertex": (c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((1, 0), (1, 0.5)), [(2, 0)]),
    "osculating-circle": (c2.Ellipse((0, 0), (2, 1)), c2.Circle((1.5, 0), 0.5), [(2, 0)]),
    "strictly-nested": (c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((0, 0), (1, 0.5), 0.3), []),
    "disjoint": (c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((5, 0), (1, 0.5), 0.3), []),
    "equal": (c2.Ellipse((0, 0), (2, 1), 0.5), c2.Ellipse((0, 0), (2, 1), 0.5), []),  # no finite set
}


@pytest.mark.parametrize("name", list(_TANGENT_CASES))
def test_intersection_points_tangent_and_degenerate_cases(name):
    a, b, expected = _TANGENT_CASES[name]
    expected = np.array(expected, dtype=float).reshape(-1, 2)
    for first, second in ((a, b), (b, a)):
        points = intersection_points(first, second)
        assert points.shape == expected.shape
        key = np.lexsort(points.T)
        np.testing.assert_allclose(points[key], expected[np.lexsort(expected.T)], rtol=0, atol=8 * EPS)


_TANGENT_AND_CROSSINGS = dict(TANGENT_AND_CROSSINGS)  # and the turned ones below (the area tests take the four)
_TANGENT_POINT = {
    "circle-right": (2, 0),
    "circle-left": (-2, 0),
    "big-circle-top": (0, 1),
    "big-circle-bottom": (0, -1),
}
# the same kind turned by Pythagorean directions (exact): an ellipse 2k x k and a circle of radius
# k about k u, u = (3, 4) / 5 or (5, 12) / 13, touching at 2 k u and crossing twice
for _d, _k in (((3, 4), 5), ((-4, 3), 5), ((5, 12), 13), ((12, -5), 13)):
    _TANGENT_AND_CROSSINGS[f"turned-{_d[0]}-{_d[1]}"] = (c2.Ellipse((0, 0), (2 * _k, _k), direction=_d), c2.Circle(_d, _k))
    _TANGENT_POINT[f"turned-{_d[0]}-{_d[1]}"] = (2 * _d[0], 2 * _d[1])


@pytest.mark.parametrize("name", list(_TANGENT_AND_CROSSINGS))
def test_intersection_points_two_crossings_and_a_tangent_point(name):
    # Exact kind 3: the tangent point once (exact here), the two crossings, all on both boundaries.
    a, b = _TANGENT_AND_CROSSINGS[name]
    tangent = np.array(_TANGENT_POINT[name], dtype=float)
    scale = np.abs(tangent).max()
    assert len(_crossings(_ell(a), _ell(b), imag_tol=mpf(10) ** -10, merge=mpf(10) ** -10)) == 3
    for first, second in ((a, b), (b, a)):
        points = intersection_points(first, second)
        assert points.shape == (3, 2)
        assert np.count_nonzero(np.hypot(*(points - tangent).T) <= 4 * EPS * scale) == 1
        for p in points:
            assert _residual(a, p) <= RESIDUAL_ULPS and _residual(b, p) <= RESIDUAL_ULPS


@pytest.mark.parametrize("ulps", [1, -1])
@pytest.mark.parametrize("turn", [((1, 0), 1), ((3, 4), 5), ((-4, 3), 5), ((5, 12), 13)], ids=str)
def test_intersection_points_near_miss_beside_two_crossings(turn, ulps):
    # The circle touching the ellipse at 2 k u (as above) grown or shrunk by one ulp of its
    # radius: the tangency becomes a near miss (2 crossings) or a pair of crossings ~1e-8 apart
    # (4), which the 30-digit reference counts; a pair found by rounding where none exists is
    # dropped.
    d, k = turn
    a = c2.Ellipse((0, 0), (2 * k, k), direction=d)
    b = c2.Circle(d, k * (1 + ulps * 2.0**-52))
    count = len(_crossings(_ell(a), _ell(b)))
    assert count in (2, 4)
    for first, second in ((a, b), (b, a)):
        points = intersection_points(first, second)
        assert len(points) == count
        for p in points:
            assert _residual(a, p) <= RESIDUAL_ULPS and _residual(b, p) <= RESIDUAL_ULPS


# The circle of curvature of x^2/45^2 + y^2/80^2 = 1 at (27, 64) (eccentric angle with cos 3/5,
# sin 4/5: centre ((a^2 - b^2)/a cos^3, (b^2 - a^2)/b sin^3) = (-21, 28), radius
# (a^2 sin^2 + b^2 cos^2)^(3/2) / (a b) = 60), all exact: a contact of order 3 away from the axes
# plus one simple crossing. Mirrored by the signs sx, sy, scaled by |u| and turned to the integer
# direction u, so that every stored number stays an integer.
_OSCULATING_TURNS = [(1, 0), (3, 4), (5, 12), (-4, 3), (12, -5)]


def _osculating_pair(sx, sy, direction=(1, 0)):
    """The pair ``(ellipse, circle)`` and its two meeting points ``(contact, crossing)`` (floats).

    The points come from Fractions: on the ellipse's rational parametrisation
    ``(a (1 - t^2), 2 b t) / (1 + t^2)`` the circle is a quartic in ``t`` with the triple root
    ``t0`` of the contact (checked), and the crossing is its fourth root (the sum of the roots).
    """
    ux, uy = direction
    k = math.isqrt(ux * ux + uy * uy)
    assert k * k == ux * ux + uy * uy
    a, b, radius = 45 * k, 80 * k, 60 * k
    ox, oy = -21 * k * sx, 28 * k * sy  # the circle's centre in the ellipse's axes

    def world(x, y):
        return np.array([float((x * ux - y * uy) / k), float((x * uy + y * ux) / k)])

    # (a (1 - t^2) - ox (1 + t^2))^2 + (2 b t - oy (1 + t^2))^2 - radius^2 (1 + t^2)^2, by powers of t
    f = [a - ox, 0, -a - ox]  # x (1 + t^2): constant, t, t^2
    h = [-oy, 2 * b, -oy]
    w = [1, 0, 1]
    quartic = [Fraction(0)] * 5
    for i in range(3):
        for j in range(3):
            quartic[i + j] += f[i] * f[j] + h[i] * h[j] - radius * radius * w[i] * w[j]
    t0 = Fraction(4 * sy, 5 + 3 * sx)  # tan of half the eccentric angle of (27 sx, 64 sy)
    for order in range(3):  # t0 is a root of the quartic and of its first two derivatives
        assert sum(c * math.perm(i, order) * t0 ** (i - order) for i, c in enumerate(quartic) if i >= order) == 0
    assert quartic[4] != 0
    t1 = -quartic[3] / quartic[4] - 3 * t0

    def on_ellipse(t):
        return world(a * (1 - t * t) / (1 + t * t), 2 * b * t / (1 + t * t))

    ellipse = c2.Ellipse((0, 0), (a, b), direction=direction)
    circle = c2.Circle(tuple(world(ox, oy)), radius)
    return ellipse, circle, on_ellipse(t0), on_ellipse(t1)


def _check_order_three_points(points, a, contact, crossing):
    assert len(points) == 2  # the contact point once, the crossing
    scale = float(max(a._params[2:4]))
    order = np.argsort(np.hypot(*(points - contact).T))
    # the pencil resolves an order-3 contact only to ~eps^(1/3); the points are polished
    assert np.hypot(*(points[order[0]] - contact)) <= 4 * EPS * scale
    assert np.hypot(*(points[order[1]] - crossing)) <= 8 * EPS * scale


@pytest.mark.parametrize("direction", _OSCULATING_TURNS)
@pytest.mark.parametrize("sy", [1, -1])
@pytest.mark.parametrize("sx", [1, -1])
def test_intersection_points_contact_of_order_three(sx, sy, direction):
    # the kernel once took the last point found as the contact: right above the x axis, where the
    # points come out crossing first, but below it the contact point came out 2.5e-4 off and the
    # "crossing" at (-34.4, 51.7), on the ellipse but 21 off the circle
    a, b, contact, crossing = _osculating_pair(sx, sy, direction)
    for first, second in ((a, b), (b, a)):
        points = intersection_points(first, second)
        _check_order_three_points(points, a, contact, crossing)
        for p in points:
            assert _residual(a, p) <= RESIDUAL_ULPS and _residual(b, p) <= RESIDUAL_ULPS


def test_intersection_points_contact_of_order_three_batched():
    cases = [_osculating_pair(sx, sy, u) for sx in (1, -1) for sy in (1, -1) for u in _OSCULATING_TURNS]
    ellipses = c2.Ellipse([(0, 0)] * len(cases), [tuple(e._params[2:4]) for e, _, _, _ in cases],
                          direction=[tuple(e._params[4:6]) for e, _, _, _ in cases])
    circles = c2.Circle([tuple(c._params[0:2]) for _, c, _, _ in cases], [float(c._params[2]) for _, c, _, _ in cases])
    for first, second in ((ellipses, circles), (circles, ellipses)):
        points, count = intersection_points(first, second)
        assert count.tolist() == [2] * len(cases)
        for k, (a, _, contact, crossing) in enumerate(cases):
            _check_order_three_points(points[k, :2], a, contact, crossing)


def test_intersection_points_internal_contact_uses_exact_count():
    c2.exact_fallback_counts(reset=True)
    intersection_points(c2.Ellipse((0, 0), (2, 1)), c2.Circle((0, 0), 1))
    assert c2.exact_fallback_counts().get("contact_count_ellipse_ellipse", 0) == 1
    # strictly nested pairs settled by the float filter do not reach the rational path
    c2.exact_fallback_counts(reset=True)
    intersection_points(c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((0.1, 0), (1, 0.5), 0.3))
    assert "contact_count_ellipse_ellipse" not in c2.exact_fallback_counts()


@pytest.mark.parametrize("inner", ["circle", "ellipse"])
def test_intersection_points_nested_ulps_from_internal_tangency(inner):
    """Inside the ellipse (2, 1) and touching it at (0, 1) from within: the circle of radius 1/2
    about (0, 1/2), or the ellipse (1/2, 3/4) about (0, 1/4). One ulp smaller (or its centre one
    ulp lower) the pair is strictly nested (exact relation CONTAINS) and has no boundary point,
    although only the exact contact count can tell (the float filter cannot); touching (CONTAINS
    too), it has exactly (0, 1). Both orders."""
    outer = c2.Ellipse((0, 0), (2, 1))
    if inner == "circle":
        touching = c2.Circle((0, 0.5), 0.5)
        nested = [c2.Circle((0, 0.5), 0.5 - 2.0**-54), c2.Circle((0, 0.5 - 2.0**-54), 0.5)]
    else:
        touching = c2.Ellipse((0, 0.25), (0.5, 0.75))
        nested = [c2.Ellipse((0, 0.25), (0.5, 0.75 - 2.0**-53)), c2.Ellipse((0, 0.25 - 2.0**-54), (0.5, 0.75))]
    for shape in nested:
        assert c2.relate(outer, shape) == c2.Relation.CONTAINS
        assert intersection_points(outer, shape).shape == (0, 2)
        assert intersection_points(shape, outer).shape == (0, 2)
    assert c2.relate(outer, touching) == c2.Relation.CONTAINS  # boundaries meet, interiors nested
    np.testing.assert_array_equal(intersection_points(outer, touching), [[0.0, 1.0]])
    np.testing.assert_array_equal(intersection_points(touching, outer), [[0.0, 1.0]])


def test_intersection_points_near_tangent_pair_is_two_crossings():
    # 1e-9 past external tangency the lens has two distinct crossings about sqrt(1e-9) apart.
    a, b = c2.Circle((0, 0), 1), c2.Circle((2 - 1e-9, 0), 1)
    points = intersection_points(a, b)
    assert len(points) == 2
    half = math.sqrt(1 - (1 - 0.5e-9) ** 2)
    np.testing.assert_allclose(np.sort(points[:, 1]), [-half, half], rtol=1e-7)


def _straight_pieces(shape):
    """``[(p, q, bounded)]``: the straight pieces of a flat shape's outline from its stored numbers."""
    if shape._kind == "line":
        px, py, dx, dy = map(float, shape._params)
        return [((px, py), (px + dx, py + dy), False)]
    if shape._kind == "segment":
        x0, y0, x1, y1 = map(float, shape._params)
        return [((x0, y0), (x1, y1), True)]
    corners = [tuple(map(float, v)) for v in shape._verts]
    return [(corners[k], corners[(k + 1) % len(corners)], True) for k in range(len(corners))]


def _flat_crossings(ellipse, shape):
    """mpmath reference: the points where the ellipse boundary meets the straight pieces of ``shape``.

    On each piece ``p + t (q - p)`` the ellipse's ``q_E = 1`` is a quadratic in ``t``, solved in
    30 digits; roots outside ``[0, 1]`` of a bounded piece are dropped (beyond its 30-digit
    rounding: an end on the boundary is a root at 0 or 1), and a corner met from both of its sides
    counts once.
    """
    E = _ell(ellipse)
    found = []
    for (px, py), (qx, qy), bounded in _straight_pieces(shape):
        px, py, dx, dy = mpf(px), mpf(py), mpf(qx) - mpf(px), mpf(qy) - mpf(py)
        c0 = _q(E, px, py) - 1
        c1 = _q(E, px + dx, py + dy) - 1
        cm = _q(E, px - dx, py - dy) - 1
        qa, qb = (c1 + cm) / 2 - c0, (c1 - cm) / 2  # q_E(p + t d) - 1 = qa t^2 + qb t + c0
        disc = qb * qb - 4 * qa * c0
        if disc < 0:
            continue
        for t in {(-qb - mpm.sqrt(disc)) / (2 * qa), (-qb + mpm.sqrt(disc)) / (2 * qa)}:
            if bounded and not -mpf(10) ** -25 <= t <= 1 + mpf(10) ** -25:  # an end on the boundary
                continue  # may come out a 30-digit rounding outside [0, 1]
            t = min(max(t, mpf(0)), mpf(1)) if bounded else t
            x, y = px + t * dx, py + t * dy
            if all(abs(x - fx) + abs(y - fy) > mpf(10) ** -25 for fx, fy in found):
                found.append((x, y))
    return found


def _distance_to_outline(shape, point):
    """mpmath distance of a float point from the straight outline of a flat shape."""
    x, y = mpf(float(point[0])), mpf(float(point[1]))
    best = None
    for (px, py), (qx, qy), bounded in _straight_pieces(shape):
        px, py, dx, dy = mpf(px), mpf(py), mpf(qx) - mpf(px), mpf(qy) - mpf(py)
        t = ((x - px) * dx + (y - py) * dy) / (dx * dx + dy * dy)
        if bounded:
            t = min(max(t, mpf(0)), mpf(1))
        d = mpm.hypot(x - px - t * dx, y - py - t * dy)
        best = d if best is None else min(best, d)
    return best


def test_intersection_points_ellipse_with_flat_kinds_lie_on_both():
    rng = np.random.default_rng(4)
    seen = {"line": 0, "segment": 0, "polygon": 0}
    for _ in range(30):
        e = _random_ellipse(rng)
        line = c2.Line(rng.normal(size=2) * 0.5, rng.normal(size=2))
        seg = c2.Segment(rng.normal(size=2), rng.normal(size=2) * 2)
        box = c2.RotatedBox(rng.normal(size=2) * 0.5, rng.uniform(0.2, 1.5, 2), rng.uniform(0, 6))
        for other in (line, seg, box):
            points = intersection_points(e, other)
            assert np.array_equal(points, intersection_points(other, e))
            want = _flat_crossings(e, other)
            assert len(points) == len(want), (e, other, points, want)
            seen[other._kind] += len(want)
            for p in points:
                assert _residual(e, p) <= RESIDUAL_ULPS
                scale = max(abs(float(p[0])), abs(float(p[1])), 1.0)
                assert _distance_to_outline(other, p) <= RESIDUAL_ULPS * EPS * scale
                # and it is one of the reference points (crossings here are far from tangent)
                assert min(abs(float(p[0] - x)) + abs(float(p[1] - y)) for x, y in want) <= 1e-9 * scale
            assert len(points) == 0 or c2.intersects(e, other)
    assert min(seen.values()) >= 10, seen  # the random pairs do cross, for each kind
    assert intersection_points(c2.Ellipse((0, 0), (2, 1)), c2.Line((0, 1), (1, 0))).tolist() == [[0.0, 1.0]]
    assert intersection_points(c2.Ellipse((0, 0), (2, 1)), c2.Segment((2, 0), (3, 0))).tolist() == [[2.0, 0.0]]
    assert intersection_points(c2.Ellipse((0, 0), (2, 1)), c2.Point((0, -1))).tolist() == [[0.0, -1.0]]
    assert intersection_points(c2.Circle((0, 0), 1), c2.Box((-1, -1), (1, 1))).shape == (4, 2)


@pytest.mark.parametrize(
    "other",
    [
        c2.Segment((0, 0), (2, 0)),  # from inside to a boundary point
        c2.Segment((2, 0), (0, 0)),  # the same, reversed
        c2.Segment((-3, 0), (2, 0)),  # from outside, through the ellipse, ending on its boundary
        c2.Segment((2, 0), (-3, 0)),
        c2.Segment((-3, 0.5), (2, 0)),  # from outside, dipping in, to a boundary point
        c2.Segment((-3, 1), (3, 1)),  # tangent, ends outside
        c2.Segment((-3, 1), (0, 1)),  # from outside to the tangent point (a double root at the end)
        c2.Segment((3, 0), (2, 0)),  # from outside to a boundary point, the line's other root behind
        c2.Segment((-10, 0), (-2, 0)),  # the other root beyond the end, at parameter 1.5
        c2.Segment((-2, 0), (2, 0)),  # a chord: both ends on the boundary
        c2.Line((-2, 0), (4, 1)),  # a line through a boundary point
        c2.Polygon([(2, 0), (0, 1), (-2, 0)]),  # inscribed: corners on the boundary, edges inside
        c2.Polygon([(2, 0), (0, 1), (-3, -1)]),  # two corners on the boundary, one outside
        c2.Box((-2, -1), (2, 1)),  # circumscribed: each side tangent
        c2.Point((0, -1)),
    ],
    ids=lambda shape: repr(shape)[:40],
)
def test_intersection_points_ellipse_with_ends_on_the_boundary(other):
    # end points and corners exactly on the ellipse (0, 0), (2, 1), where the kernels take their
    # boundary branches; the count and the points against the mpmath reference, both orders
    e = c2.Ellipse((0, 0), (2, 1))
    if other._kind == "point":  # the point itself when it lies on the ellipse
        x, y = (mpf(float(v)) for v in other._params)
        want = [(x, y)] if _q(_ell(e), x, y) == 1 else []
    else:
        want = _flat_crossings(e, other)
    for points in (intersection_points(e, other), intersection_points(other, e)):
        assert len(points) == len(want), (points, want)
        for p in points:
            assert min(abs(float(p[0] - x)) + abs(float(p[1] - y)) for x, y in want) <= 8 * EPS * 3
    _, count = intersection_points(c2.Ellipse([(0, 0)], [(2, 1)]), other)  # a batch of one: the loops
    assert count.tolist() == [len(want)]


@pytest.mark.parametrize(
    "other",
    [
        c2.Segment((0, 0), (3, 2)),  # from inside to a boundary point off the axes
        c2.Segment((3, 2), (0, 0)),
        c2.Segment((6, 4), (3, 2)),  # from outside to it
        c2.Segment((3, 2), (-4, -1.5)),  # a chord between two such points
        c2.Segment((-4, 1.5), (3, 2)),
        c2.Polygon([(3, 2), (-4, 1.5), (-3, -2), (4, -1.5)]),  # inscribed, corners off the axes
        c2.Polygon([(3, 2), (-4, 1.5), (0, -5)]),  # two corners on the boundary, one outside
    ],
    ids=lambda shape: repr(shape)[:48],
)
def test_intersection_points_ellipse_with_ends_on_the_boundary_off_the_axes(other):
    # the ellipse (5, 2.5) passes exactly through (3, 2), (-4, 1.5), (-3, -2), (4, -1.5) (3-4-5
    # triangles), where the certified sign of an end point cannot be decided in floats: the end
    # points are reported as themselves, as many as the mpmath reference finds, both orders
    e = c2.Ellipse((0, 0), (5, 2.5))
    want = _flat_crossings(e, other)
    for points in (intersection_points(e, other), intersection_points(other, e)):
        assert len(points) == len(want), (points, want)
        for p in points:
            assert min(abs(float(p[0] - x)) + abs(float(p[1] - y)) for x, y in want) <= 8 * EPS * 5


def test_intersection_points_batches():
    circle = c2.Circle((0, 0), 1)
    others = c2.Circle([(1, 0), (2, 0), (5, 0), (0, 0)], [1, 1, 1, 1])
    points, count = intersection_points(circle, others)
    assert points.shape == (4, 4, 2) and count.dtype == np.int64
    assert count.tolist() == [2, 1, 0, 0]
    assert np.isnan(points[0, 2:]).all() and np.isnan(points[2]).all()
    for k in range(4):
        np.testing.assert_array_equal(points[k, : count[k]], intersection_points(circle, others[k]))
    boxes = c2.Polygon([[(0, 0), (2, 0), (2, 2), (0, 2)], [(0, 0), (3, 0), (3, 3), (0, 3)]])
    points, count = intersection_points(boxes, c2.Ellipse((2, 1), (1, 0.5)))
    assert points.shape == (2, 8, 2) and count.tolist() == [2, 1]  # tangent to the side x = 3
    nested = c2.Ellipse((0, 0), (2, 1)), c2.Circle([(0, 0), (1.5, 0), (0.5, 0)], [1, 0.5, 0.5])
    points, count = intersection_points(*nested)  # exact contact counts inside a batch
    assert count.tolist() == [2, 1, 0]  # two tangencies, osculating at (2, 0), strictly inside
    np.testing.assert_allclose(points[1, 0], [2.0, 0.0], rtol=0, atol=8 * EPS)


def test_overlay_rejects_non_shapes():
    for function in (intersection_points, overlap_area, iou):
        with pytest.raises(TypeError, match="^a must"):
            function((0, 0), c2.Circle((0, 0), 1))
        with pytest.raises(TypeError, match="^b must"):
            function(c2.Circle((0, 0), 1), "circle")


@pytest.mark.skipif(JIT_DISABLED, reason="NUMBA_DISABLE_JIT is set: kernels are plain Python, no py_func to compare")
def test_kernels_run_as_python():
    # The uncompiled kernels (Numba keeps the Python original) give the same numbers.
    a = c2.Circle((0, 0), 1)._params
    b = c2.Ellipse((0, 1), (0.5, 1))._params
    empty = np.zeros((0, 2))
    compiled = area_ellipse.area_ellipse_ellipse(a, empty, b, empty, codes.OVERLAPPING)
    python = area_ellipse.area_ellipse_ellipse.py_func(a, empty, b, empty, codes.OVERLAPPING)
    assert compiled == python
    out_c, out_p = np.full((4, 2), np.nan), np.full((4, 2), np.nan)
    n_c = points_ellipse.points_ellipse_ellipse(a, empty, b, empty, codes.OVERLAPPING, out_c)
    n_p = points_ellipse.points_ellipse_ellipse.py_func(a, empty, b, empty, codes.OVERLAPPING, out_p)
    assert n_c == n_p == 2
    np.testing.assert_array_equal(out_c, out_p)
