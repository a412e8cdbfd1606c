"""Bytes and text to numbers, for :mod:`collide2d.io`: the C parsers of a CSV catalogue's columns
(pyarrow, pandas, NumPy) with the file lines of their rows, JSON decoded item by item with its
line numbers, the columns of a catalogue of any kinds (their rules shared by CSV and Parquet, the
rows of each as records) and the :class:`InputError` every reader raises. No shape is built here.

Why this file is over 800 lines: it holds the number reading of every file format, each with a
fast path over whole columns and a row-by-row path that names the bad row, kept side by side so
that both give the same numbers and messages.
"""

from __future__ import annotations

import csv
import json
import pathlib
import re
import warnings

import numpy as np

from collide2d import _formats
from collide2d._validate import ASPECT_MAX, MAGNITUDE_MAX, RANGE_TEXT, SIZE_MIN


class InputError(ValueError):
    """A file or an inline shape that cannot be read; the message says where and why."""

    __module__ = "collide2d.io"  # its public home (collide2d.io re-exports it)


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


class _Fallback(Exception):
    """The fast path cannot reproduce the csv module's reading of this file."""


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


class _Rows:
    """``lines[rows[k]]`` on demand."""

    def __init__(self, lines, rows):
        self.lines, self.rows = lines, rows

    def __getitem__(self, k):
        return self.lines[self.rows[k]]


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


# -- a catalogue's columns: names, the values' checks, the rows the csv module reads --------------


def _plain_number(text):
    """True when ``text`` is written as a plain number: ASCII and without digit separators."""
    return text.isascii() and "_" not in text


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


def _numeric_columns(schema, names, columns, where):
    """Refuse catalogue columns that are not integers or floats (timestamps, text, booleans ...)."""
    import pyarrow as pa

    for name in columns:
        kind = schema.field(names[name]).type
        if not (pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind)):
            raise InputError(f"{where}: column {names[name]} holds {kind}, not numbers; the columns {', '.join(columns)} must be numeric")


# -- a catalogue of any kinds: a kind column, or the columns of one kind other than ellipses and circles


#: Inline and file spellings of the kinds, besides their own names.
KIND_ALIASES = {"rotbox": "rotated_box", "rotated-box": "rotated_box", "rbox": "rotated_box", "rotatedbox": "rotated_box"}

HEADER_RULE = (
    "the header must name x,y,rx,ry[,angle][,id] (ellipses) or x,y,r[,id] (circles); or the columns of "
    "one other kind (" + "; ".join(
        f"{kind}: {','.join(c if not _formats.optional_column(kind, c) else f'[{c}]' for c in columns)}"
        for kind, columns in _formats.CATALOGUE_COLUMNS.items() if kind not in ("ellipse", "circle", "point")
    ) + "); or a kind column with the columns of the kinds it names"
)


def _is_old_catalogue(header):
    """True for the header of an ellipse or circle catalogue without a kind column: read by the
    column parsers, as it always was; also for no header (None), which that reader reports."""
    if header is None:
        return True
    names = set(header)
    return "kind" not in names and ({"x", "y", "rx", "ry"} <= names or {"x", "y", "r"} <= names)


def _mixed_layout(header, where):
    """``(fixed kind or None, {catalogue name: column index})`` of a catalogue of any kinds."""
    for name in set(header):
        if header.count(name) > 1 and (name in _formats.CATALOGUE_NAMES or name in ("kind", "id")):
            raise InputError(f"{where}: the column {name} appears twice; rename or drop one")
    fixed = None
    if "kind" not in header:
        try:
            fixed = _formats.kind_of_columns(header, name="the header")
        except ValueError as error:
            if "has the columns of" in str(error):
                raise InputError(f"{where}: {error}") from None
            fixed = None
        if fixed in (None, "point"):  # x, y alone: more likely an ellipse catalogue short of columns
            raise InputError(f"{where}: {HEADER_RULE}; got {','.join(header)}")
    columns = {name: header.index(name) for name in _formats.CATALOGUE_NAMES + ("kind", "id") if name in header}
    return fixed, columns


def _csv_number(token, where, name):
    if not _plain_number(token):
        raise InputError(f"{where}, column {name}: {token!r} is not a number")
    try:
        return float(token)
    except ValueError:
        raise InputError(f"{where}, column {name}: {token!r} is not a number") from None


def vertex_text(text):
    """The vertices ``(k, 2)`` of a polygon written ``x1 y1 x2 y2 ...`` (commas count as spaces), as
    float64; ValueError naming the problem."""
    words = text.replace(",", " ").split()
    if len(words) < 6 or len(words) % 2:
        raise ValueError(f"a polygon needs an even number (>= 6) of coordinates, written x1 y1 x2 y2 ...; got {len(words)}")
    for word in words:
        if not _plain_number(word):
            raise ValueError(f"{word!r} is not a number")
    try:
        return np.array(words, dtype=np.float64).reshape(-1, 2)
    except ValueError:
        bad = next(word for word in words if not _is_float(word))
        raise ValueError(f"{bad!r} is not a number") from None


def _is_float(word):
    try:
        float(word)
    except ValueError:
        return False
    return True


def catalogue_record(kind, names, raw_of, number_of, where, blank="empty"):
    """The record (a dict as JSON gives, see :mod:`collide2d.io`) of one row of ``kind`` of a
    catalogue of any kinds, CSV or Parquet: the rules of the columns, shared by both.

    ``names`` are the catalogue columns the file has (``kind`` and ``id`` are skipped);
    ``raw_of(name)`` gives the row's raw value in a column (a CSV field stripped, a Parquet value),
    None when it is empty (CSV) or null (Parquet); ``number_of(name, raw)`` reads a raw value (a
    polygon's vertices as a list of pairs), raising an :class:`InputError` that names the column.
    A row fills the columns of its kind and leaves the others ``blank``; a column its kind needs
    must be given (``angle``, ``dx, dy`` and a ``radius`` that rounds a box, rotated box or
    polygon may be left blank). The ``id`` is the caller's.

    Examples
    --------
    A rounded box's row of a CSV (text fields) and of a Parquet file (numbers, nulls) give one record:

    >>> from collide2d._io_text import catalogue_record
    >>> names = ["kind", "xmin", "ymin", "xmax", "ymax", "x0", "radius"]
    >>> csv_row = dict(zip(names, ["box", "0", "0", "2", "1", "", "0.25"]))
    >>> catalogue_record("box", names, lambda name: csv_row[name] or None, lambda name, raw: float(raw), "f.csv line 2")
    {'kind': 'box', 'min': [0.0, 0.0], 'max': [2.0, 1.0], 'radius': 0.25}
    >>> parquet_row = dict(zip(names, ["box", 0.0, 0.0, 2.0, 1.0, None, 0.25]))
    >>> catalogue_record("box", names, parquet_row.get, lambda name, raw: raw, "f.parquet row 1", blank="null")
    {'kind': 'box', 'min': [0.0, 0.0], 'max': [2.0, 1.0], 'radius': 0.25}
    >>> parquet_row["x0"] = 3.0
    >>> catalogue_record("box", names, parquet_row.get, lambda name, raw: raw, "f.parquet row 1", blank="null")
    Traceback (most recent call last):
    ...
    collide2d.io.InputError: f.parquet row 1, column x0: a box has no x0; leave it null (got 3.0)
    """
    own = _formats.CATALOGUE_COLUMNS[kind]
    values = {}
    for name in names:
        if name in ("kind", "id"):
            continue
        raw = raw_of(name)
        if name not in own:
            if raw is not None:
                raise InputError(f"{where}, column {name}: a {kind} has no {name}; leave it {blank} (got {raw!r})")
            continue
        if raw is None:
            if _formats.optional_column(kind, name):
                continue
            raise InputError(f"{where}, column {name} is {blank} (a {kind} needs it)")
        values[name] = number_of(name, raw)
    missing = [name for name in own if name not in names and not _formats.optional_column(kind, name)]
    if missing:
        raise InputError(f"{where}: a {kind} needs the column(s) {', '.join(missing)}")
    record = {"kind": kind}
    for field, columns in _formats.CATALOGUE_FIELDS[kind]:
        given = [name for name in columns if name in values]
        if given and len(given) < len(columns):  # half a direction (dx without dy): not dropped in silence
            lacking = next(name for name in columns if name not in values)
            state = f"is {blank}" if lacking in names else "is missing"
            raise InputError(
                f"{where}, column {lacking} {state} while {given[0]} is given: the {field} needs both {' and '.join(columns)}"
            )
        if all(name in values for name in columns):
            record[field] = [values[name] for name in columns] if len(columns) == 2 else values[columns[0]]
    return record


def _csv_record(row, kind, columns, where):
    """The record of one row of ``kind`` of a CSV catalogue of any kinds (see :func:`catalogue_record`)."""

    def raw_of(name):
        return row[columns[name]].strip() or None

    def number_of(name, token):
        if name != "vertices":
            return _csv_number(token, where, name)
        try:
            return vertex_text(token).tolist()
        except ValueError as error:
            raise InputError(f"{where}, column vertices: {error}") from None

    record = catalogue_record(kind, columns, raw_of, number_of, where)
    if "id" in columns:
        record["id"] = row[columns["id"]].strip()
    return record


def unknown_kind(where, raw):
    """The :class:`InputError` of a row whose ``kind`` column names no shape kind."""
    return InputError(
        f"{where}, column kind: {raw!r} is not a shape kind; use one of {', '.join(_formats.CATALOGUE_COLUMNS)} (a column "
        "named kind gives each row's shape kind: rename it if it means something else)"
    )


def kind_of_text(text):
    """The kind a ``kind`` field names (stripped, any case, aliases read), or None."""
    raw = text.strip().lower()
    kind = KIND_ALIASES.get(raw, raw)
    return kind if kind in _formats.CATALOGUE_COLUMNS else None


def columns_fit_kinds(name, kinds, written):
    """True when every row (``kinds``, an object array) fills the column ``name`` if (``written``,
    a bool array) and only if its kind has it, or leaves it empty where it is optional."""
    having = [kind for kind, own in _formats.CATALOGUE_COLUMNS.items() if name in own]
    own = np.isin(kinds, having)
    required = own & ~np.isin(kinds, [kind for kind in having if _formats.optional_column(kind, name)])
    return not (np.any(written & ~own) or np.any(required & ~written))


def _catalogue_rows(path, reader, header):
    """``(layout, rows, lines)``: the layout of a CSV catalogue of any kinds (``(fixed kind or None,
    {catalogue name: column index}, fields needed)``), its data rows as the csv module reads them
    (blank lines skipped) and their lines (``reader`` is past the header)."""
    fixed, columns = _mixed_layout(header, f"{path} line 1")
    layout = (fixed, columns, max(columns.values()) + 1)
    rows, lines = [], []
    try:
        for row in reader:
            if not row or (len(row) == 1 and not row[0].strip()):
                continue  # blank line
            rows.append(row)
            lines.append(reader.line_num)
    except csv.Error as error:
        raise InputError(f"{path} line {reader.line_num}: {error}") from None
    return layout, rows, lines


def _row_kind(row, layout):
    """The kind of a row (aliases read), or None when its kind column names none."""
    fixed, columns, _ = layout
    return fixed if fixed is not None else kind_of_text(row[columns["kind"]])


def _catalogue_records(path, header, layout, rows, lines):
    """``[(where, record or InputError)]``: each row of a CSV catalogue of any kinds as the record
    JSON would give for it (the slow path, which names every bad row)."""
    numbered = []
    for row, line in zip(rows, lines):
        where = f"{path} line {line}"
        if len(row) < layout[2]:
            numbered.append((where, InputError(f"{where}: expected {len(header)} fields, got {len(row)}")))
            continue
        kind = _row_kind(row, layout)
        if kind is None:
            numbered.append((where, unknown_kind(where, row[layout[1]["kind"]].strip())))
            continue
        try:
            numbered.append((where, _csv_record(row, kind, layout[1], where)))
        except InputError as error:
            numbered.append((where, error))
    return numbered


def _catalogue_columns_fast(layout, rows):
    """The columns of a CSV catalogue of any kinds read whole, when every row is clean: ``(kinds,
    values, filled, vertices)``, ``kinds`` an object array of the rows' kinds, ``values`` a float64
    array per numeric column (NaN where empty), ``filled`` a mask per column (the field is
    written), ``vertices`` a list (an ``(k, 2)`` array for each polygon row, else None). None when
    a row is short, names an unknown kind, leaves a field its kind needs empty, fills one its kind
    lacks, or holds a word or a number that is not finite: the slow path then names the row."""
    fixed, columns, needed = layout
    if any(len(row) < needed for row in rows):
        return None
    kinds = [_row_kind(row, layout) for row in rows] if fixed is None else [fixed] * len(rows)
    if None in kinds:
        return None
    kinds = np.array(kinds, dtype=object)
    values, filled, vertices = {}, {}, None
    for name, k in columns.items():
        if name in ("kind", "id"):
            continue
        tokens = [row[k].strip() for row in rows]
        written = np.array([bool(token) for token in tokens], dtype=bool)
        if not columns_fit_kinds(name, kinds, written):
            return None
        filled[name] = written
        tokens = [token for token in tokens if token]
        if name == "vertices":
            vertices = [None] * len(rows)
            for row, token in zip(np.flatnonzero(written).tolist(), tokens):
                try:
                    vertices[row] = vertex_text(token)
                except ValueError:
                    return None
                if not np.isfinite(vertices[row]).all():
                    return None
            continue
        if not _plain_number("".join(tokens)):
            return None
        column = np.full(len(rows), np.nan)
        try:
            column[written] = np.array(tokens, dtype=np.float64)
        except ValueError:
            return None
        if not np.isfinite(column[written]).all():
            return None
        values[name] = column
    return kinds, values, filled, vertices


def catalogue_parts(sources):
    """The columns of a catalogue of any kinds (CSV or Parquet) of the shapes ``sources`` (batches,
    in order): ``(header, parts)``, ``header`` the names ``kind`` and the columns of the kinds
    present, in the catalogue's order, ``radius`` last; ``parts`` one ``(size, {name: column})``
    per source, the columns its kind has: ``kind`` a list of names, a number a float64 array
    ``(size,)`` as :attr:`~collide2d.shapes.Shape.fields` gives it, ``vertices`` a float64 array
    ``(size, 2 k)`` (``x1 y1 x2 y2 ...`` per polygon of the batch's ``k`` vertices)."""
    parts, used = [], {"kind"}
    for source in sources:
        kind, size, fields = _formats.catalogue_kind(source), source.size, source.fields
        part = {"kind": [kind] * size}
        for field, names in _formats.CATALOGUE_FIELDS[kind]:
            if field not in fields:
                continue
            value = np.asarray(fields[field])
            value = value.reshape(size, int(np.prod(value.shape[len(source.shape) :])))  # (size, -1), also for size 0
            if names == ("vertices",):
                part["vertices"] = value
            else:
                for j, name in enumerate(names):
                    part[name] = value[:, j]
        used.update(part)
        parts.append((size, part))
    order = [name for name in _formats.CATALOGUE_NAMES if name != "radius"] + ["radius"]  # the rounding last
    return ["kind"] + [name for name in order if name in used], parts


def catalogue_lines(sources, ids):
    """The rows of a CSV catalogue of any kinds (header first, lists of text fields) of the shapes
    ``sources`` (batches, in order): ``[id,]`` and the columns of :func:`catalogue_parts`; a field a
    row's kind lacks is empty. Numbers as ``repr`` writes them (read back bit for bit), a polygon's
    vertices as ``x1 y1 x2 y2 ...``."""
    header, parts = catalogue_parts(sources)
    lines = [(["id"] if ids is not None else []) + header]
    k = 0
    for size, part in parts:
        text = {"kind": part["kind"]}
        for name, value in part.items():
            if name == "vertices":
                text[name] = [" ".join(map(repr, ring)) for ring in value.tolist()]
            elif name != "kind":
                text[name] = list(map(repr, value.tolist()))
        columns = [text.get(name, [""] * size) for name in header]
        if ids is not None:
            columns.insert(0, [str(ids[m]) for m in range(k, k + size)])
        lines.extend(zip(*columns))
        k += size
    return lines


# -- a Parquet catalogue of any kinds: the CSV's columns in Parquet's types ------------------------
#
# The columns and rules of the CSV of any kinds (catalogue_parts, catalogue_record); in Parquet a
# number is a float64 (or integer) value, an empty field a null, ``kind`` a string (or dictionary)
# column and ``vertices`` a list of (x, y) pairs per polygon (the layout pandas writes for
# ShapeTable.to_dataframe's arrays; a flat list x1, y1, x2, y2, ... or the CSV's text read too).


def _is_number_type(kind):
    import pyarrow as pa

    return pa.types.is_integer(kind) or pa.types.is_floating(kind) or pa.types.is_decimal(kind)


def _is_list_type(kind):
    import pyarrow as pa

    return pa.types.is_list(kind) or pa.types.is_large_list(kind) or pa.types.is_fixed_size_list(kind)


def _text_column(column):
    """A string column of a string, large string or dictionary column (one chunk), else None."""
    import pyarrow as pa

    column = column.combine_chunks() if hasattr(column, "combine_chunks") else column
    if pa.types.is_dictionary(column.type):
        column = column.cast(column.type.value_type)
    return column if pa.types.is_string(column.type) or pa.types.is_large_string(column.type) else None


def _parquet_kinds(column, n):
    """The rows' kinds (an object array) of a ``kind`` column, or None when one is null or names none."""
    import pyarrow.compute as pc

    column = _text_column(column)
    if column is None or column.null_count:
        return None
    encoded = pc.dictionary_encode(column)
    names = [kind_of_text(text) for text in encoded.dictionary.to_pylist()]
    if None in names:
        return None
    indices = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64)
    return np.array(names + [None], dtype=object)[:-1][indices] if n else np.zeros(0, dtype=object)


def _parquet_vertices(column, n):
    """The vertices ``(k, 2)`` of each row (None where null) of a list column of pairs or of flat
    numbers, or of the CSV's text; None when a row holds anything else (the records name it)."""
    import pyarrow as pa

    text = _text_column(column)
    written = column.is_valid().to_numpy(zero_copy_only=False) if n else np.zeros(0, dtype=bool)
    rings: list = [None] * n
    if text is not None:
        for row, value in enumerate(text.to_pylist()):
            if value is not None:
                try:
                    rings[row] = vertex_text(value)
                except ValueError:
                    return None
        return rings
    column = column.combine_chunks()
    if pa.types.is_null(column.type):
        return rings
    if not _is_list_type(column.type):
        return None
    lengths = column.value_lengths().fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
    flat = column.flatten()
    if _is_list_type(flat.type):  # pairs
        if flat.null_count or np.any(flat.value_lengths().to_numpy(zero_copy_only=False) != 2):
            return None
        counts, numbers = lengths, flat.flatten()
    elif _is_number_type(flat.type) and np.all(lengths % 2 == 0):
        counts, numbers = lengths // 2, flat
    else:
        return None
    if numbers.null_count or not (_is_number_type(numbers.type) and not pa.types.is_decimal(numbers.type)):
        return None
    points = numbers.to_numpy(zero_copy_only=False).astype(np.float64).reshape(-1, 2)
    if not np.isfinite(points).all():
        return None
    bounds = np.concatenate([[0], np.cumsum(counts)]).tolist()
    for row in np.flatnonzero(written).tolist():
        rings[row] = points[bounds[row] : bounds[row + 1]]
    return rings


def parquet_columns_fast(arrays, fixed, n):
    """The columns of a Parquet catalogue of any kinds as :func:`_catalogue_columns_fast` gives a
    CSV's, ``(kinds, values, filled, vertices)``, when every row is clean: ``arrays`` the file's
    catalogue columns (pyarrow arrays under their catalogue names), ``fixed`` the kind of every
    row when there is no ``kind`` column. None when a row names no kind, fills a column its kind
    lacks or leaves one it needs null, or holds a number that is not finite or a value that is not
    a number (a text column, decimals: the records read or name them)."""
    import pyarrow as pa

    kinds = np.full(n, fixed, dtype=object) if fixed is not None else _parquet_kinds(arrays["kind"], n)
    if kinds is None:
        return None
    values, filled, vertices = {}, {}, None
    for name, column in arrays.items():
        if name in ("kind", "id"):
            continue
        written = column.is_valid().to_numpy(zero_copy_only=False) if n else np.zeros(0, dtype=bool)
        if not columns_fit_kinds(name, kinds, written):
            return None
        filled[name] = written
        if name == "vertices":
            vertices = _parquet_vertices(column, n)
            if vertices is None:
                return None
            continue
        if pa.types.is_null(column.type):
            values[name] = np.full(n, np.nan)
            continue
        if not _is_number_type(column.type) or pa.types.is_decimal(column.type):
            return None
        numbers = column.to_numpy() if n else np.zeros(0)
        numbers = np.array(numbers, dtype=np.float64)  # integers rounded to the nearest float, as float() does
        if not np.isfinite(numbers[written]).all():
            return None
        values[name] = numbers
    return kinds, values, filled, vertices


def _parquet_number(name, value, kind, where):
    """A number of a Parquet catalogue read as a float: an integer, float or decimal value."""
    import decimal

    if isinstance(value, (int, float, decimal.Decimal)) and not isinstance(value, bool):
        number = float(value)
        if not np.isfinite(number):
            raise InputError(f"{where}, column {name}: {number!r} is not finite")
        return number
    raise InputError(
        f"{where}, column {name}: {value!r} is not a number (the column holds {kind}; "
        "write the numbers of a catalogue as a float64 or integer column)"
    )


def _parquet_ring(value, where):
    """The vertices (a list of pairs) of a polygon's value: the CSV's text, a list of pairs or a
    flat list of numbers."""
    if isinstance(value, str):
        try:
            return vertex_text(value).tolist()
        except ValueError as error:
            raise InputError(f"{where}, column vertices: {error}") from None
    rule = "a list of (x, y) pairs (or x1, y1, x2, y2, ...) of numbers"
    try:
        points = np.array(value, dtype=np.float64) if isinstance(value, list) else None
    except (TypeError, ValueError):
        points = None
    if points is None or not (points.ndim == 2 and points.shape[1] == 2 or points.ndim == 1 and len(points) % 2 == 0):
        raise InputError(f"{where}, column vertices: expected {rule}, got {value!r}")
    if not np.isfinite(points).all():
        raise InputError(f"{where}, column vertices: every coordinate must be finite, got {value!r}")
    return points.reshape(-1, 2).tolist()


def parquet_records(path, arrays, fixed, n):
    """``[(where, record or InputError)]``: each row of a Parquet catalogue of any kinds as the
    record JSON would give for it (see :func:`catalogue_record`); rows counted from 1. A null
    ``id`` is no id (the row is known by its number)."""
    kinds = arrays["kind"].to_pylist() if fixed is None else None
    types = {name: column.type for name, column in arrays.items()}
    given = {name: column.to_pylist() for name, column in arrays.items() if name != "kind"}
    numbered = []
    for row in range(n):
        where = f"{path} row {row + 1}"

        def raw_of(name, row=row):
            return given[name][row]

        def number_of(name, value, where=where):
            return _parquet_ring(value, where) if name == "vertices" else _parquet_number(name, value, types[name], where)

        try:
            kind = fixed
            if fixed is None:
                raw = kinds[row]
                if raw is None:
                    raise InputError(f"{where}, column kind is null (each row needs its shape kind)")
                kind = kind_of_text(raw) if isinstance(raw, str) else None
                if kind is None:
                    raise unknown_kind(where, raw)
            record = catalogue_record(kind, arrays, raw_of, number_of, where, blank="null")
        except InputError as error:
            numbered.append((where, error))
            continue
        if "id" in given and given["id"][row] is not None:
            record["id"] = str(given["id"][row])
        numbered.append((where, record))
    return numbered
