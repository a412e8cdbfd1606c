"""Tables, converters and the command line at their edges (issue 28, items 12, 13, 16 and 17).

Each test states its expected answer independently of the code under test: shapes built directly
from the numbers, the exact set of degree values that give a stored angle (``fractions.Fraction``),
and explicit error messages naming the argument, the column or the line.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import collide2d as c2
from collide2d import io as c2io
from collide2d.cli import main

pandas = pytest.importorskip("pandas")


def _circles(centers, radii):
    """The table the frame should give, built without pandas."""
    return c2.ShapeTable([c2.Circle(np.asarray(centers, dtype=np.float64), np.asarray(radii, dtype=np.float64))])


def _same_table(table, expected):
    np.testing.assert_array_equal(table.kinds, expected.kinds)
    np.testing.assert_array_equal(table.params, expected.params)
    assert [type(s) for s in table] == [type(s) for s in expected]


# -- item 12: ShapeTable.from_dataframe -----------------------------------------------------------


@pytest.mark.parametrize("rows", [1, 3])
def test_dataframe_column_named_twice_is_refused(rows):
    values = [[float(k), 0.0, 1.0, 5.0] for k in range(rows)]
    with pytest.raises(ValueError, match=r"df has the column 'r' twice"):  # was: 2 circles per row
        c2.ShapeTable.from_dataframe(pandas.DataFrame(values, columns=["x", "y", "r", "r"]))
    frame = pandas.DataFrame({"ra": np.arange(rows, dtype=float), "x": np.zeros(rows), "y": np.zeros(rows), "r": np.ones(rows)})
    with pytest.raises(ValueError, match=r"columns\['x'\] = 'ra', but df has a column 'x' too"):
        c2.ShapeTable.from_dataframe(frame, columns={"x": "ra"})
    with pytest.raises(ValueError, match=r"columns\['r'\] = 'size' is not a column of df"):
        c2.ShapeTable.from_dataframe(frame, columns={"r": "size"})
    # two catalogue names may read one column: an ellipse of equal radii is a circle's row
    frame = pandas.DataFrame({"x": np.arange(rows, dtype=float), "y": np.zeros(rows), "size": np.full(rows, 2.0)})
    table = c2.ShapeTable.from_dataframe(frame, columns={"rx": "size", "ry": "size"})
    expected = c2.ShapeTable([c2.Ellipse(np.stack([np.arange(rows), np.zeros(rows)], -1).astype(float), np.full((rows, 2), 2.0))])
    _same_table(table, expected)
    # a duplicated column of another name is not read, and does no harm
    frame = pandas.DataFrame([[0.0, 0.0, 1.0, "a", "b"]] * rows, columns=["x", "y", "r", "note", "note"])
    _same_table(c2.ShapeTable.from_dataframe(frame), _circles(np.zeros((rows, 2)), np.ones(rows)))


@pytest.mark.parametrize(
    ("columns", "words"),
    [
        (["x", "y", "rx", "angle"], ["ellipse (x,y,rx,ry,angle) lacks ry"]),  # was: points
        (["x", "y", "rx"], ["ellipse (x,y,rx,ry,angle) lacks ry"]),
        (["x", "y", "hx", "angle"], ["rotated_box (x,y,hx,hy,angle) lacks hy"]),
        (["x", "y", "dx"], ["line (x,y,dx,dy) lacks dy"]),
        (["x", "y", "r", "angle"], ["columns of circles and also angle"]),
        (["x", "y", "r", "ry"], ["columns of circles and also ry", "lacks rx"]),
        (["x0", "y0", "x1", "y1", "xmin"], ["columns of segments and also xmin", "box (xmin,ymin,xmax,ymax) lacks ymin,xmax,ymax"]),
    ],
)
def test_dataframe_with_part_of_another_kinds_columns_is_refused(columns, words):
    for rows in (1, 3):
        frame = pandas.DataFrame(np.ones((rows, len(columns))), columns=columns)
        with pytest.raises(ValueError) as error:
            c2.ShapeTable.from_dataframe(frame)
        for word in words:
            assert word in str(error.value)


def test_dataframe_with_a_kind_column_reads_only_each_kinds_columns():
    frame = pandas.DataFrame({"kind": ["circle", "point", "point"], "x": [0.0, 5.0, 6.0], "y": [0.0, 1.0, 2.0], "r": [1.0, np.nan, np.nan]})
    expected = c2.ShapeTable([c2.Circle((0.0, 0.0), 1.0), c2.Point([(5.0, 1.0), (6.0, 2.0)])])
    _same_table(c2.ShapeTable.from_dataframe(frame), expected)


NOT_NUMBERS = {
    "bool": lambda n: np.ones(n, dtype=bool),
    "nullable boolean": lambda n: pandas.array([True] * n, dtype="boolean"),
    "datetime": lambda n: pandas.to_datetime(["2020-01-01"] * n),  # was: a circle at 1.58e15
    "timedelta": lambda n: pandas.to_timedelta([1] * n, unit="s"),
    "numeric strings": lambda n: np.array(["1"] * n, dtype=object),
    "string dtype": lambda n: pandas.array(["1"] * n, dtype="string"),
    "categorical": lambda n: pandas.Categorical([1.0] * n),
    "object of floats": lambda n: np.array([1.0] * n, dtype=object),
    "complex": lambda n: np.ones(n, dtype=complex),
}


@pytest.mark.parametrize("what", sorted(NOT_NUMBERS))
@pytest.mark.parametrize("column", ["x", "r"])
def test_dataframe_columns_that_are_not_numbers_are_refused(what, column):
    for rows in (1, 3):
        data = {"x": np.zeros(rows), "y": np.zeros(rows), "r": np.ones(rows)}
        data[column] = NOT_NUMBERS[what](rows)
        with pytest.raises(ValueError, match=rf"df: column {column} must hold numbers"):
            c2.ShapeTable.from_dataframe(pandas.DataFrame(data))
    frame = pandas.DataFrame({"kind": ["circle"], "x": [0.0], "y": [0.0], "r": [1.0]})  # the kind-column path too
    frame[column] = NOT_NUMBERS[what](1)
    with pytest.raises(ValueError, match=rf"df: column {column} must hold numbers"):
        c2.ShapeTable.from_dataframe(frame)


@pytest.mark.parametrize("dtype", ["int64", "uint8", "float32", "Int64", "Float64"])
def test_dataframe_integer_and_float_columns_are_read(dtype):
    x = [0, 3, 7]
    frame = pandas.DataFrame({"x": pandas.array(x, dtype=dtype), "y": [1.0, 2.0, 3.0], "r": [1.0, 2.0, 0.5]})
    _same_table(c2.ShapeTable.from_dataframe(frame), _circles([(0, 1), (3, 2), (7, 3)], [1.0, 2.0, 0.5]))
    if dtype in ("Int64", "Float64"):  # a missing value is NaN, refused as such
        frame["x"] = pandas.array([0, None, 7], dtype=dtype)
        with pytest.raises(ValueError, match="must be finite, got NaN"):
            c2.ShapeTable.from_dataframe(frame)


# -- item 13: shapely z, converter argument types, OpenCV degrees -------------------------------------


def test_from_shapely_refuses_a_z_other_than_zero():
    shapely = pytest.importorskip("shapely")
    nonplanar = [
        shapely.Point(1, 2, 3),
        shapely.Point(1, 2, math.nan),
        shapely.LineString([(0, 0, 0), (1, 1, 1)]),
        shapely.LineString([(0, 0, 1e-300), (1, 1, 0)]),
        shapely.Polygon([(0, 0, 0), (1, 0, 0), (0, 1, 1)]),
        shapely.Polygon([(0, 0, 2), (1, 0, 2), (0, 1, 2)]),  # planar, but not z = 0
    ]
    for geometry in nonplanar:
        with pytest.raises(ValueError, match=r"geometry: the \w+ has the z coordinate .* z = 0 only"):
            c2.from_shapely(geometry)
    planar = [
        (shapely.Point(1, 2, 0), c2.Point((1.0, 2.0))),
        (shapely.LineString([(0, 0, 0), (1, 1, -0.0)]), c2.Segment((0.0, 0.0), (1.0, 1.0))),
        (shapely.Polygon([(0, 0, 0), (4, 0, 0), (0, 3, 0)]), c2.Polygon([(0.0, 0.0), (4.0, 0.0), (0.0, 3.0)])),
        (shapely.box(0, 0, 2, 1), c2.Box((0.0, 0.0), (2.0, 1.0))),
    ]
    for geometry, expected in planar:
        shape = c2.from_shapely(geometry)
        assert type(shape) is type(expected) and repr(shape) == repr(expected)


BAD_NUMBERS = ["1", True, np.True_, None, b"1"]


def test_opencv_refuses_strings_and_bools():
    good = ((1.0, 2.0), (3.0, 4.0), 5.0)
    parts = ("cx", "cy", "width", "height", "angle")
    for bad in BAD_NUMBERS:
        for k, part in enumerate(parts):
            flat = [1.0, 2.0, 3.0, 4.0, 5.0]
            flat[k] = bad
            rect = ((flat[0], flat[1]), (flat[2], flat[3]), flat[4])
            for cls in (c2.Ellipse, c2.RotatedBox):
                with pytest.raises(TypeError, match=rf"rotated_rect: {part} must be a real number"):
                    cls.from_opencv(rect)
                with pytest.raises(TypeError, match=rf"rotated_rect\[1\]: {part} must be a real number"):
                    cls.from_opencv([good, rect])  # a batch names the rectangle
    with pytest.raises(TypeError, match="rotated_rect: cx"):
        c2.Ellipse.from_opencv((("1", "2"), ("3", "4"), "5"))  # the example
    # real numbers of any type are read: NumPy scalars, 0-d arrays, fractions
    expected = c2.Ellipse((1.0, 2.0), (1.5, 2.0), math.radians(5.0))
    for rect in [((np.float32(1), np.int64(2)), (np.uint8(3), Fraction(4)), np.array(5.0))]:
        assert repr(c2.Ellipse.from_opencv(rect)) == repr(expected)


def test_skimage_and_pygame_refuse_strings_and_bools():
    names = ("xc", "yc", "a", "b", "theta")
    for bad in BAD_NUMBERS:
        for k, name in enumerate(names):
            params = [1.0, 2.0, 3.0, 4.0, 0.5]
            params[k] = bad
            with pytest.raises(TypeError, match=rf"model: {name} must be a real number"):
                c2.Ellipse.from_skimage(params)
        for k, name in enumerate(("x", "y", "w", "h")):
            rect = [10, 20, 30, 40]
            rect[k] = bad
            with pytest.raises(TypeError, match=rf"rect: {name} must be a real number"):
                c2.Box.from_pygame(tuple(rect))
        if bad is not None:  # height=None: no flip
            with pytest.raises(TypeError, match="height must be a real number"):
                c2.Box.from_pygame((10, 20, 30, 40), height=bad)
    assert repr(c2.Ellipse.from_skimage(np.array([1.0, 2.0, 3.0, 4.0, 0.5]))) == repr(c2.Ellipse((1.0, 2.0), (3.0, 4.0), 0.5))
    for screen in (-5, 0, -0.0, math.inf, math.nan):  # was: a negative height accepted
        with pytest.raises(ValueError, match="height .* must be positive and finite"):
            c2.Box.from_pygame((10, 20, 30, 40), height=screen)
    with pytest.raises(ValueError, match="positive width and height"):
        c2.Box.from_pygame((10, 20, 30, -40))
    assert c2.Box.from_pygame((10, 20, 30, 40), height=np.int32(100)).bounds == (10.0, 40.0, 40.0, 80.0)


# The radians of d degrees as Python and NumPy compute them: d * fl(pi/180), rounded to nearest.
# Here from exact rationals: fl(pi/180) from the float pi, and the product rounded by float(Fraction),
# which rounds correctly (ties to even).
RADIANS_PER_DEGREE = Fraction(float(Fraction(math.pi) / 180))


def _radians_exact(d):
    return float(Fraction(d) * RADIANS_PER_DEGREE) if d != 0 else d


def _preimage(theta, near, width=16):
    """Every float within ``width`` ulps of ``near`` whose exact radians round to ``theta`` (its
    sign kept for zero); the run must lie inside the window, so that none is missed."""
    floats = [near]
    for toward in (-math.inf, math.inf):
        d = near
        for _ in range(width):
            d = math.nextafter(d, toward)
            floats.append(d)
    floats.sort()
    hits = [d for d in floats if _radians_exact(d) == theta and math.copysign(1, _radians_exact(d)) == math.copysign(1, theta)]
    assert hits and floats[0] < hits[0] and hits[-1] < floats[-1]
    return hits


def _round_trip(cls, degrees):
    """``to_opencv`` after ``from_opencv``: one rectangle at a time and as one batch."""
    rects = [((1.0, 2.0), (6.0, 4.0), d) for d in degrees]
    single = [cls.from_opencv(rect).to_opencv()[2] for rect in rects]
    batch = [rect[2] for rect in cls.from_opencv(rects).to_opencv()]
    assert [math.copysign(1, d) for d in single] == [math.copysign(1, d) for d in batch]
    return single, batch


@pytest.mark.parametrize("cls", [c2.Ellipse, c2.RotatedBox])
def test_opencv_whole_and_decimal_degrees_round_trip_exactly(cls):
    assert math.radians(1.0) == float(RADIANS_PER_DEGREE) and np.radians(1.0) == float(RADIANS_PER_DEGREE)
    whole = [float(d) for d in range(-1080, 1081)] + [-0.0, 1e6, -123456789.0]
    rng = np.random.default_rng(2801)
    decimal = [round(float(v), int(k)) for v, k in zip(rng.uniform(-720, 720, 400), rng.integers(1, 7, 400))]
    decimal += [0.1, 0.5, 1e-3, 22.5, -67.5, 359.999, 1e-200]
    for degrees in (whole, decimal):
        # the exact reference: each of these has the shortest repr of the floats converting to its radians
        for d in degrees[::13]:
            hits = _preimage(_radians_exact(d), d)
            assert d in hits and all(len(repr(d)) < len(repr(h)) for h in hits if h != d)
        single, batch = _round_trip(cls, degrees)
        assert single == degrees and batch == degrees  # was 29.999999999999996 for 30
        assert [math.copysign(1, d) for d in single] == [math.copysign(1, d) for d in degrees]


def test_opencv_random_float_degrees_round_trip_where_one_float_gives_the_angle():
    rng = np.random.default_rng(2802)
    degrees = (rng.uniform(-1, 1, 600) * 10.0 ** rng.uniform(-6, 8, 600)).tolist()
    single, batch = _round_trip(c2.Ellipse, degrees)
    unique = 0
    for d, back, again in zip(degrees, single, batch):
        theta = _radians_exact(d)
        hits = _preimage(theta, d)
        assert back == again and back in hits  # always a degree value that gives the same angle
        if len(hits) == 1:
            unique += 1
            assert back == d
        else:  # two floats give this angle: the shorter decimal, else the nearer to math.degrees
            assert len(repr(back)) <= len(repr(d))
    assert unique > 400  # about 86% of random floats are the only ones to give their angle
    # angles that came from radians (not degrees) still give the degrees nearest to math.degrees
    for theta in rng.uniform(-7, 7, 50).tolist():
        back = c2.Ellipse((0.0, 0.0), (2.0, 1.0), theta).to_opencv()[2]
        assert abs(Fraction(back) - Fraction(theta) * 180 / Fraction(math.pi)) <= 4 * math.ulp(back)


# -- item 16: the demo's arguments --------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--screenshot", "{tmp}/nodir/x.png"], "nodir does not exist"),
        (["--screenshot", "{tmp}"], "is a directory"),
        (["--fps", "-1"], "--fps must be a finite number >= 0 (0 for no cap), got -1.0"),
        (["--fps", "nan"], "--fps must be a finite number >= 0"),
        (["--fps", "inf"], "--fps must be a finite number >= 0"),
    ],
)
def test_demo_refuses_bad_fps_and_screenshot_before_running(extra, message, tmp_path, capsys):
    argv = ["demo", "--headless", "--frames", "5", *(a.format(tmp=tmp_path) for a in extra)]
    assert main(argv) == 2  # was: a pygame.error traceback and exit code 1; --fps -1 ran
    err = capsys.readouterr().err
    assert err.startswith("collide2d demo: ") and message in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []


# -- item 17: catalogue rows out of range ---------------------------------------------------------

RANGE_ROWS = [  # (line of the CSV file, the row, its message); line 1 is the header
    (2, "0,0,1", None),
    (3, "1e300,0,1", "line 3, column x: 1e+300 is outside the supported range of coordinates"),
    (4, "0,0,1e-300", "line 4, column r: 1e-300 is outside the supported range of sizes"),
    (5, "nan,0,1", "line 5, column x: nan is not finite"),
    (6, "0,-1e200,1", "line 6, column y: -1e+200 is outside the supported range of coordinates"),
    (7, "0,0,1e151", "line 7, column r: 1e+151 is outside the supported range of sizes"),
    (8, f"{2.0**500!r},0,{2.0**-500!r}", None),  # the limits themselves are in range
    (9, f"{-(2.0**500)!r},0,{2.0**500!r}", None),
    (10, "2,0,1", None),
]


def _range_file(tmp_path):
    path = tmp_path / "in.csv"
    path.write_text("x,y,r\n" + "\n".join(row for _, row, _ in RANGE_ROWS) + "\n")
    return path


def test_read_shapes_skips_and_names_rows_out_of_range(tmp_path):
    path = _range_file(tmp_path)
    reported = []
    ids, shapes = c2io.read_shapes(path, on_invalid=lambda error: reported.append(str(error)))
    expected = [message for _, _, message in RANGE_ROWS if message]
    assert len(reported) == len(expected)
    assert all(text.startswith(f"{path} {message}") for text, message in zip(reported, expected))
    kept = [k for k, (_, _, message) in enumerate(RANGE_ROWS) if message is None]
    assert ids.tolist() == kept
    rows = [[float(v) for v in RANGE_ROWS[k][1].split(",")] for k in kept]
    assert repr(shapes) == repr(c2.Circle(np.array(rows)[:, :2], np.array(rows)[:, 2]))
    with pytest.raises(c2io.InputError, match=r"in\.csv line 3, column x: 1e\+300 is outside"):
        c2io.read_shapes(path)  # without on_invalid the first bad line, before line 5's NaN
    ellipses = tmp_path / "thin.csv"
    ellipses.write_text("x,y,rx,ry\n0,0,1,1\n0,0,1e-20,1e20\n0,0,1,1e30\n0,0,1e300,1e300\n")
    reported.clear()
    ids, shapes = c2io.read_shapes(ellipses, on_invalid=lambda error: reported.append(str(error)))
    assert ids.tolist() == [0, 2] and shapes.shape == (2,)
    assert reported == [
        f"{ellipses} line 3: radii 1e-20, 1e+20 differ by more than a factor 2**100 (about 1.27e30), "
        "the supported range of an ellipse's aspect ratio",
        f"{ellipses} line 5, column rx: 1e+300 is outside the supported range of sizes, "
        "[2**-500, 2**500] (about 3.05e-151 to 3.27e150)",
    ]


def test_read_shapes_parquet_rows_out_of_range(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "in.parquet"
    pq.write_table(pa.table({"x": [0.0, 1e300, 2.0], "y": [0.0, 0.0, 0.0], "r": [1.0, 1.0, 1e-300]}), path)
    reported = []
    ids, shapes = c2io.read_shapes(path, on_invalid=lambda error: reported.append(str(error)))
    assert ids.tolist() == [0] and shapes.shape == (1,)
    assert [text.split(" ", 1)[1].split(":")[0] for text in reported] == ["row 2, column x", "row 3, column r"]


def test_cli_pairs_skips_rows_out_of_range_with_their_line(tmp_path, capsys):
    path = tmp_path / "in.csv"
    path.write_text("x,y,r\n0,0,1\n1e300,0,1\n0,0,1e-300\nnan,0,1\n1.5,0,1\n")
    assert main(["pairs", str(path), "--skip-invalid", "-q"]) == 0  # was: exit code 2, no line
    out, err = capsys.readouterr()
    assert out.splitlines()[1].split(",")[:3] == ["0", "4", "OVERLAPPING"]
    skipped = [line for line in err.splitlines() if line.startswith("collide2d: skipped ")]
    assert [line.split(" line ")[1].split(":")[0] for line in skipped] == ["3, column x", "4, column r", "5, column x"]
    assert main(["pairs", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"collide2d: error: {path} line 3, column x: 1e+300 is outside")


def test_opencv_degrees_of_an_angle_too_large_for_degrees():
    mpmath = pytest.importorskip("mpmath")
    for theta in (1e307, 1e308, -1.7e308):
        back = c2.Ellipse((0.0, 0.0), (2.0, 1.0), theta).to_opencv()[2]  # was inf, with a RuntimeWarning
        with mpmath.workprec(1200):  # theta modulo 2 pi, exactly enough: pi to 1200 bits
            wrapped = mpmath.mpf(theta) - 2 * mpmath.pi * mpmath.floor(mpmath.mpf(theta) / (2 * mpmath.pi) + mpmath.mpf(0.5))
            expected = float(wrapped * 180 / mpmath.pi)
        assert -180.0 < back <= 180.0 and abs(back - expected) <= 1e-12, (theta, back, expected)
