"""Time of impact of turning pairs, compiled: conservative advancement with a certified bound.

The turning twin of :mod:`.toi` (translation), shaped the same way after Box2D's
``b2TimeOfImpact`` (``src/distance.c``): a capped number of rounds per pair (the row's ``rounds``),
no allocation per round, and an outcome code (:mod:`.constants`: hit, miss, overlapping at the
start, needs the exact path, out of rounds). Its rounds follow the Python search of
:func:`collide2d.motion.time_of_impact` for turning pairs, with the same moves, contact kernels
and decisions, and two changes that make it cheaper (so its floats are its own; both searches
keep the same contract, which the tests check against brute-force references): between two
evaluations of the exact contact the search takes cheap certified steps on the separation along
the last contact's normal (:func:`_axis_advance`, below; there an ellipse's turn is bounded by
``|w| (a - b)`` rather than ``|w| a``), so that most pairs need a handful of exact contacts:

* the window of the bounding discs (``search._disc_window``, ``search._bound_turning``): a pair
  whose discs never meet within ``t_max`` misses at once, one whose discs meet later starts there,
  and the search ends where they part for good (or after one period of a periodic pair);
* conservative advancement (Mirtich 1996; Box2D's ``b2TimeOfImpact`` advances the same way with
  its separation functions): at a time apart by ``s`` with normal ``n`` the gap along ``n``
  closes at most at ``mu = max(0, -V . n) + |w_a| r_a + |w_b| r_b`` (``r`` the extent of each
  shape about its reference point), so the step ``s / mu`` cannot pass a contact; the cheap steps
  on the axis then go as far as the axis certifies (near the pair, on a transversal approach
  only: a graze slows the exact steps down, which starts the graze search);
* a crawl (more than :data:`SWEEP_AFTER` rounds) advances many steps per round: the separation at
  up to ``sweeps`` times spaced by the step, each time apart the centre of a ball of times free of
  contact (``search._sweep``);
* a graze (the steps slow to a linear rate with a falling separation within 1/64 of the pair's
  size) looks for the minimum of the separation, the root of its slope ``n . (u_b - u_a)`` (the
  envelope theorem; ``u`` the velocity of each witness point), by regula falsi in a bracket
  within 64 certified steps ahead (``search._closest_approach``);
* the answer is certified apart just before it with the sign of the exact predicates, decided
  here by the relate kernels' float filters.

A start within the float noise is decided as there too (``search._opening_start``: a gap that
opens to first order is probed where it should clear the noise; else the pair steps on within it).
Anything else goes back to the Python search from the start (``EXACT``): a turning line, a pair
turning in step that drifts through many periods (the period skipping of
``search._skip_periods``), an infinite ``t_max`` without a finite end of the search, a sign the
float filter cannot decide, a certification that finds the shapes not apart, a row outside the
tame magnitudes. A search still going after its rounds ends with ``ROUNDS`` (the Python search
then goes on, and warns if it too runs out).

Frame: the pair's frame of :class:`collide2d.motion.search._Motion`; at time ``t`` ``a`` is turned
by ``w_a t`` about its reference point and ``b`` turned by ``w_b t`` about its own, then shifted
by ``(v_b - v_a) t``; witness points come back moved with ``a``'s translation.

Rounded pairs (capsules, rounded polygons and boxes: a core grown by the disc of radius ``r``)
run in the loop of their cores' kinds, with the radii in the row (``radius_a``, ``radius_b``; 0 for
the plain kinds, which then take none of the branches below). The signed distance of two sets
grown by discs is that of the sets less the sum of the radii (the Minkowski sum with a disc adds
``r`` to the support function), so every contact of the cores is grown once (:func:`_grow`): the
separation less ``r_a + r_b``, each witness point moved by its radius along the normal onto the
rounded boundary (apart: the closest points; overlapping: the support points), the normal kept.
The separation along an axis (the cheap rounds) is lowered by the same sum; the speed bounds of
the turns are those of the cores (a disc turns into itself about its centre), the bounding discs
those of the rounded shapes (the row's extents). The sign within the band is decided by the
rounded predicates (the loops' ``grown`` kernel: exact for flat cores, within the documented
band against an ellipse), as the Python search decides it.
"""

import math

import numpy as np
from numba.extending import register_jitable

from collide2d._jit import kernel

from ..codes import ELLIPSE_BAND  # the band of the rounded-ellipse predicates (relate.rounded)
from .bracket import copy_contact as _copy
from .bracket import illinois_update
from .constants import BAND, CERTIFY, EXACT, GRAZE, HIT, MISS, NOISE, OVERLAP, ROUNDS, SLOW, TIME_TOL, ULP
from .rigid import move_xy, turn_vector
from .toi import (ELLIPSE, LINE, POINT, POLYGON, SEGMENT, _row_facts, _scale_at, _shift_row, _signed, _store,
                  _store_mirrored, _tame_number)

# The numbers of a pair (one row of the loops' ``rows`` table): those of the translation search
# (:data:`collide2d._kernels.motion.toi.ROW`), then the extents of the shapes about their reference
# points (inf: a line), the speed bounds of their turns ``|w| r`` (0 for a circle) and the number of
# rounds before the pair is handed back (the Python search's ``_MAX_STEPS``, 4000: the same cap), and
# the radii by which each shape is grown (0 for the plain kinds; see "Rounded pairs" below).
ROW = ("gdx", "gdy", "vax", "vay", "vbx", "vby", "wa", "wb", "ref_ax", "ref_ay", "ref_bx", "ref_by",
       "frame_x", "frame_y", "size", "t_max", "reach_a", "reach_b", "spin_a", "spin_b", "rounds",
       "radius_a", "radius_b")
RADIUS_A = 21  # the columns of the radii in ROW
SWEEP_AFTER = 32  # rounds of single steps before a crawl advances in batches of steps
SWEEP_SAMPLES = 64  # steps per batch, twice as many as joined the time before, up to
SWEEP_MOST = 8192
TURN_REACH = 64  # a graze search looks at most this many certified steps ahead
TURN_NEAR = 1.0 / 64  # and starts only with a gap below this part of the pair's size
GRAZE_STEPS = 200
DISC_MARGIN = 2.0**-48  # the widening of the bounding discs and of their window (search._DISC_MARGIN)
SKIP_FROM = 8  # a drifting pair with a window of more periods than this is handed back
SPUN = 2.0**-20  # a turn beyond this from the checked time to the answer: the contact at the answer
GRAZE_TIME = 2.0**-36  # a gap within the noise whose slope places the time worse than this times the scale: a graze


@kernel
def disc_window(reach_a, reach_b, dx, dy, vx, vy):
    """``(enter, leave)``: the times outside which the bounding discs of a pair do not meet
    (``search._disc_window``, the same floats): ``reach`` the extents, ``(dx, dy)`` from ``a``'s
    reference point to ``b``'s at 0, ``(vx, vy)`` the relative velocity."""
    radius = reach_a + reach_b
    if not math.isfinite(radius):  # a line: no disc
        return 0.0, math.inf
    speed = math.hypot(vx, vy)
    gap = math.hypot(dx, dy)
    radius = radius + DISC_MARGIN * (radius + gap)
    unit = speed if speed > 0.0 else 1.0
    ux = vx / unit
    uy = vy / unit
    along = dx * ux + dy * uy
    across = abs(dx * uy - dy * ux)
    half = math.sqrt(max((radius - across) * (radius + across), 0.0))
    moving = speed > 0.0 and across <= radius
    first = ((-along - half) / speed if moving else math.inf) * (1.0 - DISC_MARGIN)
    last = ((-along + half) / speed if moving else -math.inf) * (1.0 + DISC_MARGIN)
    if gap <= radius:
        enter = 0.0
    elif moving and along < 0.0:
        enter = max(first, 0.0)
    else:
        enter = math.inf
    leave = (last if moving else -math.inf) if speed > 0.0 else math.inf
    return enter, leave


@kernel
def _move_row(kind, p, verts, ox, oy, c, s, dx, dy, row, work):
    """Row ``p`` turned by ``(c, s)`` about ``(ox, oy)``, then shifted by ``(dx, dy)``, into ``row``
    (a polygon: its vertices into ``work``, ``row = (0, count)``): the moves of :mod:`.loops`."""
    if kind == POLYGON:
        first = int(p[0])
        count = int(p[1])
        for j in range(count):
            work[j, 0], work[j, 1] = move_xy(verts[first + j, 0], verts[first + j, 1], ox, oy, c, s, dx, dy)
        row[0] = 0.0
        row[1] = count
        return
    row[0], row[1] = move_xy(p[0], p[1], ox, oy, c, s, dx, dy)
    if kind == ELLIPSE:
        row[2] = p[2]
        row[3] = p[3]
        row[4], row[5] = turn_vector(p[4], p[5], c, s)
    elif kind == SEGMENT:
        row[2], row[3] = move_xy(p[2], p[3], ox, oy, c, s, dx, dy)
    elif kind == LINE:
        row[2], row[3] = turn_vector(p[2], p[3], c, s)


@kernel
def _turn(angle):
    """``(cos, sin)`` of ``angle``, ``(1, 0)`` exactly for 0 (``rigid._turns``)."""
    if angle == 0.0:
        return 1.0, 0.0
    return math.cos(angle), math.sin(angle)


@kernel
def _move_pair(kind_a, kind_b, fa, fva, fb, fvb, row, t, ra, wka, rb, wkb):
    """The rows of the pair at time ``t`` into ``ra`` and ``rb``: ``a`` turned, ``b`` turned and
    moved by the relative translation."""
    ca, sa = _turn(row[6] * t)
    cb, sb = _turn(row[7] * t)
    _move_row(kind_a, fa, fva, row[8], row[9], ca, sa, 0.0, 0.0, ra, wka)
    _move_row(kind_b, fb, fvb, row[10], row[11], cb, sb, (row[4] - row[2]) * t, (row[5] - row[3]) * t, rb, wkb)


@kernel
def _ordered(swapped, ra, wka, rb, wkb):
    """The moved rows in the order of the pair's contact and relate kernels."""
    if swapped:
        return rb, wkb, ra, wka
    return ra, wka, rb, wkb


@kernel
def _store_oriented(values, found, swapped):
    """The contact ``found`` of the pair's kernel into ``values`` as the contact of ``(a, b)``."""
    if swapped:
        _store_mirrored(values, found)
    else:
        _store(values, found)


@kernel
def _grow(values, radius_a, radius_b):
    """The contact ``values`` of two cores as the contact of the cores grown by discs of radii
    ``radius_a`` and ``radius_b`` (see the module notes): the separation less their sum, each
    witness point moved by its radius along the normal (from a to b); a contact without a finite
    normal keeps its points."""
    nx, ny = values[1], values[2]
    values[0] = values[0] - (radius_a + radius_b)
    if math.isfinite(nx) and math.isfinite(ny):
        values[3] += radius_a * nx
        values[4] += radius_a * ny
        values[5] -= radius_b * nx
        values[6] -= radius_b * ny


@kernel
def _rows_tame(kind_a, kind_b, ra, wka, rb, wkb, values):
    """Whether both rows lie within the tame magnitudes; if not, ``values`` become NaN and the
    caller hands the pair to the Python search without evaluating the contact kernel, which may
    divide by an underflowed length there (a unit segment against an ellipse of size 1e149).
    Checked once, on the rows as given: a check before every later evaluation cost about 0.7 us
    per pair of the turning search (a call with four arrays each time); the moved rows' tameness
    is still checked after each evaluation, as before."""
    if _row_facts(kind_a, ra, wka, wka.shape[0])[0] and _row_facts(kind_b, rb, wkb, wkb.shape[0])[0]:
        return True
    for i in range(values.shape[0]):
        values[i] = math.nan
    return False


@kernel
def _finish_at(kind_a, kind_b, swapped, found, row, t, ra, wka, rb, wkb, values):
    """The contact ``found`` of the moved rows into ``values`` (see :func:`_at`)."""
    _store_oriented(values, found, swapped)
    margin = row[RADIUS_A] + row[RADIUS_A + 1]
    if margin > 0.0:  # a rounded pair: the contact of the grown cores
        _grow(values, row[RADIUS_A], row[RADIUS_A + 1])
    tame_a, scale_a = _row_facts(kind_a, ra, wka, wka.shape[0])  # (a polygon's vertices fill its work array)
    tame_b, scale_b = _row_facts(kind_b, rb, wkb, wkb.shape[0])
    vax, vay = row[2], row[3]
    values[3] += vax * t
    values[4] += vay * t
    values[5] += vax * t
    values[6] += vay * t
    values[9] = _scale_at(kind_a, kind_b, values, row[8:10], row[10:12], vax, vay, row[4], row[5], t)
    if margin > 0.0:
        return tame_a and tame_b, scale_a + scale_b + margin
    return tame_a and tame_b, scale_a + scale_b


@register_jitable(inline="always")
def _at(contact, swapped, kind_a, kind_b, fa, fva, fb, fvb, row, t, ra, wka, rb, wkb, values):
    """The contact of the pair at time ``t`` into ``values`` (10 numbers, ``search._Motion.contact``
    with ``exact=False``): ``a`` turned, ``b`` turned and moved by the relative translation,
    witness points moved with ``a``'s translation, the scale of the noise in ``values[9]``.
    Returns ``(tame, scale_a + scale_b)`` of the moved rows. Inlined into the search with the
    pair's contact kernel; everything else is in kernels compiled once (:func:`_move_pair`,
    :func:`_finish_at`), so that each inlined copy is three calls."""
    _move_pair(kind_a, kind_b, fa, fva, fb, fvb, row, t, ra, wka, rb, wkb)
    p, p_verts, q, q_verts = _ordered(swapped, ra, wka, rb, wkb)
    return _finish_at(kind_a, kind_b, swapped, contact(p, p_verts, q, q_verts), row, t, ra, wka, rb, wkb, values)


# -- the cheap rounds: conservative advancement on the last contact's axis -------------------------
#
# Between two evaluations of the exact contact the search advances on the separation of the pair
# along the fixed unit normal ``n`` of the last one (the witness normal, from a to b):
#
#     g(t) = n . (c_b(t) - c_a(t)) - H_a(R(-w_a t) n) - H_b(R(-w_b t) (-n)),
#
# ``c`` the reference points, ``H`` the support function of each shape at time 0 about its
# reference point. Any axis gives a lower bound of the distance (``g(t) > 0`` on an interval: the
# shapes are apart there, separated along ``n``), and at the time of the contact ``g`` equals the
# separation. This is Box2D's separation function of ``b2TimeOfImpact`` (``src/distance.c``,
# ``b2SeparationFunction``), with its root found by conservative advancement (Mirtich 1996; Zhang,
# Lee, Kim, Tang and Manocha, "C2A", 2006) instead of a root finder, so that each step is certified:
# ``g`` is a closed form of the shapes' numbers (an ellipse's ``h(u) = sqrt((a e.u)^2 + (b f.u)^2)``,
# a vertex list's largest ``v . u``), tens of nanoseconds where the exact contact of two ellipses
# costs about a microsecond. Two certified steps from a time with ``g > 0``:
#
# * linear: ``|d/dt H(R(-w t) u)| = |w| |p* . J u| <= |w| delta``, ``p*`` the support point and
#   ``delta`` the largest tangential extent: ``a - b`` for an ellipse about its centre (the largest
#   ``(a^2 - b^2) |al be| / sqrt(a^2 al^2 + b^2 be^2)``), the extent ``r`` for anything else; so
#   ``g`` falls at most at ``max(0, -V . n) + |w_a| delta_a + |w_b| delta_b``;
# * quadratic, for ellipses and points: ``d^2/dt^2 H = w^2 H''`` and ``H'' = rho - H <= a^2/b - b``
#   (``rho`` the radius of curvature), so ``g(t + h) >= g + g' h - K h^2 / 2`` with
#   ``K = w_a^2 (a_a^2/b_a - b_a) + w_b^2 (...)``; the step to the first root of that parabola is
#   Newton's step on ``g`` near a transversal root (quadratic convergence).
#
# The larger of the two is taken. The float value of ``g`` is lowered by a bound of its rounding
# first (AXIS_ROUNDING times its terms), and no step is taken from below the noise of the last
# contact: the exact contact, evaluated at the time reached, gives the next axis and decides the
# end of the search as before.
AXIS_STEPS = 48  # cheap steps on one axis at most before the exact contact is evaluated again
AXIS_ROUNDING = 2.0**-46  # the rounding of the axis separation, relative to its terms


@kernel
def _support(kind, p, verts, ox, oy, ux, uy):
    """``(h, tangential)`` of shape row ``p`` (time 0, the frame) along the unit ``u``: ``h`` the
    largest ``(x - o) . u`` over the shape, ``tangential`` ``(p* - o) . J u`` at its support point
    ``p*`` (``J`` the quarter turn), the derivative of ``h`` as ``u`` turns."""
    if kind == ELLIPSE:
        norm = math.hypot(p[4], p[5])
        ex = p[4] / norm
        ey = p[5] / norm
        along = ex * ux + ey * uy
        across = ex * uy - ey * ux
        h = math.hypot(p[2] * along, p[3] * across)
        tangential = -(p[2] * p[2] - p[3] * p[3]) * along * across / h if h > 0.0 else 0.0
        cx = p[0] - ox
        cy = p[1] - oy
        return h + (cx * ux + cy * uy), tangential + (cy * ux - cx * uy)
    if kind == POLYGON:
        first = int(p[0])
        best = -math.inf
        tangential = 0.0
        for j in range(int(p[1])):
            x = verts[first + j, 0] - ox
            y = verts[first + j, 1] - oy
            h = x * ux + y * uy
            if h > best:
                best = h
                tangential = y * ux - x * uy
        return best, tangential
    x = p[0] - ox
    y = p[1] - oy
    h = x * ux + y * uy
    tangential = y * ux - x * uy
    if kind == SEGMENT:
        x2 = p[2] - ox
        y2 = p[3] - oy
        h2 = x2 * ux + y2 * uy
        if h2 > h:
            return h2, y2 * ux - x2 * uy
    return h, tangential


@kernel
def _axis_constants(kind, p, reach, w):
    """``(|w| delta, w^2 sup H'')`` of a shape turning at ``w`` (see above): ``delta`` the largest
    tangential extent (``a - b`` for an ellipse, 0 for a point, else ``reach``); ``sup H''`` finite
    for ellipses and points only (a vertex or an end is a kink)."""
    if w == 0.0:
        return 0.0, 0.0
    if kind == ELLIPSE:
        large = max(p[2], p[3])
        small = min(p[2], p[3])
        bend = (large * large / small - small) if small > 0.0 else (0.0 if large == 0.0 else math.inf)
        return abs(w) * (large - small), w * w * bend
    if kind == POINT:
        return 0.0, 0.0
    return abs(w) * reach, math.inf


@kernel
def _axis_gap(kind_a, fa, fva, kind_b, fb, fvb, row, nx, ny, t):
    """``(g, g', rounding)`` of the separation along the fixed axis ``n`` at time ``t`` (see above)."""
    vx = row[4] - row[2]
    vy = row[5] - row[3]
    ca, sa = _turn(row[6] * t)
    cb, sb = _turn(row[7] * t)
    ha, ta = _support(kind_a, fa, fva, row[8], row[9], ca * nx + sa * ny, ca * ny - sa * nx)
    hb, tb = _support(kind_b, fb, fvb, row[10], row[11], -(cb * nx + sb * ny), -(cb * ny - sb * nx))
    dx = (row[10] - row[8]) + vx * t
    dy = (row[11] - row[9]) + vy * t
    g = (nx * dx + ny * dy) - ha - hb
    slope = (vx * nx + vy * ny) + row[6] * ta + row[7] * tb
    rounding = AXIS_ROUNDING * (abs(dx) + abs(dy) + abs(ha) + abs(hb) + abs(row[10]) + abs(row[11])
                                + abs(row[8]) + abs(row[9]))
    margin = row[RADIUS_A] + row[RADIUS_A + 1]
    if margin > 0.0:  # grown cores: the support functions of the rounded shapes add their radii
        g = g - margin
        rounding = rounding + AXIS_ROUNDING * margin
    return g, slope, rounding


@kernel
def _axis_advance(kind_a, fa, fva, kind_b, fb, fvb, row, nx, ny, t, t_limit, turn_rate, bend, floor):
    """The time up to which the pair is certified apart along the axis ``n`` from ``t`` (apart
    there), by the larger of the two certified steps above; ``t_limit`` once it gets there. Stops
    where the lowered separation along the axis is below ``floor``, or after :data:`AXIS_STEPS`."""
    rate = (max(0.0, -((row[4] - row[2]) * nx + (row[5] - row[3]) * ny)) + turn_rate) * (1.0 + 16 * ULP)
    start = t
    for _ in range(AXIS_STEPS):
        g, slope, rounding = _axis_gap(kind_a, fa, fva, kind_b, fb, fvb, row, nx, ny, t)
        gap = g - rounding
        if not gap > floor:
            break
        step = gap / rate if rate > 0.0 else math.inf
        if bend < math.inf:  # the root of g + g' h - K h^2 / 2, g' lowered by its rounding
            low = slope - AXIS_ROUNDING * (abs(slope) + rate)
            root = math.sqrt(low * low + 2.0 * bend * gap) - low
            quadratic = 2.0 * gap / root if root > 0.0 else math.inf
            step = max(step, quadratic * (1.0 - 16 * ULP))
        if not step > 0.0:
            break
        t = t + step
        if not t < t_limit:
            return t_limit
        if not step > 2.0**-40 * (t - start):  # no progress to speak of: the exact contact
            break
    return t


@kernel
def _divide(x, y):
    """``x / y`` as NumPy divides (a division by zero: inf or NaN, no exception)."""
    if y == 0.0:
        if x == 0.0 or math.isnan(x):
            return math.nan
        return math.copysign(math.inf, x) * math.copysign(1.0, y)
    return x / y


@kernel
def _ahead(values, vx, vy, spin_a, spin_b):
    """The certified step from a contact ``values`` (``search._Motion.steps``): the separation
    over ``max(0, -V . n) + |w_a| r_a + |w_b| r_b`` (``spin_a``, ``spin_b``), rounded up."""
    approach = max(0.0, -(vx * values[1] + vy * values[2]))
    rate = (approach + spin_a + spin_b) * (1.0 + 16 * ULP)
    return values[0] / rate if rate > 0.0 else math.inf


@kernel
def _behind(values, vx, vy, spin_a, spin_b):
    """How far back no contact can be (``search._Motion.back_steps``)."""
    rate = (max(0.0, vx * values[1] + vy * values[2]) + spin_a + spin_b) * (1.0 + 16 * ULP)
    if not math.isfinite(rate):
        return 0.0
    return values[0] / rate if rate > 0.0 else math.inf


@kernel
def _slope(values, row, t):
    """The slope of the separation at a contact ``values`` at time ``t`` (``search._slopes``):
    ``n . (u_b - u_a)``, ``u = v + w x (p - c(t))`` the velocity of each witness point."""
    nx, ny = values[1], values[2]
    rate = 0.0
    for side in range(2):
        k = 3 + 2 * side
        vx, vy, w = row[2 + 2 * side], row[3 + 2 * side], row[6 + side]
        rx = values[k] - (row[8 + 2 * side] + vx * t)
        ry = values[k + 1] - (row[9 + 2 * side] + vy * t)
        sx = vx + w * (-ry)
        sy = vy + w * rx
        rate += (-1.0 if side == 0 else 1.0) * (sx * nx + sy * ny)
    return rate


@kernel
def _noise(values, size):
    """The float noise of a separation at a minimum (``search._Motion.noise``)."""
    return GRAZE * max(values[9], size)


@register_jitable(inline="always")
def _closest_approach(contact, swapped, kind_a, kind_b, fa, fva, fb, fvb, row, ra, wka, rb, wkb,
                      lo, state, step, t_end, tol, at_lo, at_hi, got):
    """The closest approach of a turning pair apart at ``lo`` (contact ``state``, falling), searched
    up to ``t_end`` (``search._closest_approach`` for one turning pair: regula falsi, Illinois, on
    the slope; no early miss and no Newton step on the slope, the separation not being convex).
    Returns ``(outcome, t)``: 0 no contact up to ``t_end``, 1 touching at the minimum ``t`` (its
    contact in ``got``), 2 overlapping beyond the noise at ``t`` (an upper bound; inf: out of
    steps), -1 a row outside the tame magnitudes."""
    size = row[14]
    _copy(at_lo, state)
    _copy(at_hi, state)
    slope_lo = _slope(state, row, lo)
    prev = math.nan
    slope_prev = math.nan
    advance = step
    hi = math.inf
    slope_hi = 0.0
    w_lo = slope_lo
    w_hi = slope_hi
    last = 0
    checked = False
    for _ in range(GRAZE_STEPS):
        l, h = lo, hi
        double = _divide(2.0 * max(at_lo[0], 0.0), -slope_lo)
        secant = _divide(-slope_lo * (l - prev), slope_lo - slope_prev)
        falsi = _divide(l * w_hi - h * w_lo, w_hi - w_lo)
        ahead = advance
        for x in (double, secant):  # np.fmax: a NaN loses
            if x > ahead or math.isnan(ahead):
                ahead = x
        if not (falsi > l and falsi < h):
            falsi = 0.5 * (l + h)
        bracketed = math.isfinite(h)
        if bracketed and slope_hi == 0.0 and not checked:  # a flat minimum? a probe just below hi tells, once
            falsi = max(h - tol, 0.5 * (l + h))
            checked = True
        t = falsi if bracketed else min(l + ahead, t_end)
        if not bracketed:
            advance = t - l
        width = h - l
        fine = width <= tol and max(abs(slope_lo), abs(slope_hi)) * width <= _noise(at_lo, size)
        if bracketed and (fine or t <= l or t >= h):
            nearer = abs(slope_hi) < abs(slope_lo)
            _copy(got, at_hi if nearer else at_lo)
            s = min(at_lo[0], at_hi[0])
            noise = _noise(got, size)
            kink = max(abs(slope_lo), abs(slope_hi)) * (h - l)
            root = l + _divide(max(at_lo[0], 0.0), -slope_lo)
            estimate = min(max(root, l), h) if math.isfinite(root) else min(max(t, l), h)
            t_out = min(estimate, t_end)
            if s > noise + kink:
                return 0, t_out
            return (1 if s >= -noise else 2), t_out
        tame, _ = _at(contact, swapped, kind_a, kind_b, fa, fva, fb, fvb, row, t, ra, wka, rb, wkb, got)
        if not tame:
            return -1, t
        s = got[0]
        slope = _slope(got, row, t)
        noise = _noise(got, size)
        if s < -noise:
            return 2, t
        if not math.isfinite(hi) and t >= t_end and not slope >= 0.0:  # still approaching at the end
            return (0 if s > noise else 1), t
        lo, hi, slope_lo, slope_hi, w_lo, w_hi, last, prev, slope_prev = illinois_update(
            t, slope, got, lo, hi, slope_lo, slope_hi, w_lo, w_hi, last, prev, slope_prev, at_lo, at_hi)
    return 2, math.inf


@register_jitable(inline="always")
def _signed_at(relate, grown, eps, swapped, kind_a, kind_b, row, ra, wka, rb, wkb, s, scale):
    """The sign of the exact predicates for the float separation ``s`` of the moved rows
    (``measurement._sign_consistent``): ``(s, decided)``; of the rounded predicates (``grown``, the
    loops' kernel of the cores grown by the row's radii) for a rounded pair."""
    if abs(s) > BAND * scale:
        return s, True
    if row[RADIUS_A] + row[RADIUS_A + 1] > 0.0:
        return _signed(grown(kind_a, ra, wka, row[RADIUS_A], kind_b, rb, wkb, row[RADIUS_A + 1], s, scale, eps), s)
    p, p_verts, q, q_verts = _ordered(swapped, ra, wka, rb, wkb)  # (the relation codes are their own mirrors)
    return _signed(relate(p, p_verts, q, q_verts, eps), s)


@register_jitable(inline="always")
def search_turning(contact, relate, grown, eps, swapped, kind_a, kind_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb,
                   row, out):
    """The time of impact of one turning pair: ``out[1:6] = (time, px, py, nx, ny)``; returns the
    outcome code. The arguments are those of :func:`collide2d._kernels.motion.toi.search_translation`,
    ``row`` with the numbers of :data:`ROW`, and ``grown`` the relate kernel of rounded pairs (see
    the module notes)."""
    gdx, gdy, vax, vay, vbx, vby, turn_a, turn_b = row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7]
    frame_x, frame_y, size, t_max = row[12], row[13], row[14], row[15]
    reach_a, reach_b, spin_a, spin_b = row[16], row[17], row[18], row[19]
    count_a = max(int(fa[1]), int(ga[1])) if kind_a == POLYGON else 1
    count_b = max(int(fb[1]), int(gb[1])) if kind_b == POLYGON else 1
    ra = np.empty(6)
    rb = np.empty(6)
    wka = np.empty((count_a, 2))
    wkb = np.empty((count_b, 2))
    work = np.empty((5, 10))
    state, values, at_lo, at_hi, got = work[0], work[1], work[2], work[3], work[4]
    for i in range(1, 6):
        out[i] = math.nan
    # time 0: the shapes as given, witness points shifted into the frame (the exact sign decides)
    _shift_row(kind_a, ga, gva, 0.0, 0.0, ra, wka)
    _shift_row(kind_b, gb, gvb, gdx, gdy, rb, wkb)
    if not _rows_tame(kind_a, kind_b, ra, wka, rb, wkb, values):
        return EXACT
    p, p_verts, q, q_verts = _ordered(swapped, ra, wka, rb, wkb)
    _store_oriented(values, contact(p, p_verts, q, q_verts), swapped)
    tame_a, scale_a = _row_facts(kind_a, ra, wka, wka.shape[0])
    tame_b, scale_b = _row_facts(kind_b, rb, wkb, wkb.shape[0])
    radius_a, radius_b = row[RADIUS_A], row[RADIUS_A + 1]
    if radius_a + radius_b > 0.0:  # a rounded pair: the contact of the grown cores
        _grow(values, radius_a, radius_b)
        scale_b += radius_a + radius_b
        tame_a = tame_a and _tame_number(radius_a) and _tame_number(radius_b)
    # a rounded pair with an ellipse: its predicates decide within a band (the loops' grown kernel),
    # which the certification before the answer must clear (below)
    grown_band = ELLIPSE_BAND * (scale_a + scale_b) if radius_a + radius_b > 0.0 and (
        kind_a == ELLIPSE or kind_b == ELLIPSE) else 0.0
    if not (tame_a and tame_b):
        return EXACT
    raw = values[0]
    values[0], decided = _signed_at(relate, grown, eps, swapped, kind_a, kind_b, row, ra, wka, rb, wkb, raw,
                                    scale_a + scale_b)
    if not decided:
        return EXACT
    if shifted:
        values[3] -= frame_x
        values[4] -= frame_y
        values[5] -= frame_x
        values[6] -= frame_y
    else:
        values[3] += vax * 0.0
        values[4] += vay * 0.0
        values[5] += vax * 0.0
        values[6] += vay * 0.0
    values[9] = _scale_at(kind_a, kind_b, values, row[8:10], row[10:12], vax, vay, vbx, vby, 0.0)
    if values[0] <= 0.0:
        out[1] = 0.0
        out[2] = 0.5 * (values[3] + values[5]) + frame_x
        out[3] = 0.5 * (values[4] + values[6]) + frame_y
        if values[0] == 0.0 and raw >= 0.0:
            out[4] = values[1]
            out[5] = values[2]
        return OVERLAP
    out[1] = math.inf
    if not math.isfinite(spin_a + spin_b) or (kind_a == LINE and kind_b == LINE):
        return EXACT  # a turning line (or two lines): the Python search's own bounds
    if not t_max > 0.0:
        return MISS
    # the turns' tighter speed bounds (|w| (a - b) for an ellipse) and the curvature bound of the
    # separation along an axis (see _axis_advance); a line keeps the Python search's own steps
    turn_rate_a, bend_a = _axis_constants(kind_a, fa, reach_a - radius_a, turn_a)  # (the cores' reach)
    turn_rate_b, bend_b = _axis_constants(kind_b, fb, reach_b - radius_b, turn_b)
    axis_rate = min(spin_a, turn_rate_a) + min(spin_b, turn_rate_b)  # (the exact steps keep |w| r)
    axis = kind_a != LINE and kind_b != LINE
    bend = (bend_a + bend_b) * (1.0 + 2.0**-40)
    _copy(state, values)
    # the window of the bounding discs (search._bound_turning)
    vx = vbx - vax
    vy = vby - vay
    enter, leave = disc_window(reach_a, reach_b, row[10] - row[8], row[11] - row[9], vx, vy)
    t_end = min(t_max, leave)
    still = turn_a == 0.0 or turn_b == 0.0 or turn_a == turn_b  # seen from a, one rate only
    periodic = vx == 0.0 and vy == 0.0 and math.isfinite(reach_a + reach_b) and still
    period = 2.0 * math.pi / max(abs(turn_a), abs(turn_b)) * (1.0 + DISC_MARGIN)
    if periodic:
        t_end = min(t_end, period)
    if not (math.isfinite(t_end) or math.isinf(enter)):
        return EXACT  # no finite end of the search: the Python search refuses it
    if (not periodic and math.isfinite(reach_a + reach_b) and still and math.isfinite(enter)
            and t_end - enter > SKIP_FROM * period):
        return EXACT  # drifting through many periods: the Python search skips periods
    if math.isinf(enter) or enter > t_end:
        return MISS
    free = 0.0
    upper = math.inf
    if enter > 0.0:
        tame, _ = _at(contact, swapped, kind_a, kind_b, fa, fva, fb, fvb, row, enter, ra, wka, rb, wkb, values)
        if not tame:
            return EXACT
        if values[0] >= 0.0:
            free = enter
            _copy(state, values)
        else:
            upper = enter
    # apart within the noise at the start (search._opening_start): a gap that opens to first order
    # (the witness points' velocities) is probed where it should be eight times the noise, and
    # the search goes on from there if it is clear; else the pair steps on while within the noise
    noisy = state[0] <= NOISE * state[9]
    if noisy:
        rate = _slope(state, row, 0.0)
        probe = 8.0 * (NOISE * state[9]) / rate if rate > 0.0 else math.inf
        if rate > 0.0 and probe < t_end:
            tame, _ = _at(contact, swapped, kind_a, kind_b, fa, fva, fb, fvb, row, probe, ra, wka, rb, wkb, values)
            if not tame:
                return EXACT
            if values[0] > NOISE * values[9]:
                free = probe
                _copy(state, values)
                noisy = False
    rounds = 0
    sweeps = float(SWEEP_SAMPLES)
    stalled = False
    last_step = math.inf
    slowed = 0.0
    searches = 0.0
    grazed = False
    ended = False  # a gap within the noise checked for a graze (see GRAZE_TIME)
    moved = 0.0  # how far the last round's certified steps advanced
    back = 0.0
    for _ in range(int(row[20])):
        rounds += 1
        s = state[0]
        step = _ahead(state, vx, vy, spin_a, spin_b)
        scale = t_end if math.isfinite(t_end) else free + min(step, 1e300)
        tol = TIME_TOL * scale
        if not math.isfinite(upper) and (free + step > t_end or math.isinf(step)):
            return MISS
        # done: the step or the bracket below the tolerance, or the gap within the float noise (a
        # pair that started within the noise steps on until its gap clears it, at least
        # SWEEP_AFTER rounds)
        within = s <= NOISE * state[9]
        noisy = noisy and within
        early = noisy and rounds <= SWEEP_AFTER
        close = (step <= tol and not early) or upper - free <= tol or (within and not noisy) or stalled
        # slow rounds: the advance of a round (the exact step, or the axis steps of the round
        # before) not shrinking fast, twice in a row (a graze: the steps slow to a linear rate)
        measure = max(step, moved)
        slowed = slowed + 1.0 if measure >= SLOW * last_step else 0.0
        slow = not close and not grazed and not math.isfinite(upper) and slowed >= 2.0
        last_step = measure
        moved = 0.0
        if slow:
            slow = not noisy and _slope(state, row, free) < 0.0 and s <= TURN_NEAR * size
        ahead = TURN_REACH * step
        if close and not noisy and not stalled and not grazed and not ended and not math.isfinite(upper):
            # the end reached by the cheap steps on an axis, which close in on a graze without
            # slowing the rounds: a slope too small to place the time within GRAZE_TIME of the
            # scale from the gap (or its noise) is a graze, and its minimum decides (once),
            # searched up to twice the double-root step from there (search._closest_approach)
            ended = True
            falling = -_slope(state, row, free)
            noise = NOISE * state[9]
            if falling > 0.0 and max(s, noise) > GRAZE_TIME * scale * falling:
                slow = True
                close = False
                ahead = max(ahead, 4.0 * max(s, noise) / falling)
        if slow:  # a graze: the minimum of the separation decides
            grazed = True
            reach = min(t_end, free + ahead)
            outcome, t_min = _closest_approach(contact, swapped, kind_a, kind_b, fa, fva, fb, fvb, row, ra, wka,
                                               rb, wkb, free, state, step, reach, tol / 64, at_lo, at_hi, got)
            if outcome < 0:
                return EXACT
            if outcome == 1:
                out[1] = t_min
                out[2] = 0.5 * (got[3] + got[5]) + frame_x
                out[3] = 0.5 * (got[4] + got[6]) + frame_y
                out[4] = got[1]
                out[5] = got[2]
                return HIT
            if outcome == 2:
                upper = t_min
            else:  # a minimum apart: the certified steps go on, and search again after more slow steps
                searches += 1.0
                grazed = False
                slowed = 2.0 - 2.0**searches
            continue
        if close:
            # the answer, certified apart a little before it by the exact predicates' sign
            answer = min(free + step, upper)
            noise = NOISE * state[9]
            rate = s / step if step > 0.0 else math.inf
            margin = max(CERTIFY * scale, 4.0 * noise / rate if rate > 0.0 else 0.0)
            if grown_band > 0.0 and rate > 0.0:  # clear of the band of a rounded pair with an ellipse
                margin = max(margin, 4.0 * max(grown_band, ELLIPSE_BAND * 4.0 * state[9]) / rate)
            check = max(answer - margin * 1.0, 0.0)
            seen = free
            if check > 0.0:
                tame, scale_ab = _at(contact, swapped, kind_a, kind_b, fa, fva, fb, fvb, row, check, ra, wka, rb,
                                     wkb, values)
                if not tame:
                    return EXACT
                values[0], decided = _signed_at(relate, grown, eps, swapped, kind_a, kind_b, row, ra, wka, rb, wkb,
                                                values[0], scale_ab)
                if not decided or not values[0] > 0.0:
                    return EXACT  # undecided, or not apart: the Python search starts again below
                if values[0] > NOISE * values[9]:
                    _copy(state, values)
                    seen = check
            dt = answer - seen
            px = 0.0
            py = 0.0
            for side in range(2):
                k = 3 + 2 * side
                ux, uy, w = row[2 + 2 * side], row[3 + 2 * side], row[6 + side]
                rx = state[k] - (row[8 + 2 * side] + ux * seen)
                ry = state[k + 1] - (row[9 + 2 * side] + uy * seen)
                px += 0.5 * (state[k] + (ux + w * (-ry)) * dt)
                py += 0.5 * (state[k + 1] + (uy + w * rx) * dt)
            nx, ny = state[1], state[2]
            if (abs(turn_a) + abs(turn_b)) * (answer - seen) > SPUN:  # a fast turn: the contact there
                tame, _ = _at(contact, swapped, kind_a, kind_b, fa, fva, fb, fvb, row, answer, ra, wka, rb, wkb,
                              values)
                px = 0.5 * (values[3] + values[5])
                py = 0.5 * (values[4] + values[6])
                nx, ny = values[1], values[2]
            out[1] = answer
            out[2] = px + frame_x
            out[3] = py + frame_y
            out[4] = nx
            out[5] = ny
            return HIT
        if rounds > SWEEP_AFTER and free + step < upper and not noisy:
            # a crawl: up to `sweeps` steps at once, each time apart the centre of a ball of times
            # free of contact; advance to the last time whose ball joins the ones before
            end = min(t_end, upper)
            f = free
            reach = f + step
            joining = True
            joined = 0
            moved = False
            count = int(sweeps)
            for j in range(1, count + 1):
                t = f + step * j
                if not t < end:
                    break
                tame, _ = _at(contact, swapped, kind_a, kind_b, fa, fva, fb, fvb, row, t, ra, wka, rb, wkb, values)
                if not tame:
                    return EXACT
                clear = values[0] > NOISE * values[9]
                if joining:
                    ahead = _ahead(values, vx, vy, spin_a, spin_b) if clear else 0.0
                    behind = _behind(values, vx, vy, spin_a, spin_b) if clear else 0.0
                    if clear and t - behind <= reach:
                        free = t
                        _copy(state, values)
                        joined += 1
                        moved = True
                    else:
                        joining = False
                    reach = max(reach, t + ahead)
                if values[0] < 0.0:  # overlapping: the first contact is no later
                    upper = min(upper, t)
                    moved = True
                    break
            stalled = not moved
            sweeps = min(max(2.0 * joined, float(SWEEP_SAMPLES)), float(SWEEP_MOST))
            continue
        # one certified step; one that reaches a known intersecting time backs off from it
        backing = not (free + step < upper)
        if not backing:
            back = 0.25 * tol
        probe = max(0.5 * (free + upper), upper - back) if backing else free + step
        # cheap certified steps on the last contact's axis; near the pair (within TURN_NEAR of its
        # size) only on a transversal approach, the slope's square above 2 K s (a graze has
        # s'^2 <= 2 K s: the exact steps slow down there and the graze search takes it)
        near = s <= TURN_NEAR * size
        if axis and not backing and not noisy and (not near or _slope(state, row, free) ** 2 > 2.0 * bend * s):
            reached = _axis_advance(kind_a, fa, fva, kind_b, fb, fvb, row, state[1], state[2], free,
                                    min(t_end, upper), axis_rate, bend, NOISE * state[9])
            if reached >= t_end and not math.isfinite(upper):
                return MISS
            if reached > probe and reached < upper:
                probe = reached
        tame, _ = _at(contact, swapped, kind_a, kind_b, fa, fva, fb, fvb, row, probe, ra, wka, rb, wkb, values)
        if not tame:
            return EXACT
        if not values[0] >= 0.0:
            upper = probe
            if backing:
                back *= 2.0
            continue
        if values[0] <= NOISE * values[9]:  # a gap within the noise: the normal of the last clear one
            values[1] = state[1]
            values[2] = state[2]
        _copy(state, values)
        moved = probe - free
        free = probe
    return ROUNDS
