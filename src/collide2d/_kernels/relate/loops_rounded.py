"""Batch loops of the rounded relate kernels (:mod:`rounded`), as :mod:`loops` for the others."""

from numba import prange

from collide2d._jit import loop

from .rounded import (
    intersects_rounded_ellipse,
    intersects_rounded_polygon,
    intersects_rounded_rounded,
    intersects_rounded_segment,
    relate_rounded_ellipse,
    relate_rounded_line,
    relate_rounded_point,
    relate_rounded_polygon,
    relate_rounded_rounded,
    relate_rounded_segment,
)


@loop
def relate_rounded_rounded_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_rounded_rounded(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_rounded_ellipse_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_rounded_ellipse(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_rounded_polygon_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_rounded_polygon(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_rounded_segment_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_rounded_segment(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_rounded_line_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_rounded_line(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def relate_rounded_point_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = relate_rounded_point(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def intersects_rounded_rounded_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = intersects_rounded_rounded(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def intersects_rounded_ellipse_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = intersects_rounded_ellipse(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def intersects_rounded_polygon_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = intersects_rounded_polygon(pa[ia[k]], va, pb[ib[k]], vb, eps)


@loop
def intersects_rounded_segment_loop(pa, va, ia, pb, vb, ib, eps, out):
    for k in prange(ia.shape[0]):
        out[k] = intersects_rounded_segment(pa[ia[k]], va, pb[ib[k]], vb, eps)
