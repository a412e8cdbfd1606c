"""A rounded shape beside a non-circular ellipse whose sizes no power of two tames.

The rounded-ellipse kernel decides the separation within a band relative to the pair's scale
(2**-40 of it): beside an ellipse of size 1e149 a capsule 2.5 outside came out TOUCHING, its
distance 0.0. Such pairs are now decided exactly (:mod:`collide2d._robust.rounded_ellipse`) and
measured at the small shape's scale.

References, independent of the library:

* constructions whose answer is exact by geometry: an ellipse whose axis ends at the origin (its
  centre ``-(a/|w|) w``, stored exactly: ``w`` axis-aligned or the Pythagorean ``(3, 4)``) has the
  tangent line normal to that axis there, and lies on one side of it; a segment parallel to that
  line at distance ``rho`` across it, its foot within the segment, is at distance exactly
  ``rho`` (touching a capsule of radius ``rho``; one ulp further or nearer: apart or overlapping,
  at the distance of that ulp); a disc centred on the axis at distance ``rho`` touches the end of
  the axis (the ellipse's radius of curvature there, ``b^2 / a``, exceeds ``rho``); likewise a tiny
  ellipse resting on the flat top of a huge capsule;
* mpmath at 200 digits for generic small shapes beside such an ellipse: the least distance of the
  core from the ellipse (Eberly's root of the distance equation for points, golden-section search
  along each edge), minus the radius.

Each case runs in both argument orders, single and as row 0 of batches on either side.
"""

from __future__ import annotations

import math
import random

import mpmath
import numpy as np
import pytest

import collide2d as c2

K = 2.0**494  # about 1e149
R = 2.0**490
T = 2.0**-495  # about 1e-149
UP, DOWN = math.nextafter(0.5, 1.0), math.nextafter(0.5, 0.0)
AXIS = c2.Ellipse((-K, 0.0), (K, 0.7 * K))  # the end of its first axis at the origin, tangent x = 0
TILT = c2.Ellipse((-3 * K, -4 * K), (5 * K, 3.5 * K), direction=(3, 4))  # the same at (0, 0), normal (0.6, 0.8)
FLAT = c2.Capsule((-K, -R), (K, -R), R)  # its top flat is y = 0 for |x| <= K

CASES = [  # (rounded shape, ellipse, relation of the shape to the ellipse, separation or None)
    (c2.Capsule((0.5, -1.0), (0.5, 1.0), 0.5), AXIS, "TOUCHING", 0.0),
    (c2.Capsule((UP, -1.0), (UP, 1.0), 0.5), AXIS, "DISJOINT", UP - 0.5),
    (c2.Capsule((DOWN, -1.0), (DOWN, 1.0), 0.5), AXIS, "OVERLAPPING", DOWN - 0.5),
    (c2.Capsule((0.5, 0.0), (1.5, 0.0), 0.5), AXIS, "TOUCHING", 0.0),  # a disc on the axis
    (c2.Box((0.5, -1.0), (2.0, 1.0), radius=0.5), AXIS, "TOUCHING", 0.0),
    (c2.Capsule((3.0, 0.0), (4.0, 0.5), 0.5), AXIS, "DISJOINT", 2.5),  # the reported pair
    (c2.Capsule((-3.0, 0.0), (-4.0, 0.5), 0.5), AXIS, "WITHIN", None),
    (c2.Capsule((-0.625, 1.25), (1.375, -0.25), 0.625), TILT, "TOUCHING", 0.0),  # (0.375, 0.5) -+ 1.25 (0.8, -0.6)
    (c2.Capsule((0.375, 0.5), (1.125, 1.5), 0.625), TILT, "TOUCHING", 0.0),  # on the axis
    (c2.Polygon([(0.375, 0.5), (1.0, 3.0), (-2.0, 3.0)], radius=0.625), TILT, "TOUCHING", 0.0),
    (FLAT, c2.Ellipse((0.0, T), (3 * T, T)), "TOUCHING", 0.0),
    (FLAT, c2.Ellipse((0.0, math.nextafter(T, 1.0)), (3 * T, T)), "DISJOINT", math.nextafter(T, 1.0) - T),
    (FLAT, c2.Ellipse((0.0, -4 * T), (3 * T, T), direction=(3, 4)), "CONTAINS", None),  # reaches 2.47 T up
    (FLAT, c2.Ellipse((0.0, -T), (3 * T, T), direction=(3, 4)), "OVERLAPPING", None),
]
_MIRROR = {"WITHIN": "CONTAINS", "CONTAINS": "WITHIN"}


def _batch(shape):
    """``shape`` as row 0 of a batch of 2 beside a tame unit shape of its class."""
    if isinstance(shape, c2.Ellipse):
        return c2.Ellipse([shape.center, (4.0, 0.0)], [shape.radii, (1.0, 0.5)], direction=[shape.direction, (1.0, 0.0)])
    radius = [float(shape.fields["radius"]), 0.5]
    if isinstance(shape, c2.Capsule):
        return c2.Capsule([shape.a, (0.0, 0.0)], [shape.b, (1.0, 0.0)], radius)
    if isinstance(shape, c2.Box):
        return c2.Box([shape.min, (-1.0, -1.0)], [shape.max, (1.0, 1.0)], radius=radius)
    return c2.Polygon(np.stack([shape.vertices, shape.vertices / np.abs(shape.vertices).max()]), radius=radius)


def _both_orders(op, a, b):
    """``op`` of (a, b) and of (b, a), single and as row 0 of batches on either side."""
    first = [op(a, b), op(_batch(a), b)[0], op(a, _batch(b))[0]]
    second = [op(b, a), op(b, _batch(a))[0], op(_batch(b), a)[0]]
    return first, second


def _assert_relation(shape, ellipse, expected):
    """``relate`` is ``expected`` (mirrored in the other order) and the predicates agree, both
    orders, single and batched."""
    first, second = _both_orders(c2.relate, shape, ellipse)
    assert [c2.Relation(int(x)).name for x in first] == [expected] * 3
    assert [c2.Relation(int(x)).name for x in second] == [_MIRROR.get(expected, expected)] * 3
    meets, touches = expected != "DISJOINT", expected == "TOUCHING"
    for op, want in ((c2.intersects, meets), (c2.touches, touches), (c2.disjoint, not meets)):
        first, second = _both_orders(op, shape, ellipse)
        assert [bool(x) for x in first + second] == [want] * 6


@pytest.mark.parametrize("case", range(len(CASES)))
def test_rounded_shape_beside_an_ellipse_of_a_far_other_size(case):
    shape, ellipse, expected, separation = CASES[case]
    _assert_relation(shape, ellipse, expected)
    first, second = _both_orders(c2.distance, shape, ellipse)
    contact = c2.contact(shape, ellipse)
    if separation is not None and separation >= 0.0:  # the exact distance, to a few ulps of its own size
        for d in first + second + [contact.separation]:
            assert abs(float(d) - separation) <= 4 * math.ulp(separation)
        if separation > 0.0 and ellipse is AXIS:  # witnesses: the end of the axis, curvature a / b^2 there
            assert np.abs(contact.point_b).max() <= 1e-40 and contact.normal.tolist() == [-1.0, 0.0]
            assert contact.curvature_b == pytest.approx(1.0 / (0.49 * K), rel=1e-12)
            assert contact.curvature_a == (2.0 if case == 5 else 0.0)  # a vertex's arc (1 / r), else a flat
    else:  # the interiors meet: distance 0, the separation (when known) to a few ulps of the small shape
        assert [float(d) for d in first + second] == [0.0] * 6
        assert contact.separation < 0.0
        if separation is not None:
            assert abs(contact.separation - separation) <= 1e-15


# -- generic small shapes beside the ellipses above, against mpmath ---------------------------------


def _eberly(px, py, cx, cy, a, b, wx, wy):
    """Distance of the point ``p`` (outside) from the ellipse, in mpmath (Eberly, "Distance from a
    Point to an Ellipse, an Ellipsoid, or a Hyperellipsoid", 2013: the root ``s`` of
    ``(r0 z0 / (s + r0))^2 + (z1 / (s + 1))^2 = 1``); None for a point inside."""
    n = mpmath.sqrt(wx * wx + wy * wy)
    dx, dy = px - cx, py - cy
    y0, y1 = abs((dx * wx + dy * wy) / n), abs((dy * wx - dx * wy) / n)
    if a < b:
        a, b, y0, y1 = b, a, y1, y0
    z0, z1 = y0 / a, y1 / b
    if z0 * z0 + z1 * z1 <= 1:
        return None
    r0 = (a / b) ** 2

    def f(s):
        return (r0 * z0 / (s + r0)) ** 2 + (z1 / (s + 1)) ** 2 - 1

    lo, hi = max(z1 - 1, mpmath.mpf(0)), mpmath.sqrt((r0 * z0) ** 2 + z1 * z1) - 1
    for _ in range(40):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    s = mpmath.findroot(f, (lo, hi), solver="anderson")
    x0, x1 = r0 * y0 / (s + r0), y1 / (s + 1)
    return mpmath.hypot(y0 - x0, y1 - x1)


def _separation(core, radius, ellipse):
    """``dist(core, ellipse) - radius`` in mpmath, or None when the core meets the ellipse."""
    mpmath.mp.dps = 200
    e = [mpmath.mpf(float(v)) for v in (*ellipse.center, *ellipse.radii, *ellipse.direction)]
    points = [(mpmath.mpf(float(x)), mpmath.mpf(float(y))) for x, y in core]
    best = [_eberly(x, y, *e) for x, y in points]
    if None in best:
        return None
    edges = list(zip(points, points[1:] + points[:1])) if len(points) >= 3 else [tuple(points)]
    g = (mpmath.sqrt(5) - 1) / 2
    for p, q in edges:
        def along(t, p=p, q=q):
            return _eberly(p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]), *e)

        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        for _ in range(80):  # the distance is convex along the edge; its least value is flat
            t1, t2 = hi - g * (hi - lo), lo + g * (hi - lo)
            d1, d2 = along(t1), along(t2)
            if d1 is None or d2 is None:
                return None
            lo, hi = (lo, t2) if d1 <= d2 else (t1, hi)
        best.append(along((lo + hi) / 2))
    return min(best) - mpmath.mpf(float(radius))


def _generic_cases(count, seed=2711):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        x, y, r = rng.uniform(-2.0, 3.0), rng.uniform(-2.0, 3.0), rng.uniform(0.1, 1.0)
        if len(out) % 2:
            core = [(x, y), (x + rng.uniform(-2, 2), y + rng.uniform(-2, 2))]
            shape = c2.Capsule(*core, r)
        else:
            core = [(x, y), (x + rng.uniform(0.5, 2), y + rng.uniform(-0.5, 0.5)), (x + rng.uniform(0, 1), y + rng.uniform(0.5, 2))]
            shape = c2.Polygon(core, radius=r)
        ellipse = (AXIS, TILT)[len(out) // 2 % 2]
        expected = _separation(core, r, ellipse)
        if expected is not None:  # the core apart from the ellipse
            out.append((shape, ellipse, expected))
    return out


def test_generic_small_shapes_beside_an_ellipse_of_size_1e149():
    """The relation's side of tangency and the separation to a few ulps of the small shape (not of
    1e149), in both orders, single and batched."""
    for shape, ellipse, expected in _generic_cases(6):
        code = c2.Relation.DISJOINT if expected > 0 else c2.Relation.OVERLAPPING
        first, second = _both_orders(c2.relate, shape, ellipse)
        assert [int(x) for x in first + second] == [code] * 6
        distances = _both_orders(c2.distance, shape, ellipse)
        want = max(float(expected), 0.0)
        for d in distances[0] + distances[1]:
            assert abs(float(d) - want) <= 1e-14
        for contact in (c2.contact(shape, ellipse), c2.contact(ellipse, shape)):
            assert abs(contact.separation - float(expected)) <= 1e-14


# -- time of impact: the search moved the huge ellipse by the relative motion, lost in its rounding --

IMPACTS = [  # (rounded shape, ellipse, velocity of the shape, time of first contact)
    (c2.Capsule((3.0, 0.0), (4.0, 0.5), 0.5), AXIS, (-1.0, 0.0), 2.5),  # the disc about (3, 0) meets the end of the axis
    (c2.Capsule((3.0, 0.0), (4.0, 0.5), 0.5), c2.Ellipse((-K, 0.0), (K, K)), (-1.0, 0.0), 2.5),  # a circle
    (c2.Capsule((3.0, 0.0), (4.0, 0.5), 0.5), TILT, (-1.0, 0.0), 13.0 / 6.0),  # 0.6 (3 - t) = 0.5 on the tangent line
    (FLAT, c2.Ellipse((0.0, 5 * T), (3 * T, T)), (0.0, T), 4.0),  # the flat rises 4 T to the ellipse's bottom
]


@pytest.mark.parametrize("case", range(len(IMPACTS)))
def test_time_of_impact_beside_an_ellipse_of_a_far_other_size(case):
    """Both orders (the ellipse moving the other way): the time of first contact, not 0 or 5e-324
    (the band's TOUCHING) nor a miss. Times to 1e-12 of t_max = 5; the normal from the first shape."""
    shape, ellipse, velocity, expected = IMPACTS[case]
    back = tuple(-v for v in velocity)
    hit = c2.time_of_impact(shape, ellipse, velocity, t_max=5.0)
    mirrored = c2.time_of_impact(ellipse, shape, (0.0, 0.0), velocity, t_max=5.0)
    moving = c2.time_of_impact(ellipse, shape, back, t_max=5.0)
    for impact in (hit, mirrored, moving):
        assert abs(impact.time - expected) <= 5e-12
    assert np.abs(hit.normal + mirrored.normal).max() <= 1e-12 and np.abs(hit.point - mirrored.point).max() <= 1e-12


DEEP = [  # (rounded shape whose core meets the ellipse, ellipse, separation): the ellipse is the half-plane
    # x <= 0 (AXIS) or 0.6 x + 0.8 y <= 0 (TILT) to within 1e-148 near the origin, so the separation is
    # minus the farthest reach of the shape across that line
    (c2.Capsule((-3.0, 0.0), (-4.0, 0.5), 0.5), AXIS, -4.5),
    (c2.Capsule((-0.25, 0.3), (1.0, 0.3), 0.5), AXIS, -0.75),
    (c2.Polygon([(-1.0, -1.0), (1.0, -0.5), (0.0, 1.0)], radius=0.25), TILT, -1.65),
]


@pytest.mark.parametrize("case", range(len(DEEP)))
def test_contact_of_a_core_inside_an_ellipse_of_size_1e149(case):
    """The separation (the penetration depth, negated) to a few ulps of the small shape, not of
    1e149, both orders, single and batched; the witness on the ellipse on its boundary line."""
    shape, ellipse, expected = DEEP[case]
    normal = np.array([-1.0, 0.0]) if ellipse is AXIS else np.array([-0.6, -0.8])
    def row0(contact):
        return type(contact)(*(np.asarray(field)[0] for field in contact))

    contacts = [c2.contact(shape, ellipse), row0(c2.contact(_batch(shape), ellipse)), row0(c2.contact(shape, _batch(ellipse)))]
    back = [c2.contact(ellipse, shape), row0(c2.contact(ellipse, _batch(shape))), row0(c2.contact(_batch(ellipse), shape))]
    for contact in contacts:
        assert abs(contact.separation - expected) <= 1e-14
        assert np.abs(contact.normal - normal).max() <= 1e-14
        assert abs(float(np.dot(contact.point_b, normal))) <= 1e-14  # on the tangent line
    for contact, first in zip(back, contacts):
        assert contact.separation == first.separation and np.abs(contact.normal + first.normal).max() <= 1e-14


# -- tame pairs at tangency: exact, not within the kernel's band ------------------------------------

AXIS_1 = c2.Ellipse((-1.0, 0.0), (1.0, 0.7))  # the end of its first axis at the origin, tangent x = 0
TILT_1 = c2.Ellipse((-3.0, -4.0), (5.0, 3.5), direction=(3, 4))  # the same at (0, 0), normal (0.6, 0.8)
INNER_UP = math.nextafter(-0.25, 0.0)  # a disc of radius 0.25 about it reaches one ulp beyond x = 0
TAME = [  # (rounded shape, ellipse, relation): the constructions above at size 1, one ulp from tangency
    (c2.Capsule((0.5, -1.0), (0.5, 1.0), 0.5), AXIS_1, "TOUCHING"),
    (c2.Capsule((UP, -1.0), (UP, 1.0), 0.5), AXIS_1, "DISJOINT"),
    (c2.Capsule((DOWN, -1.0), (DOWN, 1.0), 0.5), AXIS_1, "OVERLAPPING"),
    (c2.Box((UP, -1.0), (2.0, 1.0), radius=0.5), AXIS_1, "DISJOINT"),
    (c2.Box((DOWN, -1.0), (2.0, 1.0), radius=0.5), AXIS_1, "OVERLAPPING"),
    (c2.Capsule((0.375, 0.5), (1.125, 1.5), 0.625), TILT_1, "TOUCHING"),
    (c2.Polygon([(0.375, 0.5), (1.0, 3.0), (-2.0, 3.0)], radius=0.625), TILT_1, "TOUCHING"),
    (c2.Polygon([(0.375, 0.5), (1.0, 3.0), (-2.0, 3.0)], radius=math.nextafter(0.625, 0.0)), TILT_1, "DISJOINT"),
    (c2.Polygon([(0.375, 0.5), (1.0, 3.0), (-2.0, 3.0)], radius=math.nextafter(0.625, 1.0)), TILT_1, "OVERLAPPING"),
    # a disc touching the end of the axis from inside (its radius 0.25 below the ellipse's radius of
    # curvature there, 0.49, the least of the boundary's: the disc lies inside)
    (c2.Capsule((-0.25, 0.0), (-0.5, 0.0), 0.25), AXIS_1, "WITHIN"),
    (c2.Capsule((INNER_UP, 0.0), (-0.5, 0.0), 0.25), AXIS_1, "OVERLAPPING"),
]


@pytest.mark.parametrize("case", range(len(TAME)))
def test_tame_rounded_shape_one_ulp_from_an_ellipse_is_decided_exactly(case):
    # Before: every pair within 2**-40 of the pair's scale of tangency was TOUCHING (the kernel's
    # float band), so the ulp-apart and ulp-overlapping rows came out TOUCHING, and a disc one ulp
    # outside the ellipse's inner tangency WITHIN. The references are exact by construction (module
    # notes), both orders, single and batched; the predicates agree.
    shape, ellipse, expected = TAME[case]
    _assert_relation(shape, ellipse, expected)
    distances = _both_orders(c2.distance, shape, ellipse)
    assert all((float(d) > 0.0) == (expected == "DISJOINT") for d in distances[0] + distances[1])
