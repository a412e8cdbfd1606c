"""The command line: subprocess runs for exit codes and messages, in-process runs for the outputs.

Most runs call ``main(argv)`` in this process so that compiled kernels are shared; a few run
``python -m collide2d`` in a subprocess to check what a user sees (exit codes, no traceback).
"""

from __future__ import annotations

import csv
import io as _io
import json
import os
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


def run(*args, timeout=300):
    """Run ``python -m collide2d ARGS`` headless; return the completed process."""
    env = dict(os.environ, MPLBACKEND="Agg")
    return subprocess.run(
        [sys.executable, "-m", "collide2d", *map(str, args)], capture_output=True, text=True, timeout=timeout, env=env
    )


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
    assert "3 shapes, 2 pairs" in result.stderr and "OVERLAPPING 1, TOUCHING 1" not in result.stdout
    assert "TOUCHING 1" in result.stderr and "query_pairs" in result.stderr


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


def test_sample_mixed_jsonl_round_trip(capsys, tmp_path):
    path = tmp_path / "mixed.jsonl"
    assert main(["sample", "mixed", "-o", str(path)]) == 0
    assert main(["pairs", str(path)]) == 0
    from_file = capsys.readouterr().out
    assert main(["pairs", "--sample", "mixed"]) == 0
    assert capsys.readouterr().out == from_file


def test_sample_csv_refuses_mixed(capsys, tmp_path):
    assert main(["sample", "mixed", "-o", str(tmp_path / "mixed.csv")]) == 2
    assert "use .jsonl for mixed kinds" in capsys.readouterr().err


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
