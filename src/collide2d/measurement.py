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

# Smallest positive float (subnormal): the separation reported for exactly disjoint pairs whose
# floating-point separation came out <= 0 (far below the accuracy of the separation).
_TINY = float(np.nextafter(0.0, 1.0))
# Relative band |separation| <= _BAND * scale inside which the sign of the float separation may
# differ from the exact predicate (the separation is accurate to a few ulps of the coordinates and
# sizes, about 1e-15 relative: the band leaves a margin of about 1e5). Only pairs in it pay for
# the exact relation.
_BAND = 2.0**-32


def row_scale(kind, p, verts):
    """Largest absolute coordinate or size of each kernel row of ``p`` (float64 array)."""
    if kind == "polygon":
        offset = p[:, 0].astype(np.int64)
        count = p[:, 1].astype(np.int64)
        out = np.zeros(count.size)
        if count.size == 0 or verts.size == 0:
            return out
        start = np.cumsum(count) - count
        owner = np.repeat(np.arange(count.size), count)
        v = verts[offset[owner] + (np.arange(owner.size) - start[owner])]
        np.maximum.at(out, owner, np.maximum(np.abs(v[:, 0]), np.abs(v[:, 1])))
        return out
    ncols = {"ellipse": 4, "line": 2}.get(kind, p.shape[1])  # ellipse: centre and semi-axes
    out = np.zeros(p.shape[0])
    for j in range(ncols):
        np.maximum(out, np.abs(p[:, j]), out=out)
    return out


def _single_scale(shape):
    """:func:`row_scale` of a single shape, as a Python float (no array operations)."""
    p = shape._params.tolist()
    kind = shape._kind
    if kind == "ellipse":  # centre and semi-axes
        return max(abs(p[0]), abs(p[1]), p[2], p[3])
    if kind == "polygon":
        v = shape._verts[int(p[0]) : int(p[0]) + int(p[1])]
        return float(np.abs(v).max()) if v.size else 0.0
    if kind == "line":
        return max(abs(p[0]), abs(p[1]))
    return max(map(abs, p))


def _global_scale(shape):
    """An upper bound of :func:`row_scale` over all rows (a float)."""
    table = shape._verts if shape._kind == "polygon" else shape._params
    return max(float(table.max()), -float(table.min())) if table.size else 0.0  # no |table| copy


def _sign_consistent(a, b, sep):
    """Make the sign of the separation agree with the exact predicates; return it.

    ``sep`` is a float for single shapes, else a 1-D float64 array (possibly a strided view) over
    the flattened batch, changed in place.

    ``separation > 0`` exactly when the exact :func:`collide2d.intersects` is false, and
    ``separation == 0.0`` exactly for pairs whose exact relation is ``TOUCHING``.

    The float separation is accurate to a few ulps of ``scale``, the largest coordinate or size of
    the two shapes, so outside the band ``|separation| <= _BAND * scale`` its sign is already the
    exact one and it is left alone. Only the pairs inside the band (first against a bound of the
    scale over the whole batch, then against the scale of each pair) get their exact relation:

    * intersecting pairs whose float separation came out > 0 get 0.0, and so do ``TOUCHING`` ones;
    * disjoint pairs whose float separation came out <= 0 get the smallest positive float
      (``5e-324``), far below the accuracy of the separation.

    Normals and witness points are left as computed.
    """
    if not isinstance(sep, np.ndarray):
        if abs(sep) > _BAND * (_single_scale(a) + _single_scale(b)):
            return sep
        code = run.relate_codes(a, b)
        if code == codes.DISJOINT:
            return sep if sep > 0.0 else _TINY
        return 0.0 if sep > 0.0 or code == codes.TOUCHING else sep
    if sep.size == 0:
        return sep
    near = np.flatnonzero(~(np.abs(sep) > _BAND * (_global_scale(a) + _global_scale(b))))
    if near.size:
        _, index_a, index_b = run.broadcast_indices(a, b)
        s = sep[near]
        sign_consistent_rows(a._kind, a._flat_params(), a._verts, index_a[near],
                             b._kind, b._flat_params(), b._verts, index_b[near], s)
        sep[near] = s
    return sep


def sign_consistent_rows(kind_a, params_a, verts_a, ia, kind_b, params_b, verts_b, ib, sep):
    """:func:`_sign_consistent` of the kernel rows ``params_a[ia[k]]``, ``params_b[ib[k]]``.

    ``sep`` (float64, one entry per pair, contiguous) holds their float separations and is
    changed in place, so that ``max(sep, 0)`` is what :func:`distance` returns for each pair.
    """
    scale = row_scale(kind_a, params_a[ia], verts_a) + row_scale(kind_b, params_b[ib], verts_b)
    near = np.flatnonzero(~(np.abs(sep) > _BAND * scale))
    if near.size:
        code = run.relate_rows(kind_a, params_a, verts_a, ia[near], kind_b, params_b, verts_b, ib[near])
        s = sep[near]
        disjoint = code == codes.DISJOINT
        s[disjoint & ~(s > 0.0)] = _TINY
        s[~disjoint & ((s > 0.0) | (code == codes.TOUCHING))] = 0.0
        sep[near] = s
    return sep


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
      +90 degrees) of the line, else of the segment `a`; negated when that shape is `b`;
    * crossing lines: ``separation = -inf`` (no translation separates them), ``normal`` the unit
      left normal of `a`, both witnesses at the crossing point;
    * ties between equally short translations go to `a`'s edges first, then `b`'s.

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
