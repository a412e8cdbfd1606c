"""Predicates for spatial relations between shapes (DE-9IM meanings on closed shapes, as shapely).

Every predicate is exact for the stored float64 numbers of the shapes: the kernels decide each sign
with an error bound and fall back to rational arithmetic when the bound cannot settle it.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Sequence
from typing import Any, overload

import numpy as np
from numpy.typing import ArrayLike

from collide2d._glue import derived, run
from collide2d._robust import ladder
from collide2d._kernels import codes
from collide2d.shapes import Shape
from collide2d.typing import Batch, BoolArray, Int8Array, Pair, Single

__all__ = [
    "Relation",
    "contains",
    "contains_xy",
    "covered_by",
    "covers",
    "disjoint",
    "equals",
    "exact_fallback_counts",
    "intersects",
    "intersects_xy",
    "overlaps",
    "relate",
    "touches",
    "within",
]


class Relation(enum.IntEnum):
    """How two shapes lie relative to each other (the result of :func:`relate`).

    Batches of relations are int8 arrays whose values compare equal to these members.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.relate(c2.Box((0, 0), (2, 2)), c2.Circle((1, 1), 0.5)) is c2.Relation.CONTAINS
    True
    >>> codes = c2.relate(c2.Circle((0, 0), 1), c2.Circle([(3, 0), (2, 0)], 1))
    >>> [c2.Relation(code).name for code in codes]
    ['DISJOINT', 'TOUCHING']

    A member prints as its name (``repr`` shows the value too); a numeric format spec formats the
    value:

    >>> r = c2.Relation.TOUCHING
    >>> print(r), f"{r}", f"{r:>10}", f"{r:d}", repr(r)
    TOUCHING
    (None, 'TOUCHING', '  TOUCHING', '1', '<Relation.TOUCHING: 1>')
    """

    DISJOINT = 0  #: no common point
    TOUCHING = 1  #: boundaries meet, interiors do not
    OVERLAPPING = 2  #: interiors meet and neither contains the other
    CONTAINS = 3  #: b lies inside a (boundary contact allowed) and their interiors meet
    WITHIN = 4  #: a lies inside b (boundary contact allowed) and their interiors meet
    EQUAL = 5  #: the same point set

    def __str__(self) -> str:
        return self.name

    def __format__(self, spec: str) -> str:
        if spec and spec[-1] in "bcdoxXneEfFgG%":  # a number's format: the value
            return int.__format__(self, spec)
        return format(self.name, spec)


class _Table:
    """A predicate's truth table over the codes: a NumPy array for batches, a tuple for one pair."""

    __slots__ = ("array", "single")

    def __init__(self, *true_codes):
        self.array = np.zeros(7, dtype=bool)
        self.array[list(true_codes)] = True
        self.single = tuple(bool(x) for x in self.array)


_table = _Table


_INTERSECTS = _table(codes.TOUCHING, codes.OVERLAPPING, codes.CONTAINS, codes.WITHIN, codes.EQUAL, codes.CROSSING)
_DISJOINT = _table(codes.DISJOINT)
_TOUCHES = _table(codes.TOUCHING)
_OVERLAPS = _table(codes.OVERLAPPING)
_CONTAINS = _table(codes.CONTAINS, codes.EQUAL)
_WITHIN = _table(codes.WITHIN, codes.EQUAL)
_EQUALS = _table(codes.EQUAL)
_PUBLIC_RELATION = np.array([0, 1, 2, 3, 4, 5, 2], dtype=np.int8)  # CROSSING is reported as OVERLAPPING
_PUBLIC_RELATION_SINGLE = tuple(Relation(int(code)) for code in _PUBLIC_RELATION)


def _predicate(a: Shape[Any], b: Shape[Any], table: _Table) -> Any:
    code = run.relate_codes(a, b)
    if type(code) is int:  # single shapes: a Python int code
        return table.single[code]
    return table.array[code]


@overload
def intersects(a: Shape[Single], b: Shape[Single], /) -> bool: ...
@overload
def intersects(a: Shape[Batch], b: Shape[Any], /) -> BoolArray: ...
@overload
def intersects(a: Shape[Any], b: Shape[Batch], /) -> BoolArray: ...
def intersects(a: Shape[Any], b: Shape[Any], /) -> bool | BoolArray:
    """Return whether the two closed shapes share at least one point.

    Touching and containment count as intersecting.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches; batch shapes broadcast like NumPy arrays.

    Returns
    -------
    bool or ndarray of dtype bool and shape ``np.broadcast_shapes(a.shape, b.shape)``

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.
    ValueError
        If the batch shapes of `a` and `b` do not broadcast.

    See Also
    --------
    disjoint : ``intersects(a, b) == ~disjoint(a, b)``

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.intersects(c2.Circle((0, 0), 1), c2.Circle((2, 0), 1))  # touching at (1, 0)
    True
    >>> c2.intersects(c2.Circle((0, 0), 1), c2.Circle([(3, 0), (1, 1)], 1)).tolist()
    [False, True]
    """
    return run.intersects_flags(a, b)


@overload
def disjoint(a: Shape[Single], b: Shape[Single], /) -> bool: ...
@overload
def disjoint(a: Shape[Batch], b: Shape[Any], /) -> BoolArray: ...
@overload
def disjoint(a: Shape[Any], b: Shape[Batch], /) -> BoolArray: ...
def disjoint(a: Shape[Any], b: Shape[Any], /) -> bool | BoolArray:
    """Return whether the two shapes have no point in common.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches (broadcast).

    Returns
    -------
    bool or ndarray of dtype bool

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.
    ValueError
        If the batch shapes of `a` and `b` do not broadcast.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.disjoint(c2.Box((0, 0), (1, 1)), c2.Point((1, 1)))
    False
    """
    result = run.intersects_flags(a, b)
    return not result if type(result) is bool else ~result


@overload
def touches(a: Shape[Single], b: Shape[Single], /) -> bool: ...
@overload
def touches(a: Shape[Batch], b: Shape[Any], /) -> BoolArray: ...
@overload
def touches(a: Shape[Any], b: Shape[Batch], /) -> BoolArray: ...
def touches(a: Shape[Any], b: Shape[Any], /) -> bool | BoolArray:
    """Return whether the shapes meet only on their boundaries (their interiors do not meet).

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches (broadcast).

    Returns
    -------
    bool or ndarray of dtype bool

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.
    ValueError
        If the batch shapes of `a` and `b` do not broadcast.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.touches(c2.Box((0, 0), (1, 1)), c2.Box((1, 0), (2, 1)))
    True
    >>> c2.touches(c2.Segment((0, 0), (2, 0)), c2.Point((1, 0)))  # interior point of the segment
    False
    """
    return _predicate(a, b, _TOUCHES)


@overload
def overlaps(a: Shape[Single], b: Shape[Single], /) -> bool: ...
@overload
def overlaps(a: Shape[Batch], b: Shape[Any], /) -> BoolArray: ...
@overload
def overlaps(a: Shape[Any], b: Shape[Batch], /) -> BoolArray: ...
def overlaps(a: Shape[Any], b: Shape[Any], /) -> bool | BoolArray:
    """Return whether the shapes overlap in shapely's sense.

    Both have the same dimension, their interiors meet in that dimension, and neither contains
    the other. A segment crossing a box, or two segments crossing at one point, do not overlap
    (``relate`` still reports ``OVERLAPPING`` for them: their interiors meet).

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches (broadcast).

    Returns
    -------
    bool or ndarray of dtype bool

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.
    ValueError
        If the batch shapes of `a` and `b` do not broadcast.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.overlaps(c2.Box((0, 0), (2, 2)), c2.Box((1, 1), (3, 3)))
    True
    >>> c2.overlaps(c2.Segment((0, 0), (2, 0)), c2.Segment((1, 0), (3, 0)))
    True
    >>> c2.overlaps(c2.Segment((0, 0), (2, 2)), c2.Segment((0, 2), (2, 0)))
    False
    """
    return _predicate(a, b, _OVERLAPS)


@overload
def contains(a: Shape[Single], b: Shape[Single], /) -> bool: ...
@overload
def contains(a: Shape[Batch], b: Shape[Any], /) -> BoolArray: ...
@overload
def contains(a: Shape[Any], b: Shape[Batch], /) -> BoolArray: ...
def contains(a: Shape[Any], b: Shape[Any], /) -> bool | BoolArray:
    """Return whether ``b`` lies in ``a`` and their interiors meet (shapely's ``contains``).

    A point on the boundary of a box is not contained by it; a segment lying along an edge is not.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches (broadcast).

    Returns
    -------
    bool or ndarray of dtype bool

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.
    ValueError
        If the batch shapes of `a` and `b` do not broadcast.

    See Also
    --------
    within : ``contains(a, b) == within(b, a)``

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.contains(c2.Box((0, 0), (2, 2)), c2.Circle((1, 1), 1))  # touching from inside counts
    True
    >>> c2.contains(c2.Box((0, 0), (2, 2)), c2.Point((2, 1)))
    False
    """
    return _predicate(a, b, _CONTAINS)


@overload
def within(a: Shape[Single], b: Shape[Single], /) -> bool: ...
@overload
def within(a: Shape[Batch], b: Shape[Any], /) -> BoolArray: ...
@overload
def within(a: Shape[Any], b: Shape[Batch], /) -> BoolArray: ...
def within(a: Shape[Any], b: Shape[Any], /) -> bool | BoolArray:
    """Return whether ``a`` lies in ``b`` and their interiors meet: ``within(a, b) == contains(b, a)``.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches (broadcast).

    Returns
    -------
    bool or ndarray of dtype bool

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.
    ValueError
        If the batch shapes of `a` and `b` do not broadcast.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.within(c2.Point((1, 1)), c2.Box((0, 0), (2, 2)))
    True
    """
    return _predicate(a, b, _WITHIN)


@overload
def equals(a: Shape[Single], b: Shape[Single], /) -> bool: ...
@overload
def equals(a: Shape[Batch], b: Shape[Any], /) -> BoolArray: ...
@overload
def equals(a: Shape[Any], b: Shape[Batch], /) -> BoolArray: ...
def equals(a: Shape[Any], b: Shape[Any], /) -> bool | BoolArray:
    """Return whether the two shapes are the same point set, however they are written.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches (broadcast).

    Returns
    -------
    bool or ndarray of dtype bool

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.
    ValueError
        If the batch shapes of `a` and `b` do not broadcast.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.equals(c2.Box((0, 0), (1, 1)), c2.Polygon([(0, 0), (0, 1), (1, 1), (1, 0)]))
    True
    >>> c2.equals(c2.Segment((0, 0), (1, 1)), c2.Segment((1, 1), (0, 0)))
    True
    """
    return _predicate(a, b, _EQUALS)


@overload
def relate(a: Shape[Single], b: Shape[Single], /) -> Relation: ...
@overload
def relate(a: Shape[Batch], b: Shape[Any], /) -> Int8Array: ...
@overload
def relate(a: Shape[Any], b: Shape[Batch], /) -> Int8Array: ...
def relate(a: Shape[Any], b: Shape[Any], /) -> Relation | Int8Array:
    """Return how ``a`` and ``b`` lie relative to each other, as a :class:`Relation`.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches (broadcast).

    Returns
    -------
    Relation or ndarray of dtype int8
        ``DISJOINT``, ``TOUCHING`` (boundaries meet, interiors do not), ``OVERLAPPING`` (interiors
        meet, neither contains the other), ``CONTAINS`` (b inside a, boundary contact allowed),
        ``WITHIN`` or ``EQUAL``. Batches give int8 codes equal to the members' values.

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.
    ValueError
        If the batch shapes of `a` and `b` do not broadcast.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.relate(c2.Circle((0, 0), 1), c2.Circle((2, 0), 1))
    <Relation.TOUCHING: 1>
    >>> c2.relate(c2.Box((0, 0), (4, 4)), c2.Point([(1, 1), (4, 2), (5, 5)])).tolist()
    [3, 1, 0]
    """
    code = run.relate_codes(a, b)
    if type(code) is int:
        return _PUBLIC_RELATION_SINGLE[code]
    return _PUBLIC_RELATION[code]


@overload
def covers(a: Shape[Single], b: Shape[Single], /) -> bool: ...
@overload
def covers(a: Shape[Batch], b: Shape[Any], /) -> BoolArray: ...
@overload
def covers(a: Shape[Any], b: Shape[Batch], /) -> BoolArray: ...
def covers(a: Shape[Any], b: Shape[Any], /) -> bool | BoolArray:
    """Return whether no point of ``b`` lies outside ``a`` (shapely's ``covers``).

    Unlike :func:`contains`, ``b`` may lie entirely in the boundary of ``a``: a box covers a
    point on its edge and a segment along its edge. In DE-9IM terms, ``b`` meets ``a`` and no
    point of ``b`` is in the exterior of ``a`` [1]_.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches (broadcast).

    Returns
    -------
    bool or ndarray of dtype bool

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.
    ValueError
        If the batch shapes of `a` and `b` do not broadcast.

    See Also
    --------
    covered_by : ``covers(a, b) == covered_by(b, a)``
    contains : also requires the interiors to meet.

    References
    ----------
    .. [1] C. Strobl, "Dimensionally Extended Nine-Intersection Model (DE-9IM)", in
       Encyclopedia of GIS, Springer, 2008; shapely's ``covers``:
       https://shapely.readthedocs.io/en/stable/reference/shapely.covers.html

    Examples
    --------
    >>> import collide2d as c2
    >>> box = c2.Box((0, 0), (2, 2))
    >>> c2.covers(box, c2.Segment((0, 0), (1, 0))), c2.contains(box, c2.Segment((0, 0), (1, 0)))
    (True, False)
    >>> c2.covers(box, c2.Point([(1, 1), (2, 1), (3, 1)])).tolist()  # inside, on the edge, outside
    [True, True, False]
    >>> c2.covers(c2.Circle((0, 0), 1), c2.Circle((0.5, 0), 0.5))  # touching from inside
    True
    """
    return derived.covers_flags(a, b, _CONTAINS)


@overload
def covered_by(a: Shape[Single], b: Shape[Single], /) -> bool: ...
@overload
def covered_by(a: Shape[Batch], b: Shape[Any], /) -> BoolArray: ...
@overload
def covered_by(a: Shape[Any], b: Shape[Batch], /) -> BoolArray: ...
def covered_by(a: Shape[Any], b: Shape[Any], /) -> bool | BoolArray:
    """Return whether no point of ``a`` lies outside ``b``: ``covered_by(a, b) == covers(b, a)``.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches (broadcast).

    Returns
    -------
    bool or ndarray of dtype bool

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape.
    ValueError
        If the batch shapes of `a` and `b` do not broadcast.

    See Also
    --------
    covers, within

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.covered_by(c2.Point((2, 1)), c2.Box((0, 0), (2, 2)))  # on the edge: covered, not within
    True
    >>> c2.within(c2.Point((2, 1)), c2.Box((0, 0), (2, 2)))
    False
    """
    run.check_shape(a, "a")
    run.check_shape(b, "b")
    return derived.covers_flags(b, a, _CONTAINS)


@overload
def contains_xy(shape: Shape[Single], xy: Pair, /) -> bool: ...
@overload
def contains_xy(shape: Shape[Batch], xy: ArrayLike, /) -> BoolArray: ...
@overload
def contains_xy(shape: Shape[Any], xy: Sequence[Pair], /) -> BoolArray: ...
@overload
def contains_xy(shape: Shape[Any], xy: ArrayLike, /) -> bool | BoolArray: ...
def contains_xy(shape: Shape[Any], xy: Any, /) -> bool | BoolArray:
    """Return whether the points ``xy`` lie in the interior of ``shape`` (shapely's ``contains_xy``).

    A point on the boundary is not contained; :func:`intersects_xy` counts it. The same as
    ``contains(shape, Point(xy))``, without building the points for one ``(x, y)``; exact for
    the stored numbers. The interior of a segment is the segment without its end points; that of
    a point or a line is the whole of it.

    Parameters
    ----------
    shape : Shape
        A single shape or a batch.
    xy : array_like of shape (..., 2)
        Points; their batch shape broadcasts with the shape's.

    Returns
    -------
    bool or ndarray of dtype bool

    Raises
    ------
    TypeError
        If `shape` is not a collide2d shape or `xy` does not hold real numbers.
    ValueError
        If `xy` is not finite, lies beyond the supported range of coordinates, has no last axis of
        length 2, or its batch shape does not broadcast with the shape's.

    See Also
    --------
    intersects_xy : the closed shape (boundary included).

    Examples
    --------
    >>> import collide2d as c2
    >>> e = c2.Ellipse((0, 0), (2, 1), angle=0.0)
    >>> c2.contains_xy(e, [(2, 0), (0, 1.5), (1, 0.5)]).tolist()  # (2, 0) is on the boundary
    [False, False, True]
    >>> c2.contains_xy(c2.Segment((0, 0), (2, 0)), (1, 0)), c2.contains_xy(c2.Segment((0, 0), (2, 0)), (2, 0))
    (True, False)
    """
    return _xy_predicate(shape, xy, _CONTAINS)


@overload
def intersects_xy(shape: Shape[Single], xy: Pair, /) -> bool: ...
@overload
def intersects_xy(shape: Shape[Batch], xy: ArrayLike, /) -> BoolArray: ...
@overload
def intersects_xy(shape: Shape[Any], xy: Sequence[Pair], /) -> BoolArray: ...
@overload
def intersects_xy(shape: Shape[Any], xy: ArrayLike, /) -> bool | BoolArray: ...
def intersects_xy(shape: Shape[Any], xy: Any, /) -> bool | BoolArray:
    """Return whether the points ``xy`` lie in the closed ``shape`` (boundary included).

    The same as ``intersects(shape, Point(xy))`` (shapely's ``intersects_xy``), without building
    the points for one ``(x, y)``; exact for the stored numbers.

    Parameters
    ----------
    shape : Shape
        A single shape or a batch.
    xy : array_like of shape (..., 2)
        Points; their batch shape broadcasts with the shape's.

    Returns
    -------
    bool or ndarray of dtype bool

    Raises
    ------
    TypeError
        If `shape` is not a collide2d shape or `xy` does not hold real numbers.
    ValueError
        If `xy` is not finite, lies beyond the supported range of coordinates, has no last axis of
        length 2, or its batch shape does not broadcast with the shape's.

    See Also
    --------
    contains_xy : the interior only.

    Examples
    --------
    >>> import collide2d as c2
    >>> e = c2.Ellipse((0, 0), (2, 1), angle=0.0)
    >>> c2.intersects_xy(e, [(2, 0), (0, 1.5), (1, 0.5)]).tolist()
    [True, False, True]
    """
    return _xy_predicate(shape, xy, _INTERSECTS)


def _xy_predicate(shape, xy, table):
    """``table`` over the codes of ``shape`` against the points ``xy``."""
    from collide2d.shapes import Point

    run.check_shape(shape, "shape")
    if type(xy) in _PAIR_TYPES and len(xy) == 2 and not shape.shape:  # one shape, one point
        x, y = xy
        if type(x) in _NUMBER_TYPES and type(y) in _NUMBER_TYPES and -_MAX <= x <= _MAX and -_MAX <= y <= _MAX:
            return table.single[derived.relate_code_xy(shape, x, y)]
    return _predicate(shape, Point(xy), table)


_PAIR_TYPES = (tuple, list)
_NUMBER_TYPES = (float, int)
_MAX = sys.float_info.max  # finite floats (and ints that convert to one) only; the rest via Point


def exact_fallback_counts(*, reset: bool = False) -> dict[str, int]:
    """Return how many pairs each kernel handed to the exact rational fallback.

    The float kernels settle every sign whose error bound allows it, and an exact float stage
    (error-free sums and products) settles exact tangencies of numbers with few significant bits
    (integers, lattices, dyadic sizes); only the rest (typically exact or near-exact tangencies of
    full 53-bit numbers) are recomputed with :class:`fractions.Fraction`.

    Parameters
    ----------
    reset : bool, default False
        Clear the counters after reading them.

    Returns
    -------
    dict
        Kernel name to count, for example ``{"relate_ellipse_ellipse": 2}``.

    Raises
    ------
    TypeError
        If `reset` is not True or False (a string such as ``"no"`` would clear the counters).

    Examples
    --------
    >>> import collide2d as c2
    >>> _ = c2.exact_fallback_counts(reset=True)
    >>> c2.touches(c2.Circle((0, 0), 1), c2.Circle((2, 0), 1))  # tangent, short numbers: decided in float
    True
    >>> c2.exact_fallback_counts()
    {}
    >>> c2.touches(c2.Circle((0, 0), 0.1), c2.Circle((0.2, 0), 0.1))  # tangent, 53-bit numbers
    True
    >>> c2.exact_fallback_counts()
    {'relate_ellipse_ellipse': 1}
    """
    if not isinstance(reset, (bool, np.bool_)):
        raise TypeError(f"reset must be True or False, got {reset!r}")
    return ladder.counts(reset=bool(reset))
