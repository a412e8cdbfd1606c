"""Rounded shapes at extreme magnitudes: pairs whose sizes no single power of two tames.

A capsule of size 1 beside an ellipse of size 1e149 (or a capsule of size 1e-149 beside a unit
ellipse; a line 1e-149 long inside a capsule of 1e149) raised ZeroDivisionError from the contact
kernels, which ran on the pair's own numbers (the ellipse kernels raise lengths to the fourth
power) or scaled so that the small shape's numbers underflowed. The contact of a rounded pair is
its cores' contact with the radii added; the cores' contact is measured as the plain kinds' is.

References, independent of the kernels: mpmath at 50 digits (the least distance of the ellipse's
boundary from the capsule's core segment, golden-section search from the best of 720 samples;
the ellipse is outside the capsule in these cases), exact rationals for a line's distance from a
segment's ends. Each case runs in both argument orders, as a single pair and inside a batch.
Last, the reference point of a polygon of size 1e150 for motion (its area centroid on Fractions).
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

import collide2d as c2


def _segment_ellipse(p0, p1, center, radii, angle):
    """``(distance, point on the segment, point on the ellipse)`` of a segment and an ellipse that
    lies wholly on one side of it, in mpmath (50 digits)."""
    mpmath.mp.dps = 50
    x0, y0, x1, y1 = (mpmath.mpf(float(v)) for v in (*p0, *p1))
    cx, cy, a, b = (mpmath.mpf(float(v)) for v in (*center, *radii))
    c, s = mpmath.cos(mpmath.mpf(float(angle))), mpmath.sin(mpmath.mpf(float(angle)))
    ex, ey = x1 - x0, y1 - y0

    def parts(t):
        px = cx + a * mpmath.cos(t) * c - b * mpmath.sin(t) * s
        py = cy + a * mpmath.cos(t) * s + b * mpmath.sin(t) * c
        k = min(max(((px - x0) * ex + (py - y0) * ey) / (ex * ex + ey * ey), 0), 1)
        fx, fy = x0 + k * ex, y0 + k * ey
        return mpmath.hypot(px - fx, py - fy), (fx, fy), (px, py)

    step = 2 * mpmath.pi / 720
    k = min(range(720), key=lambda i: parts(i * step)[0])
    lo, hi = (k - 1) * step, (k + 1) * step
    g = (mpmath.sqrt(5) - 1) / 2
    for _ in range(160):
        t1, t2 = hi - g * (hi - lo), lo + g * (hi - lo)
        if parts(t1)[0] <= parts(t2)[0]:
            hi = t2
        else:
            lo = t1
    return parts((lo + hi) / 2)


def _batch(shape):
    """``shape`` and a unit capsule or ellipse as a batch of 2 (the extreme pair first)."""
    if isinstance(shape, c2.Capsule):
        return c2.Capsule([shape.a, (0.0, 0.0)], [shape.b, (1.0, 0.0)], [float(shape.radius), 0.5])
    if isinstance(shape, c2.Line):
        return c2.Line([shape.point, (0.0, 3.0)], [shape.direction, (1.0, 0.0)])
    return c2.Ellipse([shape.center, (4.0, 0.0)], [shape.radii, (1.0, 0.5)], [float(shape.angle), 0.3])


def _contacts(a, b):
    """The contact of (a, b) as it is reported for ``a`` first: single (a, b), single (b, a) mirrored,
    and row 0 of the batches (a, b) and (b, a) mirrored; separations also from ``distance``."""
    first = c2.contact(a, b)
    out = [(first.separation, first.normal, first.point_a, first.point_b)]
    back = c2.contact(b, a)
    out.append((back.separation, -back.normal, back.point_b, back.point_a))
    batch = c2.contact(_batch(a), b)
    out.append((batch.separation[0], batch.normal[0], batch.point_a[0], batch.point_b[0]))
    batch = c2.contact(b, _batch(a))
    out.append((batch.separation[0], -batch.normal[0], batch.point_b[0], batch.point_a[0]))
    distances = [c2.distance(a, b), c2.distance(b, a), c2.distance(_batch(a), b)[0], c2.distance(b, _batch(a))[0]]
    return [tuple(np.asarray(v, dtype=float) for v in r) for r in out], distances


CASES = [  # (capsule a, b, radius, ellipse centre, radii, angle): sizes ~2**495 apart
    ((0.345584192064786, 0.8216181435011584), (0.33043707618338714, -1.303157231604361), 0.9063558666731177,
     (9.053558666731177e148, 4.463745723640113e148), (4.4558419206478603e148, 9.216181435011584e148), -0.916272603972453),
    ((1.5e-149, 2e-149), (3.5e-149, -1e-149), 2e-149, (2.0, 0.5), (1.0, 0.5), 0.3),  # a tiny capsule outside a unit ellipse
]


@pytest.mark.parametrize("case", range(len(CASES)))
def test_capsule_ellipse_contact_at_sizes_far_apart(case):
    a, b, radius, center, radii, angle = CASES[case]
    capsule, ellipse = c2.Capsule(a, b, radius), c2.Ellipse(center, radii, angle)
    d, foot, on_ellipse = _segment_ellipse(a, b, center, radii, angle)
    separation = d - mpmath.mpf(radius)
    normal = np.array([float((on_ellipse[0] - foot[0]) / d), float((on_ellipse[1] - foot[1]) / d)])
    size_a = max(abs(v) for v in (*a, *b)) + radius  # the capsule's own scale: its witness keeps it
    scale = max(size_a, *(abs(v) for v in center), *radii)
    contacts, distances = _contacts(capsule, ellipse)
    for sep, n, point_a, point_b in contacts:
        assert abs(float(sep) - float(separation)) <= 1e-12 * scale
        assert np.abs(n - normal).max() <= 1e-9
        expected_a = np.array([float(foot[0] + radius * normal[0]), float(foot[1] + radius * normal[1])])
        assert np.abs(point_a - expected_a).max() <= 1e-9 * size_a  # on the capsule's own scale
        assert np.abs(point_b - np.array([float(v) for v in on_ellipse])).max() <= 1e-9 * scale
    assert all(v == contacts[0][0] for v in distances)


def test_line_inside_a_far_larger_capsule():
    """A line through a capsule of size 1e149, its stored point and direction of size 1e-149
    (ZeroDivisionError before: the direction underflowed to 0 when the pair was scaled for the
    capsule). The separation is the exact least distance of the core's ends from the line, minus
    the radius: negative (the line crosses the capsule)."""
    capsule = c2.Capsule((-4e149, 0.0), (4e149, 1e149), 1.2e149)
    line = c2.Line((1e-149, 5e-150), (1e-149, 3e-149))
    x0, y0, x1, y1 = (Fraction(float(v)) for v in (*capsule.a, *capsule.b))
    px, py, dx, dy = (Fraction(float(v)) for v in (*line.point, *line.direction))
    crosses = [dx * (y - py) - dy * (x - px) for x, y in ((x0, y0), (x1, y1))]
    assert crosses[0] * crosses[1] < 0  # the core crosses the line: the cores' separation is -min |cross| / |d|
    mpmath.mp.dps = 50
    depth = min(abs(mpmath.mpf(c.numerator) / c.denominator) for c in crosses) / mpmath.hypot(float(dx), float(dy))
    expected = float(-depth - mpmath.mpf(float(capsule.radius)))
    contacts, distances = _contacts(capsule, line)
    for sep, n, point_a, point_b in contacts:
        assert abs(float(sep) - expected) <= 1e-12 * 4e149
        assert abs(float(np.dot(n, [float(dx), float(dy)]))) <= 1e-9 * float(np.hypot(float(dx), float(dy)))
    assert distances == [0.0] * 4  # distance is 0 for shapes that meet


@pytest.mark.parametrize("radius", [0.25e150, 0.0])
def test_rotation_about_the_centroid_of_a_polygon_of_size_1e150(radius):
    """A polygon of size 1e150 (rounded, and plain) turned about its own reference point, its area
    centroid (as ``time_of_impact`` turns it): the centroid's sums, of degree 3 in the lengths,
    overflowed (a RuntimeWarning, an error under ``-W error``). Reference: the centroid on
    Fractions, the quarter turn of each vertex about it."""
    s = 1e150
    square = np.array([[0.0, 0.0], [s, 0.1 * s], [1.2 * s, s], [0.1 * s, 0.9 * s]])
    single = c2.Polygon(square, radius=radius) if radius else c2.Polygon(square)
    batch = c2.Polygon(np.stack([square, square]), radius=[radius, radius]) if radius else c2.Polygon(np.stack([square, square]))
    v = [(Fraction(float(x)), Fraction(float(y))) for x, y in square]
    cross = [v[i][0] * v[(i + 1) % 4][1] - v[(i + 1) % 4][0] * v[i][1] for i in range(4)]
    area6 = 3 * sum(cross)
    cx = sum((v[i][0] + v[(i + 1) % 4][0]) * cross[i] for i in range(4)) / area6
    cy = sum((v[i][1] + v[(i + 1) % 4][1]) * cross[i] for i in range(4)) / area6
    expected = np.array([[float(cx - (y - cy)), float(cy + (x - cx))] for x, y in v])  # a quarter turn about c
    for turned in (c2.rotate(single, np.pi / 2).vertices, *c2.rotate(batch, np.pi / 2).vertices):
        assert np.abs(turned - expected).max() <= 1e-12 * s
