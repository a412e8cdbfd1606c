"""Time of impact of translating flat shapes in closed form: slabs of the separating axes.

Under translation the separating axes of two convex shapes do not change, so the times at which a
pair overlaps are the intersection of one interval of times per axis (the moving-polygon
separating-axis test of Ericson, *Real-Time Collision Detection*, 2005, 5.5; Box2D's and
Ericson's swept boxes are its axis-aligned case). Seen from ``a``, ``b`` moves by ``V t`` with
``V = v_b - v_a``; the shapes share a point at ``t`` exactly when the origin lies in the
Minkowski difference ``D = b - a`` moved by ``V t``.

**The axes, as orientation tests.** For an edge ``x0 -> x0 + e`` of ``a`` (counter-clockwise, as
polygons are stored) the side test ``orient(x0, e, q) = e x (q - x0)`` of a corner ``q`` of ``b``
is linear in time, ``o_q + (e x V) t``; no axis separates on that edge while some corner of ``b``
lies on its inner side, ``M + c t >= 0`` with ``M = max_q o_q`` and ``c = e x V``: a lower bound
``t >= -M / c`` when ``c > 0``, an upper one when ``c < 0``, a fixed condition ``M >= 0`` when
``c = 0``. An edge of ``b`` against the corners of ``a`` is the same with ``-V``. The first
contact is the largest lower bound when it is at most every upper bound, within ``[0, t_max]``.

Which axes suffice: the edges of ``D`` are the edges of ``b`` and the reversed edges of ``a``,
so one side per edge of each shape gives ``D`` exactly when it has an inside (a polygon is
involved, or two segments that are not parallel). A segment gives both sides of its line (edges
from ``a0`` along ``e`` and ``-e``), a line the same through its point (its normal is then the
only axis: ``D`` is a strip). When ``D`` is a segment (a segment
against a point or a parallel segment) the caps of the segments close it: the edges from ``a0``
along ``e`` turned clockwise and from ``a1`` along ``e`` turned counter-clockwise (``e . (q -
a0) >= 0`` and ``e . (q - a1) <= 0``); when ``D`` is a point (two points) the coordinate axes
do, through the extreme corners. Axes beyond those never separate sets that meet, so any one of
them proves a miss. Where ``D`` has no inside the contact lasts an instant (a point crossing a
segment or a line): the two sides of one line against that single corner have side tests that
are each other's negatives, exactly, so they give the same float time for the same exact time,
a lower and an upper bound at once (a *pinned* time), and a hit is decided when every other
bound lies clearly on its side.

**Rounding.** Every ``o_q`` and ``c`` is an orientation determinant of float differences
(``b``'s corners shifted by its periodic offset first); its error is below ``2**-50`` times the
sum of the magnitudes of its two products (Shewchuk's bound of ``orient2d`` is ``3.0000000000000004
* 2**-53`` of that, plus a term for the rounded shift), and each time ``-M / c`` comes with a
rigorous bound (``(E_M + |t| E_c) / (|c| - E_c)`` and the rounding of the division). The kernel
answers only what those bounds settle: a miss when one axis separates for sure (a fixed condition
false, a lower bound above ``t_max`` or above an upper bound, an upper bound below 0), a hit when
every fixed condition holds for sure and the largest lower bound lies above 0 and below every
upper bound and ``t_max`` beyond all doubt, and is known to ``TIME_TOL / 2`` of the time scale.
The time returned is the lower end of its bound, rounded down, so it is never after the contact
(and within the bound of it); everything else (overlapping or touching at 0, grazes, a fixed
condition within the rounding, a pair of lines) is :data:`UNDECIDED`, and the iterative search of
:mod:`.toi` (then the exact path) takes it, as the float filters of the static predicates hand
their undecided rows on.

Frame: the rows as given (``b`` shifted by the pair's ``gdx, gdy``), the velocities of the
pair's numbers (:data:`.toi.ROW`); the contact point comes back in those coordinates moved to the
time found, the normal from ``a`` to ``b``.
"""

import math

import numpy as np

from collide2d._jit import kernel

from ..vec import two_product, two_sum
from .constants import HIT, MISS, TIME_TOL

POLYGON, SEGMENT, LINE, POINT = 1, 2, 3, 4  # the kind codes of .toi
UNDECIDED = -1  # the iterative search decides
ERR = 2.0**-50  # relative error bound of an orientation determinant of float differences (8 units)
SLACK = 2.0**-48  # the rounding of the bound's own arithmetic
FLOOR = 2.0**-1060  # absolute error of a few underflowing products
MARGIN = 2.0**-44  # the relative margin of the bounding discs' test (many times its rounding)
TINY_SQUARE = 2.0**-900  # squares below this may have lost digits to underflow


@kernel
def _corner_count(kind, p):
    """Corners of a flat row: a polygon's, a segment's 2, a point's (a line's point) 1."""
    if kind == POLYGON:
        return int(p[1])
    return 2 if kind == SEGMENT else 1


@kernel
def _axis_count(kind, p, boxy):
    """Edges of a flat row as axes: a polygon's, a segment's 2 sides and 2 caps, a line's 2 sides;
    4 coordinate axes more when ``boxy`` (a pair of points and segments)."""
    extra = 4 if boxy else 0
    if kind == POLYGON:
        return int(p[1]) + extra
    if kind == SEGMENT:
        return 4 + extra
    return (2 if kind == LINE else 0) + extra


@kernel
def _fill_corners(kind, p, verts, pts, start):
    """The corners of a flat row (a line: its point) into ``pts[start:]``."""
    if kind == POLYGON:
        first = int(p[0])
        for j in range(int(p[1])):
            pts[start + j, 0] = verts[first + j, 0]
            pts[start + j, 1] = verts[first + j, 1]
        return
    pts[start, 0] = p[0]
    pts[start, 1] = p[1]
    if kind == SEGMENT:
        pts[start + 1, 0] = p[2]
        pts[start + 1, 1] = p[3]


@kernel
def _set_axis(axes, i, x0, y0, ex, ey, clip, twin, sx, sy):
    axes[i, 0] = x0 + sx
    axes[i, 1] = y0 + sy
    axes[i, 2] = ex
    axes[i, 3] = ey
    axes[i, 4] = clip
    axes[i, 5] = twin
    axes[i, 6] = 1.0  # its direction is exact (the difference of its corners, when that rounded: 0)


@kernel
def _difference(axes, i, x1, y1, x0, y0):
    """Mark axis ``i`` inexact when its direction, the difference ``(x1 - x0, y1 - y0)``, rounded."""
    if two_sum(x1, -x0)[1] != 0.0 or two_sum(y1, -y0)[1] != 0.0:
        axes[i, 6] = 0.0


@kernel
def _fill_axes(kind, p, pts, first, count, boxy, axes, start, sx, sy):
    """The axes of a flat row (corners ``pts[first:first + count]``) into ``axes[start:]`` as
    edges ``(x0, y0, ex, ey, clip, twin)`` with the row's inside on their left, the origins shifted
    by ``(sx, sy)``. ``clip``: where the row lies along the edge, 1 from ``x0`` to ``x0 + e`` (a
    polygon's edge, a segment), -1 from ``x0 - e`` to ``x0``, 0 unbounded; ``twin``: 1 when the
    next axis has the same origin and the opposite direction (the two sides of a segment or a
    line, the two ends of a point's coordinate), so that against a single corner their side tests
    are each other's negatives, exactly. Returns the next row."""
    i = start
    if kind == LINE:
        _set_axis(axes, i, p[0], p[1], p[2], p[3], 0.0, 1.0, sx, sy)
        _set_axis(axes, i + 1, p[0], p[1], -p[2], -p[3], 0.0, 0.0, sx, sy)
        i += 2
    elif kind == SEGMENT:  # its two sides from a0, then the caps: e . (q - a0) >= 0, e . (q - a1) <= 0
        ex, ey = p[2] - p[0], p[3] - p[1]
        _set_axis(axes, i, p[0], p[1], ex, ey, 1.0, 1.0, sx, sy)
        _set_axis(axes, i + 1, p[0], p[1], -ex, -ey, -1.0, 0.0, sx, sy)
        _set_axis(axes, i + 2, p[0], p[1], ey, -ex, 0.0, 0.0, sx, sy)
        _set_axis(axes, i + 3, p[2], p[3], -ey, ex, 0.0, 0.0, sx, sy)
        for k in range(i, i + 4):
            _difference(axes, k, p[2], p[3], p[0], p[1])
        i += 4
    elif kind == POLYGON:
        for j in range(count):
            k = first + (j + 1) % count
            x0, y0 = pts[first + j, 0], pts[first + j, 1]
            _set_axis(axes, i, x0, y0, pts[k, 0] - x0, pts[k, 1] - y0, 1.0, 0.0, sx, sy)
            _difference(axes, i, pts[k, 0], pts[k, 1], x0, y0)
            i += 1
    if boxy:  # the coordinate axes through the extreme corners: x >= min, x <= max, y >= min, y <= max
        lo_x = hi_x = lo_y = hi_y = first
        for j in range(first, first + count):
            lo_x = j if pts[j, 0] < pts[lo_x, 0] else lo_x
            hi_x = j if pts[j, 0] > pts[hi_x, 0] else hi_x
            lo_y = j if pts[j, 1] < pts[lo_y, 1] else lo_y
            hi_y = j if pts[j, 1] > pts[hi_y, 1] else hi_y
        _set_axis(axes, i, pts[lo_x, 0], pts[lo_x, 1], 0.0, -1.0, 0.0, 1.0 if lo_x == hi_x else 0.0, sx, sy)
        _set_axis(axes, i + 1, pts[hi_x, 0], pts[hi_x, 1], 0.0, 1.0, 0.0, 0.0, sx, sy)
        _set_axis(axes, i + 2, pts[lo_y, 0], pts[lo_y, 1], 1.0, 0.0, 0.0, 1.0 if lo_y == hi_y else 0.0, sx, sy)
        _set_axis(axes, i + 3, pts[hi_y, 0], pts[hi_y, 1], -1.0, 0.0, 0.0, 0.0, sx, sy)
        i += 4
    return i


@kernel
def _reach(pts, na, sx, sy, spread):
    """A bound on ``|x|`` and ``|y|`` of every difference of a corner and an edge's origin: the
    span of the corners of both rows (``pts[na:]``, ``b``'s, shifted), and with ``spread`` (a
    shift) the size of the coordinates, whose rounding the shifted origins carry."""
    lo_x = lo_y = math.inf
    hi_x = hi_y = -math.inf
    size = 0.0
    for j in range(pts.shape[0]):
        x, y = pts[j, 0], pts[j, 1]
        size = max(size, max(abs(x), abs(y)))
        if j >= na:
            x += sx
            y += sy
        lo_x, hi_x, lo_y, hi_y = min(lo_x, x), max(hi_x, x), min(lo_y, y), max(hi_y, y)
    return max(hi_x - lo_x, hi_y - lo_y) + spread * 4.0 * (size + max(abs(sx), abs(sy)))


@kernel
def _contact_point(pts, lo, hi, ux, uy, t, x0, y0, ex, ey, clip, near):
    """The middle of the contact of the corners ``pts[lo:hi]`` (moving by ``(ux, uy) t``) on their
    side of the edge ``x0 -> x0 + e`` (``clip``: see :func:`_fill_axes`), as a point on its line:
    the corners whose side test is within ``near`` of the largest, their extent along the edge
    clipped to the edge."""
    best = -math.inf
    for j in range(lo, hi):
        best = max(best, ex * (pts[j, 1] - y0) - ey * (pts[j, 0] - x0))
    first = math.inf
    last = -math.inf
    for j in range(lo, hi):
        if ex * (pts[j, 1] - y0) - ey * (pts[j, 0] - x0) >= best - near:
            along = ex * (pts[j, 0] + ux * t - x0) + ey * (pts[j, 1] + uy * t - y0)
            first = min(first, along)
            last = max(last, along)
    length = ex * ex + ey * ey
    if clip != 0.0:
        first, last = max(first, min(clip * length, 0.0)), min(last, max(clip * length, 0.0))
        if first > last:
            first = last = 0.5 * (first + last)
    middle = 0.5 * (first + last) / length
    return x0 + ex * middle, y0 + ey * middle


LOW, HIGH = 2.0**-450, 2.0**450  # magnitudes whose products neither underflow nor overflow


@kernel
def _plain(x):
    """``x`` is 0 or of a magnitude whose products with others of its kind are exact to split."""
    x = abs(x)
    return x == 0.0 or (LOW <= x <= HIGH)


@kernel
def _exact_difference(a, b):
    """``(a - b, exact)``: the float difference, and whether it is the exact one (TwoSum)."""
    d, err = two_sum(a, -b)
    return d, err == 0.0 and _plain(d)


@kernel
def _exact_cross(ax, ay, bx, by):
    """``(ax by - ay bx, exact)``: the float value, and whether it is the exact one."""
    p, p_err = two_product(ax, by)
    q, q_err = two_product(ay, bx)
    value, err = two_sum(p, -q)
    return value, p_err == 0.0 and q_err == 0.0 and err == 0.0 and _plain(ax) and _plain(ay) and _plain(bx) and _plain(by)


@kernel
def _exact_side(ex, ey, qx, qy, x0, y0):
    """Whether the side test ``e x (q - x0)`` in floats is the exact one."""
    dx, exact_x = _exact_difference(qx, x0)
    dy, exact_y = _exact_difference(qy, y0)
    return exact_x and exact_y and _exact_cross(ex, ey, dx, dy)[1]


@kernel
def _time_below(pts, lo, hi, x0, y0, ex, ey, forward, vx, vy, near):
    """The largest float not above the exact time ``-M / c`` of the axis ``x0 -> x0 + e`` (its
    origin and direction exact) against the corners ``pts[lo:hi]``, when the side tests of the
    corners that may attain ``M`` (within ``near`` of the largest) and ``c`` are exactly the floats
    computed (axis-aligned edges, short integers, ...); NaN otherwise. Exact: the remainder ``-M -
    q c`` of the rounded quotient ``q`` by error-free transformations (Dekker's TwoProduct,
    Knuth's TwoSum: ``collide2d._kernels.vec``)."""
    best = -math.inf
    for j in range(lo, hi):
        best = max(best, ex * (pts[j, 1] - y0) - ey * (pts[j, 0] - x0))
    for j in range(lo, hi):
        if ex * (pts[j, 1] - y0) - ey * (pts[j, 0] - x0) >= best - near:
            if not _exact_side(ex, ey, pts[j, 0], pts[j, 1], x0, y0):
                return math.nan
    c, exact_c = _exact_cross(ex, ey, vx, vy)
    c = forward * c
    if not (exact_c and c != 0.0 and _plain(best)):
        return math.nan
    q = -best / c
    if not _plain(q):
        return math.nan
    p, p_err = two_product(q, c)
    r, r_err = two_sum(-best, -p)  # -M - q c = r - p_err
    if r_err != 0.0:
        return math.nan
    if r == p_err or (r > p_err) == (c > 0.0):  # -M / c = q + (r - p_err) / c >= q
        return q
    return np.nextafter(q, -math.inf)


@kernel
def _slabs(pts, na, axes, count_a, reach, spread, vx, vy, t_max, tight):
    """The conditions ``M + c t >= 0`` of the axes (``axes[:count_a]`` against ``b``'s corners
    ``pts[na:]``, the rest against ``a``'s), folded: ``(t_lo, t_hi, o_lo, o_hi, miss, unsure,
    chosen, pins, p_lo, p_hi, pinned)``, the bounds of the largest lower bound of the time and of
    the smallest upper bound, whether an axis separates for sure, whether one's condition is in
    doubt, the axis of the largest lower bound as computed; then the twin axes against a single
    corner (a point crossing a line, a segment, a coordinate): how many, the bounds of the one
    time they allow (the same float from both, exactly the same time), the entering axis.

    The error of ``M`` is bounded with the span of all the corners (:func:`_reach`), or when
    ``tight`` with the corners that may attain it (within twice that bound of the largest
    computed), none where the side tests of those corners are exact (:func:`_exact_side`)."""
    nb = pts.shape[0] - na
    t_lo = t_hi = -math.inf
    o_lo = o_hi = math.inf
    p_lo = -math.inf  # the bounds of the pinned times (twin axes against a single corner)
    p_hi = math.inf
    pins = 0
    pinned = -1
    miss = unsure = False
    best = -math.inf
    chosen = -1
    skip = False
    for i in range(axes.shape[0]):
        if skip:  # (the twin of a pinned axis)
            skip = False
            continue
        x0, y0, ex, ey = axes[i, 0], axes[i, 1], axes[i, 2], axes[i, 3]
        lo, hi, forward = (na, na + nb, 1.0) if i < count_a else (0, na, -1.0)
        m = -math.inf  # M: the largest side test e x (q - x0) of the other's corners
        for j in range(lo, hi):
            o = ex * (pts[j, 1] - y0) - ey * (pts[j, 0] - x0)
            if o > m:
                m = o
        em = ERR * ((abs(ex) + abs(ey)) * reach) + FLOOR
        if tight:  # the corners that may attain M, each with its own bound (and the origin's rounding),
            near = m - 2.0 * em  # none where its side test is the exact one
            size = 0.0
            exact = spread == 0.0 and axes[i, 6] != 0.0
            for j in range(lo, hi):
                dx = pts[j, 0] - x0
                dy = pts[j, 1] - y0
                if ex * dy - ey * dx >= near:
                    size = max(size, abs(ex) * (abs(dy) + spread * abs(y0)) + abs(ey) * (abs(dx) + spread * abs(x0)))
                    exact = exact and _exact_side(ex, ey, pts[j, 0], pts[j, 1], x0, y0)
            em = 0.0 if exact else min(em, ERR * size + FLOOR)
        c = forward * (ex * vy - ey * vx)  # M + c t >= 0
        ec = 0.0
        if not ((ex == 0.0 or vy == 0.0) and (ey == 0.0 or vx == 0.0)):  # (else exactly 0)
            ec = ERR * (abs(ex * vy) + abs(ey * vx)) + FLOOR
        if not (math.isfinite(m) and math.isfinite(em) and math.isfinite(c) and math.isfinite(ec)):
            unsure = True
        elif not abs(c) > ec:  # a fixed condition, or the sign of c in doubt: over [0, t_max]
            drift = 0.0 if c == 0.0 and ec == 0.0 else (abs(c) + ec) * t_max
            if m + em + drift < 0.0:
                miss = True
            elif not (m - em - drift >= 0.0) or (m == 0.0 and em == 0.0 and drift == 0.0):
                unsure = True  # (touching exactly all along, sliding: the search's floats, as before)
        else:
            t = -m / c
            width = (em + abs(t) * (1.0 + SLACK) * ec) / (abs(c) - ec)
            width = width * (1.0 + SLACK) + SLACK * abs(t) + FLOOR
            if not (math.isfinite(t) and math.isfinite(width)):
                unsure = True
            elif axes[i, 5] != 0.0 and hi - lo == 1:  # with its twin: t is a lower and an upper bound
                pins += 1
                pinned = i if c > 0.0 else i + 1
                p_lo = max(p_lo, t - width)
                p_hi = min(p_hi, t + width)
                skip = True
            elif c > 0.0:  # t >= -M / c
                if t > best:
                    best = t
                    chosen = i
                t_lo = max(t_lo, t - width)
                t_hi = max(t_hi, t + width)
            else:  # t <= M / (-c)
                o_lo = min(o_lo, t - width)
                o_hi = min(o_hi, t + width)
    return t_lo, t_hi, o_lo, o_hi, miss, unsure, chosen, pins, p_lo, p_hi, pinned


@kernel
def _middle(pts, lo, hi):
    """The middle of the bounding box of the corners ``pts[lo:hi]`` (rounded: any point will do)."""
    lo_x = hi_x = pts[lo, 0]
    lo_y = hi_y = pts[lo, 1]
    for j in range(lo + 1, hi):
        lo_x, hi_x = min(lo_x, pts[j, 0]), max(hi_x, pts[j, 0])
        lo_y, hi_y = min(lo_y, pts[j, 1]), max(hi_y, pts[j, 1])
    return 0.5 * lo_x + 0.5 * hi_x, 0.5 * lo_y + 0.5 * hi_y


@kernel
def _discs_apart(pts, na, sx, sy, spread, vx, vy, t_max):
    """Whether the discs about each row's middle through its farthest corner stay apart over
    ``[0, t_max]`` beyond all rounding (a miss without the axes): ``b``'s centre ``d + V t`` from
    ``a``'s stays farther than the sum of the radii, bounded below by the distance of the line of
    its path (``|d x V| / |V|``), by ``|d|`` when it moves away, and by its distance at ``t_max``
    when it approaches all the way; each with a margin of ``2**-44`` of the magnitudes involved."""
    ax, ay = _middle(pts, int(0), na)
    bx, by = _middle(pts, na, pts.shape[0])
    ra = rb = wide_a = wide_b = 0.0  # squared radii, and |x| + |y| bounds (where squares underflow)
    for j in range(pts.shape[0]):
        if j < na:
            ex, ey = pts[j, 0] - ax, pts[j, 1] - ay
            ra = max(ra, ex * ex + ey * ey)
            wide_a = max(wide_a, abs(ex) + abs(ey))
        else:
            ex, ey = pts[j, 0] - bx, pts[j, 1] - by
            rb = max(rb, ex * ex + ey * ey)
            wide_b = max(wide_b, abs(ex) + abs(ey))
    radius_a = math.sqrt(ra) * (1.0 + MARGIN) if ra > TINY_SQUARE else wide_a
    radius_b = math.sqrt(rb) * (1.0 + MARGIN) if rb > TINY_SQUARE else wide_b
    reach = (radius_a + radius_b) * (1.0 + MARGIN) + FLOOR
    dx = (bx + sx) - ax
    dy = (by + sy) - ay
    size = abs(dx) + abs(dy) + spread * (abs(bx) + abs(by) + abs(sx) + abs(sy))
    speed = abs(vx) + abs(vy)
    if speed == 0.0:
        return math.hypot(dx, dy) - MARGIN * size > reach
    length = math.hypot(vx, vy)
    if abs(dx * vy - dy * vx) / length - MARGIN * size * 4.0 > reach:  # the whole line of the path
        return True
    along = dx * vx + dy * vy
    if along > MARGIN * size * speed:  # moving away: nearest at 0
        return math.hypot(dx, dy) - MARGIN * size > reach
    if math.isfinite(t_max) and -along > (length * length * t_max) * (1.0 + MARGIN) + MARGIN * size * speed:
        gap = math.hypot(dx + vx * t_max, dy + vy * t_max)  # still approaching at t_max: nearest there
        return gap - MARGIN * (size + speed * t_max) > reach
    return False


@kernel
def closed_translation(kind_a, kind_b, pa, va_verts, pb, vb_verts, row, out):
    """The time of impact of a translating pair of flat rows (polygon, segment, line, point) by its
    slabs: :data:`~.constants.HIT` with ``out[1:6] = (time, px, py, nx, ny)``,
    :data:`~.constants.MISS` (``out[1] = inf``), or :data:`UNDECIDED` (``out`` untouched): see the
    module. ``row``: the pair's numbers (:data:`.toi.ROW`)."""
    if kind_a == LINE and kind_b == LINE:
        return UNDECIDED
    sx, sy, vax, vay, vbx, vby, t_max = row[0], row[1], row[2], row[3], row[4], row[5], row[15]
    vx, err_x = two_sum(vbx, -vax)
    vy, err_y = two_sum(vby, -vay)
    vx_exact = err_x == 0.0 and err_y == 0.0  # V is the float difference exactly
    if not (math.isfinite(sx) and math.isfinite(sy) and math.isfinite(vx) and math.isfinite(vy) and t_max >= 0.0):
        return UNDECIDED
    spread = 0.0 if sx == 0.0 and sy == 0.0 else 1.0
    boxy = kind_a != POLYGON and kind_a != LINE and kind_b != POLYGON and kind_b != LINE
    na = _corner_count(kind_a, pa)
    nb = _corner_count(kind_b, pb)
    pts = np.empty((na + nb, 2))
    _fill_corners(kind_a, pa, va_verts, pts, int(0))
    _fill_corners(kind_b, pb, vb_verts, pts, na)
    # a's axes against b's corners (seen from a: its origins shifted by -s), then b's (shifted by
    # s) against a's; none against a line (unbounded, or the line's own axis)
    if kind_a != LINE and kind_b != LINE and _discs_apart(pts, na, sx, sy, spread, vx, vy, t_max):
        out[1] = math.inf
        for i in range(2, 6):
            out[i] = math.nan
        return MISS
    count_a = _axis_count(kind_a, pa, boxy) if kind_b != LINE else 0
    count_b = _axis_count(kind_b, pb, bool(False)) if kind_a != LINE else 0  # (a's coordinate axes are the pair's)
    axes = np.empty((count_a + count_b, 7))
    if count_a:
        _fill_axes(kind_a, pa, pts, int(0), na, boxy, axes, int(0), -sx, -sy)
    if count_b:
        _fill_axes(kind_b, pb, pts, na, nb, bool(False), axes, count_a, sx, sy)
    reach = _reach(pts, na, sx, sy, spread)
    for tight in (False, True):
        t_lo, t_hi, o_lo, o_hi, miss, unsure, chosen, pins, p_lo, p_hi, pinned = _slabs(
            pts, na, axes, count_a, reach, spread, vx, vy, t_max, tight)
        pin_hit = False  # a pinned time is a lower and an upper bound at once: it decides a hit alone
        if pins:
            miss = miss or t_lo > p_hi or p_lo > o_hi or p_lo > p_hi
            if pins == 1 and t_hi <= p_lo and p_hi <= o_lo:
                pin_hit = True
                chosen = pinned
            else:
                unsure = True
            t_lo, t_hi, o_lo, o_hi = max(t_lo, p_lo), max(t_hi, p_hi), min(o_lo, p_lo), min(o_hi, p_hi)
        if miss or t_lo > o_hi or t_lo > t_max or o_hi < 0.0:
            out[1] = math.inf
            for i in range(2, 6):
                out[i] = math.nan
            return MISS
        scale = t_max if math.isfinite(t_max) else max(t_hi, 1.0)
        if (not unsure and t_lo > 0.0 and (t_hi <= o_lo or pin_hit) and t_hi <= t_max
                and t_hi - t_lo <= TIME_TOL * scale):
            break
        if tight or (not unsure and not t_lo > 0.0):  # (tighter bounds of M do not settle these)
            return UNDECIDED
    x0, y0, ex, ey, clip = axes[chosen, 0], axes[chosen, 1], axes[chosen, 2], axes[chosen, 3], axes[chosen, 4]
    length = math.hypot(ex, ey)
    near = 2.0 * (ERR * ((abs(ex) + abs(ey)) * reach) + FLOOR)
    t = t_lo
    if spread == 0.0 and axes[chosen, 6] != 0.0 and vx_exact:  # the exact float below, where the axis gives it
        lo, hi, forward = (na, na + nb, 1.0) if chosen < count_a else (0, na, -1.0)
        below = _time_below(pts, lo, hi, x0, y0, ex, ey, forward, vx, vy, near)
        if below >= t:  # (never below t_lo: the exact time of this axis is at most the first contact)
            t = below
    if chosen < count_a:  # an edge of a (seen from b's corners: shifted by -s) against b's corners
        px, py = _contact_point(pts, na, na + nb, vx, vy, t, x0, y0, ex, ey, clip, near)
        out[2] = px + sx + vax * t
        out[3] = py + sy + vay * t
        out[4] = ey / length
        out[5] = -ex / length
    else:  # an edge of b (shifted) against a's corners, which move by -V t
        px, py = _contact_point(pts, int(0), na, -vx, -vy, t, x0, y0, ex, ey, clip, near)
        out[2] = px + vbx * t
        out[3] = py + vby * t
        out[4] = -ey / length
        out[5] = ex / length
    out[1] = t
    return HIT
