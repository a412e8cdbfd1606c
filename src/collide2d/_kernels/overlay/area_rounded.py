"""Overlap area of a rounded shape (capsule, rounded polygon or box) with a region: an ellipse,
a polygon or another rounded shape.

Contract: ``area_rounded_region(ka, pa, va, kb, pb, vb) -> float`` for an ``OVERLAPPING`` pair
(the glue answers the other relations from the exact code: 0 or the smaller area); kinds are the
codes of :mod:`boundary_rounded`, either may be the rounded one.

Method: both regions are convex, so the boundary of ``A n B`` is made of the pieces of each
boundary that lie inside the other. Every piece of ``A`` is split at its crossings with the
boundary of ``B`` (:func:`boundary_rounded.all_crossings`, each crossing computed once and shared
by both sub-pieces that end there) and kept when its middle lies inside ``B``, and the same for
``B``; a piece lying on both boundaries (a shared flat, say) is kept from ``A`` only. Green's
theorem then gives the area as half the sum of the chords' cross products (the polygon of the
sub-pieces' ends) plus, for each kept arc, the segment between the arc and its chord, ``a b
(dt - sin dt) / 2`` with ``dt`` the step of eccentric angle (exact for circles and ellipses;
``dt - sin dt`` from its series for small steps, :func:`area_ellipse.segment_area`). The pair is
scaled by a power of two and translated to a vertex of the smaller shape first
(:func:`boundary_rounded.pair_frame`).
"""

import math

from collide2d._jit import kernel

from ..codes import CONTAINS, EQUAL, OVERLAPPING, WITHIN
from .order_rounded import second_first
from .boundary_rounded import (
    _ON_BOUNDARY,
    ELLIPSE,
    POLYGON,
    ROUNDED,
    all_crossings,
    grown_capacity,
    inside_area,
    pair_frame,
    piece_capacity,
    workspace,
)


@kernel
def area_rounded_region(ka, pa, va, kb, pb, vb):
    """Area of the intersection of two overlapping convex regions, one of them rounded."""
    cores_a, cores_b, tables_a, tables_b, ell_a, ell_b, boxes_a, boxes_b, table, order = workspace(
        piece_capacity(ka, pa), piece_capacity(kb, pb))
    return area_rounded_in(ka, pa, va, kb, pb, vb, cores_a, cores_b, tables_a, tables_b, ell_a, ell_b, boxes_a, boxes_b,
                           table, order)


@kernel
def area_rounded_in(ka, pa, va, kb, pb, vb, cores_a, cores_b, tables_a, tables_b, ell_a, ell_b, boxes_a, boxes_b,
                    table, order):
    """:func:`area_rounded_region` in the arrays of a workspace (:func:`boundary_rounded.workspace`,
    large enough for the pair)."""
    scale, ox, oy, size, core_a, r_a, pieces_a, core_b, r_b, pieces_b = pair_frame(
        ka, pa, va, kb, pb, vb, cores_a, cores_b, tables_a, tables_b, ell_a, ell_b)
    cross, m = all_crossings(pieces_a, pieces_b, boxes_a, boxes_b, table)
    cross = cross[:m]
    tol = _ON_BOUNDARY * size
    chord_a, arcs_a = inside_area(pieces_a, boxes_a, cross, int(0), kb, core_b, r_b, ell_b,
                                  bool(True), tol, order)
    chord_b, arcs_b = inside_area(pieces_b, boxes_b, cross, int(1), ka, core_a, r_a, ell_a,
                                  bool(False), tol, order)
    return _area_total(chord_a, arcs_a, chord_b, arcs_b, scale)


@kernel
def _area_total(chord_a, arcs_a, chord_b, arcs_b, scale):
    """The area of Green's sums in the pair's frame, back in the world (``scale`` a power of two)."""
    area = 0.5 * (chord_a + chord_b) + (arcs_a + arcs_b)
    area = max(area, 0.0)
    e = math.frexp(scale)[1] - 1
    return math.ldexp(area, -2 * e)


# -- the pair kernels of the table (the rounded row first): ``(pa, va, pb, vb, relation) -> area`` --
# Disjoint and touching regions share no area; overlapping ones run the kernel above; a nested pair
# returns NaN, and the runner puts in the inner shape's own area (Steiner's formula for a rounded
# one: collide2d._geometry), the same number as the shape's ``area``.


@kernel
def _area_rounded_pair(kind_b, pa, va, pb, vb, relation):
    if relation == OVERLAPPING:
        return area_rounded_region(int(ROUNDED), pa, va, kind_b, pb, vb)
    if relation == CONTAINS or relation == WITHIN or relation == EQUAL:
        return math.nan
    return 0.0


@kernel
def area_rounded_rows(kind_b, pa, va, ia, pb, vb, ib, relation, out):
    """The pair kernels' answers on rows ``pa[ia[k]]``, ``pb[ib[k]]`` (the rounded rows first, of
    kind ``kind_b`` the others) into ``out``: one workspace for the whole loop, grown when a pair
    needs more pieces than it holds. Two rounded rows are computed in the order of their keys
    (:func:`order_rounded.second_first`; the relation codes read here do not depend on the
    order)."""
    cores_a, cores_b, tables_a, tables_b, ell_a, ell_b, boxes_a, boxes_b, table, order = workspace(
        int(8), int(8))
    for k in range(ia.shape[0]):
        rel = relation[k]
        if rel == OVERLAPPING:
            row_a = pa[ia[k]]
            row_b = pb[ib[k]]
            verts_a = va
            verts_b = vb
            if kind_b == ROUNDED and second_first(row_a, va, row_b, vb):  # two rounded rows: in key order
                row_a, row_b = row_b, row_a
                verts_a, verts_b = vb, va
            cap_a, cap_b = grown_capacity(tables_a.shape[0], tables_b.shape[0], int(ROUNDED), row_a, kind_b, row_b)
            if cap_a:
                cores_a, cores_b, tables_a, tables_b, ell_a, ell_b, boxes_a, boxes_b, table, order = workspace(
                    cap_a, cap_b)
            # the body of area_rounded_in, whose 19 array arguments would cost atomic reference counts
            scale, ox, oy, size, core_a, r_a, pieces_a, core_b, r_b, pieces_b = pair_frame(
                int(ROUNDED), row_a, verts_a, kind_b, row_b, verts_b, cores_a, cores_b, tables_a, tables_b, ell_a, ell_b)
            cross, m = all_crossings(pieces_a, pieces_b, boxes_a, boxes_b, table)
            cross = cross[:m]
            tol = _ON_BOUNDARY * size
            chord_a, arcs_a = inside_area(pieces_a, boxes_a, cross, int(0), kind_b, core_b, r_b,
                                          ell_b, bool(True), tol, order)
            chord_b, arcs_b = inside_area(pieces_b, boxes_b, cross, int(1), int(ROUNDED), core_a,
                                          r_a, ell_a, bool(False), tol, order)
            out[k] = _area_total(chord_a, arcs_a, chord_b, arcs_b, scale)
        elif rel == CONTAINS or rel == WITHIN or rel == EQUAL:
            out[k] = math.nan
        else:
            out[k] = 0.0


@kernel
def area_rounded_rounded(pa, va, pb, vb, relation):
    """Overlap area of two rounded rows (NaN for a nested pair)."""
    return _area_rounded_pair(int(ROUNDED), pa, va, pb, vb, relation)


@kernel
def area_rounded_ellipse(pa, va, pb, vb, relation):
    """Overlap area of a rounded row and an ellipse (NaN for a nested pair)."""
    return _area_rounded_pair(int(ELLIPSE), pa, va, pb, vb, relation)


@kernel
def area_rounded_polygon(pa, va, pb, vb, relation):
    """Overlap area of a rounded row and a polygon (NaN for a nested pair)."""
    return _area_rounded_pair(int(POLYGON), pa, va, pb, vb, relation)


# -- sums of many short rows, in NumPy's order --------------------------------------------------------

PAIRWISE_BLOCK = 128  # NumPy's PW_BLOCKSIZE: longer rows are summed by np.sum itself


@kernel
def numpy_order_sum(values, lo, n):
    """``np.sum(values[lo : lo + n])`` bit for bit for ``n <= PAIRWISE_BLOCK``: NumPy's pairwise
    summation (``pairwise_sum_DOUBLE`` in ``numpy/_core/src/umath/loops_utils.h.src``): below 8
    terms one running sum from 0.0; else eight running sums, added as a tree, then the rest."""
    if n < 8:
        res = 0.0
        for i in range(n):
            res += values[lo + i]
        return res
    r0 = values[lo]
    r1 = values[lo + 1]
    r2 = values[lo + 2]
    r3 = values[lo + 3]
    r4 = values[lo + 4]
    r5 = values[lo + 5]
    r6 = values[lo + 6]
    r7 = values[lo + 7]
    i = 8
    while i < n - (n % 8):
        r0 += values[lo + i]
        r1 += values[lo + i + 1]
        r2 += values[lo + i + 2]
        r3 += values[lo + i + 3]
        r4 += values[lo + i + 4]
        r5 += values[lo + i + 5]
        r6 += values[lo + i + 6]
        r7 += values[lo + i + 7]
        i += 8
    res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
    while i < n:
        res += values[lo + i]
        i += 1
    return res


@kernel
def numpy_order_row_sums(values, starts, counts, out):
    """``out[k] = np.sum(values[starts[k] : starts[k] + counts[k]])`` for rows of at most
    :data:`PAIRWISE_BLOCK` terms (other rows are left as they are)."""
    for k in range(starts.shape[0]):
        if counts[k] <= PAIRWISE_BLOCK:
            out[k] = numpy_order_sum(values, starts[k], counts[k])
