"""Batch loops of the rounded kind's overlay kernels (:mod:`area_rounded`, :mod:`points_rounded`):
``out[k]`` for the pair of rows ``pa[ia[k]]``, ``pb[ib[k]]`` of kinds ``ka``, ``kb``. The pair
tables' loops run their rows in one workspace (:func:`area_rounded.area_rounded_rows`,
:func:`points_rounded.points_rounded_rows`): no array is made per pair."""

from numba import prange

from collide2d._jit import loop

from .area_rounded import area_rounded_region, area_rounded_rows
from .boundary_rounded import ELLIPSE, LINE_KIND, POLYGON, ROUNDED, SEGMENT_KIND
from .points_rounded import points_rounded_any, points_rounded_point, points_rounded_rows


@loop
def area_rounded_region_loop(ka, pa, va, ia, kb, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = area_rounded_region(ka, pa[ia[k]], va, kb, pb[ib[k]], vb)


@loop
def points_rounded_any_loop(ka, pa, va, ia, kb, pb, vb, ib, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_rounded_any(ka, pa[ia[k]], va, kb, pb[ib[k]], vb, out[k])


@loop
def points_rounded_rounded_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    points_rounded_rows(int(ROUNDED), pa, va, ia, pb, vb, ib, relation, out, count)


@loop
def points_rounded_ellipse_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    points_rounded_rows(int(ELLIPSE), pa, va, ia, pb, vb, ib, relation, out, count)


@loop
def points_rounded_polygon_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    points_rounded_rows(int(POLYGON), pa, va, ia, pb, vb, ib, relation, out, count)


@loop
def points_rounded_segment_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    points_rounded_rows(int(SEGMENT_KIND), pa, va, ia, pb, vb, ib, relation, out, count)


@loop
def points_rounded_line_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    points_rounded_rows(int(LINE_KIND), pa, va, ia, pb, vb, ib, relation, out, count)


@loop
def points_rounded_point_loop(pa, va, ia, pb, vb, ib, relation, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_rounded_point(pa[ia[k]], va, pb[ib[k]], vb, relation[k], out[k])


@loop
def area_rounded_rounded_loop(pa, va, ia, pb, vb, ib, relation, out):
    area_rounded_rows(int(ROUNDED), pa, va, ia, pb, vb, ib, relation, out)


@loop
def area_rounded_ellipse_loop(pa, va, ia, pb, vb, ib, relation, out):
    area_rounded_rows(int(ELLIPSE), pa, va, ia, pb, vb, ib, relation, out)


@loop
def area_rounded_polygon_loop(pa, va, ia, pb, vb, ib, relation, out):
    area_rounded_rows(int(POLYGON), pa, va, ia, pb, vb, ib, relation, out)
