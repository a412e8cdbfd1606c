"""Reading and writing shapes: catalogue files, mixed-kind files and inline text.

Formats
-------
* CSV with a header. An ellipse catalogue has the columns ``x, y, rx, ry`` and optionally
  ``angle`` (radians, or degrees with ``degrees=True``) and ``id``; a circle catalogue ``x, y, r``
  and optionally ``id``. Other columns are ignored; column names are case-insensitive.
* Parquet (``.parquet``, needs ``pyarrow``): the same columns as CSV.
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
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import itertools
import json
import math
import os
import pathlib
import re
import sys
import tempfile
import warnings

import numpy as np

from collide2d import shapes as _shapes
from collide2d._degrees import TWO_PI, DegreesWarning
from collide2d._degrees import angle_note as _angle_note
from collide2d._degrees import warn_degrees as _warn_degrees
from collide2d._validate import ASPECT_MAX, MAGNITUDE_MAX, RANGE_TEXT, SIZE_MIN

__all__ = ["DegreesWarning", "InputError", "format_shape", "parse_shape", "read_shapes", "shape_records", "write_shapes"]

CHUNK_ROWS = 1 << 16  # rows parsed at a time from a catalogue


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
_KIND_OF_CLASS = {cls: kind for kind, (cls, _) in _KINDS.items()}
_OPTIONAL = {"angle"}
_INLINE_ALIASES = {"rotbox": "rotated_box", "rotated-box": "rotated_box", "rbox": "rotated_box", "rotatedbox": "rotated_box"}
_INLINE_COUNTS = {"point": (2,), "circle": (3,), "ellipse": (4, 5), "box": (4,), "rotated_box": (4, 5), "segment": (4,), "line": (4,)}


def kind_name(shape):
    """Return the file kind name of a shape (``"circle"``, ``"rotated_box"``, ...)."""
    return _KIND_OF_CLASS[type(shape)]


def _in_degrees(token):
    """True when an inline number carries a degree suffix (``deg`` or the degree sign)."""
    return token.strip().lower().endswith(("deg", "\N{DEGREE SIGN}"))


def _plain_number(text):
    """True when ``text`` is written as a plain number: ASCII and without digit separators."""
    return text.isascii() and "_" not in text


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
    ``line X Y DX DY``. Angles are radians, or degrees with a ``deg`` suffix (``30deg``, also
    ``30°``). Commas count as spaces.

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
        return _KINDS[kind][0](*args)
    except (ValueError, TypeError) as error:
        raise InputError(f"shape {text!r}: {error}") from None


def format_shape(shape):
    """Write a single shape in the inline form that :func:`parse_shape` reads.

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
    return " ".join([kind] + [repr(float(x)) for x in numbers])


# -- catalogues (CSV, Parquet) ---------------------------------------------------------------------


def _catalogue_columns(header, where):
    """Return ``(kind, value columns)`` of a catalogue header (lower-case names)."""
    names = set(header)
    if {"x", "y", "rx", "ry"} <= names:
        return "ellipse", ["x", "y", "rx", "ry"] + (["angle"] if "angle" in names else [])
    if {"x", "y", "r"} <= names:
        return "circle", ["x", "y", "r"]
    raise InputError(
        f"{where}: the header must name x,y,rx,ry[,angle][,id] (ellipses) or x,y,r[,id] (circles); "
        f"got {','.join(header)}"
    )


def _block_problems(data, columns, lines, path, problems):
    """Add ``{row: message}`` for rows of a parsed block that make no shape: a non-finite number,
    a radius <= 0, or a number outside the supported range of magnitudes (see
    :func:`collide2d._validate.check_range`: coordinates within ``MAGNITUDE_MAX``, radii in
    ``[SIZE_MIN, MAGNITUDE_MAX]`` and an ellipse's radii within a factor ``ASPECT_MAX``), which
    the constructor would refuse for the whole block without naming the row."""
    radii = data[:, 2:4] if columns[2] == "rx" else data[:, 2:3]
    if data.size and _all_good(data, radii):
        return problems
    finite = np.isfinite(data)
    if not finite.all():
        for row, col in np.argwhere(~finite):
            if row not in problems:
                problems[row] = f"{path} line {lines[row]}, column {columns[col]}: {float(data[row, col])!r} is not finite"
    for row in np.flatnonzero(np.any(radii <= 0, axis=1)).tolist():
        if row not in problems:
            problems[row] = f"{path} line {lines[row]}: radii must be positive, got {', '.join(map(repr, radii[row].tolist()))}"
    outside = np.zeros(data.shape, dtype=bool)  # NaN compares False: those rows are reported above
    outside[:, 0:2] = ~(np.abs(data[:, 0:2]) <= MAGNITUDE_MAX)
    outside[:, 2 : 2 + radii.shape[1]] = ~((radii >= SIZE_MIN) & (radii <= MAGNITUDE_MAX))
    thin = ~(np.max(radii, axis=1) * (1.0 / ASPECT_MAX) <= np.min(radii, axis=1))  # exact scaling: no overflow
    for row, col in np.argwhere(outside).tolist():
        if row not in problems:
            what = "coordinates, +-2**500 (about 3.27e150)" if col < 2 else f"sizes, {RANGE_TEXT}"
            problems[row] = f"{path} line {lines[row]}, column {columns[col]}: {float(data[row, col])!r} is outside the supported range of {what}"
    for row in np.flatnonzero(thin).tolist():
        if row not in problems:
            problems[row] = (
                f"{path} line {lines[row]}: radii {', '.join(map(repr, radii[row].tolist()))} differ by more than a factor "
                "2**100 (about 1.27e30), the supported range of an ellipse's aspect ratio"
            )
    return problems


def _all_good(data, radii):
    """True when no row of a block breaks a rule of :func:`_block_problems`: a few whole-array
    reductions, where finding the rows takes many passes (a NaN makes every comparison False)."""
    coordinates = np.abs(data[:, 0:2]).max()
    smallest, largest = radii.min(), radii.max()
    return bool(
        np.isfinite(data).all()
        and coordinates <= MAGNITUDE_MAX
        and SIZE_MIN <= smallest
        and largest <= MAGNITUDE_MAX
        and (radii.shape[1] == 1 or np.all(np.max(radii, axis=1) * (1.0 / ASPECT_MAX) <= np.min(radii, axis=1)))
    )


def _parse_block(rows, lines, where, columns, path, problems):
    """Turn a block of CSV records into an ``(n, len(columns))`` float64 array; add bad rows to ``problems``."""
    out = np.empty((len(rows), len(columns)))
    for c, (k, name) in enumerate(zip(where, columns)):
        column = [record[k] for record in rows]
        try:
            if not _plain_number("".join(column)):  # float() reads "1_000" and non-ASCII digits: refuse them
                raise ValueError(name)
            out[:, c] = np.array(column, dtype=np.float64)
        except ValueError:
            for row, token in enumerate(column):  # one by one, to name each offending row
                try:
                    if not _plain_number(token):
                        raise ValueError(token)
                    out[row, c] = float(token)
                except ValueError:
                    out[row, c] = np.nan
                    if row not in problems:
                        problem = " is empty" if not token.strip() else f": {token!r} is not a number"
                        problems[row] = f"{path} line {lines[row]}, column {name}{problem}"
    return out


def _settle(problems, on_invalid):
    """Raise the first problem (by row), or hand each to ``on_invalid``; return the bad rows."""
    bad = sorted(problems)
    if bad and on_invalid is None:
        raise InputError(problems[bad[0]])
    for row in bad:
        on_invalid(InputError(problems[row]))
    return bad


def _not_utf8(path, error=None, data=None):
    """An :class:`InputError` naming the line and column of the first bytes of ``path`` that are not UTF-8."""
    if data is not None and error is not None:  # the whole file was decoded at once
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        bad = data[error.start : error.start + 1]
    else:
        with open(path, "rb") as handle:
            for line, raw in enumerate(handle, start=1):
                try:
                    raw.decode("utf-8-sig" if line == 1 else "utf-8")
                except UnicodeDecodeError as found:
                    column, bad = found.start + 1, raw[found.start : found.start + 1]
                    break
            else:  # pragma: no cover - the caller saw an error, so some line has one
                line, column, bad = 1, 1, b"?"
    return InputError(f"{path} line {line}, column {column}: byte 0x{bad.hex()} is not UTF-8 text; save the file as UTF-8")


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
# the whole file to the csv module.

#: The parsers tried in order by ``read_shapes`` for CSV; ``"python"`` (the csv module) always works.
CSV_ENGINES = ("pyarrow", "pandas", "numpy", "python")


class _Fallback(Exception):
    """The fast path cannot reproduce the csv module's reading of this file."""


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


def _parse_pyarrow(path, header, where, id_column, quoted):
    import pyarrow as pa
    import pyarrow.csv as pa_csv

    names = [f"c{k}" for k in range(len(header))]
    wanted = [names[k] for k in where] + ([names[id_column]] if id_column is not None else [])
    types = {name: pa.float64() for name in wanted}
    if id_column is not None:
        types[names[id_column]] = pa.string()
    table = pa_csv.read_csv(
        path,
        read_options=pa_csv.ReadOptions(skip_rows=1, column_names=names, encoding="utf8"),
        parse_options=pa_csv.ParseOptions(newlines_in_values=quoted),
        convert_options=pa_csv.ConvertOptions(
            include_columns=wanted, column_types=types, null_values=[], strings_can_be_null=False,
            quoted_strings_can_be_null=False, true_values=[], false_values=[],
        ),
    )
    data = np.column_stack([_arrow_floats(table.column(names[k])) for k in where]) if table.num_rows else np.zeros((0, len(where)))
    ids = None
    if id_column is not None:
        import pyarrow.compute as pc

        column = table.column(names[id_column])
        ids = np.array(_arrow_strings(column) + [None], dtype=object)[:-1]  # [None]: a 1-d array even of tuples
        padded = pc.match_substring_regex(column, f"^[{_SPACES}]|[{_SPACES}]$")  # the few that str.strip changes
        if pc.any(padded).as_py():
            for k in _arrow_floats(pc.indices_nonzero(padded), np.uint64).tolist():
                ids[k] = ids[k].strip()
    return data, ids


# pyarrow's to_numpy and to_pylist import pandas (half a second, longer than reading the file), so
# the columns are taken from their buffers: no nulls here (null_values=[]), the values buffer of a
# number column, the int32 offsets and the bytes of a string column (Arrow columnar format).


def _arrow_floats(column, dtype=np.float64):
    parts = []
    for chunk in getattr(column, "chunks", [column]):  # a ChunkedArray or an Array
        if chunk.null_count:
            raise _Fallback
        parts.append(np.frombuffer(chunk.buffers()[1], dtype=dtype, count=len(chunk), offset=chunk.offset * np.dtype(dtype).itemsize))
    return np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)


def _arrow_strings(column):
    values = []
    for chunk in column.chunks:
        if chunk.null_count:
            raise _Fallback
        _, offsets, data = chunk.buffers()
        bounds = np.frombuffer(offsets, dtype=np.int32, count=len(chunk) + 1, offset=chunk.offset * 4).tolist()
        raw = data.to_pybytes() if data is not None else b""
        if raw.isascii():  # one decode, then slices: byte offsets are character offsets
            text = raw.decode("ascii")
            values.extend(text[a:b] for a, b in zip(bounds[:-1], bounds[1:]))
        else:
            values.extend(raw[a:b].decode("utf-8") for a, b in zip(bounds[:-1], bounds[1:]))
    return values


def _parse_pandas(path, header, where, id_column, quoted):
    import pandas as pd

    names = [f"c{k}" for k in range(len(header))]
    types = {names[k]: np.float64 for k in where}
    if id_column is not None:
        types[names[id_column]] = str
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a parser warning (a ragged row, ...) is a refusal here
        frame = pd.read_csv(
            path, header=None, skiprows=1, names=names, usecols=list(types), dtype=types, engine="c",
            na_filter=False, index_col=False, skip_blank_lines=True, encoding="utf-8", quotechar='"', doublequote=True,
        )
    data = np.column_stack([frame[names[k]].to_numpy(dtype=np.float64) for k in where]) if len(frame) else np.zeros((0, len(where)))
    ids = [value.strip() for value in frame[names[id_column]].tolist()] if id_column is not None else None
    return data, ids


def _parse_numpy(path, header, where, id_column, quoted):
    options = {"delimiter": ",", "skiprows": 1, "comments": None, "quotechar": '"', "encoding": "utf-8-sig", "ndmin": 2}
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # np.loadtxt warns of an empty file: a refusal here
        data = np.loadtxt(path, usecols=where, dtype=np.float64, **options).reshape(-1, len(where))
        ids = [str(value).strip() for value in np.loadtxt(path, usecols=[id_column], dtype=str, **options)[:, 0].tolist()] if id_column is not None else None
    return data, ids


#: The characters ``str.strip()`` removes (those whose ``isspace()`` is true), as a regex class.
_SPACES = "\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"

_PARSERS = {"pyarrow": _parse_pyarrow, "pandas": _parse_pandas, "numpy": _parse_numpy}


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


class _LineNumbers:
    """The file line of each data row (1-based, the header is line 1), found on first use.

    Valid when every record is one line: a blank line (the only lines the fast parsers skip) holds
    no record, and any other line holds one. A count that does not match (a quoted field spanning
    lines) raises :class:`_Fallback`.
    """

    def __init__(self, path, count):
        self.path, self.count, self._lines = path, count, None

    def lines(self):
        if self._lines is None:
            numbers = []
            with open(self.path, newline="", encoding="utf-8-sig") as handle:  # the csv module's line ends
                for number, text in enumerate(handle, start=1):
                    if number > 1 and text.strip("\r\n"):
                        numbers.append(number)
            if len(numbers) != self.count:
                raise _Fallback
            self._lines = np.array(numbers, dtype=np.int64)
        return self._lines

    def __getitem__(self, row):
        return self.lines()[row]


def _exact_problems(path, problems, line_numbers, where, columns):
    """The csv module's message of each flagged row: its line parsed again with float()."""
    rows = sorted(problems)
    wanted = {int(line_numbers[row]): row for row in rows}
    records = {}
    with open(path, newline="", encoding="utf-8-sig") as handle:
        for number, text in enumerate(handle, start=1):
            if number in wanted:
                records[wanted[number]] = next(csv.reader([text]))
    needed = max(where) + 1
    if len(records) != len(rows) or any(len(records[row]) < needed for row in rows):
        raise _Fallback
    exact = {}
    lines = [int(line_numbers[row]) for row in rows]
    data = _parse_block([records[row] for row in rows], lines, where, columns, path, exact)
    _block_problems(data, columns, lines, path, exact)
    if len(exact) != len(rows):  # float() reads a flagged row as a good one: never guess
        raise _Fallback
    return {row: exact[k] for k, row in enumerate(rows)}


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


class _Rows:
    """``lines[rows[k]]`` on demand."""

    def __init__(self, lines, rows):
        self.lines, self.rows = lines, rows

    def __getitem__(self, k):
        return self.lines[self.rows[k]]


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


def _numeric_columns(schema, names, columns, where):
    """Refuse catalogue columns that are not integers or floats (timestamps, text, booleans ...)."""
    import pyarrow as pa

    for name in columns:
        kind = schema.field(names[name]).type
        if not (pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind)):
            raise InputError(f"{where}: column {names[name]} holds {kind}, not numbers; the columns {', '.join(columns)} must be numeric")


def _read_parquet(path, on_invalid=None, notes=None):
    notes = {} if notes is None else notes
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(f"{path}: reading Parquet needs pyarrow (pip install pyarrow)") from None
    try:
        source = pq.ParquetFile(path)
    except Exception as error:  # pyarrow raises its own exception types for broken files
        raise InputError(f"{path}: not a readable Parquet file ({error})") from None
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
    fields = _KINDS[kind][1]
    missing = [name for name in fields if name not in record and name not in _OPTIONAL]
    if missing:
        raise InputError(f"{where}: a {kind} needs the field(s) {', '.join(missing)}")
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
    cls, fields = _KINDS[kind]
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
    cls, fields = _KINDS[kind]
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
        key = (kind, _vertex_shape(record) if kind == "polygon" else None)
        if not runs or runs[-1][0] != key:
            runs.append((key, []))
        runs[-1][1].append((k, where, record))
    if problems and on_invalid is None:
        raise InputError(problems[min(problems)])  # the first bad record, before any is built
    sources, kept = [], []
    for (kind, _), run in runs:
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


class _HugeInt(float):
    """A JSON integer too large for a float: infinite as a number, its digits kept for messages."""

    def __new__(cls, text):
        value = super().__new__(cls, "-inf" if text.startswith("-") else "inf")
        value.text = text
        return value

    def short(self):
        digits = len(self.text.lstrip("-"))
        return self.text if digits <= 12 else f"{self.text[:6]}...{self.text[-3:]} ({digits} digits)"

    def __str__(self):
        return self.text

    __repr__ = __str__


def _json_int(text):
    """Python's int of a JSON integer, or a :class:`_HugeInt` beyond float range (or beyond the
    4300 digits Python converts)."""
    if len(text) < 19:
        return int(text)
    try:
        value = int(text)
        float(value)
    except (ValueError, OverflowError):
        return _HugeInt(text)
    return value


_DECODER = json.JSONDecoder(parse_int=_json_int)
_SPACE = re.compile(r"[ \t\n\r]*")


def _json_list(path, text):
    """``[(where, record)]`` of a JSON list, each item decoded on its own so that it has a line."""
    decoder, pos = _DECODER, _SPACE.match(text).end()
    if not text.startswith("[", pos):
        try:
            decoder.decode(text)
        except json.JSONDecodeError as error:
            raise InputError(f"{path} line {error.lineno}: invalid JSON ({error.msg})") from None
        except RecursionError:
            raise InputError(f"{path}: JSON nested too deeply") from None
        raise InputError(f"{path}: expected a JSON list of shape objects")
    numbered, line, counted = [], 1, 0
    pos = _SPACE.match(text, pos + 1).end()
    if text.startswith("]", pos):
        pos += 1
    else:
        while True:
            line += text.count("\n", counted, pos)
            counted = pos
            where = f"{path} line {line}, item {len(numbered)} (counted from 0)"
            try:
                record, pos = decoder.raw_decode(text, pos)
            except json.JSONDecodeError as error:
                raise InputError(f"{path} line {error.lineno}: invalid JSON ({error.msg})") from None
            except RecursionError:
                raise InputError(f"{where}: JSON nested too deeply") from None
            numbered.append((where, record))
            pos = _SPACE.match(text, pos).end()
            if text.startswith(",", pos):
                pos = _SPACE.match(text, pos + 1).end()
                continue
            if text.startswith("]", pos):
                pos += 1
                break
            line += text.count("\n", counted, pos)
            raise InputError(f"{path} line {line}: invalid JSON (expected ',' or ']' after item {len(numbered) - 1})")
    pos = _SPACE.match(text, pos).end()
    if pos < len(text):
        raise InputError(f"{path} line {text.count(chr(10), 0, pos) + 1}: invalid JSON (extra data after the list)")
    return numbered


def _json_records(path, suffix):
    """``[(where, record)]`` of a JSON or JSON Lines file; a bad line of JSON Lines gives an InputError as record."""
    if suffix == ".json":
        data = pathlib.Path(path).read_bytes()
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as error:
            raise _not_utf8(path, error, data) from None
        return _json_list(path, text)
    numbered = []
    with open(path, "rb") as handle:
        for line, raw in enumerate(handle, start=1):
            where = f"{path} line {line}"
            try:
                text = raw.decode("utf-8-sig" if line == 1 else "utf-8")
            except UnicodeDecodeError as error:
                numbered.append((where, InputError(f"{where}, column {error.start + 1}: byte 0x{raw[error.start:error.start + 1].hex()} is not UTF-8 text")))
                continue
            if text.strip():
                try:
                    numbered.append((where, _DECODER.decode(text)))
                except json.JSONDecodeError as error:
                    numbered.append((where, InputError(f"{where}: invalid JSON ({error.msg})")))
                except RecursionError:
                    numbered.append((where, InputError(f"{where}: JSON nested too deeply")))
    return numbered


# -- public readers and writers -------------------------------------------------------------------


def read_shapes(path, *, degrees=False, on_invalid=None):
    """Read shapes from a CSV, Parquet, JSON or JSON Lines file.

    Parameters
    ----------
    path : str or path-like
        ``.csv`` or ``.parquet`` (ellipse or circle catalogue), ``.json`` or ``.jsonl`` (mixed
        kinds). A ``.csv.gz`` is not read: decompress it first.
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
        One batch for a catalogue; for JSON a list of batches, one per run of consecutive
        records of one kind, numbered in file order (what :func:`collide2d.query_pairs` takes).

    Raises
    ------
    InputError
        With the file name, the line number and the rule broken: also for bytes that are not
        UTF-8, numbers written with digit separators (``1_000``), integers too large for a float,
        JSON nested too deeply, and Parquet columns that hold timestamps or text.

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
    """
    path = pathlib.Path(path)
    if path.is_dir():
        raise InputError(f"{path}: is a directory, not a file")
    if not path.exists():
        raise InputError(f"{path}: no such file")
    suffix = path.suffix.lower()
    notes = {}
    if suffix in (".csv", ".parquet", ".pq"):
        reader = _read_csv if suffix == ".csv" else _read_parquet
        kind, columns, data, ids, kept = reader(path, on_invalid, notes)
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
        names = _KINDS[kind][1]
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
    its permissions. A device or a named pipe (``/dev/null``, ``/dev/stdout``) is written to
    directly: it cannot be replaced, and must not be.
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
        ``.csv`` or ``.parquet`` for one batch of ellipses or circles (columns
        ``id,x,y,rx,ry,angle`` or ``id,x,y,r``); ``.json`` or ``.jsonl`` for any shapes.
    shapes : Shape or sequence of Shape
    ids : sequence of str, optional
        Written as the ``id`` column or field.

    Raises
    ------
    InputError
        For an unknown suffix, or shapes a catalogue format cannot hold.

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
    """
    path = pathlib.Path(path)
    suffix = path.suffix.lower()
    if suffix not in (".json", ".jsonl", ".ndjson", ".csv", ".parquet", ".pq"):
        raise InputError(f"{path}: unknown file type {suffix!r}; use .csv, .parquet, .json or .jsonl")
    if suffix in (".csv", ".parquet", ".pq"):
        if isinstance(shapes, (list, tuple)) and len(shapes) == 1:
            shapes = shapes[0]
        if not isinstance(shapes, (_shapes.Ellipse, _shapes.Circle)):
            raise InputError(f"{path}: a {suffix[1:]} catalogue holds one batch of ellipses or of circles; use .jsonl for mixed kinds")
    if suffix in (".parquet", ".pq"):
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise InputError(f"{path}: writing Parquet needs pyarrow (pip install pyarrow)") from None
    with _replacing(path) as temporary:
        _write_shapes(temporary, suffix, shapes, ids)


def _write_shapes(path, suffix, shapes, ids):
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
