"""Where and how much two shapes meet: boundary intersection points, overlap area and IoU.

These are floating-point measurements built on the exact relation of the pair
(:func:`collide2d.relate`): how many points there are, and whether an area is zero, the smaller
area or needs computing, is decided exactly; only the coordinates and the area are rounded.
Methods and measured accuracy: https://collide2d.readthedocs.io/en/latest/area.html
"""

from __future__ import annotations

from typing import Any, overload

from collide2d._glue import derived, points, run
from collide2d.shapes import Shape
from collide2d.typing import Batch, FloatArray, IntArray, Single

__all__ = ["intersection_points", "iou", "overlap_area"]


@overload
def intersection_points(a: Shape[Single], b: Shape[Single], /) -> FloatArray: ...
@overload
def intersection_points(a: Shape[Batch], b: Shape[Any], /) -> tuple[FloatArray, IntArray]: ...
@overload
def intersection_points(a: Shape[Any], b: Shape[Batch], /) -> tuple[FloatArray, IntArray]: ...
def intersection_points(a: Shape[Any], b: Shape[Any], /) -> FloatArray | tuple[FloatArray, IntArray]:
    """Return the points where the outlines of two shapes meet.

    The outline of a region (circle, ellipse, box, rotated box, polygon) is its boundary; a
    segment, a line or a point is its own outline. A tangent point is reported once.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches; batch shapes broadcast like NumPy arrays.

    Returns
    -------
    ndarray of shape (k, 2)
        For two single shapes: the ``k`` points (``k = 0`` when the outlines do not meet).
    (points, count) : tuple of ndarray
        For batches: ``points`` of shape ``batch + (K, 2)``, NaN-padded after the first ``count``
        rows, and ``count`` (int64) of shape ``batch``. ``K`` is fixed per kind pair: 4 for two
        ellipses or circles, 2 for an ellipse against a segment or a line, 1 for a pair with a
        point and for two lines, 2 for two segments or a segment and a line, and twice the largest
        vertex count of the batch's polygons for a pair with a polygon, box or rotated box.

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.
    ValueError
        If the batch shapes of `a` and `b` do not broadcast.

    Notes
    -----
    The number of points and whether a point is a tangency come from the exact relation of the
    pair, never from how close two computed points are: disjoint shapes and strictly nested
    ones give none, externally touching ellipses one point, nested ellipses whose boundaries touch
    one or two (counted in rational arithmetic). Two crossing ellipses give 2 or 4 points, or 3
    when they also touch somewhere (the tangent point once); when the computed points come close
    to a tangency, the count is decided in rational arithmetic from the pencil's cubic.

    Ellipse pairs are solved by splitting a degenerate member of their pencil into two lines and
    intersecting each with one ellipse in the frame where it is the unit circle [1]_, then
    polishing each crossing with Newton steps on both equations (residuals of a few ulps);
    tangent points are the extremisers of one quadratic form on the other ellipse (a secular
    equation, as for the distance from a point to an ellipse [2]_).

    Shapes whose outlines share a piece of positive length have no finite set of common points:
    equal ellipses (and equal polygons, and equal lines) give an empty array; collinear
    overlapping edges and a segment lying on a line give the end points of the shared piece.

    References
    ----------
    .. [1] J. Richter-Gebert, *Perspectives on Projective Geometry*, Springer 2011, ch. 11.
    .. [2] D. Eberly, "Distance from a Point to an Ellipse, an Ellipsoid, or a Hyperellipsoid",
       Geometric Tools, 2013.

    Examples
    --------
    >>> import collide2d as c2
    >>> from collide2d.overlay import intersection_points
    >>> sorted(intersection_points(c2.Circle((0, 0), 1), c2.Circle((1, 0), 1)).round(6).tolist())
    [[0.5, -0.866025], [0.5, 0.866025]]
    >>> intersection_points(c2.Circle((0, 0), 1), c2.Circle((2, 0), 1)).tolist()  # tangent: once
    [[1.0, 0.0]]
    >>> intersection_points(c2.Circle((0, 0), 1), c2.Circle((0, 0), 1)).shape  # equal: no finite set
    (0, 2)
    >>> points, count = intersection_points(c2.Box((0, 0), (2, 2)), c2.Segment((-1, 1), [(3, 1), (1, 1)]))
    >>> count.tolist(), points.shape
    ([2, 1], (2, 8, 2))
    """
    return points.intersection_point_values(a, b)


@overload
def overlap_area(a: Shape[Single], b: Shape[Single], /) -> float: ...
@overload
def overlap_area(a: Shape[Batch], b: Shape[Any], /) -> FloatArray: ...
@overload
def overlap_area(a: Shape[Any], b: Shape[Batch], /) -> FloatArray: ...
def overlap_area(a: Shape[Any], b: Shape[Any], /) -> float | FloatArray:
    """Return the area of the intersection of two shapes.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches; batch shapes broadcast like NumPy arrays. Points, segments and
        lines have no area: any pair with one of them gives 0.

    Returns
    -------
    float or ndarray of dtype float64 and shape ``np.broadcast_shapes(a.shape, b.shape)``
        A Python float when both inputs are single shapes.

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.
    ValueError
        If the batch shapes of `a` and `b` do not broadcast.

    See Also
    --------
    iou : the area divided by the area of the union.
    intersection_points : the corners of the intersection.

    Notes
    -----
    Disjoint and touching pairs give exactly 0 and nested pairs exactly the smaller area (both
    decided by the exact relation). Crossing ellipses, in the unit frame of the smaller one (so the
    value does not depend on the argument order): the segments cut off by the chords between
    consecutive boundary meeting points, in eccentric angles, plus the polygon of those points
    [1]_, [2]_; between two points, the region is bounded by the arc that lies inside the other
    ellipse, tested at points along the arc (a tangent point among the crossings is allowed). An
    ellipse against a polygon: the polygon is clipped by the ellipse in the ellipse's unit frame
    and the elliptic segment cut off beyond each exit point is added. Two polygons: Green's
    theorem over the clipped edges. ``dt - sin dt`` is taken from its Taylor series for small
    angles, so thin slivers keep their relative accuracy; the level of a small shape's centre or
    vertices in a far larger ellipse is computed without cancellation, so size ratios up to 1e8
    and more keep the accuracy of the smaller shape. The area is continuous through tangency and
    for near-identical shapes. Measured errors: a few ulps of the smaller area
    (https://collide2d.readthedocs.io/en/latest/area.html).

    References
    ----------
    .. [1] D. Eberly, "The Area of Intersecting Ellipses", Geometric Tools, 2008.
    .. [2] G. B. Hughes and M. Chraibi, "Calculating ellipse overlap areas", Computing and
       Visualization in Science 15 (2012) 291-301.

    Examples
    --------
    >>> import collide2d as c2
    >>> from collide2d.overlay import overlap_area
    >>> overlap_area(c2.Circle((0, 0), 1), c2.Ellipse((0, 1), (0.5, 1)))  # 0.74240026509663449 exactly
    0.7424002650966346
    >>> overlap_area(c2.Circle((0, 0), 1), c2.Circle((2, 0), 1))  # touching
    0.0
    >>> overlap_area(c2.Box((0, 0), (2, 2)), c2.Box([(1, 1), (5, 5)], [(3, 3), (6, 6)])).tolist()
    [1.0, 0.0]
    >>> overlap_area(c2.Circle((0, 0), 1), c2.Segment((-1, 0), (1, 0)))  # a segment has no area
    0.0
    """
    return run.overlap_area_values(a, b)


@overload
def iou(a: Shape[Single], b: Shape[Single], /) -> float: ...
@overload
def iou(a: Shape[Batch], b: Shape[Any], /) -> FloatArray: ...
@overload
def iou(a: Shape[Any], b: Shape[Batch], /) -> FloatArray: ...
def iou(a: Shape[Any], b: Shape[Any], /) -> float | FloatArray:
    """Return the intersection over union of two shapes, ``I / (area_a + area_b - I)``.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches; batch shapes broadcast like NumPy arrays.

    Returns
    -------
    float or ndarray of dtype float64 and shape ``np.broadcast_shapes(a.shape, b.shape)``
        In [0, 1]; 1 for equal regions; 0 when the union has no area (two points, say).

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.
    ValueError
        If the batch shapes of `a` and `b` do not broadcast.

    See Also
    --------
    overlap_area : the intersection area ``I``.

    Examples
    --------
    >>> import collide2d as c2
    >>> from collide2d.overlay import iou
    >>> iou(c2.Box((0, 0), (2, 2)), c2.Box((1, 0), (3, 2)))
    0.3333333333333333
    >>> iou(c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((0, 0), (1, 2), angle=1.5707963267948966))
    1.0
    >>> iou(c2.Point((0, 0)), c2.Point((0, 0)))  # no area at all
    0.0
    """
    return derived.iou_values(a, b)
