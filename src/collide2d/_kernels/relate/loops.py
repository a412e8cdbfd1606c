"""Batch loops: one ``prange`` loop per pair kernel, writing into a preallocated output.

Each loop evaluates ``out[k] = kernel(params_a[index_a[k]], verts_a, params_b[index_b[k]], verts_b, eps)``.
The loops are written out one by one (not generated from a closure) because Numba caches only
module-level functions; a cached loop costs nothing to compile on the next run.
"""

import numpy as np
from numba import prange

from collide2d._jit import call_at
from collide2d._jit import loop

from ..codes import UNDECIDED
from .conic import quick_intersects_ellipse_ellipse, quick_relate_ellipse_ellipse

from .ellipse import (  # noqa: E402
    intersects_ellipse_ellipse,
    relate_ellipse_ellipse,
    relate_ellipse_polygon,
    relate_ellipse_segment,
    relate_ellipse_line,
    relate_ellipse_point,
)
from .polygon import (  # noqa: E402
    relate_polygon_polygon,
    relate_polygon_segment,
    relate_polygon_line,
    relate_polygon_point,
)
from .linear import (  # noqa: E402
    relate_segment_segment,
    relate_segment_line,
    relate_segment_point,
    relate_line_line,
    relate_line_point,
    relate_point_point,
)


@loop(calls=relate_ellipse_ellipse, tail=("float64",))
def relate_ellipse_ellipse_loop(pa, va, ia, pb, vb, ib, eps, out, at):
    # two passes: the cheap certified filter first (see conic.quick_relate_ellipse_ellipse), the
    # full kernel only on the pairs it leaves; one pass through the full kernel costs several
    # times more even on pairs that its filter settles at once. The full kernel is called at its
    # own machine code for small batches (``at``, see collide2d._jit.loop).
    for k in prange(ia.shape[0]):
        out[k] = quick_relate_ellipse_ellipse(pa[ia[k]], pb[ib[k]], eps)
    for k in prange(ia.shape[0]):
        if out[k] == UNDECIDED:
            out[k] = call_at(relate_ellipse_ellipse, at, pa[ia[k]], va, pb[ib[k]], vb, (np.float64(eps),))


@loop
def relate_ellipse_polygon_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_ellipse_polygon(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_ellipse_segment_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_ellipse_segment(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_ellipse_line_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_ellipse_line(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_ellipse_point_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_ellipse_point(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_polygon_polygon_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_polygon_polygon(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_polygon_segment_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_polygon_segment(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_polygon_line_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_polygon_line(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_polygon_point_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_polygon_point(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_segment_segment_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_segment_segment(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_segment_line_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_segment_line(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_segment_point_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_segment_point(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_line_line_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_line_line(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_line_point_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_line_point(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_point_point_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_point_point(pa[ia[k]], va, pb[ib[k]], vb, eps)


# -- dedicated ``intersects`` kernels (1 / 0 / UNDECIDED): no containment classification -------


@loop(calls=intersects_ellipse_ellipse, tail=("float64",))
def intersects_ellipse_ellipse_loop(pa, va, ia, pb, vb, ib, eps, out, at):
    # two passes, as relate_ellipse_ellipse_loop
    for k in prange(ia.shape[0]):
        out[k] = quick_intersects_ellipse_ellipse(pa[ia[k]], pb[ib[k]], eps)
    for k in prange(ia.shape[0]):
        if out[k] == UNDECIDED:
            out[k] = call_at(intersects_ellipse_ellipse, at, pa[ia[k]], va, pb[ib[k]], vb, (np.float64(eps),))
