"""Relate kernels for the flat one- and zero-dimensional kinds: segment, line, point.

Frame: world coordinates as stored. Every decision is the sign of a 2x2 determinant (a cross
product) taken through :func:`vec.orient` or :func:`line_side`, or an exact comparison of two
stored coordinates; no quantity is ever rounded into a new coordinate. Hence the float kernels
answer exactly or return ``UNDECIDED``, and the same source decides exactly on Fractions.

Interiors (DE-9IM, see :mod:`collide2d._kernels`): a point is its own interior, a segment's is
the open segment, a line's is the whole line. Classification of two segments follows the
orientation (signed-area) case analysis of Ericson, *Real-Time Collision Detection* (2005),
section 5.1.9.1 (2D segment intersection), extended by the touching and collinear cases.
"""

import math

from collide2d._jit import kernel

from .. import codes
from ..codes import UNKNOWN_SIGN
from ..vec import certain_sign, orient


# -- exact float stage: a retry without error bounds when no operation can round -------------------
# Every sign here is a 2x2 determinant of differences of stored numbers. When all numbers of a pair
# (coordinates, directions, polygon vertices) are integers after one common power-of-two scaling
# that brings them below 2**25 in magnitude, every difference is an integer below 2**26, every
# product below 2**52 and every determinant below 2**53: all are computed exactly in float64, so a
# kernel run with ``eps = 0`` (no bound) gives the exact signs. This is the case of lattices, tile
# maps and pixel-aligned shapes, where exact contact is common; other undecided pairs keep the
# Fraction path. The retry sits outside the kernels' loops, which stay as fast as before.

_GRID_BITS = 25


@kernel
def _largest(p, v, polygon):
    """Largest magnitude among a row's numbers (a polygon's: its vertices)."""
    m = 0.0
    if polygon:
        for i in range(int(p[0]), int(p[0]) + int(p[1])):
            m = max(m, max(abs(v[i, 0]), abs(v[i, 1])))
    else:
        for i in range(p.shape[0]):
            m = max(m, abs(p[i]))
    return m


@kernel
def _on_grid(x, scale):
    """``x * scale`` (a power of two) is an integer below ``2**25`` and did not vanish."""
    y = x * scale
    return y == math.floor(y) and abs(y) < 2.0**_GRID_BITS and (y != 0.0 or x == 0.0)


@kernel
def _row_on_grid(p, v, polygon, scale):
    if polygon:
        for i in range(int(p[0]), int(p[0]) + int(p[1])):
            if not (_on_grid(v[i, 0], scale) and _on_grid(v[i, 1], scale)):
                return False
    else:
        for i in range(p.shape[0]):
            if not _on_grid(p[i], scale):
                return False
    return True


@kernel
def grid_retry(pa, va, polygon_a, pb, vb, polygon_b, eps):
    """Float mode: may an undecided pair be re-run with ``eps = 0``? True when its numbers lie on a
    common short grid (see the notes above), so that the kernel's float arithmetic is exact."""
    if not eps > 0:
        return False
    m = max(_largest(pa, va, polygon_a), _largest(pb, vb, polygon_b))
    if not (m > 0.0 and m < math.inf):
        return m == 0.0
    scale = math.ldexp(1.0, _GRID_BITS - math.frexp(m)[1])
    return _row_on_grid(pa, va, polygon_a, scale) and _row_on_grid(pb, vb, polygon_b, scale)


@kernel
def line_side(px, py, dx, dy, qx, qy, eps):
    """Side of ``q`` with respect to the line ``p + t d``: sign of ``d x (q - p)``.

    1 left of ``d``, -1 right, 0 on the line. ``d`` is a stored vector (not a rounded difference),
    so each term ``dx * (qy - py)`` has one rounded difference and one product, then one final
    difference: k = 3 (Higham section 3.1, see :mod:`vec`); K = k + 2 = 5.
    """
    ux = qx - px
    uy = qy - py
    value = dx * uy - dy * ux
    magnitude = abs(dx * uy) + abs(dy * ux)
    return certain_sign(value, magnitude * (5 * eps))


@kernel
def collinear_interval_code(ax, ay, bx, by, cx, cy, dx, dy):
    """Relation of segments ``ab`` and ``cd`` known to lie on one line (exact comparisons only).

    Points of a non-vertical line are ordered by their x coordinate alone, points of a vertical
    line by y; ``ab`` is vertical iff ``ax == bx``, and then ``cd`` (same line, ``c != d``) is
    vertical too. So both segments become closed intervals ``[a0, a1]`` and ``[c0, c1]`` of one
    stored coordinate, compared without any arithmetic.
    """
    if ax != bx:
        a0, a1, c0, c1 = ax, bx, cx, dx
    else:
        a0, a1, c0, c1 = ay, by, cy, dy
    if a0 > a1:
        a0, a1 = a1, a0
    if c0 > c1:
        c0, c1 = c1, c0
    if a1 < c0 or c1 < a0:
        return codes.DISJOINT
    if a1 == c0 or c1 == a0:  # one shared end point: boundaries meet, open segments do not
        return codes.TOUCHING
    if a0 == c0 and a1 == c1:
        return codes.EQUAL
    if a0 <= c0 and c1 <= a1:
        return codes.CONTAINS
    if c0 <= a0 and a1 <= c1:
        return codes.WITHIN
    return codes.OVERLAPPING  # a common piece of positive length, neither inside the other


@kernel
def _relate_segment_segment(pa, va, pb, vb, eps):
    """Relate segment ``a = [A, B]`` to segment ``b = [C, D]``.

    ``d1, d2`` are the sides of A and B with respect to line CD; ``d3, d4`` those of C and D with
    respect to line AB (Ericson 5.1.9.1):

    * ``d1 = d2 = 0``: all four points on one line (then ``d3 = d4 = 0`` too) -> interval case.
    * ``d1 d2 > 0`` (or ``d3 d4 > 0``): one segment lies strictly on one side of the other's
      line -> DISJOINT. This also covers parallel, non-collinear segments.
    * otherwise the lines are not parallel (if they were, ``d1 = d2 != 0``) and each segment
      reaches the other's line, so both contain the unique intersection point X. X is an end
      point of a segment iff one of ``d1..d4`` is 0; X is then on a boundary and, being the only
      common point, the interiors do not meet -> TOUCHING; else X is interior to both -> CROSSING.
    """
    ax, ay, bx, by = pa[0], pa[1], pa[2], pa[3]
    cx, cy, dx, dy = pb[0], pb[1], pb[2], pb[3]
    d1 = orient(cx, cy, dx, dy, ax, ay, eps)
    d2 = orient(cx, cy, dx, dy, bx, by, eps)
    if d1 != UNKNOWN_SIGN and d2 != UNKNOWN_SIGN:
        if d1 * d2 > 0:
            return codes.DISJOINT
        if d1 == 0 and d2 == 0:
            return collinear_interval_code(ax, ay, bx, by, cx, cy, dx, dy)
    d3 = orient(ax, ay, bx, by, cx, cy, eps)
    d4 = orient(ax, ay, bx, by, dx, dy, eps)
    if d3 != UNKNOWN_SIGN and d4 != UNKNOWN_SIGN and d3 * d4 > 0:
        return codes.DISJOINT
    if d1 == UNKNOWN_SIGN or d2 == UNKNOWN_SIGN or d3 == UNKNOWN_SIGN or d4 == UNKNOWN_SIGN:
        return codes.UNDECIDED
    # Here d1 d2 <= 0, d3 d4 <= 0 and not (d1 = d2 = 0): the lines cross at one point X.
    if d1 == 0 or d2 == 0 or d3 == 0 or d4 == 0:
        return codes.TOUCHING
    return codes.CROSSING


@kernel
def relate_segment_segment(pa, va, pb, vb, eps):
    """:func:`_relate_segment_segment`, re-run exactly when undecided on a short grid (:func:`grid_retry`)."""
    code = _relate_segment_segment(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED and grid_retry(pa, va, bool(False), pb, vb, bool(False), eps):
        return _relate_segment_segment(pa, va, pb, vb, 0.0)
    return code


@kernel
def _relate_segment_line(pa, va, pb, vb, eps):
    """Relate segment ``a = [A, B]`` to line ``b = p + t d``.

    With ``sA, sB`` the sides of A and B: both 0 -> the segment lies on the line, a proper subset
    whose interior meets the line's -> WITHIN. Same non-zero sign -> DISJOINT. One 0, one not ->
    only that end point (boundary of a) is common -> TOUCHING. Opposite signs -> the line crosses
    the open segment at one point -> CROSSING.
    """
    px, py, dx, dy = pb[0], pb[1], pb[2], pb[3]
    sa = line_side(px, py, dx, dy, pa[0], pa[1], eps)
    sb = line_side(px, py, dx, dy, pa[2], pa[3], eps)
    if sa == UNKNOWN_SIGN or sb == UNKNOWN_SIGN:
        return codes.UNDECIDED
    if sa == 0 and sb == 0:
        return codes.WITHIN
    if sa * sb > 0:
        return codes.DISJOINT
    if sa == 0 or sb == 0:
        return codes.TOUCHING
    return codes.CROSSING


@kernel
def relate_segment_line(pa, va, pb, vb, eps):
    """:func:`_relate_segment_line`, re-run exactly when undecided on a short grid (:func:`grid_retry`)."""
    code = _relate_segment_line(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED and grid_retry(pa, va, bool(False), pb, vb, bool(False), eps):
        return _relate_segment_line(pa, va, pb, vb, 0.0)
    return code


@kernel
def _relate_segment_point(pa, va, pb, vb, eps):
    """Relate segment ``a = [A, B]`` to point ``b = q``.

    q off the line AB -> DISJOINT. On the line, q is ordered along it by one stored coordinate
    (x unless AB is vertical, see :func:`collinear_interval_code`): q equal to an end point ->
    TOUCHING (the segment's boundary); strictly between -> the open segment contains q -> CONTAINS.
    """
    ax, ay, bx, by = pa[0], pa[1], pa[2], pa[3]
    qx, qy = pb[0], pb[1]
    side = orient(ax, ay, bx, by, qx, qy, eps)
    if side == UNKNOWN_SIGN:
        return codes.UNDECIDED
    if side != 0:
        return codes.DISJOINT
    if (qx == ax and qy == ay) or (qx == bx and qy == by):
        return codes.TOUCHING
    if ax != bx:
        lo, hi, q = ax, bx, qx
    else:
        lo, hi, q = ay, by, qy
    if lo > hi:
        lo, hi = hi, lo
    if lo < q and q < hi:
        return codes.CONTAINS
    return codes.DISJOINT


@kernel
def relate_segment_point(pa, va, pb, vb, eps):
    """:func:`_relate_segment_point`, re-run exactly when undecided on a short grid (:func:`grid_retry`)."""
    code = _relate_segment_point(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED and grid_retry(pa, va, bool(False), pb, vb, bool(False), eps):
        return _relate_segment_point(pa, va, pb, vb, 0.0)
    return code


@kernel
def _relate_line_line(pa, va, pb, vb, eps):
    """Relate line ``a = p + t d`` to line ``b = q + s e``.

    ``d x e != 0``: the lines cross at one point -> CROSSING. Parallel: the same line iff q lies on
    line a -> EQUAL, else DISJOINT. ``d x e = dx ey - dy ex`` has two products and one difference
    of stored numbers: k = 2, K = 4.
    """
    px, py, dx, dy = pa[0], pa[1], pa[2], pa[3]
    qx, qy, ex, ey = pb[0], pb[1], pb[2], pb[3]
    value = dx * ey - dy * ex
    magnitude = abs(dx * ey) + abs(dy * ex)
    turn = certain_sign(value, magnitude * (4 * eps))
    if turn == UNKNOWN_SIGN:
        return codes.UNDECIDED
    if turn != 0:
        return codes.CROSSING
    side = line_side(px, py, dx, dy, qx, qy, eps)
    if side == UNKNOWN_SIGN:
        return codes.UNDECIDED
    if side == 0:
        return codes.EQUAL
    return codes.DISJOINT


@kernel
def relate_line_line(pa, va, pb, vb, eps):
    """:func:`_relate_line_line`, re-run exactly when undecided on a short grid (:func:`grid_retry`)."""
    code = _relate_line_line(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED and grid_retry(pa, va, bool(False), pb, vb, bool(False), eps):
        return _relate_line_line(pa, va, pb, vb, 0.0)
    return code


@kernel
def _relate_line_point(pa, va, pb, vb, eps):
    """Relate line ``a`` to point ``b``: on the line -> CONTAINS (all of a line is interior)."""
    side = line_side(pa[0], pa[1], pa[2], pa[3], pb[0], pb[1], eps)
    if side == UNKNOWN_SIGN:
        return codes.UNDECIDED
    if side == 0:
        return codes.CONTAINS
    return codes.DISJOINT


@kernel
def relate_line_point(pa, va, pb, vb, eps):
    """:func:`_relate_line_point`, re-run exactly when undecided on a short grid (:func:`grid_retry`)."""
    code = _relate_line_point(pa, va, pb, vb, eps)
    if code == codes.UNDECIDED and grid_retry(pa, va, bool(False), pb, vb, bool(False), eps):
        return _relate_line_point(pa, va, pb, vb, 0.0)
    return code


@kernel
def relate_point_point(pa, va, pb, vb, eps):
    """Relate two points: EQUAL iff both stored coordinates are equal (no arithmetic)."""
    if pa[0] == pb[0] and pa[1] == pb[1]:
        return codes.EQUAL
    return codes.DISJOINT
