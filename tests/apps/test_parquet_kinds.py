"""Parquet catalogues of any kinds: the columns of the CSV of any kinds in Parquet's types (``kind``
a string column, numbers float64 with nulls where a row's kind has no such field, ``vertices`` a
list of (x, y) pairs). Round trips bit for bit (the reference is the shapes written: every field,
kernel row and vertex; and the CSV of the same shapes, read back in the same batches), the file's
columns checked with pyarrow itself, today's ellipse and circle catalogues read as before, each bad
row named by its file, row and column, writes that fail leave the old file, the command line, and
the Dask reader of the same file.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

pa = pytest.importorskip("pyarrow", reason="Parquet needs pyarrow (pip install pyarrow)")
pq = pytest.importorskip("pyarrow.parquet")

import collide2d as c2  # noqa: E402
from collide2d import io  # noqa: E402
from collide2d.cli import main  # noqa: E402
from test_csv_kinds import SHAPES as CSV_SHAPES  # noqa: E402

# the CSV's shapes of every kind (rounded ones, radius 0, extreme magnitudes), and more
SHAPES = CSV_SHAPES + [
    c2.RotatedBox([(0, 0), (1, 1)], (2, 1), direction=(3, 4), radius=[0.5, 1 / 3]),  # from a direction: dx, dy kept
    c2.Polygon([(1e150, -1e150), (1.5e150, -1e150), (1e150, -0.5e150)], radius=1e-150),
    c2.Ellipse([(0, 0), (1, 1)], [(2, 1), (2, 2)], direction=[(3, 4), (1, 2**-101)]),
    c2.Circle((-1e150, 1e150), 1e-150),
    c2.Box((1e150, 1e150), (1.5e150, 2e150), radius=1e150),
]


def _bits(shapes):
    """Each shape of a table: class, field names and the bytes of every field, kernel rows and vertices."""
    table = c2.ShapeTable(shapes)
    rows = [(type(s), list(s.fields), [np.asarray(v).tobytes() for v in s.fields.values()]) for s in table]
    return rows, table.kinds.tobytes(), table.params.tobytes(), table.vertices.tobytes()


def _batches(shapes):
    return [(type(s), s.shape) for s in shapes]


def _write(tmp_path, columns, name="in.parquet"):
    path = tmp_path / name
    pq.write_table(pa.table(columns), path)
    return path


def test_round_trip_of_every_kind_is_bit_identical_and_as_the_csv(tmp_path):
    n = len(c2.ShapeTable(SHAPES))
    ids = [f"s,{k}" for k in range(n)]
    io.write_shapes(tmp_path / "shapes.parquet", SHAPES, ids=ids)
    io.write_shapes(tmp_path / "shapes.csv", SHAPES, ids=ids)
    got_ids, back = io.read_shapes(tmp_path / "shapes.parquet")
    assert got_ids.tolist() == ids
    assert _bits(back) == _bits(SHAPES)
    csv_ids, from_csv = io.read_shapes(tmp_path / "shapes.csv")  # the same batches as the CSV's
    assert csv_ids.tolist() == ids and _batches(back) == _batches(from_csv) and _bits(back) == _bits(from_csv)
    io.write_shapes(tmp_path / "again.parquet", back, ids=got_ids)
    assert pq.read_table(tmp_path / "again.parquet").equals(pq.read_table(tmp_path / "shapes.parquet"))


def test_the_file_holds_the_csv_columns_in_parquet_types(tmp_path):
    """The columns checked with pyarrow against the shapes' fields (not read back by collide2d)."""
    shapes = [c2.Capsule((0, 0), (2, 0), 0.5), c2.Box((1, 1), (2, 3), radius=0.25), c2.Box((5, 5), (6, 6)),
              c2.Polygon([(0, 0), (1, 0), (0, 1)], radius=1 / 7), c2.Ellipse((0, 0), (2, 1), 0.5)]
    path = tmp_path / "scene.parquet"
    io.write_shapes(path, shapes)
    io.write_shapes(tmp_path / "scene.csv", shapes)  # the CSV's header, for comparison
    table = pq.read_table(path)
    assert table.column_names == (tmp_path / "scene.csv").read_text().splitlines()[0].split(",")
    assert table.schema.field("kind").type == pa.string()
    assert table.schema.field("vertices").type == pa.list_(pa.list_(pa.float64()))
    assert {table.schema.field(name).type for name in table.column_names if name not in ("kind", "vertices")} == {pa.float64()}
    rows = table.to_pylist()
    assert [row["kind"] for row in rows] == ["capsule", "box", "box", "polygon", "ellipse"]
    assert [row["radius"] for row in rows] == [0.5, 0.25, None, 1 / 7, None]  # null: the plain box, the ellipse
    assert rows[3]["vertices"] == [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]] and rows[0]["vertices"] is None
    assert (rows[0]["x0"], rows[0]["x1"], rows[0]["xmin"]) == (0.0, 2.0, None)
    assert (rows[4]["x"], rows[4]["rx"], rows[4]["angle"], "dx" in rows[4]) == (0.0, 2.0, 0.5, False)  # no direction given


@pytest.mark.parametrize("magnitude", [1e-150, 1e150])
def test_extreme_magnitudes_are_kept_bit_for_bit(tmp_path, magnitude):
    rng = np.random.default_rng(7)
    corners = rng.uniform(-1, 1, (5, 2)) * magnitude  # every coordinate and size of that magnitude (up to 3e150)
    shapes = [
        c2.Box(corners, corners + magnitude * rng.uniform(1, 2, (5, 2)), radius=magnitude * rng.uniform(0.5, 1, 5)),
        c2.Capsule(corners, corners + magnitude * rng.uniform(-1, 1, (5, 2)), magnitude * rng.uniform(0.5, 1, 5)),
        c2.RotatedBox(corners, magnitude * rng.uniform(1, 2, (5, 2)), rng.uniform(-3, 3, 5), radius=magnitude * 0.75),
        c2.Polygon(corners[:, None, :] + magnitude * np.array([[0.0, 0.0], [1.0, 0.1], [0.2, 1.0]]), radius=magnitude * 0.5),
        c2.Ellipse(corners, magnitude * rng.uniform(1, 2, (5, 2)), direction=rng.uniform(-1, 1, (5, 2))),
    ]
    io.write_shapes(tmp_path / "far.parquet", shapes)
    _, back = io.read_shapes(tmp_path / "far.parquet")
    assert _batches(back) == _batches(shapes) and _bits(back) == _bits(shapes)


def test_today_catalogues_read_and_write_as_before(tmp_path):
    """No kind column and the ellipse or circle columns: the catalogue, whatever the other columns."""
    path = _write(tmp_path, {"id": [10, 11], "X": [0.0, 3.0], "y": [0, 1], "rx": [2.0, 1.0], "ry": [1.0, 1.0],
                             "angle": [0.5, 0.0], "vertices": ["not read", None]})
    ids, shapes = io.read_shapes(path)
    assert ids.tolist() == ["10", "11"] and isinstance(shapes, c2.Ellipse) and shapes.shape == (2,)
    assert _bits(shapes) == _bits(c2.Ellipse([(0, 0), (3, 1)], [(2, 1), (1, 1)], [0.5, 0.0]))
    ids, shapes = io.read_shapes(_write(tmp_path, {"x": [0.0], "y": [0.0], "r": [1e-150]}))
    assert ids is None and _bits(shapes) == _bits(c2.Circle([(0.0, 0.0)], [1e-150]))
    catalogue = c2.Ellipse([(0, 0), (1e150, -1e150)], [(2, 1), (1e-150, 2e-150)], [0.5, -0.0])
    io.write_shapes(tmp_path / "cat.parquet", catalogue, ids=["a", "b"])
    assert pq.read_schema(tmp_path / "cat.parquet").names == ["id", "x", "y", "rx", "ry", "angle"]
    ids, back = io.read_shapes(tmp_path / "cat.parquet")
    assert ids.tolist() == ["a", "b"] and _bits(back) == _bits(catalogue)
    io.write_shapes(tmp_path / "cat.parquet", [c2.Circle([(0, 0), (1, 1)], 1.0)])
    assert pq.read_schema(tmp_path / "cat.parquet").names == ["x", "y", "r"]


def test_files_written_by_others(tmp_path):
    """A dictionary kind column (pandas' categorical), integer columns, a column of one kind without
    a kind column, vertices as flat numbers or as the CSV's text, and a DataFrame of
    ``ShapeTable.to_dataframe`` written by pandas (NaN stored as null)."""
    path = _write(tmp_path, {
        "kind": pa.array(["Polygon", "box", "rbox", "polygon"]).dictionary_encode(),
        "vertices": pa.array([[0.0, 0.0, 1.0, 0.0, 0.0, 1.0], None, None, [5, 5, 6, 5, 5, 6]], type=pa.list_(pa.float64())),
        "xmin": [None, 0, None, None], "ymin": [None, 0, None, None], "xmax": [None, 2, None, None], "ymax": [None, 1, None, None],
        "x": [None, None, 1, None], "y": [None, None, 1, None], "hx": [None, None, 2, None], "hy": [None, None, 1, None],
    })
    _, shapes = io.read_shapes(path)
    assert _bits(shapes) == _bits([c2.Polygon([(0, 0), (1, 0), (0, 1)]), c2.Box((0, 0), (2, 1)),
                                   c2.RotatedBox((1, 1), (2, 1)), c2.Polygon([(5, 5), (6, 5), (5, 6)])])
    _, shapes = io.read_shapes(_write(tmp_path, {"vertices": ["0 0 1 0 0 1", "0,0, 2,0, 0,2"], "radius": [None, 0.5]}))
    assert _bits(shapes) == _bits([c2.Polygon([(0, 0), (1, 0), (0, 1)]), c2.Polygon([(0, 0), (2, 0), (0, 2)], radius=0.5)])
    _, shapes = io.read_shapes(_write(tmp_path, {"x0": [0], "y0": [0], "x1": [2], "y1": [0], "radius": [1]}))
    assert _bits(shapes) == _bits([c2.Capsule((0, 0), (2, 0), 1.0)])
    pd = pytest.importorskip("pandas")
    frame = c2.ShapeTable(SHAPES).to_dataframe()
    frame["vertices"] = [v.tolist() if isinstance(v, np.ndarray) else None for v in frame["vertices"]]
    assert isinstance(frame, pd.DataFrame)
    frame.to_parquet(tmp_path / "frame.parquet", index=False)
    _, back = io.read_shapes(tmp_path / "frame.parquet")
    assert _bits(back) == _bits(SHAPES)


def _error(tmp_path, columns, **options):
    with pytest.raises(io.InputError) as caught:
        io.read_shapes(_write(tmp_path, columns), **options)
    return str(caught.value)


BOX = {"xmin": [0.0, 1.0], "ymin": [0.0, 0.0], "xmax": [1.0, 2.0], "ymax": [1.0, 1.0]}


def test_bad_rows_name_the_file_row_and_column(tmp_path):
    where = f"{tmp_path / 'in.parquet'} row 2"
    assert _error(tmp_path, {"kind": ["box", "elipse"], **BOX}).startswith(f"{where}, column kind: 'elipse' is not a shape kind; use one of")
    assert _error(tmp_path, {"kind": ["box", None], **BOX}) == f"{where}, column kind is null (each row needs its shape kind)"
    assert _error(tmp_path, {"kind": ["box", "box"], **BOX, "ymin": [0.0, None]}) == f"{where}, column ymin is null (a box needs it)"
    assert _error(tmp_path, {"kind": ["box", "box"], **BOX, "xmax": ["1", "2"]}) == (
        f"{where.replace('row 2', 'row 1')}, column xmax: '1' is not a number (the column holds string; "
        "write the numbers of a catalogue as a float64 or integer column)")
    assert _error(tmp_path, {"kind": ["box", "box"], **BOX, "xmax": [1.0, float("nan")]}) == f"{where}, column xmax: nan is not finite"
    assert _error(tmp_path, {"kind": ["box", "box"], **BOX, "r": [None, 2.0]}) == f"{where}, column r: a box has no r; leave it null (got 2.0)"
    assert _error(tmp_path, {"kind": ["box", "box"], **BOX, "radius": [None, -1.0]}) == f"{where}: radius must be >= 0, got -1.0"
    assert _error(tmp_path, {"kind": ["box", "box"], **BOX, "xmax": [1.0, -1.0]}).startswith(f"{where}: min must be")
    assert _error(tmp_path, {"kind": ["box", "box"], **BOX, "xmax": [1.0, 1e300]}).startswith(f"{where}: max must lie within +-2**500")
    assert _error(tmp_path, {"kind": ["box", "box"], "xmin": [0, 1], "ymin": [0, 0], "xmax": [1, 2]}) == (
        f"{where.replace('row 2', 'row 1')}: a box needs the column(s) ymax")
    vertices = {"kind": ["polygon", "polygon"]}
    assert _error(tmp_path, {**vertices, "vertices": [[[0, 0], [1, 0], [0, 1]], [[0, 0], [1, 0, 3], [0, 1]]]}) == (
        f"{where}, column vertices: expected a list of (x, y) pairs (or x1, y1, x2, y2, ...) of numbers, got [[0, 0], [1, 0, 3], [0, 1]]")
    assert _error(tmp_path, {**vertices, "vertices": [[[0, 0], [1, 0], [0, 1]], [[0, 0], [None, 1], [1, 0]]]}) == (
        f"{where}, column vertices: every coordinate must be finite, got [[0, 0], [None, 1], [1, 0]]")
    assert _error(tmp_path, {**vertices, "vertices": ["0 0 1 0 0 1", "0 0 1 0 0"]}).startswith(
        f"{where}, column vertices: a polygon needs an even number (>= 6) of coordinates")
    assert "row 2: vertices must be convex" in _error(tmp_path, {**vertices, "vertices": [[[0, 0], [1, 0], [0, 1]], [[0, 0], [2, 0], [1, 0.1], [1, 2]]]})


def test_bad_files_are_named(tmp_path):
    name = str(tmp_path / "in.parquet")
    assert _error(tmp_path, {"x": [0.0], "y": [0.0], "q": [1.0]}).startswith(f"{name}: the columns must be x,y,rx,ry")
    assert _error(tmp_path, {"kind": ["box"], "xmin": [0.0], "XMIN": [0.0]}) == f"{name}: the column xmin appears twice; rename or drop one"
    (tmp_path / "broken.parquet").write_bytes(b"PAR1 not a Parquet file")
    with pytest.raises(io.InputError, match="broken.parquet: not a readable Parquet file"):
        io.read_shapes(tmp_path / "broken.parquet")


def test_skip_invalid_keeps_the_row_numbers(tmp_path):
    path = _write(tmp_path, {"kind": ["box", "blob", "capsule", "box"], "xmin": [0.0, None, None, 2.0], "ymin": [0.0, None, None, 0.0],
                             "xmax": [1.0, None, None, 3.0], "ymax": [1.0, None, None, 1.0], "x0": [None, None, 0.0, None],
                             "y0": [None, None, 0.0, None], "x1": [None, None, 1.0, None], "y1": [None, None, 1.0, None],
                             "radius": [None, None, None, None]})
    skipped = []
    ids, shapes = io.read_shapes(path, on_invalid=lambda error: skipped.append(str(error)))
    assert len(skipped) == 2 and "row 2, column kind: 'blob'" in skipped[0] and "row 3, column radius is null (a capsule needs it)" in skipped[1]
    assert ids.tolist() == [0, 3] and _bits(shapes) == _bits([c2.Box((0, 0), (1, 1)), c2.Box((2, 0), (3, 1))])
    ids, _ = io.read_shapes(_write(tmp_path, {"kind": ["box", "box"], **BOX, "id": [None, "b"]}))
    assert ids.tolist() == ["0", "b"]  # a null id: the row's number, counted from 0, as a JSON record without id


def test_degrees_and_their_warning(tmp_path):
    path = _write(tmp_path, {"kind": ["rotated_box", "ellipse"], "x": [0.0, 1.0], "y": [0.0, 1.0], "hx": [2.0, None],
                             "hy": [1.0, None], "rx": [None, 2.0], "ry": [None, 1.0], "angle": [30.0, 90.0]})
    with pytest.warns(io.DegreesWarning, match=r"in\.parquet: angles up to 90 \(the first at row 1\)"):
        io.read_shapes(path)
    _, shapes = io.read_shapes(path, degrees=True)
    assert _bits(shapes) == _bits([c2.RotatedBox((0, 0), (2, 1), np.radians(30.0)), c2.Ellipse((1, 1), (2, 1), np.radians(90.0))])


def test_a_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "keep.parquet"
    io.write_shapes(path, SHAPES)
    before = path.read_bytes()

    def broken(table, where, **options):
        with open(where, "wb") as handle:
            handle.write(b"PAR1 half")
        raise OSError("disk full")

    monkeypatch.setattr(pq, "write_table", broken)
    with pytest.raises(OSError, match="disk full"):
        io.write_shapes(path, [c2.Capsule((0, 0), (1, 0), 0.5)])
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["keep.parquet"]


@pytest.mark.parametrize("suffix", [".parquet", ".csv", ".jsonl"])
def test_ids_of_another_length_are_refused_and_the_old_file_kept(tmp_path, suffix):
    path = tmp_path / f"keep{suffix}"
    io.write_shapes(path, SHAPES[:2], ids=["a", "b"])
    before = path.read_bytes()
    with pytest.raises(io.InputError, match=f"keep{suffix}: 1 ids for 2 shapes; give one id per shape"):
        io.write_shapes(path, SHAPES[:2], ids=["a"])
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == [f"keep{suffix}"]


def test_without_pyarrow_a_clear_error(tmp_path, monkeypatch):
    io.write_shapes(tmp_path / "mixed.parquet", SHAPES[:2])
    for name in ("pyarrow", "pyarrow.parquet"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as if not installed
    with pytest.raises(io.InputError, match="writing Parquet needs pyarrow"):
        io.write_shapes(tmp_path / "other.parquet", SHAPES[:2])
    with pytest.raises(io.InputError, match="reading Parquet needs pyarrow"):
        io.read_shapes(tmp_path / "mixed.parquet")


def test_cli_reads_a_mixed_parquet_and_writes_the_pairs(tmp_path, capsys):
    scene = [c2.Capsule((0, 0), (2, 0), 0.5), c2.Box((1, 0), (2, 1), radius=0.25), c2.Box((1.5, -1), (3, 0.2)),
             c2.Capsule([(2.5, 0), (0, 0.8)], [(4, 1), (0, 3)], [0.5, 0.2]), c2.Box((0.2, 0.2), (0.4, 0.4))]
    n = len(c2.ShapeTable(scene))
    for suffix in (".parquet", ".csv"):
        io.write_shapes(tmp_path / f"scene{suffix}", scene, ids=[f"s{k}" for k in range(n)])
        assert main(["pairs", str(tmp_path / f"scene{suffix}"), "-o", str(tmp_path / f"pairs{suffix}.csv")]) == 0
    from_parquet = (tmp_path / "pairs.parquet.csv").read_text()
    assert from_parquet == (tmp_path / "pairs.csv.csv").read_text() and len(from_parquet.splitlines()) > 4
    capsys.readouterr()
    _write(tmp_path, {"kind": ["box", "box", "box"], "xmin": [0.0, 0.5, 5.0], "ymin": [0.0, 0.0, 0.0], "xmax": [1.0, None, 6.0],
                      "ymax": [1.0, 1.0, 1.0]}, name="bad.parquet")
    assert main(["pairs", str(tmp_path / "bad.parquet")]) == 2
    err = capsys.readouterr().err
    assert "bad.parquet row 2, column xmax is null (a box needs it)" in err and "Traceback" not in err
    assert main(["pairs", str(tmp_path / "bad.parquet"), "--skip-invalid"]) == 0
    assert "skipped" in capsys.readouterr().err


@pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.reset_index is deprecated:DeprecationWarning")
def test_dask_reads_the_same_file(tmp_path):
    """``collide2d.dask`` reads a Parquet file of any kinds written here: the pairs and measures of
    the single machine (rounded shapes included)."""
    pytest.importorskip("dask.dataframe")
    from collide2d import dask as c2dask

    shapes = [c2.Capsule((0, 0), (2, 0), 0.5), c2.Box((1, 0), (2, 1), radius=0.25), c2.Polygon([(1.8, -1), (3, -1), (3, 1)], radius=0.1),
              c2.Ellipse((5, 0), (1, 0.5), 0.5), c2.Circle((5.5, 0.4), 0.3), c2.RotatedBox((2.5, 0.5), (0.5, 0.2), 0.3)]
    io.write_shapes(tmp_path / "scene.parquet", shapes, ids=[f"s{k}" for k in range(6)])
    got = c2dask.query_pairs(tmp_path / "scene.parquet", tiles=(2, 2)).compute()
    pairs = sorted(zip(got["a"], got["b"], got["separation"]))
    table = c2.ShapeTable(shapes)
    i, j = c2.query_pairs(table)
    separation = c2.measure_pairs(table, np.stack([i, j])).separation
    assert pairs == sorted((f"s{a}", f"s{b}", s) for a, b, s in zip(i.tolist(), j.tolist(), separation.tolist()))
    assert len(pairs) >= 4
    folder = tmp_path / "dataset"  # a folder of files with the same columns: one catalogue
    folder.mkdir()
    io.write_shapes(folder / "part-0.parquet", shapes[:3], ids=["s0", "s1", "s2"])
    io.write_shapes(folder / "part-1.parquet", [c2.Capsule((3, 0), (4, 0), 0.2), c2.Box((0, 1), (1, 2), radius=0.1),
                                               c2.Polygon([(2, -1), (3, -1), (3, 0)], radius=0.5)], ids=["t0", "t1", "t2"])
    got = c2dask.query_pairs(folder, tiles=(2, 2)).compute()
    table = c2.ShapeTable(shapes[:3] + list(io.read_shapes(folder / "part-1.parquet")[1]))
    i, j = c2.query_pairs(table)
    names = ["s0", "s1", "s2", "t0", "t1", "t2"]
    assert sorted(zip(got["a"], got["b"])) == sorted((names[a], names[b]) for a, b in zip(i.tolist(), j.tolist()))
    io.write_shapes(folder / "part-1.parquet", [c2.Polygon([(0, 0), (1, 0), (0, 1)])], ids=["p"])  # other columns
    with pytest.raises(io.InputError, match=r"part-0.parquet holds shapes of any kinds \(.*\) but .*part-1.parquet holds "
                       r"shapes of any kinds \(kind, vertices, id\); a dataset holds one kind of shape with the same columns"):
        c2dask.query_pairs(folder)


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_a_missing_column_the_rows_need_is_named(tmp_path, suffix):
    """The column rules shared by both formats: a box without the column ymax (the CSV raised a KeyError)."""
    path = tmp_path / f"boxes{suffix}"
    if suffix == ".csv":
        path.write_text("kind,xmin,ymin,xmax\nbox,0,0,1\n")
    else:
        pq.write_table(pa.table({"kind": ["box"], "xmin": [0.0], "ymin": [0.0], "xmax": [1.0]}), path)
    where = "line 2" if suffix == ".csv" else "row 1"
    with pytest.raises(io.InputError, match=f"boxes{suffix} {where}: a box needs the column\\(s\\) ymax"):
        io.read_shapes(path)


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_an_empty_batch_writes_no_row(tmp_path, suffix):
    """A batch of no shapes among others (it raised a ValueError from a reshape): no row, the others kept."""
    empty = [c2.Capsule(np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0)), c2.Polygon(np.zeros((0, 3, 2)), radius=np.zeros(0))]
    io.write_shapes(tmp_path / f"some{suffix}", [empty[0], c2.Box((0, 0), (1, 1), radius=0.5), empty[1]])
    assert _bits(io.read_shapes(tmp_path / f"some{suffix}")[1]) == _bits([c2.Box((0, 0), (1, 1), radius=0.5)])
    io.write_shapes(tmp_path / f"none{suffix}", empty)
    assert io.read_shapes(tmp_path / f"none{suffix}") == (None, [])
