"""Reading and writing shapes: catalogue files, mixed-kind files and inline text.

Formats
-------
* CSV with a header. An ellipse catalogue has the columns ``x, y, rx, ry`` and optionally
  ``angle`` (radians, or degrees with ``degrees=True``) and ``id``; a circle catalogue ``x, y, r``
  and optionally ``id``. Other columns are ignored; column names are case-insensitive.
* CSV of any kinds: a ``kind`` column, or the columns of one kind other than ellipses and
  circles, in the columns of :meth:`collide2d.ShapeTable.to_dataframe`
  (``collide2d._formats.CATALOGUE_COLUMNS``): ``box`` ``xmin, ymin, xmax, ymax``, ``rotated_box``
  ``x, y, hx, hy[, angle]``, ``polygon`` ``vertices`` (one field ``x1 y1 x2 y2 ...``), ``capsule``
  ``x0, y0, x1, y1, radius``, ``segment`` ``x0, y0, x1, y1``, ``line`` ``x, y, dx, dy``, ``point``
  ``x, y`` (with a kind column), and a ``radius`` (rounded corners; empty: none) on a box,
  rotated box or polygon. A row leaves the columns of other kinds empty. A header with the
  ellipse or circle columns and no ``kind`` column is the catalogue above.
* Parquet (``.parquet``, needs ``pyarrow``): the same catalogues, ellipse or circle catalogue or
  of any kinds, in the same columns with the same meaning, in Parquet's types: ``kind`` a string
  (or dictionary) column, numbers float64 (or integers), a field a row's kind lacks or leaves out a
  null, ``vertices`` a list of ``(x, y)`` pairs per polygon (a flat list ``x1, y1, x2, ...`` or
  the CSV's text are read too). Rows are counted from 1 in messages.
* JSON (a list of objects) or JSON Lines (``.jsonl``, one object per line) for mixed kinds: each
  object has ``kind`` (``point``, ``circle``, ``ellipse``, ``box``, ``rotated_box``, ``polygon``,
  ``segment``, ``line``), the field names of the shape class (``center``, ``radii``, ``angle``, ...)
  and optionally ``id``.

Files are UTF-8 text (a leading byte order mark is skipped). Numbers are plain decimals as
Python writes them: digit separators (``1_000``) and non-ASCII digits are refused, not read.
A CSV catalogue is parsed column by column into float64 arrays by pyarrow's CSV reader when
pyarrow is installed, else by pandas' C parser, else by :func:`numpy.loadtxt`; a file they cannot
read exactly as the :mod:`csv` module does (a word where a number should be, a short row, bytes
that are not UTF-8, ...) is read by the csv module in chunks of rows, which names the line. Either
way the shapes and the messages are the same. Every error names the file and the line (1-based; in a CSV
file the header is line 1) and the rule broken, and is an :class:`InputError` (a ``ValueError``).

Angles are radians unless ``degrees=True``. An angle whose magnitude exceeds 2 pi was most likely
written in degrees: reading one as radians emits a :class:`DegreesWarning` (once per file or
inline shape), naming where it is.

Why this file is over 800 lines: it is the public module of every file format, and its largest
part, the CSV catalogue reader, has two paths (a C parser over whole columns, the csv module line by
line) that must give the same shapes and the same messages, so they are read side by side here;
bytes and text to numbers are in :mod:`collide2d._io_text`, no shape is built there.
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import errno
import itertools
import json
import math
import os
import pathlib
import sys
import tempfile
import warnings

import numpy as np

from collide2d import _formats
from collide2d import shapes as _shapes
from collide2d._degrees import TWO_PI, DegreesWarning
from collide2d._degrees import angle_note as _angle_note
from collide2d._degrees import warn_degrees as _warn_degrees
from collide2d._io_text import (
    _PARSERS, KIND_ALIASES, InputError, _block_problems, _catalogue_columns, _catalogue_records, _exact_problems, _Fallback,
    _HugeInt, _catalogue_columns_fast, _catalogue_rows, _is_old_catalogue, _json_records, _LineNumbers, _mixed_layout,
    _not_utf8, _numeric_columns, _parse_block, _plain_number, _Rows, _settle, catalogue_lines, catalogue_parts,
    parquet_columns_fast, parquet_records,
)

__all__ = ["DegreesWarning", "InputError", "format_shape", "parse_shape", "read_shapes", "shape_records", "write_shapes"]

CHUNK_ROWS = 1 << 16  # rows parsed at a time from a catalogue


_KINDS = {
    "point": (_shapes.Point, ("xy",)),
    "circle": (_shapes.Circle, ("center", "radius")),
    "ellipse": (_shapes.Ellipse, ("center", "radii", "angle")),
    "box": (_shapes.Box, ("min", "max")),
    "rotated_box": (_shapes.RotatedBox, ("center", "half_size", "angle")),
    "polygon": (_shapes.Polygon, ("vertices",)),
    "segment": (_shapes.Segment, ("start", "end")),
    "line": (_shapes.Line, ("point", "direction")),
    "capsule": (_shapes.Capsule, ("a", "b", "radius")),
}
# A box, rotated box or polygon with a radius > 0 (the rounded kind) has the field "radius" more;
# without it, or with radius 0, it is the plain shape. An ellipse or rotated box built from a
# direction has the field "direction" (its angle alone gives the direction within an ulp only).
_ROUNDABLE = ("box", "rotated_box", "polygon")
_ORIENTED = ("ellipse", "rotated_box")
_KIND_OF_CLASS = {cls: kind for kind, (cls, _) in _KINDS.items()}
_OPTIONAL = {"angle"}
_ANY_FIELD = frozenset(name for kind in _KINDS for name in _KINDS[kind][1]) | {"direction", "radius"}


def _fields(kind):
    """The record fields of ``kind``: ``direction`` of the kinds built from one, ``radius`` last
    for the kinds that may be rounded."""
    fields = _KINDS[kind][1]
    fields = fields + ("direction",) if kind in _ORIENTED else fields
    return fields + ("radius",) if kind in _ROUNDABLE else fields


def _optional(kind, name):
    return name in _OPTIONAL or (name == "radius" and kind in _ROUNDABLE) or (name == "direction" and kind in _ORIENTED)
_INLINE_ALIASES = KIND_ALIASES
_INLINE_COUNTS = {
    "point": (2,), "circle": (3,), "ellipse": (4, 5), "box": (4,), "rotated_box": (4, 5), "segment": (4,), "line": (4,),
    "capsule": (5,),
}


def kind_name(shape):
    """Return the file kind name of a shape (``"circle"``, ``"rotated_box"``, ``"capsule"``, ...;
    a box, rotated box or polygon with a radius is still a ``"box"``, ...)."""
    cls = type(shape)
    return _KIND_OF_CLASS.get(cls) or _KIND_OF_CLASS[next(c for c in cls.__mro__ if c in _KIND_OF_CLASS)]


def _in_degrees(token):
    """True when an inline number carries a degree suffix (``deg`` or the degree sign)."""
    return token.strip().lower().endswith(("deg", "\N{DEGREE SIGN}"))


def _number(token, where):
    """Parse one number; a ``deg`` suffix (or a degree sign) converts degrees to radians."""
    text = token.strip().lower()
    scale = 1.0
    if _in_degrees(text):
        text, scale = text.removesuffix("deg").removesuffix("\N{DEGREE SIGN}"), math.pi / 180
    try:
        if not _plain_number(text):
            raise ValueError(text)
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
    ``line X Y DX DY``, ``capsule X0 Y0 X1 Y1 R``. A box, rotated box or polygon takes a last
    word ``r=R`` for its ``radius`` (rounded corners). Angles are radians, or degrees with a
    ``deg`` suffix (``30deg``, also ``30°``). Commas count as spaces.

    Raises
    ------
    InputError
        For an unknown kind, a wrong count of numbers or an invalid shape; the message quotes the text.

    Warns
    -----
    DegreesWarning
        For an angle in radians (no suffix) whose magnitude exceeds 2 pi, such as
        ``"ellipse 0 0 2 1 30"``: probably meant as ``30deg``.

    Examples
    --------
    >>> from collide2d.io import parse_shape
    >>> parse_shape("circle 3 0 1")
    Circle(center=(3.0, 0.0), radius=1.0)
    >>> parse_shape("ellipse 0 0 2 1 90deg").direction.tolist()
    [0.0, 1.0]
    >>> parse_shape("box 0 0 2 1 r=0.25")
    Box(min=(0.0, 0.0), max=(2.0, 1.0), radius=0.25)
    >>> parse_shape("circle 0 0 -1")
    Traceback (most recent call last):
    ...
    collide2d.io.InputError: shape 'circle 0 0 -1': radius must be positive...
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     _ = parse_shape("ellipse 0 0 2 1 30")
    >>> print(caught[0].message)
    shape 'ellipse 0 0 2 1 30': the angle 30 is read as 30 radians; |angle| > 2 pi suggests degrees: write 30deg
    """
    words = text.replace(",", " ").split()
    if not words:
        raise InputError("empty shape: expected for example 'circle 0 0 1'")
    kind = _INLINE_ALIASES.get(words[0].lower(), words[0].lower())
    if kind not in _KINDS:
        raise InputError(f"{words[0]!r} is not a shape kind; use one of {', '.join(_KINDS)}")
    radius = None
    if len(words) > 1 and words[-1].lower().startswith("r="):
        if kind not in _ROUNDABLE:
            raise InputError(f"shape {text!r}: only a box, rotated_box or polygon takes r=RADIUS")
        radius = _number(words.pop()[2:], f"shape {text!r}: r=")
    if any(word.lower().startswith("r=") for word in words[1:]):
        raise InputError(f"shape {text!r}: r=RADIUS is given once, as the last word")
    v = [_number(word, f"shape {text!r}") for word in words[1:]]
    if kind == "polygon":
        if len(v) < 6 or len(v) % 2:
            raise InputError(f"shape {text!r}: a polygon needs an even number (>= 6) of coordinates")
        args = (np.reshape(v, (-1, 2)),)
    else:
        if len(v) not in _INLINE_COUNTS[kind]:
            expected = " or ".join(str(n) for n in _INLINE_COUNTS[kind])
            raise InputError(f"shape {text!r}: {kind} takes {expected} numbers, got {len(v)}")
        if kind == "point":
            args = ((v[0], v[1]),)
        elif kind == "circle":
            args = ((v[0], v[1]), v[2])
        elif kind == "capsule":
            args = ((v[0], v[1]), (v[2], v[3]), v[4])
        elif kind in ("ellipse", "rotated_box"):
            args = ((v[0], v[1]), (v[2], v[3]), v[4] if len(v) > 4 else 0.0)
            if len(v) > 4 and abs(v[4]) > TWO_PI and not _in_degrees(words[5]):
                warnings.warn(
                    DegreesWarning(
                        f"shape {text!r}: the angle {words[5]} is read as {words[5]} radians; "
                        f"|angle| > 2 pi suggests degrees: write {words[5]}deg"
                    ),
                    stacklevel=2,
                )
        else:
            args = ((v[0], v[1]), (v[2], v[3]))
    try:
        return _KINDS[kind][0](*args, **({} if radius is None else {"radius": radius}))
    except (ValueError, TypeError) as error:
        raise InputError(f"shape {text!r}: {error}") from None


def format_shape(shape):
    """Write a single shape in the inline form that :func:`parse_shape` reads.

    An ellipse or rotated box built from a ``direction`` is written with its angle, which gives the
    direction within an ulp: :func:`write_shapes` (JSON, CSV) keeps it exactly.

    Examples
    --------
    >>> import collide2d as c2
    >>> from collide2d.io import format_shape
    >>> format_shape(c2.Ellipse((0, 0), (2, 1), 0.5))
    'ellipse 0.0 0.0 2.0 1.0 0.5'
    """
    kind = kind_name(shape)
    numbers = []
    for name in _KINDS[kind][1]:
        numbers.extend(np.ravel(shape.fields[name]).tolist())
    words = [kind] + [repr(float(x)) for x in numbers]
    if kind in _ROUNDABLE and "radius" in shape.fields:
        words.append(f"r={float(shape.fields['radius'])!r}")
    return " ".join(words)


# -- catalogues (CSV, Parquet) ---------------------------------------------------------------------


def _read_csv(path, on_invalid=None, notes=None, engine=None):
    """Read a catalogue; return ``(kind, columns, data, ids, rows)``.

    ``rows`` holds the numbers (from 0) of the rows kept, or None when none was skipped.
    ``notes`` (a dict) receives where the angles look like degrees. ``engine`` names the parser
    (one of :data:`CSV_ENGINES`); by default :func:`_default_engine`. Whatever the engine, the
    result and every message are those of the ``"python"`` engine (the :mod:`csv` module, row by
    row): a fast engine that cannot read the file, or finds bad rows it cannot place, hands the
    file to it.
    """
    notes = {} if notes is None else notes
    engine = engine or _default_engine(path)
    try:
        if engine != "python":
            found = _read_csv_fast(path, on_invalid, notes, engine)
            if found is not None:
                return found
        return _read_csv_text(path, on_invalid, notes)
    except UnicodeDecodeError:
        raise _not_utf8(path) from None


# -- the fast path: a C parser over whole columns ------------------------------------------------
#
# The csv module with float() per token reads some 10**5 rows a second; pyarrow's and pandas'
# parsers and np.loadtxt read the float columns in C. Their number syntax is narrower than
# float()'s except for NaN spellings (pyarrow reads "nan(1)", which float() refuses) and none of
# them reads digit separators or non-ASCII digits, so a token they accept is a token float() reads
# to the same double, or a NaN that the value checks flag. Any row they flag (NaN, infinity, a
# radius <= 0, a value out of range) is parsed again from its line by the csv module and float(),
# which gives its message; anything else they refuse (a word, an empty field, a short row) sends
# the whole file to the csv module. The parsers themselves are in collide2d._io_text.

#: The parsers tried in order by ``read_shapes`` for CSV; ``"python"`` (the csv module) always works.
CSV_ENGINES = ("pyarrow", "pandas", "numpy", "python")


def _csv_layout(path):
    """``(header, kind, columns, where, id_column, quoted)`` of a catalogue whose header is one
    line of UTF-8 text; raise :class:`_Fallback` for any other file (the csv module names the
    problem). ``quoted``: the file holds a double quote (a field may then span lines)."""
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.reader(handle)
        try:
            header = [name.strip().lower() for name in next(reader)]
        except (StopIteration, csv.Error, UnicodeDecodeError):
            raise _Fallback from None
        if reader.line_num != 1:
            raise _Fallback
    try:
        kind, columns = _catalogue_columns(header, "")
    except InputError:
        raise _Fallback from None
    where = [header.index(name) for name in columns]
    id_column = header.index("id") if "id" in header else None
    decoder, quoted = codecs.getincrementaldecoder("utf-8")(), False
    with open(path, "rb") as handle:  # the csv module decodes every byte: refuse what it refuses
        for chunk in iter(lambda: handle.read(1 << 24), b""):
            try:
                decoder.decode(chunk)
                quoted = quoted or b'"' in chunk
            except UnicodeDecodeError:
                raise _Fallback from None
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            raise _Fallback from None
    return header, kind, columns, where, id_column, quoted


#: Below this size (bytes) a CSV file is read by the csv module unless pyarrow or pandas is already
#: imported: importing one takes longer (0.3 to 0.5 s) than the csv module takes to read it.
FAST_PATH_BYTES = 1 << 23


def _default_engine(path):
    """pyarrow or pandas when already imported; else, for a file of :data:`FAST_PATH_BYTES` or
    more, the first of pyarrow, pandas and NumPy that imports; else the csv module."""
    for name in ("pyarrow", "pandas"):
        if name in sys.modules:
            return name
    if os.path.getsize(path) < FAST_PATH_BYTES:
        return "python"
    for name in ("pyarrow", "pandas"):
        try:
            __import__(name)
        except ImportError:
            continue
        return name
    return "numpy"


def _read_csv_fast(path, on_invalid, notes, engine):
    """:func:`_read_csv_text`'s result with a C parser, or None when only the csv module can tell."""
    try:
        header, kind, columns, where, id_column, quoted = _csv_layout(path)
        try:
            data, ids = _PARSERS[engine](path, header, where, id_column, quoted)
        except (ValueError, TypeError, IndexError, UnicodeDecodeError, Warning):
            raise _Fallback from None
        except Exception as error:  # pyarrow's own parse errors (ArrowInvalid is a ValueError; others are not)
            if type(error).__module__.startswith("pyarrow"):
                raise _Fallback from None
            raise
        data = np.ascontiguousarray(data, dtype=np.float64)
        if ids is not None and len(ids) != len(data):
            raise _Fallback
        line_numbers = _LineNumbers(path, len(data))
        problems = _block_problems(data, columns, line_numbers, path, {})
        if problems:
            problems = _exact_problems(path, problems, line_numbers, where, columns)
        bad = sorted(problems)
        kept = np.delete(np.arange(len(data)), bad)
        good = data[kept] if bad else data
        angle_notes = {}
        _angle_note(angle_notes, good, columns, _Rows(line_numbers, kept), path)
    except _Fallback:
        return None
    _settle(problems, on_invalid)
    for key, value in angle_notes.items():
        notes[key] = value if key == "first" else max(notes.get(key, 0.0), value)
    if ids is not None:
        ids = np.asarray(ids, dtype=object).reshape(-1)
        ids = ids[kept] if bad else ids
    return kind, columns, good, ids, kept if bad else None


def _read_csv_text(path, on_invalid, notes):
    with open(path, newline="", encoding="utf-8-sig") as handle:
        reader = csv.reader(handle)
        try:
            header = [name.strip().lower() for name in next(reader)]
        except StopIteration:
            raise InputError(f"{path}: the file is empty (a header line is needed)") from None
        except csv.Error as error:
            raise InputError(f"{path} line 1: {error}") from None
        kind, columns = _catalogue_columns(header, f"{path} line 1")
        where = [header.index(name) for name in columns]
        id_column = header.index("id") if "id" in header else None
        needed = max(where + ([id_column] if id_column is not None else [])) + 1
        blocks, id_blocks, kept_blocks = [], [], []
        first, skipped = 0, 0
        while True:
            rows, lines, short = [], [], {}
            try:
                for record in itertools.islice(reader, CHUNK_ROWS):
                    if not record or (len(record) == 1 and not record[0].strip()):
                        continue  # blank line
                    if len(record) < needed:
                        short[len(rows)] = f"{path} line {reader.line_num}: expected {len(header)} fields, got {len(record)}"
                        record = [""] * needed
                    rows.append(record)
                    lines.append(reader.line_num)
            except csv.Error as error:
                raise InputError(f"{path} line {reader.line_num}: {error}") from None
            if not rows:
                break
            problems = dict(short)
            data = _parse_block(rows, lines, where, columns, path, problems)
            _block_problems(data, columns, lines, path, problems)
            bad = _settle(problems, on_invalid)
            keep = np.ones(len(rows), dtype=bool)
            keep[bad] = False
            _angle_note(notes, data[keep], columns, np.asarray(lines)[keep], path)
            skipped += len(bad)
            blocks.append(data[keep] if bad else data)
            kept_blocks.append(first + np.flatnonzero(keep))
            first += len(rows)
            if id_column is not None:
                id_blocks.append(np.array([record[id_column].strip() for record in rows], dtype=object)[keep])
    data = np.concatenate(blocks) if blocks else np.zeros((0, len(columns)))
    ids = np.concatenate(id_blocks) if id_column is not None and id_blocks else None
    if id_column is not None and ids is None:
        ids = np.zeros(0, dtype=object)
    kept = np.concatenate(kept_blocks) if skipped else None
    return kind, columns, data, ids, kept


def _csv_header(path):
    """The names of the header of a CSV file (stripped, lower-case), or None when it has none that
    the csv module reads (the catalogue reader then names the problem)."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            return [name.strip().lower() for name in next(csv.reader(handle))]
    except (StopIteration, csv.Error, UnicodeDecodeError):
        return None


def _read_any_csv(path, degrees, on_invalid, notes):
    """``(ids, shapes)`` of a CSV catalogue of any kinds (a ``kind`` column, or the columns of one
    kind other than ellipses and circles): the shapes, batches and messages of the JSON Lines file
    of the same records. The columns are parsed whole and the runs built as batches when every row
    is good; else each row is read as its record, which names the bad rows."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            reader = csv.reader(handle)
            header = [name.strip().lower() for name in next(reader)]
            layout, rows, lines = _catalogue_rows(path, reader, header)
    except UnicodeDecodeError:
        raise _not_utf8(path) from None
    found = _any_csv_fast(path, layout, rows, lines, degrees)
    if found is not None:
        ids, shapes, angle_notes = found
        for key, value in angle_notes.items():
            notes[key] = value if key == "first" else max(notes.get(key, 0.0), value)
        return ids, shapes
    return _records_to_shapes(_catalogue_records(path, header, layout, rows, lines), degrees, on_invalid, notes)


def _any_csv_fast(path, layout, rows, lines, degrees):
    """``(ids, shapes, angle notes)`` of a clean CSV catalogue of any kinds (see
    :func:`_column_shapes`), or None when a row or a run is bad."""
    found = _catalogue_columns_fast(layout, rows)
    built = None if found is None else _column_shapes(*found, degrees, lambda row: f"{path} line {lines[row]}")
    if built is None:
        return None
    shapes, notes = built
    ids = None
    if "id" in layout[1]:
        column = layout[1]["id"]
        ids = np.array([row[column].strip() for row in rows] + [None], dtype=object)[:-1]
    return ids, shapes, notes


def _column_shapes(kinds, values, filled, vertices, degrees, where):
    """``(shapes, angle notes)`` of the columns of a clean catalogue of any kinds (CSV or Parquet:
    ``kinds`` an object array of the rows' kinds, ``values`` a float64 array per numeric column,
    ``filled`` a mask per column, ``vertices`` a list of ``(k, 2)`` arrays or None per row, or
    None), built run by run as :func:`_records_to_shapes` builds the records of its rows (a run of
    one row from Python numbers, a longer run from arrays); ``where(row)`` names a row. None when
    a run makes no shape: the records then name the bad row."""
    n = len(kinds)
    counts = [0 if v is None else len(v) for v in vertices] if vertices is not None else [0] * n
    none = np.zeros(n, dtype=bool)
    keys = list(zip(kinds.tolist(), counts, filled.get("radius", none).tolist(), filled.get("dx", none).tolist()))
    shapes = []
    lo = 0
    for hi in range(1, n + 1):
        if hi < n and keys[hi] == keys[lo]:
            continue
        kind = keys[lo][0]
        kwargs = {}
        for field, names in _formats.CATALOGUE_FIELDS[kind]:
            if not all(name in filled for name in names):
                if _formats.optional_column(kind, names[0]) and not any(name in filled for name in names):
                    continue
                return None  # a column the kind needs is missing (or half a direction): the records say which
            if len(names) == 2 and np.any(filled[names[0]][lo:hi] != filled[names[1]][lo:hi]):
                return None  # half a direction given (dx without dy): the records name the row
            if not filled[names[0]][lo]:
                continue  # an optional field left empty: the angle, or the radius of a plain shape
            if names == ("vertices",):
                value = np.stack(vertices[lo:hi]) if hi - lo > 1 else vertices[lo].tolist()
            elif len(names) == 2:
                value = np.stack([values[names[0]][lo:hi], values[names[1]][lo:hi]], axis=-1)
                value = value if hi - lo > 1 else value[0].tolist()
            else:
                value = values[names[0]][lo:hi] if hi - lo > 1 else float(values[names[0]][lo])
            kwargs[field] = value
        if degrees and "angle" in kwargs:
            kwargs["angle"] = np.radians(np.asarray(kwargs["angle"], dtype=np.float64))
        try:
            shapes.append(_KINDS[kind][0](**kwargs))
        except (ValueError, TypeError, OverflowError):
            return None
        lo = hi
    notes = {}
    if "angle" in values:
        angle = np.where(filled["angle"], np.abs(values["angle"]), 0.0)
        large = np.flatnonzero(angle > TWO_PI)
        if len(large):
            notes = {"first": where(int(large[0])), "largest": float(angle[large].max())}
    return shapes, notes


def _parquet_source(path):
    """The ``pyarrow.parquet.ParquetFile`` of ``path``; an :class:`InputError` without pyarrow or
    for a file pyarrow cannot open."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(f"{path}: reading Parquet needs pyarrow (pip install pyarrow)") from None
    try:
        return pq.ParquetFile(path)
    except Exception as error:  # pyarrow raises its own exception types for broken files
        raise InputError(f"{path}: not a readable Parquet file ({error})") from None


def _read_any_parquet(path, source, degrees, on_invalid, notes):
    """``(ids, shapes)`` of a Parquet catalogue of any kinds: the columns, rules and shapes of the
    CSV of any kinds (:func:`_read_any_csv`), in Parquet's types (see :mod:`collide2d.io`); rows
    are named by their number, counted from 1."""
    header = [name.lower() for name in source.schema_arrow.names]
    try:
        fixed, columns = _mixed_layout(header, str(path))
    except InputError as error:  # a Parquet file has columns, not a header line
        raise InputError(str(error).replace(": the header must name ", ": the columns must be ", 1)) from None
    try:
        table = source.read(columns=[source.schema_arrow.names[k] for k in columns.values()])
    except Exception as error:  # pyarrow raises its own exception types for broken files
        raise InputError(f"{path}: not a readable Parquet file ({error})") from None
    arrays = {name: table.column(k) for k, name in enumerate(columns)}
    found = parquet_columns_fast(arrays, fixed, table.num_rows)
    built = None if found is None else _column_shapes(*found, degrees, lambda row: f"{path} row {row + 1}")
    if built is None:
        return _records_to_shapes(parquet_records(path, arrays, fixed, table.num_rows), degrees, on_invalid, notes)
    shapes, angle_notes = built
    for key, value in angle_notes.items():
        notes[key] = value if key == "first" else max(notes.get(key, 0.0), value)
    ids = None
    if "id" in arrays and arrays["id"].null_count < table.num_rows:  # as _records_to_shapes names the shapes
        given = arrays["id"].to_pylist()
        ids = np.array([str(k) if name is None else str(name) for k, name in enumerate(given)] + [None], dtype=object)[:-1]
    return ids, shapes


def _read_parquet(path, on_invalid=None, notes=None, source=None):
    """Read an ellipse or circle catalogue of Parquet (no ``kind`` column); return ``(kind,
    columns, data, ids, rows)`` as :func:`_read_csv` does."""
    notes = {} if notes is None else notes
    source = _parquet_source(path) if source is None else source
    names = {name.lower(): name for name in source.schema_arrow.names}
    kind, columns = _catalogue_columns(list(names), f"{path}")
    _numeric_columns(source.schema_arrow, names, columns, f"{path}")
    wanted = [names[c] for c in columns] + ([names["id"]] if "id" in names else [])
    blocks, id_blocks, kept_blocks, first, skipped = [], [], [], 1, 0
    for batch in source.iter_batches(batch_size=CHUNK_ROWS, columns=wanted):
        try:
            data = np.column_stack([batch.column(names[c]).to_numpy(zero_copy_only=False).astype(np.float64) for c in columns])
        except (ValueError, TypeError) as error:
            raise InputError(f"{path}: the columns {', '.join(columns)} must be numeric ({error})") from None
        # Parquet has no lines: rows are numbered from 1 as "row" in messages.
        lines = np.arange(first, first + len(data))
        problems = {row: message.replace(" line ", " row ", 1)
                    for row, message in _block_problems(data, columns, lines, path, {}).items()}
        bad = _settle(problems, on_invalid)
        keep = np.ones(len(data), dtype=bool)
        keep[bad] = False
        _angle_note(notes, data[keep], columns, lines[keep], path, row_word="row")
        skipped += len(bad)
        blocks.append(data[keep])
        kept_blocks.append(first - 1 + np.flatnonzero(keep))
        if "id" in names:
            id_blocks.append(np.array([str(x) for x in batch.column(names["id"]).to_pylist()], dtype=object)[keep])
        first += len(data)
    data = np.concatenate(blocks) if blocks else np.zeros((0, len(columns)))
    ids = (np.concatenate(id_blocks) if id_blocks else np.zeros(0, dtype=object)) if "id" in names else None
    kept = np.concatenate(kept_blocks) if skipped else None
    return kind, columns, data, ids, kept


def _catalogue_shapes(kind, columns, data, degrees):
    if kind == "circle":
        return _shapes.Circle(data[:, 0:2], data[:, 2])
    angle = data[:, 4] if len(columns) > 4 else 0.0
    if degrees and len(columns) > 4:
        angle = np.radians(angle)
    return _shapes.Ellipse(data[:, 0:2], data[:, 2:4], angle)


# -- mixed kinds (JSON, JSON Lines) ---------------------------------------------------------------


def _check_record(record, where):
    if not isinstance(record, dict):
        raise InputError(f"{where}: expected an object with a 'kind', got {type(record).__name__}")
    raw = record.get("kind", "")
    kind = str(raw).lower()
    kind = _INLINE_ALIASES.get(kind, kind)
    if kind not in _KINDS:
        raise InputError(f"{where}: 'kind' must be one of {', '.join(_KINDS)}; got {raw!r}")
    fields = _fields(kind)
    missing = [name for name in fields if name not in record and not _optional(kind, name)]
    if missing:
        raise InputError(f"{where}: a {kind} needs the field(s) {', '.join(missing)}")
    foreign = [name for name in record if name in _ANY_FIELD and name not in fields]
    if foreign:  # a field of another kind (the radius of a segment): refused, as a CSV column is, not dropped
        raise InputError(f"{where}: a {kind} has no field {foreign[0]} (its fields: {', '.join(fields)})")
    return kind


def _huge_number(value):
    """The first integer of a JSON value too large for a float (a :class:`_HugeInt`), or None."""
    if isinstance(value, _HugeInt):
        return value
    if isinstance(value, list):
        for item in value:
            found = _huge_number(item)
            if found is not None:
                return found
    return None


def _one_shape(kind, record, where, degrees):
    cls, fields = _KINDS[kind][0], _fields(kind)
    kwargs = {name: record[name] for name in fields if name in record}
    for name, value in kwargs.items():
        huge = _huge_number(value)
        if huge is not None:
            raise InputError(f"{where}: {name}: the integer {huge.short()} is too large for a 64-bit float")
    try:
        if degrees and "angle" in kwargs:
            kwargs["angle"] = np.radians(np.asarray(kwargs["angle"], dtype=np.float64))
        return cls(**kwargs)
    except (ValueError, TypeError, OverflowError) as error:
        raise InputError(f"{where}: {error}") from None


def _fast_batch(kind, run, degrees):
    """One batch for a run of records of one kind with the same fields, or None if that fails."""
    cls, fields = _KINDS[kind][0], _fields(kind)
    names = [name for name in fields if name in run[0][2]]
    if not all(set(name for name in fields if name in record) == set(names) for _, _, record in run):
        return None
    try:
        kwargs = {name: np.array([record[name] for _, _, record in run], dtype=np.float64) for name in names}
        if degrees and "angle" in kwargs:
            kwargs["angle"] = np.radians(kwargs["angle"])
        return cls(**kwargs)
    except (ValueError, TypeError, OverflowError):
        return None


def _run_batch(kind, run, degrees, problems):
    """Shapes for a run ``[(k, where, record)]`` of one kind; bad records go to ``problems``.

    Return ``(shapes, kept)``: a list of batches and the numbers ``k`` of the records they hold.
    """
    if len(run) > 1:
        batch = _fast_batch(kind, run, degrees)
        if batch is not None:
            return [batch], [k for k, _, _ in run]
    parts, good = [], []
    for item in run:  # one by one to name the bad records
        k, where, record = item
        try:
            parts.append(_one_shape(kind, record, where, degrees))
            good.append(item)
        except InputError as error:
            problems[k] = str(error)
    if len(good) > 1 and len(good) < len(run):
        batch = _fast_batch(kind, good, degrees)
        if batch is not None:
            return [batch], [k for k, _, _ in good]
    return parts, [k for k, _, _ in good]


def _vertex_shape(record):
    try:
        return np.shape(record.get("vertices"))
    except ValueError:  # ragged: a run of its own, where the constructor names the problem
        return "ragged"


def _records_to_shapes(numbered, degrees, on_invalid=None, notes=None):
    """Shapes for ``[(where, record or InputError)]``: consecutive records of one kind become one batch.

    Return ``(ids, shapes)``; bad records raise the first :class:`InputError`, or with ``on_invalid``
    are handed to it (in file order) and skipped. ``notes`` (a dict) receives where the angles
    look like degrees.
    """
    notes = {} if notes is None else notes
    problems, runs = {}, []
    for k, (where, record) in enumerate(numbered):
        if isinstance(record, InputError):
            problems[k] = str(record)
            continue
        try:
            kind = _check_record(record, where)
        except InputError as error:
            problems[k] = str(error)
            continue
        angle = record.get("angle")
        if isinstance(angle, (int, float)) and not isinstance(angle, bool) and abs(angle) > TWO_PI:
            notes.setdefault("first", where)
            notes["largest"] = max(notes.get("largest", 0.0), abs(float(angle)))
        # a run: one kind, the same vertex count for polygons, a radius in all records or in none
        key = (kind, _vertex_shape(record) if kind == "polygon" else None, "radius" in record, "direction" in record)
        if not runs or runs[-1][0] != key:
            runs.append((key, []))
        runs[-1][1].append((k, where, record))
    if problems and on_invalid is None:  # the first bad record: those before it are built to find an earlier one
        first = min(problems)
        for (kind, *_), run in runs:
            early = [item for item in run if item[0] < first]
            if early:
                _run_batch(kind, early, degrees, problems)
        raise InputError(problems[min(problems)])
    sources, kept = [], []
    for (kind, *_), run in runs:
        built, good = _run_batch(kind, run, degrees, problems)
        if problems and on_invalid is None:
            raise InputError(problems[min(problems)])
        sources.extend(built)
        kept.extend(good)
    _settle(problems, on_invalid)
    names = [str(numbered[k][1]["id"]) if "id" in numbered[k][1] else None for k in kept]
    if all(name is None for name in names):
        ids = np.array(kept, dtype=np.int64) if problems else None
    else:
        ids = np.array([str(k) if name is None else name for k, name in zip(kept, names)], dtype=object)
    return ids, sources


# -- public readers and writers -------------------------------------------------------------------


def read_shapes(path, *, degrees=False, on_invalid=None):
    """Read shapes from a CSV, Parquet, JSON or JSON Lines file.

    Parameters
    ----------
    path : str or path-like
        ``.csv`` or ``.parquet`` (an ellipse or circle catalogue, or shapes of any kinds),
        ``.json`` or ``.jsonl`` (mixed kinds). A ``.csv.gz`` is not read: decompress it first.
    degrees : bool, default False
        Angles in the file are in degrees.
    on_invalid : callable, optional
        Called with an :class:`InputError` for each bad row (a missing or non-numeric field, NaN or
        infinity, a radius <= 0, a number outside the supported range of magnitudes, an unknown kind, an invalid shape such as a non-convex polygon, a
        line of invalid JSON Lines), in file order; the row is then skipped. Without it the first
        bad row raises. Errors of the whole file (no header, not a JSON list, ...) always raise.

    Returns
    -------
    ids : ndarray of str (dtype object) of shape (n,), or None
        The ``id`` column or field; None when the file has none (shapes are then known by their
        row number, counted from 0). When rows were skipped from a file without ids, an int64
        array of the row numbers of the shapes kept (counted from 0, skipped rows included), so
        every shape keeps its number.
    shapes : Shape or list of Shape
        One batch for an ellipse or circle catalogue; for JSON and a CSV or Parquet file of any kinds a list of
        batches, one per run of consecutive records of one kind (and the same vertex count, and
        all with a radius or none), numbered in file order (what :func:`collide2d.query_pairs`
        takes).

    Raises
    ------
    InputError
        With the file name, the line number and the rule broken: also for bytes that are not
        UTF-8, numbers written with digit separators (``1_000``), integers too large for a float,
        JSON nested too deeply, Parquet columns that hold timestamps or text where numbers are
        needed, and a Parquet row of an unknown kind or with a null where its kind needs a number.

    Warns
    -----
    DegreesWarning
        Without ``degrees``, when an angle's magnitude exceeds 2 pi (once per file, naming the
        first such line and the largest angle).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from collide2d.io import read_shapes
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "cat.csv"
    >>> _ = path.write_text("x,y,rx,ry,angle\\n0,0,2,1,0\\n3,0,1,3,0\\n")
    >>> ids, shapes = read_shapes(path)
    >>> ids, shapes.shape
    (None, (2,))
    >>> _ = path.write_text("x,y,r\\n0,0,1\\n0,0,-1\\n")
    >>> read_shapes(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    collide2d.io.InputError: ...cat.csv line 3: radii must be positive, got -1.0
    >>> ids, shapes = read_shapes(path, on_invalid=lambda error: print("skipped:", error))  # doctest: +ELLIPSIS
    skipped: ...cat.csv line 3: radii must be positive, got -1.0
    >>> ids, shapes.shape
    (array([0]), (1,))

    A Parquet file of any kinds (needs pyarrow) names a bad row by its number, from 1, and its column:

    >>> import pyarrow as pa, pyarrow.parquet as pq
    >>> path = path.with_suffix(".parquet")
    >>> pq.write_table(pa.table({"kind": ["capsule", "box"], "x0": [0.0, None], "y0": [0.0, None], "x1": [2.0, None],
    ...                          "y1": [0.0, None], "radius": [0.5, None], "xmin": [None, 1.0], "ymin": [None, 1.0],
    ...                          "xmax": [None, 2.0], "ymax": [None, None]}), path)
    >>> read_shapes(path)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    collide2d.io.InputError: ...cat.parquet row 2, column ymax is null (a box needs it)
    """
    path = pathlib.Path(path)
    if path.is_dir():
        raise InputError(f"{path}: is a directory, not a file")
    if not path.exists():
        raise InputError(f"{path}: no such file")
    suffix = path.suffix.lower()
    notes = {}
    if suffix == ".csv" and not _is_old_catalogue(_csv_header(path)):
        result = _read_any_csv(path, degrees, on_invalid, notes)
        if not degrees:
            _warn_degrees(notes, path)
        return result
    if suffix in (".parquet", ".pq"):
        source = _parquet_source(path)
        if not _is_old_catalogue([name.lower() for name in source.schema_arrow.names]):
            result = _read_any_parquet(path, source, degrees, on_invalid, notes)
            if not degrees:
                _warn_degrees(notes, path)
            return result
    if suffix in (".csv", ".parquet", ".pq"):
        if suffix == ".csv":
            kind, columns, data, ids, kept = _read_csv(path, on_invalid, notes)
        else:
            kind, columns, data, ids, kept = _read_parquet(path, on_invalid, notes, source)
        if ids is None and kept is not None:
            ids = kept
        if not degrees:
            _warn_degrees(notes, path)
        return ids, _catalogue_shapes(kind, columns, data, degrees)
    if suffix in (".json", ".jsonl", ".ndjson"):
        result = _records_to_shapes(_json_records(path, suffix), degrees, on_invalid, notes)
        if not degrees:
            _warn_degrees(notes, path)
        return result
    raise InputError(f"{path}: unknown file type {suffix!r}; use .csv, .parquet, .json or .jsonl")


def shape_records(shapes, ids=None):
    """Yield one JSON-ready dict per single shape: ``kind``, the fields and ``id`` if given.

    Examples
    --------
    >>> import collide2d as c2
    >>> from collide2d.io import shape_records
    >>> list(shape_records([c2.Circle([(0, 0), (1, 2)], 1)], ids=["a", "b"]))[1]
    {'id': 'b', 'kind': 'circle', 'center': [1.0, 2.0], 'radius': 1.0}
    """
    sources = [shapes] if isinstance(shapes, _shapes.Shape) else list(shapes)
    k = 0
    for source in sources:
        kind = kind_name(source)
        names = tuple(name for name in _fields(kind) if name in source.fields)
        batch = source.shape
        flat = {name: source.fields[name].reshape((source.size,) + source.fields[name].shape[len(batch):]) for name in names}
        for m in range(source.size):
            record = {} if ids is None else {"id": str(ids[k])}
            record["kind"] = kind
            for name in names:
                value = flat[name][m]
                record[name] = value.tolist() if value.ndim else float(value)
            yield record
            k += 1


@contextlib.contextmanager
def _replacing(path):
    """Yield a temporary path next to ``path``; move it onto ``path`` only if the block succeeds.

    The temporary file is in the same directory (so the move is an atomic ``os.replace``) and has
    the same suffix (so writers that go by the suffix pick the same format). On any exception,
    Ctrl-C included, it is removed and an existing ``path`` is left untouched. A symbolic link is
    written through: its target gets the new content and the link stays. An existing file keeps
    its permissions; one this process may not write (``os.access``) is refused with a
    ``PermissionError``, as ``open(path, "w")`` would refuse it, not replaced. A device or a named
    pipe (``/dev/null``, ``/dev/stdout``) is written to directly: it cannot be replaced, and must
    not be.
    """
    path = pathlib.Path(path)
    if path.is_symlink():
        path = pathlib.Path(os.path.realpath(path))
    if path.is_dir():
        raise InputError(f"{path}: is a directory")
    if path.exists() and not path.is_file():  # a device or a pipe (/dev/null, /dev/stdout): written to, never replaced
        yield path
        return
    directory = path.parent
    if not directory.is_dir():
        raise InputError(f"{path}: no such directory {str(directory)!r}")
    if path.exists() and not os.access(path, os.W_OK):  # as open(path, "w") would refuse it: not replaced behind its back
        raise PermissionError(
            errno.EACCES, "permission denied (the file is not writable; collide2d does not replace it)", str(path)
        )
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=f".tmp{path.suffix}", dir=directory)
    except OSError as error:
        raise OSError(error.errno, error.strerror, str(path)) from None
    os.close(handle)
    try:
        try:
            mode = os.stat(path).st_mode & 0o7777
        except OSError:  # a new file: the mode open() would have given, not mkstemp's 0o600
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        yield pathlib.Path(temporary)
        os.chmod(temporary, mode)  # after writing: a read-only mode would stop the writer
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def write_shapes(path, shapes, ids=None):
    """Write shapes to a file that :func:`read_shapes` reads back to the same shapes.

    Parameters
    ----------
    path : str or path-like
        ``.csv`` or ``.parquet`` for one batch of ellipses (built from angles) or circles
        (columns ``id,x,y,rx,ry,angle`` or ``id,x,y,r``), or for any other shapes (a ``kind``
        column and the columns of the kinds present, ``radius`` last: see :mod:`collide2d.io`;
        in Parquet numbers as float64 and nulls for the fields a row's kind lacks); ``.json`` or
        ``.jsonl`` for any shapes. Numbers are written exactly (in text as ``repr`` writes them):
        read back, every shape is the same bit for bit.
    shapes : Shape or sequence of Shape
    ids : sequence of str, optional
        Written as the ``id`` column or field.

    Raises
    ------
    InputError
        For an unknown suffix, ``ids`` of another length than the shapes, or Parquet without pyarrow.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import collide2d as c2
    >>> from collide2d.io import read_shapes, write_shapes
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "two.jsonl"
    >>> write_shapes(path, [c2.Circle((0, 0), 1), c2.Box((1, 1), (2, 3))], ids=["c", "b"])
    >>> ids, shapes = read_shapes(path)
    >>> ids.tolist(), shapes
    (['c', 'b'], [Circle(center=(0.0, 0.0), radius=1.0), Box(min=(1.0, 1.0), max=(2.0, 3.0))])
    >>> path = path.with_suffix(".csv")  # a capsule and a rounded box: a CSV of any kinds
    >>> write_shapes(path, [c2.Capsule((0, 0), (2, 0), 0.5), c2.Box((1, 1), (2, 3), radius=0.25)])
    >>> print(path.read_text(), end="")
    kind,xmin,ymin,xmax,ymax,x0,y0,x1,y1,radius
    capsule,,,,,0.0,0.0,2.0,0.0,0.5
    box,1.0,1.0,2.0,3.0,,,,,0.25
    >>> read_shapes(path)[1]
    [Capsule(a=(0.0, 0.0), b=(2.0, 0.0), radius=0.5), Box(min=(1.0, 1.0), max=(2.0, 3.0), radius=0.25)]
    >>> path = path.with_suffix(".parquet")  # the same columns in Parquet's types (needs pyarrow)
    >>> write_shapes(path, [c2.Capsule((0, 0), (2, 0), 0.5), c2.Polygon([(0, 0), (1, 0), (0, 1)], radius=0.1)])
    >>> import pyarrow.parquet as pq
    >>> pq.read_table(path).to_pylist()[1]
    {'kind': 'polygon', 'x0': None, 'y0': None, 'x1': None, 'y1': None, 'vertices': [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]], 'radius': 0.1}
    >>> read_shapes(path)[1]
    [Capsule(a=(0.0, 0.0), b=(2.0, 0.0), radius=0.5), Polygon(vertices=([0.0, 0.0], [1.0, 0.0], [0.0, 1.0]), radius=0.1)]
    """
    path = pathlib.Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".json", ".jsonl", ".ndjson", ".csv", ".parquet", ".pq"):
        raise InputError(f"{path}: unknown file type {suffix!r}; use .csv, .parquet, .json or .jsonl")
    if suffix in (".csv", ".parquet", ".pq"):
        if isinstance(shapes, (list, tuple)) and len(shapes) == 1:
            shapes = shapes[0]
    shapes = shapes if isinstance(shapes, _shapes.Shape) else list(shapes)
    if ids is not None:
        count = sum(source.size for source in ([shapes] if isinstance(shapes, _shapes.Shape) else shapes))
        if len(ids) != count:
            raise InputError(f"{path}: {len(ids)} ids for {count} shapes; give one id per shape")
    if suffix in (".parquet", ".pq"):
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise InputError(f"{path}: writing Parquet needs pyarrow (pip install pyarrow)") from None
    with _replacing(path) as temporary:
        _write_shapes(temporary, suffix, shapes, ids)


def _old_catalogue(shapes):
    """True for one batch (or shape) of ellipses or of circles: the catalogue of columns ``x,y,rx,ry,angle``
    or ``x,y,r`` (not ellipses built from a direction, whose ``dx,dy`` a CSV of any kinds keeps)."""
    return isinstance(shapes, (_shapes.Ellipse, _shapes.Circle)) and "direction" not in shapes.fields


def _write_shapes(path, suffix, shapes, ids):
    if suffix in (".csv", ".parquet", ".pq") and not _old_catalogue(shapes):
        sources = [shapes] if isinstance(shapes, _shapes.Shape) else list(shapes)
        if suffix != ".csv":
            _write_any_parquet(path, sources, ids)
            return
        with open(path, "w", newline="") as handle:
            csv.writer(handle, lineterminator="\n").writerows(catalogue_lines(sources, ids))
        return
    if suffix in (".json", ".jsonl", ".ndjson"):
        with open(path, "w") as handle:
            if suffix == ".json":
                json.dump(list(shape_records(shapes, ids)), handle, indent=1)
                handle.write("\n")
            else:
                for record in shape_records(shapes, ids):
                    handle.write(json.dumps(record) + "\n")
        return
    fields = {name: value.reshape((shapes.size,) + value.shape[len(shapes.shape):]) for name, value in shapes.fields.items()}
    if isinstance(shapes, _shapes.Ellipse):
        columns = {"x": fields["center"][:, 0], "y": fields["center"][:, 1], "rx": fields["radii"][:, 0],
                   "ry": fields["radii"][:, 1], "angle": fields["angle"]}
    else:
        columns = {"x": fields["center"][:, 0], "y": fields["center"][:, 1], "r": fields["radius"]}
    if suffix == ".csv":
        with open(path, "w", newline="") as handle:
            names = (["id"] if ids is not None else []) + list(columns)
            handle.write(",".join(names) + "\n")
            block = np.column_stack(list(columns.values()))
            for start in range(0, len(block), CHUNK_ROWS):
                part = block[start : start + CHUNK_ROWS].tolist()
                prefix = [f"{ids[k]}," for k in range(start, start + len(part))] if ids is not None else [""] * len(part)
                handle.writelines(p + ",".join(map(repr, row)) + "\n" for p, row in zip(prefix, part))
        return
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(f"{path}: writing Parquet needs pyarrow (pip install pyarrow)") from None
    table = {"id": pa.array([str(x) for x in ids])} if ids is not None else {}
    table.update({name: pa.array(np.ascontiguousarray(values)) for name, values in columns.items()})
    pq.write_table(pa.table(table), path)


def _write_any_parquet(path, sources, ids):
    """Write the shapes ``sources`` (batches, in order) as a Parquet catalogue of any kinds: the
    columns of the CSV of any kinds (:func:`collide2d._io_text.catalogue_parts`), ``id`` and
    ``kind`` as strings, the numbers as float64 (null where a row's kind has no such field),
    ``vertices`` as a list of (x, y) pairs of float64 per polygon (null for the other rows)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    header, parts = catalogue_parts(sources)
    n = sum(size for size, _ in parts)
    columns = {} if ids is None else {"id": pa.array([str(ids[k]) for k in range(n)], type=pa.string())}
    columns["kind"] = pa.array([kind for _, part in parts for kind in part["kind"]], type=pa.string())
    for name in header[1:]:
        given, start = np.zeros(n, dtype=bool), 0
        for size, part in parts:
            given[start : start + size] = name in part
            start += size
        if name == "vertices":
            columns[name] = _vertex_column(parts, given)
            continue
        values = np.zeros(n)
        values[given] = np.concatenate([part[name] for _, part in parts if name in part])
        columns[name] = pa.array(values, type=pa.float64(), mask=~given)
    pq.write_table(pa.table(columns), path)


def _vertex_column(parts, given):
    """The ``vertices`` column: a list of (x, y) pairs (lists of two float64) per polygon row,
    null for the rows of other kinds."""
    import pyarrow as pa

    counts = np.zeros(len(given), dtype=np.int64)
    counts[given] = np.concatenate([np.full(size, part["vertices"].shape[1] // 2) for size, part in parts if "vertices" in part])
    numbers = np.concatenate([part["vertices"].ravel() for _, part in parts if "vertices" in part])
    wide = len(numbers) >= 2**31  # beyond int32 offsets: large lists
    lists, offset = (pa.LargeListArray, np.int64) if wide else (pa.ListArray, np.int32)
    pairs = lists.from_arrays(pa.array(np.arange(0, len(numbers) + 1, 2, dtype=offset)), pa.array(numbers, type=pa.float64()))
    bounds = np.concatenate([[0], np.cumsum(counts)]).astype(offset)
    return lists.from_arrays(pa.array(bounds), pairs, mask=pa.array(~given))
