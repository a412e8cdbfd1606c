"""Measurements between shapes: signed distance, contact normal, witness points, closest point.

These are floating-point measurements (accurate to a few ulps of the shapes' sizes), but the sign
of ``separation`` is made to agree with the exact predicates (see :func:`contact`): it is positive
exactly when :func:`collide2d.intersects` is false, and exactly 0 for touching pairs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic, NamedTuple, overload

import numpy as np
from numpy.typing import ArrayLike

from collide2d._glue import run
from collide2d._robust import ladder
from collide2d._kernels import codes
from collide2d.shapes import Point, Shape
from collide2d.typing import Batch, FloatArray, Real, Single

__all__ = ["Contact", "closest_point", "contact", "distance"]


if TYPE_CHECKING:

    class Contact(NamedTuple, Generic[Real]):  # the same fields, typed per count (see collide2d.typing.Real)
        separation: Real
        normal: FloatArray
        point_a: FloatArray
        point_b: FloatArray
        curvature_a: Real
        curvature_b: Real

else:

    class Contact(NamedTuple):
        """Signed distance, normal and witness points of two shapes (the result of :func:`contact`).

        For single shapes the scalar fields are Python floats and the vector fields ndarrays of shape
        ``(2,)``; for batches every field is an array of the batch shape (vector fields with a trailing
        axis of length 2).

        Invariant: ``point_b - point_a == separation * normal`` up to rounding (except for two
        crossing lines, whose separation is ``-inf``).

        Examples
        --------
        >>> import collide2d as c2
        >>> c = c2.contact(c2.Circle((0, 0), 1), c2.Circle((3, 4), 2))  # centres 5 apart: a gap of 2
        >>> c.separation, c.normal.tolist(), c.point_a.tolist(), c.point_b.tolist()
        (2.0, [0.6, 0.8], [0.6, 0.8], [1.8, 2.4])
        >>> c.curvature_a, c.curvature_b  # 1 / radius
        (1.0, 0.5)
        >>> separation, normal, *_ = c  # a named tuple
        >>> batch = c2.contact(c2.Point((0, 0)), c2.Point([(3, 4), (0, 0)]))
        >>> batch.separation.shape, batch.normal.shape
        ((2,), (2, 2))
        """

        separation: float | FloatArray  #: signed distance: gap, 0 touching, -(penetration depth)
        normal: FloatArray  #: unit vector from a to b
        point_a: FloatArray  #: witness point on a's boundary
        point_b: FloatArray  #: witness point on b's boundary
        curvature_a: float | FloatArray  #: curvature of a's boundary at point_a (0 on edges, inf at corners)
        curvature_b: float | FloatArray  #: curvature of b's boundary at point_b

        # At run time ``Contact[float]`` is the class itself (the parameter is for type checkers)
        __class_getitem__ = classmethod(lambda cls, item: cls)


_array = np.array

# The sign fix-up of separations (rung 4 of the ladder) lives in the glue and the ladder; these
# names stay for the modules that import them from here (motion, the nearest search).
_sign_consistent = run.sign_consistent
sign_consistent_rows = run.sign_consistent_rows
row_scale = ladder.row_scale


def _contact_from_values(values):
    if isinstance(values, tuple):
        s, nx, ny, pax, pay, pbx, pby, ka, kb = values
        return Contact(s, np.array([nx, ny]), np.array([pax, pay]), np.array([pbx, pby]), ka, kb)
    return Contact(
        values[..., 0],
        values[..., 1:3],
        values[..., 3:5],
        values[..., 5:7],
        values[..., 7],
        values[..., 8],
    )


@overload
def contact(a: Shape[Single], b: Shape[Single], /) -> Contact[float]: ...
@overload
def contact(a: Shape[Batch], b: Shape[Any], /) -> Contact[FloatArray]: ...
@overload
def contact(a: Shape[Any], b: Shape[Batch], /) -> Contact[FloatArray]: ...
def contact(a: Shape[Any], b: Shape[Any], /) -> Contact[Any]:
    """Return the signed distance, normal, witness points and curvatures of two shapes.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches; batch shapes broadcast like NumPy arrays.

    Returns
    -------
    Contact
        ``separation``: the Euclidean gap when the shapes are apart, 0 when they touch, and minus
        the penetration depth (the length of the shortest translation of `b` that separates them)
        when their interiors overlap. ``normal``: unit vector from `a` to `b`; moving `b` by
        ``-separation * normal`` makes the shapes touch. ``point_a``, ``point_b``: when apart, the
        closest points; otherwise `a`'s support point in ``normal`` and `b`'s in ``-normal`` (the
        deepest points). ``curvature_a``, ``curvature_b``: curvature of each boundary at its witness
        point: 0 on a straight edge, ``1 / r`` on a circle, ``inf`` at a corner, at a segment end
        point and for a point.

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.
    ValueError
        If the batch shapes do not broadcast.

    See Also
    --------
    distance : ``max(separation, 0)``.
    closest_point : the nearest boundary point of one shape.

    Notes
    -----
    Flat pairs (polygons, boxes, segments, lines, points) use separating axes for the depth
    (Ericson, *Real-Time Collision Detection*, 2005, 5.2.1; the axes are the facet normals of the
    Minkowski difference) and closest features when apart (Ericson 5.1). Degenerate cases have
    fixed answers:

    * coincident points: ``separation = 0``, ``normal = (1, 0)``;
    * a point on a segment or line, a segment on a line, collinear overlapping segments,
      coincident lines: ``separation = 0`` and ``normal`` the left normal (direction turned by
      +90 degrees) of the line, else of the segment (of two segments, the first in the order
      below); negated when that shape is `b`; of two coincident lines, `a`'s;
    * crossing lines: ``separation = -inf`` (no translation separates them), ``normal`` the unit
      left normal of `a`, both witnesses at the crossing point;
    * ties between equally short translations go to the edges of one shape first, whichever the
      argument order: a polygon's before a segment's before a point's, and of two shapes of one
      kind those of the one with more vertices, then of the one whose stored vertices
      ``x0, y0, x1, y1, ...`` are lexicographically smaller. So ``contact(b, a)`` is
      ``contact(a, b)`` with the normal negated and the witnesses and curvatures swapped, bit for
      bit (a shape against an identical one keeps its one normal in both orders).

    An edge counts as a face (curvature 0, witnesses at the middle of the common stretch) when it is
    perpendicular to the normal within about 7e-15 rad.

    The sign of ``separation`` is decided by the exact predicates: it is ``> 0`` exactly when
    :func:`collide2d.intersects` is false, and exactly ``0.0`` when the exact relation is
    ``TOUCHING``. Where the floating-point value disagrees it is replaced: by ``0.0`` for an
    intersecting pair that came out positive, by the smallest positive float (``5e-324``, far
    below the accuracy of the separation) for a disjoint pair that came out ``<= 0``. Normals and
    witness points are left as computed.

    Examples
    --------
    >>> import collide2d as c2
    >>> c = c2.contact(c2.Box((0, 0), (2, 2)), c2.Box((1.5, 0.5), (3, 1.5)))
    >>> c.separation, c.normal.tolist(), c.point_a.tolist(), c.point_b.tolist()
    (-0.5, [1.0, 0.0], [2.0, 1.0], [1.5, 1.0])
    >>> c.curvature_a, c.curvature_b  # face against face
    (0.0, 0.0)
    >>> c2.contact(c2.Segment((0, 0), (2, 0)), c2.Point((1, 0))).normal.tolist()  # point on segment
    [0.0, 1.0]
    >>> c2.contact(c2.Point((0, 0)), c2.Point([(3, 4), (0, 0)])).separation.tolist()
    [5.0, 0.0]
    >>> c2.contact(c2.Circle((0, 0), 1), c2.Circle((3, 4), 4)).separation  # touching: exactly 0
    0.0
    """
    values = run.contact_values(a, b)
    if type(values) is tuple:
        v = _array(values[1:7])  # one array; the three vectors are views of it
        return Contact(_sign_consistent(a, b, values[0]), v[0:2], v[2:4], v[4:6], values[7], values[8])
    if values.size:
        _sign_consistent(a, b, values.reshape(-1, 9)[:, 0])  # contact_values returns a contiguous array
    return _contact_from_values(values)


@overload
def distance(a: Shape[Single], b: Shape[Single], /) -> float: ...
@overload
def distance(a: Shape[Batch], b: Shape[Any], /) -> FloatArray: ...
@overload
def distance(a: Shape[Any], b: Shape[Batch], /) -> FloatArray: ...
def distance(a: Shape[Any], b: Shape[Any], /) -> float | FloatArray:
    """Return the Euclidean distance between two shapes; 0 where they intersect.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches; batch shapes broadcast like NumPy arrays.

    Returns
    -------
    float or ndarray of shape ``np.broadcast_shapes(a.shape, b.shape)`` and dtype float64
        A Python float when both inputs are single shapes. Exactly 0 if and only if the exact
        :func:`collide2d.intersects` is true.

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.

    See Also
    --------
    contact : signed separation, normal and witness points; ``distance == max(separation, 0)``.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.distance(c2.Box((0, 0), (1, 1)), c2.Point((4, 5)))
    5.0
    >>> c2.distance(c2.Segment((0, 0), (2, 2)), c2.Segment((0, 2), (2, 0)))  # crossing
    0.0
    >>> x_axis = c2.Line((0, 0), (1, 0))
    >>> c2.distance(x_axis, c2.Line((0, 1), (-2, 0))), c2.distance(x_axis, c2.Line((0, 1), (1, 1)))
    (1.0, 0.0)
    """
    sep = run.separation_values(a, b)
    if not isinstance(sep, np.ndarray):
        return max(_sign_consistent(a, b, sep), 0.0)
    _sign_consistent(a, b, sep.reshape(-1))  # a view: separation_values returns a contiguous array
    return np.maximum(sep, 0.0, out=sep)


def closest_point(shape: Shape[Any], xy: ArrayLike, /) -> FloatArray:
    """Return the point of the shape's boundary nearest to ``xy`` (vectorised over ``xy``).

    For a region (ellipse, circle, polygon, box) this is a point of its boundary curve, also when
    ``xy`` lies inside; for a segment or line the nearest point on it; for a point the point itself.

    Parameters
    ----------
    shape : Shape
        A single shape or a batch.
    xy : array_like of shape (..., 2)
        Query coordinates; their batch shape broadcasts with ``shape.shape``.

    Returns
    -------
    ndarray of shape ``np.broadcast_shapes(shape.shape, xy.shape[:-1]) + (2,)``

    Raises
    ------
    TypeError
        If `shape` is not a collide2d shape or `xy` is not numeric.
    ValueError
        If `xy` is not finite or has no trailing axis of length 2.

    See Also
    --------
    contact : ``closest_point(shape, xy) == contact(shape, Point(xy)).point_a``.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.closest_point(c2.Box((0, 0), (2, 2)), (0.5, 1.0)).tolist()  # inside: nearest edge
    [0.0, 1.0]
    >>> c2.closest_point(c2.Segment((0, 0), (2, 0)), [(1, 5), (3, 1)]).tolist()
    [[1.0, 0.0], [2.0, 0.0]]
    """
    run.check_shape(shape, "shape")
    values = run.contact_values(shape, Point(xy))
    if isinstance(values, tuple):
        return np.array(values[3:5])
    return np.ascontiguousarray(values[..., 3:5])
