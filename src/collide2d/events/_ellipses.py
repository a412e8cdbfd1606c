"""Hard ellipses, translating and turning: the state of the compiled event loop and its runs."""

from __future__ import annotations

import math

import numpy as np

from collide2d._kernels.events import ellipses as _kernels

from ._engine import SLACK, EventEngine, check_start, thermal_velocities


class HardEllipses(EventEngine):
    """Hard ellipses in a periodic square box, simulated event by event in compiled code.

    Ellipses of mass 1 and the moment of inertia of a uniform elliptical disc, ``I = (a^2 + b^2) /
    4``, translate and turn at constant rates between frictionless elastic collisions. The next
    contact of a pair is searched only when their bounding circles meet before the ellipse's
    earliest event so far, by conservative advancement on a certified bound of the gap from the
    Perram-Wertheim contact function (see :mod:`collide2d._kernels.events.ellipses`). The
    calendar and the cells are those of :class:`HardDisks`.

    Parameters
    ----------
    positions, velocities : array_like of shape (n, 2)
    angles, angular_velocities : array_like of shape (n,)
    semi_axes : array_like of shape (2,) or (n, 2)
        ``(a, b)`` with ``a >= b > 0``.
    side : float
        Side of the periodic square box, at least 3 times the largest ``2 a``.
    tolerance : float, optional
        Gap at which a pair counts as touching, relative to the smallest ``b`` (default 1e-10).

    Examples
    --------
    >>> from collide2d.events import HardEllipses
    >>> ellipses = HardEllipses.lattice(32, 0.3, aspect=2.0, seed=1)
    >>> ellipses.run(200)
    200
    >>> ellipses.overlaps()
    0
    """

    _kernels = _kernels

    def __init__(self, positions, velocities, angles, angular_velocities, semi_axes, side, *, tolerance=1e-10):
        position, velocity, side = check_start(positions, velocities, side)
        n = position.shape[0]
        angle = np.broadcast_to(np.asarray(angles, dtype=np.float64), (n,)).copy()
        omega = np.broadcast_to(np.asarray(angular_velocities, dtype=np.float64), (n,)).copy()
        semi = np.broadcast_to(np.asarray(semi_axes, dtype=np.float64), (n, 2)).copy()
        for name, value in (("angles", angle), ("angular_velocities", omega), ("semi_axes", semi)):
            if not np.all(np.isfinite(value)):
                raise ValueError(f"{name} must be finite")
        if not (np.all(semi[:, 1] > 0.0) and np.all(semi[:, 0] >= semi[:, 1])):
            raise ValueError("semi_axes must be (a, b) with a >= b > 0")
        tolerance = float(tolerance)
        if not (0.0 < tolerance < 1e-3):
            raise ValueError(f"tolerance must lie in (0, 1e-3), got {tolerance}")
        self.angle = angle
        self.omega = omega
        self.semi = semi
        self.inertia = 0.25 * (semi[:, 0] ** 2 + semi[:, 1] ** 2)
        horizon = side / max(1.0, float(np.max(np.hypot(velocity[:, 0], velocity[:, 1]))))
        self._allocate(position, velocity, side, [side, tolerance * float(np.min(semi[:, 1])), horizon], 7)
        if 2.0 * float(np.max(semi[:, 0])) * 3.0 * SLACK > side:
            raise ValueError(f"side must be at least 3 times the largest major axis, got {side}")
        self._regrid()
        if self.overlaps(self.time):
            raise ValueError("positions: the ellipses overlap at the start")

    @classmethod
    def lattice(cls, n, packing_fraction, *, aspect=2.0, seed=None):
        """``n`` aligned ellipses of semi-axes ``(aspect / 2, 1 / 2)`` on a rectangular lattice filling a
        periodic square box at ``packing_fraction``, with random velocities and angular velocities
        of ``kT = 1`` in each of the three degrees of freedom and no net momentum."""
        eta = float(packing_fraction)
        aspect = float(aspect)
        if not aspect >= 1.0:
            raise ValueError(f"aspect must be at least 1, got {aspect}")
        if not 0.0 < eta < 0.9:
            raise ValueError(f"packing_fraction must lie in (0, 0.9), got {eta}")
        major, minor = 0.5 * aspect, 0.5
        grid, velocity, omega, side = aligned_lattice(n, eta, major, minor, np.random.default_rng(seed))
        return cls(grid, velocity, 0.0, omega, (major, minor), side)

    def angles(self, t=None):
        """The angles at time ``t`` (default: now)."""
        t = self.time if t is None else t
        return self.angle + self.omega * (t - self.stamp)

    def kinetic_temperature(self):
        """``kT`` from the translational and rotational kinetic energy: three quadratic degrees of
        freedom per ellipse, each holding ``kT / 2``."""
        return float(np.sum(self.velocity**2) + np.sum(self.inertia * self.omega**2)) / (3.0 * self.n)

    def packing_fraction(self):
        return float(np.sum(math.pi * self.semi[:, 0] * self.semi[:, 1])) / self.side**2

    def record(self, collisions):
        """Record the next ``collisions`` collisions: rows ``i, j, t, px, py, nx, ny, J`` (the contact
        point, the unit normal from ``i`` to ``j`` and the impulse on ``j``), filled as they happen."""
        self._log = np.full((self.collisions + int(collisions), 8), np.nan)
        return self._log

    def _arrays(self):
        return self.position, self.velocity, self.angle, self.omega, self.stamp, self.semi

    def _reach(self):
        return 2.0 * float(np.max(self.semi[:, 0])), False

    def _rebuild_extra(self):
        return (self.counters,)

    def _run_extra(self):
        return (self._log,)

    def _shapes(self, t):
        import collide2d as c2

        return c2.Ellipse(self.positions(t), self.semi, angle=self.angles(t))


def aligned_lattice(n, eta, major, minor, rng):
    """Centres of ``n`` aligned ellipses on a rectangular lattice filling a periodic square box at
    packing fraction ``eta``, velocities and angular velocities of ``kT = 1`` (mass 1, the inertia of
    a uniform disc) with no net momentum, and the box side."""
    side = math.sqrt(n * math.pi * major * minor / eta)
    rows = math.ceil(math.sqrt(n * major / minor))
    cols = math.ceil(n / rows)
    if side / cols <= 2.0 * major or side / rows <= 2.0 * minor:
        raise ValueError(f"packing_fraction {eta} is too dense for a lattice of {n} aligned ellipses")
    ix, iy = np.meshgrid(np.arange(cols), np.arange(rows), indexing="ij")
    grid = np.stack([(ix.ravel() + 0.5) * (side / cols), (iy.ravel() + 0.5) * (side / rows)], axis=-1)[:n]
    velocity = thermal_velocities(n, rng)
    inertia = (major**2 + minor**2) / 4.0
    omega = rng.normal(0.0, 1.0, n)
    omega *= math.sqrt(n / (inertia * np.sum(omega**2)))  # rotational energy N kT / 2 (1 degree of freedom)
    return grid, velocity, omega, side
