"""Batch loops for the contact kernels: two ``prange`` loops per pair kernel.

``contact_<a>_<b>_loop`` evaluates ``out[k, 0:9] = contact_<a>_<b>(params_a[index_a[k]], verts_a,
params_b[index_b[k]], verts_b)`` (the 9-tuple of :mod:`collide2d._kernels.measure.distance_flat`);
``separation_<a>_<b>_loop`` keeps only the separation, ``out[k] = contact_<a>_<b>(...)[0]``, for
:func:`collide2d.distance`: the kernel is inlined, so the compiler drops the work whose results
are not stored (witness points, normal, curvatures), and the output is one column instead of nine.
The point-ellipse pair, the hot one, has a kernel of its own for this
(:func:`distance_ellipse.separation_ellipse_point`): there the compiler cannot drop the unused
work by itself, since ``hypot`` may call libm.
The loops are written out one by one, as in :mod:`loops`, because Numba caches only module-level
functions. Every iteration writes its own row, so the output does not depend on thread timing.
"""

from numba import prange

from collide2d._jit import call_at
from collide2d._jit import kernel, loop

from .distance_ellipse import (  # noqa: E402
    contact_ellipse_ellipse,
    contact_ellipse_polygon,
    contact_ellipse_segment,
    contact_ellipse_line,
    contact_ellipse_point,
    separation_ellipse_point,
)
from .distance_flat import (  # noqa: E402
    contact_polygon_polygon,
    contact_polygon_segment,
    contact_polygon_line,
    contact_polygon_point,
    contact_segment_segment,
    contact_segment_line,
    contact_segment_point,
    contact_line_line,
    contact_line_point,
    contact_point_point,
)


@kernel
def store(out, k, r):
    """Write the 9-tuple ``r`` into row ``k`` of ``out``."""
    out[k, 0] = r[0]
    out[k, 1] = r[1]
    out[k, 2] = r[2]
    out[k, 3] = r[3]
    out[k, 4] = r[4]
    out[k, 5] = r[5]
    out[k, 6] = r[6]
    out[k, 7] = r[7]
    out[k, 8] = r[8]


@loop(calls=contact_ellipse_ellipse)
def contact_ellipse_ellipse_loop(pa, va, ia, pb, vb, ib, out, at):
    # the kernel is called at its own machine code for small batches (see collide2d._jit.loop)
    for k in prange(ia.shape[0]):
        store(out, k, call_at(contact_ellipse_ellipse, at, pa[ia[k]], va, pb[ib[k]], vb, ()))


@loop
def contact_ellipse_polygon_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_ellipse_polygon(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_ellipse_segment_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_ellipse_segment(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_ellipse_line_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_ellipse_line(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_ellipse_point_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_ellipse_point(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_polygon_polygon_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_polygon_polygon(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_polygon_segment_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_polygon_segment(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_polygon_line_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_polygon_line(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_polygon_point_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_polygon_point(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_segment_segment_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_segment_segment(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_segment_line_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_segment_line(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_segment_point_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_segment_point(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_line_line_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_line_line(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_line_point_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_line_point(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_point_point_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_point_point(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def separation_ellipse_ellipse_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_ellipse_ellipse(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_ellipse_polygon_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_ellipse_polygon(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_ellipse_segment_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_ellipse_segment(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_ellipse_line_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_ellipse_line(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_ellipse_point_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = separation_ellipse_point(pa[ia[k]], va, pb[ib[k]], vb)


@loop
def separation_polygon_polygon_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_polygon_polygon(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_polygon_segment_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_polygon_segment(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_polygon_line_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_polygon_line(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_polygon_point_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_polygon_point(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_segment_segment_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_segment_segment(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_segment_line_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_segment_line(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_segment_point_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_segment_point(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_line_line_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_line_line(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_line_point_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_line_point(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_point_point_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_point_point(pa[ia[k]], va, pb[ib[k]], vb)[0]
