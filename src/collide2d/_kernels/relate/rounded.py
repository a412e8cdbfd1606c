"""Relate kernels for the rounded kind (capsules, rounded polygons and boxes) against every kind.

A rounded row ``(offset, count, r, x0, y0, x1, y1)`` is ``A = K + D(r)``: the points within ``r`` of
the convex core ``K`` (the polygon ``va[offset : offset + count]``, the segment ``(x0, y0)-(x1,
y1)`` or the point ``(x0, y0)`` for ``count >= 3``, ``2``, ``1``; see
:mod:`collide2d._kernels.measure.distance_rounded`). Kernels take the rounded shape first and
``r > 0`` (the glue hands rows of radius 0 to the kernels of their core's kind).

Everything reduces to one question: the sign of ``dist(K, X) - R`` for a convex flat ``X`` (a
point, segment, line, polygon or another core) and a radius ``R >= 0``. The closed rounded
shape meets ``X`` iff ``dist <= R``; their interiors meet iff ``dist < R``. That sign is decided
exactly, as a sign of polynomials in the stored numbers (``R^2`` from ``R = ra + rb`` or
``ra - rb``, squared without a square root), through :func:`vec.certain_sign`; undecided rows are
re-run on Fractions by the glue (see :mod:`collide2d._kernels`):

* point ``p`` to segment ``[q0, q1]`` (``e = q1 - q0``, Ericson 5.1.2): ``dist <= R`` iff
  ``|p - q0|^2 <= R^2`` or ``|p - q1|^2 <= R^2`` or (``(p - q0).e >= 0``, ``(p - q1).e <= 0`` and
  ``(e x (p - q0))^2 <= R^2 |e|^2``), and the same with ``<`` for ``dist < R``: at the ends of the
  foot's range the line's distance equals the end point's, so the closed conditions are exact;
* point to polygon: 0 when the point lies in the closed polygon (orientation signs), else the
  least distance to an edge;
* two convex flat sets: 0 when they meet (the existing exact relate kernels), else the least
  distance of a vertex of one to the other (in 2D the distance of disjoint convex polygons is
  attained at a vertex; Ericson 5.1.9 for segments);
* a line: 0 when it meets the set, else the least ``(d x (v - p))^2 / |d|^2`` over the vertices.

Signs are combined as minima: ``sign(min_i d_i - R)`` is -1 as soon as one term is, unknown if a
term is unknown, else the least term.

Relation codes of ``A = K + D(r)`` (a region with ``r > 0``; the boundary has no corners):

* point: DISJOINT / TOUCHING / CONTAINS for ``dist(p, K) - r`` > / = / < 0;
* segment and line: DISJOINT / TOUCHING for ``dist > r`` / ``= r``; otherwise a segment with both
  end points within ``r`` of ``K`` is CONTAINS (``A`` is convex), else CROSSING; a line CROSSING;
* polygon ``P``: DISJOINT / TOUCHING as above; otherwise CONTAINS when every vertex of ``P`` is
  within ``r`` of ``K``, WITHIN when ``K`` lies in ``P`` shrunk by ``r`` (every core vertex ``v``
  at least ``r`` inside every edge line: ``e x (v - q0) >= 0`` and ``(e x (v - q0))^2 >= r^2
  |e|^2``), else OVERLAPPING (never EQUAL: ``A`` has no corners);
* rounded ``B = L + D(s)``: ``dist(K, L)`` against ``r + s``; then ``B`` lies in ``A`` iff
  ``L`` lies in ``K + D(r - s)`` (``s <= r``: every vertex of ``L`` within ``r - s`` of ``K``) or in
  ``K`` shrunk by ``s - r`` (``s > r``, ``K`` a polygon), since the support functions add
  (``h_B = h_L + s``); both ways: EQUAL.

Ellipses
--------
The boundary of an ellipse rounded by a disc is an offset curve of degree 8, which has no short
exact predicate. Ellipse pairs are filtered in floating point with a band (:data:`ELLIPSE_BAND`):
the separation of the ellipse and the core (the exact-feature contact kernels of
:mod:`collide2d._kernels.measure.distance_ellipse`) minus ``r`` gives DISJOINT beyond ``+band``;
``A`` lies in the ellipse when every disc ``D(v, r)`` about a core vertex does (the separation of
``v`` below ``-r - band``). Within ``±band`` of either the kernel returns UNDECIDED and the ladder
decides on the stored numbers (:mod:`collide2d._robust.rounded_ellipse`);
:func:`relate_rounded_ellipse_in_band`, the time of impact searches' relate, says TOUCHING there
(and "within" for a vertex's disc), as those searches certify their times with the band. Whether the ellipse
lies in ``A`` (the largest distance of its boundary from ``K`` at most ``r``) is exact: first the
support functions, ``h_E <= h_K + r`` sampled over each core vertex's normal cone with a bound of
the second derivative between samples (:func:`_support_inside`), certify "inside" or "outside" to
within about 3e-4 of the pair's size; else the best of
:data:`ELLIPSE_SAMPLES` boundary samples plus a Lipschitz bound certifies "inside", a point found
beyond ``r`` (refined by golden-section search) "outside"; between the two the kernel returns
UNDECIDED and the ladder decides on the stored numbers by support functions over the normal cones
of the core's vertices (:mod:`collide2d._robust.ellipse_in_rounded`: roots of polynomials of degree
at most 9, isolated exactly).
"""

import math

from collide2d._jit import kernel

from .. import codes
from ..codes import ELLIPSE_BAND, UNKNOWN_SIGN
from ..measure.distance_ellipse import _ellipse_point_core as ellipse_point_core
from ..measure.distance_flat import point_edge
from ..measure.distance_rounded import ellipse_against_core
from ..vec import certain_sign, dot_sign, orient
from .linear import relate_line_point, relate_point_point, relate_segment_line, relate_segment_point, relate_segment_segment
from .polygon import relate_polygon_line, relate_polygon_point, relate_polygon_polygon, relate_polygon_segment

_NO = 0
_YES = 1
_MAYBE = 2
_IN_BAND = -2  # a rounded-ellipse separation within ELLIPSE_BAND (see _facts_in_bounds)

ELLIPSE_SAMPLES = 96


@kernel
def smin(s, t):
    """``sign(min(d1, d2) - R)`` from ``s = sign(d1 - R)`` and ``t = sign(d2 - R)``."""
    if s == -1 or t == -1:
        return -1
    if s == UNKNOWN_SIGN or t == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    return min(s, t)


@kernel
def point_point_sign(px, py, qx, qy, R2, R2e, eps):
    """Sign of ``|p - q|^2 - R2``; ``R2e`` bounds the error of ``R2`` (0 when exact).

    Two rounded differences, two squares, a sum and a difference: k = 5 (see :mod:`vec`), K = 8.
    """
    dx = px - qx
    dy = py - qy
    d2 = dx * dx + dy * dy
    return certain_sign(d2 - R2, (d2 + R2) * (8 * eps) + R2e)


@kernel
def point_segment_sign(px, py, x0, y0, x1, y1, R2, R2e, eps):
    """Sign of ``dist(p, [q0, q1])^2 - R2`` (module notes).

    ``c = e x (p - q0)`` carries at most ``4 u M`` of error for ``M = |ex wy| + |ey wx|``, so ``c^2``
    at most ``10 u M^2``; ``R2 |e|^2`` at most ``(R2 5u + R2e) |e|^2``; K = 16 on ``M^2 + R2 |e|^2``.
    """
    sa = point_point_sign(px, py, x0, y0, R2, R2e, eps)
    sb = point_point_sign(px, py, x1, y1, R2, R2e, eps)
    ends = smin(sa, sb)
    if ends == -1:
        return -1
    g0 = dot_sign(x0, y0, px, py, x0, y0, x1, y1, eps)  # (p - q0).e
    g1 = dot_sign(x1, y1, px, py, x0, y0, x1, y1, eps)  # (p - q1).e
    if g0 == -1 or g1 == 1:
        return ends  # the foot lies beyond an end: the nearer end point decides
    ex = x1 - x0
    ey = y1 - y0
    wx = px - x0
    wy = py - y0
    c = ex * wy - ey * wx
    M = abs(ex * wy) + abs(ey * wx)
    ee = ex * ex + ey * ey
    sc = certain_sign(c * c - R2 * ee, (M * M + R2 * ee) * (16 * eps) + R2e * ee)
    if g0 == UNKNOWN_SIGN or g1 == UNKNOWN_SIGN:
        # the foot lies at an end within rounding, where the line's distance equals the end's:
        # the term only matters if it tells something else than the ends
        if sc == ends:
            return ends
        return UNKNOWN_SIGN
    return smin(ends, sc)


@kernel
def point_line_sign(px, py, lx, ly, dx, dy, R2, R2e, eps):
    """Sign of ``dist(p, line)^2 - R2`` for the line ``l + t d``: ``(d x (p - l))^2 - R2 |d|^2``."""
    wx = px - lx
    wy = py - ly
    c = dx * wy - dy * wx
    M = abs(dx * wy) + abs(dy * wx)
    dd = dx * dx + dy * dy
    return certain_sign(c * c - R2 * dd, (M * M + R2 * dd) * (16 * eps) + R2e * dd)


@kernel
def vertex_of(row, V, n, i):
    """Vertex ``i`` of a vertex list given as a row: a polygon row ``(offset, count)`` with its
    vertices ``V`` (``n >= 3``), a segment row ``(x0, y0, x1, y1)`` (``n == 2``) or a point row."""
    if n >= 3:
        k = int(row[0]) + i
        return V[k, 0], V[k, 1]
    return row[2 * i], row[2 * i + 1]


@kernel
def point_list_sign(px, py, row, V, n, R2, R2e, eps):
    """Sign of ``dist(p, L) - R`` for the vertex list ``L`` (:func:`vertex_of`)."""
    if n == 1:
        return point_point_sign(px, py, row[0], row[1], R2, R2e, eps)
    if n == 2:
        return point_segment_sign(px, py, row[0], row[1], row[2], row[3], R2, R2e, eps)
    inside = _YES
    s = int(1)
    for i in range(n):
        x0, y0 = vertex_of(row, V, n, i)
        x1, y1 = vertex_of(row, V, n, i + 1 if i + 1 < n else 0)
        o = orient(x0, y0, x1, y1, px, py, eps)
        if o == -1:
            inside = _NO
        elif o == UNKNOWN_SIGN and inside == _YES:
            inside = _MAYBE
        s = smin(s, point_segment_sign(px, py, x0, y0, x1, y1, R2, R2e, eps))
        if s == -1:
            return -1
    if inside == _YES:
        return -1 if R2 > 0 else 0
    if inside == _MAYBE:
        return UNKNOWN_SIGN
    return s


@kernel
def lists_meet(ra, Va, na, rb, Vb, nb, eps):
    """Whether two vertex lists (:func:`vertex_of`) meet: ``_YES``, ``_NO`` or ``_MAYBE``, by the
    exact relate kernels of their kinds."""
    if na >= 3:
        if nb >= 3:
            code = relate_polygon_polygon(ra, Va, rb, Vb, eps)
        elif nb == 2:
            code = relate_polygon_segment(ra, Va, rb, Vb, eps)
        else:
            code = relate_polygon_point(ra, Va, rb, Vb, eps)
    elif na == 2:
        if nb >= 3:
            code = relate_polygon_segment(rb, Vb, ra, Va, eps)
        elif nb == 2:
            code = relate_segment_segment(ra, Va, rb, Vb, eps)
        else:
            code = relate_segment_point(ra, Va, rb, Vb, eps)
    else:
        if nb >= 3:
            code = relate_polygon_point(rb, Vb, ra, Va, eps)
        elif nb == 2:
            code = relate_segment_point(rb, Vb, ra, Va, eps)
        else:
            code = relate_point_point(ra, Va, rb, Vb, eps)
    if code == codes.UNDECIDED:
        return _MAYBE
    return _NO if code == codes.DISJOINT else _YES


@kernel
def list_list_sign(ra, Va, na, rb, Vb, nb, R2, R2e, eps, above_if_apart=False):
    """Sign of ``dist(L1, L2) - R`` for two vertex lists (module notes); ``above_if_apart``: every
    vertex-edge distance is known to exceed ``R`` (:func:`cores_sign`), so disjoint lists decide."""
    meet = lists_meet(ra, Va, na, rb, Vb, nb, eps)
    if meet == _YES:
        return -1 if R2 > 0 else 0
    if above_if_apart and meet == _NO:
        return 1
    s = int(1)
    for i in range(na):
        px, py = vertex_of(ra, Va, na, i)
        s = smin(s, point_list_sign(px, py, rb, Vb, nb, R2, R2e, eps))
        if s == -1:
            return -1
    for j in range(nb):
        px, py = vertex_of(rb, Vb, nb, j)
        s = smin(s, point_list_sign(px, py, ra, Va, na, R2, R2e, eps))
        if s == -1:
            return -1
    if meet == _NO:
        return s
    return UNKNOWN_SIGN


@kernel
def line_list_sign(pl, row, V, n, R2, R2e, eps):
    """Sign of ``dist(line, L) - R`` for the line row ``pl`` and a vertex list."""
    if n >= 3:
        code = relate_polygon_line(row, V, pl, V, eps)
    elif n == 2:
        code = relate_segment_line(row, V, pl, V, eps)
    else:
        code = relate_line_point(pl, V, row, V, eps)
    if code != codes.DISJOINT and code != codes.UNDECIDED:
        return -1 if R2 > 0 else 0
    s = int(1)
    for i in range(n):
        px, py = vertex_of(row, V, n, i)
        s = smin(s, point_line_sign(px, py, pl[0], pl[1], pl[2], pl[3], R2, R2e, eps))
        if s == -1:
            return -1
    if code == codes.UNDECIDED:
        return UNKNOWN_SIGN
    return s


@kernel
def core_row(pa):
    """The vertex-list row of a rounded row's core: the row itself for a polygon (its offset and
    count lead), the stored segment or point otherwise; and its vertex count."""
    n = int(pa[1])
    if n >= 3:
        return pa, n
    if n == 2:
        return pa[3:7], n
    return pa[3:5], n


@kernel
def radius_squares(r, eps):
    """``(R^2, error bound)`` of a radius ``R`` computed with one rounding (``r +- s``)."""
    R2 = r * r
    return R2, R2 * (8 * eps)


@kernel
def inside_shrunk(px, py, row, V, n, R2, R2e, eps):
    """Whether ``p`` lies at least ``R`` inside every edge line of the polygon list (``n >= 3``):
    ``_YES``, ``_NO`` or ``_MAYBE``."""
    out = _YES
    for i in range(n):
        x0, y0 = vertex_of(row, V, n, i)
        x1, y1 = vertex_of(row, V, n, i + 1 if i + 1 < n else 0)
        o = orient(x0, y0, x1, y1, px, py, eps)
        if o == -1:
            return _NO
        ex = x1 - x0
        ey = y1 - y0
        wx = px - x0
        wy = py - y0
        c = ex * wy - ey * wx
        M = abs(ex * wy) + abs(ey * wx)
        ee = ex * ex + ey * ey
        s = certain_sign(c * c - R2 * ee, (M * M + R2 * ee) * (16 * eps) + R2e * ee)
        if s == -1:
            return _NO
        if s == UNKNOWN_SIGN or o == UNKNOWN_SIGN:
            out = _MAYBE
    return out


@kernel
def all_within(row_in, V_in, n_in, row, V, n, R2, R2e, eps):
    """Whether every vertex of the first list is within ``R`` of the second list."""
    out = _YES
    for i in range(n_in):
        px, py = vertex_of(row_in, V_in, n_in, i)
        s = point_list_sign(px, py, row, V, n, R2, R2e, eps)
        if s == 1:
            return _NO
        if s == UNKNOWN_SIGN:
            out = _MAYBE
    return out


@kernel
def all_inside_shrunk(row_in, V_in, n_in, row, V, n, R2, R2e, eps):
    """Whether every vertex of the first list lies at least ``R`` inside the polygon list."""
    if n < 3:
        return _NO
    out = _YES
    for i in range(n_in):
        px, py = vertex_of(row_in, V_in, n_in, i)
        s = inside_shrunk(px, py, row, V, n, R2, R2e, eps)
        if s == _NO:
            return _NO
        if s == _MAYBE:
            out = _MAYBE
    return out


@kernel
def rounded_in(rin, Vin, nin, s_in, row, V, n, r, eps):
    """Whether ``L + D(s_in)`` lies in ``K + D(r)`` (the lists ``L`` and ``K``): module notes."""
    if s_in <= r:
        R2, R2e = radius_squares(r - s_in, eps)
        if s_in == r:
            R2e = R2 * 0  # r - s exactly 0
        return all_within(rin, Vin, nin, row, V, n, R2, R2e, eps)
    R2, R2e = radius_squares(s_in - r, eps)
    return all_inside_shrunk(rin, Vin, nin, row, V, n, R2, R2e, eps)


# -- bounding boxes: a float filter that only decides what rounding cannot change ------------------
# The bounds of K + D(r) are K's bounds grown by r. Two rounded shapes whose grown bounds are apart
# by more than the rounding of the few sums involved are disjoint, and a shape whose grown bounds
# stick out of another's cannot lie in it: each sum ``x +- r`` is off by at most ``u |x +- r|``, so a
# comparison with a margin of ``4 eps (|x| + |y|)`` is certain (exact when ``eps`` is 0, on Fractions).


@kernel
def certainly_less(x, y, eps):
    """``x < y`` for certain, ``x`` and ``y`` each computed with one rounding (exact when eps is 0)."""
    return x < y - 4 * eps * (abs(x) + abs(y))


@kernel
def bounds_apart(A, r, B, s, eps):
    """The bounds ``A`` and ``B`` of two lists, grown by ``r`` and ``s``, are certainly apart."""
    ax0, ay0, ax1, ay1 = A
    bx0, by0, bx1, by1 = B
    return (ax1 + r < bx0 - s - 4 * eps * (abs(ax1 + r) + abs(bx0 - s))
            or bx1 + s < ax0 - r - 4 * eps * (abs(bx1 + s) + abs(ax0 - r))
            or ay1 + r < by0 - s - 4 * eps * (abs(ay1 + r) + abs(by0 - s))
            or by1 + s < ay0 - r - 4 * eps * (abs(by1 + s) + abs(ay0 - r)))


@kernel
def bounds_stick_out(inner, s, outer, r, eps):
    """The bounds ``inner`` of a list grown by ``s`` certainly stick out of ``outer`` grown by
    ``r``: the first rounded shape cannot lie in the second."""
    ix0, iy0, ix1, iy1 = inner
    ox0, oy0, ox1, oy1 = outer
    return (certainly_less(ix0 - s, ox0 - r, eps) or certainly_less(iy0 - s, oy0 - r, eps)
            or certainly_less(ox1 + r, ix1 + s, eps) or certainly_less(oy1 + r, iy1 + s, eps))


# -- float distances: a filter that decides dist(K, L) against R outside a rigorous bound ----------
# For a point p and an edge [q0, q1] (w = p - q0, e = q1 - q0) the float distance is taken at the
# clamped foot t = clamp((w.e) / (e.e), 0, 1): d = w - t e, d2 = |d|^2. The point q0 + t e lies on
# the edge, so the exact |p - (q0 + t e)|^2 bounds dist(p, edge)^2 from above; and t is off the
# exact minimiser's clamped foot by |t - t*| <= 11 u |w| / |e|, where the quadratic is flat, so
# the exact value at t exceeds the least by at most 3 |e|^2 (t - t*)^2 < 400 u^2 |w|^2 (for t* out of
# [0, 1] the clamp only moves t when |t*| is itself within that of 0 or 1). With L bounding every
# coordinate difference of the pair (the width of the pair's bounds), each component of d is off by
# at most 5 u L, so d2 by at most 2 * 4 L * 5 u L + 2 u 8 L^2 = 56 u L^2: in all
# |d2 - dist(p, edge)^2| <= 57 u L^2 (plus the rounding of L itself), below FLOAT_BOUND u L^2. A
# cross product e x w is off by at most 8 u L^2. The distance of two disjoint convex lists is the
# least of their vertex-edge distances (module notes), and any of them bounds the distance of any
# two lists from above.

FLOAT_BOUND = 128


@kernel
def listed(row, n, base):
    """The vertex-list row (:func:`vertex_of`) of a row whose list starts at column ``base`` (3 for
    a rounded row's segment or point core, 0 for a segment's or point's own row)."""
    if n >= 3:
        return row
    return row[base : base + 2 * n]


@kernel
def cores_sign(pa, va, na, base_a, r, pb, vb, nb, base_b, s, eps):
    """``(sign, A, B)``: the sign of ``dist(K, L) - (r + s)`` for the vertex lists ``K`` (``na``
    vertices: ``va`` from the offset ``pa[0]`` when ``na >= 3``, else ``pa`` from column
    ``base_a``) and ``L`` (the same with ``b``), and their bounds ``A`` and ``B``.

    1 at once when the bounds grown by ``r`` and ``s`` are apart; in float mode the float
    distances decide outside their error bound (notes above): -1 when a vertex-edge distance is
    below ``R``, or a vertex lies inside the other polygon (every ``e x (v - q0)`` above the
    bound); 1 when every one is above ``R`` and an edge line has the other list strictly outside;
    else the exact path (:func:`list_list_sign`). The lists are read in place, with no call that
    passes an array on the common path (such calls are not inlined).
    """
    oa = int(pa[0]) if na >= 3 else 0
    ob = int(pb[0]) if nb >= 3 else 0
    ax0, ay0, ax1, ay1 = math.inf, math.inf, -math.inf, -math.inf
    for i in range(na):
        x = va[oa + i, 0] if na >= 3 else pa[base_a + 2 * i]
        y = va[oa + i, 1] if na >= 3 else pa[base_a + 2 * i + 1]
        ax0, ay0, ax1, ay1 = min(ax0, x), min(ay0, y), max(ax1, x), max(ay1, y)
    bx0, by0, bx1, by1 = math.inf, math.inf, -math.inf, -math.inf
    for i in range(nb):
        x = vb[ob + i, 0] if nb >= 3 else pb[base_b + 2 * i]
        y = vb[ob + i, 1] if nb >= 3 else pb[base_b + 2 * i + 1]
        bx0, by0, bx1, by1 = min(bx0, x), min(by0, y), max(bx1, x), max(by1, y)
    A = (ax0, ay0, ax1, ay1)
    B = (bx0, by0, bx1, by1)
    if bounds_apart(A, r, B, s, eps):
        return 1, A, B
    R2, R2e = radius_squares(r + s, eps)
    above = bool(False)
    if eps > 0:
        width = max(max(ax1, bx1) - min(ax0, bx0), max(ay1, by1) - min(ay0, by0))
        err = FLOAT_BOUND * eps * width * width
        below = R2 - R2e - err
        d2 = math.inf
        for phase in range(2):  # 0: vertex-edge distances (and vertices inside); 1: separating edge lines
            for side in range(2):  # 0: the vertices of K against the edges of L; 1: the reverse
                n_p = na if side == 0 else nb
                n_q = nb if side == 0 else na
                edges = n_q if n_q >= 3 else 1  # a point's edge is degenerate: a distance, no line
                for u in range(n_p if phase == 0 else edges):
                    inside = n_q >= 3
                    outer = True
                    inner = n_q == 2
                    for v in range(edges if phase == 0 else n_p):
                        i = u if phase == 0 else v
                        j = v if phase == 0 else u
                        k = j + 1 if j + 1 < n_q else 0
                        # vertex i of the side's first list, edge j -> k of the other
                        pi, qj, qk = (oa + i, ob + j, ob + k) if side == 0 else (ob + i, oa + j, oa + k)
                        px = (va[pi, 0] if na >= 3 else pa[base_a + 2 * i]) if side == 0 else (vb[pi, 0] if nb >= 3 else pb[base_b + 2 * i])
                        py = (va[pi, 1] if na >= 3 else pa[base_a + 2 * i + 1]) if side == 0 else (vb[pi, 1] if nb >= 3 else pb[base_b + 2 * i + 1])
                        x0 = (vb[qj, 0] if nb >= 3 else pb[base_b + 2 * j]) if side == 0 else (va[qj, 0] if na >= 3 else pa[base_a + 2 * j])
                        y0 = (vb[qj, 1] if nb >= 3 else pb[base_b + 2 * j + 1]) if side == 0 else (va[qj, 1] if na >= 3 else pa[base_a + 2 * j + 1])
                        x1 = (vb[qk, 0] if nb >= 3 else pb[base_b + 2 * k]) if side == 0 else (va[qk, 0] if na >= 3 else pa[base_a + 2 * k])
                        y1 = (vb[qk, 1] if nb >= 3 else pb[base_b + 2 * k + 1]) if side == 0 else (va[qk, 1] if na >= 3 else pa[base_a + 2 * k + 1])
                        ex = x1 - x0
                        ey = y1 - y0
                        wx = px - x0
                        wy = py - y0
                        c = ex * wy - ey * wx
                        if phase == 0:
                            inside = inside and c > err
                            ee = ex * ex + ey * ey
                            t = 0.0
                            if ee > 0.0:
                                t = min(max((wx * ex + wy * ey) / ee, 0.0), 1.0)
                            dx = wx - t * ex
                            dy = wy - t * ey
                            d2 = min(d2, dx * dx + dy * dy)
                        else:
                            outer = outer and c < -err
                            inner = inner and c > err
                            if not (outer or inner):
                                break
                    if phase == 0 and (d2 < below or inside and R2 > 0):
                        return -1, A, B
                    if phase == 1 and (outer or inner):
                        return 1, A, B
            above = d2 > R2 + R2e + err
            if not above:
                break
    sign = list_list_sign(listed(pa, na, base_a), va, na, listed(pb, nb, base_b), vb, nb, R2, R2e, eps, above)
    return sign, A, B


# -- the relate kernels (the rounded shape first, r > 0) ------------------------------------------


@kernel
def _code(sign, negative):
    """DISJOINT / TOUCHING / ``negative`` for a sign of ``dist - R`` of 1 / 0 / -1."""
    if sign == UNKNOWN_SIGN:
        return codes.UNDECIDED
    if sign == 1:
        return codes.DISJOINT
    if sign == 0:
        return codes.TOUCHING
    return negative


@kernel
def _relate_rounded_point(pa, va, pb, vb, eps):
    """Rounded a against the point b: CONTAINS, TOUCHING or DISJOINT."""
    row, n = core_row(pa)
    R2, R2e = radius_squares(pa[2], eps)
    return _code(point_list_sign(pb[0], pb[1], row, va, n, R2, R2e, eps), int(codes.CONTAINS))


@kernel
def _relate_rounded_segment(pa, va, pb, vb, eps):
    """Rounded a against the segment b: CONTAINS when both end points lie in a, else CROSSING."""
    s = cores_sign(pa, va, int(pa[1]), int(3), pa[2], pb, vb, int(2), int(0), 0 * pa[2], eps)[0]
    if s != -1:
        return _code(s, int(codes.CROSSING))
    row, n = core_row(pa)
    R2, R2e = radius_squares(pa[2], eps)
    inside = all_within(pb, vb, int(2), row, va, n, R2, R2e, eps)
    if inside == _MAYBE:
        return codes.UNDECIDED
    return codes.CONTAINS if inside == _YES else codes.CROSSING


@kernel
def _relate_rounded_line(pa, va, pb, vb, eps):
    """Rounded a against the line b: CROSSING, TOUCHING or DISJOINT."""
    row, n = core_row(pa)
    R2, R2e = radius_squares(pa[2], eps)
    return _code(line_list_sign(pb, row, va, n, R2, R2e, eps), int(codes.CROSSING))


@kernel
def _relate_rounded_polygon(pa, va, pb, vb, eps):
    """Rounded a against the polygon b: containment by vertices within r, or the core in b shrunk by r."""
    nb = int(pb[1])
    r = pa[2]
    s, A, B = cores_sign(pa, va, int(pa[1]), int(3), r, pb, vb, nb, int(0), 0 * r, eps)
    if s != -1:
        return _code(s, int(codes.OVERLAPPING))
    b_maybe_in_a = not bounds_stick_out(B, 0 * r, A, r, eps)
    a_maybe_in_b = not bounds_stick_out(A, r, B, 0 * r, eps)
    if not (b_maybe_in_a or a_maybe_in_b):
        return codes.OVERLAPPING
    row, n = core_row(pa)
    R2, R2e = radius_squares(r, eps)
    b_in_a = _NO
    if b_maybe_in_a:
        b_in_a = all_within(pb, vb, nb, row, va, n, R2, R2e, eps)
    if b_in_a == _YES:
        return codes.CONTAINS
    a_in_b = _NO
    if a_maybe_in_b:
        a_in_b = all_inside_shrunk(row, va, n, pb, vb, nb, R2, R2e, eps)
    if a_in_b == _YES:
        return codes.WITHIN
    if b_in_a == _MAYBE or a_in_b == _MAYBE:
        return codes.UNDECIDED
    return codes.OVERLAPPING


@kernel
def _relate_rounded_rounded(pa, va, pb, vb, eps):
    """Rounded a against rounded b: ``dist`` of the cores against ``ra + rb``, then containment."""
    s, A, B = cores_sign(pa, va, int(pa[1]), int(3), pa[2], pb, vb, int(pb[1]), int(3), pb[2], eps)
    if s != -1:
        return _code(s, int(codes.OVERLAPPING))
    b_maybe_in_a = not bounds_stick_out(B, pb[2], A, pa[2], eps)
    a_maybe_in_b = not bounds_stick_out(A, pa[2], B, pb[2], eps)
    if not (b_maybe_in_a or a_maybe_in_b):
        return codes.OVERLAPPING
    row_a, na = core_row(pa)
    row_b, nb = core_row(pb)
    b_in_a = _NO
    if b_maybe_in_a:
        b_in_a = rounded_in(row_b, vb, nb, pb[2], row_a, va, na, pa[2], eps)
    a_in_b = _NO
    if a_maybe_in_b:
        a_in_b = rounded_in(row_a, va, na, pa[2], row_b, vb, nb, pb[2], eps)
    if b_in_a == _MAYBE or a_in_b == _MAYBE:
        return codes.UNDECIDED
    if b_in_a == _YES:
        return codes.EQUAL if a_in_b == _YES else codes.CONTAINS
    return codes.WITHIN if a_in_b == _YES else codes.OVERLAPPING


@kernel
def _met(sign):
    """The flag of an intersects kernel from a sign of ``dist - R``: 1, 0 or UNDECIDED."""
    return codes.UNDECIDED if sign == UNKNOWN_SIGN else (1 if sign <= 0 else 0)


@kernel
def _quick_code(sign, A, r, B, s, eps, negative, b_only):
    """The relation code of a pair that :func:`cores_sign` settles alone, else -1: DISJOINT for
    the sign 1; ``negative`` for -1 when the grown bounds of ``b`` stick out of ``a``'s and (unless
    ``b_only``: only ``b`` can lie in ``a``) those of ``a`` out of ``b``'s."""
    if sign == 1:
        return codes.DISJOINT
    if sign == -1 and bounds_stick_out(B, s, A, r, eps) and (b_only or bounds_stick_out(A, r, B, s, eps)):
        return negative
    return -1


# -- exact float stage: a retry without error bounds on a short grid -------------------------------
# The deciding polynomials are of degree four in differences of the stored numbers (``c^2 - R^2
# |e|^2`` with ``c = e x w``). When every number of the pair (radii, coordinates, directions) is an
# integer below 2**11 after one common power-of-two scaling, every difference is below 2**12, every
# such polynomial below 2**53 in magnitude: the float arithmetic is exact, and a re-run with
# ``eps = 0`` gives the exact signs (tile maps and lattices, where exact contact is common). Other
# undecided pairs go to the Fraction path. As :func:`linear.grid_retry`, with fewer bits.

_GRID_BITS = 11


@kernel
def _on_grid(x, scale):
    y = x * scale
    return y == math.floor(y) and abs(y) < 2.0**_GRID_BITS and (y != 0.0 or x == 0.0)


@kernel
def _row_extent(p, v, layout):
    """Largest magnitude of a row's numbers: ``layout`` 0 all of the row, 1 a polygon row's
    vertices, 2 a rounded row's (its radius and core)."""
    m = 0.0
    if layout == 1 or (layout == 2 and int(p[1]) >= 3):
        for i in range(int(p[0]), int(p[0]) + int(p[1])):
            m = max(m, max(abs(v[i, 0]), abs(v[i, 1])))
        if layout == 2:
            m = max(m, abs(p[2]))
    else:
        for i in range(2 if layout == 2 else 0, p.shape[0]):
            m = max(m, abs(p[i]))
    return m


@kernel
def _row_grid(p, v, layout, scale):
    if layout == 1 or (layout == 2 and int(p[1]) >= 3):
        for i in range(int(p[0]), int(p[0]) + int(p[1])):
            if not (_on_grid(v[i, 0], scale) and _on_grid(v[i, 1], scale)):
                return False
        return layout == 1 or _on_grid(p[2], scale)
    for i in range(2 if layout == 2 else 0, p.shape[0]):
        if not _on_grid(p[i], scale):
            return False
    return True


@kernel
def grid_retry(pa, va, pb, vb, layout_b, eps):
    """Float mode: may an undecided pair (a rounded row first, ``pb`` of :func:`_row_extent`'s
    ``layout_b``) be re-run with ``eps = 0``? True when its numbers lie on a common short grid."""
    if not eps > 0:
        return False
    m = max(_row_extent(pa, va, int(2)), _row_extent(pb, vb, layout_b))
    if not (m > 0.0 and m < math.inf):
        return m == 0.0
    scale = math.ldexp(1.0, _GRID_BITS - math.frexp(m)[1])
    return _row_grid(pa, va, int(2), scale) and _row_grid(pb, vb, layout_b, scale)


@kernel
def relate_rounded_point(pa, va, pb, vb, eps):
    """:func:`_relate_rounded_point`, re-run exactly when undecided on a short grid."""
    code = _relate_rounded_point(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED and grid_retry(pa, va, pb, vb, int(0), eps):
        return _relate_rounded_point(pa, va, pb, vb, 0.0)
    return code


@kernel
def relate_rounded_segment(pa, va, pb, vb, eps):
    """:func:`_relate_rounded_segment`, re-run exactly when undecided on a short grid; the pairs that
    :func:`cores_sign` settles alone (:func:`_quick_code`) answered at once."""
    sign, A, B = cores_sign(pa, va, int(pa[1]), int(3), pa[2], pb, vb, int(2), int(0), 0 * pa[2], eps)
    code = _quick_code(sign, A, pa[2], B, 0 * pa[2], eps, int(codes.CROSSING), bool(True))
    if code >= 0:
        return code
    code = _relate_rounded_segment(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED and grid_retry(pa, va, pb, vb, int(0), eps):
        return _relate_rounded_segment(pa, va, pb, vb, 0.0)
    return code


@kernel
def relate_rounded_line(pa, va, pb, vb, eps):
    """:func:`_relate_rounded_line`, re-run exactly when undecided on a short grid. In float mode
    the sides of the core's vertices decide first when every one is certain (``e x w`` is off by at
    most ``4 u M``, ``M = |dx wy| + |dy wx|``): vertices on both sides, or on the line, meet it;
    all on one side, the least distance of a vertex from the line decides (the terms of
    :func:`point_line_sign`), read in place, as :func:`line_list_sign` does with the exact kernel."""
    if eps > 0:
        R2, R2e = radius_squares(pa[2], eps)
        n = int(pa[1])
        off = int(pa[0]) if n >= 3 else 0
        dx, dy = pb[2], pb[3]
        dd = dx * dx + dy * dy
        left = False
        right = False
        sign = int(1)
        for i in range(n):
            wx = (va[off + i, 0] if n >= 3 else pa[3 + 2 * i]) - pb[0]
            wy = (va[off + i, 1] if n >= 3 else pa[4 + 2 * i]) - pb[1]
            c = dx * wy - dy * wx
            M = abs(dx * wy) + abs(dy * wx)
            side = certain_sign(c, 4 * eps * M)
            if side == UNKNOWN_SIGN:
                sign = int(UNKNOWN_SIGN)
                break
            left = left or side >= 0
            right = right or side <= 0
            sign = smin(sign, certain_sign(c * c - R2 * dd, (M * M + R2 * dd) * (16 * eps) + R2e * dd))
        if sign != UNKNOWN_SIGN:
            return codes.CROSSING if left and right else _code(sign, int(codes.CROSSING))
    code = _relate_rounded_line(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED and grid_retry(pa, va, pb, vb, int(0), eps):
        return _relate_rounded_line(pa, va, pb, vb, 0.0)
    return code


@kernel
def relate_rounded_polygon(pa, va, pb, vb, eps):
    """:func:`_relate_rounded_polygon`, re-run exactly when undecided on a short grid; the pairs that
    :func:`cores_sign` settles alone (:func:`_quick_code`) answered at once."""
    sign, A, B = cores_sign(pa, va, int(pa[1]), int(3), pa[2], pb, vb, int(pb[1]), int(0), 0 * pa[2], eps)
    code = _quick_code(sign, A, pa[2], B, 0 * pa[2], eps, int(codes.OVERLAPPING), bool(False))
    if code >= 0:
        return code
    code = _relate_rounded_polygon(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED and grid_retry(pa, va, pb, vb, int(1), eps):
        return _relate_rounded_polygon(pa, va, pb, vb, 0.0)
    return code


@kernel
def relate_rounded_rounded(pa, va, pb, vb, eps):
    """:func:`_relate_rounded_rounded`, re-run exactly when undecided on a short grid; the pairs that
    :func:`cores_sign` settles alone (:func:`_quick_code`) answered at once."""
    sign, A, B = cores_sign(pa, va, int(pa[1]), int(3), pa[2], pb, vb, int(pb[1]), int(3), pb[2], eps)
    code = _quick_code(sign, A, pa[2], B, pb[2], eps, int(codes.OVERLAPPING), bool(False))
    if code >= 0:
        return code
    code = _relate_rounded_rounded(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED and grid_retry(pa, va, pb, vb, int(2), eps):
        return _relate_rounded_rounded(pa, va, pb, vb, 0.0)
    return code


@kernel
def intersects_rounded_rounded(pa, va, pb, vb, eps):
    """1 when rounded a meets the rounded b, 0 when not (:func:`cores_sign`), re-run exactly when
    undecided on a short grid."""
    flag = _met(cores_sign(pa, va, int(pa[1]), int(3), pa[2], pb, vb, int(pb[1]), int(3), pb[2], eps)[0])
    if flag == codes.UNDECIDED and grid_retry(pa, va, pb, vb, int(2), eps):
        return _met(cores_sign(pa, va, int(pa[1]), int(3), pa[2], pb, vb, int(pb[1]), int(3), pb[2], 0.0)[0])
    return flag


@kernel
def intersects_rounded_polygon(pa, va, pb, vb, eps):
    """1 when rounded a meets the polygon b, 0 when not (:func:`cores_sign`), re-run exactly when
    undecided on a short grid."""
    flag = _met(cores_sign(pa, va, int(pa[1]), int(3), pa[2], pb, vb, int(pb[1]), int(0), 0 * pa[2], eps)[0])
    if flag == codes.UNDECIDED and grid_retry(pa, va, pb, vb, int(1), eps):
        return _met(cores_sign(pa, va, int(pa[1]), int(3), pa[2], pb, vb, int(pb[1]), int(0), 0 * pa[2], 0.0)[0])
    return flag


@kernel
def intersects_rounded_segment(pa, va, pb, vb, eps):
    """1 when rounded a meets the segment b, 0 when not (:func:`cores_sign`), re-run exactly when
    undecided on a short grid."""
    flag = _met(cores_sign(pa, va, int(pa[1]), int(3), pa[2], pb, vb, int(2), int(0), 0 * pa[2], eps)[0])
    if flag == codes.UNDECIDED and grid_retry(pa, va, pb, vb, int(0), eps):
        return _met(cores_sign(pa, va, int(pa[1]), int(3), pa[2], pb, vb, int(2), int(0), 0 * pa[2], 0.0)[0])
    return flag


# -- ellipses: decided within ELLIPSE_BAND (module notes) ------------------------------------------


@kernel
def _scale(pa, va, pe):
    """The pair's scale: its largest coordinate or size."""
    m = max(max(abs(pe[0]), abs(pe[1])), max(pe[2], pe[3]))
    m = max(m, pa[2])
    n = int(pa[1])
    if n >= 3:
        off = int(pa[0])
        for i in range(n):
            m = max(m, max(abs(va[off + i, 0]), abs(va[off + i, 1])))
    else:
        for j in range(3, 7):
            m = max(m, abs(pa[j]))
    return m


@kernel
def _ellipse_point_at(pe, t):
    """The boundary point of the ellipse row at the parameter ``t``."""
    cx, cy, a, b, wx, wy = pe[0], pe[1], pe[2], pe[3], pe[4], pe[5]
    norm = math.hypot(wx, wy)
    ux = wx / norm
    uy = wy / norm
    ca = a * math.cos(t)
    sb = b * math.sin(t)
    return cx + ca * ux - sb * uy, cy + ca * uy + sb * ux


@kernel
def _core_distance(px, py, pa, va):
    """Float distance of ``p`` from the core of the rounded row (0 inside a polygon core)."""
    n = int(pa[1])
    if n == 1:
        return math.hypot(px - pa[3], py - pa[4])
    if n == 2:
        return point_edge(px, py, pa[3], pa[4], pa[5], pa[6])[0]
    off = int(pa[0])
    best = math.inf
    inside = True
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        x0, y0, x1, y1 = va[off + i, 0], va[off + i, 1], va[off + j, 0], va[off + j, 1]
        if (x1 - x0) * (py - y0) - (y1 - y0) * (px - x0) < 0.0:
            inside = False
        best = min(best, point_edge(px, py, x0, y0, x1, y1)[0])
    return 0.0 if inside else best


@kernel
def _ellipse_farthest(pe, pa, va):
    """``(sampled, refined)``: the largest distance from the core of :data:`ELLIPSE_SAMPLES` evenly
    spaced boundary points of the ellipse, and the largest found refining the best of them by
    golden-section search between its neighbours."""
    m = ELLIPSE_SAMPLES
    step = 2.0 * math.pi / m
    best = -1.0
    best_k = 0
    for k in range(m):
        x, y = _ellipse_point_at(pe, k * step)
        d = _core_distance(x, y, pa, va)
        if d > best:
            best = d
            best_k = k
    sampled = best
    lo = (best_k - 1) * step
    hi = (best_k + 1) * step
    g = 0.5 * (math.sqrt(5.0) - 1.0)
    for _ in range(60):
        t1 = hi - g * (hi - lo)
        t2 = lo + g * (hi - lo)
        x1, y1 = _ellipse_point_at(pe, t1)
        x2, y2 = _ellipse_point_at(pe, t2)
        d1 = _core_distance(x1, y1, pa, va)
        d2 = _core_distance(x2, y2, pa, va)
        best = max(best, max(d1, d2))
        if d1 >= d2:
            hi = t2
        else:
            lo = t1
    return sampled, best


@kernel
def _ellipse_inside(pe, pa, va, band):
    """Whether the ellipse lies in the rounded shape: ``_YES`` and ``_NO`` with a certificate, else
    ``_MAYBE`` (decided exactly by :mod:`collide2d._robust.ellipse_in_rounded`).

    The distance from the core is 1-Lipschitz and the boundary point ``x(t)`` moves at most
    ``max(a, b)`` per radian, so the distance along the boundary is ``max(a, b)``-Lipschitz in
    ``t``: every boundary point is within ``max(a, b) pi / ELLIPSE_SAMPLES`` of the best sample's
    distance. Below ``r`` by more than that (and the rounding ``band``): inside. A point found
    farther than ``r + band``: outside (the float distances are accurate to a few ulps of the
    pair's scale, far below ``band``)."""
    if _ellipse_tips(pe, pa, va)[1] > pa[2] + 2 * band:  # an end of an axis outside
        return _NO
    certain = _support_inside(pe, pa, va, band, int(ELLIPSE_CONE_STEPS))
    if certain != _MAYBE:
        return certain
    sampled, refined = _ellipse_farthest(pe, pa, va)
    r = pa[2]
    if refined > r + band:
        return _NO
    if sampled + max(pe[2], pe[3]) * (math.pi / ELLIPSE_SAMPLES) + band <= r:
        return _YES
    return _MAYBE


# Steps of the support-function certificate per full turn (module notes, :func:`_support_inside`):
# its slack is ``M (2 pi / steps)^2 / 8``, about 3e-4 of the pair's size at 128 steps (the sampled
# test above leaves a slack of pi / ELLIPSE_SAMPLES, 3e-2, of the ellipse's size).
ELLIPSE_CONE_STEPS = 128


@kernel
def _support_gap(dx, dy, r, a, b, ux, uy, t):
    """``F(t) = (v - c).u + r - h_E(u)`` at ``u = (cos t, sin t)``: the gap between the support
    function of the disc ``D(v, r)`` and that of the ellipse (centre ``c``, radius ``a`` along the
    unit ``(ux, uy)``, ``b`` across), with ``(dx, dy) = v - c``."""
    ct = math.cos(t)
    st = math.sin(t)
    along = a * (ct * ux + st * uy)
    across = b * (st * ux - ct * uy)
    return dx * ct + dy * st + r - math.sqrt(along * along + across * across)


@kernel
def _support_inside(pe, pa, va, band, steps):
    """Whether the ellipse ``pe`` lies in the rounded row, from its support function sampled over
    the normal cones of the core's vertices: ``_YES``, ``_NO`` with a certificate, else ``_MAYBE``.

    Both shapes are convex: the ellipse ``E`` lies in ``A = K + D(r)`` iff ``h_E(u) <= h_K(u) + r``
    for every unit ``u`` (support functions), and ``h_K(u) >= v.u`` for every vertex ``v`` of the
    core, with equality on ``v``'s normal cone (the directions between the outward normals of its
    two edges). So ``F_v(t) = (v - c).u + r - h_E(u) > 0`` on each vertex's cone, the cones
    covering the circle, proves ``E`` in ``A``. On a cone ``F_v`` is smooth: ``(v - c).u`` has
    second derivative ``-(v - c).u <= |v - c|``, and ``-h_E`` has ``h_E - rho`` (``h + h'' = rho``,
    the radius of curvature, for a support function), at most ``a_max - a_min^2 / a_max``. With
    ``F'' <= M`` on a step of width ``w``, ``F`` stays above the chord between its ends less
    ``M w^2 / 8``, so samples each above ``M w^2 / 8`` plus a margin prove ``F > 0`` there. A
    sample below minus the margin proves ``h_E(u) > h_K(u) + r`` (the sample's vertex attains
    ``h_K`` on its cone): the ellipse is not inside.

    Rounding: everything is scaled by a power of two to a largest number in ``[0.5, 1)`` (exact);
    each ``F`` is then accurate to a few ulps of 4 (its terms are at most about that), the cones'
    end angles to an ulp of ``2 pi`` (the points of a gap between cones lie within 1e-15 rad of an
    end, where ``F`` moves by at most ``|v - c| + a_max`` per radian): all far below the margin,
    two bands (``band`` is ``2**-40`` of the pair's scale); a sample off its vertex's true cone by
    such an angle loses at most an edge's length times it. A core with a repeated vertex, or whose
    cones do not sum to a full turn within rounding, is not decided here."""
    scale = _scale(pa, va, pe)
    k = -math.frexp(scale)[1]
    cx = math.ldexp(pe[0], k)
    cy = math.ldexp(pe[1], k)
    a = math.ldexp(pe[2], k)
    b = math.ldexp(pe[3], k)
    r = math.ldexp(pa[2], k)
    margin = math.ldexp(2 * band, k)
    norm = math.hypot(pe[4], pe[5])
    ux = pe[4] / norm
    uy = pe[5] / norm
    big = max(a, b)
    bend = big - min(a, b) * min(a, b) / big  # the bound of -h_E'' (docstring)
    row, n = core_row(pa)
    if n == 1:
        dx = math.ldexp(pa[3], k) - cx
        dy = math.ldexp(pa[4], k) - cy
        return _cone_gap(dx, dy, r, a, b, ux, uy, 0.0, 2 * math.pi, steps, bend, margin)
    # the outward normal angle (ey, -ex) of the edge from the last vertex to vertex 0, then each edge's
    x0, y0 = vertex_of(row, va, n, n - 1)
    x1, y1 = vertex_of(row, va, n, int(0))
    if x0 == x1 and y0 == y1:
        return _MAYBE
    lo = math.atan2(x0 - x1, y1 - y0)
    total = 0.0
    out = _YES
    for i in range(n):
        x0, y0 = vertex_of(row, va, n, i)
        x1, y1 = vertex_of(row, va, n, i + 1 if i + 1 < n else 0)
        if x0 == x1 and y0 == y1:
            return _MAYBE
        hi = math.atan2(x0 - x1, y1 - y0)
        width = (hi - lo) % (2 * math.pi)
        total += width
        dx = math.ldexp(x0, k) - cx
        dy = math.ldexp(y0, k) - cy
        cone = _cone_gap(dx, dy, r, a, b, ux, uy, lo, width, max(2, int(math.ceil(steps * width / (2 * math.pi)))), bend, margin)
        if cone == _NO:
            return _NO
        if cone == _MAYBE:
            out = _MAYBE
        lo = hi
    return out if abs(total - 2 * math.pi) <= 1e-9 else _MAYBE


@kernel
def _cone_gap(dx, dy, r, a, b, ux, uy, lo, width, steps, bend, margin):
    """:func:`_support_gap` on ``[lo, lo + width]`` at ``steps + 1`` evenly spaced samples:
    ``_YES`` when each is above ``margin + M w^2 / 8`` (``M = |v - c| + bend``, ``w`` the step),
    ``_NO`` when one is below ``-margin``, else ``_MAYBE`` (:func:`_support_inside`)."""
    w = width / steps
    slack = margin + (math.hypot(dx, dy) + bend) * w * w / 8 * (1 + 2.0**-40)
    out = _YES
    for j in range(steps + 1):
        t = lo + width if j == steps else lo + j * w
        gap = _support_gap(dx, dy, r, a, b, ux, uy, t)
        if gap < -margin:
            return _NO
        if not gap > slack:
            out = _MAYBE
    return out


@kernel
def _ellipse_bounds(pe):
    """``(xmin, ymin, xmax, ymax)`` of the ellipse row (float, a few ulps of its scale)."""
    norm = math.hypot(pe[4], pe[5])
    ux = pe[4] / norm
    uy = pe[5] / norm
    hx = math.hypot(pe[2] * ux, pe[3] * uy)
    hy = math.hypot(pe[2] * uy, pe[3] * ux)
    return pe[0] - hx, pe[1] - hy, pe[0] + hx, pe[1] + hy


@kernel
def _grown_bounds(pa, va):
    """``(xmin, ymin, xmax, ymax)`` of the rounded row: its core's bounds grown by its radius."""
    row, n = core_row(pa)
    lo_x, lo_y = vertex_of(row, va, n, int(0))
    hi_x, hi_y = lo_x, lo_y
    for i in range(1, n):
        x, y = vertex_of(row, va, n, i)
        lo_x, lo_y, hi_x, hi_y = min(lo_x, x), min(lo_y, y), max(hi_x, x), max(hi_y, y)
    r = pa[2]
    return lo_x - r, lo_y - r, hi_x + r, hi_y + r


@kernel
def _sticks_out(inner, outer, margin):
    """Whether the bounds ``inner`` stick out of ``outer`` by more than ``margin`` on some side."""
    return (inner[0] < outer[0] - margin or inner[1] < outer[1] - margin
            or inner[2] > outer[2] + margin or inner[3] > outer[3] + margin)


@kernel
def _apart(A, B, margin):
    """Whether the bounds ``A`` and ``B`` are apart by more than ``margin`` on some axis."""
    return A[2] + margin < B[0] or B[2] + margin < A[0] or A[3] + margin < B[1] or B[3] + margin < A[1]


@kernel
def _ellipse_apart(pe, pa, va, margin):
    """Whether an edge line of the rounded row's core (either side of a segment, and its
    direction) has the ellipse beyond it by more than ``r + margin``: the core lies on the inner
    side of the line, the ellipse beyond ``c.n - sqrt(a^2 (u.n)^2 + b^2 (v.n)^2)`` (its support)."""
    n = int(pa[1])
    if n < 2:
        return False
    row, n = core_row(pa)
    norm = math.hypot(pe[4], pe[5])
    ux = pe[4] / norm
    uy = pe[5] / norm
    for i in range(n if n >= 3 else 4):
        if n >= 3 or i < 2:  # an edge (a segment: both ways), its outward normal (ey, -ex)
            x0, y0 = vertex_of(row, va, n, i % n)
            x1, y1 = vertex_of(row, va, n, (i + 1) % n)
            nx, ny = y1 - y0, x0 - x1
        else:  # a segment's direction beyond an end: i == 2 beyond b (+e), i == 3 beyond a (-e)
            ax, ay = vertex_of(row, va, n, int(0))
            bx, by = vertex_of(row, va, n, int(1))
            x0, y0, nx, ny = (bx, by, bx - ax, by - ay) if i == 2 else (ax, ay, ax - bx, ay - by)
        length = math.hypot(nx, ny)
        if length == 0.0:  # vertices rounded together (a core moved to 4e148 by a search): no line
            continue
        nx /= length
        ny /= length
        reach = math.hypot(pe[2] * (ux * nx + uy * ny), pe[3] * (ux * ny - uy * nx))
        if (pe[0] - x0) * nx + (pe[1] - y0) * ny - reach > pa[2] + margin:
            return True
    return False


@kernel
def _ellipse_tips(pe, pa, va):
    """``(nearest, farthest)``: the float distances from the core of the rounded row of the ends of
    the ellipse's axes (points of the ellipse)."""
    norm = math.hypot(pe[4], pe[5])
    ux = pe[4] / norm
    uy = pe[5] / norm
    nearest = math.inf
    farthest = 0.0
    for k in range(4):
        h = pe[2] if k < 2 else pe[3]
        sign = 1.0 if k % 2 == 0 else -1.0
        d = _core_distance(pe[0] + sign * h * (ux if k < 2 else -uy), pe[1] + sign * h * (uy if k < 2 else ux), pa, va)
        nearest = min(nearest, d)
        farthest = max(farthest, d)
    return nearest, farthest


# Quick answers of the ellipse pairs from bounds, each certain with a margin of 2 bands (the float
# bounds and distances are accurate to a few ulps of the pair's scale, far below the band), so that
# they agree with the contact kernels' answers within the band: grown bounds apart -> DISJOINT (the
# distance is at least the gap); the ellipse lies between the discs about its centre c of radii
# minor and major, so the separation of the core lies between dist(c, K) - major and dist(c, K) -
# minor: beyond r + 2 bands -> DISJOINT, below r - 2 bands -> they overlap; so do an edge line of
# the core with the ellipse's support beyond it by r + 2 bands (DISJOINT), and an end of an axis of
# the ellipse deeper than 2 bands in the rounded shape (it overlaps: the disc about that point of
# radius r - dist lies in the rounded shape); the rounded shape sticking
# out of the ellipse's bounds -> some core vertex v has v + r e outside, so v's separation is above
# -r + 2 band (not within); the ellipse sticking out of the rounded shape's bounds -> not inside.


@kernel
def _circle_inside(pe, pa, va, band):
    """Whether the circle ``pe`` (radius ``rho``, centre ``c``) lies in the rounded row, decided
    from float distances beyond 2 bands, else ``_MAYBE``. The support functions add: the disc
    lies in ``K + D(r)`` iff ``dist(c, K) <= r - rho`` when ``rho <= r``, and iff ``D(c, rho - r)``
    lies in ``K`` (every edge line at least ``rho - r`` from ``c``, inside; never for a segment or
    point core) when ``rho > r``."""
    rho = pe[2]
    r = pa[2]
    if rho <= r:
        d = _core_distance(pe[0], pe[1], pa, va) - (r - rho)
    elif int(pa[1]) < 3:
        return _NO
    else:
        off = int(pa[0])
        n = int(pa[1])
        depth = math.inf
        for i in range(n):
            j = off + (i + 1 if i + 1 < n else 0)
            ex = va[j, 0] - va[off + i, 0]
            ey = va[j, 1] - va[off + i, 1]
            if ex == 0.0 and ey == 0.0:  # vertices rounded together: no edge line there
                continue
            cross = ex * (pe[1] - va[off + i, 1]) - ey * (pe[0] - va[off + i, 0])
            depth = min(depth, cross / math.hypot(ex, ey))
        if depth == math.inf:  # every vertex on one point: the core is that point (as n < 3)
            return _NO
        d = (rho - r) - depth
    if d < -2 * band:
        return _YES
    if d > 2 * band:
        return _NO
    return _MAYBE


@kernel
def _facts_in_bounds(pa, va, pb, vb, A, E, strict):
    """``(code, a_in_b, band)`` of rounded a and the ellipse b: ``code`` DISJOINT or TOUCHING when
    the separation decides (within :data:`ELLIPSE_BAND`), :data:`_IN_BAND` (``strict``), else -1;
    ``a_in_b`` whether a lies in the ellipse (every disc about a core vertex in it, within the
    band). Given the bounds ``A`` of the rounded row and ``E`` of the ellipse (computed once by
    :func:`_relate_ellipse`). Bounds first (notes above). ``strict``: a separation within
    the band, or a disc about a core vertex within the band of the ellipse's boundary, gives
    ``_IN_BAND`` (the exact rung decides); else TOUCHING and "within" there, as the time of impact
    searches certify their times with the band."""
    r = pa[2]
    band = ELLIPSE_BAND * _scale(pa, va, pb)
    if _apart(A, E, 2 * band):
        return codes.DISJOINT, False, band
    d = _core_distance(pb[0], pb[1], pa, va)
    if d - max(pb[2], pb[3]) - r > 2 * band:
        return codes.DISJOINT, False, band
    overlap = d - min(pb[2], pb[3]) - r < -2 * band  # certain: then no edge line has it beyond
    if not overlap and _ellipse_apart(pb, pa, va, 2 * band):
        return codes.DISJOINT, False, band
    if not (overlap or _ellipse_tips(pb, pa, va)[0] < pa[2] - 2 * band):
        s = ellipse_against_core(pb, vb, pa, va)[0] - r
        if s > band:
            return codes.DISJOINT, False, band
        if s >= -band:
            return (_IN_BAND if strict else codes.TOUCHING), False, band
    if _sticks_out(A, E, 2 * band):
        return -1, False, band
    row, n = core_row(pa)
    norm = math.hypot(pb[4], pb[5])
    for i in range(n):
        px, py = vertex_of(row, va, n, i)
        if r > 2 * band:  # a vertex outside the ellipse (by more than rounding): not within
            ex = ((px - pb[0]) * pb[4] + (py - pb[1]) * pb[5]) / (norm * pb[2])
            ey = ((py - pb[1]) * pb[4] - (px - pb[0]) * pb[5]) / (norm * pb[3])
            if ex * ex + ey * ey > 1.0 + 2.0**-30:
                return -1, False, band
        depth = ellipse_point_core(pb, px, py)[0]
        if depth > -r + band:
            return -1, False, band
        if strict and depth >= -r - band:  # the disc about v within the band of the ellipse's boundary
            return _IN_BAND, False, band
    return -1, True, band


@kernel
def relate_rounded_ellipse(pa, va, pb, vb, eps):
    """Rounded a against the ellipse b: DISJOINT beyond :data:`ELLIPSE_BAND`, the pairs within it
    UNDECIDED (the ladder decides them exactly on the stored numbers), the ellipse in a decided
    with a certificate or UNDECIDED (module notes)."""
    return _relate_ellipse(pa, va, pb, vb, bool(True))


@kernel
def relate_rounded_ellipse_in_band(pa, va, pb, vb, eps):
    """:func:`relate_rounded_ellipse` with the pairs within :data:`ELLIPSE_BAND` TOUCHING (and a
    core vertex's disc within the band of the boundary inside): the relate of the time of impact
    searches, which certify a time of first contact with the band (a touching pair there is the
    answer, not a question for the exact rung)."""
    return _relate_ellipse(pa, va, pb, vb, bool(False))


@kernel
def _relate_ellipse(pa, va, pb, vb, strict):
    """:func:`relate_rounded_ellipse` (``strict``) and :func:`relate_rounded_ellipse_in_band`."""
    A = _grown_bounds(pa, va)
    E = _ellipse_bounds(pb)
    code, a_in_b, band = _facts_in_bounds(pa, va, pb, vb, A, E, strict)
    if code == _IN_BAND:
        return codes.UNDECIDED
    if code >= 0:
        return code
    b_in_a = _NO
    if not _sticks_out(E, A, 2 * band):
        b_in_a = _circle_inside(pb, pa, va, band) if pb[2] == pb[3] else _MAYBE
        if b_in_a == _MAYBE:
            b_in_a = _ellipse_inside(pb, pa, va, band)
    if b_in_a == _MAYBE:
        return codes.UNDECIDED
    if a_in_b:
        return codes.EQUAL if b_in_a == _YES else codes.WITHIN  # EQUAL: a disc and the same circle
    return codes.CONTAINS if b_in_a == _YES else codes.OVERLAPPING


@kernel
def intersects_rounded_ellipse(pa, va, pb, vb, eps):
    """1 when rounded a meets the ellipse b, 0 when it is apart, beyond :data:`ELLIPSE_BAND`;
    UNDECIDED within the band (the exact rung decides); the bounds and the discs about the
    ellipse's centre first (notes above)."""
    band = ELLIPSE_BAND * _scale(pa, va, pb)
    if _apart(_grown_bounds(pa, va), _ellipse_bounds(pb), 2 * band):
        return 0
    d = _core_distance(pb[0], pb[1], pa, va)
    if d - max(pb[2], pb[3]) - pa[2] > 2 * band:
        return 0
    if d - min(pb[2], pb[3]) - pa[2] < -2 * band:  # certain: then no edge line has it beyond
        return 1
    if _ellipse_apart(pb, pa, va, 2 * band):
        return 0
    if _ellipse_tips(pb, pa, va)[0] < pa[2] - 2 * band:
        return 1
    s = ellipse_against_core(pb, vb, pa, va)[0] - pa[2]
    if s > band:
        return 0
    return 1 if s < -band else codes.UNDECIDED
