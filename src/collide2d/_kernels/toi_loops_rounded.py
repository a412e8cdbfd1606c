"""Batch loops of the compiled time of impact for pairs with a rounded shape (capsules, rounded
polygons and boxes), as :mod:`collide2d._kernels.toi_loops` for the other kinds:
``toi_rounded_<b>_loop`` runs :func:`~collide2d._kernels.motion.toi.search_translation` with the
contact kernel ``contact_rounded_<b>`` of :mod:`collide2d._kernels.measure.distance_rounded` and
the relate kernel ``relate_rounded_<b>`` of :mod:`collide2d._kernels.relate.rounded` (the rounded
shape first; ``swapped``: the pair given as ``(b, rounded)``).

Each loop asks the closed form of :mod:`collide2d._kernels.motion.toi_closed_rounded` first (the
ray against the grown Minkowski difference of the cores; a rounded shape against a rounded shape,
a polygon, a segment, a point or a circle) and searches only the pairs it leaves undecided (lines,
ellipses other than circles, grazes, the start); :func:`closed_rounded_loop` runs the closed form
alone on a batch as given, before any frame is built (:func:`collide2d.motion.rounded.translation_batch`).

The search is the one of the other kinds, unchanged: the separation of a rounded pair is the
distance of the cores less the sum of the radii (the signed distance to the Minkowski difference
grown by the disc of radius ``r_a + r_b``), convex in time under a translation as for every convex
pair, so the Newton steps of the search never pass its first root. Pair ``k``: the given rows
``ga[index[k, 0]]``, ``gb[index[k, 1]]``, the rows in its frame ``fa[index[k, 2]]``,
``fb[index[k, 3]]``, its numbers ``rows[k]`` (:data:`collide2d._kernels.motion.toi.ROW`);
``out[k] = (code, time, px, py, nx, ny)``.
"""

from numba import prange
from numba.extending import register_jitable

from collide2d._jit import loop

from .measure.distance_rounded import (
    contact_rounded_rounded,
    contact_rounded_ellipse,
    contact_rounded_polygon,
    contact_rounded_segment,
    contact_rounded_line,
    contact_rounded_point,
)
from .motion.toi import search_translation
from .motion.toi_closed_rounded import closed_rounded
from .relate.rounded import (
    relate_rounded_rounded,
    relate_rounded_ellipse_in_band,
    relate_rounded_polygon,
    relate_rounded_segment,
    relate_rounded_line,
    relate_rounded_point,
)

_ROWS = ("index", "rows", "out")


@register_jitable(inline="always")
def _closed(kind_a, pa, verts_a, kind_b, pb, verts_b, row, out):
    """:func:`~collide2d._kernels.motion.toi_closed_rounded.closed_rounded` of a pair of the
    search (its numbers ``row``: the shift of the given ``b``, the velocities, ``t_max``)."""
    return closed_rounded(kind_a, pa, verts_a, kind_b, pb, verts_b, row[0], row[1], row[2], row[3], row[4], row[5],
                          row[15], out)


@loop(rows=_ROWS)
def toi_rounded_rounded_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = _closed(kind_a, ga[i[0]], gva, kind_b, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_rounded_rounded, relate_rounded_rounded, eps, swapped, kind_a, kind_b,
                                      shifted, ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_rounded_ellipse_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = _closed(kind_a, ga[i[0]], gva, kind_b, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_rounded_ellipse, relate_rounded_ellipse_in_band, eps, swapped, kind_a, kind_b,
                                      shifted, ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_rounded_polygon_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = _closed(kind_a, ga[i[0]], gva, kind_b, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_rounded_polygon, relate_rounded_polygon, eps, swapped, kind_a, kind_b,
                                      shifted, ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_rounded_segment_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = _closed(kind_a, ga[i[0]], gva, kind_b, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_rounded_segment, relate_rounded_segment, eps, swapped, kind_a, kind_b,
                                      shifted, ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=_ROWS)
def toi_rounded_line_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        out[k, 0] = search_translation(contact_rounded_line, relate_rounded_line, eps, swapped, kind_a, kind_b, shifted,
                                       ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])


@loop(rows=_ROWS)
def toi_rounded_point_loop(eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, index, rows, out):
    for k in prange(index.shape[0]):
        i = index[k]
        code = _closed(kind_a, ga[i[0]], gva, kind_b, gb[i[1]], gvb, rows[k], out[k])
        if code < 0:
            code = search_translation(contact_rounded_point, relate_rounded_point, eps, swapped, kind_a, kind_b,
                                      shifted, ga[i[0]], gva, gb[i[1]], gvb, fa[i[2]], fva, fb[i[3]], fvb, rows[k], out[k])
        out[k, 0] = code


@loop(rows=("ia", "ib", "va", "vb", "t_max", "out"))
def closed_rounded_loop(kind_a, ga, gva, kind_b, gb, gvb, ia, ib, va, vb, t_max, out):
    """The closed form alone on the pairs ``ga[ia[k]]``, ``gb[ib[k]]`` as given (no shift), before
    any frame is built: ``out[k] = (code, time, px, py, nx, ny)``, the code -1 where the search
    decides (:func:`collide2d.motion.rounded.translation_batch`); the loops above give those
    pairs the same answers."""
    for k in prange(ia.shape[0]):
        out[k, 0] = closed_rounded(kind_a, ga[ia[k]], gva, kind_b, gb[ib[k]], gvb, 0.0, 0.0, va[k, 0], va[k, 1],
                                   vb[k, 0], vb[k, 1], t_max[k], out[k])
