"""Boundaries made of segments and elliptic arcs: the common machinery of the rounded kind's
overlay kernels (:mod:`points_rounded`, :mod:`area_rounded`).

A rounded shape ``K + D(r)`` (``K`` a convex polygon, a segment or a point) is bounded by the
edges of ``K`` pushed out by ``r`` along their outward normals and, at each vertex ``v`` of ``K``,
the arc of the circle of radius ``r`` about ``v`` between the normals of the two edges that meet
there (a point core: the whole circle). The flat's end and the arc's start are the same float
expression ``v + r n``, so the pieces close up exactly. A polygon is bounded by its edges, an
ellipse by one full elliptic arc, and a segment or a line is a piece of its own (not a region).

Piece table: one row of :data:`WIDTH` floats per piece, counter-clockwise around a region::

    0 type (SEGMENT, ARC, LINE)   1..4 start x, y, end x, y
    5..10 the arc's ellipse: centre, semi-axes a, b, unit axis (ux, uy)  (a circle: a = b = r)
    11, 12 the arc's eccentric angles t0 < t1 (t1 - t0 <= 2 pi)
    13..16 a rounded shape's arc at a core vertex (t1 - t0 <= pi): the unit normals (x, y) of the
           edges that meet there, from which t0 and t1 are taken (else 0)

Frames: a pair is first scaled by a power of two (exact) so that its largest number is about 1,
then translated so that the reference point of the smaller shape is the origin; crossings are
computed once per pair of pieces and the same floats end the sub-pieces of both boundaries, so
the boundary of the intersection closes up (the failure of Green's theorem with crossings
computed twice is described in :mod:`area_flat`).

Kind codes of the arguments: :data:`ROUNDED`, :data:`ELLIPSE`, :data:`POLYGON`, :data:`SEGMENT_KIND`,
:data:`LINE_KIND`.
"""

import math

import numpy as np

from collide2d._jit import kernel

from .area_ellipse import segment_area
from .points_ellipse import conic_in_frame, from_frame, resolved_crossings, unit_frame

WIDTH = 17
SEGMENT = 0.0
ARC = 1.0
LINE = 2.0
ROUNDED = 0
ELLIPSE = 1
POLYGON = 2
SEGMENT_KIND = 3
LINE_KIND = 4
TWO_PI = 2.0 * math.pi
# Relative slack (of the pair's scale, about 1 after scaling) within which a crossing's parameter
# still counts as on a piece, a nearly tangent line still meets a circle, and a point counts as on
# the other boundary (see classify). Dimensionless.
_ON_PIECE = 2.0**-40
_ON_BOUNDARY = 2.0**-44
# Shortcuts that skip work without changing an answer (each decides only where the full
# computation is certain to decide the same way, by far more than its rounding): a point whose
# angle from a rounded arc's cone exceeds _CONE_SLACK (sine, relative) is off the arc for
# :func:`_param_on` too (which allows _ON_PIECE radians); a sub-piece's middle farther than
# _DEPTH_SLACK (absolute, in the pair's frame where every number is below 4) from the depth
# thresholds is inside or outside for :func:`depth` too (whose rounding is below 2**-49 there).
_CONE_SLACK = 2.0**-20
_DEPTH_SLACK = 2.0**-40


@kernel
def core_count(kind, row):
    """Number of core vertices of a row (1 for an ellipse, a segment or a line)."""
    if kind == ROUNDED or kind == POLYGON:
        return int(row[1])
    return 1


@kernel
def piece_capacity(kind, row):
    """Rows of the piece table of a row of ``kind``."""
    if kind == ROUNDED:
        n = int(row[1])
        return 1 if n == 1 else 2 * n
    if kind == POLYGON:
        return int(row[1])
    return 1


@kernel
def core_vertices(kind, row, verts, buf):
    """The numbers of a row that its pieces are made of, unscaled, in the first rows of ``buf`` (a
    workspace array, :func:`workspace`): the core (rounded), the polygon, the ends (segment) or a
    point and the direction (line) as ``n`` rows; an ellipse's centre, then ``(a, b)`` and its unit
    axis ``(ux, uy)`` (:func:`points_ellipse.unit_frame`) in rows 1 and 2 (``n`` = 1). Returns ``(n,
    r, half, hi, lo_x, lo_y, hi_x, hi_y)``: the radius (0 unless rounded), an ellipse's larger
    semi-axis, the largest magnitude among the row's numbers (its coordinates and sizes; a line's
    direction has no size) and the box of the ``n`` rows. Scaling by a power of two is monotonic,
    so the box scaled is the box of the scaled rows (:func:`pair_frame`)."""
    hi = 0.0
    r = 0.0
    half = 0.0
    if kind == ELLIPSE:
        n = 1
        cx, cy, a, b, ux, uy = unit_frame(row)
        buf[0, 0] = row[0]
        buf[0, 1] = row[1]
        buf[1, 0] = a
        buf[1, 1] = b
        buf[2, 0] = ux
        buf[2, 1] = uy
        half = max(row[2], row[3])
        for i in range(4):
            hi = max(hi, abs(row[i]))
    elif kind == ROUNDED or kind == POLYGON:
        n = int(row[1])
        if kind == ROUNDED:
            hi = abs(row[2])
            r = row[2]
        if kind == POLYGON or n >= 3:
            offset = int(row[0])
            for i in range(n):
                buf[i, 0] = verts[offset + i, 0]
                buf[i, 1] = verts[offset + i, 1]
                hi = max(hi, abs(verts[offset + i, 0]), abs(verts[offset + i, 1]))
        else:
            for i in range(n):
                buf[i, 0] = row[3 + 2 * i]
                buf[i, 1] = row[4 + 2 * i]
            for i in range(2 * n):
                hi = max(hi, abs(row[3 + i]))
    else:
        n = 2
        buf[0, 0] = row[0]
        buf[0, 1] = row[1]
        buf[1, 0] = row[2]
        buf[1, 1] = row[3]
        for i in range(2 if kind == LINE_KIND else 4):
            hi = max(hi, abs(row[i]))
    lo_x = hi_x = buf[0, 0]
    lo_y = hi_y = buf[0, 1]
    for i in range(n):
        lo_x = min(lo_x, buf[i, 0])
        hi_x = max(hi_x, buf[i, 0])
        lo_y = min(lo_y, buf[i, 1])
        hi_y = max(hi_y, buf[i, 1])
    return n, r, half, hi, lo_x, lo_y, hi_x, hi_y


@kernel
def _frame_size(kind, r, half, lo_x, lo_y, hi_x, hi_y, scale):
    """The half-width of a shape's bounding box in the pair's frame (its size, for choosing the
    origin; infinite for a line) from the numbers of :func:`core_vertices` and ``scale`` (the
    radius ``r`` scaled)."""
    if kind == ELLIPSE:
        return half * scale
    if kind == LINE_KIND:
        return math.inf
    return 0.5 * max(hi_x * scale - lo_x * scale, hi_y * scale - lo_y * scale) + r


@kernel
def _zeroed(buf, n):
    """The first ``n`` rows of ``buf``, set to 0."""
    p = buf[:n]
    for i in range(n):
        for c in range(WIDTH):
            p[i, c] = 0.0
    return p


@kernel
def _one_point(core, n):
    """Whether the ``n`` core vertices are one point in floats (a capsule of length 1e-300 beside
    its radius 1: its edge has no normal)."""
    for i in range(1, n):
        if core[i, 0] != core[0, 0] or core[i, 1] != core[0, 1]:
            return False
    return True


@kernel
def _to_frame(kind, cores, n, scale, ox, oy):
    """The ``n`` rows of :func:`core_vertices` in ``cores`` scaled by ``scale`` and moved by
    ``-(ox, oy)``, in place (a line's second row: its point plus its direction scaled by a power
    of two to a largest component in [0.5, 1), about the pair's scale); the core's view."""
    if kind == LINE_KIND:  # a point and a direction (no size)
        e = math.frexp(max(abs(cores[1, 0]), abs(cores[1, 1])))[1]
        x = cores[0, 0] * scale
        y = cores[0, 1] * scale
        cores[1, 0] = (x + math.ldexp(cores[1, 0], -e)) - ox
        cores[1, 1] = (y + math.ldexp(cores[1, 1], -e)) - oy
        cores[0, 0] = x - ox
        cores[0, 1] = y - oy
        return cores[:2]
    for i in range(n):
        cores[i, 0] = cores[i, 0] * scale - ox
        cores[i, 1] = cores[i, 1] * scale - oy
    return cores[:n]


@kernel
def build_pieces(kind, core, r, frame, scale, buf):
    """The piece table of a row in the pair's frame (``core`` from :func:`_to_frame`, ``r`` scaled;
    ``frame`` an ellipse's unscaled ``(a, b, ux, uy)``), in the first rows of ``buf``."""
    if kind == ELLIPSE:
        p = _zeroed(buf, int(1))
        a, b, ux, uy = frame
        cx = core[0, 0]
        cy = core[0, 1]
        a *= scale
        b *= scale
        p[0, 0] = ARC
        p[0, 1] = p[0, 3] = cx + a * ux
        p[0, 2] = p[0, 4] = cy + a * uy
        p[0, 5] = cx
        p[0, 6] = cy
        p[0, 7] = a
        p[0, 8] = b
        p[0, 9] = ux
        p[0, 10] = uy
        p[0, 11] = 0.0
        p[0, 12] = TWO_PI
        return p
    n = core.shape[0]
    if kind == SEGMENT_KIND or kind == LINE_KIND:
        p = _zeroed(buf, int(1))
        p[0, 0] = SEGMENT if kind == SEGMENT_KIND else LINE
        p[0, 1] = core[0, 0]
        p[0, 2] = core[0, 1]
        p[0, 3] = core[1, 0]
        p[0, 4] = core[1, 1]
        return p
    if kind == POLYGON or r == 0.0:
        p = _zeroed(buf, n)
        for i in range(n):
            j = (i + 1) % n
            p[i, 0] = SEGMENT
            p[i, 1] = core[i, 0]
            p[i, 2] = core[i, 1]
            p[i, 3] = core[j, 0]
            p[i, 4] = core[j, 1]
        return p
    if n == 1 or _one_point(core, n):  # a disc (a core below the resolution of its coordinates too)
        p = _zeroed(buf, int(1))
        cx = core[0, 0]
        cy = core[0, 1]
        p[0, 0] = ARC
        p[0, 1] = p[0, 3] = cx + r
        p[0, 2] = p[0, 4] = cy
        p[0, 5] = cx
        p[0, 6] = cy
        p[0, 7] = p[0, 8] = r
        p[0, 9] = 1.0
        p[0, 11] = 0.0
        p[0, 12] = TWO_PI
        return p
    # outward unit normals of the edges (a counter-clockwise core; a segment counted both ways),
    # each with its angle, computed once: edge i's (nx_i, ny_i, angle_i), the next edge's (j)
    ex = core[1, 0] - core[0, 0]
    ey = core[1, 1] - core[0, 1]
    length = math.hypot(ex, ey)
    nx_0 = ey / length
    ny_0 = -ex / length
    angle_0 = math.atan2(ny_0, nx_0)
    nx_i, ny_i, angle_i = nx_0, ny_0, angle_0
    p = _zeroed(buf, 2 * n)
    for i in range(n):
        j = (i + 1) % n
        if j == 0:
            nx_j, ny_j, angle_j = nx_0, ny_0, angle_0
        else:
            k = (j + 1) % n
            ex = core[k, 0] - core[j, 0]
            ey = core[k, 1] - core[j, 1]
            length = math.hypot(ex, ey)
            nx_j = ey / length
            ny_j = -ex / length
            angle_j = math.atan2(ny_j, nx_j)
        # the flat of edge i, then the arc at its end vertex j
        x0 = core[i, 0]
        y0 = core[i, 1]
        x1 = core[j, 0]
        y1 = core[j, 1]
        p[2 * i, 0] = SEGMENT
        p[2 * i, 1] = x0 + r * nx_i
        p[2 * i, 2] = y0 + r * ny_i
        p[2 * i, 3] = x1 + r * nx_i
        p[2 * i, 4] = y1 + r * ny_i
        k = 2 * i + 1
        p[k, 0] = ARC
        p[k, 1] = x1 + r * nx_i
        p[k, 2] = y1 + r * ny_i
        p[k, 3] = x1 + r * nx_j
        p[k, 4] = y1 + r * ny_j
        p[k, 5] = x1
        p[k, 6] = y1
        p[k, 7] = p[k, 8] = r
        p[k, 9] = 1.0
        t0 = angle_i
        turn = angle_j - t0
        if n == 2:
            turn = math.pi
        while turn < 0.0:
            turn += TWO_PI
        if n > 2 and turn > math.pi:  # a convex core turns by less than pi: a rounded 0 (collinear)
            turn = 0.0
        p[k, 11] = t0
        p[k, 12] = t0 + turn
        p[k, 13] = nx_i
        p[k, 14] = ny_i
        p[k, 15] = nx_j
        p[k, 16] = ny_j
        nx_i, ny_i, angle_i = nx_j, ny_j, angle_j
    return p


@kernel
def piece_row(table, i):
    """Row ``i`` of a piece table as a tuple of its :data:`WIDTH` numbers. The crossing helpers
    below take pieces as such tuples (values), not as row views of the table: each view, and
    each array passed to a helper, costs atomic reference count updates, which took a third of a
    pair's time."""
    return (table[i, 0], table[i, 1], table[i, 2], table[i, 3], table[i, 4], table[i, 5], table[i, 6], table[i, 7],
            table[i, 8], table[i, 9], table[i, 10], table[i, 11], table[i, 12], table[i, 13], table[i, 14],
            table[i, 15], table[i, 16])


@kernel
def arc_param(p, x, y):
    """Eccentric angle of the point ``(x, y)`` on the arc ``p`` (a row of a piece table as a tuple,
    :func:`piece_row`), in ``[t0 - slack, t0 - slack + 2 pi)``."""
    dx = x - p[5]
    dy = y - p[6]
    X = (p[9] * dx + p[10] * dy) / p[7]
    Y = (p[9] * dy - p[10] * dx) / p[8]
    t = math.atan2(Y, X)
    lo = p[11] - _ON_PIECE
    while t < lo:
        t += TWO_PI
    while t >= lo + TWO_PI:
        t -= TWO_PI
    return t


@kernel
def point_on(arc, x0, y0, x1, y1, cx, cy, a, b, ux, uy, t):
    """The point at parameter ``t`` of a piece: of the arc of the ellipse ``(cx, cy, a, b, ux,
    uy)`` when ``arc``, else of the segment or line ``(x0, y0)-(x1, y1)`` (scalar arguments: see
    :func:`arc_param`)."""
    if arc:
        return from_frame(math.cos(t), math.sin(t), cx, cy, a, b, ux, uy)
    return x0 + t * (x1 - x0), y0 + t * (y1 - y0)


@kernel
def _param_on(p, x, y):
    """``(t, on)``: the parameter of a point on a piece (``s`` along a segment or line, 0 at the
    start and 1 at the end; the eccentric angle on an arc, :func:`arc_param`) and whether it lies
    on the piece within slack (an arc's ``t <= t1 + _ON_PIECE``, a closed arc and a line always).
    A point off a rounded arc's cone (the table's columns 13..16: its angle from the cone between
    the two edge normals has a sine beyond :data:`_CONE_SLACK`, relative, far more than the
    ``_ON_PIECE`` radians allowed) is off the piece before its angle is computed."""
    if p[0] == ARC:
        if p[13] != 0.0 or p[14] != 0.0:
            dx = x - p[5]
            dy = y - p[6]
            slack = _CONE_SLACK * (abs(dx) + abs(dy))
            if p[13] * dy - p[14] * dx < -slack or dx * p[16] - dy * p[15] < -slack:
                return 0.0, False
        t = arc_param(p, x, y)
        return t, p[12] - p[11] >= TWO_PI or t <= p[12] + _ON_PIECE
    dx = p[3] - p[1]
    dy = p[4] - p[2]
    length2 = dx * dx + dy * dy
    if length2 == 0.0:  # a piece whose squared length underflowed (far below the pair's scale): no interior
        return 0.0, False
    t = ((x - p[1]) * dx + (y - p[2]) * dy) / length2
    return t, p[0] == LINE or -_ON_PIECE <= t <= 1.0 + _ON_PIECE


_NO_POINTS = (0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)


@kernel
def _straight_straight(p, q):
    """Candidate crossings of two straight pieces (segments or lines): ``(n, x0, y0, ..., x3,
    y3)``, the first ``n`` points meaningful (:func:`piece_crossings`)."""
    x0 = p[1]
    y0 = p[2]
    dx = p[3] - x0
    dy = p[4] - y0
    ex = q[3] - q[1]
    ey = q[4] - q[2]
    wx = q[1] - x0
    wy = q[2] - y0
    den = dx * ey - dy * ex
    if den == 0.0:
        if wx * dy - wy * dx != 0.0 or (p[0] == LINE and q[0] == LINE):
            return _NO_POINTS  # parallel apart, or equal lines (no finite set)
        # collinear: the ends of the shared piece (p's ends, then q's, of the segments among them)
        if p[0] == SEGMENT and q[0] == SEGMENT:
            return 4, p[1], p[2], p[3], p[4], q[1], q[2], q[3], q[4]
        if p[0] == SEGMENT:
            return 2, p[1], p[2], p[3], p[4], 0.0, 0.0, 0.0, 0.0
        return 2, q[1], q[2], q[3], q[4], 0.0, 0.0, 0.0, 0.0
    s = (wx * ey - wy * ex) / den
    return 1, x0 + s * dx, y0 + s * dy, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0


@kernel
def _straight_arc(p, q):
    """Candidate crossings of a segment or line ``p`` with the ellipse of arc ``q``, in its unit
    frame: ``|P0 + s D|^2 = 1``, a quadratic in ``s`` solved without cancellation."""
    cx, cy, a, b, ux, uy = q[5], q[6], q[7], q[8], q[9], q[10]
    x0 = p[1]
    y0 = p[2]
    dx = p[3] - x0
    dy = p[4] - y0
    X0 = (ux * (x0 - cx) + uy * (y0 - cy)) / a
    Y0 = (ux * (y0 - cy) - uy * (x0 - cx)) / b
    DX = (ux * dx + uy * dy) / a
    DY = (ux * dy - uy * dx) / b
    A = DX * DX + DY * DY
    if not A > 0.0:
        return _NO_POINTS
    # the foot of the centre on the line, and the half chord about it
    s0 = -(X0 * DX + Y0 * DY) / A
    FX = X0 + s0 * DX
    FY = Y0 + s0 * DY
    f2 = FX * FX + FY * FY
    h2 = 1.0 - f2
    if h2 < -_ON_PIECE:
        return _NO_POINTS
    if h2 <= _ON_PIECE * 2.0**-10:  # tangent within rounding: the foot once
        return 1, x0 + s0 * dx, y0 + s0 * dy, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
    h = math.sqrt(max(h2, 0.0) / A)
    s1 = s0 - h
    s2 = s0 + h
    return 2, x0 + s1 * dx, y0 + s1 * dy, x0 + s2 * dx, y0 + s2 * dy, 0.0, 0.0, 0.0, 0.0


@kernel
def _arc_arc(p, q):
    """Candidate crossings of two arcs: two circles in closed form, else the ellipse-pair point
    kernel of :mod:`points_ellipse` (the pencil of the two conics) on their full ellipses."""
    if p[7] == p[8] and q[7] == q[8]:
        dx = q[5] - p[5]
        dy = q[6] - p[6]
        d2 = dx * dx + dy * dy
        if d2 == 0.0:
            return _NO_POINTS  # concentric (equal circles share an arc, not points)
        d = math.sqrt(d2)
        r1 = p[7]
        r2 = q[7]
        along = 0.5 * (d + (r1 - r2) * (r1 + r2) / d)  # from p's centre towards q's
        h2 = (r1 - along) * (r1 + along)
        if h2 < -_ON_PIECE * r1 * r1:
            return _NO_POINTS
        ex = dx / d
        ey = dy / d
        mx = p[5] + along * ex
        my = p[6] + along * ey
        if h2 <= _ON_PIECE * 2.0**-10 * r1 * r1:
            return 1, mx, my, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
        h = math.sqrt(h2)
        return 2, mx - h * ey, my + h * ex, mx + h * ey, my - h * ex, 0.0, 0.0, 0.0, 0.0
    pa = np.empty(6)
    pb = np.empty(6)
    for c in range(6):
        pa[c] = p[5 + c]
        pb[c] = q[5 + c]
    cx, cy, a, b, ux, uy = unit_frame(pa)
    p1, p2, r1, r2, sp, sr, g = conic_in_frame(pa, pb)
    n, X0, Y0, X1, Y1, X2, Y2, X3, Y3, gap, fx, fy = resolved_crossings(p1, p2, r1, r2, sp, sr, g)
    x0, y0 = from_frame(X0, Y0, cx, cy, a, b, ux, uy)
    x1, y1 = from_frame(X1, Y1, cx, cy, a, b, ux, uy)
    x2, y2 = from_frame(X2, Y2, cx, cy, a, b, ux, uy)
    x3, y3 = from_frame(X3, Y3, cx, cy, a, b, ux, uy)
    return n, x0, y0, x1, y1, x2, y2, x3, y3


@kernel
def piece_crossings(p, q):
    """Candidate crossings of pieces ``p`` and ``q`` (:func:`piece_row`): ``(n, x0, y0, x1, y1,
    x2, y2, x3, y3)``, the first ``n`` points (at most 4) meaningful; a crossing counts when it
    lies on both pieces (:func:`_param_on`, applied by :func:`all_crossings`). Numbers, not an
    output array: an array argument of a helper costs two atomic reference count updates per
    call, several per pair of pieces."""
    if p[0] == ARC and q[0] == ARC:
        return _arc_arc(p, q)
    if p[0] == ARC:
        return _straight_arc(q, p)
    if q[0] == ARC:
        return _straight_arc(p, q)
    return _straight_straight(p, q)


# A rounded arc of radius at least this (in the pair's frame) gets a tight box (see piece_boxes).
_TIGHT_FROM = 2.0**-16


@kernel
def piece_boxes(p):
    """Bounding boxes of a piece (:func:`piece_row`), 8 numbers: 0..3 (x lo, y lo, x hi, y hi)
    grown by the slack of :data:`_ON_PIECE` times its size (a line's is the whole plane, an arc's
    its ellipse's); 4..7 the tight box of a rounded arc of radius at least :data:`_TIGHT_FROM`
    (the normals of the table set), NaN where the loose box alone applies: the arc's ends and the
    circle's extreme points in the directions of the axes the arc's cone holds, grown by ``4
    _CONE_SLACK r + 2**-30``: every crossing the arc accepts lies within (not off the cone, see
    :func:`_param_on`; off its circle by the crossing formulas' rounding, below ``2**-30`` for
    such radii). Numbers, not rows of an array (an array argument of a helper costs two atomic
    reference count updates a call)."""
    nan = math.nan
    if p[0] == LINE:
        return -math.inf, -math.inf, math.inf, math.inf, nan, nan, nan, nan
    if p[0] == ARC:
        w = max(p[7], p[8])
        x0 = p[5] - w
        x1 = p[5] + w
        y0 = p[6] - w
        y1 = p[6] + w
    else:
        x0 = min(p[1], p[3])
        x1 = max(p[1], p[3])
        y0 = min(p[2], p[4])
        y1 = max(p[2], p[4])
    grow = 2.0 * _ON_PIECE * (x1 - x0 + y1 - y0) + 2.0**-1000
    lo_x = x0 - grow
    lo_y = y0 - grow
    hi_x = x1 + grow
    hi_y = y1 + grow
    # the tight box of a rounded arc
    r = p[7]
    if p[0] != ARC or (p[13] == 0.0 and p[14] == 0.0) or not r >= _TIGHT_FROM:
        return lo_x, lo_y, hi_x, hi_y, nan, nan, nan, nan
    x0 = min(p[1], p[3])
    x1 = max(p[1], p[3])
    y0 = min(p[2], p[4])
    y1 = max(p[2], p[4])
    ax, ay, bx, by = p[13], p[14], p[15], p[16]
    # the axis directions e in the cone: ax e_y - ay e_x >= 0 and e_x by - e_y bx >= 0
    if -ay >= -_CONE_SLACK and by >= -_CONE_SLACK:  # (1, 0)
        x1 = max(x1, p[5] + r)
    if ay >= -_CONE_SLACK and -by >= -_CONE_SLACK:  # (-1, 0)
        x0 = min(x0, p[5] - r)
    if ax >= -_CONE_SLACK and -bx >= -_CONE_SLACK:  # (0, 1)
        y1 = max(y1, p[6] + r)
    if -ax >= -_CONE_SLACK and bx >= -_CONE_SLACK:  # (0, -1)
        y0 = min(y0, p[6] - r)
    grow = 4.0 * _CONE_SLACK * r + 2.0**-30
    return lo_x, lo_y, hi_x, hi_y, x0 - grow, y0 - grow, x1 + grow, y1 + grow


@kernel
def all_crossings(pa, pb, boxes_a, boxes_b, out):
    """Crossings of every piece of ``pa`` with every piece of ``pb`` whose bounding boxes meet:
    ``(table, count)``; table columns x, y, piece of a, piece of b, t on a, t on b. The table is
    ``out``, the pieces' boxes are made in ``boxes_a``, ``boxes_b`` (workspace arrays,
    :func:`workspace`)."""
    na = pa.shape[0]
    nb = pb.shape[0]
    box_a = boxes_a[:na]
    box_b = boxes_b[:nb]
    for i in range(na):
        box = piece_boxes(piece_row(pa, i))
        for c in range(8):
            box_a[i, c] = box[c]
    for j in range(nb):
        box = piece_boxes(piece_row(pb, j))
        for c in range(8):
            box_b[j, c] = box[c]
    # the box of all of b's boxes: a piece of a outside it meets none of them (a NaN: no shortcut)
    u_lo_x = u_lo_y = math.inf
    u_hi_x = u_hi_y = -math.inf
    for j in range(nb):
        if not (box_b[j, 0] >= -math.inf and box_b[j, 1] >= -math.inf and box_b[j, 2] <= math.inf
                and box_b[j, 3] <= math.inf):
            u_lo_x = u_lo_y = -math.inf
            u_hi_x = u_hi_y = math.inf
            break
        u_lo_x = min(u_lo_x, box_b[j, 0])
        u_lo_y = min(u_lo_y, box_b[j, 1])
        u_hi_x = max(u_hi_x, box_b[j, 2])
        u_hi_y = max(u_hi_y, box_b[j, 3])
    m = 0
    for i in range(na):
        a_lo_x = box_a[i, 0]
        a_lo_y = box_a[i, 1]
        a_hi_x = box_a[i, 2]
        a_hi_y = box_a[i, 3]
        if a_lo_x > u_hi_x or u_lo_x > a_hi_x or a_lo_y > u_hi_y or u_lo_y > a_hi_y:
            continue
        # a rounded arc's tight box, against a piece other than an ellipse's (whose crossings with
        # a circle come from the pencil of the two conics, not the closed forms)
        tight_a = box_a[i, 4] == box_a[i, 4]
        elliptic_a = pa[i, 0] == ARC and pa[i, 7] != pa[i, 8]
        for j in range(nb):
            if a_lo_x > box_b[j, 2] or box_b[j, 0] > a_hi_x or a_lo_y > box_b[j, 3] or box_b[j, 1] > a_hi_y:
                continue
            tight_b = box_b[j, 4] == box_b[j, 4]
            if tight_a or tight_b:
                if not elliptic_a and not (pb[j, 0] == ARC and pb[j, 7] != pb[j, 8]):
                    ca = 4 if tight_a else 0
                    cb = 4 if tight_b else 0
                    if (box_a[i, ca] > box_b[j, cb + 2] or box_b[j, cb] > box_a[i, ca + 2]
                            or box_a[i, ca + 1] > box_b[j, cb + 3] or box_b[j, cb + 1] > box_a[i, ca + 3]):
                        continue
            p = piece_row(pa, i)
            q = piece_row(pb, j)
            k, x0, y0, x1, y1, x2, y2, x3, y3 = piece_crossings(p, q)
            for c in range(k):
                if c == 0:
                    x, y = x0, y0
                elif c == 1:
                    x, y = x1, y1
                elif c == 2:
                    x, y = x2, y2
                else:
                    x, y = x3, y3
                # kept when it lies on both pieces
                tp, on_p = _param_on(p, x, y)
                if not on_p:
                    continue
                tq, on_q = _param_on(q, x, y)
                if not on_q:
                    continue
                out[m, 0] = x
                out[m, 1] = y
                out[m, 2] = i
                out[m, 3] = j
                out[m, 4] = tp
                out[m, 5] = tq
                m += 1
    return out, m


@kernel
def depth(kind, core, r, ell, x, y):
    """Signed distance-like depth of ``(x, y)`` in a region: negative inside, positive outside,
    the distance to the boundary for cores (rounded shapes, polygons), the distance scaled by the
    smaller semi-axis in the unit frame for an ellipse."""
    if kind == ELLIPSE:
        dx = x - ell[0]
        dy = y - ell[1]
        X = (ell[4] * dx + ell[5] * dy) / ell[2]
        Y = (ell[4] * dy - ell[5] * dx) / ell[3]
        return (math.hypot(X, Y) - 1.0) * min(ell[2], ell[3])
    n = core.shape[0]
    if n == 1:
        return math.hypot(x - core[0, 0], y - core[0, 1]) - r
    best = math.inf
    inside = n >= 3
    for i in range(n):
        j = (i + 1) % n
        ux, uy, right = _edge_offset(core[i, 0], core[i, 1], core[j, 0], core[j, 1], x, y)
        best = min(best, math.hypot(ux, uy))
        if right:
            inside = False
    return (-best if inside else best) - r


@kernel
def _edge_offset(x0, y0, x1, y1, x, y):
    """``(ux, uy, right)``: from the nearest point of the edge ``(x0, y0)-(x1, y1)`` to ``(x, y)``,
    and whether the point lies strictly right of the edge (outside a counter-clockwise core)."""
    ex = x1 - x0
    ey = y1 - y0
    wx = x - x0
    wy = y - y0
    e2 = ex * ex + ey * ey
    t = (wx * ex + wy * ey) / e2 if e2 != 0.0 else 0.0  # an edge whose squared length underflowed: its start
    t = min(max(t, 0.0), 1.0)
    return wx - t * ex, wy - t * ey, ex * wy - ey * wx < 0.0


@kernel
def kept_by_distance(inside, best2, r, keep_on, tol):
    """The test of :func:`inside_area`, ``d < -tol or (keep_on and d <= tol)`` for ``d =
    depth(...)`` in a rounded or polygon region of radius ``r`` (below 1, as ``tol``), decided
    from the squared distance ``best2`` of the point to the core and whether it lies inside the
    core, without a square root, where the point is farther than :data:`_DEPTH_SLACK` from the
    thresholds: 1 kept, 0 not kept, -1 undecided (:func:`depth` decides)."""
    if not best2 < 16.0:  # far outside (or a NaN): the full computation
        return -1
    # d = best - r outside the core, -best - r inside it (best = sqrt(best2) up to rounding)
    if inside:
        if keep_on or r - tol > _DEPTH_SLACK:  # -best - r <= 0 <= tol; -best - r <= -r < -tol
            return 1
    else:
        low = r - tol  # kept when best < low
        if low - _DEPTH_SLACK > 0.0 and best2 < (low - _DEPTH_SLACK) ** 2:
            return 1
        high = r + tol if keep_on else low  # else not kept when best > high
        if best2 > (high + _DEPTH_SLACK) ** 2:
            return 0
    return -1


@kernel
def _region_box(kind, core, r, tol):
    """``(x lo, y lo, x hi, y hi)``: a box outside which every point has a :func:`depth` above
    ``tol`` in a rounded or polygon region (the core's box grown by ``r + tol`` and twice
    :data:`_DEPTH_SLACK`, beyond the rounding of :func:`depth`; the distance to the core is at least
    the distance to its box); the whole plane for an ellipse."""
    if kind == ELLIPSE:
        return -math.inf, -math.inf, math.inf, math.inf
    lo_x = hi_x = core[0, 0]
    lo_y = hi_y = core[0, 1]
    for i in range(1, core.shape[0]):
        lo_x = min(lo_x, core[i, 0])
        hi_x = max(hi_x, core[i, 0])
        lo_y = min(lo_y, core[i, 1])
        hi_y = max(hi_y, core[i, 1])
    grow = r + tol + 2.0 * _DEPTH_SLACK
    if not (grow < 1.0 and lo_x == lo_x and lo_y == lo_y and hi_x == hi_x and hi_y == hi_y):
        return -math.inf, -math.inf, math.inf, math.inf
    return lo_x - grow, lo_y - grow, hi_x + grow, hi_y + grow


@kernel
def inside_area(pa, boxes, cross, column, kind_b, core_b, r_b, ell_b, keep_on, tol, order):
    """Green's theorem over the pieces of ``pa`` that lie inside region ``b``: ``(sum of chord
    cross products, sum of arc segment areas)``. The pieces are split at the crossings (the same
    floats as on ``b``); a sub-piece counts when its middle has ``depth < -tol``, or ``|depth| <=
    tol`` and ``keep_on`` (a piece on both boundaries is counted from one side only; the test:
    :func:`kept_by_distance`, else :func:`depth`).
    ``column``: 0 when ``pa`` is the first shape of the crossing table, 1 the second; ``boxes``
    the pieces' boxes (:func:`piece_boxes`): a piece whose box lies outside :func:`_region_box` of
    ``b`` has every middle outside ``b`` and is skipped (the same answer, without its middles);
    ``order``: a workspace array of 3 rows of at least ``len(cross) + 2`` (:func:`workspace`), for
    the sub-pieces' ends (parameter, x, y) in order."""
    m = cross.shape[0]
    chord = 0.0
    arcs = 0.0
    lo_x, lo_y, hi_x, hi_y = _region_box(kind_b, core_b, r_b, tol)
    # the middles' test: from squared distances to the core (kept_by_distance) where it decides
    n_b = core_b.shape[0]
    by_distance = kind_b != ELLIPSE and r_b < 1.0 and tol < 1.0
    for i in range(pa.shape[0]):
        if boxes[i, 0] > hi_x or lo_x > boxes[i, 2] or boxes[i, 1] > hi_y or lo_y > boxes[i, 3]:
            continue
        closed = pa[i, 0] == ARC and pa[i, 12] - pa[i, 11] >= TWO_PI
        lo = pa[i, 11] if pa[i, 0] == ARC else 0.0
        hi = pa[i, 12] if pa[i, 0] == ARC else 1.0
        k = 0
        order[0, 0] = lo
        order[1, 0] = pa[i, 1]
        order[2, 0] = pa[i, 2]
        k = 1
        for c in range(m):
            if int(cross[c, 2 + column]) == i:
                t = cross[c, 4 + column]
                if closed:
                    while t < lo:
                        t += TWO_PI
                    while t >= hi:
                        t -= TWO_PI
                t = min(max(t, lo), hi)
                # insertion in order of t
                j = k
                while j > 1 and order[0, j - 1] > t:
                    order[0, j] = order[0, j - 1]
                    order[1, j] = order[1, j - 1]
                    order[2, j] = order[2, j - 1]
                    j -= 1
                order[0, j] = t
                order[1, j] = cross[c, 0]
                order[2, j] = cross[c, 1]
                k += 1
        order[0, k] = hi
        order[1, k] = pa[i, 3]
        order[2, k] = pa[i, 4]
        arc = pa[i, 0] == ARC
        x0, y0, x1, y1 = pa[i, 1], pa[i, 2], pa[i, 3], pa[i, 4]
        cx, cy, a, b, ux, uy = pa[i, 5], pa[i, 6], pa[i, 7], pa[i, 8], pa[i, 9], pa[i, 10]
        for j in range(k):
            t0 = order[0, j]
            t1 = order[0, j + 1]
            mx, my = point_on(arc, x0, y0, x1, y1, cx, cy, a, b, ux, uy, 0.5 * (t0 + t1))
            decided = -1
            if by_distance:
                if n_b == 1:
                    dx = mx - core_b[0, 0]
                    dy = my - core_b[0, 1]
                    best2 = dx * dx + dy * dy
                    inside = False
                else:
                    best2 = math.inf
                    inside = n_b >= 3
                    for e in range(n_b):
                        f = (e + 1) % n_b
                        ex, ey, right = _edge_offset(core_b[e, 0], core_b[e, 1], core_b[f, 0], core_b[f, 1], mx, my)
                        best2 = min(best2, ex * ex + ey * ey)
                        if right:
                            inside = False
                decided = kept_by_distance(bool(inside), best2, r_b, keep_on, tol)
            if decided == -1:
                d = depth(kind_b, core_b, r_b, ell_b, mx, my)
                decided = 1 if d < -tol or (keep_on and d <= tol) else 0
            if decided == 1:
                chord += order[1, j] * order[2, j + 1] - order[2, j] * order[1, j + 1]
                if pa[i, 0] == ARC:
                    arcs += pa[i, 7] * pa[i, 8] * segment_area(t1 - t0)
    return chord, arcs


@kernel
def pair_frame(ka, pa, va, kb, pb, vb, cores_a, cores_b, tables_a, tables_b, ell_a, ell_b):
    """Scale (a power of two), cores, radii, origin and piece tables of a pair:
    ``(scale, ox, oy, size, core_a, r_a, pieces_a, core_b, r_b, pieces_b)``: a world point ``w`` is
    ``(w * scale) - (ox, oy)`` in the pair's frame; ``size`` the half-width of the smaller shape
    there. The arrays are made in the workspace arrays ``cores_*``, ``tables_*`` (:func:`workspace`,
    large enough for the pair: :func:`grown_capacity`), and ``ell_a``, ``ell_b`` receive the
    ellipses' rows ``(cx, cy, a, b, ux, uy)`` in the pair's frame (meaningful for ellipses only)."""
    n_a, r_a, half_a, hi_a, lo_xa, lo_ya, hi_xa, hi_ya = core_vertices(ka, pa, va, cores_a)
    n_b, r_b, half_b, hi_b, lo_xb, lo_yb, hi_xb, hi_yb = core_vertices(kb, pb, vb, cores_b)
    hi = max(hi_a, hi_b)
    scale = 1.0
    if hi > 0.0 and math.isfinite(hi):
        scale = math.ldexp(1.0, -math.frexp(hi)[1])
    r_a *= scale
    r_b *= scale
    size_a = _frame_size(ka, r_a, half_a, lo_xa, lo_ya, hi_xa, hi_ya, scale)
    size_b = _frame_size(kb, r_b, half_b, lo_xb, lo_yb, hi_xb, hi_yb, scale)
    if size_a <= size_b:
        ox = cores_a[0, 0] * scale
        oy = cores_a[0, 1] * scale
    else:
        ox = cores_b[0, 0] * scale
        oy = cores_b[0, 1] * scale
    frame_a = (cores_a[1, 0], cores_a[1, 1], cores_a[2, 0], cores_a[2, 1])  # an ellipse's, read before _to_frame
    frame_b = (cores_b[1, 0], cores_b[1, 1], cores_b[2, 0], cores_b[2, 1])
    core_a = _to_frame(ka, cores_a, n_a, scale, ox, oy)
    core_b = _to_frame(kb, cores_b, n_b, scale, ox, oy)
    pieces_a = build_pieces(ka, core_a, r_a, frame_a, scale, tables_a)
    pieces_b = build_pieces(kb, core_b, r_b, frame_b, scale, tables_b)
    for i in range(6):
        ell_a[i] = pieces_a[0, 5 + i]
        ell_b[i] = pieces_b[0, 5 + i]
    return scale, ox, oy, min(size_a, size_b), core_a, r_a, pieces_a, core_b, r_b, pieces_b


# -- the workspace: every array of a pair's computation, made once per batch (or per single call) --


@kernel
def workspace(cap_a, cap_b):
    """Arrays for pairs of at most ``cap_a`` and ``cap_b`` pieces (:func:`piece_capacity`):
    ``(cores_a, cores_b, tables_a, tables_b, ell_a, ell_b, boxes_a, boxes_b, cross, order)``: the
    arguments of :func:`pair_frame`, :func:`all_crossings` and :func:`inside_area`."""
    ca = max(cap_a, 2)
    cb = max(cap_b, 2)
    m = 4 * ca * cb
    return (np.empty((max(ca, 3), 2)), np.empty((max(cb, 3), 2)), np.empty((ca, WIDTH)), np.empty((cb, WIDTH)), np.empty(6),
            np.empty(6), np.empty((ca, 8)), np.empty((cb, 8)), np.empty((m, 6)), np.empty((3, m + 2)))


@kernel
def grown_capacity(have_a, have_b, ka, pa, kb, pb):
    """``(0, 0)`` when a workspace whose piece tables have ``have_a``, ``have_b`` rows holds the
    pair, else the capacities of one that holds it and as much as that one."""
    cap_a = piece_capacity(ka, pa)
    cap_b = piece_capacity(kb, pb)
    if cap_a <= have_a and cap_b <= have_b:
        return 0, 0
    return max(cap_a, have_a), max(cap_b, have_b)
