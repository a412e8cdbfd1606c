"""Round trips through shapely, matplotlib and pandas (issue 30, item 4).

Each expected answer is independent of the converter under test: the numbers the shapes were
built from, the coordinates shapely itself holds (``shapely.get_coordinates``), what matplotlib
draws (the patch's own transform), the frame that went in (``pandas.testing``), and the exact set
of floats of degrees that give a stored angle (``fractions.Fraction``).
"""

from __future__ import annotations

import math
import pickle
import warnings
from fractions import Fraction

import numpy as np
import pytest

import collide2d as c2
from collide2d import _foreign, convert
from collide2d.io import DegreesWarning

shapely = pytest.importorskip("shapely")
pandas = pytest.importorskip("pandas")


def _same(a, b):
    """Bit for bit the same shape: class, batch shape, kernel rows, vertices and public fields."""
    assert type(a) is type(b), (a, b)
    assert a.shape == b.shape
    np.testing.assert_array_equal(a._params, b._params, strict=True)
    np.testing.assert_array_equal(a._verts, b._verts, strict=True)
    assert set(a._fields) == set(b._fields)
    for name in a._fields:
        np.testing.assert_array_equal(np.asarray(a._fields[name]), np.asarray(b._fields[name]), strict=True)


def _same_item(a, b):
    """The same single shape bit for bit, also when ``a`` is an item of a batch (which shares the
    batch's vertex array): class, fields, and its table row and vertices."""
    assert type(a) is type(b), (a, b)
    for name in b._fields:
        np.testing.assert_array_equal(np.asarray(a._fields[name]), np.asarray(b._fields[name]), strict=True)
    first, second = c2.ShapeTable([a]), c2.ShapeTable([b])
    np.testing.assert_array_equal(first.params, second.params, strict=True)
    np.testing.assert_array_equal(first.vertices, second.vertices, strict=True)


def _convex_rings(rng, count, vertices):
    """``count`` convex polygons of ``vertices`` points on circles, counter-clockwise: (count, k, 2)."""
    turns = np.sort(rng.uniform(0, 2 * np.pi, (count, vertices)), axis=1)
    radius = rng.uniform(0.5, 3, (count, 1))
    center = rng.uniform(-5, 5, (count, 1, 2))
    return center + radius[..., None] * np.stack([np.cos(turns), np.sin(turns)], axis=-1)


def _batches(rng, shape):
    """A batch of each kind whose to_shapely is exact, built from random numbers."""
    n = int(np.prod(shape))
    lo = rng.uniform(-5, 5, shape + (2,))
    return {
        "Point": c2.Point(rng.uniform(-5, 5, shape + (2,))),
        "Segment": c2.Segment(lo, lo + rng.uniform(0.5, 2, shape + (2,))),
        "Box": c2.Box(lo, lo + rng.uniform(0.5, 2, shape + (2,))),
        "Polygon": c2.Polygon(_convex_rings(rng, n, 5).reshape(shape + (5, 2))),
    }


# -- shapely ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [(), (4,), (2, 3)])
@pytest.mark.parametrize("kind", ["Point", "Segment", "Box", "Polygon"])
def test_from_shapely_of_to_shapely_is_the_batch_bit_for_bit(kind, shape):
    rng = np.random.default_rng(3001)
    batch = _batches(rng, shape)[kind]
    geometries = c2.to_shapely(batch)
    back = c2.from_shapely(geometries)  # was: TypeError for an array
    _same(back, batch)
    if shape:  # a flat list, and a pandas Series, of the same geometries give the flat batch
        flat = c2.from_shapely(list(np.ravel(geometries)))
        assert type(flat) is type(batch) and flat.shape == (batch.size,)
        np.testing.assert_array_equal(flat._flat_params(), batch._flat_params(), strict=True)
        np.testing.assert_array_equal(flat._verts, batch._verts, strict=True)
        _same(c2.from_shapely(pandas.Series(np.ravel(geometries))), flat)
        _same(c2.from_shapely(geometries.tolist()), batch)  # a nested list keeps its shape


def test_from_shapely_keeps_the_vertices_shapely_holds():
    rng = np.random.default_rng(3002)
    rings = [_convex_rings(rng, 1, k)[0] for k in (3, 6, 4, 5)]
    geometries = np.array([shapely.Polygon(ring) for ring in rings], dtype=object)
    batch = c2.from_shapely(geometries)  # of different vertex counts: one polygon batch, padded
    assert type(batch) is c2.Polygon and batch.shape == (4,)
    for k in range(len(rings)):
        coordinates = shapely.get_coordinates(geometries[k])[:-1]  # shapely's ring, closing vertex dropped
        offset, count = batch._params[k].astype(int)
        np.testing.assert_array_equal(batch._verts[offset : offset + count], coordinates, strict=True)
    # circles and ellipses come back as the inscribed polygons to_shapely made of them
    ellipses = c2.Ellipse(rng.uniform(-5, 5, (2, 3, 2)), rng.uniform(0.5, 2, (2, 3, 2)), rng.uniform(0, 3, (2, 3)))
    polygons = c2.to_shapely(ellipses, tolerance=0.05)
    back = c2.from_shapely(polygons)
    assert type(back) is c2.Polygon and back.shape == (2, 3)
    for index in np.ndindex(2, 3):
        expected = shapely.get_coordinates(polygons[index])[:-1]
        flat = np.ravel_multi_index(index, (2, 3))
        offset, count = back._flat_params()[flat].astype(int)
        np.testing.assert_array_equal(back._verts[offset : offset + count], expected)


def test_from_shapely_reads_polygon_arrays_at_once_as_one_by_one():
    rng = np.random.default_rng(3009)
    rings = []
    for k in range(40):  # 3 to 7 vertices, either winding, and two rectangles among them
        ring = _convex_rings(rng, 1, 3 + k % 5)[0]
        rings.append(ring[::-1] if k % 3 == 0 else ring)
    rings[5], rings[6] = shapely.get_coordinates(shapely.box(0, 0, 2, 1))[:-1], shapely.get_coordinates(shapely.box(0, 0, 2, 1, ccw=False))[:-1]
    geometries = np.array([shapely.Polygon(ring) for ring in rings], dtype=object).reshape(4, 10)
    for array, at_once in ((geometries, True), (np.append(geometries.ravel(), shapely.Polygon([(0, 0), (1, 0), (2, 0), (2, 2)])), False)):
        assert (_foreign._polygon_array(array) is not None) is at_once  # a vertex on a straight run: one by one
        one_by_one = _foreign._shapes_of_geometries([_foreign._read_geometry(g, "g") for g in array.flat], array.shape)
        _same(c2.from_shapely(array), one_by_one)


def test_from_shapely_rectangles_all_one_class_or_all_polygons():
    boxes = [shapely.box(0, 0, 2, 1), shapely.box(5, 5, 6, 8)]
    assert type(c2.from_shapely(boxes)) is c2.Box
    diamonds = c2.RotatedBox([(0, 0), (3, 1)], [(1, 1), (2, 2)], direction=[(1, 1), (1, -1)])  # corners exact
    back = c2.from_shapely(c2.to_shapely(diamonds))
    assert type(back) is c2.RotatedBox
    np.testing.assert_array_equal(back.corners, diamonds.corners, strict=True)
    # a rectangle among general polygons: all polygons, each with its own vertices as shapely holds them
    triangle = shapely.Polygon([(0, 0), (4, 0), (0, 3)])
    back = c2.from_shapely([boxes[0], triangle])
    assert type(back) is c2.Polygon
    np.testing.assert_array_equal(back._verts[:4], shapely.get_coordinates(boxes[0])[:-1])
    # rotated boxes whose corners a RotatedBox cannot store exactly come back as their corners
    turned = c2.RotatedBox([(0, 0), (3, 1)], [(2, 1), (1, 0.5)], [0.3, 1.1])
    back = c2.from_shapely(c2.to_shapely(turned))
    assert type(back) is c2.Polygon
    np.testing.assert_array_equal(back._verts, turned._verts, strict=True)


def test_from_shapely_of_mixed_kinds_is_a_table_in_order():
    geometries = np.array(
        [shapely.Point(1, 2), shapely.box(0, 0, 1, 1), shapely.box(2, 2, 3, 3),
         shapely.LineString([(0, 0), (1, 1)]), shapely.Polygon([(0, 0), (4, 0), (0, 3)]), shapely.Point(3, 4)],
        dtype=object,
    ).reshape(2, 3)
    table = c2.from_shapely(geometries)
    assert isinstance(table, c2.ShapeTable) and len(table) == 6
    for k, geometry in enumerate(geometries.flat):
        _same_item(table[k], c2.from_shapely(geometry))
    assert [type(s).__name__ for s in table] == ["Point", "Box", "Box", "Segment", "Polygon", "Point"]
    assert len(c2.from_shapely(np.array([], dtype=object))) == 0  # no geometries: an empty table


@pytest.mark.parametrize(
    ("geometries", "error", "message"),
    [
        ([shapely.Point(0, 0), None], TypeError, r"geometry\[1\] must be a shapely geometry .* got NoneType"),
        ([shapely.Point(0, 0), shapely.MultiPoint([(0, 0), (1, 1)])], TypeError, r"geometry\[1\] must be a Point, .* MultiPoint"),
        ([[shapely.Point(0, 0), shapely.Point(1, 2, 3)]], ValueError, r"geometry\[0, 1\]: the Point has the z coordinate 3.0"),
        ([shapely.Polygon([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)])], ValueError, r"geometry\[0\]: the Polygon's vertices must be convex"),
        ([shapely.LineString([(0, 0), (1, 1), (2, 0)])], ValueError, r"geometry\[0\]: a LineString must have exactly two points"),
        ([shapely.Polygon()], ValueError, r"geometry\[0\] is an empty Polygon"),
        (np.zeros((2, 2)), TypeError, r"an array must hold shapely geometries \(dtype object\), got dtype float64"),
        ([[shapely.Point(0, 0)], [shapely.Point(0, 0), shapely.Point(1, 1)]], TypeError, r"geometry\[0\] must be a shapely geometry .* got list"),
    ],
)
def test_from_shapely_errors_name_the_geometry(geometries, error, message):
    with pytest.raises(error, match=message):
        c2.from_shapely(geometries)


def test_from_shapely_of_a_series_names_the_label():
    series = pandas.Series([shapely.Point(0, 0), shapely.Polygon([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)])], index=["a", "b"])
    with pytest.raises(ValueError, match=r"geometry\[1\] \(index label 'b'\): the Polygon's vertices must be convex"):
        c2.from_shapely(series)
    with pytest.raises(TypeError, match="pass its geometry column"):
        c2.from_shapely(pandas.DataFrame({"geometry": series}))


# -- matplotlib -------------------------------------------------------------------------------------


def _exact_degrees(theta):
    """The floats ``d`` near ``degrees(theta)`` with ``math.radians(d) == theta``, by exact rationals:
    ``math.radians(d)`` is ``d * fl(pi / 180)`` rounded to nearest, so ``d`` qualifies when the exact
    product lies within half an ulp of ``theta`` (ties checked by the float product itself)."""
    factor = Fraction(math.pi / 180)
    found = []
    d = math.degrees(theta)
    for _ in range(12):
        d = math.nextafter(d, -math.inf)
    for _ in range(25):
        if abs(Fraction(d) * factor - Fraction(theta)) <= Fraction(math.ulp(theta)) / 2 and math.radians(d) == theta:
            found.append(d)
        d = math.nextafter(d, math.inf)
    return found


def test_from_patch_of_to_patch_is_the_shape_bit_for_bit():
    pytest.importorskip("matplotlib")
    rng = np.random.default_rng(3003)
    for _ in range(40):
        center, radii = tuple(rng.uniform(0.1, 5, 2).tolist()), tuple(rng.uniform(0.1, 3, 2).tolist())
        d = float(rng.integers(-720, 720)) + float(rng.choice([0.0, 0.5, 0.25, 0.1]))
        shapes = [
            c2.Circle(center, radii[0]),
            c2.Ellipse(center, radii, math.radians(d)),  # an angle made from degrees
            c2.RotatedBox(center, radii, math.radians(d)),
            c2.Box(center, (center[0] + radii[0], center[1] + radii[1])),  # corners of one sign: x0 + width reaches x1
            c2.Polygon(_convex_rings(rng, 1, 6)[0]),
            c2.Segment(center, tuple(rng.uniform(-5, 5, 2).tolist())),
        ]
        for shape in shapes:
            _same(c2.from_patch(c2.to_patch(shape)), shape)
        patch = c2.to_patch(shapes[1])
        assert patch.angle in _exact_degrees(shapes[1].angle)  # the degrees read back as the same radians
        assert patch.angle == d or len(repr(patch.angle)) <= len(repr(d))  # d itself, or a shorter equivalent


def test_to_patch_angle_is_exact_degrees_when_some_exist():
    pytest.importorskip("matplotlib")
    rng = np.random.default_rng(3004)
    for theta in rng.uniform(-7, 7, 300).tolist():
        ellipse = c2.Ellipse((0.0, 0.0), (2.0, 1.0), theta)
        patch = c2.to_patch(ellipse)
        exact = _exact_degrees(theta)
        back = c2.from_patch(patch)
        if exact:  # was: math.degrees(atan2(direction)), which reads back off by an ulp or more
            assert patch.angle in exact
            _same(back, ellipse)
        else:  # no float of degrees gives theta: the patch draws radians(angle), and so does the shape
            assert back.angle == math.radians(patch.angle) and abs(back.angle - theta) <= 4 * math.ulp(theta)
    assert c2.to_patch(c2.Ellipse((0, 0), (2, 1), math.radians(30))).angle == 30.0  # math.degrees: 29.999999999999996


def test_from_patch_is_what_the_patch_draws():
    pytest.importorskip("matplotlib")
    from matplotlib import patches

    rng = np.random.default_rng(3005)
    unit_square = [(0, 0), (1, 0), (1, 1), (0, 1)]
    for _ in range(30):
        x0, y0 = rng.uniform(-5, 5, 2).tolist()
        width, height = rng.uniform(0.1, 4, 2).tolist()
        angle = float(rng.uniform(-360, 360))
        rectangle = patches.Rectangle((x0, y0), width, height)
        box = c2.from_patch(rectangle)
        assert box.bounds == tuple(rectangle.get_bbox().extents.tolist())  # the far side x0 + width, as matplotlib adds it
        _same(c2.from_patch(c2.to_patch(box)), box)  # a box from a patch comes back whole
        for pivot in ("xy", "center", (float(rng.uniform(-5, 5)), float(rng.uniform(-5, 5)))):
            rectangle = patches.Rectangle((x0, y0), width, height, angle=angle, rotation_point=pivot)
            turned = c2.from_patch(rectangle)
            assert type(turned) is c2.RotatedBox
            np.testing.assert_allclose(turned.corners, rectangle.get_patch_transform().transform(unit_square), rtol=0, atol=1e-12)
        ellipse = patches.Ellipse((x0, y0), width, height, angle=angle)
        shape = c2.from_patch(ellipse)
        circle = np.stack([np.cos(np.linspace(0, 6, 20)), np.sin(np.linspace(0, 6, 20))], axis=-1)
        offsets = ellipse.get_patch_transform().transform(circle) - shape.center  # matplotlib's curve
        (ux, uy), (a, b) = shape.direction / np.hypot(*shape.direction), shape.radii
        along, across = offsets @ (ux, uy), offsets @ (-uy, ux)
        np.testing.assert_allclose(np.hypot(along / a, across / b), 1.0, rtol=0, atol=1e-12)
    # a box whose corners straddle magnitudes: the far side matplotlib draws, x0 + width
    box = c2.Box((-0.5, -0.5), (0.1, 0.1))
    back = c2.from_patch(c2.to_patch(box))
    patch = c2.to_patch(box)
    assert back.max.tolist() == [patch.get_x() + patch.get_width(), patch.get_y() + patch.get_height()]
    assert np.all(np.abs(back.max - box.max) <= np.spacing(0.5))


def test_from_patch_of_lists_gives_batches_and_tables():
    pytest.importorskip("matplotlib")
    rng = np.random.default_rng(3006)
    degrees = rng.integers(-180, 180, 5).astype(float)
    batches = [
        c2.Circle(rng.uniform(-5, 5, (5, 2)), rng.uniform(0.5, 2, 5)),
        c2.Ellipse(rng.uniform(-5, 5, (5, 2)), rng.uniform(0.5, 2, (5, 2)), np.radians(degrees)),
        c2.RotatedBox(rng.uniform(-5, 5, (5, 2)), rng.uniform(0.5, 2, (5, 2)), np.radians(degrees)),
        c2.Polygon(_convex_rings(rng, 5, 4)),
        c2.Segment(rng.uniform(-5, 5, (5, 2)), rng.uniform(-5, 5, (5, 2))),
        c2.Box(rng.uniform(1, 2, (5, 2)), rng.uniform(2.5, 3.5, (5, 2))),
    ]
    for batch in batches:
        back = c2.from_patch([c2.to_patch(shape) for shape in batch])
        _same(back, batch)
    mixed = c2.from_patch([c2.to_patch(c2.Circle((0, 0), 1)), c2.to_patch(c2.Box((1, 1), (2, 2))), c2.to_patch(c2.Circle((5, 0), 1))])
    assert isinstance(mixed, c2.ShapeTable) and [type(s).__name__ for s in mixed] == ["Circle", "Box", "Circle"]


def test_from_patch_errors():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import patches, path, transforms

    with pytest.raises(TypeError, match="PatchCollection, which keeps only the drawn paths"):
        c2.from_patch(c2.to_patch(c2.Circle([(0, 0), (3, 0)], 1)))
    with pytest.raises(TypeError, match=r"patch\[1\] must be a matplotlib patch .* got str"):
        c2.from_patch([patches.Circle((0, 0), 1), "circle"])
    with pytest.raises(TypeError, match="PathPatch of other than one straight piece"):
        c2.from_patch(patches.PathPatch(path.Path([(0, 0), (1, 0), (1, 1)])))
    with pytest.raises(TypeError, match="got Wedge"):
        c2.from_patch(patches.Wedge((0, 0), 1, 0, 90))
    with pytest.raises(ValueError, match=r"patch\[0\]: radii must be positive"):
        c2.from_patch([patches.Ellipse((0, 0), 0.0, 1.0)])
    fig, ax = plt.subplots()
    try:
        on_axes = patches.Circle((1, 2), 3)
        ax.add_patch(on_axes)  # data coordinates: read
        _same(c2.from_patch(on_axes), c2.Circle((1, 2), 3))
        for transform in (ax.transAxes, transforms.Affine2D().rotate_deg(30) + ax.transData, fig.transFigure):
            with pytest.raises(ValueError, match="drawn with a transform other than data coordinates"):
                c2.from_patch(patches.Circle((0, 0), 1, transform=transform))
        _same(c2.from_patch(patches.Circle((0, 0), 1, transform=transforms.IdentityTransform())), c2.Circle((0, 0), 1))
    finally:
        plt.close(fig)


# -- pandas -----------------------------------------------------------------------------------------


def _catalogue(rng, n, **extra):
    data = {"x": rng.uniform(0, 50, n), "y": rng.uniform(0, 50, n), "rx": rng.uniform(0.5, 2, n),
            "ry": rng.uniform(0.5, 2, n), "angle": rng.uniform(-360, 360, n)}
    return pandas.DataFrame({**extra, **data})


def test_dataframe_ids_come_back_as_they_came():
    rng = np.random.default_rng(3007)
    n = 6
    with_ids = _catalogue(rng, n, id=pandas.array([f"s{k}" for k in range(n)], dtype="string"))
    table = c2.ShapeTable.from_dataframe(with_ids, degrees=True)  # was: the id column ignored
    assert table.ids.tolist() == [f"s{k}" for k in range(n)]
    pandas.testing.assert_frame_equal(table.to_dataframe()[with_ids.columns], with_ids)  # the id's dtype too
    labelled = _catalogue(rng, n).set_index(pandas.Index([f"row{k}" for k in range(n)], name="star"))
    table = c2.ShapeTable.from_dataframe(labelled, degrees=True)
    assert table.ids.tolist() == list(labelled.index)
    back = table.to_dataframe()
    pandas.testing.assert_index_equal(back.index, labelled.index)  # was: a RangeIndex
    pandas.testing.assert_frame_equal(back[labelled.columns], labelled)
    both = _catalogue(rng, n, id=np.arange(100, 100 + n)).set_index(pandas.MultiIndex.from_arrays([["a"] * n, range(n)]))
    table = c2.ShapeTable.from_dataframe(both, degrees=True)
    assert table.ids.tolist() == list(range(100, 100 + n))  # the id column first, the index kept beside it
    pandas.testing.assert_frame_equal(table.to_dataframe()[both.columns], both)
    renamed = c2.ShapeTable.from_dataframe(with_ids.rename(columns={"id": "name"}), columns={"id": "name"}, degrees=True)
    assert renamed.ids.tolist() == [f"s{k}" for k in range(n)]
    pandas.testing.assert_series_equal(renamed.to_dataframe()["id"], with_ids["id"])  # as the catalogue name id
    plain = c2.ShapeTable.from_dataframe(_catalogue(rng, n), degrees=True)  # the default index: no ids
    assert plain.ids is None and isinstance(plain.to_dataframe().index, pandas.RangeIndex)
    assert "id" not in plain.to_dataframe()


def test_dataframe_degrees_come_back_bit_for_bit():
    rng = np.random.default_rng(3008)
    df = _catalogue(rng, 200)  # random floats of degrees: some pairs of them give the same radians
    table = c2.ShapeTable.from_dataframe(df, degrees=True)
    np.testing.assert_array_equal(table[7].angle, math.radians(df["angle"][7]))
    back = table.to_dataframe()
    np.testing.assert_array_equal(back["angle"].to_numpy(), df["angle"].to_numpy(), strict=True)  # was: radians
    radians = table.to_dataframe(degrees=False)["angle"].to_numpy()
    np.testing.assert_array_equal(radians, np.radians(df["angle"].to_numpy()))
    # mixed kinds with a kind column: NaN where a kind has no angle, degrees where it has
    mixed = pandas.DataFrame({"kind": ["circle", "ellipse", "rotated_box"], "x": [0.0, 1.0, 2.0], "y": [0.0, 0.0, 0.0],
                              "r": [1.0, np.nan, np.nan], "rx": [np.nan, 2.0, np.nan], "ry": [np.nan, 1.0, np.nan],
                              "hx": [np.nan, np.nan, 1.0], "hy": [np.nan, np.nan, 0.5], "angle": [np.nan, 33.3, -400.0]})
    back = c2.ShapeTable.from_dataframe(mixed, degrees=True).to_dataframe()
    pandas.testing.assert_frame_equal(back[mixed.columns], mixed)
    # radians tables in degrees: floats whose math.radians is the angle stored
    angles = rng.uniform(-3, 3, 20)
    written = c2.ShapeTable([c2.Ellipse((0, 0), (2, 1), angles)]).to_dataframe(degrees=True)["angle"]
    for theta, d in zip(angles.tolist(), written.tolist()):
        exact = _exact_degrees(theta)
        assert d in exact if exact else abs(math.radians(d) - theta) <= 4 * math.ulp(theta)


def test_dataframe_degree_looking_angles_warn_like_the_command_line():
    df = pandas.DataFrame({"x": [0.0, 1.0, 2.0], "y": [0.0, 0.0, 0.0], "rx": [2.0, 1.0, 1.0], "ry": [1.0, 0.5, 1.0],
                           "angle": [0.5, 90.0, -135.0]})
    with pytest.warns(DegreesWarning) as record:  # was: read as radians in silence
        c2.ShapeTable.from_dataframe(df)
    message = str(record[0].message)
    assert message.startswith("df: angles up to 135 (the first at row 1) are read as radians, but |angle| > 2 pi suggests degrees")
    assert "pass degrees=True" in message and record[0].filename == __file__  # points at the caller
    with pytest.warns(DegreesWarning) as record:
        convert.table_from_dataframe(df)
    assert record[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        c2.ShapeTable.from_dataframe(df, degrees=False)  # said: radians
        c2.ShapeTable.from_dataframe(df, degrees=True)
        c2.ShapeTable.from_dataframe(df.assign(angle=[0.5, 2 * math.pi, -6.0]))  # within 2 pi: no warning
    with pytest.raises(TypeError, match="degrees must be True, False or None"):
        c2.ShapeTable.from_dataframe(df, degrees="yes")


def test_table_ids_given_and_kept():
    circles = c2.Circle([(0, 0), (3, 0), (6, 0)], 1)
    table = c2.ShapeTable([circles], ids=["a", "b", "c"])
    assert table.ids.tolist() == ["a", "b", "c"] and not table.ids.flags.writeable
    assert table.to_dataframe()["id"].tolist() == ["a", "b", "c"]
    assert c2.ShapeTable(table).ids.tolist() == ["a", "b", "c"]
    again = pickle.loads(pickle.dumps(c2.ShapeTable.from_dataframe(pandas.DataFrame({"x": [0.0], "y": [0.0], "r": [1.0]}, index=["q"]))))
    assert again.ids.tolist() == ["q"] and again.to_dataframe().index.tolist() == ["q"]
    with pytest.raises(ValueError, match=r"ids must hold one label per shape, shape \(3,\), got shape \(2,\)"):
        c2.ShapeTable([circles], ids=["a", "b"])
