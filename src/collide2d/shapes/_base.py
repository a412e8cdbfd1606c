"""The base class :class:`collide2d.shapes.Shape`: batch bookkeeping, immutability, indexing,
pickling, repr and the measures every kind shares (see :mod:`collide2d.shapes`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Generic

import numpy as np
from numpy.typing import ArrayLike

from collide2d import _angles, _formats, _geometry
from collide2d._validate import check_range
from collide2d.typing import Count, FloatArray


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
