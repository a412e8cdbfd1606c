"""Rigid moves: reference points, extents, moved kernel rows, :func:`translate` and :func:`rotate`."""

from __future__ import annotations

import importlib
import math

import numpy as np
from numpy.typing import ArrayLike

from collide2d import _angles
from collide2d._glue import run
from collide2d._validate import as_float_array, as_limit_array
from collide2d.shapes import Box, Capsule, Circle, Ellipse, Line, Point, Polygon, RotatedBox, Segment, Shape

_KIND_CLASS = {"ellipse": Ellipse, "polygon": Polygon, "segment": Segment, "line": Line, "point": Point}

_ULP = 2.0**-52


def _loops():
    return importlib.import_module("collide2d._kernels.motion.loops")


def _rounded_loops():
    return importlib.import_module("collide2d._kernels.motion.loops_rounded")


# -- reference points, extents and moved rows ---------------------------------------------------------


def _polygon_vertices(params, verts):
    """All vertices of polygon rows (flat ``(n, 2)`` params) and the row owning each one."""
    offset = params[:, 0].astype(np.int64)
    count = params[:, 1].astype(np.int64)
    start = np.cumsum(count) - count
    owner = np.repeat(np.arange(count.size), count)
    return verts[offset[owner] + (np.arange(owner.size) - start[owner])], owner, start, count


def _polygon_centroids(params, verts):
    """Area centroids of polygon rows (flat ``(n, 2)`` params), vertices taken relative to the first
    and scaled by a power of two per row to a largest magnitude below 1 (exact; the sums below are
    of degree 3 in the lengths, which overflowed for polygons of size 1e150)."""
    rows = params.reshape(-1, 2)
    v, owner, start, count = _polygon_vertices(rows, verts)
    q = v - v[start][owner]
    size = np.zeros(rows.shape[0])
    np.maximum.at(size, owner, np.abs(q).max(axis=1))
    exponent = np.frexp(size)[1]  # 2**-e scales each row's largest offset into [0.5, 1)
    q = np.ldexp(q, -exponent[owner][:, None])
    after = np.arange(owner.size) + 1
    after[start + count - 1] = start  # the next vertex, cyclically within each polygon
    x0, y0, x1, y1 = q[:, 0], q[:, 1], q[after, 0], q[after, 1]
    cross = x0 * y1 - x1 * y0
    n = rows.shape[0]
    area3 = 3.0 * np.bincount(owner, cross, minlength=n)
    cx = np.bincount(owner, (x0 + x1) * cross, minlength=n) / area3
    cy = np.bincount(owner, (y0 + y1) * cross, minlength=n) / area3
    return v[start] + np.ldexp(np.stack([cx, cy], axis=-1), exponent[:, None])


def reference_points(shape: Shape) -> np.ndarray:
    """Reference point of every shape of a batch, as a float array of shape ``(shape.size, 2)``."""
    p = run.flat_rows(shape)[1]
    if isinstance(shape, (Circle, Ellipse, Point)):
        return np.array(p[:, 0:2])
    if isinstance(shape, (Segment,)):
        return 0.5 * (p[:, 0:2] + p[:, 2:4])
    if isinstance(shape, Line):
        return np.array(p[:, 0:2])
    if isinstance(shape, Box):
        lo = np.asarray(shape.fields["min"]).reshape(-1, 2)
        hi = np.asarray(shape.fields["max"]).reshape(-1, 2)
        return 0.5 * (lo + hi)
    if isinstance(shape, RotatedBox):
        return np.array(np.broadcast_to(shape.fields["center"], shape.shape + (2,)).reshape(-1, 2))
    if run.kind_of(shape) == "rounded":  # a capsule or a rounded polygon: the reference point of its core
        return _rounded_references(p, run.shape_rows(shape)[2])
    return _polygon_centroids(p, run.shape_rows(shape)[2])


def _rounded_references(p, verts):
    """Reference points of rounded rows (flat ``(n, 7)``): the area centroid of a polygon core,
    the midpoint of a segment core, the point of a point core (its ends are equal: the midpoint is
    that point, exactly)."""
    out = 0.5 * (p[:, 3:5] + p[:, 5:7])
    polygon = p[:, 1] >= 3
    if polygon.any():
        out[polygon] = _polygon_centroids(np.ascontiguousarray(p[polygon, 0:2]), verts)
    return out


def _extents(shape, ref):
    """Largest distance from the reference point to a point of each shape, rounded up (inf: lines)."""
    p = run.flat_rows(shape)[1]
    kind = run.kind_of(shape)
    if kind == "ellipse":
        r = np.maximum(p[:, 2], p[:, 3])
    elif kind == "point":
        r = np.zeros(p.shape[0])
    elif kind == "line":
        r = np.full(p.shape[0], np.inf)
    elif kind == "segment":
        r = np.maximum(np.hypot(*(p[:, 0:2] - ref).T), np.hypot(*(p[:, 2:4] - ref).T))
    elif kind == "rounded":  # the core's extent, plus the radius
        r = np.maximum(np.hypot(*(p[:, 3:5] - ref).T), np.hypot(*(p[:, 5:7] - ref).T))
        polygon = np.flatnonzero(p[:, 1] >= 3)
        if polygon.size:
            v, owner, _, _ = _polygon_vertices(np.ascontiguousarray(p[polygon, 0:2]), run.shape_rows(shape)[2])
            core = np.zeros(polygon.size)
            np.maximum.at(core, owner, np.hypot(*(v - ref[polygon][owner]).T))
            r[polygon] = core
        r = r + p[:, 2]
    else:
        v, owner, _, _ = _polygon_vertices(p, run.shape_rows(shape)[2])
        r = np.zeros(p.shape[0])
        np.maximum.at(r, owner, np.hypot(*(v - ref[owner]).T))
    return r * (1.0 + 8 * _ULP)


def _turn_extents(shape, extents):
    """The extents that bound how fast a turn about the reference point moves the shape's
    boundary: its :func:`_extents`, but 0 for circles (a turn about the centre leaves the set as
    it is)."""
    r = extents.copy()
    if run.kind_of(shape) == "ellipse":
        p = run.flat_rows(shape)[1]
        r[p[:, 2] == p[:, 3]] = 0.0
    elif run.kind_of(shape) == "rounded":  # a point core: a disc about its reference point
        r[run.flat_rows(shape)[1][:, 1] == 1.0] = 0.0
    return r


def _motion_numbers(value, name, vector=False):
    """A motion argument as a float64 array (:func:`collide2d._validate.as_float_array`, which
    refuses booleans: ``True`` is not a speed, an angle or a time). ``t_max`` (``vector=None``) may
    be infinite, not NaN or negative."""
    if vector is None:
        return as_limit_array(value, name, unit="inf allowed")
    return as_float_array(value, name, vector=vector)


def _kernel_shape(kind, params, verts=None, cls=None):
    """A batch of kernel-kind shapes over the given rows (no validation: rows of moved shapes);
    ``cls`` the class of rounded rows (a capsule's for segment and point cores, a rounded
    polygon's for polygon cores: :func:`collide2d._glue.rounded.plain_if_zero` reads it)."""
    if kind == "rounded" and cls is None:
        return rounded_kernel_shape(params, np.zeros((0, 2)) if verts is None else verts)
    new = object.__new__(_KIND_CLASS[kind] if cls is None else cls)
    new._finish({}, params, np.zeros((0, 2)) if verts is None else verts)
    return new


def _moved(shape, index, origin, turn, shift, single=False):
    """Rows ``index`` of ``shape`` turned by ``turn`` (cos, sin) about ``origin``, then shifted by
    ``shift`` (arrays of shape ``(len(index), 2)``), as a batch of its kernel kind (with
    ``single``, of one row: a single shape of its kernel kind)."""
    loops = _loops()
    params = np.ascontiguousarray(run.flat_rows(shape)[1])
    kind = run.kind_of(shape)
    if kind == "polygon":
        counts = params[index, 1].astype(np.int64)
        offsets = np.cumsum(counts) - counts
        verts = np.empty((int(counts.sum()), 2))
        loops.move_polygon_loop(params, np.ascontiguousarray(run.shape_rows(shape)[2]), index, origin, turn, shift, offsets, verts)
        rows = np.stack([offsets.astype(np.float64), counts.astype(np.float64)], axis=-1)
        return _kernel_shape(kind, rows[0] if single else rows, verts)
    if kind == "rounded":  # the core moved, the radius kept (see collide2d._kernels.motion.loops_rounded)
        counts = np.where(params[index, 1] >= 3, params[index, 1], 0.0).astype(np.int64)
        offsets = np.cumsum(counts) - counts
        verts = np.empty((int(counts.sum()), 2))
        out = np.empty((index.shape[0], params.shape[1]))
        _rounded_loops().move_rounded_loop(params, np.ascontiguousarray(run.shape_rows(shape)[2]), index, origin, turn, shift,
                                           offsets, out, verts)
        return rounded_kernel_shape(out[0] if single else out, verts)
    out = np.empty((index.shape[0], params.shape[1]))
    getattr(loops, f"move_{kind}_loop")(params, index, origin, turn, shift, out)
    return _kernel_shape(kind, out[0] if single else out)


def rounded_kernel_shape(rows, verts):
    """A batch (or, for one row, a single shape) over rounded kernel rows, of the class that
    :func:`collide2d._glue.rounded.plain_if_zero` reads: a rounded polygon's when every core is a
    polygon, else a capsule's (with its fields ``a``, ``b``, ``radius`` of the rows), so that rows
    of radius 0 become the plain polygons, segments or points they are."""
    flat = rows.reshape(-1, rows.shape[-1])
    if flat.shape[0] and np.all(flat[:, 1] >= 3):
        return _kernel_shape("rounded", rows, verts, _rounded_polygon_class())
    new = object.__new__(Capsule)
    new._finish({"a": rows[..., 3:5], "b": rows[..., 5:7], "radius": rows[..., 2]}, rows, verts)
    return new


def _rounded_polygon_class():
    """The class of a :class:`Polygon` built with a radius (read off one, so that this module
    needs no private name of :mod:`collide2d.shapes`)."""
    global _ROUNDED_POLYGON
    if _ROUNDED_POLYGON is None:
        _ROUNDED_POLYGON = type(Polygon([(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)], radius=1.0))
    return _ROUNDED_POLYGON


_ROUNDED_POLYGON = None


def _turns(angle):
    """``(cos, sin)`` of the angles (an array), ``(1, 0)`` exactly for 0: the turns of the moved
    shapes, one code path for single pairs and batches (so that both get the same floats)."""
    if angle.shape == (1,) and angle[0] == 0.0:
        return np.array([[1.0, 0.0]])
    turn = np.stack([np.cos(angle), np.sin(angle)], axis=-1)
    turn[angle == 0.0] = (1.0, 0.0)
    return turn


# -- translate and rotate -----------------------------------------------------------------------------


def _check(shape, name="shape"):
    if not isinstance(shape, Shape):
        raise TypeError(f"{name} must be a collide2d shape (Point, Circle, Ellipse, ...), got {type(shape).__name__}")


def _vectors(value, name, batch):
    """A finite vector argument broadcast against ``batch``: (broadcast batch shape, flat (n, 2))."""
    v = as_float_array(value, name, vector=True)
    try:
        shape = np.broadcast_shapes(batch, v.shape[:-1])
    except ValueError:
        raise ValueError(f"{name} of shape {v.shape} does not broadcast with the batch shape {batch}") from None
    return shape, v


def _rebuild(shape, batch, turn, origin, shift):
    """``shape`` broadcast to ``batch``, each shape turned by ``turn`` (cos, sin) about ``origin``
    and shifted by ``shift`` (arrays broadcastable to ``batch + (2,)``), as a public shape."""
    n = math.prod(batch)
    flat = np.broadcast_to(np.arange(shape.size).reshape(shape.shape), batch).reshape(-1)
    turn = np.ascontiguousarray(np.broadcast_to(turn, batch + (2,)).reshape(n, 2))
    shift = np.ascontiguousarray(np.broadcast_to(shift, batch + (2,)).reshape(n, 2))
    ref = reference_points(shape)[flat] if origin is None else np.broadcast_to(origin, batch + (2,)).reshape(n, 2)
    ref = np.ascontiguousarray(ref)
    idx = np.ascontiguousarray(flat)
    moved = _moved(shape, idx, ref, turn, shift)
    p = run.shape_rows(moved)[1]
    fields = shape.fields
    rounded = {}  # the radius of a rounded shape, broadcast to the batch (its class is kept)
    if run.kind_of(shape) == "rounded":
        radius = np.broadcast_to(run.shape_rows(shape)[1][..., 2], shape.shape).reshape(-1)[flat]
        rounded = {"radius": float(radius[0]) if not batch else radius.reshape(batch)}
        if isinstance(shape, Capsule):
            return Capsule(p[:, 3:5].reshape(batch + (2,)), p[:, 5:7].reshape(batch + (2,)), rounded["radius"])
    if isinstance(shape, Point):
        return Point(p.reshape(batch + (2,)))
    if isinstance(shape, Segment):
        return Segment(p[:, 0:2].reshape(batch + (2,)), p[:, 2:4].reshape(batch + (2,)))
    if isinstance(shape, Line):
        return Line(p[:, 0:2].reshape(batch + (2,)), p[:, 2:4].reshape(batch + (2,)))
    if isinstance(shape, Circle):
        radius = np.broadcast_to(run.shape_rows(shape)[1][..., 2], shape.shape)
        return Circle(p[:, 0:2].reshape(batch + (2,)), np.broadcast_to(radius, batch))
    if isinstance(shape, Ellipse):
        radii = np.broadcast_to(run.shape_rows(shape)[1][..., 2:4], shape.shape + (2,))
        return Ellipse(p[:, 0:2].reshape(batch + (2,)), np.broadcast_to(radii, batch + (2,)),
                       direction=p[:, 4:6].reshape(batch + (2,)))
    corners = run.shape_rows(moved)[2].reshape(-1, 2)
    if isinstance(shape, Box):
        quarter = (turn[:, 0] == 0.0) | (turn[:, 1] == 0.0)
        c = corners.reshape(n, 4, 2)
        if quarter.all():
            return Box(c.min(axis=1).reshape(batch + (2,)), c.max(axis=1).reshape(batch + (2,)), **rounded)
        lo = np.asarray(fields["min"]).reshape(-1, 2)[flat]
        hi = np.asarray(fields["max"]).reshape(-1, 2)[flat]
        center = run.shape_rows(_moved(Point(0.5 * (lo + hi)), np.arange(n), ref, turn, shift))[1]
        return RotatedBox(center.reshape(batch + (2,)), (0.5 * (hi - lo)).reshape(batch + (2,)),
                          direction=turn.reshape(batch + (2,)), **rounded)
    if isinstance(shape, RotatedBox):
        center = np.broadcast_to(fields["center"], shape.shape + (2,)).reshape(-1, 2)[flat]
        half = np.broadcast_to(fields["half_size"], shape.shape + (2,)).reshape(-1, 2)[flat]
        own = _angles.direction(np.broadcast_to(fields["angle"], shape.shape).reshape(-1)[flat])
        center = run.shape_rows(_moved(Point(center), np.arange(n), ref, turn, shift))[1]
        direction = run.shape_rows(_moved(Line(np.zeros((n, 2)), own), np.arange(n), np.zeros((n, 2)), turn, np.zeros((n, 2))))[1]
        return RotatedBox(center.reshape(batch + (2,)), half.reshape(batch + (2,)),
                          direction=direction[:, 2:4].reshape(batch + (2,)), **rounded)
    # a polygon: its stored (counter-clockwise, cleaned) vertices, moved
    counts = run.flat_rows(shape)[1][flat, 1].astype(np.int64)
    if n == 1 and not batch:
        return Polygon(corners, **rounded)
    if np.all(counts == counts[0]):
        return Polygon(corners.reshape(batch + (int(counts[0]), 2)), **rounded)
    raise ValueError("a batch of polygons with different vertex counts cannot be rebuilt as one batch")


def translate(shape: Shape, offset: ArrayLike) -> Shape:
    """Return the shape moved by ``offset``: a new shape of the same kind.

    Parameters
    ----------
    shape : Shape
        A single shape or a batch.
    offset : array_like of shape (..., 2)
        The translation; its batch shape broadcasts with ``shape.shape``.

    Returns
    -------
    Shape
        Of the same class as `shape` and of the broadcast batch shape. Every coordinate is the
        exact sum rounded once to the nearest float, so it is exact whenever that sum is a float
        (for example integers, or dyadic numbers of similar magnitude).

    Raises
    ------
    TypeError
        If `shape` is not a collide2d shape or `offset` is not numeric.
    ValueError
        If `offset` is not finite, has no trailing axis of length 2, or does not broadcast.

    See Also
    --------
    rotate : the other rigid move.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.translate(c2.Box((0, 0), (2, 1)), (1, -1))
    Box(min=(1.0, -1.0), max=(3.0, 0.0))
    >>> c2.translate(c2.Circle((0, 0), 1), [(1, 0), (0, 2)]).center.tolist()
    [[1.0, 0.0], [0.0, 2.0]]
    >>> c2.translate(c2.Capsule((0, 0), (2, 0), 0.5), (1, 1))  # a rounded shape keeps its radius
    Capsule(a=(1.0, 1.0), b=(3.0, 1.0), radius=0.5)
    """
    _check(shape)
    shape = run.rounded().plain_if_zero(shape)  # radius 0: the core's shape, today's answer bit for bit
    batch, offset = _vectors(offset, "offset", shape.shape)
    return _rebuild(shape, batch, np.array([1.0, 0.0]), None, offset)


def rotate(shape: Shape, angle: ArrayLike, *, origin: ArrayLike | None = None) -> Shape:
    """Return the shape turned counter-clockwise by ``angle`` radians about ``origin``.

    Parameters
    ----------
    shape : Shape
        A single shape or a batch.
    angle : array_like of shape (...)
        The turn in radians; broadcasts with ``shape.shape``. A float within one ulp of a
        multiple of pi/2 (``math.pi / 2``, ``np.pi``, ``1e6 * math.pi / 2``, ...) below
        ``2**50 * pi`` (about 3.5e15) is an exact quarter turn; a larger float keeps its own
        direction, reduced exactly.
    origin : array_like of shape (..., 2), optional
        The centre of the turn. By default each shape's reference point: the centre of a
        circle, ellipse, box or rotated box, the area centroid of a polygon, the midpoint of a
        segment, the ``point`` of a line, the point itself; for a capsule or a rounded polygon,
        box or rotated box, its core's (a rounded shape turns with its core and keeps its radius).

    Returns
    -------
    Shape
        Of the same class as `shape`, except that a :class:`Box` becomes a :class:`RotatedBox`
        unless every turn is a quarter turn. The turn is a rotation matrix within about one ulp
        of that of the float ``angle``; quarter turns are exact, and each coordinate they move
        is the exact value rounded once (so a quarter turn about a reference point of a circle,
        ellipse, box or rotated box changes only its orientation).

    Raises
    ------
    TypeError
        If `shape` is not a collide2d shape or `angle`, `origin` are not numeric.
    ValueError
        If `angle` or `origin` is not finite or they do not broadcast with the batch.

    See Also
    --------
    translate : the other rigid move.

    Examples
    --------
    >>> import math
    >>> import collide2d as c2
    >>> c2.rotate(c2.Box((0, 0), (4, 2)), math.pi / 2)  # a quarter turn about the centre
    Box(min=(1.0, -1.0), max=(3.0, 3.0))
    >>> c2.rotate(c2.Segment((0, 0), (2, 0)), math.pi / 2, origin=(0, 0))
    Segment(start=(0.0, 0.0), end=(0.0, 2.0))
    >>> type(c2.rotate(c2.Box((0, 0), (4, 2)), 0.3)).__name__
    'RotatedBox'
    >>> c2.rotate(c2.Box((0, 0), (4, 2), radius=0.5), math.pi / 2)
    Box(min=(1.0, -1.0), max=(3.0, 3.0), radius=0.5)
    >>> c2.rotate(c2.Capsule((0, 0), (2, 0), 0.5), math.pi / 2)  # about the midpoint (1, 0)
    Capsule(a=(1.0, -1.0), b=(1.0, 1.0), radius=0.5)
    """
    _check(shape)
    shape = run.rounded().plain_if_zero(shape)  # radius 0: the core's shape, today's answer bit for bit
    angle = as_float_array(angle, "angle")
    try:
        batch = np.broadcast_shapes(shape.shape, angle.shape)
    except ValueError:
        raise ValueError(f"angle of shape {angle.shape} does not broadcast with the batch shape {shape.shape}") from None
    if origin is not None:
        batch, origin = _vectors(origin, "origin", batch)
    turn = _angles.direction(angle)
    return _rebuild(shape, batch, turn, origin, np.zeros(2))

