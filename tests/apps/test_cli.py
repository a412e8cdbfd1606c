"""The command line: subprocess runs for exit codes and messages, in-process runs for the outputs.

Most runs call ``main(argv)`` in this process so that compiled kernels are shared; the subprocess
runs use the installed ``collide2d`` console script to check what a user sees (exit codes,
messages, no traceback, files left behind).

One file over 800 lines by choice: every subcommand's runs share the sample files and the
in-process runner built at the top, and splitting them would build those twice.

Why this file is over 800 lines: it is the user's view of every command (``pairs``, ``check``,
``sample``, ``warmup``, the signals and the outputs) and shares one set of fixtures and one
compiled-kernel process among them; the files' formats themselves are tested in ``test_io.py``
and ``test_csv_kinds.py``.
"""

from __future__ import annotations

import csv
import functools
import io as _io
import json
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

from collide2d import cli, scenes
from collide2d.cli import main

HEADER = ["a", "b", "relation", "separation", "normal_x", "normal_y", "overlap_area", "iou"]
MIXED_PAIRS = [  # relations of the built-in mixed scene, stated in scenes.mixed
    ("ellipse-A", "ellipse-B", "TOUCHING"),
    ("ellipse-A", "circle-C", "TOUCHING"),
    ("ellipse-A", "ellipse-D", "OVERLAPPING"),
    ("ellipse-B", "box-E", "TOUCHING"),
    ("ellipse-B", "line-I", "TOUCHING"),
    ("circle-C", "segment-H", "TOUCHING"),
    ("box-E", "point-J", "CONTAINS"),
    ("box-E", "circle-K", "CONTAINS"),
    ("polygon-G", "segment-H", "OVERLAPPING"),
    ("point-J", "circle-K", "WITHIN"),
]


def _console_script():
    """The installed ``collide2d`` script: next to this Python first, else on the PATH."""
    folder = pathlib.Path(sys.executable).parent
    for name in ("collide2d", "collide2d.exe"):
        if (folder / name).is_file():
            return str(folder / name)
    found = shutil.which("collide2d")
    assert found, "the collide2d console script is not installed (pip install -e .)"
    return found


SCRIPT = _console_script()


def run(*args, timeout=300):
    """Run the ``collide2d`` console script with ARGS headless; return the completed process."""
    env = dict(os.environ, MPLBACKEND="Agg")
    return subprocess.run([SCRIPT, *map(str, args)], capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture
def circles_csv(tmp_path):
    """Three circles: 0 and 1 overlap, 1 and 2 touch at (2.5, 0)."""
    path = tmp_path / "circles.csv"
    path.write_text("id,x,y,r\nc0,0,0,1\nc1,1.5,0,1\nc2,4,0,1.5\n")
    return path


def _rows(text):
    return list(csv.reader(_io.StringIO(text)))


# -- subprocess runs --------------------------------------------------------------------------------


def test_subprocess_pairs_csv_and_summary(circles_csv):
    result = run("pairs", circles_csv)
    assert result.returncode == 0, result.stderr
    rows = _rows(result.stdout)
    assert rows[0] == HEADER
    assert [row[:3] for row in rows[1:]] == [["c0", "c1", "OVERLAPPING"], ["c1", "c2", "TOUCHING"]]
    assert float(rows[1][3]) == pytest.approx(-0.5)
    assert float(rows[2][3]) == 0.0
    # the summary goes to standard error only: standard output is exactly the table
    assert "3 shapes, 2 pairs (intersects): TOUCHING 1, OVERLAPPING 1\n" in result.stderr
    assert "query_pairs" in result.stderr and "collide2d:" not in result.stdout
    assert len(rows) == 3


def test_subprocess_bad_row_exit_2_with_line_number(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("x,y,rx,ry\n0,0,2,1\n1,1,two,1\n")
    result = run("pairs", path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("collide2d: error: ")
    assert "bad.csv line 3, column rx: 'two' is not a number" in result.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["pairs", "--sample", "mixed", "--predicate", "crosses"], ["invalid choice: 'crosses'", "intersects"]),
        (["pairs", "--sample", "mixed", "--bogus"], ["unrecognized arguments: --bogus"]),
        (["pairs", "--sample", "nowhere"], ["invalid choice: 'nowhere'"]),
        (["pairs", "missing.csv"], ["collide2d: error: missing.csv: no such file"]),
        (["pairs"], ["collide2d: error: give either an INPUT file or --sample NAME"]),
        (["pairs", "--sample", "mixed", "--periodic", "10", "-1"], ["box length must be finite and positive"]),
        (["check", "circle 0 0 1", "blob 1 2"], ["collide2d: error: 'blob' is not a shape kind"]),
        (["check", "circle 0 0 1", "circle 0 0 0"], ["collide2d: error: shape 'circle 0 0 0'", "positive"]),
        (["frobnicate"], ["invalid choice: 'frobnicate'"]),
    ],
)
def test_subprocess_usage_errors_exit_2(args, words):
    result = run(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    for word in words:
        assert word in result.stderr


# -- in-process runs --------------------------------------------------------------------------------


def test_pairs_sample_mixed_relations(capsys):
    assert main(["pairs", "--sample", "mixed"]) == 0
    out, err = capsys.readouterr()
    rows = _rows(out)
    assert rows[0] == HEADER
    assert [tuple(row[:3]) for row in rows[1:]] == MIXED_PAIRS
    by_name = {tuple(row[:2]): row for row in rows[1:]}
    assert by_name["ellipse-B", "line-I"][7] == ""  # a line has no area: no IoU
    assert float(by_name["box-E", "circle-K"][6]) == pytest.approx(np.pi / 4)
    assert "11 shapes, 10 pairs (intersects): TOUCHING 5, OVERLAPPING 2, CONTAINS 2, WITHIN 1" in err


def test_pairs_jsonl_and_predicate(capsys, circles_csv, tmp_path):
    assert main(["pairs", str(circles_csv), "--format", "jsonl", "--predicate", "touches"]) == 0
    out, _ = capsys.readouterr()
    records = [json.loads(line) for line in out.splitlines()]
    assert records == [
        {"a": "c1", "b": "c2", "relation": "TOUCHING", "separation": 0.0, "normal_x": 1.0, "normal_y": 0.0,
         "overlap_area": 0.0, "iou": 0.0}
    ]
    output = tmp_path / "pairs.jsonl"  # the format follows the suffix of -o
    assert main(["pairs", str(circles_csv), "-o", str(output), "-q"]) == 0
    assert [json.loads(line)["b"] for line in output.read_text().splitlines()] == ["c1", "c2"]
    assert capsys.readouterr().err == ""


def test_pairs_periodic_minimum_image(capsys, tmp_path):
    path = tmp_path / "edge.csv"
    path.write_text("x,y,r\n0.5,5,1\n9.5,5,1\n5,5,1\n")  # 0 and 1 overlap across x = 0 = 10
    assert main(["pairs", str(path)]) == 0
    assert len(_rows(capsys.readouterr().out)) == 1  # header only: no pair without the box
    assert main(["pairs", str(path), "--periodic", "10", "10"]) == 0
    out, err = capsys.readouterr()
    rows = _rows(out)
    assert rows[0] == HEADER + ["shift_x", "shift_y"]
    assert rows[1][:3] == ["0", "1", "OVERLAPPING"]
    assert float(rows[1][3]) == pytest.approx(-1.0)
    assert [float(rows[1][4]), float(rows[1][5])] == [-1.0, 0.0]  # b's image lies at x = -0.5
    assert [float(rows[1][8]), float(rows[1][9])] == [-10.0, 0.0]
    assert "periodic box 10 x 10" in err


def test_pairs_plot_writes_png(capsys, circles_csv, tmp_path):
    picture = tmp_path / "pairs.png"
    assert main(["pairs", str(circles_csv), "--plot", str(picture)]) == 0
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert picture.stat().st_size > 5000
    assert f"picture written to {picture}" in capsys.readouterr().err


def test_sample_round_trip_gives_the_same_pairs(capsys, tmp_path):
    path = tmp_path / "suspension.csv"
    assert main(["sample", "suspension", "--size", "40", "-o", str(path)]) == 0
    err = capsys.readouterr().err
    assert "wrote 40 shapes" in err and "periodic box" in err
    box = [repr(x) for x in scenes.load("suspension", size=40).periodic]
    assert main(["pairs", "--sample", "suspension", "--size", "40"]) == 0
    direct = capsys.readouterr().out
    assert main(["pairs", str(path), "--periodic", *box]) == 0
    from_file = capsys.readouterr().out
    assert from_file == direct
    assert len(_rows(direct)) > 5


@pytest.mark.parametrize("suffix", [".csv", ".jsonl", ".parquet"])
def test_sample_mixed_round_trip(capsys, tmp_path, suffix):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    path = tmp_path / f"mixed{suffix}"
    assert main(["sample", "mixed", "-o", str(path)]) == 0  # a CSV or Parquet file with a kind column
    assert main(["pairs", str(path)]) == 0
    from_file = capsys.readouterr().out
    assert main(["pairs", "--sample", "mixed"]) == 0
    assert capsys.readouterr().out == from_file


def test_check_text_and_json(capsys):
    assert main(["check", "ellipse 0 0 2 1", "ellipse 3 0 1 3"]) == 0
    lines = dict(line.split(None, 1) for line in capsys.readouterr().out.splitlines())
    assert lines["relation"] == "TOUCHING"
    assert lines["normal"] == "1.0 0.0"
    assert lines["intersection"] == "2.0 0.0"
    assert main(["check", "box 0 0 2 2", "circle 2 1 1", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["relation"] == "OVERLAPPING"
    assert result["separation"] == pytest.approx(-1.0)
    assert sorted(map(tuple, np.round(result["intersection"], 12).tolist())) == [(2.0, 0.0), (2.0, 2.0)]
    assert result["overlap_area"] == pytest.approx(np.pi / 2)
    assert result["iou"] == pytest.approx((np.pi / 2) / (4 + np.pi / 2))


def test_check_degrees_and_plot(capsys, tmp_path):
    picture = tmp_path / "check.png"
    assert main(["check", "ellipse 0 0 2 1 90deg", "segment -3 0 3 0", "--plot", str(picture)]) == 0
    lines = dict(line.split(None, 1) for line in capsys.readouterr().out.splitlines())
    assert lines["relation"] == "OVERLAPPING"
    assert lines["iou"] == "-"  # a segment has no area
    points = sorted(tuple(map(float, p.split())) for p in lines["intersection"].split(", "))
    np.testing.assert_allclose(points, [(-1.0, 0.0), (1.0, 0.0)], atol=1e-12)
    assert picture.read_bytes()[:4] == b"\x89PNG"


def test_progress_bar_only_on_a_terminal():
    class Terminal(_io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    bar = cli._Progress(1000, "measuring", stream=stream, min_total=10)
    bar.update(500)
    bar.close()
    assert "50.0%" in stream.getvalue()
    quiet = _io.StringIO()
    bar = cli._Progress(1000, "measuring", stream=quiet, min_total=10)
    bar.update(500)
    assert quiet.getvalue() == ""


def test_pairs_in_chunks_equal_one_chunk(capsys, monkeypatch):
    assert main(["pairs", "--sample", "suspension", "--size", "40", "-q"]) == 0
    whole = capsys.readouterr().out
    monkeypatch.setattr(cli, "CHUNK_PAIRS", 3)
    assert main(["pairs", "--sample", "suspension", "--size", "40", "-q"]) == 0
    assert capsys.readouterr().out == whole


# -- every command and format through the console script --------------------------------------------


def test_console_script_every_command_and_format(tmp_path):
    """sample writes each format, pairs reads each one back to the same pairs, check and demo --help run."""
    assert run("demo", "--help").returncode == 0
    expected = {}
    try:  # pyarrow is not in the test extra
        import pyarrow  # noqa: F401

        has_pyarrow = True
    except ImportError:
        has_pyarrow = False
    for name, size, suffixes in (("suspension", "40", (".csv", ".parquet")), ("mixed", "11", (".json", ".jsonl"))):
        direct = run("pairs", "--sample", name, "--size", size, "-q") if name == "suspension" else run("pairs", "--sample", name, "-q")
        assert direct.returncode == 0, direct.stderr
        expected[name] = direct.stdout
        for suffix in suffixes:
            path = tmp_path / f"{name}{suffix}"
            made = run("sample", name, *(["--size", size] if name == "suspension" else []), "-o", path)
            if suffix == ".parquet" and not has_pyarrow:  # only this format is out of reach: a clean error
                assert made.returncode == 2 and "writing Parquet needs pyarrow" in made.stderr, made.stderr
                assert not path.exists()
                continue
            assert made.returncode == 0, made.stderr
            assert "wrote" in made.stderr and path.stat().st_size > 0
            box = [repr(x) for x in scenes.load(name, size=40).periodic] if name == "suspension" else []
            args = ["--periodic", *box] if box else []
            result = run("pairs", path, *args, "-o", tmp_path / f"{name}{suffix}.out.csv")
            assert result.returncode == 0, result.stderr
            got, want = _rows((tmp_path / f"{name}{suffix}.out.csv").read_text()), _rows(expected[name])
            # the file stores the sample's numbers exactly, and a batch computes what single shapes do
            assert got == want
            assert "Traceback" not in result.stderr
    jsonl = run("pairs", tmp_path / "mixed.jsonl", "--format", "jsonl", "-q")
    assert [json.loads(line)["relation"] for line in jsonl.stdout.splitlines()] == [r for _, _, r in MIXED_PAIRS]
    text = run("check", "ellipse 0 0 2 1", "ellipse 3 0 1 3")
    assert text.returncode == 0 and "relation      TOUCHING" in text.stdout
    as_json = run("check", "box 0 0 2 2", "circle 2 1 1", "--format", "json")
    assert as_json.returncode == 0 and json.loads(as_json.stdout)["relation"] == "OVERLAPPING"
    assert not list(tmp_path.glob(".*"))  # no temporary files left


BAD_INPUTS = [  # (file name, content, words of the message); each message names the file and line
    ("text.csv", "x,y,r\n0,0,1\n1,one,1\n", ["line 3, column y: 'one' is not a number"]),
    ("empty.csv", "x,y,r\n0,0,1\n1,,1\n", ["line 3, column y is empty"]),
    ("short.csv", "x,y,rx,ry\n0,0,2,1\n1,1\n", ["line 3: expected 4 fields, got 2"]),
    ("nan.csv", "x,y,r\n0,0,1\n1,nan,1\n", ["line 3, column y: nan is not finite"]),
    ("inf.csv", "x,y,rx,ry\n0,0,2,1\n\n1,1,inf,1\n", ["line 4, column rx: inf is not finite"]),
    ("radius.csv", "x,y,r\n0,0,1\n1,1,0\n", ["line 3: radii must be positive, got 0.0"]),
    ("kind.jsonl", '{"kind": "circle", "center": [0, 0], "radius": 1}\n{"kind": "blob"}\n', ["line 2: 'kind' must be one of", "'blob'"]),
    ("missing.jsonl", '{"kind": "circle", "center": [0, 0]}\n', ["line 1: a circle needs the field(s) radius"]),
    ("nan.jsonl", '{"kind": "circle", "center": [0, 0], "radius": 1}\n{"kind": "circle", "center": [0, NaN], "radius": 1}\n',
     ["line 2: center must be finite"]),
    ("text.jsonl", '{"kind": "ellipse", "center": [0, 0], "radii": [1, "x"]}\n', ["line 1: radii must contain real numbers"]),
    ("radius.jsonl", '{"kind": "circle", "center": [0, 0], "radius": -1}\n', ["line 1: radius must be positive"]),
    ("convex.jsonl", '{"kind": "polygon", "vertices": [[0, 0], [2, 0], [1, 0.5], [2, 2], [0, 2]]}\n', ["line 1: vertices must be convex"]),
    ("broken.jsonl", '{"kind": "point", "xy": [0, 0]}\n{oops\n', ["line 2: invalid JSON"]),
    ("item.json", '[{"kind": "point", "xy": [0, 0]},\n {"kind": "box", "min": [1, 1], "max": [0, 0]}]', ["item 1 (counted from 0): min must be smaller"]),
]


@pytest.mark.parametrize(("name", "text", "words"), BAD_INPUTS, ids=[case[0] for case in BAD_INPUTS])
def test_console_script_bad_input_exit_2_with_line(tmp_path, name, text, words):
    path = tmp_path / name
    path.write_text(text)
    result = run("pairs", path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"collide2d: error: {path}")
    for word in words:
        assert word in result.stderr


def test_console_script_skip_invalid_every_format(tmp_path):
    """Each bad row is reported on one line and skipped; the rest gives the pairs of the good rows only."""
    csv_rows = [line for name, text, _ in BAD_INPUTS if name.endswith(".csv") and name != "short.csv" for line in text.splitlines()[2:]]
    bad = tmp_path / "bad.csv"
    bad.write_text("x,y,r\n0,0,1\n" + "\n".join(csv_rows) + "\n1.5,0,1\n")
    result = run("pairs", bad, "--skip-invalid")
    assert result.returncode == 0, result.stderr
    assert [row[:3] for row in _rows(result.stdout)[1:]] == [["0", "6", "OVERLAPPING"]]  # rows counted from 0
    skipped = [line for line in result.stderr.splitlines() if line.startswith("collide2d: skipped ")]
    assert [line.split(" line ")[1].split(",")[0].split(":")[0] for line in skipped] == ["3", "4", "5", "7", "8"]  # line 6 is blank
    assert all(str(bad) in line for line in skipped)
    assert "2 shapes (5 bad rows skipped), 1 pairs" in result.stderr
    assert "Traceback" not in result.stderr

    lines = [text.splitlines()[-1] for name, text, _ in BAD_INPUTS if name.endswith(".jsonl")]
    good = '{"kind": "circle", "center": [0.5, 0], "radius": 1, "id": "g"}'
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join([good, *lines, good.replace('"g"', '"h"')]) + "\n")
    result = run("pairs", path, "--skip-invalid", "--format", "jsonl")
    assert result.returncode == 0, result.stderr
    assert [(r["a"], r["b"], r["relation"]) for r in map(json.loads, result.stdout.splitlines())] == [("g", "h", "EQUAL")]
    skipped = [line for line in result.stderr.splitlines() if line.startswith("collide2d: skipped ")]
    assert [line.split(" line ")[1].split(":")[0] for line in skipped] == [str(k) for k in range(2, 2 + len(lines))]
    assert f"2 shapes ({len(lines)} bad rows skipped)" in result.stderr

    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"x": [0.0, 1.0, 0.5, 9.0], "y": [0.0, float("nan"), 0.0, 0.0], "r": [1.0, 1.0, -1.0, 1.0]}), tmp_path / "bad.parquet")
    result = run("pairs", tmp_path / "bad.parquet", "--skip-invalid")
    assert result.returncode == 0, result.stderr
    assert "bad.parquet row 2, column y: nan is not finite" in result.stderr
    assert "bad.parquet row 3: radii must be positive" in result.stderr
    assert "2 shapes (2 bad rows skipped), 0 pairs" in result.stderr


def test_skip_invalid_all_rows_bad_and_no_bad_row(capsys, tmp_path, circles_csv):
    path = tmp_path / "all.csv"
    path.write_text("x,y,r\n0,0,-1\n1,1,x\n")
    assert main(["pairs", str(path), "--skip-invalid"]) == 0
    out, err = capsys.readouterr()
    assert _rows(out) == [HEADER]
    assert "0 shapes (2 bad rows skipped), 0 pairs" in err
    assert main(["pairs", str(circles_csv), "--skip-invalid"]) == 0
    out, err = capsys.readouterr()
    assert len(_rows(out)) == 3 and "3 shapes (0 bad rows skipped)" in err
    assert main(["pairs", "--sample", "mixed", "--skip-invalid"]) == 2
    assert "--skip-invalid applies to an INPUT file only" in capsys.readouterr().err


# -- nothing written unless the run succeeds -------------------------------------------------------


def _leftovers(folder):
    return sorted(p.name for p in pathlib.Path(folder).iterdir() if ".tmp" in p.name)


def test_console_script_failing_run_keeps_existing_output(tmp_path, circles_csv):
    output, picture = tmp_path / "pairs.csv", tmp_path / "pairs.png"
    output.write_text("old pairs\n")
    picture.write_bytes(b"old picture")
    bad = tmp_path / "bad.csv"
    bad.write_text("x,y,r\n0,0,1\n0,0,0\n")
    for args in ([bad, "-o", output, "--plot", picture], [circles_csv, "-o", output, "--plot", tmp_path / "pairs.xyz"]):
        result = run("pairs", *args)
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert output.read_text() == "old pairs\n" and picture.read_bytes() == b"old picture"
        assert _leftovers(tmp_path) == []
    assert "cannot draw a .xyz picture" in result.stderr
    result = run("pairs", circles_csv, "-o", output, "--plot", picture)
    assert result.returncode == 0, result.stderr
    assert len(_rows(output.read_text())) == 3 and picture.read_bytes()[:4] == b"\x89PNG"
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("error", [ValueError("measuring failed"), KeyboardInterrupt()])
def test_failure_while_writing_leaves_output_untouched(capsys, monkeypatch, tmp_path, error):
    output, picture = tmp_path / "pairs.jsonl", tmp_path / "pairs.png"
    output.write_text("old\n")
    measure, calls = cli._measure, []

    def failing(*args, **kwargs):  # the second chunk fails, after the first was written
        calls.append(1)
        if len(calls) == 2:
            raise error
        return measure(*args, **kwargs)

    monkeypatch.setattr(cli, "_measure", failing)
    monkeypatch.setattr(cli, "CHUNK_PAIRS", 2)
    code = main(["pairs", "--sample", "mixed", "-o", str(output), "--plot", str(picture)])
    assert code == (2 if isinstance(error, ValueError) else 130)
    assert output.read_text() == "old\n" and not picture.exists()
    assert _leftovers(tmp_path) == []
    assert ("measuring failed" if code == 2 else "interrupted") in capsys.readouterr().err


def test_sample_and_check_plot_are_atomic(capsys, monkeypatch, tmp_path):
    path = tmp_path / "scene.jsonl"
    path.write_text("old\n")

    def broken(*args, **kwargs):
        yield {"kind": "point", "xy": [0.0, 0.0]}
        raise KeyboardInterrupt

    monkeypatch.setattr(cli.io, "shape_records", broken)
    assert main(["sample", "mixed", "-o", str(path)]) == 130
    assert path.read_text() == "old\n" and _leftovers(tmp_path) == []
    monkeypatch.undo()
    assert main(["sample", "mixed", "-o", str(path)]) == 0
    assert len(path.read_text().splitlines()) == 11
    assert main(["check", "circle 0 0 1", "circle 1 0 1", "--plot", str(tmp_path / "no" / "c.png")]) == 2
    assert "no such directory" in capsys.readouterr().err
    assert _leftovers(tmp_path) == []


# -- a large input is streamed -------------------------------------------------------------------


def test_console_script_large_csv_matches_query_pairs(tmp_path):
    import collide2d as c2

    rng = np.random.default_rng(7)
    n = 200_000
    centers = rng.uniform(0, 2000, size=(n, 2))
    radii = rng.uniform(0.5, 1.5, size=(n, 2))
    angles = rng.uniform(0, np.pi, size=n)
    path = tmp_path / "large.csv"
    with open(path, "w") as handle:
        handle.write("x,y,rx,ry,angle\n")
        handle.writelines(f"{x!r},{y!r},{a!r},{b!r},{t!r}\n" for (x, y), (a, b), t in zip(centers.tolist(), radii.tolist(), angles.tolist()))
    output = tmp_path / "pairs.csv"
    result = run("pairs", path, "-o", output, timeout=120)
    assert result.returncode == 0, result.stderr
    expected = c2.query_pairs(c2.Ellipse(centers, radii, angles))
    with open(output) as handle:
        table = list(csv.reader(handle))
    rows = len(table) - 1
    assert table[0] == HEADER and expected.shape[1] > 1000
    # the same pairs (rows are numbered from 0 when the file has no id column), in the same order
    got = np.array([[int(row[0]), int(row[1])] for row in table[1:]], dtype=np.int64).T
    np.testing.assert_array_equal(got, expected)
    assert f"{n} shapes, {rows} pairs" in result.stderr


# -- compiling: warmup, and compile time apart in the summary ---------------------------------------


def test_summary_gives_compile_time_apart(capsys, monkeypatch):
    clock = iter([0.0, 0.0, 7.0, 7.0, 7.0, 7.0, 7.0, 7.0])  # 7 s of compiling inside query_pairs
    monkeypatch.setattr(cli._jit, "compile_seconds", lambda: next(clock))
    assert main(["pairs", "--sample", "mixed"]) == 0
    err = capsys.readouterr().err
    assert "compiling kernels 7.00 s" in err
    query = float(err.split("query_pairs ")[1].split(" s")[0])
    assert query < 7.0  # not counted as query time


def test_summary_without_compiling_says_nothing_of_it(capsys, monkeypatch):
    monkeypatch.setattr(cli._jit, "compile_seconds", lambda: 3.0)
    assert main(["pairs", "--sample", "mixed"]) == 0
    assert "compiling" not in capsys.readouterr().err


def test_warmup_runs_every_task_and_reports(capsys, monkeypatch):
    import collide2d as c2

    calls = []
    tasks = [("one", lambda: calls.append(c2.intersects(c2.Point((0, 0)), c2.Point((0, 0))))), ("two", lambda: calls.append(2))]
    monkeypatch.setattr(cli, "_warmup_tasks", lambda: tasks)
    assert main(["warmup"]) == 0
    err = capsys.readouterr().err
    assert calls == [True, 2]
    assert err.startswith("collide2d: compiling the kernels (2 operations; cached under ")
    # not a terminal: one line per operation with its seconds
    assert "collide2d: [1/2] one: " in err and "collide2d: [2/2] two: " in err
    assert "collide2d: warmup done in " in err and " s of CPU (" in err


def test_warmup_only_runs_the_matching_operations_and_rejects_a_pattern_matching_none(capsys, monkeypatch):
    calls = []
    tasks = [(label, functools.partial(calls.append, label)) for label in ("relate a-b (single)", "relate a-b (batch)", "raycast a (single)")]
    monkeypatch.setattr(cli, "_warmup_tasks", lambda: tasks)
    assert main(["warmup", "--only", "relate *"]) == 0
    assert calls == ["relate a-b (single)", "relate a-b (batch)"]
    assert main(["warmup", "--only", "relat"]) == 2
    assert "collide2d: error: --only 'relat' matches no operation" in capsys.readouterr().err
    for jobs in ("0", "-1", "two"):
        with pytest.raises(SystemExit):
            main(["warmup", "--jobs", jobs])


def test_warmup_groups_keep_a_kind_pair_in_one_process():
    labels = [label for label, _ in cli._warmup_tasks()]
    groups = cli._warmup_groups(labels)
    assert sorted(label for group in groups for label in group) == sorted(labels)
    owner = {label: k for k, group in enumerate(groups) for label in group}
    assert owner["relate ellipse-polygon (single)"] == owner["contact ellipse-polygon (batch)"]
    assert owner["relate ellipse-polygon (single)"] != owner["relate ellipse-ellipse (single)"]
    assert owner["raycast line (single)"] == owner["raycast ellipse (batch)"]


def test_warmup_tasks_cover_every_kind_pair_and_the_broad_phase():
    labels = [label for label, _ in cli._warmup_tasks()]
    kinds = ["ellipse", "polygon", "segment", "line", "point"]
    for size in ("single", "batch"):
        for i, first in enumerate(kinds):
            for second in kinds[i:]:
                for operation in ("relate", "intersects", "contact", "distance", "intersection_points"):
                    assert f"{operation} {first}-{second} ({size})" in labels
    assert "overlap_area ellipse-polygon (batch)" in labels
    assert any(label.startswith("query_pairs") for label in labels)
    # the paths that the small batches of the first warmup missed
    assert {"time_of_impact ellipse-segment (batch)", "time_of_impact line-point (batch, turning)", "construct RotatedBox (batch)",
            "rotate rotated_box (batch)", "query_pairs sweep (ellipses)", "query_nearest (mixed)"} <= set(labels)


def test_warmup_help_explains_the_cache(capsys):
    with pytest.raises(SystemExit):
        main(["warmup", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "cached on disk" in out and "first use" in out


# -- keeping the user's data safe --------------------------------------------------------------------


def _snapshot(*paths):
    """The bytes of each file (or of each file in a folder), to show that a run left them unchanged."""
    found = {}
    for path in map(pathlib.Path, paths):
        for name in sorted(path.rglob("*")) if path.is_dir() else [path]:
            if name.is_symlink():
                found[str(name)] = os.readlink(name)
            elif name.is_file():
                found[str(name)] = name.read_bytes()
    return found


def _refused(result):
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("collide2d: error: "), result.stderr
    return result.stderr


def test_console_script_version_is_the_package_version():
    import importlib.metadata
    import tomllib

    import collide2d as c2

    result = run("--version")
    assert result.returncode == 0 and result.stdout == f"collide2d {c2.__version__}\n"
    assert importlib.metadata.version("collide2d") == c2.__version__
    project = tomllib.loads((pathlib.Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]
    assert "version" not in project and project["dynamic"] == ["version"]  # written once, in collide2d/__init__.py
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert "MIT License" in (pathlib.Path(__file__).parents[2] / "LICENSE").read_text()
    assert any(c.startswith("Programming Language :: Python :: 3") for c in project["classifiers"])


def _same_file_cases(tmp_path, circles_csv):
    """``(label, arguments, words)`` for every way an output can name an input or another output."""
    link = tmp_path / "link.csv"
    link.symlink_to(circles_csv)
    hard = tmp_path / "hard.csv"
    os.link(circles_csv, hard)
    picture = tmp_path / "pairs.png"
    picture_link = tmp_path / "picture-link.png"
    picture_link.symlink_to(picture)
    folder = tmp_path / "dataset"
    folder.mkdir()
    (folder / "part.csv").write_text("x,y,r\n0,0,1\n")
    (folder / "part.parquet").write_bytes(b"PAR1 not read: the output is refused first")
    return [
        ("input as -o", [circles_csv, "-o", circles_csv], ["-o", "is the input", "choose another file"]),
        ("input through a symlink", [circles_csv, "-o", link], ["is the input"]),
        ("input through ./ and ..", [circles_csv, "-o", tmp_path / "x" / ".." / circles_csv.name], ["is the input"]),
        ("symlink as input, target as -o", [link, "-o", circles_csv], ["is the input"]),
        ("hard link of the input", [circles_csv, "-o", hard], ["is the input"]),
        ("input as --plot", [circles_csv, "--plot", circles_csv.with_suffix(".csv")], ["--plot", "is the input"]),
        ("-o and --plot the same", [circles_csv, "-o", picture, "--plot", picture], ["are the same file"]),
        ("-o and --plot through a symlink", [circles_csv, "-o", picture_link, "--plot", picture], ["are the same file"]),
        ("inside an input folder", [folder, "--dask", "-o", folder / "pairs.csv"], ["inside the input folder"]),
        ("matching the input pattern", [folder / "*.csv", "--dask", "-o", folder / "pairs.csv"], ["matches the input pattern"]),
    ]


def test_console_script_refuses_an_output_that_is_an_input_or_another_output(tmp_path, circles_csv):
    (tmp_path / "x").mkdir()
    picture = tmp_path / "pairs.png"
    picture.write_bytes(b"old picture")
    for label, args, words in _same_file_cases(tmp_path, circles_csv):
        before = _snapshot(tmp_path)
        message = _refused(run("pairs", *args))
        for word in words:
            assert word in message, (label, message)
        assert _snapshot(tmp_path) == before, label  # nothing written, nothing replaced
        assert _leftovers(tmp_path) == [], label
    # two different files are fine, and so is standard output with a picture
    assert run("pairs", circles_csv, "-o", tmp_path / "out.csv", "--plot", picture, "-q").returncode == 0
    assert run("pairs", circles_csv, "-o", "-", "--plot", picture, "-q").returncode == 0


def test_console_script_writes_through_a_symlink(tmp_path, circles_csv):
    target = tmp_path / "results" / "pairs.csv"
    target.parent.mkdir()
    target.write_text("old\n")
    target.chmod(0o640)
    link = tmp_path / "pairs.csv"
    link.symlink_to(target)
    picture_target, picture = tmp_path / "results" / "pairs.png", tmp_path / "pairs.png"
    picture.symlink_to(picture_target)  # a dangling link: the picture is created at its target
    result = run("pairs", circles_csv, "-o", link, "--plot", picture, "-q")
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert [row[:3] for row in _rows(target.read_text())[1:]] == [["c0", "c1", "OVERLAPPING"], ["c1", "c2", "TOUCHING"]]
    assert (target.stat().st_mode & 0o777) == 0o640  # the file kept its permissions
    assert picture.is_symlink() and picture_target.read_bytes()[:4] == b"\x89PNG"
    assert _leftovers(tmp_path) == [] and _leftovers(target.parent) == []


def test_console_script_sigterm_removes_the_temporary_file(tmp_path):
    import signal
    import time

    output = tmp_path / "pairs.csv"
    output.write_text("old pairs\n")
    env = dict(os.environ, MPLBACKEND="Agg")
    process = subprocess.Popen(
        [SCRIPT, "pairs", "--sample", "suspension", "--size", "400000", "-o", output],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )
    try:
        deadline = time.monotonic() + 240
        while not _leftovers(tmp_path) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _leftovers(tmp_path), "the run ended before its temporary file appeared"
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 128 + signal.SIGTERM, err
    assert "collide2d: stopped by SIGTERM" in err and "Traceback" not in err
    assert output.read_text() == "old pairs\n"
    assert _leftovers(tmp_path) == []


@pytest.fixture
def dask_extra():
    pytest.importorskip("dask.dataframe", reason="--dask needs the dask extra")
    return pytest.importorskip("pyarrow")


def test_console_script_dask_reads_whole_numbers_then_fractions(tmp_path, dask_extra):
    path = tmp_path / "late.csv"
    rows = [f"{k},{k % 7},1,n{k}" for k in range(0, 6000, 2)] + ["0.5,0.25,1.5,late", "3001.5,4,0.75,last"]
    path.write_text("x,y,r,id\n" + "\n".join(rows) + "\n")  # pandas would guess int64 from the first rows
    single = run("pairs", path, "-q")
    assert single.returncode == 0, single.stderr
    on_dask = run("pairs", path, "--dask", "-q")
    assert on_dask.returncode == 0 and "Traceback" not in on_dask.stderr, on_dask.stderr
    table = _rows(on_dask.stdout)
    assert table[0] == HEADER and sorted(table[1:]) == sorted(_rows(single.stdout)[1:])
    assert any("late" in row[:2] for row in table[1:]) and any("last" in row[:2] for row in table[1:])


HUGE = "1" + "0" * 400  # 10**400: beyond float64
JSON_CIRCLE = '{"kind": "circle", "center": [0, 0], "radius": 1, "id": "ok"}'


def _json_cases(tmp_path):
    """``(path, words)`` of JSON inputs that once raised a traceback or lost their line."""
    cases = []
    path = tmp_path / "huge.json"
    path.write_text(f'[{JSON_CIRCLE},\n {{"kind": "circle", "center": [0, 0], "radius": {HUGE}}}]\n')
    cases.append((path, ["huge.json line 2, item 1 (counted from 0): radius: the integer 100000...000 (401 digits) is too large"]))
    path = tmp_path / "huge.jsonl"
    path.write_text(f'{JSON_CIRCLE}\n{{"kind": "ellipse", "center": [{HUGE}, 0], "radii": [1, 2]}}\n')
    cases.append((path, ["huge.jsonl line 2: center: the integer 100000...000 (401 digits) is too large"]))
    path = tmp_path / "digits.json"  # beyond the 4300 digits Python converts
    path.write_text(f'[{JSON_CIRCLE},\n\n {{"kind": "point", "xy": [0, -{"9" * 5000}]}}]\n')
    cases.append((path, ["digits.json line 3, item 1 (counted from 0): xy: the integer -99999...999 (5000 digits)"]))
    path = tmp_path / "deep.json"
    path.write_text("[" + JSON_CIRCLE + ",\n" + "[" * 100_000 + "]" * 100_000 + "]\n")
    cases.append((path, ["deep.json line 2, item 1 (counted from 0): JSON nested too deeply"]))
    path = tmp_path / "deep.jsonl"
    path.write_text(JSON_CIRCLE + "\n" + '{"kind": ' * 100_000 + "}" * 100_000 + "\n")
    cases.append((path, ["deep.jsonl line 2: JSON nested too deeply"]))
    return cases


def test_console_script_json_numbers_too_large_and_nesting_too_deep(tmp_path):
    for path, words in _json_cases(tmp_path):
        before = _snapshot(path)
        message = _refused(run("pairs", path))
        for word in words:
            assert word in message, message
        skipped = run("pairs", path, "--skip-invalid", "--format", "jsonl")
        if path.name == "deep.json":  # the list cannot be parsed past that item: the whole file fails
            assert words[0] in _refused(skipped)
        else:  # the bad item is skipped, the rest is read
            assert skipped.returncode == 0, skipped.stderr
            assert "Traceback" not in skipped.stderr and f"collide2d: skipped {tmp_path}/{words[0]}" in skipped.stderr
            assert "1 shapes (1 bad row skipped)" in skipped.stderr
        assert _snapshot(path) == before


def test_console_script_sample_too_large_for_memory():
    message = _refused(run("pairs", "--sample", "catalogue", "--size", "1000000000000"))
    assert "not enough memory" in message and "1000000000000" in message


def test_console_script_text_encodings_and_number_forms(tmp_path, dask_extra):
    bom = tmp_path / "bom.csv"
    bom.write_bytes("\ufeffx,y,r\n0,0,1\n1.5,0,1\n".encode())
    for extra in ([], ["--dask"]):
        result = run("pairs", bom, *extra)
        assert result.returncode == 0, result.stderr
        assert [row[:3] for row in _rows(result.stdout)[1:]] == [["0", "1", "OVERLAPPING"]]
    cases = [
        ("latin1.csv", b"x,y,r\n0,0,1\n1,0,1\n2,\xe9,1\n", "latin1.csv line 4, column 3: byte 0xe9 is not UTF-8 text"),
        ("underscore.csv", b"x,y,r\n0,0,1\n1_000,0,1\n", "underscore.csv line 3, column x: '1_000' is not a number"),
        ("digits.csv", "x,y,r\n0,0,1\n\u0661,0,1\n".encode(), "digits.csv line 3, column x: '\u0661' is not a number"),
    ]
    for name, data, words in cases:
        path = tmp_path / name
        path.write_bytes(data)
        for extra in ([], ["--dask"]) if name != "digits.csv" else ([],):  # Dask refuses them as "1_000"
            assert words in _refused(run("pairs", path, *extra)), (name, extra)
        assert path.read_bytes() == data
    latin = tmp_path / "latin1.jsonl"
    second = b'{"kind": "point", "xy": [0, 0], "id": "caf\xe9"}'
    latin.write_bytes(JSON_CIRCLE.encode() + b"\n" + second + b"\n")
    column = second.index(b"\xe9") + 1  # counted from 1, in bytes
    assert f"latin1.jsonl line 2, column {column}: byte 0xe9 is not UTF-8 text" in _refused(run("pairs", latin))


def test_console_script_dask_bad_rows_name_file_and_line(tmp_path, dask_extra):
    import pyarrow as pa
    import pyarrow.parquet as pq

    nan = tmp_path / "nan.csv"
    nan.write_text("x,y,rx,ry\n0,0,2,1\n\n1,1,nan,1\n")
    negative = tmp_path / "negative.csv"
    negative.write_text("x,y,r\n" + "".join(f"{k},0,1\n" for k in range(5)) + "9,9,-1\n")
    assert "nan.csv line 4, column rx: nan is not finite" in _refused(run("pairs", nan, "--dask"))
    assert "negative.csv line 7: radii must be positive, got -1.0" in _refused(run("pairs", negative, "--dask"))
    folder = tmp_path / "dataset"
    folder.mkdir()
    pq.write_table(pa.table({"x": [0.0, 1.0], "y": [0.0, 0.0], "r": [1.0, 1.0]}), folder / "part-0.parquet")
    pq.write_table(pa.table({"x": [0.0, 1.0, 2.0], "y": [0.0, float("nan"), 0.0], "r": [1.0, 1.0, 1.0]}), folder / "part-1.parquet")
    assert "part-1.parquet row 2, column y: nan is not finite" in _refused(run("pairs", folder, "--dask"))


def test_console_script_parquet_refusals(tmp_path, dask_extra):
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path / "mixed"
    folder.mkdir()
    pq.write_table(pa.table({"x": [0.0], "y": [0.0], "r": [1.0]}), folder / "a.parquet")
    pq.write_table(pa.table({"x": [0.0], "y": [0.0], "rx": [2.0], "ry": [1.0]}), folder / "b.parquet")
    message = _refused(run("pairs", folder, "--dask"))
    assert "a.parquet holds circles (x, y, r) but" in message and "b.parquet holds ellipses (x, y, rx, ry)" in message
    times = tmp_path / "times.parquet"
    pq.write_table(pa.table({"x": pd.to_datetime(["2024-01-01", "2024-01-02"]), "y": [0.0, 0.0], "r": [1.0, 1.0]}), times)
    for extra in ([], ["--dask"]):
        message = _refused(run("pairs", times, *extra))
        assert "column x holds timestamp" in message and "must be numeric" in message


def test_console_script_angles_that_look_like_degrees(tmp_path):
    result = run("check", "ellipse 0 0 2 1 30", "rotated_box 5 0 1 1 45")
    assert result.returncode == 0, result.stderr
    warnings_shown = [line for line in result.stderr.splitlines() if line.startswith("collide2d: warning: ")]
    assert warnings_shown == [
        "collide2d: warning: shape 'ellipse 0 0 2 1 30': the angle 30 is read as 30 radians; "
        "|angle| > 2 pi suggests degrees: write 30deg"
    ]  # once per run
    result = run("check", "ellipse 0 0 2 1 30deg", "circle 5 0 1", "--format", "json")
    assert result.returncode == 0 and "warning" not in result.stderr, result.stderr
    assert float(json.loads(result.stdout)["a"].split()[-1]) == pytest.approx(np.pi / 6, rel=1e-15)
    for written in ("30DEG", "30\N{DEGREE SIGN}", " 30deg "):  # the other spellings, parsed as the command does
        assert cli.io.parse_shape(f"ellipse 0 0 2 1 {written}").angle == pytest.approx(np.pi / 6, rel=1e-15)
    assert "warning" not in run("check", "ellipse 0 0 2 1 6.28", "circle 5 0 1").stderr  # within 2 pi: radians
    path = tmp_path / "degrees.csv"
    path.write_text("x,y,rx,ry,angle\n0,0,2,1,0.5\n5,0,2,1,-90\n9,0,2,1,120\n")
    result = run("pairs", path)
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("collide2d: warning: ") == 1
    assert "degrees.csv: angles up to 120 (the first at line 3) are read as radians" in result.stderr
    assert "--degrees" in result.stderr
    quiet = run("pairs", path, "--degrees")
    assert quiet.returncode == 0 and "warning" not in quiet.stderr


def test_console_script_plot_of_a_large_catalogue_says_it_is_a_density_map(tmp_path):
    from collide2d import plotting

    size = plotting.DENSITY_ABOVE + 1
    picture = tmp_path / "large.png"
    result = run("pairs", "--sample", "catalogue", "--size", size, "-o", tmp_path / "pairs.csv", "--plot", picture)
    assert result.returncode == 0, result.stderr
    assert f"picture written to {picture} (over {plotting.DENSITY_ABOVE} shapes, too many to outline: it shows the density" in result.stderr
    assert picture.read_bytes()[:4] == b"\x89PNG"
    small = run("pairs", "--sample", "mixed", "--plot", tmp_path / "mixed.png", "-q")
    assert small.returncode == 0 and "density" not in small.stderr


def test_console_script_writes_into_a_named_pipe_without_replacing_it(tmp_path, circles_csv):
    """A device or pipe given to -o (/dev/null, /dev/stdout, a FIFO) is written to, never replaced by a file."""
    import stat
    import threading

    fifo = tmp_path / "pairs.fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()), daemon=True)
    reader.start()
    result = run("pairs", circles_csv, "-o", fifo, "--format", "csv", "-q", timeout=120)
    reader.join(timeout=60)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still the pipe
    assert [row[:3] for row in _rows(received[0])[1:]] == [["c0", "c1", "OVERLAPPING"], ["c1", "c2", "TOUCHING"]]
    assert _leftovers(tmp_path) == []
