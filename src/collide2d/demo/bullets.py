"""The demo's bullets mode: fast small shapes stopped at their first contact (:class:`Bullets`,
:class:`BulletsDemo`)."""

from __future__ import annotations

import math
import time
import types

import numpy as np

from collide2d.motion import query_impacts
from collide2d.table import ShapeTable
from collide2d.demo.window import BACKGROUND, OUTLINE, TEXT_COLOR, Demo
from collide2d.demo.world import BOX, CIRCLE, ELLIPSE, ROTATED_BOX, SEGMENT, World


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
    contact, found by time of impact: no bullet passes through a wall or a needle, however thin,
    whatever its speed.

    Every step, each flying bullet is swept against every obstacle over the step (bullets
    translate, some spin; needles spin), all in one call of :func:`collide2d.query_impacts`
    (:meth:`first_impacts`): the earliest contact time stops it there, touching the obstacle,
    and from then on it stays stuck to that obstacle (it turns with it). ``hits``
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
        ``(time, obstacle, point, normal)`` arrays over all bullets (``inf`` and -1 for none).

        One call of :func:`collide2d.query_impacts` per step: the flying bullets and the obstacles
        in one table, swept over ``dt`` at their velocities and spins; of the pairs it returns,
        the bullet-obstacle ones are kept (bullet first, so the normal points from the bullet to
        the obstacle, as :func:`collide2d.time_of_impact` of the bullet and the obstacle gives
        it), and for each bullet the earliest (on a tie, the obstacle first in the table).
        """
        n = len(self.shots)
        time = np.full(n, np.inf)
        obstacle = np.full(n, -1, dtype=np.int64)
        point = np.full((n, 2), np.nan)
        normal = np.full((n, 2), np.nan)
        if not self.flying.any() or len(self.world) == 0:
            return time, obstacle, point, normal
        table, bullet, velocity, spin = self.swept_table()
        impacts = query_impacts(table, velocity, angular_velocity=spin, t_max=dt)
        first, second = impacts.pairs
        between = (first < len(bullet)) & (second >= len(bullet))  # bullets come first in the table
        rows = np.flatnonzero(between)
        rows = rows[np.lexsort((rows, impacts.time[rows]))]  # earliest first; ties in table order
        shot = first[rows]
        _, earliest = np.unique(shot, return_index=True)
        rows, shot = rows[earliest], bullet[shot[earliest]]
        time[shot] = impacts.time[rows]
        obstacle[shot] = self.world.shapes().order[second[rows] - len(bullet)]
        point[shot], normal[shot] = impacts.point[rows], impacts.normal[rows]
        return time, obstacle, point, normal

    def swept_table(self):
        """The flying bullets, then the obstacles, as one :class:`~collide2d.ShapeTable`, with the
        state index of each of its bullets, and the velocity and spin of every shape in it."""
        shots, world = self.shots.shapes(), self.world.shapes()
        parts, bullet = [], []
        for g, batch in enumerate(shots.batches):
            end = shots.starts[g + 1] if g + 1 < len(shots.starts) else len(shots.order)
            local = np.flatnonzero(self.flying[shots.order[shots.starts[g]:end]])
            if local.size:
                parts.append(batch[local])
                bullet.append(shots.order[shots.starts[g] + local])
        bullet = np.concatenate(bullet)
        table = ShapeTable(parts + list(world.batches))
        velocity = np.concatenate([self.shots.vel[bullet], self.world.vel[world.order]])
        spin_o = np.where(self.world.kind == BOX, 0.0, self.world.omega)  # an axis-aligned box does not turn
        spin = np.concatenate([self.shots.omega[bullet], spin_o[world.order]])
        return table, bullet, velocity, spin

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
        groups = self.begin_frame(events)
        world = self.world
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
