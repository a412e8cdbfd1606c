"""The state shared by the event loops of hard disks and hard ellipses: the calendar, the cells, runs."""

from __future__ import annotations

import math

import numpy as np

from collide2d._kernels.events import disks as _slots

SLACK = 1.0 + 1e-9  # the cells are this much wider than the largest contact distance they must hold


def check_start(position, velocity, side):
    """The arrays of a start, copied, or a ValueError naming the argument and the rule."""
    position = np.array(position, dtype=np.float64, copy=True)
    velocity = np.array(velocity, dtype=np.float64, copy=True)
    if position.ndim != 2 or position.shape[1] != 2 or position.shape[0] < 2:
        raise ValueError(f"positions must have shape (n, 2) with n >= 2, got {position.shape}")
    if velocity.shape != position.shape:
        raise ValueError(f"velocities must have the shape of positions {position.shape}, got {velocity.shape}")
    for name, value in (("positions", position), ("velocities", velocity)):
        if not np.all(np.isfinite(value)):
            raise ValueError(f"{name} must be finite")
    side = float(side)
    if not (math.isfinite(side) and side > 0.0):
        raise ValueError(f"side must be a positive finite number, got {side}")
    return position, velocity, side


def thermal_velocities(n, rng):
    """Normal velocities of ``kT = 1`` (mass 1, 2 degrees of freedom) with no net momentum."""
    velocity = rng.normal(0.0, 1.0, (n, 2))
    velocity -= velocity.mean(axis=0)
    velocity *= math.sqrt(2.0 * n / np.sum(velocity**2))
    return velocity


class EventEngine:
    """Arrays of the compiled event loop (cells, calendar, counters) and the runs over it.

    A subclass sets ``_kernels`` (a module with ``rebuild`` and ``run``), fills ``params`` and
    provides ``_arrays`` (the particle arrays before the calendar's), ``_reach`` (the largest
    contact distance up to the next regrid) and ``_shapes`` (the particles as collide2d shapes).
    """

    _kernels = _slots
    _log = np.zeros((0, 8))

    def _allocate(self, position, velocity, side, params, counters):
        n = position.shape[0]
        self.n = n
        self.side = side
        self.position = position
        self.velocity = velocity
        self.stamp = np.zeros(n)
        self.count = np.zeros(n, dtype=np.int64)
        self.cell = np.zeros(n, dtype=np.int64)
        self.next_in_cell = np.zeros(n, dtype=np.int64)
        self.previous_in_cell = np.zeros(n, dtype=np.int64)
        self.event_time = np.zeros(n)
        self.event_partner = np.zeros(n, dtype=np.int64)
        self.event_count = np.zeros(n, dtype=np.int64)
        leaves = 1 << max(1, (n - 1).bit_length())
        self.tree = np.zeros(2 * leaves, dtype=np.int64)
        self.layout = np.array([0, leaves], dtype=np.int64)
        self.params = np.asarray(params, dtype=np.float64)
        self.state = np.zeros(2)  # now, virial sum
        self.counters = np.zeros(counters, dtype=np.int64)  # collisions, cell crossings, stale events, grazes, ...
        self.head = np.zeros(0, dtype=np.int64)
        self._regrid_at = math.inf

    # -- state ---------------------------------------------------------------------------------------

    @property
    def time(self):
        """The time of the last event."""
        return float(self.state[_slots.NOW])

    @property
    def collisions(self):
        """Collisions processed so far."""
        return int(self.counters[_slots.COLLISIONS])

    @property
    def virial(self):
        """Sum of ``r_ij . dp_j`` over the collisions so far."""
        return float(self.state[_slots.VIRIAL])

    def positions(self, t=None):
        """The centres at time ``t`` (default: now), wrapped into the box."""
        t = self.time if t is None else t
        where = self.position + self.velocity * (t - self.stamp)[:, None]
        return where - np.floor(where / self.side) * self.side

    def momentum(self):
        """The total momentum (mass 1)."""
        return self.velocity.sum(axis=0)

    def next_event_time(self):
        return float(self.event_time[self.tree[1]])

    # -- runs ----------------------------------------------------------------------------------------

    def _synchronise(self):
        """Bring every particle's stored position (and angle) to now."""
        elapsed = self.time - self.stamp
        self.position += self.velocity * elapsed[:, None]
        if hasattr(self, "omega"):
            self.angle += self.omega * elapsed
        self.stamp[:] = self.time

    def _calendar(self):
        return (self.count, self.cell, self.head, self.next_in_cell, self.previous_in_cell, self.event_time,
                self.event_partner, self.event_count, self.tree, self.layout, self.params, self.state)

    def _regrid(self):
        """Choose the cells for the sizes up to the next regrid, fill them, predict every event."""
        reach, growing = self._reach()
        # growing particles: cells for 10 % more than today's size, so that each regrid is a step ahead
        cells = int(self.side / (reach * SLACK * (1.1 if growing else 1.0))) if reach > 0.0 else 1 << 30
        # at most 2 sqrt(n) cells per side (a quarter particle per cell): small ones need no more
        cells = min(cells, max(3, int(2.0 * math.sqrt(self.n))))
        if cells < 3:
            raise ValueError(f"the particles outgrew the box: side {self.side} is less than 3 contact distances {reach}")
        self.layout[_slots.CELLS] = cells
        if self.head.shape[0] != cells * cells:
            self.head = np.zeros(cells * cells, dtype=np.int64)
        self._kernels.rebuild(*self._arrays(), *self._calendar(), *self._rebuild_extra())
        self._regrid_at = self._outgrow_time(self.side / cells)

    def _rebuild_extra(self):
        return ()

    def _outgrow_time(self, width):
        return math.inf

    def _run_extra(self):
        return ()

    def run(self, collisions, *, until=math.inf):
        """Process events until ``collisions`` more collisions are done or the time ``until``.

        Returns the number of collisions done.
        """
        collisions = int(collisions)
        if collisions < 0:
            raise ValueError(f"collisions must be >= 0, got {collisions}")
        start = self.collisions
        while self.collisions - start < collisions:
            stop = min(until, self._regrid_at)
            status = self._kernels.run(*self._arrays(), *self._calendar(), self.counters,
                                       collisions - (self.collisions - start), stop, *self._run_extra())
            if status == 1:
                if stop >= until:
                    break
                self.state[_slots.NOW] = stop
                self._regrid()
            elif status == 2:
                break
        return self.collisions - start

    def measure(self, collisions):
        """Run ``collisions`` collisions and return the compressibility factor ``Z = P A / (N kT)``
        over them, from the collision virial: ``Z = 1 + sum(r_ij . dp_j) / (2 N kT t)`` (the kinetic
        term is the translational ``N kT``; ``kT`` is constant in an elastic run)."""
        virial, start = self.virial, self.time
        self.run(collisions)
        elapsed = self.time - start
        return 1.0 + (self.virial - virial) / (2.0 * self.n * self.kinetic_temperature() * elapsed)

    # -- checks --------------------------------------------------------------------------------------

    def overlaps(self, t=None):
        """Pairs whose interiors overlap, by :func:`collide2d.query_pairs` (exact), at time ``t``;
        by default halfway between the last event and the next (at the event itself the last
        pair touches)."""
        import collide2d as c2

        if t is None:
            nxt = min(self.next_event_time(), self._regrid_at)
            t = self.time if not math.isfinite(nxt) else 0.5 * (self.time + nxt)
        return int(c2.query_pairs(self._shapes(t), predicate="overlaps", periodic=(self.side, self.side)).shape[1])
