"""Batch loops of the compiled time of impact of turning pairs
(:func:`collide2d._kernels.motion.toi_turning.search_turning`), one per pair of kinds in the
canonical order of ``collide2d._dispatch.KIND_ORDER``: ``toi_turning_<a>_<b>_loop`` runs it with the
contact kernel ``contact_<a>_<b>`` of :mod:`collide2d._kernels.measure` and the relate kernel of
the pair (``swapped``: the pair given as ``(b, a)``).

Beside :mod:`collide2d._kernels.toi_loops` (translation), for the same reason: the motion search
meets the contact and relate kernels here, outside the families. The arguments and the rows are
those of the translation loops; ``rows[k]`` holds the numbers of
:data:`collide2d._kernels.motion.toi_turning.ROW`.

Rounded pairs (capsules, rounded polygons and boxes) run in the loop of their cores' kinds with
their radii in the row (see :mod:`collide2d._kernels.motion.toi_turning`); :func:`grown` decides the
sign of their separation within the band, the rounded relate kernels' decision for cores grown by
discs, the same kernel in every loop (compiled once).
"""

import numpy as np
from numba import prange

from collide2d._jit import kernel, loop

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
from .codes import DISJOINT, OVERLAPPING, TOUCHING, UNDECIDED, UNKNOWN_SIGN
from .motion.toi import ELLIPSE, LINE, POINT, POLYGON
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
from .relate.rounded import ELLIPSE_BAND, cores_sign, relate_rounded_line

_ROWS = ("index", "rows", "out")


@kernel
def _vertex_count(kind, row):
    """The number of vertices of a flat core row: a polygon's count, 2 for a segment, 1 for a point."""
    if kind == POLYGON:
        return int(row[1])
    return int(1) if kind == POINT else int(2)


@kernel
def grown(kind_a, ra, wka, radius_a, kind_b, rb, wkb, radius_b, s, scale, eps):
    """The relation code (DISJOINT, TOUCHING, OVERLAPPING or UNDECIDED) of the moved core rows
    ``ra`` (vertices ``wka``) and ``rb`` grown by discs of radii ``radius_a`` and ``radius_b`` (at
    least one positive), whose float separation is ``s`` at the scale ``scale``: the decisions of
    :mod:`collide2d._kernels.relate.rounded` (the rounded shape first there; the codes used here
    are their own mirrors). Two flat cores (points, segments, polygons): the exact sign of the
    distance of the cores less ``radius_a + radius_b`` (:func:`cores_sign`); an ellipse (which is
    never grown): ``s`` against :data:`ELLIPSE_BAND` times ``scale``, as
    :func:`~collide2d._kernels.relate.rounded.relate_rounded_ellipse_in_band` decides it; a line: its
    relate kernel on the grown row."""
    if kind_a == ELLIPSE or kind_b == ELLIPSE:
        band = ELLIPSE_BAND * scale
        if s > band:
            return DISJOINT
        return TOUCHING if s >= -band else OVERLAPPING
    if kind_a == LINE or kind_b == LINE:
        line = kind_a == LINE
        kind = kind_b if line else kind_a
        core = rb if line else ra
        verts = wkb if line else wka
        grown_row = np.zeros(7)  # the rounded row (offset, count, r, x0, y0, x1, y1) of the core
        count = _vertex_count(kind, core)
        grown_row[1] = count
        grown_row[2] = radius_b if line else radius_a
        if count <= 2:
            grown_row[3], grown_row[4] = core[0], core[1]
            grown_row[5], grown_row[6] = core[2 * count - 2], core[2 * count - 1]
        return relate_rounded_line(grown_row, verts, ra if line else rb, wka if line else wkb, eps)
    sign = cores_sign(ra, wka, _vertex_count(kind_a, ra), int(0), radius_a, rb, wkb, _vertex_count(kind_b, rb), int(0),
                      radius_b, eps)[0]
    if sign == UNKNOWN_SIGN:
        return UNDECIDED
    if sign == 1:
        return DISJOINT
    return TOUCHING if sign == 0 else OVERLAPPING


@loop(rows=_ROWS)
def toi_turning_ellipse_ellipse_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_ellipse_ellipse, relate_ellipse_ellipse, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_ellipse_polygon_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_ellipse_polygon, relate_ellipse_polygon, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_ellipse_segment_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_ellipse_segment, relate_ellipse_segment, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_ellipse_line_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_ellipse_line, relate_ellipse_line, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_ellipse_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_ellipse_point, relate_ellipse_point, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_polygon_polygon_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_polygon_polygon, relate_polygon_polygon, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_polygon_segment_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_polygon_segment, relate_polygon_segment, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_polygon_line_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_polygon_line, relate_polygon_line, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_polygon_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_polygon_point, relate_polygon_point, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_segment_segment_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_segment_segment, relate_segment_segment, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_segment_line_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_segment_line, relate_segment_line, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_segment_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_segment_point, relate_segment_point, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_line_line_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_line_line, relate_line_line, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_line_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_line_point, relate_line_point, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_turning_point_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_turning(contact_point_point, relate_point_point, grown, eps, swapped, kind_a, kind_b, shifted,
                                   ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
