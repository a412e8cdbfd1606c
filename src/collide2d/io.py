"""Reading shapes from files and from inline text.

Formats
-------
* CSV with a header. An ellipse catalogue has the columns ``x, y, rx, ry`` and optionally
  ``angle`` (radians, or degrees with ``degrees=True``) and ``id``; a circle catalogue ``x, y, r``
  and optionally ``id``. Other columns are ignored.
* JSON (a list of objects) or JSON Lines (one object per line) for mixed kinds: each object has
  ``kind`` (``point``, ``circle``, ``ellipse``, ``box``, ``rotated_box``, ``polygon``, ``segment``,
  ``line``), the field names of the shape class (``center``, ``radii``, ``angle``, ...) and
  optionally ``id``.

Every error names the file and the line (1-based, the header is line 1) and the rule broken.
"""

from __future__ import annotations

import csv
import json
import math
import pathlib

import numpy as np

from collide2d import shapes as _shapes

__all__ = ["InputError", "parse_shape", "read_shapes"]


class InputError(ValueError):
    """A file or an inline shape that cannot be read; the message says where and why."""


_KINDS = {
    "point": (_shapes.Point, ("xy",)),
    "circle": (_shapes.Circle, ("center", "radius")),
    "ellipse": (_shapes.Ellipse, ("center", "radii", "angle")),
    "box": (_shapes.Box, ("min", "max")),
    "rotated_box": (_shapes.RotatedBox, ("center", "half_size", "angle")),
    "polygon": (_shapes.Polygon, ("vertices",)),
    "segment": (_shapes.Segment, ("start", "end")),
    "line": (_shapes.Line, ("point", "direction")),
}
_INLINE_ALIASES = {"rotbox": "rotated_box", "rotated-box": "rotated_box", "rbox": "rotated_box"}


def _number(token, where):
    """Parse one number; ``deg`` suffix converts degrees to radians."""
    text = token.strip().lower()
    scale = 1.0
    if text.endswith("deg"):
        text, scale = text[:-3], math.pi / 180
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{where}: {token!r} is not a number") from None
    if not math.isfinite(value):
        raise InputError(f"{where}: {token!r} is not finite")
    return value * scale


def parse_shape(text):
    """Parse an inline shape such as ``"ellipse 0 0 2 1 30deg"``.

    Forms: ``point X Y``, ``circle X Y R``, ``ellipse X Y RX RY [ANGLE]``, ``box XMIN YMIN XMAX YMAX``,
    ``rotated_box X Y HX HY [ANGLE]``, ``polygon X1 Y1 X2 Y2 X3 Y3 ...``, ``segment X0 Y0 X1 Y1``,
    ``line X Y DX DY``. Angles are radians, or degrees with a ``deg`` suffix.

    Examples
    --------
    >>> from collide2d.io import parse_shape
    >>> parse_shape("circle 3 0 1")
    Circle(center=(3.0, 0.0), radius=1.0)
    >>> parse_shape("ellipse 0 0 2 1 90deg").direction.tolist()
    [0.0, 1.0]
    """
    words = text.replace(",", " ").split()
    if not words:
        raise InputError("empty shape: expected for example 'circle 0 0 1'")
    kind = _INLINE_ALIASES.get(words[0].lower(), words[0].lower())
    if kind not in _KINDS:
        raise InputError(f"{words[0]!r} is not a shape kind; use one of {', '.join(_KINDS)}")
    values = [_number(word, f"shape {text!r}") for word in words[1:]]
    counts = {"point": (2,), "circle": (3,), "ellipse": (4, 5), "box": (4,), "rotated_box": (4, 5), "segment": (4,), "line": (4,)}
    if kind == "polygon":
        if len(values) < 6 or len(values) % 2:
            raise InputError(f"shape {text!r}: a polygon needs an even number (>= 6) of coordinates")
        args = (np.reshape(values, (-1, 2)),)
    else:
        if len(values) not in counts[kind]:
            expected = " or ".join(str(n) for n in counts[kind])
            raise InputError(f"shape {text!r}: {kind} takes {expected} numbers, got {len(values)}")
        v = values
        args = {
            "point": lambda: ((v[0], v[1]),),
            "circle": lambda: ((v[0], v[1]), v[2]),
            "ellipse": lambda: ((v[0], v[1]), (v[2], v[3]), v[4] if len(v) > 4 else 0.0),
            "box": lambda: ((v[0], v[1]), (v[2], v[3])),
            "rotated_box": lambda: ((v[0], v[1]), (v[2], v[3]), v[4] if len(v) > 4 else 0.0),
            "segment": lambda: ((v[0], v[1]), (v[2], v[3])),
            "line": lambda: ((v[0], v[1]), (v[2], v[3])),
        }[kind]()
    try:
        return _KINDS[kind][0](*args)
    except (ValueError, TypeError) as error:
        raise InputError(f"shape {text!r}: {error}") from None


def _read_csv(path, degrees):
    """Read an ellipse or circle catalogue; return ``(ids, shapes)``."""
    with open(path, newline="") as handle:
        reader = csv.reader(handle)
        try:
            header = [name.strip().lower() for name in next(reader)]
        except StopIteration:
            raise InputError(f"{path}: the file is empty (a header line is needed)") from None
        if {"x", "y", "rx", "ry"} <= set(header):
            kind, columns = "ellipse", ["x", "y", "rx", "ry"] + (["angle"] if "angle" in header else [])
        elif {"x", "y", "r"} <= set(header):
            kind, columns = "circle", ["x", "y", "r"]
        else:
            raise InputError(f"{path} line 1: the header must name x,y,rx,ry[,angle] (ellipses) or x,y,r (circles); got {','.join(header)}")
        where = [header.index(name) for name in columns]
        id_column = header.index("id") if "id" in header else None
        rows, ids = [], []
        for line, record in enumerate(reader, start=2):
            if not record or all(not field.strip() for field in record):
                continue
            if len(record) < len(header):
                raise InputError(f"{path} line {line}: expected {len(header)} fields, got {len(record)}")
            values = [_number(record[i], f"{path} line {line}, column {name}") for i, name in zip(where, columns)]
            positive = values[2:4] if kind == "ellipse" else values[2:3]
            if any(value <= 0 for value in positive):
                raise InputError(f"{path} line {line}: radii must be positive, got {', '.join(map(str, positive))}")
            rows.append(values)
            ids.append(record[id_column].strip() if id_column is not None else str(len(ids)))
    data = np.array(rows, dtype=np.float64).reshape(-1, len(columns))
    if kind == "circle":
        return ids, _shapes.Circle(data[:, 0:2], data[:, 2])
    angle = data[:, 4] if data.shape[1] > 4 else 0.0
    if degrees:
        angle = np.radians(angle)
    return ids, _shapes.Ellipse(data[:, 0:2], data[:, 2:4], angle)


def _shape_from_object(record, where, degrees):
    if not isinstance(record, dict):
        raise InputError(f"{where}: expected an object with a 'kind', got {type(record).__name__}")
    kind = str(record.get("kind", "")).lower()
    kind = _INLINE_ALIASES.get(kind, kind)
    if kind not in _KINDS:
        raise InputError(f"{where}: 'kind' must be one of {', '.join(_KINDS)}; got {record.get('kind')!r}")
    cls, fields = _KINDS[kind]
    missing = [name for name in fields if name not in record and name != "angle"]
    if missing:
        raise InputError(f"{where}: a {kind} needs the field(s) {', '.join(missing)}")
    kwargs = {name: record[name] for name in fields if name in record}
    if degrees and "angle" in kwargs:
        kwargs["angle"] = math.radians(float(kwargs["angle"]))
    try:
        return cls(**kwargs)
    except (ValueError, TypeError) as error:
        raise InputError(f"{where}: {error}") from None


def read_shapes(path, *, degrees=False):
    """Read shapes from a CSV, JSON or JSON Lines file.

    Parameters
    ----------
    path : str or path-like
        ``.csv`` (ellipse or circle catalogue), ``.json`` or ``.jsonl`` (mixed kinds).
    degrees : bool, default False
        Angles in the file are in degrees.

    Returns
    -------
    ids : list of str
        The ``id`` column or field, else the row number counted from 0.
    shapes : Shape or list of Shape
        One batch for a catalogue, a list of single shapes for JSON.

    Raises
    ------
    InputError
        With the file name, the line number and the rule broken.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from collide2d.io import read_shapes
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "cat.csv"
    >>> _ = path.write_text("x,y,rx,ry,angle\\n0,0,2,1,0\\n3,0,1,3,0\\n")
    >>> ids, shapes = read_shapes(path)
    >>> ids, shapes.shape
    (['0', '1'], (2,))
    """
    path = pathlib.Path(path)
    if not path.exists():
        raise InputError(f"{path}: no such file")
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return _read_csv(path, degrees)
    if suffix in (".json", ".jsonl", ".ndjson"):
        text = path.read_text()
        if suffix == ".json":
            try:
                records = json.loads(text)
            except json.JSONDecodeError as error:
                raise InputError(f"{path} line {error.lineno}: invalid JSON ({error.msg})") from None
            if not isinstance(records, list):
                raise InputError(f"{path}: expected a JSON list of shape objects")
            numbered = [(f"{path} item {k}", record) for k, record in enumerate(records)]
        else:
            numbered = []
            for line, raw in enumerate(text.splitlines(), start=1):
                if raw.strip():
                    try:
                        numbered.append((f"{path} line {line}", json.loads(raw)))
                    except json.JSONDecodeError as error:
                        raise InputError(f"{path} line {line}: invalid JSON ({error.msg})") from None
        shapes, ids = [], []
        for k, (where, record) in enumerate(numbered):
            shapes.append(_shape_from_object(record, where, degrees))
            ids.append(str(record.get("id", k)))
        return ids, shapes
    raise InputError(f"{path}: unknown file type {suffix!r}; use .csv, .json or .jsonl")
