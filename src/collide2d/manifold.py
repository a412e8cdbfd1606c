"""Contact manifolds: up to two contact points of two shapes, for stacking and resting contact.

The manifold starts from :func:`collide2d.contact` and clips, as Box2D's ``b2CollidePolygons`` and
``b2ClipPolygons`` do (``src/manifold.c``), the incident face of one shape against the side planes
of the reference face of the other; the kernels are in :mod:`collide2d._kernels.manifold`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, overload

import numpy as np

from collide2d import _validate
from collide2d._glue import registry, run
from collide2d.measurement import contact
from collide2d.shapes import Shape
from collide2d.typing import Batch, FloatArray, Real, Single

__all__ = ["Manifold", "contact_manifold"]

if TYPE_CHECKING:

    class Manifold(NamedTuple, Generic[Real]):  # the same fields, typed per count
        count: Any
        normal: FloatArray
        separations: FloatArray
        points_a: FloatArray
        points_b: FloatArray

else:

    class Manifold(NamedTuple):
        """Up to two contact points of two shapes and their normal (the result of :func:`contact_manifold`).

        For single shapes ``count`` is an int, ``normal`` an ndarray of shape ``(2,)``,
        ``separations`` of shape ``(2,)`` and ``points_a``, ``points_b`` of shape ``(2, 2)`` (one
        row per point); for batches every field gets the batch shape in front (``count`` an int64
        array). Slots past ``count`` are NaN.

        Invariant: ``points_b[k] - points_a[k] == separations[k] * normal`` up to rounding, for
        ``k < count``.

        Examples
        --------
        >>> import collide2d as c2
        >>> m = c2.contact_manifold(c2.Box((0, 0), (4, 1)), c2.Box((1, 0.75), (2, 1.75)))
        >>> m.count, m.normal.tolist(), m.separations.tolist()
        (2, [0.0, 1.0], [-0.25, -0.25])
        >>> m.points_a.tolist(), m.points_b.tolist()  # on a's top face, on b's bottom face
        ([[2.0, 1.0], [1.0, 1.0]], [[2.0, 0.75], [1.0, 0.75]])
        >>> count, normal, *_ = m  # a named tuple
        """

        count: int | np.ndarray  #: number of contact points: 0, 1 or 2
        normal: FloatArray  #: unit vector from a to b, shared by the points
        separations: FloatArray  #: signed distance at each point (negative: penetration)
        points_a: FloatArray  #: contact points on a's boundary, one row each
        points_b: FloatArray  #: contact points on b's boundary: ``points_a + separations * normal``

        __class_getitem__ = classmethod(lambda cls, item: cls)


# The kernel of each ordered pair of kinds with a face on both sides is a MANIFOLD line of the
# pair table (collide2d._glue.registry); every other pair (an ellipse, a point, two lines) has the
# one-point manifold of its contact (registry.one_point_manifold).
# (count, normal, separations, points_a, points_b) in the 13 numbers of a kernel's result
_ORDER = np.array([1, 2, 3, 8, 4, 5, 9, 10, 6, 7, 11, 12])
_array = np.array


def _margin(value):
    if isinstance(value, np.ndarray) and value.shape == ():  # a 0-d array: its number (np.bool_ stays refused)
        value = value[()]
    rule = "margin must be a real number or inf (the largest separation kept)"
    if not _validate.is_real_scalar(value):
        raise TypeError(f"{rule}, got {value!r}")
    try:
        number = float(value)
    except OverflowError:  # an integer beyond float64 (10**400): refused as the other arguments refuse it
        raise TypeError(f"{rule}, got an integer beyond float64") from None
    if math.isnan(number):
        raise TypeError(f"{rule}, got {value!r}")
    return number


@overload
def contact_manifold(a: Shape[Single], b: Shape[Single], /, *, margin: float = ...) -> Manifold[float]: ...
@overload
def contact_manifold(a: Shape[Batch], b: Shape[Any], /, *, margin: float = ...) -> Manifold[FloatArray]: ...
@overload
def contact_manifold(a: Shape[Any], b: Shape[Batch], /, *, margin: float = ...) -> Manifold[FloatArray]: ...
def contact_manifold(a: Shape[Any], b: Shape[Any], /, *, margin: float = math.inf) -> Manifold[Any]:
    """Return up to two contact points of two shapes, with their separations and one normal.

    Two boxes resting face to face touch along a stretch, not at a point: a solver that pushes at
    one deepest point (:func:`contact`) makes them rock. The manifold gives the two ends of the
    stretch, as Box2D's ``b2CollidePolygons`` does.

    Parameters
    ----------
    a, b : Shape
        Single shapes or batches; batch shapes broadcast like NumPy arrays.
    margin : float, default inf
        A real number (or a 0-d array holding one), not NaN. Speculative margin: points whose separation exceeds it are dropped (``count`` falls, to 0
        for a pair farther apart). ``inf`` keeps every point; Box2D keeps the points within its
        speculative distance, 4 linear slops (2 cm); ``0`` keeps touching and penetrating points.

    Returns
    -------
    Manifold
        ``count`` points; ``normal``: unit vector from `a` to `b`; ``separations[k]``: signed
        distance along ``normal`` at point ``k`` (gap, 0 touching, negative overlapping);
        ``points_a[k]`` on `a`'s boundary and ``points_b[k] = points_a[k] + separations[k] *
        normal`` on `b`'s.

    Raises
    ------
    TypeError
        If `a` or `b` is not a collide2d shape, or `margin` is not a real number (NaN neither).
    ValueError
        If the batch shapes do not broadcast.

    See Also
    --------
    contact : the one deepest (or closest) point; the manifold's point when it has one.

    Notes
    -----
    Definition (Box2D v3, ``b2ClipPolygons`` in ``src/manifold.c``), for polygons, boxes, rotated
    boxes, segments and lines, and for their rounded kinds (capsules, polygons and boxes with a
    radius: the manifold of the cores, each point moved out by the radii along the normal, as
    ``b2CollidePolygons`` does with ``b2Polygon.radius`` and ``b2CollideCapsules``):

    1. The *reference face* is the edge whose outward normal is the contact normal ``n`` of
       :func:`contact` (the separating axis when the shapes overlap, the normal at the closest edge
       when apart), on the shape that has a face along ``n``; when both have one, the edge whose
       normal is nearer to ``n`` (ties to `a`).
    2. The *incident face* is the edge of the other shape most anti-parallel to it.
    3. The incident face is clipped to the slab between the reference face's two side planes (the
       lines through its end points along its normal). The clipped end points are the points on
       the incident shape; their feet on the reference face the points on the reference shape; the
       separations are measured along the reference face's normal (which is ``normal``, up to the
       sign for a reference face of `b`). Coinciding points count once.
    4. When neither shape has a face along ``n`` (two corners apart), when one is a point, when
       one is an ellipse or a circle (curved pairs), or when the incident face misses the slab,
       the manifold is the contact itself: one point, equal to :func:`contact`'s (for rounded
       shapes, the cores' contact moved out by the radii; with an ellipse, or a capsule whose ends
       coincide against a line, the pair's own contact).
    5. A line is the reference face against every other flat shape, with no side planes.
    6. Points whose separation exceeds `margin` are dropped, the kept ones first.

    A point of a tilted face comes with the separation of its end, so a box resting on a corner
    has a second point with a gap (Box2D's speculative point): a solver leaves it alone until it
    closes; ``margin`` drops it. Floating point throughout: the points and separations are accurate
    to a few ulps of the shapes' sizes, and the reference normal is the reference edge's own unit
    normal, which may differ from :func:`contact`'s in the last bits.

    Examples
    --------
    >>> import collide2d as c2
    >>> floor = c2.Box((-10, -1), (10, 0))
    >>> tilted = c2.RotatedBox((0, 0.549), (1, 0.5), 0.05)  # resting on one corner
    >>> m = c2.contact_manifold(floor, tilted)
    >>> m.count, m.normal.tolist(), m.separations.round(4).tolist()
    (2, [0.0, 1.0], [0.0996, -0.0004])
    >>> c2.contact_manifold(floor, tilted, margin=0.0).count  # the touching point alone
    1
    >>> c2.contact_manifold(c2.Circle((0, 2), 1), floor).count  # curved: the contact point
    1
    >>> c2.contact_manifold(tilted, floor).normal.tolist()  # the other order: the normal flips
    [0.0, -1.0]
    >>> m = c2.contact_manifold(floor, c2.Capsule((-1, 0.25), (1, 0.25), 0.25))  # lying on the floor
    >>> m.count, m.separations.tolist(), m.points_b.tolist()
    (2, [0.0, 0.0], [[1.0, 0.0], [-1.0, 0.0]])
    """
    margin = _margin(margin)
    a, b, rounded = run.checked_pair(a, b)  # a rounded shape of radius 0: its core's kind
    if rounded:
        return _rounded_manifold(a, b, margin)
    c = contact(a, b)
    faces = registry.has(registry.MANIFOLD, run.kind_of(a), run.kind_of(b))  # else: one point
    if not a.shape and not b.shape:
        n, pa, pb = c.normal.tolist(), c.point_a.tolist(), c.point_b.tolist()
        row = (c.separation, n[0], n[1], pa[0], pa[1], pb[0], pb[1], c.curvature_a, c.curvature_b)
        if faces:
            r = run.manifold_values(a, b, row, margin)
        else:
            r = registry.one_point_manifold()(row, 0.0, 0.0, margin)
        v = _array(r)[_ORDER]
        return Manifold(int(r[0]), v[0:2], v[2:4], v[4:8].reshape(2, 2), v[8:12].reshape(2, 2))
    shape, _, _ = run.broadcast_indices(a, b)
    contacts = np.concatenate([np.reshape(c.separation, shape + (1,)), c.normal, c.point_a, c.point_b,
                               np.reshape(c.curvature_a, shape + (1,)), np.reshape(c.curvature_b, shape + (1,))],
                              axis=-1).reshape(-1, 9)
    out = np.empty((contacts.shape[0], 13))
    if out.shape[0]:
        if faces:
            out = run.manifold_values(a, b, contacts, margin)
        else:
            _single_rows(contacts, margin, out)
    v = out[:, _ORDER].reshape(shape + (12,))
    count = out[:, 0].astype(np.int64).reshape(shape)
    return Manifold(count, v[..., 0:2], v[..., 2:4], v[..., 4:8].reshape(shape + (2, 2)),
                    v[..., 8:12].reshape(shape + (2, 2)))


def _rounded_manifold(a, b, margin):
    """:func:`contact_manifold` of a pair with a rounded shape: the manifold of the cores moved out
    by the radii (:func:`collide2d._glue.run.manifold_rows`)."""
    shape, index_a, index_b = run.broadcast_indices(a, b)
    kind_a, table_a, verts_a = run.flat_rows(a)
    kind_b, table_b, verts_b = run.flat_rows(b)
    out = run.manifold_rows(kind_a, table_a, verts_a, index_a, kind_b, table_b, verts_b, index_b, margin)
    v = out[:, _ORDER].reshape(shape + (12,))
    if not shape:
        return Manifold(int(out[0, 0]), v[0:2], v[2:4], v[4:8].reshape(2, 2), v[8:12].reshape(2, 2))
    count = out[:, 0].astype(np.int64).reshape(shape)
    return Manifold(count, v[..., 0:2], v[..., 2:4], v[..., 4:8].reshape(shape + (2, 2)),
                    v[..., 8:12].reshape(shape + (2, 2)))


def _single_rows(contacts, margin, out):
    """The one-point manifolds of a batch of contacts (``clip.manifold_single`` without radii)."""
    keep = contacts[:, 0] <= margin
    out[:] = np.nan
    out[:, 0] = keep
    out[:, 1:3] = contacts[:, 1:3]
    out[keep, 3] = contacts[keep, 0]
    out[keep, 4:8] = contacts[keep, 3:7]
