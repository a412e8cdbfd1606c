"""The compiled search of turning pairs (``collide2d._kernels.motion.toi_turning``) against
independent references, and its cheap rounds on the last contact's axis.

The references work on the public moves only (``rotate`` then ``translate`` of the shapes at each
time) and the exact predicates (``intersects`` is exact): at the time found the shapes are within
1e-9 of each other, a nanosecond before it and at a dense grid of earlier times they are apart;
a pair reported as a miss is apart on the whole grid over ``[0, t_max]``. Where the grid finds a
first intersecting time, bisection on the exact predicate pins the first contact to 1e-12, and
the search's time must be within 1e-9 of it. The search itself is not compared with the Python
search (``collide2d.motion.search._impact_search``) bit for bit: its cheap rounds step on the
axis of the last contact (Box2D's separation functions, certified), so its floats differ; the
two agree within the documented rotation accuracy, which the slow cases check.

To keep the file cheap from an empty kernel cache, every kernel specialisation it compiles is
one the library needs anyway: one turning loop per pair of kinds (the 15 pairs; the shape
classes of one kind share it), each called batched and once per pair with the same argument
types.
"""

import math

import numpy as np
import pytest

import collide2d as c2
from collide2d._kernels.motion import constants, toi_turning
from collide2d.motion import search

KINDS = ("Point", "Circle", "Ellipse", "Box", "RotatedBox", "Polygon", "Segment", "Line")
# one class pair per pair of kinds (the loops), both orders in each test: Circle, Box, RotatedBox
# share the loops of Ellipse and Polygon and appear in the pairs not covered otherwise
PAIRS = [("Point", "Point"), ("Point", "Circle"), ("Ellipse", "Box"), ("Ellipse", "Ellipse"), ("Circle", "Segment"),
         ("Ellipse", "Line"), ("Point", "Polygon"), ("RotatedBox", "Polygon"), ("Polygon", "Segment"),
         ("Box", "Line"), ("Point", "Segment"), ("Segment", "Segment"), ("Segment", "Line"), ("Point", "Line"),
         ("Line", "Line")]


def _batch(rng, kind, centres, thin=1.0):
    """A batch of shapes of ``kind`` about ``centres`` (sizes 0.3 to 1; an ellipse's minor radius
    times ``thin``)."""
    n = centres.shape[0]
    angle = rng.uniform(0, math.pi, n)
    if kind == "Point":
        return c2.Point(centres)
    if kind == "Circle":
        return c2.Circle(centres, rng.uniform(0.3, 1.0, n))
    if kind == "Ellipse":
        radii = rng.uniform(0.1, 1.0, (n, 2))
        radii[:, 1] = np.minimum(radii[:, 1], radii[:, 0]) * thin
        return c2.Ellipse(centres, radii, angle)
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


def _approach(rng, kind_a, kind_b, n, spin=5.0, thin=1.0):
    """``n`` pairs: a about the origin, b about (6, y) moving towards it or past it, both turning
    (a line only in one pair of three: a turning line is the Python search's)."""
    y = rng.uniform(-1.5, 1.5, n)
    a = _batch(rng, kind_a, np.zeros((n, 2)) + rng.uniform(-0.2, 0.2, (n, 2)), thin)
    b = _batch(rng, kind_b, np.stack([np.full(n, 6.0), y], axis=-1), thin)
    va = rng.uniform(-0.5, 0.5, (n, 2))
    vb = rng.uniform(1.0, 1.6, (n, 1)) * np.stack([np.full(n, -6.0), -y], axis=-1) + rng.uniform(-0.6, 0.6, (n, 2)) + va
    wa, wb = rng.uniform(-spin, spin, n), rng.uniform(-spin, spin, n)
    for kind, w in ((kind_a, wa), (kind_b, wb)):
        if kind == "Line":
            w[np.arange(n) % 3 != 0] = 0.0
    wa[(wa == 0.0) & (wb == 0.0)] = 1.0  # turning pairs only
    return a, b, va, vb, wa, wb


def _identical(x, y):
    for field in range(3):
        p, q = np.asarray(x[field], dtype=float), np.asarray(y[field], dtype=float)
        assert np.array_equal(p, q, equal_nan=True), (field, p, q)


def _moved(shape, v, w, t):
    return c2.translate(c2.rotate(shape, w * t), np.multiply.outer(t, v))


def _first_contact(a, b, va, vb, wa, wb, t_max, samples=400):
    """The brute-force first contact: the first intersecting time of a grid of ``samples`` over
    ``[0, t_max]`` by the exact predicate, bisected to 1e-12 (inf: none on the grid)."""
    grid = np.linspace(0.0, t_max, samples + 1)
    hit = np.flatnonzero(c2.intersects(_moved(a, va, wa, grid), _moved(b, vb, wb, grid)))
    if hit.size == 0:
        return math.inf
    if hit[0] == 0:
        return 0.0
    lo, hi = grid[hit[0] - 1], grid[hit[0]]
    while hi - lo > 1e-12:
        mid = 0.5 * (lo + hi)
        if c2.intersects(_moved(a, va, wa, np.array([mid])), _moved(b, vb, wb, np.array([mid])))[0]:
            hi = mid
        else:
            lo = mid
    return hi


def _check_reference(a, b, va, vb, wa, wb, time, t_max):
    """The brute-force reference (see the module): apart on a grid of 200 times before the time
    found and a nanosecond before it, within 1e-9 at it, and no later than the bisected first
    intersecting time of a grid (a contact the grid sees)."""
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
    if math.isfinite(t_max):
        first = _first_contact(a, b, va, vb, wa, wb, t_max)
        assert time <= first + 1e-9, (time, first)


@pytest.mark.parametrize("kind_a,kind_b", PAIRS)
def test_kernel_against_a_reference(kind_a, kind_b, monkeypatch, outcome_codes):
    """Random turning pairs of every pair of kinds, both orders, batched and one at a time: the
    kernel decides them (but turning lines), alone and in a batch the same floats, the times
    pass the brute-force reference, and both orders the same time."""
    rng = np.random.default_rng(sum(map(ord, kind_a + kind_b)))
    n, t_max = 6, 2.0
    a, b, va, vb, wa, wb = _approach(rng, kind_a, kind_b, n)
    times = []
    for x, y, vx, vy, wx, wy in ((a, b, va, vb, wa, wb), (b, a, vb, va, wb, wa)):
        codes = outcome_codes(search, "_run_turning")
        batch = c2.time_of_impact(x, y, vx, vy, angular_velocity_a=wx, angular_velocity_b=wy, t_max=t_max)
        singles = [c2.time_of_impact(x[k], y[k], tuple(vx[k].tolist()), tuple(vy[k].tolist()),
                                     angular_velocity_a=float(wx[k]), angular_velocity_b=float(wy[k]), t_max=t_max)
                   for k in range(n)]
        lines = (kind_a == "Line") + (kind_b == "Line")
        decided = sum(code <= constants.OVERLAP for code in codes[:n])
        assert decided >= (n if lines == 0 else 1), codes  # turning lines go to the Python search
        monkeypatch.undo()
        for k in range(n):
            _identical(singles[k], (batch.time[k], batch.point[k], batch.normal[k]))
            _check_reference(x[k], y[k], vx[k], vy[k], wx[k], wy[k], float(batch.time[k]), t_max)
        times.append(batch.time)
    assert np.allclose(times[0], times[1], rtol=0.0, atol=1e-9, equal_nan=True) or np.array_equal(*times)


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
        patch.setattr(search, "_MAX_STEPS", 1)
        assert codes(needle, disc, (0, 0), 40.0, 1.0) == constants.ROUNDS


@pytest.mark.parametrize("case", ["graze", "crawl", "fast turn", "periodic"])
def test_slow_cases_decided_in_the_kernel(case, monkeypatch, outcome_codes):
    """The kernel's graze search, batched crawl, disc window and one-period bound: decided by the
    kernel (one HIT), within 1e-9 of the Python search's time (an independent search: its own
    steps), and the reference's contract."""
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
    monkeypatch.setattr(search, "_single_translation", lambda *a: None)  # single pairs: the batch path
    codes = outcome_codes(search, "_run_turning")
    got = c2.time_of_impact(*args, **kwargs)
    assert codes == [constants.HIT]
    assert math.isfinite(got.time)
    monkeypatch.setattr(search, "_run_turning",
                        lambda *a: (np.full(a[5].shape[0], constants.EXACT), np.zeros((a[5].shape[0], 5))))
    python = c2.time_of_impact(*args, **kwargs)
    assert abs(got.time - python.time) <= 1e-9 * max(1.0, python.time), (got.time, python.time)
    a, b = args[:2]
    va, vb = (args[2:4] + ((0, 0), (0, 0)))[:2]
    wa, wb = kwargs.get("angular_velocity_a", 0.0), kwargs.get("angular_velocity_b", 0.0)
    at = np.array([got.time])
    assert c2.distance(_moved(a, va, wa, at), _moved(b, vb, wb, at))[0] < 1e-9
    grid = np.append(np.linspace(0.0, got.time, 2000, endpoint=False), got.time - 1e-9)
    assert not np.any(c2.intersects(_moved(a, va, wa, grid), _moved(b, vb, wb, grid)))


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


# -- the cheap rounds on the last contact's axis ----------------------------------------------------


_CODES = {"ellipse": toi_turning.ELLIPSE, "polygon": toi_turning.POLYGON, "segment": toi_turning.SEGMENT,
          "point": toi_turning.POINT}


def _kernel_pair(a, b, va, vb, wa, wb):
    """The kernel's rows of one pair, as the search gets them (:class:`search._Motion`: shifted
    into the pair's frame): ``(kind, row, vertices)`` of each shape and the pair's numbers."""
    from collide2d._glue import run

    motion = search._Motion(a, b, np.zeros(1, np.int64), np.zeros(1, np.int64), np.array([va], dtype=float),
                            np.array([vb], dtype=float), np.array([wa], dtype=float), np.array([wb], dtype=float))
    _, numbers = search._kernel_rows(motion, np.array([0]), np.array([2.0]))
    spins = [motion.reach_a[0], motion.reach_b[0], motion.ext_a[0], motion.ext_b[0], 4000.0, 0.0, 0.0]
    sides = []
    for shape in (motion.a, motion.b):
        kind, p, verts = run.flat_rows(shape)
        sides.append((_CODES[kind], np.ascontiguousarray(p[0], dtype=float),
                      np.ascontiguousarray(verts, dtype=float).reshape(-1, 2)))
    return sides[0], sides[1], np.concatenate([numbers[0], spins])


@pytest.mark.parametrize("kind_a,kind_b", [("Ellipse", "Ellipse"), ("Ellipse", "Point"), ("Polygon", "Ellipse"),
                                           ("Segment", "RotatedBox")])
@pytest.mark.parametrize("thin", [1.0, 1e-4])
def test_axis_steps_are_certified(kind_a, kind_b, thin):
    """The cheap rounds' own contract, against the exact predicate: from a time apart, along a
    unit axis, the time :func:`toi_turning._axis_advance` reaches is one up to which the shapes
    are apart on a dense grid (no contact passed), and the axis separation at any time is below
    the distance (a lower bound). Random axes (the witness normal, and turned away from it),
    large turns, aspects to 1e4."""
    rng = np.random.default_rng(int(1e4 * thin) + len(kind_a + kind_b))
    for trial in range(12):
        a, b, va, vb, wa, wb = _approach(rng, kind_a, kind_b, 1, spin=20.0, thin=thin)
        a, b = a[0], b[0]
        va, vb, wa, wb = va[0], vb[0], float(wa[0]), float(wb[0])
        (ka, fa, fva), (kb, fb, fvb), row = _kernel_pair(a, b, va, vb, wa, wb)
        rate_a, bend_a = toi_turning._axis_constants(ka, fa, row[16], wa)
        rate_b, bend_b = toi_turning._axis_constants(kb, fb, row[17], wb)
        start = rng.uniform(0.0, 0.3)
        at = np.array([start])
        ma, mb = _moved(a, va, wa, at), _moved(b, vb, wb, at)
        if c2.intersects(ma, mb)[0]:
            continue
        normal = np.asarray(c2.contact(ma, mb).normal, dtype=float).reshape(2)
        tilt = rng.choice([0.0, rng.uniform(-0.3, 0.3)])
        c, s = math.cos(tilt), math.sin(tilt)
        nx, ny = c * normal[0] - s * normal[1], s * normal[0] + c * normal[1]
        g, _, _ = toi_turning._axis_gap(ka, fa, fva, kb, fb, fvb, row, nx, ny, start)
        if not g > 0.0:
            continue
        reached = toi_turning._axis_advance(ka, fa, fva, kb, fb, fvb, row, nx, ny, start, 2.0, rate_a + rate_b,
                                            (bend_a + bend_b) * (1 + 2.0**-40), 0.0)
        assert reached >= start
        times = np.linspace(start, reached, 400)
        assert not np.any(c2.intersects(_moved(a, va, wa, times), _moved(b, vb, wb, times))), (trial, reached)
        for t in times[::40]:
            g, _, _ = toi_turning._axis_gap(ka, fa, fva, kb, fb, fvb, row, nx, ny, t)
            d = c2.distance(_moved(a, va, wa, np.array([t])), _moved(b, vb, wb, np.array([t])))[0]
            assert g <= d + 1e-12


@pytest.mark.parametrize("thin", [1.0, 1e-2, 1e-4])
def test_turning_ellipses_against_the_bisected_reference(thin):
    """Ellipses (aspect to 1e4) turning fast (to 30 rad per unit time) towards ellipses, both
    orders, batched and singly: the time of the first contact within 1e-9 of the reference's
    (grid plus bisection on the exact predicate), never after it, and misses apart on the grid."""
    rng = np.random.default_rng(int(1 / thin))
    n, t_max = 8, 2.0
    a, b, va, vb, wa, wb = _approach(rng, "Ellipse", "Ellipse", n, spin=30.0, thin=thin)
    batch = c2.time_of_impact(a, b, va, vb, angular_velocity_a=wa, angular_velocity_b=wb, t_max=t_max)
    mirror = c2.time_of_impact(b, a, vb, va, angular_velocity_a=wb, angular_velocity_b=wa, t_max=t_max)
    hits = 0
    for k in range(n):
        one = c2.time_of_impact(a[k], b[k], tuple(va[k].tolist()), tuple(vb[k].tolist()),
                                angular_velocity_a=float(wa[k]), angular_velocity_b=float(wb[k]), t_max=t_max)
        _identical(one, (batch.time[k], batch.point[k], batch.normal[k]))
        first = _first_contact(a[k], b[k], va[k], vb[k], wa[k], wb[k], t_max, samples=2000)
        for time in (batch.time[k], mirror.time[k]):
            if math.isinf(first):
                if math.isfinite(time):  # a contact the grid missed: a touch, apart before it
                    _check_reference(a[k], b[k], va[k], vb[k], wa[k], wb[k], float(time), t_max)
                continue
            assert abs(time - first) <= 1e-9, (k, time, first)
        hits += math.isfinite(first)
    assert hits >= 2
