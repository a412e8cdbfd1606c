"""Batch loops for the intersection-point kernels: one ``prange`` loop per pair kernel.

Each loop evaluates ``count[k] = points_<a>_<b>(params_a[index_a[k]], verts_a, params_b[index_b[k]],
verts_b, relation[k], out[k])``, where ``out`` has shape ``(n, capacity, 2)`` and is preallocated
(NaN-filled) by the glue; every iteration writes only its own rows, so the output does not depend
on thread timing. Written out one by one (not generated from a closure) because Numba caches only
module-level functions.
"""

import numpy as np
from numba import prange

from collide2d._jit import loop

from .points_ellipse import (  # noqa: E402
    points_ellipse_ellipse,
    points_ellipse_polygon,
    points_ellipse_segment,
    points_ellipse_line,
    points_ellipse_point,
)
from .points_flat import (  # noqa: E402
    points_polygon_polygon,
    points_polygon_segment,
    points_polygon_line,
    points_polygon_point,
    points_segment_segment,
    points_segment_line,
    points_segment_point,
    points_line_line,
    points_line_point,
    points_point_point,
)


@loop
def points_ellipse_ellipse_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_ellipse_ellipse(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])


@loop
def points_ellipse_polygon_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_ellipse_polygon(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])


@loop
def points_ellipse_segment_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_ellipse_segment(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])


@loop
def points_ellipse_line_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_ellipse_line(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])


@loop
def points_ellipse_point_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_ellipse_point(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])


@loop
def points_polygon_polygon_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_polygon_polygon(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])


@loop
def points_polygon_segment_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_polygon_segment(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])


@loop
def points_polygon_line_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_polygon_line(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])


@loop
def points_polygon_point_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_polygon_point(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])


@loop
def points_segment_segment_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_segment_segment(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])


@loop
def points_segment_line_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_segment_line(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])


@loop
def points_segment_point_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_segment_point(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])


@loop
def points_line_line_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_line_line(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])


@loop
def points_line_point_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_line_point(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])


@loop
def points_point_point_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_point_point(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]), out[k])
