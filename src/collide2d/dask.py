"""All colliding pairs of a catalogue too large for one machine, on Dask.

Needs the optional extra ``dask`` (``pip install 'collide2d[dask]'``); dask is imported inside the
functions here only, so ``import collide2d`` never needs it.

How it works
------------
A catalogue is an ellipse table (columns ``x, y, rx, ry`` and optionally ``angle`` and ``id``) or a
circle table (``x, y, r`` and optionally ``id``), the same columns :func:`collide2d.io.read_shapes`
reads from CSV, or a table of mixed kinds in the columns of
:meth:`collide2d.ShapeTable.from_dataframe` (a ``kind`` column). :func:`query_pairs` takes it as a
Dask DataFrame or a Parquet (or CSV, or JSON of mixed kinds) path.

1. A first pass (computed at once) counts the rows of every partition and finds the extent of the
   shapes' bounding boxes and the largest box.
2. The plane (or the periodic box) is cut into a grid of tiles, each at least as wide as the largest
   bounding box, about ``tile_shapes`` shapes each. Every shape goes to its home tile (the one
   holding its centre) and, as a halo, to every other tile its bounding box reaches.
3. Each tile runs the single-machine :func:`collide2d.broadphase.query_pairs` on its shapes and keeps
   a pair only when it owns it: the owner is the tile holding the lower-left corner of the
   intersection of the two bounding boxes. That corner lies in both boxes, so both shapes are in
   its tile, and it is the same float computation in every tile, so exactly one tile keeps the
   pair. The kept pairs are then measured: relation, contact and overlap.

The result is a lazy Dask DataFrame with one partition per tile; it runs on whatever scheduler
computes it (threads by default, the active ``distributed.Client`` when there is one).

Why this file is over 800 lines: it is one algorithm, the tiling above, and its two entry points
(:func:`query_pairs` on a frame or a path, :func:`pairs_frame` that computes it); the readers of
the three file formats and the two column layouts exist only to feed it the per-partition frames
and summaries that steps 1-3 need, and each step's function is called once, from here. Split
across modules, a reader would follow one computation through several files, and every piece
would still need dask's lazy import (``_require_dask``) and the layout classes; the geometry is
all in :mod:`collide2d.broadphase`, the table columns in :mod:`collide2d._formats`.
"""

from __future__ import annotations

import base64
import csv
import glob
import math
import os
import pathlib
import warnings

import numpy as np

from collide2d import _degrees

__all__ = ["COLUMNS", "pairs_frame", "query_pairs"]

#: The columns of the result, as ``collide2d pairs`` writes them.
COLUMNS = ("a", "b", "relation", "separation", "normal_x", "normal_y", "overlap_area", "iou")
_RELATIONS = ("DISJOINT", "TOUCHING", "OVERLAPPING", "CONTAINS", "WITHIN", "EQUAL")
_FLOATS = ("separation", "normal_x", "normal_y", "overlap_area", "iou")
_SHIFTS = ("shift_x", "shift_y")
_TILE_SHAPES = 100_000
_clients: list[object] = []  # clients connected by pairs_frame(scheduler=ADDRESS): kept alive for the session


def _require_dask():
    try:
        import dask  # noqa: F401
        import dask.dataframe  # noqa: F401
    except ImportError as error:  # pragma: no cover - exercised only without the extra
        raise ImportError(
            "collide2d.dask needs dask[dataframe]: pip install 'collide2d[dask]' "
            f"(or 'dask[dataframe]' distributed pyarrow); {error}"
        ) from None


# -- catalogue columns --------------------------------------------------------------------------


def _layout(names):
    """The layout of a catalogue of these column names: a :class:`_MixedLayout` when it has a
    ``kind`` column or the columns of another kind than ellipses and circles, else a :class:`_Layout`."""
    names = [str(name) for name in names]
    if "kind" not in names and ({"x", "y", "rx", "ry"} <= set(names) or {"x", "y", "r"} <= set(names)):
        return _Layout(names)
    layout = _MixedLayout(names)
    if layout.fixed == "point":  # x, y alone: more likely an ellipse catalogue short of columns than points
        return _Layout(names)  # which names the columns wanted; points need a kind column
    return layout


class _Layout:
    """Which columns make a shape: ``kind`` ("ellipse" or "circle"), ``columns``, ``id`` present.

    The shapes of a partition are held as one float64 array, a row per shape and a column per
    name of ``columns`` (:meth:`values`).
    """

    def __init__(self, names):
        names = list(names)
        if {"x", "y", "rx", "ry"} <= set(names):
            self.kind = "ellipse"
            self.columns = ["x", "y", "rx", "ry"] + (["angle"] if "angle" in names else [])
        elif {"x", "y", "r"} <= set(names):
            self.kind, self.columns = "circle", ["x", "y", "r"]
        else:
            raise ValueError(
                "shapes must have the columns x, y, rx, ry[, angle] (ellipses) or x, y, r (circles), or those of "
                f"ShapeTable.from_dataframe with a kind column; got {', '.join(map(str, names))}"
            )
        self.has_id = "id" in names
        self.carried = list(self.columns)  # the columns a shape takes through the shuffle

    def values(self, part):
        """The shapes' numbers of a pandas partition: float64 array (n, len(columns))."""
        return np.ascontiguousarray(part[self.columns].to_numpy(dtype=np.float64, na_value=np.nan)).reshape(-1, len(self.columns))

    @staticmethod
    def concat(parts):
        return np.concatenate(parts)

    def angles(self, values):
        """The angle column (radians or degrees, as given), or None."""
        return values[:, 4] if "angle" in self.columns else None

    def checked(self, values, degrees):
        """``(bad, shapes)``: the mask of the rows that make no shape (a number that is not finite,
        or a radius <= 0) and the shapes of the others."""
        radii = values[:, 2:4] if self.kind == "ellipse" else values[:, 2:3]
        with np.errstate(invalid="ignore"):
            bad = ~np.isfinite(values).all(axis=1) | np.any(~(radii > 0), axis=1)
        return bad, self.build(values[~bad], degrees)

    def problem(self, values, numbers, where, degrees):
        """The message of the first row of ``values`` that makes no shape (rows named by ``numbers``)."""
        from collide2d import io

        problems = io._block_problems(values, self.columns, numbers, where, {})
        return problems[min(problems)].replace(" line ", " row ", 1)

    def carry(self, values, row):
        """The columns of the shuffled copies ``row`` (indices into ``values``)."""
        return {name: values[row, c] for c, name in enumerate(self.columns)}

    def measure(self, shapes, values, i, j, shifts, box, degrees):
        """``(relation codes, separation, normal, overlap area, iou)`` of the pairs ``i, j``."""
        from collide2d.measurement import contact
        from collide2d.overlay import iou, overlap_area
        from collide2d.predicates import relate

        a = self.build(values[i], degrees)
        b = self.build(values[j], degrees) if box is None else self.shifted(values[j], shifts, degrees)
        touch = contact(a, b)
        return relate(a, b), touch.separation, touch.normal, overlap_area(a, b), iou(a, b)

    def build(self, data, degrees):
        """The shape batch of the float columns ``data`` (shape (n, len(columns)))."""
        from collide2d.shapes import Circle, Ellipse

        if self.kind == "circle":
            return Circle(data[:, 0:2], data[:, 2])
        angle = data[:, 4] if data.shape[1] > 4 else 0.0
        if degrees:
            angle = np.radians(angle)
        return Ellipse(data[:, 0:2], data[:, 2:4], angle)

    def shifted(self, data, shift, degrees):
        """The shapes of ``data`` translated by ``shift`` (n, 2)."""
        moved = data.copy()
        moved[:, 0:2] += shift
        return self.build(moved, degrees)


class _MixedLayout:
    """A catalogue of any kinds, in the columns :meth:`collide2d.ShapeTable.from_dataframe` reads:
    a ``kind`` column (or the columns of one kind only), the numeric columns of the kinds, and
    ``vertices`` for polygons (an array ``(k, 2)`` or a list of pairs per row).

    The shapes of a partition are held as a pandas DataFrame of those columns with a ``kind``
    column (:meth:`values`); polygon vertices travel through the shuffle as the base64 text of the
    bytes of their float64 array: exact, and text survives Dask's conversion of object columns to
    strings, which turns an array into its printed, rounded form.
    """

    kind = "mixed"

    def __init__(self, names):
        from collide2d import _formats

        names = list(names)
        self.fixed = None if "kind" in names else _formats.kind_of_columns(names)
        self.columns = [name for name in _formats.CATALOGUE_NAMES if name in names and name != "vertices"]
        self.has_vertices = "vertices" in names
        self.has_id = "id" in names
        self.carried = self.columns + ["kind"] + (["vertices"] if self.has_vertices else [])

    def values(self, part):
        frame = {"kind": np.full(len(part), self.fixed, dtype=object) if self.fixed else part["kind"].to_numpy(dtype=object)}
        for name in self.columns:
            frame[name] = part[name].to_numpy(dtype=np.float64, na_value=np.nan)
        if self.has_vertices:
            frame["vertices"] = [_vertex_array(v) for v in part["vertices"].tolist()]
        import pandas as pd

        return pd.DataFrame(frame)

    @staticmethod
    def concat(parts):
        import pandas as pd

        return pd.concat(parts, ignore_index=True)

    def build(self, values, degrees):
        from collide2d import convert

        return convert.table_from_dataframe(values, degrees=degrees)

    def angles(self, values):
        return values["angle"].to_numpy() if "angle" in self.columns else None

    def _row_error(self, values, row, degrees):
        """The message of row ``row`` built alone, or None when it makes a shape."""
        try:
            self.build(values.iloc[row : row + 1], degrees)
        except (ValueError, TypeError) as error:
            return str(error).split(": ", 1)[-1]
        return None

    def checked(self, values, degrees):
        """``(bad, shapes)``: the mask from the first row that makes no shape on (the rows are
        built one by one only when the partition fails as a whole; the caller raises for that row)
        and the shapes of the rows before it."""
        bad = np.zeros(len(values), dtype=bool)
        try:
            return bad, self.build(values, degrees)
        except (ValueError, TypeError) as error:
            first = next((row for row in range(len(values)) if self._row_error(values, row, degrees) is not None), None)
            if first is None:  # every row alone makes a shape: the frame's columns are at fault
                raise ValueError(str(error)) from None
        bad[first:] = True
        return bad, self.build(values.iloc[:first], degrees)

    def problem(self, values, numbers, where, degrees):
        for row in range(len(values)):
            message = self._row_error(values, row, degrees)
            if message is not None:
                return f"{where} row {numbers[row]}: {message}"
        raise AssertionError("no bad row")  # pragma: no cover - the first pass found one

    def carry(self, values, row):
        out = {name: values[name].to_numpy()[row] for name in self.columns}
        out["kind"] = values["kind"].to_numpy()[row]
        if self.has_vertices:
            packed = np.array([_pack(v) for v in values["vertices"]], dtype=object)
            out["vertices"] = packed[row]
        return out

    @staticmethod
    def measure(shapes, values, i, j, shifts, box, degrees):
        from collide2d.broadphase import measure_pairs

        m = measure_pairs(shapes, np.stack([i, j]), shifts=None if box is None else shifts)
        return m.relation, m.separation, m.normal, m.overlap_area, m.iou


def _pack(vertices):
    """The text that carries polygon vertices through the shuffle ("" for the rows of other kinds)."""
    if isinstance(vertices, np.ndarray) and vertices.dtype == np.float64:
        return base64.b64encode(np.ascontiguousarray(vertices).tobytes()).decode("ascii")
    return ""


def _vertex_array(value):
    """Polygon vertices as a float64 array (k, 2): from the text the shuffle carries, an array, or a
    list of pairs; anything else (NaN for the rows of other kinds) as it is."""
    if isinstance(value, str) and (" " in value.strip() or "," in value):  # a CSV field: x1 y1 x2 y2 ...
        from collide2d._io_text import vertex_text

        return vertex_text(value)
    if isinstance(value, str):  # the shuffle's base64 (no space, no comma)
        return np.frombuffer(base64.b64decode(value), dtype=np.float64).reshape(-1, 2) if value else np.nan
    if isinstance(value, (list, tuple, np.ndarray)):
        try:
            return np.array([np.asarray(p, dtype=np.float64) for p in value], dtype=np.float64)
        except (TypeError, ValueError):
            return value  # the constructor names the problem
    return value


def _files(path):
    """The files of a path: the file itself, the matches of a glob, or the data files of a folder."""
    if glob.has_magic(path):
        files = sorted(glob.glob(path))
    elif os.path.isdir(path):
        import pyarrow.dataset as ds

        files = list(ds.dataset(path, format="parquet").files)
    else:
        files = [path]
    if not files or not all(os.path.exists(name) for name in files):
        raise FileNotFoundError(2, "no such file or dataset", path)
    return files


def _csv_frame(path):
    """A CSV catalogue read with its header's column types fixed: floats for the shape, text for ids.

    Nothing is left to pandas' type sniffing, which guesses from the first rows (whole numbers
    there, fractions later would fail).
    """
    import dask.dataframe as dd

    from collide2d import io

    first = _files(path)[0]
    try:
        with open(first, newline="", encoding="utf-8-sig") as handle:
            header = next(csv.reader(handle), None)
    except UnicodeDecodeError:
        raise io._not_utf8(first) from None
    if not header:
        raise io.InputError(f"{first}: the file is empty (a header line is needed)")
    names = {name.strip().lower(): name for name in header}
    layout = _layout(names)
    dtypes = {names[name]: "float64" for name in layout.columns}
    if layout.has_id:
        dtypes[names["id"]] = "str"
    for name in ("kind", "vertices"):  # vertices: the text x1 y1 x2 y2 ... of collide2d.io's CSV
        if name in names:
            dtypes[names[name]] = "str"
    return dd.read_csv(path, usecols=list(dtypes), dtype=dtypes, encoding="utf-8", blocksize="64MB")


_JSON = (".json", ".jsonl", ".ndjson")
_JSON_PARTITION_ROWS = 100_000


def _json_frame(path):
    """A JSON or JSON Lines file of shapes of any kinds, read on this machine by
    :func:`collide2d.io.read_shapes` (which names a bad line), as a frame of
    :meth:`collide2d.ShapeTable.to_dataframe`'s columns: the numbers as the file gives them (angles
    too, in the file's unit), so that the tiles build the same shapes."""
    import dask
    import dask.dataframe as dd

    from collide2d import io
    from collide2d.table import ShapeTable

    with warnings.catch_warnings():  # the angles are checked by the first pass, in the unit asked for
        warnings.simplefilter("ignore", io.DegreesWarning)
        ids, shapes = io.read_shapes(path)
    table = ShapeTable(shapes).to_dataframe()
    if ids is not None:
        table["id"] = np.asarray(ids, dtype=object)
    with dask.config.set({"dataframe.convert-string": False}):  # polygon vertices stay arrays
        return dd.from_pandas(table, npartitions=max(1, -(-len(table) // _JSON_PARTITION_ROWS)))


def _parquet_frame(path):
    """A Parquet dataset whose files all hold the same kind of shape in numeric columns."""
    import dask.dataframe as dd
    import pyarrow.parquet as pq

    from collide2d import io

    seen = None
    for name in _files(path):
        try:
            schema = pq.read_schema(name)
        except Exception as error:  # pyarrow raises its own exception types for broken files
            raise io.InputError(f"{name}: not a readable Parquet file ({error})") from None
        names = {column.lower(): column for column in schema.names}
        layout = _layout(names)
        io._numeric_columns(schema, names, layout.columns, name)
        key = (layout.kind, tuple(layout.carried), layout.has_id)  # carried: a mixed layout's kind and vertices too
        if seen is not None and key != seen[0]:
            raise io.InputError(
                f"{path}: {seen[1]} holds {_describe(*seen[0])} but {name} holds {_describe(*key)}; "
                "a dataset holds one kind of shape with the same columns"
            )
        seen = seen or (key, name)
    return dd.read_parquet(path)


def _describe(kind, columns, has_id):
    what = "shapes of any kinds" if kind == "mixed" else f"{kind}s"
    return f"{what} ({', '.join(columns + (('id',) if has_id else ()))})"


def _as_frame(shapes):
    """A Dask DataFrame of a catalogue from a Dask or pandas DataFrame or a Parquet / CSV path."""
    import dask.dataframe as dd
    import pandas as pd

    if isinstance(shapes, (str, os.PathLike)):
        path = os.fspath(shapes)
        if path.lower().endswith(_JSON):
            frame = _json_frame(path)
        else:
            frame = _csv_frame(path) if path.lower().endswith(".csv") else _parquet_frame(path)
    elif isinstance(shapes, pd.DataFrame):
        import dask

        with dask.config.set({"dataframe.convert-string": False}):  # polygon vertices stay arrays
            frame = dd.from_pandas(shapes, npartitions=1)
    elif isinstance(shapes, dd.DataFrame):
        frame = shapes
    else:
        raise TypeError(f"shapes must be a Dask DataFrame or a Parquet / CSV path, got {type(shapes).__name__}")
    rename = {name: str(name).strip().lower() for name in frame.columns}
    if any(key != value for key, value in rename.items()):
        frame = frame.rename(columns=rename)
    layout = _layout(frame.columns)
    for name in layout.columns:
        dtype = frame.dtypes[name]
        if not pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype):
            raise ValueError(f"column {name} holds {dtype}, not numbers; the columns {', '.join(layout.columns)} must be numeric")
    kept = [name for name in layout.carried if name in frame.columns]  # a fixed kind has no kind column
    frame = frame[kept + (["id"] if layout.has_id else [])]
    return frame, layout


# -- periodic box and tile grid -----------------------------------------------------------------


def _periodic_box(periodic):
    """``(origin, length)`` float arrays of shape (2,), or None, read exactly as query_pairs reads them."""
    from collide2d.broadphase import _check_periodic

    return _check_periodic(periodic)


_SUMMARY = (
    "rows", "xmin", "ymin", "xmax", "ymax", "widest", "tallest", "largest_coordinate", "unbounded", "bad_row", "angle_row",
    "largest_angle",
)
_CHECKS = ("bad_row", "angle_row", "largest_angle")  # appended by _checked, not by the bounds


def _summary(part, layout, degrees, box):
    """First pass over one partition: a row of :data:`_SUMMARY` (of the wrapped boxes if periodic).

    Rows that make no shape are not built: the first one's number in the partition is
    ``bad_row`` (-1 when none), so that the caller can name it. ``angle_row`` and
    ``largest_angle`` say where angles in radians exceed 2 pi (-1 and 0 when none).
    """
    import pandas as pd

    data = layout.values(part)
    bad, shapes = layout.checked(data, degrees)
    checks = [float(np.argmax(bad)) if bad.any() else -1.0, -1.0, 0.0]
    angles = layout.angles(data)
    if angles is not None and not degrees:
        angle = np.abs(np.where(bad, 0.0, angles))
        with np.errstate(invalid="ignore"):  # NaN: the rows of kinds without an angle
            large = angle > _degrees.TWO_PI  # the rule of collide2d._degrees
        if large.any():
            checks[1:] = [float(np.argmax(large)), float(np.max(angle[large]))]
    raw = shapes.bounds.reshape(-1, 4)
    bounded = np.isfinite(raw).all(axis=1)  # a line is not: it goes to every tile it crosses
    unbounded = float(np.count_nonzero(~bounded))
    raw = raw[bounded]
    if raw.shape[0] == 0:
        values = [0, np.inf, np.inf, -np.inf, -np.inf, 0, 0, 0, unbounded]
    else:
        bounds = raw if box is None else _wrap(raw, box)[1]
        extent = bounds[:, 2:] - bounds[:, :2]
        # the largest coordinate before wrapping: the owner corner is computed from unwrapped boxes
        values = [
            bounds.shape[0], *bounds[:, :2].min(axis=0), *bounds[:, 2:].max(axis=0), *extent.max(axis=0), np.abs(raw).max(), unbounded,
        ]
    values[0] = len(data)  # every row counts, so that row numbers stay right
    return pd.DataFrame([np.array(values + checks, dtype=np.float64)], columns=list(_SUMMARY))


def _wrap(bounds, box):
    """Lattice counts ``w`` (n, 2) bringing each box centre into the periodic box; wrapped boxes."""
    origin, length = box
    w = np.floor((0.5 * (bounds[:, :2] + bounds[:, 2:]) - origin) / length)
    return w, bounds - np.tile(w * length, 2)


class _Grid:
    """Tiles ``nx`` by ``ny`` of size ``width`` from ``origin``; periodic grids wrap their indices."""

    def __init__(self, origin, width, counts, periodic, pad):
        self.origin = np.asarray(origin, dtype=np.float64)
        self.width = np.asarray(width, dtype=np.float64)
        self.counts = np.asarray(counts, dtype=np.int64)
        self.periodic = periodic
        self.pad = float(pad)

    @property
    def size(self):
        return int(self.counts[0] * self.counts[1])

    def index(self, xy):
        """Tile coordinates (n, 2) of the points ``xy`` (wrapped or clipped into the grid)."""
        t = np.floor((xy - self.origin) / self.width)
        if self.periodic:
            return np.mod(t, self.counts).astype(np.int64)
        return np.clip(t, 0, self.counts - 1).astype(np.int64)

    def ranges(self, bounds):
        """First tile coordinates (n, 2) and tile counts (n, 2) that each padded box reaches."""
        lo = np.floor((bounds[:, :2] - self.pad - self.origin) / self.width)
        hi = np.floor((bounds[:, 2:] + self.pad - self.origin) / self.width)
        if self.periodic:
            count = hi - lo + 1
            every = count >= self.counts  # reaches all the way round: every tile once
            return np.where(every, 0, np.mod(lo, self.counts)).astype(np.int64), np.where(every, self.counts, count).astype(np.int64)
        lo = np.clip(lo, 0, self.counts - 1)
        hi = np.clip(hi, 0, self.counts - 1)
        return lo.astype(np.int64), (hi - lo + 1).astype(np.int64)


def _make_grid(summary, box, tiles, tile_shapes):
    n = int(summary[:, 0].sum())
    bounded = n - int(summary[:, 8].sum())
    lo = summary[:, 1:3].min(axis=0)
    hi = summary[:, 3:5].max(axis=0)
    largest = summary[:, 5:7].max(axis=0) if n else np.zeros(2)
    if box is not None and summary[:, 8].sum() > 0:
        raise ValueError(
            f"periodic box {tuple(box[1].tolist())} must exceed twice the largest shape extent; "
            f"the catalogue holds {int(summary[:, 8].sum())} unbounded shapes (lines)"
        )
    if box is not None:
        origin, length = box
        too_big = ~(2 * largest < length)
        if np.any(too_big):
            raise ValueError(
                f"periodic box {tuple(length.tolist())} must exceed twice the largest shape extent; "
                f"the largest bounding box is {tuple(largest.tolist())}"
            )
        scale = float(summary[:, 7].max(initial=0.0)) + float(np.abs(origin).max()) + 3 * float(length.max())
        pad = 2.0**-40 * scale  # covers the rounding of the wrap and shift translations, a few ulps
        span = length
    else:
        if bounded == 0:
            lo, hi = np.zeros(2), np.ones(2)
        origin, span, pad = lo, hi - lo, 0.0
        span = np.where(span > 0, span, 1.0)
    if tiles is not None:
        counts = np.broadcast_to(np.asarray(tiles, dtype=np.int64), (2,)).copy()
        if np.any(counts < 1):
            raise ValueError(f"tiles must be positive, got {tiles!r}")
    else:
        side = math.sqrt(float(span[0] * span[1]) * tile_shapes / max(n, 1))
        side = max(side, float(largest.max()))  # a shape reaches at most the neighbouring tiles
        if box is not None:
            counts = np.maximum(np.floor(span / side), 1).astype(np.int64)
        else:
            counts = np.maximum(np.ceil(span / side), 1).astype(np.int64)
    return _Grid(origin, span / counts, counts, box is not None, pad), n


# -- the two task kinds -------------------------------------------------------------------------


def _explode(part, rows, layout, degrees, box, grid, columns, partition_info=None):
    """Home and halo copies of one input partition: columns ``tile, row`` then the catalogue's."""
    import pandas as pd

    number = None if partition_info is None else partition_info["number"]
    if number is None or len(part) != rows[number]:  # the row numbers would be wrong: never guess
        raise RuntimeError(
            f"collide2d.dask: partition {number} has {len(part)} rows, the first pass counted "
            f"{'?' if number is None else rows[number]}; the input changed between the two passes"
        )
    offset = int(rows[:number].sum())
    data = layout.values(part)
    bounds = layout.build(data, degrees).bounds.reshape(-1, 4)
    if box is not None:
        _, bounds = _wrap(bounds, box)
    first, count = grid.ranges(bounds)
    copies = count[:, 0] * count[:, 1]
    row = np.repeat(np.arange(len(data)), copies)
    k = np.arange(row.size) - np.repeat(np.cumsum(copies) - copies, copies)  # copy number in its row
    tx = first[row, 0] + k % count[row, 0]
    ty = first[row, 1] + k // count[row, 0]
    if grid.periodic:
        tx, ty = tx % grid.counts[0], ty % grid.counts[1]
    out = {"tile": ty * grid.counts[0] + tx, "row": offset + row}
    out.update(layout.carry(data, row))
    if layout.has_id:
        out["id"] = part["id"].to_numpy()[row]
    types = {name: object for name in ("kind", "vertices") if name in columns}
    if layout.has_id:
        types["id"] = part["id"].dtype
    return pd.DataFrame(out, columns=columns).astype(types)


def _tile_frame(part, layout, degrees, periodic, grid, predicate, meta):
    """The pairs owned by the tiles of one shuffled partition (its index holds the tile numbers)."""
    import pandas as pd

    if len(part) < 2:
        return _empty(meta)
    tile = part.index.to_numpy()
    frames = []
    for t in np.unique(tile):  # one tile per partition, by the divisions; robust to any other split
        rows = part[tile == t].sort_values("row", kind="stable")
        piece = (rows["row"].to_numpy(), layout.values(rows), rows["id"].to_numpy() if layout.has_id else None)
        frames.append(_tile_pairs([piece], int(t), layout, degrees, periodic, grid, predicate, meta))
    return frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)


def _empty(meta):
    return meta.iloc[:0].copy()


def _tile_pairs(pieces, tile, layout, degrees, periodic, grid, predicate, meta):
    """The pairs owned by one tile, measured: a pandas DataFrame with :data:`COLUMNS`."""
    import pandas as pd

    from collide2d.broadphase import query_pairs as single_query_pairs

    box = _periodic_box(periodic)
    gid = np.concatenate([piece[0] for piece in pieces])
    if gid.size < 2:
        return _empty(meta)
    data = layout.concat([piece[1] for piece in pieces])
    ids = np.concatenate([piece[2] for piece in pieces]) if layout.has_id else gid
    shapes = layout.build(data, degrees)
    pairs, shifts = single_query_pairs(shapes, predicate=predicate, periodic=periodic, return_shifts=True)
    i, j = pairs
    # the owner: the tile holding the lower-left corner of the intersection of the two boxes
    bounds = shapes.bounds.reshape(-1, 4)
    corner = np.maximum(bounds[i, :2], bounds[j, :2] + shifts)
    if box is not None:
        w, _ = _wrap(bounds[i], box)
        corner = corner - w * box[1]
    with np.errstate(invalid="ignore"):  # -inf - -inf cannot occur; inf / width is inf, clipped
        t = grid.index(corner)
    mine = np.flatnonzero(t[:, 1] * grid.counts[0] + t[:, 0] == tile)
    if mine.size == 0:
        return _empty(meta)
    i, j, shifts = i[mine], j[mine], shifts[mine]
    code, separation, normal, area, ratio = layout.measure(shapes, data, i, j, shifts, box, degrees)
    code = np.asarray(code, dtype=np.int8)
    frame = pd.DataFrame(
        {
            "a": pd.Series(ids[i], dtype=meta["a"].dtype),
            "b": pd.Series(ids[j], dtype=meta["b"].dtype),
            "relation": pd.Categorical.from_codes(code, dtype=meta["relation"].dtype),
            "separation": np.asarray(separation, dtype=np.float64),
            "normal_x": np.asarray(normal[:, 0], dtype=np.float64),
            "normal_y": np.asarray(normal[:, 1], dtype=np.float64),
            "overlap_area": np.asarray(area, dtype=np.float64),
            "iou": np.asarray(ratio, dtype=np.float64),
        }
    )
    if box is not None:
        frame["shift_x"], frame["shift_y"] = shifts[:, 0], shifts[:, 1]
    return frame


def _meta(frame, layout, periodic):
    import pandas as pd

    id_dtype = frame.dtypes["id"] if layout.has_id else np.dtype(np.int64)
    columns = {
        "a": pd.Series([], dtype=id_dtype),
        "b": pd.Series([], dtype=id_dtype),
        "relation": pd.Series(pd.Categorical([], categories=list(_RELATIONS))),
    }
    columns.update({name: pd.Series([], dtype=np.float64) for name in _FLOATS + (_SHIFTS if periodic else ())})
    return pd.DataFrame(columns)


# -- public -------------------------------------------------------------------------------------


def query_pairs(shapes, *, predicate="intersects", periodic=None, degrees=False, tiles=None, tile_shapes=_TILE_SHAPES):
    """Return every pair of a catalogue that satisfies a predicate, as a lazy Dask DataFrame.

    Parameters
    ----------
    shapes : dask.dataframe.DataFrame, pandas.DataFrame or path
        An ellipse catalogue (columns ``x, y, rx, ry`` and optionally ``angle``) or a circle
        catalogue (``x, y, r``), with an optional ``id`` column; other columns are ignored and
        names are matched after stripping and lower-casing. Or a catalogue of any kinds in the
        columns :meth:`collide2d.ShapeTable.from_dataframe` reads (a ``kind`` column, or the
        columns of one kind; ``vertices`` for polygons), measured by
        :func:`collide2d.broadphase.measure_pairs`. A path is read as a Parquet dataset (a file, a
        directory or a glob), as CSV when it ends in ``.csv``, and by
        :func:`collide2d.io.read_shapes` on this machine when it ends in ``.json`` or ``.jsonl``.
    predicate : str or None, default "intersects"
        As for :func:`collide2d.broadphase.query_pairs`; ``None`` keeps every pair whose bounding
        boxes meet.
    periodic : (float, float) or Box, optional
        A periodic domain, as for :func:`collide2d.broadphase.query_pairs`: each pair is measured in
        its minimum image, ``b`` translated by whole box lengths.
    degrees : bool, default False
        The ``angle`` column is in degrees.
    tiles : int or (int, int), optional
        Force the tile grid (``nx, ny``); by default tiles hold about ``tile_shapes`` shapes and are
        at least as wide as the largest bounding box.
    tile_shapes : int, default 100000
        Target number of shapes per tile (per task of the second pass); the memory of a task is
        about 200 bytes per shape and per pair.

    Returns
    -------
    dask.dataframe.DataFrame
        Columns :data:`COLUMNS`: ``a``, ``b`` (the ``id`` column, else the row number in the
        catalogue counted from 0, with ``row_a < row_b``), ``relation`` (categorical: ``TOUCHING``,
        ``OVERLAPPING``, ...; :class:`collide2d.Relation` names), ``separation``, ``normal_x``,
        ``normal_y`` (:func:`collide2d.measurement.contact`), ``overlap_area`` and ``iou``. One
        partition per tile, sorted by row inside a partition; the partitions are not in a global
        order. Every pair appears exactly once. With ``periodic``, two more columns ``shift_x``,
        ``shift_y``: the translation applied to ``b`` (whole box lengths), as the command writes.

    Raises
    ------
    ValueError
        For missing columns, an invalid shape (radii must be positive and finite), or a shape too
        large for the periodic box; raised by the first pass, that is by this call.
    ImportError
        When dask is not installed.

    See Also
    --------
    collide2d.broadphase.query_pairs : the same pairs on one machine.

    Notes
    -----
    The first pass (row counts, extent, largest shape) is computed by this call on the current
    scheduler; the rest is lazy. The result equals the single-machine ``query_pairs`` followed by
    ``relate``, ``contact``, ``overlap_area`` and ``iou`` of the pairs, bit for bit: each tile runs
    exactly that code on its shapes.

    Examples
    --------
    >>> import pytest; dd = pytest.importorskip("dask.dataframe")
    >>> import pandas as pd
    >>> from collide2d.dask import query_pairs
    >>> table = pd.DataFrame({"x": [0.0, 3.0, 10.0], "y": [0.0, 0.0, 0.0], "rx": [2.0, 1.0, 1.0], "ry": [1.0, 3.0, 1.0]})
    >>> pairs = query_pairs(dd.from_pandas(table, npartitions=2)).compute()
    >>> pairs[["a", "b", "relation", "separation", "overlap_area"]].to_string(index=False)
    ' a  b relation  separation  overlap_area\\n 0  1 TOUCHING         0.0           0.0'
    >>> len(query_pairs(dd.from_pandas(table.iloc[:0], npartitions=1)).compute())  # no shapes
    0
    """
    _require_dask()
    import pandas as pd

    if not isinstance(degrees, (bool, np.bool_)):
        raise TypeError(f"degrees must be True or False, got {degrees!r}")
    if not (isinstance(tile_shapes, (int, np.integer)) and tile_shapes > 0):
        raise ValueError(f"tile_shapes must be a positive integer, got {tile_shapes!r}")
    from collide2d.broadphase import _check_predicate

    _check_predicate(predicate)
    box = _periodic_box(periodic)
    path = os.fspath(shapes) if isinstance(shapes, (str, os.PathLike)) else None
    layout = None
    try:
        frame, layout = _as_frame(shapes)
        # the first pass, blockwise on the same frame as the second so that partition k is the same
        summary_meta = pd.DataFrame({name: np.zeros(0) for name in _SUMMARY})
        summary = frame.map_partitions(_summary, layout, degrees, box, meta=summary_meta).compute()
    except ValueError as error:  # pandas' parse errors and undecodable bytes: find the file and line
        if path is None or isinstance(error, _io().InputError):
            raise
        _locate(path, layout)
        raise ValueError(f"{path}: {' '.join(str(error).split())}") from None
    summary = summary.to_numpy().reshape(-1, len(_SUMMARY))
    _check_rows(summary, frame, layout, path, degrees)
    grid, _ = _make_grid(summary, box, tiles, tile_shapes)
    rows = summary[:, 0].astype(np.int64)
    meta = _meta(frame, layout, box is not None)
    columns = ["tile", "row"] + layout.carried + (["id"] if layout.has_id else [])
    kinds = {"tile": np.int64, "row": np.int64, "kind": object, "vertices": object}
    explode_meta = pd.DataFrame({name: np.zeros(0, dtype=kinds.get(name, np.float64)) for name in columns})
    if layout.has_id:
        explode_meta["id"] = explode_meta["id"].astype(frame.dtypes["id"])
    exploded = frame.map_partitions(_explode, rows, layout, degrees, box, grid, columns, meta=explode_meta)
    tiled = exploded.set_index("tile", divisions=list(range(grid.size + 1)))
    return tiled.map_partitions(_tile_frame, layout, degrees, periodic, grid, predicate, meta, meta=meta, align_dataframes=False)


def _io():
    from collide2d import io

    return io


def _locate(path, layout):
    """Read the files of ``path`` with the single-machine reader, which raises the first bad row
    with its file and line; return quietly when it finds none, or when the catalogue is of mixed
    kinds (which that reader does not take)."""
    if isinstance(layout, _MixedLayout):
        return
    io = _io()
    for name in _files(path):
        reader = io._read_csv if path.lower().endswith(".csv") else io._read_parquet
        reader(pathlib.Path(name))


def _check_rows(summary, frame, layout, path, degrees):
    """Raise for the first row that makes no shape, naming it; warn once for angles beyond 2 pi."""
    io = _io()
    rows = summary[:, 0].astype(np.int64)
    bad = summary[:, _SUMMARY.index("bad_row")]
    if np.any(bad >= 0):
        if path is not None:
            _locate(path, layout)
        k = int(np.flatnonzero(bad >= 0)[0])
        offset = int(rows[:k].sum())
        data = layout.values(frame.get_partition(k).compute())
        numbers = offset + 1 + np.arange(len(data))
        raise ValueError(layout.problem(data, numbers, path or "shapes", degrees) + " (rows counted from 1)")
    angle_row = summary[:, _SUMMARY.index("angle_row")]
    if not degrees and np.any(angle_row >= 0):
        k = int(np.flatnonzero(angle_row >= 0)[0])
        row = int(rows[:k].sum() + angle_row[k]) + 1
        largest = float(summary[:, _SUMMARY.index("largest_angle")].max())
        warnings.warn(
            io.DegreesWarning(
                f"{path or 'shapes'}: angles up to {largest:g} (the first at row {row}, counted from 1) are read as "
                "radians, but |angle| > 2 pi suggests degrees; pass degrees=True (collide2d pairs --degrees) if they are degrees"
            ),
            stacklevel=3,
        )


def pairs_frame(source, *, predicate="intersects", periodic=None, degrees=False, scheduler=None):
    """The entry point of ``collide2d pairs INPUT --dask [--scheduler ADDRESS]``.

    Parameters
    ----------
    source : path or dask.dataframe.DataFrame
        A Parquet dataset or a CSV catalogue (see :func:`query_pairs`).
    predicate, periodic, degrees
        As for :func:`query_pairs`.
    scheduler : str, optional
        The address of a Dask scheduler, such as ``"tcp://10.0.0.5:8786"``: connect a
        ``distributed.Client`` to it, which stays the default scheduler for the rest of the
        session (so that computing the result runs there). ``None``: the active
        ``distributed.Client`` if any, else Dask's threads.

    Returns
    -------
    dask.dataframe.DataFrame
        As :func:`query_pairs`: :data:`COLUMNS`, one partition per tile.

    Examples
    --------
    >>> import pytest; dd = pytest.importorskip("dask.dataframe")
    >>> import pathlib, tempfile
    >>> from collide2d.dask import pairs_frame
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "cat.csv"
    >>> _ = path.write_text("x,y,r,id\\n0,0,1,a\\n2,0,1,b\\n5,0,1,c\\n")
    >>> pairs_frame(path).compute()[["a", "b", "relation"]].values.tolist()
    [['a', 'b', 'TOUCHING']]
    """
    _require_dask()
    if scheduler is not None:
        if not isinstance(scheduler, str):
            raise TypeError(f"scheduler must be the address of a Dask scheduler, got {scheduler!r}")
        from distributed import Client

        _clients.append(Client(scheduler, set_as_default=True))
    return query_pairs(source, predicate=predicate, periodic=periodic, degrees=degrees)
