"""The compiled search of turning pairs (``collide2d._kernels.motion.toi_turning``) against the
Python search it replaces (``collide2d.motion.search._impact_search``, run by handing every pair
back) and against a brute-force reference.

The reference works on the public moves only (``rotate`` then ``translate`` of the shapes at each
time) and the exact predicates: at the time found the shapes are within 1e-9 of each other, a
nanosecond before it and at a dense grid of earlier times they are apart (``intersects`` is
exact); a pair reported as a miss is apart on the whole grid over ``[0, t_max]``.
"""

import math

import numpy as np
import pytest

import collide2d as c2
from collide2d._kernels.motion import constants
from collide2d.motion import search

KINDS = ("Point", "Circle", "Ellipse", "Box", "RotatedBox", "Polygon", "Segment", "Line")
PAIRS = [(p, q) for i, p in enumerate(KINDS) for q in KINDS[i:]]


def _batch(rng, kind, centres):
    """A batch of shapes of ``kind`` about ``centres`` (sizes 0.3 to 1)."""
    n = centres.shape[0]
    angle = rng.uniform(0, math.pi, n)
    if kind == "Point":
        return c2.Point(centres)
    if kind == "Circle":
        return c2.Circle(centres, rng.uniform(0.3, 1.0, n))
    if kind == "Ellipse":
        return c2.Ellipse(centres, rng.uniform(0.1, 1.0, (n, 2)), angle)
    if kind == "Box":
        half = rng.uniform(0.2, 1.0, (n, 2))
        return c2.Box(centres - half, centres + half)
    if kind == "RotatedBox":
        return c2.RotatedBox(centres, rng.uniform(0.2, 1.0, (n, 2)), angle)
    if kind == "Polygon":
        phi = np.sort(rng.uniform(0, 2 * math.pi, (n, 6)), axis=1)
        r = rng.uniform(0.5, 1.0, (n, 1))
        return c2.Polygon(centres[:, None, :] + r[..., None] * np.stack([np.cos(phi), np.sin(phi)], axis=-1))
    direction = np.stack([np.cos(angle), np.sin(angle)], axis=-1)
    if kind == "Segment":
        return c2.Segment(centres - direction, centres + direction)
    return c2.Line(centres, direction)


def _approach(rng, kind_a, kind_b, n):
    """``n`` pairs: a about the origin, b about (6, y) moving towards it or past it, both turning
    (a line only in one pair of three: a turning line is the Python search's)."""
    y = rng.uniform(-1.5, 1.5, n)
    a = _batch(rng, kind_a, np.zeros((n, 2)) + rng.uniform(-0.2, 0.2, (n, 2)))
    b = _batch(rng, kind_b, np.stack([np.full(n, 6.0), y], axis=-1))
    va = rng.uniform(-0.5, 0.5, (n, 2))
    vb = rng.uniform(1.0, 1.6, (n, 1)) * np.stack([np.full(n, -6.0), -y], axis=-1) + rng.uniform(-0.6, 0.6, (n, 2)) + va
    wa, wb = rng.uniform(-5, 5, n), rng.uniform(-5, 5, n)
    for kind, w in ((kind_a, wa), (kind_b, wb)):
        if kind == "Line":
            w[np.arange(n) % 3 != 0] = 0.0
    wa[(wa == 0.0) & (wb == 0.0)] = 1.0  # turning pairs only
    return a, b, va, vb, wa, wb


def _python_only(monkeypatch):
    """Every turning pair handed back to the Python search (the search before the kernel)."""
    monkeypatch.setattr(search, "_run_turning",
                        lambda *args: (np.full(args[5].shape[0], constants.EXACT), np.zeros((args[5].shape[0], 5))))


def _codes(monkeypatch):
    """The outcome codes of the kernel's calls (batches and single pairs), collected."""
    codes = []
    original = search._run_turning

    def counted(*args):
        code, out = original(*args)
        codes.extend(code.tolist())
        return code, out

    monkeypatch.setattr(search, "_run_turning", counted)
    return codes


def _identical(x, y):
    for field in range(3):
        p, q = np.asarray(x[field], dtype=float), np.asarray(y[field], dtype=float)
        assert np.array_equal(p, q, equal_nan=True), (field, p, q)


def _moved(shape, v, w, t):
    return c2.translate(c2.rotate(shape, w * t), np.multiply.outer(t, v))


def _check_reference(a, b, va, vb, wa, wb, time, t_max):
    """The brute-force reference (see the module): apart on a grid of 200 times before the time
    found and a nanosecond before it, within 1e-9 at it."""
    if time == 0.0:  # intersecting at the start (or two lines turning at different rates)
        at = np.zeros(1)
        assert c2.intersects(_moved(a, va, wa, at), _moved(b, vb, wb, at))[0] or wa != wb
        return
    end = min(time, t_max)
    grid = np.linspace(0.0, end, 200, endpoint=not math.isfinite(time))
    if math.isfinite(time) and time > 0.0:
        grid = np.append(grid[:-1], time - 1e-9)
    if grid.size:
        assert not np.any(c2.intersects(_moved(a, va, wa, grid), _moved(b, vb, wb, grid)))
    if math.isfinite(time) and time > 0.0:
        at = np.array([time])
        assert c2.distance(_moved(a, va, wa, at), _moved(b, vb, wb, at))[0] < 1e-9


@pytest.mark.parametrize("kind_a,kind_b", PAIRS)
def test_kernel_against_the_python_search_and_a_reference(kind_a, kind_b, monkeypatch):
    """Random turning pairs of every pair of kinds, both orders, batched and one at a time: the
    kernel's time, point and normal are the Python search's, bit for bit; alone and in a batch
    the same; and the times pass the brute-force reference."""
    rng = np.random.default_rng(sum(map(ord, kind_a + kind_b)))
    n, t_max = 6, 2.0
    a, b, va, vb, wa, wb = _approach(rng, kind_a, kind_b, n)
    for x, y, vx, vy, wx, wy in ((a, b, va, vb, wa, wb), (b, a, vb, va, wb, wa)):
        codes = _codes(monkeypatch)
        batch = c2.time_of_impact(x, y, vx, vy, angular_velocity_a=wx, angular_velocity_b=wy, t_max=t_max)
        singles = [c2.time_of_impact(x[k], y[k], tuple(vx[k].tolist()), tuple(vy[k].tolist()),
                                     angular_velocity_a=float(wx[k]), angular_velocity_b=float(wy[k]), t_max=t_max)
                   for k in range(n)]
        lines = (kind_a == "Line") + (kind_b == "Line")
        decided = sum(code <= constants.OVERLAP for code in codes[:n])
        assert decided >= (n if lines == 0 else 1), codes  # turning lines go to the Python search
        _python_only(monkeypatch)
        old = c2.time_of_impact(x, y, vx, vy, angular_velocity_a=wx, angular_velocity_b=wy, t_max=t_max)
        _identical(batch, old)
        for k in range(n):
            _identical(singles[k], (batch.time[k], batch.point[k], batch.normal[k]))
            _check_reference(x[k], y[k], vx[k], vy[k], wx[k], wy[k], float(batch.time[k]), t_max)
        monkeypatch.undo()


def test_outcome_codes():
    def codes(a, b, vb, wa, t_max, wb=0.0):
        motion = search._Motion(a, b, np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros((1, 2)),
                                np.array([vb], dtype=float), np.array([wa], dtype=float), np.array([wb]))
        return int(search._turning_kernel(motion, np.array([0]), np.array([t_max], dtype=float))[0][0])

    ellipse = c2.Ellipse((0, 0), (2, 1))
    assert codes(ellipse, c2.Circle((5, 0), 1), (-1, 0), 1.0, 10) == constants.HIT
    assert codes(ellipse, c2.Circle((5, 0), 1), (1, 0), 1.0, 10) == constants.MISS
    assert codes(ellipse, c2.Circle((10, 0), 1), (0, 0), 1e15, math.inf) == constants.MISS  # discs never meet
    assert codes(ellipse, c2.Circle((2.5, 0), 1), (0, 0), 1.0, 10) == constants.OVERLAP
    assert codes(c2.Line((0, 0), (1, 0)), c2.Circle((0, 3), 1), (0, 0), 1.0, 10) == constants.EXACT  # a turning line
    # two rates, no translation, overlapping discs, t_max = inf: the Python search refuses it
    thin, other = c2.Ellipse((0, 0), (2, 0.5), direction=(0, 1)), c2.Ellipse((2.9, 0), (1, 0.2))
    assert codes(thin, other, (0, 0), 1.0, math.inf, wb=2.0) == constants.EXACT
    assert codes(thin, c2.Circle((2.9, 0), 1), (0, 0), 1.0, math.inf) == constants.HIT  # periodic: one turn
    assert codes(ellipse, c2.Circle((3.0, 0.0), 1.0), (0, 0), 1.0, 1.0) == constants.OVERLAP  # touching at 0
    needle, disc = c2.Ellipse((0, 0), (5, 0.01)), c2.Circle((0, 4), 0.05)  # (test_spinning_needle_hits_disc_...)
    assert codes(needle, disc, (0, 0), 40.0, 1.0) == constants.HIT
    with pytest.MonkeyPatch.context() as patch:  # the Python search's cap on the rounds is the kernel's
        patch.setattr(search, "_MAX_STEPS", 3)
        assert codes(needle, disc, (0, 0), 40.0, 1.0) == constants.ROUNDS


@pytest.mark.parametrize("case", ["graze", "crawl", "fast turn", "periodic"])
def test_rounds_of_every_kind_match_the_python_search(case, monkeypatch):
    """The kernel's graze search, batched crawl, disc window and one-period bound: decided by the
    kernel, the Python search's floats."""
    if case == "graze":  # both tips meet at (0, 2) for one instant (test_turning_ellipse_tips_graze)
        args = (c2.Ellipse((0, 0), (2, 0.5)), c2.Ellipse((0, 3), (1, 0.3)))
        kwargs = dict(angular_velocity_a=1.0, angular_velocity_b=3.0, t_max=8.0)
    elif case == "crawl":  # a point closing in slowly on a spinning ellipse (test_long_slow_crawl; the
        # point's own turn, which moves nothing, keeps the pair from the period skipping of the Python search)
        args = (c2.Ellipse((0, 0), (1, 0.9)), c2.Point((0, 2)), (0, 0), (0, -0.01))
        kwargs = dict(angular_velocity_a=10.0, angular_velocity_b=1.0, t_max=200.0)
    elif case == "fast turn":  # the discs meet at 0.5, the tip sweeps its disc within 2 pi / w (the
        # circle's own turn keeps the pair from the period skipping of the Python search)
        args = (c2.Ellipse((0, 0), (2, 1), direction=(0, 1)), c2.Circle((3.5, 0), 1), (0, 0), (-1, 0))
        kwargs = dict(angular_velocity_a=1e3, angular_velocity_b=1.0, t_max=1.0)
    else:  # one shape turning, no translation: one period decides, t_max = inf
        args = (c2.Ellipse((0, 0), (2, 0.5), direction=(0, 1)), c2.Circle((2.9, 0), 1))
        kwargs = dict(angular_velocity_a=1.0, t_max=math.inf)
    codes = _codes(monkeypatch)
    got = c2.time_of_impact(*args, **kwargs)
    assert codes == [constants.HIT]
    assert math.isfinite(got.time)
    _python_only(monkeypatch)
    _identical(got, c2.time_of_impact(*args, **kwargs))


def test_single_plain_numbers_equal_the_batch():
    """The single-pair fast path (plain Python numbers, pairs far from the origin too) and the batch."""
    rng = np.random.default_rng(9)
    far = rng.uniform(-60.0, 60.0, (12, 2))
    far[:4] = 0.0
    a = c2.Ellipse(far + rng.normal(size=(12, 2)), rng.uniform(0.5, 1.5, (12, 2)), direction=rng.normal(size=(12, 2)))
    b = c2.Segment(far + rng.normal(size=(12, 2)) + 3.0, far + rng.normal(size=(12, 2)) + 3.0)
    v, w = rng.normal(size=(12, 2)) - 2.0, rng.uniform(-4, 4, 12)
    batch = c2.time_of_impact(a, b, (0.0, 0.0), v, angular_velocity_a=w, t_max=3.0)
    assert np.isfinite(batch.time).sum() >= 4
    for i in range(12):
        one = c2.time_of_impact(a[i], b[i], (0, 0), tuple(v[i].tolist()), angular_velocity_a=float(w[i]), t_max=3)
        _identical(one, (batch.time[i], batch.point[i], batch.normal[i]))
