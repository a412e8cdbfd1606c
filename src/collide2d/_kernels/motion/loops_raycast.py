"""Batch loops of the ray casts: ``out[k]`` for shape row ``ia[k]`` against ray row ``ib[k]``.

Each loop decides first (``codes[k]``: a ray code, or ``UNDECIDED`` for the glue to settle on
Fractions) and measures the decided rows (``out[k] = distance, px, py, nx, ny``). Written out one
by one: Numba caches only module-level functions.
"""

from numba import prange

from collide2d._jit import loop

from .raycast import (
    UNDECIDED,
    raycast_code_ellipse,
    raycast_code_line,
    raycast_code_point,
    raycast_code_polygon,
    raycast_code_segment,
    raycast_ellipse,
    raycast_line,
    raycast_point,
    raycast_polygon,
    raycast_segment,
)


@loop
def raycast_ellipse_loop(pa, va, ia, pb, vb, ib, eps, codes, features, out):
    for k in prange(ia.shape[0]):
        code, feature = raycast_code_ellipse(pa[ia[k]], va, pb[ib[k]], eps)
        codes[k] = code
        features[k] = feature
        if code != UNDECIDED:
            out[k, 0], out[k, 1], out[k, 2], out[k, 3], out[k, 4] = raycast_ellipse(pa[ia[k]], va, pb[ib[k]], code, int(feature))


@loop
def raycast_polygon_loop(pa, va, ia, pb, vb, ib, eps, codes, features, out):
    for k in prange(ia.shape[0]):
        code, feature = raycast_code_polygon(pa[ia[k]], va, pb[ib[k]], eps)
        codes[k] = code
        features[k] = feature
        if code != UNDECIDED:
            out[k, 0], out[k, 1], out[k, 2], out[k, 3], out[k, 4] = raycast_polygon(pa[ia[k]], va, pb[ib[k]], code, feature)


@loop
def raycast_segment_loop(pa, va, ia, pb, vb, ib, eps, codes, features, out):
    for k in prange(ia.shape[0]):
        code, feature = raycast_code_segment(pa[ia[k]], va, pb[ib[k]], eps)
        codes[k] = code
        features[k] = feature
        if code != UNDECIDED:
            out[k, 0], out[k, 1], out[k, 2], out[k, 3], out[k, 4] = raycast_segment(pa[ia[k]], va, pb[ib[k]], code, feature)


@loop
def raycast_line_loop(pa, va, ia, pb, vb, ib, eps, codes, features, out):
    for k in prange(ia.shape[0]):
        code, feature = raycast_code_line(pa[ia[k]], va, pb[ib[k]], eps)
        codes[k] = code
        features[k] = feature
        if code != UNDECIDED:
            out[k, 0], out[k, 1], out[k, 2], out[k, 3], out[k, 4] = raycast_line(pa[ia[k]], va, pb[ib[k]], code, int(feature))


@loop
def raycast_point_loop(pa, va, ia, pb, vb, ib, eps, codes, features, out):
    for k in prange(ia.shape[0]):
        code, feature = raycast_code_point(pa[ia[k]], va, pb[ib[k]], eps)
        codes[k] = code
        features[k] = feature
        if code != UNDECIDED:
            out[k, 0], out[k, 1], out[k, 2], out[k, 3], out[k, 4] = raycast_point(pa[ia[k]], va, pb[ib[k]], code, int(feature))
