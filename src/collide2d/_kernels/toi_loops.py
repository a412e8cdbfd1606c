"""Batch loops of the compiled time of impact (:mod:`collide2d._kernels.motion.toi`), one per pair
of kinds in the canonical order of ``collide2d._dispatch.KIND_ORDER``: ``toi_<a>_<b>_loop`` runs
:func:`~collide2d._kernels.motion.toi.search_translation` with the contact kernel
``contact_<a>_<b>`` of :mod:`collide2d._kernels.measure` (``swapped``: the pair given as ``(b, a)``).

This module sits beside the kernel families, not in one: it is where the motion search meets the
contact kernels (the families import nothing from each other). The loops are written out one by
one, as in :mod:`collide2d._kernels.measure.loops`, because Numba caches only module-level
functions; every iteration writes its own row. Pair ``k``: the given rows ``ga[index[k, 0]]``,
``gb[index[k, 1]]``, the rows in its frame ``fa[index[k, 2]]``, ``fb[index[k, 3]]``, its numbers
``rows[k]`` (:data:`collide2d._kernels.motion.toi.ROW`); ``out[k] = (code, time, px, py, nx, ny)``.

The loops of two flat kinds (polygons, segments, lines, points) first ask the closed form of
:mod:`collide2d._kernels.motion.toi_closed` (the slabs of the separating axes) and search only
the pairs it leaves undecided.
"""

from numba import prange

from collide2d._jit import loop

from .measure.distance_ellipse import (  # noqa: E402
    contact_ellipse_ellipse,
    contact_ellipse_polygon,
    contact_ellipse_segment,
    contact_ellipse_line,
    contact_ellipse_point,
)
from .measure.distance_flat import (  # noqa: E402
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
from .motion.toi import search_translation
from .motion.toi_closed import closed_translation
from .motion.toi_ellipse import translate_ellipse_point, translate_ellipses
from .relate.ellipse import (  # noqa: E402
    relate_ellipse_ellipse,
    relate_ellipse_polygon,
    relate_ellipse_segment,
    relate_ellipse_line,
    relate_ellipse_point,
)
from .relate.linear import (  # noqa: E402
    relate_segment_segment,
    relate_segment_line,
    relate_segment_point,
    relate_line_line,
    relate_line_point,
    relate_point_point,
)
from .relate.polygon import (  # noqa: E402
    relate_polygon_polygon,
    relate_polygon_segment,
    relate_polygon_line,
    relate_polygon_point,
)

_ROWS = ("index", "rows", "out")


@loop(rows=_ROWS)
def toi_ellipse_ellipse_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        # the Perram-Wertheim search first (toi_ellipse); what it hands back, the general search
        code = translate_ellipses(ga[i[0]], gb[i[1]], fa[i[2]], fb[i[3]], rows[k], out[k])
        if code < 0:
            code = search_translation(contact_ellipse_ellipse, relate_ellipse_ellipse, eps, swapped, kind_a, kind_b,
                                      shifted, ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_ellipse_polygon_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_translation(contact_ellipse_polygon, relate_ellipse_polygon, eps, swapped, kind_a, kind_b, shifted,
                                       ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_ellipse_segment_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_translation(contact_ellipse_segment, relate_ellipse_segment, eps, swapped, kind_a, kind_b, shifted,
                                       ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_ellipse_line_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_translation(contact_ellipse_line, relate_ellipse_line, eps, swapped, kind_a, kind_b, shifted,
                                       ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_ellipse_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        # the closed form first (toi_ellipse); what it hands back, the general search
        code = translate_ellipse_point(swapped, ga[i[0]], gb[i[1]], fa[i[2]], fb[i[3]], rows[k], out[k])
        if code < 0:
            code = search_translation(contact_ellipse_point, relate_ellipse_point, eps, swapped, kind_a, kind_b,
                                      shifted, ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_polygon_polygon_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = closed_translation(kind_a, kind_b, ga[i[0]], gva, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_polygon_polygon, relate_polygon_polygon, eps, swapped, kind_a, kind_b, shifted,
                                      ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_polygon_segment_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = closed_translation(kind_a, kind_b, ga[i[0]], gva, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_polygon_segment, relate_polygon_segment, eps, swapped, kind_a, kind_b, shifted,
                                      ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_polygon_line_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = closed_translation(kind_a, kind_b, ga[i[0]], gva, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_polygon_line, relate_polygon_line, eps, swapped, kind_a, kind_b, shifted,
                                      ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_polygon_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = closed_translation(kind_a, kind_b, ga[i[0]], gva, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_polygon_point, relate_polygon_point, eps, swapped, kind_a, kind_b, shifted,
                                      ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_segment_segment_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = closed_translation(kind_a, kind_b, ga[i[0]], gva, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_segment_segment, relate_segment_segment, eps, swapped, kind_a, kind_b, shifted,
                                      ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_segment_line_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = closed_translation(kind_a, kind_b, ga[i[0]], gva, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_segment_line, relate_segment_line, eps, swapped, kind_a, kind_b, shifted,
                                      ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_segment_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = closed_translation(kind_a, kind_b, ga[i[0]], gva, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_segment_point, relate_segment_point, eps, swapped, kind_a, kind_b, shifted,
                                      ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_line_line_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = closed_translation(kind_a, kind_b, ga[i[0]], gva, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_line_line, relate_line_line, eps, swapped, kind_a, kind_b, shifted,
                                      ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_line_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = closed_translation(kind_a, kind_b, ga[i[0]], gva, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_line_point, relate_line_point, eps, swapped, kind_a, kind_b, shifted,
                                      ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_point_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = closed_translation(kind_a, kind_b, ga[i[0]], gva, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_point_point, relate_point_point, eps, swapped, kind_a, kind_b, shifted,
                                      ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code
