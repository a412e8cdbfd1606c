"""The rounded kinds of :mod:`collide2d.shapes`: :class:`Capsule` and what every rounded shape
shares (the kernel row, the radius check, bounds, area, perimeter, centroid)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, overload

import numpy as np
from numpy.typing import ArrayLike

from collide2d import _geometry
from collide2d._validate import broadcast_batch, check_coordinates, check_sizes, pair, real
from collide2d.typing import Count, FloatArray, Pair, Single
from collide2d._shape_build import _PACK, _broadcast_fields, _copy, _frombuffer, _frozen, _polygon_bounds
from collide2d.shapes._base import _EMPTY_VERTS, Shape


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
        return r + 0.0  # -0.0 is stored as 0.0 (the same set; a -0.0 field would read back as a sign)
    if r.size and not np.all(r >= 0.0):
        raise ValueError(f"radius must be >= 0, got {float(r[~(r >= 0.0)].flat[0])!r}")
    check_sizes(r[r != 0.0], "radius")
    return r + 0.0  # a new array (never the caller's), -0.0 stored as 0.0


def _rounded(shape, cls, radius, *args, **kwargs):
    """Build ``shape`` as the base shape of ``args`` rounded by ``radius`` (an instance of the
    private subclass ``cls`` from then on). False when the radius is the number 0: the caller then
    builds its plain shape, bit for bit today's. A radius array of zeros builds the plain shape here,
    over the batch that the radius broadcasts it to (a ValueError naming the radius when they do not
    broadcast), and gives True."""
    r = _radius(radius)
    base = cls.__mro__[2]  # (cls, _RoundedMixin, the public class, ...)
    if not np.any(r):
        if type(r) is float:
            return False
        # a radius array of zeros: the plain shape, over the batch the radius broadcasts it to
        base.__init__(shape, *args, **kwargs)
        batch = broadcast_batch({"the shape": shape.shape, "radius": r.shape})
        if batch != shape.shape:
            fields = {}
            for name, value in shape._fields.items():  # rebuilt from its fields: type(s)(**s.fields) is s
                trailing = value.shape[len(shape.shape):]
                fields[name] = np.broadcast_to(value, batch + trailing)
            base.__init__(shape, **fields)
        return True
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
    area, perimeter = _geometry.rounded_core_measures(shape._flat_params(), shape._verts)
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
    # The sums below multiply three lengths (area times a position, r * length * a position): at
    # sizes beyond 2**300 (or below 2**-300) they would overflow (or underflow), so such a shape is
    # measured scaled by a power of two (exact) and the centroid scaled back; other shapes as given.
    size = max(float(np.max(np.abs(d))), r)
    scale = 1.0 if 2.0**-300 <= size <= 2.0**300 else 2.0 ** math.frexp(size)[1]
    d, r = d / scale, r / scale
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
    return origin + (total / weight) * scale


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
