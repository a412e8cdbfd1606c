"""The demo's stacking mode: ten boxes on a floor held by impulses at the manifold points.

Headless (no pygame needed for the simulation; the window test runs under SDL's dummy driver).
The stack is checked after 5 simulated seconds against its own geometry: each box should rest on
the one below (no sinking past the solver's slop), stand still (speeds, spins), and not jitter
(frame-to-frame moves over the last second). The same solver fed one point per pair
(:func:`collide2d.contact`) lets the stack topple: the second point is what holds it.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import collide2d as c2
from collide2d.demo.stacking import Impulses, StackDemo, stack_world

STEPS, DT = 300, 1 / 60  # 5 simulated seconds
HALF_HEIGHT = 16.0  # of the boxes of stack_world


class OnePoint(Impulses):
    """The solver with the one point of ``contact`` per pair instead of the manifold."""

    def manifolds(self, world, groups, pairs):
        points = []
        for rows, a, b in world.pair_batches(groups, pairs):
            c = c2.contact(a, b)
            for r, row in enumerate(rows.tolist()):
                if c.separation[r] <= self.margin:
                    mid = tuple((0.5 * (c.point_a[r] + c.point_b[r])).tolist())
                    points.append((int(pairs[row, 0]), int(pairs[row, 1]), mid, tuple(c.normal[r].tolist()), float(c.separation[r])))
        return points


def run(solver, steps=STEPS):
    world = stack_world(10)
    positions, angles, deepest = [], [], []
    for _ in range(steps):
        points = solver.step(world, DT)
        positions.append(world.pos[1:].copy())
        angles.append(world.angle[1:].copy())
        deepest.append(-min((p[4] for p in points), default=0.0))
    return world, np.array(positions), np.array(angles), np.array(deepest)


def test_ten_boxes_come_to_rest_on_the_floor():
    solver = Impulses()
    world, positions, angles, deepest = run(solver)
    last = slice(-60, None)  # the last simulated second
    # at rest: speeds well below a pixel per second, spins below a hundredth of a radian per second
    assert np.abs(world.vel[1:]).max() < 1.0
    assert np.abs(world.omega[1:]).max() < 0.01
    # no sinking: every contact within the slop, the heights still over the last second
    assert deepest[last].max() < solver.slop
    floor_top = 40.0
    resting = floor_top + HALF_HEIGHT + 2 * HALF_HEIGHT * np.arange(10)  # each box on the one below
    sunk = resting - positions[-1, :, 1]  # k + 1 contacts below box k, each within the slop
    assert (sunk > -0.01).all() and (sunk < solver.slop * np.arange(1, 11)).all()
    assert np.ptp(positions[last, :, 1], axis=0).max() < 0.02
    # no jitter: frame-to-frame moves below 1/20 px, the angles steady, the stack upright
    assert np.abs(np.diff(positions[last], axis=0)).max() < 0.05
    assert np.ptp(angles[last], axis=0).max() < 5e-3 and np.abs(angles[-1]).max() < 0.01
    assert np.abs(positions[-1, :, 0] - world.width / 2).max() < 5.0
    # two points per resting face: ten faces
    assert len(solver.manifolds(world, world.shapes(), solver.candidate_pairs(world, world.shapes()))) == 20


def test_one_contact_point_per_pair_lets_the_stack_topple():
    _, positions, angles, _ = run(OnePoint(), steps=180)
    assert np.abs(angles).max() > 0.3 or positions[:, -1, 1].min() < 200.0


def test_the_window_shows_the_manifold_points(tmp_path):
    pg = pytest.importorskip("pygame", reason="pygame-ce is not installed (pip install 'collide2d[demo]')")
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    from collide2d.demo import POINT_COLOR, main

    path = tmp_path / "stack.png"
    assert main(["--stack", "--headless", "--frames", "30", "--size", "480x400", "--screenshot", str(path)]) == 0
    image = pg.surfarray.array3d(pg.image.load(str(path)))
    assert (np.abs(image - np.array(POINT_COLOR)).sum(axis=-1) == 0).any()
    demo = StackDemo(stack_world(3, 480, 400), headless=True)
    try:
        demo.frame(events=[])
        demo.frame(events=[])
        assert demo.counts()[:2] == ["3 boxes", "6 contact points"]
    finally:
        demo.close()


@pytest.mark.parametrize("argv, message", [
    (["--stack", "--bullets"], "argument --bullets: not allowed with argument --stack"),
    (["--physics", "--stack"], "argument --stack: not allowed with argument --physics"),
    (["--stack", "--seed", "-1"], "argument --seed: expected an integer >= 0, got '-1'"),
    (["--stack", "--seed", "x"], "argument --seed: expected an integer >= 0, got 'x'"),
])
def test_bad_options_give_a_message_and_exit_code_2(argv, message, capsys):
    """Conflicting modes were silently resolved (--bullets won over --stack), and a negative seed
    ended in NumPy's traceback; both stop at the parser, before pygame or a kernel is touched."""
    from collide2d.demo import main

    with pytest.raises(SystemExit) as stop:
        main(["--headless", "--frames", "1", *argv])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_stack_too_tall_is_refused_at_once(capsys):
    """--stack --count 1000000 ran for hours before its first frame (the world grows box by box)."""
    from collide2d.demo import main

    assert main(["--stack", "--headless", "--frames", "1", "--count", "1000000"]) == 2
    err = capsys.readouterr().err
    assert "--stack takes at most 10000 boxes (--count), got 1000000" in err
