"""``collide2d demo``: a live window of moving, rotating shapes with their collisions outlined in red.

Ellipses (and a few circles, boxes, rotated boxes, polygons and segments) move and spin inside
the window and bounce off its walls. Every frame the shapes are rebuilt as batches from the state
arrays, :func:`collide2d.broadphase.query_pairs` finds the colliding pairs, and the shapes of those
pairs get a red outline. Overlays show what the library measures for the colliding pairs:
boundary intersection points, contact normals with the penetration depth, the overlap regions,
the bounding boxes and the broad-phase grid. In the physics mode the shapes push each other
apart with a Hertz-like force built from :func:`collide2d.measurement.contact` (penetration depth,
normal and the curvature of both boundaries at the contact), and every step stops shapes fast enough
to pass through each other at their first contact in that step (:func:`collide2d.query_impacts`). The bullets mode (``--bullets``, :class:`BulletsDemo`) fires fast small shapes
through thin walls and spinning needles and stops each at its first contact
(:func:`collide2d.time_of_impact`), drawing its swept path.

There is no geometry here: every collision answer comes from the public API.
The demo computes only what it needs to *draw* (outline points of each shape) and to *move*
(positions, velocities, masses).

Needs pygame-ce (``pip install 'collide2d[demo]'``); pygame is imported only when a window or
an off-screen surface is opened, so the simulation itself (:class:`World`, :class:`Physics`)
runs without it.

Keys and mouse (also shown with ``H``):

* drag a shape with the left button (release to throw it); wheel over a shape rotates it,
  ``Shift`` + wheel resizes it;
* right click adds an ellipse at the mouse; ``E`` ``C`` ``B`` ``R`` ``P`` ``S`` add an ellipse,
  circle, box, rotated box, polygon or segment there; ``X``, ``Delete`` or the middle button
  removes the shape under the mouse;
* ``Space`` pauses, ``.`` or ``Right`` advances one frame; ``F`` toggles the physics mode;
* ``1`` intersection points, ``2`` contact normals and depth, ``3`` overlap regions,
  ``4`` bounding boxes, ``5`` broad-phase grid; ``Esc`` or ``Q`` quits.

Examples
--------
>>> import numpy as np
>>> from collide2d.demo import World
>>> world = World.random(count=20, extras=1, seed=1)
>>> len(world), world.kind_counts()["ellipse"]
(25, 20)
>>> pairs, _ = world.step()  # one frame: the colliding pairs, then the move
>>> pairs.shape[1], bool(np.all(pairs[:, 0] < pairs[:, 1]))
(2, True)
>>> World.random(count=20, extras=1, seed=1, separated=True).colliding_pairs().shape
(0, 2)
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import sys
import threading
import time
import types
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from collide2d.broadphase import query_pairs
from collide2d.measurement import contact, distance
from collide2d.motion import query_impacts, time_of_impact
from collide2d.overlay import intersection_points, overlap_area
from collide2d.predicates import intersects_xy
from collide2d.shapes import Box, Circle, Ellipse, Point, Polygon, RotatedBox, Segment
from collide2d.table import ShapeTable

__all__ = ["Bullets", "BulletsDemo", "Demo", "Physics", "World", "add_arguments", "bullet_range", "main", "run_from_args"]

HELP = "a live pygame window: moving ellipses and other shapes, collisions outlined in red"
DESCRIPTION = (
    "Moving and rotating shapes bouncing in a window; every frame query_pairs finds the colliding "
    "pairs, outlined in red. Needs pygame-ce: pip install 'collide2d[demo]'. Press H in the window "
    "for the keys."
)

# -- kinds ----------------------------------------------------------------------------------------

ELLIPSE, CIRCLE, BOX, ROTATED_BOX, POLYGON, SEGMENT = range(6)
KIND_NAMES = ("ellipse", "circle", "box", "rotated box", "polygon", "segment")
ADD_KEYS = {"e": ELLIPSE, "c": CIRCLE, "b": BOX, "r": ROTATED_BOX, "p": POLYGON, "s": SEGMENT}
OVERLAYS = ("points", "normals", "overlap", "bounds", "grid")  # keys 1 .. 5

# -- colours (RGB). RED is used for nothing but the outline of colliding shapes. ------------------

RED = (230, 20, 20)
BACKGROUND = (248, 248, 244)
OUTLINE = (60, 72, 96)
FILLS = {
    ELLIPSE: (158, 202, 225),
    CIRCLE: (161, 217, 155),
    BOX: (253, 208, 162),
    ROTATED_BOX: (252, 187, 161),
    POLYGON: (218, 218, 235),
    SEGMENT: (60, 72, 96),
}
SELECTED = (33, 113, 181)
POINT_COLOR = (255, 150, 0)
NORMAL_COLOR = (0, 140, 70)
DEPTH_COLOR = (150, 40, 170)
OVERLAP_COLOR = np.array([120, 60, 200], dtype=np.float64)
BOUNDS_COLOR = (150, 150, 150)
GRID_COLOR = (222, 222, 214)
TEXT_COLOR = (20, 20, 20)
TEXT_BAND_ALPHA = 170  # opacity (of 255) of the band behind the text


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
    and 0) and ``sides`` (polygon vertex count, else 0). Edit them freely; :meth:`shapes`
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
        total = max(count + 5 * extras, 1)
        world.scale = float(np.clip(math.sqrt(coverage * width * height / (total * math.pi * 0.9)), 3.0, 60.0))
        rng = np.random.default_rng(seed)
        for _ in range(count):
            world.add_random(ELLIPSE, rng, speed=speed)
        for kind in (CIRCLE, BOX, ROTATED_BOX, POLYGON, SEGMENT):
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
        half = size[:, :1] * np.stack([np.cos(angle), np.sin(angle)], axis=-1)
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
        area = np.select(
            [self.kind <= CIRCLE, self.kind <= ROTATED_BOX, self.kind == POLYGON],
            [np.pi * a * b, 4 * a * b, 0.5 * n * a * b * np.sin(2 * np.pi / n)],
            default=2 * a * 0.25 * self.scale,  # a segment: a thin rod
        )
        inertia = np.select(
            [self.kind <= CIRCLE, self.kind <= ROTATED_BOX, self.kind == POLYGON],
            [area * (a * a + b * b) / 4, area * (a * a + b * b) / 3, area * (a * a + b * b) / 4],
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
        step (:meth:`first_contacts`).
        """
        if len(self) == 0:
            return
        if force is not None:
            m, inertia = self.mass_and_inertia()
            self.vel += force * (dt / m)[:, None]
            turning = np.isfinite(inertia)
            self.omega += np.where(turning, torque * dt / np.where(turning, inertia, 1.0), 0.0)
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
        after = self.vel
        if swept and groups is not None:
            step, after = self.first_contacts(dt, groups, frozen)
        self.pos[moving] += self.vel[moving] * step[moving, None]
        spin = moving & (self.kind != BOX)
        self.angle[spin] = np.mod(self.angle[spin] + self.omega[spin] * step[spin], 2 * np.pi)
        self.vel = after
        self.touch()

    def first_contacts(self, dt, groups, frozen=(), restitution=0.5):
        """Time of each shape's first new contact within ``dt`` and the velocities after it.

        :func:`collide2d.query_impacts` finds every pair that comes into contact during the step
        (shapes translating and turning at their current velocities). Taken in time order, each
        such contact between *fast* shapes (moving, relative to each other, more than the thinner
        one's thickness in the step: the pairs that could pass through each other) stops both shapes
        at its time (the rest of their step is dropped) and exchanges an impulse along the
        contact normal (``restitution`` of the closing speed is returned). Slower contacts, and
        pairs already touching at the start, are left to the contact forces. Returns
        ``(time, velocity)``: per shape, ``dt`` where it meets nothing.
        """
        n = len(self)
        time = np.full(n, float(dt))
        vel = self.vel.copy()
        if len(groups.order) < 2:
            return time, vel
        order = groups.order
        still = np.zeros(n, dtype=bool)
        still[list(frozen)] = True
        thick = np.where(self.kind == SEGMENT, 0.25 * self.scale, self.size.min(axis=1))
        spin = np.where(still | (self.kind == BOX), 0.0, self.omega)
        swing = np.abs(spin) * np.hypot(*self.size.T) * dt  # farthest point's path length from turning
        speed = np.hypot(*self.vel.T)
        if 2 * (speed.max() * dt + swing.max()) <= thick.min():
            return time, vel  # nothing moves fast enough to pass through anything
        velocity = np.where(still[:, None], 0.0, self.vel)[order]
        impacts = query_impacts(groups.table, velocity, angular_velocity=spin[order], t_max=dt)
        mass, _ = self.mass_and_inertia()
        mass = np.where(still, np.inf, mass)
        for k in np.argsort(impacts.time, kind="stable"):
            t = float(impacts.time[k])
            if not t > 0.0:
                continue
            a, b = int(order[impacts.pairs[0, k]]), int(order[impacts.pairs[1, k]])
            if np.hypot(*(vel[b] - vel[a])) * dt + swing[a] + swing[b] <= min(thick[a], thick[b]):
                continue  # too slow to pass through each other within a step: the forces handle it
            time[a], time[b] = min(time[a], t), min(time[b], t)
            normal = impacts.normal[k]
            closing = float((vel[b] - vel[a]) @ normal)
            if closing < 0.0 and np.all(np.isfinite(normal)):
                impulse = -(1.0 + restitution) * closing / (1.0 / mass[a] + 1.0 / mass[b])
                vel[a] -= impulse / mass[a] * normal
                vel[b] += impulse / mass[b] * normal
        return time, vel


# -- physics --------------------------------------------------------------------------------------


def hertz(depth, radius, stiffness):
    """Hertz's normal force between elastic bodies: ``stiffness * sqrt(radius) * depth**1.5``.

    ``radius`` is the effective radius ``1 / (curvature_a + curvature_b)`` at the contact.
    """
    return stiffness * np.sqrt(radius) * depth**1.5


@dataclass
class Physics:
    """Soft contact between overlapping shapes, from :func:`collide2d.measurement.contact`.

    For each colliding pair the force on ``b`` is ``F n`` and on ``a`` ``-F n``, applied at the
    middle of the two witness points, with ``F = max(law(d, R) - damping * m_ab * v_n, 0)``:
    ``d`` the penetration depth (``-separation``, capped at ``max_depth`` times the smaller
    shape's size so that shapes dropped deep into each other part gently), ``n`` the normal, ``R`` the effective radius
    ``1 / (curvature_a + curvature_b)`` (clipped to ``[0.2, 2]`` times the smaller shape's size,
    so that corners (infinite curvature) and flat faces (zero) still push), ``m_ab`` the reduced
    mass and ``v_n`` the normal speed at which the pair closes. The dashpot keeps the energy
    bounded: collisions lose a little, never gain. As a last guard, speeds are capped at
    ``max_speed`` times the world's size scale per second.
    """

    stiffness: float = 0.0  # 0: chosen from the world's scale
    damping: float = 1.5  # 1/s
    max_speed: float = 40.0  # in world.scale per second
    max_depth: float = 0.25  # depths beyond this fraction of the smaller size push no harder
    law: object = hertz

    def forces(self, world, pairs, contacts, frozen=()):
        """Per-shape forces (n, 2), torques (n,) and the elastic energy stored in the contacts."""
        n = len(world)
        force, torque = np.zeros((n, 2)), np.zeros(n)
        if len(pairs) == 0:
            return force, torque, 0.0
        stiffness = self.stiffness or 4000.0 * world.scale
        m, inertia = world.mass_and_inertia()
        m = m.copy()
        m[list(frozen)] = np.inf
        i, j = pairs[:, 0], pairs[:, 1]
        depth = np.maximum(-contacts["separation"], 0.0)
        char = np.sqrt(np.maximum(world.size[:, 0] * np.maximum(world.size[:, 1], 0.25 * world.scale), 1e-12))
        small = np.minimum(char[i], char[j])
        with np.errstate(divide="ignore"):
            radius = 1.0 / (contacts["curvature_a"] + contacts["curvature_b"])
        radius = np.clip(np.nan_to_num(radius, nan=small, posinf=2 * small), 0.2 * small, 2 * small)
        depth = np.minimum(depth, self.max_depth * small)  # a bounded push however deep the overlap
        normal = contacts["normal"]
        point = 0.5 * (contacts["point_a"] + contacts["point_b"])
        ra, rb = point - world.pos[i], point - world.pos[j]
        omega = np.where(world.kind == BOX, 0.0, world.omega)
        va = world.vel[i] + omega[i, None] * np.stack([-ra[:, 1], ra[:, 0]], axis=-1)
        vb = world.vel[j] + omega[j, None] * np.stack([-rb[:, 1], rb[:, 0]], axis=-1)
        closing = np.sum((vb - va) * normal, axis=1)  # negative when they approach
        with np.errstate(invalid="ignore"):
            reduced = np.where(np.isinf(m[i]), m[j], np.where(np.isinf(m[j]), m[i], m[i] * m[j] / (m[i] + m[j])))
        magnitude = np.maximum(self.law(depth, radius, stiffness) - self.damping * reduced * closing, 0.0)
        fb = magnitude[:, None] * normal
        np.add.at(force, j, fb)
        np.add.at(force, i, -fb)
        np.add.at(torque, j, rb[:, 0] * fb[:, 1] - rb[:, 1] * fb[:, 0])
        np.add.at(torque, i, -(ra[:, 0] * fb[:, 1] - ra[:, 1] * fb[:, 0]))
        energy = float(np.sum(0.4 * stiffness * np.sqrt(radius) * depth**2.5))
        return force, torque, energy

    def cap(self, world):
        """Cap speeds at ``max_speed * world.scale`` (and spins at 20 rad/s)."""
        limit = self.max_speed * world.scale
        speed = np.linalg.norm(world.vel, axis=1)
        too_fast = speed > limit
        world.vel[too_fast] *= (limit / speed[too_fast])[:, None]
        np.clip(world.omega, -20.0, 20.0, out=world.omega)


# -- the interactive demo -------------------------------------------------------------------------


def _import_pygame(headless):
    """Import pygame-ce, with SDL's dummy drivers when headless; raise ImportError with the fix."""
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    try:
        import pygame
    except ImportError as error:  # pragma: no cover - depends on the environment
        raise ImportError("collide2d demo needs pygame-ce: pip install 'collide2d[demo]'") from error
    return pygame


@dataclass
class Timing:
    """Per-phase times (wall clock and this thread's CPU time), in seconds: totals since the
    start, and each of the last ``window`` frames for a moving average."""

    phases: tuple = ("sim", "shapes", "query", "measure", "draw")
    wall: dict = field(default_factory=dict)
    cpu: dict = field(default_factory=dict)
    frames: int = 0
    window: int = 60

    def __post_init__(self):
        for name in self.phases:
            self.wall.setdefault(name, 0.0)
            self.cpu.setdefault(name, 0.0)
        self._frame = {"wall": dict.fromkeys(self.phases, 0.0), "cpu": dict.fromkeys(self.phases, 0.0)}
        self._recent = {"wall": deque(maxlen=self.window), "cpu": deque(maxlen=self.window)}

    def add(self, name, wall, cpu):
        self.wall[name] += wall
        self.cpu[name] += cpu
        self._frame["wall"][name] += wall
        self._frame["cpu"][name] += cpu

    def end_frame(self):
        """Close the current frame: count it and keep its times for :meth:`recent_ms`."""
        self.frames += 1
        for which, times in self._frame.items():
            self._recent[which].append([times[name] for name in self.phases])
            self._frame[which] = dict.fromkeys(self.phases, 0.0)

    def per_frame_ms(self, which="cpu"):
        """Milliseconds per frame of each phase, averaged over every frame since the start."""
        values = self.cpu if which == "cpu" else self.wall
        return {name: 1e3 * values[name] / max(self.frames, 1) for name in self.phases}

    def recent_ms(self, which="cpu"):
        """Milliseconds per frame of each phase, averaged over the last ``window`` frames (a moving average)."""
        recent = self._recent[which]
        mean = np.mean(recent, axis=0) if recent else np.zeros(len(self.phases))
        return {name: 1e3 * float(value) for name, value in zip(self.phases, mean)}


class _Clock:
    def __init__(self, timing):
        self.timing = timing

    def __call__(self, name):
        return _Phase(self.timing, name)


class _Phase:
    def __init__(self, timing, name):
        self.timing, self.name = timing, name

    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.thread_time()

    def __exit__(self, *exc):
        self.timing.add(self.name, time.perf_counter() - self.wall, time.thread_time() - self.cpu)


class Demo:
    """The window (or off-screen surface) and its event handling; one :meth:`frame` at a time.

    Parameters
    ----------
    world : World
    headless : bool
        Use SDL's dummy video driver (no window); everything else is the same.
    physics : bool
        Start in the physics mode.
    overlays : iterable of str
        Overlays shown from the start, out of :data:`OVERLAYS`.
    dt : float
        Simulated seconds per frame (a fixed step, whatever the frame rate).
    seed : int
        Seed of the generator of shapes added with the keys.
    """

    def __init__(self, world, *, headless=False, physics=False, overlays=(), dt=1 / 60, seed=0):
        self.pg = pygame = _import_pygame(headless)
        pygame.display.init()
        pygame.font.init()
        self.world = world
        self.surface = pygame.display.set_mode((int(world.width), int(world.height)))
        pygame.display.set_caption("collide2d demo")
        self.font = pygame.font.Font(None, 20)
        self.small_font = pygame.font.Font(None, 16)
        self.physics = Physics() if physics else None
        self._physics_settings = Physics()
        self.overlays = set(overlays)
        unknown = self.overlays - set(OVERLAYS)
        if unknown:
            raise ValueError(f"overlays must be among {', '.join(OVERLAYS)}; got {', '.join(sorted(unknown))}")
        self.dt = float(dt)
        self.rng = np.random.default_rng(seed + 1)
        self.paused = False
        self.step_once = False
        self.show_help = False
        self.running = True
        self.mouse = (0.0, 0.0)  # screen pixels
        self.shift = False
        self.dragging = None
        self.drag_offset = np.zeros(2)
        self.drag_moved = np.zeros(2)
        self.timing = Timing()
        self.clock = _Clock(self.timing)
        self.pairs = np.zeros((0, 2), dtype=np.int64)
        self.colliding = np.zeros(0, dtype=bool)
        self.elastic_energy = 0.0
        self.overlap_total = 0.0
        self.fps = 0.0
        self._last = None

    def warm_up_in_view(self, measures=True):
        """:meth:`World.warm_up` in a thread while the window says what it is waiting for.

        The window is open and answers from the first second (closing it stops the demo) instead
        of staying blank while the kernels compile on a first run; the compiled code is the same.
        Returns the seconds spent, or as soon as the window is closed.
        """
        outcome = {}

        def work():
            try:
                outcome["seconds"] = self.world.warm_up(measures=measures)
            except BaseException as error:  # raised again in the window's thread, below
                outcome["error"] = error

        worker = threading.Thread(target=work, name="collide2d-demo-warm-up", daemon=True)
        start = time.perf_counter()
        worker.start()
        pg = self.pg
        while worker.is_alive() and self.running:
            for event in pg.event.get():
                if event.type == pg.QUIT:
                    self.running = False
            waited = time.perf_counter() - start
            self.surface.fill(BACKGROUND)
            label = self.font.render(
                f"compiling collide2d's kernels for the demo ({waited:.0f} s; first run only, cached on disk)",
                True, TEXT_COLOR,
            )
            self.surface.blit(label, label.get_rect(center=(self.surface.get_width() // 2, self.surface.get_height() // 2)))
            pg.display.flip()
            worker.join(0.1)
        if "error" in outcome:
            raise outcome["error"]
        return outcome.get("seconds", time.perf_counter() - start)

    # coordinates --------------------------------------------------------------------------------
    def to_world(self, xy):
        return np.array([float(xy[0]), self.world.height - float(xy[1])])

    def to_screen(self, xy):
        xy = np.asarray(xy, dtype=np.float64)
        return np.stack([xy[..., 0], self.world.height - xy[..., 1]], axis=-1)

    # events -------------------------------------------------------------------------------------
    def shape_at(self, screen_xy, tolerance=3.0):
        """State index of the topmost shape within ``tolerance`` pixels of a screen point, or None."""
        if len(self.world) == 0:
            return None
        groups = self.world.shapes()
        point = Point(self.to_world(screen_xy))
        near = []
        for g, batch in enumerate(groups.batches):
            d = np.atleast_1d(distance(batch, point))
            hit = np.flatnonzero(d <= tolerance)
            near.extend((groups.starts[g] + hit).tolist())
        if not near:
            return None
        return int(groups.order[max(near)])  # drawn last, so on top

    def handle(self, event):
        """Apply one pygame event."""
        pg = self.pg
        if event.type == pg.QUIT:
            self.running = False
        elif event.type == pg.KEYDOWN:
            self._key(event)
        elif event.type == pg.KEYUP and event.key in (pg.K_LSHIFT, pg.K_RSHIFT):
            self.shift = False
        elif event.type == pg.MOUSEMOTION:
            self._motion(event.pos)
        elif event.type == pg.MOUSEBUTTONDOWN:
            self.mouse = tuple(event.pos)
            if event.button == 1:
                index = self.shape_at(event.pos)
                if index is not None:
                    self.dragging = index
                    self.drag_offset = self.world.pos[index] - self.to_world(event.pos)
                    self.drag_moved = np.zeros(2)
            elif event.button == 3:
                self.add_shape(ELLIPSE)
            elif event.button == 2:
                self.remove_shape()
        elif event.type == pg.MOUSEBUTTONUP and event.button == 1:
            self.dragging = None
        elif event.type == pg.MOUSEWHEEL:
            self._wheel(event.y)

    def _key(self, event):
        pg = self.pg
        key = event.key
        if key in (pg.K_LSHIFT, pg.K_RSHIFT):
            self.shift = True
        elif key in (pg.K_ESCAPE, pg.K_q):
            self.running = False
        elif key == pg.K_SPACE:
            self.paused = not self.paused
        elif key in (pg.K_PERIOD, pg.K_RIGHT):
            self.paused = True
            self.step_once = True
        elif key == pg.K_f:
            self.physics = None if self.physics else self._physics_settings
        elif key == pg.K_h:
            self.show_help = not self.show_help
        elif key in (pg.K_x, pg.K_DELETE, pg.K_BACKSPACE):
            self.remove_shape()
        elif pg.K_1 <= key <= pg.K_5:
            self.overlays ^= {OVERLAYS[key - pg.K_1]}
        else:
            name = pg.key.name(key)
            if name in ADD_KEYS:
                self.add_shape(ADD_KEYS[name])

    def _motion(self, pos):
        self.mouse = tuple(pos)
        if self.dragging is not None:
            new = self.to_world(pos) + self.drag_offset
            self.drag_moved += new - self.world.pos[self.dragging]
            self.world.pos[self.dragging] = new
            self.world.touch()

    def _wheel(self, notches):
        index = self.dragging if self.dragging is not None else self.shape_at(self.mouse)
        if index is None or notches == 0:
            return
        world = self.world
        if self.shift or (self.pg.key.get_mods() & self.pg.KMOD_SHIFT):
            world.size[index] *= 1.1 ** float(notches)
        else:
            if world.kind[index] == BOX:  # an axis-aligned box turns into a rotated box
                world.kind[index] = ROTATED_BOX
            world.angle[index] = (world.angle[index] + 0.12 * notches) % (2 * np.pi)
        world.touch()

    def add_shape(self, kind):
        """Add a random shape of ``kind`` at the mouse; return its index."""
        return self.world.add_random(kind, self.rng, pos=self.to_world(self.mouse))

    def remove_shape(self):
        """Remove the shape under the mouse, if any."""
        index = self.shape_at(self.mouse)
        if index is None:
            return
        if self.dragging == index:
            self.dragging = None
        elif self.dragging is not None and self.dragging > index:
            self.dragging -= 1
        self.world.remove(index)

    # one frame ----------------------------------------------------------------------------------
    def frame(self, events=None):
        """Handle the events (pygame's queue by default), find the collisions, draw, advance."""
        for event in self.pg.event.get() if events is None else events:
            self.handle(event)
        world = self.world
        clock = self.clock
        with clock("shapes"):
            groups = world.shapes()
        with clock("query"):
            self.pairs = world.colliding_pairs(groups)
            self.colliding = np.zeros(len(world), dtype=bool)
            self.colliding[self.pairs.ravel()] = True
        with clock("measure"):
            need_contacts = self.physics is not None or "normals" in self.overlays
            contacts = world.contacts(groups, self.pairs) if need_contacts else None
        with clock("draw"):
            self.draw(groups, contacts)
        with clock("sim"):
            if not self.paused or self.step_once:
                frozen = () if self.dragging is None else (self.dragging,)
                force = torque = None
                if self.physics is not None:
                    force, torque, self.elastic_energy = self.physics.forces(world, self.pairs, contacts, frozen)
                if self.dragging is not None:  # a thrown shape keeps the mouse's velocity
                    world.vel[self.dragging] = self.drag_moved / self.dt
                    self.drag_moved = np.zeros(2)
                world.advance(self.dt, groups, force, torque, frozen, swept=self.physics is not None)
                if self.physics is not None:
                    self.physics.cap(world)
                self.step_once = False
        self._end_frame()

    def _end_frame(self):
        """Close the frame: its phase times, and the frame rate (a moving average of the wall-clock
        rate between consecutive frames)."""
        self.timing.end_frame()
        now = time.perf_counter()
        if self._last is not None:
            rate = 1.0 / max(now - self._last, 1e-9)
            self.fps = rate if self.fps == 0.0 else 0.9 * self.fps + 0.1 * rate
        self._last = now

    # drawing ------------------------------------------------------------------------------------
    def outlines(self, groups):
        """Screen outline points per group: a list of (state indices, points (m, k, 2))."""
        world = self.world
        out = []
        for g, kind in enumerate(groups.kinds):
            lo = groups.starts[g]
            hi = groups.starts[g + 1] if g + 1 < len(groups.starts) else len(groups.order)
            index = groups.order[lo:hi]
            pos, size, angle = world.pos[index], world.size[index], world.angle[index]
            c, s = np.cos(angle)[:, None], np.sin(angle)[:, None]
            if kind in (ELLIPSE, CIRCLE):
                k = int(np.clip(2 * np.pi * size.max() / 6, 16, 64))
                t = np.linspace(0, 2 * np.pi, k, endpoint=False)
                lx, ly = size[:, :1] * np.cos(t), size[:, 1:] * np.sin(t)
            elif kind in (BOX, ROTATED_BOX):
                sx, sy = np.array([-1.0, 1.0, 1.0, -1.0]), np.array([-1.0, -1.0, 1.0, 1.0])
                lx, ly = size[:, :1] * sx, size[:, 1:] * sy
            elif kind == POLYGON:
                out.append((index, self.to_screen(world.polygon_vertices(index))))
                continue
            else:
                lx, ly = size[:, :1] * np.array([-1.0, 1.0]), np.zeros((len(index), 2))
            x = pos[:, :1] + c * lx - s * ly
            y = pos[:, 1:] + s * lx + c * ly
            out.append((index, self.to_screen(np.stack([x, y], axis=-1))))
        return out

    def draw(self, groups, contacts):
        pg = self.pg
        surface = self.surface
        surface.fill(BACKGROUND)
        if "grid" in self.overlays:
            self._draw_grid(groups)
        outlines = [(index, points.tolist()) for index, points in self.outlines(groups)]
        kinds = self.world.kind
        for index, polygons in outlines:
            if kinds[index[0]] == SEGMENT:
                continue
            fill = FILLS[int(kinds[index[0]])]
            for points in polygons:
                pg.draw.polygon(surface, fill, points)
        if "overlap" in self.overlays:
            self._draw_overlap(groups)
        if "bounds" in self.overlays and len(groups.order):
            for b in groups.table.bounds:
                rect = pg.Rect(int(b[0]), int(self.world.height - b[3]), int(b[2] - b[0]) + 1, int(b[3] - b[1]) + 1)
                pg.draw.rect(surface, BOUNDS_COLOR, rect, 1)
        red = []
        for index, polygons in outlines:
            segment = kinds[index[0]] == SEGMENT
            for i, points in zip(index.tolist(), polygons):
                if self.colliding[i]:
                    red.append((segment, points))
                elif segment:
                    pg.draw.line(surface, FILLS[SEGMENT], points[0], points[1], 3)
                else:
                    pg.draw.lines(surface, OUTLINE, True, points)
        for segment, points in red:
            if segment:
                pg.draw.line(surface, RED, points[0], points[1], 3)
            else:
                pg.draw.polygon(surface, RED, points, 2)
        if self.dragging is not None:
            for index, polygons in outlines:
                hit = np.flatnonzero(index == self.dragging)
                if hit.size:
                    points = polygons[int(hit[0])]
                    pg.draw.lines(surface, SELECTED, len(points) > 2, points, 1)
        if "points" in self.overlays:
            self._draw_points(groups)
        if "normals" in self.overlays and contacts is not None:
            self._draw_normals(contacts)
        self._draw_text()

    def _draw_grid(self, groups):
        """The cells of the grid broad phase: about the largest bounding-box extent, from the
        scene's lower-left bound (see :func:`collide2d.broadphase.query_pairs`)."""
        if not len(groups.order):
            return
        b = groups.table.bounds
        cell = float(np.max(np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])))
        if not cell > 1.0:
            return
        x0, y0 = float(b[:, 0].min()), float(b[:, 1].min())
        width, height = self.world.width, self.world.height
        for x in np.arange(x0, width, cell):
            self.pg.draw.line(self.surface, GRID_COLOR, (x, 0), (x, height))
        for y in np.arange(y0, height, cell):
            self.pg.draw.line(self.surface, GRID_COLOR, (0, height - y), (width, height - y))

    def _draw_overlap(self, groups):
        """Shade the pixels in both (closed) shapes of a colliding pair (:func:`intersects_xy`)."""
        if not len(self.pairs):
            return
        world = self.world
        bounds = np.empty((len(world), 4))
        bounds[groups.order] = groups.table.bounds
        i, j = self.pairs[:, 0], self.pairs[:, 1]
        lo = np.floor(np.maximum(bounds[i, :2], bounds[j, :2]))
        hi = np.ceil(np.minimum(bounds[i, 2:], bounds[j, 2:]))
        lo = np.clip(lo, 0, [world.width - 1, world.height - 1])
        hi = np.clip(hi, 0, [world.width - 1, world.height - 1])
        extent = np.maximum(hi - lo + 1, 0).astype(np.int64)
        total = int(np.sum(extent[:, 0] * extent[:, 1]))
        step = 1 if total <= 20_000 else int(math.ceil(math.sqrt(total / 20_000)))
        nx, ny = -(-extent[:, 0] // step), -(-extent[:, 1] // step)
        counts = nx * ny
        if counts.sum() == 0:
            return
        # one sample per pixel (per step x step block in a crowded scene) of the intersection of
        # the two bounding boxes, kept where both shapes contain it
        pair = np.repeat(np.arange(len(i)), counts)
        local = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        xy = lo[pair] + step * np.stack([local % nx[pair], local // nx[pair]], axis=-1) + 0.5
        inside = np.zeros(len(xy), dtype=bool)
        areas = np.zeros(len(i))
        first = np.cumsum(counts) - counts
        for rows, a, b in world.pair_batches(groups, self.pairs):
            areas[rows] = np.atleast_1d(overlap_area(a, b))
            sub = np.concatenate([np.arange(first[r], first[r] + counts[r]) for r in rows])
            where = np.repeat(np.arange(len(rows)), counts[rows])
            inside[sub] = intersects_xy(a[where], xy[sub]) & intersects_xy(b[where], xy[sub])
        self.overlap_total = float(areas.sum())
        if not inside.any():
            return
        px = xy[inside].astype(np.int64)
        sx, sy = px[:, 0], (world.height - 1 - px[:, 1]).astype(np.int64)
        pixels = self.pg.surfarray.pixels3d(self.surface)
        for dx in range(step):
            for dy in range(step):
                x, y = np.minimum(sx + dx, pixels.shape[0] - 1), np.clip(sy - dy, 0, pixels.shape[1] - 1)
                pixels[x, y] = (0.45 * pixels[x, y] + 0.55 * OVERLAP_COLOR).astype(np.uint8)
        del pixels

    def _draw_points(self, groups):
        if not len(self.pairs):
            return
        for rows, a, b in self.world.pair_batches(groups, self.pairs):
            points, count = intersection_points(a, b)
            valid = np.arange(points.shape[-2]) < count[..., None]
            for p in self.to_screen(points[valid]).tolist():
                self.pg.draw.circle(self.surface, POINT_COLOR, p, 4)
                self.pg.draw.circle(self.surface, OUTLINE, p, 4, 1)

    def _draw_normals(self, contacts, labels=24):
        depth = -contacts["separation"]
        a = self.to_screen(contacts["point_a"])
        b = self.to_screen(contacts["point_b"])
        tip = self.to_screen(contacts["point_a"] + 14.0 * contacts["normal"])
        for k in range(len(depth)):
            self.pg.draw.line(self.surface, NORMAL_COLOR, a[k], tip[k], 2)
            self.pg.draw.line(self.surface, DEPTH_COLOR, a[k], b[k], 2)
        for k in np.argsort(-depth)[:labels]:
            text = self.small_font.render(f"{depth[k]:.1f}", True, DEPTH_COLOR)
            self.surface.blit(text, (tip[k][0] + 2, tip[k][1] - 6))

    def counts(self):
        """What the status line and the headless report count: the shapes and the colliding pairs."""
        return [f"{len(self.world)} shapes", f"{len(self.pairs)} colliding pairs"]

    def status_rows(self):
        """The rows of the status band: the rate and counts, then the CPU time per phase (and help)."""
        ms = self.timing.recent_ms("cpu")
        first = [f"{self.fps:5.1f} fps", *self.counts()]
        if self.physics is not None:
            first.append(f"physics (kinetic energy {self.world.kinetic_energy():.3g})")
        if self.paused:
            first.append("paused")
        split = "  ".join(f"{name} {value:.1f}" for name, value in ms.items())
        second = [f"cpu ms/frame (last {len(self.timing._recent['cpu'])} frames): {split}"]
        if self.overlays:
            second.append("overlays: " + ", ".join(name for name in OVERLAYS if name in self.overlays))
        if "overlap" in self.overlays and len(self.pairs):
            second.append(f"overlap area {self.overlap_total:.0f} px^2")
        rows = ["  |  ".join(first) + "   (H: help)", "  |  ".join(second)]
        if self.show_help:
            rows.extend(HELP_LINES)
        return rows

    def _draw_text(self):
        texts = [self.font.render(row, True, TEXT_COLOR) for row in self.status_rows()]  # no background of their own
        width = max(text.get_width() for text in texts) + 12
        band = self.pg.Surface((min(width, self.surface.get_width()), 8 + 17 * len(texts)), self.pg.SRCALPHA)
        band.fill((*BACKGROUND, TEXT_BAND_ALPHA))  # translucent: the shapes beneath stay visible
        self.surface.blit(band, (0, 0))
        for k, text in enumerate(texts):
            self.surface.blit(text, (6, 6 + 17 * k))

    def screenshot(self, path):
        """Save the current frame as an image (PNG by the extension)."""
        self.pg.image.save(self.surface, os.fspath(path))

    def close(self):
        self.pg.display.quit()


HELP_LINES = (
    "left drag: move (release to throw)   wheel: rotate   shift + wheel: resize",
    "right click: add an ellipse   E C B R P S: add ellipse, circle, box, rotated box, polygon, segment",
    "X / Delete / middle click: remove the shape under the mouse",
    "Space: pause   . or Right: one frame   F: physics mode on/off",
    "1 intersection points   2 contact normals + depth   3 overlap regions   4 bounding boxes   5 broad-phase grid",
    "Esc / Q: quit",
)


# -- bullets: fast small shapes stopped at their first contact ----------------------------------------

TRAIL_COLOR = (150, 170, 200)
GHOST_COLOR = (190, 200, 220)
STUCK_COLOR = (230, 120, 20)
BULLET_KINDS = (CIRCLE, ELLIPSE, BOX, ROTATED_BOX)


def bullet_range(width=900.0, height=560.0):
    """Obstacles for the bullets mode: thin walls (rotated boxes 2 px thick, with gaps), spinning
    needles (ellipses of semi-axes 60 and 0.8 px, and segments) and a full wall at the far end.

    Shapes that a bullet of 40-70 px per frame would jump over if only the frames were tested.
    Laid out for 900 x 560 and stretched to ``width`` x ``height``.
    """
    world = World(width, height)
    world.scale = 10.0
    w, h = width / 900.0, height
    for x, y0, y1, angle in ((300, 0.04, 0.30, 0.0), (300, 0.45, 0.55, 0.0), (300, 0.70, 0.96, 0.0),
                             (520, 0.30, 0.70, 0.25), (720, 0.02, 0.40, -0.15), (720, 0.60, 0.98, 0.1)):
        world.add(ROTATED_BOX, (x * w, h * (y0 + y1) / 2), (1.0, h * (y1 - y0) / 2), angle=angle)
    world.add(ROTATED_BOX, (width - 20, h / 2), (1.0, 0.48 * h), angle=0.0)
    for (x, y), omega in (((400, 0.36), 3.0), ((400, 0.64), -4.0), ((620, 0.5), 5.0)):
        world.add(ELLIPSE, (x * w, y * h), (60.0, 0.8), angle=0.5, omega=omega)
    for (x, y), omega in (((600, 0.16), 2.5), ((600, 0.84), -2.0)):
        world.add(SEGMENT, (x * w, y * h), (60.0, 0.0), angle=1.0, omega=omega)
    return world


class Bullets:
    """Fast small shapes fired at the obstacles of a :class:`World`, each stopped at its first
    contact by :func:`collide2d.time_of_impact`: no bullet passes through a wall or a needle, however
    thin, whatever its speed.

    Every step, each flying bullet is swept against every obstacle over the step (bullets
    translate, some spin; needles spin): the earliest contact time stops it there, touching the
    obstacle, and from then on it stays stuck to that obstacle (it turns with it). ``hits``
    records each stop: ``(bullet, obstacle, time, point, normal, missed_by_frames)``, the last
    flag telling whether testing the two shapes only at the end of the step (as a frame-by-frame
    check does) would have missed the contact (the bullet would have tunnelled).

    Examples
    --------
    >>> from collide2d.demo import Bullets, bullet_range
    >>> gun = Bullets(bullet_range(), seed=1)
    >>> gun.fire(count=8)
    >>> for _ in range(20):
    ...     gun.step(1 / 60)
    >>> len(gun.hits) > 0 and bool(gun.flying.sum() < 8)
    True
    """

    def __init__(self, world, *, muzzle=None, speed=(2400.0, 4200.0), spread=0.6, seed=0, limit=400):
        self.world = world
        self.shots = World(world.width, world.height)
        self.muzzle = np.array([40.0, world.height / 2] if muzzle is None else muzzle, dtype=np.float64)
        self.speed = speed
        self.spread = float(spread)
        self.rng = np.random.default_rng(seed)
        self.limit = int(limit)
        self.start = np.zeros((0, 2))
        self.flying = np.zeros(0, dtype=bool)
        self.stuck_to = np.zeros(0, dtype=np.int64)  # obstacle index, -1 while flying or gone
        self.local = np.zeros((0, 3))  # pose in the obstacle's frame: x, y, angle
        self.trails = []  # per bullet: positions at the start of each step, then the last one
        self.hits = []

    def fire(self, count=1, target=None):
        """Fire ``count`` bullets from the muzzle, towards ``target`` (world xy) or at random within
        ``spread`` radians of +x."""
        for _ in range(count):
            if target is None:
                heading = self.rng.uniform(-self.spread, self.spread)
            else:
                dx, dy = np.asarray(target, dtype=np.float64) - self.muzzle
                heading = math.atan2(dy, dx) + self.rng.uniform(-0.03, 0.03)
            kind = int(self.rng.choice(BULLET_KINDS))
            size = (self.rng.uniform(2.0, 3.5), self.rng.uniform(1.0, 2.0))
            spin = self.rng.uniform(-30.0, 30.0) if kind in (ELLIPSE, ROTATED_BOX) else 0.0
            v = self.rng.uniform(*self.speed) * np.array([math.cos(heading), math.sin(heading)])
            self.shots.add(kind, self.muzzle, size, angle=heading, vel=v, omega=spin)
            self.start = np.vstack([self.start, self.muzzle[None]])
            self.flying = np.append(self.flying, True)
            self.stuck_to = np.append(self.stuck_to, -1)
            self.local = np.vstack([self.local, np.zeros((1, 3))])
            self.trails.append([self.muzzle.copy()])
        while len(self.shots) > self.limit:
            self._forget(0)

    def _forget(self, index):
        self.shots.remove(index)
        keep = np.arange(len(self.flying)) != index
        self.start, self.flying = self.start[keep], self.flying[keep]
        self.stuck_to, self.local = self.stuck_to[keep], self.local[keep]
        del self.trails[index]
        self.hits = [(b - (b > index), *rest) for b, *rest in self.hits if b != index]

    def first_impacts(self, dt):
        """Earliest contact over the next ``dt`` of each flying bullet with any obstacle:
        ``(time, obstacle, point, normal)`` arrays over all bullets (``inf`` and -1 for none)."""
        n = len(self.shots)
        time = np.full(n, np.inf)
        obstacle = np.full(n, -1, dtype=np.int64)
        point = np.full((n, 2), np.nan)
        normal = np.full((n, 2), np.nan)
        if not self.flying.any() or len(self.world) == 0:
            return time, obstacle, point, normal
        shots, world = self.shots.shapes(), self.world.shapes()
        spin_o = np.where(self.world.kind == BOX, 0.0, self.world.omega)
        for gb, bullets in enumerate(shots.batches):
            index_b = self._group(shots, gb)
            rows = np.flatnonzero(self.flying[index_b])
            if not rows.size:
                continue
            for go, obstacles in enumerate(world.batches):
                index_o = self._group(world, go)
                ib, io = np.repeat(rows, len(index_o)), np.tile(np.arange(len(index_o)), len(rows))
                sb, so = index_b[ib], index_o[io]
                impact = time_of_impact(
                    bullets[ib], obstacles[io], self.shots.vel[sb], self.world.vel[so],
                    angular_velocity_a=self.shots.omega[sb], angular_velocity_b=spin_o[so], t_max=dt,
                )
                sooner = impact.time < time[sb]
                for k in np.flatnonzero(sooner):  # several obstacles per bullet: keep the earliest
                    if impact.time[k] < time[sb[k]]:
                        time[sb[k]], obstacle[sb[k]] = impact.time[k], so[k]
                        point[sb[k]], normal[sb[k]] = impact.point[k], impact.normal[k]
        return time, obstacle, point, normal

    @staticmethod
    def _group(groups, g):
        lo = groups.starts[g]
        hi = groups.starts[g + 1] if g + 1 < len(groups.starts) else len(groups.order)
        return groups.order[lo:hi]

    def step(self, dt):
        """Advance bullets and obstacles by ``dt``; stop each bullet at its first contact."""
        shots = self.shots
        time, obstacle, point, normal = self.first_impacts(dt)
        stop = self.flying & np.isfinite(time)
        fly = np.where(stop, time, np.where(self.flying, dt, 0.0))
        ends = shots.pos + shots.vel * fly[:, None]
        for b in np.flatnonzero(stop):
            j = int(obstacle[b])
            missed = self._missed_by_frames(b, j, dt)
            self.hits.append((int(b), j, float(time[b]), point[b].copy(), normal[b].copy(), missed))
        shots.pos = ends
        shots.angle = shots.angle + shots.omega * fly
        for b in np.flatnonzero(self.flying):
            self.trails[b].append(shots.pos[b].copy())
        # stuck bullets keep their pose in the obstacle's frame, taken at the contact time
        at = self.world.angle[obstacle[stop]] + np.where(self.world.kind[obstacle[stop]] == BOX, 0.0,
                                                          self.world.omega[obstacle[stop]]) * time[stop]
        at_pos = self.world.pos[obstacle[stop]] + self.world.vel[obstacle[stop]] * time[stop][:, None]
        rel = shots.pos[stop] - at_pos
        c, s = np.cos(at), np.sin(at)
        self.local[stop] = np.stack([c * rel[:, 0] + s * rel[:, 1], -s * rel[:, 0] + c * rel[:, 1],
                                     shots.angle[stop] - at], axis=-1)
        self.stuck_to[stop] = obstacle[stop]
        shots.kind[stop & (shots.kind == BOX)] = ROTATED_BOX  # a stuck box turns with its obstacle
        self.flying &= ~stop
        shots.vel[~self.flying] = 0.0
        shots.omega[~self.flying] = 0.0
        self.world.advance(dt)
        self._ride()
        out = self.flying & ((shots.pos < -50).any(axis=1) | (shots.pos > [shots.width + 50, shots.height + 50]).any(axis=1))
        self.flying &= ~out
        shots.touch()

    def _missed_by_frames(self, b, j, dt):
        """Whether bullet ``b`` and obstacle ``j``, tested only at the end of the full step (where a
        frame-by-frame test looks), would not intersect: a tunnelling that time of impact prevents."""
        end = World(self.world.width, self.world.height)
        for source, index, t in ((self.shots, b, dt), (self.world, j, dt)):
            turn = 0.0 if source.kind[index] == BOX else source.omega[index] * t
            end.add(source.kind[index], source.pos[index] + source.vel[index] * t, source.size[index],
                    angle=source.angle[index] + turn, sides=int(source.sides[index]))
        groups = end.shapes()
        return len(end.colliding_pairs(groups)) == 0

    def _ride(self):
        """Put every stuck bullet back on its obstacle, which may have turned."""
        stuck = np.flatnonzero(self.stuck_to >= 0)
        if not stuck.size:
            return
        j = self.stuck_to[stuck]
        angle = self.world.angle[j]
        c, s = np.cos(angle), np.sin(angle)
        lx, ly, la = self.local[stuck].T
        self.shots.pos[stuck] = self.world.pos[j] + np.stack([c * lx - s * ly, s * lx + c * ly], axis=-1)
        self.shots.angle[stuck] = angle + la


class BulletsDemo(Demo):
    """The bullets mode: a gun on the left fires fast small shapes through thin walls and spinning
    needles; each stops at its first contact (orange), with its swept path and the positions a
    frame-by-frame test would have looked at (pale outlines). Left click fires towards the mouse;
    the gun also fires a burst every ``period`` frames.
    """

    def __init__(self, world, *, headless=False, dt=1 / 60, seed=0, burst=3, period=6):
        super().__init__(world, headless=headless, dt=dt, seed=seed)
        self.bullets = Bullets(world, seed=seed)
        self.burst = int(burst)
        self.period = int(period)
        self.frames = 0

    def handle(self, event):
        pg = self.pg
        if event.type == pg.MOUSEBUTTONDOWN and event.button == 1:
            self.mouse = tuple(event.pos)
            self.bullets.fire(self.burst, target=self.to_world(event.pos))
            return
        super().handle(event)

    def frame(self, events=None):
        for event in self.pg.event.get() if events is None else events:
            self.handle(event)
        world = self.world
        with self.clock("shapes"):
            groups = world.shapes()
        self.pairs = np.zeros((0, 2), dtype=np.int64)
        self.colliding = np.zeros(len(world), dtype=bool)
        with self.clock("draw"):
            self.draw(groups, None)
            self._draw_bullets()
        with self.clock("sim"):
            if not self.paused or self.step_once:
                if self.period and self.frames % self.period == 0:
                    self.bullets.fire(self.burst)
                self.bullets.step(self.dt)
                self.frames += 1
                self.step_once = False
        self._end_frame()

    def counts(self):
        """The obstacles and the bullets (this mode looks for no colliding pairs among the obstacles)."""
        gun = self.bullets
        stopped = int((gun.stuck_to >= 0).sum())
        return [f"{len(self.world)} obstacles", f"{int(gun.flying.sum())} bullets in flight", f"{stopped} stopped"]

    def _draw_bullets(self):
        pg, surface, gun = self.pg, self.surface, self.bullets
        shots = gun.shots
        if len(shots):
            ghost = World(shots.width, shots.height)  # the bullets where a frame-by-frame test looks
            for b, trail in enumerate(gun.trails):
                if len(trail) > 1:
                    pg.draw.lines(surface, TRAIL_COLOR, False, self.to_screen(np.array(trail)).tolist(), 1)
                for xy in trail[1:-1]:
                    ghost.add(shots.kind[b], xy, shots.size[b], angle=shots.angle[b])
            drawn = types.SimpleNamespace(world=ghost, to_screen=self.to_screen)  # Demo.outlines of another world
            for _, polygons in Demo.outlines(drawn, ghost.shapes()) if len(ghost) else ():
                for points in polygons.tolist():
                    pg.draw.lines(surface, GHOST_COLOR, True, points, 1)
            drawn.world = shots
            for index, polygons in Demo.outlines(drawn, shots.shapes()):
                for b, points in zip(index.tolist(), polygons.tolist()):
                    color = STUCK_COLOR if gun.stuck_to[b] >= 0 else OUTLINE
                    pg.draw.polygon(surface, color, points)
        stopped = int((gun.stuck_to >= 0).sum())
        saved = sum(1 for hit in gun.hits if hit[-1])
        text = (f"bullets: {len(shots)} fired, {stopped} stopped at their first contact, {saved} of which "
                "a frame-by-frame test would have let through (click: fire)")
        label = self.font.render(text, True, TEXT_COLOR, BACKGROUND)
        surface.blit(label, (6, int(self.world.height) - 22))


# -- command line ---------------------------------------------------------------------------------


def _size(text):
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 1280x800, got {text!r}") from None
    if width < 64 or height < 64:
        raise argparse.ArgumentTypeError("the window must be at least 64x64")
    return width, height


def _overlay_list(text):
    names = [name.strip() for name in text.split(",") if name.strip()]
    if "all" in names:
        return list(OVERLAYS)
    bad = [name for name in names if name not in OVERLAYS]
    if bad:
        raise argparse.ArgumentTypeError(f"unknown overlay {', '.join(bad)}; choose from {', '.join(OVERLAYS)} or all")
    return names


def add_arguments(parser):
    """Add the ``demo`` options to an argparse parser (and set ``run`` to :func:`run_from_args`)."""
    parser.add_argument("--headless", action="store_true", help="no window: SDL's dummy video driver")
    parser.add_argument("--frames", type=int, default=None, help="stop after N frames (headless default: 300)")
    parser.add_argument("--screenshot", metavar="PNG", help="save the last frame to this file")
    parser.add_argument("--seed", type=int, default=0, help="random seed of the scene (default 0)")
    parser.add_argument("--count", type=int, default=500, help="number of ellipses (default 500)")
    parser.add_argument(
        "--extras",
        type=int,
        default=4,
        help="number of circles, boxes, rotated boxes, polygons and segments, each (default 4)",
    )
    parser.add_argument(
        "--physics", action="store_true", help="start in the physics mode (shapes push each other apart)"
    )
    parser.add_argument(
        "--bullets",
        action="store_true",
        help="the bullets mode: fast small shapes fired through thin walls and spinning needles, each "
        "stopped at its first contact (time of impact); click to fire",
    )
    parser.add_argument(
        "--overlays",
        type=_overlay_list,
        default=[],
        metavar="LIST",
        help=f"comma-separated, from: {', '.join(OVERLAYS)}, all",
    )
    parser.add_argument("--size", type=_size, default=(1280, 800), metavar="WxH", help="window size (default 1280x800)")
    parser.add_argument("--fps", type=float, default=60.0, help="frame-rate cap of the window, 0 for none (default 60)")
    parser.add_argument("--timing", action="store_true", help="print the frame rate and per-phase times at the end")
    parser.set_defaults(run=run_from_args)
    return parser


def _unwritable(path):
    """Why an image cannot be saved at ``path`` (checked before the demo runs), or None."""
    path = os.path.abspath(os.fspath(path))
    folder = os.path.dirname(path)
    if os.path.isdir(path):
        return "is a directory"
    if not os.path.isdir(folder):
        return f"the folder {folder} does not exist"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"the folder {folder} is not writable"
    return None


def run_from_args(args, out=None):
    """Run the demo for parsed arguments; return the exit code."""
    out = sys.stdout if out is None else out
    if args.count < 0 or args.extras < 0:
        print("collide2d demo: --count and --extras must be >= 0", file=sys.stderr)
        return 2
    frames = args.frames if args.frames is not None else (300 if args.headless else None)
    if frames is not None and frames < 1:
        print("collide2d demo: --frames must be >= 1", file=sys.stderr)
        return 2
    if not 0.0 <= args.fps < math.inf:  # NaN fails too
        print(f"collide2d demo: --fps must be a finite number >= 0 (0 for no cap), got {args.fps!r}", file=sys.stderr)
        return 2
    if args.screenshot:
        problem = _unwritable(args.screenshot)
        if problem:
            print(f"collide2d demo: --screenshot {args.screenshot}: {problem}", file=sys.stderr)
            return 2
    try:
        _import_pygame(args.headless)
    except ImportError as error:
        print(f"collide2d demo: {error}", file=sys.stderr)
        return 2
    width, height = args.size
    if args.bullets:
        world = bullet_range(width, height)
        demo = BulletsDemo(world, headless=args.headless, seed=args.seed)
    else:
        world = World.random(args.count, args.extras, seed=args.seed, width=width, height=height, separated=args.physics)
        demo = Demo(world, headless=args.headless, physics=args.physics, overlays=args.overlays, seed=args.seed)
    try:
        # a window may turn on any overlay: compile everything now, not in the middle of a drag;
        # a window shows that it is waiting for the compiler (and can be closed meanwhile)
        if args.headless:
            compile_seconds = world.warm_up(measures=args.physics or bool(args.overlays))
        else:
            print("compiling the kernels (seconds on the first run, cached on disk after)...", file=sys.stderr)
            compile_seconds = demo.warm_up_in_view(measures=True)
        if compile_seconds > 2.0:
            print(f"compiled the kernels in {compile_seconds:.1f} s (cached on disk for the next run)", file=sys.stderr)
        demo.frame(events=[])
        # Numba leaves a large heap of Python objects behind; without this, a full garbage
        # collection walks it every few hundred frames and the frame that triggers it stalls.
        gc.collect()
        gc.freeze()
        demo.timing = Timing()
        demo.clock = _Clock(demo.timing)
        pacer = demo.pg.time.Clock()
        cap = 0 if args.headless else args.fps
        start = time.perf_counter()
        count = 0
        while demo.running and (frames is None or count < frames - 1):
            demo.frame()
            if not args.headless:
                demo.pg.display.flip()
            count += 1
            if cap:
                pacer.tick(cap)
        elapsed = time.perf_counter() - start
        if args.screenshot:
            try:
                demo.screenshot(args.screenshot)
            except (demo.pg.error, OSError) as error:  # checked above, but the disk may still refuse
                print(f"collide2d demo: --screenshot {args.screenshot}: {error}", file=sys.stderr)
                return 2
        if args.headless or args.timing:
            _report(demo, count, elapsed, out)
    finally:
        demo.close()
    return 0


def _report(demo, count, elapsed, out):
    counts = demo.world.kind_counts()
    mix = ", ".join(f"{v} {k}" for k, v in counts.items() if v)
    shapes, *rest = demo.counts()
    print(f"{shapes} ({mix}), {', '.join(rest)} in the last frame", file=out)
    if count:
        print(f"{count} frames in {elapsed:.2f} s: {count / elapsed:.1f} frames/s (wall clock)", file=out)
        for which in ("cpu", "wall"):
            ms = demo.timing.per_frame_ms(which)
            total = sum(ms.values())
            split = "  ".join(f"{name} {value:.2f}" for name, value in ms.items())
            rate = 1e3 / total if total else 0.0
            print(f"per frame, {which} ms: {split}  total {total:.2f} ({rate:.0f} frames/s)", file=out)


def main(argv=None) -> int:
    """``collide2d demo [options]`` as a function; return the exit code."""
    parser = argparse.ArgumentParser(prog="collide2d demo", description=DESCRIPTION)
    add_arguments(parser)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
