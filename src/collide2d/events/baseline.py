"""The engines of Python loops that :mod:`collide2d.events` is measured and tested against.

- :class:`Simulation`: hard disks with the events in a :mod:`heapq` heap, neighbour lists with a
  skin from :class:`collide2d.Index`, and the contact times either from the root of the quadratic
  of two moving circles in NumPy (``engine="numpy"``, the plain NumPy baseline) or from
  :func:`collide2d.time_of_impact` (``engine="time_of_impact"``).
- :class:`EllipseSimulation`: hard ellipses with the same loop, the contacts from
  :func:`collide2d.time_of_impact` with the angular velocities.

Disks of diameter 1 and mass 1 start on a square lattice with ``kT = 1``; the lists are rebuilt
when a particle may have moved half the skin since the last build. Events are invalidated by
collision counters (Alder and Wainwright, *J. Chem. Phys.* 31, 459, 1959; Rapaport, *The Art of
Molecular Dynamics Simulation*, 2004, ch. 14). For the ellipses, no point moves farther than
``|v| dt + |w| dt a`` in a time ``dt``, and a collision is the impulse of
:mod:`collide2d._kernels.events.ellipses`.
"""

from __future__ import annotations

import heapq
import math

import numpy as np

import collide2d as c2

from ._ellipses import aligned_lattice
from ._engine import thermal_velocities

SIGMA = 1.0  # disk diameter


def lattice_start(n, eta, rng):
    """Positions on a square lattice filling a periodic square box at packing fraction ``eta``,
    velocities with kT = 1 and no net momentum."""
    side = math.sqrt(n * math.pi * SIGMA**2 / 4.0 / eta)
    k = math.ceil(math.sqrt(n))
    if side / k <= SIGMA:
        raise ValueError(f"eta={eta} is too dense for a square lattice of {n} disks")
    grid = (np.stack(np.meshgrid(np.arange(k), np.arange(k)), axis=-1).reshape(-1, 2)[:n] + 0.5) * (side / k)
    return grid, thermal_velocities(n, rng), side


def impact_times_collide2d(ri, rj, vi, vj, horizon):
    """First contact times of the disk pairs (rows), ``inf`` beyond ``horizon``."""
    hit = c2.time_of_impact(c2.Circle(ri, 0.5 * SIGMA), c2.Circle(rj, 0.5 * SIGMA), vi, vj, t_max=horizon)
    return np.asarray(hit.time, dtype=np.float64)


def impact_times_numpy(ri, rj, vi, vj, horizon):
    """The same from the quadratic |r + v t| = sigma (the plain NumPy baseline)."""
    r, v = rj - ri, vj - vi
    b = np.einsum("ij,ij->i", r, v)
    vv = np.einsum("ij,ij->i", v, v)
    rr = np.einsum("ij,ij->i", r, r) - SIGMA**2
    disc = b * b - vv * rr
    with np.errstate(invalid="ignore", divide="ignore"):
        t = np.where(rr <= 0.0, 0.0, (-b - np.sqrt(disc)) / vv)
    t[~(disc >= 0.0) | ~(b < 0.0) | ~(t <= horizon)] = np.inf
    return np.maximum(t, 0.0)


class Simulation:
    """Hard disks in a Python event loop (see the module)."""

    collisions_done = 0

    def __init__(self, n, eta, seed, engine, skin=0.6):
        self.skin = skin
        rng = np.random.default_rng(seed)
        self.pos, self.vel, self.side = lattice_start(n, eta, rng)
        self.n = n
        self.box = (self.side, self.side)
        self.stamp = np.zeros(n)  # time at which each position is valid
        self.count = np.zeros(n, dtype=np.int64)  # collisions per disk: stale events have old counts
        self.now = 0.0
        self.impact_times = impact_times_collide2d if engine == "time_of_impact" else impact_times_numpy
        self.index = c2.Index(c2.Circle(self.pos, 0.5 * SIGMA), periodic=self.box)
        self.virial = 0.0
        self.rebuilds = 0
        self.rebuild()

    def positions_at(self, rows, t):
        return self.pos[rows] + self.vel[rows] * (t - self.stamp[rows])[:, None]

    def rebuild(self):
        """Bring every disk to now, wrap it into the box, rebuild the neighbour lists and the events."""
        self.pos = self.positions_at(np.arange(self.n), self.now)
        self.pos -= np.floor(self.pos / self.side) * self.side
        self.stamp[:] = self.now
        self.build_pos = self.pos.copy()
        self.index.update(c2.Circle(self.pos, 0.5 * SIGMA))
        pairs, shifts = self.index.query_pairs(max_distance=self.skin, return_shifts=True)
        both = np.concatenate([pairs, pairs[::-1]], axis=1)  # each disk's neighbours, both ways
        both_shift = np.concatenate([shifts, -shifts])
        order = np.argsort(both[0], kind="stable")
        self.nb = both[1, order]
        self.nb_shift = both_shift[order]
        self.nb_start = np.searchsorted(both[0, order], np.arange(self.n + 1))
        speed = np.hypot(self.vel[:, 0], self.vel[:, 1])
        self.next_rebuild = self.now + 0.5 * self.skin / float(np.max(speed))
        self.events = []
        self.rebuilds += 1
        self.predict(pairs[0], pairs[1], shifts)

    def predict(self, i, j, shift):
        """Push the next collision of the pairs ``(i[k], j[k])`` (``j`` moved by ``shift``) before the rebuild."""
        horizon = self.next_rebuild - self.now
        if i.size == 0 or horizon <= 0.0:
            return
        ri, rj = self.positions_at(i, self.now), self.positions_at(j, self.now) + shift
        vi, vj = self.vel[i], self.vel[j]
        approaching = np.einsum("ij,ij->i", rj - ri, vj - vi) < 0.0  # apart-moving pairs never meet
        k = np.flatnonzero(approaching)
        if k.size == 0:
            return
        t = self.impact_times(ri[k], rj[k], vi[k], vj[k], horizon)
        for kk in np.flatnonzero(np.isfinite(t)).tolist():
            a, b = int(i[k[kk]]), int(j[k[kk]])
            heapq.heappush(self.events, (self.now + float(t[kk]), a, b, int(self.count[a]), int(self.count[b]),
                                         tuple(shift[k[kk]].tolist())))

    def neighbours(self, a):
        lo, hi = self.nb_start[a], self.nb_start[a + 1]
        return self.nb[lo:hi], self.nb_shift[lo:hi]

    def collide(self, a, b, shift):
        ra, rb = self.positions_at(np.array([a, b]), self.now)
        rb = rb + shift
        normal = (rb - ra) / np.hypot(*(rb - ra))
        dv = float(np.dot(self.vel[a] - self.vel[b], normal))  # closing speed along the normal
        if dv > 0.0:
            self.vel[a] -= dv * normal
            self.vel[b] += dv * normal
            self.virial += SIGMA * dv
        for disk, where in ((a, ra), (b, rb - shift)):
            self.pos[disk] = where
            self.stamp[disk] = self.now
            self.count[disk] += 1
            # the lists stay valid until this disk may have moved half the skin since they were built
            moved = float(np.hypot(*(where - self.build_pos[disk])))
            speed = float(np.hypot(*self.vel[disk]))
            if speed > 0.0:
                self.next_rebuild = min(self.next_rebuild, self.now + (0.5 * self.skin - moved) / speed)
        # the next events of both disks with their neighbours
        parts = [(np.full(nb.size, disk), nb, sh) for disk in (a, b) for nb, sh in [self.neighbours(disk)]]
        self.predict(np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]),
                     np.concatenate([p[2] for p in parts]))
        return dv > 0.0

    def run(self, collisions):
        """Process ``collisions`` collisions; return the virial sum and the elapsed simulated time."""
        done = 0
        start_time, start_virial = self.now, self.virial
        while done < collisions:
            if not self.events or self.events[0][0] >= self.next_rebuild:
                self.now = self.next_rebuild
                self.rebuild()
                continue
            event = heapq.heappop(self.events)
            t, a, b, ca, cb = event[:5]
            if ca != self.count[a] or cb != self.count[b]:
                continue
            self.now = t
            if self.collide(a, b, *(np.array(x) for x in event[5:])):
                done += 1
                self.collisions_done += 1
        return self.virial - start_virial, self.now - start_time

    def overlaps(self):
        """Pairs whose interiors overlap halfway between the last collision and the next event
        (at the collision time itself the last pair touches, within rounding)."""
        valid = [e[0] for e in self.events if e[3] == self.count[e[1]] and e[4] == self.count[e[2]]]
        t = 0.5 * (self.now + min(valid + [self.next_rebuild]))
        disks = c2.Circle(self.positions_at(np.arange(self.n), t), 0.5 * SIGMA)
        return int(c2.query_pairs(disks, predicate="overlaps", periodic=self.box).shape[1])

    def kinetic_kt(self):
        return float(np.sum(self.vel**2)) / (2.0 * self.n)


def cross(d, n):
    """z component of the 2D cross product of the rows of ``d`` and ``n``."""
    return d[..., 0] * n[..., 1] - d[..., 1] * n[..., 0]


def lattice_start_ellipses(n, eta, radii, rng):
    """Aligned ellipses on a rectangular lattice filling a periodic square box at packing fraction
    ``eta``; velocities and angular velocities with kT = 1 and no net momentum."""
    grid, velocity, omega, side = aligned_lattice(n, eta, *radii, rng)
    return grid, velocity, np.zeros(n), omega, side


class EllipseSimulation(Simulation):
    """Hard ellipses of semi-axes ``(aspect / 2, 1 / 2)``, mass 1, turning: the event loop of
    :class:`Simulation` with the collisions of rigid bodies."""

    delay = 1e-9  # a pair that just collided is searched from this long after its contact

    def __init__(self, n, eta, seed, aspect, skin):
        rng = np.random.default_rng(seed)
        self.skin = skin
        self.radii = (0.5 * aspect, 0.5)
        self.reach = max(self.radii)  # the farthest point from the centre
        self.inertia = (self.radii[0] ** 2 + self.radii[1] ** 2) / 4.0  # uniform elliptical disc, mass 1
        self.pos, self.vel, self.theta, self.omega, self.side = lattice_start_ellipses(n, eta, self.radii, rng)
        self.n = n
        self.box = (self.side, self.side)
        self.stamp = np.zeros(n)
        self.count = np.zeros(n, dtype=np.int64)
        self.now = 0.0
        self.index = c2.Index(self.shapes(self.pos, self.theta), periodic=self.box)
        self.virial = 0.0
        self.rebuilds = 0
        self.impact_calls = 0  # pairs passed to time_of_impact
        self.log = None  # a list to record every collision in (the tests check them)
        self.rebuild()

    def shapes(self, pos, theta):
        return c2.Ellipse(pos, self.radii, angle=theta)

    def angles_at(self, rows, t):
        return self.theta[rows] + self.omega[rows] * (t - self.stamp[rows])

    def sweep_speed(self, rows):
        """Bound on the speed of every point of the ellipses: ``|v| + |w| a_max``."""
        return np.hypot(self.vel[rows, 0], self.vel[rows, 1]) + np.abs(self.omega[rows]) * self.reach

    def rebuild(self):
        """Bring every ellipse to now, wrap it into the box, rebuild the neighbour lists and the events."""
        everyone = np.arange(self.n)
        self.pos = self.positions_at(everyone, self.now)
        self.theta = np.remainder(self.angles_at(everyone, self.now), 2.0 * math.pi)
        self.pos -= np.floor(self.pos / self.side) * self.side
        self.stamp[:] = self.now
        self.build_pos = self.pos.copy()
        self.build_theta = self.theta.copy()
        self.index.update(self.shapes(self.pos, self.theta))
        pairs, shifts = self.index.query_pairs(max_distance=self.skin, return_shifts=True)
        both = np.concatenate([pairs, pairs[::-1]], axis=1)
        both_shift = np.concatenate([shifts, -shifts])
        order = np.argsort(both[0], kind="stable")
        self.nb = both[1, order]
        self.nb_shift = both_shift[order]
        self.nb_start = np.searchsorted(both[0, order], np.arange(self.n + 1))
        # no point of an ellipse moves farther than half the skin before the rebuild
        self.next_rebuild = self.now + 0.5 * self.skin / float(np.max(self.sweep_speed(everyone)))
        self.events = []
        self.rebuilds += 1
        self.predict(pairs[0], pairs[1], shifts)

    def predict(self, i, j, shift, delay=0.0):
        """Push the next collision of the pairs ``(i[k], j[k])`` (``j`` moved by ``shift``), each
        searched from ``now + delay[k]`` to the rebuild, in one batched call."""
        start = self.now + np.broadcast_to(np.asarray(delay, dtype=np.float64), i.shape)
        horizon = self.next_rebuild - start
        ri, rj = self.positions_at(i, start), self.positions_at(j, start) + shift
        vi, vj = self.vel[i], self.vel[j]
        # the bounding circles (radius a_max) must meet before the horizon: closest approach of the centres
        r, v = rj - ri, vj - vi
        vv = np.einsum("ij,ij->i", v, v)
        with np.errstate(invalid="ignore", divide="ignore"):
            s = np.clip(np.where(vv > 0.0, -np.einsum("ij,ij->i", r, v) / vv, 0.0), 0.0, np.maximum(horizon, 0.0))
        closest = np.hypot(*(r + v * s[:, None]).T)
        k = np.flatnonzero((closest <= 2.0 * self.reach * (1.0 + 1e-9)) & (horizon > 0.0))
        if k.size == 0:
            return
        self.impact_calls += k.size
        hit = c2.time_of_impact(self.shapes(ri[k], self.angles_at(i[k], start[k])),
                                self.shapes(rj[k], self.angles_at(j[k], start[k])), vi[k], vj[k],
                                angular_velocity_a=self.omega[i[k]], angular_velocity_b=self.omega[j[k]],
                                t_max=horizon[k])
        start = start[k]
        t = np.asarray(hit.time, dtype=np.float64)
        point = hit.point  # a common point at the event time
        for kk in np.flatnonzero(np.isfinite(t)).tolist():
            a, b = int(i[k[kk]]), int(j[k[kk]])
            heapq.heappush(self.events, (float(start[kk] + t[kk]), a, b, int(self.count[a]), int(self.count[b]),
                                         tuple(shift[k[kk]].tolist()), tuple(point[kk].tolist()),
                                         tuple(hit.normal[kk].tolist())))

    def collide(self, a, b, shift, point, normal):
        """The elastic collision of two rigid ellipses at ``point`` with the unit normal ``normal``
        (from ``a`` to ``b``): an impulse ``j n`` on ``b`` and ``-j n`` on ``a`` at the contact point
        that reverses the normal relative velocity of the contact points."""
        rows = np.array([a, b])
        ra, rb = self.positions_at(rows, self.now)
        tha, thb = self.angles_at(rows, self.now)
        rb = rb + shift
        da, db = point - ra, point - rb  # lever arms
        ua = self.vel[a] + self.omega[a] * np.array([-da[1], da[0]])
        ub = self.vel[b] + self.omega[b] * np.array([-db[1], db[0]])
        un = float(np.dot(ub - ua, normal))  # < 0: the contact points approach
        ca, cb = float(cross(da, normal)), float(cross(db, normal))
        before = (self.vel[[a, b]].copy(), self.omega[[a, b]].copy())
        if un < 0.0:
            j = -2.0 * un / (2.0 + (ca * ca + cb * cb) / self.inertia)
            self.vel[a] -= j * normal
            self.vel[b] += j * normal
            self.omega[a] -= j * ca / self.inertia
            self.omega[b] += j * cb / self.inertia
            self.virial += j * float(np.dot(rb - ra, normal))  # r_ab . dp_b
            if self.log is not None:
                self.log.append({"pair": (a, b), "centres": (ra, rb), "angles": (tha, thb), "point": point,
                                 "normal": normal, "before": before, "impulse": j,
                                 "after": (self.vel[[a, b]].copy(), self.omega[[a, b]].copy())})
        for body, where, angle in ((a, ra, tha), (b, rb - shift, thb)):
            self.pos[body] = where
            self.theta[body] = angle
            self.stamp[body] = self.now
            self.count[body] += 1
            moved = float(np.hypot(*(where - self.build_pos[body]))) + self.reach * abs(angle - self.build_theta[body])
            speed = float(self.sweep_speed(np.array([body]))[0])
            if speed > 0.0:
                self.next_rebuild = min(self.next_rebuild, self.now + (0.5 * self.skin - moved) / speed)
        # the pair itself, from just after the contact (at the contact its gap is zero), then the
        # other neighbours of both
        parts = [(np.array([a]), np.array([b]), shift[None, :], np.array([self.delay]))]
        for body, other in ((a, b), (b, a)):
            nb, sh = self.neighbours(body)
            keep = nb != other
            parts.append((np.full(int(keep.sum()), body), nb[keep], sh[keep], np.zeros(int(keep.sum()))))
        self.predict(*(np.concatenate([p[q] for p in parts]) for q in range(4)))
        return un < 0.0

    def overlaps(self):
        valid = [e[0] for e in self.events if e[3] == self.count[e[1]] and e[4] == self.count[e[2]]]
        t = 0.5 * (self.now + min(valid + [self.next_rebuild]))
        everyone = np.arange(self.n)
        shapes = self.shapes(self.positions_at(everyone, t), self.angles_at(everyone, t))
        return int(c2.query_pairs(shapes, predicate="overlaps", periodic=self.box).shape[1])

    def kinetic_kt(self):
        """kT from the translational and rotational kinetic energy: 3 quadratic degrees of freedom
        per ellipse, each holding kT / 2."""
        return float(np.sum(self.vel**2) + self.inertia * np.sum(self.omega**2)) / (3.0 * self.n)

    def momentum(self):
        return self.vel.sum(axis=0)
