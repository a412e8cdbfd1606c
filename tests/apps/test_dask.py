"""collide2d.dask: the tiled query on Dask equals the single-machine query_pairs, pair for pair.

Every test compares with :func:`reference`, which runs the single-machine ``query_pairs`` and then
``relate``, ``contact``, ``overlap_area`` and ``iou`` on the pairs (``b`` moved by its periodic
shift). Most tests run on a ``distributed.LocalCluster`` of two in-process workers started here;
the others on Dask's default threads.
"""

from __future__ import annotations

import numpy as np
import pytest

dd = pytest.importorskip("dask.dataframe", reason="collide2d.dask needs the extra: pip install 'collide2d[dask]'")
distributed = pytest.importorskip("distributed", reason="collide2d.dask tests need distributed (the dask extra)")
pd = pytest.importorskip("pandas")

import collide2d as c2  # noqa: E402
from collide2d import dask as c2dask  # noqa: E402
from collide2d.broadphase import query_pairs as single_query_pairs  # noqa: E402
from collide2d.measurement import contact  # noqa: E402
from collide2d.overlay import iou, overlap_area  # noqa: E402
from collide2d.predicates import relate  # noqa: E402

# The same code runs on the same float64 numbers in a tile as on one machine, so the measures agree
# to the last bit; the tolerance is zero in ulps, written as a tolerance (STYLE 5.7).
SAME = {"rtol": 0.0, "atol": 0.0}

pytestmark = [
    # dask 2026.8's Parquet reader calls reset_index(inplace=True), deprecated by pandas 3.1 (a
    # Pandas4Warning, a DeprecationWarning subclass); it is dask's call, not ours
    pytest.mark.filterwarnings("ignore:The inplace keyword in DataFrame.reset_index is deprecated:DeprecationWarning"),
]


@pytest.fixture(scope="module")
def client():
    """Two in-process workers of one thread each: the tasks really run on two workers."""
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster, distributed.Client(cluster) as client:
        yield client


# -- the single-machine answer ------------------------------------------------------------------


def build(table, degrees=False):
    if "r" in table:
        return c2.Circle(table[["x", "y"]].to_numpy(), table["r"].to_numpy())
    angle = table["angle"].to_numpy() if "angle" in table else 0.0
    return c2.Ellipse(table[["x", "y"]].to_numpy(), table[["rx", "ry"]].to_numpy(), np.radians(angle) if degrees else angle)


def reference(table, *, predicate="intersects", periodic=None, degrees=False):
    shapes = build(table, degrees)
    (i, j), shifts = single_query_pairs(shapes, predicate=predicate, periodic=periodic, return_shifts=True)
    moved = table.iloc[j].copy()
    moved[["x", "y"]] = moved[["x", "y"]].to_numpy() + shifts
    a, b = build(table.iloc[i], degrees), build(moved, degrees)
    ids = table["id"].to_numpy() if "id" in table else np.arange(len(table))
    if i.size == 0:
        return pd.DataFrame({"a": ids[:0], "b": ids[:0], "relation": np.zeros(0, np.int8)})
    touch = contact(a, b)
    frame = pd.DataFrame(
        {
            "a": ids[i],
            "b": ids[j],
            "relation": np.asarray(relate(a, b), dtype=np.int8),
            "separation": touch.separation,
            "normal_x": touch.normal[:, 0],
            "normal_y": touch.normal[:, 1],
            "overlap_area": overlap_area(a, b),
            "iou": iou(a, b),
        }
    )
    if periodic is not None:
        frame["shift_x"], frame["shift_y"] = shifts[:, 0], shifts[:, 1]
    return frame


def check(result, table, **options):
    """``result`` (a Dask DataFrame) equals the single-machine answer; return the pair count."""
    columns = c2dask.COLUMNS + (("shift_x", "shift_y") if options.get("periodic") is not None else ())
    assert tuple(result.columns) == columns
    got = result.compute()
    assert tuple(got.columns) == columns
    expected = reference(table, **options)
    if "id" not in table:  # row numbers: the order i < j of the single-machine query
        assert np.all(got["a"].to_numpy() < got["b"].to_numpy())
    order = np.lexsort((got["b"].to_numpy(), got["a"].to_numpy())) if "id" not in table else None
    if order is None:  # ids as given: align on the row numbers of the ids
        row = {value: k for k, value in enumerate(table["id"])}
        key_a = got["a"].map(row).to_numpy()
        key_b = got["b"].map(row).to_numpy()
        order = np.lexsort((key_b, key_a))
    got = got.iloc[order].reset_index(drop=True)
    assert got["a"].tolist() == expected["a"].tolist()
    assert got["b"].tolist() == expected["b"].tolist()
    codes = got["relation"].cat.codes.to_numpy()
    assert got["relation"].cat.categories.tolist() == [r.name for r in c2.Relation]
    np.testing.assert_array_equal(codes, expected["relation"].to_numpy())
    for name in columns[3:]:
        if len(expected):
            np.testing.assert_allclose(got[name].to_numpy(), expected[name].to_numpy(), **SAME, err_msg=name)
    return len(got)


def random_ellipses(seed, n, extent=(40.0, 30.0), size=(0.2, 1.5), origin=(0.0, 0.0)):
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "x": origin[0] + rng.uniform(0, extent[0], n),
            "y": origin[1] + rng.uniform(0, extent[1], n),
            "rx": rng.uniform(*size, n),
            "ry": rng.uniform(*size, n),
            "angle": rng.uniform(-np.pi, np.pi, n),
        }
    )


def lattice_circles(count, spacing=2.0, radius=1.0, offset=1.0):
    """Circles on a square lattice, each touching its four neighbours exactly."""
    k = np.arange(count, dtype=np.float64) * spacing + offset
    x, y = np.meshgrid(k, k)
    return pd.DataFrame({"x": x.ravel(), "y": y.ravel(), "r": np.full(x.size, radius)})


# -- equality with the single-machine query -----------------------------------------------------


@pytest.mark.parametrize("tiles", [None, (4, 3), (9, 2)])
def test_query_pairs_random_ellipses_equal_single_machine(client, tiles):
    table = random_ellipses(11, 1500)
    result = c2dask.query_pairs(dd.from_pandas(table, npartitions=3), tiles=tiles)
    if tiles is not None:  # one partition per tile
        assert result.npartitions == np.prod(np.broadcast_to(tiles, 2))
    assert check(result, table) > 500


def test_query_pairs_default_tiles_follow_tile_shapes(client):
    table = random_ellipses(12, 2000)
    result = c2dask.query_pairs(dd.from_pandas(table, npartitions=2), tile_shapes=200)
    assert result.npartitions >= 6
    check(result, table)


@pytest.mark.parametrize("periodic", [None, (16.0, 16.0)])
@pytest.mark.parametrize("tiles", [(4, 4), (3, 5)])
def test_query_pairs_touching_on_tile_borders_and_corners(client, periodic, tiles):
    # Test 1: an 8 x 8 lattice of unit circles 2 apart touches at odd coordinates (1, 3, 5, ...),
    # and a second lattice shifted by (1, 1) puts circles centred on those touching points; with
    # 4 x 4 tiles of a 16 x 16 box the tile borders are 0, 4, 8, 12, so touching points and centres
    # fall on borders and on tile corners. Without a period the grid spans the rounded-out bounds,
    # a few ulps off those borders, which exercises the owner rule at ties.
    table = pd.concat([lattice_circles(8, offset=1.0), lattice_circles(8, offset=0.0, radius=0.5)], ignore_index=True)
    result = c2dask.query_pairs(dd.from_pandas(table, npartitions=4), tiles=tiles, periodic=periodic)
    found = check(result, table, periodic=periodic)
    assert found >= 2 * 7 * 8  # at least the exact lattice touches


def test_query_pairs_shapes_larger_than_a_tile(client):
    # a few ellipses spanning many tiles among small ones: they are copied into every tile they reach
    table = random_ellipses(13, 800)
    big = pd.DataFrame({"x": [10.0, 25.0, 33.0], "y": [12.0, 20.0, 5.0], "rx": [15.0, 9.0, 4.0], "ry": [2.0, 6.0, 12.0], "angle": [0.3, -1.0, 2.0]})
    table = pd.concat([table, big], ignore_index=True)
    result = c2dask.query_pairs(dd.from_pandas(table, npartitions=3), tiles=(8, 6))
    assert check(result, table) > 300


@pytest.mark.parametrize("tiles", [None, 1, (3, 5)])
def test_query_pairs_periodic_wrap_around(client, tiles):
    # a box with a non-zero origin; some centres outside it (the query wraps them)
    box = c2.Box((-5.0, -3.0), (35.0, 27.0))
    table = random_ellipses(14, 1500, extent=(44.0, 34.0), size=(0.3, 2.0), origin=(-7.0, -5.0))
    result = c2dask.query_pairs(dd.from_pandas(table, npartitions=3), periodic=box, tiles=tiles)
    count = check(result, table, periodic=box)
    assert count > 200
    shifts_used = single_query_pairs(build(table), periodic=box, return_shifts=True)[1]
    assert np.any(shifts_used != 0)  # the scene really has pairs across the seams


def test_query_pairs_periodic_far_from_the_box(client):
    # centres thousands of box lengths away: the owner corner is computed from unwrapped boxes, so
    # the halo pad must follow their coordinates, not the wrapped ones
    table = random_ellipses(23, 600, extent=(20.0, 20.0))
    rng = np.random.default_rng(23)
    table["x"] += 20.0 * rng.integers(-5000, 5000, len(table))
    table["y"] += 20.0 * rng.integers(-5000, 5000, len(table))
    check(c2dask.query_pairs(dd.from_pandas(table, npartitions=2), periodic=(20.0, 20.0), tiles=(4, 4)), table, periodic=(20.0, 20.0))


def test_query_pairs_periodic_lengths(client):
    table = random_ellipses(15, 600, extent=(20.0, 20.0))
    check(c2dask.query_pairs(dd.from_pandas(table, npartitions=2), periodic=(20.0, 20.0), tiles=(3, 3)), table, periodic=(20.0, 20.0))


def test_query_pairs_empty_partitions_and_empty_tiles(client):
    # two clusters in opposite corners: most tiles are empty; filtering empties some partitions
    rng = np.random.default_rng(16)
    table = random_ellipses(16, 400, extent=(5.0, 5.0))
    far = random_ellipses(17, 400, extent=(5.0, 5.0), origin=(95.0, 95.0))
    table = pd.concat([table, far], ignore_index=True).iloc[rng.permutation(800)].sort_values("x").reset_index(drop=True)
    frame = dd.from_pandas(table, npartitions=8)
    kept = frame[(frame["x"] < 5.0) | (frame["x"] > 99.0)]  # the middle partitions become empty
    expected_table = table[(table["x"] < 5.0) | (table["x"] > 99.0)].reset_index(drop=True)
    lengths = kept.map_partitions(len).compute().tolist()
    assert 0 in lengths
    check(c2dask.query_pairs(kept, tiles=(6, 6)), expected_table)


def test_query_pairs_no_shapes_and_one_shape(client):
    table = random_ellipses(18, 5)
    for rows in (table.iloc[:0], table.iloc[:1]):
        result = c2dask.query_pairs(dd.from_pandas(rows, npartitions=1))
        got = result.compute()
        assert len(got) == 0
        assert tuple(got.columns) == c2dask.COLUMNS


def test_query_pairs_circles_ids_and_predicates():
    # default threaded scheduler; ids carried through; other predicates filter like one machine
    rng = np.random.default_rng(19)
    table = pd.concat([lattice_circles(6), lattice_circles(6, radius=0.75, offset=0.5)], ignore_index=True)
    table["id"] = [f"s{k:03d}" for k in rng.permutation(len(table))]
    for predicate in ("intersects", "touches", "overlaps", None):
        result = c2dask.query_pairs(dd.from_pandas(table, npartitions=3), predicate=predicate, tiles=(3, 2))
        check(result, table, predicate=predicate)


def test_query_pairs_angle_in_degrees():
    table = random_ellipses(20, 500)
    table["angle"] = np.degrees(table["angle"])
    check(c2dask.query_pairs(dd.from_pandas(table, npartitions=2), degrees=True, tiles=(2, 2)), table, degrees=True)


# -- Parquet -----------------------------------------------------------------------------------


def test_query_pairs_parquet_round_trip(client, tmp_path):
    pytest.importorskip("pyarrow", reason="Parquet needs pyarrow (the dask extra)")
    table = random_ellipses(21, 1200)
    table["id"] = [f"e{k}" for k in range(len(table))]
    table["colour"] = "red"  # other columns are ignored
    dd.from_pandas(table, npartitions=3).to_parquet(tmp_path / "shapes", write_index=False)
    result = c2dask.query_pairs(tmp_path / "shapes", tiles=(3, 3))
    count = check(result, table.drop(columns="colour"))
    result.to_parquet(tmp_path / "pairs", write_index=False)
    back = dd.read_parquet(tmp_path / "pairs").compute()
    assert len(back) == count
    assert tuple(back.columns) == c2dask.COLUMNS
    assert set(back["relation"].astype(str)) <= {r.name for r in c2.Relation}


def test_pairs_frame_reads_csv(tmp_path):
    path = tmp_path / "cat.csv"
    path.write_text(" X , Y ,R,id\n0,0,1,a\n2,0,1,b\n5,0,1,c\n5.5,0,1,d\n")
    got = c2dask.pairs_frame(path).compute()
    assert got[["a", "b"]].values.tolist() == [["a", "b"], ["c", "d"]]
    assert got["relation"].astype(str).tolist() == ["TOUCHING", "OVERLAPPING"]


# -- errors -------------------------------------------------------------------------------------


def test_query_pairs_rejects_bad_input():
    table = random_ellipses(22, 10)
    frame = dd.from_pandas(table, npartitions=1)
    with pytest.raises(ValueError, match="x, y, rx, ry"):
        c2dask.query_pairs(dd.from_pandas(table[["x", "y"]], npartitions=1))
    with pytest.raises(ValueError, match="twice the largest"):
        c2dask.query_pairs(frame, periodic=(2.0, 2.0))
    with pytest.raises(ValueError, match="predicate"):
        c2dask.query_pairs(frame, predicate="near")
    with pytest.raises(ValueError, match="radii"):
        c2dask.query_pairs(dd.from_pandas(table.assign(rx=-1.0), npartitions=1))
    with pytest.raises(TypeError, match="Dask DataFrame"):
        c2dask.query_pairs(table.to_numpy())
    with pytest.raises(ValueError, match="tiles"):
        c2dask.query_pairs(frame, tiles=0)


def test_cli_pairs_dask_matches_single_machine(tmp_path):
    """``collide2d pairs INPUT --dask`` writes the same rows as the single-machine command."""
    import subprocess
    import sys

    rng = np.random.default_rng(2718)
    n = 300
    xy = rng.uniform(0, 40, size=(n, 2))
    path = tmp_path / "cat.csv"
    rows = [f"{float(x)!r},{float(y)!r},{float(r)!r},{k}" for k, ((x, y), r) in enumerate(zip(xy, rng.uniform(0.5, 2.0, n)))]
    path.write_text("x,y,r,id\n" + "\n".join(rows) + "\n")
    outputs = []
    for extra in ([], ["--dask"]):
        out = tmp_path / f"pairs{len(extra)}.csv"
        subprocess.run([sys.executable, "-m", "collide2d", "pairs", str(path), "-o", str(out), "-q", *extra], check=True)
        lines = out.read_text().splitlines()
        outputs.append((lines[0], sorted(lines[1:])))
    assert outputs[0][0] == outputs[1][0]
    assert len(outputs[0][1]) > 10
    assert outputs[0][1] == outputs[1][1]


def test_query_pairs_names_the_bad_row_and_warns_of_degrees():
    import warnings

    from collide2d.io import DegreesWarning

    table = random_ellipses(5, 30)
    for column, value, words in (("ry", -2.0, "shapes row 18: radii must be positive"), ("x", np.nan, "shapes row 18, column x: nan is not finite")):
        bad = table.copy()
        bad.loc[17, column] = value  # row 18 counted from 1, in the third of four partitions
        with pytest.raises(ValueError, match=words):
            c2dask.query_pairs(dd.from_pandas(bad, npartitions=4))
    degrees = table.assign(angle=np.where(np.arange(30) >= 20, 90.0, table["angle"]))
    with pytest.warns(DegreesWarning, match=r"angles up to 90 \(the first at row 21, counted from 1\)"):
        c2dask.query_pairs(dd.from_pandas(degrees, npartitions=3))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = c2dask.query_pairs(dd.from_pandas(degrees, npartitions=3), degrees=True).compute()
    assert len(got) == len(reference(degrees, degrees=True))


def test_query_pairs_refuses_columns_that_are_not_numbers():
    table = random_ellipses(6, 8)
    for column in (pd.to_datetime(np.arange(8), unit="s"), np.arange(8) % 2 == 0, [str(k) for k in range(8)]):
        with pytest.raises(ValueError, match="column x holds .*, not numbers"):
            c2dask.query_pairs(dd.from_pandas(table.assign(x=column), npartitions=2))


# -- mixed kinds ---------------------------------------------------------------------------------


def random_mixed(seed, n_each=40, extent=30.0, lines=True):
    """A catalogue of every kind, as ``ShapeTable.to_dataframe`` writes it (a ``kind`` column, NaN
    in the other kinds' columns, polygon vertices as arrays of two vertex counts)."""
    rng = np.random.default_rng(seed)

    def xy(k=n_each):
        return rng.uniform(0, extent, (k, 2))

    triangles = xy()[:, None, :] + np.array([[0.0, 0.0], [1.5, 0.2], [0.4, 1.3]])
    quads = xy()[:, None, :] + np.array([[0.0, 0.0], [1.0, 0.0], [1.2, 0.9], [-0.1, 1.1]])
    corner = xy()
    start = xy()
    parts = [
        c2.Ellipse(xy(), rng.uniform(0.2, 1.5, (n_each, 2)), rng.uniform(-3, 3, n_each)),
        c2.Box(corner, corner + rng.uniform(0.2, 2.0, (n_each, 2))),
        c2.Polygon(triangles),
        c2.Segment(start, start + rng.uniform(-2, 2, (n_each, 2))),
        c2.Circle(xy(), rng.uniform(0.2, 1.0, n_each)),
        c2.Polygon(quads),
        c2.RotatedBox(xy(), rng.uniform(0.2, 1.0, (n_each, 2)), rng.uniform(-3, 3, n_each)),
        c2.Point(xy()),
    ]
    if lines:  # unbounded: copied to every tile they cross, and owned by one of them
        parts.append(c2.Line([(0.0, 7.3), (3.0, 3.0), (12.1, -5.0)], [(1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]))
    frame = c2.ShapeTable(parts).to_dataframe()
    order = rng.permutation(len(frame))  # kinds interleaved: runs of one row
    return frame.iloc[order].reset_index(drop=True)


def check_mixed(result, frame, periodic=None, degrees=False):
    """``result`` equals ``query_pairs`` and ``measure_pairs`` on the whole table of ``frame``."""
    table = c2.ShapeTable.from_dataframe(frame, degrees=degrees)
    (i, j), shifts = single_query_pairs(table, periodic=periodic, return_shifts=True)
    measures = c2.measure_pairs(table, np.stack([i, j]), shifts=None if periodic is None else shifts)
    got = result.compute()
    ids = frame["id"].to_numpy() if "id" in frame else np.arange(len(frame))
    row = {value: k for k, value in enumerate(ids)}
    order = np.lexsort((got["b"].map(row).to_numpy(), got["a"].map(row).to_numpy()))
    got = got.iloc[order].reset_index(drop=True)
    assert got["a"].tolist() == ids[i].tolist() and got["b"].tolist() == ids[j].tolist()
    np.testing.assert_array_equal(got["relation"].cat.codes.to_numpy(), measures.relation)
    for name, expected in (("separation", measures.separation), ("normal_x", measures.normal[:, 0]),
                           ("normal_y", measures.normal[:, 1]), ("overlap_area", measures.overlap_area), ("iou", measures.iou)):
        np.testing.assert_allclose(got[name].to_numpy(), expected, **SAME, err_msg=name)
    if periodic is not None:
        np.testing.assert_array_equal(got[["shift_x", "shift_y"]].to_numpy(), shifts)
    return len(got)


def mixed_frame(table, npartitions):
    import dask

    with dask.config.set({"dataframe.convert-string": False}):  # polygon vertices stay arrays
        return dd.from_pandas(table, npartitions=npartitions)


@pytest.mark.parametrize("tiles", [None, (4, 3)])
def test_query_pairs_mixed_kinds_equal_single_machine(client, tiles):
    table = random_mixed(31)
    table["id"] = [f"m{k}" for k in range(len(table))]
    kinds = set(c2.ShapeTable.from_dataframe(table).kind_names)
    assert kinds == {"ellipse", "polygon", "segment", "line", "point"}
    result = c2dask.query_pairs(mixed_frame(table, 3), tiles=tiles)
    assert check_mixed(result, table) > 100


def test_query_pairs_mixed_kinds_periodic_and_predicates():
    table = random_mixed(32, lines=False)
    check_mixed(c2dask.query_pairs(mixed_frame(table, 2), periodic=(30.0, 30.0), tiles=(3, 3)), table, periodic=(30.0, 30.0))
    boxes = table[table["kind"] == "box"].dropna(axis=1).drop(columns="kind").reset_index(drop=True)  # one kind, no kind column
    check_mixed(c2dask.query_pairs(boxes, tiles=(2, 2)), boxes.assign(kind="box"))
    touching = c2dask.query_pairs(mixed_frame(table, 2), predicate="touches", tiles=(2, 2)).compute()
    assert set(touching["relation"].astype(str)) <= {"TOUCHING"}
    in_degrees = table.assign(angle=np.degrees(table["angle"]))  # ellipses and rotated boxes turn; NaN elsewhere
    check_mixed(c2dask.query_pairs(mixed_frame(in_degrees, 2), degrees=True, tiles=(2, 3)), in_degrees, degrees=True)


def test_query_pairs_mixed_kinds_refusals():
    table = random_mixed(33, n_each=5)
    bad = table.copy()
    k = int(np.flatnonzero(bad["kind"] == "box")[2])
    bad.loc[k, "xmax"] = bad.loc[k, "xmin"] - 1.0
    with pytest.raises(ValueError, match=rf"shapes row {k + 1}: min must be .* \(rows counted from 1\)"):
        c2dask.query_pairs(mixed_frame(bad, 3))
    with pytest.raises(ValueError, match="unbounded shapes"):
        c2dask.query_pairs(mixed_frame(table, 2), periodic=(40.0, 40.0))


def test_cli_pairs_dask_mixed_jsonl_matches_single_machine(tmp_path):
    """``collide2d pairs shapes.jsonl --dask`` writes the rows of the single-machine command."""
    from collide2d.cli import main
    from collide2d.io import write_shapes

    table = c2.ShapeTable.from_dataframe(random_mixed(34, n_each=12))
    path = tmp_path / "mixed.jsonl"
    write_shapes(path, list(table), ids=[f"s{k}" for k in range(len(table))])
    outputs = []
    for extra in ([], ["--dask"]):
        out = tmp_path / f"pairs{len(extra)}.csv"
        assert main(["pairs", str(path), "-o", str(out), "-q", *extra]) == 0
        lines = out.read_text().splitlines()
        outputs.append((lines[0], sorted(lines[1:])))
    assert len(outputs[0][1]) > 20
    assert outputs[0] == outputs[1]


def test_query_pairs_mixed_kinds_parquet_and_csv(tmp_path):
    pytest.importorskip("pyarrow", reason="Parquet needs pyarrow (the dask extra)")
    table = random_mixed(35, n_each=10)
    stored = table.assign(vertices=[v.tolist() if isinstance(v, np.ndarray) else None for v in table["vertices"]])
    stored.to_parquet(tmp_path / "mixed.parquet", index=False)  # vertices as lists of pairs
    assert check_mixed(c2dask.query_pairs(tmp_path / "mixed.parquet", tiles=(2, 2)), table) > 10
    flat = table[table["kind"] != "polygon"].drop(columns="vertices").reset_index(drop=True)
    flat.to_csv(tmp_path / "mixed.csv", index=False)  # CSV holds no vertex arrays
    assert check_mixed(c2dask.query_pairs(tmp_path / "mixed.csv", tiles=(2, 2)), flat) > 10
