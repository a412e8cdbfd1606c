"""ShapeTable: many shapes of mixed kinds packed into flat arrays.

A table is the mixed-kind collection that :func:`collide2d.query_pairs` and :func:`collide2d.query`
accept. Its layout follows shapely's ragged arrays: an int8 kind code per shape, one fixed-width
float64 parameter row per shape, and the vertices of every polygon in one coordinate array.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

from collide2d import _degrees, _formats
from collide2d._glue import run
from collide2d.shapes import Box, Capsule, Circle, Ellipse, Line, Point, Polygon, RotatedBox, Segment, Shape
from collide2d.typing import FloatArray, Int8Array, IntArray, Single

__all__ = ["ShapeTable"]

KIND_NAMES = ("ellipse", "polygon", "segment", "line", "point", "rounded")  # kind code -> kernel kind
PARAM_WIDTH = 6  # the widest parameter row of the plain kinds (ellipse: cx, cy, a, b, wx, wy)
ROUNDED_WIDTH = 7  # a rounded row (offset, count, r, x0, y0, x1, y1): tables holding one are this wide
# The class of each kind of the DataFrame catalogue (collide2d._formats.CATALOGUE_COLUMNS), in its order.
_CLASSES = {
    "ellipse": Ellipse,
    "circle": Circle,
    "box": Box,
    "rotated_box": RotatedBox,
    "segment": Segment,
    "line": Line,
    "point": Point,
    "polygon": Polygon,
    "capsule": Capsule,
}


def _readonly(array):
    array.flags.writeable = False
    return array


class ShapeTable:
    """A packed, immutable collection of shapes of any kinds.

    Parameters
    ----------
    shapes : Shape or sequence of Shape
        Single shapes and batches, in order; a batch contributes its shapes in C order
        (``batch.size`` of them). The table's shape ``k`` is the ``k``-th of all of them.
    ids : array_like, shape (n,), optional
        A label per shape (a catalogue's ids); by default those of ``shapes`` when it is a table,
        else none. :meth:`to_dataframe` writes them as an ``id`` column.

    Attributes
    ----------
    ids : ndarray of shape (n,), or None
        The labels of the shapes: those given, or what :meth:`from_dataframe` read (the ``id``
        column, else the frame's index unless it is the default ``0 .. n-1``); read-only.
    kinds : ndarray of int8, shape (n,)
        Kind code of each shape: an index into :attr:`KIND_NAMES` (``0`` ellipse and circle,
        ``1`` polygon, box and rotated box, ``2`` segment, ``3`` line, ``4`` point, ``5`` the
        rounded kind: a :class:`~collide2d.Capsule`, or a polygon or box with ``radius > 0``).
    params : ndarray of float64, shape (n, 6), or (n, 7) when the table holds a rounded shape
        The kernel parameter row of each shape, zero-padded (see :mod:`collide2d._kernels`);
        a polygon row is ``(offset, count)`` into :attr:`vertices`; a rounded row is
        ``(offset, count, radius, x0, y0, x1, y1)``, its core the polygon of ``count >= 3``
        vertices at ``offset``, else the segment or point ``(x0, y0)[, (x1, y1)]``.
    vertices : ndarray of float64, shape (m, 2)
        The vertices of all polygons and polygon cores, counter-clockwise, one after the other.
    vertex_offsets : ndarray of int64, shape (n + 1,)
        Shape ``k`` owns ``vertices[vertex_offsets[k]:vertex_offsets[k + 1]]`` (empty unless a
        polygon).

    Notes
    -----
    ``table[k]`` returns shape ``k`` as the single shape it was given as (a :class:`Circle` stays
    a circle). All arrays are read-only.

    Examples
    --------
    >>> import collide2d as c2
    >>> table = c2.ShapeTable([c2.Circle([(0, 0), (3, 0)], 1), c2.Box((1, -1), (2, 1)), c2.Point((9, 9))])
    >>> len(table)
    4
    >>> table.kinds.tolist()
    [0, 0, 1, 4]
    >>> table[2]
    Box(min=(1.0, -1.0), max=(2.0, 1.0))
    >>> table.bounds[3].tolist()
    [9.0, 9.0, 9.0, 9.0]
    >>> len(c2.ShapeTable([]))  # an empty table is allowed
    0
    """

    KIND_NAMES = KIND_NAMES
    kinds: Int8Array
    params: FloatArray
    vertices: FloatArray
    vertex_offsets: IntArray
    ids: Any
    _sources: tuple[Shape[Any], ...]
    _frame: dict[str, Any]  # how to_dataframe gives back what from_dataframe read (see there)
    _starts: IntArray
    _bounds: FloatArray | None

    def __init__(self, shapes: Shape[Any] | Iterable[Shape[Any]] | ShapeTable, *, ids: Any = None) -> None:
        frame: dict[str, Any] = {}
        inherited = None
        if isinstance(shapes, ShapeTable):
            frame, inherited = dict(shapes._frame), shapes.ids
            shapes = shapes._sources
        elif isinstance(shapes, Shape):
            shapes = [shapes]
        try:
            sources = list(shapes)
        except TypeError:
            raise TypeError(f"shapes must be a shape or a sequence of shapes, got {type(shapes).__name__}") from None
        for k, shape in enumerate(sources):
            if not isinstance(shape, Shape):
                raise TypeError(f"shapes[{k}] must be a collide2d shape (Point, Circle, ...), got {type(shape).__name__}")
            if shape._kind == "rounded":  # radius 0 everywhere: the core's kind, today's rows
                sources[k] = run.rounded().plain_if_zero(shape)
        sizes = np.array([shape.size for shape in sources], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        n = int(starts[-1])
        kinds = np.empty(n, dtype=np.int8)
        rounded = any(shape._kind == "rounded" for shape in sources)
        params = np.zeros((n, ROUNDED_WIDTH if rounded else PARAM_WIDTH))
        vertex_parts = []
        n_vertices = 0
        for shape, lo, hi in zip(sources, starts[:-1], starts[1:]):
            kinds[lo:hi] = KIND_NAMES.index(shape._kind)
            rows = shape._flat_params()
            if shape._kind in ("polygon", "rounded"):
                core = rows[:, 1] >= 3 if shape._kind == "rounded" else np.ones(len(rows), dtype=bool)
                offsets = rows[:, 0].astype(np.int64)
                counts = np.where(core, rows[:, 1], 0).astype(np.int64)  # a rounded row's polygon core
                gather = np.repeat(offsets - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
                gather += np.arange(int(counts.sum()))
                vertex_parts.append(shape._verts[gather])
                params[lo:hi, : rows.shape[1]] = rows
                params[lo:hi, 0] = np.where(core, n_vertices + np.concatenate([[0], np.cumsum(counts)[:-1]]), 0.0)
                n_vertices += int(counts.sum())
            else:
                params[lo:hi, : rows.shape[1]] = rows
        vertices = np.concatenate(vertex_parts) if vertex_parts else np.zeros((0, 2))
        vertex_offsets = np.zeros(n + 1, dtype=np.int64)
        polygon = (kinds == 1) | ((kinds == 5) & (params[:, 1] >= 3))
        counts = np.where(polygon, params[:, 1], 0).astype(np.int64)
        vertex_offsets[1:] = np.cumsum(counts)
        self._sources = tuple(sources)
        self._starts = starts
        self.ids = inherited
        if ids is not None:  # labels given: to_dataframe writes them as an id column
            self.ids = frame["id"] = _labels(ids, n)
        self._frame = frame
        self.kinds = _readonly(kinds)
        self.params = _readonly(params)
        self.vertices = _readonly(np.ascontiguousarray(vertices, dtype=np.float64))
        self.vertex_offsets = _readonly(vertex_offsets)
        self._bounds = None  # computed on first use (polygon bounds are a compiled pass)

    @classmethod
    def from_dataframe(cls, df: Any, *, columns: dict[str, str] | None = None, degrees: bool | None = None) -> ShapeTable:
        """Build a table from the rows of a pandas DataFrame (a catalogue), without a loop over rows.

        Columns ``x, y, rx, ry[, angle]`` (ellipses), ``x, y, r`` (circles) and the others of
        :func:`collide2d.convert.table_from_dataframe`, or a ``kind`` column for mixed kinds. The
        ``id`` column, else the index (unless it is the default ``0 .. n-1``), become :attr:`ids`;
        :meth:`to_dataframe` gives them back, and the angles in degrees after ``degrees=True``.

        Parameters
        ----------
        df : pandas.DataFrame
        columns : dict, optional
            Renames ``{catalogue name: column of df}``.
        degrees : bool, optional
            Read ``angle`` in degrees (True) or radians (False). When not given, radians, with a
            :class:`~collide2d.io.DegreesWarning` when an angle's magnitude exceeds 2 pi, as the
            command line gives.

        Returns
        -------
        ShapeTable

        Examples
        --------
        >>> import pandas as pd
        >>> import collide2d as c2
        >>> df = pd.DataFrame({"ra": [0.0, 1.5], "dec": [0.0, 0.0], "size": [1.0, 1.0]})
        >>> table = c2.ShapeTable.from_dataframe(df, columns={"x": "ra", "y": "dec", "r": "size"})
        >>> table, c2.query_pairs(table).tolist()
        (<ShapeTable of 2 shapes: 2 ellipse>, [[0], [1]])
        """
        return _table_from_dataframe(df, columns, degrees)

    def to_dataframe(self, *, degrees: bool | None = None) -> Any:
        """Return a pandas DataFrame with one row per shape: ``kind`` and the columns of each kind
        (see :func:`collide2d.convert.table_to_dataframe`); ``from_dataframe`` reads it back.

        What :meth:`from_dataframe` read comes back: the ids as the ``id`` column or the index they
        came as, and the angles in the degrees given (bit for bit) after ``degrees=True``, unless
        ``degrees`` says otherwise (False: radians; True: degrees).

        Examples
        --------
        >>> import collide2d as c2
        >>> c2.ShapeTable([c2.Ellipse((0, 0), (2, 1), 0.5)]).to_dataframe()
              kind    x    y   rx   ry  angle
        0  ellipse  0.0  0.0  2.0  1.0    0.5
        """
        parts = [(_formats.catalogue_kind(source), source, (source._kind, source._params, source._verts)) for source in self._sources]
        return _formats.table_frame(parts, self._frame, degrees)

    def __len__(self) -> int:
        return int(self._starts[-1])

    @property
    def bounds(self) -> FloatArray:
        """Axis-aligned bounds ``(xmin, ymin, xmax, ymax)`` per shape: array of shape (n, 4).

        Curved bounds are rounded outward; a line is unbounded (infinite) along its direction.
        """
        if self._bounds is None:
            bounds = np.empty((len(self), 4))
            for shape, lo, hi in zip(self._sources, self._starts[:-1], self._starts[1:]):
                bounds[lo:hi] = np.asarray(shape._bounds()).reshape(-1, 4)
            self._bounds = _readonly(bounds)
        return self._bounds

    @property
    def kind_names(self) -> list[str]:
        """Kernel kind name of each shape (``"ellipse"``, ``"polygon"``, ...), a list."""
        return [KIND_NAMES[code] for code in self.kinds.tolist()]

    def __getitem__(self, index: int) -> Shape[Single]:
        n = len(self)
        if isinstance(index, (bool, np.bool_)) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"a ShapeTable is indexed by an integer, got {type(index).__name__}")
        k = int(index) + n if index < 0 else int(index)
        if not 0 <= k < n:
            raise IndexError(f"index {index} is out of range for a table of {n} shapes")
        source_index = int(np.searchsorted(self._starts, k, side="right")) - 1
        source = self._sources[source_index]
        if not source.shape:
            return source
        return source[np.unravel_index(k - int(self._starts[source_index]), source.shape)]

    def __iter__(self) -> Iterator[Shape[Single]]:
        for k in range(len(self)):
            yield self[k]

    def __repr__(self) -> str:
        counts = np.bincount(self.kinds, minlength=len(KIND_NAMES))
        parts = ", ".join(f"{count} {name}" for name, count in zip(KIND_NAMES, counts.tolist()) if count)
        return f"<ShapeTable of {len(self)} shapes{': ' + parts if parts else ''}>"

    def __reduce__(self):
        return (_rebuild, (list(self._sources), self.ids, self._frame))


def _rebuild(sources, ids, frame):
    table = ShapeTable(sources, ids=ids)
    table._frame = frame
    return table


def _labels(ids, n):
    """``ids`` as a new read-only array of ``n`` labels (tuples, as a MultiIndex gives, kept whole)."""
    labels = np.array(ids)
    if labels.ndim > 1 and len(ids) == n:
        labels = np.empty(n, dtype=object)
        for k, label in enumerate(ids):
            labels[k] = label
    if labels.shape != (n,):
        raise ValueError(f"ids must hold one label per shape, shape ({n},), got shape {labels.shape}")
    return _readonly(labels)


def _table_from_dataframe(df, columns, degrees):
    """:func:`collide2d.convert.table_from_dataframe`, called by it and by
    :meth:`ShapeTable.from_dataframe` (so that a warning names the caller of either)."""
    if degrees is not None and not isinstance(degrees, (bool, np.bool_)):
        raise TypeError(f"degrees must be True, False or None (not given), got {type(degrees).__name__}")
    frame = _formats.catalogue_frame(df, columns)
    names = list(frame)
    n = len(df)
    if "kind" in frame:
        kinds = np.asarray(frame["kind"], dtype=object).astype(str)
        unknown = sorted(set(kinds.tolist()) - set(_CLASSES))
        if unknown:
            raise ValueError(f"df: unknown kind {unknown[0]!r}; use one of {', '.join(_CLASSES)}")
        _formats.stray_values(kinds, frame)
    else:
        kinds = np.full(n, _formats.kind_of_columns(names), dtype=object)
    # a run: consecutive rows of one kind, all rounded (a radius) or all plain (none), all built
    # from a direction or none
    keys = _formats.run_keys(kinds.astype(str), frame, n)
    change = (kinds[1:] != kinds[:-1]) | (keys[1:] != keys[:-1])
    starts = np.concatenate([[0], np.flatnonzero(change) + 1, [n]]) if n else np.zeros(1, dtype=np.int64)
    runs = [(str(kinds[lo]), lo, hi) for lo, hi in zip(starts[:-1].tolist(), starts[1:].tolist())]
    batches = []
    angles = np.full(n, np.nan)  # the angles read, as given (degrees or radians), NaN for other kinds
    notes = {}
    for kind, lo, hi in runs:
        batch = _run_batch(kind, frame, lo, hi, degrees)
        batches.extend(batch if isinstance(batch, list) else [batch])
        if kind in _formats.ANGLE_OPTIONAL and "angle" in frame:
            angles[lo:hi] = _formats.frame_numbers(frame["angle"], "angle", lo, hi)
            _degrees.angle_note(notes, angles[lo:hi, None], ["angle"], np.arange(lo, hi), "df", row_word="row")
    if degrees is None:
        _degrees.warn_degrees(notes, "df", advice="pass degrees=True", stacklevel=4)
    table = ShapeTable(batches)
    table._frame = {"degrees": angles} if degrees else {}
    if "id" in frame:
        table._frame["id"] = frame["id"].array.copy()  # pandas' array: its dtype comes back too
        table.ids = _labels(frame["id"].to_numpy(), n)
    if not _formats.is_default_index(df.index):
        table._frame["index"] = df.index
        if "id" not in frame:
            table.ids = _labels(df.index.to_numpy(), n)
    return table


def _run_batch(kind, frame, lo, hi, degrees):
    """The batch of rows ``lo:hi``, all of ``kind`` (a list of polygons of different vertex counts)."""
    fields, rounding = _formats.run_fields(kind, frame, lo, hi, degrees)
    where = f"df rows {lo} to {hi - 1} ({kind})"
    if kind == "polygon":
        try:  # the constructor validates the numbers (a string or a boolean is refused there)
            if len({np.shape(v) for v in fields}) == 1:  # equal vertex counts: one batch
                return Polygon(np.array(fields), **rounding)
            radii = rounding.get("radius", np.zeros(len(fields)))
            return [Polygon(v, radius=float(r)) if "radius" in rounding else Polygon(v) for v, r in zip(fields, radii)]
        except (TypeError, ValueError) as error:
            raise ValueError(f"{where}: {error}") from None
    try:
        return _CLASSES[kind](*fields, **rounding)
    except ValueError as error:
        raise ValueError(f"{where}: {error}") from None
