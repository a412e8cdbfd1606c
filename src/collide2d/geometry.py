"""Geometry of one shape: area, length (perimeter) and centroid, as shapely's ``.area``,
``.length`` and ``.centroid`` (also the properties ``shape.area``, ``shape.length``,
``shape.centroid``).

Each is computed from the stored float64 numbers of the shape (the set every predicate tests) and
rounded once or nearly so: see each function for its accuracy. A shape alone and the same shape
inside a batch give bit-identical values.
"""

from __future__ import annotations

from typing import Any, overload

from collide2d import _geometry
from collide2d._glue import run
from collide2d.shapes import Shape
from collide2d.typing import Batch, FloatArray, Single

__all__ = ["area", "centroid", "length"]


@overload
def area(shape: Shape[Single], /) -> float: ...
@overload
def area(shape: Shape[Batch], /) -> FloatArray: ...
def area(shape: Shape[Any], /) -> float | FloatArray:
    """Return the area of each shape: 0 for a point, a segment or a line.

    Parameters
    ----------
    shape : Shape
        A single shape or a batch.

    Returns
    -------
    float or ndarray of dtype float64 and shape ``shape.shape``
        A Python float for a single shape.

    Raises
    ------
    TypeError
        If `shape` is not a collide2d shape.

    See Also
    --------
    Shape.area : the same, as a property.
    overlap_area : the area shared by two shapes.

    Notes
    -----
    Circle and ellipse: ``pi * a * b`` within 1 ulp of its true value (``pi`` and the product of
    the radii carried as double-doubles, rounded once). Polygon, box and rotated box: the shoelace
    formula over the stored vertices (a rotated box's four stored corners, whose area differs from
    ``4 * half_size[0] * half_size[1]`` by the rounding of the corners), within 1 ulp of the exact
    rational area: every product is split exactly in two floats (Dekker's TwoProduct) and the sum
    is accumulated error-free (Ogita, Rump and Oishi's distillation) until its error bound is below
    ``2**-60`` of it, else computed with :class:`fractions.Fraction` and rounded once.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.area(c2.Circle((0, 0), 1)) == 3.141592653589793
    True
    >>> c2.area(c2.Box([(0, 0), (1, 1)], [(2, 1), (4, 5)])).tolist()
    [2.0, 12.0]
    >>> c2.Polygon([(0, 0), (4, 0), (0, 3)]).area, c2.Segment((0, 0), (1, 1)).area
    (6.0, 0.0)
    """
    run.check_shape(shape, "shape")
    return _geometry.area(shape)


@overload
def length(shape: Shape[Single], /) -> float: ...
@overload
def length(shape: Shape[Batch], /) -> FloatArray: ...
def length(shape: Shape[Any], /) -> float | FloatArray:
    """Return the length of each shape: the perimeter of a region, the length of a segment, 0 for
    a point and ``inf`` for a line (as shapely's ``length``).

    Parameters
    ----------
    shape : Shape
        A single shape or a batch, of any kind.

    Returns
    -------
    float or ndarray of dtype float64 and shape ``shape.shape``
        A Python float for a single shape; ``inf`` for each line.

    Raises
    ------
    TypeError
        If `shape` is not a collide2d shape (for example a shapely geometry).

    Notes
    -----
    Circle and ellipse: the perimeter ``4 a E(k)`` (``E`` the complete elliptic integral of the
    second kind, ``k**2 = 1 - (b/a)**2``) within 1 ulp of its true value at every aspect ratio up
    to ``2**100`` and every size in the supported range (checked against ``mpmath.ellipe``). The
    radii are scaled by a power of two first; for ``b/a >= 1/8`` the Gauss-Kummer series in
    ``h = ((a - b)/(a + b))**2`` is summed, below it the expansion of ``E`` in the complementary
    modulus ``b/a`` (Byrd and Friedman 900.07, Abramowitz and Stegun 17.3.36); both have positive
    terms, and the leading ones are carried in double-double arithmetic. A circle's circumference
    is ``2 pi r`` within 1 ulp.

    Polygon, box and rotated box: the sum of the edges' ``hypot`` of the rounded coordinate
    differences, relative error below ``(n + 3) * 2**-53`` for ``n`` vertices. Segment: ``hypot``
    of the rounded differences, relative error below ``3 * 2**-53``.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.length(c2.Ellipse((0, 0), (2, 1)))  # 9.688448220547676198...: correctly rounded
    9.688448220547675
    >>> c2.length(c2.Box((0, 0), (2, 1))), c2.length(c2.Segment((0, 0), (3, 4)))
    (6.0, 5.0)
    >>> c2.length(c2.Point((1, 2))), c2.length(c2.Line((0, 0), (1, 0)))
    (0.0, inf)
    """
    run.check_shape(shape, "shape")
    return _geometry.length(shape)


@overload
def centroid(shape: Shape[Single], /) -> tuple[float, float]: ...
@overload
def centroid(shape: Shape[Batch], /) -> FloatArray: ...
def centroid(shape: Shape[Any], /) -> tuple[float, float] | FloatArray:
    """Return the centroid (centre of mass of the uniform shape) of each shape.

    Parameters
    ----------
    shape : Shape
        A single shape or a batch; not a line.

    Returns
    -------
    tuple of two floats, or ndarray of dtype float64 and shape ``shape.shape + (2,)``
        ``(x, y)`` for a single shape.

    Raises
    ------
    TypeError
        If `shape` is not a collide2d shape.
    ValueError
        If `shape` is a :class:`Line`: a line is infinite and has no centroid (shapely has no
        infinite geometry to compare with).

    Notes
    -----
    A point is its own centroid, a circle's or an ellipse's is its centre, a segment's its
    midpoint (rounded once). Polygon, box and rotated box: ``sum((v_i + v_i+1) c_i) / (3 sum(c_i))``
    with ``c_i = x_i y_i+1 - x_i+1 y_i`` over the stored vertices, each coordinate within 1 ulp of
    the exact rational value (the sums carried as in :func:`area`, the quotient in double-double).

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.centroid(c2.Polygon([(0, 0), (3, 0), (0, 3)]))
    (1.0, 1.0)
    >>> c2.centroid(c2.Segment([(0, 0), (2, 2)], (4, 0))).tolist()
    [[2.0, 0.0], [3.0, 1.0]]
    >>> c2.Ellipse((1, 2), (3, 1), angle=0.5).centroid
    (1.0, 2.0)
    """
    run.check_shape(shape, "shape")
    return _geometry.centroid(shape)
