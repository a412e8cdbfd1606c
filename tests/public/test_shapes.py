"""Shapes: construction, immutability, batches, broadcasting, bounds, angles and validation."""

from __future__ import annotations

import math
import pickle
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from conftest import CATALOGUE, INVALID, KINDS, build, catalogue_of, random_batch, random_fields

import collide2d as c2
from collide2d.shapes import direction_from_angle

FIELD_NAMES = {
    "Point": ("xy",),
    "Circle": ("center", "radius"),
    "Ellipse": ("center", "radii", "angle"),
    "Box": ("min", "max"),
    "RotatedBox": ("center", "half_size", "angle"),
    "Polygon": ("vertices",),
    "Segment": ("start", "end"),
    "Line": ("point", "direction"),
}
POLYGON_KINDS = ("Box", "RotatedBox", "Polygon")


def stored_vertices(shape):
    """Vertices of a single polygon-kind shape, as stored for the kernels."""
    offset, count = (int(x) for x in shape._params)
    return shape._verts[offset : offset + count]


def kernel_data(shape):
    """What the kernels see of a single shape: its row, or its stored vertices for polygons."""
    if shape._kind == "polygon":
        return stored_vertices(shape)
    return shape._params


# -- construction ------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "factory"), CATALOGUE)
def test_catalogue_builds_single_shapes(kind, factory):
    shape = factory()
    assert isinstance(shape, c2.Shape)
    assert isinstance(shape, getattr(c2, kind))
    assert shape.shape == ()
    assert shape.ndim == 0
    assert shape.size == 1
    assert shape._params.dtype == np.float64
    assert np.all(np.isfinite(shape._params))
    assert repr(shape).startswith(f"{kind}(")
    for name in FIELD_NAMES[kind]:
        assert name in repr(shape)
        getattr(shape, name)


def test_field_values_and_types():
    circle = c2.Circle([1, 2], 3)  # integers in, float64 stored
    assert isinstance(circle.radius, float)
    assert circle.radius == 3.0
    assert circle.center.dtype == np.float64
    assert circle.center.tolist() == [1.0, 2.0]
    ellipse = c2.Ellipse(np.array([0.5, 1.5], dtype=np.float32), (2, 1))
    assert ellipse.center.dtype == np.float64
    assert ellipse.angle == 0.0
    assert isinstance(ellipse.angle, float)
    rbox = c2.RotatedBox((0, 0), (1, 2))
    assert rbox.angle == 0.0
    assert c2.Line((0, 0), (0, 3)).direction.tolist() == [0.0, 3.0]  # not normalised
    assert c2.Segment((0, 0), (1, 2)).end.tolist() == [1.0, 2.0]
    assert c2.Point(np.float64(1.0) * np.ones(2)).xy.tolist() == [1.0, 1.0]


def test_repr_examples():
    assert repr(c2.Point((1, 2))) == "Point(xy=(1.0, 2.0))"
    assert repr(c2.Circle((0, 0), 1)) == "Circle(center=(0.0, 0.0), radius=1.0)"
    assert repr(c2.Ellipse((0, 0), (2, 1), angle=0.5)) == "Ellipse(center=(0.0, 0.0), radii=(2.0, 1.0), angle=0.5)"
    assert repr(c2.Box((0, 0), (2, 1))) == "Box(min=(0.0, 0.0), max=(2.0, 1.0))"
    assert repr(c2.Segment((0, 0), (1, 0))) == "Segment(start=(0.0, 0.0), end=(1.0, 0.0))"
    assert repr(c2.Line((0, 0), (1, 1))) == "Line(point=(0.0, 0.0), direction=(1.0, 1.0))"
    assert repr(c2.RotatedBox((0, 0), (1, 2))) == "RotatedBox(center=(0.0, 0.0), half_size=(1.0, 2.0), angle=0.0)"
    assert repr(c2.Polygon([(0, 0), (1, 0), (0, 1)])).startswith("Polygon(vertices=(")
    assert repr(c2.Circle(np.zeros((3, 2)), 1)) == "<Circle batch of shape (3,)>"
    assert repr(c2.Segment(np.zeros((2, 3, 2)), (1, 1))) == "<Segment batch of shape (2, 3)>"


def test_pickle_round_trip():
    for shape in (c2.Ellipse((1, 2), (3, 1), 0.4), c2.Polygon([(0, 0), (2, 0), (0, 2)]), c2.Circle(np.zeros((2, 2)), [1, 2])):
        again = pickle.loads(pickle.dumps(shape))
        assert type(again) is type(shape)
        np.testing.assert_array_equal(again._params, shape._params)
        np.testing.assert_array_equal(again._verts, shape._verts)
        assert not again._params.flags.writeable


# -- immutability and read-only arrays -------------------------------------------------------


@pytest.mark.parametrize(("kind", "factory"), CATALOGUE)
def test_immutable(kind, factory):
    shape = factory()
    for name in FIELD_NAMES[kind] + ("_params", "_verts", "new_attribute"):
        with pytest.raises(AttributeError):
            setattr(shape, name, 1.0)
    for name in FIELD_NAMES[kind] + ("_params", "_verts", "_fields"):
        with pytest.raises(AttributeError):
            delattr(shape, name)
    assert shape._params is not None  # still there


@pytest.mark.parametrize(("kind", "factory"), CATALOGUE)
def test_arrays_are_read_only(kind, factory):
    shape = factory()
    arrays = [shape._params, shape._verts]
    arrays += [getattr(shape, name) for name in FIELD_NAMES[kind] if isinstance(getattr(shape, name), np.ndarray)]
    if kind == "Ellipse":
        arrays.append(shape.direction)
    for array in arrays:
        assert not array.flags.writeable
        if array.size:
            with pytest.raises(ValueError, match="read-only"):
                array.flat[0] = 7.0


@pytest.mark.parametrize("kind", KINDS)
def test_fields_name_every_field_in_constructor_order_read_only(kind):
    # Shape.fields: the public read-only view that the apps (io, convert) read instead of _fields;
    # it rebuilds the shape through the constructor, single and batched
    rng = np.random.default_rng(7)
    for shape in (build(kind, random_fields(kind, rng)), random_batch(kind, rng, (2, 3))[0]):
        fields = shape.fields
        assert tuple(fields) == FIELD_NAMES[kind]
        for name, value in fields.items():
            assert isinstance(value, np.ndarray) and value.dtype == np.float64 and not value.flags.writeable
            assert value.shape[: shape.ndim] == shape.shape
            np.testing.assert_array_equal(value, getattr(shape, name))
        with pytest.raises(TypeError):
            fields["center"] = np.zeros(2)  # a read-only mapping
        again = getattr(c2, kind)(**fields)
        np.testing.assert_array_equal(again._params, shape._params)
        np.testing.assert_array_equal(again._verts, shape._verts)


def test_input_arrays_are_copied():
    center = np.array([[0.0, 0.0], [1.0, 1.0]])
    radius = np.array([1.0, 2.0])
    circle = c2.Circle(center, radius)
    center[0, 0] = 99.0
    radius[:] = 50.0
    assert circle.center[0, 0] == 0.0
    assert circle.radius.tolist() == [1.0, 2.0]
    assert circle._params[0, 0] == 0.0
    vertices = np.array([(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)])
    polygon = c2.Polygon(vertices)
    vertices[:] = 5.0
    assert polygon.vertices.min() == 0.0
    assert center.flags.writeable  # the caller's array is untouched in its flags


# -- batches ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_batch_shape_len_iteration_indexing(kind):
    rng = np.random.default_rng(11)
    shape, field_list = random_batch(kind, rng, (2, 3))
    assert shape.shape == (2, 3)
    assert shape.ndim == 2
    assert shape.size == 6
    assert len(shape) == 2
    rows = list(shape)
    assert len(rows) == 2
    assert all(row.shape == (3,) for row in rows)
    assert shape[1].shape == (3,)
    assert shape[:, 1].shape == (2,)
    assert shape[0:1].shape == (1, 3)
    assert shape[-1, -1].shape == ()
    for k, fields in enumerate(field_list):
        i, j = divmod(k, 3)
        element = shape[i, j]
        single = build(kind, fields)
        assert type(element) is type(single)
        np.testing.assert_array_equal(kernel_data(element), kernel_data(single))
        np.testing.assert_array_equal(kernel_data(shape[i][j]), kernel_data(single))
        if kind != "Polygon":  # a batched Polygon keeps its input vertices (padding included)
            for name in FIELD_NAMES[kind]:
                np.testing.assert_array_equal(getattr(element, name), getattr(single, name))
        assert repr(element) == repr(single) or kind == "Polygon"


@pytest.mark.parametrize("kind", KINDS)
def test_batch_indexing_errors(kind):
    rng = np.random.default_rng(12)
    batch, _ = random_batch(kind, rng, (3,))
    single = batch[0]
    with pytest.raises(TypeError):
        len(single)
    with pytest.raises(IndexError):
        single[0]
    with pytest.raises(IndexError):
        batch[3]
    with pytest.raises(IndexError):
        batch[0, 0]  # one batch dimension only: the trailing field axes are not addressable
    with pytest.raises(IndexError):
        batch[..., 0, 0]
    with pytest.raises(IndexError):
        batch[..., ...]
    assert list(iter(batch[0:0])) == []


@pytest.mark.parametrize("kind", KINDS)
def test_batch_indexing_new_axes_and_ellipsis(kind):
    """``None`` and ``...`` address batch axes only, as in NumPy (``dots[:, None]``)."""
    rng = np.random.default_rng(13)
    batch, _ = random_batch(kind, rng, (3,))
    assert batch[:, None].shape == (3, 1)
    assert batch[None].shape == (1, 3)
    assert batch[..., None].shape == (3, 1)
    np.testing.assert_array_equal(batch[..., 1]._params, batch[1]._params)
    np.testing.assert_array_equal(batch[:, None][2, 0]._params, batch[2]._params)
    grid = c2.relate(batch[:, None], batch[None, :])
    assert grid.shape == (3, 3)
    assert [int(grid[k, k]) for k in range(3)] == [int(c2.Relation.EQUAL)] * 3


def test_broadcasting_of_fields():
    circle = c2.Circle(np.arange(6.0).reshape(3, 2), 2.0)
    assert circle.shape == (3,)
    assert circle.radius.shape == (3,)
    assert circle.radius.tolist() == [2.0, 2.0, 2.0]
    circle = c2.Circle((1.0, 2.0), [1.0, 2.0, 3.0, 4.0])
    assert circle.shape == (4,)
    assert circle.center.shape == (4, 2)
    circle = c2.Circle(np.zeros((3, 1, 2)), np.ones(4))
    assert circle.shape == (3, 4)
    assert circle.center.shape == (3, 4, 2)
    ellipse = c2.Ellipse((0, 0), np.ones((3, 2)) + [1, 0], angle=np.linspace(0, 1, 4)[:, None])
    assert ellipse.shape == (4, 3)
    assert ellipse.radii.shape == (4, 3, 2)
    assert ellipse.direction.shape == (4, 3, 2)
    assert c2.Segment(np.zeros((5, 2)), (1.0, 1.0)).shape == (5,)
    assert c2.Line((0, 0), np.ones((2, 1, 2))).shape == (2, 1)
    assert c2.Box(np.zeros((2, 2)), (5.0, 5.0)).shape == (2,)
    assert c2.RotatedBox((0, 0), (1, 1), angle=np.zeros(5)).shape == (5,)
    assert c2.RotatedBox((0, 0), (1, 1), angle=np.zeros(5)).corners.shape == (5, 4, 2)
    assert c2.Point(np.zeros((2, 3, 2))).shape == (2, 3)
    assert c2.Polygon(np.tile([(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)], (4, 1, 1))).shape == (4,)
    assert c2.Box.from_center(np.zeros((3, 2)), (1.0, 2.0)).shape == (3,)


@pytest.mark.parametrize(
    "make",
    [
        lambda: c2.Circle(np.zeros((3, 2)), np.ones(2)),
        lambda: c2.Ellipse(np.zeros((3, 2)), np.ones((4, 2))),
        lambda: c2.Ellipse(np.zeros((2, 2)), (1, 2), np.zeros(3)),
        lambda: c2.Segment(np.zeros((3, 2)), np.ones((2, 2))),
        lambda: c2.Line(np.zeros((3, 2)), np.ones((4, 2))),
        lambda: c2.Box(np.zeros((3, 2)), np.ones((2, 2))),
        lambda: c2.RotatedBox(np.zeros((3, 2)), np.ones((2, 2))),
    ],
    ids=["circle", "ellipse", "ellipse-angle", "segment", "line", "box", "rotated-box"],
)
def test_batch_fields_must_broadcast(make):
    with pytest.raises(ValueError, match="broadcast"):
        make()


def test_empty_batch():
    circle = c2.Circle(np.zeros((0, 2)), 1.0)
    assert circle.shape == (0,)
    assert len(circle) == 0
    assert list(circle) == []
    assert circle.bounds.shape == (0, 4)


# -- bounds ------------------------------------------------------------------------------------


def boundary_samples(kind, shape, n=257):
    """Points on the boundary, computed in mpmath from the stored data (list of mpf pairs)."""
    mpmath.mp.dps = 40
    ts = [mpmath.mpf(2) * mpmath.pi * k / n for k in range(n)]
    p = [mpmath.mpf(float(x)) for x in shape._params]
    if kind in ("Circle", "Ellipse"):
        cx, cy, a, b, wx, wy = p
        norm = mpmath.sqrt(wx * wx + wy * wy)
        ux, uy = wx / norm, wy / norm
        return [(cx + a * mpmath.cos(t) * ux - b * mpmath.sin(t) * uy, cy + a * mpmath.cos(t) * uy + b * mpmath.sin(t) * ux) for t in ts]
    if kind in POLYGON_KINDS:
        v = stored_vertices(shape)
        out = []
        for i in range(len(v)):
            a, b = v[i], v[(i + 1) % len(v)]
            for s in np.linspace(0, 1, 9):
                out.append(tuple(mpmath.mpf(float(x)) + mpmath.mpf(s) * (mpmath.mpf(float(y)) - mpmath.mpf(float(x))) for x, y in zip(a, b)))
        return out
    if kind == "Segment":
        x0, y0, x1, y1 = p
        return [(x0 + s * (x1 - x0), y0 + s * (y1 - y0)) for s in (mpmath.mpf(k) / 16 for k in range(17))]
    if kind == "Point":
        return [tuple(p)]
    raise KeyError(kind)


@pytest.mark.parametrize(("kind", "factory"), [p for p in CATALOGUE if p.values[0] != "Line"])
def test_bounds_contain_boundary(kind, factory):
    shape = factory()
    xmin, ymin, xmax, ymax = shape.bounds
    assert all(isinstance(v, float) for v in shape.bounds)
    assert xmin <= xmax and ymin <= ymax
    for x, y in boundary_samples(kind, shape):
        assert xmin <= x <= xmax, (x, shape.bounds)
        assert ymin <= y <= ymax, (y, shape.bounds)


@pytest.mark.parametrize("factory", catalogue_of("Ellipse") + catalogue_of("Circle"))
def test_ellipse_bounds_tight(factory):
    """Bounds contain the exact extent (mpmath, from the stored numbers) and exceed it by < 1e-12
    of the size (plus two ulps of the bound itself, which is all a centre at 1e6 allows)."""
    shape = factory()
    mpmath.mp.dps = 50
    cx, cy, a, b, wx, wy = (mpmath.mpf(float(x)) for x in shape._params)
    norm2 = wx * wx + wy * wy
    hx = mpmath.sqrt((a * a * wx * wx + b * b * wy * wy) / norm2)
    hy = mpmath.sqrt((a * a * wy * wy + b * b * wx * wx) / norm2)
    exact = (cx - hx, cy - hy, cx + hx, cy + hy)
    size = max(float(a), float(b))
    for got, want, outward in zip(shape.bounds, exact, (-1, -1, 1, 1)):
        slack = (mpmath.mpf(got) - want) * outward
        assert slack >= 0, (got, want)
        # relative to the size, plus the two ulps the outward rounding of a far-off centre costs
        assert slack <= 1e-12 * size + 2 * np.spacing(abs(got)), (got, want)


def test_bounds_exact_for_flat_kinds():
    assert c2.Point((1, 2)).bounds == (1.0, 2.0, 1.0, 2.0)
    assert c2.Segment((3, -1), (1, 2)).bounds == (1.0, -1.0, 3.0, 2.0)
    assert c2.Box((0, 1), (2, 3)).bounds == (0.0, 1.0, 2.0, 3.0)
    assert c2.Polygon([(0, 0), (3, 1), (1, 4)]).bounds == (0.0, 0.0, 3.0, 4.0)
    assert c2.Line((1, 2), (1, 0)).bounds == (-math.inf, 2.0, math.inf, 2.0)
    assert c2.Line((1, 2), (0, -1)).bounds == (1.0, -math.inf, 1.0, math.inf)
    assert c2.Line((1, 2), (1, 1)).bounds == (-math.inf, -math.inf, math.inf, math.inf)
    assert c2.RotatedBox((0, 0), (2, 1), angle=math.pi / 2).bounds == (-1.0, -2.0, 1.0, 2.0)
    circle = c2.Circle((1, 1), 2)
    np.testing.assert_allclose(circle.bounds, (-1, -1, 3, 3), rtol=0, atol=1e-14)


@pytest.mark.parametrize("kind", KINDS)
def test_batch_bounds_match_single(kind):
    rng = np.random.default_rng(13)
    batch, field_list = random_batch(kind, rng, (2, 2))
    bounds = batch.bounds
    assert isinstance(bounds, np.ndarray)
    assert bounds.shape == (2, 2, 4)
    for k, fields in enumerate(field_list):
        np.testing.assert_array_equal(bounds.reshape(-1, 4)[k], build(kind, fields).bounds)


# -- polygons ----------------------------------------------------------------------------------


def signed_area2(v):
    v = [(Fraction(float(x)), Fraction(float(y))) for x, y in v]
    return sum(v[i][0] * v[(i + 1) % len(v)][1] - v[(i + 1) % len(v)][0] * v[i][1] for i in range(len(v)))


def test_polygon_winding_normalised():
    ccw = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0)]
    for vertices in (ccw, ccw[::-1], ccw[2:] + ccw[:2], (ccw[::-1])[1:] + (ccw[::-1])[:1]):
        polygon = c2.Polygon(vertices)
        assert signed_area2(polygon.vertices) > 0
        assert signed_area2(stored_vertices(polygon)) > 0
        assert {tuple(v) for v in polygon.vertices.tolist()} == set(ccw)
    assert c2.Polygon([(0, 0), (0, 1), (1, 0)]).vertices.tolist() == [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]


def test_polygon_batch_winding_normalised():
    tri = np.array([(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)])
    batch = c2.Polygon(np.stack([tri, tri[::-1] + 3]))
    for k in range(2):
        assert signed_area2(batch[k].vertices) > 0
        assert signed_area2(stored_vertices(batch[k])) > 0


@pytest.mark.parametrize(
    ("vertices", "expected"),
    [
        ([(0, 0), (0, 0), (1, 0), (1, 1), (1, 1), (0, 1)], 4),  # repeated consecutive
        ([(0, 0), (1, 0), (1, 1), (0, 1), (0, 0)], 4),  # closed ring: last repeats first
        ([(0, 0), (1, 0), (2, 0), (2, 2), (0, 2)], 4),  # collinear mid-edge vertex
        ([(1, 0), (2, 0), (2, 2), (0, 2), (0, 0)], 4),  # collinear vertex first
        ([(0, 0), (1, 0), (2, 0), (3, 0), (3, 3), (0, 3), (0, 2), (0, 1)], 4),  # several in a row
        ([(0, 0), (0.1, 0.1), (0.3, 0.3), (0, 1)], 3),  # exactly collinear in float64 (y == x)
        ([(0, 0), (1, -(2.0**-40)), (2, 0), (1, 1)], 4),  # nearly collinear: kept
    ],
    ids=["repeated", "closed-ring", "collinear", "collinear-first", "collinear-run", "float-collinear", "near-collinear"],
)
def test_polygon_cleaning(vertices, expected):
    polygon = c2.Polygon(vertices)
    kept = stored_vertices(polygon)
    assert len(kept) == expected
    np.testing.assert_array_equal(polygon.vertices, kept)
    assert {tuple(v) for v in kept.tolist()} <= {tuple(map(float, v)) for v in vertices}
    assert signed_area2(kept) == signed_area2(_dedupe(vertices))


def _dedupe(vertices):
    out = []
    for v in vertices:
        if not out or tuple(out[-1]) != tuple(v):
            out.append(v)
    if len(out) > 1 and tuple(out[0]) == tuple(out[-1]):
        out.pop()
    return out if signed_area2(out) > 0 else out[::-1]


def test_polygon_batch_with_padding_matches_single():
    square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
    padded_triangle = [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (0.0, 1.0)]
    batch = c2.Polygon([square, padded_triangle])
    np.testing.assert_array_equal(stored_vertices(batch[0]), stored_vertices(c2.Polygon(square)))
    np.testing.assert_array_equal(stored_vertices(batch[1]), stored_vertices(c2.Polygon(padded_triangle)))
    assert int(batch[1]._params[1]) == 3


def test_rotated_box_corners():
    box = c2.RotatedBox((1.0, 2.0), (2.0, 1.0), angle=math.pi / 2)
    assert box.corners.tolist() == [[2.0, 0.0], [2.0, 4.0], [0.0, 4.0], [0.0, 0.0]]
    assert signed_area2(box.corners) > 0
    box = c2.RotatedBox((0.0, 0.0), (1.0, 1.0), angle=0.3)
    np.testing.assert_allclose(np.linalg.norm(box.corners, axis=1), math.sqrt(2), rtol=1e-15)


# -- angles ------------------------------------------------------------------------------------


def test_quarter_turns_exact():
    expected = {0: (1.0, 0.0), 1: (0.0, 1.0), 2: (-1.0, 0.0), 3: (0.0, -1.0)}
    for k in range(-8, 9):
        direction = direction_from_angle(k * (math.pi / 2))
        assert tuple(direction.tolist()) == expected[k % 4], k
    assert c2.Ellipse((0, 0), (2, 1), angle=math.pi / 2).direction.tolist() == [0.0, 1.0]
    assert c2.Ellipse((0, 0), (2, 1), angle=math.pi).direction.tolist() == [-1.0, 0.0]
    assert c2.Ellipse((0, 0), (2, 1), angle=-math.pi / 2).direction.tolist() == [0.0, -1.0]
    assert not np.signbit(direction_from_angle(math.pi / 2)).any()  # no -0.0 stored
    assert c2.RotatedBox((0, 0), (2, 1), angle=math.pi).corners.tolist() == [[2.0, 1.0], [-2.0, 1.0], [-2.0, -1.0], [2.0, -1.0]]


def _ulps(got, exact):
    """Error of a float against an mpmath value, in ulps of the exact value (at least 2**-1074)."""
    return float(abs(mpmath.mpf(float(got)) - exact) / np.spacing(abs(float(exact))))


# angles near quarter turns, in all quadrants, and far from 0 (exact reduction above 1e6)
_ANGLES = np.concatenate(
    [
        np.random.default_rng(21).uniform(-10, 10, 300),
        np.random.default_rng(22).uniform(-1e5, 1e5, 50),
        [0.3, 0.5, 1.0, 2.5, -1.2, math.pi / 4, 3 * math.pi / 4, -math.pi / 4, math.pi / 8, 1e-300, 5e-324],
        [np.nextafter(math.pi / 2, 4), np.nextafter(math.pi, 0), 2 * math.pi + 1e-9, 1e6, -3.7e6, 1e22, 2.0**1000, -1.7e308],
    ]
)


def test_direction_is_cos_sin_of_the_float_angle():
    """Each component within one ulp of cos/sin of the exact float angle (mpmath, 60 digits),
    except at angles within 2**-52 |angle| of a quarter turn, which store the axis vector."""
    mpmath.mp.dps = 60
    w = direction_from_angle(_ANGLES)
    worst = 0.0
    for angle, (wx, wy) in zip(_ANGLES, w):
        theta = mpmath.mpf(float(angle))
        exact = (mpmath.cos(theta), mpmath.sin(theta))
        if 0.0 in (wx, wy) and angle != 0:  # snapped to a quarter turn (within 2**-100 rad too)
            slack = max(2.0**-52 * abs(angle), 2.0**-100)
            assert all(abs(mpmath.mpf(float(g)) - e) <= slack for g, e in zip((wx, wy), exact))
            continue
        worst = max(worst, _ulps(wx, exact[0]), _ulps(wy, exact[1]))
    assert worst <= 1.0, worst  # measured 0.52 (the C library's cos and sin)


@pytest.mark.parametrize("direction", [(1.0, 2.0**-101), (-3.0, 1e-300), (2.0**-1074, 1.0)])
def test_direction_component_below_2_pow_minus_100_of_the_other_is_stored_exactly(direction):
    """A ``direction`` is used exactly, also a turn far below an ulp (issue 28, item 9); the
    kernels square direction components (a component of 1e-162 against 1 underflows there, and
    the contact kernel divided by zero), so such rows take the exact predicates."""
    e = c2.Ellipse((0, 0), (2, 1), direction=direction)
    assert e.direction.tolist() == list(direction)
    batch = c2.Ellipse(np.zeros((2, 2)), (2, 1), direction=[direction, (1.0, 1.0)])
    assert batch.direction[0].tolist() == list(direction)
    c = c2.contact(e, c2.Polygon([(0, 0), (0.5, 0), (0, 0.5)]))
    assert c.separation < 0 and np.isfinite(c.separation)
    t = c2.Ellipse((0, 0), (2, 1), angle=1e-162)
    assert t.direction.tolist() == [1.0, 0.0]


def test_direction_that_cannot_be_stored_exactly_is_refused():
    """Components more than about 2**1000 apart cannot both survive the power-of-two scaling of
    the direction into ``[2**-500, 2**500]``: refused, not rounded to an axis."""
    with pytest.raises(ValueError, match="direction has components too different in size"):
        c2.Ellipse((0, 0), (2, 1), direction=(2.0**-1074, 2.0**1000))


def test_direction_scalar_and_array_paths_bit_identical():
    from collide2d import _angles

    batch = direction_from_angle(_ANGLES)
    for angle, row in zip(_ANGLES, batch):
        assert _angles.direction_scalar(float(angle)) == tuple(row.tolist()), angle
        assert c2.Ellipse((0, 0), (2, 1), float(angle)).direction.tolist() == row.tolist()
    np.testing.assert_array_equal(c2.Ellipse(np.zeros((len(_ANGLES), 2)), (2, 1), _ANGLES).direction, batch)
    boxes = c2.RotatedBox(np.zeros((len(_ANGLES), 2)), (2, 1), _ANGLES)  # compiled, large angles in Python
    for k in (0, 5, 300, len(_ANGLES) - 4, len(_ANGLES) - 1):
        np.testing.assert_array_equal(boxes[k].corners, c2.RotatedBox((0, 0), (2, 1), float(_ANGLES[k])).corners)
        np.testing.assert_array_equal(c2.RotatedBox(np.zeros((1, 2)), (2, 1), _ANGLES[k : k + 1]).corners[0], boxes[k].corners)


def test_reduction_constants():
    from collide2d import _angles
    from collide2d._kernels import angles

    mpmath.mp.dps = 60
    split = mpmath.mpf(angles.P1) + mpmath.mpf(angles.P2) + mpmath.mpf(angles.P2T)
    assert abs(split - mpmath.pi / 2) < mpmath.mpf(2) ** -120
    mpmath.mp.dps = 450
    assert abs(mpmath.mpf(_angles.half_pi_fixed()) - mpmath.pi / 2 * mpmath.mpf(2) ** _angles._PI_BITS) <= 1


def test_quarter_turns_typed_as_floats_are_exact():
    """The usual spellings of a quarter turn store an axis vector; angles a few ulps away do not."""
    for k in range(-40, 41):
        for angle in (k * (math.pi / 2), k * math.pi / 2, np.pi / 2 * k, math.radians(90 * k), k * 90 * math.pi / 180):
            assert 0.0 in direction_from_angle(angle).tolist() or k == 0, (k, angle)
    assert direction_from_angle(math.pi + 4 * np.spacing(math.pi))[1] != 0.0
    assert direction_from_angle(2.0**-60)[1] == 2.0**-60  # no snapping to 0 itself


def test_angle_plus_pi_is_another_float_rotation():
    """No promise that ``angle + pi`` stores ``-w``: it is a different float angle. The stored
    directions differ by the rounding of ``angle + pi`` (and one ulp of each), no more."""
    angles = np.random.default_rng(23).uniform(-4, 4, 2000)
    w = direction_from_angle(angles)
    other = -direction_from_angle(angles + np.pi)
    gap = np.abs(((angles + np.pi) - angles) - np.pi)  # how far the float sum is from angle + pi
    assert np.all(np.abs(other - w) <= gap[:, None] + 4 * 2.0**-53)
    assert np.any(other != w)


def _conic(shape):
    """Exact quadratic form of an ellipse row: the set is q(y) <= rhs, y = x - c (Fractions)."""
    cx, cy, a, b, wx, wy = (Fraction(float(x)) for x in shape._params)
    # b^2 (w.y)^2 + a^2 (w^.y)^2 with w^ = (-wy, wx), normalised by rhs = a^2 b^2 |w|^2
    rhs = a * a * b * b * (wx * wx + wy * wy)
    xx = (b * b * wx * wx + a * a * wy * wy) / rhs
    yy = (b * b * wy * wy + a * a * wx * wx) / rhs
    xy = 2 * (b * b - a * a) * wx * wy / rhs
    return cx, cy, xx, yy, xy


@pytest.mark.parametrize("direction", [(1.0, 0.0), (0.3, 0.7), (-2.0, 5.0), (1e-3, -1.0), (3.0, 4.0)])
def test_swapped_radii_with_quarter_turned_direction_same_ellipse(direction):
    wx, wy = direction
    base = c2.Ellipse((1.0, 2.0), (3.0, 1.0), direction=direction)
    assert _conic(base) == _conic(c2.Ellipse((1.0, 2.0), (1.0, 3.0), direction=(-wy, wx)))
    assert _conic(base) == _conic(c2.Ellipse((1.0, 2.0), (1.0, 3.0), direction=(wy, -wx)))
    assert _conic(base) == _conic(c2.Ellipse((1.0, 2.0), (3.0, 1.0), direction=(-wx, -wy)))
    assert _conic(base) == _conic(c2.Ellipse((1.0, 2.0), (3.0, 1.0), direction=(4 * wx, 4 * wy)))
    assert c2.equals(base, c2.Ellipse((1.0, 2.0), (1.0, 3.0), direction=(-wy, wx)))


@pytest.mark.parametrize("k", range(-4, 5))
def test_swapped_radii_with_quarter_turn_angles_same_ellipse(k):
    base = c2.Ellipse((1.0, 2.0), (3.0, 1.0), angle=k * (math.pi / 2))
    assert _conic(base) == _conic(c2.Ellipse((1.0, 2.0), (1.0, 3.0), angle=(k + 1) * (math.pi / 2)))
    assert _conic(base) == _conic(c2.Ellipse((1.0, 2.0), (3.0, 1.0), angle=(k + 2) * (math.pi / 2)))


def test_rotated_box_swapped_half_sizes_with_quarter_turn():
    for wx, wy in ((1.0, 0.0), (0.3, 0.7), (1.0, 1.0), (-2.0, -1.0)):
        a = c2.RotatedBox((1.0, 2.0), (3.0, 1.0), direction=(wx, wy))
        b = c2.RotatedBox((1.0, 2.0), (1.0, 3.0), direction=(-wy, wx))
        np.testing.assert_allclose(np.sort(a.corners, axis=0), np.sort(b.corners, axis=0), rtol=0, atol=4e-15)
    for k in range(-4, 5):
        a = c2.RotatedBox((1.0, 2.0), (3.0, 1.0), angle=k * (math.pi / 2))
        b = c2.RotatedBox((1.0, 2.0), (1.0, 3.0), angle=(k + 1) * (math.pi / 2))
        assert {tuple(v) for v in a.corners.tolist()} == {tuple(v) for v in b.corners.tolist()}, k


# -- direction= and from_covariance -------------------------------------------------------------


def test_direction_argument_used_exactly():
    e = c2.Ellipse((1, 2), (3, 1), direction=(0.1, 0.7))
    assert e.direction.tolist() == [0.1, 0.7]
    assert e.angle == math.atan2(0.7, 0.1)
    assert isinstance(e.angle, float)
    batch = c2.Ellipse(np.zeros((3, 2)), (3, 1), direction=[(1, 0), (0, 2), (-3, -4)])
    assert batch.direction.tolist() == [[1.0, 0.0], [0.0, 2.0], [-3.0, -4.0]]
    np.testing.assert_array_equal(batch.angle, np.arctan2([0, 2, -4], [1, 0, -3]))
    for index in range(3):
        np.testing.assert_array_equal(batch[index]._params, c2.Ellipse((0, 0), (3, 1), direction=batch.direction[index])._params)
    assert c2.Ellipse((0, 0), (2, 2), direction=(0.0, 1.0)).direction.tolist() == [1.0, 0.0]  # a circle
    box = c2.RotatedBox((0, 0), (2, 1), direction=(0, 3))
    assert box.corners.tolist() == [[1.0, -2.0], [1.0, 2.0], [-1.0, 2.0], [-1.0, -2.0]]
    assert box.angle == math.pi / 2
    rotated = c2.RotatedBox(np.zeros((2, 2)), (2, 1), direction=[(0, 3), (1, 1)])
    np.testing.assert_array_equal(rotated[0].corners, box.corners)


def test_direction_of_extreme_size_scaled_by_a_power_of_two():
    for scale in (2.0**-900, 2.0**900):
        e = c2.Ellipse((0, 0), (2, 1), direction=(3 * scale, 4 * scale))
        wx, wy = e.direction.tolist()
        assert 2.0**-500 <= max(abs(wx), abs(wy)) <= 2.0**500
        assert Fraction(wx) / Fraction(wy) == Fraction(3, 4)  # the same direction, exactly
        np.testing.assert_array_equal(c2.Ellipse(np.zeros((1, 2)), (2, 1), direction=[(3 * scale, 4 * scale)])._params[0], e._params)


@pytest.mark.parametrize(
    ("make", "error", "words"),
    [
        (lambda: c2.Ellipse((0, 0), (2, 1), 0.5, direction=(1, 0)), ValueError, ["angle", "direction"]),
        (lambda: c2.RotatedBox((0, 0), (2, 1), np.full(3, 0.5), direction=(1, 0)), ValueError, ["angle", "direction"]),
        (lambda: c2.Ellipse((0, 0), (2, 1), direction=(0.0, 0.0)), ValueError, ["direction", "non-zero"]),
        (lambda: c2.Ellipse((0, 0), (2, 1), direction=[(1, 0), (0, 0)]), ValueError, ["direction", "non-zero"]),
        (lambda: c2.RotatedBox((0, 0), (2, 1), direction=(0, -0.0)), ValueError, ["direction", "non-zero"]),
        (lambda: c2.Ellipse((0, 0), (2, 1), direction=(np.nan, 1)), ValueError, ["direction", "finite"]),
        (lambda: c2.Ellipse((0, 0), (2, 1), direction=(1, 2, 3)), ValueError, ["direction"]),
        (lambda: c2.Ellipse((0, 0), (2, 1), direction="xy"), TypeError, ["direction"]),
    ],
    ids=["both-ellipse", "both-box", "zero", "zero-in-batch", "zero-box", "nan", "shape", "string"],
)
def test_direction_validation(make, error, words):
    with pytest.raises(error) as info:
        make()
    for word in words:
        assert word in str(info.value)


def _mahalanobis(cov, mean, points):
    inverse = np.linalg.inv(cov)
    y = points - mean
    return np.sqrt(np.einsum("...i,ij,...j->...", y, inverse, y))


def test_from_covariance_boundary_at_n_sigma():
    rng = np.random.default_rng(41)
    for _ in range(50):
        m = rng.normal(size=(2, 2))
        cov = m @ m.T + 0.1 * np.eye(2)
        cov[1, 0] = cov[0, 1]
        mean = rng.normal(size=2)
        e = c2.Ellipse.from_covariance(mean, cov, n_sigma=2.0)
        u = e.direction / np.hypot(*e.direction)
        t = np.linspace(0, 2 * np.pi, 16)
        a, b = e.radii
        points = mean + np.outer(a * np.cos(t), u) + np.outer(b * np.sin(t), (-u[1], u[0]))
        np.testing.assert_allclose(_mahalanobis(cov, mean, points), 2.0, rtol=1e-13)
        assert a >= b
        evals = np.linalg.eigvalsh(cov)
        np.testing.assert_allclose(sorted(e.radii), 2 * np.sqrt(evals), rtol=1e-14)


def test_from_covariance_examples_and_batches():
    e = c2.Ellipse.from_covariance((1, 2), [[4.0, 0.0], [0.0, 9.0]], n_sigma=3)
    assert e.radii.tolist() == [9.0, 6.0]
    assert e.center.tolist() == [1.0, 2.0]
    assert e.direction.tolist()[0] == 0.0  # the major axis is y
    circle = c2.Ellipse.from_covariance((0, 0), [[2.0, 0.0], [0.0, 2.0]])
    assert circle.radii[0] == circle.radii[1] == math.sqrt(2.0)
    covs = np.array([[[4.0, 1.0], [1.0, 3.0]], [[1.0, -0.5], [-0.5, 2.0]], [[1e-12, 0], [0, 1e12]]])
    batch = c2.Ellipse.from_covariance(np.zeros((3, 2)), covs, n_sigma=[1.0, 2.0, 1.0])
    assert batch.shape == (3,)
    for k, cov in enumerate(covs):
        single = c2.Ellipse.from_covariance((0, 0), cov, n_sigma=[1.0, 2.0, 1.0][k])
        np.testing.assert_array_equal(batch[k]._params, single._params)
    np.testing.assert_allclose(batch[2].radii, [1e6, 1e-6], rtol=1e-15)


def test_from_covariance_nearly_singular_keeps_small_eigenvalue():
    """det = p q - r^2 from error-free products: the small eigenvalue is accurate."""
    mpmath.mp.dps = 50
    p, q, r = 1.0, 1.0, 1.0 - 2.0**-30
    e = c2.Ellipse.from_covariance((0, 0), [[p, r], [r, q]])
    small = 2.0**-30  # eigenvalues of [[1, 1-d], [1-d, 1]] are 2-d and d
    assert abs(e.radii[1] ** 2 - small) <= 4 * 2.0**-53 * small


@pytest.mark.parametrize(
    "cov",
    [
        [[1.0, 0.5], [0.4, 1.0]],  # not symmetric
        [[1.0, 2.0], [2.0, 1.0]],  # indefinite
        [[1.0, 1.0], [1.0, 1.0]],  # singular
        [[-1.0, 0.0], [0.0, 1.0]],
        [[0.0, 0.0], [0.0, 1.0]],
        [[np.nan, 0.0], [0.0, 1.0]],
        [[np.inf, 0.0], [0.0, 1.0]],
        [1.0, 2.0],
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]],
    ],
    ids=["asymmetric", "indefinite", "singular", "negative", "zero", "nan", "inf", "vector", "shape"],
)
def test_from_covariance_invalid(cov):
    with pytest.raises(ValueError, match="cov"):
        c2.Ellipse.from_covariance((0, 0), cov)


def test_from_covariance_other_arguments():
    with pytest.raises(ValueError, match="n_sigma"):
        c2.Ellipse.from_covariance((0, 0), np.eye(2), n_sigma=0.0)
    with pytest.raises(ValueError, match="mean"):
        c2.Ellipse.from_covariance((0, np.nan), np.eye(2))
    with pytest.raises(TypeError, match="cov"):
        c2.Ellipse.from_covariance((0, 0), "cov")


# -- distances for the requested float angle (the grid of the past cost up to 2.6e-11) -------


def _reference_ellipse_distance(center, radii, angle, point):
    """Distance from an outside point to the ellipse rotated by the exact float angle (mpmath)."""
    theta = mpmath.mpf(float(angle))
    c, s = mpmath.cos(theta), mpmath.sin(theta)
    dx, dy = (mpmath.mpf(float(p)) - mpmath.mpf(float(q)) for p, q in zip(point, center))
    y1, y2 = abs(c * dx + s * dy), abs(-s * dx + c * dy)
    a, b = (mpmath.mpf(float(r)) for r in radii)

    def excess(t):  # decreasing on t > 0; zero at the Lagrange multiplier of the closest point
        return (a * y1 / (t + a * a)) ** 2 + (b * y2 / (t + b * b)) ** 2 - 1

    hi = (a + b) * (y1 + y2) + a * a + b * b
    t = mpmath.findroot(excess, (mpmath.mpf(0), hi), solver="anderson")
    x1, x2 = a * a * y1 / (t + a * a), b * b * y2 / (t + b * b)
    return mpmath.sqrt((y1 - x1) ** 2 + (y2 - x2) ** 2)


def _reference_box_distance(center, half, angle, point):
    theta = mpmath.mpf(float(angle))
    c, s = mpmath.cos(theta), mpmath.sin(theta)
    dx, dy = (mpmath.mpf(float(p)) - mpmath.mpf(float(q)) for p, q in zip(point, center))
    y1, y2 = abs(c * dx + s * dy), abs(-s * dx + c * dy)
    gx, gy = max(y1 - mpmath.mpf(float(half[0])), 0), max(y2 - mpmath.mpf(float(half[1])), 0)
    return mpmath.sqrt(gx * gx + gy * gy)


def test_distances_to_rotated_shapes_match_the_float_angle():
    """Point to rotated ellipse and to rotated box, against mpmath (40 digits) for the exact float
    angle: within a few ulps of the scale (the old 2**-40 angle grid gave up to ~1e4 ulps here)."""
    mpmath.mp.dps = 40
    rng = np.random.default_rng(43)
    worst = {"ellipse": 0.0, "box": 0.0}
    for _ in range(40):
        center = rng.uniform(-100, 100, 2)
        size = rng.uniform(5, 60, 2)
        angle = rng.uniform(-4, 4)
        direction = rng.normal(size=2)
        point = center + (np.max(size) + rng.uniform(1, 40)) * direction / np.hypot(*direction)
        scale = np.spacing(max(np.max(np.abs(center)), np.max(np.abs(point)), np.max(size)))
        got = c2.distance(c2.Ellipse(center, size, angle), c2.Point(point))
        want = _reference_ellipse_distance(center, size, angle, point)
        worst["ellipse"] = max(worst["ellipse"], float(abs(mpmath.mpf(got) - want)) / scale)
        got = c2.distance(c2.RotatedBox(center, size, angle), c2.Point(point))
        want = _reference_box_distance(center, size, angle, point)
        worst["box"] = max(worst["box"], float(abs(mpmath.mpf(got) - want)) / scale)
    assert worst["ellipse"] <= 8, worst
    assert worst["box"] <= 8, worst



def test_circle_like_ellipse_ignores_angle():
    for angle in (0.0, 0.4, 2.0):
        assert c2.Ellipse((0, 0), (2.0, 2.0), angle=angle).direction.tolist() == [1.0, 0.0]
    assert c2.Ellipse((0, 0), (2.0, 2.0), angle=0.4).angle == 0.4  # the field keeps what was given
    np.testing.assert_array_equal(c2.Circle((1, 2), 3)._params, c2.Ellipse((1, 2), (3, 3), 0.7)._params)


# -- Box.from_center ---------------------------------------------------------------------------


def test_box_from_center():
    box = c2.Box.from_center((1.0, 2.0), (0.5, 0.25))
    assert isinstance(box, c2.Box)
    assert box.bounds == (0.5, 1.75, 1.5, 2.25)
    assert box.min.tolist() == [0.5, 1.75]
    assert box.max.tolist() == [1.5, 2.25]
    np.testing.assert_array_equal(stored_vertices(box), stored_vertices(c2.Box((0.5, 1.75), (1.5, 2.25))))
    batch = c2.Box.from_center([(0, 0), (10, 10)], 1.0 * np.ones(2))
    assert batch.shape == (2,)
    assert batch[1].bounds == (9.0, 9.0, 11.0, 11.0)
    assert signed_area2(stored_vertices(box)) > 0


# -- validation --------------------------------------------------------------------------------


@pytest.mark.parametrize(("make", "error", "words"), [pytest.param(*case[1:], id=case[0]) for case in INVALID])
def test_validation(make, error, words):
    with pytest.raises(error) as info:
        make()
    message = str(info.value)
    for word in words:
        assert word in message, message


@pytest.mark.parametrize("kind", KINDS)
def test_validation_in_batches_names_field(kind):
    """A single bad value inside a batch is caught, and the message names the field."""
    rng = np.random.default_rng(31)
    fields = [random_fields(kind, rng) for _ in range(3)]
    batch = {name: np.stack([np.asarray(f[name], dtype=float) for f in fields]) for name in fields[0]}
    name = FIELD_NAMES[kind][-1] if kind != "Line" else "point"
    bad = {key: value.copy() for key, value in batch.items()}
    bad[name].reshape(3, -1)[1, 0] = np.nan
    with pytest.raises(ValueError, match=name):
        build(kind, bad)


def test_single_vertex_polygon_batches():
    with pytest.raises(ValueError, match="vertices"):
        c2.Polygon(np.zeros((4, 2, 2)))  # batch of 4 polygons with 2 vertices each
    good = np.array([(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)])
    with pytest.raises(ValueError, match="vertices"):
        c2.Polygon(np.stack([good, [(0, 0), (1, 1), (2, 2)]]))  # one collinear member


@pytest.mark.parametrize(("kind", "factory"), CATALOGUE)
def test_bounds_type(kind, factory):
    bounds = factory().bounds
    assert isinstance(bounds, tuple)
    assert len(bounds) == 4


# -- input that used to be read as something else ---------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda: c2.Circle((0, 0), np.timedelta64(1, "s")),
        lambda: c2.Circle(np.array([1, 2], dtype="timedelta64[ms]"), 1.0),
        lambda: c2.Ellipse((0, 0), (2, 1), np.timedelta64(3, "D")),
        lambda: c2.Point(np.array(["2020-01-01", "2020-01-02"], dtype="datetime64[D]")),
        lambda: c2.Segment((0, 0), np.array([1, 2], dtype="datetime64[s]")),
        lambda: c2.Polygon(np.array([(0, 0), (1, 0), (0, 1)], dtype="timedelta64[s]")),
    ],
    ids=["radius-timedelta", "center-timedelta-array", "angle-timedelta", "xy-datetime", "end-datetime", "vertices-timedelta"],
)
def test_times_are_not_numbers(make):
    with pytest.raises(TypeError, match="real numbers"):
        make()


@pytest.mark.parametrize(
    "vertices",
    [
        [(0, 0), (2, 0), (1, 0), (1, 1)],  # the edge (2, 0) -> (1, 0) doubles back
        [(0, 0), (2, 0), (2, 2), (2, 1), (0, 2)],  # the same on a vertical edge
        [(0, 0), (1, 0), (0, 0), (0, 1)],  # back to the start and on
        [(0.0, 0.0), (0.5, 0.25), (0.1, 0.05), (0.0, 1.0)],  # exactly collinear in float64 (y == x / 2)
    ],
    ids=["doubles-back", "vertical", "returns", "float-collinear"],
)
def test_polygon_reversing_boundary_is_an_error(vertices):
    for given in (vertices, np.array(vertices, dtype=float), np.array([vertices, vertices], dtype=float)):
        with pytest.raises(ValueError, match="vertices.*reverses direction"):
            c2.Polygon(given)


def test_polygon_straight_on_vertices_still_dropped():
    square = [(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)]
    for given in (square, np.array(square, dtype=float)):
        assert c2.Polygon(given).vertices.tolist() == [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0], [0.0, 2.0]]


def _square_with_edge_points(per_edge):
    """A square with ``per_edge`` points along each edge (4 * per_edge vertices, most collinear)."""
    t, side = np.arange(per_edge, dtype=float), float(per_edge)  # integers: collinear exactly
    zero = 0 * t
    edges = [np.stack([t, zero], -1), np.stack([side + zero, t], -1), np.stack([side - t, side + zero], -1), np.stack([zero, side - t], -1)]
    return np.concatenate(edges)


@pytest.mark.parametrize("per_edge", [10, 100, 800])
def test_polygon_cleaning_is_linear(per_edge):
    """Counted work, not time: every turn is evaluated once (n triples), none needs the exact
    fallback for axis-aligned edges; the cleaning used to drop one collinear vertex per pass."""
    from collide2d import _convex

    vertices = _square_with_edge_points(per_edge)
    n = len(vertices)
    before = dict(_convex.COUNTS)
    polygon = c2.Polygon(vertices)
    assert _convex.COUNTS["turns"] - before["turns"] == n
    assert _convex.COUNTS["exact"] == before["exact"]
    side = float(per_edge)
    assert polygon.vertices.tolist() == [[0.0, 0.0], [side, 0.0], [side, side], [0.0, side]]
    # slanted edges: the collinear turns need the exact integer fallback, once each
    turned = vertices @ np.array([[3.0, 1.0], [-1.0, 3.0]])
    before = dict(_convex.COUNTS)
    c2.Polygon(turned)
    assert _convex.COUNTS["turns"] - before["turns"] == n
    assert _convex.COUNTS["exact"] - before["exact"] <= n


def test_small_polygon_path_matches_array_path():
    """Python lists of numbers take a path without NumPy; it must give the same polygons and errors."""
    rng = np.random.default_rng(51)
    cases = [[tuple(p) for p in rng.integers(-3, 4, size=(rng.integers(3, 9), 2)).tolist()] for _ in range(300)]
    for vertices in cases:
        try:
            small = c2.Polygon(vertices)
        except ValueError as error:
            with pytest.raises(ValueError) as info:
                c2.Polygon(np.array(vertices, dtype=float))
            assert str(info.value) == str(error)
            continue
        big = c2.Polygon(np.array(vertices, dtype=float))
        np.testing.assert_array_equal(small.vertices, big.vertices)
        np.testing.assert_array_equal(small._params, big._params)


def test_single_and_batch_constructors_agree():
    """The Python-number path and the array path store the same numbers for every kind."""
    rng = np.random.default_rng(52)
    for kind in KINDS:
        for _ in range(20):
            fields = random_fields(kind, rng)
            plain = {name: (tuple(v.tolist()) if isinstance(v, np.ndarray) and v.ndim == 1 else (v.tolist() if isinstance(v, np.ndarray) else v)) for name, v in fields.items()}
            if kind == "Polygon":
                plain["vertices"] = [tuple(p) for p in plain["vertices"]]
            single, arrays = build(kind, plain), build(kind, {name: np.asarray(v) for name, v in fields.items()})
            np.testing.assert_array_equal(single._params, arrays._params)
            np.testing.assert_array_equal(single._verts, arrays._verts)
            for name in FIELD_NAMES[kind]:
                np.testing.assert_array_equal(getattr(single, name), getattr(arrays, name))


def test_direction_single_and_batch_agree():
    rng = np.random.default_rng(53)
    directions = rng.normal(size=(100, 2)) * 10.0 ** rng.uniform(-5, 5, (100, 1))
    centers, sizes = rng.uniform(-50, 50, (100, 2)), rng.uniform(0.1, 9, (100, 2))
    for cls in (c2.Ellipse, c2.RotatedBox):
        batch = cls(centers, sizes, direction=directions)
        for k in range(100):
            single = cls(tuple(centers[k].tolist()), tuple(sizes[k].tolist()), direction=tuple(directions[k].tolist()))
            np.testing.assert_array_equal(kernel_data(batch[k]), kernel_data(single))
            assert batch[k].angle == single.angle

