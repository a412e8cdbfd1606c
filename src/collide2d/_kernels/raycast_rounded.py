"""Ray casts against rounded shapes (capsules, rounded polygons and boxes), as
:mod:`.raycast` for the other kinds: a decision kernel (exact: Fraction-safe, only ``+ - *`` and
integer literals) and a measurement kernel (floats).

A rounded row ``(offset, count, r, x0, y0, x1, y1)`` is ``S = K + D(r)``, the points within ``r``
of its core ``K`` (the polygon ``verts[offset : offset + count]``, the segment ``(x0, y0)-(x1,
y1)`` or the point ``(x0, y0)`` for ``count >= 3``, ``2``, ``1``). Its boundary is made of *flats*,
the core's edges pushed out by ``r`` along their outward normals, and *arcs* of radius ``r`` about
the core's vertices, each within the vertex's normal cone (a segment core is the polygon of its
two ends, edges ``a -> b`` and ``b -> a``; a point core is one whole circle). The ray ``o + t d``,
``t >= 0``, from an origin outside ``S`` enters ``S`` at the first point of the ray in it, which lies
on exactly one flat or arc (or where two meet):

* **flat** ``i`` (edge ``e = v_{i+1} - v_i``, outward normal ``m = (e_y, -e_x)``): the offset line
  ``(p - v_i) . m = r |e|`` supports ``S``, so the ray enters through it when the origin lies
  strictly beyond it (``(o - v_i) . m > r |e|``), the ray moves inward (``d . m < 0``) and the
  crossing lies within the edge's extent, ``0 <= s <= 1`` for ``s`` its parameter along ``e``.
  With ``w = o - v_i``: ``s |e|^2 (d . m) = |e|^2 (d x w) + r |e| (d . e)``, so ``s >= 0`` iff
  ``|e| (d x w) + r (d . e) <= 0``, and ``s <= 1`` iff ``|e| (d x w') + r (d . e) >= 0`` with
  ``w' = o - v_{i+1}``;
* **arc** about ``v`` (``w = o - v``): the ray meets the circle ahead (``d . w < 0`` and
  ``D = r^2 |d|^2 - (d x w)^2 >= 0``) at ``P = o + t_1 d``, ``t_1 = (-(d . w) - sqrt(D)) / |d|^2``,
  and ``P`` is the entry of ``S`` when it lies in the normal cone of ``v``: ``(P - v) . e_prev >= 0``
  and ``(P - v) . e_next <= 0``. By Lagrange's identity ``|d|^2 (P - v) . e = F - G sqrt(D)`` with
  ``F = (d x w)(d x e)`` and ``G = d . e``, and ``F^2 - G^2 D = |d|^2 ((d x w)^2 |e|^2 - r^2 (d . e)^2)``.
  Only when the ray runs along a flat can two arcs qualify (the flat's two ends): the one nearer
  along the ray (the least ``d . v``) is the entry.

Every sign ``sign(A sqrt(E) + B)`` is decided without a square root: the signs of ``A`` and ``B``
when they agree, else the sign of ``A^2 E - B^2``. Each float sign carries an error bound
(:func:`..vec.certain_sign`; the magnitudes below are the expressions with every term made
absolute, ``K`` the factor of the unit roundoff); an undecided row returns ``UNDECIDED`` and the
glue runs the same source on Fractions with ``eps = 0``. A row of radius 0 runs the kernels of its
core's kind, so its answers are theirs, bit for bit.

Features: ``2 i`` the flat of edge ``i``, ``2 i + 1`` the arc of vertex ``i``.

Box2D casts a ray against a capsule the same way (``b2RayCastCapsule`` in ``src/geometry.c``:
the two end circles and the two offset sides), and against a rounded polygon by a shape cast.
"""

import math

from collide2d._jit import kernel

from . import codes
from .codes import UNKNOWN_SIGN
from .motion.raycast import (
    HIT,
    INSIDE,
    MISS,
    ON,
    UNDECIDED,
    _dot_sign,
    _missed,
    _unit,
    raycast_code_point,
    raycast_code_polygon,
    raycast_code_segment,
    raycast_point,
    raycast_polygon,
    raycast_segment,
)
from .relate.rounded import relate_rounded_point
from .vec import certain_sign

_NAN = math.nan


@kernel
def _vertex_count(row):
    """The number of core vertices of a rounded row (1, 2 or the polygon's count)."""
    return int(row[1])


@kernel
def _vertex(row, verts, i):
    """Core vertex ``i`` of a rounded row."""
    if row[1] >= 3:
        k = int(row[0]) + i
        return verts[k, 0], verts[k, 1]
    if i == 0:
        return row[3], row[4]
    return row[5], row[6]


@kernel
def _sqrt_sum_sign(a, ma, e, b, mb, r2, eps):
    """Sign of ``a sqrt(e) + b`` for ``e >= 0`` with ``b^2`` known as ``r2 * x^2`` (``b = r x``,
    ``r >= 0``): ``a`` (magnitude ``ma``, K = 8) and ``x = b / r`` (magnitude ``mb``, K = 8) are
    one-level cross or dot products of rounded differences; ``a^2 e - r2 x^2`` has K = 32 on
    ``ma^2 e + r2 mb^2``."""
    sa = certain_sign(a, ma * (8 * eps))
    sb = certain_sign(b, mb * (8 * eps))
    return _combined(sa, sb, a * a * e - r2 * b * b, (ma * ma * e + r2 * mb * mb) * (32 * eps))


@kernel
def _combined(sa, sb, value, bound):
    """Sign of a sum of two terms of signs ``sa`` and ``sb`` (the first not 0 unless the second
    decides): theirs when they agree, else ``sa`` times the sign of ``value`` (within ``bound``), the
    difference of their squares."""
    if sa == UNKNOWN_SIGN or sb == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    if sa == 0:
        return sb
    if sb == 0 or sa == sb:
        return sa
    t = certain_sign(value, bound)
    if t == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    return sa * t


@kernel
def _flat_sign(px, py, ex, ey, dx, dy, ee, r2, eps):
    """Sign of ``|e| (d x p) + r (d . e)`` for ``p = o - v`` (``ee = |e|^2``): with ``v`` the start
    of the edge, ``s >= 0`` of the module notes iff it is ``<= 0``; with ``v`` its end, ``s <= 1``
    iff it is ``>= 0``."""
    cross = dx * py - dy * px
    dot = dx * ex + dy * ey
    return _sqrt_sum_sign(cross, abs(dx * py) + abs(dy * px), ee, dot, abs(dx * ex) + abs(dy * ey), r2, eps)


@kernel
def _flat_entry(vx, vy, wx, wy, ox, oy, dx, dy, r2, eps):
    """Whether the ray enters through the flat of edge ``v -> w`` (1, 0, or ``UNKNOWN_SIGN``)."""
    ex = wx - vx
    ey = wy - vy
    ee = ex * ex + ey * ey
    # d . m = d x e < 0: moving inward
    inward = certain_sign(dx * ey - dy * ex, (abs(dx * ey) + abs(dy * ex)) * (8 * eps))
    if inward == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    if inward >= 0:
        return 0
    # (o - v) . m = (o - v) x e > r |e|: the origin beyond the offset line
    px = ox - vx
    py = oy - vy
    c = px * ey - py * ex
    mc = abs(px * ey) + abs(py * ex)
    far = certain_sign(c * c - r2 * ee, (mc * mc + r2 * ee) * (32 * eps))
    if far == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    if far <= 0:
        return 0
    side = certain_sign(c, mc * (8 * eps))
    if side == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    if side <= 0:
        return 0
    start = _flat_sign(px, py, ex, ey, dx, dy, ee, r2, eps)  # s >= 0 iff <= 0
    if start == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    if start > 0:
        return 0
    end = _flat_sign(ox - wx, oy - wy, ex, ey, dx, dy, ee, r2, eps)  # s <= 1 iff >= 0
    if end == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    return 1 if end >= 0 else 0


@kernel
def _cone_sign(px, py, ex, ey, dx, dy, ee, r2, disc, eps):
    """Sign of ``(P - v) . e`` for the entry ``P`` into the circle about ``v`` (``o - v = (px,
    py)``, ``disc`` the sign of ``D``): the sign of ``F - G sqrt(D)`` of the module notes."""
    cw = dx * py - dy * px
    mw = abs(dx * py) + abs(dy * px)
    ce = dx * ey - dy * ex
    me = abs(dx * ey) + abs(dy * ex)
    g = dx * ex + dy * ey
    mg = abs(dx * ex) + abs(dy * ey)
    sw = certain_sign(cw, mw * (8 * eps))
    se = certain_sign(ce, me * (8 * eps))
    sg = certain_sign(g, mg * (8 * eps))
    if sw == UNKNOWN_SIGN or se == UNKNOWN_SIGN or sg == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    sf = sw * se
    if sf == 0:
        return -sg if disc > 0 else 0
    return _combined(sf, -sg, cw * cw * ee - r2 * g * g, (mw * mw * ee + r2 * mg * mg) * (32 * eps))


@kernel
def _arc_entry(row, verts, i, n, ox, oy, dx, dy, dd, r2, eps):
    """Whether the ray enters through the arc of core vertex ``i`` of ``n`` (1, 0, or
    ``UNKNOWN_SIGN``)."""
    vx, vy = _vertex(row, verts, i)
    ahead = _dot_sign(dx, dy, vx, vy, ox, oy, eps)  # d . (v - o) > 0
    if ahead == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    if ahead <= 0:
        return 0
    px = ox - vx
    py = oy - vy
    cw = dx * py - dy * px
    mw = abs(dx * py) + abs(dy * px)
    disc = certain_sign(r2 * dd - cw * cw, (r2 * dd + mw * mw) * (32 * eps))  # D >= 0: the line meets the circle
    if disc == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    if disc < 0:
        return 0
    if n == 1:
        return 1
    ax, ay = _vertex(row, verts, i - 1 if i > 0 else n - 1)
    bx, by = _vertex(row, verts, i + 1 if i + 1 < n else 0)
    ex = vx - ax
    ey = vy - ay
    before = _cone_sign(px, py, ex, ey, dx, dy, ex * ex + ey * ey, r2, disc, eps)  # >= 0
    if before == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    if before < 0:
        return 0
    ex = bx - vx
    ey = by - vy
    after = _cone_sign(px, py, ex, ey, dx, dy, ex * ex + ey * ey, r2, disc, eps)  # <= 0
    if after == UNKNOWN_SIGN:
        return UNKNOWN_SIGN
    return 1 if after <= 0 else 0


@kernel
def _beside(row, verts, ox, oy, dx, dy, dd, r2, eps):
    """Whether every core vertex lies certainly farther than ``r`` from the ray's line, on one
    side (``d x (v - o)`` of one sign and ``(d x (v - o))^2 > r^2 |d|^2``): the line then misses the
    convex core grown by ``r``. A quick exit for most rays that miss; False when unsure."""
    side = 0
    for i in range(_vertex_count(row)):
        vx, vy = _vertex(row, verts, i)
        px = vx - ox
        py = vy - oy
        c = dx * py - dy * px
        mc = abs(dx * py) + abs(dy * px)
        far = certain_sign(c * c - r2 * dd, (mc * mc + r2 * dd) * (32 * eps))
        s = certain_sign(c, mc * (8 * eps))
        if far != 1 or s == UNKNOWN_SIGN or s == 0 or (side != 0 and s != side):
            return False
        side = s
    return True


@kernel
def raycast_code_rounded(row, verts, ray, eps):
    """Decision for a rounded row; the feature hit first (module notes)."""
    count = _vertex_count(row)
    if row[2] == 0:  # radius 0: the core's own decision, bit for bit
        if count >= 3:
            return raycast_code_polygon(row[0:2], verts, ray, eps)
        if count == 2:
            return raycast_code_segment(row[3:7], verts, ray, eps)
        return raycast_code_point(row[3:5], verts, ray, eps)
    ox, oy, dx, dy = ray[0], ray[1], ray[2], ray[3]
    r = row[2]
    r2 = r * r  # exact on Fractions; a float's rounding is within the K of the signs that use it
    dd = dx * dx + dy * dy
    if _beside(row, verts, ox, oy, dx, dy, dd, r2, eps):
        return MISS, 0  # the line misses the shape (the origin, on it, lies outside)
    inside = relate_rounded_point(row, verts, ray, verts, eps)
    if inside == codes.UNDECIDED:
        return UNDECIDED, 0
    if inside == codes.CONTAINS:
        return INSIDE, 0
    if inside == codes.TOUCHING:
        return ON, 0
    if count >= 2:
        for i in range(count):
            vx, vy = _vertex(row, verts, i)
            wx, wy = _vertex(row, verts, i + 1 if i + 1 < count else 0)
            flat = _flat_entry(vx, vy, wx, wy, ox, oy, dx, dy, r2, eps)
            if flat == UNKNOWN_SIGN:
                return UNDECIDED, 0
            if flat == 1:
                return HIT, 2 * i
    best = int(-1)
    for i in range(count):
        arc = _arc_entry(row, verts, i, count, ox, oy, dx, dy, dd, r2, eps)
        if arc == UNKNOWN_SIGN:
            return UNDECIDED, 0
        if arc == 1:
            if best < 0:
                best = i
            else:  # along a flat: the end nearer along the ray
                bx, by = _vertex(row, verts, best)
                vx, vy = _vertex(row, verts, i)
                nearer = _dot_sign(dx, dy, bx, by, vx, vy, eps)  # d . (v_best - v_i) > 0: v_i first
                if nearer == UNKNOWN_SIGN:
                    return UNDECIDED, 0
                if nearer > 0:
                    best = i
    if best < 0:
        return MISS, 0
    return HIT, 2 * best + 1


@kernel
def _boundary_normal(row, verts, ox, oy):
    """The outward unit normal of the rounded boundary at a point ``o`` on it: from the nearest
    point of the core to ``o``."""
    count = _vertex_count(row)
    qx, qy = _vertex(row, verts, int(0))
    best = math.hypot(ox - qx, oy - qy)
    if count >= 2:
        for i in range(count):
            vx, vy = _vertex(row, verts, i)
            wx, wy = _vertex(row, verts, i + 1 if i + 1 < count else 0)
            ex = wx - vx
            ey = wy - vy
            ee = ex * ex + ey * ey
            s = ((ox - vx) * ex + (oy - vy) * ey) / ee if ee > 0.0 else 0.0
            s = min(max(s, 0.0), 1.0)
            fx = vx + s * ex
            fy = vy + s * ey
            dist = math.hypot(ox - fx, oy - fy)
            if dist < best:
                best = dist
                qx = fx
                qy = fy
    return _unit(ox - qx, oy - qy)


@kernel
def raycast_rounded(row, verts, ray, code, feature):
    """Distance, point and outward normal of the ray against a rounded row.

    Flat ``i``: the signed distance ``h`` of the origin from the offset line over the approach
    speed ``-u . m`` (``u`` the unit direction, ``m`` the unit normal). Arc about ``v``: the smaller
    root of ``|w + t u|^2 = r^2`` (``w = o - v``) as ``(|w|^2 - r^2) / (sqrt(D) - u . w)`` with
    ``D = (r - |u x w|)(r + |u x w|)`` (no cancellation: ``u . w < 0`` ahead), its normal
    ``(w + t u) / r``. On the boundary: the direction from the nearest core point.
    """
    count = _vertex_count(row)
    if row[2] == 0.0:  # radius 0: the core's own measurement
        if count >= 3:
            return raycast_polygon(row[0:2], verts, ray, code, feature)
        if count == 2:
            return raycast_segment(row[3:7], verts, ray, code, feature)
        return raycast_point(row[3:5], verts, ray, code, feature)
    ox, oy, dx, dy = ray[0], ray[1], ray[2], ray[3]
    if code == MISS:
        return _missed()
    if code == INSIDE:
        return 0.0, ox, oy, _NAN, _NAN
    if code == ON:
        nx, ny = _boundary_normal(row, verts, ox, oy)
        return 0.0, ox, oy, nx, ny
    r = row[2]
    ux, uy = _unit(dx, dy)
    i = feature // 2
    vx, vy = _vertex(row, verts, i)
    if feature % 2 == 0:
        wx, wy = _vertex(row, verts, i + 1 if i + 1 < count else 0)
        mx, my = _unit(wy - vy, vx - wx)
        h = ((ox - vx) * mx + (oy - vy) * my) - r
        t = max(h / -(ux * mx + uy * my), 0.0)
        return t, ox + t * ux, oy + t * uy, mx, my
    wx = ox - vx
    wy = oy - vy
    across = abs(ux * wy - uy * wx)
    root = math.sqrt(max((r - across) * (r + across), 0.0))
    t = max(((wx * wx + wy * wy) - r * r) / (root - (ux * wx + uy * wy)), 0.0)
    nx, ny = _unit(wx + t * ux, wy + t * uy)
    return t, ox + t * ux, oy + t * uy, nx, ny
