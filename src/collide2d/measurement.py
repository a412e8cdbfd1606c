"""Measurements between shapes: signed distance, contact normal, witness points, closest point.

These are floating-point measurements (accurate to a few ulps of the shapes' sizes), not exact
predicates: near touching, the sign of ``separation`` can disagree with :func:`collide2d.relate`
within a band of a few ulps of the sizes involved.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from collide2d import _dispatch
from collide2d.shapes import Point

__all__ = ["Contact", "closest_point", "contact", "distance"]


class Contact(NamedTuple):
    """Signed distance, normal and witness points of two shapes (the result of :func:`contact`).

    For single shapes the scalar fields are Python floats and the vector fields ndarrays of shape
    ``(2,)``; for batches every field is an array of the batch shape (vector fields with a trailing
    axis of length 2).

    Invariant: ``point_b - point_a == separation * normal`` up to rounding (except for two
    crossing lines, whose separation is ``-inf``).
    """

    separation: float | np.ndarray  #: signed distance: gap, 0 touching, -(penetration depth)
    normal: np.ndarray  #: unit vector from a to b
    point_a: np.ndarray  #: witness point on a's boundary
    point_b: np.ndarray  #: witness point on b's boundary
    curvature_a: float | np.ndarray  #: curvature of a's boundary at point_a (0 on edges, inf at corners)
    curvature_b: float | np.ndarray  #: curvature of b's boundary at point_b


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


def contact(a, b, /):
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
      +90 degrees) of the line, else of the segment `a`; negated when that shape is `b`;
    * crossing lines: ``separation = -inf`` (no translation separates them), ``normal`` the unit
      left normal of `a`, both witnesses at the crossing point;
    * ties between equally short translations go to `a`'s edges first, then `b`'s.

    An edge counts as a face (curvature 0, witnesses at the middle of the common stretch) when it is
    perpendicular to the normal within about 7e-15 rad.

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
    """
    return _contact_from_values(_dispatch.contact_values(a, b))


def distance(a, b, /):
    """Return the Euclidean distance between two shapes; 0 where they intersect.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches; batch shapes broadcast like NumPy arrays.

    Returns
    -------
    float or ndarray of shape ``np.broadcast_shapes(a.shape, b.shape)`` and dtype float64
        A Python float when both inputs are single shapes.

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
    values = _dispatch.contact_values(a, b)
    if isinstance(values, tuple):
        return max(values[0], 0.0)
    return np.maximum(values[..., 0], 0.0)


def closest_point(shape, xy, /):
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
    _dispatch.check_shape(shape, "shape")
    values = _dispatch.contact_values(shape, Point(xy))
    if isinstance(values, tuple):
        return np.array(values[3:5])
    return np.ascontiguousarray(values[..., 3:5])
