"""Overlap area and IoU with ellipses (``collide2d.overlay``) against the 30-digit mpmath references
of ``overlay_references.py`` (two methods that agree to ~1e-25: the polygon of the crossing points
plus the ellipse segments between them, and quadrature of the chord overlap). Intersection points
are in ``test_overlay_ellipse_points.py``.
"""

from __future__ import annotations

import math

import mpmath as mpm
import numpy as np
import pytest
import shapely
from mpmath import mpf
from overlay_references import (  # noqa: F401 - _mp_precision: the autouse fixture of the references' precision
    AREA_RTOL, EPS, GTE_AREA_TEXT, TANGENT_AND_CROSSINGS, _area, _crossings, _ell, _mp_precision, _random_ellipse, _tangent_offset,
    ref_area_ellipse_polygon, ref_area_quadrature, ref_area_segments,
)

import collide2d as c2
from collide2d._kernels.overlay import area_ellipse
from collide2d._kernels.overlay import points_ellipse
from collide2d.overlay import iou, overlap_area


# -- the reference itself --------------------------------------------------------------------------------


def test_reference_methods_agree():
    # The two oracles share only the crossing points (used as break points by the quadrature).
    rng = np.random.default_rng(11)
    cases = [(c2.Circle((0, 0), 1), c2.Ellipse((0, 1), (0.5, 1)))]
    cases.append((c2.Ellipse((0, 0), (2, 0.5)), c2.Ellipse((0.1, 0.05), (0.6, 1.8), 0.2)))  # four points
    while len(cases) < 4:
        a, b = _random_ellipse(rng), _random_ellipse(rng)
        if c2.relate(a, b) == c2.Relation.OVERLAPPING:
            cases.append((a, b))
    for a, b in cases:
        seg, quad = ref_area_segments(a, b), ref_area_quadrature(a, b)
        assert abs(seg - quad) < mpf(10) ** -25 * _area(a)
    assert abs(ref_area_segments(*cases[0]) - mpf(GTE_AREA_TEXT)) < mpf(10) ** -28


# -- overlap area: ellipse against ellipse -----------------------------------------------------------------


def test_overlap_area_gte_reference_value():
    # Test 1 (Geometric Tools' unit test): unit circle against 4x^2 + (y - 1)^2 = 1.
    circle, ellipse = c2.Circle((0, 0), 1), c2.Ellipse((0, 1), (0.5, 1))
    for a, b in ((circle, ellipse), (ellipse, circle)):
        value = overlap_area(a, b)
        assert isinstance(value, float)
        assert abs(value - float(GTE_AREA_TEXT)) <= 2 * EPS * float(GTE_AREA_TEXT)


def test_overlap_area_random_pairs_match_reference():
    rng = np.random.default_rng(3)
    checked = 0
    while checked < 20:
        a, b = _random_ellipse(rng), _random_ellipse(rng)
        if c2.relate(a, b) != c2.Relation.OVERLAPPING:
            continue
        checked += 1
        ref = ref_area_segments(a, b)
        small = min(_area(a), _area(b))
        assert abs(overlap_area(a, b) - ref) <= AREA_RTOL * small
        assert abs(overlap_area(b, a) - ref) <= AREA_RTOL * small


_A = c2.Ellipse((0.1, -0.2), (2, 1), 0.3)
_HARD_CASES = {
    "four-points": (c2.Ellipse((0, 0), (2, 0.5)), c2.Ellipse((0.1, 0.05), (0.6, 1.8), 0.2)),
    "thin-1e-4-cross": (c2.Ellipse((0, 0), (1, 1e-4)), c2.Ellipse((0.3, 0), (0.5, 0.5e-4), 0.7)),
    "thin-1e-6-circle": (c2.Ellipse((0, 0), (1, 1e-6), 0.2), c2.Circle((0.9, 0.1), 0.3)),
    "huge-offset": (
        c2.Ellipse((1e6, -1e6), (2, 1), 0.3),
        c2.Ellipse((1e6 + 1.2, -1e6 + 0.4), (1.5, 0.4), 1.1),
    ),
    "tiny": (c2.Ellipse((0, 0), (2e-6, 1e-6), 0.3), c2.Ellipse((1.2e-6, 0.4e-6), (1.5e-6, 0.4e-6), 1.1)),
    "near-identical-rotation-1e-6": (_A, c2.Ellipse((0.1, -0.2), (2, 1), 0.3 + 1e-6)),
    "near-identical-rotation-1e-12": (_A, c2.Ellipse((0.1, -0.2), (2, 1), 0.3 + 1e-12)),
    "near-identical-shift-1e-9": (_A, c2.Ellipse((0.1 + 1e-9, -0.2), (2, 1 + 1e-9), 0.3)),
    "circle-vs-nearly-circular-ellipse": (c2.Circle((0, 0), 1), c2.Ellipse((0, 0), (1 - 1e-9, 1 + 1e-9), 0.4)),
}


@pytest.mark.parametrize("name", list(_HARD_CASES))
def test_overlap_area_hard_cases_match_reference(name):
    a, b = _HARD_CASES[name]
    assert c2.relate(a, b) == c2.Relation.OVERLAPPING
    ref = ref_area_segments(a, b)
    assert abs(overlap_area(a, b) - ref) <= AREA_RTOL * min(_area(a), _area(b))


@pytest.mark.parametrize("depth", [1e-2, 1e-5, 1e-8, 1e-11])
def test_overlap_area_external_sliver(depth):
    # Lens of two ellipses pushed depth past external tangency. Its area ~ depth^1.5 is
    # ill-conditioned in the inputs: rounding the inputs by eps R moves it by (3/2) I eps R / depth,
    # so the bound is relative error <= 16 eps R / depth (measured: ~1.5 eps R / depth at most
    # depths; 8.3 eps R / depth at depth 1e-8 once the angle 1.1 is stored as given rather than
    # rounded to a 2**-40 rad grid, a different pair).
    # Circles have exact frames and stay within a few ulps whatever the depth.
    d = np.array([math.cos(0.7), math.sin(0.7)])

    def make(t):
        return _A, c2.Ellipse(tuple(np.array([0.1, -0.2]) + t * d), (1.5, 0.4), 1.1)

    a, b = make(_tangent_offset(make, 0.0, 10.0) - depth)
    ref = ref_area_segments(a, b)
    assert ref > 0
    assert abs(overlap_area(a, b) - ref) <= max(16 * EPS * 2 / depth, AREA_RTOL) * ref
    circle_a, circle_b = c2.Circle((0, 0), 1), c2.Circle((2 - depth, 0), 1)
    ref = ref_area_segments(circle_a, circle_b)
    assert abs(overlap_area(circle_a, circle_b) - ref) <= 8 * EPS * ref


@pytest.mark.parametrize("depth", [1e-2, 1e-6, 1e-10])
def test_overlap_area_internal_poke_out(depth):
    # b just pokes out of a after internal tangency: the area is area(b) minus a sliver.
    d = np.array([math.cos(0.7), math.sin(0.7)])

    def make(t):
        return _A, c2.Ellipse(tuple(np.array([0.1, -0.2]) + t * d), (0.9, 0.3), 1.1)

    a, b = make(_tangent_offset(make, 0.0, 3.0, inside_code=c2.Relation.CONTAINS) + depth)
    assert c2.relate(a, b) == c2.Relation.OVERLAPPING
    ref = ref_area_segments(a, b)
    assert abs(overlap_area(a, b) - ref) <= AREA_RTOL * _area(b)


@pytest.mark.parametrize("other", ["ellipse", "rotated-box"])
@pytest.mark.parametrize("nested", [False, True], ids=["external", "internal"])
def test_overlap_area_within_rounding_of_tangency(nested, other):
    # Regression: a few ulps past tangency the two crossing points coincide within rounding, their
    # order along the curves is noise and so is the normal orientation there. Before the midpoint
    # fallback of overlap_in_frame, an ellipse poking out of another by 1e-16 got area 0 and a
    # lens of depth 1e-16 the whole smaller ellipse. Steps of 1e-16 across the exact transition.
    rng = np.random.default_rng(77 if other == "ellipse" else 78)
    for _ in range(6):
        a = _random_ellipse(rng, 0.0)
        angle = rng.uniform(0, 2 * np.pi)
        d = np.array([math.cos(angle), math.sin(angle)])
        sizes, theta, c0 = rng.uniform(0.05, 1.0, 2), rng.uniform(0, 2 * np.pi), np.array(a._params[:2])
        if nested:
            sizes = sizes * 0.3 if other == "ellipse" else sizes + 1.2 * (a._params[2] + a._params[3])
        if other == "ellipse":
            make = lambda t: (a, c2.Ellipse(tuple(c0 + t * d), tuple(sizes), theta))  # noqa: E731
        else:
            make = lambda t: (a, c2.RotatedBox(tuple(c0 + t * d), tuple(sizes), theta))  # noqa: E731
        start = c2.relate(*make(0.0))
        if nested and start not in (c2.Relation.CONTAINS, c2.Relation.WITHIN):
            continue
        t0 = _tangent_offset(make, 0.0, 20.0, inside_code=start if nested else None)
        small = min(_area(a), math.pi * sizes[0] * sizes[1] if other == "ellipse" else 4 * sizes[0] * sizes[1])
        for k in range(-12, 13, 2):
            pair = make(t0 + k * 1e-16 * max(1.0, t0))
            value = overlap_area(*pair)
            if nested:
                assert abs(value - small) <= 1e-12 * small
            else:
                assert value <= 1e-12 * small


def test_overlap_area_relation_cases_are_exact():
    big, small = c2.Ellipse((0, 0), (2, 1), 0.3), c2.Ellipse((0.1, 0), (0.5, 0.2), 1.0)
    assert overlap_area(big, small) == overlap_area(small, big) == _area(small)  # containment
    assert overlap_area(c2.Circle((0, 0), 1), c2.Circle((2, 0), 1)) == 0.0  # touching
    assert overlap_area(c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((3, 0), (1, 3))) == 0.0  # vertex to vertex
    assert overlap_area(c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((5, 0), (1, 3))) == 0.0
    assert overlap_area(c2.Ellipse((0, 0), (2, 1)), c2.Circle((0, 0), 1)) == math.pi  # internally tangent
    equal = (c2.Ellipse((0, 0), (2, 1), 0.0), c2.Ellipse((0, 0), (1, 2), math.pi / 2))
    assert c2.equals(*equal) and overlap_area(*equal) == 2 * math.pi and iou(*equal) == 1.0


def test_overlap_area_properties_on_random_batches():
    rng = np.random.default_rng(5)
    n = 3000
    a = c2.Ellipse(rng.uniform(-2, 2, (n, 2)), rng.uniform(0.05, 2, (n, 2)), rng.uniform(0, 7, n))
    b = c2.Ellipse(rng.uniform(-2, 2, (n, 2)), rng.uniform(0.05, 2, (n, 2)), rng.uniform(0, 7, n))
    area_ab, area_ba = overlap_area(a, b), overlap_area(b, a)
    pa = a._params
    pb = b._params
    small = np.minimum(np.pi * pa[:, 2] * pa[:, 3], np.pi * pb[:, 2] * pb[:, 3])
    assert area_ab.shape == (n,) and area_ab.dtype == np.float64
    assert np.all(area_ab >= 0) and np.all(area_ab <= small)
    np.testing.assert_allclose(area_ab, area_ba, rtol=0, atol=AREA_RTOL * small.max())
    relation = c2.relate(a, b)
    nested = (relation == c2.Relation.CONTAINS) | (relation == c2.Relation.WITHIN)
    assert nested.any() and np.array_equal(area_ab[nested], small[nested])
    assert np.all((area_ab > 0) <= c2.intersects(a, b))
    assert np.all(area_ab[~c2.intersects(a, b)] == 0)
    ratio = iou(a, b)
    assert np.all((ratio >= 0) & (ratio <= 1))
    # the scalar path gives the batch's numbers
    for k in rng.choice(n, 20, replace=False):
        assert overlap_area(a[k], b[k]) == area_ab[k]


def _polygon_bounds(params, sides):
    """Shapely polygons inscribed in and circumscribed about each ellipse row ``(cx, cy, a, b, ux, uy)``.

    The unit frame's regular ``sides``-gon through the circle (inscribed) and the same one scaled by
    ``1 / cos(pi / sides)`` (circumscribed, its edges tangent to the circle) mapped to the ellipse.
    """
    t = 2 * np.pi * np.arange(sides) / sides
    cx, cy, a, b, ux, uy = (params[:, k : k + 1] for k in range(6))
    out = []
    for scale in (1.0, 1.0 / math.cos(math.pi / sides)):
        x, y = scale * np.cos(t), scale * np.sin(t)
        out.append(shapely.polygons(np.stack([cx + a * ux * x - b * uy * y, cy + a * uy * x + b * ux * y], axis=-1)))
    return out


def test_overlap_area_between_polygon_bounds_for_disparate_sizes():
    # Semi-axes from 0.1 to 10 (log-uniform): one ellipse is often far longer or larger than the
    # other, so that either one is the frame and the arcs of the other are tested in its own unit
    # frame. Independent bracket (GEOS on polygons, no code shared with the kernels): the overlap
    # of the inscribed polygons <= the overlap area <= the overlap of the circumscribed ones. The
    # bracket is ~3e-4 of the larger area wide; a misplaced arc or segment is far outside it.
    rng = np.random.default_rng(21)
    n, sides = 1500, 256
    a = c2.Ellipse(rng.normal(size=(n, 2)) * 0.7, 10 ** rng.uniform(-1, 1, (n, 2)), rng.uniform(0, 7, n))
    b = c2.Ellipse(rng.normal(size=(n, 2)) * 0.7, 10 ** rng.uniform(-1, 1, (n, 2)), rng.uniform(0, 7, n))
    area_ab, area_ba = overlap_area(a, b), overlap_area(b, a)
    (in_a, out_a), (in_b, out_b) = _polygon_bounds(a._params, sides), _polygon_bounds(b._params, sides)
    lower = shapely.area(shapely.intersection(in_a, in_b))
    upper = shapely.area(shapely.intersection(out_a, out_b))
    margin = 1e-12 * np.maximum(shapely.area(out_a), shapely.area(out_b))  # GEOS' own rounding
    overlapping = c2.relate(a, b) == c2.Relation.OVERLAPPING
    assert overlapping.sum() > 500
    for area in (area_ab, area_ba):
        assert np.all(area >= lower - margin) and np.all(area <= upper + margin)


def test_overlap_area_thin_flank_cutting_a_cap_between_polygon_bounds():
    # A needle (semi-axes 0.05 x 40, larger in area, so the round ellipse is the frame) whose flank
    # cuts a cap off the ellipse 1 x 0.8: two crossings, and the needle's arc between them is the
    # long way round its own unit frame (more than 3 pi / 2), whose middle is the opposite of the
    # bisector of its two ends. Turned by 15 degrees at a time, so that the needle's thin axis
    # makes every angle with the frame's axes: a middle taken from a wrong end (one coordinate of
    # the other corner) points into the short arc and swaps the needle's two pieces. Independent
    # bracket as above (GEOS on inscribed and circumscribed 1024-gons), far narrower than the cap.
    phi, d = (v.ravel() for v in np.meshgrid(np.radians(np.arange(0, 360, 15)), [0.97, 1.0, 1.03]))
    n = len(phi)
    a = c2.Ellipse(np.zeros((n, 2)), np.tile([1.0, 0.8], (n, 1)), np.zeros(n))
    b = c2.Ellipse(np.stack([d * np.cos(phi), 0.8 * d * np.sin(phi)], -1), np.tile([0.05, 40.0], (n, 1)), phi)
    assert np.all(c2.relate(a, b) == c2.Relation.OVERLAPPING)
    (in_a, out_a), (in_b, out_b) = _polygon_bounds(a._params, 1024), _polygon_bounds(b._params, 1024)
    lower = shapely.area(shapely.intersection(in_a, in_b))
    upper = shapely.area(shapely.intersection(out_a, out_b))
    assert np.all(upper - lower < 0.05 * lower)  # the caps: 0.005 to 0.04
    margin = 1e-12 * shapely.area(out_b)
    for area in (overlap_area(a, b), overlap_area(b, a)):
        assert np.all(area >= lower - margin) and np.all(area <= upper + margin)


@pytest.mark.parametrize("name", list(TANGENT_AND_CROSSINGS))
def test_overlap_in_frame_tangent_point_once_in_any_order(name):
    # The area kernel takes its 2..4 corners in any order and with a tangent point once, twice or
    # not at all (its docstring). Here the two crossings and the tangent point, once, from the
    # 30-digit reference (the double root merged), in all six orders, against the chord quadrature.
    a, b = TANGENT_AND_CROSSINGS[name]
    frame, other = (a, b) if _area(a) <= _area(b) else (b, a)
    ts = _crossings(_ell(frame), _ell(other), imag_tol=mpf(10) ** -10, merge=mpf(10) ** -10)
    assert len(ts) == 3
    corners = [(float(mpm.cos(t)), float(mpm.sin(t))) for t in ts]
    p1, p2, r1, r2, sp, sr, _ = points_ellipse.conic_in_frame(frame._params, other._params)
    ref = ref_area_quadrature(a, b)
    scale = frame._params[2] * frame._params[3]
    for order in ((0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)):
        xy = [v for k in order for v in corners[k]]
        area = scale * area_ellipse.overlap_in_frame(p1, p2, r1, r2, sp, sr, 3, *xy, 0.0, 0.0)
        assert abs(area - ref) <= AREA_RTOL * _area(frame), order


@pytest.mark.parametrize("tangent", [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)], ids=str)
def test_overlap_in_frame_tangent_point_given_twice(tangent):
    # Two corners at one point, as for a crossing pair that rounding merged at a tangency: the
    # steps of each curve are 0 and a full turn, and the full-turn arc is tested at its middle,
    # the point opposite the corner (the corner itself, where both levels are 0, decides nothing).
    # The unit circle A and a circle B of radius r tangent to it at `tangent` (exact numbers: B's
    # frame Z = X / r - c / r): B inside A (r = 1/2), A inside B (r = 2), B outside A (r = 1/2).
    # Reference: the area of the inner circle, pi r^2 or pi, and 0.
    tx, ty = tangent
    for r, c, want in ((0.5, 0.5, math.pi / 4), (2.0, -1.0, math.pi), (0.5, 1.5, 0.0)):
        args = (1 / r, 0.0, 0.0, 1 / r, c * tx / r, c * ty / r, 2, tx, ty, tx, ty, 0.0, 0.0, 0.0, 0.0)
        assert abs(area_ellipse.overlap_in_frame(*args) - want) <= AREA_RTOL * math.pi, (r, c)


@pytest.mark.parametrize("n", [3, 4])
def test_corner_steps_of_a_closed_chain_sum_to_a_full_turn(n):
    # Corners sorted by angle on a convex curve, one of them found twice (a tangent point) with
    # the copy a hair behind the original: its counter-clockwise step is -1e-15 rad, which
    # ccw_angle returns as 2 pi - 1e-15. The steps of a closed chain sum to 2 pi: the repaired
    # steps are the exact ones (mpmath angles), the backward hair as 0, whichever step it is.
    rng = np.random.default_rng(n)
    for repeat in range(n - 1):
        for _ in range(5):
            angles = sorted(mpf(float(t)) for t in rng.uniform(-math.pi, math.pi, n - 1))
            angles.insert(repeat + 1, angles[repeat] - mpf("1e-15"))
            unit = [(float(mpm.cos(t)), float(mpm.sin(t))) for t in angles]
            steps = [area_ellipse.ccw_angle(*unit[i], *unit[(i + 1) % n]) for i in range(n)] + [0.0] * (4 - n)
            assert steps[repeat] > 6  # the wrong-way rounding this repairs
            fixed = area_ellipse._fix_wrap(n, *steps, n - 1)
            exact = [max(mpf(0), angles[i + 1] - angles[i]) for i in range(n - 1)]
            exact.append(2 * mpm.pi - sum(angles[i + 1] - angles[i] for i in range(n - 1)))
            for got, want in zip(fixed[:n], exact):
                assert abs(got - want) <= 1e-14


@pytest.mark.parametrize("n", [2, 3, 4])
def test_corner_steps_that_all_vanish_make_the_long_step_a_full_turn(n):
    """All corners at one point to rounding (a crossing pair at a tangency): every step is ~0 and
    ``_fix_wrap`` gives the full turn to the step ``long_index``, whichever it is, and leaves the
    others; the steps then sum to 2 pi exactly."""
    tiny = [0.0, 1e-17, 0.0, 2e-17][:n] + [0.0] * (4 - n)
    for long_index in range(n):
        fixed = area_ellipse._fix_wrap(n, *tiny, long_index)
        for k in range(n):
            assert fixed[k] == (tiny[k] + 2 * math.pi if k == long_index else tiny[k]), (n, long_index, fixed)


@pytest.mark.parametrize("depth", [1e-4, 1e-8, 1e-12])
def test_arc_inside_ignores_a_sliver_at_the_middle(depth):
    # An arc of the unit circle between two corners lies outside a circle B that pokes in by
    # `depth` exactly at the arc's middle (two crossings closer than the pencil resolves, a sliver
    # of area ~ depth^1.5): the arc counts as outside, as do its points outside the sliver. The
    # reference: B's level at 64 points along the arc (mpmath), the majority side.
    radius = 0.5
    centre = 1 + radius - depth  # B = circle of this radius about (centre, 0)
    p = 1 / radius
    for half in (0.3, 1.0, 2.0):  # arcs of 0.6, 2 and 4 rad, symmetric about the angle 0
        levels = [((mpm.cos(t) - centre) ** 2 + mpm.sin(t) ** 2) * p * p - 1 for t in mpm.linspace(-half, half, 64)]
        inside = sum(level < 0 for level in levels) > len(levels) // 2
        x0, y0 = math.cos(-half), math.sin(-half)
        x1, y1 = math.cos(half), math.sin(half)
        got = area_ellipse._arc_inside(True, x0, y0, x1, y1, 2 * half, p, 0.0, 0.0, p, centre * p, 0.0, p * p)
        assert got == inside is False
        # and the same arc with B's level shifted to contain it: inside
        got = area_ellipse._arc_inside(True, x0, y0, x1, y1, 2 * half, p / 4, 0.0, 0.0, p / 4, 0.0, 0.0, p * p / 16)
        assert got is True


def _sweep(make, ts):
    return np.array([overlap_area(*make(t)) for t in ts])


def test_overlap_area_continuous_through_external_tangency():
    # Translate b across external tangency at t0; the area must fall continuously to 0 and stay 0.
    # Lipschitz bound: |dI/dt| <= chord length <= 2 * 2 (the larger semi-axis bounds any chord).
    d = np.array([math.cos(2.0), math.sin(2.0)])

    def make(t):
        return _A, c2.Ellipse(tuple(np.array([0.1, -0.2]) + t * d), (1.2, 0.3), -0.4)

    t0 = _tangent_offset(make, 0.0, 10.0)
    for h in (1e-3, 1e-7, 1e-12):
        ts = t0 + h * np.linspace(-1, 1, 41)
        values = _sweep(make, ts)
        assert np.all(np.abs(np.diff(values)) <= 4 * (ts[1] - ts[0]) + 1e-15)
        assert np.all(np.diff(values) <= 1e-15)  # moving away never adds area here
        assert values[-1] == 0.0 and values[0] > 0.0


def test_overlap_area_continuous_through_internal_tangency():
    d = np.array([math.cos(0.7), math.sin(0.7)])

    def make(t):
        return _A, c2.Ellipse(tuple(np.array([0.1, -0.2]) + t * d), (0.9, 0.3), 1.1)

    inner = math.pi * 0.9 * 0.3
    t0 = _tangent_offset(make, 0.0, 3.0, inside_code=c2.Relation.CONTAINS)
    for h in (1e-3, 1e-7, 1e-12):
        ts = t0 + h * np.linspace(-1, 1, 41)
        values = _sweep(make, ts)
        assert np.all(np.abs(np.diff(values)) <= 4 * (ts[1] - ts[0]) + AREA_RTOL * inner)
        assert np.all(np.diff(values) <= AREA_RTOL * inner)
        assert values[0] == inner and values[-1] <= inner
        assert h < 1e-10 or values[-1] < inner  # below ~1e-10 the lost sliver is under an ulp of inner


def test_overlap_area_continuous_for_near_identical_ellipses():
    # Rotating a copy by theta removes area ~ theta * (a^2 - b^2) (four thin lunes); the value must
    # approach pi a b smoothly, with no jump where the crossing points become ill-conditioned.
    full = _area(_A)
    thetas = np.logspace(-11, -2, 30)
    values = np.array([overlap_area(_A, c2.Ellipse((0.1, -0.2), (2, 1), 0.3 + t)) for t in thetas])
    loss = full - values
    assert np.all(loss >= -AREA_RTOL * full)
    assert np.all(np.diff(loss) >= -AREA_RTOL * full)
    expected = (2.0**2 - 1.0**2) * thetas  # (a^2 - b^2) theta to first order
    big = thetas > 1e-6
    np.testing.assert_allclose(loss[big], expected[big], rtol=1e-2)


# -- overlap area: ellipse against polygon ------------------------------------------------------------------

_POLY_CASES = {
    "half-plane-box": (_A, c2.Box((0.1, -5), (5, 5))),
    "rotated-box": (_A, c2.RotatedBox((1, 0.5), (1, 0.7), 0.4)),
    "triangle-corner": (_A, c2.Polygon([(1.5, 0.3), (3, 0.3), (3, 2)])),
    "circle-in-square-corners-out": (c2.Circle((0, 0), 1), c2.Box((-0.9, -0.9), (0.9, 0.9))),
    "hexagon": (_A, c2.Polygon([(np.cos(t) * 1.9 + 0.3, np.sin(t) * 1.1 - 0.1) for t in np.arange(6) * np.pi / 3])),
    "circle-cap-1e-8": (c2.Circle((0, 0), 1), c2.Box((1 - 1e-8, -1), (2, 1))),
    "circle-minus-cap-1e-8": (c2.Circle((0, 0), 1), c2.Box((-2, -2), (1 - 1e-8, 2))),
    "ellipse-cap-1e-4": (_A, c2.RotatedBox((0.1 + 2.9999 * math.cos(0.3), -0.2 + 2.9999 * math.sin(0.3)), (1, 3), 0.3)),
}


@pytest.mark.parametrize("name", list(_POLY_CASES))
def test_overlap_area_ellipse_polygon_matches_quadrature(name):
    e, p = _POLY_CASES[name]
    ref = ref_area_ellipse_polygon(e, p)
    # caps of depth delta: relative conditioning ~ eps / delta in the rotated cases (as above)
    rtol = 1e-11 if name == "ellipse-cap-1e-4" else AREA_RTOL
    assert abs(overlap_area(e, p) - ref) <= rtol * ref
    assert abs(overlap_area(p, e) - ref) <= rtol * ref


def test_overlap_area_ellipse_polygon_relation_cases():
    circle = c2.Circle((0, 0), 1)
    inner_box = c2.Box((-0.5, -0.5), (0.5, 0.5))
    assert overlap_area(circle, inner_box) == 1.0  # polygon inside
    assert overlap_area(circle, c2.Box((-1, -1), (1, 1))) == math.pi  # circle inscribed, touching
    assert overlap_area(circle, c2.Box((1, -1), (2, 1))) == 0.0  # touching from outside
    assert overlap_area(circle, c2.Box((-0.5, -0.5), (0.5, 0.5 + 2**-40))) == 1.0 + 2**-40


# -- IoU ------------------------------------------------------------------------------------------------------


def test_iou_values():
    circle = c2.Circle((0, 0), 1)
    assert iou(circle, circle) == 1.0
    assert iou(circle, c2.Circle((3, 0), 1)) == 0.0
    assert iou(circle, c2.Segment((-1, 0), (1, 0))) == 0.0
    assert iou(c2.Ellipse((0, 0), (2, 1)), c2.Circle((0, 0), 1)) == 0.5
    a, b = c2.Circle((0, 0), 1), c2.Ellipse((0, 1), (0.5, 1))
    inter = float(GTE_AREA_TEXT)
    assert abs(iou(a, b) - inter / (math.pi + math.pi / 2 - inter)) <= 4 * EPS
    batch = iou(circle, c2.Circle([(0, 0), (3, 0), (1, 0)], 1))
    assert batch.shape == (3,) and batch[0] == 1.0 and batch[1] == 0.0 and 0 < batch[2] < 1
