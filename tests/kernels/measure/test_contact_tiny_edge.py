"""Contact of an ellipse with a polygon or a segment that has an edge of about 1.4e-9
(``distance_ellipse.contact_ellipse_polygon``, ``contact_ellipse_segment``).

The two ends of such an edge project on a corner's normal equally to rounding; the witness must be
the vertex whose normal the kernel chose, or it lies 1.4e-9 beside the normal's line (the normal
was up to 6.5e-8 rad off the direction of the witness points). Oracles in exact rational
arithmetic (``fractions.Fraction``) on the stored numbers:

* a circle: the nearest point ``q`` of the polygon to the centre ``c`` (a vertex or a foot on an
  edge, both rational); the normal is the direction of ``q - c`` within a few ulps;
* an ellipse: the normal is the ellipse's own normal at ``point_a`` (the gradient of its equation
  there, evaluated exactly on the returned float point), and ``point_b - point_a`` is parallel to it.

Both argument orders, single and batched.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

import collide2d as c2
from collide2d.measurement import contact

EDGE = 1e-9  # the cut of the corner: an edge of length 1.4e-9
ANGLE_TOL = 1e-13  # radians, for witnesses at least 1e-2 apart (a few ulps of the unit scene, over 1e-2)


def F(x):
    return Fraction(float(x))


def angle_between(u, v):
    """The angle (rad) between two float vectors, its sine from the exact cross product."""
    ux, uy, vx, vy = map(F, (*u, *v))
    cross = ux * vy - uy * vx
    return abs(float(cross)) / (math.hypot(float(ux), float(uy)) * math.hypot(float(vx), float(vy)))


def cut_square(rng):
    """A unit square, one corner cut by an edge of 1.4e-9, turned and moved at random."""
    angle = rng.uniform(0.0, 2.0 * math.pi)
    c, s = math.cos(angle), math.sin(angle)
    square = np.array([(0, 0), (1, 0), (1, 1 - EDGE), (1 - EDGE, 1), (0, 1)])
    return square @ np.array([[c, s], [-s, c]]) + rng.uniform(-2, 2, 2)


def nearest_point(vertices, p):
    """The point of the closed convex polygon ``vertices`` nearest to ``p`` outside it (exact)."""
    V = [(F(x), F(y)) for x, y in vertices]
    px, py = F(p[0]), F(p[1])
    best = None
    for (x0, y0), (x1, y1) in zip(V, V[1:] + V[:1]):
        ex, ey = x1 - x0, y1 - y0
        t = min(max(((px - x0) * ex + (py - y0) * ey) / (ex * ex + ey * ey), Fraction(0)), Fraction(1))
        q = (x0 + t * ex, y0 + t * ey)
        d2 = (px - q[0]) ** 2 + (py - q[1]) ** 2
        if best is None or d2 < best[0]:
            best = (d2, q)
    return best[1]


def circles_near_the_cut(rng, V, count):
    """Circles whose centres lie outside the square beyond the cut, near enough to overlap or not."""
    corner = 0.5 * (V[2] + V[3])
    outward = (V[2] + V[3]) - (V[0] + V[4])  # from the square's inside through the cut
    outward /= np.hypot(*outward)
    out = []
    for _ in range(count):
        spread = rng.uniform(-0.7, 0.7)  # about the cut's normal: most centres see a vertex nearest
        direction = outward * math.cos(spread) + np.array([-outward[1], outward[0]]) * math.sin(spread)
        distance = rng.uniform(0.2, 1.0)
        out.append((corner + distance * direction, distance + rng.uniform(-0.1, 0.1)))
    return out


def test_circle_against_a_polygon_with_a_tiny_edge_matches_the_exact_nearest_point():
    rng = np.random.default_rng(14)
    worst = 0.0
    for _ in range(40):
        V = cut_square(rng)
        polygon = c2.Polygon(V)
        vertices = polygon.vertices
        circles = circles_near_the_cut(rng, V, 4)
        for centre, radius in circles:
            circle = c2.Circle(centre, radius)
            ab, ba = contact(circle, polygon), contact(polygon, circle)
            np.testing.assert_array_equal(ba.normal, -ab.normal)
            np.testing.assert_array_equal(ba.point_a, ab.point_b)
            qx, qy = nearest_point(vertices, centre)
            exact_direction = (float(qx - F(centre[0])), float(qy - F(centre[1])))
            assert np.dot(ab.normal, exact_direction) > 0.0
            worst = max(worst, angle_between(ab.normal, exact_direction))
            gap = ab.point_b - ab.point_a
            if np.hypot(*gap) > 1e-2:
                worst = max(worst, angle_between(ab.normal, gap))
        batch = contact(c2.Circle(np.array([c for c, _ in circles]), [r for _, r in circles]), polygon)
        for k, (centre, radius) in enumerate(circles):
            one = contact(c2.Circle(centre, radius), polygon)
            np.testing.assert_array_equal(batch.normal[k], one.normal)
            np.testing.assert_array_equal(batch.point_b[k], one.point_b)
    assert worst <= ANGLE_TOL, worst


def ellipse_normal_angle(result, ellipse):
    """The angle between ``result.normal`` and the ellipse's exact normal at ``result.point_a``."""
    (cx, cy), (a, b), angle = ellipse.center, ellipse.radii, ellipse.angle
    wx, wy = math.cos(angle), math.sin(angle)  # the axis, to rounding: the normal's own is ~1e-16
    dx, dy = F(result.point_a[0]) - F(cx), F(result.point_a[1]) - F(cy)
    x, y = dx * F(wx) + dy * F(wy), -dx * F(wy) + dy * F(wx)  # in the ellipse's frame
    gx, gy = x / F(a) ** 2, y / F(b) ** 2  # the gradient of x^2 / a^2 + y^2 / b^2 there
    world = (float(gx * F(wx) - gy * F(wy)), float(gx * F(wy) + gy * F(wx)))
    return angle_between(result.normal, world)


def test_ellipse_against_a_polygon_or_segment_with_a_tiny_edge_keeps_witnesses_on_the_normal():
    rng = np.random.default_rng(15)
    worst_gap = worst_normal = 0.0
    for k in range(60):
        V = cut_square(rng)
        shape = c2.Polygon(V) if k % 2 else c2.Segment(V[2], V[3])  # the cut alone: a segment of 1.4e-9
        centre, _ = circles_near_the_cut(rng, V, 1)[0]
        radii = rng.uniform(0.05, 0.6, 2)
        ellipse = c2.Ellipse(centre, radii, rng.uniform(0.0, math.pi))
        ab, ba = contact(ellipse, shape), contact(shape, ellipse)
        np.testing.assert_array_equal(ba.normal, -ab.normal)
        np.testing.assert_array_equal(ba.point_b, ab.point_a)
        gap = ab.point_b - ab.point_a
        if np.hypot(*gap) > 1e-2:
            worst_gap = max(worst_gap, angle_between(ab.normal, gap))
        worst_normal = max(worst_normal, ellipse_normal_angle(ab, ellipse))
    assert worst_gap <= ANGLE_TOL, worst_gap
    assert worst_normal <= 1e-12, worst_normal  # the float point_a lies off the curve by an ulp
