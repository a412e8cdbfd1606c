"""Converters to and from shapely, GeoJSON, matplotlib, OpenCV, astropy regions, scikit-image,
pygame and pandas: each checked against the other library itself (skipped only when it is not
installed) and against independent references (exact rationals, a distance-to-ellipse solver)."""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from conftest import KINDS, build, random_batch

import collide2d as c2
from collide2d import convert

FLAT_KINDS = ("Point", "Box", "RotatedBox", "Polygon", "Segment")


# -- references -------------------------------------------------------------------------------------


def _ellipse_frame(shape, points):
    """Points in the frame of a single ellipse's stored row: coordinates along its axes."""
    cx, cy, a, b, wx, wy = shape._params.tolist()
    norm = math.hypot(wx, wy)
    d = np.asarray(points, dtype=np.float64) - (cx, cy)
    return (d[..., 0] * wx + d[..., 1] * wy) / norm, (-d[..., 0] * wy + d[..., 1] * wx) / norm, a, b


def _distance_to_ellipse(s, t, a, b):
    """Distance from the points ``(s, t)`` to the curve ``(s/a)**2 + (t/b)**2 = 1``.

    The nearest curve point of ``(s, t)`` is ``(a**2 s / (a**2 + l), b**2 t / (b**2 + l))`` for the
    root ``l > -min(a, b)**2`` of ``G(l) = (a s / (a**2 + l))**2 + (b t / (b**2 + l))**2 - 1``,
    which decreases there (Eberly, "Distance from a point to an ellipse", Geometric Tools, 2013):
    found by bisection, all points at once. Valid for points outside the evolute, as every point
    here is (they lie within a small fraction of the smaller radius of the curve).
    """
    s, t = np.abs(s), np.abs(t)
    lo = np.full(s.shape, -min(a, b) ** 2)
    hi = a * s + b * t + 1.0
    for _ in range(100):  # the bracket is at most a few times (a + b)**2 wide: 2**-100 of it is nothing
        mid = 0.5 * (lo + hi)
        g = (a * s / (a * a + mid)) ** 2 + (b * t / (b * b + mid)) ** 2 - 1.0
        lo, hi = np.where(g > 0, mid, lo), np.where(g > 0, hi, mid)
    l = 0.5 * (lo + hi)
    return np.hypot(s - a * a * s / (a * a + l), t - b * b * t / (b * b + l))


def _segment_distances(points, starts, ends):
    """Distance from each point (n, 2) to its segment (``starts[k]``, ``ends[k]``), each (n, 2)."""
    d = ends - starts
    w = points - starts
    u = np.clip(np.sum(w * d, axis=-1) / np.sum(d * d, axis=-1), 0.0, 1.0)
    return np.hypot(*np.moveaxis(w - u[..., None] * d, -1, 0))


def _hausdorff_upper_bound(shape, ring, spacing):
    """A rigorous upper bound of the Hausdorff distance between an ellipse's curve and a polygon's
    boundary: both are sampled at steps at most ``spacing`` long, and a distance to a set changes
    by at most the step (it is 1-Lipschitz), so the largest sampled distance plus ``spacing / 2``
    bounds the supremum; ``1e-12`` of the radius more covers the rounding of the samples."""
    starts, ends = ring, np.roll(ring, -1, axis=0)
    # polygon -> curve: each edge sampled
    samples = []
    for p, q in zip(starts, ends):
        k = int(np.ceil(np.hypot(*(q - p)) / spacing)) + 1
        samples.append(p + np.linspace(0.0, 1.0, k)[:, None] * (q - p))
    s, t, a, b = _ellipse_frame(shape, np.concatenate(samples))
    to_curve = _distance_to_ellipse(s, t, a, b).max()
    # curve -> polygon: parameter steps of at most spacing / max(a, b) move at most spacing; the
    # distance of a curve point to the chord between the vertices whose parameters bracket its
    # own is at least its distance to the whole boundary, so still an upper bound
    cx, cy, _, _, wx, wy = shape._params.tolist()
    norm = math.hypot(wx, wy)
    steps = np.linspace(0.0, 2 * math.pi, int(np.ceil(2 * math.pi * max(a, b) / spacing)) + 1)
    along, across = a * np.cos(steps), b * np.sin(steps)
    curve = np.stack([cx + (along * wx - across * wy) / norm, cy + (along * wy + across * wx) / norm], axis=-1)
    s, t, _, _ = _ellipse_frame(shape, ring)
    order = np.argsort(np.mod(np.arctan2(t / b, s / a), 2 * math.pi))
    vertex_steps = np.mod(np.arctan2(t / b, s / a), 2 * math.pi)[order]
    after = np.searchsorted(vertex_steps, steps) % len(order)
    before = (after - 1) % len(order)
    to_polygon = _segment_distances(curve, ring[order[before]], ring[order[after]]).max()
    return max(to_curve, to_polygon) + 0.5 * spacing + 1e-12 * max(a, b)


# -- shapely ----------------------------------------------------------------------------------------


def test_ellipse_to_shapely_is_within_tolerance_of_the_curve():
    """The inscribed polygon's boundary is within the tolerance of the exact curve (Hausdorff), its
    vertices lie on the curve, and it does not use many more vertices than needed."""
    shapely = pytest.importorskip("shapely")
    rng = np.random.default_rng(1701)
    cases = [(c2.Circle((0.5, -0.25), 3.0), 0.01), (c2.Ellipse((2, 1), (4, 1.5), direction=(3, 4)), 0.004)]
    for _ in range(3):
        radii = rng.uniform(0.5, 3.0, 2)
        cases.append((c2.Ellipse(rng.uniform(-10, 10, 2), radii, rng.uniform(-4, 4)), rng.uniform(0.002, 0.03) * radii.max()))
    for shape, tolerance in cases:
        polygon = c2.to_shapely(shape, tolerance=tolerance)
        ring = np.asarray(polygon.exterior.coords)[:-1]
        assert polygon.is_valid and polygon.exterior.is_ccw
        bound = _hausdorff_upper_bound(shape, ring, tolerance / 50)
        assert bound <= tolerance, (shape, tolerance, bound)
        s, t, a, b = _ellipse_frame(shape, ring)
        np.testing.assert_allclose(np.hypot(s / a, t / b), 1.0, rtol=0, atol=1e-14)  # inscribed
        assert bound > 0.5 * tolerance  # not far more vertices than the tolerance needs
        # the polygon lies inside the ellipse (up to the rounding of its vertices)
        assert c2.intersects_xy(c2.Ellipse(shape.center, np.asarray(shape._params[2:4]) * (1 + 1e-14), direction=shape._params[4:6]), ring).all()
    assert shapely.is_valid(c2.to_shapely(c2.Ellipse((0, 0), (1e6, 1e-3)), tolerance=1e-4))


def test_to_shapely_batches_and_flat_kinds_are_exact():
    shapely = pytest.importorskip("shapely")
    rng = np.random.default_rng(1702)
    for kind in KINDS:
        if kind == "Line":
            continue
        shapes, fields = random_batch(kind, rng, (2, 3))
        out = c2.to_shapely(shapes)
        assert out.shape == (2, 3) and out.dtype == object
        for i, j in itertools.product(range(2), range(3)):
            single = c2.to_shapely(build(kind, fields[3 * i + j]))
            assert shapely.equals_exact(out[i, j], single, tolerance=0.0), (kind, out[i, j], single)
            if kind not in ("Circle", "Ellipse"):  # the same point set exactly: every predicate agrees
                assert c2.equals(c2.from_shapely(single), shapes[i, j])
    assert c2.to_shapely(c2.Circle(np.zeros((0, 2)), 1.0)).shape == (0,)


def test_to_shapely_refuses_lines_and_bad_tolerances():
    pytest.importorskip("shapely")
    with pytest.raises(ValueError, match="Line"):
        c2.to_shapely(c2.Line((0, 0), (1, 1)))
    for bad in (0.0, -1.0, math.nan, math.inf, 1e-13):
        with pytest.raises(ValueError, match="tolerance"):
            c2.to_shapely(c2.Circle((0, 0), 1), tolerance=bad)
    with pytest.raises(TypeError, match="shape"):
        c2.to_shapely("circle")


def test_from_shapely_kinds():
    shapely = pytest.importorskip("shapely")
    from shapely import affinity

    assert c2.from_shapely(shapely.Point(1, 2)).xy.tolist() == [1.0, 2.0]
    segment = c2.from_shapely(shapely.LineString([(0, 0), (3, 4)]))
    assert isinstance(segment, c2.Segment) and segment.end.tolist() == [3.0, 4.0]
    # axis-aligned rectangles in any vertex order and winding are boxes
    for ring in ([(0, 0), (2, 0), (2, 1), (0, 1)], [(2, 1), (2, 0), (0, 0), (0, 1)]):
        box = c2.from_shapely(shapely.Polygon(ring))
        assert isinstance(box, c2.Box) and box.bounds == (0.0, 0.0, 2.0, 1.0)
    # a rectangle whose corners a RotatedBox stores exactly: the 3-4-5 rectangle
    rotated = c2.from_shapely(shapely.Polygon([(0, 0), (4, 3), (1, 7), (-3, 4)]))
    assert isinstance(rotated, c2.RotatedBox)
    assert rotated.center.tolist() == [0.5, 3.5] and rotated.half_size.tolist() == [2.5, 2.5]
    # a rectangle rotated in floats (not exactly right-angled, or rounded differently): a polygon
    # with exactly its vertices, so that no point changes side
    turned = affinity.rotate(shapely.box(0, 0, 2, 1), 17.0, origin=(0.3, 0.1))
    polygon = c2.from_shapely(turned)
    assert isinstance(polygon, c2.Polygon)
    assert sorted(map(tuple, polygon.vertices.tolist())) == sorted(set(turned.exterior.coords))
    # any object with __geo_interface__, its ring closed or not
    class Triangle:
        def __init__(self, ring):
            self.__geo_interface__ = {"type": "Polygon", "coordinates": (ring,)}

    for ring in ([(0, 0), (4, 0), (0, 3), (0, 0)], [(0, 0), (4, 0), (0, 3)]):
        assert c2.equals(c2.from_shapely(Triangle(ring)), c2.Polygon([(0, 0), (4, 0), (0, 3)]))
    # a triangle with a vertex on an edge keeps its region
    triangle = c2.from_shapely(shapely.Polygon([(0, 0), (1, 0), (2, 0), (0, 2)]))
    assert isinstance(triangle, c2.Polygon) and len(triangle.vertices) == 3


@pytest.mark.parametrize("kind", FLAT_KINDS)
def test_flat_shapes_round_trip_through_shapely(kind):
    """to_shapely then from_shapely gives the same point set, and shapely agrees on it point by point."""
    shapely = pytest.importorskip("shapely")
    rng = np.random.default_rng([1703, KINDS.index(kind)])
    shapes, _ = random_batch(kind, rng, (20,))
    geometries = c2.to_shapely(shapes)
    xy = rng.integers(-6, 7, size=(60, 2)).astype(np.float64)
    for shape, geometry in zip(shapes, geometries):
        back = c2.from_shapely(geometry)
        assert c2.equals(back, shape), (shape, back)
        np.testing.assert_array_equal(c2.intersects_xy(back, xy), shapely.intersects_xy(geometry, xy[:, 0], xy[:, 1]))
        np.testing.assert_array_equal(c2.contains_xy(back, xy), shapely.contains_xy(geometry, xy[:, 0], xy[:, 1]))


def test_from_shapely_errors():
    shapely = pytest.importorskip("shapely")
    with pytest.raises(TypeError, match="geometry"):
        c2.from_shapely([(0, 0), (1, 1)])
    with pytest.raises(TypeError, match="MultiPoint"):
        c2.from_shapely(shapely.MultiPoint([(0, 0), (1, 1)]))
    with pytest.raises(TypeError, match="GeometryCollection"):
        c2.from_shapely(shapely.GeometryCollection([shapely.Point(0, 0)]))
    with pytest.raises(ValueError, match="empty"):
        c2.from_shapely(shapely.Polygon())
    with pytest.raises(ValueError, match="two points"):
        c2.from_shapely(shapely.LineString([(0, 0), (1, 0), (2, 1)]))
    with pytest.raises(ValueError, match="end must differ"):
        c2.from_shapely(shapely.LineString([(1, 1), (1, 1)]))
    with pytest.raises(ValueError, match="holes"):
        c2.from_shapely(shapely.box(0, 0, 4, 4).difference(shapely.box(1, 1, 2, 2)))
    with pytest.raises(ValueError, match="geometry: the Polygon's vertices must be convex"):
        c2.from_shapely(shapely.Polygon([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)]))
    with pytest.raises(ValueError, match="finite"):
        c2.from_shapely(shapely.Point(np.nan, 0))


def test_geo_interface():
    shapely = pytest.importorskip("shapely")
    from shapely.geometry import shape as from_geojson

    rng = np.random.default_rng(1704)
    for kind in KINDS:
        if kind == "Line":
            assert not hasattr(c2.Line((0, 0), (1, 0)), "__geo_interface__")
            continue
        shapes, _ = random_batch(kind, rng, (3,))
        collection = shapes.__geo_interface__
        assert collection["type"] == "GeometryCollection" and len(collection["geometries"]) == 3
        for single, mapping, geometry in zip(shapes, collection["geometries"], c2.to_shapely(shapes)):
            assert single.__geo_interface__ == mapping
            assert shapely.equals_exact(from_geojson(mapping), geometry, tolerance=0.0)
    ring = c2.Polygon([(0, 0), (0, 1), (1, 0)]).__geo_interface__["coordinates"][0]
    assert ring[0] == ring[-1] and shapely.LinearRing(ring).is_ccw  # RFC 7946: closed, counter-clockwise


# -- matplotlib -------------------------------------------------------------------------------------


def test_to_patch_matches_the_shapes():
    pytest.importorskip("matplotlib")
    from matplotlib import collections, patches

    rng = np.random.default_rng(1705)
    circle = np.stack([np.cos(np.linspace(0, 2 * np.pi, 50)), np.sin(np.linspace(0, 2 * np.pi, 50))], axis=-1)
    for _ in range(20):  # the patch maps the unit circle onto the ellipse's curve
        e = c2.Ellipse(rng.uniform(-5, 5, 2), rng.uniform(0.5, 3, 2), rng.uniform(-7, 7))
        patch = c2.to_patch(e)
        assert isinstance(patch, patches.Ellipse)
        s, t, a, b = _ellipse_frame(e, patch.get_patch_transform().transform(circle))
        np.testing.assert_allclose(np.hypot(s / a, t / b), 1.0, atol=1e-12)
        box = c2.RotatedBox(rng.uniform(-5, 5, 2), rng.uniform(0.5, 3, 2), rng.uniform(-7, 7))
        corners = c2.to_patch(box).get_patch_transform().transform([(0, 0), (1, 0), (1, 1), (0, 1)])
        np.testing.assert_allclose(corners, box.corners, atol=1e-12)
    c = c2.to_patch(c2.Circle((1, 2), 3), edgecolor="red")
    assert isinstance(c, patches.Circle) and (c.center, c.radius) == ((1.0, 2.0), 3.0)
    polygon = c2.Polygon([(0, 0), (2, 0), (1, 2)])
    np.testing.assert_array_equal(c2.to_patch(polygon).get_xy()[:3], polygon.vertices)
    segment = c2.to_patch(c2.Segment((0, 0), (1, 2)))
    assert not segment.get_fill() and segment.get_path().vertices.tolist() == [[0.0, 0.0], [1.0, 2.0]]
    batch = c2.to_patch(c2.Box(np.zeros((2, 3, 2)), np.ones((2, 3, 2))), facecolor="none")
    assert isinstance(batch, collections.PatchCollection) and len(batch.get_paths()) == 6
    for shape in (c2.Point((0, 0)), c2.Line((0, 0), (1, 0))):
        with pytest.raises(TypeError, match=type(shape).__name__):
            c2.to_patch(shape)


# -- OpenCV -----------------------------------------------------------------------------------------


def test_opencv_round_trips():
    rng = np.random.default_rng(1706)
    for _ in range(50):
        rect = (tuple(rng.uniform(0, 640, 2).tolist()), tuple(rng.uniform(1, 100, 2).tolist()), float(rng.uniform(-180, 180)))
        for cls in (c2.Ellipse, c2.RotatedBox):
            back = cls.from_opencv(rect).to_opencv()
            assert back[0] == rect[0] and back[1] == rect[1]  # halving and doubling are exact
            assert back[2] == pytest.approx(rect[2], rel=1e-15, abs=1e-13)
    # shapes to OpenCV and back: the same set (the angle through degrees within an ulp or two)
    e = c2.Ellipse((3, 4), (2, 1), 0.7)
    again = c2.Ellipse.from_opencv(e.to_opencv())
    np.testing.assert_allclose(again.direction, e.direction, rtol=0, atol=1e-15)
    assert c2.Circle((1, 2), 3).to_opencv() == ((1.0, 2.0), (6.0, 6.0), 0.0)
    # a sequence of rectangles is a batch; a batch gives a list
    batch = c2.Ellipse.from_opencv([((0, 0), (4, 2), 0), ((5, 5), (2, 2), 45)])
    assert batch.shape == (2,) and batch.to_opencv()[1] == ((5.0, 5.0), (2.0, 2.0), 45.0)


def test_opencv_errors():
    with pytest.raises(TypeError, match="rotated_rect"):
        c2.Ellipse.from_opencv((1, 2, 3))
    with pytest.raises(ValueError, match="rotated_rect.*half the width"):
        c2.Ellipse.from_opencv(((0, 0), (0, 2), 0))
    with pytest.raises(ValueError, match="rotated_rect"):
        c2.RotatedBox.from_opencv(((0, 0), (-1, 2), 0))
    with pytest.raises(TypeError, match="RotatedBox"):
        convert.to_opencv(c2.Box((0, 0), (1, 1)))


def test_opencv_agrees_with_cv2():
    """cv2 itself: its ellipse polygons lie on our ellipse, its box points are our corners, and
    fitEllipse on points of our ellipse gives it back."""
    cv2 = pytest.importorskip("cv2")
    rng = np.random.default_rng(1707)
    for _ in range(20):
        center = tuple(rng.integers(200, 400, 2).tolist())
        axes = tuple(rng.integers(20, 150, 2).tolist())  # half axes, as ellipse2Poly takes them
        degrees = int(rng.integers(-180, 180))
        e = c2.Ellipse.from_opencv((center, (2 * axes[0], 2 * axes[1]), degrees))
        points = cv2.ellipse2Poly(center, axes, degrees, 0, 360, 2).astype(np.float64)
        s, t, a, b = _ellipse_frame(e, points)
        # ellipse2Poly rounds its points to whole pixels: within 1 pixel of the curve
        assert np.all(_distance_to_ellipse(s, t, a, b) <= 0.75), (center, axes, degrees)
        rect = (tuple(rng.uniform(0, 500, 2).tolist()), tuple(rng.uniform(2, 80, 2).tolist()), float(rng.uniform(-90, 90)))
        corners = cv2.boxPoints(rect).astype(np.float64)  # float32 inside cv2
        ours = c2.RotatedBox.from_opencv(rect).corners
        distance = np.min(np.hypot(*np.moveaxis(corners[:, None] - ours[None], -1, 0)), axis=1)
        assert np.all(distance < 1e-3), (rect, corners, ours)
        truth = c2.Ellipse(rng.uniform(100, 500, 2), rng.uniform(10, 90, 2), rng.uniform(-3, 3))
        t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
        a, b = truth.radii
        u = truth.direction / np.hypot(*truth.direction)
        curve = truth.center + np.outer(a * np.cos(t), u) + np.outer(b * np.sin(t), (-u[1], u[0]))
        fitted = c2.Ellipse.from_opencv(cv2.fitEllipse(curve.astype(np.float32)))
        check = truth.center + np.array([[0, 0], *(0.999 * (curve - truth.center)), *(1.001 * (curve - truth.center))])
        np.testing.assert_array_equal(c2.intersects_xy(fitted, check), [True] * 41 + [False] * 40)


# -- astropy regions, scikit-image, pygame ----------------------------------------------------------


def test_astropy_regions():
    units = pytest.importorskip("astropy.units")
    regions = pytest.importorskip("regions")
    rng = np.random.default_rng(1708)
    for _ in range(10):
        center = regions.PixCoord(*rng.uniform(0, 100, 2))
        width, height = rng.uniform(5, 40, 2)
        degrees = rng.uniform(-180, 180)
        xy = center.xy + rng.uniform(-25, 25, (300, 2))
        pixels = regions.PixCoord(xy[:, 0], xy[:, 1])
        for angle in (degrees * units.deg, np.radians(degrees) * units.rad):
            region = regions.EllipsePixelRegion(center, width, height, angle=angle)
            e = c2.Ellipse.from_astropy(region)
            assert e.radii.tolist() == [width / 2, height / 2]
            s, t, a, b = _ellipse_frame(e, xy)
            clear = np.abs(np.hypot(s / a, t / b) - 1) > 1e-9  # points not within rounding of the curve
            np.testing.assert_array_equal(c2.intersects_xy(e, xy)[clear], region.contains(pixels)[clear])
        rectangle = regions.RectanglePixelRegion(center, width, height, angle=degrees * units.deg)
        np.testing.assert_allclose(c2.RotatedBox.from_astropy(rectangle).corners[[0, 1, 2, 3]], np.roll(rectangle.corners, 0, axis=0), atol=1e-9)
    circle = c2.Ellipse.from_astropy(regions.CirclePixelRegion(regions.PixCoord(1, 2), 3))
    assert isinstance(circle, c2.Circle) and circle.radius == 3.0
    sky = regions.CircleSkyRegion(pytest.importorskip("astropy.coordinates").SkyCoord(1, 2, unit="deg"), 3 * units.arcsec)
    with pytest.raises(TypeError, match="to_pixel"):
        c2.Ellipse.from_astropy(sky)
    with pytest.raises(TypeError, match="RectanglePixelRegion"):
        c2.RotatedBox.from_astropy(regions.CirclePixelRegion(regions.PixCoord(1, 2), 3))


def test_scikit_image_ellipse_model():
    measure = pytest.importorskip("skimage.measure")
    rng = np.random.default_rng(1709)
    for _ in range(10):
        truth = c2.Ellipse(rng.uniform(-50, 50, 2), rng.uniform(1, 20, 2), rng.uniform(-3, 3))
        t = np.linspace(0, 2 * np.pi, 30, endpoint=False)
        a, b = truth.radii
        u = truth.direction / np.hypot(*truth.direction)
        curve = truth.center + np.outer(a * np.cos(t), u) + np.outer(b * np.sin(t), (-u[1], u[0]))
        model = measure.EllipseModel.from_estimate(curve) if hasattr(measure.EllipseModel, "from_estimate") else None
        if model is None:  # scikit-image before 0.26
            model = measure.EllipseModel()
            assert model.estimate(curve)
        fitted = c2.Ellipse.from_skimage(model)
        s, t_, a_, b_ = _ellipse_frame(fitted, curve)
        np.testing.assert_allclose(np.hypot(s / a_, t_ / b_), 1.0, atol=1e-8)
    assert c2.Ellipse.from_skimage((1, 2, 3, 4, 0.5)).angle == 0.5
    with pytest.raises(TypeError, match="params"):
        c2.Ellipse.from_skimage((1, 2, 3))


def test_pygame_rect():
    pygame = pytest.importorskip("pygame")
    for rect in (pygame.Rect(10, 20, 30, 40), pygame.FRect(10.0, 20.0, 30.0, 40.0), (10, 20, 30, 40)):
        assert c2.Box.from_pygame(rect).bounds == (10.0, 20.0, 40.0, 60.0)
        flipped = c2.Box.from_pygame(rect, height=100)
        assert flipped.bounds == (10.0, 40.0, 40.0, 80.0)
    # the same pixels: pygame's collidepoint and the box agree on pixel centres (screen coordinates)
    rect = pygame.Rect(3, 4, 5, 6)
    box = c2.Box.from_pygame(rect)
    for x, y in itertools.product(range(12), range(12)):
        assert rect.collidepoint(x, y) == c2.contains_xy(box, (x + 0.5, y + 0.5))
    with pytest.raises(ValueError, match="width and height"):
        c2.Box.from_pygame((0, 0, 0, 5))
    with pytest.raises(TypeError, match="rect"):
        c2.Box.from_pygame("rect")


def test_import_collide2d_imports_no_optional_library():
    code = (
        "import sys, collide2d as c2\n"
        "c2.Ellipse.from_skimage((1, 2, 3, 4, 0.5)); c2.Box.from_pygame((0, 0, 1, 1))\n"
        "c2.Ellipse.from_opencv(((0, 0), (2, 1), 30)); c2.Circle((0, 0), 1).__geo_interface__\n"
        "print(sorted(m for m in ('shapely', 'matplotlib', 'pandas', 'cv2', 'astropy', 'regions', 'skimage', 'pygame', 'numba') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- pandas -----------------------------------------------------------------------------------------


def test_table_from_dataframe_catalogue():
    pandas = pytest.importorskip("pandas")
    rng = np.random.default_rng(1710)
    n = 500
    df = pandas.DataFrame({"id": np.arange(n), "x": rng.uniform(0, 50, n), "y": rng.uniform(0, 50, n),
                           "rx": rng.uniform(0.5, 2, n), "ry": rng.uniform(0.5, 2, n), "angle": rng.uniform(0, 180, n)})
    table = c2.ShapeTable.from_dataframe(df, degrees=True)
    direct = c2.Ellipse(df[["x", "y"]].to_numpy(), df[["rx", "ry"]].to_numpy(), np.radians(df["angle"].to_numpy()))
    np.testing.assert_array_equal(table.params, c2.ShapeTable([direct]).params)
    pairs = c2.query_pairs(table)
    np.testing.assert_array_equal(pairs, c2.query_pairs(direct))
    frame = c2.measure_pairs(table, pairs).to_dataframe(pairs, ids=df["id"].to_numpy() + 1000)
    assert list(frame.columns[:3]) == ["a", "b", "relation"]
    np.testing.assert_array_equal(frame["a"], pairs[0] + 1000)
    measures = c2.measure_pairs(direct, pairs)
    np.testing.assert_array_equal(frame["separation"], measures.separation)
    np.testing.assert_array_equal(frame["point_b_y"], measures.point_b[:, 1])
    assert frame["relation"].tolist() == [c2.Relation(int(code)).name for code in measures.relation]
    # renamed columns, circles, no angle column
    circles = pandas.DataFrame({"ra": [0.0, 3.0], "dec": [1.0, 1.0], "size": [1.0, 2.0]})
    table = c2.ShapeTable.from_dataframe(circles, columns={"x": "ra", "y": "dec", "r": "size"})
    assert table.kind_names == ["ellipse", "ellipse"] and isinstance(table[0], c2.Circle)
    assert c2.ShapeTable.from_dataframe(df.drop(columns="angle"))[0].angle == 0.0


def test_table_dataframe_round_trip_of_every_kind():
    pandas = pytest.importorskip("pandas")
    rng = np.random.default_rng(1711)
    sources = [random_batch(kind, rng, (3,))[0] for kind in KINDS] + [c2.Polygon([(0, 0), (1, 0), (1, 1), (0, 1), (-1, 0.5)])]
    table = c2.ShapeTable(sources)
    df = table.to_dataframe()
    assert len(df) == len(table) and set(df["kind"]) == {"point", "circle", "ellipse", "box", "rotated_box", "polygon", "segment", "line"}
    back = c2.ShapeTable.from_dataframe(df)
    assert len(back) == len(table)
    for k in range(len(table)):
        assert type(back[k]) is type(table[k])
        assert c2.equals(back[k], table[k]) or isinstance(table[k], (c2.Ellipse, c2.RotatedBox)), (table[k], back[k])
        if isinstance(table[k], c2.Ellipse):  # angles round-trip through radians within an ulp
            np.testing.assert_allclose(back[k].direction, table[k].direction, rtol=0, atol=1e-15)
    assert isinstance(pandas.DataFrame, type)


def test_dataframe_errors():
    pandas = pytest.importorskip("pandas")
    with pytest.raises(ValueError, match="columns of one kind"):
        c2.ShapeTable.from_dataframe(pandas.DataFrame({"a": [1.0]}))
    with pytest.raises(ValueError, match=r"df rows 0 to 1 \(circle\): radius must be positive"):
        c2.ShapeTable.from_dataframe(pandas.DataFrame({"x": [0.0, 1.0], "y": [0.0, 0.0], "r": [1.0, -1.0]}))
    with pytest.raises(ValueError, match="column x must hold numbers"):
        c2.ShapeTable.from_dataframe(pandas.DataFrame({"x": ["a"], "y": [0.0], "r": [1.0]}))
    with pytest.raises(ValueError, match="unknown kind 'blob'"):
        c2.ShapeTable.from_dataframe(pandas.DataFrame({"kind": ["blob"], "x": [0.0], "y": [0.0]}))
    with pytest.raises(ValueError, match="need the columns r"):
        c2.ShapeTable.from_dataframe(pandas.DataFrame({"kind": ["circle"], "x": [0.0], "y": [0.0]}))
    measures = c2.measure_pairs(c2.Circle([(0, 0), (1, 0)], 1), [[0], [1]])
    with pytest.raises(ValueError, match="pairs must have shape"):
        measures.to_dataframe([[0, 1]])
    assert len(c2.ShapeTable.from_dataframe(pandas.DataFrame({"x": [], "y": [], "r": []}))) == 0


def test_rectangle_detection_is_exact():
    """A rectangle is recognised by exact rational tests, never by a tolerance."""
    shapely = pytest.importorskip("shapely")
    almost = [(0, 0), (4, 3), (1, 7), (-3, 4 + 2.0**-40)]  # one corner off by 2**-40
    assert isinstance(c2.from_shapely(shapely.Polygon(almost)), c2.Polygon)
    p = [tuple(map(Fraction, v)) for v in almost]
    assert p[0][1] + p[2][1] != p[1][1] + p[3][1]  # indeed not a parallelogram
