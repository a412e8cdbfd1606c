"""The demo's window (:class:`Demo`): events, drawing, overlays and the per-phase timing."""

from __future__ import annotations

import math
import os
import threading
import time
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from collide2d.measurement import distance
from collide2d.overlay import intersection_points, overlap_area
from collide2d.predicates import intersects_xy
from collide2d.shapes import Point
from collide2d.demo.physics import Physics
from collide2d.demo.world import (
    ADD_KEYS, BOX, CAPSULE, CIRCLE, CORNER_RADIUS, ELLIPSE, OVERLAYS, POLYGON, ROTATED_BOX, ROUNDED_BOX, SEGMENT,
)


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
    CAPSULE: (199, 233, 192),
    ROUNDED_BOX: (254, 227, 145),
}
ARC_POINTS = 10  # points per rounded corner or capsule end in the drawn outline
SELECTED = (33, 113, 181)
POINT_COLOR = (255, 150, 0)
NORMAL_COLOR = (0, 140, 70)
DEPTH_COLOR = (150, 40, 170)
OVERLAP_COLOR = np.array([120, 60, 200], dtype=np.float64)
BOUNDS_COLOR = (150, 150, 150)
GRID_COLOR = (222, 222, 214)
TEXT_COLOR = (20, 20, 20)
TEXT_BAND_ALPHA = 170  # opacity (of 255) of the band behind the text


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
    def begin_frame(self, events=None):
        """Handle the events (pygame's queue by default); return the shapes of this frame."""
        for event in self.pg.event.get() if events is None else events:
            self.handle(event)
        with self.clock("shapes"):
            return self.world.shapes()

    def find_collisions(self, groups):
        """The colliding pairs (outlined in red) of this frame."""
        with self.clock("query"):
            self.pairs = self.world.colliding_pairs(groups)
            self.colliding = np.zeros(len(self.world), dtype=bool)
            self.colliding[self.pairs.ravel()] = True

    def frame(self, events=None):
        """Handle the events (pygame's queue by default), find the collisions, draw, advance."""
        groups = self.begin_frame(events)
        world = self.world
        clock = self.clock
        self.find_collisions(groups)
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
            elif kind in (CAPSULE, ROUNDED_BOX):  # arcs of radius r about the core's corners (local frame)
                a, b = size[:, :1], size[:, 1:]
                if kind == CAPSULE:
                    r, corners, start = b, [(1.0, 0.0), (-1.0, 0.0)], [-0.5, 0.5]
                    b = 0.0 * b
                else:
                    r, corners, start = CORNER_RADIUS * np.minimum(a, b), [(1, -1), (1, 1), (-1, 1), (-1, -1)], [-0.5, 0.0, 0.5, 1.0]
                turn = 2.0 / len(corners)  # in units of pi
                lx, ly = [], []
                for (sx, sy), t0 in zip(corners, start):
                    t = np.pi * np.linspace(t0, t0 + turn, ARC_POINTS)
                    lx.append(sx * a + r * np.cos(t))
                    ly.append(sy * b + r * np.sin(t))
                lx, ly = np.concatenate(lx, axis=1), np.concatenate(ly, axis=1)
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
            try:
                areas[rows] = np.atleast_1d(overlap_area(a, b))
            except NotImplementedError:  # rounded shapes: their overlap area is not implemented yet
                areas[rows] = np.nan
            sub = np.concatenate([np.arange(first[r], first[r] + counts[r]) for r in rows])
            where = np.repeat(np.arange(len(rows)), counts[rows])
            inside[sub] = intersects_xy(a[where], xy[sub]) & intersects_xy(b[where], xy[sub])
        self.overlap_total = float(np.nansum(areas))
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
            try:
                points, count = intersection_points(a, b)
            except NotImplementedError:  # rounded shapes: not implemented yet
                continue
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
    "right click: add an ellipse   E C B R P S K U: add ellipse, circle, box, rotated box, polygon, segment, capsule, rounded box",
    "X / Delete / middle click: remove the shape under the mouse",
    "Space: pause   . or Right: one frame   F: physics mode on/off",
    "1 intersection points   2 contact normals + depth   3 overlap regions   4 bounding boxes   5 broad-phase grid",
    "Esc / Q: quit",
)
