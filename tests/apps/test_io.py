"""Reading and writing shapes: catalogues, mixed-kind files, inline shapes, errors with line numbers."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import collide2d as c2
from collide2d import io, scenes
from collide2d.io import InputError, parse_shape, read_shapes, write_shapes
from collide2d.table import ShapeTable


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


# -- CSV catalogues ---------------------------------------------------------------------------------


def test_read_csv_ellipses_with_ids_and_angle(tmp_path):
    path = _write(tmp_path, "cat.csv", "id,x,y,rx,ry,angle,extra\nA,0,0,2,1,0.5,x\nB, 3 ,0,1,3,0,y\n")
    ids, shapes = read_shapes(path)
    assert ids.tolist() == ["A", "B"]
    assert isinstance(shapes, c2.Ellipse) and shapes.shape == (2,)
    np.testing.assert_array_equal(shapes.center, [[0, 0], [3, 0]])
    np.testing.assert_array_equal(shapes.radii, [[2, 1], [1, 3]])
    np.testing.assert_array_equal(shapes.angle, [0.5, 0.0])


def test_read_csv_degrees_and_case_insensitive_header(tmp_path):
    path = _write(tmp_path, "cat.csv", "X,Y,RX,RY,Angle\n0,0,2,1,90\n")
    _, shapes = read_shapes(path, degrees=True)
    np.testing.assert_allclose(shapes.angle, [math.pi / 2])
    with pytest.warns(io.DegreesWarning, match=r"cat.csv: angles up to 90 \(the first at line 2\)"):
        _, radians = read_shapes(path)
    np.testing.assert_array_equal(radians.angle, [90.0])


def test_read_csv_circles_without_ids_and_blank_lines(tmp_path):
    path = _write(tmp_path, "dots.csv", "x,y,r\n0,0,1\n\n2,0,1\n")
    ids, shapes = read_shapes(path)
    assert ids is None
    assert isinstance(shapes, c2.Circle) and shapes.shape == (2,)
    np.testing.assert_array_equal(shapes.radius, [1, 1])


def test_read_csv_header_only_gives_an_empty_batch(tmp_path):
    ids, shapes = read_shapes(_write(tmp_path, "none.csv", "x,y,r\n"))
    assert shapes.shape == (0,)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("x,y,rx,ry\n0,0,2,1\n0,zero,2,1\n", ["line 3", "column y", "'zero'"]),
        ("x,y,rx,ry\n0,0,2,1\n0,0,2,-1\n", ["line 3", "positive"]),
        ("x,y,rx,ry\n0,0,2,1\n\n0,0,0,1\n", ["line 4", "positive"]),  # blank lines still count
        ("x,y,r\n0,0,1\n0,0\n", ["line 3", "expected 3 fields, got 2"]),
        ("x,y,r\n0,0,1\n0,inf,1\n", ["line 3", "not finite"]),
        ("x,y,r\n0,0,nan\n", ["line 2", "not finite"]),
        ("a,b,c\n1,2,3\n", ["line 1", "x,y,rx,ry", "x,y,r"]),
        ("", ["empty"]),
    ],
)
def test_read_csv_errors_name_file_and_line(tmp_path, text, words):
    path = _write(tmp_path, "bad.csv", text)
    with pytest.raises(InputError) as error:
        read_shapes(path)
    message = str(error.value)
    assert "bad.csv" in message
    for word in words:
        assert word in message


def test_read_csv_in_chunks_keeps_order_and_line_numbers(tmp_path, monkeypatch):
    monkeypatch.setattr(io, "CHUNK_ROWS", 3)
    rows = "".join(f"{k},0,1\n" for k in range(10))
    ids, shapes = read_shapes(_write(tmp_path, "ok.csv", "x,y,r\n" + rows))
    np.testing.assert_array_equal(shapes.center[:, 0], np.arange(10))
    bad = "x,y,r\n" + rows + "1,1,oops\n"  # line 12, in the fourth chunk
    with pytest.raises(InputError, match="line 12, column r"):
        read_shapes(_write(tmp_path, "bad.csv", bad))


def test_read_shapes_file_errors(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_shapes(tmp_path / "missing.csv")
    with pytest.raises(InputError, match="unknown file type '.txt'"):
        read_shapes(_write(tmp_path, "shapes.txt", "x,y,r\n"))
    with pytest.raises(InputError, match="directory"):
        read_shapes(tmp_path)


# -- JSON and JSON Lines ----------------------------------------------------------------------------


def _same_shapes(left, right):
    """Compare two collections shape by shape through their public fields."""
    left, right = list(ShapeTable(left)), list(ShapeTable(right))
    assert len(left) == len(right)
    for a, b in zip(left, right):
        assert type(a) is type(b)
        for name in a._field_names:
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))


@pytest.mark.parametrize("suffix", [".json", ".jsonl"])
def test_mixed_scene_round_trip(tmp_path, suffix):
    scene = scenes.load("mixed")
    path = tmp_path / f"mixed{suffix}"
    write_shapes(path, scene.shapes, ids=scene.ids)
    ids, shapes = read_shapes(path)
    assert ids.tolist() == scene.ids
    _same_shapes(shapes, scene.shapes)


def test_jsonl_runs_of_one_kind_become_batches(tmp_path):
    lines = [
        {"kind": "circle", "center": [0, 0], "radius": 1},
        {"kind": "circle", "center": [2, 0], "radius": 1, "id": "c2"},
        {"kind": "polygon", "vertices": [[0, 0], [1, 0], [0, 1]]},
        {"kind": "rotated_box", "center": [0, 0], "half_size": [1, 2], "angle": 30},
    ]
    path = _write(tmp_path, "mixed.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    ids, shapes = read_shapes(path, degrees=True)
    assert ids.tolist() == ["0", "c2", "2", "3"]
    assert [type(s).__name__ for s in shapes] == ["Circle", "Polygon", "RotatedBox"]
    assert shapes[0].shape == (2,)
    np.testing.assert_allclose(shapes[2].angle, math.radians(30))


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        (['{"kind": "circle", "center": [0, 0], "radius": 1}', "{oops"], ["line 2", "invalid JSON"]),
        (['{"kind": "circle", "center": [0, 0]}'], ["line 1", "radius"]),
        (['{"kind": "blob"}'], ["line 1", "'kind' must be one of", "'blob'"]),
        (["[1, 2]"], ["line 1", "expected an object"]),
        (
            ['{"kind": "circle", "center": [0, 0], "radius": 1}', "", '{"kind": "circle", "center": [0, 0], "radius": -1}'],
            ["line 3", "radius", "positive"],
        ),
        (['{"kind": "polygon", "vertices": [[0, 0], [2, 0], [1, 0.5], [2, 2], [0, 2]]}'], ["line 1", "convex"]),
        (['{"kind": "ellipse", "center": [0, 0], "radii": [1, "x"]}'], ["line 1", "radii"]),
    ],
)
def test_jsonl_errors_name_file_and_line(tmp_path, lines, words):
    path = _write(tmp_path, "bad.jsonl", "\n".join(lines) + "\n")
    with pytest.raises(InputError) as error:
        read_shapes(path)
    message = str(error.value)
    assert "bad.jsonl" in message
    for word in words:
        assert word in message


def test_json_errors(tmp_path):
    with pytest.raises(InputError, match="line 3: invalid JSON"):
        read_shapes(_write(tmp_path, "bad.json", '[\n{"kind": \n'))
    with pytest.raises(InputError, match="expected a JSON list"):
        read_shapes(_write(tmp_path, "obj.json", '{"kind": "point", "xy": [0, 0]}'))
    with pytest.raises(InputError, match="item 1"):
        read_shapes(_write(tmp_path, "item.json", '[{"kind": "point", "xy": [0, 0]}, {"kind": "point"}]'))


# -- sample files -----------------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_suspension_sample_round_trip_is_exact(tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    scene = scenes.load("suspension", size=60)
    path = tmp_path / f"suspension{suffix}"
    write_shapes(path, scene.shapes)
    ids, shapes = read_shapes(path)
    shapes = shapes if isinstance(shapes, c2.Shape) else shapes[0]
    for name in ("center", "radii", "angle"):
        np.testing.assert_array_equal(getattr(shapes, name), getattr(scene.shapes, name))


def test_catalogue_sample_round_trip_with_ids(tmp_path):
    scene = scenes.load("catalogue", size=500)
    ids = [f"g{k}" for k in range(500)]
    write_shapes(tmp_path / "cat.csv", scene.shapes, ids=ids)
    read_ids, shapes = read_shapes(tmp_path / "cat.csv")
    assert read_ids.tolist() == ids
    np.testing.assert_array_equal(shapes.center, scene.shapes.center)


def test_parquet_errors_name_the_row(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"x": [0.0, 1.0], "y": [0.0, 0.0], "r": [1.0, 0.0]}), tmp_path / "bad.parquet")
    with pytest.raises(InputError, match="bad.parquet row 2: radii must be positive"):
        read_shapes(tmp_path / "bad.parquet")


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_write_catalogue_of_mixed_kinds(tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    shapes = scenes.load("mixed").shapes
    write_shapes(tmp_path / f"mixed{suffix}", shapes)  # a kind column (see test_csv_kinds.py, test_parquet_kinds.py)
    ids, back = read_shapes(tmp_path / f"mixed{suffix}")
    assert ids is None and [repr(s) for s in c2.ShapeTable(back)] == [repr(s) for s in c2.ShapeTable(shapes)]


# -- inline shapes ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("circle 3 0 1", c2.Circle((3, 0), 1)),
        ("ellipse 0 0 2 1", c2.Ellipse((0, 0), (2, 1))),
        ("ELLIPSE 0, 0, 2, 1, 0.5", c2.Ellipse((0, 0), (2, 1), 0.5)),
        ("box 0 0 1 1", c2.Box((0, 0), (1, 1))),
        ("rotbox 0 0 1 2 45deg", c2.RotatedBox((0, 0), (1, 2), math.radians(45))),
        ("polygon 0 0 1 0 0 1", c2.Polygon([(0, 0), (1, 0), (0, 1)])),
        ("segment 0 0 1 1", c2.Segment((0, 0), (1, 1))),
        ("line 0 0 1 0", c2.Line((0, 0), (1, 0))),
        ("point 1 2", c2.Point((1, 2))),
    ],
)
def test_parse_shape_forms_and_format_round_trip(text, expected):
    shape = parse_shape(text)
    assert type(shape) is type(expected)
    for name in shape._field_names:
        np.testing.assert_allclose(getattr(shape, name), getattr(expected, name), rtol=1e-15)
    again = parse_shape(io.format_shape(shape))
    for name in shape._field_names:
        np.testing.assert_array_equal(getattr(again, name), getattr(shape, name))


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", ["empty"]),
        ("blob 0 0", ["'blob'", "not a shape kind"]),
        ("circle 0 0", ["circle takes 3 numbers, got 2"]),
        ("circle 0 0 x", ["'x' is not a number"]),
        ("circle 0 0 -1", ["radius", "positive"]),
        ("polygon 0 0 1 0", ["even number"]),
        ("ellipse 0 0 2 1 nan", ["not finite"]),
    ],
)
def test_parse_shape_errors(text, words):
    with pytest.raises(InputError) as error:
        parse_shape(text)
    for word in words:
        assert word in str(error.value)


# -- text, numbers and angles that once read wrong ---------------------------------------------------


def test_read_csv_refuses_digit_separators_and_reads_a_byte_order_mark(tmp_path):
    ids, shapes = read_shapes(_write(tmp_path, "bom.csv", "\ufeffid,x,y,r\na,0,0,1\nb,2,0,1.5\n"))
    assert ids.tolist() == ["a", "b"] and shapes.radius.tolist() == [1.0, 1.5]
    for token in ("1_000", "1_0.5", "\u0661", "\uff11"):  # float() reads all of these
        with pytest.raises(InputError, match=f"line 3, column x: '{token}' is not a number"):
            read_shapes(_write(tmp_path, "bad.csv", f"x,y,r\n0,0,1\n{token},0,1\n"))
    with pytest.raises(InputError, match="'1_000' is not a number"):
        parse_shape("circle 1_000 0 1")


def test_json_large_integers_keep_their_digits_as_ids_and_fail_as_numbers(tmp_path):
    big_id = "9" * 500
    path = _write(tmp_path, "ids.jsonl", f'{{"kind": "point", "xy": [0, 0], "id": {big_id}}}\n{{"kind": "point", "xy": [12345678901234567890, 0], "id": 7}}\n')
    ids, shapes = read_shapes(path)
    assert ids.tolist() == [big_id, "7"]
    assert shapes[0].xy[1].tolist() == [float(12345678901234567890), 0.0]  # large but within float range: read
    path = _write(tmp_path, "list.json", '[\n  {"kind": "circle", "center": [0, 0],\n   "radius": -' + "1" * 400 + "}\n]\n")
    with pytest.raises(InputError, match=r"list.json line 2, item 0 \(counted from 0\): radius: the integer -11111...111 \(400 digits\)"):
        read_shapes(path)


def test_degrees_warning_once_per_file_and_never_with_degrees(tmp_path):
    import warnings

    lines = [{"kind": "ellipse", "center": [0, 0], "radii": [2, 1], "angle": a} for a in (0.5, -7, 400)]
    path = _write(tmp_path, "angles.jsonl", "".join(json.dumps(x) + "\n" for x in lines))
    with pytest.warns(io.DegreesWarning) as caught:
        read_shapes(path)
    assert len(caught) == 1 and "angles up to 400 (the first at line 2)" in str(caught[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_shapes(path, degrees=True)
        read_shapes(_write(tmp_path, "small.csv", f"x,y,rx,ry,angle\n0,0,2,1,{2 * math.pi}\n0,0,2,1,-6\n"))
