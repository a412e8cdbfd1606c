"""A hostile user of the rounded kinds (issue 27): what a capsule, a rounded polygon or box, a
contact manifold, their files, converters and the command line did wrong with odd input.

Each test failed on main b93453c:

* ``radius=-0.0`` was stored as ``-0.0`` (a capsule's ``radius`` field and files read back the sign);
* a radius array of zeros lost its batch shape (``Box(..., radius=np.zeros(2))`` was one box) and a
  radius of zeros that does not broadcast with the shape was accepted;
* the centroid of a rounded shape larger than about 1e100 was NaN (the products of three lengths
  overflowed), and of one smaller than about 1e-100 off by its own size (they underflowed);
* ``contact_manifold(..., margin=10**400)`` raised ``OverflowError``;
* half a direction (``dx`` without ``dy``) in a CSV, Parquet or DataFrame catalogue was dropped in
  silence (the box built from the angle instead); a JSON record's or a DataFrame row's field of
  another kind (the ``radius`` of a segment) too;
* ``collide2d check`` gave no IoU for a capsule (a region), and a defect inside an operation
  printed a traceback;
* ``to_shapely``/``geo_interface`` took ``tolerance=True`` or ``'1'``, and a NaN or negative one
  where the shape has no curve; ``geo_interface`` of a rounded shape raised a reshape error;
  ``rounded_path`` of a batch a NumPy scalar error.

References are independent of the code under test: symmetry (the centroid of a capsule is its
core's midpoint, of a rounded box its centre), exact power-of-two scaling, the plain shapes built
on their own, and the public operations the command line reports.
"""

from __future__ import annotations

import json
import math
import pickle

import numpy as np
import pytest

import collide2d as c2
from collide2d import io
from collide2d.cli import main


# -- constructors -----------------------------------------------------------------------------------


@pytest.mark.parametrize("make", [
    lambda r: c2.Capsule((0, 0), (1, 0), r),
    lambda r: c2.Capsule([(0, 0), (1, 1)], (1, 0), r),
])
@pytest.mark.parametrize("radius", [-0.0, np.float64(-0.0), np.array(-0.0), np.array([-0.0, 0.5])])
def test_negative_zero_radius_is_stored_as_zero(make, radius):
    shape = make(radius)
    r = np.ravel(shape.fields["radius"])
    assert not np.any(np.signbit(r))
    assert not np.signbit(shape._params[..., 2]).any()


def test_negative_zero_radius_read_from_files_is_zero(tmp_path):
    path = tmp_path / "cap.csv"
    path.write_text("kind,x0,y0,x1,y1,radius\ncapsule,0,0,1,0,-0.0\n")
    (shape,) = io.read_shapes(path)[1]
    assert math.copysign(1.0, shape.radius) == 1.0
    path = tmp_path / "cap.json"
    path.write_text('[{"kind": "capsule", "a": [0, 0], "b": [1, 0], "radius": -0.0}]')
    (shape,) = io.read_shapes(path)[1]
    assert math.copysign(1.0, shape.radius) == 1.0


@pytest.mark.parametrize("build", [
    lambda r: c2.Box((0, 0), (1, 2), radius=r),
    lambda r: c2.Polygon([(0, 0), (2, 0), (0, 1)], radius=r),
    lambda r: c2.RotatedBox((0, 0), (1, 2), 0.3, radius=r),
    lambda r: c2.RotatedBox((0, 0), (1, 2), direction=(1, 2), radius=r),
])
def test_radius_array_of_zeros_keeps_its_batch_shape(build):
    plain = build(0.0)
    for radius in (np.zeros(3), np.zeros((2, 1)), [0.0, -0.0]):
        shape = build(radius)
        assert type(shape) is type(plain)
        assert shape.shape == np.shape(radius)
        for index in np.ndindex(shape.shape):
            element = shape[index]
            assert type(element) is type(plain)
            assert np.array_equal(element._params, plain._params) and np.array_equal(element._verts, plain._verts)
            assert list(element.fields) == list(plain.fields)
        assert pickle.loads(pickle.dumps(shape)).shape == shape.shape
    empty = build(np.zeros(0))
    assert empty.shape == (0,) and type(empty) is type(plain)


def test_radius_of_zeros_that_does_not_broadcast_is_refused():
    with pytest.raises(ValueError, match="radius"):
        c2.Box(np.zeros((3, 2)), np.ones((3, 2)), radius=np.zeros(5))
    with pytest.raises(ValueError, match="radius"):
        c2.Polygon(np.array([[(0, 0), (1, 0), (0, 1)]] * 3, dtype=float), radius=np.zeros(4))
    with pytest.raises(ValueError, match="radius"):  # as a radius not all zero always was
        c2.Box(np.zeros((3, 2)), np.ones((3, 2)), radius=np.ones(5))


def test_centroid_of_huge_and_tiny_rounded_shapes():
    # symmetry: a capsule's centroid is its core's midpoint, a rounded box's its centre
    assert c2.Capsule((3e150, 3e150), (3.2e150, 3e150), 1e150).centroid == pytest.approx((3.1e150, 3e150), rel=1e-15)
    assert c2.Box((-3e150, -3e150), (3e150, 1e150), radius=3e150).centroid == pytest.approx((0.0, -1e150), rel=1e-15, abs=1e135)
    assert c2.Capsule((0, 0), (2e-140, 0), 1e-140).centroid == pytest.approx((1e-140, 0.0), rel=1e-15, abs=1e-155)
    assert c2.Box((1e-140, 1e-140), (3e-140, 2e-140), radius=1e-140).centroid == pytest.approx((2e-140, 1.5e-140), rel=1e-15)
    # a triangle's: the centroid of the same shape at size 1, scaled by a power of two (exact)
    vertices = np.array([(0.0, 0.0), (2.0, 0.0), (0.5, 3.0)])
    unit = np.array(c2.Polygon(vertices, radius=0.75).centroid)
    for k in (-460, 480):
        scaled = c2.Polygon(vertices * 2.0**k, radius=0.75 * 2.0**k).centroid
        np.testing.assert_allclose(np.array(scaled) * 2.0**-k, unit, rtol=1e-14)
    batch = c2.Capsule([(3e150, 3e150), (0, 0)], [(3.2e150, 3e150), (2, 0)], [1e150, 1.0])
    np.testing.assert_allclose(batch.centroid, [(3.1e150, 3e150), (1.0, 0.0)], rtol=1e-15)


# -- contact_manifold ---------------------------------------------------------------------------------


@pytest.mark.parametrize("margin", [10**400, -(10**400)])
def test_manifold_margin_beyond_float64_is_refused(margin):
    a, b = c2.Box((0, 0), (2, 1), radius=0.1), c2.Capsule((0, 1.1), (2, 1.1), 0.1)
    for first, second in ((a, b), (b, a)):
        with pytest.raises(TypeError, match="margin"):
            c2.contact_manifold(first, second, margin=margin)
    assert c2.contact_manifold(a, b, margin=10**20).count == c2.contact_manifold(a, b).count == 2


# -- files and tables ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "kind,x,y,hx,hy,angle,dx,dy,radius\nrotated_box,0,0,1,1,,1,,0.5\n",
    "kind,x,y,hx,hy,angle,dx,dy\nrotated_box,0,0,1,1,0.5,,1\n",
    "kind,x,y,rx,ry,angle,dx,dy\nellipse,0,0,1,2,,,1\n",
    "x,y,hx,hy,angle,dx,dy\n0,0,1,1,,1,\n",
    "kind,x,y,hx,hy,dx\nrotated_box,0,0,1,1,1\n",
    "kind,x,y,hx,hy,angle,dx,dy,radius\nrotated_box,0,0,1,1,,1,2,0.5\nrotated_box,0,0,1,1,,1,,0.5\n",
])
def test_half_a_direction_in_a_csv_is_refused(tmp_path, text):
    path = tmp_path / "half.csv"
    path.write_text(text)
    with pytest.raises(io.InputError, match=r"line \d, column d[xy] .* while d[xy] is given"):
        io.read_shapes(path)


def test_half_a_direction_in_parquet_and_dataframe_is_refused(tmp_path):
    pd = pytest.importorskip("pandas")
    pytest.importorskip("pyarrow")
    frame = pd.DataFrame({"kind": ["rotated_box"], "x": [0.0], "y": [0.0], "hx": [1.0], "hy": [1.0], "dx": [1.0],
                          "dy": [None], "radius": [0.5]})
    frame["dy"] = frame["dy"].astype("float64")
    path = tmp_path / "half.parquet"
    frame.to_parquet(path)
    with pytest.raises(io.InputError, match="row 1, column dy is null while dx is given"):
        io.read_shapes(path)
    with pytest.raises(ValueError, match="column dx but not dy"):
        c2.ShapeTable.from_dataframe(frame.drop(columns="dy"))
    whole = frame.assign(dy=[2.0])  # both given: read, the direction kept
    (shape,) = c2.ShapeTable.from_dataframe(whole)
    assert shape.fields["direction"].tolist() == [1.0, 2.0] and shape.radius == 0.5


@pytest.mark.parametrize("record, field", [
    ('{"kind": "segment", "start": [0, 0], "end": [1, 0], "radius": 0.5}', "radius"),
    ('{"kind": "circle", "center": [0, 0], "radius": 1, "radii": [1, 2]}', "radii"),
    ('{"kind": "polygon", "vertices": [[0, 0], [1, 0], [0, 1]], "direction": [1, 0]}', "direction"),
])
def test_json_field_of_another_kind_is_refused(tmp_path, record, field):
    for name, text in (("s.json", f"[{record}]"), ("s.jsonl", record + "\n")):
        path = tmp_path / name
        path.write_text(text)
        with pytest.raises(io.InputError, match=f"has no field {field}"):
            io.read_shapes(path)
    path = tmp_path / "ok.json"  # a field no kind has is still ignored
    path.write_text('[{"kind": "segment", "start": [0, 0], "end": [1, 0], "colour": "red"}]')
    (segment,) = io.read_shapes(path)[1]
    assert segment.fields["end"].tolist() == [1.0, 0.0]


def test_dataframe_value_in_a_column_of_another_kind_is_refused():
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"kind": ["capsule", "segment"], "x0": [0.0, 0.0], "y0": [0.0, 0.0], "x1": [1.0, 1.0],
                          "y1": [0.0, 0.0], "radius": [0.5, 0.25]})
    with pytest.raises(ValueError, match="df row 1: a segment has no radius"):
        c2.ShapeTable.from_dataframe(frame)
    table = c2.ShapeTable.from_dataframe(frame.assign(radius=[0.5, None]))  # left NaN: read
    assert [type(s).__name__ for s in table] == ["Capsule", "Segment"]
    back = c2.ShapeTable.from_dataframe(c2.ShapeTable([c2.Capsule((0, 0), (1, 0), 0.5), c2.Box((0, 0), (1, 1), radius=0.2),
                                                       c2.Segment((0, 0), (1, 1))]).to_dataframe())
    assert [type(s).__name__ for s in back] == ["Capsule", "Box", "Segment"]


# -- the command line ---------------------------------------------------------------------------------


def test_cli_check_gives_the_iou_of_a_capsule(capsys):
    a, b = "capsule 0 0 2 0 0.5", "box 0 0 1 1 r=0.1"
    for first, second in ((a, b), (b, a)):
        assert main(["check", first, second, "--format", "json"]) == 0
        result = json.loads(capsys.readouterr().out)
        expected = c2.iou(io.parse_shape(first), io.parse_shape(second))
        assert result["iou"] == expected and 0.0 < expected < 1.0
    assert main(["check", "capsule 0 0 2 0 0", "box 0 0 1 1", "--format", "json"]) == 0  # radius 0: a segment
    assert json.loads(capsys.readouterr().out)["iou"] is None


def test_cli_internal_error_is_one_line(capsys, monkeypatch):
    from collide2d import measurement

    def broken(a, b):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(measurement, "contact", broken)
    monkeypatch.delenv("COLLIDE2D_TRACEBACK", raising=False)
    assert main(["check", "capsule 0 0 2 0 0.5", "circle 3 0 1"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("collide2d: internal error: ZeroDivisionError: division by zero")
    monkeypatch.setenv("COLLIDE2D_TRACEBACK", "1")
    with pytest.raises(ZeroDivisionError):
        main(["check", "capsule 0 0 2 0 0.5", "circle 3 0 1"])


# -- converters -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("shape", [
    c2.Circle((0, 0), 1), c2.Box((0, 0), (1, 1)), c2.Segment((0, 0), (1, 0)),
    c2.Capsule((0, 0), (1, 0), 0.0), c2.Capsule((0, 0), (1, 0), 0.5), c2.Box((0, 0), (1, 1), radius=0.25),
])
def test_to_shapely_tolerance_rules_for_every_kind(shape):
    pytest.importorskip("shapely")
    for tolerance in (True, "1", np.bool_(True)):
        with pytest.raises(TypeError, match="tolerance"):
            c2.to_shapely(shape, tolerance=tolerance)
    for tolerance in (math.nan, -1.0, 0.0, math.inf):
        with pytest.raises(ValueError, match="tolerance"):
            c2.to_shapely(shape, tolerance=tolerance)
    assert c2.to_shapely(shape, tolerance=np.float64(1e-3)).equals(c2.to_shapely(shape, tolerance=1e-3))


def test_geo_interface_and_rounded_path_name_their_rules():
    from collide2d import convert

    for shape in (c2.Capsule((0, 0), (1, 0), 0.5), c2.Box((0, 0), (1, 1), radius=0.2)):
        with pytest.raises(TypeError, match="no GeoJSON geometry"):
            convert.geo_interface(shape)
    pytest.importorskip("matplotlib")
    with pytest.raises(ValueError, match="single shape"):
        convert.rounded_path(c2.Capsule(np.zeros((2, 2)), (1, 0), 0.5))
    with pytest.raises(TypeError, match="rounded shape"):
        convert.rounded_path(c2.Circle((0, 0), 1))


def test_an_output_that_may_not_be_written_is_refused_not_replaced(tmp_path, monkeypatch, capsys):
    import os

    scene = tmp_path / "scene.csv"
    scene.write_text("kind,x0,y0,x1,y1,radius\ncapsule,0,0,2,0,0.5\ncapsule,1,0,3,0,0.5\n")
    kept = tmp_path / "kept.csv"
    kept.write_text("precious\n")
    kept.chmod(0o444)
    real_access = os.access
    # as an unprivileged user sees it (the tests may run as root, whom os.access lets write anything)
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: False if str(path) == str(kept) else real_access(path, mode, **kw))
    assert main(["pairs", str(scene), "-o", str(kept), "-q"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not writable" in err and str(kept) in err
    assert kept.read_text() == "precious\n"
    with pytest.raises(PermissionError):
        io.write_shapes(kept, [c2.Capsule((0, 0), (1, 0), 0.5)])
    assert kept.read_text() == "precious\n"


@pytest.mark.parametrize("text", ["rotated_box 0 0 1 1 r=0.5 30deg", "box 0 0 1 1 r=0.5 r=0.25", "polygon 0 0 1 0 r=0.1 0 1"])
def test_inline_radius_out_of_place_is_named(text):
    with pytest.raises(io.InputError, match="r=RADIUS is given once, as the last word"):
        io.parse_shape(text)
    assert io.parse_shape("rotated_box 0 0 1 1 30deg r=0.5").radius == 0.5


@pytest.mark.parametrize("scale", [2.0**460, 2.0**-460])
def test_from_shapely_reads_buffers_far_from_size_one(scale):
    shapely = pytest.importorskip("shapely")
    # the buffers of size 1 scaled by a power of two (exact): the same shapes, scaled
    for geometry, expected in (
        (shapely.Point(1, 2).buffer(0.5), ((1.0, 2.0), (1.0, 2.0), 0.5)),
        (shapely.LineString([(0, 0), (2, 1)]).buffer(0.5), ((0.0, 0.0), (2.0, 1.0), 0.5)),
    ):
        big = shapely.affinity.scale(geometry, scale, scale, origin=(0, 0))
        shape = c2.from_shapely(big, rounded=True)
        assert type(shape) is c2.Capsule
        np.testing.assert_allclose(shape.radius / scale, expected[2], rtol=1e-12)
        np.testing.assert_allclose(np.array([shape.a, shape.b]) / scale, np.array(expected[:2]), atol=1e-12)
    box = c2.from_shapely(shapely.affinity.scale(shapely.box(0, 0, 2, 1).buffer(0.25), scale, scale, origin=(0, 0)), rounded=True)
    assert isinstance(box, c2.Box)
    np.testing.assert_allclose([*box.min / scale, *box.max / scale, box.radius / scale], [0, 0, 2, 1, 0.25], rtol=1e-12, atol=1e-12)
