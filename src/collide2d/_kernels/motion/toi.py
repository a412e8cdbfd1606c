"""Time of impact of translating pairs, compiled: one loop over the pairs, a capped search each.

The shape of the search follows Box2D's ``b2TimeOfImpact`` (``src/distance.c``): a loop of at most
:data:`MAX_ROUNDS` rounds, each evaluating the separation of the pair at the time reached and
stepping ahead by a step that cannot pass a contact, ending with an explicit outcome code
(:mod:`.constants`: hit, miss, overlapping at the start, needs the exact path, out of rounds)
instead of warnings, and no allocation per round. Where Box2D stops at a target distance
(``linearSlop``), this search stops at a step below ``TIME_TOL * t_max`` and certifies the answer
apart just before it, as the Python search of :func:`collide2d.motion.time_of_impact` does; it is
that search's translation rounds, evaluated with the same moves and contact kernels in the same
order, so a pair it decides gets the same floats as there. Anything the float rounds cannot
settle (a separation within its noise or within the sign band of the exact predicates, a step
that slows to a linear rate: a graze or a near miss, a probe that rounding put inside the other
shape, a corner that may pass the end of an edge, a row outside the tame magnitudes of
:mod:`collide2d._magnitude`) ends the row with ``EXACT`` and the Python search takes it from the
start.

Frame: the pair's frame of :class:`collide2d.motion.search._Motion` (``fa``/``fb`` rows, shifted
once by ``-frame``); ``b`` moves by the relative translation ``(v_b - v_a) t``; witness points come
back moved with ``a``'s translation, the contact point with ``frame`` added back.

The pair's contact kernel (``contact_<first>_<second>`` of :mod:`collide2d._kernels.measure`,
mirrored when ``swapped``) is an argument, so that this module, like every kernel family, imports
no other family: the functions that take it are ``register_jitable`` (compiled into each caller,
where the kernel is a constant), and the loops of :mod:`collide2d._kernels.toi_loops`, one per
pair of kinds, pass it.

Kind codes: :data:`ELLIPSE` .. :data:`POINT`, the order of ``collide2d._dispatch.KIND_ORDER``.
"""

import math

import numpy as np
from numba.extending import register_jitable

from collide2d._jit import kernel

from ..codes import DISJOINT, TOUCHING, UNDECIDED
from .constants import BAND, CERTIFY, EXACT, GRAZE, HIT, MISS, NOISE, OVERLAP, ROUNDS, SLOW, TIME_TOL, ULP
from .rigid import move_xy, turn_vector

ELLIPSE, POLYGON, SEGMENT, LINE, POINT = 0, 1, 2, 3, 4
ROUNDED = 5  # a rounded row (offset, count, r, x0, y0, x1, y1): its loops are in toi_loops_rounded
# The numbers of a pair (one row of the loops' ``rows`` table): the shift of the given b, the
# velocities, the angular velocities, the reference points in the frame, the frame, size, t_max.
ROW = ("gdx", "gdy", "vax", "vay", "vbx", "vby", "wa", "wb", "ref_ax", "ref_ay", "ref_bx", "ref_by",
       "frame_x", "frame_y", "size", "t_max")
MAX_ROUNDS = 64  # Newton steps converge quadratically; a pair still searching here is handed back
TAME_LO = 2.0**-100  # the tame magnitudes of collide2d._magnitude (TAME_LO, TAME_HI)
TAME_HI = 2.0**100
TINY = 5e-324  # the smallest positive float: a disjoint pair whose float separation is not positive


@kernel
def _tame_number(x):
    x = abs(x)
    return x == 0.0 or (TAME_LO <= x <= TAME_HI)


@kernel
def _row_facts(kind, row, verts, count):
    """``(tame, scale)`` of a moved row: all its numbers 0 or within the tame magnitudes (an
    ellipse's direction tame too), and its largest coordinate or size (``measurement.row_scale``)."""
    tame = True
    scale = 0.0
    if kind == ROUNDED:  # the core's numbers and the radius; the scale of measurement.row_scale
        return _rounded_facts(row, verts)
    if kind == POLYGON:
        for j in range(count):
            for i in range(2):
                tame = tame and _tame_number(verts[j, i])
                scale = max(scale, abs(verts[j, i]))
        return tame, scale
    width = 4 if kind == ELLIPSE or kind == SEGMENT or kind == LINE else 2
    for i in range(width):
        tame = tame and _tame_number(row[i])
    if kind == ELLIPSE:
        wx, wy = abs(row[4]), abs(row[5])
        small, large = min(wx, wy), max(wx, wy)
        tame = tame and (small == 0.0 or small >= TAME_LO * large)
        scale = max(max(abs(row[0]), abs(row[1])), max(row[2], row[3]))
    elif kind == LINE:
        scale = max(abs(row[0]), abs(row[1]))
    else:
        for i in range(width):
            scale = max(scale, abs(row[i]))
    return tame, scale


@kernel
def _rounded_facts(row, verts):
    """``(tame, scale)`` of a moved rounded row: its core's coordinates and its radius tame, the
    scale the core's largest coordinate plus the radius (``ladder.row_scale``)."""
    count = int(row[1])
    tame = _tame_number(row[2])
    scale = 0.0
    if count >= 3:
        for j in range(count):
            for i in range(2):
                tame = tame and _tame_number(verts[j, i])
                scale = max(scale, abs(verts[j, i]))
    else:
        for i in range(3, 7):
            tame = tame and _tame_number(row[i])
            scale = max(scale, abs(row[i]))
    return tame, scale + row[2]


@kernel
def _shift_row(kind, p, verts, dx, dy, row, work):
    """Row ``p`` (its vertices in ``verts``) shifted by ``(dx, dy)`` into ``row`` (a polygon: into
    ``work``, ``row = (0, count)``): the moves of :mod:`.loops` with the turn ``(1, 0)``."""
    if kind == POLYGON or (kind == ROUNDED and p[1] >= 3):
        first = int(p[0])
        count = int(p[1])
        for j in range(count):
            work[j, 0], work[j, 1] = move_xy(verts[first + j, 0], verts[first + j, 1], 0.0, 0.0, 1.0, 0.0, dx, dy)
        row[0] = 0.0
        row[1] = count
        if kind == ROUNDED:
            row[2] = p[2]
        return
    if kind == ROUNDED:  # a segment or point core: its ends moved, the radius kept
        row[0] = 0.0
        row[1] = p[1]
        row[2] = p[2]
        row[3], row[4] = move_xy(p[3], p[4], 0.0, 0.0, 1.0, 0.0, dx, dy)
        row[5], row[6] = move_xy(p[5], p[6], 0.0, 0.0, 1.0, 0.0, dx, dy)
        return
    row[0], row[1] = move_xy(p[0], p[1], 0.0, 0.0, 1.0, 0.0, dx, dy)
    if kind == ELLIPSE:
        row[2] = p[2]
        row[3] = p[3]
        row[4], row[5] = turn_vector(p[4], p[5], 1.0, 0.0)
    elif kind == SEGMENT:
        row[2], row[3] = move_xy(p[2], p[3], 0.0, 0.0, 1.0, 0.0, dx, dy)
    elif kind == LINE:
        row[2], row[3] = turn_vector(p[2], p[3], 1.0, 0.0)


@kernel
def _store(values, r):
    """The 9-tuple ``r`` of a contact kernel into ``values``."""
    for i in range(9):
        values[i] = r[i]


@kernel
def _store_mirrored(values, r):
    """The 9-tuple ``r`` of the contact of ``(b, a)`` into ``values`` as the contact of ``(a, b)``,
    mirrored as ``collide2d._dispatch.contact_values`` mirrors it."""
    _store(values, (r[0], 0.0 - r[1], 0.0 - r[2], r[5], r[6], r[3], r[4], r[8], r[7]))


@kernel
def _inverse(k):
    """``1 / k`` as NumPy divides (a curvature 0: an infinite radius)."""
    if k == 0.0:
        return math.copysign(math.inf, k)
    return 1.0 / k


@kernel
def _bend(vx, vy, s, nx, ny, ka, kb, step):
    """How far the separation rises above its tangent over ``step`` (``search._bend``)."""
    slope = vx * nx + vy * ny
    w = math.hypot(vx - slope * nx, vy - slope * ny) * step
    rho = _inverse(ka) + _inverse(kb)
    big = max(rho + max(s, 0.0) + slope * step, 0.0)
    if not math.isfinite(big):
        return 0.0
    below = big + math.hypot(big, w)
    return w * w / below if below > 0.0 else math.nan  # 0 / 0: NaN, as NumPy divides


@kernel
def _scale_at(kind_a, kind_b, values, ref_a, ref_b, vax, vay, vbx, vby, t):
    """The scale of the noise of a separation (``search._Motion._scales``): the largest witness
    coordinate, or of a line's point moved with its shape."""
    scale = max(max(abs(values[3]), abs(values[4])), max(abs(values[5]), abs(values[6])))
    if kind_a == LINE:
        scale = max(scale, max(abs(ref_a[0] + vax * t), abs(ref_a[1] + vay * t)))
    if kind_b == LINE:
        scale = max(scale, max(abs(ref_b[0] + vbx * t), abs(ref_b[1] + vby * t)))
    return scale


@kernel
def _signed(code, s):
    """``measurement._sign_consistent`` of a separation ``s`` within the band, given the relation
    code of the pair: ``(s, decided)``; not decided when the float filter could not tell (the exact
    path then decides in Python)."""
    if code == UNDECIDED:
        return s, False
    if code == DISJOINT:
        return (s if s > 0.0 else TINY), True
    if s > 0.0 or code == TOUCHING:
        return 0.0, True
    return s, True


@register_jitable(inline="always")
def _evaluate(contact, swapped, kind_b, p_b, verts_b, dx, dy, ra, wa, rb, wb, count_b, values):
    """The contact of ``a`` (moved row ``ra``) and ``b`` shifted by ``(dx, dy)`` into ``values``
    (the 9 numbers); returns ``(tame, scale_a + scale_b)`` of the moved rows."""
    _shift_row(kind_b, p_b, verts_b, dx, dy, rb, wb)
    if swapped:  # (no value assigned in both branches: Numba's inliner wants none)
        _store_mirrored(values, contact(rb, wb, ra, wa))
    else:
        _store(values, contact(ra, wa, rb, wb))
    tame_b, scale_b = _row_facts(kind_b, rb, wb, count_b)
    return tame_b, scale_b


@kernel
def _moved_witness(x, y, ref, ux, uy, w, t, dt):
    """Half the witness point ``(x, y)`` at time ``t`` moved with its shape by ``dt`` (first order;
    ``search._Motion.contact_point``)."""
    rx = x - (ref[0] + ux * t)
    ry = y - (ref[1] + uy * t)
    return 0.5 * (x + (ux + w * (-ry)) * dt), 0.5 * (y + (uy + w * rx) * dt)


@register_jitable(inline="always")
def search_translation(contact, relate, eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb,
                       row, out):
    """The time of impact of one translating pair: ``out[1:6] = (time, px, py, nx, ny)``; returns
    the outcome code. ``ga``/``gb`` are the rows as given, ``fa``/``fb`` the rows in the pair's
    frame; ``row`` holds the pair's numbers (see :data:`ROW`): the shift of the given ``b`` (a
    periodic image), the velocities, the angular velocities (0, or -0.0: a pair reaches this search
    only when both are zero), the reference points in the frame, the frame, the larger finite
    extent of the two shapes (``size``) and ``t_max``."""
    gdx, gdy, vax, vay, vbx, vby, turn_a, turn_b = row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7]
    ref_a, ref_b, frame, size, t_max = row[8:10], row[10:12], row[12:14], row[14], row[15]
    count_a = int(fa[1]) if kind_a == POLYGON or kind_a == ROUNDED else 1
    count_b = int(fb[1]) if kind_b == POLYGON or kind_b == ROUNDED else 1
    ra = np.empty(7)  # (a rounded row is the widest)
    rb = np.empty(7)
    wa = np.empty((count_a, 2))
    wb = np.empty((count_b, 2))
    values = np.empty(10)
    state = np.empty(10)
    for i in range(1, 6):
        out[i] = math.nan
    # time 0: the shapes as given, witness points shifted into the frame (the exact sign decides)
    _shift_row(kind_a, ga, gva, 0.0, 0.0, ra, wa)
    tame_a, scale_a = _row_facts(kind_a, ra, wa, count_a)
    tame_b, scale_b = _evaluate(contact, swapped, kind_b, gb, gvb, gdx, gdy, ra, wa, rb, wb, count_b, values)
    if not (tame_a and tame_b):
        return EXACT
    raw = values[0]
    if not abs(raw) > BAND * (scale_a + scale_b):  # the sign of the exact relation (see _signed)
        if swapped:  # the relation of (b, a): DISJOINT and TOUCHING are their own mirrors
            values[0], decided = _signed(relate(rb, wb, ra, wa, eps), raw)
        else:
            values[0], decided = _signed(relate(ra, wa, rb, wb, eps), raw)
        if not decided:
            return EXACT
    if shifted:  # into the frame
        values[3] -= frame[0]
        values[4] -= frame[1]
        values[5] -= frame[0]
        values[6] -= frame[1]
    else:  # the frame is the given one, moved with a's translation to 0
        values[3] += vax * 0.0
        values[4] += vay * 0.0
        values[5] += vax * 0.0
        values[6] += vay * 0.0
    values[9] = _scale_at(kind_a, kind_b, values, ref_a, ref_b, vax, vay, vbx, vby, 0.0)
    if values[0] <= 0.0:
        out[1] = 0.0
        out[2] = 0.5 * (values[3] + values[5]) + frame[0]
        out[3] = 0.5 * (values[4] + values[6]) + frame[1]
        if values[0] == 0.0 and raw >= 0.0:  # touching, with closest points: their normal
            out[4] = values[1]
            out[5] = values[2]
        return OVERLAP
    out[1] = math.inf
    if not t_max > 0.0:
        return MISS
    for i in range(10):
        state[i] = values[i]
    # the rounds, in the frame: a moved by nothing, b by the relative translation
    _shift_row(kind_a, fa, fva, 0.0, 0.0, ra, wa)
    tame_a, scale_a = _row_facts(kind_a, ra, wa, count_a)
    if not tame_a:
        return EXACT
    vx = vbx - vax
    vy = vby - vay
    free = 0.0
    fresh_x = state[1]  # the normal of the last time apart as evaluated (a gap within the noise
    fresh_y = state[2]  # keeps the normal of the last clear one in `state`)
    last_step = math.inf
    slowed = 0
    upper = math.inf
    back = 0.0
    for _ in range(MAX_ROUNDS):
        s = state[0]
        approach = max(0.0, -(vx * state[1] + vy * state[2]))
        rate = (approach + 0.0 + 0.0) * (1.0 + 16 * ULP)
        step = s / rate if rate > 0.0 else math.inf
        scale = t_max if math.isfinite(t_max) else free + min(step, 1e300)
        tol = TIME_TOL * scale
        bracketed = math.isfinite(upper)  # a probe that rounding put inside the other shape bounds the time
        if not bracketed and (free + step > t_max or math.isinf(step)):
            return MISS
        close = step <= tol or upper - free <= tol
        slowed = slowed + 1 if step >= SLOW * last_step else 0
        if not close and not bracketed and slowed >= 2:
            return EXACT  # a graze or a near miss: the search for the minimum decides
        last_step = step
        if close:
            if math.isinf(state[7]) and math.isinf(state[8]):
                return EXACT  # vertex against vertex: they may pass within the noise (the exact path decides)
            if step > 0.0 and not bracketed:
                noise = GRAZE * max(state[9], size)
                corner = math.isinf(state[7]) or math.isinf(state[8])
                edge = state[7] == 0.0 or state[8] == 0.0
                if (_bend(vx, vy, s, fresh_x, fresh_y, state[7], state[8], step) > noise
                        or (corner and edge and s > noise)):
                    return EXACT
            answer = min(free + step, upper)
            noise = NOISE * state[9]
            speed = s / step if step > 0.0 else math.inf
            margin = max(CERTIFY * scale, 4.0 * noise / speed if speed > 0.0 else 0.0)
            check = max(answer - margin, 0.0)
            seen = free
            if check > 0.0:
                tame_b, scale_b = _evaluate(contact, swapped, kind_b, fb, fvb, vx * check, vy * check,
                                            ra, wa, rb, wb, count_b, values)
                if not tame_b:
                    return EXACT
                decided = True
                if not abs(values[0]) > BAND * (scale_a + scale_b):
                    if swapped:
                        values[0], decided = _signed(relate(rb, wb, ra, wa, eps), values[0])
                    else:
                        values[0], decided = _signed(relate(ra, wa, rb, wb, eps), values[0])
                if not decided or not values[0] > 0.0:
                    return EXACT  # undecided by the float filter, or not apart: the Python search decides
                values[3] += vax * check
                values[4] += vay * check
                values[5] += vax * check
                values[6] += vay * check
                values[9] = _scale_at(kind_a, kind_b, values, ref_a, ref_b, vax, vay, vbx, vby, check)
                if values[0] > NOISE * values[9]:
                    for i in range(10):
                        state[i] = values[i]
                    seen = check
            # the contact point: the witness points moved with their shapes from `seen` to the answer
            dt = answer - seen
            ax, ay = _moved_witness(state[3], state[4], ref_a, vax, vay, turn_a, seen, dt)
            bx, by = _moved_witness(state[5], state[6], ref_b, vbx, vby, turn_b, seen, dt)
            px = (0.0 + ax) + bx
            py = (0.0 + ay) + by
            out[1] = answer
            out[2] = px + frame[0]
            out[3] = py + frame[1]
            out[4] = state[1]
            out[5] = state[2]
            return HIT
        # the step; one that reaches the known intersecting time backs off from it by a quarter
        # tolerance, twice as far each time in a row that is still not apart (at most to the middle)
        backing = not (free + step < upper)
        if not backing:
            back = 0.25 * tol
        probe = max(0.5 * (free + upper), upper - back) if backing else free + step
        tame_b, scale_b = _evaluate(contact, swapped, kind_b, fb, fvb, vx * probe, vy * probe,
                                    ra, wa, rb, wb, count_b, values)
        if not tame_b:
            return EXACT
        values[3] += vax * probe
        values[4] += vay * probe
        values[5] += vax * probe
        values[6] += vay * probe
        values[9] = _scale_at(kind_a, kind_b, values, ref_a, ref_b, vax, vay, vbx, vby, probe)
        if not values[0] >= 0.0:  # overlapping (by rounding): the first contact is no later
            upper = probe
            if backing:
                back *= 2.0
            continue
        fresh_x = values[1]
        fresh_y = values[2]
        if values[0] <= NOISE * values[9]:  # a gap within the noise: its normal may point anywhere
            values[1] = state[1]
            values[2] = state[2]
        for i in range(10):
            state[i] = values[i]
        free = probe
    return ROUNDS
