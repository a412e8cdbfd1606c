"""Batch loops for the overlap-area kernels: one ``prange`` loop per region pair.

Each loop evaluates ``out[k] = area_<a>_<b>(params_a[index_a[k]], verts_a, params_b[index_b[k]],
verts_b, relation[k])``. Written out one by one because Numba caches only module-level functions.
"""

import numpy as np
from numba import prange

from collide2d._jit import call_at
from collide2d._jit import loop

from .area_ellipse import area_ellipse_ellipse, area_ellipse_polygon  # noqa: E402
from .area_flat import area_polygon_polygon  # noqa: E402


@loop(calls=area_ellipse_ellipse, tail=("int64",))
def area_ellipse_ellipse_loop(pa, va, ia, pb, vb, ib, relation, out, at):
    # the kernel is called at its own machine code for small batches (see collide2d._jit.loop)
    for k in prange(ia.shape[0]):
        out[k] = call_at(area_ellipse_ellipse, at, pa[ia[k]], va, pb[ib[k]], vb, (np.int64(relation[k]),))


@loop
def area_ellipse_polygon_loop(pa, va, ia, pb, vb, ib, relation, out):
    for k in prange(ia.shape[0]):
        out[k] = area_ellipse_polygon(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]))


@loop
def area_polygon_polygon_loop(pa, va, ia, pb, vb, ib, relation, out):
    for k in prange(ia.shape[0]):
        out[k] = area_polygon_polygon(pa[ia[k]], va, pb[ib[k]], vb, np.int64(relation[k]))
