"""Batch loops of the rounded contact kernels (:mod:`distance_rounded`), as :mod:`loops` for the others.

``contact_rounded_<b>_loop`` stores the 9-tuple of each pair, ``separation_rounded_<b>_loop`` its
separation alone (the compiler drops the rest of the work).
"""

from numba import prange

from collide2d._jit import loop

from .distance_ellipse import contact_ellipse_point, contact_ellipse_polygon, contact_ellipse_segment
from .distance_flat import mirror
from .distance_rounded import (
    contact_rounded_ellipse,
    contact_rounded_line,
    contact_rounded_point,
    contact_rounded_polygon,
    contact_rounded_rounded,
    contact_rounded_segment,
    round_contact,
)
from .loops import store


@loop
def contact_rounded_rounded_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_rounded_rounded(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_rounded_ellipse_loop(pa, va, ia, pb, vb, ib, out):
    # contact_rounded_ellipse's body, so that the core's kernel is the loop's only call at run time
    # (a call that passes arrays is not inlined: one level less is 30-40 ns of a capsule-circle pair)
    for k in prange(ia.shape[0]):
        p = pa[ia[k]]
        count = int(p[1])
        if count == 2:
            r = contact_ellipse_segment(pb[ib[k]], vb, p[3:7], va)
        elif count >= 3:
            r = contact_ellipse_polygon(pb[ib[k]], vb, p[0:2], va)
        else:
            r = contact_ellipse_point(pb[ib[k]], vb, p[3:5], va)
        store(out, k, round_contact(mirror(r), p[2], 0.0))


@loop
def contact_rounded_polygon_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_rounded_polygon(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_rounded_segment_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_rounded_segment(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_rounded_line_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_rounded_line(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def contact_rounded_point_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        store(out, k, contact_rounded_point(pa[ia[k]], va, pb[ib[k]], vb))


@loop
def separation_rounded_rounded_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_rounded_rounded(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_rounded_ellipse_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_rounded_ellipse(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_rounded_polygon_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_rounded_polygon(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_rounded_segment_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_rounded_segment(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_rounded_line_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_rounded_line(pa[ia[k]], va, pb[ib[k]], vb)[0]


@loop
def separation_rounded_point_loop(pa, va, ia, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = contact_rounded_point(pa[ia[k]], va, pb[ib[k]], vb)[0]
