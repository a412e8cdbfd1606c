"""Contact kernels for the flat kinds: polygon, segment, line, point (signed distance + witnesses).

Every kernel ``contact_<a>_<b>(pa, va, pb, vb)`` returns the 9-tuple

    ``(separation, nx, ny, pax, pay, pbx, pby, curvature_a, curvature_b)``

with ``point_b - point_a == separation * normal`` (up to rounding) and ``normal`` a unit vector
from ``a`` to ``b``; see :mod:`collide2d._kernels` for the parameter rows.

Frame: world coordinates as stored. Every projection is taken on differences from a vertex of the
shape it measures (translate first), so rounding is relative to the shapes' sizes and gaps, not to
their distance from the origin. Floating point throughout: these are measurements, not predicates,
accurate to a few ulps of the sizes involved; nothing here is exact.

Polygon, segment and point as vertex lists
------------------------------------------
A polygon is ``va[off : off + count]``; a segment is the 2-vertex list ``[x0, y0; x1, y1]`` and a
point the 1-vertex list ``[x, y]`` (views of the parameter row, no copy). :func:`contact_convex`
then treats every pair of the three kinds alike:

* Signed distance: ``s = max over unit u of g(u)`` with
  ``g(u) = min over b of u.b - max over a of u.a = -h_D(-u)`` for the Minkowski difference
  ``D = B - A``. When the shapes overlap or touch (``0 in D``), the maximum is attained at an
  outward facet normal of D, so a finite separating-axis search is exact (Ericson, *Real-Time
  Collision Detection* (2005), 5.2.1; Box2D v3 ``b2FindMaxSeparation`` in ``manifold.c``). The
  candidates are the outward edge normals of A, the inward edge normals of B, and for a segment
  both of its normals and both of its directions (D is flat when a segment is involved, and the
  directions are then facet normals of D). Extra candidates never hurt: ``g(u) <= s`` for every u.
  This is the Minkowski-difference depth: for crossing segments the four candidates ``+-n_A``,
  ``+-n_B`` give the distances of the four end points to the other segment's line, and the
  smallest is the shortest separating translation.
* If the best candidate is positive the shapes are apart and ``s`` is the Euclidean distance,
  found from closest features by brute force over vertex-edge pairs (Ericson 5.1.2; in 2D the
  distance of two disjoint convex polygons is attained at a vertex of one of them). The normal is
  the unit edge normal when the foot lies inside an edge, else the unit vertex-to-vertex vector.
* Witnesses (:func:`witnesses`): ``point_a`` is a's support point in ``normal``, ``point_b`` b's in
  ``-normal``. A support set is a vertex or an edge ("face"); a face gives curvature 0 and a vertex
  curvature ``inf``. When both are faces the witnesses sit at the middle of their common stretch.

Ties between candidate normals go to the first one in the order: a's edges, then b's edges (for a
segment: left normal, right normal, forward, backward). Hence for coincident or touching flat
shapes the normal is deterministic, e.g. a point on a segment gets the segment's left normal.

Argument order of two shapes of one kind
----------------------------------------
That rule, and the frame of each rounding, depend on which shape is a. Two shapes of different
kinds always reach :func:`contact_convex` in one order (the registry mirrors the other), but two
polygons (boxes, rotated boxes) or two segments come in either order, and at a tie the two orders
took different normals (two boxes overlapping by 1 along x and along y: ``(1, 0)`` one way,
``(0, -1)`` the other). So :func:`contact_polygon_polygon` and :func:`contact_segment_segment`
compute in a canonical order and mirror when the arguments came the other way round: a goes
first when its vertex list is first in the order of :func:`goes_first` (more vertices first,
then the vertices' coordinates compared lexicographically in stored order, as Python compares
tuples). ``contact(b, a)`` is then ``contact(a, b)`` mirrored bit for bit (normal negated,
witnesses and curvatures swapped), at ties and everywhere else; only two equal vertex lists (the
same shape twice) keep the one normal for both orders, as no rule can negate it.

Face tolerance
--------------
The support set in direction u grows from the highest vertex along each edge ``e`` with
``u.e >= -FACE_TOL * (|ex| + |ey|)``, ``FACE_TOL = 64 * 2**-53`` (about 7e-15): an edge counts as a
face when it is perpendicular to u within about 7e-15 rad, tested on the edge's own difference
vector (so a short edge of a long shape is judged by its own direction, not within rounding of
the shape's extent). That covers the rounding of a normal computed from an
edge of the same shape and of edges made parallel by construction (boxes, rotated boxes built from
the same angle), and nothing that is visibly not parallel.

Lines
-----
A line has no vertices: :func:`line_convex` projects the other shape on the line's unit left
normal ``m``; with ``lo, hi`` the extreme projections, ``s = lo, n = m`` when ``-lo <= hi`` (also
when the shape lies on the left: ``lo > 0``) and ``s = -hi, n = -m`` otherwise (a translation
along ``m`` is the only useful one: the along-line component moves nothing). Two lines
(:func:`contact_line_line`): parallel (cross product of the directions exactly 0) -> signed
gap along ``m_a``; coincident -> ``s = 0, n = m_a``; crossing -> ``s = -inf`` (no translation
separates them), ``n = m_a``, both witnesses at the crossing point (the identity
``point_b - point_a == s n`` cannot hold there).
"""

import math

import numpy as np

from collide2d._jit import kernel

from ..expansion import expansion_sign, grow_product, orient_expansion
from ..vec import hypot, two_product, two_sum

FACE_TOL = 64.0 * 2.0**-53  # face tolerance (see the module notes), in units of an edge's L1 length
INF = math.inf


@kernel
def mirror(r):
    """The result for the swapped pair: same separation, flipped normal, swapped witnesses."""
    return (r[0], 0.0 - r[1], 0.0 - r[2], r[5], r[6], r[3], r[4], r[8], r[7])


@kernel
def support_chain(V, off, cnt, ux, uy):
    """Support set of the vertex list ``V[off : off + cnt]`` in direction ``u``.

    Returns absolute row indices ``(first, last)`` of the run of consecutive vertices that the
    highest vertex (projections relative to the first vertex) reaches through edges ``e`` nearly
    perpendicular to ``u``: ``u.e >= -FACE_TOL * (|ex| + |ey|)``, an angle of about ``FACE_TOL``
    rad. ``first == last`` for a single vertex. For a polygon the run is in counter-clockwise
    order. Each edge is tested on its own difference vector, so the tolerance is relative to the
    edge's length: a short edge of a long shape (a 1e-6 by 1e9 box) is not a face in every
    direction, as it was with a tolerance relative to the shape's extent.
    """
    x0 = V[off, 0]
    y0 = V[off, 1]
    best = 0.0
    k = 0
    for i in range(1, cnt):
        p = ux * (V[off + i, 0] - x0) + uy * (V[off + i, 1] - y0)
        if p > best:
            best = p
            k = i
    last = k
    steps = 0
    while steps < cnt - 1:  # forward (counter-clockwise) along the face
        j = last + 1 if last + 1 < cnt else 0
        ex = V[off + j, 0] - V[off + last, 0]
        ey = V[off + j, 1] - V[off + last, 1]
        if ux * ex + uy * ey >= -FACE_TOL * (abs(ex) + abs(ey)):
            last = j
            steps += 1
        else:
            break
    first = k
    while steps < cnt - 1:  # backward
        j = first - 1 if first > 0 else cnt - 1
        ex = V[off + j, 0] - V[off + first, 0]
        ey = V[off + j, 1] - V[off + first, 1]
        if ux * ex + uy * ey >= -FACE_TOL * (abs(ex) + abs(ey)):
            first = j
            steps += 1
        else:
            break
    return off + first, off + last


@kernel
def _expansion_value(e, m):
    """The value of the nonoverlapping expansion ``e[:m]``, its components added from the smallest
    (within about an ulp of the exact sum)."""
    value = 0.0
    for i in range(m):
        value += e[i]
    return value


@kernel
def _dot_compensated(wx, dwx, wy, dwy, ex, dex, ey, dey):
    """``(w + dw) . (e + de)`` for vectors given as float plus exact rounding error: the leading
    products exactly (TwoProduct, TwoSum), the terms of the errors in float, their products with
    each other dropped. Off by about ``u |dot| + 5 u^2 |w| |e|`` (``u = 2**-53``), so a dot product
    that cancels (a far point seen nearly across an edge) keeps its digits."""
    hx, lx = two_product(wx, ex)
    hy, ly = two_product(wy, ey)
    s, ds = two_sum(hx, hy)
    return s + (ds + lx + ly + (wx * dex + dwx * ex) + (wy * dey + dwy * ey))


@kernel
def along(px, py, x0, y0, ex, ey):
    """``(p - q) . e / (e . e)``: the position of the foot of ``p`` on the line ``q + t e``.

    ``p - q`` is kept exactly as a sum of two floats (TwoSum) and the dot product compensated
    (:func:`_dot_compensated`), so the foot keeps the accuracy of the shape's size even when ``p``
    is far away: rounding ``p - q`` first would move a foot by an ulp of ``|p - q|`` (1.2e-4 for
    a point 1e12 away). ``e . e > 0`` is the caller's.
    """
    wx, dwx = two_sum(px, -x0)
    wy, dwy = two_sum(py, -y0)
    return _dot_compensated(wx, dwx, wy, dwy, ex, 0.0, ey, 0.0) / (ex * ex + ey * ey)


@kernel
def along_edge(px, py, x0, y0, x1, y1):
    """:func:`along` for the edge from ``q0`` to ``q1``, with ``e = q1 - q0`` also kept exactly as
    a sum of two floats: a rounded ``e`` turns the line by up to an ulp, which moves the foot of a
    far point by its distance times that (1.3e-14 for a point 300 from a unit edge). ``q0 != q1``
    is the caller's.
    """
    wx, dwx = two_sum(px, -x0)
    wy, dwy = two_sum(py, -y0)
    ex, dex = two_sum(x1, -x0)
    ey, dey = two_sum(y1, -y0)
    ee = ex * ex + ey * ey + 2.0 * (ex * dex + ey * dey)
    return _dot_compensated(wx, dwx, wy, dwy, ex, dex, ey, dey) / ee


@kernel
def _onto_face(px, py, V, i0, i1):
    """The point of the face ``[V[i0], V[i1]]`` nearest to the vertex ``p`` of the other shape:
    its foot on the face's line (:func:`along_edge`), or the face end beyond which the foot lies.

    The foot is the witness ``vertex -+ s n`` when ``s, n`` are optimal, computed from the face
    instead (``p - s n`` carries the rounding of ``p``: a point 1e12 from a small box put it 1.3e-4
    inside the box). When rounding made a vertex-to-vertex pair tie with an edge normal the foot may
    lie beyond the face, whose end is then the closest point (a box and a far point beside its
    corner: (1, 0) instead of the corner (1, 1)).
    """
    x0, y0 = V[i0, 0], V[i0, 1]
    ex, ey = V[i1, 0] - x0, V[i1, 1] - y0
    if ex == 0.0 and ey == 0.0:
        return x0, y0
    lam = along_edge(px, py, x0, y0, V[i1, 0], V[i1, 1])
    if lam <= 0.0:
        return x0, y0
    if lam >= 1.0:
        return V[i1, 0], V[i1, 1]
    return x0 + lam * ex, y0 + lam * ey


@kernel
def witnesses(VA, offa, na, VB, offb, nb, s, nx, ny):
    """Witness points and curvatures for separation ``s`` along unit ``n`` (from a to b).

    ``point_a`` is a's support point in ``n``, ``point_b`` b's support point in ``-n``. A vertex
    witness is returned as stored; the other witness is then the vertex's foot on the face
    (:func:`_onto_face`; ``vertex -+ s n`` when ``s, n`` are optimal). Two faces: the middle of the overlap of
    their projections on the tangent ``t = (-ny, nx)`` (the midpoint of the gap if rounding leaves
    none), on a's face, and ``point_b = point_a + s n``.
    """
    a0, a1 = support_chain(VA, offa, na, nx, ny)
    b0, b1 = support_chain(VB, offb, nb, -nx, -ny)
    ka = INF if a0 == a1 else 0.0
    kb = INF if b0 == b1 else 0.0
    if a0 == a1 and b0 == b1:
        pax, pay = VA[a0, 0], VA[a0, 1]
        pbx, pby = VB[b0, 0], VB[b0, 1]
    elif b0 == b1:
        pbx, pby = VB[b0, 0], VB[b0, 1]
        pax, pay = _onto_face(pbx, pby, VA, a0, a1)
    elif a0 == a1:
        pax, pay = VA[a0, 0], VA[a0, 1]
        pbx, pby = _onto_face(pax, pay, VB, b0, b1)
    else:
        ox, oy = VA[a0, 0], VA[a0, 1]
        ex, ey = VA[a1, 0] - ox, VA[a1, 1] - oy
        tx, ty = -ny, nx
        ta1 = tx * ex + ty * ey
        tb0 = tx * (VB[b0, 0] - ox) + ty * (VB[b0, 1] - oy)
        tb1 = tx * (VB[b1, 0] - ox) + ty * (VB[b1, 1] - oy)
        lo = max(min(0.0, ta1), min(tb0, tb1))
        hi = min(max(0.0, ta1), max(tb0, tb1))
        lam = 0.5 * (lo + hi) / ta1 if ta1 != 0.0 else 0.5  # a face is nearly perpendicular to n: ta1 != 0
        lam = min(max(lam, 0.0), 1.0)
        pax, pay = ox + lam * ex, oy + lam * ey
        pbx, pby = pax + s * nx, pay + s * ny
    return pax, pay, pbx, pby, ka, kb


@kernel
def _extremes(VA, offa, na, VB, offb, nb, ux, uy):
    """``(max over a of u.a, min over b of u.b)``, both relative to a's first vertex."""
    ox = VA[offa, 0]
    oy = VA[offa, 1]
    hi = -INF
    for i in range(na):
        hi = max(hi, ux * (VA[offa + i, 0] - ox) + uy * (VA[offa + i, 1] - oy))
    lo = INF
    for j in range(nb):
        lo = min(lo, ux * (VB[offb + j, 0] - ox) + uy * (VB[offb + j, 1] - oy))
    return hi, lo


@kernel
def axis_gap(VA, offa, na, VB, offb, nb, ux, uy):
    """``g(u) = min over b of u.b - max over a of u.a``, both relative to a's first vertex."""
    hi, lo = _extremes(VA, offa, na, VB, offb, nb, ux, uy)
    return lo - hi


@kernel
def edge_region(px, py, x0, y0, x1, y1):
    """Voronoi region of ``p`` for the segment ``[q0, q1]``: 0 beyond q0, 1 beyond q1, 2 inside.

    Ericson 5.1.2 (closest point on a segment) with each end tested from its own difference:
    ``(p - q0).e <= 0`` and ``(p - q1).e >= 0``. Comparing ``(p - q0).e`` with ``e.e`` instead
    misclassifies a point beside the edge near q1 as "beyond q1" when the two agree to rounding,
    and the vertex-to-point direction then lies outside the vertex's normal cone.
    ``q0 == q1`` gives 0.
    """
    ex = x1 - x0
    ey = y1 - y0
    if (px - x0) * ex + (py - y0) * ey <= 0.0:
        return 0
    if (px - x1) * ex + (py - y1) * ey >= 0.0:
        return 1
    return 2


# Relative size below which the float cross product of an edge and a point has lost too many digits
# to cancellation: then it is recomputed from the stored coordinates (:func:`cross_value`).
_CANCELLED = 2.0**-20


@kernel
def cross_value(x0, y0, x1, y1, px, py):
    """``(q1 - q0) x (p - q0)`` computed exactly and rounded once, for cancelling cases.

    The float formula loses everything when the point lies near the line of a long edge (a
    segment of length 6e150 and a point at distance 1: the products are 1e300, the rounding of the
    differences alone 1e134). Here the six products of the expanded determinant are split exactly
    (Dekker's TwoProduct) and summed into a nonoverlapping expansion (Shewchuk 1997,
    Grow-Expansion: :func:`expansion.orient_expansion`), whose components are then added from the
    smallest: within an ulp or two of the exact value while no product overflows (coordinates
    below 2**500 do not).
    """
    e = np.empty(12)
    return _expansion_value(e, orient_expansion(e, x0, y0, x1, y1, px, py))


@kernel
def point_edge(px, py, x0, y0, x1, y1):
    """Distance from ``p`` to the segment ``[q0, q1]`` and the unit direction from its foot to ``p``.

    Regions from :func:`edge_region`. Inside the edge the distance is ``|e x w| / |e|`` with ``w``
    the difference from the nearer end (less cancellation), and the direction is the unit edge
    normal (no cancellation in ``p - foot``). ``q0 == q1`` is allowed (a point). Returns
    ``(d, ux, uy)``; when ``d == 0`` the direction is the edge's left normal, or (1, 0) for a point.
    """
    ex = x1 - x0
    ey = y1 - y0
    ee = ex * ex + ey * ey
    region = edge_region(px, py, x0, y0, x1, y1)
    if region == 2:
        wx = px - x0
        wy = py - y0
        if 2.0 * (wx * ex + wy * ey) > ee:  # nearer to q1
            wx = px - x1
            wy = py - y1
        length = math.sqrt(ee)
        c = ex * wy - ey * wx
        if abs(c) <= _CANCELLED * (abs(ex * wy) + abs(ey * wx)):
            c = cross_value(x0, y0, x1, y1, px, py)
        c = c / length
        sign = 1.0 if c >= 0.0 else -1.0
        return abs(c), sign * (-ey / length), sign * (ex / length)
    if region == 0:
        wx = px - x0
        wy = py - y0
    else:
        wx = px - x1
        wy = py - y1
    d = hypot(wx, wy)
    if d > 0.0:
        return d, wx / d, wy / d
    if ee > 0.0:
        length = math.sqrt(ee)
        return 0.0, -ey / length, ex / length
    return 0.0, 1.0, 0.0


@kernel
def point_edge_squared(px, py, x0, y0, x1, y1):
    """Squared distance from ``p`` to the segment ``[q0, q1]`` (for comparisons: no square root),
    whether the foot lies inside the edge (region 2), and then the cross product
    ``(q1 - q0) x (p - q0)`` (its sign: the side of ``p``; 0 in the other regions).

    The same regions and differences as :func:`point_edge`; inside the edge ``(e x w)^2 / e.e``.
    """
    ex = x1 - x0
    ey = y1 - y0
    region = edge_region(px, py, x0, y0, x1, y1)
    if region == 2:
        ee = ex * ex + ey * ey
        wx = px - x0
        wy = py - y0
        if 2.0 * (wx * ex + wy * ey) > ee:
            wx = px - x1
            wy = py - y1
        c = ex * wy - ey * wx
        if abs(c) <= _CANCELLED * (abs(ex * wy) + abs(ey * wx)):
            c = cross_value(x0, y0, x1, y1, px, py)
        return c * c / ee, True, c
    if region == 0:
        wx = px - x0
        wy = py - y0
    else:
        wx = px - x1
        wy = py - y1
    return wx * wx + wy * wy, False, 0.0


@kernel
def _vertex_against(px, py, V, off, n):
    """The edge of the vertex list ``V[off : off + n]`` nearest to ``p``: ``(d2, inside, c, i)``
    as :func:`point_edge_squared` returns them, for the edge from vertex ``i``.

    A foot inside an edge with ``p`` on its outer side (either side of a segment) wins at once: that
    strip is the edge's Voronoi region, so the foot is the nearest point of the (convex) list. The
    squared distances would not tell: a corner 0.075 off the foot of a point 1e9 away rounds to
    the same or a smaller value. Otherwise the smallest squared distance wins, a tie going to a
    foot inside an edge.
    """
    edges = n if n >= 3 else max(n - 1, 1)
    best = INF
    best_inside = False
    best_c = 0.0
    edge = 0
    for i in range(edges):
        i1 = i + 1 if i + 1 < n else 0
        d2, inside, c = point_edge_squared(px, py, V[off + i, 0], V[off + i, 1], V[off + i1, 0], V[off + i1, 1])
        if inside and (c <= 0.0 or n < 3):  # counter-clockwise polygon: the outer side is c < 0
            return d2, True, c, i
        if d2 < best or (d2 == best and inside and not best_inside):
            best, best_inside, best_c, edge = d2, inside, c, i
    return best, best_inside, best_c, edge


SQUARED_TIE = 2.0**-48  # relative rounding of two squared distances (a few ulps each), with a margin


@kernel
def closest_features(VA, offa, na, VB, offb, nb):
    """Distance of two vertex lists and the unit normal from a to b (brute force), for lists that
    are disjoint or overlap within rounding.

    Every vertex of b against the edges of a and vice versa (:func:`_vertex_against`; a segment
    has one edge, a point none and is tested as a degenerate edge). The vertices are compared by
    squared distance, a tie going to a foot inside an edge (an end point cannot be nearer than the
    foot on its own line, so the squared distances only tied by rounding), and a tie within
    ``SQUARED_TIE`` to a foot in an edge's Voronoi strip; the winner is measured again with
    :func:`point_edge`.

    Returns ``(d, nx, ny, inner)``; ``inner``: the winning vertex lies strictly on the inner side of
    a polygon's edge, with its foot inside the edge (the lists then overlap by about ``d``, and the
    normal points into the polygon of that edge).
    """
    best = INF
    best_inside = False
    best_strip = False
    best_c = 0.0
    side = 0  # 0: vertex of b against an edge of a; 1: vertex of a against an edge of b
    vertex = offb
    edge = 0
    for side_k in range(2):
        V, off, n, W, offw, nw = (VA, offa, na, VB, offb, nb) if side_k == 0 else (VB, offb, nb, VA, offa, na)
        for j in range(nw):
            d2, inside, c, i = _vertex_against(W[offw + j, 0], W[offw + j, 1], V, off, n)
            strip = inside and (c <= 0.0 or n < 3)
            if strip != best_strip:
                # a foot in an edge's Voronoi strip is that vertex's nearest point for certain, a
                # vertex-to-corner distance only rounds close to it (the corners of a unit box
                # seen from 1e9 away): within SQUARED_TIE of each other the strip's foot wins
                better = d2 <= best * (1.0 + SQUARED_TIE) if strip else d2 < best * (1.0 - SQUARED_TIE)
            else:
                better = d2 < best or (d2 == best and inside and not best_inside)
            if better:
                best, best_inside, best_strip, best_c, side, vertex, edge = d2, inside, strip, c, side_k, offw + j, i
    V, off, n, W = (VA, offa, na, VB) if side == 0 else (VB, offb, nb, VA)  # the edge's list, the vertex's
    i0 = off + edge
    i1 = off + edge + 1 if edge + 1 < n else off
    d, ux, uy = point_edge(W[vertex, 0], W[vertex, 1], V[i0, 0], V[i0, 1], V[i1, 0], V[i1, 1])
    inner = n >= 3 and best_inside and best_c > 0.0 and d > 0.0  # left of a counter-clockwise edge
    if side == 0:
        return d, ux, uy, inner
    return d, -ux, -uy, inner  # the direction ran from b's edge to a's vertex


@kernel
def _edge_candidates(VA, offa, na, VB, offb, nb, V, off, cnt, sign, best, bx, by):
    """Try the edge normals of the vertex list ``V`` (``sign`` -1 turns outward into inward)."""
    if cnt >= 3:
        for i in range(cnt):
            i1 = i + 1 if i + 1 < cnt else 0
            ex = V[off + i1, 0] - V[off + i, 0]
            ey = V[off + i1, 1] - V[off + i, 1]
            length = hypot(ex, ey)
            if length == 0.0:  # coincident vertices (rounded together by a move): no edge there
                continue
            ux = sign * ey / length  # outward normal of a counter-clockwise edge: (ey, -ex) / |e|
            uy = -sign * ex / length
            g = axis_gap(VA, offa, na, VB, offb, nb, ux, uy)
            if g > best:
                best, bx, by = g, ux, uy
    elif cnt == 2:
        ex = V[off + 1, 0] - V[off, 0]
        ey = V[off + 1, 1] - V[off, 1]
        length = hypot(ex, ey)
        if length == 0.0:  # a segment whose ends coincide: no axis of its own (see contact_convex)
            return best, bx, by
        ex /= length
        ey /= length
        for k in range(4):  # left normal, right normal, forward, backward
            if k == 0:
                ux, uy = -ey, ex
            elif k == 1:
                ux, uy = ey, -ex
            elif k == 2:
                ux, uy = ex, ey
            else:
                ux, uy = -ex, -ey
            g = axis_gap(VA, offa, na, VB, offb, nb, ux, uy)
            if g > best:
                best, bx, by = g, ux, uy
    return best, bx, by


@kernel
def _axis_scale(VA, offa, na, VB, offb, nb, ux, uy):
    """The magnitude of the projections that decide :func:`axis_gap` along ``u``, whose rounding
    error is a few ulps of it: the largest ``|ux dx| + |uy dy|`` (``d`` taken from a's first
    vertex) over the vertices that may attain a's largest or b's smallest projection, each
    projection being off by at most ``FACE_TOL`` of its own magnitude.

    A vertex that cannot attain the extreme does not count: the top corners of a 1e-6 by 0.125 box
    inside a 1e9 tall one project with errors of 1e-7 along ``+y`` but decide nothing, and
    counting them took the depth 1e-6 for rounding (a separation of 0 instead of -1e-6).
    """
    ox = VA[offa, 0]
    oy = VA[offa, 1]
    hi, lo = _extremes(VA, offa, na, VB, offb, nb, ux, uy)
    out = 0.0
    for i in range(na):
        dx = VA[offa + i, 0] - ox
        dy = VA[offa + i, 1] - oy
        m = abs(ux * dx) + abs(uy * dy)
        if ux * dx + uy * dy + FACE_TOL * m >= hi:
            out = max(out, m)
    for j in range(nb):
        dx = VB[offb + j, 0] - ox
        dy = VB[offb + j, 1] - oy
        m = abs(ux * dx) + abs(uy * dy)
        if ux * dx + uy * dy - FACE_TOL * m <= lo:
            out = max(out, m)
    return out


@kernel
def _distinct_count(V, off, n):
    """``n``, or 1 when the ``n`` vertices of the list are one point: a segment or polygon whose
    vertices rounded together (a unit segment moved to 4e148 by a search) is that point."""
    for i in range(1, n):
        if V[off + i, 0] != V[off, 0] or V[off + i, 1] != V[off, 1]:
            return n
    return min(n, 1)


@kernel
def contact_convex(VA, offa, na, VB, offb, nb):
    """Contact of two vertex lists (polygon, segment or point each); see the module notes. A list
    whose vertices are one point is that point (:func:`_distinct_count`)."""
    na = _distinct_count(VA, offa, na)
    nb = _distinct_count(VB, offb, nb)
    if na == 1 and nb == 1:  # two points: the gap vector, or (1, 0) when they coincide
        dx = VB[offb, 0] - VA[offa, 0]
        dy = VB[offb, 1] - VA[offa, 1]
        d = hypot(dx, dy)
        nx, ny = (dx / d, dy / d) if d > 0.0 else (1.0, 0.0)
        return (d, nx, ny, VA[offa, 0], VA[offa, 1], VB[offb, 0], VB[offb, 1], INF, INF)
    best, nx, ny = _edge_candidates(VA, offa, na, VB, offb, nb, VA, offa, na, 1.0, -INF, 1.0, 0.0)
    best, nx, ny = _edge_candidates(VA, offa, na, VB, offb, nb, VB, offb, nb, -1.0, best, nx, ny)
    s = best
    if best > 0.0 or best > -FACE_TOL * _axis_scale(VA, offa, na, VB, offb, nb, nx, ny):
        # apart: the SAT value is only a lower bound (vertex-vertex); measure exactly. Also when
        # the SAT value is negative within its rounding (projections of long shapes: a point at
        # distance 1 from a segment of length 6e150 projects with errors of 1e135): the closest
        # features then decide, and the exact predicates settle the sign (collide2d.measurement).
        d, ux, uy, inner = closest_features(VA, offa, na, VB, offb, nb)
        if inner:
            # a vertex inside a polygon, near an edge (a point 5.5e-17 inside the hypotenuse of a
            # unit triangle): an overlap of depth d along the edge's outward normal, not a gap
            # of d along its inward one (whose support on a is the opposite vertex). For a point
            # that depth is the separation itself, measured more closely than the SAT's value.
            d, ux, uy = -d, -ux, -uy
        # a tie with a positive gap: a vertex-to-vertex distance may round to the gap along an
        # edge normal (a point far beside a box corner); the closest features' direction is the
        # right one then. A zero gap (touching) keeps the SAT normal.
        if d == 0.0 and best < 0.0 and not inner:
            # touching (a vertex on the other's boundary) with the SAT value below 0 by rounding:
            # the closest features have no direction at zero distance (point_edge then reports the
            # edge's left normal, which may point into b: two segments sharing an end point), the
            # SAT normal is a separating axis within rounding and stays
            s = 0.0
        elif (inner and min(na, nb) == 1) or d > best or (best > 0.0 and d == best):
            s, nx, ny = d, ux, uy
    pax, pay, pbx, pby, ka, kb = witnesses(VA, offa, na, VB, offb, nb, s, nx, ny)
    if best > 0.0 and ka == INF and kb == INF:
        # Vertex to vertex: measure between the two witnesses themselves. Two vertices of b can be
        # equally far from a to float precision (a tiny shape far away) and the brute force and
        # the support search may pick different ones; this keeps point_b - point_a == s n.
        dx = pbx - pax
        dy = pby - pay
        d = hypot(dx, dy)
        if d > 0.0:
            s, nx, ny = d, dx / d, dy / d
    return (s, nx + 0.0, ny + 0.0, pax, pay, pbx, pby, ka, kb)  # + 0.0: no -0.0 components


@kernel
def line_convex(px, py, dx, dy, V, off, cnt):
    """Contact of the line ``p + t d`` (as a) with a vertex list (as b); see the module notes."""
    length = hypot(dx, dy)
    mx = -dy / length
    my = dx / length
    lo = INF
    hi = -INF
    for k in range(cnt):
        h = mx * (V[off + k, 0] - px) + my * (V[off + k, 1] - py)
        lo = min(lo, h)
        hi = max(hi, h)
    if -lo <= hi:  # b left of the line, or crossing it with less of it on the right
        s, nx, ny = lo, mx, my
    else:
        s, nx, ny = -hi, -mx, -my
    b0, b1 = support_chain(V, off, cnt, -nx, -ny)
    if b0 == b1:
        pbx, pby, kb = V[b0, 0], V[b0, 1], INF
    else:  # a face parallel to the line: its midpoint
        pbx, pby, kb = 0.5 * (V[b0, 0] + V[b1, 0]), 0.5 * (V[b0, 1] + V[b1, 1]), 0.0
    # a's witness: the foot of b's, ``pb - s n`` or ``p + lam d`` (lam from :func:`along`),
    # whichever adds smaller numbers: each is off by a few ulps of its larger term (a point 1e12
    # from a line through the origin: ``pb - s n`` loses 1e-4, ``p + lam d`` nothing)
    lam = along(pbx, pby, px, py, dx, dy)
    if max(abs(px), abs(py), abs(lam) * max(abs(dx), abs(dy))) < max(abs(pbx), abs(pby), abs(s)):
        pax, pay = px + lam * dx, py + lam * dy
    else:
        pax, pay = pbx - s * nx, pby - s * ny
    return (s, nx + 0.0, ny + 0.0, pax, pay, pbx, pby, 0.0, kb)


# -- the kernels -------------------------------------------------------------------------------


@kernel
def goes_first(VA, offa, na, VB, offb, nb):
    """Whether the vertex list a comes before b in the canonical order of a pair of one kind: more
    vertices first, then the coordinates ``x0, y0, x1, y1, ...`` compared lexicographically (the
    smaller first); equal lists keep their order (True). See "Argument order" in the module notes."""
    if na != nb:
        return na > nb
    for i in range(na):
        for c in range(2):
            if VA[offa + i, c] != VB[offb + i, c]:
                return VA[offa + i, c] < VB[offb + i, c]
    return True


@kernel
def contact_convex_either_order(VA, offa, na, VB, offb, nb):
    """:func:`contact_convex` computed in the canonical order of :func:`goes_first`, mirrored back
    when b goes first: the same answer, mirrored bit for bit, for either order of the arguments."""
    if goes_first(VA, offa, na, VB, offb, nb):
        return contact_convex(VA, offa, na, VB, offb, nb)
    return mirror(contact_convex(VB, offb, nb, VA, offa, na))


@kernel
def contact_polygon_polygon(pa, va, pb, vb):
    """Polygon a against polygon b: SAT depth when they overlap, closest features when apart
    (in the canonical order of the pair: see :func:`contact_convex_either_order`)."""
    return contact_convex_either_order(va, int(pa[0]), int(pa[1]), vb, int(pb[0]), int(pb[1]))


@kernel
def contact_polygon_segment(pa, va, pb, vb):
    """Polygon a against segment b (b as a 2-vertex list)."""
    return contact_convex(va, int(pa[0]), int(pa[1]), pb[0:4].reshape((2, 2)), int(0), int(2))


@kernel
def contact_polygon_line(pa, va, pb, vb):
    """Polygon a against line b (computed with the line first, then mirrored)."""
    return mirror(line_convex(pb[0], pb[1], pb[2], pb[3], va, int(pa[0]), int(pa[1])))


@kernel
def contact_polygon_point(pa, va, pb, vb):
    """Polygon a against point b; inside: ``-`` the distance to the nearest edge, its outward normal."""
    return contact_convex(va, int(pa[0]), int(pa[1]), pb[0:2].reshape((1, 2)), int(0), int(1))


@kernel
def contact_segment_segment(pa, va, pb, vb):
    """Segment a against segment b (Ericson 5.1.9 for the apart case, Minkowski depth when crossing;
    in the canonical order of the pair: see :func:`contact_convex_either_order`)."""
    return contact_convex_either_order(pa[0:4].reshape((2, 2)), int(0), int(2), pb[0:4].reshape((2, 2)), int(0), int(2))


@kernel
def contact_segment_line(pa, va, pb, vb):
    """Segment a against line b (line first, then mirrored)."""
    return mirror(line_convex(pb[0], pb[1], pb[2], pb[3], pa[0:4].reshape((2, 2)), int(0), int(2)))


@kernel
def contact_segment_point(pa, va, pb, vb):
    """Segment a against point b; a point on the segment gets ``s = 0`` and a's left normal."""
    return contact_convex(pa[0:4].reshape((2, 2)), int(0), int(2), pb[0:2].reshape((1, 2)), int(0), int(1))


@kernel
def contact_line_line(pa, va, pb, vb):
    """Line a against line b: signed gap when parallel, ``-inf`` when they cross (module notes)."""
    px, py, dx, dy = pa[0], pa[1], pa[2], pa[3]
    qx, qy, ex, ey = pb[0], pb[1], pb[2], pb[3]
    length = hypot(dx, dy)
    mx = -dy / length
    my = dx / length
    cross = dx * ey - dy * ex
    if abs(cross) <= 4.0 * 2.0**-53 * (abs(dx * ey) + abs(dy * ex)):
        # nearly parallel: decide exactly (two exact products in a nonoverlapping expansion,
        # Shewchuk 1997), so that the separation's sign agrees with the exact relation: two lines
        # whose directions differ in the last bit cross, though the float cross product may be 0
        e = np.empty(4)
        m = grow_product(e, int(0), dx, ey)
        m = grow_product(e, m, -dy, ex)
        if expansion_sign(e, m) == 0:
            cross = 0.0
        else:
            cross = 0.0
            for i in range(m):
                cross += e[i]
    if cross == 0.0:  # parallel (exactly): gap of b's point from a along m
        h = mx * (qx - px) + my * (qy - py)
        if h >= 0.0:
            s, nx, ny = h, mx, my
        else:
            s, nx, ny = -h, -mx, -my
        return (s, nx + 0.0, ny + 0.0, qx - s * nx, qy - s * ny, qx, qy, 0.0, 0.0)
    # crossing point p + t d with (p + t d - q) x e = 0  =>  t = ((q - p) x e) / (d x e)
    t = ((qx - px) * ey - (qy - py) * ex) / cross
    cx = px + t * dx
    cy = py + t * dy
    return (-INF, mx + 0.0, my + 0.0, cx, cy, cx, cy, 0.0, 0.0)


@kernel
def contact_line_point(pa, va, pb, vb):
    """Line a against point b: the signed side distance is made non-negative by the normal choice."""
    return line_convex(pa[0], pa[1], pa[2], pa[3], pb[0:2].reshape((1, 2)), int(0), int(1))


@kernel
def contact_point_point(pa, va, pb, vb):
    """Point a against point b: the distance; coincident points get ``s = 0`` and normal (1, 0)."""
    return contact_convex(pa[0:2].reshape((1, 2)), int(0), int(1), pb[0:2].reshape((1, 2)), int(0), int(1))
