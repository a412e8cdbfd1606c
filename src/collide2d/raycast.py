"""Ray casts: where a ray first meets a shape (picking, line of sight, bullets, lasers)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, overload

import numpy as np
from numpy.typing import ArrayLike

from collide2d._glue import run
from collide2d._validate import MAGNITUDE_MAX, as_float_array, as_limit_array, check_coordinates, pair
from collide2d.shapes import Shape
from collide2d.typing import Batch, FloatArray, Pair, Real, Single

__all__ = ["RayHit", "raycast"]


if TYPE_CHECKING:

    class RayHit(NamedTuple, Generic[Real]):  # the same fields, typed per count (see collide2d.typing.Real)
        distance: Real
        point: FloatArray
        normal: FloatArray

else:

    class RayHit(NamedTuple):
        """Where a ray first meets a shape (the result of :func:`raycast`).

        For a single shape and a single ray ``distance`` is a Python float and ``point`` and ``normal``
        ndarrays of shape ``(2,)``; for batches every field is an array of the batch shape (vector
        fields with a trailing axis of length 2). A miss has ``distance = inf`` and NaN ``point`` and
        ``normal``.

        Examples
        --------
        >>> import collide2d as c2
        >>> distance, point, normal = c2.raycast(c2.Circle((5, 0), 1), (0, 0), (2, 0))  # a named tuple
        >>> distance, point.tolist(), normal.tolist()
        (4.0, [4.0, 0.0], [-1.0, 0.0])
        >>> c2.raycast(c2.Box((0, 0), (1, 1)), (3, 3), (1, 1))  # pointing away: a miss
        RayHit(distance=inf, point=array([nan, nan]), normal=array([nan, nan]))
        """

        distance: float | np.ndarray  #: along the unit direction; inf on a miss, 0.0 from inside or on
        point: np.ndarray  #: the first point of the shape on the ray
        normal: np.ndarray  #: unit outward normal there (see :func:`raycast`)

        # At run time ``RayHit[float]`` is the class itself (the parameter is for type checkers)
        __class_getitem__ = classmethod(lambda cls, item: cls)


def _ray_table(origin, direction):
    """Ray rows ``ox, oy, dx, dy`` (the direction scaled by a power of two to a largest component
    in ``[1/2, 1)``, exactly) of the broadcast ray batch, and that batch shape."""
    origin = check_coordinates(as_float_array(origin, "origin", vector=True), "origin")
    direction = as_float_array(direction, "direction", vector=True)
    size = np.maximum(np.abs(direction[..., 0]), np.abs(direction[..., 1]))
    if np.any(size == 0.0):
        raise ValueError("direction must be a non-zero vector (a ray needs a direction)")
    try:
        batch = np.broadcast_shapes(origin.shape[:-1], direction.shape[:-1])
    except ValueError:
        raise ValueError(
            f"batch shapes {origin.shape[:-1]} of origin and {direction.shape[:-1]} of direction do not broadcast"
        ) from None
    scaled = np.ldexp(direction, -np.frexp(size)[1][..., None])
    rays = np.empty(batch + (4,))
    rays[..., 0:2] = origin
    rays[..., 2:4] = scaled
    return rays.reshape(-1, 4), batch


def _max_distance(value):
    """``max_distance`` as a float64 array: not NaN, not negative (``inf`` allowed)."""
    return as_limit_array(value, "max_distance")


def _single(shape, ray, limit):
    """One shape and one ray (``ray`` a list of four floats): the kernels directly, no NumPy
    broadcasting."""
    distance, px, py, nx, ny = run.ray_single(shape, ray, _ray_row(*ray))
    if distance > limit:
        distance, px, py, nx, ny = math.inf, math.nan, math.nan, math.nan, math.nan
    return RayHit(distance, np.array([px, py]), np.array([nx + 0.0, ny + 0.0]))  # + 0.0: no -0.0


def _ray_row(ox, oy, dx, dy):
    """A read-only ray row, as the batches pass them (one compiled type)."""
    row = np.array([ox, oy, dx, dy])
    row.flags.writeable = False
    return row


@overload
def raycast(
    shape: Shape[Single], origin: Pair, direction: Pair, *, max_distance: float = math.inf
) -> RayHit[float]: ...
@overload
def raycast(
    shape: Shape[Batch], origin: ArrayLike, direction: ArrayLike, *, max_distance: ArrayLike = math.inf
) -> RayHit[FloatArray]: ...
@overload
def raycast(
    shape: Shape[Any], origin: ArrayLike, direction: ArrayLike, *, max_distance: ArrayLike = math.inf
) -> RayHit[Any]: ...
def raycast(
    shape: Shape[Any], origin: ArrayLike, direction: ArrayLike, *, max_distance: ArrayLike = math.inf
) -> RayHit[Any]:
    """Return where the ray from ``origin`` along ``direction`` first meets the shape.

    Parameters
    ----------
    shape : Shape
        A single shape or a batch.
    origin : array_like of shape (..., 2)
        Start of each ray.
    direction : array_like of shape (..., 2)
        Direction of each ray: any non-zero vector (it is normalised; its length does not matter).
    max_distance : array_like of shape (...), default inf
        Hits farther than this (along the unit direction) count as misses. Must be >= 0.

    Returns
    -------
    RayHit
        ``distance`` from the origin along the unit direction to the first point of the shape on
        the ray (``inf`` on a miss or beyond `max_distance`), that ``point``, and ``normal``: the
        unit outward normal of a region there (an ellipse's gradient direction, a polygon edge's
        normal; at a polygon corner the bisector of its two edge normals; on a rounded shape the
        flat's normal or the arc's radius direction); for a segment, a line
        or a point, the unit normal on the side facing the ray (``-direction / |direction|`` when
        the ray runs along the segment or line, and for a point). Batches: arrays of the
        broadcast batch shape of `shape`, `origin`, `direction` and `max_distance`.

        **An origin inside or on the shape** gives ``distance = 0.0`` and ``point = origin``; the
        normal is then the outward normal at the origin when it lies on the boundary (for flat
        kinds, the normal facing the ray) and NaN when it lies in a region's interior. The ray
        does not look for the exit point; cast from outside for that.

    Raises
    ------
    TypeError
        If `shape` is not a collide2d shape or an argument is not numeric.
    ValueError
        A zero `direction`, a non-finite `origin` or `direction`, a NaN or negative
        `max_distance`, an origin beyond the supported range of coordinates, or batch shapes that
        do not broadcast.

    See Also
    --------
    intersection_points : the boundary points of a segment from the origin (the hit is the nearest).
    intersects : whether the origin lies in the shape (``intersects(shape, Point(origin))``).

    Notes
    -----
    *Whether* the ray meets the shape, and which feature it meets first, is decided exactly for
    the stored numbers (sign tests with certified error bounds, settled on rationals when the
    bound cannot tell): a ray that grazes an ellipse is a hit exactly when its line touches the
    ellipse, and a ray through a polygon's corner hits it. For an ellipse the hit is the smaller
    root of ``Q(o - c + t d) = 1`` (``Q`` the ellipse's quadratic form), solved in the ellipse's
    frame with the cancellation-free form of the quadratic formula and with the discriminant
    written as ``Q(d) - |d x (o - c)|^2`` up to a positive factor (Lagrange's identity), so that a
    far origin loses nothing to cancellation; polygons are clipped edge by edge (Cyrus and Beck,
    "Generalized two- and three-dimensional clipping", Computers & Graphics 3, 1978), locating
    the entering edge by the side of each vertex. A capsule or rounded polygon is entered through a
    flat (an edge pushed out by its radius) or an arc about a core vertex, decided exactly from
    signs of ``a sqrt(b) + c`` compared without a square root (see
    https://collide2d.readthedocs.io/en/latest/rounded.html). Distances are accurate to a few ulps of the
    distance plus a few ulps of the shape's size, also for an origin 1e6 away from a shape of size
    1e-6; a grazing hit moves like the square root of any perturbation of the data, and is
    accurate accordingly.

    Examples
    --------
    >>> import collide2d as c2
    >>> hit = c2.raycast(c2.Circle((5, 0), 1), (0, 0), (2, 0))
    >>> hit.distance, hit.point.tolist(), hit.normal.tolist()
    (4.0, [4.0, 0.0], [-1.0, 0.0])
    >>> c2.raycast(c2.Ellipse((0, 0), (2, 1)), (-5, 1), (1, 0)).point.tolist()  # grazing: a hit
    [0.0, 1.0]
    >>> c2.raycast(c2.Box((0, 0), (1, 1)), (3, 3), (1, 1)).distance  # pointing away
    inf
    >>> c2.raycast(c2.Box((0, 0), (2, 2)), (1, 1), (0, 1)).normal.tolist()  # from inside
    [nan, nan]
    >>> c2.raycast(c2.Capsule((0, 0), (2, 0), 0.5), (-3, 0.5), (1, 0)).point.tolist()  # along the flat: its first end
    [0.0, 0.5]
    >>> picks = c2.raycast(c2.Circle([(2, 0), (9, 0)], 1), (0, 0), (1, 0), max_distance=5)
    >>> picks.distance.tolist()
    [1.0, inf]
    """
    run.check_shape(shape, "shape")
    shape = run.rounded().plain_if_zero(shape)  # radius 0: the core's kind, bit for bit
    o = pair(origin, "origin")
    d = pair(direction, "direction")
    if not shape.shape and type(o) is tuple and type(d) is tuple and type(max_distance) in (float, int, np.float64):
        limit = float(max_distance)  # type: ignore[arg-type]  # an int or a float here
        if not limit >= 0.0:
            raise ValueError("max_distance must be >= 0 (inf for no limit), got NaN or a negative value")
        if d == (0.0, 0.0):
            raise ValueError("direction must be a non-zero vector (a ray needs a direction)")
        if not (abs(o[0]) <= MAGNITUDE_MAX and abs(o[1]) <= MAGNITUDE_MAX):
            check_coordinates(np.array(o), "origin")  # raises, naming the rule
        e = math.frexp(max(abs(d[0]), abs(d[1])))[1]
        return _single(shape, [o[0], o[1], math.ldexp(d[0], -e), math.ldexp(d[1], -e)], limit)
    limit = _max_distance(max_distance)
    rays, ray_batch = _ray_table(o, d)
    try:
        batch = np.broadcast_shapes(shape.shape, ray_batch, limit.shape)
    except ValueError:
        raise ValueError(
            f"batch shapes {shape.shape} of shape, {ray_batch} of the rays and {limit.shape} of max_distance "
            "do not broadcast"
        ) from None
    index_s = np.broadcast_to(np.arange(shape.size).reshape(shape.shape), batch).ravel()
    index_r = np.broadcast_to(np.arange(rays.shape[0]).reshape(ray_batch), batch).ravel()
    out = run.ray_rows(shape, index_s, rays, index_r)
    beyond = out[:, 0] > np.broadcast_to(limit, batch).ravel()
    if beyond.any():
        out[beyond] = (np.inf, np.nan, np.nan, np.nan, np.nan)
    out[:, 3:5] += 0.0  # no -0.0 in the normals
    out = out.reshape(batch + (5,))
    if not batch:  # one shape and one ray given as arrays: a Python float distance, as documented
        return RayHit(float(out[0]), out[1:3], out[3:5])
    return RayHit(out[..., 0], out[..., 1:3], out[..., 3:5])
