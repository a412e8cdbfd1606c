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

_KIND_CODE = {"ellipse": 0, "polygon": 1, "segment": 2, "line": 3, "point": 4, "rounded": 5}  # those of _kernels.motion.toi


def plain_if_zero(*shapes):
    """The arguments with each rounded shape whose radii are all 0 replaced by its core's shape
    (:func:`collide2d._glue.rounded.plain_if_zero`); anything else as it is."""
    if not any(getattr(shape, "_kind", None) == "rounded" for shape in shapes):
        return shapes
    glue = run.rounded()
    return tuple(glue.plain_if_zero(s) if getattr(s, "_kind", None) == "rounded" else s for s in shapes)


def run_translation(a, b, framed_a, framed_b, shifted, index, numbers):
    """The compiled translation search of pairs with a rounded shape (the arguments and results
    of :func:`collide2d.motion.search._run_translation`): the loop ``toi_rounded_<other>_loop``,
    the rounded shape first (``swapped`` when it is ``b``)."""
    swapped = a._kind != "rounded"
    other = b._kind if not swapped else a._kind
    loop = getattr(importlib.import_module("collide2d._kernels.toi_loops_rounded"), f"toi_rounded_{other}_loop")
    out = np.empty((index.shape[0], 6))
    c = np.ascontiguousarray
    loop(EPS, swapped, _KIND_CODE[a._kind], _KIND_CODE[b._kind], shifted, c(a._flat_params()), c(a._verts),
         c(b._flat_params()), c(b._verts), c(framed_a._flat_params()), c(framed_a._verts), c(framed_b._flat_params()),
         c(framed_b._verts), c(index), c(numbers), out)
    return out[:, 0].astype(np.int64), out[:, 1:]
