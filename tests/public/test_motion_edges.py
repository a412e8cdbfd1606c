"""Time of impact at the edges: points at or near the origin against moving lines and segments,
pairs far from the origin, huge turns, an infinite ``t_max``, the same time alone and in a batch,
and motion arguments that are not numbers.

References, independent of the library's kernels:

* a point translating against a line or a segment: the first contact is the time at which the
  point crosses the line, ``t = (d x (P - Q)) / (d x V)`` (``Q`` a point of the line, ``d`` its
  direction, ``V`` the relative velocity), exact in ``fractions.Fraction``; for a segment the
  crossing must lie on it (its parameter in ``[0, 1]``, exact too);
* two translating circles: the smaller root of ``|d0 + V t| = r_a + r_b``, a quadratic solved in
  mpmath at 50 digits from the float inputs;
* huge turns: the bounding discs of the pair (the extent about the reference point) never meet,
  so there is no contact, whatever the turn.
"""

from __future__ import annotations

import math
import time
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import collide2d as c2
from collide2d import motion

T_MAX = 20.0
TOL = 1e-12  # of t_max: the accuracy of a translation at every coordinate magnitude


# -- the issue's cases -----------------------------------------------------------------------------------


def test_issue_examples():
    hit = c2.time_of_impact(c2.Point((0, 0)), c2.Line((17, -20), (0, 1)), (0, 0), (-7.5, 0), t_max=10)
    assert abs(Fraction(hit.time) - Fraction(17) / Fraction(7.5)) <= TOL * 10
    hit = c2.time_of_impact(c2.Point((1e-300, 0)), c2.Segment((17, -20), (17, 20)), (0, 0), (-1, 0), t_max=20)
    assert abs(hit.time - 17.0) <= TOL * 20
    a, b = c2.Circle((2.0**52, 0), 1), c2.Circle((2.0**52 + 4, 0.5), 1)
    assert c2.time_of_impact(a, b, (0, 0), (-1, 0), t_max=5).time == pytest.approx(2.0635083268962915, abs=TOL * 5)
    assert c2.time_of_impact(a, b, (0, 0), (-1, 0), t_max=3).time == pytest.approx(2.0635083268962915, abs=TOL * 3)
    # huge turns whose reach cannot close the gap: never, at once
    assert c2.time_of_impact(c2.Circle((0, 0), 1), c2.Ellipse((5, 0), (2, 1)), angular_velocity_b=1.0, t_max=1e14).time == math.inf
    assert c2.time_of_impact(c2.Circle((0, 0), 1), c2.Ellipse((5, 0), (2, 1)), angular_velocity_b=1e14, t_max=1).time == math.inf
    assert c2.time_of_impact(c2.Box((-1, -1), (1, 1)), c2.Circle((10, 0), 1), angular_velocity_a=1e15).time == math.inf


def test_a_point_at_1e300_beside_a_segment_is_measured_as_such():
    """The magnitude glue scaled a pair with an offset of 1e-300 so far up that the squared cross
    product of a point and an edge overflowed: the distance came out as that of an end point."""
    for x in (1e-300, -1e-300, 1e-310, 5e-324, 1e-200):
        for seg in (c2.Segment((17, -20), (17, 20)), c2.Segment((17, 20), (17, -20))):
            got = c2.contact(c2.Point((x, 0)), seg)
            assert got.separation == 17.0 - x and got.normal.tolist() == [1.0, 0.0]
            assert c2.contact(seg, c2.Point((x, 0))).separation == 17.0 - x


# -- points near the origin against moving lines and segments, exactly ------------------------------------


def _crossing(p, vp, q, d, vq, segment):
    """The first time (a Fraction, or None) a point ``p`` moving at ``vp`` meets the line through
    ``q`` of direction ``d`` (the segment from ``q`` to ``q + d``) moving at ``vq``."""
    P, Q, D = [tuple(map(Fraction, x)) for x in (p, q, d)]
    V = (Fraction(vq[0]) - Fraction(vp[0]), Fraction(vq[1]) - Fraction(vp[1]))  # of q relative to p
    w = (P[0] - Q[0], P[1] - Q[1])
    cross_w = D[0] * w[1] - D[1] * w[0]
    cross_v = D[0] * V[1] - D[1] * V[0]
    if cross_v == 0:
        return None  # the families avoid a point on the line at 0 or moving along it
    t = cross_w / cross_v
    if t < 0:
        return None
    if segment:
        rel = (w[0] - V[0] * t, w[1] - V[1] * t)
        s = (rel[0] * D[0] + rel[1] * D[1]) / (D[0] ** 2 + D[1] ** 2)
        if not 0 <= s <= 1:
            return None
    return t


def _near_origin_family(seed, count, segment):
    """Points at or next to the origin, lines or segments of small integer and dyadic data around
    them, one or both moving, in many framings."""
    rng = np.random.default_rng(seed)
    tiny = [0.0, 1e-300, -1e-300, 5e-324, 1e-200, 2.0**-60, -3e-17]
    cases = []
    while len(cases) < count:
        p = (float(rng.choice(tiny)), float(rng.choice(tiny)))
        q = tuple(float(x) for x in rng.integers(-30, 31, 2) * rng.choice([1.0, 0.5, 0.25]))
        d = tuple(float(x) for x in rng.integers(-40, 41, 2))
        if d == (0.0, 0.0):
            continue
        vq = tuple(float(x) for x in rng.integers(-16, 17, 2) * rng.choice([1.0, 0.5, 0.125]))
        vp = (0.0, 0.0) if rng.random() < 0.5 else tuple(float(x) for x in rng.integers(-3, 4, 2) * 0.5)
        want = _crossing(p, vp, q, d, vq, segment)
        if want is not None and segment:  # keep the crossing clear of the segment's ends
            P, V = np.array(p), np.array(vq) - np.array(vp)
            s = np.dot(P - (np.array(q) + V * float(want)), d) / np.dot(d, d)
            if min(abs(s), abs(1 - s)) < 1e-6:
                continue
        if want is not None and not 1e-3 < want < T_MAX * 0.999:
            continue
        cases.append((p, vp, q, d, vq, want))
    return cases


def _check_times(got, cases, t_max):
    for g, case in zip(np.atleast_1d(got).tolist(), cases):
        want = case[-1]
        if want is None:
            assert g == math.inf, case
        else:
            assert g <= t_max and abs(Fraction(g) - want) <= TOL * t_max, (case, g, float(want))


@pytest.mark.parametrize("segment", [False, True])
def test_points_near_the_origin_against_moving_lines_and_segments(segment):
    cases = _near_origin_family(3 + segment, 160, segment)
    point = c2.Point([c[0] for c in cases])
    vp = np.array([c[1] for c in cases])
    q, d, vq = (np.array([c[k] for c in cases]) for k in (2, 3, 4))
    other = c2.Segment(q, q + d) if segment else c2.Line(q, d)
    # batched, both orders
    _check_times(c2.time_of_impact(point, other, vp, vq, t_max=T_MAX).time, cases, T_MAX)
    _check_times(c2.time_of_impact(other, point, vq, vp, t_max=T_MAX).time, cases, T_MAX)
    # single calls, both orders, on a share of them
    for k in range(0, len(cases), 8):
        one, two = point[k], other[k]
        _check_times(c2.time_of_impact(one, two, vp[k], vq[k], t_max=T_MAX).time, cases[k : k + 1], T_MAX)
        _check_times(c2.time_of_impact(two, one, vq[k], vp[k], t_max=T_MAX).time, cases[k : k + 1], T_MAX)


@pytest.mark.parametrize("segment", [False, True])
def test_query_impacts_finds_points_near_the_origin(segment):
    cases = _near_origin_family(11 + segment, 30, segment)
    for k in range(0, len(cases), 2):
        p, vp, q, d, vq, want = cases[k]
        shapes = [c2.Point(p), c2.Segment(q, (q[0] + d[0], q[1] + d[1])) if segment else c2.Line(q, d)]
        for order in (shapes, shapes[::-1]):
            velocity = [vp, vq] if order is shapes else [vq, vp]
            hits = c2.query_impacts(order, velocity, t_max=T_MAX)
            if want is None:
                assert hits.pairs.shape[1] == 0, cases[k]
            else:
                assert hits.pairs.tolist() == [[0], [1]], cases[k]
                assert abs(Fraction(float(hits.time[0])) - want) <= TOL * T_MAX, cases[k]


# -- circles far from the origin, against mpmath ---------------------------------------------------------


def _circle_reference(ca, ra, va, cb, rb, vb, t_max):
    """The first time in ``[0, t_max]`` two translating circles touch, in mpmath at 50 digits (a
    root of ``|d0 + V t| = r_a + r_b``), None if never, or False for a near graze (the discriminant
    within 1e-6 of 0, relative), which the family leaves out."""
    with mpmath.workdps(50):
        d = [mpmath.mpf(cb[i]) - mpmath.mpf(ca[i]) for i in range(2)]
        v = [mpmath.mpf(vb[i]) - mpmath.mpf(va[i]) for i in range(2)]
        r = mpmath.mpf(ra) + mpmath.mpf(rb)
        a = v[0] ** 2 + v[1] ** 2
        b = d[0] * v[0] + d[1] * v[1]
        c = d[0] ** 2 + d[1] ** 2 - r * r
        if c <= 0:
            return mpmath.mpf(0)
        disc = b * b - a * c
        if abs(disc) < 1e-6 * a * r * r:
            return False
        if disc < 0 or b >= 0:
            return None
        t = (-b - mpmath.sqrt(disc)) / a
        return t if t <= t_max else None


@pytest.mark.parametrize("far", [1e6, 1e9, 1e12, 1e15, 2.0**52, -3e13])
def test_circles_far_from_the_origin(far):
    rng = np.random.default_rng(int(abs(far)) % 1000)
    n, t_max = 60, 5.0
    base = far + rng.uniform(-100, 100, (n, 2)).round(0)  # a spread of framings near `far`
    ca = base + rng.uniform(-2, 2, (n, 2))
    cb = ca + rng.uniform(-6, 6, (n, 2))
    ra, rb = rng.uniform(0.3, 1.5, n), rng.uniform(0.3, 1.5, n)
    va, vb = rng.normal(size=(n, 2)), rng.normal(size=(n, 2))
    wants = [_circle_reference(ca[k], ra[k], va[k], cb[k], rb[k], vb[k], t_max) for k in range(n)]
    keep = [k for k in range(n) if wants[k] is not False]
    wants = [wants[k] for k in keep]
    assert sum(w is not None for w in wants) >= 10
    a, b = c2.Circle(ca[keep], ra[keep]), c2.Circle(cb[keep], rb[keep])
    va, vb = va[keep], vb[keep]
    batch = c2.time_of_impact(a, b, va, vb, t_max=t_max).time
    for got in (batch, c2.time_of_impact(b, a, vb, va, t_max=t_max).time):
        for k, want in enumerate(wants):
            if want is None:
                assert got[k] == math.inf, k
            else:
                assert got[k] <= t_max and abs(mpmath.mpf(got[k]) - want) <= TOL * t_max, (k, got[k], want)
    for k in range(0, len(wants), 6):  # single calls: the same times
        assert c2.time_of_impact(a[k], b[k], va[k], vb[k], t_max=t_max).time == batch[k]


def test_query_impacts_far_from_the_origin():
    far = 2.0**52
    balls = c2.Circle([(far, 0), (far + 4, 0.5), (far, 50)], 1)
    hits = c2.query_impacts(balls, [(0, 0), (-1, 0), (0, 0)], t_max=5)
    assert hits.pairs.tolist() == [[0], [1]]
    assert hits.time[0] == pytest.approx(2.0635083268962915, abs=TOL * 5)


# -- huge turns and an infinite t_max --------------------------------------------------------------------


def _timed(call, limit=20.0):
    # A guard against the searches that ran for minutes (69-153 s of CPU before), not a speed
    # measurement: the limit leaves a slow or loaded machine ten times the usual margin.
    start = time.process_time()
    result = call()
    assert time.process_time() - start < limit
    return result


@pytest.mark.parametrize("w", [1.0, 1e3, 1e9, 1e11, 3e13, 1e15])
def test_huge_turns_that_cannot_close_the_gap(w):
    """The bounding discs never meet: no contact, at once, in both orders, single and batched."""
    ellipse, circle, box = c2.Ellipse((0, 0), (2, 1)), c2.Circle((10, 0), 1), c2.Box((-1, -1), (1, 1))
    for t_max in (1.0, 1e14, math.inf):
        for a, b, va, vb in ((ellipse, circle, (0, 0), (1, 0)), (ellipse, circle, (0, 0), (0, 0)),
                             (box, circle, (0, 0), (0, 1)), (ellipse, c2.Ellipse((5, 0), (2, 1)), (0, 0), (0, 0))):
            assert _timed(lambda: c2.time_of_impact(a, b, va, vb, angular_velocity_a=w, t_max=t_max)).time == math.inf
            assert _timed(lambda: c2.time_of_impact(b, a, vb, va, angular_velocity_b=w, t_max=t_max)).time == math.inf
    pair = (c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((7, 0), (3, 1)))
    got = _timed(lambda: c2.time_of_impact(*pair, angular_velocity_a=[w, -w], angular_velocity_b=2.5, t_max=math.inf))
    assert got.time.tolist() == [math.inf, math.inf]


def test_huge_turns_that_reach_the_other_shape():
    """The discs meet: the contact is real, found in a moment, at a time where the shapes are
    within the reach of the turn over the tolerance (see docs/motion.md)."""
    ellipse, circle = c2.Ellipse((0, 0), (2, 1), direction=(0, 1)), c2.Circle((3.5, 0), 1)
    for w in (1e3, 1e9, 1e13):
        hit = _timed(lambda: c2.time_of_impact(ellipse, circle, (0, 0), (-1, 0), angular_velocity_a=w, t_max=1))
        # the discs meet at 0.5; the tip sweeps its disc within a turn, 2 pi / w
        assert 0.5 * (1 - 1e-12) <= hit.time <= 0.5 + 2 * math.pi / w + 1e-12
        moved = c2.translate(circle, (-hit.time, 0))
        assert c2.distance(c2.rotate(ellipse, math.fmod(w * hit.time, 2 * math.pi)), moved) <= 2 * w * 2.0**-45 + 1e-9


def test_infinite_t_max_with_turning_shapes():
    ellipse, circle = c2.Ellipse((0, 0), (2, 0.5), direction=(0, 1)), c2.Circle((2.9, 0), 1)
    # one turning shape, no translation: periodic, bounded by one turn
    hit = _timed(lambda: c2.time_of_impact(ellipse, circle, angular_velocity_a=1.0, t_max=math.inf))
    assert hit.time == pytest.approx(c2.time_of_impact(ellipse, circle, angular_velocity_a=1.0, t_max=10).time, abs=1e-11)
    # the same rate on both: periodic too; these two stay perpendicular and never touch (also
    # with a finite t_max of many turns: one period decides)
    other = c2.Ellipse((2.9, 0), (1, 0.2))
    for t_max, w in ((math.inf, 1.0), (1e9, 1.0), (1.0, 1e12)):
        assert _timed(lambda: c2.time_of_impact(ellipse, other, angular_velocity_a=w, angular_velocity_b=w,
                                                t_max=t_max)).time == math.inf
    # translation: bounded by the time the discs part for good
    assert _timed(lambda: c2.time_of_impact(ellipse, circle, (0, 0), (0, 1e-3), angular_velocity_a=1.0,
                                            t_max=math.inf)).time < 2.0
    # two different rates without translation, discs overlapping: no finite bound, refused
    with pytest.raises(ValueError, match="t_max"):
        c2.time_of_impact(ellipse, other, angular_velocity_a=1.0, angular_velocity_b=2.0, t_max=math.inf)
    with pytest.raises(ValueError, match="t_max"):
        c2.time_of_impact(c2.Line((0, 0), (1, 0)), c2.Circle((2.9, 3), 1), (0, 0), (1, 0), angular_velocity_a=1.0, t_max=math.inf)
    # no motion at all, an infinite t_max: no warning (the suite turns warnings into errors)
    assert c2.time_of_impact(c2.Circle((0, 0), 1), c2.Circle((3, 0), 1), t_max=math.inf).time == math.inf
    assert c2.time_of_impact(ellipse, circle, t_max=math.inf).time == math.inf


# -- the same time alone and in a batch ------------------------------------------------------------------


def test_turning_pairs_alone_and_in_a_batch_agree_exactly():
    rng = np.random.default_rng(5)
    n = 24
    ca = rng.uniform(-3, 3, (n, 2))
    cb = ca + rng.uniform(3, 5, (n, 2)) * rng.choice([-1, 1], (n, 2))
    a = c2.Ellipse(ca, rng.uniform(0.3, 1.5, (n, 2)), direction=rng.normal(size=(n, 2)))
    b = c2.Polygon(cb[:, None, :] + np.array([[-1.0, -0.5], [1.0, -0.7], [0.2, 0.9]]))
    va, vb = 0.1 * rng.normal(size=(n, 2)), (ca - cb) * 0.5 + 0.3 * rng.normal(size=(n, 2))
    wa, wb = rng.uniform(-3, 3, n), rng.uniform(-3, 3, n)
    batch = c2.time_of_impact(a, b, va, vb, angular_velocity_a=wa, angular_velocity_b=wb, t_max=4)
    assert np.isfinite(batch.time).sum() >= n // 2
    for k in range(n):
        one = c2.time_of_impact(a[k], b[k], va[k], vb[k], angular_velocity_a=wa[k], angular_velocity_b=wb[k], t_max=4)
        assert one.time == batch.time[k], k
        assert one.normal.tolist() == batch.normal[k].tolist() or not np.isfinite(one.time)


# -- arguments that are not numbers ----------------------------------------------------------------------


def test_motion_arguments_refuse_booleans_and_strings():
    a, b = c2.Circle((0, 0), 1), c2.Circle((3, 0), 1)
    for kwargs, name in ((dict(t_max="2"), "t_max"), (dict(t_max=True), "t_max"), (dict(t_max=np.array([True])), "t_max"),
                         (dict(velocity_b=(True, False)), "velocity_b"), (dict(velocity_a=[(True, False)]), "velocity_a"),
                         (dict(angular_velocity_a=True), "angular_velocity_a"),
                         (dict(angular_velocity_b=np.array([False])), "angular_velocity_b"),
                         (dict(velocity_b=[[True, 2.0]]), "velocity_b"),  # NumPy would read 1.0, 2.0
                         (dict(t_max=np.array([3], "m8[s]")), "t_max")):  # a time span, not a number
        with pytest.raises(TypeError, match=name):
            c2.time_of_impact(a, b, **kwargs)
    balls = c2.Circle([(0, 0), (3, 0)], 1)
    for kwargs, name in ((dict(t_max=True), "t_max"), (dict(t_max="2"), "t_max"),
                         (dict(angular_velocity=True), "angular_velocity")):
        with pytest.raises(TypeError, match=name):
            c2.query_impacts(balls, [(1, 0), (0, 0)], **kwargs)
    with pytest.raises(TypeError, match="velocity"):
        c2.query_impacts(balls, (True, False))
    assert c2.query_impacts(balls, [(1, 0), (0, 0)], t_max=np.int64(2)).time.tolist() == [1.0]


def test_turning_in_step_and_drifting(monkeypatch):
    """Two ellipses turning in step, their discs overlapping, kept apart by their shapes (they stay
    perpendicular), drifting: whole periods are skipped while the drift cannot close the gap of a
    period. At 1e9 rad per unit time the conservative advancement alone stopped after its 4000
    rounds with a warning (10 s)."""
    e, o = c2.Ellipse((0, 0), (2, 0.5), direction=(0, 1)), c2.Ellipse((2.9, 0), (1, 0.2))
    for w in (1e6, 1e9, 1e12):
        got = _timed(lambda: c2.time_of_impact(e, o, (0, 0), (1e-4, 0), angular_velocity_a=w, angular_velocity_b=w))
        assert got.time == math.inf
    # drifting together: the same times as the search without skipping (to its tolerance)
    cases = [(50.0, (-0.1, 0.0)), (50.0, (-0.2, 0.01)), (20.0, (-0.15, -0.02)), (200.0, (-0.12, 0.03)), (50.0, (0.0, 0.3))]
    skipped = [c2.time_of_impact(e, o, (0, 0), v, angular_velocity_a=w, angular_velocity_b=w, t_max=10).time
               for w, v in cases]
    assert sum(math.isfinite(t) for t in skipped) == 4
    monkeypatch.setattr(motion.search, "_SKIP_FROM", math.inf)
    for (w, v), got in zip(cases, skipped):
        want = c2.time_of_impact(e, o, (0, 0), v, angular_velocity_a=w, angular_velocity_b=w, t_max=10).time
        assert got == pytest.approx(want, abs=1e-11)  # approx(inf) equals inf only


_SMALL = {"segment": lambda p, q: c2.Segment(p, q), "capsule": lambda p, q: c2.Capsule(p, q, 0.906)}


@pytest.mark.parametrize("name", sorted(_SMALL))
@pytest.mark.parametrize("spin", [0.0, 2.0], ids=["translating", "turning"])
def test_motion_beside_an_ellipse_of_size_1e149_is_answered(name, spin):
    """A unit segment or capsule translating (or turning too) beside an ellipse of size 1e149:
    the compiled searches evaluated the contact kernel before checking that the ellipse's row lies
    outside the tame magnitudes, and the kernel divided by an underflowed length
    (ZeroDivisionError). Now the row goes on to the Python search. Reference (bounding discs, exact
    in Fractions): the ellipse lies outside the disc of radius ``|c| - a_max`` about the origin and
    the moving shape, turning about a point of itself, inside the disc of radius
    ``reach + |v| t_max``, which is far smaller, so they never touch in [0, t_max]."""
    p, q = (0.3456, 0.8216), (0.3304, -1.3032)
    single, batch = _SMALL[name](p, q), _SMALL[name](np.array([p]), np.array([q]))
    big = c2.Ellipse((9e148, 4e148), (5e148, 4.5e148), direction=(1.0, 0.9))
    v, t_max = (1.0, 0.5), 1.0
    c = [Fraction(x) for x in (9e148, 4e148)]
    reach = max(abs(Fraction(x)) for x in (*p, *q)) * 4 + Fraction(0.906)
    assert (Fraction(5e148) + reach + 2 * Fraction(t_max)) ** 2 < c[0] ** 2 + c[1] ** 2  # |c| > a_max + reach + |v| t_max
    for small in (single, batch):
        for a, b, va, vb, spins in ((small, big, v, (0.0, 0.0), (spin, 0.0)), (big, small, (0.0, 0.0), v, (0.0, spin))):
            got = c2.time_of_impact(a, b, va, vb, angular_velocity_a=spins[0], angular_velocity_b=spins[1], t_max=t_max)
            assert np.all(np.asarray(got.time) == math.inf) and np.shape(got.time) == (() if small is single else (1,))
