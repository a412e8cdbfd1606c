"""Shapes whose vertices round together, and the witness point of a contact far from the
pair's scale.

* A unit segment (or capsule core) beside an ellipse of size 1e149, or 1e16 away from a small
  turned one, has both ends on one float in the ellipse's frame; a unit segment that a search moves
  to 4e148 has both ends on one float in the world. The contact kernels divided by its zero length
  (``ZeroDivisionError``); now such a list of vertices is the point it rounded to.
* The exact time of first contact of a unit segment and a circle of radius 1e149 is 3.0 in both
  orders; its point came from the contact of the shapes moved in the first order only, where the
  circle's move of 3 rounds away: (-1.5, 0) instead of (0, 0). Now the shape with the smaller
  coordinates is the one moved: the point of first contact, in both orders.

References: exact rationals (``fractions.Fraction``) and mpmath, sharing no code with the kernels.
"""

from __future__ import annotations

import math
import pathlib
import re
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import collide2d as c2

P, Q = (0.3456, 0.8216), (0.3304, -1.3032)  # a unit segment near the origin
HUGE_ELLIPSE = ((9e148, 4e148), (5e148, 4.5e148), (1.0, 0.9))  # centre, radii, direction
HUGE_SEGMENT = ((4e148, 4e148), (6e148, 1e148))


def _small(kind, batched):
    """The small shape of a kind (a segment, or a capsule about it), single or as a batch of one."""
    if batched:
        p, q = np.array([P]), np.array([Q])
        return c2.Segment(p, q) if kind == "segment" else c2.Capsule(p, q, np.array([0.25]))
    return c2.Segment(P, Q) if kind == "segment" else c2.Capsule(P, Q, 0.25)


def _along_axes(vector, direction):
    """``vector`` in the frame of the axes of an ellipse of ``direction`` (mpmath, current precision)."""
    ux, uy = (mpmath.mpf(x) for x in direction)
    n = mpmath.sqrt(ux * ux + uy * uy)
    ux, uy = ux / n, uy / n
    x, y = vector
    return ux * x + uy * y, ux * y - uy * x


def _ray_into_ellipse(origin, v, centre, radii, direction):
    """The first time at which ``origin + t v`` lies in the ellipse (mpmath, 60 digits)."""
    with mpmath.workdps(60):
        a, b = (mpmath.mpf(r) for r in radii)
        # along the axes, scaled by the radii: |d' + t v'|^2 = 1
        d0, d1 = _along_axes([mpmath.mpf(o) - mpmath.mpf(c) for o, c in zip(origin, centre)], direction)
        w0, w1 = _along_axes([mpmath.mpf(x) for x in v], direction)
        d0, d1, w0, w1 = d0 / a, d1 / b, w0 / a, w1 / b
        qa, qb, qc = w0 * w0 + w1 * w1, d0 * w0 + d1 * w1, d0 * d0 + d1 * d1 - 1
        return (-qb - mpmath.sqrt(qb * qb - qa * qc)) / qa


def _ray_onto_segment(origin, v, s0, s1):
    """The time at which ``origin + t v`` crosses the segment ``[s0, s1]`` (Fractions, exact)."""
    o, v, s0, s1 = ([Fraction(x) for x in pt] for pt in (origin, v, s0, s1))
    e = (s1[0] - s0[0], s1[1] - s0[1])
    cross = v[0] * e[1] - v[1] * e[0]
    w = (s0[0] - o[0], s0[1] - o[1])
    return (w[0] * e[1] - w[1] * e[0]) / cross


@pytest.mark.parametrize("kind,big_kind", [("segment", "ellipse"), ("capsule", "ellipse"), ("segment", "segment")])
def test_a_shape_moved_far_enough_to_collapse_is_answered(kind, big_kind):
    """A unit segment or capsule translating toward a shape of size 1e149 with ``t_max = inf``:
    the search reaches it near 4e148, where the segment's ends round to one point. It raised
    ``ZeroDivisionError`` with the large shape first. Reference: the time at which the path of the
    segment's first end meets the large shape (mpmath, or exact for a segment): the segment's own
    size (about 2) is 1e-148 of that time, far below the 1e-12 of the search."""
    v = (1.0, 0.5)
    if big_kind == "ellipse":
        big = c2.Ellipse(HUGE_ELLIPSE[0], HUGE_ELLIPSE[1], direction=HUGE_ELLIPSE[2])
        expected = float(_ray_into_ellipse(P, v, *HUGE_ELLIPSE))
    else:
        big = c2.Segment(*HUGE_SEGMENT)
        expected = float(_ray_onto_segment(P, v, *HUGE_SEGMENT))
    assert 4e148 < expected < 8e148
    for batched in (False, True):
        small = _small(kind, batched)
        for a, b, va, vb in ((small, big, v, (0.0, 0.0)), (big, small, (0.0, 0.0), v)):
            hit = c2.time_of_impact(a, b, va, vb, t_max=math.inf)
            time = np.asarray(hit.time).reshape(-1)[0]
            point = np.asarray(hit.point).reshape(-1, 2)[0]
            assert np.shape(hit.time) == ((1,) if batched else ())
            assert abs(time - expected) <= 1e-12 * expected
            reached = np.array(P) + np.array(v) * expected  # the first end where it meets the shape
            assert np.hypot(*(point - reached)) <= 1e-12 * np.hypot(*reached)


def _distance_to_ellipse(point, centre, radii, direction):
    """Distance from ``point`` (outside) to the ellipse (mpmath, 40 digits): the minimum over the
    boundary ``c + a cos t u + b sin t u_perp`` of the distance, from the best of 720 samples
    refined by a root of its derivative."""
    with mpmath.workdps(40):
        a, b = (mpmath.mpf(r) for r in radii)
        p0, p1 = _along_axes([mpmath.mpf(p) - mpmath.mpf(c) for p, c in zip(point, centre)], direction)

        def squared(t):
            return (a * mpmath.cos(t) - p0) ** 2 + (b * mpmath.sin(t) - p1) ** 2

        best = min((2 * mpmath.pi * k / 720 for k in range(720)), key=squared)
        t = mpmath.findroot(lambda t: mpmath.diff(squared, t), best)
        return mpmath.sqrt(squared(t))


def test_a_segment_collapsed_in_a_turned_ellipse_s_frame_is_measured_as_a_point():
    """A unit segment at the origin and a turned ellipse of size 128 at 1e16: in the ellipse's
    frame (turned, coordinates of 1e16, ulp 2) the segment's ends are one point, and ``contact``
    and ``distance`` raised ``ZeroDivisionError``. Reference: the distance from the segment's ends
    to the ellipse (mpmath); the segment's length is below the pair's float resolution (2 ulps of
    1e16 = 4), so either end is the answer to the documented accuracy (a few ulps of the pair's
    scale)."""
    centre, radii, direction = (1e16, 7e15), (128.0, 76.8), (1.0, 0.9)
    ellipse = c2.Ellipse(centre, radii, direction=direction)
    ends = [float(_distance_to_ellipse(end, centre, radii, direction)) for end in ((0.0, 0.0), (1.0, 0.5))]
    scale = math.hypot(*centre)
    for batched in (False, True):
        segment = c2.Segment(np.array([(0.0, 0.0)]), np.array([(1.0, 0.5)])) if batched else c2.Segment((0.0, 0.0), (1.0, 0.5))
        for a, b in ((segment, ellipse), (ellipse, segment)):
            d = np.asarray(c2.distance(a, b)).reshape(-1)[0]
            got = c2.contact(a, b)
            s = np.asarray(got.separation).reshape(-1)[0]
            normal = np.asarray(got.normal).reshape(-1, 2)[0]
            assert min(ends) - 8 * math.ulp(scale) <= d <= max(ends) + 8 * math.ulp(scale)
            assert s == d
            toward = np.array(centre) / scale * (1.0 if a is segment else -1.0)  # from a to b, nearly
            assert abs(np.hypot(*normal) - 1.0) <= 1e-15 and normal @ toward > 0.99


@pytest.mark.parametrize("radius", [0.0, 1.0])
def test_a_segment_below_the_resolution_of_a_circle_s_frame_is_its_end(radius):
    """A segment (or capsule core) of length 1e-17 at the origin and a circle of radius 1.5 about
    (3, 0) (rhostile's finding): its ends are one point in the circle's frame, and ``distance``,
    ``contact`` and the rounded ``relate`` raised ``ZeroDivisionError``. Exact reference
    (Fractions): the distance of the ends from the circle, ``3 - 1e-17 - 1.5`` and ``1.5``, both
    1.5 in floats, minus the capsule's radius; the normal (1, 0) from a to b."""
    circle = c2.Circle((3.0, 0.0), 1.5)
    gaps = [Fraction(3) - Fraction(x) - Fraction(1.5) - Fraction(radius) for x in (0.0, 1e-17)]
    expected = float(min(gaps))
    assert expected == float(max(gaps))
    for batched in (False, True):
        ends = (np.array([(0.0, 0.0)]), np.array([(1e-17, 0.0)])) if batched else ((0.0, 0.0), (1e-17, 0.0))
        tiny = c2.Segment(*ends) if radius == 0.0 else c2.Capsule(*ends, np.array([radius]) if batched else radius)
        for a, b, sign in ((tiny, circle, 1.0), (circle, tiny, -1.0)):
            got = c2.contact(a, b)
            assert np.asarray(c2.distance(a, b)).reshape(-1)[0] == expected
            assert np.asarray(got.separation).reshape(-1)[0] == expected
            assert np.asarray(got.normal).reshape(-1, 2)[0].tolist() == [sign, 0.0]
            relation = np.asarray(c2.relate(a, b)).reshape(-1)[0]
            assert relation == c2.Relation.DISJOINT


def _first_contact_with_circle(end, v, centre, radius):
    """The time at which ``end + t v`` reaches the circle (exact Fractions: the smaller root of
    ``|end + t v - centre|^2 = radius^2``, its square root to 300 bits) and the point there."""
    e, v, c = ([Fraction(x) for x in pt] for pt in (end, v, centre))
    d = (e[0] - c[0], e[1] - c[1])
    qa = v[0] ** 2 + v[1] ** 2
    qb = d[0] * v[0] + d[1] * v[1]
    qc = d[0] ** 2 + d[1] ** 2 - Fraction(radius) ** 2
    disc = qb * qb - qa * qc
    root = Fraction(math.isqrt(int(disc * 2**600)), 2**300)  # sqrt(disc) to 2**-300
    t = (-qb - root) / qa
    return t, (e[0] + v[0] * t, e[1] + v[1] * t)


@pytest.mark.parametrize("v", [(-1.0, 0.0), (-1.0, 0.25), (-0.5, -0.125)])
def test_the_point_of_first_contact_beside_a_circle_of_radius_1e149_in_both_orders(v):
    """A unit segment whose end (3, 0) is 3 from a circle of radius 1e149 along the motion: the
    exact time is that of the end's path meeting the circle, and the point is where the end meets
    it (Fractions), whichever shape moves and in both orders, single and batched. The point came
    from the shapes moved in the pair's own order, where a move of the circle by 3 rounds away at
    1e149: (-1.5, 0) for the expected (0, 0) with the segment first."""
    centre, radius = (-1e149, 0.0), 1e149
    circle = c2.Circle(centre, radius)
    time, meet = _first_contact_with_circle((3.0, 0.0), v, centre, radius)
    for batched in (False, True):
        segment = c2.Segment(np.array([(3.0, 0.0)]), np.array([(4.0, 0.5)])) if batched else c2.Segment((3.0, 0.0), (4.0, 0.5))
        for mover in ("segment", "circle"):
            # the same relative motion; the point is the segment's end where it meets the circle
            vs, vc = (v, (0.0, 0.0)) if mover == "segment" else ((0.0, 0.0), (-v[0], -v[1]))
            expected = [float(meet[0]), float(meet[1])] if mover == "segment" else [3.0, 0.0]
            for a, b, va, vb in ((segment, circle, vs, vc), (circle, segment, vc, vs)):
                hit = c2.time_of_impact(a, b, va, vb, t_max=10.0)
                got_time = np.asarray(hit.time).reshape(-1)[0]
                point = np.asarray(hit.point).reshape(-1, 2)[0]
                normal = np.asarray(hit.normal).reshape(-1, 2)[0]
                assert got_time == float(time) or got_time == math.nextafter(float(time), 0.0)
                assert np.hypot(*(point - expected)) <= 1e-12, (mover, a is segment, batched, point)
                toward = np.array([1.0, 0.0]) if a is circle else np.array([-1.0, 0.0])  # from a to b
                assert normal @ toward > 0.99


def test_the_band_of_the_rounded_ellipse_pairs_is_defined_once():
    """``ELLIPSE_BAND`` (the rounded-ellipse predicates' band, which the turning search's grown
    contacts must clear) is defined in the kernels' shared constants only; the turning search had
    its own copy of the value."""
    kernels = pathlib.Path(c2.__file__).parent / "_kernels"
    definitions = [(path.name, line) for path in sorted(kernels.rglob("*.py"))
                   for line in path.read_text().splitlines() if re.match(r"\w*ELLIPSE_BAND\s*=", line)]
    assert definitions == [("codes.py", "ELLIPSE_BAND = 2.0**-40")]
    from collide2d._kernels import codes
    from collide2d._kernels.motion import toi_turning
    from collide2d._kernels.relate import rounded

    assert toi_turning.ELLIPSE_BAND is codes.ELLIPSE_BAND and rounded.ELLIPSE_BAND is codes.ELLIPSE_BAND


@pytest.mark.parametrize("length", [1e-18, 1e-300])
def test_a_capsule_core_below_its_radius_s_resolution_is_a_disc_in_the_overlay(length):
    # A capsule of radius 1 whose core is shorter than an ulp of the radius: the overlay built the
    # normals of a zero edge (ZeroDivisionError compiled, NaN pieces without the compiler). Now
    # the disc of radius 1: against the circle of radius 1/2 about (1, 0) the crossings are
    # (7/8, +-sqrt(15)/8) exactly (x^2 + y^2 = 1, (x - 1)^2 + y^2 = 1/4), and a circle inside the
    # capsule has none; both orders, single and batched.
    capsule = c2.Capsule((0.0, 0.0), (length, 0.0), 1.0)
    crossing, inside = c2.Circle((1.0, 0.0), 0.5), c2.Circle((0.1, 0.0), 0.5)
    y = math.sqrt(15) / 8
    for first, second in ((capsule, crossing), (crossing, capsule)):
        points = sorted(map(tuple, c2.intersection_points(first, second).tolist()))
        assert len(points) == 2
        for (px, py), (rx, ry) in zip(points, [(0.875, -y), (0.875, y)]):
            assert abs(px - rx) <= 4e-16 and abs(py - ry) <= 4e-16
    for first, second in ((capsule, inside), (inside, capsule)):
        assert c2.intersection_points(first, second).shape == (0, 2)
    batch = c2.Capsule([(0.0, 0.0)] * 2, [(length, 0.0)] * 2, [1.0, 1.0])
    circles = c2.Circle([(1.0, 0.0), (0.1, 0.0)], [0.5, 0.5])
    for x, y_ in ((batch, circles), (circles, batch)):
        _, count = c2.intersection_points(x, y_)
        assert count.tolist() == [2, 0]


@pytest.mark.parametrize("length", [1e-17, 1e-300])
def test_a_capsule_core_below_its_radius_s_resolution_rests_on_one_point(length):
    # A capsule of radius 1 with a core of length 1e-17 end-on against a box's face: the clipped
    # incident face gave count 2 with one point twice (its ends round together once moved out by
    # the radius). Now one point, as a disc of radius 1 at the origin gives: separation 1, witness
    # (1, 0) on the capsule and (2, 0) on the box; both orders, single and batched.
    capsule, box = c2.Capsule((0.0, 0.0), (length, 0.0), 1.0), c2.Box((2.0, -1.0), (3.0, 1.0))
    disc = c2.contact_manifold(c2.Circle((0.0, 0.0), 1.0), box)
    for first, second, sign in ((capsule, box, 1.0), (box, capsule, -1.0)):
        m = c2.contact_manifold(first, second)
        assert m.count == 1 and m.separations[0] == 1.0 and m.normal.tolist() == [sign, 0.0]
        on_capsule, on_box = (m.points_a, m.points_b) if sign > 0 else (m.points_b, m.points_a)
        assert on_capsule[0].tolist() == disc.points_a[0].tolist() == [1.0, 0.0]
        assert on_box[0].tolist() == [2.0, 0.0]
    batch = c2.Capsule([(0.0, 0.0)] * 2, [(length, 0.0), (0.0, 1.0)], [1.0, 1.0])
    assert c2.contact_manifold(batch, box).count.tolist() == [1, 2]  # the second core lies along the face
    assert c2.contact_manifold(box, batch).count.tolist() == [1, 2]
