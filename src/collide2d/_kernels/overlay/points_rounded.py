"""Boundary intersection points of a rounded shape (capsule, rounded polygon or box) with an
ellipse, a polygon, a segment, a line or another rounded shape.

Contract: ``points_rounded_any(ka, pa, va, kb, pb, vb, out) -> count``: the crossings of every
piece of one boundary with every piece of the other (:func:`boundary_rounded.all_crossings`:
segments and lines in closed form, a straight piece against an arc as a quadratic in the arc's
unit frame, two circular arcs in closed form, a circular arc against an ellipse by the ellipse-pair
kernel of :mod:`points_ellipse`), each kept when it lies on both pieces; points closer than
``2**-40`` times the smaller shape's size are reported once (a crossing at the joint of a flat
and an arc is found on both). Written to ``out`` (rows of x, y) up to its length. Pairs whose
relation says the boundaries cannot meet are answered by the glue.
"""

import math

from collide2d._jit import kernel

from ..codes import DISJOINT, EQUAL, TOUCHING
from .order_rounded import second_first
from .boundary_rounded import (
    ELLIPSE,
    LINE_KIND,
    POLYGON,
    ROUNDED,
    SEGMENT_KIND,
    all_crossings,
    grown_capacity,
    pair_frame,
    piece_capacity,
    workspace,
)

_SAME_POINT = 2.0**-40


@kernel
def points_rounded_any(ka, pa, va, kb, pb, vb, out):
    """Write the boundary meeting points of a pair into ``out``; return their count."""
    cores_a, cores_b, tables_a, tables_b, ell_a, ell_b, boxes_a, boxes_b, table, order = workspace(
        piece_capacity(ka, pa), piece_capacity(kb, pb))
    return points_rounded_in(ka, pa, va, kb, pb, vb, out, cores_a, cores_b, tables_a, tables_b, ell_a, ell_b, boxes_a,
                             boxes_b, table)


@kernel
def points_rounded_in(ka, pa, va, kb, pb, vb, out, cores_a, cores_b, tables_a, tables_b, ell_a, ell_b, boxes_a, boxes_b,
                      table):
    """:func:`points_rounded_any` in the arrays of a workspace (:func:`boundary_rounded.workspace`,
    large enough for the pair)."""
    scale, ox, oy, size, core_a, r_a, pieces_a, core_b, r_b, pieces_b = pair_frame(
        ka, pa, va, kb, pb, vb, cores_a, cores_b, tables_a, tables_b, ell_a, ell_b)
    cross, m = all_crossings(pieces_a, pieces_b, boxes_a, boxes_b, table)
    return distinct_points(cross, m, size, scale, ox, oy, out)


@kernel
def distinct_points(cross, m, size, scale, ox, oy, out):
    """The first ``m`` crossings of a pair's table (its frame: ``scale``, origin ``ox, oy``, the
    smaller shape's ``size``), back in the world and each once, into ``out``; their count."""
    tol = _SAME_POINT * size
    count = 0
    e = math.frexp(scale)[1] - 1
    for c in range(m):
        x = cross[c, 0]
        y = cross[c, 1]
        fresh = True
        for k in range(c):
            if abs(cross[k, 0] - x) <= tol and abs(cross[k, 1] - y) <= tol:
                fresh = False
                break
        if fresh and count < out.shape[0]:
            out[count, 0] = math.ldexp(x + ox, -e)
            out[count, 1] = math.ldexp(y + oy, -e)
            count += 1
    return count


# -- the pair kernels of the table (the rounded row first): ``(pa, va, pb, vb, relation, out)`` ------
# ``relation`` is the pair's exact relation code. Disjoint and equal boundaries have no meeting
# point to report; a point meets the rounded boundary exactly when it touches it; a touching pair
# whose crossings rounding hid returns -3: the runner then reports the contact's witness, once. A
# touching pair whose kernel found ``k >= 2`` points returns ``-10 - k``: two convex regions whose
# interiors do not meet share a point or a segment (a flat on both sides), so unless the contact is
# flat on both sides the runner reports the witness alone (two crossings a hair apart are one
# tangent point, found twice by rounding: at a tangency within the ellipse band they lie about
# sqrt(band) apart).


@kernel
def _points_rounded_pair(kind_b, pa, va, pb, vb, relation, out):
    if relation == DISJOINT or relation == EQUAL:
        return 0
    return _points_decided(relation, points_rounded_any(int(ROUNDED), pa, va, kind_b, pb, vb, out))


@kernel
def points_rounded_rows(kind_b, pa, va, ia, pb, vb, ib, relation, out, count):
    """The pair kernels' answers on rows ``pa[ia[k]]``, ``pb[ib[k]]`` (the rounded rows first, of
    kind ``kind_b`` the others) into ``out[k]`` and ``count[k]``: one workspace for the whole
    loop, grown when a pair needs more pieces than it holds. Two rounded rows are computed in the
    order of their keys (:func:`order_rounded.second_first`; the relation codes read here do not
    depend on the order)."""
    cores_a, cores_b, tables_a, tables_b, ell_a, ell_b, boxes_a, boxes_b, table, order = workspace(
        int(8), int(8))
    for k in range(ia.shape[0]):
        rel = relation[k]
        if rel == DISJOINT or rel == EQUAL:
            count[k] = 0
            continue
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
        # the body of points_rounded_in, whose 17 array arguments would cost atomic reference counts
        scale, ox, oy, size, core_a, r_a, pieces_a, core_b, r_b, pieces_b = pair_frame(
            int(ROUNDED), row_a, verts_a, kind_b, row_b, verts_b, cores_a, cores_b, tables_a, tables_b, ell_a, ell_b)
        cross, m = all_crossings(pieces_a, pieces_b, boxes_a, boxes_b, table)
        count[k] = _points_decided(int(rel), distinct_points(cross, m, size, scale, ox, oy, out[k]))


@kernel
def _points_decided(relation, count):
    """The count of :func:`points_rounded_any` for a pair of relation ``relation``, with the
    runner's decision codes (see above)."""
    if count == 0 and relation == TOUCHING:
        return -3
    if count >= 2 and relation == TOUCHING:
        return -10 - count
    return count


@kernel
def points_rounded_rounded(pa, va, pb, vb, relation, out):
    """Boundary meeting points of two rounded rows."""
    return _points_rounded_pair(int(ROUNDED), pa, va, pb, vb, relation, out)


@kernel
def points_rounded_ellipse(pa, va, pb, vb, relation, out):
    """Boundary meeting points of a rounded row and an ellipse."""
    return _points_rounded_pair(int(ELLIPSE), pa, va, pb, vb, relation, out)


@kernel
def points_rounded_polygon(pa, va, pb, vb, relation, out):
    """Boundary meeting points of a rounded row and a polygon."""
    return _points_rounded_pair(int(POLYGON), pa, va, pb, vb, relation, out)


@kernel
def points_rounded_segment(pa, va, pb, vb, relation, out):
    """Meeting points of a rounded boundary and a segment."""
    return _points_rounded_pair(int(SEGMENT_KIND), pa, va, pb, vb, relation, out)


@kernel
def points_rounded_line(pa, va, pb, vb, relation, out):
    """Meeting points of a rounded boundary and a line."""
    return _points_rounded_pair(int(LINE_KIND), pa, va, pb, vb, relation, out)


@kernel
def points_rounded_point(pa, va, pb, vb, relation, out):
    """The point itself when it lies on the rounded boundary (``TOUCHING``), else nothing."""
    if relation != TOUCHING:
        return 0
    out[0, 0] = pb[0]
    out[0, 1] = pb[1]
    return 1
