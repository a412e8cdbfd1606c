"""Time of impact of translating pairs, compiled: one loop over the pairs, a capped search each.

The shape of the search follows Box2D's ``b2TimeOfImpact`` (``src/distance.c``): a loop of at most
``MAX_STEPS`` rounds, each evaluating the separation of the pair at the time reached and
stepping ahead by a step that cannot pass a contact, ending with an explicit outcome code
(:mod:`.constants`: hit, near hit, miss, overlapping at the start, needs the exact path, out of
rounds) instead of warnings, and no allocation per round. Where Box2D stops at a target distance
(``linearSlop``), this search stops at a step below ``TIME_TOL * t_max`` and certifies the answer
apart just before it, as the Python search of :func:`collide2d.motion.time_of_impact` does; it is
that search's translation rounds, evaluated with the same moves and contact kernels in the same
order, so a pair it decides gets the same floats as there. That includes grazes and near misses:
a pair whose Newton steps slow to a linear rate, or whose last step may cross a sharp minimum of
the separation or a corner may pass the end of an edge, searches for the minimum of its separation
(:func:`closest_approach`), and a certification that fails starts the search again below it.
Such answers, reached through the band of the floats, come back as ``NEAR`` or ``MINIMUM`` (the
kinds whose first contact is exactly computable get it in Python, :mod:`collide2d.motion.exact`). Only what
the floats cannot settle at all (a separation within the sign band of the relation kernels that
their float filter cannot decide, a row outside the tame magnitudes of
:mod:`collide2d._robust.magnitude`, ``MAX_STEPS`` rounds without an answer) ends the row with
``EXACT`` or ``ROUNDS``, and the Python search takes it from the start.

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
from .bracket import illinois_update
from .constants import (BAND, CERTIFY, EXACT, GRAZE, GRAZE_STEPS, HIT, MAX_STEPS, MINIMUM, MISS, NEAR, NOISE, OVERLAP,
                        ROUNDS, SLOW, TIME_TOL, ULP)
from .rigid import move_xy, turn_vector

ELLIPSE, POLYGON, SEGMENT, LINE, POINT = 0, 1, 2, 3, 4
ROUNDED = 5  # a rounded row (offset, count, r, x0, y0, x1, y1): its loops are in toi_loops_rounded
# The numbers of a pair (one row of the loops' ``rows`` table): the shift of the given b, the
# velocities, the angular velocities, the reference points in the frame, the frame, size, t_max.
ROW = ("gdx", "gdy", "vax", "vay", "vbx", "vby", "wa", "wb", "ref_ax", "ref_ay", "ref_bx", "ref_by",
       "frame_x", "frame_y", "size", "t_max")
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
        if p[1] == 2.0 and row[3] == row[5] and row[4] == row[6]:
            row[1] = 1.0  # a segment core rounded to one point: that point's row (see loops_rounded)
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
    """The contact of ``a`` (moved row ``ra``, tame) and ``b`` shifted by ``(dx, dy)`` into
    ``values`` (the 9 numbers); returns ``(tame, scale)`` of ``b``'s moved row. A row outside the
    tame magnitudes gets no contact (NaN values; the caller hands the pair to the Python search):
    the contact kernels may divide by an underflowed length there (a segment of size 1 against an
    ellipse of size 1e149), which only the magnitude rungs of :mod:`collide2d._robust.magnitude`
    handle."""
    _shift_row(kind_b, p_b, verts_b, dx, dy, rb, wb)
    tame_b, scale_b = _row_facts(kind_b, rb, wb, count_b)
    if not tame_b:
        for i in range(9):
            values[i] = math.nan
    elif swapped:  # (no value assigned in both branches: Numba's inliner wants none)
        _store_mirrored(values, contact(rb, wb, ra, wa))
    else:
        _store(values, contact(ra, wa, rb, wb))
    return tame_b, scale_b


@kernel
def _moved_witness(x, y, ref, ux, uy, w, t, dt):
    """Half the witness point ``(x, y)`` at time ``t`` moved with its shape by ``dt`` (first order;
    ``search._Motion.contact_point``)."""
    rx = x - (ref[0] + ux * t)
    ry = y - (ref[1] + uy * t)
    return 0.5 * (x + (ux + w * (-ry)) * dt), 0.5 * (y + (uy + w * rx) * dt)


@kernel
def _max(a, b):
    """``np.maximum``: NaN if either is NaN."""
    if a != a or b != b:
        return math.nan
    return a if a >= b else b


@kernel
def _min(a, b):
    """``np.minimum``: NaN if either is NaN."""
    if a != a or b != b:
        return math.nan
    return a if a <= b else b


@kernel
def _fmax(a, b):
    """``np.fmax``: the other one where one is NaN."""
    if a != a:
        return b
    if b != b:
        return a
    return a if a >= b else b


@kernel
def _div(a, b):
    """``a / b`` as NumPy divides (IEEE: a zero divisor gives an infinity or NaN, no exception)."""
    if b == 0.0:
        if a == 0.0 or a != a:
            return math.nan
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


@kernel
def _clip(x, lo, hi):
    """``np.clip(x, lo, hi)``."""
    return _min(_max(x, lo), hi)


@kernel
def _copy(target, source):
    for i in range(10):
        target[i] = source[i]


@kernel
def _slope_newton(vx, vy, values, lo, hi, noise, estimate):
    """``search._slope_newton`` of one translating pair: the minimum of the separation by Newton's
    step on its slope ``V . n`` from ``lo`` (contact ``values``), the normal turning at
    ``|V_t|**2 / (rho_a + rho_b + s)``; ``estimate`` where that step leaves the bracket."""
    slope = vx * values[1] + vy * values[2]
    ax = vx - slope * values[1]
    ay = vy - slope * values[2]
    rho = _div(1.0, values[7]) + _div(1.0, values[8]) + _max(values[0], 0.0)
    rate = _div(ax * ax + ay * ay, rho)
    t = lo - _div(slope, rate)
    spread = 2.0 * noise / rate if rate != 0.0 else _div(2.0 * noise, rate)
    reach = hi + 2.0 * (math.sqrt(spread) if spread >= 0.0 else math.nan)
    if math.isfinite(t) and t >= lo and t <= reach:
        return t
    return estimate


@register_jitable(inline="always")
def _probe(contact, swapped, kind_a, kind_b, fb, fvb, ra, wa, rb, wb, count_b, ref_a, ref_b, vax, vay, vbx, vby,
           t, values):
    """The float contact of the pair at time ``t`` in its frame (``_Motion.contact(..., exact=False)``):
    ``b`` moved by the relative translation, witness points moved with ``a``'s translation, the
    scale of the noise in ``values[9]``; returns whether the moved rows are tame."""
    tame_b, _ = _evaluate(contact, swapped, kind_b, fb, fvb, (vbx - vax) * t, (vby - vay) * t, ra, wa, rb, wb,
                          count_b, values)
    values[3] += vax * t
    values[4] += vay * t
    values[5] += vax * t
    values[6] += vay * t
    values[9] = _scale_at(kind_a, kind_b, values, ref_a, ref_b, vax, vay, vbx, vby, t)
    return tame_b


@register_jitable(inline="always")
def closest_approach(contact, swapped, kind_a, kind_b, fb, fvb, ra, wa, rb, wb, count_b, ref_a, ref_b, vax, vay,
                     vbx, vby, size, start, values, step, t_end, tol, got_out, at_free):
    """The closest approach of a translating pair apart at ``start`` with contact ``values``, still
    approaching there (certified step ``step``), searched up to ``t_end``: the search of
    ``collide2d.motion.search._closest_approach`` for one pair, the same probes in the same order
    (see there for the method: the root of the slope ``V . n`` of the convex separation, by the
    double-root Newton step or the secant ahead of the last falling time, regula falsi (Illinois)
    in a bracket, Newton's step on the slope at the end).

    Returns ``(outcome, t, free)``: outcome -1, a row outside the tame magnitudes (the Python
    search decides); 0, no contact up to ``t_end``; 1, touching at the minimum ``t`` within the
    noise, contact there in ``got_out``; 2, overlapping beyond the noise at ``t`` (an upper bound
    of the first contact), apart up to ``free`` with contact ``at_free``.
    """
    vx = vbx - vax
    vy = vby - vay
    at_lo = np.empty(10)
    at_hi = np.empty(10)
    got = np.empty(10)
    _copy(at_lo, values)
    _copy(at_hi, values)
    _copy(at_free, values)
    _copy(got_out, values)
    free = start
    lo = start
    slope_lo = vx * values[1] + vy * values[2]
    prev = math.nan
    slope_prev = math.nan
    advance = step
    hi = math.inf
    slope_hi = 0.0
    w_lo = slope_lo
    w_hi = 0.0
    last = 0
    checked = False
    for _ in range(GRAZE_STEPS):
        double = _div(2.0 * _max(at_lo[0], 0.0), -slope_lo)
        secant = _div(-slope_lo * (lo - prev), slope_lo - slope_prev)
        falsi = _div(lo * w_hi - hi * w_lo, w_hi - w_lo)
        ahead = _fmax(_fmax(double, secant), advance)
        if not (falsi > lo and falsi < hi):
            falsi = 0.5 * (lo + hi)
        bracketed = math.isfinite(hi)
        if bracketed and slope_hi == 0.0 and not checked:  # flat: a side sliding along a side?
            falsi = _max(hi - tol, 0.5 * (lo + hi))
            checked = True
        t = falsi if bracketed else _min(lo + ahead, t_end)
        if not bracketed:
            advance = t - lo
        width = hi - lo
        noise_lo = GRAZE * _max(at_lo[9], size)
        fine = width <= tol and _max(abs(slope_lo), abs(slope_hi)) * width <= noise_lo
        done = bracketed and (fine or t <= lo or t >= hi)
        if bracketed and not done:  # a clear miss, early: below the crossing of the tangents
            if slope_lo < slope_hi:
                after_lo = _div(at_hi[0] - at_lo[0] - slope_hi * (hi - lo), slope_lo - slope_hi)
                below = at_lo[0] + slope_lo * after_lo
            else:
                below = _max(at_lo[0], at_hi[0])
            if below > NOISE / GRAZE * noise_lo:
                return 0, t, free
        if done:
            nearer = abs(slope_hi) < abs(slope_lo)
            _copy(got_out, at_hi if nearer else at_lo)
            s = _min(at_lo[0], at_hi[0])
            noise = GRAZE * _max(got_out[9], size)
            kink = _max(abs(slope_lo), abs(slope_hi)) * (hi - lo)
            root = lo + _div(_max(at_lo[0], 0.0), -slope_lo)
            estimate = _clip(root, lo, hi) if math.isfinite(root) else _clip(t, lo, hi)
            t_out = _min(_slope_newton(vx, vy, at_lo, lo, hi, noise, estimate), t_end)
            if s > noise + kink:
                return 0, t_out, free
            return (1 if s >= -noise else 2), t_out, free
        if not _probe(contact, swapped, kind_a, kind_b, fb, fvb, ra, wa, rb, wb, count_b, ref_a, ref_b, vax, vay,
                      vbx, vby, t, got):
            return -1, t, free
        s = got[0]
        slope = vx * got[1] + vy * got[2]
        noise = GRAZE * _max(got[9], size)
        if s < -noise:  # a contact at or before t, transversal enough for the Newton search
            _copy(got_out, got)
            return 2, t, free
        if not bracketed and t >= t_end and not (slope >= 0.0):  # still approaching at the end
            _copy(got_out, got)
            return (0 if s > noise else 1), t, free
        lo, hi, slope_lo, slope_hi, w_lo, w_hi, last, prev, slope_prev = illinois_update(
            t, slope, got, lo, hi, slope_lo, slope_hi, w_lo, w_hi, last, prev, slope_prev, at_lo, at_hi)
        if last == -1 and s > 0.0:  # a new lower end apart
            free = lo
            _copy(at_free, at_lo)
    return 2, math.inf, free  # out of probes: the Newton search goes on from free


@register_jitable(inline="always")
def search_translation(contact, relate, eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb,
                       row, out):
    """The time of impact of one translating pair: ``out[1:6] = (time, px, py, nx, ny)``; returns
    the outcome code. ``ga``/``gb`` are the rows as given, ``fa``/``fb`` the rows in the pair's
    frame; ``row`` holds the pair's numbers (see :data:`ROW`): the shift of the given ``b`` (a
    periodic image), the velocities, the angular velocities (0, or -0.0: a pair reaches this search
    only when both are zero), the reference points in the frame, the frame, the larger finite
    extent of the two shapes (``size``) and ``t_max``.

    The rounds of ``collide2d.motion.search._impact_search`` for one translating pair, in the same
    order with the same floats: Newton steps of the separation; a pair whose steps slow to a
    linear rate, or whose last step may cross a sharp minimum or the end of an edge, searches for
    the minimum of its separation (:func:`closest_approach`); the answer certified apart just
    before it by the relation kernel, the search started again below it where that fails. A hit
    reached through the band of the floats (a failed certification, vertex against vertex, a
    transversal contact after the search for the minimum) is ``NEAR``, one at the minimum of the
    separation within the band ``MINIMUM``: the kinds with an exact first contact get it in Python."""
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
    initial = np.empty(10)
    for i in range(1, 6):
        out[i] = math.nan
    # time 0: the shapes as given, witness points shifted into the frame (the exact sign decides)
    _shift_row(kind_a, ga, gva, 0.0, 0.0, ra, wa)
    tame_a, scale_a = _row_facts(kind_a, ra, wa, count_a)
    if not tame_a:
        return EXACT
    tame_b, scale_b = _evaluate(contact, swapped, kind_b, gb, gvb, gdx, gdy, ra, wa, rb, wb, count_b, values)
    if not tame_b:
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
    _copy(state, values)
    _copy(initial, values)  # where the search starts again after a failed certification
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
    retries = 1.0  # the margin of the certification doubles after each failed one
    grazed = False  # the search for the minimum ran (once)
    near = False  # the answer comes through the band of the floats (see NEAR)
    at_free = np.empty(10)
    for _ in range(MAX_STEPS):
        s = state[0]
        approach = max(0.0, -(vx * state[1] + vy * state[2]))
        rate = (approach + 0.0 + 0.0) * (1.0 + 16 * ULP)
        step = s / rate if rate > 0.0 else math.inf
        scale = t_max if math.isfinite(t_max) else free + min(step, 1e300)
        tol = max(TIME_TOL * scale, TINY)  # (a time reached below 2**-1029: its tolerance underflows; see the search)
        bracketed = math.isfinite(upper)  # a probe that rounding put inside the other shape bounds the time
        if not bracketed and (free + step > t_max or math.isinf(step)):
            return MISS
        close = step <= tol or upper - free <= tol
        slowed = slowed + 1 if step >= SLOW * last_step else 0
        # slow steps (a graze, a near miss, a near graze): the minimum of the separation decides
        slow = not close and not grazed and not bracketed and slowed >= 2
        last_step = step
        if close and not grazed and not bracketed and step > 0.0:
            # a step below the tolerance may cross a sharp minimum (the separation bends away from
            # its tangent by more than the noise over it) or a corner may pass the end of an edge
            noise = GRAZE * _max(state[9], size)
            corner = math.isinf(state[7]) or math.isinf(state[8])
            edge = state[7] == 0.0 or state[8] == 0.0
            if (_bend(vx, vy, s, fresh_x, fresh_y, state[7], state[8], step) > noise
                    or (corner and edge and s > noise)):
                slow = True
                close = False
        if slow:
            grazed = True
            near = True
            outcome, t_min, lo = closest_approach(contact, swapped, kind_a, kind_b, fb, fvb, ra, wa, rb, wb, count_b,
                                                  ref_a, ref_b, vax, vay, vbx, vby, size, free, state, step, t_max,
                                                  tol / 64, values, at_free)
            if outcome < 0:
                return EXACT
            if outcome == 0:
                return MISS
            if outcome == 1:  # touching at the minimum
                out[1] = t_min
                out[2] = 0.5 * (values[3] + values[5]) + frame[0]
                out[3] = 0.5 * (values[4] + values[6]) + frame[1]
                out[4] = values[1]
                out[5] = values[2]
                return MINIMUM
            upper = t_min  # overlapping beyond the noise: the Newton search goes on in the bracket
            free = lo
            _copy(state, at_free)
            continue
        if close:
            if math.isinf(state[7]) and math.isinf(state[8]):
                near = True  # vertex against vertex: they may pass within the noise (the exact path decides)
            answer = min(free + step, upper)
            noise = NOISE * state[9]
            speed = s / step if step > 0.0 else math.inf
            margin = max(CERTIFY * scale, 4.0 * noise / speed if speed > 0.0 else 0.0)
            check = max(answer - margin * retries, 0.0)
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
                if not decided:
                    return EXACT  # undecided by the float filter: the Python search decides
                if not values[0] > 0.0:
                    # not apart there: a contact came earlier, within float noise of a step;
                    # search again from the start below that time, the margin twice as wide
                    upper = check
                    retries *= 2.0
                    free = 0.0
                    _copy(state, initial)
                    fresh_x = initial[1]
                    fresh_y = initial[2]
                    near = True
                    continue
                values[3] += vax * check
                values[4] += vay * check
                values[5] += vax * check
                values[6] += vay * check
                values[9] = _scale_at(kind_a, kind_b, values, ref_a, ref_b, vax, vay, vbx, vby, check)
                if values[0] > NOISE * values[9]:
                    _copy(state, values)
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
            return NEAR if near else HIT
        # the step; one that reaches the known intersecting time backs off from it by a quarter
        # tolerance, twice as far each time in a row that is still not apart (at most to the middle)
        backing = not (free + step < upper)
        if not backing:
            back = 0.25 * tol
        probe = max(0.5 * (free + upper), upper - back) if backing else free + step
        if not _probe(contact, swapped, kind_a, kind_b, fb, fvb, ra, wa, rb, wb, count_b, ref_a, ref_b, vax, vay,
                      vbx, vby, probe, values):
            return EXACT
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
        _copy(state, values)
        free = probe
    return ROUNDS
