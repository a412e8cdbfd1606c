"""The event loop of hard ellipses (translating and turning) in a periodic square box.

Frame: ellipse ``i`` has semi-axes ``a_i >= b_i``, mass 1, the moment of inertia of a uniform
elliptical disc ``I_i = (a_i^2 + b_i^2) / 4``, and between its collisions a constant velocity and
angular velocity; its centre and angle are stored at the time of its last event, ``stamp[i]``.

**Contact function.** With the shape matrices ``M = R diag(a^2, b^2) R^T`` (the ellipse is
``(x - r)^T M^-1 (x - r) <= 1``), ``C(l) = (1 - l) M_i + l M_j`` and ``r = r_j - r_i``, the
Perram-Wertheim function is ``F(l) = l (1 - l) r^T C(l)^-1 r``, concave on ``[0, 1]``; its maximum
``F*`` is the square of the factor ``mu`` by which both ellipses, scaled about their centres, just
touch (Perram and Wertheim, *J. Comput. Phys.* 58, 409, 1985). Any ``l`` gives a lower bound
``F(l) <= F*``. An ellipse scaled by ``mu >= 1`` about its centre contains the ellipse grown by
``(mu - 1) b`` (``mu E = E + (mu - 1) E`` for a convex ``E``, and ``E`` holds the disc of radius
``b`` about its centre), so the two scaled ellipses, which do not overlap, hold the two ellipses
grown by ``(mu - 1) b_i`` and ``(mu - 1) b_j``: the gap between the ellipses is at least
``(sqrt(F(l)) - 1) (b_i + b_j)`` from any ``l``. At the maximiser the scaled ellipses touch at ``p
= r_i + (1 - l) M_i C^-1 r`` with the normal ``n`` along ``C^-1 r`` (from ``i`` to ``j``; Donev,
Torquato and Stillinger, *J. Comput. Phys.* 202, 765, 2005, sec. 3).

**Time of impact.** The search uses the tighter bound of a separating axis: along any unit ``n``
the gap is at least ``s_n = n.r - h_i(n) - h_j(n)`` with the support function ``h(n) = sqrt(n^T M
n)`` (to rounding; near contact, with ``n`` from the contact function, it is the gap to second
order). Along a fixed ``n``, ``s_n`` falls at most at the rate ``max(0, -n.(v_j - v_i)) +
|omega_i| (a_i - b_i) + |omega_j| (a_j - b_j)`` (``|dh/dtheta| <= a - b``), so no contact can
happen within ``s_n`` over that rate: conservative advancement by that step (Mirtich,
*Impulse-based dynamic simulation of rigid body systems*, 1996, ch. 5; Donev et al. 2005 advance
on the contact function) until the bound falls below ``tol``. A pair found that close
whose contact points approach is a collision; one that separates (the pair that just collided)
steps ``tol / w`` at a time until it is apart, ``w = |v_j - v_i| + |omega_i| a_i + |omega_j| a_j``
bounding the relative speed of any two points. Only the pairs whose bounding circles (radius
``a``) meet before the particle's earliest event so far are searched, each only while the
bounding circles overlap, and all side by side, one step at a time, the least advanced first, so
that none goes past the earliest contact found (Donev et al. 2005: predict only when needed).

**Cost.** The kernels of a search take the two ellipses as tuples of floats (:func:`body`), not
as the particle arrays: every array passed to a kernel that is not inlined costs two atomic
reference counts per call in Numba's runtime, which took a third of the event loop's time.

**Collision.** A frictionless elastic impulse ``J n`` on ``j`` and ``-J n`` on ``i`` at the contact
point ``p``: with the lever arms ``d = p - r``, ``u`` the normal velocity of ``j``'s contact point
relative to ``i``'s, ``J = -2 u / (2 + (d_i x n)^2 / I_i + (d_j x n)^2 / I_j)`` (Mirtich,
*Impulse-based dynamic simulation of rigid body systems*, 1996, ch. 3). It conserves the kinetic
energy, the momentum and each body's angular momentum about ``p``. The collision virial is
``r . dp_j = J r . n`` (the molecular virial: the torques do not enter; Allen and Tildesley,
*Computer Simulation of Liquids*, 2nd ed. 2017, sec. 2.4).
"""

import math

import numpy as np

from collide2d._jit import kernel

from .calendar import (
    NO_EVENT,
    RECHECK,
    cell_cross,
    cells_fill,
    crossing_time,
    neighbour_cell,
    tree_build,
    tree_update,
)
from ..contact_function import contact_geometry as _contact_geometry
from ..contact_function import newton_on_matrices as contact
from ..contact_function import shape_matrix as _shape
from .disks import CELLS, COLLISIONS, CROSSINGS, GRAZES, LEAVES, NOW, SIDE, STALE, VIRIAL, contact_time

# slots of the float array ``params`` beyond SIDE, and of ``counters`` beyond the disks'
TOLERANCE, HORIZON = 1, 2
SEARCHES, STEPS, OUT_OF_STEPS = 4, 5, 6
MAX_STEPS = 100000
T_AT, T_OUT, SHIFT_X, SHIFT_Y, LAMBDA, SPEED = range(6)  # rows of a prediction's float scratch: per candidate
PARTNER, ROUNDS = range(2)  # and of its int scratch


@kernel
def body(k, position, velocity, angle, omega, stamp, semi):
    """Ellipse ``k`` as a tuple of floats ``(x, y, vx, vy, angle, omega, stamp, a, b)``: its centre and
    angle at the time ``stamp``, its velocity, angular velocity and semi-axes (see the module: Cost)."""
    return (position[k, 0], position[k, 1], velocity[k, 0], velocity[k, 1], angle[k], omega[k], stamp[k], semi[k, 0],
            semi[k, 1])


@kernel
def _pair(t, sx_shift, sy_shift, body_i, body_j):
    """Centres, shape matrices and the relative position of ``i`` and ``j`` (moved by the shift) at ``t``."""
    xi0, yi0, vxi, vyi, angle_i, omega_i, stamp_i, ai, bi = body_i
    xj0, yj0, vxj, vyj, angle_j, omega_j, stamp_j, aj, bj = body_j
    di = t - stamp_i
    dj = t - stamp_j
    xi = xi0 + vxi * di
    yi = yi0 + vyi * di
    xj = xj0 + vxj * dj + sx_shift
    yj = yj0 + vyj * dj + sy_shift
    p11, p12, p22 = _shape(ai, bi, angle_i + omega_i * di)
    q11, q12, q22 = _shape(aj, bj, angle_j + omega_j * dj)
    return xi, yi, xj, yj, p11, p12, p22, q11, q12, q22


@kernel
def _normal_speed(body_i, body_j, xi, yi, xj, yj, px, py, nx, ny):
    """Normal velocity of ``j``'s material point at ``p`` relative to ``i``'s (< 0: approaching)."""
    uix = body_i[2] - body_i[5] * (py - yi)
    uiy = body_i[3] + body_i[5] * (px - xi)
    ujx = body_j[2] - body_j[5] * (py - yj)
    ujy = body_j[3] + body_j[5] * (px - xj)
    return (ujx - uix) * nx + (ujy - uiy) * ny


@kernel
def _advance(body_i, body_j, sx_shift, sy_shift, t, lam, iterations, near):
    """At time ``t``: the bound ``s`` of the gap along the direction ``n`` of the contact function,
    and a time over which no contact can happen: ``(s, step, lam, u)`` with ``u`` the normal speed
    of the contact points when ``s < near`` (else 0).

    Along the fixed ``n``, ``s(t + tau) = n.r - h_i - h_j`` changes at ``s' = n.(v_j - v_i) -
    omega_i dh_i/dtheta - omega_j dh_j/dtheta`` with ``dh/dtheta = n^T W M n / h`` (``W`` the
    quarter turn, ``dM/dtheta = W M - M W``), and ``|d^2 h / dtheta^2| <= ((a^2 - b^2) + (a -
    b)^2) / b`` (from ``h^2 = a^2 cos^2 + b^2 sin^2`` of the angle to the major axis: ``h'^2 + h h''
    = (b^2 - a^2) cos 2phi``, ``|h'| <= a - b``, ``h >= b``), so ``s(t + tau) >= s + s' tau - K
    tau^2 / 2`` with ``K = sum omega^2 ((a^2 - b^2) + (a - b)^2) / b``: the step is the first root
    of that bound, or the first-order step ``s / (max(0, -n.v) + sum |omega| (a - b))`` if longer
    (both are certified lower bounds of the first contact)."""
    xi, yi, xj, yj, p11, p12, p22, q11, q12, q22 = _pair(t, sx_shift, sy_shift, body_i, body_j)
    rx = xj - xi
    ry = yj - yi
    f, lam, sx, sy = contact(rx, ry, p11, p12, p22, q11, q12, q22, lam, iterations)
    px, py, nx, ny = _contact_geometry(xi, yi, rx, ry, p11, p12, p22, lam, sx, sy)
    pnx = p11 * nx + p12 * ny
    pny = p12 * nx + p22 * ny
    qnx = q11 * nx + q12 * ny
    qny = q12 * nx + q22 * ny
    hi = math.sqrt(nx * pnx + ny * pny)  # support functions h(n) = sqrt(n^T M n)
    hj = math.sqrt(nx * qnx + ny * qny)
    gap = rx * nx + ry * ny - hi - hj
    omega_i = body_i[5]
    omega_j = body_j[5]
    vn = (body_j[2] - body_i[2]) * nx + (body_j[3] - body_i[3]) * ny
    slope = vn - omega_i * (ny * pnx - nx * pny) / hi - omega_j * (ny * qnx - nx * qny) / hj
    ai = body_i[7]
    bi = body_i[8]
    aj = body_j[7]
    bj = body_j[8]
    curvature = (omega_i ** 2 * ((ai * ai - bi * bi) + (ai - bi) ** 2) / bi
                 + omega_j ** 2 * ((aj * aj - bj * bj) + (aj - bj) ** 2) / bj)
    rate = max(0.0, -vn) + abs(omega_i) * (ai - bi) + abs(omega_j) * (aj - bj)
    step = gap / rate if rate > 0.0 else math.inf
    if gap > 0.0:
        if curvature > 0.0:  # the positive root, in the form without cancellation for either sign of s'
            root = math.sqrt(slope * slope + 2.0 * curvature * gap)
            step = max(step, 2.0 * gap / (root - slope) if slope <= 0.0 else (root + slope) / curvature)
        elif slope < 0.0:
            step = max(step, gap / -slope)
        else:
            step = math.inf
    u = _normal_speed(body_i, body_j, xi, yi, xj, yj, px, py, nx, ny) if gap < near else 0.0
    return gap, step, lam, u


@kernel
def _relative_speed_bound(body_i, body_j):
    """``w = |v_j - v_i| + |omega_i| a_i + |omega_j| a_j``: a bound on the relative speed of any two
    points of ``i`` and ``j`` (0: the pair does not move relative to each other)."""
    return (math.hypot(body_j[2] - body_i[2], body_j[3] - body_i[3]) + abs(body_i[5]) * body_i[7]
            + abs(body_j[5]) * body_j[7])


@kernel
def _search_step(body_i, body_j, sx_shift, sy_shift, t, lam, tolerance, w):
    """One round of the search for the contact of ``i`` and ``j`` from ``t`` (see the module):
    ``(t, lam, hit)``, ``hit`` when they touch at ``t`` with their contact points approaching, else
    ``t`` advanced by a step over which they cannot touch (``tolerance / w`` for a touching pair that
    separates: the pair that just collided), ``lam`` the start of the contact function's next round."""
    gap, step, lam, u = _advance(body_i, body_j, sx_shift, sy_shift, t, lam, int(2), tolerance)
    if gap < tolerance:
        # touching: the contact point and normal of the converged contact function, as the collision will use
        gap, step, lam, u = _advance(body_i, body_j, sx_shift, sy_shift, t, 0.5, int(60), tolerance)
        if gap < tolerance:
            if u < 0.0:
                return t, lam, True
            step = tolerance / w
    return t + step, lam, False


@kernel
def impact_time(i, j, sx_shift, sy_shift, t_lo, t_hi, position, velocity, angle, omega, stamp, semi, tolerance,
                counters):
    """First contact of ``i`` and ``j`` (moved by the shift) in ``[t_lo, t_hi]``, ``inf`` if none (see
    the module and :func:`_advance`: conservative advancement on certified bounds of the gap)."""
    body_i = body(i, position, velocity, angle, omega, stamp, semi)
    body_j = body(j, position, velocity, angle, omega, stamp, semi)
    w = _relative_speed_bound(body_i, body_j)
    if w == 0.0:
        return math.inf
    t = t_lo
    lam = 0.5
    counters[SEARCHES] += 1
    for _ in range(MAX_STEPS):
        counters[STEPS] += 1
        t, lam, hit = _search_step(body_i, body_j, sx_shift, sy_shift, t, lam, tolerance, w)
        if hit:
            return t
        if t > t_hi:
            return math.inf
    counters[OUT_OF_STEPS] += 1
    return t  # out of steps: a collision now keeps the pair apart


@kernel
def _predict(i, now, position, velocity, angle, omega, stamp, semi, count, cell, head, next_in_cell, params, cells,
             event_time, event_partner, event_count, counters, scratch, other):
    """The earliest event of ellipse ``i`` from ``now``: leaving its cell, or a contact with an
    ellipse of the 3 x 3 cells around it, searched only where the bounding circles meet, and only
    as far as needed. ``scratch`` (6 x 64 floats) and ``other`` (2 x 64 ints) hold the candidates.

    A candidate ``j`` is a neighbour whose bounding circle (radius ``a``) meets ``i``'s at a time
    ``t_in`` before ``i``'s earliest event so far; its search starts with a certified step from
    ``t_in`` (four rounds of the contact function), then takes the rounds of :func:`impact_time`
    (``impact_time(i, j, t_in, min(t_out, best))``, ``t_out`` the time the circles part). The
    searches run side by side, one round at a time, always that of the candidate whose certified
    time (no contact before it) is the earliest, and end at the earliest event found so far, so
    that a search goes no further than the event that comes first needs (Donev, Torquato and
    Stillinger 2005: predict only what can come first). Each search takes the same rounds as
    alone, and the same contact wins (a search that ends at the event that comes first found no
    earlier contact), so the event is the one of searching the candidates one after the other."""
    side = params[SIDE]
    tolerance = params[TOLERANCE]
    width = side / cells
    dt = now - stamp[i]
    xi = position[i, 0] + velocity[i, 0] * dt
    yi = position[i, 1] + velocity[i, 1] * dt
    best, partner = crossing_time(xi, yi, velocity[i, 0], velocity[i, 1], cell[i], cells, width)
    if params[HORIZON] < best:  # a turning ellipse at rest is looked at again after HORIZON
        best = params[HORIZON]
        partner = RECHECK
    body_i = body(i, position, velocity, angle, omega, stamp, semi)
    # the neighbours whose bounding circles meet in [t_in, t_out] (from now), before best
    found = 0
    cx = cell[i] % cells
    cy = cell[i] // cells
    for oy in range(-1, 2):
        for ox in range(-1, 2):
            neighbour, sx, sy = neighbour_cell(cx, cy, ox, oy, cells, side)
            j = head[neighbour]
            while j >= 0:
                if j != i:
                    dtj = now - stamp[j]
                    rx = position[j, 0] + velocity[j, 0] * dtj + sx - xi
                    ry = position[j, 1] + velocity[j, 1] * dtj + sy - yi
                    vx = velocity[j, 0] - velocity[i, 0]
                    vy = velocity[j, 1] - velocity[i, 1]
                    reach = semi[i, 0] + semi[j, 0]
                    enter = contact_time(rx, ry, vx, vy, reach, 0.0)
                    if rx * rx + ry * ry <= reach * reach:
                        enter = 0.0
                    if enter < best and found < 64:
                        # leaving: the larger root of |r + v t| = reach
                        a = vx * vx + vy * vy
                        b = rx * vx + ry * vy
                        c = rx * rx + ry * ry - reach * reach
                        disc = b * b - a * c
                        leave = (-b + math.sqrt(disc)) / a if a > 0.0 and disc >= 0.0 else math.inf
                        scratch[T_AT, found] = enter
                        scratch[T_OUT, found] = leave
                        scratch[SHIFT_X, found] = sx
                        scratch[SHIFT_Y, found] = sy
                        other[PARTNER, found] = j
                        other[ROUNDS, found] = 0
                        found += 1
                j = next_in_cell[j]
    # T_AT: from now before a candidate's search begins (its round 0, the first certified step, then
    # round 1 starts impact_time's), the time itself during it; rounds from MAX_STEPS + 1 on: done
    while True:
        k = -1
        first = 0.0
        for m in range(found):
            if other[ROUNDS, m] <= MAX_STEPS:
                at = scratch[T_AT, m] - now if other[ROUNDS, m] >= 2 else scratch[T_AT, m]
                if at < best and (k < 0 or at < first):
                    k = m
                    first = at
        if k < 0:
            break
        j = other[PARTNER, k]
        body_j = body(j, position, velocity, angle, omega, stamp, semi)
        rounds = other[ROUNDS, k]
        other[ROUNDS, k] = rounds + 1
        if rounds == 0:  # a first certified step: no contact before t_in + step
            gap, step, lam, u = _advance(body_i, body_j, scratch[SHIFT_X, k], scratch[SHIFT_Y, k],
                                         now + scratch[T_AT, k], 0.5, int(4), 0.0)
            if gap >= tolerance:
                scratch[T_AT, k] += step
                if scratch[T_AT, k] > scratch[T_OUT, k]:
                    other[ROUNDS, k] = MAX_STEPS + 1
            continue
        if rounds == 1:  # the search begins: impact_time(i, j, now + t_in, now + min(t_out, best))
            scratch[SPEED, k] = _relative_speed_bound(body_i, body_j)
            if scratch[SPEED, k] == 0.0:
                other[ROUNDS, k] = MAX_STEPS + 1
                continue
            counters[SEARCHES] += 1
            scratch[T_AT, k] += now
            scratch[LAMBDA, k] = 0.5
        counters[STEPS] += 1
        t, scratch[LAMBDA, k], hit = _search_step(body_i, body_j, scratch[SHIFT_X, k], scratch[SHIFT_Y, k],
                                                  scratch[T_AT, k], scratch[LAMBDA, k], tolerance, scratch[SPEED, k])
        scratch[T_AT, k] = t
        if not hit:
            if t > now + scratch[T_OUT, k] or t - now >= best:  # no contact before the circles part or best
                other[ROUNDS, k] = MAX_STEPS + 1
                continue
            if rounds < MAX_STEPS:
                continue
            counters[OUT_OF_STEPS] += 1  # out of steps: a collision now keeps the pair apart
        other[ROUNDS, k] = MAX_STEPS + 1
        if t - now < best:
            best = t - now
            partner = j
    event_time[i] = now + best
    event_partner[i] = partner
    event_count[i] = count[partner] if partner >= 0 else 0


@kernel
def _bring(k, t, position, velocity, angle, omega, stamp):
    dt = t - stamp[k]
    position[k, 0] += velocity[k, 0] * dt
    position[k, 1] += velocity[k, 1] * dt
    angle[k] += omega[k] * dt
    stamp[k] = t


@kernel
def rebuild(position, velocity, angle, omega, stamp, semi, count, cell, head, next_in_cell, previous_in_cell,
            event_time, event_partner, event_count, tree, layout, params, state, counters):
    """Bring every ellipse to ``state[NOW]``, wrap it into the box, fill the cells, predict every event."""
    now = state[NOW]
    cells = layout[CELLS]
    scratch = np.empty((6, 64))
    other = np.empty((2, 64), dtype=np.int64)
    for i in range(position.shape[0]):
        _bring(i, now, position, velocity, angle, omega, stamp)
        angle[i] -= 2.0 * math.pi * math.floor(angle[i] / (2.0 * math.pi) + 0.5)
    cells_fill(position, cell, head, next_in_cell, previous_in_cell, params[SIDE], cells)
    for i in range(position.shape[0]):
        _predict(i, now, position, velocity, angle, omega, stamp, semi, count, cell, head, next_in_cell, params, cells,
                 event_time, event_partner, event_count, counters, scratch, other)
    tree_build(tree, layout[LEAVES], position.shape[0], event_time)


@kernel
def run(position, velocity, angle, omega, stamp, semi, count, cell, head, next_in_cell, previous_in_cell, event_time,
        event_partner, event_count, tree, layout, params, state, counters, max_collisions, t_stop, log):
    """Process events until ``max_collisions`` collisions are done (returns 0), the next event lies
    after ``t_stop`` (1) or nothing moves (2). Row ``k`` of ``log`` (if it has rows) records the
    ``k``-th collision: ``i, j, t, px, py, nx, ny, J``."""
    cells = layout[CELLS]
    leaves = layout[LEAVES]
    side = params[SIDE]
    scratch = np.empty((6, 64))
    other = np.empty((2, 64), dtype=np.int64)
    done = 0
    while done < max_collisions:
        i = tree[1]
        t = event_time[i]
        partner = event_partner[i]
        if partner == NO_EVENT:
            return 2
        if t > t_stop:
            return 1
        state[NOW] = t
        if partner >= 0 and event_count[i] != count[partner]:
            counters[STALE] += 1
        elif partner >= 0:
            j = partner
            _bring(i, t, position, velocity, angle, omega, stamp)
            _bring(j, t, position, velocity, angle, omega, stamp)
            rx = position[j, 0] - position[i, 0]
            ry = position[j, 1] - position[i, 1]
            shx = -side * round(rx / side)  # the image in contact: |r| <= cell width <= side / 3
            shy = -side * round(ry / side)
            body_i = body(i, position, velocity, angle, omega, stamp, semi)
            body_j = body(j, position, velocity, angle, omega, stamp, semi)
            xi, yi, xj, yj, p11, p12, p22, q11, q12, q22 = _pair(t, shx, shy, body_i, body_j)
            rx = xj - xi
            ry = yj - yi
            f, lam, sx, sy = contact(rx, ry, p11, p12, p22, q11, q12, q22, 0.5, int(60))
            px, py, nx, ny = _contact_geometry(xi, yi, rx, ry, p11, p12, p22, lam, sx, sy)
            u = _normal_speed(body_i, body_j, xi, yi, xj, yj, px, py, nx, ny)
            if u < 0.0:
                ci = (px - xi) * ny - (py - yi) * nx  # d_i x n
                cj = (px - xj) * ny - (py - yj) * nx
                inertia_i = 0.25 * (semi[i, 0] ** 2 + semi[i, 1] ** 2)
                inertia_j = 0.25 * (semi[j, 0] ** 2 + semi[j, 1] ** 2)
                impulse = -2.0 * u / (2.0 + ci * ci / inertia_i + cj * cj / inertia_j)
                velocity[i, 0] -= impulse * nx
                velocity[i, 1] -= impulse * ny
                velocity[j, 0] += impulse * nx
                velocity[j, 1] += impulse * ny
                omega[i] -= impulse * ci / inertia_i
                omega[j] += impulse * cj / inertia_j
                state[VIRIAL] += impulse * (rx * nx + ry * ny)
                if counters[COLLISIONS] < log.shape[0]:
                    row = counters[COLLISIONS]
                    log[row, 0] = i
                    log[row, 1] = j
                    log[row, 2] = t
                    log[row, 3] = px
                    log[row, 4] = py
                    log[row, 5] = nx
                    log[row, 6] = ny
                    log[row, 7] = impulse
                counters[COLLISIONS] += 1
                done += 1
            else:
                counters[GRAZES] += 1
            count[i] += 1
            count[j] += 1
            _predict(j, t, position, velocity, angle, omega, stamp, semi, count, cell, head, next_in_cell, params,
                     cells, event_time, event_partner, event_count, counters, scratch, other)
            tree_update(tree, leaves, j, event_time)
        elif partner < 0:
            _bring(i, t, position, velocity, angle, omega, stamp)
            if partner != RECHECK:
                cell_cross(i, partner, position, velocity, cell, head, next_in_cell, previous_in_cell, side, cells)
                counters[CROSSINGS] += 1
        _predict(i, t, position, velocity, angle, omega, stamp, semi, count, cell, head, next_in_cell, params, cells,
                 event_time, event_partner, event_count, counters, scratch, other)
        tree_update(tree, leaves, i, event_time)
    return 0
