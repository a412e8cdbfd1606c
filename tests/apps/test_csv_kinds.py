"""CSV catalogues of any kinds and DataFrames with rounded shapes: a ``kind`` column (or the columns
of one kind other than ellipses and circles), ``radius`` for capsules and rounded boxes, rotated
boxes and polygons, polygon vertices as ``x1 y1 x2 y2 ...``. Round trips bit for bit (the reference
is the shapes written: every field, kernel row and vertex), bad rows named by their line and
skipped on request, today's ellipse and circle catalogues read as before, the command line.
"""

from __future__ import annotations

import contextlib
import csv
import io as _io
import math

import numpy as np
import pytest

import collide2d as c2
from collide2d import io
from collide2d._io_text import _catalogue_records, _catalogue_rows
from collide2d.cli import main

SHAPES = [
    c2.Capsule((0, 0), (1, 1), 0.3),
    c2.Box((0, 0), (1, 1)),
    c2.Box([(0, 0), (2, 2)], [(1, 3), (3, 3)], radius=[0.0, 0.2]),  # a rounded batch with a radius-0 row
    c2.RotatedBox((0, 0), (2, 1), 0.3, radius=0.5),
    c2.RotatedBox([(1, 1), (2, 2)], (2, 1), [-0.1, 6.0], radius=[1 / 3, 1 / 7]),
    c2.Polygon([(0, 0), (1, 0), (0, 1)], radius=0.1),
    c2.Polygon([(0, 0), (1, 0), (1, 1), (0, 1)]),
    c2.Polygon([[(4, 0), (5, 0), (4, 1)], [(6, 0), (7, 0), (6, 1)]], radius=[1e-150, 3e149]),
    c2.Ellipse((0.1, -0.0), (2, 1), 0.5),
    c2.Circle((1, 1), 2),
    c2.Capsule([(0, 0), (1, 1)], [(1, 1), (1, 1)], [0.0, 0.5]),  # radius 0 (a segment) and a == b (a disc)
    c2.Segment((0, 0), (1, 2)),
    c2.Line((0, 0), (1, 2)),
    c2.Point((0.1, -0.0)),
    c2.Capsule((1e-140, 3e150), (-2e-140, 3e150), 5e-150),
]


def _same(back, shapes):
    """Every shape, field, kernel row and vertex equal bit for bit, kind by kind."""
    mine, theirs = c2.ShapeTable(back), c2.ShapeTable(shapes)
    assert len(mine) == len(theirs)
    for a, b in zip(mine, theirs):
        assert type(a) is type(b) and list(a.fields) == list(b.fields)
        for name in a.fields:
            assert np.asarray(a.fields[name]).tobytes() == np.asarray(b.fields[name]).tobytes(), (a, b, name)
    for x, y in ((mine.kinds, theirs.kinds), (mine.params, theirs.params), (mine.vertices, theirs.vertices)):
        assert x.dtype == y.dtype and x.tobytes() == y.tobytes()


def test_csv_round_trip_of_every_kind_is_bit_identical(tmp_path):
    path = tmp_path / "shapes.csv"
    n = len(c2.ShapeTable(SHAPES))
    io.write_shapes(path, SHAPES, ids=[f"s,{k}" for k in range(n)])  # ids with a comma: quoted
    ids, back = io.read_shapes(path)
    assert ids.tolist() == [f"s,{k}" for k in range(n)]
    _same(back, SHAPES)
    rows = list(csv.DictReader(path.read_text().splitlines()))
    assert list(rows[0])[:3] == ["id", "kind", "x"] and list(rows[0])[-2:] == ["vertices", "radius"]
    assert {k: v for k, v in rows[0].items() if v} == {"id": "s,0", "kind": "capsule", "x0": "0.0", "y0": "0.0",
                                                       "x1": "1.0", "y1": "1.0", "radius": "0.3"}
    assert rows[1]["radius"] == "" and rows[2]["radius"] == "0.0"  # a plain box; a rounded one of radius 0
    assert rows[7]["vertices"] == "0.0 0.0 1.0 0.0 0.0 1.0" and rows[7]["radius"] == "0.1"
    # without ids, and as one batch: the same shapes
    io.write_shapes(path, SHAPES[4])
    ids, back = io.read_shapes(path)
    assert ids is None
    _same(back, [SHAPES[4]])


def test_fast_and_row_by_row_readers_agree(tmp_path):
    path = tmp_path / "shapes.csv"
    io.write_shapes(path, SHAPES)
    with path.open(newline="") as handle:
        reader = csv.reader(handle)
        header = next(reader)
        layout, rows, lines = _catalogue_rows(path, reader, header)
    slow = io._records_to_shapes(_catalogue_records(path, header, layout, rows, lines), False)
    fast = io._any_csv_fast(path, layout, rows, lines, False)
    assert fast is not None and slow[0] is None and fast[0] is None
    _same(fast[1], slow[1])
    assert [s.shape for s in fast[1]] == [s.shape for s in slow[1]]  # the same batches


def test_one_kind_catalogues_without_a_kind_column(tmp_path):
    path = tmp_path / "cat.csv"
    path.write_text("x0,y0,x1,y1,radius,note\n0,0,2,0,0.5,a\n1,1,1,1,0.25,b\n")  # capsules; other columns ignored
    ids, [capsules] = io.read_shapes(path)
    assert ids is None and repr(capsules[1]) == "Capsule(a=(1.0, 1.0), b=(1.0, 1.0), radius=0.25)"
    path.write_text("xmin,ymin,xmax,ymax,radius\n0,0,1,1,\n2,2,3,3,0.5\n4,4,5,5,0.5\n")  # empty: a plain box
    ids, shapes = io.read_shapes(path)
    assert [repr(s) for s in c2.ShapeTable(shapes)] == [
        "Box(min=(0.0, 0.0), max=(1.0, 1.0))", "Box(min=(2.0, 2.0), max=(3.0, 3.0), radius=0.5)",
        "Box(min=(4.0, 4.0), max=(5.0, 5.0), radius=0.5)"]
    path.write_text("id,x,y,hx,hy,angle,radius\nr1,0,0,2,1,90,0.5\n")
    ids, [box] = io.read_shapes(path, degrees=True)
    assert ids.tolist() == ["r1"] and box.angle == math.radians(90.0) and box.radius == 0.5
    with pytest.warns(io.DegreesWarning, match=r"cat.csv: angles up to 90 \(the first at line 2\)"):
        io.read_shapes(path)
    path.write_text('vertices,radius\n"0 0, 2 0, 0 2",0.5\n')
    _, [polygon] = io.read_shapes(path)
    assert polygon.vertices.tolist() == [[0, 0], [2, 0], [0, 2]] and polygon.radius == 0.5
    path.write_text("x0,y0,x1,y1\n0,0,1,1\n")  # no radius: segments
    _, [segment] = io.read_shapes(path)
    assert isinstance(segment, c2.Segment)


def test_todays_ellipse_and_circle_catalogues_read_as_before(tmp_path):
    path = tmp_path / "cat.csv"
    path.write_text("x,y,rx,ry,angle,radius,hx\n0,0,2,1,0.5,9,9\n")  # the ellipse columns win, others ignored
    _, ellipses = io.read_shapes(path)
    assert repr(ellipses) == "<Ellipse batch of shape (1,)>" and ellipses.radii.tolist() == [[2.0, 1.0]]
    path.write_text("x,y,r,radius,x0\n0,0,2,5,1\n")
    _, circles = io.read_shapes(path)
    assert repr(circles[0]) == "Circle(center=(0.0, 0.0), radius=2.0)"
    path.write_text("x,y,rx,ry,kind\n0,0,2,1,galaxy\n")  # a kind column names the kinds, as in a DataFrame
    with pytest.raises(io.InputError, match="line 2, column kind: 'galaxy' is not a shape kind.*rename it"):
        io.read_shapes(path)
    path.write_text("x,y\n0,0\n")  # points need a kind column: the header's rule, as before
    with pytest.raises(io.InputError, match=r"cat.csv line 1: the header must name x,y,rx,ry\[,angle\]\[,id\] \(ellipses\) or "
                                            r"x,y,r\[,id\] \(circles\); or the columns of one other kind \(box: "
                                            r"xmin,ymin,xmax,ymax,\[radius\];.*capsule: x0,y0,x1,y1,radius\); or a kind column"):
        io.read_shapes(path)


HEADER = "id,kind,x,y,rx,ry,angle,r,xmin,ymin,xmax,ymax,x0,y0,x1,y1,vertices,radius\n"
GOOD = "g,capsule,,,,,,,,,,,0,0,1,1,,0.5\n"


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("b,capsule,,,,,,,,,,,0,0,1,1,,-2", "line 3: radius must be >= 0, got -2.0"),
        ("b,capsule,,,,,,,,,,,0,0,1,1,,", "line 3, column radius is empty \\(a capsule needs it\\)"),
        ("b,capsule,,,,,,,,,,,0,0,1,1,,big", "line 3, column radius: 'big' is not a number"),
        ("b,capsule,,,,,,,,,,,0,0,1,1,,nan", "line 3: radius must be finite"),
        ("b,capsule,,,,,,,,,,,0,0,1_0,1,,1", "line 3, column x1: '1_0' is not a number"),
        ("b,box,,,,,,,0,0,1,1,,,,,,-1", "line 3: radius must be >= 0"),
        ("b,box,,,2,,,,0,0,1,1,,,,,,", "line 3, column rx: a box has no rx; leave it empty \\(got '2'\\)"),
        ("b,circle,0,0,,,,1,,,,,,,,,,0.5", "line 3, column radius: a circle has no radius"),
        ("b,polygon,,,,,,,,,,,,,,,0 0 1 0 1,0.5", "line 3, column vertices: a polygon needs an even number"),
        ("b,polygon,,,,,,,,,,,,,,,0 0 1 0 2 0,0.5", "line 3: .*(collinear|area)"),
        ("b,elipse,0,0,1,1,,,,,,,,,,,,", "line 3, column kind: 'elipse' is not a shape kind; use one of ellipse, circle"),
        ("b,capsule,,,,", "line 3: expected 18 fields, got 6"),
    ],
)
def test_bad_rows_name_their_line_and_can_be_skipped(tmp_path, row, message):
    path = tmp_path / "bad.csv"
    path.write_text(f"{HEADER}{GOOD}{row}\n\n{GOOD}")
    with pytest.raises(io.InputError, match=message):
        io.read_shapes(path)
    skipped = []
    ids, shapes = io.read_shapes(path, on_invalid=skipped.append)
    assert len(skipped) == 1 and "bad.csv line 3" in str(skipped[0])
    assert ids.tolist() == ["g", "g"] and sum(s.size for s in shapes) == 2


def test_skipped_rows_keep_row_numbers_without_ids(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("x0,y0,x1,y1,radius\n0,0,1,1,0.5\n0,0,1,1,-1\n2,2,3,3,0.5\n")
    ids, shapes = io.read_shapes(path, on_invalid=lambda error: None)
    assert ids.tolist() == [0, 2] and [repr(s) for s in c2.ShapeTable(shapes)][1] == "Capsule(a=(2.0, 2.0), b=(3.0, 3.0), radius=0.5)"


def test_dataframe_round_trip_with_rounded_kinds_is_bit_identical():
    pd = pytest.importorskip("pandas")
    table = c2.ShapeTable(SHAPES, ids=[f"s{k}" for k in range(len(c2.ShapeTable(SHAPES)))])
    df = table.to_dataframe()
    assert df["kind"].tolist()[:4] == ["capsule", "box", "box", "box"]
    assert math.isnan(df["radius"][1]) and df["radius"][2] == 0.0 and df["radius"][0] == 0.3
    back = c2.ShapeTable.from_dataframe(df)
    _same(back, SHAPES)
    assert back.ids.tolist() == table.ids.tolist()
    pd.testing.assert_frame_equal(back.to_dataframe(), df)
    # degrees: the angles read come back as given
    frame = pd.DataFrame({"kind": ["rotated_box", "capsule"], "x": [0.0, np.nan], "y": [0.0, np.nan], "hx": [2.0, np.nan],
                          "hy": [1.0, np.nan], "angle": [30.0, np.nan], "x0": [np.nan, 0.0], "y0": [np.nan, 0.0],
                          "x1": [np.nan, 1.0], "y1": [np.nan, 0.0], "radius": [0.25, 0.5]})
    table = c2.ShapeTable.from_dataframe(frame, degrees=True)
    assert table[0].angle == math.radians(30.0) and table[0].radius == 0.25 and table[1].radius == 0.5
    pd.testing.assert_frame_equal(table.to_dataframe()[list(frame)], frame)


def test_dataframe_of_one_rounded_kind_and_its_errors():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"x0": [0.0, 1.0], "y0": [0.0, 1.0], "x1": [1.0, 2.0], "y1": [0.0, 1.0], "radius": [0.5, 0.25]})
    table = c2.ShapeTable.from_dataframe(df)  # no kind column: capsules by their columns
    assert [repr(s) for s in table][1] == "Capsule(a=(1.0, 1.0), b=(2.0, 1.0), radius=0.25)"
    df.loc[1, "radius"] = np.nan
    with pytest.raises(ValueError, match="df rows 0 to 1 \\(capsule\\): radius must be finite"):
        c2.ShapeTable.from_dataframe(df)
    boxes = pd.DataFrame({"xmin": [0.0, 2.0], "ymin": [0.0, 2.0], "xmax": [1.0, 3.0], "ymax": [1.0, 3.0], "radius": [np.nan, 0.5]})
    table = c2.ShapeTable.from_dataframe(boxes)  # NaN: a plain box
    assert table.kind_names == ["polygon", "rounded"]
    with pytest.raises(ValueError, match="radius must hold numbers"):
        c2.ShapeTable.from_dataframe(boxes.assign(radius=["a", "b"]))


def test_cli_pairs_on_a_csv_of_rounded_shapes(tmp_path):
    path = tmp_path / "scene.csv"
    path.write_text(
        "id,kind,x0,y0,x1,y1,xmin,ymin,xmax,ymax,vertices,radius\n"
        "cap,capsule,0,0,2,0,,,,,,0.5\n"
        "box,box,,,,,0,0.5,1,2,,0.1\n"
        "far,capsule,10,0,10,0,,,,,,1\n"
        "bad,capsule,0,0,1,1,,,,,,-1\n"
        'tri,polygon,,,,,,,,,"1.8 -1 3 -1 3 1",0.05\n'
    )
    out = tmp_path / "pairs.csv"
    err = _io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["pairs", str(path), "-o", str(out)]) == 2
    assert "scene.csv line 5: radius must be >= 0, got -1.0" in err.getvalue() and not out.exists()
    err = _io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["pairs", str(path), "-o", str(out), "--skip-invalid"]) == 0
    assert "skipped" in err.getvalue() and "line 5" in err.getvalue() and "1 bad row skipped" in err.getvalue()
    rows = list(csv.DictReader(out.read_text().splitlines()))
    assert [(r["a"], r["b"]) for r in rows] == [("cap", "box"), ("cap", "tri")]
    _, shapes = io.read_shapes(path, on_invalid=lambda error: None)
    flat = list(c2.ShapeTable(shapes))
    assert float(rows[0]["separation"]) == c2.contact(flat[0], flat[1]).separation
    assert float(rows[1]["overlap_area"]) == c2.overlap_area(flat[0], flat[3]) > 0.0


def test_dask_reads_the_same_csv_of_rounded_shapes_and_polygons(tmp_path):
    pytest.importorskip("dask.dataframe")
    from collide2d import dask as c2dask

    path = tmp_path / "scene.csv"
    path.write_text(
        "id,kind,x0,y0,x1,y1,vertices,radius\n"
        "cap,capsule,0,0,2,0,,0.5\n"
        'tri,polygon,,,,,"0 0, 1 0, 0 1",0.1\n'
        "seg,segment,1,-1,1,3,,\n"
        "far,capsule,10,0,10,0,,1\n"
    )
    got = c2dask.pairs_frame(path).compute().sort_values(["a", "b"])
    _, shapes = io.read_shapes(path)
    flat = list(c2.ShapeTable(shapes))
    names = ["cap", "tri", "seg", "far"]
    want = sorted((names[i], names[j]) for i in range(4) for j in range(i + 1, 4) if c2.intersects(flat[i], flat[j]))
    assert sorted(zip(got["a"], got["b"])) == want == [("cap", "seg"), ("cap", "tri"), ("tri", "seg")]
    for a, b, separation in zip(got["a"], got["b"], got["separation"]):
        assert separation == c2.contact(flat[names.index(a)], flat[names.index(b)]).separation


@pytest.mark.parametrize("suffix", [".csv", ".jsonl"])
def test_the_first_bad_row_is_reported_first(tmp_path, suffix):
    """A shape the constructor refuses (line 3 of the CSV, 2 of the JSON Lines) before a row that
    cannot be parsed (the next line): the refused one is reported."""
    path = tmp_path / f"bad{suffix}"
    if suffix == ".csv":
        path.write_text("kind,x0,y0,x1,y1,xmin,ymin,xmax,ymax,radius\ncapsule,0,0,1,1,,,,,0.5\n"
                        "box,,,,,0,0,1,1,-1\ncapsule,0,0,1,1,3,,,,0.5\n")
    else:
        path.write_text('{"kind": "capsule", "a": [0, 0], "b": [1, 1], "radius": 0.5}\n'
                        '{"kind": "box", "min": [0, 0], "max": [1, 1], "radius": -1}\n{"kind": "capsule"}\n')
    with pytest.raises(io.InputError, match=f"line {3 if suffix == '.csv' else 2}: radius must be >= 0"):
        io.read_shapes(path)
