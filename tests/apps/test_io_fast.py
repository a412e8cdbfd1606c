"""The fast CSV readers (pyarrow, pandas, NumPy) give what the csv module gives, table and messages.

Every file is read by each fast engine and by the ``"python"`` engine (the csv module with
``float()`` per token, the reference); the tables must be equal to the bit, and the errors, the
messages handed to ``on_invalid`` and the degree notes equal as text.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from collide2d import _io_text, io
from collide2d.io import InputError

FAST = [pytest.param(name, marks=[]) for name in io.CSV_ENGINES if name != "python"]

GOOD = {
    "ids_extra.csv": "id,x,y,rx,ry,angle,extra\nA,0,0,2,1,0.5,x\nB, 3 ,0,1,3,0,y\n",
    "upper.csv": " X , Y ,R\n0,0,1\n2,0,1\n",
    "bom_crlf.csv": "\ufeffid,x,y,r\r\na,0,0,1\r\n\r\nb,2,0,1.5\r\n",
    "cr.csv": "x,y,r\r0,0,1\r2,0,1\r",
    "quoted.csv": 'id,x,y,r\n"a,b",0,0,1\n"c\nd","1",0,1\n" e ",2,0,1\n',
    "forms.csv": "x,y,r\n+1,-0,1.\n.5,1e5,1E-3\n00012,1e+2,2e0\n",
    "header_only.csv": "x,y,r\n",
    "blank_only.csv": "x,y,r\n\n\n",
    "no_newline.csv": "x,y,r\n0,0,1",
    "degrees.csv": "x,y,rx,ry,angle\n0,0,2,1,0.5\n\n1,0,2,1,90\n2,0,2,1,-400\n",
    "nul.csv": "x,y,r,note\n0,0,1,a\x00b\n",
    "digits_in_ids.csv": "id,x,y,r\n\u0661,0,0,1\n1_000,1,0,1\n",
    "spaces_in_ids.csv": 'id,x,y,r\n\x1ca\u3000,0,0,1\n"\tb ",1,0,1\n\xa0c,2,0,1\nd\u2003e,3,0,1\n\u200bf,4,0,1\n',
}
BAD = {
    "word.csv": "x,y,rx,ry\n0,0,2,1\n0,zero,2,1\n",
    "empty_field.csv": "x,y,r\n0,0,1\n1,,1\n",
    "short.csv": "x,y,rx,ry\n0,0,2,1\n1,1\n",
    "long.csv": "x,y,r\n0,0,1,9\n1,0,-1,8,7\n",
    "nan.csv": "x,y,r\n0,0,1\n\n1,nan,1\n2,NaN,1\n3,-nan,1\n",
    "nan_paren.csv": "x,y,r\n0,0,1\n1,nan(1),1\n",
    "inf.csv": "x,y,rx,ry\n0,0,2,1\n\n1,1,inf,1\n1,1,1e500,1\n1,-Infinity,1,1\n",
    "radius.csv": "x,y,r\n0,0,1\n1,1,0\n1,1,-1\n",
    "range.csv": "x,y,r\n0,0,1\n1e300,0,1\n0,0,1e-300\n0,0,1e151\n2,0,1\n",
    "thin.csv": "x,y,rx,ry\n0,0,1,1\n0,0,1e-20,1e20\n0,0,1,1e30\n0,0,1e300,1e300\n",
    "underscore.csv": "x,y,r\n0,0,1\n1_000,0,1\n",
    "arabic.csv": "x,y,r\n0,0,1\n\u0661,0,1\n",
    "fullwidth.csv": "x,y,r\n0,0,1\n\uff11,0,1\n",
    "hex.csv": "x,y,r\n0,0,1\n0x10,0,1\n",
    "space.csv": "x,y,r\n0,0,1\n   \n1, ,1\n",
    "header.csv": "a,b,c\n1,2,3\n",
    "empty.csv": "",
    "bad_after_quoted.csv": 'id,x,y,r\n"a\nb",0,0,1\nc,0,0,-1\n',
    "blank_spaces.csv": "x,y,r\n0,0,1\n   \n\t\n1,0,-1\n2,0,1\n",  # lines of spaces are blank to the csv module
    "many_bad.csv": "x,y,r\n" + "".join(f"{k},0,{-1 if k % 7 == 3 else 1}\n" for k in range(40)),
}
BYTES = {
    "latin1_number.csv": b"x,y,r\n0,0,1\n1,0,1\n2,\xe9,1\n",
    "latin1_ignored.csv": b"x,y,r,note\n0,0,1,ok\n1,0,1,caf\xe9\n",
}


def _write(tmp_path, name):
    path = tmp_path / name
    if name in BYTES:
        path.write_bytes(BYTES[name])
    else:
        path.write_bytes({**GOOD, **BAD}[name].encode())
    return path


def _outcome(path, engine, skip):
    """Everything a read gives: the table (bits), the messages, the notes, or the error."""
    reported, notes = [], {}
    try:
        kind, columns, data, ids, kept = io._read_csv(path, reported.append if skip else None, notes, engine=engine)
    except InputError as error:
        return ("error", str(error), [str(e) for e in reported])
    return (
        kind, columns, data.shape, data.view(np.int64).tolist(), None if ids is None else ids.tolist(),
        None if kept is None else kept.tolist(), [str(e) for e in reported], notes,
    )


@pytest.mark.parametrize("engine", FAST)
def test_fast_engines_read_what_the_csv_module_reads(tmp_path, engine):
    pytest.importorskip(engine)
    for name in [*GOOD, *BAD, *BYTES]:
        path = _write(tmp_path, name)
        for skip in (False, True):
            assert _outcome(path, engine, skip) == _outcome(path, "python", skip), (name, skip)


def test_fast_engines_read_random_numbers_exactly(tmp_path):
    rng = np.random.default_rng(30)
    values = np.concatenate([rng.normal(0, 1e3, (400, 5)), rng.uniform(0.1, 3.0, (400, 5))], axis=1)[:, 3:8]
    values[:, 2:4] = np.abs(values[:, 2:4]) + 0.5
    values[::17, 0] = np.ldexp(rng.uniform(1, 2, values[::17, 0].shape), rng.integers(-400, 400, values[::17, 0].shape))
    path = tmp_path / "random.csv"
    path.write_text("x,y,rx,ry,angle\n" + "".join(",".join(map(repr, row)) + "\n" for row in values.tolist()))
    expected = _outcome(path, "python", False)
    assert expected[3] == values.view(np.int64).tolist()  # repr round-trips: the reference is exact
    for engine in io.CSV_ENGINES[:-1]:
        pytest.importorskip(engine)
        assert _outcome(path, engine, False) == expected, engine


def test_fast_path_places_bad_rows_without_the_csv_module(tmp_path, monkeypatch):
    """Good files, and bad values (NaN, radii, range) found by the fast parser placed by their
    lines, are read without the csv module's row loop."""
    pytest.importorskip("pyarrow")
    names = [*GOOD, "nan.csv", "nan_paren.csv", "inf.csv", "radius.csv", "range.csv", "thin.csv", "many_bad.csv"]
    paths = [_write(tmp_path, name) for name in names]
    expected = {path: (_outcome(path, "python", True), _outcome(path, "python", False)) for path in paths}

    def refuse(*args):
        raise AssertionError("the fast path fell back to the csv module")

    monkeypatch.setattr(io, "_read_csv_text", refuse)
    monkeypatch.setattr(io, "FAST_PATH_BYTES", 0)  # the default engine takes the fast path for small files too
    for path in paths:
        assert (_outcome(path, "pyarrow", True), _outcome(path, "pyarrow", False)) == expected[path], path.name
    ids, shapes = io.read_shapes(_write(tmp_path, "ids_extra.csv"))  # the default engine
    assert ids.tolist() == ["A", "B"] and shapes.radii.tolist() == [[2.0, 1.0], [1.0, 3.0]]
    with pytest.warns(io.DegreesWarning, match=r"angles up to 400 \(the first at line 4\)"):
        io.read_shapes(tmp_path / "degrees.csv")
    assert math.isclose(io.read_shapes(tmp_path / "degrees.csv", degrees=True)[1].angle[1], math.pi / 2)


def test_id_whitespace_class_is_what_str_strip_removes():
    import re

    pattern = re.compile(f"[{_io_text._SPACES}]")
    assert [c for c in range(0x3100) if pattern.fullmatch(chr(c))] == [c for c in range(0x3100) if chr(c).isspace()]
    assert not any(chr(c).isspace() for c in range(0x3100, 0x110000, 7))  # none beyond (every 7th checked)


def test_default_engine_by_size_and_by_the_libraries_imported(tmp_path, monkeypatch):
    path = _write(tmp_path, "upper.csv")
    import types

    monkeypatch.setattr(io, "sys", types.SimpleNamespace(modules={}))  # as in a process that imported neither
    assert io._default_engine(path) == "python"  # importing a parser would take longer than reading
    monkeypatch.setattr(io, "FAST_PATH_BYTES", 0)
    assert io._default_engine(path) in ("pyarrow", "pandas", "numpy")
