"""Batch loops of the compiled time of impact of turning pairs
(:func:`collide2d._kernels.motion.toi_turning.search_turning`), one per pair of kinds in the
canonical order of ``collide2d._dispatch.KIND_ORDER``: ``toi_turning_<a>_<b>_loop`` runs it with the
contact kernel ``contact_<a>_<b>`` of :mod:`collide2d._kernels.measure` and the relate kernel of
the pair (``swapped``: the pair given as ``(b, a)``).

Beside :mod:`collide2d._kernels.toi_loops` (translation), for the same reason: the motion search
meets the contact and relate kernels here, outside the families. The arguments and the rows are
those of the translation loops; ``rows[k]`` holds the numbers of
:data:`collide2d._kernels.motion.toi_turning.ROW`.
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
from .motion.toi_turning import search_turning
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
def toi_turning_ellipse_ellipse_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_ellipse_ellipse, relate_ellipse_ellipse, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_ellipse_polygon_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_ellipse_polygon, relate_ellipse_polygon, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_ellipse_segment_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_ellipse_segment, relate_ellipse_segment, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_ellipse_line_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_ellipse_line, relate_ellipse_line, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_ellipse_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_ellipse_point, relate_ellipse_point, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_polygon_polygon_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_polygon_polygon, relate_polygon_polygon, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_polygon_segment_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_polygon_segment, relate_polygon_segment, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_polygon_line_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_polygon_line, relate_polygon_line, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_polygon_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_polygon_point, relate_polygon_point, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_segment_segment_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_segment_segment, relate_segment_segment, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_segment_line_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_segment_line, relate_segment_line, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_segment_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_segment_point, relate_segment_point, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_line_line_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_line_line, relate_line_line, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_line_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_line_point, relate_line_point, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_point_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_point_point, relate_point_point, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
