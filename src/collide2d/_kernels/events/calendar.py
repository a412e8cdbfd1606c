"""The event calendar and the cell lists shared by the event loops of :mod:`.disks` and :mod:`.ellipses`.

**Calendar.** Every particle ``i`` holds one event, its earliest: ``event_time[i]``,
``event_partner[i]`` (a particle, or :data:`CROSS_X` / :data:`CROSS_Y` for leaving its cell,
:data:`NO_EVENT`) and ``event_count[i]``, the collision counter of the partner when the event was
predicted. A later collision of the partner makes the event stale (the counters differ); it is
then dropped when it comes up and ``i`` is predicted again (Rapaport, *The Art of Molecular
Dynamics Simulation*, 2nd ed. 2004, ch. 14). The earliest of the ``N`` events is found with a
complete binary tree of ``P >= N`` leaves, a power of two (Marin, Risso and Cordero, *J. Comput.
Phys.* 109, 306, 1993; Isobe, *Int. J. Mod. Phys. C* 10, 1281, 1999, arXiv physics/9907025):
``tree[P + i] = i``, every inner node ``k`` holds the particle of the earlier event of its
children ``2k`` and ``2k + 1`` (-1 for no particle), so ``tree[1]`` is the next event; a changed
event is carried to the root in ``log2(P)`` steps, and the tree never holds stale copies.

Keeping one event per particle is enough: a particle whose event went stale is predicted again
when that event comes up, before any of its later contacts could be due, and a particle whose
trajectory changes predicts against all its neighbours, so each pair's next contact is in the
calendar of one of the two whenever it is the earliest of that particle.

**Cells.** The periodic square box of side ``L`` is cut into ``M x M`` cells of side ``w = L / M``
at least the largest contact distance, so two particles in contact sit in the same or adjacent
cells (Rapaport ch. 14). Each cell holds a doubly linked list (``head``, ``next_in_cell``,
``previous_in_cell``); leaving a cell is an event, at which the particle moves to the next cell
(and wraps round the box) and is predicted again against its new neighbours.
"""

import math

from collide2d._jit import kernel

NO_EVENT = -3
CROSS_X = -1
CROSS_Y = -2
RECHECK = -4  # no contact found up to a horizon: predict again then


@kernel
def _wrap(n, cells, side):
    """Cell coordinate ``n`` (one beyond the grid at most) wrapped into ``0 .. cells - 1``, and the
    shift of the periodic image it stands for."""
    if n < 0:
        return n + cells, -side
    if n >= cells:
        return n - cells, side
    return n, 0.0


@kernel
def neighbour_cell(cx, cy, ox, oy, cells, side):
    """The cell ``(cx + ox, cy + oy)`` of the periodic ``cells x cells`` grid of a box of ``side``:
    its index, and the image shift ``(sx, sy)`` that puts its particles beside cell ``(cx, cy)``
    (``ox``, ``oy`` in -1, 0, 1)."""
    nx, sx = _wrap(cx + ox, cells, side)
    ny, sy = _wrap(cy + oy, cells, side)
    return ny * cells + nx, sx, sy


@kernel
def tree_update(tree, leaves, i, event_time):
    """Carry the event of particle ``i`` from its leaf to the root."""
    k = (leaves + i) >> 1
    while k >= 1:
        a = tree[2 * k]
        b = tree[2 * k + 1]
        if b < 0 or (a >= 0 and event_time[a] <= event_time[b]):
            tree[k] = a
        else:
            tree[k] = b
        k >>= 1


@kernel
def tree_build(tree, leaves, n, event_time):
    """Fill the whole tree from the events of particles ``0 .. n-1``."""
    for k in range(leaves):
        tree[leaves + k] = k if k < n else -1
    for k in range(leaves - 1, 0, -1):
        a = tree[2 * k]
        b = tree[2 * k + 1]
        if b < 0 or (a >= 0 and event_time[a] <= event_time[b]):
            tree[k] = a
        else:
            tree[k] = b


@kernel
def cell_link(i, c, cell, head, next_in_cell, previous_in_cell):
    """Put particle ``i`` at the head of the list of cell ``c``."""
    first = head[c]
    next_in_cell[i] = first
    previous_in_cell[i] = -1
    if first >= 0:
        previous_in_cell[first] = i
    head[c] = i
    cell[i] = c


@kernel
def cell_unlink(i, cell, head, next_in_cell, previous_in_cell):
    """Take particle ``i`` out of the list of its cell."""
    before = previous_in_cell[i]
    after = next_in_cell[i]
    if before >= 0:
        next_in_cell[before] = after
    else:
        head[cell[i]] = after
    if after >= 0:
        previous_in_cell[after] = before


@kernel
def cells_fill(position, cell, head, next_in_cell, previous_in_cell, side, cells):
    """Wrap every position into ``[0, side)`` and link every particle into its cell."""
    width = side / cells
    for c in range(head.shape[0]):
        head[c] = -1
    for i in range(position.shape[0]):
        for axis in range(2):
            x = position[i, axis] - math.floor(position[i, axis] / side) * side
            if x >= side:  # -tiny wraps to side itself
                x -= side
            position[i, axis] = x
        cx = min(int(position[i, 0] / width), cells - 1)
        cy = min(int(position[i, 1] / width), cells - 1)
        cell_link(i, cy * cells + cx, cell, head, next_in_cell, previous_in_cell)


@kernel
def crossing_time(x, y, vx, vy, c, cells, width):
    """Time until the point ``(x, y)`` moving at ``(vx, vy)`` leaves cell ``c``, and the axis it
    leaves along (:data:`CROSS_X`, :data:`CROSS_Y`, or :data:`NO_EVENT` when it does not move)."""
    cx = c % cells
    cy = c // cells
    tx = math.inf
    ty = math.inf
    if vx > 0.0:
        tx = ((cx + 1) * width - x) / vx
    elif vx < 0.0:
        tx = (cx * width - x) / vx
    if vy > 0.0:
        ty = ((cy + 1) * width - y) / vy
    elif vy < 0.0:
        ty = (cy * width - y) / vy
    if tx <= ty and tx < math.inf:
        return max(tx, 0.0), CROSS_X
    if ty < math.inf:
        return max(ty, 0.0), CROSS_Y
    return math.inf, NO_EVENT


@kernel
def cell_cross(i, axis, position, velocity, cell, head, next_in_cell, previous_in_cell, side, cells):
    """Move particle ``i`` (its position brought to now) into the next cell along ``axis``
    (:data:`CROSS_X` or :data:`CROSS_Y`), wrapping round the box."""
    c = cell[i]
    cx = c % cells
    cy = c // cells
    k = 0 if axis == CROSS_X else 1
    step = 1 if velocity[i, k] > 0.0 else -1
    index = (cx if k == 0 else cy) + step
    if index == cells:
        index = 0
        position[i, k] -= side
    elif index < 0:
        index = cells - 1
        position[i, k] += side
    if k == 0:
        cx = index
    else:
        cy = index
    cell_unlink(i, cell, head, next_in_cell, previous_in_cell)
    cell_link(i, cy * cells + cx, cell, head, next_in_cell, previous_in_cell)
