"""The eight shape classes: immutable, validated at construction, batchable.

Every field may be an array; the *batch shape* of a shape is the broadcast of its fields' shapes
(vector fields carry a trailing axis of length 2). A single shape is a batch of shape ``()``.

Each shape also stores the parameter rows its kernels read (see :mod:`collide2d._kernels`): the
shape *is* the set described exactly by those stored float64 numbers. Angles are converted once:
an angle is split into whole quarter turns, applied exactly, and a remainder in [-pi/4, pi/4]
rounded to a multiple of 2**-40 rad (at most 4.6e-13 rad from the requested angle), so that
``angle``, ``angle + pi`` and ``angle + pi/2`` with swapped radii store the same ellipse or box.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from collide2d._validate import as_float_array, as_positive_array, broadcast_batch
from collide2d._validate import check_range  # the range rule (docs/conventions.md)

__all__ = ["Box", "Circle", "Ellipse", "Line", "Point", "Polygon", "RotatedBox", "Segment", "Shape"]

_EMPTY_VERTS = np.zeros((0, 2))
_EMPTY_VERTS.flags.writeable = False

# pi/2 split for Cody-Waite reduction: _HALF_PI_HI has 33 significant bits, so k * _HALF_PI_HI is
# exact for |k| < 2**20 (angles up to about 1.6e6 rad).
_HALF_PI_HI = 1.5707963267341256
_HALF_PI_LO = 6.077100506506192e-11
_ANGLE_GRID = 2.0**-40
_REST_EDGE = round((np.pi / 4) / _ANGLE_GRID) * _ANGLE_GRID  # largest remainder, just below pi/4


def direction_from_angle(angle):
    """Return the stored direction vector ``(wx, wy)`` for ``angle`` (array of shape ``(..., 2)``).

    Whole quarter turns are applied exactly (so 0, pi/2, pi, ... give axis vectors exactly); the
    remainder is rounded to a multiple of 2**-40 rad before its cosine and sine are taken.
    """
    angle = np.asarray(angle, dtype=np.float64)
    turns = np.round(angle / (np.pi / 2))
    rest = (angle - turns * _HALF_PI_HI) - turns * _HALF_PI_LO
    rest = np.round(rest / _ANGLE_GRID) * _ANGLE_GRID
    c, s = np.cos(rest), np.sin(rest)
    # At rest = +-_REST_EDGE (the grid point nearest pi/4) the same direction is reached with two
    # different quarter-turn counts (angle pi/4 gives turns 0, rest +edge; 3 pi/4 gives turns 2,
    # rest -edge); only |sin| == cos there makes both agree exactly.
    s = np.where(np.abs(rest) >= _REST_EDGE, np.copysign(c, rest), s)
    quarter = np.mod(turns, 4).astype(np.int64)
    wx = np.choose(quarter, [c, -s, -c, s])
    wy = np.choose(quarter, [s, c, -s, -c])
    return np.stack([wx + 0.0, wy + 0.0], axis=-1)  # + 0.0 turns -0.0 into 0.0


def _readonly(array):
    array = np.array(array, dtype=np.float64, order="C")  # a copy: callers' arrays stay theirs
    array.flags.writeable = False
    return array


class Shape:
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
    _kind = ""
    _field_names: tuple = ()

    def _finish(self, fields, params, verts=_EMPTY_VERTS):
        object.__setattr__(self, "_fields", {k: _readonly(v) for k, v in fields.items()})
        object.__setattr__(self, "_params", _readonly(params))
        object.__setattr__(self, "_verts", verts if verts is _EMPTY_VERTS else _readonly(verts))
        object.__setattr__(self, "_scalar", None)
        object.__setattr__(self, "_tame", None)  # computed on first use by _dispatch.tame_rows

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __getattr__(self, name):
        fields = object.__getattribute__(self, "_fields")
        if name in fields:
            value = fields[name]
            return value.item() if value.ndim == 0 else value
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def __reduce__(self):
        return (_rebuild, (type(self), self._fields, self._params, self._verts))

    @property
    def shape(self):
        """Batch shape: ``()`` for a single shape."""
        return self._params.shape[:-1]

    @property
    def ndim(self):
        """Number of batch dimensions."""
        return len(self.shape)

    @property
    def size(self):
        """Number of shapes in the batch (1 for a single shape)."""
        return int(np.prod(self.shape, dtype=np.int64))

    def __len__(self):
        if not self.shape:
            raise TypeError(f"len() of a single {type(self).__name__}")
        return self.shape[0]

    def __iter__(self):
        for index in range(len(self)):
            yield self[index]

    def __getitem__(self, index):
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
        fields = {}
        for name, value in self._fields.items():
            fields[name] = value[index]
        new = object.__new__(type(self))
        new._finish(fields, params, self._verts)
        return new

    def __eq__(self, other):
        return NotImplemented if not isinstance(other, Shape) else self is other

    __hash__ = object.__hash__

    def __repr__(self):
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
    def bounds(self):
        """Axis-aligned bounds ``(xmin, ymin, xmax, ymax)``: a tuple for a single shape, else
        an array of shape ``batch + (4,)``. Curved bounds are rounded outward."""
        bounds = self._bounds()
        return tuple(bounds.tolist()) if bounds.ndim == 1 else bounds

    # Kernel access -----------------------------------------------------------------------------
    def _flat_params(self):
        return self._params.reshape(-1, self._params.shape[-1])


def _rebuild(cls, fields, params, verts):
    new = object.__new__(cls)
    new._finish(fields, params, verts)
    return new


def _vector_field(value, name, positive=False):
    array = (as_positive_array if positive else as_float_array)(value, name, vector=True)
    return array


def _broadcast_fields(vectors, scalars):
    """Broadcast vector fields (trailing 2) and scalar fields to one batch shape."""
    shapes = {name: array.shape[:-1] for name, array in vectors.items()}
    shapes.update({name: array.shape for name, array in scalars.items()})
    batch = broadcast_batch(shapes)
    out = {name: np.broadcast_to(array, batch + (2,)) for name, array in vectors.items()}
    out.update({name: np.broadcast_to(array, batch) for name, array in scalars.items()})
    return batch, out


class Point(Shape):
    """A point.

    Parameters
    ----------
    xy : array_like of shape (..., 2)
        Coordinates.

    Raises
    ------
    ValueError
        For invalid values, and outside the supported range of magnitudes
        (``docs/conventions.md``): coordinates beyond ``|x| <= 2**500`` (about 3.27e150; tiny non-zero
        coordinates are fine).

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Point((1, 2))
    Point(xy=(1.0, 2.0))
    >>> c2.Point([[0, 0], [1, 1]]).shape
    (2,)
    """

    __slots__ = ()
    _kind = "point"
    _field_names = ("xy",)

    def __init__(self, xy):
        xy = _vector_field(xy, "xy")
        check_range("point", {"xy": xy})  # range rule
        self._finish({"xy": xy}, xy)

    def _bounds(self):
        return np.concatenate([self._params, self._params], axis=-1)


class Segment(Shape):
    """A closed line segment from ``start`` to ``end``.

    Parameters
    ----------
    start, end : array_like of shape (..., 2)
        End points; they must differ (use :class:`Point` for a single point).

    Raises
    ------
    ValueError
        For invalid values, and outside the supported range of magnitudes
        (``docs/conventions.md``): coordinates beyond ``|x| <= 2**500`` (about 3.27e150), or an extent
        ``max(|end - start|)`` below ``2**-500`` (about 3.05e-151).

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Segment((0, 0), (1, 0))
    Segment(start=(0.0, 0.0), end=(1.0, 0.0))
    """

    __slots__ = ()
    _kind = "segment"
    _field_names = ("start", "end")

    def __init__(self, start, end):
        batch, f = _broadcast_fields(
            {"start": _vector_field(start, "start"), "end": _vector_field(end, "end")}, {}
        )
        if np.any(np.all(f["start"] == f["end"], axis=-1)):
            raise ValueError("end must differ from start (a segment needs positive length)")
        check_range("segment", f)  # range rule
        self._finish(f, np.concatenate([f["start"], f["end"]], axis=-1))

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


class Line(Shape):
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
        For invalid values, and outside the supported range of magnitudes
        (``docs/conventions.md``): ``point`` beyond ``|x| <= 2**500`` (about 3.27e150).
        Any non-zero finite direction is allowed.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Line((0, 0), (1, 1))
    Line(point=(0.0, 0.0), direction=(1.0, 1.0))
    """

    __slots__ = ()
    _kind = "line"
    _field_names = ("point", "direction")

    def __init__(self, point, direction):
        batch, f = _broadcast_fields(
            {"point": _vector_field(point, "point"), "direction": _vector_field(direction, "direction")},
            {},
        )
        if np.any(np.all(f["direction"] == 0, axis=-1)):
            raise ValueError("direction must be a non-zero vector")
        check_range("line", f)  # range rule
        self._finish(f, np.concatenate([f["point"], f["direction"]], axis=-1))

    def _bounds(self):
        p = self._params
        inf = np.inf
        xmin = np.where(p[..., 2] == 0, p[..., 0], -inf)
        ymin = np.where(p[..., 3] == 0, p[..., 1], -inf)
        xmax = np.where(p[..., 2] == 0, p[..., 0], inf)
        ymax = np.where(p[..., 3] == 0, p[..., 1], inf)
        return np.stack([xmin, ymin, xmax, ymax], axis=-1)


def _ellipse_bounds(params):
    """Tight bounds of ellipse rows ``cx, cy, a, b, wx, wy``, rounded outward."""
    cx, cy, a, b, wx, wy = np.moveaxis(params, -1, 0)
    # hypot, not sqrt of squares: squares of radii near the ends of the range under- or overflow
    # (a circle of radius 1e-160 got bounds 0.99994 of its radius)
    norm = np.hypot(wx, wy)
    hx = np.hypot(a * wx, b * wy) / norm
    hy = np.hypot(a * wy, b * wx) / norm
    # a few ulps of slack cover the rounding of the half-widths and of the sums below
    hx = hx * (1 + 8 * np.finfo(float).eps)
    hy = hy * (1 + 8 * np.finfo(float).eps)
    bounds = np.stack([cx - hx, cy - hy, cx + hx, cy + hy], axis=-1)
    return np.concatenate(
        [np.nextafter(bounds[..., :2], -np.inf), np.nextafter(bounds[..., 2:], np.inf)], axis=-1
    )


class Circle(Shape):
    """A closed disc.

    Parameters
    ----------
    center : array_like of shape (..., 2)
    radius : array_like of shape (...)
        Positive radius.

    Raises
    ------
    ValueError
        For invalid values, and outside the supported range of magnitudes
        (``docs/conventions.md``): ``center`` beyond ``|x| <= 2**500`` (about 3.27e150), or a radius
        outside ``[2**-500, 2**500]`` (about 3.05e-151 to 3.27e150).

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Circle((0, 0), 1)
    Circle(center=(0.0, 0.0), radius=1.0)
    """

    __slots__ = ()
    _kind = "ellipse"
    _field_names = ("center", "radius")

    def __init__(self, center, radius):
        batch, f = _broadcast_fields(
            {"center": _vector_field(center, "center")},
            {"radius": as_positive_array(radius, "radius")},
        )
        check_range("circle", f)  # range rule
        r = f["radius"][..., None]
        one = np.ones(batch + (1,))
        self._finish(f, np.concatenate([f["center"], r, r, one, 0 * one], axis=-1))

    def _bounds(self):
        return _ellipse_bounds(self._params)


class Ellipse(Shape):
    """A closed, possibly rotated ellipse.

    Parameters
    ----------
    center : array_like of shape (..., 2)
    radii : array_like of shape (..., 2)
        Semi-axes along the ellipse's own x and y axes; positive, in any order.
    angle : array_like of shape (...), default 0
        Counter-clockwise rotation of the ellipse's own x axis from +x, in radians. Stored as a
        direction vector (see the module notes); ignored when the two radii are equal.

    Raises
    ------
    ValueError
        For invalid values, and outside the supported range of magnitudes
        (``docs/conventions.md``): ``center`` beyond ``|x| <= 2**500`` (about 3.27e150), radii outside
        ``[2**-500, 2**500]`` (about 3.05e-151 to 3.27e150), or radii whose ratio exceeds ``2**100``.

    Examples
    --------
    >>> import collide2d as c2
    >>> e = c2.Ellipse((0, 0), (2, 1), angle=0.5)
    >>> e
    Ellipse(center=(0.0, 0.0), radii=(2.0, 1.0), angle=0.5)
    >>> e.direction.round(6).tolist()
    [0.877583, 0.479426]
    """

    __slots__ = ()
    _kind = "ellipse"
    _field_names = ("center", "radii", "angle")

    def __init__(self, center, radii, angle=0.0):
        batch, f = _broadcast_fields(
            {"center": _vector_field(center, "center"), "radii": _vector_field(radii, "radii", positive=True)},
            {"angle": as_float_array(angle, "angle")},
        )
        check_range("ellipse", f)  # range rule
        w = direction_from_angle(f["angle"])
        circle = f["radii"][..., 0] == f["radii"][..., 1]
        w = np.where(circle[..., None], np.array([1.0, 0.0]), w)
        self._finish(f, np.concatenate([f["center"], f["radii"], w], axis=-1))

    @property
    def direction(self):
        """The stored direction of the first radius: ``(wx, wy)``, unit up to rounding."""
        return self._params[..., 4:6]

    def _bounds(self):
        return _ellipse_bounds(self._params)


# -- polygons ---------------------------------------------------------------------------------


def _orient_exact_signs(a, b, c):
    """Exact signs of the turns a -> b -> c (arrays of shape (n, 2)); float filter, then Fractions."""
    abx, aby = b[:, 0] - a[:, 0], b[:, 1] - a[:, 1]
    acx, acy = c[:, 0] - a[:, 0], c[:, 1] - a[:, 1]
    value = abx * acy - aby * acx
    bound = (np.abs(abx * acy) + np.abs(aby * acx)) * (6 * 2.0**-53)
    sign = np.where(value > bound, 1, np.where(value < -bound, -1, 0))
    for i in np.flatnonzero(np.abs(value) <= bound):
        fa, fb, fc = ([Fraction(float(v)) for v in p[i]] for p in (a, b, c))
        exact = (fb[0] - fa[0]) * (fc[1] - fa[1]) - (fb[1] - fa[1]) * (fc[0] - fa[0])
        sign[i] = (exact > 0) - (exact < 0)
    return sign


def _clean_convex(vertices, name):
    """Return the counter-clockwise, strictly convex vertex list of one polygon, or raise."""
    v = np.asarray(vertices, dtype=np.float64)
    keep = np.any(v != np.roll(v, 1, axis=0), axis=1)  # drop repeated consecutive vertices
    v = v[keep] if keep.any() else v[:1]
    changed = True
    while changed and len(v) >= 3:
        signs = _orient_exact_signs(np.roll(v, 1, axis=0), v, np.roll(v, -1, axis=0))
        collinear = signs == 0
        changed = bool(collinear.any())
        if changed:  # drop one collinear vertex at a time: removing two neighbours at once can fail
            v = np.delete(v, np.flatnonzero(collinear)[0], axis=0)
    if len(v) < 3:
        raise ValueError(f"{name} must span a positive area (it has fewer than 3 non-collinear vertices)")
    if np.all(signs < 0):
        v = v[::-1]
    elif not np.all(signs > 0):
        raise ValueError(f"{name} must be convex (the turns change direction)")
    edges = np.roll(v, -1, axis=0) - v
    heading = np.arctan2(edges[:, 1], edges[:, 0])
    turning = np.mod(np.roll(heading, -1) - heading, 2 * np.pi).sum()
    if turning > 3 * np.pi:  # a convex polygon turns once (2 pi); a star polygon twice or more
        raise ValueError(f"{name} must be convex and simple (its boundary winds more than once)")
    return v


def _pack_polygons(vertex_lists, batch):
    counts = np.array([len(v) for v in vertex_lists], dtype=np.float64)
    offsets = np.concatenate([[0.0], np.cumsum(counts)])[:-1]  # also right for an empty batch
    verts = np.concatenate(vertex_lists, axis=0) if vertex_lists else np.zeros((0, 2))
    params = np.stack([offsets, counts], axis=-1).reshape(batch + (2,))
    return params, verts


def _polygon_bounds(params, verts):
    flat = params.reshape(-1, 2).astype(np.int64)
    out = np.empty((len(flat), 4))
    for k, (offset, count) in enumerate(flat):
        v = verts[offset : offset + count]
        out[k] = [v[:, 0].min(), v[:, 1].min(), v[:, 0].max(), v[:, 1].max()]
    return out.reshape(params.shape[:-1] + (4,))


class Polygon(Shape):
    """A closed convex polygon.

    Parameters
    ----------
    vertices : array_like of shape (..., N, 2)
        At least three vertices of a convex polygon, in either winding. Stored counter-clockwise;
        repeated and exactly collinear vertices are dropped (they do not change the region).

    Raises
    ------
    ValueError
        For invalid values, and outside the supported range of magnitudes
        (``docs/conventions.md``): vertices beyond ``|x| <= 2**500`` (about 3.27e150), or a bounding box
        narrower than ``2**-500`` (about 3.05e-151) in x or y.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Polygon([(0, 0), (0, 1), (1, 0)]).vertices.tolist()
    [[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]]
    """

    __slots__ = ()
    _kind = "polygon"
    _field_names = ("vertices",)

    def __init__(self, vertices):
        v = as_float_array(vertices, "vertices", vector=True)
        if v.ndim < 2 or v.shape[-2] < 3:
            raise ValueError(f"vertices must have shape (..., N, 2) with N >= 3, got {v.shape}")
        batch = v.shape[:-2]
        flat = v.reshape((-1,) + v.shape[-2:])
        cleaned = [_clean_convex(one, "vertices") for one in flat]
        check_range("polygon", {"vertices": v})  # range rule
        params, verts = _pack_polygons(cleaned, batch)
        if batch:  # the input vertices, each polygon turned counter-clockwise
            area2 = np.sum(flat[:, :, 0] * np.roll(flat[:, :, 1], -1, 1) - np.roll(flat[:, :, 0], -1, 1) * flat[:, :, 1], 1)
            fields = {"vertices": np.where((area2 < 0)[:, None, None], flat[:, ::-1], flat).reshape(v.shape)}
        else:
            fields = {"vertices": cleaned[0]}
        self._finish(fields, params, verts)

    def __getattr__(self, name):
        if name == "vertices":
            return object.__getattribute__(self, "_fields")["vertices"]
        return Shape.__getattr__(self, name)

    def _bounds(self):
        return _polygon_bounds(self._params, self._verts)


def _corner_polygons(corners, batch):
    """Pack ``corners`` of shape ``batch + (4, 2)`` (counter-clockwise) as polygon rows."""
    flat = corners.reshape(-1, 4, 2)
    n = len(flat)
    offsets = 4.0 * np.arange(n)
    params = np.stack([offsets, np.full(n, 4.0)], axis=-1).reshape(batch + (2,))
    return params, flat.reshape(-1, 2)


class Box(Shape):
    """A closed axis-aligned rectangle.

    Parameters
    ----------
    min, max : array_like of shape (..., 2)
        Lower-left and upper-right corners; ``min < max`` in both coordinates.

    Raises
    ------
    ValueError
        For invalid values, and outside the supported range of magnitudes
        (``docs/conventions.md``): corners beyond ``|x| <= 2**500`` (about 3.27e150), or a side ``max - min``
        below ``2**-500`` (about 3.05e-151).

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Box((0, 0), (2, 1))
    Box(min=(0.0, 0.0), max=(2.0, 1.0))
    >>> c2.Box.from_center((1, 1), (0.5, 0.5)).bounds
    (0.5, 0.5, 1.5, 1.5)
    """

    __slots__ = ()
    _kind = "polygon"
    _field_names = ("min", "max")

    def __init__(self, min, max):  # noqa: A002 - the API names the corners min and max
        batch, f = _broadcast_fields({"min": _vector_field(min, "min"), "max": _vector_field(max, "max")}, {})
        if np.any(f["min"] >= f["max"]):
            raise ValueError("min must be smaller than max in both coordinates")
        check_range("box", f)  # range rule
        lo, hi = f["min"], f["max"]
        corners = np.stack(
            [lo, np.stack([hi[..., 0], lo[..., 1]], -1), hi, np.stack([lo[..., 0], hi[..., 1]], -1)], axis=-2
        )
        params, verts = _corner_polygons(corners, batch)
        self._finish(f, params, verts)

    @classmethod
    def from_center(cls, center, half_size):
        """Build a box from its centre and positive half-sizes (corners rounded to float64)."""
        center = _vector_field(center, "center")
        half_size = _vector_field(half_size, "half_size", positive=True)
        return cls(center - half_size, center + half_size)

    def _bounds(self):
        return np.concatenate([self._fields["min"], self._fields["max"]], axis=-1)


class RotatedBox(Shape):
    """A closed rectangle rotated about its centre.

    Parameters
    ----------
    center : array_like of shape (..., 2)
    half_size : array_like of shape (..., 2)
        Positive half-widths along the box's own x and y axes.
    angle : array_like of shape (...), default 0
        Counter-clockwise rotation in radians (converted as for :class:`Ellipse`).

    Notes
    -----
    The box is stored as the convex quadrilateral of its four corners, computed once in float64.

    Raises
    ------
    ValueError
        For invalid values, and outside the supported range of magnitudes
        (``docs/conventions.md``): ``center`` beyond ``|x| <= 2**500`` (about 3.27e150), or half-sizes
        outside ``[2**-500, 2**500]`` (about 3.05e-151 to 3.27e150).

    Examples
    --------
    >>> import collide2d as c2
    >>> import math
    >>> c2.RotatedBox((0, 0), (1, 1), angle=math.pi / 4).bounds[2] > 1.41
    True
    """

    __slots__ = ()
    _kind = "polygon"
    _field_names = ("center", "half_size", "angle")

    def __init__(self, center, half_size, angle=0.0):
        batch, f = _broadcast_fields(
            {
                "center": _vector_field(center, "center"),
                "half_size": _vector_field(half_size, "half_size", positive=True),
            },
            {"angle": as_float_array(angle, "angle")},
        )
        check_range("rotatedbox", f)  # range rule
        w = direction_from_angle(f["angle"])
        wx, wy = w[..., 0], w[..., 1]
        hx, hy = f["half_size"][..., 0], f["half_size"][..., 1]
        cx, cy = f["center"][..., 0], f["center"][..., 1]
        corners = []
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            corners.append(np.stack([cx + (sx * hx * wx - sy * hy * wy), cy + (sx * hx * wy + sy * hy * wx)], -1))
        corners = np.stack(corners, axis=-2)
        for one in corners.reshape(-1, 4, 2):
            cleaned = _clean_convex(one, "half_size")
            if len(cleaned) != 4:
                raise ValueError("half_size is too small relative to center to give four distinct float64 corners")
        params, verts = _corner_polygons(corners, batch)
        self._finish(f, params, verts)

    @property
    def corners(self):
        """The four stored corners, counter-clockwise: array of shape ``batch + (4, 2)``."""
        index = self._params[..., 0].astype(np.int64)[..., None] + np.arange(4)
        return self._verts[index]

    def _bounds(self):
        return _polygon_bounds(self._params, self._verts)
