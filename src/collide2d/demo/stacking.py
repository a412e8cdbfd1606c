"""The demo's stacking mode: boxes resting on each other under gravity, held by impulses at the
points of :func:`collide2d.contact_manifold` (:class:`Impulses`, :class:`StackDemo`).

The solver is sequential impulses with accumulated impulses and warm starting (E. Catto, *Fast and
Simple Physics using Sequential Impulses*, GDC 2006; Box2D-Lite and Box2D v2.x): per step,

1. gravity changes the velocities;
2. each contact point of each manifold gets its normal and tangent effective masses,
   ``1 / (1/m_a + 1/m_b + (r_a x n)^2 / I_a + (r_b x n)^2 / I_b)``, and a velocity bias: for a
   point that penetrates deeper than ``slop``, ``beta / dt`` times the excess (Baumgarte); for a
   speculative point (separation ``s > 0``), ``-s / dt``, so that it may close the gap within the
   step but no more;
3. the impulses kept from the last step at the same points (matched by position, within
   ``match`` of it in the frame of body a) are applied again (warm starting);
4. ``iterations`` sweeps over the manifolds: friction at each point, ``dP = -m_t v_t`` with the
   accumulated friction clamped to ``[-mu P_n, mu P_n]``, then the normal impulses, both points of
   a manifold at once (Box2D v2.x's block solver: a 2 x 2 linear complementarity problem on the
   accumulated impulses, ``P_n >= 0``), or one point ``dP = m_n (bias - v_n)`` clamped to ``>= 0``;
5. the positions and angles move with the new velocities (semi-implicit Euler).

A stack of boxes needs two points per face: with the one point of :func:`collide2d.contact`
the impulses of one face act at its middle and nothing stops a box from rocking about it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from collide2d.demo.window import Demo, NORMAL_COLOR, POINT_COLOR
from collide2d.demo.world import BOX, ROTATED_BOX, World
from collide2d.manifold import contact_manifold
from collide2d.shapes import RotatedBox


def stack_world(count=10, width=1280.0, height=800.0, half_size=(32.0, 16.0), seed=0, gap=1.0, jitter=3.0):
    """A floor (a static axis-aligned box along the bottom) and ``count`` boxes stacked on it, each
    ``gap`` above the one below and shifted sideways by up to ``jitter`` (state index 0 is the floor)."""
    rng = np.random.default_rng(seed)
    world = World(width, height)
    world.add(BOX, (width / 2, 20.0), (width / 2 - 10.0, 20.0))
    w, h = half_size
    y = 40.0 + gap + h
    for _ in range(count):
        world.add(ROTATED_BOX, (width / 2 + rng.uniform(-jitter, jitter), y), (w, h), angle=0.0)
        y += 2 * h + gap
    return world


def warm_up_manifolds():
    """Compile the manifold kernels of boxes (single pairs and batches); return the seconds spent."""
    start = time.perf_counter()
    boxes = RotatedBox([(0.0, 0.0), (1.0, 0.0)], (1.0, 1.0), 0.0)
    contact_manifold(boxes, boxes)
    contact_manifold(boxes[0], boxes[1])
    return time.perf_counter() - start


def _cross(ax, ay, bx, by):
    return ax * by - ay * bx


@dataclass
class Impulses:
    """Rigid bodies with contact impulses at the manifold points (see the module notes).

    ``static`` holds the state indices of bodies that never move (infinite mass); lengths are in
    the world's units (pixels), times in seconds.
    """

    gravity: tuple = (0.0, -600.0)
    iterations: int = 20
    beta: float = 0.2  # Baumgarte factor: the share of the excess penetration removed per step
    slop: float = 0.5  # penetration left alone, so that resting contacts stay in contact
    margin: float = 2.0  # speculative margin of the manifolds
    friction: float = 0.6
    match: float = 2.0  # a point within this of last step's keeps its impulses
    static: tuple = (0,)
    _kept: dict = field(default_factory=dict, repr=False)  # (i, j) -> [(local x, local y, Pn, Pt)]

    def candidate_pairs(self, world, groups):
        """Pairs of state indices (k, 2), ``i < j``, whose bounds come within ``margin``, not both static."""
        bounds = np.empty((len(world), 4))
        bounds[groups.order] = groups.table.bounds
        lo, hi = bounds[:, :2] - self.margin, bounds[:, 2:] + self.margin
        near = np.all((lo[:, None, :] <= hi[None, :, :]) & (lo[None, :, :] <= hi[:, None, :]), axis=-1)
        moving = np.ones(len(world), dtype=bool)
        moving[list(self.static)] = False
        near &= moving[:, None] | moving[None, :]
        i, j = np.nonzero(np.triu(near, 1))
        return np.stack([i, j], axis=-1)

    def manifolds(self, world, groups, pairs):
        """Contact points of the pairs: a list of ``(i, j, point, normal, separation)``."""
        points = []
        for rows, a, b in world.pair_batches(groups, pairs):
            m = contact_manifold(a, b, margin=self.margin)
            for r, count, normal, seps, pa, pb in zip(rows.tolist(), m.count.tolist(), m.normal.tolist(),
                                                      m.separations.tolist(), m.points_a.tolist(), m.points_b.tolist()):
                i, j = int(pairs[r, 0]), int(pairs[r, 1])
                for k in range(count):
                    mid = (0.5 * (pa[k][0] + pb[k][0]), 0.5 * (pa[k][1] + pb[k][1]))
                    points.append((i, j, mid, normal, seps[k]))
        return points

    def step(self, world, dt, groups=None, held=()):
        """Advance the world by ``dt`` seconds; return the contact points used (see :meth:`manifolds`).

        ``held`` bodies (dragged with the mouse) keep their velocity and position: they push the
        others as if of infinite mass."""
        groups = world.shapes() if groups is None else groups
        pairs = self.candidate_pairs(world, groups)
        points = self.manifolds(world, groups, pairs) if len(pairs) else []
        mass, inertia = world.mass_and_inertia()
        inv_m = np.where(np.isfinite(mass), 1.0 / mass, 0.0)
        inv_i = np.where(np.isfinite(inertia), 1.0 / np.where(np.isfinite(inertia), inertia, 1.0), 0.0)
        fixed = list(self.static) + list(held)
        inv_m[fixed] = 0.0
        inv_i[fixed] = 0.0
        moving = inv_m > 0
        world.vel[moving] += np.asarray(self.gravity) * dt
        vel = world.vel.tolist()
        omega = world.omega.tolist()
        pos = world.pos.tolist()
        angle = world.angle.tolist()
        inv_m, inv_i = inv_m.tolist(), inv_i.tolist()
        rows = []
        kept = {}
        for i, j, (px, py), (nx, ny), s in points:
            rax, ray = px - pos[i][0], py - pos[i][1]
            rbx, rby = px - pos[j][0], py - pos[j][1]
            tx, ty = ny, -nx
            rna, rnb = _cross(rax, ray, nx, ny), _cross(rbx, rby, nx, ny)
            rta, rtb = _cross(rax, ray, tx, ty), _cross(rbx, rby, tx, ty)
            k_n = inv_m[i] + inv_m[j] + inv_i[i] * rna * rna + inv_i[j] * rnb * rnb
            k_t = inv_m[i] + inv_m[j] + inv_i[i] * rta * rta + inv_i[j] * rtb * rtb
            bias = -s / dt if s > 0.0 else self.beta / dt * max(0.0, -s - self.slop)
            # warm start: the impulses of last step's point nearest to this one, in a's frame
            c, sn = np.cos(angle[i]), np.sin(angle[i])
            lx, ly = c * rax + sn * ray, -sn * rax + c * ray
            p_n = p_t = 0.0
            best = self.match
            for ox, oy, on, ot in self._kept.get((i, j), ()):
                d = max(abs(ox - lx), abs(oy - ly))
                if d < best:
                    best, p_n, p_t = d, on, ot
            row = [i, j, rax, ray, rbx, rby, nx, ny, tx, ty, 1.0 / k_n, 1.0 / k_t, bias, p_n, p_t, lx, ly]
            self._apply(vel, omega, inv_m, inv_i, row, p_n * nx + p_t * tx, p_n * ny + p_t * ty)
            rows.append(row)
        manifolds = {}
        for row in rows:
            manifolds.setdefault((row[0], row[1]), []).append(row)
        blocks = [self._block(inv_m, inv_i, group) for group in manifolds.values()]
        for _ in range(self.iterations):
            for group, block in zip(manifolds.values(), blocks):
                for row in group:
                    self._friction(vel, omega, inv_m, inv_i, row)
                if block is None:
                    for row in group:
                        self._normal(vel, omega, inv_m, inv_i, row)
                else:
                    self._normal_pair(vel, omega, inv_m, inv_i, group, block)
        for row in rows:
            kept.setdefault((row[0], row[1]), []).append((row[15], row[16], row[13], row[14]))
        self._kept = kept
        world.vel = np.array(vel).reshape(-1, 2)
        world.omega = np.array(omega)
        world.pos[moving] += world.vel[moving] * dt
        turning = moving & (world.kind != BOX)
        world.angle[turning] += world.omega[turning] * dt
        world.touch()
        return points

    @staticmethod
    def _apply(vel, omega, inv_m, inv_i, row, px, py):
        """Apply the impulse ``p`` at the contact of ``row``: ``-p`` on body a, ``+p`` on body b."""
        i, j, rax, ray, rbx, rby = row[:6]
        vel[i][0] -= inv_m[i] * px
        vel[i][1] -= inv_m[i] * py
        omega[i] -= inv_i[i] * _cross(rax, ray, px, py)
        vel[j][0] += inv_m[j] * px
        vel[j][1] += inv_m[j] * py
        omega[j] += inv_i[j] * _cross(rbx, rby, px, py)

    @staticmethod
    def _relative(vel, omega, row):
        """Velocity of body b relative to body a at the contact of ``row``."""
        i, j, rax, ray, rbx, rby = row[:6]
        return (vel[j][0] - omega[j] * rby - vel[i][0] + omega[i] * ray,
                vel[j][1] + omega[j] * rbx - vel[i][1] - omega[i] * rax)

    def _friction(self, vel, omega, inv_m, inv_i, row):
        """Friction at one point, its accumulated impulse within ``friction`` times the normal one
        (solved before the normal impulses, as Box2D v2.x does: non-penetration matters more)."""
        dvx, dvy = self._relative(vel, omega, row)
        tx, ty, mass_t, p_n, p_t = row[8], row[9], row[11], row[13], row[14]
        limit = self.friction * p_n
        new_t = min(max(p_t - mass_t * (dvx * tx + dvy * ty), -limit), limit)
        self._apply(vel, omega, inv_m, inv_i, row, (new_t - p_t) * tx, (new_t - p_t) * ty)
        row[14] = new_t

    def _normal(self, vel, omega, inv_m, inv_i, row):
        """The normal impulse at one point, accumulated and clamped to ``>= 0``."""
        dvx, dvy = self._relative(vel, omega, row)
        nx, ny, mass_n, bias, p_n = row[6], row[7], row[10], row[12], row[13]
        new_n = max(p_n + mass_n * (bias - (dvx * nx + dvy * ny)), 0.0)
        self._apply(vel, omega, inv_m, inv_i, row, (new_n - p_n) * nx, (new_n - p_n) * ny)
        row[13] = new_n

    @staticmethod
    def _block(inv_m, inv_i, group):
        """The 2 x 2 normal mass matrix ``K`` of a two-point manifold, or None (one point, or ``K``
        too badly conditioned to invert: Box2D's bound of 1000 on the condition number)."""
        if len(group) != 2:
            return None
        (i, j, rax1, ray1, rbx1, rby1, nx, ny), (_, _, rax2, ray2, rbx2, rby2) = group[0][:8], group[1][:6]
        rn1a, rn1b = _cross(rax1, ray1, nx, ny), _cross(rbx1, rby1, nx, ny)
        rn2a, rn2b = _cross(rax2, ray2, nx, ny), _cross(rbx2, rby2, nx, ny)
        m = inv_m[i] + inv_m[j]
        k11 = m + inv_i[i] * rn1a * rn1a + inv_i[j] * rn1b * rn1b
        k22 = m + inv_i[i] * rn2a * rn2a + inv_i[j] * rn2b * rn2b
        k12 = m + inv_i[i] * rn1a * rn2a + inv_i[j] * rn1b * rn2b
        det = k11 * k22 - k12 * k12
        if not k11 * k11 < 1000.0 * det:
            return None
        return k11, k12, k22, det

    def _normal_pair(self, vel, omega, inv_m, inv_i, group, block):
        """Both normal impulses of a two-point manifold at once: the linear complementarity problem
        ``v = K x + b, x >= 0, v >= 0, x.v = 0`` solved by trying its four cases (Box2D v2.x's
        block solver, ``b2ContactSolver::SolveVelocityConstraints``)."""
        k11, k12, k22, det = block
        first, second = group
        a1, a2 = first[13], second[13]
        v1 = self._relative(vel, omega, first)
        v2 = self._relative(vel, omega, second)
        nx, ny = first[6], first[7]
        # b = v_n - bias - K a: the velocities the accumulated impulses a would leave
        b1 = v1[0] * nx + v1[1] * ny - first[12] - (k11 * a1 + k12 * a2)
        b2 = v2[0] * nx + v2[1] * ny - second[12] - (k12 * a1 + k22 * a2)
        x1, x2 = (-k22 * b1 + k12 * b2) / det, (k12 * b1 - k11 * b2) / det  # both points push
        if not (x1 >= 0.0 and x2 >= 0.0):
            x1, x2 = -b1 / k11, 0.0  # the first alone
            if not (x1 >= 0.0 and k12 * x1 + b2 >= 0.0):
                x1, x2 = 0.0, -b2 / k22  # the second alone
                if not (x2 >= 0.0 and k12 * x2 + b1 >= 0.0):
                    x1 = x2 = 0.0  # neither (both separating)
                    if not (b1 >= 0.0 and b2 >= 0.0):
                        return  # no case holds (rounding): keep the impulses
        self._apply(vel, omega, inv_m, inv_i, first, (x1 - a1) * nx, (x1 - a1) * ny)
        self._apply(vel, omega, inv_m, inv_i, second, (x2 - a2) * nx, (x2 - a2) * ny)
        first[13], second[13] = x1, x2


class StackDemo(Demo):
    """The stacking mode: ten boxes on a floor under gravity, held up by impulses at the manifold
    points (orange dots, normals in green). Drag a box to knock the stack over."""

    def __init__(self, world, *, headless=False, dt=1 / 60, seed=0, solver=None):
        super().__init__(world, headless=headless, dt=dt, seed=seed)
        self.solver = Impulses() if solver is None else solver
        self.points = []
        self.time = 0.0

    def frame(self, events=None):
        groups = self.begin_frame(events)
        self.find_collisions(groups)
        with self.clock("draw"):
            self.draw(groups, None)
            self._draw_manifolds()
        with self.clock("sim"):
            if not self.paused or self.step_once:
                held = ()
                if self.dragging is not None:  # moved by the mouse: pushes, is not pushed
                    held = (self.dragging,)
                    self.world.vel[self.dragging] = self.drag_moved / self.dt
                    self.drag_moved = np.zeros(2)
                with self.clock("measure"):
                    self.points = self.solver.step(self.world, self.dt, groups, held=held)
                self.time += self.dt
                self.step_once = False
        self._end_frame()

    def counts(self):
        moving = np.ones(len(self.world), dtype=bool)
        moving[list(self.solver.static)] = False
        speed = float(np.abs(self.world.vel[moving]).max()) if moving.any() else 0.0
        deepest = min((s for *_, s in self.points), default=0.0)
        return [f"{int(moving.sum())} boxes", f"{len(self.points)} contact points",
                f"t = {self.time:.1f} s", f"fastest {speed:.2f} px/s", f"deepest {max(-deepest, 0.0):.2f} px"]

    def _draw_manifolds(self):
        pg, surface = self.pg, self.surface
        for *_, point, normal, _ in self.points:
            x, y = self.to_screen(point).tolist()
            tip = self.to_screen(np.asarray(point) + 12.0 * np.asarray(normal)).tolist()
            pg.draw.line(surface, NORMAL_COLOR, (x, y), tip, 2)
            pg.draw.circle(surface, POINT_COLOR, (int(round(x)), int(round(y))), 4)
