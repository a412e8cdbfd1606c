"""Time of impact of translating rounded shapes in closed form: a ray against a rounded polygon.

A rounded shape is its core (a point, a segment or a convex polygon) grown by the disc of radius
``r``; the plain flat kinds are cores of radius 0. Seen from ``a``, ``b`` moves by ``V t`` with
``V = v_b - v_a`` (and its periodic shift ``s``), so the pair touches at ``t`` exactly when the
distance of the cores, ``dist(A, B + s + V t)``, is at most ``R = r_a + r_b``: when the moving
point ``-(s + V t)`` enters the Minkowski difference ``A - B`` grown by the disc of radius ``R``, a
rounded convex polygon. That is the ray cast of a disc against a polygon (Ericson, *Real-Time
Collision Detection*, 2005, 5.5.7, a moving sphere against a box; Box2D's ``b2ShapeCast`` casts
the rounded proxies of ``b2MakeProxy`` the same way, by iteration).

**The pieces.** The boundary of the grown difference is made of the edges of ``B - A`` moved out
by ``R`` along their normals and of arcs of radius ``R`` about its corners. Every edge of ``B - A``
is an edge of one core against the corner of the other that is extreme in its normal direction,
and every corner a difference of corners. So the first contact is the earliest of: for an edge
``a_i -> a_k`` of ``A`` (outward normal ``m = (e_y, -e_x)``, ``e = a_k - a_i``) and the corners
``b_j`` of ``B`` nearest to it along ``m``, the time at which ``m . (b_j + s + V t - a_i)`` falls to
``R |e|`` with the foot of ``b_j`` on the edge; the same for the edges of ``B`` against the corners
of ``A``; and for the corners, the first root of ``|b_j + s + V t - a_i| = R`` (a quadratic,
solved as the half chord of the disc: ``(|q| - R) (|q| + R) / (sqrt((R |V| - |q x V|) (R |V| +
|q x V|)) - q . V)``, ``q = b_j + s - a_i``, whose terms do not cancel except near a graze). Each
piece is part of the grown difference, whichever corners are taken: extra pieces (corners that
rounding made look nearest, every pair of corners for the arcs) only add times at or after the
first contact. The closest approach of a miss is the nearest of those pieces too: an edge's
normal or the direction from a corner of ``B - A`` to the nearest point of the path.

**Certification.** The separation ``g(t) = dist(A, B + s + V t) - R`` is convex in ``t`` (the
distance from a point moving on a line to a convex set). For any direction ``n`` the gap of the
supports, ``G_n(t) = min_j n . (b_j + s + V t) - max_i n . a_i - R |n|``, is a lower bound of
``|n| g(t)`` and linear in ``t``. So the kernel proves a hit at ``t`` by two facts, each decided
with a rigorous bound on the rounding of its float evaluation (the differences ``b_j - a_i``
first, then ``+ s``, then ``+ V t``: at most ``4u (|b_j - a_i| + |... + s| + |V t|)`` per
coordinate, ``u = 2**-53``; then the dot product): the shapes apart at ``t_lo`` (``G_n(t_lo) > 0``
for the contact normal ``n``) and touching at ``t_hi`` (the corner within ``R`` of the piece found);
by convexity the first contact then lies in ``(t_lo, t_hi]`` (``g`` is positive at ``t_lo`` and not
at ``t_hi``, so positive on all of ``[0, t_lo]``). It reports ``t_lo``: never after the contact,
and within ``TIME_TOL`` of ``t_max`` (or of the time, without ``t_max``) of it, as the closed
forms of the flat kinds (:mod:`.toi_closed`) do. A miss is proved by one direction whose gap is
positive at 0 and at ``t_max`` (or does not fall, without ``t_max``): linear in ``t``, it is then
positive all along. Anything else (touching or overlapping at 0, a graze, a contact at ``t_max``,
a certificate the rounding does not settle, magnitudes whose products overflow) is
:data:`~.toi_closed.UNDECIDED`, for the certified search of :mod:`.toi`.

Frame: the rows as given (``b`` shifted by the pair's ``gdx, gdy``); the contact point comes back
in those coordinates moved to the time found, the normal from ``a`` to ``b``.
"""

import math

import numpy as np
from numba.extending import register_jitable

from collide2d._jit import kernel

from ..vec import two_product, two_sum
from .constants import HIT, MISS, TIME_TOL
from .toi_closed import FLOOR, UNDECIDED

ELLIPSE, POLYGON, SEGMENT, LINE, POINT, ROUNDED = 0, 1, 2, 3, 4, 5  # the kind codes of .toi
U = 2.0**-53  # the unit roundoff
NEAR = 2.0**-40  # corners this close (relative) to the nearest along a normal touch with it (faces)

# The small helpers on plain floats are inlined into their callers (without branches: Numba's
# inliner wants none); those with loops over the corner table are kernels of their own.
inline = register_jitable(inline="always")


@kernel
def _fill(kind, p, verts, pts, start, count):
    """The corners of a row's core into ``pts[start : start + count]`` (a polygon's counter-clockwise;
    a circle's centre)."""
    if kind == POLYGON or count >= 3:
        first = int(p[0])
        for j in range(count):
            pts[start + j, 0] = verts[first + j, 0]
            pts[start + j, 1] = verts[first + j, 1]
        return
    column = 3 if kind == ROUNDED else 0
    for j in range(count):
        pts[start + j, 0] = p[column + 2 * j]
        pts[start + j, 1] = p[column + 2 * j + 1]


@kernel
def _after(kind_a, pa, verts_a, na, ra, kind_b, pb, verts_b, nb, rb):
    """Whether the row ``a`` comes after ``b`` in a fixed order of rows (kind, corner count, radius,
    then the corners; a circle counts as the rounded point it is): the pair is worked out in that
    order whichever way it is given, so that both orders get the same floats."""
    order_a = ROUNDED if kind_a == ELLIPSE else kind_a
    order_b = ROUNDED if kind_b == ELLIPSE else kind_b
    if order_a != order_b:
        return order_a > order_b
    if na != nb:
        return na > nb
    if ra != rb:
        return ra > rb
    pts = np.empty((2 * na, 2))
    _fill(kind_a, pa, verts_a, pts, int(0), na)
    _fill(kind_b, pb, verts_b, pts, na, na)
    for j in range(na):
        for c in range(2):
            if pts[j, c] != pts[na + j, c]:
                return pts[j, c] > pts[na + j, c]
    return False


@kernel
def _unit_scale(pts, radius, sx, sy, vax, vay, vbx, vby):
    """A power of two that brings the largest coordinate (or the radius, or the shift) to about 1,
    when it scales every number of the pair exactly (no underflow, no overflow); else 1."""
    big = max(radius, max(abs(sx), abs(sy)))
    for c in range(pts.shape[0]):
        big = max(big, max(abs(pts[c, 0]), abs(pts[c, 1])))
    if not (big > 0.0 and math.isfinite(big)):
        return 1.0
    factor = math.ldexp(1.0, -math.frexp(big)[1])
    if factor == 1.0:
        return 1.0
    exact = True
    for x in (radius, sx, sy, vax, vay, vbx, vby):
        y = x * factor
        exact = exact and math.isfinite(y) and y / factor == x
    for c in range(pts.shape[0]):
        for k in range(2):
            y = pts[c, k] * factor
            exact = exact and y / factor == pts[c, k]
    return factor if exact else 1.0


@kernel
def _edge_count(na, nb):
    """The edges of two cores of ``na`` and ``nb`` corners (a segment's two sides; a point none)."""
    return (na if na >= 2 else 0) + (nb if nb >= 2 else 0)


@kernel
def _edge_ends(na, nb, edge):
    """Edge ``edge`` of the pair (``a``'s first, then ``b``'s), in the corner table of ``a`` then
    ``b``: its corners ``i -> k``, the first and count of the other core's corners, and ``sign``
    (1: an edge of ``a``; -1: of ``b``)."""
    if na >= 2 and edge < na:
        return edge, (edge + 1) % na, na, nb, 1.0
    c = edge - (na if na >= 2 else 0)
    return na + c, na + (c + 1) % nb, 0, na, -1.0


@inline
def _relative(pts, i, o, sx, sy, sign):
    """The corner ``pts[o]`` of one core seen from the corner ``pts[i]`` of the other: ``(b - a) + s``
    from ``a`` (``sign`` 1), its negative from ``b`` (``sign`` -1; the same floats, negated)."""
    own_x, own_y = pts[i, 0], pts[i, 1]
    far_x, far_y = pts[o, 0], pts[o, 1]
    return sign * (sign * (far_x - own_x) + sx), sign * (sign * (far_y - own_y) + sy)


@inline
def _offset(pts, i, j, sx, sy, vx, vlx, vy, vly, t):
    """``d = (b_j - a_i) + s + V t`` (``pts[j]`` a corner of ``b``, ``pts[i]`` of ``a``; ``V = (vx +
    vlx, vy + vly)`` exactly) as unevaluated sums ``h + l`` per coordinate (Knuth's TwoSum,
    Dekker's TwoProduct: :mod:`collide2d._kernels.vec`): ``(hx, lx, hy, ly, ex, ey)``, ``e`` the
    sum of the magnitudes of the five parts of ``l`` (each within a unit of ``h``'s last place;
    their sum rounds, ``l`` is within ``4u e`` of the exact one)."""
    hx, lx = two_sum(pts[j, 0], -pts[i, 0])
    hy, ly = two_sum(pts[j, 1], -pts[i, 1])
    hx, ex = two_sum(hx, sx)
    hy, ey = two_sum(hy, sy)
    px, pex = two_product(vx, t)
    py, pey = two_product(vy, t)
    hx, fx = two_sum(hx, px)
    hy, fy = two_sum(hy, py)
    tail_x = abs(lx) + abs(ex) + abs(pex) + abs(vlx * t) + abs(fx)
    tail_y = abs(ly) + abs(ey) + abs(pey) + abs(vly * t) + abs(fy)
    return hx, (((lx + ex) + pex) + vlx * t) + fx, hy, (((ly + ey) + pey) + vly * t) + fy, tail_x, tail_y


@inline
def _term(pts, i, j, sx, sy, vx, vlx, vy, vly, t, nx, ny):
    """``(head, tail, bound)``: ``n . d = head + tail`` for the offset ``d`` of :func:`_offset`, within
    ``bound``: the dot product kept as an unevaluated sum too, so that only the small parts round
    (a few units of their size, far below the rounding of the offset itself; the sum ``head +
    tail`` rounds once more)."""
    hx, lx, hy, ly, tail_x, tail_y = _offset(pts, i, j, sx, sy, vx, vlx, vy, vly, t)
    ax, aex = two_product(nx, hx)
    ay, aey = two_product(ny, hy)
    head, se = two_sum(ax, ay)
    tail = (((se + aex) + aey) + nx * lx) + ny * ly
    small = abs(se) + abs(aex) + abs(aey) + abs(nx * lx) + abs(ny * ly)
    return head, tail, 8.0 * U * small + 8.0 * U * (abs(nx) * tail_x + abs(ny) * tail_y) + FLOOR


@inline
def _reach(nx, ny, ra, rb):
    """``(high, low, bound)``: ``R |n| = high + low`` (``R = r_a + r_b``) within ``bound``: ``|n|^2`` as
    an unevaluated sum, its square root refined by one Newton step (``sqrt(s) + (s - r^2) / 2r``:
    a relative error of order ``u^2``), the products kept as sums too."""
    p1, e1 = two_product(nx, nx)
    p2, e2 = two_product(ny, ny)
    square, es = two_sum(p1, p2)
    root = math.sqrt(square)
    rr, err = two_product(root, root)
    fix = (((square - rr) - err) + ((es + e1) + e2)) / (2.0 * root) if root > 0.0 else 0.0
    rh, rl = two_sum(ra, rb)
    high, pe = two_product(rh, root)
    low = (pe + rh * fix) + rl * root
    bound = 8.0 * U * (abs(pe) + abs(rh * fix) + abs(rl * root)) + 8.0 * U * U * abs(high) + FLOOR
    return high, low, bound


@kernel
def _gap(pts, na, nb, i, nx, ny, ra, rb, sx, sy, vx, vlx, vy, vly, t):
    """A lower bound of ``G_n(t) = min_j n . (b_j + s + V t) - max_k n . a_k - R |n|`` (see the
    module), each term measured from the corner ``a_i`` (small differences near the contact),
    evaluated by :func:`_term` and less ``R |n|`` (:func:`_reach`) before it rounds."""
    reach_hi, reach_lo, reach_bound = _reach(nx, ny, ra, rb)
    low = math.inf
    for j in range(na, na + nb):
        head, tail, bound = _term(pts, i, j, sx, sy, vx, vlx, vy, vly, t, nx, ny)
        gh, ge = two_sum(head, -reach_hi)
        rest = (ge + tail) - reach_lo
        value = gh + rest
        bound += reach_bound + 2.0 * U * (abs(ge) + abs(tail) + abs(reach_lo)) + 2.0 * U * abs(value)
        low = min(low, value - bound)
    high = -math.inf
    for k in range(na):
        head, tail, bound = _term(pts, i, k, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, nx, ny)
        value = head + tail
        high = max(high, value + bound + 2.0 * U * abs(value))
    gap = low - high
    return gap - 2.0 * U * (abs(low) + abs(high)) - FLOOR


@inline
def _plain(x):
    """``x`` is 0 or of a size whose products are exact to split (no underflow, no overflow)."""
    m = abs(x)
    return (m == 0.0) | ((m >= 2.0**-450) & (m <= 2.0**450))


@kernel
def _exact_gap(pts, na, nb, i, nx, ny, ra, rb, sx, sy, vx, vlx, vy, vly, t):
    """``G_n(t)`` (:func:`_gap`) exactly, when its evaluation rounds nowhere (exact data: small
    integers, dyadic fractions, a normal whose length is a float), else NaN."""
    p1, e1 = two_product(nx, nx)
    p2, e2 = two_product(ny, ny)
    square, es = two_sum(p1, p2)
    root = math.sqrt(square)
    rr, err = two_product(root, root)
    rh, rl = two_sum(ra, rb)
    reach, pe = two_product(rh, root)
    if not ((e1 == 0.0) & (e2 == 0.0) & (es == 0.0) & (rr == square) & (err == 0.0) & (rl == 0.0) & (pe == 0.0)
            & _plain(nx) & _plain(ny) & _plain(root) & _plain(rh) & _plain(vx * t) & _plain(vy * t)):
        return math.nan
    low = math.inf
    high = -math.inf
    for j in range(na + nb):
        moving = 1.0 if j >= na else 0.0  # (a's corners: n . (a_j - a_i), no shift, no motion)
        hx, _, hy, _, tail_x, tail_y = _offset(pts, i, j, moving * sx, moving * sy, moving * vx, moving * vlx,
                                               moving * vy, moving * vly, moving * t)
        ax, aex = two_product(nx, hx)
        ay, aey = two_product(ny, hy)
        head, se = two_sum(ax, ay)
        if not ((tail_x == 0.0) & (tail_y == 0.0) & (aex == 0.0) & (aey == 0.0) & (se == 0.0) & _plain(hx) & _plain(hy)):
            return math.nan
        if j < na:
            high = max(high, head)
        else:
            g, ge = two_sum(head, -reach)
            if ge != 0.0:
                return math.nan
            low = min(low, g)
    gap, e = two_sum(low, -high)
    return gap if e == 0.0 else math.nan


@inline
def _in_reach(pts, i, j, sx, sy, vx, vlx, vy, vly, t, ra, rb):
    """Whether the corners ``b_j`` and ``a_i`` lie within ``R = r_a + r_b`` of each other at ``t``, for
    sure: ``|d|^2 - R^2`` in unevaluated sums (:func:`_offset`; ``R = rh + rl`` by TwoSum),
    below minus its bound."""
    hx, lx, hy, ly, tail_x, tail_y = _offset(pts, i, j, sx, sy, vx, vlx, vy, vly, t)
    rh, rl = two_sum(ra, rb)
    xx, exx = two_product(hx, hx)
    yy, eyy = two_product(hy, hy)
    rr, err = two_product(rh, rh)
    head, e1 = two_sum(xx, yy)
    head, e2 = two_sum(head, -rr)
    parts = (e1, e2, exx, eyy, -err, 2.0 * hx * lx, 2.0 * hy * ly, -2.0 * rh * rl)
    tail = 0.0
    small = 0.0
    for part in parts:
        tail += part
        small += abs(part)
    value = head + tail
    bound = (2.0 * U * abs(value) + 16.0 * U * small + 8.0 * U * (abs(hx) * tail_x + abs(hy) * tail_y)
             + lx * lx + ly * ly + rl * rl + FLOOR)
    return value + bound < 0.0


@inline
def _in_band(pts, i, j, sign, fx, fy, sx, sy, vx, vlx, vy, vly, t, radius):
    """Whether a corner lies within ``R`` of an edge ``f`` (the float difference of two corners:
    within ``u`` of the exact one per coordinate) at ``t``, its foot on the edge, for sure: the
    corner ``b_j`` from ``a_i`` (``sign`` 1: the offset ``d`` of :func:`_offset`), or ``a_i`` from
    ``b_j`` (``sign`` -1: ``-d``); its height ``m . (sign d)`` (``m = (f_y, -f_x)``) at most ``R |f|``
    in size, ``f . (sign d)`` within ``[0, |f|^2]``."""
    head, tail, e_height = _term(pts, i, j, sx, sy, vx, vlx, vy, vly, t, sign * fy, -sign * fx)
    height = head + tail
    e_height += 2.0 * U * abs(height)
    head, tail, e_along = _term(pts, i, j, sx, sy, vx, vlx, vy, vly, t, sign * fx, sign * fy)
    along = head + tail
    e_along += 2.0 * U * abs(along)
    hx, _, hy, _, _, _ = _offset(pts, i, j, sx, sy, vx, vlx, vy, vly, t)
    slack = 2.0 * U * (abs(fx) + abs(fy)) * (abs(hx) + abs(hy))  # (the exact edge, not the float one)
    square = fx * fx + fy * fy
    width = radius * math.sqrt(square) * (1.0 - 8.0 * U)
    return ((abs(height) + e_height + slack <= width) & (along - e_along - slack >= 0.0)
            & (along + e_along + slack <= square * (1.0 - 8.0 * U)))


@kernel
def _touching(pts, feature, i, j, k, sx, sy, vx, vlx, vy, vly, t, ra, rb):
    """Whether the piece found is touched or entered at ``t``, for sure: ``feature`` 0, the corner
    ``b_j`` within ``R`` of the edge ``a_i -> a_k`` (or of its ends); 1, the corner ``a_i`` within
    ``R`` of the edge ``b_j -> b_k`` (or of its ends); 2, ``b_j`` within ``R`` of ``a_i``."""
    if _in_reach(pts, i, j, sx, sy, vx, vlx, vy, vly, t, ra, rb):
        return True
    if feature == 2:
        return False
    radius = ra + rb
    if feature == 0:
        fx, fy = pts[k, 0] - pts[i, 0], pts[k, 1] - pts[i, 1]
        return (_in_band(pts, i, j, 1.0, fx, fy, sx, sy, vx, vlx, vy, vly, t, radius)
                or _in_reach(pts, k, j, sx, sy, vx, vlx, vy, vly, t, ra, rb))
    fx, fy = pts[k, 0] - pts[j, 0], pts[k, 1] - pts[j, 1]
    return (_in_band(pts, i, j, -1.0, fx, fy, sx, sy, vx, vlx, vy, vly, t, radius)
            or _in_reach(pts, i, k, sx, sy, vx, vlx, vy, vly, t, ra, rb))


@kernel
def _apart_over(pts, na, nb, i, nx, ny, ra, rb, sx, sy, vx, vlx, vy, vly, t_end):
    """Whether the gap along ``n`` (measured from ``a_i``) is positive all over ``[0, t_end]`` for
    sure: at 0 and at ``t_end`` (it is linear in ``t``)."""
    if not (nx != 0.0 or ny != 0.0) or not _gap(pts, na, nb, i, nx, ny, ra, rb, sx, sy, vx, vlx, vy, vly, 0.0) > 0.0:
        return False
    return t_end == 0.0 or _gap(pts, na, nb, i, nx, ny, ra, rb, sx, sy, vx, vlx, vy, vly, t_end) > 0.0


@kernel
def _receding_from(pts, na, nb, ra, rb, sx, sy, vx, vlx, vy, vly):
    """A time from which the shapes are apart for sure, for ever (inf: none found): the gap along
    ``V`` itself grows at ``|V|^2``; from its bound at 0, the time it is positive."""
    grow = (vx * vx + vy * vy) * (1.0 - 4.0 * U) - FLOOR  # below V_float . V_exact
    if not grow > 0.0:
        return math.inf
    start = _gap(pts, na, nb, int(0), vx, vy, ra, rb, sx, sy, vx, vlx, vy, vly, 0.0)
    if not math.isfinite(start):
        return math.inf
    if start > 0.0:
        return 0.0
    at = (-start / grow) * (1.0 + 2.0**-20) + 2.0**-1000
    if not start + (grow * at) * (1.0 - 4.0 * U) > 4.0 * U * abs(start) + FLOOR:
        return math.inf
    return at


@kernel
def _missed(pts, na, nb, ra, rb, sx, sy, vx, vlx, vy, vly, t_max, still):
    """Whether the shapes stay apart over ``[0, t_max]`` for sure (a miss): a direction whose gap
    is positive at both ends of ``[0, t_end]``, where ``t_end`` is ``t_max``, or without ``t_max``
    the time from which the gap along ``V`` is positive (:func:`_receding_from`). Tried: the
    direction from the corner pair nearest to the path ``[0, t_end]`` to its nearest point, then
    the edge normal along which the gap over the path is widest (the nearest piece of the grown
    difference is one or the other)."""
    radius = ra + rb
    t_end = 0.0 if still else t_max
    if not math.isfinite(t_end):
        t_end = _receding_from(pts, na, nb, ra, rb, sx, sy, vx, vlx, vy, vly)
        if not math.isfinite(t_end):
            return False
    speed = math.hypot(vx, vy)
    wx, wy = (vx / speed, vy / speed) if speed > 0.0 else (0.0, 0.0)
    closest = math.inf
    near_x = near_y = 0.0
    near_i = 0
    for i in range(na):
        for j in range(na, na + nb):
            qx, qy = (pts[j, 0] - pts[i, 0]) + sx, (pts[j, 1] - pts[i, 1]) + sy
            toward = qx * wx + qy * wy
            at = min(-toward / speed, t_end) if toward < 0.0 else 0.0
            cx, cy = qx + vx * at, qy + vy * at
            gap = math.hypot(cx, cy)
            if gap < closest:
                closest, near_x, near_y, near_i = gap, cx, cy, i
    if _apart_over(pts, na, nb, int(near_i), near_x, near_y, ra, rb, sx, sy, vx, vlx, vy, vly, t_end):
        return True
    face = -math.inf
    face_x = face_y = 0.0
    face_i = 0
    for edge in range(_edge_count(na, nb)):
        i, k, other, others, sign = _edge_ends(na, nb, edge)
        fx, fy = pts[k, 0] - pts[i, 0], pts[k, 1] - pts[i, 1]
        length = math.hypot(fx, fy)
        if not length > 0.0:
            continue
        lowest = math.inf  # the heights of the other's corners above the edge (outward m = (e_y, -e_x))
        nearest = other
        for o in range(other, other + others):
            dx, dy = _relative(pts, i, o, sx, sy, sign)
            h = fy * dx - fx * dy
            if h < lowest:
                lowest, nearest = h, o
        slope = sign * (fy * vx - fx * vy)
        gap = (lowest + min(0.0, slope * t_end)) / length - radius
        if gap > face:  # (the gap from a to b: along m from a's edges, along -m from b's)
            face, face_x, face_y, face_i = gap, sign * fy, -sign * fx, (i if sign > 0.0 else nearest)
    return face > 0.0 and _apart_over(pts, na, nb, int(face_i), face_x, face_y, ra, rb, sx, sy, vx, vlx, vy, vly, t_end)


@kernel
def _face_point(pts, lo, hi, i, sx, sy, vx, vy, t, fx, fy, mx, my, sign, near):
    """The middle of the touching stretch of an edge ``f`` (outward normal ``m``) from the corner
    ``pts[i]`` of one core (``sign`` 1: of ``a``; -1: of ``b``) against the corners ``pts[lo:hi]``
    of the other within ``near`` of the nearest along ``m`` (the shift and the motion move them all
    alike): their feet on the edge at ``t``, clipped to it; returned as a fraction of ``f``."""
    best = math.inf
    for c in range(lo, hi):
        best = min(best, mx * (pts[c, 0] - pts[i, 0]) + my * (pts[c, 1] - pts[i, 1]))
    first = math.inf
    last = -math.inf
    for c in range(lo, hi):
        if mx * (pts[c, 0] - pts[i, 0]) + my * (pts[c, 1] - pts[i, 1]) <= best + near:
            if sign > 0.0:
                dx, _, dy, _, _, _ = _offset(pts, i, c, sx, sy, vx, 0.0, vy, 0.0, t)
            else:
                dx, _, dy, _, _, _ = _offset(pts, c, i, sx, sy, vx, 0.0, vy, 0.0, t)
                dx, dy = -dx, -dy
            along = fx * dx + fy * dy
            first = min(first, along)
            last = max(last, along)
    square = fx * fx + fy * fy
    first, last = max(first, 0.0), min(last, square)
    if first > last:
        first = last = 0.5 * (first + last)
    return 0.5 * (first + last) / square


@kernel
def closed_rounded(kind_a, pa, verts_a, kind_b, pb, verts_b, sx, sy, vax, vay, vbx, vby, t_max, out):
    """The time of impact of a translating pair with a rounded shape (the other rounded, a polygon,
    a segment, a point or a circle; rows as given, ``b`` shifted by ``(sx, sy)``) by the ray against the
    grown Minkowski difference: :data:`~.constants.HIT` with ``out[1:6] = (time, px, py, nx, ny)``,
    :data:`~.constants.MISS` (``out[1] = inf``), or :data:`~.toi_closed.UNDECIDED` (``out``
    untouched): see the module."""
    if kind_a == LINE or kind_b == LINE or (kind_a == ELLIPSE and not pa[2] == pa[3]) or (
            kind_b == ELLIPSE and not pb[2] == pb[3]):
        return UNDECIDED  # (a circle is the rounded point it is; other ellipses and lines: the search)
    na = int(pa[1]) if kind_a == ROUNDED or kind_a == POLYGON else (2 if kind_a == SEGMENT else 1)
    nb = int(pb[1]) if kind_b == ROUNDED or kind_b == POLYGON else (2 if kind_b == SEGMENT else 1)
    ra = pa[2] if kind_a == ROUNDED or kind_a == ELLIPSE else 0.0
    rb = pb[2] if kind_b == ROUNDED or kind_b == ELLIPSE else 0.0
    radius = ra + rb
    sx = sx + 0.0  # (-0.0 as 0.0: the shift of a pair searched where it lies)
    sy = sy + 0.0
    vx = vbx - vax
    vy = vby - vay
    if not (radius > 0.0 and t_max > 0.0 and math.isfinite(radius) and math.isfinite(sx) and math.isfinite(sy)
            and math.isfinite(vx) and math.isfinite(vy)):
        return UNDECIDED
    pts = np.empty((na + nb, 2))
    swap = _after(kind_a, pa, verts_a, na, ra, kind_b, pb, verts_b, nb, rb)
    if swap:  # b first: a seen from b is shifted by -s, and moves by -V
        _fill(kind_b, pb, verts_b, pts, int(0), nb)
        _fill(kind_a, pa, verts_a, pts, nb, na)
        na, nb, ra, rb = nb, na, rb, ra
        vax, vay, vbx, vby = vbx, vby, vax, vay
        sx, sy = 0.0 - sx, 0.0 - sy
        vx, vy = vbx - vax, vby - vay
    else:
        _fill(kind_a, pa, verts_a, pts, int(0), na)
        _fill(kind_b, pb, verts_b, pts, na, nb)
    still = vx == 0.0 and vy == 0.0 and vbx == vax and vby == vay
    # everything scaled by a power of two (exactly, or not at all) to coordinates about 1: no square
    # overflows or underflows; times do not change, points are scaled back at the end
    factor = _unit_scale(pts, radius, sx, sy, vax, vay, vbx, vby)
    if factor != 1.0:
        for c in range(na + nb):
            pts[c, 0] *= factor
            pts[c, 1] *= factor
        ra, rb, radius = ra * factor, rb * factor, radius * factor
        sx, sy, vax, vay, vbx, vby = sx * factor, sy * factor, vax * factor, vay * factor, vbx * factor, vby * factor
        vx, vy = vx * factor, vy * factor
    vlx = two_sum(vbx, -vax)[1]  # V = (vx + vlx, vy + vly) exactly
    vly = two_sum(vby, -vay)[1]
    best = math.inf  # the earliest piece: its time, kind (0: a's edge, 1: b's edge, 2: a corner) and corners
    feature = -1
    fi = fj = fk = 0
    # the edges of each core, p_i -> p_k (outward normal m = (e_y, -e_x)), against the nearest corners
    # o of the other: o's height m . d above the edge falls to R |e|, d = (b - a) + s from a's edges,
    # d = -((b - a) + s) from b's (its slope -m . V), the foot of o on the edge
    for edge in range(_edge_count(na, nb)):
        i, k, other, others, sign = _edge_ends(na, nb, edge)
        fx, fy = pts[k, 0] - pts[i, 0], pts[k, 1] - pts[i, 1]
        square = fx * fx + fy * fy
        if not square > 0.0:
            continue
        length = math.sqrt(square)
        slope = sign * (fy * vx - fx * vy)
        if not slope < 0.0:
            continue  # moving along or away from the edge
        lowest = math.inf
        for o in range(other, other + others):
            dx, dy = _relative(pts, i, o, sx, sy, sign)
            lowest = min(lowest, fy * dx - fx * dy)
        if not lowest > radius * length:
            continue  # within its band at 0 (the arcs tell)
        near = NEAR * (abs(lowest) + radius * length)
        for o in range(other, other + others):
            dx, dy = _relative(pts, i, o, sx, sy, sign)
            h = fy * dx - fx * dy
            if h <= lowest + near:
                t = (radius * length - h) / slope
                along = fx * (dx + sign * vx * t) + fy * (dy + sign * vy * t)
                if 0.0 <= along <= square and t < best:
                    side = 0 if sign > 0.0 else 1
                    best, feature, fi, fj, fk = t, side, (i if side == 0 else o), (o if side == 0 else i), k
    # the arcs: |q + V t| = R for every pair of corners, q = b_j + s - a_i; along the unit w = V / |V|
    # (lengths only: no square of a speed), the distance travelled is (|q| - R) (|q| + R) / (half
    # chord - q . w), the half chord sqrt((R - |q x w|) (R + |q x w|))
    speed = math.hypot(vx, vy)
    wx, wy = (vx / speed, vy / speed) if speed > 0.0 else (0.0, 0.0)
    for i in range(na):
        for j in range(na, na + nb):
            qx, qy = (pts[j, 0] - pts[i, 0]) + sx, (pts[j, 1] - pts[i, 1]) + sy
            q = math.hypot(qx, qy)
            if not q > radius:
                return UNDECIDED  # touching or overlapping at 0 (or nearly): the search
            toward = qx * wx + qy * wy
            if toward < 0.0:
                side = abs(qx * wy - qy * wx)
                chord = (radius - side) * (radius + side)
                if chord >= 0.0:
                    t = ((q - radius) * (q + radius) / (math.sqrt(chord) - toward)) / speed
                    if t < best:
                        best, feature, fi, fj, fk = t, 2, i, j, 0
    if not (best <= t_max and best < math.inf):  # a miss, if a direction proves it
        if not _missed(pts, na, nb, ra, rb, sx, sy, vx, vlx, vy, vly, t_max, still):
            return UNDECIDED
        out[1] = math.inf
        for c in range(2, 6):
            out[c] = math.nan
        return MISS
    # a hit at `best`: the contact normal n (from a to b) of the piece
    if feature == 0:
        nx, ny = pts[fk, 1] - pts[fi, 1], pts[fi, 0] - pts[fk, 0]
        qx, qy = (pts[fj, 0] - pts[fi, 0]) + sx, (pts[fj, 1] - pts[fi, 1]) + sy
        base = fi
    elif feature == 1:
        nx, ny = pts[fj, 1] - pts[fk, 1], pts[fk, 0] - pts[fj, 0]  # -(b's outward normal)
        qx, qy = (pts[fj, 0] - pts[fi, 0]) + sx, (pts[fj, 1] - pts[fi, 1]) + sy
        base = fi
    else:
        qx, qy = (pts[fj, 0] - pts[fi, 0]) + sx, (pts[fj, 1] - pts[fi, 1]) + sy
        nx, ny = qx + vx * best, qy + vy * best
        base = fi
    norm = math.hypot(nx, ny)
    slope = nx * vx + ny * vy  # -(n . V) lies within err of -slope (V: a rounding off)
    err = 3.0 * U * (abs(nx * vx) + abs(ny * vy)) + FLOOR
    closing, closing_hi = -slope - err, -slope + err
    if not (norm > 0.0 and closing > 0.0 and math.isfinite(norm) and math.isfinite(closing)):
        return UNDECIDED
    # apart at t_lo: G_n is linear in t with slope n . V = -closing, so from its bound at best, the
    # time where that bound meets 0 (a Newton step: at most the rounding from the root of G_n, a
    # lower bound of the first contact), one ulp earlier, is certified apart
    start = _gap(pts, na, nb, int(base), nx, ny, ra, rb, sx, sy, vx, vlx, vy, vly, best)
    if not math.isfinite(start):
        return UNDECIDED
    t_lo = np.nextafter(best + start / (closing_hi if start > 0.0 else closing), -math.inf)
    step = t_lo - best  # (exact: within a factor 2 of best, else it fails below)
    rate = closing_hi if step > 0.0 else closing
    if not (0.5 * best < t_lo <= 2.0 * best and start - (rate * step) * (1.0 + 4.0 * U) > 4.0 * U * abs(start) + FLOOR):
        return UNDECIDED
    # touching at t_hi: the corner within R of its piece, tried a little after t_lo (twice the
    # step that got there), then 4, 16, ... times as far, up to the tolerance
    scale = t_max if math.isfinite(t_max) else max(best, 1.0)
    ahead = 2.0 * max(abs(step), 2.0**-52 * best)
    certified = False
    for _ in range(8):
        t_hi = t_lo + ahead
        if not (t_hi <= t_max and t_hi - t_lo <= TIME_TOL * scale):
            return UNDECIDED
        if _touching(pts, int(feature), int(fi), int(fj), int(fk), sx, sy, vx, vlx, vy, vly, t_hi, ra, rb):
            certified = True
            break
        ahead *= 4.0
    if not certified:
        return UNDECIDED
    for _ in range(2):  # exact data: the float at the contact itself, where the gap there is 0 exactly
        t_up = np.nextafter(t_lo, math.inf)
        if not (t_up < t_hi and _exact_gap(pts, na, nb, int(base), nx, ny, ra, rb, sx, sy, vx, vlx, vy, vly, t_up) >= 0.0):
            break
        t_lo = t_up
    # the contact point at t_lo: on a's rounded boundary, moved with a (b's for b's edge)
    size = abs(qx) + abs(qy) + abs(vx * best) + abs(vy * best) + radius
    t = t_lo
    ux, uy = nx / norm, ny / norm
    if feature == 0:
        fx, fy = pts[fk, 0] - pts[fi, 0], pts[fk, 1] - pts[fi, 1]
        near = NEAR * (abs(fx) + abs(fy)) * (size + radius)
        middle = _face_point(pts, na, na + nb, int(fi), sx, sy, vx, vy, t, fx, fy, fy, -fx, 1.0, near)
        px = pts[fi, 0] + fx * middle + ra * ux + vax * t
        py = pts[fi, 1] + fy * middle + ra * uy + vay * t
    elif feature == 1:
        fx, fy = pts[fk, 0] - pts[fj, 0], pts[fk, 1] - pts[fj, 1]
        near = NEAR * (abs(fx) + abs(fy)) * (size + radius)
        middle = _face_point(pts, int(0), na, int(fj), sx, sy, vx, vy, t, fx, fy, fy, -fx, -1.0, near)
        px = (pts[fj, 0] + sx) + fx * middle - rb * ux + vbx * t
        py = (pts[fj, 1] + sy) + fy * middle - rb * uy + vby * t
    else:
        px = pts[fi, 0] + ra * ux + vax * t
        py = pts[fi, 1] + ra * uy + vay * t
    if swap:  # back in the frame of a (b shifted by s), the normal from a to b
        px, py, ux, uy = px - sx, py - sy, -ux, -uy
    px, py = px / factor, py / factor
    out[1] = t
    out[2] = px
    out[3] = py
    out[4] = ux
    out[5] = uy
    return HIT
