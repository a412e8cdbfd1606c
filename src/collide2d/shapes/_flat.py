"""The flat kinds of :mod:`collide2d.shapes`: :class:`Point`, :class:`Segment`, :class:`Line`,
:class:`Polygon`, :class:`Box`, :class:`RotatedBox`, and the private classes the last three become
when built with ``radius > 0`` (their machinery is in :mod:`collide2d.shapes._rounded`)."""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, overload

import numpy as np
from numpy.typing import ArrayLike

from collide2d import _angles, _convex, _formats
from collide2d._validate import pair, points
from collide2d.typing import Count, FloatArray, Pair, Single
from collide2d._shape_build import (
    _PACK, _any_equal_rows, _broadcast_fields, _copy, _corner_polygons, _direction_angle, _frombuffer, _frozen, _orientation,
    _polygon_bounds, _put, _rows, _too_small, _two_points,
)
from collide2d.shapes._base import _FOUR, Shape
from collide2d.shapes._rounded import _rounded, _RoundedMixin


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
