"""Rounded shapes in the files and the command line: JSON and JSON Lines records (a ``capsule``
kind; a ``radius`` field on a box, rotated box or polygon), the inline form, round trips bit for
bit, errors with line numbers, ``collide2d pairs`` on such a file, and the DataFrame of a table.
"""

from __future__ import annotations

import contextlib
import csv
import io as _io
import json

import numpy as np
import pytest

import collide2d as c2
from collide2d import io
from collide2d.cli import main

SHAPES = [
    c2.Capsule([(0, 0), (1, 1)], [(2, 0), (1, 1)], [0.5, 0.25]),
    c2.Box((0, 0), (1, 1), radius=0.1),
    c2.RotatedBox((3, 3), (1, 0.5), 0.3, radius=1 / 7),
    c2.Polygon([(0, 0), (1, 0), (0, 1)], radius=1 / 3),
    c2.Polygon([[(4, 0), (5, 0), (4, 1)], [(6, 0), (7, 0), (6, 1)]], radius=[0.1, 0.2]),
    c2.Box((5, 5), (6, 6)),
    c2.Circle((0, 0), 1),
]


def _rows(shapes):
    table = c2.ShapeTable(shapes)
    return table.kinds, table.params, table.vertices


@pytest.mark.parametrize("suffix", [".json", ".jsonl", ".csv"])
def test_write_read_round_trip_is_bit_identical(tmp_path, suffix):
    path = tmp_path / f"shapes{suffix}"
    io.write_shapes(path, SHAPES, ids=[f"s{k}" for k in range(9)])
    ids, back = io.read_shapes(path)
    assert ids.tolist() == [f"s{k}" for k in range(9)]
    assert [repr(s) for s in c2.ShapeTable(back)] == [repr(s) for s in c2.ShapeTable(SHAPES)]
    for mine, theirs in zip(_rows(back), _rows(SHAPES)):
        np.testing.assert_array_equal(mine, theirs)
    if suffix == ".csv":
        return  # its records: tests/apps/test_csv_kinds.py
    records = [json.loads(line) for line in path.read_text().splitlines()] if suffix == ".jsonl" else json.loads(path.read_text())
    assert records[0] == {"id": "s0", "kind": "capsule", "a": [0.0, 0.0], "b": [2.0, 0.0], "radius": 0.5}
    assert records[3]["radius"] == 1 / 7 and "radius" not in records[7]  # a plain box has no radius field


def test_inline_form_round_trip():
    for shape in c2.ShapeTable(SHAPES):
        text = io.format_shape(shape)
        assert repr(io.parse_shape(text)) == repr(shape)
    assert io.format_shape(c2.Capsule((0, 0), (2, 0), 0.5)) == "capsule 0.0 0.0 2.0 0.0 0.5"
    assert io.parse_shape("rotated_box 0 0 2 1 90deg r=0.5").radius == 0.5
    with pytest.raises(io.InputError, match="only a box, rotated_box or polygon takes r="):
        io.parse_shape("circle 0 0 1 r=0.5")
    with pytest.raises(io.InputError, match="radius must be >= 0"):
        io.parse_shape("box 0 0 1 1 r=-1")
    with pytest.raises(io.InputError, match="capsule takes 5 numbers"):
        io.parse_shape("capsule 0 0 1 1")


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ('{"kind": "capsule", "a": [0, 0], "b": [1, 1], "radius": -2}', "line 3: radius must be >= 0, got -2.0"),
        ('{"kind": "box", "min": [0, 0], "max": [1, 1], "radius": "big"}', "line 3: radius"),
        ('{"kind": "box", "min": [0, 0], "max": [1, 1], "radius": true}', "line 3: radius"),
        ('{"kind": "polygon", "vertices": [[0, 0], [1, 0], [0, 1]], "radius": NaN}', "line 3: radius"),
        ('{"kind": "capsule", "a": [0, 0], "b": [1, 1]}', "line 3: a capsule needs the field\\(s\\) radius"),
        ('{"kind": "rotated_box", "center": [0, 0], "half_size": [1, 1], "radius": 1e300}', "line 3: radius"),
    ],
)
def test_bad_radius_names_the_line(tmp_path, record, message):
    path = tmp_path / "bad.jsonl"
    good = '{"kind": "capsule", "a": [0, 0], "b": [1, 1], "radius": 0.5}'
    path.write_text(f"{good}\n{good}\n{record}\n{good}\n")
    with pytest.raises(io.InputError, match=message):
        io.read_shapes(path)
    skipped = []
    ids, shapes = io.read_shapes(path, on_invalid=skipped.append)
    assert ids.tolist() == [0, 1, 3] and len(skipped) == 1


def test_cli_pairs_on_capsules_and_rounded_boxes(tmp_path):
    path = tmp_path / "scene.jsonl"
    shapes = [
        c2.Capsule((0, 0), (2, 0), 0.5),  # meets the rounded box (cores 0.5 apart < 0.5 + 0.1)
        c2.Box((0, 0.5), (1, 2), radius=0.1),
        c2.Capsule((10, 0), (10, 0), 1.0),  # alone
        c2.Polygon([(1.8, -1), (3, -1), (3, 1)], radius=0.05),  # meets the first capsule
    ]
    io.write_shapes(path, shapes)
    out = tmp_path / "pairs.csv"
    with contextlib.redirect_stderr(_io.StringIO()):
        assert main(["pairs", str(path), "-o", str(out)]) == 0
    with out.open() as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["a"], r["b"]) for r in rows] == [("0", "1"), ("0", "3")]
    # the separations and overlap areas are the single-pair functions'
    assert float(rows[0]["separation"]) == c2.contact(shapes[0], shapes[1]).separation == pytest.approx(-0.1)
    assert float(rows[1]["separation"]) == c2.contact(shapes[0], shapes[3]).separation
    assert float(rows[0]["overlap_area"]) == c2.overlap_area(shapes[0], shapes[1]) > 0.0


def test_measure_pairs_with_rounded_shapes_matches_single_pairs():
    shapes = [c2.Capsule((0, 0), (2, 0), 0.5), c2.Box((0, 0.5), (1, 2), radius=0.1), c2.Circle((2.5, 0), 0.2)]
    pairs = c2.query_pairs(shapes)
    assert pairs.tolist() == [[0, 0], [1, 2]]
    m = c2.measure_pairs(shapes, pairs)
    for k, (i, j) in enumerate(pairs.T.tolist()):
        contact = c2.contact(shapes[i], shapes[j])
        assert m.relation[k] == c2.relate(shapes[i], shapes[j])
        assert m.separation[k] == contact.separation and m.normal[k].tolist() == list(contact.normal)
        assert m.overlap_area[k] == c2.overlap_area(shapes[i], shapes[j]) > 0.0
        assert m.iou[k] == c2.iou(shapes[i], shapes[j])

