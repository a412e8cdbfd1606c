"""The demo's state: every shape's kind, position, velocity, angle, spin and size, as arrays
(:class:`World`), the batches built from it each frame (:class:`Groups`), and the moves."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from collide2d.broadphase import query_pairs
from collide2d.measurement import contact, distance
from collide2d.motion import query_impacts
from collide2d.overlay import intersection_points, overlap_area
from collide2d.predicates import intersects_xy
from collide2d.shapes import Box, Capsule, Circle, Ellipse, Point, Polygon, RotatedBox, Segment
from collide2d.table import ShapeTable


# -- kinds ----------------------------------------------------------------------------------------

ELLIPSE, CIRCLE, BOX, ROTATED_BOX, POLYGON, SEGMENT, CAPSULE, ROUNDED_BOX = range(8)
KIND_NAMES = ("ellipse", "circle", "box", "rotated box", "polygon", "segment", "capsule", "rounded box")
ADD_KEYS = {"e": ELLIPSE, "c": CIRCLE, "b": BOX, "r": ROTATED_BOX, "p": POLYGON, "s": SEGMENT, "k": CAPSULE, "u": ROUNDED_BOX}
ROUNDED_KINDS = (CAPSULE, ROUNDED_BOX)
CORNER_RADIUS = 0.4  # a rounded box's corner radius, as a fraction of its smaller half size
OVERLAYS = ("points", "normals", "overlap", "bounds", "grid")  # keys 1 .. 5

# -- the state ------------------------------------------------------------------------------------


def _regular_polygon(sides):
    """Unit vertices of a regular polygon, counter-clockwise, shape (sides, 2)."""
    t = 2 * np.pi * np.arange(sides) / sides + np.pi / 2
    return np.stack([np.cos(t), np.sin(t)], axis=-1)


@dataclass
class Groups:
    """The shapes of one frame: one batch per kind (per vertex count for polygons).

    ``table`` numbers the shapes group after group; ``order[t]`` is the state index of table
    shape ``t`` and ``starts[g]`` the first table index of group ``g``.
    """

    batches: list
    kinds: list
    starts: np.ndarray
    order: np.ndarray
    table: ShapeTable
    group_of: np.ndarray = field(repr=False)

    def local(self, t):
        """Group and index inside the group of table indices ``t``."""
        g = self.group_of[t]
        return g, t - self.starts[g]


class World:
    """Moving shapes in a box ``[0, width] x [0, height]`` (y up), as structure-of-arrays state.

    Fields (one row per shape): ``kind`` (:data:`ELLIPSE` ... :data:`SEGMENT`), ``pos``,
    ``vel`` (per second), ``angle``, ``omega`` (rad/s), ``size`` (ellipse radii, circle radius
    twice, box and rotated-box half sizes, polygon radii along its own axes, segment half length
    and 0, capsule half length and radius, rounded box half sizes of its core, whose corners are
    rounded by ``CORNER_RADIUS`` times the smaller) and ``sides`` (polygon vertex count, else 0). Edit them freely; :meth:`shapes`
    builds fresh batches from them.
    """

    def __init__(self, width=1280.0, height=800.0):
        self.width = float(width)
        self.height = float(height)
        self.kind = np.zeros(0, dtype=np.int8)
        self.pos = np.zeros((0, 2))
        self.vel = np.zeros((0, 2))
        self.angle = np.zeros(0)
        self.omega = np.zeros(0)
        self.size = np.ones((0, 2))
        self.sides = np.zeros(0, dtype=np.int64)
        self.scale = 10.0  # typical shape size, pixels
        self._cache = None
        self._cache_key = None

    def __len__(self):
        return len(self.kind)

    # building ----------------------------------------------------------------------------------
    def add(self, kind, pos, size, angle=0.0, vel=(0.0, 0.0), omega=0.0, sides=0):
        """Append one shape; return its index."""
        kind = int(kind)
        size = np.broadcast_to(np.asarray(size, dtype=np.float64), (2,)).copy()
        if kind == CIRCLE:
            size[1] = size[0]
        if kind == SEGMENT:
            size[1] = 0.0
        if kind == POLYGON and sides < 3:
            sides = 5
        self.kind = np.append(self.kind, np.int8(kind))
        self.pos = np.vstack([self.pos, np.asarray(pos, dtype=np.float64).reshape(1, 2)])
        self.vel = np.vstack([self.vel, np.asarray(vel, dtype=np.float64).reshape(1, 2)])
        self.angle = np.append(self.angle, 0.0 if kind == BOX else float(angle))
        self.omega = np.append(self.omega, 0.0 if kind == BOX else float(omega))
        self.size = np.vstack([self.size, size.reshape(1, 2)])
        self.sides = np.append(self.sides, int(sides) if kind == POLYGON else 0)
        self.touch()
        return len(self) - 1

    def add_random(self, kind, rng, pos=None, speed=(40.0, 120.0)):
        """Append one shape of ``kind`` with a random size, angle and velocity; return its index."""
        s = self.scale
        if kind == ELLIPSE:
            a = s * rng.uniform(1.0, 1.8)
            size = (a, a * rng.uniform(0.3, 0.8))
        elif kind == CIRCLE:
            size = (s * rng.uniform(0.8, 1.4),) * 2
        elif kind in (BOX, ROTATED_BOX):
            size = (s * rng.uniform(0.8, 1.8), s * rng.uniform(0.5, 1.2))
        elif kind == POLYGON:
            size = (s * rng.uniform(1.0, 1.6), s * rng.uniform(0.8, 1.3))
        elif kind == CAPSULE:
            size = (s * rng.uniform(0.8, 1.6), s * rng.uniform(0.4, 0.7))
        elif kind == ROUNDED_BOX:
            size = (s * rng.uniform(0.7, 1.5), s * rng.uniform(0.5, 1.0))
        else:
            size = (s * rng.uniform(1.5, 3.0), 0.0)
        if pos is None:
            margin = 2 * s
            pos = rng.uniform([margin, margin], [self.width - margin, self.height - margin])
        heading = rng.uniform(0, 2 * np.pi)
        v = rng.uniform(*speed) * np.array([math.cos(heading), math.sin(heading)])
        return self.add(
            kind,
            pos,
            size,
            angle=rng.uniform(0, 2 * np.pi),
            vel=v,
            omega=rng.uniform(-1.5, 1.5),
            sides=int(rng.integers(3, 8)) if kind == POLYGON else 0,
        )

    @classmethod
    def random(
        cls,
        count=500,
        extras=4,
        *,
        seed=0,
        width=1280.0,
        height=800.0,
        coverage=0.12,
        speed=(40.0, 120.0),
        separated=False,
    ):
        """``count`` ellipses and ``extras`` shapes of each other kind at random.

        Shape sizes are chosen so that the shapes cover about ``coverage`` of the window. With
        ``separated``, shapes that collide are moved elsewhere (up to 50 attempts) and, failing
        that, left out, so that no two shapes intersect at the start.
        """
        world = cls(width, height)
        total = max(count + 7 * extras, 1)
        world.scale = float(np.clip(math.sqrt(coverage * width * height / (total * math.pi * 0.9)), 3.0, 60.0))
        rng = np.random.default_rng(seed)
        for _ in range(count):
            world.add_random(ELLIPSE, rng, speed=speed)
        for kind in (CIRCLE, BOX, ROTATED_BOX, POLYGON, SEGMENT, CAPSULE, ROUNDED_BOX):
            for _ in range(extras):
                world.add_random(kind, rng, speed=speed)
        if separated:
            margin = 2 * world.scale
            for _ in range(50):
                pairs = world.colliding_pairs()
                if not len(pairs):
                    break
                move = np.unique(pairs[:, 1])
                world.pos[move] = rng.uniform([margin, margin], [width - margin, height - margin], size=(len(move), 2))
                world.touch()
            for index in np.unique(world.colliding_pairs()[:, 1])[::-1]:
                world.remove(int(index))
        return world

    def warm_up(self, measures=True):
        """Compile, once, the kernels this world's kinds need (Numba caches them on disk).

        Builds one small overlapping shape of each kind present and runs every query the demo
        makes on them, so that no frame later stalls on a compilation. Returns the seconds spent.
        """
        start = time.perf_counter()
        kinds = sorted(set(self.kind.tolist()))
        if not kinds:
            return 0.0
        probe = World(self.width, self.height)
        probe.scale = 10.0
        for kind in kinds:
            for dx in (0.0, 3.0):  # two of each kind, so every kind pair (also with itself) meets
                probe.add(kind, (50.0 + dx, 50.0 + dx), (10.0, 6.0), angle=0.3 + dx, sides=5)
        groups = probe.shapes()
        pairs = probe.colliding_pairs(groups)
        for backend in ("grid", "sweep"):  # a big scene takes these; the probe alone would not
            query_pairs(groups.table, backend=backend)
        for batch in groups.batches:
            distance(batch, Point((50.0, 50.0)))
        if measures:
            probe.contacts(groups, pairs)
            for _, a, b in probe.pair_batches(groups, pairs):
                intersection_points(a, b)
                overlap_area(a, b)
                intersects_xy(a, np.zeros((len(a), 2)))
        return time.perf_counter() - start

    def remove(self, index):
        """Delete shape ``index``."""
        keep = np.arange(len(self)) != index
        for name in ("kind", "pos", "vel", "angle", "omega", "size", "sides"):
            setattr(self, name, getattr(self, name)[keep])
        self.touch()

    def touch(self):
        """Mark the state as changed (the next :meth:`shapes` rebuilds the batches)."""
        self._cache_key = None

    def kind_counts(self):
        """Number of shapes of each kind, by name."""
        counts = np.bincount(self.kind.astype(np.int64), minlength=len(KIND_NAMES))
        return dict(zip(KIND_NAMES, counts.tolist()))

    # shapes -------------------------------------------------------------------------------------
    def polygon_vertices(self, index):
        """World vertices of the polygons ``index`` (all with the same vertex count): (m, k, 2)."""
        unit = _regular_polygon(int(self.sides[index[0]]))
        c, s = np.cos(self.angle[index]), np.sin(self.angle[index])
        lx = self.size[index, 0, None] * unit[:, 0]
        ly = self.size[index, 1, None] * unit[:, 1]
        x = self.pos[index, 0, None] + c[:, None] * lx - s[:, None] * ly
        y = self.pos[index, 1, None] + s[:, None] * lx + c[:, None] * ly
        return np.stack([x, y], axis=-1)

    def _batch(self, kind, index):
        pos, size, angle = self.pos[index], self.size[index], self.angle[index]
        if kind == ELLIPSE:
            return Ellipse(pos, size, angle)
        if kind == CIRCLE:
            return Circle(pos, size[:, 0])
        if kind == BOX:
            return Box(pos - size, pos + size)
        if kind == ROTATED_BOX:
            return RotatedBox(pos, size, angle)
        if kind == POLYGON:
            return Polygon(self.polygon_vertices(index))
        if kind == ROUNDED_BOX:
            return RotatedBox(pos, size, angle, radius=CORNER_RADIUS * size.min(axis=1))
        half = size[:, :1] * np.stack([np.cos(angle), np.sin(angle)], axis=-1)
        if kind == CAPSULE:
            return Capsule(pos - half, pos + half, size[:, 1])
        return Segment(pos - half, pos + half)

    def shapes(self):
        """The current shapes as a :class:`Groups` (cached until the state changes)."""
        key = (self.pos.tobytes(), self.angle.tobytes(), self.size.tobytes(), self.kind.tobytes(), self.sides.tobytes())
        if self._cache is not None and self._cache_key == key:
            return self._cache
        group_key = self.kind.astype(np.int64) * 64 + self.sides
        order = np.argsort(group_key, kind="stable")
        sorted_keys = group_key[order]
        cut = np.flatnonzero(np.diff(sorted_keys)) + 1
        starts = np.concatenate([[0], cut]).astype(np.int64) if len(order) else np.zeros(0, dtype=np.int64)
        ends = np.concatenate([cut, [len(order)]]).astype(np.int64) if len(order) else starts
        batches, kinds = [], []
        group_of = np.zeros(len(order), dtype=np.int64)
        for g, (lo, hi) in enumerate(zip(starts, ends)):
            index = order[lo:hi]
            kind = int(self.kind[index[0]])
            batches.append(self._batch(kind, index))
            kinds.append(kind)
            group_of[lo:hi] = g
        groups = Groups(batches, kinds, starts, order, ShapeTable(batches), group_of)
        self._cache, self._cache_key = groups, key
        return groups

    def colliding_pairs(self, groups=None):
        """Pairs of state indices whose shapes intersect: int64 array (k, 2), ``i < j``."""
        groups = self.shapes() if groups is None else groups
        if len(groups.order) < 2:
            return np.zeros((0, 2), dtype=np.int64)
        pairs = query_pairs(groups.table)
        pairs = np.sort(groups.order[pairs].T, axis=1)
        return pairs[np.lexsort((pairs[:, 1], pairs[:, 0]))]

    def pair_batches(self, groups, pairs):
        """Yield ``(rows, a, b)``: for each kind pair, the rows of ``pairs`` and the two batches.

        ``pairs`` holds state indices (k, 2); ``a[m]`` is shape ``pairs[rows[m], 0]``.
        """
        inverse = np.empty(len(groups.order), dtype=np.int64)
        inverse[groups.order] = np.arange(len(groups.order))
        ti, tj = inverse[pairs[:, 0]], inverse[pairs[:, 1]]
        gi, li = groups.local(ti)
        gj, lj = groups.local(tj)
        combo = gi * len(groups.batches) + gj
        for value in np.unique(combo):
            rows = np.flatnonzero(combo == value)
            a = groups.batches[int(gi[rows[0]])][li[rows]]
            b = groups.batches[int(gj[rows[0]])][lj[rows]]
            yield rows, a, b

    def contacts(self, groups, pairs):
        """Contact of every pair: dict of arrays ``separation`` (k,), ``normal``, ``point_a``,
        ``point_b`` (k, 2), ``curvature_a``, ``curvature_b`` (k,), from :func:`contact`."""
        k = len(pairs)
        out = {
            "separation": np.zeros(k),
            "normal": np.zeros((k, 2)),
            "point_a": np.zeros((k, 2)),
            "point_b": np.zeros((k, 2)),
            "curvature_a": np.zeros(k),
            "curvature_b": np.zeros(k),
        }
        if k == 0:
            return out
        for rows, a, b in self.pair_batches(groups, pairs):
            c = contact(a, b)
            for name in out:
                out[name][rows] = getattr(c, name)
        return out

    # motion -------------------------------------------------------------------------------------
    def mass_and_inertia(self):
        """Mass (area, density 1) and moment of inertia of each shape; boxes do not turn (inf)."""
        a, b = self.size[:, 0], self.size[:, 1]
        n = np.maximum(self.sides, 3)
        r = CORNER_RADIUS * np.minimum(a, b)  # a rounded box's corners
        capsule, rounded = self.kind == CAPSULE, self.kind == ROUNDED_BOX
        area = np.select(
            [self.kind <= CIRCLE, self.kind <= ROTATED_BOX, self.kind == POLYGON, capsule, rounded],
            [np.pi * a * b, 4 * a * b, 0.5 * n * a * b * np.sin(2 * np.pi / n), 4 * a * b + np.pi * b * b,
             4 * a * b + 4 * (a + b) * r + np.pi * r * r],  # Steiner: core area + perimeter r + pi r^2
            default=2 * a * 0.25 * self.scale,  # a segment: a thin rod
        )
        inertia = np.select(  # the capsule and the rounded box as their bounding rectangles (a demo's estimate)
            [self.kind <= CIRCLE, self.kind <= ROTATED_BOX, self.kind == POLYGON, capsule, rounded],
            [area * (a * a + b * b) / 4, area * (a * a + b * b) / 3, area * (a * a + b * b) / 4,
             area * ((a + b) ** 2 + b * b) / 3, area * ((a + r) ** 2 + (b + r) ** 2) / 3],
            default=area * a * a / 3,
        )
        inertia = np.where(self.kind == BOX, np.inf, inertia)
        return area, inertia

    def kinetic_energy(self):
        """Translational plus rotational kinetic energy (density 1)."""
        m, inertia = self.mass_and_inertia()
        turning = np.isfinite(inertia)
        spin = inertia[turning] * self.omega[turning] ** 2
        return float(0.5 * np.sum(m * np.sum(self.vel**2, axis=1)) + 0.5 * np.sum(spin))

    def step(self, dt=1 / 60, physics=None):
        """One frame without a window: find the colliding pairs, push (with ``physics``), move.

        Returns the colliding pairs found before the move (int64 (k, 2) state indices) and the
        elastic energy stored in their contacts (0 without physics).
        """
        groups = self.shapes()
        pairs = self.colliding_pairs(groups)
        force = torque = None
        energy = 0.0
        if physics is not None:
            force, torque, energy = physics.forces(self, pairs, self.contacts(groups, pairs))
        self.advance(dt, groups, force, torque, swept=physics is not None)
        if physics is not None:
            physics.cap(self)
        return pairs, energy

    def advance(self, dt, groups=None, force=None, torque=None, frozen=(), swept=False):
        """Move every shape by one step of ``dt`` seconds and bounce off the walls.

        ``groups`` (the shapes as they are now) supplies the bounds for the walls; ``force`` and
        ``torque`` (per shape) come from :class:`Physics`; ``frozen`` shapes (being dragged) stay.
        Semi-implicit Euler: velocities first, then positions. With ``swept`` (and ``groups``),
        shapes fast enough to pass through each other move only up to their first contact in the
        step, and take the forces' push only for that time (:meth:`first_contacts`).
        """
        if len(self) == 0:
            return
        kick = None
        if force is not None:
            m, inertia = self.mass_and_inertia()
            turning = np.isfinite(inertia)
            kick = (force * (dt / m)[:, None], np.where(turning, torque * dt / np.where(turning, inertia, 1.0), 0.0))
            self.vel += kick[0]
            self.omega += kick[1]
        if groups is not None and len(groups.order):
            bounds = np.empty((len(self), 4))
            bounds[groups.order] = groups.table.bounds
            room = np.array([self.width, self.height])
            below = bounds[:, :2] < 0.0
            above = bounds[:, 2:] > room
            # reflect only velocities that point further out; push back what is out (after a resize)
            self.vel = np.where((below & (self.vel < 0)) | (above & (self.vel > 0)), -self.vel, self.vel)
            fits = (bounds[:, 2:] - bounds[:, :2]) < room
            push = np.where(below, -bounds[:, :2], 0.0) + np.where(above, room - bounds[:, 2:], 0.0)
            self.pos += np.where(fits, push, 0.0)
        moving = np.ones(len(self), dtype=bool)
        moving[list(frozen)] = False
        step = np.full(len(self), dt)
        after, after_spin = self.vel, self.omega
        if swept and groups is not None:
            step, after, after_spin = self.first_contacts(dt, groups, frozen, kick=kick)
        self.pos[moving] += self.vel[moving] * step[moving, None]
        spin = moving & (self.kind != BOX)
        self.angle[spin] = np.mod(self.angle[spin] + self.omega[spin] * step[spin], 2 * np.pi)
        self.vel, self.omega = after, after_spin
        self.touch()

    def first_contacts(self, dt, groups, frozen=(), restitution=0.5, kick=None):
        """Time of each shape's first new contact within ``dt`` and the velocities and spins after it.

        :func:`collide2d.query_impacts` finds every pair that comes into contact during the step
        (shapes translating and turning at their current velocities). Taken in time order, each
        such contact between *fast* shapes (moving, relative to each other, more than the thinner
        one's thickness in the step: the pairs that could pass through each other) whose points
        close along the normal there (spins included) stops both shapes at its time (the rest of
        their step is dropped, as in Box2D v3's ``b2SolveContinuous``) and exchanges an impulse
        at that point which returns ``restitution`` of the closing speed, through the effective
        mass ``1 / (1/m_a + 1/m_b + (r_a x n)^2 / I_a + (r_b x n)^2 / I_b)`` of Box2D's contact
        solver (``r`` the lever arm from the shape's reference point to the contact point).
        Slower contacts, pairs overlapping at the start, and pairs that meet at a point where they
        do not close (a pair touching at the start and parting there) are left to the contact
        forces.

        ``kick`` is the change ``(velocity (n, 2), spin (n,))`` that this step's forces already
        made: a shape stopped at ``t`` keeps only ``t / dt`` of it. A force that went on pushing
        a shape through the part of the step in which it stands still would do work without a
        displacement: energy from nothing (a shape held at a contact found at the start of every
        step, as a turning pair gives, while a deep overlap with a third pushes it, gained the
        pair several times its kinetic energy in a few frames). Returns ``(time, velocity,
        spin)``: per shape, ``dt`` where it meets nothing.
        """
        n = len(self)
        time = np.full(n, float(dt))
        vel, omega = self.vel.copy(), self.omega.copy()
        kick = (np.zeros((n, 2)), np.zeros(n)) if kick is None else kick
        if len(groups.order) < 2:
            return time, vel, omega
        order = groups.order
        still = np.zeros(n, dtype=bool)
        still[list(frozen)] = True
        thick = np.where(self.kind == SEGMENT, 0.25 * self.scale, self.size.min(axis=1))
        thick = np.where(self.kind == CAPSULE, 2 * self.size[:, 1], thick)
        spin = np.where(still | (self.kind == BOX), 0.0, self.omega)
        swing = np.abs(spin) * np.hypot(*self.size.T) * dt  # farthest point's path length from turning
        speed = np.hypot(*self.vel.T)
        if 2 * (speed.max() * dt + swing.max()) <= thick.min():
            return time, vel, omega  # nothing moves fast enough to pass through anything
        moved = np.where(still[:, None], 0.0, self.vel)  # the velocities of the search, by state index
        turns = ~(still | (self.kind == BOX))
        velocity = moved[order]
        table = groups.table
        plain = ~np.isin(self.kind[order], ROUNDED_KINDS)
        if not plain.all():  # the motion search takes no rounded shapes yet: they are left to the forces
            order, velocity, spin = order[plain], velocity[plain], spin[order][plain]
            table = ShapeTable([batch for batch, kind in zip(groups.batches, groups.kinds) if kind not in ROUNDED_KINDS])
            if len(order) < 2:
                return time, vel, omega
        else:
            spin = spin[order]
        impacts = query_impacts(table, velocity, angular_velocity=spin, t_max=dt)
        mass, inertia = self.mass_and_inertia()
        inv_mass = np.where(still, 0.0, 1.0 / mass)
        inv_inertia = np.where(turns & np.isfinite(inertia), 1.0 / inertia, 0.0)
        for k in np.argsort(impacts.time, kind="stable"):
            t, normal = float(impacts.time[k]), impacts.normal[k]
            if not (t > 0.0 and np.all(np.isfinite(normal))):
                continue  # overlapping at the start: the forces' business
            a, b = int(order[impacts.pairs[0, k]]), int(order[impacts.pairs[1, k]])
            if np.hypot(*(vel[b] - vel[a])) * dt + swing[a] + swing[b] <= min(thick[a], thick[b]):
                continue  # too slow to pass through each other within a step: the forces handle it
            # velocities and spins at t: a shape not stopped yet keeps the forces' push until t only
            lost = {s: 1.0 - t / dt if time[s] == dt and not still[s] else 0.0 for s in (a, b)}
            v = {s: vel[s] - lost[s] * kick[0][s] for s in (a, b)}
            w = {s: omega[s] - lost[s] * kick[1][s] if turns[s] else 0.0 for s in (a, b)}
            # lever arms r from each shape's reference point (where it is at t) to the contact
            # point; a point's velocity is v + w x r, and (w x r) . n = w (r x n)
            ra = impacts.point[k] - (self.pos[a] + moved[a] * t)
            rb = impacts.point[k] - (self.pos[b] + moved[b] * t)
            arm_a = ra[0] * normal[1] - ra[1] * normal[0]
            arm_b = rb[0] * normal[1] - rb[1] * normal[0]
            closing = float((v[b] - v[a]) @ normal + w[b] * arm_b - w[a] * arm_a)
            effective = inv_mass[a] + inv_mass[b] + inv_inertia[a] * arm_a**2 + inv_inertia[b] * arm_b**2
            if not (closing < 0.0 and effective > 0.0):
                continue  # not closing at the contact point (a pair touching at the start, parting): no impact
            time[a], time[b] = min(time[a], t), min(time[b], t)
            impulse = -(1.0 + restitution) * closing / effective  # on b along n, on a along -n
            vel[a] = v[a] - impulse * inv_mass[a] * normal
            vel[b] = v[b] + impulse * inv_mass[b] * normal
            for s, push in ((a, -impulse * arm_a), (b, impulse * arm_b)):
                if turns[s]:
                    omega[s] = w[s] + push * inv_inertia[s]
        return time, vel, omega
