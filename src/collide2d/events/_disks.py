"""Hard disks: the state of the compiled event loop, its runs, the pressure and the compression."""

from __future__ import annotations

import math

import numpy as np

from collide2d._kernels.events import disks as _kernels

from ._engine import SLACK, EventEngine, check_start, thermal_velocities


class HardDisks(EventEngine):
    """Hard disks in a periodic square box, simulated event by event in compiled code.

    Disks of mass 1 move in straight lines between elastic collisions. The next event of every disk
    (a collision, or leaving its cell of the cell lists) is kept in a complete binary tree; events
    made stale by a later collision of the partner are found with collision counters (see
    :mod:`collide2d._kernels.events.calendar`). With ``growth_rate > 0`` every diameter grows as
    ``diameter * (1 + growth_rate * t)``: the compression of Lubachevsky and Stillinger
    (:meth:`compress`).

    Parameters
    ----------
    positions : array_like of shape (n, 2)
        Centres, in the box ``[0, side)^2`` (others are wrapped into it).
    velocities : array_like of shape (n, 2)
    diameters : array_like of shape (n,) or float
        Diameters at time 0, positive.
    side : float
        Side of the periodic square box.
    growth_rate : float, optional
        Growth rate ``g`` of the diameters, ``>= 0``: at time ``t`` they are ``diameters * (scale +
        g t)``.
    scale : float, optional
        The factor of the diameters at time 0, ``>= 0`` (0: points that grow, with ``g > 0``).

    Raises
    ------
    ValueError
        For arrays of the wrong shape, non-finite values, disks that overlap at the start, or a box
        smaller than three cells of the largest disk (``side < 3 max(diameters)``).

    Examples
    --------
    >>> from collide2d.events import HardDisks
    >>> disks = HardDisks.lattice(64, 0.5, seed=1)
    >>> disks.run(500)
    500
    >>> disks.overlaps()
    0
    """

    def __init__(self, positions, velocities, diameters, side, *, growth_rate=0.0, scale=1.0):
        position, velocity, side = check_start(positions, velocities, side)
        n = position.shape[0]
        diameter = np.broadcast_to(np.asarray(diameters, dtype=np.float64), (n,)).copy()
        growth_rate = float(growth_rate)
        scale = float(scale)
        if not (np.all(np.isfinite(diameter)) and np.all(diameter > 0.0)):
            raise ValueError("diameters must be positive and finite")
        if not (math.isfinite(growth_rate) and growth_rate >= 0.0):
            raise ValueError(f"growth_rate must be finite and >= 0, got {growth_rate}")
        if not (math.isfinite(scale) and scale >= 0.0 and (scale > 0.0 or growth_rate > 0.0)):
            raise ValueError(f"scale must be finite and >= 0 (> 0 when growth_rate is 0), got {scale}")
        self.diameter0 = diameter
        self._allocate(position, velocity, side, [side, scale, growth_rate], 4)
        if self.max_diameter() * 3.0 * SLACK > side:
            raise ValueError(f"side must be at least 3 times the largest diameter, got {side} for {self.max_diameter()}")
        self._regrid()
        if self.overlapping_pairs_now():
            raise ValueError("positions: the disks overlap at the start")

    # -- construction ------------------------------------------------------------------------------

    @classmethod
    def lattice(cls, n, packing_fraction, *, seed=None, diameter=1.0):
        """``n`` disks of one diameter on a square lattice filling a periodic box at
        ``packing_fraction``, with random velocities of ``kT = 1`` and no net momentum."""
        eta = float(packing_fraction)
        if not 0.0 < eta < math.pi / 4.0:
            raise ValueError(f"packing_fraction must lie in (0, pi/4) for a square lattice, got {eta}")
        side = math.sqrt(n * math.pi * diameter**2 / 4.0 / eta)
        k = math.ceil(math.sqrt(n))
        if side / k <= diameter:
            raise ValueError(f"packing_fraction {eta} is too dense for a square lattice of {n} disks")
        grid = (np.stack(np.meshgrid(np.arange(k), np.arange(k)), axis=-1).reshape(-1, 2)[:n] + 0.5) * (side / k)
        return cls(grid, thermal_velocities(n, np.random.default_rng(seed)), diameter, side)

    @classmethod
    def points(cls, n, side, diameters, *, growth_rate, seed=None):
        """``n`` disks of vanishing size at uniformly random points of a periodic box of side
        ``side``, growing from zero to ``diameters`` times ``growth_rate * t``: the start of the
        Lubachevsky-Stillinger compression (:meth:`compress`)."""
        rng = np.random.default_rng(seed)
        return cls(rng.uniform(0.0, side, (n, 2)), thermal_velocities(n, rng), diameters, side,
                   growth_rate=growth_rate, scale=0.0)

    # -- state ---------------------------------------------------------------------------------------

    def scale(self, t=None):
        """The factor ``g0 + g1 t`` of the diameters at time ``t`` (default: now)."""
        t = self.time if t is None else t
        return float(self.params[_kernels.GROWTH_ORIGIN] + self.params[_kernels.GROWTH_RATE] * t)

    def diameters(self, t=None):
        """The diameters at time ``t`` (default: now)."""
        return self.diameter0 * self.scale(t)

    def max_diameter(self, t=None):
        return float(np.max(self.diameter0)) * self.scale(t)

    def packing_fraction(self, t=None):
        return float(np.sum(self.diameters(t) ** 2) * math.pi / 4.0 / self.side**2)

    def kinetic_temperature(self):
        """``kT`` from the kinetic energy: ``sum(v^2) / (2 N)`` (mass 1, two degrees of freedom)."""
        return float(np.sum(self.velocity**2)) / (2.0 * self.n)

    # -- runs ----------------------------------------------------------------------------------------

    def _arrays(self):
        return self.position, self.velocity, self.stamp, self.diameter0

    def _reach(self):
        return self.max_diameter(), self.params[_kernels.GROWTH_RATE] > 0.0

    def _outgrow_time(self, width):
        """The time when the largest contact distance reaches the cell width."""
        rate = float(self.params[_kernels.GROWTH_RATE])
        if rate == 0.0:
            return math.inf
        return (width / (float(np.max(self.diameter0)) * SLACK) - self.params[_kernels.GROWTH_ORIGIN]) / rate

    def _shapes(self, t):
        import collide2d as c2

        return c2.Circle(self.positions(t), 0.5 * self.diameters(t))

    def rescale_velocities(self, kt=1.0):
        """Scale the velocities to the temperature ``kt`` (all events predicted again)."""
        self._synchronise()  # the positions now, before the velocities change
        self.velocity *= math.sqrt(kt / self.kinetic_temperature())
        self._regrid()

    def set_growth_rate(self, rate):
        """Change the growth rate from now on, keeping the diameters continuous."""
        now = self.time
        scale = self.scale(now)
        self.params[_kernels.GROWTH_RATE] = float(rate)
        self.params[_kernels.GROWTH_ORIGIN] = scale - float(rate) * now
        self._regrid()

    def compress(self, *, reduced_pressure=1e6, collisions_per_step=None, max_collisions=10**9):
        """Grow the disks (``growth_rate > 0``) until the reduced pressure ``Z = P A / (N kT)``
        exceeds ``reduced_pressure``: the Lubachevsky-Stillinger compression to a jammed packing
        (Lubachevsky and Stillinger, *J. Stat. Phys.* 60, 561, 1990; Donev, Torquato and
        Stillinger, *J. Comput. Phys.* 202, 737, 2005).

        The growth heats the disks (a growing pair leaves faster than it came), so the velocities
        are scaled back to ``kT = 1`` after every step of ``collisions_per_step`` collisions (by
        default ``20 n``), and ``Z`` is measured over each step. Returns the steps as rows of
        (time, packing fraction at the end of the step, ``Z``, collisions so far).
        """
        if not self.params[_kernels.GROWTH_RATE] > 0.0:
            raise ValueError("compress needs growth_rate > 0")
        step = 20 * self.n if collisions_per_step is None else int(collisions_per_step)
        history = []
        while self.collisions < max_collisions:
            self.rescale_velocities(1.0)
            z = self.measure(step)
            history.append((self.time, self.packing_fraction(), z, self.collisions))
            if z > reduced_pressure:
                break
        return np.array(history)

    # -- checks --------------------------------------------------------------------------------------

    def overlapping_pairs_now(self):
        """Pairs closer than their contact distance now, by floating-point distances (a quick check)."""
        pos, d = self.positions(), self.diameters()
        r = pos[:, None, :] - pos[None, :, :]
        r -= self.side * np.round(r / self.side)
        gap = np.sqrt(np.sum(r**2, axis=-1)) - 0.5 * (d[:, None] + d[None, :])
        np.fill_diagonal(gap, np.inf)
        return int(np.count_nonzero(gap < 0.0) // 2)
