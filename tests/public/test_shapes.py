"""Shapes: construction, immutability, batches, broadcasting, bounds, polygons and validation (the
orientations in test_shape_angles.py)."""

from __future__ import annotations

import math
import pickle
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from conftest import CATALOGUE, INVALID, KINDS, build, catalogue_of, random_batch, random_fields

import collide2d as c2

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


@pytest.mark.parametrize(("kind", "factory"), CATALOGUE)
def test_every_class_lives_at_its_public_path(kind, factory):
    # the classes are defined in private modules of the shapes package; pickles, reprs, the API
    # reference and doctest name them by their public home, collide2d.shapes
    for shape in (factory(), c2.Box((0, 0), (1, 1), radius=0.5), c2.Capsule((0, 0), (1, 0), 0.5)):
        cls = type(shape)
        assert cls.__module__ == "collide2d.shapes" and getattr(c2.shapes, cls.__qualname__) is cls
        data = pickle.dumps(shape)
        assert b"collide2d.shapes" in data and b"collide2d.shapes._" not in data
        assert repr(pickle.loads(data)) == repr(shape)
    assert getattr(c2, kind).__module__ == "collide2d.shapes"


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

