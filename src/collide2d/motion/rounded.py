"""Rounded shapes in motion (capsules, rounded polygons and boxes): what the time-of-impact search
needs beyond the other kinds.

A rounded shape is its core (a point, a segment or a convex polygon) grown by the disc of radius
``r``. Its separation from another shape is the separation of the cores less the radii (the
signed distance to the Minkowski difference of the cores, grown by the disc of radius
``r_a + r_b``; :mod:`collide2d._kernels.measure.distance_rounded`), so two moving shapes first
touch when the distance of their cores first equals ``r_a + r_b``. Under a translation that
separation is still a convex function of time, so the search of :mod:`collide2d.motion.search`
runs unchanged on it: the compiled translation search with the rounded contact and relate kernels
(:mod:`collide2d._kernels.toi_loops_rounded`), the Python search (grazes, turning pairs) with the
contacts and exact predicates of the rounded glue. The rigid moves are those of the cores
(:mod:`collide2d._kernels.motion.loops_rounded`); the extent of a rounded shape about its
reference point is its core's plus ``r``.

A rounded shape of radius 0 is its core's shape (:func:`plain_if_zero`): every answer is then the
plain kind's, bit for bit.
"""

from __future__ import annotations

import importlib

import numpy as np

from collide2d._glue import run
from collide2d._tolerances import EPS
from collide2d.motion.rigid import rounded_kernel_shape

_KIND_CODE = {"ellipse": 0, "polygon": 1, "segment": 2, "line": 3, "point": 4, "rounded": 5}  # those of _kernels.motion.toi


def plain_if_zero(*shapes):
    """The arguments with each rounded shape whose radii are all 0 replaced by its core's shape
    (:func:`collide2d._glue.rounded.plain_if_zero`); anything else as it is."""
    if not any(getattr(shape, "_kind", None) == "rounded" for shape in shapes):
        return shapes
    glue = run.rounded()
    return tuple(glue.plain_if_zero(s) if getattr(s, "_kind", None) == "rounded" else s for s in shapes)


def pair_for_search(a, b):
    """``a`` and ``b`` as the search takes them: a rounded shape of radius 0 as its core's shape
    (:func:`plain_if_zero`), and circles met by a rounded shape as rounded discs (a point core
    grown by the radius; the same set, the same reference point and extent), so that the pair's
    predicates are the exact ones of two rounded shapes rather than the band of an ellipse against
    a rounded shape (:mod:`collide2d._kernels.relate.rounded`): the certified time is then that
    of the distance of the cores, to the rounding of the search, in both argument orders."""
    a, b = plain_if_zero(a, b)
    kinds = (getattr(a, "_kind", None), getattr(b, "_kind", None))
    if kinds == ("rounded", "ellipse"):
        return a, _disc(b)
    if kinds == ("ellipse", "rounded"):
        return _disc(a), b
    return a, b


def _row_kinds(shape, index):
    """Per pair: 0 for a rounded row of radius > 0, else the count of its core's vertices (1, 2, or
    3 for a polygon): the kind the row runs as. None for a shape of another kind."""
    kind, p = run.shape_rows(shape)[:2]
    if kind != "rounded":
        return None
    p = p.reshape(-1, 7)[index]
    return np.where(p[:, 2] > 0.0, 0, np.minimum(p[:, 1], 3)).astype(np.int64)


def radius_groups(a, b, index_a, index_b):
    """The pairs ``a[index_a[k]]``, ``b[index_b[k]]`` (flat indices) grouped by the kinds their rows
    run as, when a rounded batch mixes rows of radius 0 with rows of radius > 0 (or cores of
    several kinds at radius 0): a list of row arrays; None when every pair runs as one pair of
    kinds (:func:`pair_for_search` makes a batch of radius 0 its core's kind). ``a``, ``b``: the
    shapes as given (before :func:`pair_for_search`: a circle against rows of radius 0 stays a
    circle, as in their plain pair)."""
    keys = [k for k in (_row_kinds(a, index_a), _row_kinds(b, index_b)) if k is not None]
    if not keys:
        return None
    key = keys[0] * 4 + (keys[1] if len(keys) == 2 else 0)
    if key.size == 0 or bool((key == key[0]).all()):
        return None
    return [np.flatnonzero(key == value) for value in np.unique(key).tolist()]


def _take(shape, flat_index):
    """The shapes at the flat indices of a batch (a single shape as it is)."""
    if not shape.shape:
        return shape
    return shape[np.unravel_index(flat_index, shape.shape)]


def joined(time_of_impact, groups, a, b, index_a, index_b, va, vb, wa, wb, t_max):
    """``(time, point, normal)`` of the flat pairs: each group of :func:`radius_groups` is one call
    of ``time_of_impact`` on its rows (those of radius 0 as the core's kind, through
    :func:`pair_for_search`), so that a row of radius 0 gets the answer of its plain pair, bit for
    bit, whatever the other rows of the batch. ``va`` ... ``t_max``: the motion of each pair."""
    n = index_a.shape[0]
    time, point, normal = np.empty(n), np.empty((n, 2)), np.empty((n, 2))
    for rows in groups:
        part = time_of_impact(_take(a, index_a[rows]), _take(b, index_b[rows]), va[rows], vb[rows],
                              angular_velocity_a=wa[rows], angular_velocity_b=wb[rows], t_max=t_max[rows])
        time[rows], point[rows], normal[rows] = part.time, part.point, part.normal
    return time, point, normal


def _disc(shape):
    """A batch of circles as rounded rows with point cores (else the shape as it is)."""
    p = run.shape_rows(shape)[1]
    if p.size == 0 or not np.all(p[..., 2] == p[..., 3]):
        return shape
    rows = np.zeros(p.shape[:-1] + (7,))
    rows[..., 1] = 1.0
    rows[..., 2] = p[..., 2]
    rows[..., 3:5] = p[..., 0:2]
    rows[..., 5:7] = p[..., 0:2]
    return rounded_kernel_shape(rows, np.zeros((0, 2)))


def direct_pair(a, b):
    """Whether a pair of single shapes may take the direct path of
    :func:`collide2d.motion.search._single_translation`: no polygon (vertex lists), and a rounded
    shape only as a capsule of radius > 0 (a segment or point core) against a point, segment, line
    or capsule (radius 0 is the plain kind's path; circles go through :func:`pair_for_search`)."""
    kinds = (run.kind_of(a), run.kind_of(b))
    if "polygon" in kinds:
        return False
    if "rounded" not in kinds:
        return True
    if "ellipse" in kinds:
        return False
    rows = [run.shape_rows(s)[:2] for s in (a, b)]
    return all(kind != "rounded" or (p.ndim == 1 and p[1] <= 2.0 and p[2] > 0.0) for kind, p in rows)


def reach(p):
    """Reference point and extent of a single capsule row (a list), the floats of
    :func:`collide2d.motion.rigid.reference_points` and :func:`collide2d.motion.rigid._extents`."""
    rx, ry = 0.5 * (p[3] + p[5]), 0.5 * (p[4] + p[6])
    r = max(float(np.hypot(p[3] - rx, p[4] - ry)), float(np.hypot(p[5] - rx, p[6] - ry))) + p[2]
    return rx, ry, r * (1.0 + 8 * 2.0**-52)


def shifted_row(p, dx, dy):
    """A capsule row (a list) shifted by ``(dx, dy)``: the floats of ``move_rounded_loop`` with the
    turn ``(1, 0)``."""
    return [p[0], p[1], p[2], p[3] + dx, p[4] + dy, p[5] + dx, p[6] + dy]


def run_translation(a, b, framed_a, framed_b, shifted, index, numbers):
    """The compiled translation search of pairs with a rounded shape (the arguments and results
    of :func:`collide2d.motion.search._run_translation`): the loop ``toi_rounded_<other>_loop``,
    the rounded shape first (``swapped`` when it is ``b``)."""
    (kind_a, ga, gva), (kind_b, gb, gvb) = run.flat_rows(a), run.flat_rows(b)
    (_, fa, fva), (_, fb, fvb) = run.flat_rows(framed_a), run.flat_rows(framed_b)
    swapped = kind_a != "rounded"
    other = kind_b if not swapped else kind_a
    loop = getattr(importlib.import_module("collide2d._kernels.toi_loops_rounded"), f"toi_rounded_{other}_loop")
    out = np.empty((index.shape[0], 6))
    c = np.ascontiguousarray
    loop(EPS, swapped, _KIND_CODE[kind_a], _KIND_CODE[kind_b], shifted, c(ga), c(gva), c(gb), c(gvb), c(fa), c(fva),
         c(fb), c(fvb), c(index), c(numbers), out)
    return out[:, 0].astype(np.int64), out[:, 1:]
