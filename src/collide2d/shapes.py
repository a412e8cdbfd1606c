"""The eight shape classes: immutable, validated at construction, batchable.

Every field may be an array; the *batch shape* of a shape is the broadcast of its fields' shapes
(vector fields carry a trailing axis of length 2). A single shape is a batch of shape ``()``.

Each shape also stores the parameter rows its kernels read (see :mod:`collide2d._kernels`): the
shape *is* the set described exactly by those stored float64 numbers. An orientation is stored as
the direction vector of the shape's own x axis: either the ``direction`` given, used exactly, or
the direction of ``angle`` within about one ulp (see :mod:`collide2d._angles`).

Construction has two paths with the same rules: Python numbers (and tuples or lists of two) are
checked and packed with plain float arithmetic and one small array; anything else goes through
NumPy in a few whole-array passes.

Why this file is over 800 lines: it holds the public classes only, each with its numpydoc
docstring, its typed overloads and its constructor's two paths; what the constructors share is
in :mod:`collide2d._shape_build`, the foreign formats in :mod:`collide2d._formats`. One module
keeps each class at its public path (``collide2d.shapes.Ellipse``, the name a pickle stores) and
the eight classes side by side, as their documentation page shows them.
"""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Iterator, Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic, overload

import numpy as np
from numpy.typing import ArrayLike

from collide2d import _angles, _convex, _formats, _geometry
from collide2d._validate import as_float_array, broadcast_batch, check_coordinates, check_range, check_sizes, pair, points, real
from collide2d.typing import Count, FloatArray, Pair, Single
from collide2d._shape_build import (  # the constructors' shared helpers, all of them (code here reads them)
    _DIRECTION_RANGE, _PACK, _TOO_SMALL, _any_equal_rows, _broadcast_fields, _copy, _corner_polygons, _direction, _direction_angle,
    _ellipse_bounds, _frombuffer, _frozen, _orientation, _polygon_bounds, _put, _rows, _scale_direction, _too_small,
    _two_points,
)

__all__ = ["Box", "Capsule", "Circle", "Ellipse", "Line", "Point", "Polygon", "RotatedBox", "Segment", "Shape"]

_EMPTY_VERTS = np.zeros((0, 2))
_EMPTY_VERTS.flags.writeable = False
_FOUR = np.array([0.0, 4.0])  # the polygon row (offset, count) of one box
_FOUR.flags.writeable = False


def direction_from_angle(angle: ArrayLike) -> FloatArray:
    """Return the stored direction vector ``(wx, wy)`` for ``angle`` (array of shape ``(..., 2)``).

    Whole quarter turns are applied exactly (so 0, ``math.pi / 2``, ``math.pi``, ... give axis
    vectors exactly, as does any angle within one ulp of a multiple of pi/2 below about 3.5e15
    rad); otherwise the direction is within about one ulp of ``(cos angle, sin angle)``
    for the float ``angle`` (see :mod:`collide2d._angles`).

    Examples
    --------
    >>> import math
    >>> from collide2d.shapes import direction_from_angle
    >>> direction_from_angle(math.pi / 2).tolist()
    [0.0, 1.0]
    >>> direction_from_angle(0.5).tolist() == [math.cos(0.5), math.sin(0.5)]
    True
    """
    return _angles.direction(angle)


def _readonly(array):
    array = np.array(array, dtype=np.float64, order="C")  # a copy: callers' arrays stay theirs
    array.flags.writeable = False
    return array


class Shape(Generic[Count]):
    """Base class of all shapes: batch bookkeeping shared by every kind.

    Subclasses set ``_kind`` (the kernel kind), ``_fields`` (public field arrays, each broadcast to
    the batch shape plus its own trailing axes), ``_params`` (kernel rows, shape ``batch + (P,)``)
    and ``_verts`` (polygon vertices that polygon rows index, else empty).

    Examples
    --------
    >>> import collide2d as c2
    >>> dots = c2.Circle([(0, 0), (1, 0), (2, 0)], 0.5)
    >>> isinstance(dots, c2.Shape), dots.shape, len(dots), dots[1]
    (True, (3,), 3, Circle(center=(1.0, 0.0), radius=0.5))
    >>> dots[:, None].shape
    (3, 1)
    """

    __slots__ = ("_fields", "_params", "_verts", "_scalar", "_tame")  # _tame: see _dispatch.tame_rows
    _kind: ClassVar[str] = ""
    _field_names: ClassVar[tuple[str, ...]] = ()
    if TYPE_CHECKING:
        _fields: dict[str, FloatArray]
        _params: FloatArray
        _verts: FloatArray
        _scalar: Any
        _tame: Any

        def _bounds(self) -> FloatArray: ...

    def _finish(self, fields, params, verts=_EMPTY_VERTS):
        object.__setattr__(self, "_fields", {k: _readonly(v) for k, v in fields.items()})
        object.__setattr__(self, "_params", _readonly(params))
        object.__setattr__(self, "_verts", verts if verts is _EMPTY_VERTS else _readonly(verts))
        object.__setattr__(self, "_scalar", None)
        object.__setattr__(self, "_tame", None)  # computed on first use by _dispatch.tame_rows

    def _finish_owned(self, fields, params, verts=_EMPTY_VERTS):
        """Like :meth:`_finish` without copies: every array is new, read-only and this shape's
        own (fields may be views of ``params``, which a read-only base keeps read-only).

        Every constructor ends here, so the supported range of magnitudes is checked here, once
        per shape, on the validated fields (:func:`collide2d._validate.check_range`)."""
        check_range(type(self).__name__.lower(), fields, params)
        setter = object.__setattr__
        setter(self, "_fields", fields)
        setter(self, "_params", params)
        setter(self, "_verts", verts)
        setter(self, "_scalar", None)
        setter(self, "_tame", None)  # computed on first use by _dispatch.tame_rows

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    if not TYPE_CHECKING:  # type checkers see each class's declared fields instead

        def __getattr__(self, name):
            fields = object.__getattribute__(self, "_fields")
            if name in fields:
                value = fields[name]
                return value.item() if value.ndim == 0 else value.view()  # a view: see fields
            raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def __reduce__(self):
        return (_rebuild, (type(self), self._fields, self._params, self._verts))

    @property
    def shape(self) -> tuple[int, ...]:
        """Batch shape: ``()`` for a single shape."""
        return self._params.shape[:-1]

    @property
    def ndim(self) -> int:
        """Number of batch dimensions."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """Number of shapes in the batch (1 for a single shape)."""
        return int(np.prod(self.shape, dtype=np.int64))

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError(f"len() of a single {type(self).__name__}")
        return self.shape[0]

    def __iter__(self) -> Iterator[Shape[Any]]:
        for index in range(len(self)):
            yield self[index]

    def __getitem__(self, index: Any) -> Shape[Any]:
        if not self.shape:
            raise IndexError(f"a single {type(self).__name__} cannot be indexed")
        index = index if isinstance(index, tuple) else (index,)
        # Expand ``...`` so that the index addresses batch axes only (never a field's trailing axis);
        # ``None`` inserts a new batch axis, as in NumPy (``dots[:, None]``).
        addressed = sum(1 for item in index if item is not None and item is not Ellipsis)
        if sum(1 for item in index if item is Ellipsis) > 1 or addressed > self.ndim:
            raise IndexError(f"index {index!r} must address only the {self.ndim} batch dimension(s)")
        if any(item is Ellipsis for item in index):
            at = next(k for k, item in enumerate(index) if item is Ellipsis)
            index = index[:at] + (slice(None),) * (self.ndim - addressed) + index[at + 1 :]
        else:
            index = index + (slice(None),) * (self.ndim - addressed)
        params = self._params[index]
        verts = self._verts
        if len(verts):  # polygon rows (offset, count): keep the selected polygons' vertices only
            params, verts = _selected_vertices(params, verts)
        fields = {}
        for name, value in self._fields.items():
            fields[name] = value[index]
        new = object.__new__(type(self))
        new._finish(fields, params, verts)
        return new

    def __eq__(self, other: object) -> bool:
        return NotImplemented if not isinstance(other, Shape) else self is other

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        name = type(self).__name__
        if self.shape:
            return f"<{name} batch of shape {self.shape}>"
        parts = []
        for field in self._field_names:
            value = self._fields[field]
            text = repr(value.item()) if value.ndim == 0 else repr(tuple(value.tolist()))
            parts.append(f"{field}={text}")
        return f"{name}({', '.join(parts)})"

    @property
    def __geo_interface__(self) -> dict[str, Any]:
        """The GeoJSON-like mapping of the shape (an ellipse as its inscribed polygon within
        ``1e-3`` of its larger radius): see :func:`collide2d.convert.geo_interface`."""
        if self._kind == "line":  # an AttributeError, so that hasattr() and getattr(..., None) say no
            raise AttributeError("a Line is infinite: GeoJSON has no geometry for it")
        return _formats.geo_mapping((self._kind, self._params, self._verts))

    @property
    def bounds(self) -> Any:
        """Axis-aligned bounds ``(xmin, ymin, xmax, ymax)``: a tuple for a single shape, else
        an array of shape ``batch + (4,)``. Curved bounds are rounded outward."""
        bounds = self._bounds()
        return tuple(bounds.tolist()) if bounds.ndim == 1 else bounds

    @property
    def area(self) -> Any:
        """Area: a float for a single shape, else an array of the batch shape (0 for a point, a
        segment or a line). See :func:`collide2d.area` for the accuracy.

        Examples
        --------
        >>> import collide2d as c2
        >>> c2.Box((0, 0), (2, 3)).area
        6.0
        >>> c2.Circle([(0, 0), (5, 0)], [1, 2]).area.round(6).tolist()
        [3.141593, 12.566371]
        """
        return _geometry.area(self._kind, self._params, self._verts)

    @property
    def length(self) -> Any:
        """Perimeter of a region, length of a segment, 0 for a point, ``inf`` for a line: a float
        or an array of the batch shape. See :func:`collide2d.length`.

        Examples
        --------
        >>> import collide2d as c2
        >>> c2.Segment((0, 0), (3, 4)).length
        5.0
        >>> round(c2.Ellipse((0, 0), (2, 1)).length, 9)  # a complete elliptic integral
        9.688448221
        """
        return _geometry.length(self._kind, self._params, self._verts)

    @property
    def centroid(self) -> Any:
        """Centroid ``(x, y)``: a tuple for a single shape, else an array ``batch + (2,)``;
        ``ValueError`` for a line. See :func:`collide2d.centroid`.

        Examples
        --------
        >>> import collide2d as c2
        >>> c2.Polygon([(0, 0), (3, 0), (0, 3)]).centroid
        (1.0, 1.0)
        """
        return _geometry.centroid(self._kind, self._params, self._verts)

    @property
    def fields(self) -> Mapping[str, FloatArray]:
        """The fields by name, in the constructor's order: read-only arrays of the batch shape plus
        each field's own axes (``(2,)`` for a point, ``(N, 2)`` for a polygon's vertices, none for
        a radius or an angle). The same values as the attributes (``shape.center``, ...), which give
        a single shape's scalar fields as floats. An ellipse or rotated box built from a
        ``direction`` has it as a field too (its angle gives the direction within an ulp only):
        ``type(shape)(**shape.fields)`` is the same shape, bit for bit, for every kind.

        Examples
        --------
        >>> import collide2d as c2
        >>> fields = c2.Ellipse([(0, 0), (5, 0)], (2, 1), 0.5).fields
        >>> list(fields), fields["center"].shape, fields["angle"].tolist()
        (['center', 'radii', 'angle'], (2, 2), [0.5, 0.5])
        """
        # views: a view of a read-only array cannot be made writeable (``flags.writeable = True``
        # raises), where the stored arrays that own their data could, and one of them is the
        # kernel parameter table of a batch of points
        return MappingProxyType({name: value.view() for name, value in self._fields.items()})

    # Kernel access -----------------------------------------------------------------------------
    def _flat_params(self):
        return self._params.reshape(-1, self._params.shape[-1])


def _selected_vertices(params, verts):
    """The polygon rows ``params`` (``(offset, count, ...)`` into ``verts``) renumbered into a table of
    their own vertices, in row order: an element of a batch of 200,000 boxes then holds its 4
    vertices, not the batch's 800,000."""
    counts = params[..., 1].astype(np.int64)
    flat_counts = counts.reshape(-1)
    starts = np.cumsum(flat_counts) - flat_counts
    take = np.repeat(params[..., 0].astype(np.int64).reshape(-1) - starts, flat_counts)
    take += np.arange(take.shape[0])
    new_params = np.array(params, dtype=np.float64)  # a row may hold more than (offset, count): the rounded kind's radius and extremes
    new_params[..., 0] = starts.reshape(counts.shape)
    return new_params, verts[take]


def _rebuild(cls, fields, params, verts):
    new = object.__new__(cls)
    new._finish(fields, params, verts)
    return new


class Point(Shape[Count]):
    """A point.

    Parameters
    ----------
    xy : array_like of shape (..., 2)
        Coordinates.

    Raises
    ------
    ValueError
        For invalid values, and outside the supported range of magnitudes: coordinates beyond
        ``|x| <= 2**500`` (about 3.27e150; tiny non-zero coordinates are fine).
        See https://collide2d.readthedocs.io/en/latest/conventions.html#supported-range-of-magnitudes.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Point((1, 2))
    Point(xy=(1.0, 2.0))
    >>> c2.Point([[0, 0], [1, 1]]).shape
    (2,)
    """

    if TYPE_CHECKING:
        xy: FloatArray

    __slots__ = ()
    _kind = "point"
    _field_names = ("xy",)

    @overload
    def __init__(self: Point[Single], xy: Pair) -> None: ...
    @overload
    def __init__(self: Point[Any], xy: ArrayLike) -> None: ...
    def __init__(self, xy: Any) -> None:
        xy = pair(xy, "xy")
        if type(xy) is tuple:
            params = _frombuffer(_PACK[2](*xy))
        else:
            params = _copy(xy)  # a copy: the caller's array stays theirs
        self._finish_owned({"xy": params}, params)

    def _bounds(self):
        return np.concatenate([self._params, self._params], axis=-1)


class Segment(Shape[Count]):
    """A closed line segment from ``start`` to ``end``.

    Parameters
    ----------
    start, end : array_like of shape (..., 2)
        End points; they must differ (use :class:`Point` for a single point).

    Raises
    ------
    ValueError
        For invalid values, and outside the supported range of magnitudes: coordinates beyond
        ``|x| <= 2**500`` (about 3.27e150), or an extent ``max(|end - start|)`` below ``2**-500``
        (about 3.05e-151).
        See https://collide2d.readthedocs.io/en/latest/conventions.html#supported-range-of-magnitudes.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Segment((0, 0), (1, 0))
    Segment(start=(0.0, 0.0), end=(1.0, 0.0))
    """

    if TYPE_CHECKING:
        start: FloatArray
        end: FloatArray

    __slots__ = ()
    _kind = "segment"
    _field_names = ("start", "end")

    @overload
    def __init__(self: Segment[Single], start: Pair, end: Pair) -> None: ...
    @overload
    def __init__(self: Segment[Any], start: ArrayLike, end: ArrayLike) -> None: ...
    def __init__(self, start: Any, end: Any) -> None:
        start, end = pair(start, "start"), pair(end, "end")
        params, fields = _two_points(start, end, self._field_names)
        if start == end if type(start) is type(end) is tuple else _any_equal_rows(fields["start"], fields["end"]):
            raise ValueError("end must differ from start (a segment needs positive length)")
        self._finish_owned(fields, params)

    def _bounds(self):
        p = self._params
        return np.stack(
            [
                np.minimum(p[..., 0], p[..., 2]),
                np.minimum(p[..., 1], p[..., 3]),
                np.maximum(p[..., 0], p[..., 2]),
                np.maximum(p[..., 1], p[..., 3]),
            ],
            axis=-1,
        )


class Line(Shape[Count]):
    """An infinite straight line through ``point`` along ``direction``.

    Parameters
    ----------
    point : array_like of shape (..., 2)
        Any point of the line.
    direction : array_like of shape (..., 2)
        A non-zero direction vector (its length does not matter).

    Raises
    ------
    ValueError
        For invalid values, and outside the supported range of magnitudes: ``point`` beyond
        ``|x| <= 2**500`` (about 3.27e150). Any non-zero finite direction is allowed.
        See https://collide2d.readthedocs.io/en/latest/conventions.html#supported-range-of-magnitudes.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Line((0, 0), (1, 1))
    Line(point=(0.0, 0.0), direction=(1.0, 1.0))
    """

    if TYPE_CHECKING:
        point: FloatArray
        direction: FloatArray

    __slots__ = ()
    _kind = "line"
    _field_names = ("point", "direction")

    @overload
    def __init__(self: Line[Single], point: Pair, direction: Pair) -> None: ...
    @overload
    def __init__(self: Line[Any], point: ArrayLike, direction: ArrayLike) -> None: ...
    def __init__(self, point: Any, direction: Any) -> None:
        point, direction = pair(point, "point"), pair(direction, "direction")
        params, fields = _two_points(point, direction, self._field_names)
        if direction == (0.0, 0.0) if type(direction) is tuple else _any_equal_rows(fields["direction"], 0.0):
            raise ValueError("direction must be a non-zero vector")
        self._finish_owned(fields, params)

    def _bounds(self):
        p = self._params
        inf = np.inf
        xmin = np.where(p[..., 2] == 0, p[..., 0], -inf)
        ymin = np.where(p[..., 3] == 0, p[..., 1], -inf)
        xmax = np.where(p[..., 2] == 0, p[..., 0], inf)
        ymax = np.where(p[..., 3] == 0, p[..., 1], inf)
        return np.stack([xmin, ymin, xmax, ymax], axis=-1)


class Circle(Shape[Count]):
    """A closed disc.

    Parameters
    ----------
    center : array_like of shape (..., 2)
    radius : array_like of shape (...)
        Positive radius.

    Raises
    ------
    ValueError
        For invalid values, and outside the supported range of magnitudes: ``center`` beyond
        ``|x| <= 2**500`` (about 3.27e150), or a radius outside ``[2**-500, 2**500]`` (about
        3.05e-151 to 3.27e150).
        See https://collide2d.readthedocs.io/en/latest/conventions.html#supported-range-of-magnitudes.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Circle((0, 0), 1)
    Circle(center=(0.0, 0.0), radius=1.0)
    """

    if TYPE_CHECKING:
        center: FloatArray
        radius: Any  # float for a single circle

    __slots__ = ()
    _kind = "ellipse"
    _field_names = ("center", "radius")

    @overload
    def __init__(self: Circle[Single], center: Pair, radius: float) -> None: ...
    @overload
    def __init__(self: Circle[Any], center: ArrayLike, radius: ArrayLike) -> None: ...
    def __init__(self, center: Any, radius: Any) -> None:
        center, radius = pair(center, "center"), real(radius, "radius", positive=True)
        if type(center) is tuple and type(radius) is float:
            params = _frombuffer(_PACK[6](center[0], center[1], radius, radius, 1.0, 0.0))
        else:
            batch, f = _broadcast_fields({"center": center}, {"radius": radius})
            r = f["radius"]
            params = _rows(batch, 6, ((0, 2), f["center"]), (2, r), (3, r), (4, 1.0), (5, 0.0))
        self._finish_owned({"center": params[..., 0:2], "radius": params[..., 2]}, params)

    def to_opencv(self) -> Any:
        """OpenCV's ``((cx, cy), (width, height), angle_degrees)``: see :func:`collide2d.convert.to_opencv`."""
        radius = self._fields["radius"]
        half = np.stack([radius] * 2, axis=-1)
        return _formats.opencv_tuples(self._fields["center"], half, np.zeros(self.shape), self.shape)

    def _bounds(self):
        return _ellipse_bounds(self._params)


class Ellipse(Shape[Count]):
    """A closed, possibly rotated ellipse.

    Parameters
    ----------
    center : array_like of shape (..., 2)
    radii : array_like of shape (..., 2)
        Semi-axes along the ellipse's own x and y axes; positive, in any order.
    angle : array_like of shape (...), default 0
        Counter-clockwise rotation of the ellipse's own x axis from +x, in radians. Stored as the
        direction vector within about one ulp of ``(cos angle, sin angle)`` for the float given;
        an angle within one ulp of a multiple of pi/2 (``math.pi / 2``, ``np.pi``, ...) gives an
        axis vector exactly, below ``2**50 * pi`` (about 3.5e15 rad: beyond, every float is within
        an ulp of one, and keeps its own direction). Ignored when the two radii are equal.
    direction : array_like of shape (..., 2), optional
        Instead of ``angle``: the (non-zero, not necessarily unit) vector of the first radius,
        stored exactly (times a power of two if its size is beyond ``2**±500``), also a turn
        far below an ulp such as ``(1, 2**-101)``. ``angle`` then reports
        ``atan2(direction[1], direction[0])``.

    Raises
    ------
    ValueError
        Non-finite values, radii not positive, a zero ``direction``, or both ``angle`` (other than
        0) and ``direction``; and outside the supported range of magnitudes: ``center`` beyond
        ``|x| <= 2**500`` (about 3.27e150), radii outside ``[2**-500, 2**500]`` (about 3.05e-151 to
        3.27e150), or radii whose ratio exceeds ``2**100``.
        See https://collide2d.readthedocs.io/en/latest/conventions.html#supported-range-of-magnitudes.

    Examples
    --------
    >>> import collide2d as c2
    >>> e = c2.Ellipse((0, 0), (2, 1), angle=0.5)
    >>> e
    Ellipse(center=(0.0, 0.0), radii=(2.0, 1.0), angle=0.5)
    >>> e.direction.round(6).tolist()
    [0.877583, 0.479426]
    >>> d = c2.Ellipse((0, 0), (2, 1), direction=(3, 4))
    >>> d.direction.tolist(), round(d.angle, 6)
    ([3.0, 4.0], 0.927295)
    """

    if TYPE_CHECKING:
        center: FloatArray
        radii: FloatArray
        angle: Any  # float for a single ellipse

    __slots__ = ()
    _kind = "ellipse"
    _field_names = ("center", "radii", "angle")

    @overload
    def __init__(
        self: Ellipse[Single], center: Pair, radii: Pair, angle: float = 0.0, *,
        direction: Pair | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self: Ellipse[Any], center: ArrayLike, radii: ArrayLike, angle: ArrayLike = 0.0, *,
        direction: ArrayLike | None = None,
    ) -> None: ...
    def __init__(self, center: Any, radii: Any, angle: Any = 0.0, *, direction: Any = None) -> None:
        center, radii = pair(center, "center"), pair(radii, "radii", positive=True)
        angle, w, single = _orientation(angle, direction)
        if type(center) is tuple and type(radii) is tuple and single is not None:
            angle, wx, wy = single
            if radii[0] == radii[1]:
                wx, wy = 1.0, 0.0
            row = _frombuffer(_PACK[7](center[0], center[1], radii[0], radii[1], wx, wy, angle))
            fields = {"center": row[0:2], "radii": row[2:4], "angle": row[6, ...]}
            if w is not None:  # built from a direction: kept, so that Ellipse(**fields) is this ellipse
                fields["direction"] = _frombuffer(_PACK[2](*w))
            self._finish_owned(fields, row[:6])
            return
        vectors = {"center": center, "radii": radii}
        if w is None:
            batch, f = _broadcast_fields(vectors, {"angle": angle})
            params = np.empty(batch + (6,))
            _put(params, (0, 2), f["center"])
            _put(params, (2, 4), f["radii"])
            angle = np.array(f["angle"], dtype=np.float64)
            _angles.fill_ellipse_rows(angle.reshape(-1), params.reshape(-1, 6))
            params, angle = _frozen(params), _frozen(angle)
        else:
            batch, f = _broadcast_fields({**vectors, "direction": w}, {} if angle is None else {"angle": angle})
            angle = _direction_angle(f, angle)
            params = _rows(batch, 6, ((0, 2), f["center"]), ((2, 4), f["radii"]), ((4, 6), f["direction"]))
            circle = params[..., 2] == params[..., 3]
            if circle.any():
                params.flags.writeable = True
                params[circle, 4:6] = (1.0, 0.0)
                params.flags.writeable = False
        fields = {"center": params[..., 0:2], "radii": params[..., 2:4], "angle": angle}
        if w is not None:  # the direction as given (a circle's row stores (1, 0)): Ellipse(**fields) rebuilds it
            fields["direction"] = _frozen(np.array(np.broadcast_to(f["direction"], batch + (2,)), dtype=np.float64))
        self._finish_owned(fields, params)

    @overload
    @classmethod
    def from_covariance(cls, mean: Pair, cov: Sequence[Pair], n_sigma: float = 1.0) -> Ellipse[Single]: ...
    @overload
    @classmethod
    def from_covariance(cls, mean: ArrayLike, cov: ArrayLike, n_sigma: ArrayLike = 1.0) -> Ellipse[Any]: ...
    @classmethod
    def from_covariance(cls, mean: Any, cov: Any, n_sigma: Any = 1.0) -> Ellipse[Any]:
        """The ``n_sigma`` ellipse of a 2-D normal distribution.

        The set of ``x`` with Mahalanobis distance ``sqrt((x - mean)ᵀ cov⁻¹ (x - mean))`` at most
        ``n_sigma``: radii ``n_sigma * sqrt(λ)`` along the eigenvectors of ``cov``, the first
        radius along the eigenvector of the larger eigenvalue (given as ``direction``, so no angle
        is rounded). The closed-form eigen-decomposition of a symmetric 2x2 matrix is computed
        without cancellation (see ``collide2d._angles.eigen_2x2``), on the matrix scaled by a
        power of four, so that every matrix whose ellipse lies in the supported range is taken.

        Parameters
        ----------
        mean : array_like of shape (..., 2)
            The centre.
        cov : array_like of shape (..., 2, 2)
            Symmetric positive-definite covariance matrices. The two off-diagonal entries may
            differ by rounding (at most ``2**-40`` of ``sqrt(cov[0, 0] * cov[1, 1])``); their mean
            is used.
        n_sigma : array_like of shape (...), default 1
            Positive scale: 1 for the one-sigma ellipse (39% of the probability in 2-D), 2 for
            two sigma (86%).

        Raises
        ------
        ValueError
            ``cov`` not of shape (..., 2, 2), not finite, not symmetric or not positive definite.

        Examples
        --------
        >>> import collide2d as c2
        >>> e = c2.Ellipse.from_covariance((1, 2), [[4, 0], [0, 1]], n_sigma=2)
        >>> e.radii.tolist(), e.direction.tolist()
        ([4.0, 2.0], [0.75, 0.0])
        >>> c2.Ellipse.from_covariance((0, 0), [[2, 1], [1, 2]]).radii.round(12).tolist()
        [1.732050807569, 1.0]
        """
        mean = pair(mean, "mean")
        cov = as_float_array(cov, "cov")
        if cov.ndim < 2 or cov.shape[-2:] != (2, 2):
            raise ValueError(f"cov must have shape (..., 2, 2), got {cov.shape}")
        # cov / 4**j (exact): its larger diagonal entry in [1/2, 2), so that no product below
        # overflows or underflows for any matrix whose ellipse is in the supported range (1e-200
        # squared underflowed to a determinant of 0); the radii are then sqrt(λ) * 2**j
        j = np.frexp(np.maximum(np.abs(cov[..., 0, 0]), np.abs(cov[..., 1, 1])))[1] // 2
        cov = np.ldexp(cov, -2 * j[..., None, None])
        p, q = cov[..., 0, 0], cov[..., 1, 1]
        r01, r10 = cov[..., 0, 1], cov[..., 1, 0]
        if np.any(np.abs(r01 - r10) > 2.0**-40 * np.sqrt(np.abs(p * q))):
            raise ValueError("cov must be symmetric (cov[..., 0, 1] == cov[..., 1, 0])")
        r = 0.5 * r01 + 0.5 * r10
        if np.any(p <= 0) or np.any(q <= 0):
            raise ValueError("cov must be positive definite (a diagonal entry is not positive)")
        big, small, det, vx, vy = _angles.eigen_2x2(p, r, q)
        if np.any(det <= 0) or np.any(small <= 0):
            raise ValueError("cov must be positive definite (its determinant is not positive)")
        n_sigma = np.asarray(real(n_sigma, "n_sigma", positive=True))
        radii = np.ldexp(np.stack([np.sqrt(big), np.sqrt(small)], axis=-1), j[..., None]) * n_sigma[..., None]
        direction = np.stack([vx, vy], axis=-1)
        # equal eigenvalues (a circle): any direction, (d + h, r) is then (0, 0)
        direction = np.where(np.all(direction == 0, axis=-1, keepdims=True), [1.0, 0.0], direction)
        return cls(mean, radii, direction=direction)

    @property
    def direction(self) -> FloatArray:
        """The stored direction of the first radius: ``(wx, wy)`` (unit up to rounding when built
        from an angle; as given when built from a direction)."""
        return self._params[..., 4:6]

    @classmethod
    def from_opencv(cls, rotated_rect: Any) -> Ellipse:
        """Build from OpenCV's ``((cx, cy), (width, height), angle_degrees)`` (as ``cv2.fitEllipse``
        returns: full axes, degrees, image coordinates kept): see
        :func:`collide2d.convert.ellipse_from_opencv`.

        Examples
        --------
        >>> import collide2d as c2
        >>> c2.Ellipse.from_opencv(((5.0, 5.0), (4.0, 2.0), 0.0))
        Ellipse(center=(5.0, 5.0), radii=(2.0, 1.0), angle=0.0)
        """
        center, radii, angle = _formats.opencv_fields(rotated_rect)
        try:
            return cls(center, radii, angle)
        except ValueError as error:
            raise ValueError(f"rotated_rect: {error} (radii are half the width and height)") from None

    def to_opencv(self) -> Any:
        """OpenCV's ``((cx, cy), (width, height), angle_degrees)``: see :func:`collide2d.convert.to_opencv`."""
        return _formats.opencv_tuples(self._fields["center"], self._fields["radii"], self._fields["angle"], self.shape)

    @classmethod
    def from_astropy(cls, region: Any) -> Ellipse | Circle:
        """Build from an astropy ``regions`` ``EllipsePixelRegion`` (full sizes, ``Quantity`` angle)
        or ``CirclePixelRegion`` (a :class:`Circle`): see :func:`collide2d.convert.ellipse_from_astropy`."""
        fields = _formats.astropy_ellipse_fields(region)
        return Circle(**fields) if "radius" in fields else cls(**fields)

    @classmethod
    def from_skimage(cls, model: Any) -> Ellipse:
        """Build from scikit-image's ``EllipseModel`` or its ``params`` ``(xc, yc, a, b, theta)``
        (semi-axes, radians): see :func:`collide2d.convert.ellipse_from_skimage`."""
        return cls(**_formats.skimage_fields(model))

    def _bounds(self):
        return _ellipse_bounds(self._params)


# -- polygons ---------------------------------------------------------------------------------


class Polygon(Shape[Count]):
    """A closed convex polygon.

    Parameters
    ----------
    vertices : array_like of shape (..., N, 2)
        At least three vertices of a convex polygon, in either winding. Stored counter-clockwise;
        repeated vertices and vertices where the boundary goes straight on are dropped (they do
        not change the region).
    radius : array_like of shape (...), default 0
        Keyword only: round the polygon by this non-negative radius, giving the Minkowski sum with
        the closed disc of that radius (the points within ``radius`` of the polygon), as Box2D's
        rounded polygons and parry's ``RoundShape``. ``0`` (everywhere) is today's polygon, bit for
        bit; a positive radius gives a shape of the rounded kind (see :class:`Capsule`).

    Raises
    ------
    ValueError
        Non-finite values, fewer than three non-collinear vertices, turns in both directions, a
        boundary that winds more than once, or one that reverses direction along an edge (as in
        ``[(0, 0), (2, 0), (1, 0), (1, 1)]``, which no single convex polygon describes); and outside
        the supported range of magnitudes: vertices beyond ``|x| <= 2**500`` (about 3.27e150), or a
        bounding box narrower than ``2**-500`` (about 3.05e-151) in x or y.
        See https://collide2d.readthedocs.io/en/latest/conventions.html#supported-range-of-magnitudes.

    Notes
    -----
    Cleaning takes time linear in the number of vertices, with exact orientation signs (see
    ``collide2d._convex``).

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Polygon([(0, 0), (0, 1), (1, 0)]).vertices.tolist()
    [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]
    >>> c2.Polygon([(0, 0), (1, 0), (2, 0), (2, 2)]).vertices.tolist()  # (1, 0) is on an edge
    [[0.0, 0.0], [2.0, 0.0], [2.0, 2.0]]
    """

    __slots__ = ()
    _kind = "polygon"
    _field_names = ("vertices",)

    @overload
    def __init__(self: Polygon[Single], vertices: Sequence[Pair], *, radius: float = 0.0) -> None: ...
    @overload
    def __init__(self: Polygon[Any], vertices: ArrayLike, *, radius: ArrayLike = 0.0) -> None: ...
    def __init__(self, vertices: Any, *, radius: Any = 0.0) -> None:
        if (type(radius) is not float or radius != 0.0) and _rounded(self, _RoundedPolygon, radius, vertices):
            return
        v = points(vertices, "vertices")
        if type(v) is list and len(v) >= 3:  # a few Python numbers: cleaned without NumPy
            cleaned = _convex.clean_small(v, "vertices")
            verts = _frombuffer(struct.pack(f"{2 * len(cleaned)}d", *itertools.chain.from_iterable(cleaned)))
            verts = verts.reshape(-1, 2)
            params = _frombuffer(_PACK[2](0.0, float(len(verts))))
            self._finish_owned({"vertices": verts}, params, verts)
            return
        v = np.asarray(v, dtype=np.float64).reshape(-1, 2) if type(v) is list else v
        if v.ndim < 2 or v.shape[-2] < 3:
            raise ValueError(f"vertices must have shape (..., N, 2) with N >= 3, got {v.shape}")
        batch = v.shape[:-2]
        flat = v.reshape((-1,) + v.shape[-2:])
        verts, counts, clockwise = _convex.clean(flat, "vertices")
        verts = _frozen(verts)
        offsets = np.cumsum(counts) - counts
        params = _frozen(np.stack([offsets, counts], axis=-1).astype(np.float64).reshape(batch + (2,)))
        if batch:  # the input vertices, each polygon turned counter-clockwise
            field = _copy(np.where(clockwise[:, None, None], flat[:, ::-1], flat).reshape(v.shape))
        else:
            field = verts
        self._finish_owned({"vertices": field}, params, verts)

    if TYPE_CHECKING:
        vertices: FloatArray
    else:

        def __getattr__(self, name):
            if name == "vertices":
                return object.__getattribute__(self, "_fields")["vertices"].view()  # see Shape.fields
            return Shape.__getattr__(self, name)

    def _bounds(self):
        return _polygon_bounds(self._params, self._verts)


class Box(Shape[Count]):
    """A closed axis-aligned rectangle.

    Parameters
    ----------
    min, max : array_like of shape (..., 2)
        Lower-left and upper-right corners; ``min < max`` in both coordinates.
    radius : array_like of shape (...), default 0
        Keyword only: round the box by this non-negative radius, giving the Minkowski sum with
        the closed disc of that radius (the points within ``radius`` of the box), as Box2D's
        rounded polygons and parry's ``RoundShape``. ``0`` (everywhere) is today's box, bit for
        bit; a positive radius gives a shape of the rounded kind (see :class:`Capsule`).

    Raises
    ------
    ValueError
        For invalid values, and outside the supported range of magnitudes: corners beyond
        ``|x| <= 2**500`` (about 3.27e150), or a side ``max - min`` below ``2**-500`` (about
        3.05e-151).
        See https://collide2d.readthedocs.io/en/latest/conventions.html#supported-range-of-magnitudes.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Box((0, 0), (2, 1))
    Box(min=(0.0, 0.0), max=(2.0, 1.0))
    >>> c2.Box.from_center((1, 1), (0.5, 0.5)).bounds
    (0.5, 0.5, 1.5, 1.5)
    """

    if TYPE_CHECKING:
        min: FloatArray
        max: FloatArray

    __slots__ = ()
    _kind = "polygon"
    _field_names = ("min", "max")

    @overload
    def __init__(self: Box[Single], min: Pair, max: Pair, *, radius: float = 0.0) -> None: ...
    @overload
    def __init__(self: Box[Any], min: ArrayLike, max: ArrayLike, *, radius: ArrayLike = 0.0) -> None: ...
    def __init__(self, min: Any, max: Any, *, radius: Any = 0.0) -> None:  # noqa: A002 - the API names the corners min and max
        if (type(radius) is not float or radius != 0.0) and _rounded(self, _RoundedBox, radius, min, max):
            return
        lo, hi = pair(min, "min"), pair(max, "max")
        if type(lo) is tuple and type(hi) is tuple:
            if not (lo[0] < hi[0] and lo[1] < hi[1]):
                raise ValueError("min must be smaller than max in both coordinates")
            row = _frombuffer(_PACK[4](*lo, *hi))
            verts = _frombuffer(_PACK[8](lo[0], lo[1], hi[0], lo[1], hi[0], hi[1], lo[0], hi[1])).reshape(4, 2)
            self._finish_owned({"min": row[0:2], "max": row[2:4]}, _FOUR, verts)
            return
        batch, f = _broadcast_fields({"min": lo, "max": hi}, {})
        lo, hi = f["min"], f["max"]
        if np.any(lo >= hi):
            raise ValueError("min must be smaller than max in both coordinates")
        corners = np.empty(batch + (4, 2))
        corners[..., 0, :] = lo
        corners[..., 1, 0], corners[..., 1, 1] = hi[..., 0], lo[..., 1]
        corners[..., 2, :] = hi
        corners[..., 3, 0], corners[..., 3, 1] = lo[..., 0], hi[..., 1]
        params, verts = _corner_polygons(corners, batch)
        row = _rows(batch, 4, ((0, 2), lo), ((2, 4), hi))
        self._finish_owned({"min": row[..., 0:2], "max": row[..., 2:4]}, params, verts)

    @overload
    @classmethod
    def from_center(cls, center: Pair, half_size: Pair) -> Box[Single]: ...
    @overload
    @classmethod
    def from_center(cls, center: ArrayLike, half_size: ArrayLike) -> Box[Any]: ...
    @classmethod
    def from_center(cls, center: Any, half_size: Any) -> Box[Any]:
        """Build a box from its centre and positive half-sizes (corners rounded to float64)."""
        center = pair(center, "center")
        half_size = pair(half_size, "half_size", positive=True)
        if type(center) is tuple and type(half_size) is tuple:
            (cx, cy), (hx, hy) = center, half_size
            return cls((cx - hx, cy - hy), (cx + hx, cy + hy))
        center, half_size = np.asarray(center), np.asarray(half_size)
        return cls(center - half_size, center + half_size)

    @classmethod
    def from_pygame(cls, rect: Any, *, height: float | None = None) -> Box:
        """Build from a pygame ``Rect(x, y, w, h)`` (screen coordinates, y down; flipped to y up
        when the screen's ``height`` is given): see :func:`collide2d.convert.box_from_pygame`.

        Examples
        --------
        >>> import collide2d as c2
        >>> c2.Box.from_pygame((10, 20, 30, 40), height=100)
        Box(min=(10.0, 40.0), max=(40.0, 80.0))
        """
        return cls(**_formats.pygame_fields(rect, height))

    def _bounds(self):
        return np.concatenate([self._fields["min"], self._fields["max"]], axis=-1)


class RotatedBox(Shape[Count]):
    """A closed rectangle rotated about its centre.

    Parameters
    ----------
    center : array_like of shape (..., 2)
    half_size : array_like of shape (..., 2)
        Positive half-widths along the box's own x and y axes.
    angle : array_like of shape (...), default 0
        Counter-clockwise rotation in radians (converted as for :class:`Ellipse`).
    direction : array_like of shape (..., 2), optional
        Instead of ``angle``: a non-zero vector along the box's own x axis; the corners use it
        divided by its length. ``angle`` then reports ``atan2(direction[1], direction[0])``.
    radius : array_like of shape (...), default 0
        Keyword only: round the box by this non-negative radius, giving the Minkowski sum with
        the closed disc of that radius (the points within ``radius`` of the box), as Box2D's
        rounded polygons and parry's ``RoundShape``. ``0`` (everywhere) is today's box, bit for
        bit; a positive radius gives a shape of the rounded kind (see :class:`Capsule`).

    Notes
    -----
    The box is stored as the convex quadrilateral of its four corners, computed once in float64:
    ``center + sx * half_size[0] * u + sy * half_size[1] * u⊥`` for the signs ``sx, sy = ±1`` and
    ``u = w / sqrt(wx² + wy²)``, ``w`` the direction given or that of ``angle``.

    Raises
    ------
    ValueError
        For invalid values, and outside the supported range of magnitudes: ``center`` beyond
        ``|x| <= 2**500`` (about 3.27e150), or half-sizes outside ``[2**-500, 2**500]`` (about
        3.05e-151 to 3.27e150).
        See https://collide2d.readthedocs.io/en/latest/conventions.html#supported-range-of-magnitudes.

    Examples
    --------
    >>> import collide2d as c2
    >>> import math
    >>> c2.RotatedBox((0, 0), (1, 1), angle=math.pi / 4).bounds[2] > 1.41
    True
    >>> c2.RotatedBox((0, 0), (2, 1), direction=(0, 5)).corners.tolist()
    [[1.0, -2.0], [1.0, 2.0], [-1.0, 2.0], [-1.0, -2.0]]
    """

    if TYPE_CHECKING:
        center: FloatArray
        half_size: FloatArray
        angle: Any  # float for a single box

    __slots__ = ()
    _kind = "polygon"
    _field_names = ("center", "half_size", "angle")

    @overload
    def __init__(
        self: RotatedBox[Single], center: Pair, half_size: Pair, angle: float = 0.0, *,
        direction: Pair | None = None, radius: float = 0.0,
    ) -> None: ...
    @overload
    def __init__(
        self: RotatedBox[Any], center: ArrayLike, half_size: ArrayLike, angle: ArrayLike = 0.0, *,
        direction: ArrayLike | None = None, radius: ArrayLike = 0.0,
    ) -> None: ...
    def __init__(self, center: Any, half_size: Any, angle: Any = 0.0, *, direction: Any = None, radius: Any = 0.0) -> None:
        if (type(radius) is not float or radius != 0.0) and _rounded(
            self, _RoundedRotatedBox, radius, center, half_size, angle, direction=direction
        ):
            return
        center, half = pair(center, "center"), pair(half_size, "half_size", positive=True)
        angle, w, single = _orientation(angle, direction)
        if type(center) is tuple and type(half) is tuple and single is not None:
            angle, wx, wy = single
            (cx, cy), (hx, hy) = center, half
            # u = w / |w|, also from an angle: a quarter-turned direction then gives exactly the
            # quarter-turned corners. Corner (sx, sy) = c + sx hx u + sy hy u^, with the operations
            # of _kernels.construct.rotated_box_loop (sx = +-1: sx hx ux = +-(hx ux) exactly).
            norm = math.sqrt(wx * wx + wy * wy)
            ux, uy = wx / norm, wy / norm
            p, q, r, t = hx * ux, hy * uy, hx * uy, hy * ux
            corners: Any = (cx + (-p + q), cy + (-r - t), cx + (p + q), cy + (r - t), cx + (p - q), cy + (r + t), cx + (-p - q), cy + (-r + t))
            # Each stored corner is within 4 eps M of the exact rectangle's (M = |cx| + |cy| + hx + hy:
            # two products, a difference and a sum rounded), so an edge within 12 eps M of a side of
            # length 2 min(h); with min(h) >= 2**-40 M that is below 0.002 of the side and every turn
            # is certainly left. Only boxes small against their position need the exact signs.
            if min(hx, hy) * 2.0**40 < abs(cx) + abs(cy) + hx + hy:
                if not _convex.turns_left(list(zip(corners[0::2], corners[1::2]))):
                    _too_small(center, half)
            row = _frombuffer(_PACK[5](cx, cy, hx, hy, angle))
            fields = {"center": row[0:2], "half_size": row[2:4], "angle": row[4, ...]}
            if w is not None:  # built from a direction: kept, so that RotatedBox(**fields) is this box
                fields["direction"] = _frombuffer(_PACK[2](*w))
            self._finish_owned(fields, _FOUR, _frombuffer(_PACK[8](*corners)).reshape(4, 2))
            return
        from collide2d._kernels.construct import box_corners, left_turns_certain, rotated_box_angle_loop, rotated_box_loop

        def python_loop(rows, corners, certain):  # a few boxes: the kernels' Python source, no compilation
            corners_of = getattr(box_corners, "py_func", box_corners)  # plain functions without the JIT
            turns_certain = getattr(left_turns_certain, "py_func", left_turns_certain)
            for i, values in enumerate(rows.tolist()):
                k = corners_of(*values)
                corners[i] = np.reshape(k, (4, 2))
                certain[i] = turns_certain(*k)

        vectors = {"center": center, "half_size": half}
        if w is None:
            batch, f = _broadcast_fields(vectors, {"angle": angle})
        else:
            batch, f = _broadcast_fields({**vectors, "direction": w}, {} if angle is None else {"angle": angle})
        row = np.empty(batch + (6,))
        _put(row, (0, 2), f["center"])
        _put(row, (2, 4), f["half_size"])
        rows = row.reshape(-1, 6)
        corners = np.empty(batch + (4, 2))
        certain = np.empty(len(rows), dtype=np.int8)
        compiled = len(rows) >= _angles.COMPILED_FROM
        if w is None:
            angle = np.array(f["angle"], dtype=np.float64)
            if compiled and rotated_box_angle_loop(angle.reshape(-1), rows, corners.reshape(-1, 4, 2), certain):
                large = np.flatnonzero(np.isnan(rows[:, 4]))  # beyond REDUCE_LIMIT: reduced exactly
                rows[large, 4:6] = _angles.direction(angle.reshape(-1)[large])
                part, part_certain = np.empty((len(large), 4, 2)), np.empty(len(large), dtype=np.int8)
                python_loop(rows[large], part, part_certain)
                corners.reshape(-1, 4, 2)[large], certain[large] = part, part_certain
            elif not compiled:
                rows[:, 4:6] = _angles.direction(angle.reshape(-1))
                python_loop(rows, corners.reshape(-1, 4, 2), certain)
            angle = _frozen(angle)
        else:
            _put(row, (4, 6), f["direction"])
            angle = _direction_angle(f, angle)
            (rotated_box_loop if compiled else python_loop)(rows, corners.reshape(-1, 4, 2), certain)
        row = _frozen(row)
        for index in np.flatnonzero(certain == 0):  # the float filter could not decide: exact signs
            if not _convex.turns_left([tuple(p) for p in corners.reshape(-1, 4, 2)[index].tolist()]):
                _too_small(f["center"], f["half_size"])
        params, verts = _corner_polygons(corners, batch)
        fields = {"center": row[..., 0:2], "half_size": row[..., 2:4], "angle": angle}
        if w is not None:  # built from a direction: kept, so that RotatedBox(**fields) is this box
            fields["direction"] = row[..., 4:6]
        self._finish_owned(fields, params, verts)

    @property
    def corners(self) -> FloatArray:
        """The four stored corners, counter-clockwise: array of shape ``batch + (4, 2)``."""
        index = self._params[..., 0].astype(np.int64)[..., None] + np.arange(4)
        return self._verts[index]

    @classmethod
    def from_opencv(cls, rotated_rect: Any) -> RotatedBox:
        """Build from OpenCV's ``((cx, cy), (width, height), angle_degrees)`` (full sizes, degrees,
        image coordinates kept): see :func:`collide2d.convert.rotated_box_from_opencv`.

        Examples
        --------
        >>> import collide2d as c2
        >>> c2.RotatedBox.from_opencv(((10.0, 10.0), (4.0, 2.0), 30.0)).half_size.tolist()
        [2.0, 1.0]
        """
        center, half_size, angle = _formats.opencv_fields(rotated_rect)
        try:
            return cls(center, half_size, angle)
        except ValueError as error:
            raise ValueError(f"rotated_rect: {error} (half_size is half the width and height)") from None

    def to_opencv(self) -> Any:
        """OpenCV's ``((cx, cy), (width, height), angle_degrees)``: see :func:`collide2d.convert.to_opencv`."""
        return _formats.opencv_tuples(self._fields["center"], self._fields["half_size"], self._fields["angle"], self.shape)

    @classmethod
    def from_astropy(cls, region: Any) -> RotatedBox:
        """Build from an astropy ``regions`` ``RectanglePixelRegion`` (full sizes, ``Quantity``
        angle): see :func:`collide2d.convert.rotated_box_from_astropy`."""
        return cls(**_formats.astropy_rectangle_fields(region))

    def _bounds(self):
        return _polygon_bounds(self._params, self._verts)


# -- rounded shapes: capsules and rounded polygons and boxes -----------------------------------------
#
# A rounded shape is the Minkowski sum of a convex *core* (a point, a segment or a convex polygon)
# with the closed disc of radius r >= 0: the set of points within r of the core. Its kernel kind is
# "rounded", one row per shape (see collide2d._kernels.rounded):
#
#     offset, count, r, x0, y0, x1, y1
#
# count >= 3: the core is the polygon verts[offset : offset + count] (counter-clockwise, as a
# Polygon's); count == 2: the segment (x0, y0)-(x1, y1); count == 1: the point (x0, y0). The
# polygon classes given a radius become instances of the private subclasses below (their __name__
# is the public one, so reprs and messages name Polygon, Box, RotatedBox); radius 0 everywhere
# keeps today's shape, its class and its kernel rows, bit for bit.

ROUNDED_WIDTH = 7


def _radius(value):
    """The validated ``radius``: a float or a float64 array, finite and >= 0 (not a bool), and
    0 or within the supported range of sizes."""
    r = real(value, "radius")
    if type(r) is float:
        if r < 0.0:
            raise ValueError(f"radius must be >= 0, got {r!r}")
        if r != 0.0:
            check_sizes(np.array([r]), "radius")
        return r
    if r.size and not np.all(r >= 0.0):
        raise ValueError(f"radius must be >= 0, got {float(r[~(r >= 0.0)].flat[0])!r}")
    check_sizes(r[r != 0.0], "radius")
    return r


def _rounded(shape, cls, radius, *args, **kwargs):
    """Build ``shape`` as the base shape of ``args`` rounded by ``radius`` (an instance of the
    private subclass ``cls`` from then on). False when the radius is 0 everywhere: the caller then
    builds its plain shape, bit for bit today's."""
    r = _radius(radius)
    if not np.any(r):
        return False
    base = cls.__mro__[2]  # (cls, _RoundedMixin, the public class, ...)
    base.__init__(shape, *args, **kwargs)  # the plain shape: its own checks, rows and fields
    batch = broadcast_batch({"the shape": shape.shape, "radius": np.shape(r)})
    r = np.broadcast_to(np.asarray(r, dtype=np.float64), batch)
    rows = np.zeros(batch + (ROUNDED_WIDTH,))
    rows[..., 0:2] = shape._params  # offset, count (broadcast over the radius's batch)
    rows[..., 2] = r
    fields = {}
    for name, value in shape._fields.items():  # each field broadcast to the batch, trailing axes kept
        trailing = value.shape[len(shape.shape):]
        fields[name] = _copy(np.broadcast_to(value, batch + trailing))
    fields["radius"] = _frozen(rows[..., 2].copy())
    object.__setattr__(shape, "__class__", cls)
    _finish_rounded(shape, fields, _frozen(rows), shape._verts)
    return True


def _finish_rounded(shape, fields, rows, verts):
    setter = object.__setattr__
    setter(shape, "_fields", fields)
    setter(shape, "_params", rows)
    setter(shape, "_verts", verts)
    setter(shape, "_scalar", None)
    setter(shape, "_tame", None)


def _rounded_core_bounds(rows, verts):
    """Bounds of the cores of rounded rows ``(..., 7)``: ``(..., 4)``."""
    flat = rows.reshape(-1, ROUNDED_WIDTH)
    out = np.empty((len(flat), 4))
    polygon = flat[:, 1] >= 3
    if polygon.any():
        out[polygon] = _polygon_bounds(np.ascontiguousarray(flat[polygon, 0:2]), verts)
    ends = flat[~polygon, 3:7]
    out[~polygon] = np.stack([np.minimum(ends[:, 0], ends[:, 2]), np.minimum(ends[:, 1], ends[:, 3]),
                              np.maximum(ends[:, 0], ends[:, 2]), np.maximum(ends[:, 1], ends[:, 3])], axis=-1)
    return out.reshape(rows.shape[:-1] + (4,))


def _core_measures(shape):
    """``(area, perimeter)`` of each core (a segment's perimeter is twice its length): arrays of the
    batch shape."""
    rows = shape._flat_params()
    area = np.zeros(len(rows))
    perimeter = np.zeros(len(rows))
    polygon = rows[:, 1] >= 3
    v = shape._verts
    for k in np.flatnonzero(polygon).tolist():
        p = v[int(rows[k, 0]): int(rows[k, 0]) + int(rows[k, 1])]
        q = np.roll(p, -1, axis=0)
        d = p - p[0]
        e = q - p[0]
        area[k] = 0.5 * float(np.sum(d[:, 0] * e[:, 1] - d[:, 1] * e[:, 0]))
        perimeter[k] = float(np.sum(np.hypot(q[:, 0] - p[:, 0], q[:, 1] - p[:, 1])))
    ends = rows[~polygon]
    perimeter[~polygon] = 2.0 * np.hypot(ends[:, 5] - ends[:, 3], ends[:, 6] - ends[:, 4])
    return area.reshape(shape.shape), perimeter.reshape(shape.shape)


def _core_vertices(row, verts):
    """The core of one rounded row (a list of floats) as an ``(n, 2)`` array."""
    count = int(row[1])
    if count >= 3:
        return np.asarray(verts[int(row[0]) : int(row[0]) + count], dtype=np.float64)
    return np.array(row[3:7], dtype=np.float64).reshape(2, 2)[:count]


def _rounded_centroid(v, r):
    """Centroid of the core ``v`` (1, 2 or n counter-clockwise vertices) rounded by ``r``."""
    n = len(v)
    if n == 1:
        return v[0]
    if r == 0.0 and n == 2:  # a segment: its midpoint
        return 0.5 * (v[0] + v[1])
    origin = v[0]
    d = v - origin
    q = np.roll(d, -1, axis=0)
    e = q - d
    length = np.hypot(e[:, 0], e[:, 1])
    if n >= 3:
        cross = d[:, 0] * q[:, 1] - d[:, 1] * q[:, 0]
        area = 0.5 * cross.sum()
        core = (cross[:, None] * (d + q)).sum(axis=0) / (6.0 * area)
    else:
        area, core = 0.0, 0.5 * (d[0] + d[1])
    normal = np.stack([e[:, 1], -e[:, 0]], axis=-1) / length[:, None]  # outward, counter-clockwise
    total = area * core + (length * r)[:, None].T @ (0.5 * (d + q) + 0.5 * r * normal)
    weight = area + length.sum() * r
    previous = np.roll(normal, 1, axis=0)  # the normal of the edge that ends at each vertex
    turn = np.arctan2(previous[:, 0] * normal[:, 1] - previous[:, 1] * normal[:, 0], (previous * normal).sum(axis=1))
    turn = np.where(turn <= 0.0, turn + 2.0 * np.pi, turn) if n == 2 else turn  # a segment's ends turn by pi
    half = 0.5 * turn
    bisector = np.stack([previous[:, 0] * np.cos(half) - previous[:, 1] * np.sin(half),
                         previous[:, 0] * np.sin(half) + previous[:, 1] * np.cos(half)], axis=-1)
    sector = 0.5 * turn * r * r
    reach = 4.0 * r * np.sin(half) / (3.0 * turn)
    total = total.ravel() + (sector[:, None] * (d + reach[:, None] * bisector)).sum(axis=0)
    weight += sector.sum()
    return origin + total / weight


class _RoundedMixin:
    """What the rounded shapes share: bounds grown by the radius, area and perimeter of the
    Minkowski sum (Steiner's formula), a repr naming the public class, no GeoJSON."""

    __slots__ = ()

    def _bounds(self: Any) -> Any:
        core = _rounded_core_bounds(self._params, self._verts)
        r = self._params[..., 2:3]
        # the sums rounded outward by one ulp: the bounds contain the exact grown box
        r = np.concatenate([-r, -r, r, r], axis=-1)
        grown = core + r
        # Knuth's TwoSum error of each sum: an inexact one is rounded outward by one ulp, so that
        # the bounds contain the exact grown box (and are the exact one when the sums are exact)
        back = grown - core
        error = (core - (grown - back)) + (r - back)
        outward = np.nextafter(grown, np.where(r < 0.0, -np.inf, np.inf))
        return np.where(error != 0.0, outward, grown)

    @property
    def area(self: Any) -> Any:
        """Area ``A + P r + pi r^2`` of the core's area ``A`` and perimeter ``P`` (Steiner's
        formula for the Minkowski sum of a convex set and a disc): a float or an array.

        Examples
        --------
        >>> import collide2d as c2
        >>> round(c2.Capsule((0, 0), (2, 0), 1).area, 12)  # 2 x 2 rectangle and a unit disc
        7.14159265359
        """
        area, perimeter = _core_measures(self)
        r = self._params[..., 2]
        out = area + perimeter * r + np.pi * r * r
        return float(out) if out.ndim == 0 else out

    @property
    def length(self: Any) -> Any:
        """Perimeter ``P + 2 pi r`` (``P`` the core's perimeter; twice the length of a segment core).

        Examples
        --------
        >>> import collide2d as c2
        >>> round(c2.Box((0, 0), (1, 1), radius=0.5).length, 12)
        7.14159265359
        """
        _, perimeter = _core_measures(self)
        r = self._params[..., 2]
        segment = self._params[..., 1] == 2.0  # a segment core of radius 0: its length
        out = np.where(r > 0.0, perimeter + 2.0 * np.pi * r, np.where(segment, 0.5 * perimeter, perimeter))
        return float(out) if out.ndim == 0 else out

    @property
    def centroid(self: Any) -> Any:
        """Centroid ``(x, y)`` of the region: a tuple for a single shape, else ``batch + (2,)``.

        The Minkowski sum splits into the core, a rectangle of width ``r`` on each edge and a
        sector of radius ``r`` at each vertex (its angle the turn of the boundary there; the ends
        of a segment core turn by pi); the centroid is the area-weighted mean of theirs (a sector
        of angle ``phi`` has its centroid ``4 r sin(phi / 2) / (3 phi)`` from its apex).

        Examples
        --------
        >>> import collide2d as c2
        >>> c2.Capsule((0, 0), (2, 0), 0.5).centroid
        (1.0, 0.0)
        >>> [round(x, 12) for x in c2.Polygon([(0, 0), (1, 0), (0, 1)], radius=0.1).centroid]
        [0.342742368069, 0.342742368069]
        """
        rows = self._flat_params()
        out = np.empty((len(rows), 2))
        for k, row in enumerate(rows.tolist()):
            out[k] = _rounded_centroid(_core_vertices(row, self._verts), row[2])
        if out.shape[0] == 1 and not self.shape:
            return (float(out[0, 0]), float(out[0, 1]))
        return out.reshape(self.shape + (2,))

    @property
    def __geo_interface__(self) -> dict[str, Any]:
        # an AttributeError, so that hasattr() and getattr(..., None) say no (as for a Line)
        raise AttributeError(f"a rounded {type(self).__name__} has no GeoJSON geometry (not implemented)")


class _RoundedPolygon(_RoundedMixin, Polygon):
    """A :class:`Polygon` built with ``radius > 0`` (see :class:`Polygon`)."""

    __slots__ = ()
    _kind = "rounded"
    _field_names = ("vertices", "radius")  # type: ignore[assignment]  # one field more than the base class


class _RoundedBox(_RoundedMixin, Box):
    """A :class:`Box` built with ``radius > 0`` (see :class:`Box`)."""

    __slots__ = ()
    _kind = "rounded"
    _field_names = ("min", "max", "radius")  # type: ignore[assignment]  # one field more than the base class


class _RoundedRotatedBox(_RoundedMixin, RotatedBox):
    """A :class:`RotatedBox` built with ``radius > 0`` (see :class:`RotatedBox`)."""

    __slots__ = ()
    _kind = "rounded"
    _field_names = ("center", "half_size", "angle", "radius")  # type: ignore[assignment]  # one field more than the base class


def _public_init(self, *args, **kwargs):
    """A rounded class called (``type(shape)(**shape.fields)``) builds as its public class does:
    with a radius of 0 everywhere, the plain shape, of the public class."""
    public = type(self).__mro__[2]  # (the rounded class, _RoundedMixin, the public class, ...)
    public.__init__(self, *args, **kwargs)
    if "radius" not in object.__getattribute__(self, "_fields"):
        object.__setattr__(self, "__class__", public)


for _cls in (_RoundedPolygon, _RoundedBox, _RoundedRotatedBox):
    _cls.__name__ = _cls.__mro__[2].__name__  # reprs and messages name the public class; pickle uses __qualname__
    _cls.__init__ = _public_init  # type: ignore[method-assign]
del _cls


class Capsule(_RoundedMixin, Shape[Count]):
    """A capsule: the closed set of points within ``radius`` of the segment from ``a`` to ``b``.

    Parameters
    ----------
    a, b : array_like of shape (..., 2)
        The ends of the core segment. ``a == b`` is accepted: the capsule is then the disc of
        ``radius`` about ``a`` (Box2D and parry accept it too; Box2D makes it a circle).
    radius : array_like of shape (...)
        Non-negative radius. ``0`` is accepted: the capsule is then the segment ``ab`` itself (the
        point ``a`` when ``a == b``), and every operation answers as for that :class:`Segment` or
        :class:`Point`, bit for bit.

    Notes
    -----
    A capsule is the Minkowski sum of the segment and a disc, what a disc sweeps moving from ``a``
    to ``b``; see :class:`Polygon` (``radius=``) for rounded polygons and boxes.

    Raises
    ------
    TypeError
        Non-numeric input or a boolean radius.
    ValueError
        Non-finite values, a negative radius, and outside the supported range of magnitudes:
        coordinates beyond ``|x| <= 2**500`` (about 3.27e150), a non-zero radius outside
        ``[2**-500, 2**500]`` (about 3.05e-151 to 3.27e150).

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Capsule((0, 0), (2, 0), 0.5)
    Capsule(a=(0.0, 0.0), b=(2.0, 0.0), radius=0.5)
    >>> c2.Capsule((0, 0), (2, 0), 0.5).bounds
    (-0.5, -0.5, 2.5, 0.5)
    >>> c2.Capsule([(0, 0), (1, 1)], (2, 0), [0.5, 1.0]).shape
    (2,)
    """

    if TYPE_CHECKING:
        a: FloatArray
        b: FloatArray
        radius: Any  # float for a single capsule

    __slots__ = ()
    _kind = "rounded"
    _field_names = ("a", "b", "radius")

    @overload
    def __init__(self: Capsule[Single], a: Pair, b: Pair, radius: float) -> None: ...
    @overload
    def __init__(self: Capsule[Any], a: ArrayLike, b: ArrayLike, radius: ArrayLike) -> None: ...
    def __init__(self, a: Any, b: Any, radius: Any) -> None:
        a, b, r = pair(a, "a"), pair(b, "b"), _radius(radius)
        if type(a) is tuple and type(b) is tuple and type(r) is float:
            check_coordinates(np.array(a + b), "a and b")
            params = _frombuffer(_PACK[7](0.0, 1.0 if a == b else 2.0, r, *a, *b))
        else:
            batch, f = _broadcast_fields({"a": a, "b": b}, {"radius": r})
            check_coordinates(f["a"], "a")
            check_coordinates(f["b"], "b")
            rows = np.zeros(batch + (ROUNDED_WIDTH,))
            same = (f["a"][..., 0] == f["b"][..., 0]) & (f["a"][..., 1] == f["b"][..., 1])
            rows[..., 1] = np.where(same, 1.0, 2.0)
            rows[..., 2] = f["radius"]
            rows[..., 3:5] = f["a"]
            rows[..., 5:7] = f["b"]
            params = _frozen(rows)
        _finish_rounded(self, {"a": params[..., 3:5], "b": params[..., 5:7], "radius": params[..., 2]}, params, _EMPTY_VERTS)
