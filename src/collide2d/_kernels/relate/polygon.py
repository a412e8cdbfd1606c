"""Relate kernels for a convex polygon against polygon, segment, line and point.

Frame: world coordinates as stored; polygon ``a`` is ``va[off : off + n]``, counter-clockwise and
strictly convex, so its closed region is the intersection of the closed half-planes to the left of
its directed edges ``v_i -> v_(i+1)``. Every decision is an orientation sign (:func:`vec.orient`,
:func:`linear.line_side`) of stored points, so the float kernels are exact or return ``UNDECIDED``.

Separating axes (Ericson, *Real-Time Collision Detection* (2005), section 5.2.1), in the
Minkowski-difference form below; ``ri(C1 + C2) = ri C1 + ri C2`` for convex sets is Rockafellar,
*Convex Analysis* (1970), Corollary 6.6.2.

For convex P (with area) and convex S, the interior of ``P - S`` is ``int P - relint S``, so

* the relative interiors meet  <=>  0 lies in the interior of ``P - S``;
* the closed sets meet         <=>  0 lies in ``P - S``.

``P - S`` is a convex polygon whose outward edge normals are among the outward edge normals of P
and the outward edge normals of ``-S`` (for a segment S: both normals of its line; for a polygon
S: the negated outward normals of S). With ``h(n) = max over P of n.y - min over S of n.x``
(the support function of ``P - S``), 0 is outside the closed polygon iff ``h(n) < 0`` for one of
these candidate normals, and outside its interior iff ``h(n) <= 0`` for one of them. For the
outward normal of an edge of P, ``h(n) <= 0`` says "every vertex of S lies on or right of that
directed edge" and ``h(n) < 0`` "strictly right of it"; for S's normals the roles swap. So:

* some candidate with all vertices strictly outside -> DISJOINT;
* else some candidate with all vertices weakly outside -> TOUCHING;
* else the interiors meet, and containment decides (a convex set lies in P iff its vertices do).

Signs are three-valued in float mode (1, 0, -1 or UNKNOWN_SIGN); a result is returned only when
the known signs already force it, otherwise ``UNDECIDED`` sends the pair to the exact path.

Cost: polygon-polygon takes ``n m`` orientation tests (every vertex against every edge, both
ways), which also yields the containment answer; polygon-segment and polygon-line take O(n).
"""

from collide2d._jit import kernel

from .. import codes
from ..codes import UNKNOWN_SIGN
from .linear import grid_retry, line_side
from ..vec import orient

# Three-valued flags for "is it certain that ...": no / yes / the float filter cannot tell.
_NO = 0
_YES = 1
_MAYBE = 2


@kernel
def vertices_against_edges(pa, va, pb, vb, eps):
    """Test every vertex of polygon b against every edge line of polygon a.

    Returns ``(strict, weak, inside)``:

    * ``strict``: some edge of a has all vertices of b strictly on its right (outer) side;
    * ``weak``: some edge of a has all vertices of b on or right of it;
    * ``inside``: every vertex of b is on or left of every edge of a (b is in closed a).

    Each is ``_NO``, ``_YES`` or ``_MAYBE`` (``_MAYBE`` when the unknown signs could go both ways).
    """
    off_a = int(pa[0])
    n_a = int(pa[1])
    off_b = int(pb[0])
    n_b = int(pb[1])
    strict = _NO
    weak = _NO
    inside = _YES
    for i in range(n_a):
        j = i + 1 if i + 1 < n_a else 0
        x0, y0 = va[off_a + i, 0], va[off_a + i, 1]
        x1, y1 = va[off_a + j, 0], va[off_a + j, 1]
        n_neg = 0
        n_zero = 0
        n_unknown = 0
        for k in range(n_b):
            qx, qy = vb[off_b + k, 0], vb[off_b + k, 1]
            s = orient(x0, y0, x1, y1, qx, qy, eps)
            if s == UNKNOWN_SIGN and qx == x1 and qy == y1:
                # a vertex of b stored as the edge's end: the exact turn is 0 (its float value is 0
                # too, but the error bound is not); the start gives bound 0 and a known 0 already.
                # Identical or vertex-sharing polygons are then decided here, not exactly.
                s = 0
            if s == -1:
                n_neg += 1
            elif s == 0:
                n_zero += 1
            elif s == UNKNOWN_SIGN:
                n_unknown += 1
        n_pos = n_b - n_neg - n_zero - n_unknown
        # This edge as an axis: a single known left-side vertex rules it out for both kinds.
        if n_pos == 0:
            if n_unknown == 0:
                weak = _YES
                if n_zero == 0:
                    strict = _YES
            else:
                if weak == _NO:
                    weak = _MAYBE
                if strict == _NO and n_zero == 0:
                    strict = _MAYBE
        # Containment of b in a: a known right-side vertex refutes it.
        if n_neg > 0:
            inside = _NO
        elif n_unknown > 0 and inside == _YES:
            inside = _MAYBE
    return strict, weak, inside


@kernel
def _relate_polygon_polygon(pa, va, pb, vb, eps):
    """Relate convex polygon a to convex polygon b by separating axes (see the module notes).

    Candidate axes are the edges of a (tested with b's vertices) and of b (with a's vertices).
    Once the interiors are known to meet: b inside closed a and a inside closed b -> EQUAL (the
    same set, whatever the starting vertex); only b in a -> CONTAINS; only a in b -> WITHIN;
    neither -> OVERLAPPING (two regions whose interiors meet in an area).
    """
    strict_ab, weak_ab, b_in_a = vertices_against_edges(pa, va, pb, vb, eps)
    if strict_ab == _YES:
        return codes.DISJOINT
    strict_ba, weak_ba, a_in_b = vertices_against_edges(pb, vb, pa, va, eps)
    if strict_ba == _YES:
        return codes.DISJOINT
    if strict_ab == _MAYBE or strict_ba == _MAYBE:
        return codes.UNDECIDED
    if weak_ab == _YES or weak_ba == _YES:
        return codes.TOUCHING
    if weak_ab == _MAYBE or weak_ba == _MAYBE:
        return codes.UNDECIDED
    # The interiors meet.
    if b_in_a == _MAYBE or a_in_b == _MAYBE:
        return codes.UNDECIDED
    if b_in_a == _YES:
        if a_in_b == _YES:
            return codes.EQUAL
        return codes.CONTAINS
    if a_in_b == _YES:
        return codes.WITHIN
    return codes.OVERLAPPING


@kernel
def relate_polygon_polygon(pa, va, pb, vb, eps):
    """:func:`_relate_polygon_polygon`, re-run exactly when undecided on a short grid (:func:`linear.grid_retry`)."""
    code = _relate_polygon_polygon(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED and grid_retry(pa, va, bool(True), pb, vb, bool(True), eps):
        return _relate_polygon_polygon(pa, va, pb, vb, 0.0)
    return code


@kernel
def _relate_polygon_segment(pa, va, pb, vb, eps):
    """Relate convex polygon a to segment ``b = [A, B]`` by separating axes (module notes).

    Candidates: each edge of a, tested with A and B, and both sides of the line AB, tested with
    the vertices of a. When the interiors meet, A and B both in closed a -> the whole segment is in
    a (convexity) -> CONTAINS; otherwise the open segment leaves the polygon -> CROSSING. (A
    segment in closed a whose interiors do not meet lies along one edge; that case is caught as a
    weak axis, so "segment along an edge" is TOUCHING.)
    """
    off = int(pa[0])
    n = int(pa[1])
    ax, ay, bx, by = pb[0], pb[1], pb[2], pb[3]
    strict = _NO
    weak = _NO
    inside = _YES
    # Axes: the outward normals of a's edges, tested with the end points A and B. Containment:
    # A and B in every closed half-plane of a.
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        x0, y0 = va[off + i, 0], va[off + i, 1]
        x1, y1 = va[off + j, 0], va[off + j, 1]
        sa = orient(x0, y0, x1, y1, ax, ay, eps)
        sb = orient(x0, y0, x1, y1, bx, by, eps)
        if sa == -1 or sb == -1:
            inside = _NO
        elif (sa == UNKNOWN_SIGN or sb == UNKNOWN_SIGN) and inside == _YES:
            inside = _MAYBE
        if sa == 1 or sb == 1:
            continue  # an end point strictly inside this half-plane: not a separating axis
        if sa == UNKNOWN_SIGN or sb == UNKNOWN_SIGN:
            if weak == _NO:
                weak = _MAYBE
            if strict == _NO and sa != 0 and sb != 0:
                strict = _MAYBE
        else:
            weak = _YES
            if sa == -1 and sb == -1:
                return codes.DISJOINT
    # Axes: both normals of the segment's line, tested with the vertices of a.
    n_pos = 0
    n_neg = 0
    n_unknown = 0
    for i in range(n):
        t = orient(ax, ay, bx, by, va[off + i, 0], va[off + i, 1], eps)
        if t == 1:
            n_pos += 1
        elif t == -1:
            n_neg += 1
        elif t == UNKNOWN_SIGN:
            n_unknown += 1
    if n_pos == n or n_neg == n:
        return codes.DISJOINT  # a strictly on one side of line AB
    # Line AB separates weakly with a on its right iff no vertex is strictly left (n_pos == 0),
    # with a on its left iff n_neg == 0; strictly iff, besides, no vertex is on the line. Unknown
    # signs leave each of these open unless a known vertex already refutes it.
    if n_pos == 0 or n_neg == 0:
        if n_unknown == 0:
            weak = _YES
        else:
            if weak == _NO:
                weak = _MAYBE
            if strict == _NO and (n_neg + n_unknown == n or n_pos + n_unknown == n):
                strict = _MAYBE
    if strict == _MAYBE:
        return codes.UNDECIDED
    if weak == _YES:
        return codes.TOUCHING
    if weak == _MAYBE or inside == _MAYBE:
        return codes.UNDECIDED
    if inside == _YES:
        return codes.CONTAINS
    return codes.CROSSING


@kernel
def relate_polygon_segment(pa, va, pb, vb, eps):
    """:func:`_relate_polygon_segment`, re-run exactly when undecided on a short grid (:func:`linear.grid_retry`)."""
    code = _relate_polygon_segment(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED and grid_retry(pa, va, bool(True), pb, vb, bool(False), eps):
        return _relate_polygon_segment(pa, va, pb, vb, 0.0)
    return code


@kernel
def _relate_polygon_line(pa, va, pb, vb, eps):
    """Relate convex polygon a to line ``b = p + t d``.

    The line is all interior, so only its two sides are candidate axes: the open polygon meets it
    iff a has vertices strictly on both sides -> CROSSING (neither set contains the other). All
    vertices strictly on one side -> DISJOINT. Otherwise all on one closed side with some on the
    line (a vertex, or an edge along the line) -> TOUCHING.
    """
    off = int(pa[0])
    n = int(pa[1])
    px, py, dx, dy = pb[0], pb[1], pb[2], pb[3]
    n_pos = 0
    n_neg = 0
    n_unknown = 0
    for i in range(n):
        s = line_side(px, py, dx, dy, va[off + i, 0], va[off + i, 1], eps)
        if s == 1:
            n_pos += 1
        elif s == -1:
            n_neg += 1
        elif s == UNKNOWN_SIGN:
            n_unknown += 1
        if n_pos > 0 and n_neg > 0:
            return codes.CROSSING
    if n_unknown > 0:
        return codes.UNDECIDED
    if n_pos == n or n_neg == n:
        return codes.DISJOINT
    return codes.TOUCHING


@kernel
def relate_polygon_line(pa, va, pb, vb, eps):
    """:func:`_relate_polygon_line`, re-run exactly when undecided on a short grid (:func:`linear.grid_retry`)."""
    code = _relate_polygon_line(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED and grid_retry(pa, va, bool(True), pb, vb, bool(False), eps):
        return _relate_polygon_line(pa, va, pb, vb, 0.0)
    return code


@kernel
def _relate_polygon_point(pa, va, pb, vb, eps):
    """Relate convex polygon a to point ``b = q``.

    q strictly left of every edge -> in the open polygon -> CONTAINS. Right of some edge ->
    DISJOINT. Otherwise q is on some edge line and in every closed half-plane, i.e. on the
    boundary (a convex polygon meets an edge's line exactly in that edge) -> TOUCHING.
    """
    off = int(pa[0])
    n = int(pa[1])
    qx, qy = pb[0], pb[1]
    n_zero = 0
    n_unknown = 0
    for i in range(n):
        j = i + 1 if i + 1 < n else 0
        s = orient(va[off + i, 0], va[off + i, 1], va[off + j, 0], va[off + j, 1], qx, qy, eps)
        if s == -1:
            return codes.DISJOINT
        if s == 0:
            n_zero += 1
        elif s == UNKNOWN_SIGN:
            n_unknown += 1
    if n_unknown > 0:
        return codes.UNDECIDED
    if n_zero > 0:
        return codes.TOUCHING
    return codes.CONTAINS


@kernel
def relate_polygon_point(pa, va, pb, vb, eps):
    """:func:`_relate_polygon_point`, re-run exactly when undecided on a short grid (:func:`linear.grid_retry`)."""
    code = _relate_polygon_point(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED and grid_retry(pa, va, bool(True), pb, vb, bool(False), eps):
        return _relate_polygon_point(pa, va, pb, vb, 0.0)
    return code
