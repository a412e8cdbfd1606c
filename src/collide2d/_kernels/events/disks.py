"""The event loop of hard disks in a periodic square box, with diameters that may grow.

Frame: disk ``i`` has the diameter ``sigma_i(t) = sigma0_i (g0 + g1 t)`` (``g1 = 0`` at a fixed
size; ``g1 > 0`` in the Lubachevsky-Stillinger compression, Lubachevsky and Stillinger, *J. Stat.
Phys.* 60, 561, 1990), mass 1, and moves in a straight line between its collisions; its position
is stored at the time of its last event, ``stamp[i]`` (the delayed update of Rapaport, ch. 14).

**Contact time.** With ``r = r_j - r_i``, ``v = v_j - v_i`` now and the contact distance ``d(tau) =
d0 + dd tau`` (``d0 = (sigma_i + sigma_j) / 2`` now, ``dd`` its growth rate), contact is ``|r + v
tau|^2 = (d0 + dd tau)^2``, the quadratic ``A tau^2 + 2 B tau + C = 0`` with ``A = v.v - dd^2``,
``B = r.v - d0 dd``, ``C = r.r - d0^2``. The gap closes (``d/dtau (|r| - d) < 0`` at contact) when
``B < 0``; the first root is ``tau = C / (-B + sqrt(B^2 - A C))``, the form without cancellation
(the root ``(-B - sqrt(B^2 - AC)) / A`` times ``(-B + sqrt) / (-B + sqrt)``), valid for both signs
of ``A``; when the disks grow faster than they separate (``A < 0``) a pair moving apart (``B >= 0``)
still meets, at the same root. A pair that overlaps by rounding (``C <= 0``) and approaches
collides at once.

**Collision.** The unit normal ``n = r / |r|`` and the normal speed of the surfaces ``u = v.n -
dd``: an elastic collision reverses ``u`` (in the frame of the growing surfaces), the impulse
``J = -u`` on ``j`` and ``-J`` on ``i`` for unit masses (``J = -2 mu u``, ``mu = 1/2``). At fixed
size that is the exchange of the normal velocities; a growing pair leaves faster than it came and
the kinetic energy grows (the caller rescales it). The collision virial ``r . dp_j = |r| J`` is
summed for the pressure, ``P A = N kT + sum |r| J / (2 t)`` (Alder and Wainwright, *J. Chem.
Phys.* 33, 1439, 1960; Allen and Tildesley, *Computer Simulation of Liquids*, 2nd ed. 2017,
sec. 2.4).
"""

import math

from collide2d._jit import kernel

from .calendar import (
    NO_EVENT,
    cell_cross,
    cells_fill,
    crossing_time,
    neighbour_cell,
    tree_build,
    tree_update,
)

# slots of the float arrays ``params`` and ``state`` and the int arrays ``layout`` and ``counters``
SIDE, GROWTH_ORIGIN, GROWTH_RATE = 0, 1, 2
NOW, VIRIAL = 0, 1
CELLS, LEAVES = 0, 1
COLLISIONS, CROSSINGS, STALE, GRAZES = 0, 1, 2, 3


@kernel
def contact_time(rx, ry, vx, vy, d0, dd):
    """First ``tau >= 0`` with ``|r + v tau| = d0 + dd tau`` (``inf`` if none; see the module)."""
    a = vx * vx + vy * vy - dd * dd
    b = rx * vx + ry * vy - d0 * dd
    c = rx * rx + ry * ry - d0 * d0
    if c <= 0.0:
        if b < 0.0:
            return 0.0
        if a < 0.0:
            return -2.0 * b / a  # separating by rounding, caught up by the growth
        return math.inf
    if b >= 0.0 and a >= 0.0:
        return math.inf
    disc = b * b - a * c
    if disc < 0.0:
        return math.inf
    return c / (-b + math.sqrt(disc))


@kernel
def _predict(i, now, position, velocity, stamp, diameter0, count, cell, head, next_in_cell, params, cells,
             event_time, event_partner, event_count):
    """The earliest event of disk ``i`` from ``now``: leaving its cell, or a contact with a disk of
    the 3 x 3 cells around it (each neighbouring cell with the image shift of the periodic box)."""
    side = params[SIDE]
    width = side / cells
    scale = params[GROWTH_ORIGIN] + params[GROWTH_RATE] * now
    rate = params[GROWTH_RATE]
    dt = now - stamp[i]
    xi = position[i, 0] + velocity[i, 0] * dt
    yi = position[i, 1] + velocity[i, 1] * dt
    vxi = velocity[i, 0]
    vyi = velocity[i, 1]
    best, partner = crossing_time(xi, yi, vxi, vyi, cell[i], cells, width)
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
                    reach = 0.5 * (diameter0[i] + diameter0[j])
                    t = contact_time(rx, ry, velocity[j, 0] - vxi, velocity[j, 1] - vyi, reach * scale, reach * rate)
                    if t < best:
                        best = t
                        partner = j
                j = next_in_cell[j]
    event_time[i] = now + best
    event_partner[i] = partner
    event_count[i] = count[partner] if partner >= 0 else 0


@kernel
def rebuild(position, velocity, stamp, diameter0, count, cell, head, next_in_cell, previous_in_cell, event_time,
            event_partner, event_count, tree, layout, params, state):
    """Bring every disk to ``state[NOW]``, wrap it into the box, fill the cells and predict every event."""
    now = state[NOW]
    cells = layout[CELLS]
    for i in range(position.shape[0]):
        dt = now - stamp[i]
        position[i, 0] += velocity[i, 0] * dt
        position[i, 1] += velocity[i, 1] * dt
        stamp[i] = now
    cells_fill(position, cell, head, next_in_cell, previous_in_cell, params[SIDE], cells)
    for i in range(position.shape[0]):
        _predict(i, now, position, velocity, stamp, diameter0, count, cell, head, next_in_cell, params, cells,
                 event_time, event_partner, event_count)
    tree_build(tree, layout[LEAVES], position.shape[0], event_time)


@kernel
def run(position, velocity, stamp, diameter0, count, cell, head, next_in_cell, previous_in_cell, event_time,
        event_partner, event_count, tree, layout, params, state, counters, max_collisions, t_stop):
    """Process events until ``max_collisions`` collisions are done (returns 0), the next event lies
    after ``t_stop`` (returns 1; ``state[NOW]`` is left at the last event) or nothing moves (2)."""
    cells = layout[CELLS]
    leaves = layout[LEAVES]
    side = params[SIDE]
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
        if partner >= 0:
            if event_count[i] != count[partner]:  # the partner collided since: predict i again
                counters[STALE] += 1
                _predict(i, t, position, velocity, stamp, diameter0, count, cell, head, next_in_cell, params, cells,
                         event_time, event_partner, event_count)
                tree_update(tree, leaves, i, event_time)
                continue
            j = partner
            for k in (i, j):
                dt = t - stamp[k]
                position[k, 0] += velocity[k, 0] * dt
                position[k, 1] += velocity[k, 1] * dt
                stamp[k] = t
            rx = position[j, 0] - position[i, 0]
            ry = position[j, 1] - position[i, 1]
            rx -= side * round(rx / side)  # the image in contact: |r| <= cell width <= side / 3
            ry -= side * round(ry / side)
            distance = math.sqrt(rx * rx + ry * ry)
            nx = rx / distance
            ny = ry / distance
            rate = 0.5 * (diameter0[i] + diameter0[j]) * params[GROWTH_RATE]
            u = (velocity[j, 0] - velocity[i, 0]) * nx + (velocity[j, 1] - velocity[i, 1]) * ny - rate
            if u < 0.0:
                velocity[j, 0] -= u * nx
                velocity[j, 1] -= u * ny
                velocity[i, 0] += u * nx
                velocity[i, 1] += u * ny
                state[VIRIAL] -= distance * u
                counters[COLLISIONS] += 1
                done += 1
            else:  # touching without approaching (rounding): no impulse
                counters[GRAZES] += 1
            count[i] += 1
            count[j] += 1
            for k in (i, j):
                _predict(k, t, position, velocity, stamp, diameter0, count, cell, head, next_in_cell, params, cells,
                         event_time, event_partner, event_count)
                tree_update(tree, leaves, k, event_time)
        else:
            dt = t - stamp[i]
            position[i, 0] += velocity[i, 0] * dt
            position[i, 1] += velocity[i, 1] * dt
            stamp[i] = t
            cell_cross(i, partner, position, velocity, cell, head, next_in_cell, previous_in_cell, side, cells)
            counters[CROSSINGS] += 1
            _predict(i, t, position, velocity, stamp, diameter0, count, cell, head, next_in_cell, params, cells,
                     event_time, event_partner, event_count)
            tree_update(tree, leaves, i, event_time)
    return 0
