"""First contacts among many moving shapes (:func:`query_impacts`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from collide2d._validate import is_real_scalar
from collide2d.motion import rounded
from collide2d.motion.rigid import _ULP, _extents, _kernel_shape, _motion_numbers, reference_points, rounded_kernel_shape
from collide2d.motion.search import _impact_flat, _Motion
from collide2d.shapes import Box, Shape
from collide2d.table import ShapeTable

# -- many moving shapes --------------------------------------------------------------------------------


class Impacts(NamedTuple):
    """First contacts among many moving shapes (the result of :func:`query_impacts`).

    ``pairs`` is an int64 array of shape ``(2, n)`` (``i < j``, sorted); ``time`` has shape
    ``(n,)``, ``point`` and ``normal`` shape ``(n, 2)``, as in :class:`Impact`.

    Examples
    --------
    >>> import collide2d as c2
    >>> balls = c2.Circle([(0, 0), (4, 0), (0, 9)], 1)
    >>> hits = c2.query_impacts(balls, [(1, 0), (-1, 0), (0, 0)])
    >>> hits.pairs.shape, hits.time.shape, hits.point.shape, hits.normal.shape
    ((2, 1), (1,), (1, 2), (1, 2))
    >>> for (i, j), time in zip(hits.pairs.T.tolist(), hits.time.tolist()):
    ...     print(f"{i} meets {j} at t = {time}")
    0 meets 1 at t = 1.0
    """

    pairs: np.ndarray  #: shape indices, i < j, sorted
    time: np.ndarray  #: first contact time of each pair
    point: np.ndarray  #: a common point at that time
    normal: np.ndarray  #: unit normal from shape i to shape j (NaN if overlapping at 0)


_WIDTH = {"ellipse": 6, "polygon": 2, "segment": 4, "line": 4, "point": 2, "rounded": 7}


def _groups(shapes):
    """``[(kind shape, global indices)]``: the input as batches of one kind each."""
    if isinstance(shapes, Shape):
        return [(shapes, np.arange(shapes.size))], shapes.size  # kernels read the flat rows
    if not isinstance(shapes, ShapeTable):
        if isinstance(shapes, (str, bytes)) or not hasattr(shapes, "__iter__"):
            raise TypeError(f"shapes must be a shape, a batch of shapes, a list of shapes or a ShapeTable, "
                            f"got {type(shapes).__name__}")
        shapes = ShapeTable(shapes)
    groups = []
    for code, kind in enumerate(shapes.KIND_NAMES):
        rows = np.flatnonzero(shapes.kinds == code)
        if rows.size:
            params = np.ascontiguousarray(shapes.params[rows, : _WIDTH[kind]])
            if kind == "rounded":  # (capsules and rounded polygons together: their cores' kinds per row)
                groups.append((rounded_kernel_shape(params, shapes.vertices), rows))
                continue
            verts = shapes.vertices if kind == "polygon" else None
            groups.append((_kernel_shape(kind, params, verts), rows))
    return groups, len(shapes)


def query_impacts(
    shapes: Shape | ShapeTable | Sequence[Shape],
    velocity: ArrayLike,
    *,
    angular_velocity: ArrayLike = 0.0,
    t_max: float = 1.0,
    periodic: tuple[float, float] | Box | None = None,
) -> Impacts:
    """Return every pair of moving shapes that comes into contact within ``[0, t_max]``.

    Parameters
    ----------
    shapes : Shape batch, sequence of shapes or ShapeTable
        The shapes at time 0 (``n`` of them, in the order of :class:`ShapeTable`).
    velocity : array_like of shape (n, 2) or (2,)
        Velocity of each shape's reference point (see :func:`time_of_impact`).
    angular_velocity : array_like of shape (n,) or scalar, default 0
        Counter-clockwise turn rate of each shape about its reference point.
    t_max : float, default 1
        End of the time interval; finite and ``>= 0``.
    periodic : (float, float) or Box, optional
        A periodic box, as in :func:`collide2d.query_pairs`: pairs meet through their nearest
        images (shapes need not lie inside it). It must exceed twice the largest swept bounds.

    Returns
    -------
    Impacts
        ``pairs`` (int64, shape (2, k), ``i < j``, sorted) of every pair whose first contact
        time lies in ``[0, t_max]``, with that ``time``, a common ``point`` and the unit
        ``normal`` from shape ``i`` to shape ``j`` (see :func:`time_of_impact`; with a periodic
        box, in the frame of shape ``i``'s image).

    Raises
    ------
    TypeError
        If `shapes` is not a shape collection or a motion argument is not numeric (a boolean or
        a string is not).
    ValueError
        If a velocity is not finite or has the wrong shape, or `t_max` is negative or not finite.

    See Also
    --------
    time_of_impact : one pair (or a batch of pairs).
    collide2d.query_pairs : the same broad phase, at one instant.

    Notes
    -----
    A swept broad phase: each shape's bounds over its whole motion (its bounds at 0 joined with
    those at ``t_max``; for a turning shape, the disc of its farthest extent about its reference
    point at both times), rounded outward, go through the broad phase of
    :func:`collide2d.query_pairs`; each candidate pair then goes through :func:`time_of_impact`.
    The swept bounds contain every position of the shape over ``[0, t_max]`` (a translation
    moves the bounds along a segment, whose hull the two end bounds span), so no pair is missed.

    Examples
    --------
    >>> import collide2d as c2
    >>> balls = c2.Circle([(0, 0), (4, 0), (0, 9)], 1)
    >>> hits = c2.query_impacts(balls, [(1, 0), (-1, 0), (0, 0)])
    >>> hits.pairs.tolist(), hits.time.tolist(), hits.normal.tolist()
    ([[0], [1]], [1.0], [[1.0, 0.0]])
    """
    from collide2d import broadphase

    (shapes,) = rounded.plain_if_zero(shapes)  # radius 0: the core's kind, bit for bit
    groups, n = _groups(shapes)
    v = _motion_numbers(velocity, "velocity", vector=True)
    w = _motion_numbers(angular_velocity, "angular_velocity")
    try:
        v = np.ascontiguousarray(np.broadcast_to(v, (n, 2)))
        w = np.ascontiguousarray(np.broadcast_to(w, (n,)))
    except ValueError:
        raise ValueError(f"velocity must have shape ({n}, 2) or (2,) and angular_velocity ({n},) or (), "
                         f"got {v.shape} and {w.shape}") from None
    if not is_real_scalar(t_max):
        raise TypeError(f"t_max must be a number, got {type(t_max).__name__}")
    if not 0.0 <= float(t_max) < math.inf:
        raise ValueError(f"t_max must be a finite number >= 0, got {t_max!r}")
    t_max = float(t_max)
    # swept bounds of every shape
    bounds = np.empty((n, 4))
    kind_of = np.empty(n, dtype=np.int64)
    local = np.empty(n, dtype=np.int64)
    for g, (shape, rows) in enumerate(groups):
        b = np.asarray(shape.bounds, dtype=np.float64).reshape(-1, 4)
        turning = w[rows] != 0.0
        if turning.any():
            ref = reference_points(shape)
            r = _extents(shape, ref)
            disc = np.concatenate([ref - r[:, None], ref + r[:, None]], axis=1)
            b = np.where(turning[:, None], disc, b)
        moved = b + np.tile(v[rows] * t_max, 2)
        swept = np.concatenate([np.minimum(b[:, :2], moved[:, :2]), np.maximum(b[:, 2:], moved[:, 2:])], axis=1)
        pad = 4 * _ULP * (np.abs(swept).max(axis=1, keepdims=True) + np.abs(v[rows]).max(axis=1, keepdims=True) * t_max)
        bounds[rows] = swept + np.concatenate([-pad, -pad, pad, pad], axis=1)
        kind_of[rows] = g
        local[rows] = np.arange(rows.size)

    class _Swept:  # the broad phase's view of a collection: only its bounds are read without a predicate
        bounds: Any
        kind = kinds = None
        params = np.zeros((n, 6))
        verts = np.zeros((0, 2))

        def __len__(self):
            return n

    coll = _Swept()
    coll.bounds = bounds
    pairs, shifts = broadphase._query(coll, None, None, "auto", periodic, True)
    keep = np.zeros(pairs.shape[1], dtype=bool)
    time = np.full(pairs.shape[1], np.inf)
    point = np.full((pairs.shape[1], 2), np.nan)
    normal = np.full((pairs.shape[1], 2), np.nan)
    gi, gj = kind_of[pairs[0]], kind_of[pairs[1]]
    for key in np.unique(gi * len(groups) + gj).tolist():
        sel = np.flatnonzero(gi * len(groups) + gj == key)
        (a, _), (b, _) = groups[key // len(groups)], groups[key % len(groups)]
        a, b = rounded.pair_for_search(a, b)
        i, j = pairs[0, sel], pairs[1, sel]
        offset = shifts[sel] if periodic is not None else None
        m = _Motion(a, b, local[i], local[j], v[i], v[j], w[i], w[j], offset)
        t, p, nrm = _impact_flat(m, np.full(sel.size, t_max))
        time[sel], point[sel], normal[sel] = t, p, nrm
    keep = np.isfinite(time)
    return Impacts(np.ascontiguousarray(pairs[:, keep]), time[keep], point[keep], normal[keep])

