"""Extreme magnitudes: the supported range, and exact or accurate answers everywhere inside it.

The range (``docs/conventions.md``): coordinates within +-2**500 (about 3.27e150), sizes in
[2**-500, 2**500]; anything else is a ``ValueError`` at construction that names the range. Inside it
every operation must answer as it does at unit scale. References are independent of the kernels:
exact rationals (``fractions.Fraction``) for boxes, points and segments, mpmath at 60 digits for
distances of tilted segments, brute force for ``query_pairs``. Each case runs in both argument
orders and as a single pair and inside a batch.

The property test at the end draws pairs of every kind with sizes and positions spread over the
whole range (1e-150 beside 1e150 in one pair) and checks that no exception but the documented
``ValueError`` escapes, and that the operations agree with each other.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

import collide2d as c2
from collide2d._validate import MAGNITUDE_MAX, SIZE_MIN

R = c2.Relation


def _batch(shape, n=3):
    """``shape`` repeated ``n`` times as a batch (same stored numbers)."""
    kind = type(shape).__name__
    fields = {name: np.repeat(np.asarray(getattr(shape, name))[None], n, axis=0) for name in shape._field_names}
    if kind == "Polygon":
        return c2.Polygon(fields["vertices"])
    return type(shape)(*[fields[name] for name in shape._field_names])


def _both_orders_single_and_batch(function, a, b):
    """``function`` on (a, b) and (b, a), single and batched: ``[(ab, ba)]`` per variant."""
    single = (function(a, b), function(b, a))
    batched = (function(_batch(a), b), function(b, _batch(a)))
    return single, batched


# -- exact references ------------------------------------------------------------------------


def _box_separation(a, b):
    """Signed distance of two boxes on Fractions (gap, or minus the penetration depth), as a float."""
    amin, amax = [Fraction(float(v)) for v in a.min], [Fraction(float(v)) for v in a.max]
    bmin, bmax = [Fraction(float(v)) for v in b.min], [Fraction(float(v)) for v in b.max]
    gaps = [max(bmin[i] - amax[i], amin[i] - bmax[i]) for i in range(2)]
    if all(g < 0 for g in gaps):
        return float(max(gaps))  # the smaller overlap along an axis, negated
    return _sqrt(sum(max(g, 0) ** 2 for g in gaps))


def _sqrt(value):
    """Square root of a non-negative Fraction, rounded to float64 (via mpmath at 60 digits)."""
    with mpmath.workdps(60):
        return float(mpmath.sqrt(mpmath.mpf(value.numerator) / value.denominator))


def _orient(p, q, r):
    p, q, r = ([Fraction(float(v)) for v in x] for x in (p, q, r))
    value = (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return (value > 0) - (value < 0)


def _segment_point_distance(s0, s1, p):
    """Distance of a point to a segment: exact squared distance (Fractions), rounded square root."""
    ax, ay, bx, by, px, py = (Fraction(float(v)) for v in (*s0, *s1, *p))
    ex, ey = bx - ax, by - ay
    t = min(max(((px - ax) * ex + (py - ay) * ey) / (ex * ex + ey * ey), Fraction(0)), Fraction(1))
    return _sqrt((px - ax - t * ex) ** 2 + (py - ay - t * ey) ** 2)


# -- the range rule --------------------------------------------------------------------------


OUT_OF_RANGE = [
    ("ellipse-radii-1e308", lambda: c2.Ellipse((0, 0), (1e308, 5e307))),
    ("ellipse-aspect-1e300", lambda: c2.Ellipse((0, 0), (1e150, 1e-150))),
    ("circle-radius-1e-160", lambda: c2.Circle((0, 0), 1e-160)),
    ("circle-radius-1e-200-batch", lambda: c2.Circle(np.zeros((620, 2)), 1e-200)),
    ("box-1e155", lambda: c2.Box((0, 0), (1e155, 1e155))),
    ("box-1e200", lambda: c2.Box((-1e200, -1e200), (1e200, 1e200))),
    ("box-side-1e-200", lambda: c2.Box((0, 0), (1e-200, 1e-200))),
    ("box-from-center", lambda: c2.Box.from_center((0, 0), (1, 1e-151))),
    ("segment-1e160", lambda: c2.Segment((-1e160, 0), (1e160, 0))),
    ("segment-length-1e-200", lambda: c2.Segment((0, 0), (1e-200, 1e-200))),
    ("line-point-1e151", lambda: c2.Line((1e151, 0), (1, 0))),
    ("point-1e151", lambda: c2.Point((0, -1e151))),
    ("rotated-box-half-size", lambda: c2.RotatedBox((0, 0), (1, 1e-160), 0.3)),
    ("polygon-extent", lambda: c2.Polygon([(0, 0), (1e-160, 0), (0, 1e-160)])),
    ("polygon-far", lambda: c2.Polygon([(0, 0), (1e151, 0), (0, 1)])),
]


@pytest.mark.parametrize("make", [pytest.param(m, id=i) for i, m in OUT_OF_RANGE])
def test_out_of_range_raises_naming_the_range(make):
    with pytest.raises(ValueError, match="supported range"):
        make()


def test_range_limits_are_accepted():
    # the ends of the range themselves, harmless tiny offsets, and both in one shape
    big, small = MAGNITUDE_MAX, SIZE_MIN
    shapes = [
        c2.Circle((big, -big), small),
        c2.Circle((0, 0), big),
        c2.Ellipse((small, big), (big, big * 2.0**-100), 0.25),
        c2.Ellipse((small, big), (small, small * 2.0**100), 0.25),
        c2.Box((-big, -big), (big, big)),
        c2.Box((0, 0), (small, small)),
        c2.Segment((-big, 0), (big, 0)),
        c2.Segment((0, 0), (small, 0)),
        c2.Line((big, 1e-300), (small, 0)),
        c2.Line((0, 0), (1e-300, 5e-324)),
        c2.Line((0, 0), (1e308, -1e308)),
        c2.Point((1, 1e-300)),
        c2.Point((5e-324, -big)),
        c2.RotatedBox((0, 0), (big, small), 0.0),
        c2.Polygon([(0, 0), (small, 0), (0, small)]),
    ]
    assert all(isinstance(s, c2.Shape) for s in shapes)


def test_docs_state_the_range():
    import pathlib

    text = (pathlib.Path(__file__).parents[2] / "docs" / "conventions.md").read_text()
    assert "2**500" in text or "2⁵⁰⁰" in text
    assert "ValueError" in text
    for cls in (c2.Point, c2.Circle, c2.Ellipse, c2.Box, c2.RotatedBox, c2.Polygon, c2.Segment, c2.Line):
        assert "supported range" in cls.__doc__, cls.__name__


# -- crashes on valid shapes -----------------------------------------------------------------


def test_contact_thin_box_against_small_box():
    a, b = c2.Box((0, 0), (1e-6, 1e9)), c2.Box((0, 0), (0.125, 0.125))
    expected = _box_separation(a, b)
    assert expected == -1e-6
    for ab, ba in _both_orders_single_and_batch(c2.contact, a, b):
        for c in (ab, ba):
            assert np.all(c.separation == expected)
        np.testing.assert_array_equal(ab.normal, np.broadcast_to([1.0, 0.0], ab.normal.shape))
        # witnesses on the boundaries: a's on its right side x = 1e-6, b's on its left side x = 0
        assert np.all(ab.point_a[..., 0] == 1e-6) and np.all(ab.point_b[..., 0] == 0.0)
        np.testing.assert_array_equal(ba.point_b, ab.point_a)


def test_points_of_a_line_given_far_away_and_a_circle():
    line, circle = c2.Line((-1e16, 0), (1, 0)), c2.Circle((0, 0), 1)
    assert sorted(map(tuple, c2.intersection_points(line, circle))) == [(-1.0, 0.0), (1.0, 0.0)]
    assert sorted(map(tuple, c2.intersection_points(circle, line))) == [(-1.0, 0.0), (1.0, 0.0)]
    points, count = c2.intersection_points(_batch(line), circle)
    assert count.tolist() == [2, 2, 2]
    np.testing.assert_array_equal(np.sort(points[..., 0], axis=-1), np.broadcast_to([-1.0, 1.0], (3, 2)))
    points, count = c2.intersection_points(circle, _batch(line))
    assert count.tolist() == [2, 2, 2]
    np.testing.assert_array_equal(np.sort(points[..., 0], axis=-1), np.broadcast_to([-1.0, 1.0], (3, 2)))


def test_ellipse_beyond_the_range_is_a_value_error_not_a_crash():
    with pytest.raises(ValueError, match="radii"):
        c2.distance(c2.Ellipse((0, 0), (1e308, 5e307)), c2.Circle((0, 0), 1))


# -- huge and long shapes --------------------------------------------------------------------


@pytest.mark.parametrize("size", [1e100, 1e140, 1e150, 3e150])
def test_box_box_distance_at_huge_sizes(size):
    a = c2.Box((-size, -size / 2), (-size / 3, size / 2))
    b = c2.Box((size / 3, -size / 4), (size, size / 4))
    expected = _box_separation(a, b)
    for ab, ba in _both_orders_single_and_batch(c2.distance, a, b):
        assert np.all(np.asarray(ab) == pytest.approx(expected, rel=1e-15))
        assert np.all(np.asarray(ba) == pytest.approx(expected, rel=1e-15))
    c = c2.contact(a, b)
    np.testing.assert_allclose(c.point_b - c.point_a, c.separation * c.normal, rtol=1e-15)


@pytest.mark.parametrize(
    ("start", "end", "xy"),
    [
        ((-3e150, 0), (3e150, 0), (0, 1)),
        ((-3e150, 0), (3e150, 0), (1e-300, -1e-150)),
        ((-3e150, -1e150), (3e150, 1e150), (0, 1)),
        ((-1e150, 5e-324), (1e150, 0), (2.5, 3.5)),
        ((1, 1), (3e150, 1), (-4, -3)),
    ],
)
def test_long_segment_against_point(start, end, xy):
    segment, point = c2.Segment(start, end), c2.Point(xy)
    expected = _segment_point_distance(start, end, xy)
    for ab, ba in _both_orders_single_and_batch(c2.distance, segment, point):
        np.testing.assert_allclose(ab, expected, rtol=1e-14)
        np.testing.assert_allclose(ba, expected, rtol=1e-14)


def test_huge_box_around_unit_circle():
    box, circle = c2.Box((-3e150, -3e150), (3e150, 3e150)), c2.Circle((0, 0), 1)
    assert c2.relate(box, circle) == R.CONTAINS and c2.relate(circle, box) == R.WITHIN
    for ab, ba in _both_orders_single_and_batch(c2.intersection_points, box, circle):
        for value in (ab, ba):
            count = len(value) if isinstance(value, np.ndarray) else value[1]
            assert np.all(np.asarray(count) == 0)
    for ab, ba in _both_orders_single_and_batch(c2.overlap_area, box, circle):
        np.testing.assert_allclose(ab, math.pi, rtol=1e-14)
        np.testing.assert_allclose(ba, math.pi, rtol=1e-14)
    sep = c2.contact(box, circle).separation
    assert sep == pytest.approx(-(3e150 + 1), rel=1e-15)
    assert c2.distance(box, circle) == 0.0


@pytest.mark.parametrize("half", [1e15, 1e100, 3e150])
def test_long_segment_through_unit_circle(half):
    segment, circle = c2.Segment((-half, 0), (half, 0)), c2.Circle((0, 0), 1)
    for ab, ba in _both_orders_single_and_batch(c2.intersection_points, segment, circle):
        for value in (ab, ba):
            points = value if isinstance(value, np.ndarray) else value[0]
            np.testing.assert_array_equal(np.sort(points[..., 0], axis=-1), np.broadcast_to([-1.0, 1.0], points.shape[:-1]))
            assert np.all(points[..., 1] == 0.0)


def test_long_tilted_segment_through_unit_circle():
    # the exact points: the line y = x / 2 meets x^2 + y^2 = 1 at x = +-2 / sqrt(5)
    segment, circle = c2.Segment((-2e15, -1e15), (2e15, 1e15)), c2.Circle((0, 0), 1)
    points = np.sort(c2.intersection_points(segment, circle), axis=0)
    x = 2 / math.sqrt(5)
    # the line through the stored ends is exactly y = x / 2: the points are accurate to the radius,
    # not to the ends' magnitude (1e15)
    np.testing.assert_allclose(points, [[-x, -x / 2], [x, x / 2]], rtol=0, atol=4 * 2.0**-52)
    for first, second in ((segment, circle), (circle, segment)):
        np.testing.assert_array_equal(np.sort(c2.intersection_points(first, second), axis=0), points)


# -- tiny magnitudes -------------------------------------------------------------------------


def test_tiny_boxes_apart_are_disjoint():
    a, b = c2.Box((0, 0), (1e-150, 1e-150)), c2.Box((2e-150, 0), (3e-150, 1e-150))
    for ab, ba in _both_orders_single_and_batch(c2.relate, a, b):
        assert np.all(np.asarray(ab) == R.DISJOINT) and np.all(np.asarray(ba) == R.DISJOINT)
    expected = _box_separation(a, b)
    for ab, ba in _both_orders_single_and_batch(c2.distance, a, b):
        np.testing.assert_allclose(ab, expected, rtol=1e-15)
        np.testing.assert_allclose(ba, expected, rtol=1e-15)


def test_tiny_crossing_segments_are_not_equal():
    s, t = c2.Segment((0, 0), (1e-150, 1e-150)), c2.Segment((0, 1e-150), (1e-150, 0))
    assert _orient(s.start, s.end, t.start) * _orient(s.start, s.end, t.end) < 0  # they cross
    for ab, ba in _both_orders_single_and_batch(c2.relate, s, t):
        assert np.all(np.asarray(ab) == R.OVERLAPPING) and np.all(np.asarray(ba) == R.OVERLAPPING)
    points = c2.intersection_points(s, t)
    np.testing.assert_allclose(points, [[5e-151, 5e-151]], rtol=1e-15)


def test_tiny_direction_line_and_offset_point():
    line, point = c2.Line((0, 0), (1e-40, 0)), c2.Point((1, 1e-300))
    assert _orient((0, 0), (1e-40, 0), (1, 1e-300)) == 1  # the point lies left of the line
    for ab, ba in _both_orders_single_and_batch(c2.relate, line, point):
        assert np.all(np.asarray(ab) == R.DISJOINT) and np.all(np.asarray(ba) == R.DISJOINT)
    assert not c2.contains(line, point) and not c2.intersects(point, line)
    for ab, ba in _both_orders_single_and_batch(c2.distance, line, point):
        np.testing.assert_allclose(ab, 1e-300, rtol=1e-15)
        np.testing.assert_allclose(ba, 1e-300, rtol=1e-15)


def test_query_pairs_of_tiny_circles():
    rng = np.random.default_rng(20261124)
    r = 1e-150
    centers = rng.random((620, 2)) * 40 * r
    circles = c2.Circle(centers, r)
    found = c2.query_pairs(circles)
    f = [[Fraction(float(x)) for x in row] for row in centers]
    limit = (2 * Fraction(r)) ** 2
    expected = [
        (i, j)
        for i in range(len(f))
        for j in range(i + 1, len(f))
        if (f[i][0] - f[j][0]) ** 2 + (f[i][1] - f[j][1]) ** 2 <= limit
    ]
    assert len(expected) > 100
    assert list(map(tuple, found.T.tolist())) == expected


@pytest.mark.parametrize(
    "shape",
    [
        c2.Circle((0, 0), 1e-150),
        c2.Circle((1e150, -1e-300), SIZE_MIN),
        c2.Ellipse((0, 0), (1e150, 1e121), 0.0),
        c2.Ellipse((0, 0), (1e-121, 1e-150), math.pi / 2),
        c2.Ellipse((1, 1), (1e-150, 3e-150), 0.7),
    ],
)
def test_ellipse_bounds_cover_the_ellipse(shape):
    xmin, ymin, xmax, ymax = (Fraction(v) for v in shape.bounds)
    cx, cy, a, b, wx, wy = (Fraction(float(v)) for v in shape._params)
    # extreme points of the exact ellipse along x and y: half-widths sqrt(a^2 wx^2 + b^2 wy^2) / |w|
    n2 = wx * wx + wy * wy
    hx2 = (a * a * wx * wx + b * b * wy * wy) / n2
    hy2 = (a * a * wy * wy + b * b * wx * wx) / n2
    assert (xmax - cx) >= 0 and (xmax - cx) ** 2 >= hx2 and (cx - xmin) ** 2 >= hx2
    assert (ymax - cy) >= 0 and (ymax - cy) ** 2 >= hy2 and (cy - ymin) ** 2 >= hy2
    # and not loose by more than a few ulps
    assert float(xmax - cx) <= 1.0001 * math.sqrt(float(hx2)) + abs(float(cx)) * 1e-15


# -- closest_point on the shape --------------------------------------------------------------


@pytest.mark.parametrize(
    ("box", "xy", "expected"),
    [
        (c2.Box((0, 1), (1, 2)), (1e8, 0), (1, 1)),
        (c2.Box((1e-9, 0), (0.125000001, 0.125)), (0, 1), (1e-9, 0.125)),
        (c2.Box((0, 0), (1, 1)), (-1e12, 0.5), (0, 0.5)),
        (c2.Box((-3e150, -1), (3e150, 1)), (0, 5), (0, 1)),
    ],
)
def test_closest_point_of_a_box_lies_on_it(box, xy, expected):
    got = c2.closest_point(box, xy)
    assert tuple(got) == pytest.approx(expected, rel=1e-15, abs=1e-300)
    lo, hi = box.min, box.max
    assert lo[0] <= got[0] <= hi[0] and lo[1] <= got[1] <= hi[1]
    batch = c2.closest_point(_batch(box), xy)
    np.testing.assert_array_equal(batch, np.broadcast_to(got, batch.shape))
    c = c2.contact(c2.Point(xy), box)  # the other order: the witness on the box is point_b
    np.testing.assert_array_equal(c.point_b, got)


# -- the property test -----------------------------------------------------------------------

EXPONENTS = st.one_of(st.sampled_from([-150, -100, -50, -6, 0, 6, 50, 100, 150]), st.integers(-150, 150))


@st.composite
def _shape(draw, kind, center, size):
    """A shape of ``kind`` around ``center`` (a pair of floats) with size about ``size``."""
    unit = st.floats(0.25, 1.0)
    angle = draw(st.sampled_from([0.0, 0.3, math.pi / 2, 2.0]))
    ratio = draw(st.sampled_from([1.0, 1e-3, 1e-6]))
    cx, cy = center
    r1 = size * draw(unit)
    r2 = max(r1 * ratio, SIZE_MIN * 2, 2.0**-40 * max(abs(cx), abs(cy)))  # representable corners
    if kind == "Point":
        return c2.Point((cx, cy))
    if kind == "Circle":
        return c2.Circle((cx, cy), r1)
    if kind == "Ellipse":
        return c2.Ellipse((cx, cy), (r1, r2), angle)
    if kind == "Box":
        return c2.Box((cx - r1, cy - r2), (cx + r1, cy + r2))
    if kind == "RotatedBox":
        return c2.RotatedBox((cx, cy), (r1, r2), angle)
    if kind == "Polygon":
        t = angle + np.array([0.0, 2.1, 4.0])
        return c2.Polygon(np.stack([cx + r1 * np.cos(t), cy + r2 * np.sin(t)], axis=-1))
    if kind == "Segment":
        return c2.Segment((cx - r1 * math.cos(angle), cy - r1 * math.sin(angle)), (cx + r1 * math.cos(angle), cy + r1 * math.sin(angle)))
    return c2.Line((cx, cy), (math.cos(angle) * r1, math.sin(angle) * r1))


@st.composite
def _pair(draw, kind_a, kind_b):
    e_pos = draw(EXPONENTS)
    e_a, e_b = draw(EXPONENTS), draw(EXPONENTS)
    size_a, size_b = 10.0**e_a, 10.0**e_b
    ca = (draw(st.floats(-3, 3)) * 10.0**e_pos, draw(st.floats(-3, 3)) * 10.0**e_pos)
    near = max(size_a, size_b)
    offset = draw(st.sampled_from([0.0, 0.5, 1.0, 1.5, 3.0]))
    turn = draw(st.floats(0, 2 * math.pi))
    cb = (ca[0] + offset * near * math.cos(turn), ca[1] + offset * near * math.sin(turn))
    # a shape far smaller than the spacing of floats at its centre cannot be built (its corners or
    # ends round together): keep sizes above 2**-40 of the centre's coordinates
    size_a = max(size_a, 2.0**-40 * max(map(abs, ca)))
    size_b = max(size_b, 2.0**-40 * max(map(abs, cb)))
    try:
        return draw(_shape(kind_a, ca, size_a)), draw(_shape(kind_b, cb, size_b))
    except ValueError as error:  # the range rule, at the edges of the drawn magnitudes only
        assert "supported range" in str(error) or "four distinct" in str(error), str(error)
        assume(False)


KIND_NAMES = ("Point", "Circle", "Ellipse", "Box", "RotatedBox", "Polygon", "Segment", "Line")
KIND_PAIRS = [(a, b) for i, a in enumerate(KIND_NAMES) for b in KIND_NAMES[i:]]
REGIONS = {"Circle", "Ellipse", "Box", "RotatedBox", "Polygon"}


def _check_pair(a, b):
    """Every operation on (a, b) and (b, a), single and batched; they must agree with each other."""
    for x, y in ((a, b), (b, a)):
        rel = c2.relate(x, y)
        inter = c2.intersects(x, y)
        assert inter == (rel != R.DISJOINT)
        c = c2.contact(x, y)
        assert (c.separation > 0) == (not inter), (rel, c)
        if rel == R.TOUCHING:
            assert c.separation == 0.0
        assert c2.distance(x, y) == max(c.separation, 0.0)
        assert np.all(np.isfinite(c.normal))
        both_lines = isinstance(x, c2.Line) and isinstance(y, c2.Line)
        points = c2.intersection_points(x, y)
        # nearly parallel lines may cross beyond the largest float: the crossing is then inf
        assert np.all(np.isfinite(points)) or (both_lines and c.separation == -math.inf)
        area = c2.overlap_area(x, y)
        assert math.isfinite(area) and area >= 0.0
        if type(x).__name__ in REGIONS and type(y).__name__ in REGIONS:
            if rel in (R.DISJOINT, R.TOUCHING):
                assert area == 0.0
            else:
                assert area > 0.0, (rel, area)
        else:
            assert area == 0.0
        assert 0.0 <= c2.iou(x, y) <= 1.0
        for xy in (c.point_a, c.point_b):
            if np.any(np.abs(xy) > MAGNITUDE_MAX):  # a crossing of nearly parallel lines, far away
                assert both_lines
                continue
            q = c2.closest_point(x, xy)
            assert np.all(np.isfinite(q))
            code = c2.relate(x, c2.Point(xy))
            assert c2.intersects_xy(x, xy) == (code != R.DISJOINT)  # closed shape
            assert c2.contains_xy(x, xy) == (code in (R.CONTAINS, R.EQUAL))  # interior
        # the same pair inside a batch gives the same answers
        xb = _batch(x, 2)
        assert c2.relate(xb, y).tolist() == [int(rel)] * 2
        cb = c2.contact(xb, y)
        assert cb.separation.tolist() == [c.separation] * 2
        assert c2.distance(xb, y).tolist() == [c2.distance(x, y)] * 2
        _, count = c2.intersection_points(xb, y)
        assert count.tolist() == [len(points)] * 2
        assert c2.overlap_area(xb, y).tolist() == [area] * 2
    # areas are accurate to ulps of the coordinates times the sizes (a clipped vertex of a shape
    # far from the origin is rounded to the coordinates' spacing), in both orders alike
    bounds = np.array([a.bounds, b.bounds])
    finite = bounds[np.isfinite(bounds)]
    spacing = 64 * 2.0**-53 * float(np.max(np.abs(finite))) if finite.size else 0.0
    widths = np.abs(bounds[:, 2:] - bounds[:, :2])
    size = float(np.max(widths[np.isfinite(widths)], initial=0.0))
    area_ab, area_ba = c2.overlap_area(a, b), c2.overlap_area(b, a)
    assert area_ab == pytest.approx(area_ba, rel=1e-9, abs=spacing * size)


@pytest.mark.parametrize(("kind_a", "kind_b"), KIND_PAIRS)
@settings(max_examples=25, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_every_operation_agrees_across_magnitudes(kind_a, kind_b, data):
    a, b = data.draw(_pair(kind_a, kind_b))
    _check_pair(a, b)


MIXED = [
    (c2.Line((0, 0), (1e-300, 5e-324)), c2.Circle((0, 1e-150), 1e-150)),
    (c2.Line((1, 1), (1e308, -1e308)), c2.Box((0, 0), (1, 1))),
    (c2.Ellipse((4, 0), (4, 2), 1.0), c2.Line((4, 0), (0, 1e-300))),
    (c2.Circle((0, 0), 1e-150), c2.Box((-1e150, -1e150), (1e150, 1e150))),
    (c2.Ellipse((1e150, 0), (1e-150, 3e-150), 0.3), c2.Ellipse((1e150, 0), (2e150, 1e150), 1.0)),
    (c2.Ellipse((0, 0), (1e150, 1e120), 0.3), c2.Segment((-1e-150, -1e150), (1e-150, 1e150))),
    (c2.Ellipse((0, 0), (1e-150, 1e-120), 0.3), c2.Segment((-1e-150, -1e150), (1e-150, 1e150))),
    (c2.Ellipse((1e150, 1e150), (1e-120, 1e-150), 2.0), c2.Polygon([(1e150, 1e150), (2e150, 1e150), (1e150, 3e150)])),
    (c2.RotatedBox((0, 0), (1e150, 1e-150), math.pi / 2), c2.Circle((1e-149, 0), 1e-150)),
    (c2.Polygon([(0, 0), (1e150, 0), (0, 1e150)]), c2.Point((1e-300, 1e-300))),
    (c2.Line((0, 0), (1, 1e-150)), c2.Point((1e150, 1))),
    (c2.Line((0, 1e-300), (1e-150, 0)), c2.Circle((0, 1e150), 1e150)),
    (c2.Segment((0, 0), (1e-150, 0)), c2.Segment((0, 1e-150), (1e150, 1e-150))),
    # found by the property test: nearly parallel lines (they cross; the float cross product of
    # the directions was 0, the separation came out positive), one crossing beyond the largest float
    (c2.Line((0, 0), (9.55336489125606e-151, 2.9552020666133954e-151)),
     c2.Line((5e-101, 0), (7.165023668442045e-101, 2.2164015499600467e-101))),
    (c2.Line((0, 0), (7.165023668442045e-151, 2.2164015499600466e-151)),
     c2.Line((5e149, 0), (9.55336489125606e149, 2.9552020666133953e149))),
    (c2.Line((0, 0), (9.55336489125606e-51, 2.9552020666133955e-51)),
     c2.Line((5e149, 0), (9.55336489125606e149, 2.9552020666133953e149))),
    # found by the property test: a kernel division by zero (a point 1 ulp from the centre of an
    # ellipse of radii 1e-50 and 1e-53; tiny concentric ellipses; a tiny polygon and a long segment)
    (c2.Ellipse((0.0, 5e-51), (1e-50, 1e-53), math.pi / 2), c2.Line((0.0, 5e-51), (4.547473508864641e-63, 0.0))),
    (c2.Ellipse((0.0, 9.335843948969487e-104), (4.2454503040833e-116, 8.4909006081666e-116), 0.0),
     c2.Ellipse((0.0, 9.335843948969487e-104), (1e-06, 1e-06), 0.0)),
    (c2.Polygon([(1e-150, 0.0), (-5.048461045998576e-151, 8.632093666488738e-151),
                 (-6.53643620863612e-151, -7.568024953079283e-151)]), c2.Segment((-1e50, 0.0), (1e50, 0.0))),
    # tiny polygons far from their size's scale: areas in both orders agree to the coordinates' ulps
    (c2.Box((-9.094947017729283e-113, 9.999999999990905e-101), (9.094947017729283e-113, 1.0000000000009095e-100)),
     c2.RotatedBox((0.0, 1e-100), (9.094947017729283e-113, 9.094947017729283e-113), 0.3)),
    (c2.Polygon([(9.094947017729283e-113, 1e-100), (-4.5915485734427203e-113, 1.0000000000007851e-100),
                 (-5.944854100231277e-113, 9.999999999993117e-101)]),
     c2.Polygon([(4.547473508864641e-113, 1e-100), (-2.2957742867213602e-113, 1.0000000000007851e-100),
                 (-2.9724270501156384e-113, 9.999999999993117e-101)])),
]


@pytest.mark.parametrize(("a", "b"), MIXED, ids=[f"{type(a).__name__}-{type(b).__name__}" for a, b in MIXED])
def test_mixed_magnitudes_in_one_pair(a, b):
    _check_pair(a, b)


@pytest.mark.parametrize(
    ("a", "b", "code", "words"),
    [
        ("box 0 0 1e-6 1e9", "box 0 0 0.125 0.125", 0, "separation    -1e-06"),
        ("line -1e16 0 1 0", "circle 0 0 1", 0, "intersection  -1.0 0.0, 1.0 0.0"),
        ("ellipse 0 0 1e308 5e307", "circle 0 0 1", 2, "supported range"),
    ],
)
def test_cli_check_at_extreme_magnitudes(capsys, a, b, code, words):
    from collide2d.cli import main

    assert main(["check", a, b]) == code
    out, err = capsys.readouterr()
    assert words in out + err
    assert "Traceback" not in out + err
