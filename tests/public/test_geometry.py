"""Area, length and centroid of one shape (``c2.area``, ``c2.length``, ``c2.centroid`` and the
properties ``shape.area``, ``shape.length``, ``shape.centroid``) against independent references:
mpmath at 50 digits for ellipses and circles (``mpmath.ellipe`` for the perimeter), exact Fractions
for polygons, boxes, segments and points."""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import collide2d as c2
from collide2d import _geometry
from conftest import CATALOGUE, random_batch, random_polygon_vertices

U = 2.0**-53
DIGITS = 50


def ulps(value, exact):
    """``|value - exact|`` in ulps of ``value`` (``exact`` a Fraction or an mpmath number)."""
    if isinstance(exact, Fraction):
        error = abs(Fraction(value) - exact)
        return float(error / Fraction(math.ulp(value))) if value != 0 else (0.0 if exact == 0 else math.inf)
    with mpmath.workdps(DIGITS):
        return float(abs(mpmath.mpf(value) - exact) / mpmath.mpf(math.ulp(value)))


def perimeter_mp(a, b):
    """The ellipse perimeter ``4 a E(1 - (b/a)**2)`` to 50 digits (the parameter m = 1 - k'**2 is
    formed with enough extra digits that k'**2 survives at aspect ratios up to 2**100)."""
    a, b = max(a, b), min(a, b)
    extra = int(2 * math.log10(a / b)) + 10
    with mpmath.workdps(DIGITS + extra):
        m = 1 - (mpmath.mpf(b) / mpmath.mpf(a)) ** 2
        return 4 * mpmath.mpf(a) * mpmath.ellipe(m)


def ellipse_area_mp(a, b):
    with mpmath.workdps(DIGITS):
        return mpmath.pi * mpmath.mpf(a) * mpmath.mpf(b)


def shoelace_exact(vertices):
    """``(area, (cx, cy))`` of a polygon as Fractions, from its vertices (counter-clockwise)."""
    v = [(Fraction(x), Fraction(y)) for x, y in np.asarray(vertices).tolist()]
    s = nx = ny = Fraction(0)
    for (x0, y0), (x1, y1) in zip(v, v[1:] + v[:1]):
        c = x0 * y1 - x1 * y0
        s, nx, ny = s + c, nx + (x0 + x1) * c, ny + (y0 + y1) * c
    return s / 2, (nx / (3 * s), ny / (3 * s))


def perimeter_exact(vertices):
    v = np.asarray(vertices).tolist()
    with mpmath.workdps(DIGITS):
        total = mpmath.mpf(0)
        for (x0, y0), (x1, y1) in zip(v, v[1:] + v[:1]):
            dx, dy = Fraction(x1) - Fraction(x0), Fraction(y1) - Fraction(y0)
            square = dx * dx + dy * dy
            total += mpmath.sqrt(mpmath.mpf(square.numerator) / square.denominator)
        return total


def stored_vertices(shape):
    """The vertices a polygon-like shape is stored as, from its public fields."""
    if isinstance(shape, c2.Box):
        (x0, y0), (x1, y1) = shape.min.tolist(), shape.max.tolist()
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    if isinstance(shape, c2.RotatedBox):
        return shape.corners
    return shape.vertices


# Documented: within 1 ulp (areas, centroids, ellipse perimeters). By design 0.5 ulp plus a few
# hundredths: the tests hold that, so that a lost low-order part is seen.
WITHIN = 0.55


def check_against_reference(shape):
    """Area, length and centroid of a single shape within the documented bounds of its reference."""
    if isinstance(shape, c2.Line):
        assert (shape.area, shape.length) == (0.0, math.inf)
        with pytest.raises(ValueError, match="a Line is infinite: it has no centroid"):
            shape.centroid
        return
    if isinstance(shape, c2.Point):
        assert (shape.area, shape.length, shape.centroid) == (0.0, 0.0, tuple(shape.xy.tolist()))
        return
    if isinstance(shape, c2.Segment):
        (x0, y0), (x1, y1) = shape.start.tolist(), shape.end.tolist()
        dx, dy = Fraction(x1) - Fraction(x0), Fraction(y1) - Fraction(y0)
        with mpmath.workdps(DIGITS):
            square = dx * dx + dy * dy
            exact = mpmath.sqrt(mpmath.mpf(square.numerator) / square.denominator)
            assert abs(mpmath.mpf(shape.length) / exact - 1) <= 3 * U
        assert shape.area == 0.0
        assert shape.centroid == (float((Fraction(x0) + Fraction(x1)) / 2), float((Fraction(y0) + Fraction(y1)) / 2))
        return
    if isinstance(shape, (c2.Circle, c2.Ellipse)):
        a, b = shape._params[2:4].tolist()  # the stored radii (a circle's radius twice)
        assert ulps(shape.area, ellipse_area_mp(a, b)) <= WITHIN
        assert ulps(shape.length, perimeter_mp(a, b)) <= WITHIN
        assert shape.centroid == tuple(shape.center.tolist())
        return
    vertices = stored_vertices(shape)
    area, (cx, cy) = shoelace_exact(vertices)
    assert ulps(shape.area, area) <= WITHIN
    assert ulps(shape.centroid[0], cx) <= WITHIN and ulps(shape.centroid[1], cy) <= WITHIN
    with mpmath.workdps(DIGITS):
        assert abs(mpmath.mpf(shape.length) / perimeter_exact(vertices) - 1) <= (len(vertices) + 3) * U


@pytest.mark.parametrize(("kind", "factory"), CATALOGUE)
def test_catalogue_against_references(kind, factory):
    shape = factory()
    check_against_reference(shape)
    # the public functions give the properties' values, bit for bit
    assert c2.area(shape) == shape.area and c2.length(shape) == shape.length
    if kind != "Line":
        assert c2.centroid(shape) == shape.centroid


# -- ellipses and circles ---------------------------------------------------------------------

def _aspect_sweep():
    """Radii pairs: aspect ratios 1 to 1e8 (dense near the switch of series at 8), 2**100, and
    sizes from 2**-500 to 2**500."""
    rng = np.random.default_rng(2030)
    aspects = np.concatenate([np.geomspace(1.0, 1e8, 80), rng.uniform(6.0, 10.0, 30), [8.0, 2.0**100, 2.0**99 * 3, 1e30]])
    pairs = []
    for aspect in aspects.tolist():
        for size in (1.0, 2.0**500, 2.0**-400, 0.37 * 2.0**211, 1.7 * 2.0**-223):
            a = size * (1.0 + rng.random())
            b = a / aspect
            if 2.0**-500 <= b and a <= 2.0**500:
                pairs.append((a, b) if rng.random() < 0.5 else (b, a))
    pairs += [(2.0**500, 2.0**400), (2.0**-400, 2.0**-500), (1.0, 1.0 - 2.0**-52), (1.0, 1.0)]
    return pairs


def test_ellipse_perimeter_and_area_within_one_ulp():
    pairs = _aspect_sweep()
    a, b = np.array(pairs).T
    perimeters, areas = _geometry.ellipse_perimeter(a, b), _geometry.ellipse_area(a, b)
    worst_perimeter = max(ulps(p, perimeter_mp(x, y)) for p, x, y in zip(perimeters.tolist(), a, b))
    worst_area = max(ulps(s, ellipse_area_mp(x, y)) for s, x, y in zip(areas.tolist(), a, b))
    assert worst_perimeter <= WITHIN and worst_area <= WITHIN
    assert len(pairs) > 400


@pytest.mark.parametrize(
    ("center", "radii"),
    [
        ((0.0, 0.0), (1.0, 1e-8)),
        ((3.0, -2.0), (2.0**-400, 2.0**-500)),
        ((1e150, 0.0), (2.0**500, 2.0**400)),
        ((0.0, 0.0), (1.0, 2.0**-100)),  # the largest aspect ratio allowed
        ((0.0, 0.0), (0.125, 1.0)),  # where the two series meet
        ((0.0, 0.0), (1.0, 1.0 - 2.0**-52)),
    ],
)
def test_hard_ellipses_through_the_public_api(center, radii):
    e = c2.Ellipse(center, radii, angle=0.3)
    check_against_reference(e)
    assert c2.length(e) == c2.length(c2.Ellipse(center, radii[::-1], angle=1.0))  # either order of radii


@pytest.mark.parametrize("radius", [1.0, 0.1, 3.0, 2.0**-500, 2.0**500, 1e-7 / 3, 12345.678])
def test_circle_circumference_and_area_within_one_ulp(radius):
    circle = c2.Circle((1.0, -1.0), radius)
    with mpmath.workdps(DIGITS):
        assert ulps(circle.length, 2 * mpmath.pi * mpmath.mpf(radius)) <= WITHIN
        assert ulps(circle.area, mpmath.pi * mpmath.mpf(radius) ** 2) <= WITHIN
    assert c2.length(c2.Ellipse((1.0, -1.0), (radius, radius), angle=0.4)) == circle.length


# -- polygons ---------------------------------------------------------------------------------

HARD_POLYGONS = {
    # far from the origin, tiny against its position (moved by its first vertex, exactly)
    "small-far": [(1e150, 1e150), (1e150 * (1 + 2.0**-50), 1e150), (1e150, 1e150 * (1 + 2.0**-50))],
    "tiny-far": [(2.0**499, 2.0**499), (2.0**499 + 2.0**448, 2.0**499), (2.0**499, 2.0**499 + 2.0**447)],
    "tiny": [(2.0**-500, 0.0), (2.0**-499, 2.0**-500), (0.0, 2.0**-499)],
    "sliver": [(0.0, 0.0), (1.0, 1.0), (1.0, 1.0 - 2.0**-52)],
    "sliver-far": [(1e6, 1e6), (1e6 + 1.0, 1e6 + 1.0), (1e6 + 1.0, 1e6 + 1.0 - 2.0**-32)],
    "sliver-across-origin": [(-1.0, -1.0), (1.0, 1.0), (1.0, 1.0 - 2.0**-52)],
    "huge": [(-(2.0**500), -(2.0**500)), (2.0**500, -(2.0**500)), (2.0**500, 2.0**500), (-(2.0**500), 2.0**500)],
    "symmetric": [(-3.0, 0.1), (0.0, -2.0), (3.0, -0.1), (0.0, 2.0)],
    "subnormal-area": [(0.0, 0.0), (2.0**-500, 2.0**-500), (2.0**-500, 2.0**-500 + 2.0**-552)],
    "tiny-offsets": [(1e-300, 0.0), (1.0, 1e-300), (0.0, 1.0)],
    "mixed-magnitudes": [(-1e150, 1e-300), (1e150, -1e-300), (0.0, 1e-150)],
    # centroid x exactly 0 beside products of 1e-300 that may underflow: not certain, Fractions decide
    "symmetric-underflow": [(-1.0, 0.0), (1.0, 0.0), (1e-300, 1.0), (-1e-300, 1.0)],
    # 1e-300 beside 1e150 on one axis: scaling to unit size loses it, Fractions decide
    "lost-in-scaling": [(1e-300, 1.0), (-1e150, 0.0), (1e150, 0.0)],
}


@pytest.mark.parametrize("name", list(HARD_POLYGONS))
def test_hard_polygons_against_fractions(name):
    polygon = c2.Polygon(HARD_POLYGONS[name])
    check_against_reference(polygon)
    batch = c2.Polygon(np.array([HARD_POLYGONS[name]] * 3)[::-1, ::-1])  # other winding, in a batch
    assert np.all(batch.area == polygon.area) and np.all(batch.centroid == np.array(polygon.centroid))


def test_random_polygons_against_fractions():
    rng = np.random.default_rng(30)
    for trial in range(120):
        m = int(rng.integers(3, 12))
        angles = np.sort(rng.uniform(0.0, 2 * np.pi, m))
        scale = 2.0 ** int(rng.integers(-400, 400)) if trial % 3 == 0 else 1.0
        offset = rng.normal(size=2) * 10.0 ** int(rng.integers(0, 12))
        points = np.stack([np.cos(angles), np.sin(angles) * rng.uniform(0.01, 1.0)], axis=1) + offset
        try:
            polygon = c2.Polygon(points * scale)
        except ValueError:  # too few distinct vertices after cleaning
            continue
        check_against_reference(polygon)


def test_fast_path_certifies_common_and_hard_polygons_without_fractions(monkeypatch):
    """The exact Fraction fallback is for scalings that lose bits only: centred rotated boxes
    (centroid exactly 0), far boxes and slivers are certified by the float path."""
    calls = []
    monkeypatch.setattr(_geometry, "_exact_row", lambda v: calls.append(v) or pytest.fail("fallback"))
    rng = np.random.default_rng(31)
    centred = c2.RotatedBox(np.zeros((40, 2)), rng.uniform(0.1, 3.0, (40, 2)), rng.uniform(0.0, 7.0, 40))
    assert np.all(centred.centroid == 0.0)
    far = c2.Box(rng.normal(size=(40, 2)) * 1e9, rng.normal(size=(40, 2)) * 1e9 + 3e10)
    far.area, far.centroid
    for m, n in rng.uniform(1.0, 2.0, (8, 2)) * 2.0 ** rng.integers(-20, 20, (8, 2)) * (1, -1):
        u, v = math.ulp(m), math.ulp(n)  # quadrilaterals a few ulps wide: cancellation of about 2**104
        check_against_reference(c2.Polygon([(m, n), (m + 2 * u, n), (m + 3 * u, n + 3 * v), (m, n + v)]))
    for name in ("sliver", "sliver-far", "sliver-across-origin", "small-far", "symmetric"):
        polygon = c2.Polygon(HARD_POLYGONS[name])
        polygon.area, polygon.centroid
    assert calls == []


@pytest.mark.parametrize(("name", "fallbacks"), [("symmetric-underflow", 1), ("lost-in-scaling", 2)])
def test_fallback_rounds_the_exact_value(monkeypatch, name, fallbacks):
    calls = []
    original = _geometry._exact_row
    monkeypatch.setattr(_geometry, "_exact_row", lambda v: calls.append(1) or original(v))
    polygon = c2.Polygon(HARD_POLYGONS[name])
    area, (cx, cy) = shoelace_exact(polygon.vertices)
    assert polygon.area == float(area) and polygon.centroid == (float(cx), float(cy))
    assert len(calls) == fallbacks  # the centroid (and the area where the scaling loses bits)


def test_certified_sum_distils_cancellation_and_refuses_what_it_cannot_bound():
    big = 2.0**60
    terms = np.array(
        [
            [big, 1.0, -big, 2.0**-60, 3.0, -1.0],
            [big, 1.0, -big, 2.0**-55, 0.0, 0.0],  # 1 + 2**-55: one round's float sum of errors gives 1
            [1.0, -1.0, 2.0**-30, -(2.0**-30), 0.0, 0.0],
            [1.0, -1.0, 0.0, 0.0, 0.0, 0.0],
        ]
    )
    hi, lo, certain = _geometry._certified_sum(terms, np.array([0.0, 0.0, 0.0, 2.0**-1070]))
    assert certain.tolist() == [True, True, True, False]  # an exact 0 with an underflow allowance is not certain
    exact = [3 + Fraction(2) ** -60, 1 + Fraction(2) ** -55, 0]
    assert [Fraction(h) + Fraction(lo) for h, lo in zip(hi[:3].tolist(), lo[:3].tolist())] == exact


def test_products_that_may_underflow_get_an_allowance():
    tiny, one = np.array([[2.0**-600, 0.0, 1.0]]), np.array([[2.0**-500, 2.0**-900, 1.0]])
    p, e, slack = _geometry._product(tiny, one, 0.0)
    assert slack.tolist() == [2.0**-1070]  # the first product only: 0 times anything is exact
    p, e, slack = _geometry._product(one, one, 0.0)
    assert slack.tolist() == [2 * 2.0**-1070] and Fraction(p[0, 2]) + Fraction(e[0, 2]) == 1  # 2**-1000, 0 (underflowed)


def test_boxes_and_rotated_boxes():
    rng = np.random.default_rng(32)
    lo = rng.normal(size=(20, 2)) * 1e3
    boxes = c2.Box(lo, lo + rng.uniform(1e-3, 10.0, (20, 2)))
    for box in boxes:
        check_against_reference(box)
    width, height = (boxes.max - boxes.min).T
    assert np.all(np.abs(boxes.area / (width * height) - 1) <= 5 * U)  # the closed form rounds three times
    turned = c2.RotatedBox(rng.normal(size=(20, 2)), rng.uniform(0.1, 3.0, (20, 2)), rng.uniform(0.0, 7.0, 20))
    for box in turned:
        check_against_reference(box)
        # the stored corners' polygon, bit for bit; near 4 hx hy (the corners are rounded)
        assert box.area == c2.Polygon(box.corners).area
        assert abs(box.area / (4 * box.half_size[0] * box.half_size[1]) - 1) < 1e-14


# -- batches, kinds, errors -------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["Point", "Circle", "Ellipse", "Box", "RotatedBox", "Polygon", "Segment", "Line"])
def test_single_and_batched_give_bit_identical_values(kind):
    rng = np.random.default_rng(33)
    batch, fields = random_batch(kind, rng, (3, 4))
    area, length = batch.area, batch.length
    assert area.shape == length.shape == (3, 4) and area.dtype == np.float64
    if kind == "Line":
        assert np.all(area == 0.0) and np.all(np.isinf(length))
        with pytest.raises(ValueError, match="infinite"):
            c2.centroid(batch)
        return
    centroid = batch.centroid
    assert centroid.shape == (3, 4, 2)
    for index, one in enumerate(fields):
        single = getattr(c2, kind)(**{k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in one.items()})
        i, j = divmod(index, 4)
        assert type(single.area) is float and type(single.centroid) is tuple
        assert single.area == area[i, j] and single.length == length[i, j]
        assert single.centroid == tuple(centroid[i, j].tolist())
        assert batch[i, j].area == area[i, j] and batch[i, j].centroid == single.centroid


def test_polygons_of_several_vertex_counts_in_one_batch():
    rng = np.random.default_rng(34)
    vertices = np.stack([random_polygon_vertices(rng) * 0.37 + 1e3 for _ in range(12)])  # padded: 3 to 6 corners
    batch = c2.Polygon(vertices)
    assert len(set(batch._params[:, 1].tolist())) > 1
    for k, polygon in enumerate(batch):
        check_against_reference(polygon)
        assert c2.Polygon(vertices[k]).area == batch.area[k] and c2.Polygon(vertices[k]).centroid == tuple(batch.centroid[k].tolist())


def test_empty_batches():
    empty = c2.Polygon(np.zeros((0, 4, 2)))
    assert empty.area.shape == (0,) and empty.length.shape == (0,) and empty.centroid.shape == (0, 2)
    ellipses = c2.Ellipse(np.zeros((0, 2)), np.ones((0, 2)))
    assert ellipses.area.shape == ellipses.length.shape == (0,) and ellipses.centroid.shape == (0, 2)


@pytest.mark.parametrize("function", [c2.area, c2.length, c2.centroid])
@pytest.mark.parametrize("value", ["circle", None, 1.0, (0.0, 0.0), np.zeros((3, 2)), [c2.Point((0, 0))]])
def test_non_shapes_are_refused(function, value):
    with pytest.raises(TypeError, match="shape must be a collide2d shape"):
        function(value)
