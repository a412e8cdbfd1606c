"""Intersection points of the flat kinds: polygon boundary, segment, line and point.

Contract (see :mod:`points_ellipse`): ``points_<a>_<b>(pa, va, pb, vb, relation, out) -> count``
with the kinds in the canonical order polygon, segment, line, point. The "outline" of a polygon is
its boundary; a segment, a line and a point are their own outline.

Where two outlines share a piece of positive length (collinear overlapping edges, a segment lying
on a line), the set of common points is not finite; the kernels report the *end points of the
shared piece* (none for two equal lines or two equal polygon outlines, whose shared piece has no
end; both ends for two equal segments). Isolated common points
are reported once each.

Edge against edge (Ericson, *Real-Time Collision Detection*, 2005, 5.1.9.1, as in
:mod:`linear`): ``d1, d2`` are the sides of ``a, b`` with respect to line ``cd`` and ``d3, d4``
those of ``c, d`` with respect to line ``ab``, each an exact sign (:func:`vec.orient`'s filter,
else :func:`expansion.orient_exact`). A zero side means that end point is the common point and it
is reported as the stored coordinates themselves; only a proper crossing is computed,
``a + t (b - a)`` with ``t = d1' / (d1' - d2')`` (the float cross products). Polygon edges are
half-open ``[v_i, v_{i+1})`` so that a vertex is reported once: a point equal to an excluded end
(exact coordinate comparison, possible because end points are reported exactly) is skipped.

Shared pieces are straight: where the common part of two polygon outlines turns a corner (boxes
sharing a corner and parts of both sides at it), the corner is reported too, as the end of both
pieces. The most points each kernel can write is :data:`CAPACITY` (derivation at its definition):
``2 min(na, nb)`` for two polygons, 2 for a polygon against a segment or a line, for two segments
and for a segment and a line, 1 for the rest.

No exceptions; a count never exceeds the rows of ``out``. No allocation except the small scratch of
:func:`expansion.orient_exact`, reached only for triples collinear within rounding.
"""

from collide2d._jit import kernel

from .. import codes
from ..codes import UNKNOWN_SIGN
from ..expansion import line_side_exact, orient_exact
from ..relate.linear import line_side
from ..vec import orient

_EPS = 2.0**-53


@kernel
def _side(ax, ay, bx, by, px, py):
    """Exact sign of ``(b - a) x (p - a)``: the certified filter, else :func:`expansion.orient_exact`."""
    s = orient(ax, ay, bx, by, px, py, _EPS)
    if s == UNKNOWN_SIGN:
        s = orient_exact(ax, ay, bx, by, px, py)
    return s


@kernel
def _put(out, n, x, y, bx, by, b_open, dx, dy, d_open):
    """Append ``(x, y)`` unless it is an excluded end ``b`` or ``d``, is already in ``out[:n]`` or
    ``out`` is full."""
    if b_open and x == bx and y == by:
        return n
    if d_open and x == dx and y == dy:
        return n
    if n >= out.shape[0]:
        return n
    # two distinct crossings can round to one float point (an edge passing within rounding of a
    # vertex of the other polygon crosses both of its edges there): keep one, by exact comparison
    for k in range(n):
        if out[k, 0] == x and out[k, 1] == y:
            return n
    out[n, 0] = x
    out[n, 1] = y
    return n + 1


@kernel
def edge_edge(ax, ay, bx, by, b_open, cx, cy, dx, dy, d_open, out, n):
    """Append the common points of segments ``[a, b]`` and ``[c, d]`` (ends ``b``/``d`` excluded when
    ``b_open``/``d_open``); see the module docstring."""
    d1 = _side(cx, cy, dx, dy, ax, ay)
    d2 = _side(cx, cy, dx, dy, bx, by)
    if d1 == 0 and d2 == 0:
        # collinear (exactly): the shared interval. Points of the common line are ordered along
        # a -> b by one stored coordinate, x unless the line is vertical, times the sign of that
        # coordinate's change from a to b: exact comparisons, no rounded parameter (as
        # linear.collinear_interval_code), so an end point 1 ulp beyond b is never taken for b.
        if ax != bx:
            sg = 1.0 if bx > ax else -1.0
            lo, tc, td, hi = sg * ax, sg * cx, sg * dx, sg * bx
        else:
            sg = 1.0 if by > ay else -1.0
            lo, tc, td, hi = sg * ay, sg * cy, sg * dy, sg * by
        a_key, b_key = lo, hi
        if tc <= td:
            lo, lox, loy, hi, hix, hiy = tc, cx, cy, td, dx, dy
        else:
            lo, lox, loy, hi, hix, hiy = td, dx, dy, tc, cx, cy
        if lo < a_key:
            lo, lox, loy = a_key, ax, ay
        if hi > b_key:
            hi, hix, hiy = b_key, bx, by
        if lo > hi:
            return n
        n = _put(out, n, lox, loy, bx, by, b_open, dx, dy, d_open)
        if hi > lo:
            n = _put(out, n, hix, hiy, bx, by, b_open, dx, dy, d_open)
        return n
    if d1 * d2 > 0:
        return n
    d3 = _side(ax, ay, bx, by, cx, cy)
    d4 = _side(ax, ay, bx, by, dx, dy)
    if d3 * d4 > 0:
        return n
    if d1 == 0:
        return _put(out, n, ax, ay, bx, by, b_open, dx, dy, d_open)
    if d2 == 0:
        return _put(out, n, bx, by, bx, by, b_open, dx, dy, d_open)
    if d3 == 0:
        return _put(out, n, cx, cy, bx, by, b_open, dx, dy, d_open)
    if d4 == 0:
        return _put(out, n, dx, dy, bx, by, b_open, dx, dy, d_open)
    # proper crossing: f(t) = (d - c) x (a + t (b - a) - c) is linear in t, f(t) = 0 at
    # t = f1 / (f1 - f2). The signs are exact but f1, f2 are rounded: when ab lies along cd within
    # rounding they may tie or lose their sign, and the crossing is ill-conditioned along the
    # edges (any point of both within rounding of the other's line is as good). So t is kept in
    # the parameter range that both segments cover, [0, 1] and the projections tc, td of c, d
    # onto ab (the exact crossing lies in cd, hence between them), and a tie takes the middle of
    # that range instead of 0 / 0. The exact signs say the crossing is interior to both edges, so
    # this pair owns it even if it rounds onto an excluded end: no end exclusion.
    ex = bx - ax
    ey = by - ay
    ee = ex * ex + ey * ey
    tc = ((cx - ax) * ex + (cy - ay) * ey) / ee
    td = ((dx - ax) * ex + (dy - ay) * ey) / ee
    lo = max(0.0, min(tc, td))
    hi = min(1.0, max(tc, td))
    if lo > hi:  # rounding of the projections only: the crossing is then at the meeting place
        lo = hi = 0.5 * (lo + hi)
    f1 = (dx - cx) * (ay - cy) - (dy - cy) * (ax - cx)
    f2 = (dx - cx) * (by - cy) - (dy - cy) * (bx - cx)
    t = f1 / (f1 - f2) if f1 != f2 else 0.5 * (lo + hi)
    t = min(max(t, lo), hi)
    return _put(out, n, ax + t * (bx - ax), ay + t * (by - ay), bx, by, bool(False), dx, dy, bool(False))


@kernel
def edge_line(ax, ay, bx, by, b_open, px, py, ux, uy, out, n):
    """Append the common points of segment ``[a, b]`` (``b`` excluded when ``b_open``) and the line
    ``p + t u``: a segment on the line gives its end points."""
    s1 = line_side(px, py, ux, uy, ax, ay, _EPS)
    s2 = line_side(px, py, ux, uy, bx, by, _EPS)
    if s1 == UNKNOWN_SIGN:
        s1 = line_side_exact(px, py, ux, uy, ax, ay)
    if s2 == UNKNOWN_SIGN:
        s2 = line_side_exact(px, py, ux, uy, bx, by)
    if s1 * s2 > 0:
        return n
    if s1 == 0:
        n = _put(out, n, ax, ay, bx, by, b_open, bx, by, bool(False))
        if s2 == 0:
            n = _put(out, n, bx, by, bx, by, b_open, bx, by, bool(False))
        return n
    if s2 == 0:
        return _put(out, n, bx, by, bx, by, b_open, bx, by, bool(False))
    # crossing of a proper straddle: as in edge_edge (t kept in [0, 1], a tie takes the middle)
    f1 = ux * (ay - py) - uy * (ax - px)
    f2 = ux * (by - py) - uy * (bx - px)
    t = f1 / (f1 - f2) if f1 != f2 else 0.5
    t = min(max(t, 0.0), 1.0)
    return _put(out, n, ax + t * (bx - ax), ay + t * (by - ay), bx, by, bool(False), bx, by, bool(False))


@kernel
def points_polygon_polygon(pa, va, pb, vb, relation, out):
    """Points where two polygon boundaries meet (shared edge pieces by their end points).

    At most ``2 min(na, nb)`` points (:data:`CAPACITY`); equal polygons give none.
    """
    if relation == codes.DISJOINT or relation == codes.EQUAL:
        return 0
    oa = int(pa[0])
    na = int(pa[1])
    ob = int(pb[0])
    nb = int(pb[1])
    n = int(0)
    for i in range(na):
        i0 = oa + i
        i1 = oa + i + 1 if i + 1 < na else oa
        for j in range(nb):
            j0 = ob + j
            j1 = ob + j + 1 if j + 1 < nb else ob
            n = edge_edge(va[i0, 0], va[i0, 1], va[i1, 0], va[i1, 1], bool(True), vb[j0, 0], vb[j0, 1], vb[j1, 0], vb[j1, 1], bool(True), out, n)
    return n


@kernel
def points_polygon_segment(pa, va, pb, vb, relation, out):
    """Points where the segment meets the polygon boundary; at most 2 (a piece along an edge: its ends)."""
    if relation == codes.DISJOINT:
        return 0
    oa = int(pa[0])
    na = int(pa[1])
    n = int(0)
    for i in range(na):
        i0 = oa + i
        i1 = oa + i + 1 if i + 1 < na else oa
        n = edge_edge(va[i0, 0], va[i0, 1], va[i1, 0], va[i1, 1], bool(True), pb[0], pb[1], pb[2], pb[3], bool(False), out, n)
    return n


@kernel
def points_polygon_line(pa, va, pb, vb, relation, out):
    """Points where the line meets the polygon boundary (an edge on the line: its two vertices); at most 2."""
    if relation == codes.DISJOINT:
        return 0
    oa = int(pa[0])
    na = int(pa[1])
    n = int(0)
    for i in range(na):
        i0 = oa + i
        i1 = oa + i + 1 if i + 1 < na else oa
        n = edge_line(va[i0, 0], va[i0, 1], va[i1, 0], va[i1, 1], bool(True), pb[0], pb[1], pb[2], pb[3], out, n)
    return n


@kernel
def _the_point(pb, relation, out):
    """The point ``pb`` itself when it lies on the other outline (any relation but ``DISJOINT``)."""
    if relation == codes.DISJOINT:
        return 0
    out[0, 0] = pb[0]
    out[0, 1] = pb[1]
    return 1


@kernel
def points_polygon_point(pa, va, pb, vb, relation, out):
    """The point when it lies on the polygon boundary (relation ``TOUCHING``); at most 1."""
    if relation != codes.TOUCHING:
        return 0
    return _the_point(pb, relation, out)


@kernel
def points_segment_segment(pa, va, pb, vb, relation, out):
    """The common point of two segments, or the end points of their shared piece (equal segments:
    both ends); at most 2."""
    if relation == codes.DISJOINT:
        return 0
    return edge_edge(pa[0], pa[1], pa[2], pa[3], bool(False), pb[0], pb[1], pb[2], pb[3], bool(False), out, int(0))


@kernel
def points_segment_line(pa, va, pb, vb, relation, out):
    """The crossing point, or both end points when the segment lies on the line; at most 2."""
    if relation == codes.DISJOINT:
        return 0
    return edge_line(pa[0], pa[1], pa[2], pa[3], bool(False), pb[0], pb[1], pb[2], pb[3], out, int(0))


@kernel
def points_segment_point(pa, va, pb, vb, relation, out):
    """The point when it lies on the segment; at most 1."""
    return _the_point(pb, relation, out)


@kernel
def points_line_line(pa, va, pb, vb, relation, out):
    """The crossing point of two lines; none for parallel or equal lines; at most 1."""
    if relation == codes.DISJOINT or relation == codes.EQUAL:
        return 0
    # p + t u = q + s v:  t = ((q - p) x v) / (u x v)
    den = pa[2] * pb[3] - pa[3] * pb[2]
    if den == 0.0:
        return 0
    t = ((pb[0] - pa[0]) * pb[3] - (pb[1] - pa[1]) * pb[2]) / den
    out[0, 0] = pa[0] + t * pa[2]
    out[0, 1] = pa[1] + t * pa[3]
    return 1


@kernel
def points_line_point(pa, va, pb, vb, relation, out):
    """The point when it lies on the line; at most 1."""
    return _the_point(pb, relation, out)


@kernel
def points_point_point(pa, va, pb, vb, relation, out):
    """The point when both are equal; at most 1."""
    return _the_point(pb, relation, out)


# -- capacities (plain Python, for the glue and the tests) -------------------------------------------
#
# The most points each kernel can write, as a function of the vertex counts ``na, nb`` of its
# polygon arguments (0 for the other kinds). Derivation for a polygon P: every reported point lies
# on a closed edge e of P, and is attributed to exactly one half-open edge [v_i, v_{i+1}). A closed
# edge meets a convex outline C in at most two isolated points, or else in one piece along an edge
# of C (the edge's line then supports C, so nothing else of C is on it): at most 2 reported points
# per edge. Hence polygon-polygon writes at most 2 min(na, nb) (reached: two triangles forming a
# hexagram give 6), and a segment or a line (a single edge of unbounded length) meets a polygon
# outline in at most 2 points or one edge (2 end points). Two segments share at most one piece (2
# ends) and a segment meets a line at one point or lies on it (2 ends); two lines cross once (equal
# lines: 0). A kernel never writes more rows than ``out`` has, whatever the capacity.


def capacity_polygon_polygon(na, nb):
    """At most ``2 min(na, nb)`` points: two per edge of either polygon."""
    return 2 * min(na, nb)


def _constant(rows):
    def capacity(na, nb):
        return rows

    capacity.__doc__ = f"At most {rows} point(s), whatever the vertex counts."
    return capacity


CAPACITY = {
    "points_polygon_polygon": capacity_polygon_polygon,
    "points_polygon_segment": _constant(2),
    "points_polygon_line": _constant(2),
    "points_polygon_point": _constant(1),
    "points_segment_segment": _constant(2),
    "points_segment_line": _constant(2),
    "points_segment_point": _constant(1),
    "points_line_line": _constant(1),
    "points_line_point": _constant(1),
    "points_point_point": _constant(1),
}
