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


# -- overlay (intersection_points, overlap_area, iou) of rounded pairs with sizes far apart ------------
# A capsule of size 3e-150 on the edge of a box of size 8e149, and a capsule of core 1e-149 and
# radius 1e150 against a line, raised ZeroDivisionError: the rounded overlay kernels scale the
# pair's largest number to about 1, where the small shape's squared lengths underflow. References
# in mpmath at 400 digits (every sum of the stored floats exact), in the capsule's own frame.


def _capsule_frame(a, b):
    mpmath.mp.dps = 400
    ax, ay, bx, by = (mpmath.mpf(float(v)) for v in (*a, *b))
    length = mpmath.hypot(bx - ax, by - ay)
    return ax, ay, (bx - ax) / length, (by - ay) / length, length


def _capsule_line_points(a, b, radius, p, q):
    """Meeting points of the boundary of Capsule(a, b, radius) with the line through p and q."""
    ax, ay, ux, uy, length = _capsule_frame(a, b)
    r = mpmath.mpf(float(radius))
    px, py, qx, qy = (mpmath.mpf(float(v)) for v in (*p, *q))
    # the line in the capsule's frame (u along the core from a, v to its left): P + t D
    P = ((px - ax) * ux + (py - ay) * uy, (py - ay) * ux - (px - ax) * uy)
    D = ((qx - px) * ux + (qy - py) * uy, (qy - py) * ux - (qx - px) * uy)
    ts = []
    if D[1] != 0:
        for side in (-r, r):  # the flats v = +-r, 0 <= u <= length
            t = (side - P[1]) / D[1]
            if 0 <= P[0] + t * D[0] <= length:
                ts.append(t)
    for end, outside in ((0, lambda u: u < 0), (length, lambda u: u > length)):  # the end half-circles
        # the foot of the end's centre on the line, then the half chord about it (no cancellation)
        A = D[0] ** 2 + D[1] ** 2
        t0 = -((P[0] - end) * D[0] + P[1] * D[1]) / A
        f2 = (P[0] - end + t0 * D[0]) ** 2 + (P[1] + t0 * D[1]) ** 2
        if f2 <= r * r:
            half = mpmath.sqrt((r * r - f2) / A)
            for t in (t0 - half, t0 + half):
                if outside(P[0] + t * D[0]):
                    ts.append(t)
    return [(float(px + t * (qx - px)), float(py + t * (qy - py))) for t in ts]


def _capsule_half_plane_area(a, b, radius, p, q):
    """Area of the part of Capsule(a, b, radius) left of the directed line p -> q: the integral over
    the capsule's width v of the length of its chord along u clipped to the half-plane."""
    ax, ay, ux, uy, length = _capsule_frame(a, b)
    r = mpmath.mpf(float(radius))
    px, py, qx, qy = (mpmath.mpf(float(v)) for v in (*p, *q))
    ex, ey = qx - px, qy - py
    # left of the line: ex (y - py) - ey (x - px) >= 0, with (x, y) = a + u U + v V
    alpha = ey * ux - ex * uy  # coefficient of u in the negated test: alpha u + beta v <= gamma
    beta = ey * (-uy) - ex * ux
    gamma = ex * (ay - py) - ey * (ax - px)

    def chord(v):
        half = mpmath.sqrt(max(r * r - v * v, 0))
        lo, hi = -half, length + half
        if alpha == 0:
            return hi - lo if beta * v <= gamma else mpmath.mpf(0)
        bound = (gamma - beta * v) / alpha
        lo, hi = (lo, min(hi, bound)) if alpha > 0 else (max(lo, bound), hi)
        return max(hi - lo, 0)

    mpmath.mp.dps = 30
    return float(mpmath.quad(chord, [-r, -r / 2, 0, r / 2, r]))


def _with_unit_row(shape):
    """``shape`` as row 0 of a batch of 2, beside a tame unit shape of the same class."""
    if isinstance(shape, c2.Capsule):
        return c2.Capsule([shape.a, (0.0, 0.0)], [shape.b, (1.0, 0.0)], [float(shape.radius), 0.5])
    if isinstance(shape, c2.Line):
        return c2.Line([shape.point, (0.0, 3.0)], [shape.direction, (1.0, 0.0)])
    rounded = {"radius": [float(shape.fields["radius"]), 0.5]} if "radius" in shape.fields else {}
    if isinstance(shape, c2.Box):
        return c2.Box([shape.min, (-1.0, -1.0)], [shape.max, (1.0, 1.0)], **rounded)
    if isinstance(shape, c2.RotatedBox):
        return c2.RotatedBox([shape.center, (0.0, 0.0)], [shape.half_size, (1.0, 0.5)], [float(shape.angle), 0.3],
                             **rounded)
    return c2.Polygon(np.stack([shape.vertices, shape.vertices / np.abs(shape.vertices).max()]), **rounded)


def _row0(answer):
    """Row 0 of a batch's answer (intersection points: ``(points NaN-padded, counts)``)."""
    if isinstance(answer, tuple):
        points, counts = answer
        return points[0][: counts[0]]
    return answer[0]


def _both_orders(op, a, b):
    """``op`` of (a, b) and (b, a), single and as row 0 of batches on either side."""
    return [op(a, b), op(b, a), _row0(op(_with_unit_row(a), b)), _row0(op(b, _with_unit_row(a))),
            _row0(op(a, _with_unit_row(b))), _row0(op(_with_unit_row(b), a))]


BIG_BOX = c2.Box((-4e149, -3.2e149), (4e149, 3.2e149))
LEFT_BOX = c2.Box((-8e149, -3.2e149), (0.0, 3.2e149))
BIG_TRIANGLE = c2.Polygon([(-3e149, -1e149), (3e149, 1e149), (-1e149, 2.5e149)])  # an edge through the origin
EDGE_CASES = [  # (capsule a, b, radius, polygon, the polygon's edge p -> q (counter-clockwise) the capsule crosses)
    ((4e149, -2.955e-150), (4e149, 2.955e-150), 3e-150, BIG_BOX, (4e149, -3.2e149), (4e149, 3.2e149)),
    ((-1e-150, 1e149), (2.5e-150, 1e149), 2e-150, LEFT_BOX, (0.0, -3.2e149), (0.0, 3.2e149)),
    ((-1e-150, 2e-150), (3e-150, -1e-150), 2e-150, BIG_TRIANGLE, (-3e149, -1e149), (3e149, 1e149)),
]


@pytest.mark.parametrize("case", range(len(EDGE_CASES)))
def test_small_capsule_on_the_edge_of_a_far_larger_polygon(case):
    a, b, radius, polygon, p, q = EDGE_CASES[case]
    capsule = c2.Capsule(a, b, radius)
    area = _capsule_half_plane_area(a, b, radius, p, q)
    assert area > 0.0
    for got in _both_orders(c2.overlap_area, capsule, polygon):
        assert abs(float(got) - area) <= 1e-9 * area
    union = float(c2.area(capsule)) + float(c2.area(polygon)) - area
    for got in _both_orders(c2.iou, capsule, polygon):
        assert float(got) == pytest.approx(area / union, rel=1e-9, abs=0.0)
    expected = sorted(_capsule_line_points(a, b, radius, p, q))
    assert len(expected) == 2
    size = float(np.hypot(*np.subtract(b, a))) + radius
    for got in _both_orders(c2.intersection_points, capsule, polygon):
        got = sorted(map(tuple, np.asarray(got, dtype=float)))
        assert len(got) == 2
        for g, e in zip(got, expected):
            assert np.abs(np.subtract(g, e)).max() <= 1e-9 * size + 4 * np.spacing(np.abs(e)).max()


LINE_CASES = [  # a rounded shape of core 1e-149 and radius 1e150, a line through it
    c2.Capsule((-9.8e-150, -2e-150), (9.8e-150, 2e-150), 1e150),
    c2.Box((-1e-149, -2e-149), (1e-149, 1e-149), radius=1e150),
    c2.RotatedBox((1e-149, 0.0), (2e-149, 1e-149), 0.4, radius=1e150),
    c2.Polygon([(0.0, 0.0), (2e-149, 0.0), (0.0, 1e-149)], radius=1e150),
]


@pytest.mark.parametrize("case", range(len(LINE_CASES)))
def test_line_through_a_rounded_shape_of_tiny_core_and_huge_radius(case):
    shape = LINE_CASES[case]
    line = c2.Line((2e150, 1e149), (9.95e148, 9.98e147))
    # the core lies within 3e-149 of the origin, far below the answer's accuracy: the boundary is
    # the circle of radius 1e150 about the origin to within it (a capsule of zero core in mpmath)
    expected = sorted(_circle_line_points(1e150, (2e150, 1e149), (9.95e148, 9.98e147)))
    for got in _both_orders(c2.intersection_points, shape, line):
        got = sorted(map(tuple, np.asarray(got, dtype=float)))
        assert len(got) == 2
        for g, e in zip(got, expected):
            assert np.abs(np.subtract(g, e)).max() <= 1e-12 * 1e150


def _circle_line_points(radius, point, direction):
    """Meeting points of the circle of ``radius`` about the origin and a line, in mpmath."""
    mpmath.mp.dps = 50
    px, py, dx, dy, r = (mpmath.mpf(float(v)) for v in (*point, *direction, radius))
    A, B, C = dx * dx + dy * dy, 2 * (px * dx + py * dy), px * px + py * py - r * r
    root = mpmath.sqrt(B * B - 4 * A * C)
    return [(float(px + t * dx), float(py + t * dy)) for t in ((-B - root) / (2 * A), (-B + root) / (2 * A))]


HALVED = [  # rounded shapes of size ~1e-150 symmetric about the y axis, the edge x = 0 of LEFT_BOX
    c2.Box((-3e-150, -2e-150), (3e-150, 2e-150), radius=1e-150),
    c2.RotatedBox((0.0, 0.0), (2e-150, 1e-150), 0.7, radius=1e-150),  # symmetric about its centre
    c2.Polygon([(-2e-150, -1e-150), (2e-150, -1e-150), (2e-150, 1e-150), (-2e-150, 1e-150)], radius=1e-150),
]


@pytest.mark.parametrize("case", range(len(HALVED)))
def test_small_rounded_shape_halved_by_the_edge_of_a_far_larger_box(case):
    """A line through a centrally symmetric shape's centre halves it: the overlap is half the
    shape's own area (Steiner's formula), the meeting points lie on the edge x = 0."""
    shape = HALVED[case]
    half = float(c2.area(shape)) / 2.0
    for got in _both_orders(c2.overlap_area, shape, LEFT_BOX):
        assert abs(float(got) - half) <= 1e-12 * half
    for got in _both_orders(c2.intersection_points, shape, LEFT_BOX):
        got = np.asarray(got, dtype=float)
        assert got.shape == (2, 2) and np.abs(got[:, 0]).max() <= 1e-12 * 3e-150
        assert abs(got[0, 1] + got[1, 1]) <= 1e-12 * 3e-150  # symmetric about the centre


# A small rounded shape beside a circle of radius 1e149 whose boundary passes through the origin
# (sizes 2**495 apart): the ellipse kernels decide the separation within a band relative to the
# pair's scale, so a capsule 2.5 outside came out TOUCHING. Reference: exact rationals; the core's
# nearest point to the centre (the projection on each edge, clamped), its squared distance against
# (r + rho)^2; within the circle when every core vertex is within rho - r of the centre.
HUGE_CIRCLE = ((-1e149, 0.0), 1e149)
NEAR_CIRCLE = [  # (shape, core vertices)
    (c2.Capsule((3.0, 0.0), (4.0, 0.5), 0.5), [(3.0, 0.0), (4.0, 0.5)]),  # 2.5 outside (the reported pair)
    (c2.Capsule((0.5000000000000001, 0.0), (4.0, 0.5), 0.5), [(0.5000000000000001, 0.0), (4.0, 0.5)]),  # 1 ulp out
    (c2.Capsule((0.5, 0.0), (4.0, 0.5), 0.5), [(0.5, 0.0), (4.0, 0.5)]),  # touching at the origin
    (c2.Capsule((0.25, 0.0), (4.0, 0.5), 0.5), [(0.25, 0.0), (4.0, 0.5)]),  # 0.25 in
    (c2.Capsule((-3.0, 0.0), (-4.0, 0.5), 0.5), [(-3.0, 0.0), (-4.0, 0.5)]),  # inside
    (c2.Box((0.5, -1.0), (2.0, 1.0), radius=0.5), [(0.5, -1.0), (2.0, -1.0), (2.0, 1.0), (0.5, 1.0)]),  # touching
    (c2.Box((0.5, -1.0), (2.0, 1.0), radius=0.4375), [(0.5, -1.0), (2.0, -1.0), (2.0, 1.0), (0.5, 1.0)]),
    (c2.Polygon([(1.0, 0.0), (3.0, -1.0), (3.0, 1.0)], radius=0.5), [(1.0, 0.0), (3.0, -1.0), (3.0, 1.0)]),
    (c2.Polygon([(1.0, 0.0), (3.0, -1.0), (3.0, 1.0)], radius=1.0), [(1.0, 0.0), (3.0, -1.0), (3.0, 1.0)]),
    (c2.Polygon([(1.0, 0.0), (3.0, -1.0), (3.0, 1.0)], radius=1.5), [(1.0, 0.0), (3.0, -1.0), (3.0, 1.0)]),
]


def _circle_reference(core, radius):
    """The exact relation code of the rounded shape (core vertices, radius; the centre outside the
    core) and :data:`HUGE_CIRCLE`, as seen from the rounded shape."""
    (cx, cy), rho = (Fraction(v) for v in HUGE_CIRCLE[0]), Fraction(HUGE_CIRCLE[1])
    core = [(Fraction(x), Fraction(y)) for x, y in core]
    r = Fraction(radius)
    edges = list(zip(core, core[1:] + core[:1])) if len(core) >= 3 else [(core[0], core[1])]

    def nearest2(a, b):
        ex, ey = b[0] - a[0], b[1] - a[1]
        t = min(max(((cx - a[0]) * ex + (cy - a[1]) * ey) / (ex * ex + ey * ey), Fraction(0)), Fraction(1))
        return (a[0] + t * ex - cx) ** 2 + (a[1] + t * ey - cy) ** 2

    gap = min(nearest2(a, b) for a, b in edges) - (r + rho) ** 2
    if gap != 0:
        if gap > 0:
            return c2.Relation.DISJOINT
        inside = all((x - cx) ** 2 + (y - cy) ** 2 <= (rho - r) ** 2 for x, y in core)
        return c2.Relation.WITHIN if inside else c2.Relation.OVERLAPPING
    return c2.Relation.TOUCHING


def _with_unit_circle(center, radius):
    return c2.Ellipse([center, (0.0, 0.0)], [(radius, radius), (1.0, 1.0)])


@pytest.mark.parametrize("case", range(len(NEAR_CIRCLE)))
def test_small_rounded_shape_beside_a_circle_of_radius_1e149_relates_exactly(case):
    shape, core = NEAR_CIRCLE[case]
    expected = _circle_reference(core, float(shape.fields["radius"]))
    circle = c2.Ellipse(HUGE_CIRCLE[0], (HUGE_CIRCLE[1], HUGE_CIRCLE[1]))
    swapped = {c2.Relation.WITHIN: c2.Relation.CONTAINS}.get(expected, expected)
    batch, circles = _with_unit_row(shape), _with_unit_circle(*HUGE_CIRCLE)
    assert [int(c2.relate(shape, circle)), int(c2.relate(batch, circle)[0]), int(c2.relate(shape, circles)[0])] == [expected] * 3
    assert [int(c2.relate(circle, shape)), int(c2.relate(circle, batch)[0]), int(c2.relate(circles, shape)[0])] == [swapped] * 3
    meets = expected != c2.Relation.DISJOINT
    assert [bool(c2.intersects(shape, circle)), bool(c2.intersects(circle, shape)), bool(c2.intersects(batch, circle)[0]),
            bool(c2.intersects(circles, shape)[0])] == [meets] * 4
    for separation in (c2.distance(shape, circle), c2.distance(circle, shape), c2.distance(batch, circle)[0],
                       c2.distance(circles, shape)[0], c2.contact(shape, circle).separation):
        # the separation's sign follows the relation (0 when touching, <= 0 when the interiors meet)
        assert separation > 0.0 if not meets else separation == 0.0 if expected == c2.Relation.TOUCHING else separation <= 0.0
