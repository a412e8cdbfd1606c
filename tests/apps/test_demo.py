"""The pygame demo, headless: scripted events, screenshots, the physics mode.

Runs under SDL's dummy video driver; the window tests skip when pygame-ce is not installed (the
simulation and physics tests do not need it). Every scene is seeded or built by hand.
"""

from __future__ import annotations

import argparse
import os
import sys

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import numpy as np
import pytest

import collide2d as c2
from collide2d import demo as demo_module
from collide2d.demo import BOX, CAPSULE, CIRCLE, ELLIPSE, POLYGON, RED, ROTATED_BOX, ROUNDED_BOX, SEGMENT, Demo, Physics, World, hertz

W, H = 400, 300


@pytest.fixture
def pg():
    return pytest.importorskip("pygame", reason="pygame-ce is not installed (pip install 'collide2d[demo]')")


@pytest.fixture
def make_demo(pg):
    made = []

    def make(world, **options):
        d = Demo(world, headless=True, **options)
        made.append(d)
        return d

    yield make
    for d in made:
        d.close()


def still(*shapes, width=W, height=H):
    """A world of motionless shapes ``(kind, pos, size, angle)``."""
    world = World(width, height)
    world.scale = 20.0
    for kind, pos, size, angle in shapes:
        world.add(kind, pos, size, angle=angle, sides=5)
    return world


def pixels_of(pg, path, color):
    """Boolean (width, height) mask of the pixels of ``color`` in the image file ``path``."""
    image = pg.surfarray.array3d(pg.image.load(os.fspath(path)))
    return np.all(image == np.array(color, dtype=image.dtype), axis=-1)


def post(pg, kind, **fields):
    pg.event.post(pg.event.Event(kind, **fields))


def key(pg, code):
    post(pg, pg.KEYDOWN, key=code, mod=0, unicode="", scancode=0)
    post(pg, pg.KEYUP, key=code, mod=0, unicode="", scancode=0)


# -- the simulation (no pygame needed) ----------------------------------------------------------


def test_random_world_has_every_kind_and_is_seeded():
    a = World.random(30, 2, seed=5, width=W, height=H)
    b = World.random(30, 2, seed=5, width=W, height=H)
    counts = a.kind_counts()
    assert counts["ellipse"] == 30
    assert all(counts[name] == 2 for name in ("circle", "box", "rotated box", "polygon", "segment"))
    np.testing.assert_array_equal(a.pos, b.pos)
    assert np.all((a.pos > 0) & (a.pos < [W, H]))


def test_separated_world_starts_without_collisions():
    world = World.random(40, 1, seed=2, width=W, height=H, coverage=0.25, separated=True)
    assert len(world) > 30
    assert world.colliding_pairs().shape == (0, 2)


def test_colliding_pairs_are_state_indices():
    # the state is in no kind order: the table groups kinds, the pairs must map back
    world = still(
        (BOX, (100, 100), (20, 20), 0.0),
        (ELLIPSE, (300, 100), (30, 10), 0.0),
        (CIRCLE, (115, 100), (10, 10), 0.0),
        (SEGMENT, (300, 110), (20, 0), 1.5707963267948966),
    )
    assert world.colliding_pairs().tolist() == [[0, 2], [1, 3]]


def test_shapes_bounce_off_the_walls():
    world = still((ELLIPSE, (30, 150), (20, 10), 0.0))
    world.vel[0] = (-200.0, 0.0)
    for _ in range(60):
        world.step()
        bounds = world.shapes().table.bounds[0]
        assert bounds[0] > -200.0 / 60 - 1e-9  # out by at most one step
    assert world.vel[0, 0] > 0


def test_physics_separates_an_overlapping_pair():
    world = still((ELLIPSE, (180, 150), (50, 25), 0.3), (ELLIPSE, (230, 160), (40, 30), 1.0))
    physics = Physics()
    for frame in range(30):
        pairs, _ = world.step(physics=physics)
        if not len(pairs):
            break
    assert frame < 30 and not len(world.colliding_pairs())
    normal = world.vel[1] - world.vel[0]
    assert normal @ (world.pos[1] - world.pos[0]) > 0  # pushed apart, not through


@pytest.mark.parametrize(
    ("extras", "seed", "nudge"),
    [(0, 3, 0), (1, 0, 0), (1, 1, 0), (1, 2, 5), (1, 3, 0), (1, 3, 3)],
)
def test_physics_keeps_the_energy_bounded(extras, seed, nudge):
    # 40 ellipses (and with extras=1 one shape of each other kind) for 150 frames; nudge: the
    # velocities scaled by 1 + nudge ulps, a trajectory that differs in the last bits. Before the
    # swept step took the forces' push only while a shape moved, seed 3 reached 1.52x the starting
    # energy at frame 123 (nudged by 3 ulps 1.39x) and seed 2 nudged by 5 ulps 1.19x at frame 98.
    world = World.random(40, extras, seed=seed, width=600, height=450, coverage=0.3, separated=True)
    world.vel *= 1.0 + nudge * 2.0**-52
    physics = Physics()
    start = world.kinetic_energy()
    total, collisions = [], 0
    for _ in range(150):
        pairs, elastic = world.step(physics=physics)
        collisions += len(pairs)
        total.append(world.kinetic_energy() + elastic)
    assert collisions > 50  # the shapes did meet
    assert max(total) <= 1.02 * start
    assert total[-1] > 0.05 * start  # and they still move


def test_elastic_energy_is_the_work_of_the_capped_force():
    # two discs of radius 10 pressed 1 (below the depth cap, a quarter of their size 10) and 6
    # (beyond it) deep: the elastic energy is the work the force as applied gives back as they
    # part, the integral over the depth of Hertz's law at min(depth, cap) (here by the trapezoid rule)
    physics = Physics()
    for depth in (1.0, 6.0):
        world = still((CIRCLE, (100, 100), (10, 10), 0.0), (CIRCLE, (120 - depth, 100), (10, 10), 0.0))
        groups = world.shapes()
        pairs = world.colliding_pairs(groups)
        _, _, energy = physics.forces(world, pairs, world.contacts(groups, pairs))
        x = np.linspace(0.0, depth, 200001)
        stiffness, cap, radius = 4000.0 * world.scale, 0.25 * 10.0, 5.0  # radius: 1 / (1/10 + 1/10)
        f = hertz(np.minimum(x, cap), radius, stiffness)
        work = np.sum(0.5 * (f[1:] + f[:-1]) * np.diff(x))
        assert energy == pytest.approx(work, rel=1e-8)


def test_swept_step_pushes_a_stopped_shape_only_until_its_contact():
    # a disc of radius 4 at 6000 px/s towards a segment held in place, pushed on by a force that
    # adds 600 px/s over the step: it stops at its first contact, at t, and bounces off with
    # restitution 0.5 of the speed it has there, 6000 + 600 t / dt (not 6000 + 600)
    dt = 1 / 60
    world = World(400, 300)
    world.scale = 10.0
    world.add(SEGMENT, (200, 150), (60, 0), angle=np.pi / 2)
    world.add(CIRCLE, (100, 150), (4, 4), vel=(6000, 0))
    mass, _ = world.mass_and_inertia()
    force = np.array([[0.0, 0.0], [600.0 * mass[1] / dt, 0.0]])
    world.advance(dt, world.shapes(), force, np.zeros(2), frozen=(0,), swept=True)
    t = 96.0 / 6600.0  # the gap over the speed after the push
    assert world.pos[1, 0] == pytest.approx(196.0, abs=1e-9)
    assert world.vel[1, 0] == pytest.approx(-0.5 * (6000.0 + 600.0 * t / dt), rel=1e-9)
    assert world.vel[1, 1] == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("rod_first", [True, False])
def test_swept_step_impulse_acts_at_the_contact_point(rod_first):
    # a rod turning at 10 rad/s about its middle sweeps its end into a disc held in place: the
    # impulse at the contact point (Box2D's effective mass, the spin included) returns half the
    # speed at which the two points close there and turns the rod back; without the spin no
    # impulse would be exchanged (the rod's middle is still) and the rod would go on turning into the disc
    dt = 1 / 60
    world = World(400, 300)
    world.scale = 10.0
    shapes = [(SEGMENT, (200, 150), (60, 0), 10.0), (CIRCLE, (255, 160), (3, 3), 0.0)]
    for kind, pos, size, omega in shapes if rod_first else shapes[::-1]:
        world.add(kind, pos, size, omega=omega)
    rod, disc = (0, 1) if rod_first else (1, 0)
    energy = world.kinetic_energy()
    groups = world.shapes()
    hit = c2.time_of_impact(groups.batches[groups.kinds.index(SEGMENT)][0], groups.batches[groups.kinds.index(CIRCLE)][0],
                            (0.0, 0.0), t_max=dt, angular_velocity_a=10.0)
    assert 0 < hit.time < dt
    r = np.asarray(hit.point) - world.pos[rod]  # the rod's middle stays put until then
    n = np.asarray(hit.normal)  # from the rod to the disc
    arm = r[0] * n[1] - r[1] * n[0]
    world.advance(dt, groups, np.zeros((2, 2)), np.zeros(2), frozen=(disc,), swept=True)
    approach = 10.0 * arm  # the rod's contact point moves along n at omega (r x n)
    after = world.vel[rod] @ n + world.omega[rod] * arm
    assert approach > 0 and after == pytest.approx(-0.5 * approach, rel=1e-9)
    assert world.omega[rod] < 10.0 and world.kinetic_energy() < energy
    assert world.angle[rod] == pytest.approx(10.0 * hit.time, rel=1e-9)  # stopped at the contact


def test_physics_uses_the_contact_curvature():
    # the same depth between flatter boundaries (larger effective radius) pushes harder
    seen = []

    def law(depth, radius, stiffness):
        seen.append(radius.copy())
        return stiffness * np.sqrt(radius) * depth**1.5

    for radii in ((10, 10), (40, 10)):  # a circle pressed 2 deep onto a circle, then onto a flat side
        world = still((ELLIPSE, (100, 100), radii, 0.0), (CIRCLE, (100, 118), (10, 10), 0.0))
        world.step(physics=Physics(law=law))
    assert seen[0][0] == pytest.approx(5.0)  # 1 / (1/10 + 1/10)
    assert seen[1][0] == pytest.approx(1 / (1 / 10 + 10 / 40**2))


# -- the window ---------------------------------------------------------------------------------


def test_red_outline_exactly_when_a_pair_collides(make_demo, pg, tmp_path):
    apart = still((ELLIPSE, (100, 150), (40, 20), 0.5), (BOX, (300, 150), (30, 20), 0.0))
    touching = still((ELLIPSE, (100, 150), (40, 20), 0.0), (ELLIPSE, (160, 150), (20, 30), 0.0))  # vertex to vertex
    for world, expect in ((apart, False), (touching, True)):
        d = make_demo(world)
        d.frame(events=[])
        path = tmp_path / f"{expect}.png"
        d.screenshot(path)
        red = pixels_of(pg, path, RED)
        assert red.any() == expect
        assert (len(d.pairs) > 0) == expect


def test_red_pixels_only_around_colliding_shapes(make_demo, pg, tmp_path):
    world = World.random(40, 2, seed=11, width=W, height=H, coverage=0.25)
    d = make_demo(world)
    d.frame(events=[])
    d.screenshot(tmp_path / "scene.png")
    red = pixels_of(pg, tmp_path / "scene.png", RED)
    pairs = world.colliding_pairs()
    assert len(pairs) > 0 and red.any()
    allowed = np.zeros_like(red)
    bounds = np.empty((len(world), 4))
    groups = world.shapes()
    bounds[groups.order] = groups.table.bounds
    for i in np.unique(pairs):
        x0, y0, x1, y1 = bounds[i]
        allowed[max(int(x0) - 3, 0) : int(x1) + 4, max(int(H - y1) - 3, 0) : int(H - y0) + 4] = True
    assert not (red & ~allowed).any()
    # and every colliding shape shows some red
    for i in np.unique(pairs):
        x0, y0, x1, y1 = bounds[i]
        assert red[max(int(x0) - 3, 0) : int(x1) + 4, max(int(H - y1) - 3, 0) : int(H - y0) + 4].any()


def test_drag_moves_a_shape_into_a_collision(make_demo, pg, tmp_path):
    world = still((ELLIPSE, (100, 150), (40, 20), 0.0), (CIRCLE, (300, 150), (25, 25), 0.0))
    d = make_demo(world)
    d.frame(events=[])
    assert not len(d.pairs)
    post(pg, pg.MOUSEBUTTONDOWN, pos=(300, 150), button=1)  # screen y is flipped: (300, 150) is the circle
    for x in range(290, 149, -20):
        post(pg, pg.MOUSEMOTION, pos=(x, 150), rel=(-20, 0), buttons=(1, 0, 0))
    post(pg, pg.MOUSEBUTTONUP, pos=(150, 150), button=1)
    d.frame()
    np.testing.assert_allclose(world.pos[1], (150, 150))
    d.frame(events=[])
    assert d.pairs.tolist() == [[0, 1]]
    d.screenshot(tmp_path / "dragged.png")
    assert pixels_of(pg, tmp_path / "dragged.png", RED).any()


def test_wheel_rotates_and_shift_wheel_resizes(make_demo, pg):
    world = still((ELLIPSE, (200, 150), (40, 20), 0.0), (BOX, (60, 60), (20, 10), 0.0))
    d = make_demo(world)
    post(pg, pg.MOUSEMOTION, pos=(200, 150), rel=(0, 0), buttons=(0, 0, 0))
    post(pg, pg.MOUSEWHEEL, x=0, y=2, flipped=False)
    d.frame()
    assert world.angle[0] == pytest.approx(0.24)
    post(pg, pg.KEYDOWN, key=pg.K_LSHIFT, mod=pg.KMOD_LSHIFT, unicode="", scancode=0)
    post(pg, pg.MOUSEWHEEL, x=0, y=1, flipped=False)
    post(pg, pg.KEYUP, key=pg.K_LSHIFT, mod=0, unicode="", scancode=0)
    d.frame()
    np.testing.assert_allclose(world.size[0], (44, 22))
    assert world.angle[0] == pytest.approx(0.24)
    # an axis-aligned box turns into a rotated box
    post(pg, pg.MOUSEMOTION, pos=(60, H - 60), rel=(0, 0), buttons=(0, 0, 0))
    post(pg, pg.MOUSEWHEEL, x=0, y=-1, flipped=False)
    d.frame()
    assert world.kind[1] == ROTATED_BOX and world.angle[1] == pytest.approx(2 * np.pi - 0.12)


def test_keys_add_and_remove_shapes(make_demo, pg):
    world = still((ELLIPSE, (200, 150), (40, 20), 0.0))
    d = make_demo(world)
    keys = (pg.K_e, pg.K_c, pg.K_b, pg.K_r, pg.K_p, pg.K_s)
    for code, kind in zip(keys, (ELLIPSE, CIRCLE, BOX, ROTATED_BOX, POLYGON, SEGMENT)):
        post(pg, pg.MOUSEMOTION, pos=(40 + 60 * kind, 60), rel=(0, 0), buttons=(0, 0, 0))
        key(pg, code)
        d.paused = True
        d.frame()
        assert world.kind[-1] == kind
        np.testing.assert_allclose(world.pos[-1], (40 + 60 * kind, H - 60))
    assert len(world) == 7
    post(pg, pg.MOUSEBUTTONDOWN, pos=(330, 250), button=3)  # right click: an ellipse
    d.frame()
    assert len(world) == 8 and world.kind[-1] == ELLIPSE
    post(pg, pg.MOUSEMOTION, pos=(200, 150), rel=(0, 0), buttons=(0, 0, 0))
    key(pg, pg.K_x)
    d.frame()
    assert len(world) == 7 and not np.any(np.all(world.pos == (200, 150), axis=1))


def test_pause_and_single_step(make_demo, pg):
    world = still((ELLIPSE, (200, 150), (40, 20), 0.0))
    world.vel[0] = (60.0, 0.0)
    d = make_demo(world)
    key(pg, pg.K_SPACE)
    d.frame()
    d.frame()
    x = world.pos[0, 0]
    assert d.paused and x == 200.0
    key(pg, pg.K_PERIOD)
    d.frame()
    assert world.pos[0, 0] == pytest.approx(201.0)
    d.frame()
    assert world.pos[0, 0] == pytest.approx(201.0)
    key(pg, pg.K_SPACE)
    d.frame()
    assert world.pos[0, 0] == pytest.approx(202.0)


def test_overlays_toggle_and_draw(make_demo, pg, tmp_path):
    world = still((ELLIPSE, (170, 150), (60, 30), 0.3), (ROTATED_BOX, (230, 150), (40, 25), 0.8))
    d = make_demo(world)
    d.frame(events=[])
    d.screenshot(tmp_path / "plain.png")
    for code in (pg.K_1, pg.K_2, pg.K_3, pg.K_4, pg.K_5):
        key(pg, code)
    d.frame()
    assert d.overlays == set(demo_module.OVERLAYS)
    d.screenshot(tmp_path / "overlays.png")
    assert pixels_of(pg, tmp_path / "overlays.png", demo_module.POINT_COLOR).any()
    assert pixels_of(pg, tmp_path / "overlays.png", demo_module.NORMAL_COLOR).any()
    assert pixels_of(pg, tmp_path / "overlays.png", demo_module.BOUNDS_COLOR).any()
    assert not pixels_of(pg, tmp_path / "plain.png", demo_module.POINT_COLOR).any()
    assert d.overlap_total > 0
    key(pg, pg.K_1)
    d.frame()
    assert "points" not in d.overlays


def test_physics_key_and_help(make_demo, pg):
    world = still((ELLIPSE, (180, 150), (50, 25), 0.3), (ELLIPSE, (230, 160), (40, 30), 1.0))
    d = make_demo(world)
    key(pg, pg.K_f)
    key(pg, pg.K_h)
    for _ in range(30):
        d.frame()
    assert d.physics is not None and d.show_help
    assert not len(world.colliding_pairs())
    key(pg, pg.K_ESCAPE)
    d.frame()
    assert not d.running


def test_headless_command_writes_a_screenshot(pg, tmp_path, capsys):
    path = tmp_path / "demo.png"
    argv = ["--headless", "--frames", "8", "--screenshot", str(path), "--seed", "4", "--count", "60"]
    assert demo_module.main(argv + ["--size", "480x320"]) == 0
    image = pg.image.load(os.fspath(path))
    assert image.get_size() == (480, 320)
    out = capsys.readouterr().out
    assert "7 frames" in out and "per frame, cpu ms" in out
    red = pixels_of(pg, path, RED)
    assert red.any() == ("0 colliding pairs" not in out)


def test_command_registers_under_a_parent_parser():
    parser = argparse.ArgumentParser(prog="collide2d")
    commands = parser.add_subparsers(dest="command", required=True)
    demo_module.add_arguments(commands.add_parser("demo"))
    args = parser.parse_args(["demo", "--headless", "--frames", "3", "--overlays", "points,grid", "--physics"])
    assert args.run is demo_module.run_from_args
    assert args.overlays == ["points", "grid"] and args.physics and args.frames == 3
    with pytest.raises(SystemExit):
        parser.parse_args(["demo", "--overlays", "sparkles"])


def test_without_pygame_the_command_says_how_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pygame", None)  # import pygame now raises ImportError
    assert demo_module.main(["--headless", "--frames", "2"]) == 2
    assert "pip install 'collide2d[demo]'" in capsys.readouterr().err


def test_window_mode_runs_a_fixed_number_of_frames(pg, capsys):
    # not --headless: the window path (display flips, the frame-rate cap), here on the dummy driver
    assert demo_module.main(["--frames", "4", "--count", "20", "--extras", "0", "--fps", "240", "--timing"]) == 0
    assert "3 frames" in capsys.readouterr().out


# -- the text: a moving average on a translucent band ---------------------------------------------


def test_timing_moving_average_forgets_old_frames():
    timing = demo_module.Timing(window=4)
    for cpu in [0.050] * 10 + [0.002, 0.004, 0.006, 0.008]:  # slow frames (compiling), then fast ones
        timing.add("query", wall=2 * cpu, cpu=cpu)
        timing.add("draw", wall=0.001, cpu=0.001)
        timing.end_frame()
    recent, overall = timing.recent_ms("cpu"), timing.per_frame_ms("cpu")
    assert recent["query"] == pytest.approx(1e3 * (0.002 + 0.004 + 0.006 + 0.008) / 4, rel=1e-12)
    assert overall["query"] == pytest.approx(1e3 * (0.5 + 0.02) / 14, rel=1e-12)  # since the start, for the report
    assert timing.recent_ms("wall")["query"] == pytest.approx(10.0, rel=1e-12)
    assert recent["draw"] == pytest.approx(1.0, rel=1e-12) and recent["sim"] == 0.0
    assert demo_module.Timing().recent_ms()["draw"] == 0.0  # no frame yet


def test_text_shows_the_moving_average(make_demo, pg, monkeypatch):
    d = make_demo(still((ELLIPSE, (200, 150), (40, 20), 0.0)))
    d.frame(events=[])
    d.timing = demo_module.Timing(window=2)
    for query in (0.9, 0.003, 0.005):
        d.timing.add("query", wall=query, cpu=query)
        d.timing.end_frame()
    rows = []

    class Recording:  # the demo's font, keeping what it renders
        def render(self, text, *args):
            rows.append(text)
            return font.render(text, *args)

    font = d.font
    monkeypatch.setattr(d, "font", Recording())
    d._draw_text()
    assert "cpu ms/frame (last 2 frames): sim 0.0  shapes 0.0  query 4.0  measure 0.0  draw 0.0" in rows[1]


def test_text_band_is_translucent_over_shapes(make_demo, pg, tmp_path):
    # a large box under the text at the top left, and nothing under the band's right end
    world = still((BOX, (60, H - 20), (55, 30), 0.0))
    d = make_demo(world)
    d.frame(events=[])
    d.screenshot(tmp_path / "text.png")
    image = pg.surfarray.array3d(pg.image.load(os.fspath(tmp_path / "text.png"))).astype(np.int64)
    alpha = demo_module.TEXT_BAND_ALPHA / 255
    fill, background = np.array(demo_module.FILLS[BOX]), np.array(demo_module.BACKGROUND)
    blended = np.round(alpha * background + (1 - alpha) * fill)
    # the band's last row (y = 8 + 17 * 2 - 1), under the text and over the box: the box shows through
    assert np.abs(image[30, 41] - blended).max() <= 2, image[30, 41]
    assert np.abs(image[30, 41] - fill).max() > 10  # lighter than the box ...
    assert np.abs(image[30, 41] - background).max() > 10  # ... and not hidden by an opaque band
    assert np.abs(image[300, 41] - background).max() <= 1  # over the background: still the background


def test_the_window_answers_while_the_kernels_compile(make_demo, monkeypatch):
    # On a first run the kernels compile for tens of seconds: the window shows what it waits for,
    # keeps drawing, and can be closed meanwhile, instead of staying blank until they are ready.
    world = still()
    world.add(CIRCLE, (100.0, 100.0), (20.0, 20.0))
    d = make_demo(world)
    flips = []
    monkeypatch.setattr(d.pg.display, "flip", lambda: flips.append(d.surface.copy()))

    def slow_warm_up(measures=True):
        import time

        time.sleep(0.35)
        return 0.35

    monkeypatch.setattr(world, "warm_up", slow_warm_up)
    assert d.warm_up_in_view() == 0.35
    assert len(flips) >= 2  # drawn about every 0.1 s while waiting
    frame = d.pg.surfarray.array3d(flips[-1])
    assert (frame != demo_module.BACKGROUND).any()  # the message is on the screen

    def failing_warm_up(measures=True):
        raise ZeroDivisionError("in the compiler")

    monkeypatch.setattr(world, "warm_up", failing_warm_up)
    with pytest.raises(ZeroDivisionError, match="in the compiler"):
        d.warm_up_in_view()

    def endless_warm_up(measures=True):
        import time

        time.sleep(3.0)
        return 3.0

    monkeypatch.setattr(world, "warm_up", endless_warm_up)
    d.pg.event.post(d.pg.event.Event(d.pg.QUIT))
    assert d.warm_up_in_view() < 2.0  # closing the window stops the wait
    assert d.running is False


# -- a capsule and a rounded box ------------------------------------------------------------------


def world_of(*shapes):
    world = World(W, H)
    world.scale = 20.0
    for kind, pos, size, angle in shapes:
        world.add(kind, pos, size, angle=angle)
    return world


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
