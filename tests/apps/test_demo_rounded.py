"""The demo with a capsule and a rounded box: drawn with their arcs, dragged into a collision,
thrown, and pushed apart by the physics; headless under SDL's dummy video driver."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np
import pytest

import collide2d as c2
from collide2d.demo import CAPSULE, CIRCLE, RED, ROUNDED_BOX, Demo, Physics, World

W, H = 400, 300


@pytest.fixture
def pg():
    return pytest.importorskip("pygame", reason="pygame-ce is not installed (pip install 'collide2d[demo]')")


def world_of(*shapes):
    world = World(W, H)
    world.scale = 20.0
    for kind, pos, size, angle in shapes:
        world.add(kind, pos, size, angle=angle)
    return world


def post(pg, kind, **fields):
    pg.event.post(pg.event.Event(kind, **fields))


def test_world_builds_capsules_and_rounded_boxes():
    world = world_of((CAPSULE, (100, 150), (40, 15), 0.5), (ROUNDED_BOX, (300, 150), (30, 20), 0.2))
    groups = world.shapes()
    cap, box = (groups.table[int(t)] for t in np.argsort(groups.order))
    assert isinstance(cap, c2.Capsule) and float(cap.radius) == 15.0
    assert isinstance(box, c2.RotatedBox) and float(box.radius) == pytest.approx(8.0)
    np.testing.assert_allclose(cap.centroid, (100, 150), atol=1e-9)
    area, inertia = world.mass_and_inertia()
    np.testing.assert_allclose(area, [cap.area, box.area], rtol=1e-12)  # Steiner's formula, both ways
    assert np.all(np.isfinite(inertia) & (inertia > 0))
    counts = World.random(10, 2, seed=1, width=W, height=H).kind_counts()
    assert counts["capsule"] == counts["rounded box"] == 2


def test_drag_and_throw_a_capsule_into_a_rounded_box(pg, tmp_path):
    world = world_of((CAPSULE, (100, 150), (40, 15), 0.0), (ROUNDED_BOX, (300, 150), (30, 20), 0.0))
    d = Demo(world, headless=True)
    try:
        d.frame(events=[])
        assert not len(d.pairs)
        post(pg, pg.MOUSEBUTTONDOWN, pos=(100, 150), button=1)
        for x in range(110, 231, 20):
            post(pg, pg.MOUSEMOTION, pos=(x, 150), rel=(20, 0), buttons=(1, 0, 0))
        d.frame()  # dragged: held at the mouse, with the mouse's velocity
        np.testing.assert_allclose(world.pos[0], (230, 150))
        assert world.vel[0, 0] > 0
        d.overlays |= {"points", "overlap", "normals"}  # overlays skip what rounded shapes lack, draw the rest
        d.frame(events=[])
        # the capsule's right cap (x up to 230 + 40 + 15) reaches into the rounded box (x from 270 - 8)
        assert d.pairs.tolist() == [[0, 1]]
        d.screenshot(tmp_path / "rounded.png")
        image = pg.surfarray.array3d(pg.image.load(os.fspath(tmp_path / "rounded.png")))
        red = np.all(image == np.array(RED, dtype=image.dtype), axis=-1)
        assert red.any()
        # the outline is rounded: the box's corner pixel (its core corner plus r on both axes) stays empty
        x, y = 300 + 30 + 8 - 1, H - 1 - (150 + 20 + 8 - 1)
        assert not red[x, y] and tuple(image[x, y]) != tuple(RED)
        post(pg, pg.MOUSEMOTION, pos=(240, 150), rel=(10, 0), buttons=(1, 0, 0))
        d.frame()
        post(pg, pg.MOUSEBUTTONUP, pos=(240, 150), button=1)
        d.frame()
        assert abs(world.vel[0, 0]) == pytest.approx(10 / d.dt)  # released: thrown at the mouse's speed (and off the wall)
    finally:
        d.close()


def test_physics_pushes_a_capsule_and_a_rounded_box_apart():
    world = world_of((CAPSULE, (200, 150), (40, 15), 0.3), (ROUNDED_BOX, (240, 150), (30, 20), 0.0), (CIRCLE, (60, 60), (10, 10), 0.0))
    physics = Physics()
    before = c2.distance(*(world.shapes().table[int(t)] for t in np.argsort(world.shapes().order)[:2]))
    assert before == 0.0
    for _ in range(60):
        world.step(1 / 60, physics)
    shapes = [world.shapes().table[int(t)] for t in np.argsort(world.shapes().order)]
    assert c2.distance(shapes[0], shapes[1]) > 0.0 or c2.contact(shapes[0], shapes[1]).separation > -1.0
    assert np.all(np.isfinite(world.pos)) and np.all(np.isfinite(world.vel))
