"""Time of impact of translating pairs: the compiled search (same floats as the Python search),
its outcome codes, and the exact hit-or-miss of points, segments, lines, boxes, rotated boxes,
polygons and circles on grazes and near misses (references in exact rationals, written here
independently of collide2d.motion.exact)."""

import math
from fractions import Fraction

import numpy as np
import pytest

import collide2d as c2
from collide2d._glue import run
from collide2d.motion import search
from motion_references import check, first_contact

F = Fraction
TINY = 5e-324
OFFSETS = [1e-15, 1e-100, 1e-300, TINY]


def both_orders(a, b, va, vb, t_max):
    """time_of_impact of (a, b) and of (b, a), single and in a batch of three copies."""
    out = []
    for x, y, vx, vy in ((a, b, va, vb), (b, a, vb, va)):
        out.append(c2.time_of_impact(x, y, vx, vy, t_max=t_max).time)
        batch = c2.time_of_impact(x, y, np.tile(vx, (3, 1)), np.tile(vy, (3, 1)), t_max=t_max)
        out.extend(batch.time.tolist())
    return out


def slab_time(lo_a, hi_a, lo_b, hi_b, v, t_max):
    """Exact first contact of two translating axis-aligned boxes (b moves by v): slabs in Fractions."""
    lo, hi = F(0), F(t_max)
    for i in range(2):
        a0, a1, b0, b1, vi = F(lo_a[i]), F(hi_a[i]), F(lo_b[i]), F(hi_b[i]), F(v[i])
        if vi == 0:
            if b0 > a1 or b1 < a0:
                return None
            continue
        enter, leave = min((a0 - b1) / vi, (a1 - b0) / vi), max((a0 - b1) / vi, (a1 - b0) / vi)
        lo, hi = max(lo, enter), min(hi, leave)
    return lo if lo <= hi else None


@pytest.mark.parametrize("offset", OFFSETS)
@pytest.mark.parametrize("base", [0.0, 1e15])
def test_boxes_passing_a_corner_exactly(offset, base):
    # b slides along x past a's top edge; it is above it by the float just above the edge, or on it
    top = base + 1.0
    above = math.nextafter(top, math.inf) if offset == TINY or top + offset == top else top + offset
    for y0, touches in ((above, False), (top, True)):
        a = c2.Box((base, base), (base + 1.0, top))
        b = c2.Box((base + 5.0, y0), (base + 6.0, y0 + 1.0))
        expected = slab_time((base, base), (base + 1.0, top), (base + 5.0, y0), (base + 6.0, y0 + 1.0), (-1.0, 0.0), 10)
        assert (expected is not None) == touches
        for t in both_orders(a, b, (0.0, 0.0), (-1.0, 0.0), 10.0):
            assert t == (float(expected) if touches else math.inf)


def test_issue_examples():
    box = c2.time_of_impact(c2.Box((0, 0), (1, 1)), c2.Box((5, 1 + 1e-15), (6, 2)), (0, 0), (-1, 0), t_max=10)
    assert box.time == math.inf and np.isnan(box.point).all()
    point = c2.time_of_impact(c2.Point((0, 0)), c2.Point((5, 1e-100)), (0, 0), (-1, 0), t_max=10)
    assert point.time == math.inf
    assert c2.time_of_impact(c2.Point((0, 0)), c2.Point((5, 0)), (0, 0), (-1, 0), t_max=10).time == 5.0


@pytest.mark.parametrize("offset", OFFSETS)
@pytest.mark.parametrize("base", [0.0, 1e15])
def test_points_and_segments_near_miss(offset, base):
    # a point passing a point, a segment's end, a line: by `offset` (or the next float) above it
    y = math.nextafter(base, math.inf) if base + offset == base else base + offset
    b = c2.Point((base + 5.0, y))
    for a, hit_y in ((c2.Point((base, base)), base), (c2.Segment((base - 1.0, base - 1.0), (base, base)), base)):
        assert F(y) != F(hit_y)
        assert all(t == math.inf for t in both_orders(a, b, (0.0, 0.0), (-1.0, 0.0), 10.0))
        on = c2.Point((base + 5.0, base))
        assert all(t == 5.0 for t in both_orders(a, on, (0.0, 0.0), (-1.0, 0.0), 10.0))
    # a horizontal line below the moving point: never met, however close
    line = c2.Line((base, base), (1.0, 0.0))
    assert all(t == math.inf for t in both_orders(line, b, (0.0, 0.0), (-1.0, 0.0), 10.0))


def circle_reference(ca, ra, cb, rb, v, t_max):
    """Exact decision (the sign of the discriminant in Fractions) and the root to 50 digits."""
    dx, dy = F(cb[0]) - F(ca[0]), F(cb[1]) - F(ca[1])
    vx, vy = F(v[0]), F(v[1])
    a, b = vx * vx + vy * vy, dx * vx + dy * vy
    c = dx * dx + dy * dy - (F(ra) + F(rb)) ** 2
    disc = b * b - a * c
    if disc < 0 or b >= 0:
        return None
    import mpmath

    with mpmath.workdps(50):
        q = lambda x: mpmath.mpf(x.numerator) / x.denominator  # noqa: E731
        root = (-q(b) - mpmath.sqrt(q(disc))) / q(a)
    return root if root <= t_max else None


@pytest.mark.parametrize("offset", [1e-15, 1e-16, 1e-100, 0.0, -1e-15])
def test_circles_graze_by_the_discriminant(offset):
    # two unit circles passing at a centre distance 2 + offset (a tangent graze for offset 0)
    ca, cb = (0.0, 0.0), (5.0, 2.0 + offset)
    expected = circle_reference(ca, 1.0, cb, 1.0, (-1.0, 0.0), 10.0)
    times = both_orders(c2.Circle(ca, 1.0), c2.Circle(cb, 1.0), (0.0, 0.0), (-1.0, 0.0), 10.0)
    if expected is None:
        assert all(t == math.inf for t in times)
    else:
        for t in times:
            assert abs(t - float(expected)) <= 1e-12 * 10 and t <= float(expected) + 1e-15


def test_circle_and_point_far_from_the_origin():
    base = 1e15
    for y, hits in ((base + 1.0, True), (math.nextafter(base + 1.0, math.inf), False)):  # 0.125 above
        a, b = c2.Circle((base, base), 1.0), c2.Point((base + 5.0, y))
        times = both_orders(a, b, (0.0, 0.0), (-1.0, 0.0), 10.0)
        assert all((t == 5.0) if hits else (t == math.inf) for t in times)


def _same_floats(x, y, k):
    """Whether row ``k`` of two batched impacts has the same time, point and normal, bit for bit."""
    for field in range(3):
        p, q = np.asarray(x[field])[k], np.asarray(y[field])[k]
        if not (np.array_equal(p.view(np.int64), q.view(np.int64)) or np.array_equal(p, q, equal_nan=True)):
            return False
    return True


def _close_impacts(x, y, t_max, normal_tol=1e-9):
    """Two answers of one call within the contract's tolerance of each other: the same hits and
    misses, times within ``1e-12 t_max``, points within ``1e-9`` and normals within ``1e-9``
    (two ellipses: the Perram-Wertheim search of the compiled loop gives other floats than the
    general search; each is checked against an independent reference in
    tests/kernels/motion/test_toi_ellipse.py)."""
    tx, ty = np.asarray(x.time), np.asarray(y.time)
    assert np.array_equal(np.isinf(tx), np.isinf(ty))
    hit = np.isfinite(tx)
    assert np.all(np.abs(tx[hit] - ty[hit]) <= 1e-12 * t_max)
    for field, tol in ((1, 1e-9), (2, normal_tol)):
        p, q = np.asarray(x[field]), np.asarray(y[field])
        assert np.allclose(p, q, rtol=0.0, atol=tol, equal_nan=True)


def test_kernel_gives_the_python_search_floats(monkeypatch, outcome_codes):
    """Every pair the compiled search decides gets the floats of the Python search, bit for bit
    (random translating pairs of every family of kinds, single and batched); a flat pair that the
    closed form decides (``_kernels/motion/toi_closed.py``) gets the exact contact instead (the
    largest float not above it, or within ``TIME_TOL`` below it), and the pairs of two ellipses,
    which the Perram-Wertheim search decides first, answers within the contract's tolerance."""
    rng = np.random.default_rng(7)
    n = 24
    c = rng.normal(size=(n, 2)) * 3
    pairs = [
        (c2.Ellipse(c, rng.uniform(0.3, 1.5, (n, 2)), direction=rng.normal(size=(n, 2))), c2.Circle(-c, 1.0)),
        (c2.Box(c, c + 1.0), c2.Segment(-c, -c + rng.normal(size=(n, 2)))),
        (c2.Point(c), c2.RotatedBox(-c, (1.0, 0.5), angle=rng.uniform(0, 3, n))),
        (c2.Line(c, rng.normal(size=(n, 2))), c2.Circle(-c, 0.5)),
    ]
    v = 2.0 * c * rng.uniform(0.3, 1.0, (n, 1))  # b (about -c) towards a (about c) ...
    v[::3] *= -1.0  # ... or away
    # (b's segment ends aim at a's box corners: exactly, they pass by a rounding hair or touch, which
    # the exact check decides; here both searches are compared without it)
    monkeypatch.setattr(search, "_exact_translation", lambda *args: None)
    fast = [c2.time_of_impact(a, b, (0.0, 0.0), v, t_max=4.0) for a, b in pairs]
    monkeypatch.setattr(search, "_translation_batch", lambda *args: None)  # (batches through _translation_kernel)
    codes = outcome_codes(search, "_translation_kernel")
    [c2.time_of_impact(a, b, (0.0, 0.0), v, t_max=4.0) for a, b in pairs]
    assert codes.count(0) >= 20 and codes.count(1) >= 10  # hits and misses decided by the kernel

    def handed_back(motion, rows, t_max):
        return np.full(rows.size, 3), np.zeros((rows.size, 5))

    monkeypatch.setattr(search, "_translation_batch", lambda *args: None)  # (batches through _translation_kernel)
    monkeypatch.setattr(search, "_translation_kernel", handed_back)
    slow = [c2.time_of_impact(a, b, (0.0, 0.0), v, t_max=4.0) for a, b in pairs]
    _close_impacts(fast[0], slow[0], 4.0)  # (ellipse and circle: the Perram-Wertheim search)
    for (a, b), x, y in zip(pairs[1:], fast[1:], slow[1:]):
        for k in range(n):
            if not _same_floats(x, y, k):  # the closed form of flat pairs: the exact contact instead
                assert run.kind_of(a) != "ellipse" and run.kind_of(b) != "ellipse"
                check(x.time[k], first_contact(a[k], b[k], (0.0, 0.0), v[k], 4.0), 4.0)


def test_single_plain_numbers_equal_the_batch():
    # the single-pair fast path (plain Python numbers) and the batched path: the same floats
    rng = np.random.default_rng(3)
    far = rng.uniform(-60.0, 60.0, (16, 2))  # most pairs searched in a frame away from the origin
    far[:4] = 0.0
    a = c2.Ellipse(far + rng.normal(size=(16, 2)), rng.uniform(0.5, 1.5, (16, 2)), direction=rng.normal(size=(16, 2)))
    b = c2.Segment(far + rng.normal(size=(16, 2)) + 4.0, far + rng.normal(size=(16, 2)) + 4.0)
    v = rng.normal(size=(16, 2)) - 2.0
    batch = c2.time_of_impact(a, b, (0.0, 0.0), v, t_max=3.0)
    for i in range(16):
        one = c2.time_of_impact(a[i], b[i], (0, 0), tuple(v[i].tolist()), t_max=3)
        assert one.time == batch.time[i] or (math.isinf(one.time) and math.isinf(batch.time[i]))
        assert np.array_equal(one.point, batch.point[i], equal_nan=True)
        assert np.array_equal(one.normal, batch.normal[i], equal_nan=True)


def test_outcome_codes():
    from collide2d._kernels.motion import constants

    # the compiled search keeps its own copies of the search's constants: the same values
    assert (constants.TIME_TOL, constants.NOISE, constants.CERTIFY, constants.GRAZE, constants.SLOW) == (
        search._TIME_TOL, search._NOISE, search._CERTIFY, search._GRAZE, search._SLOW)
    assert constants.OVERLAP == search._OVERLAP and constants.HIT < constants.MISS < constants.OVERLAP

    def codes(a, b, vb, t_max):
        motion = search._Motion(a, b, np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros((1, 2)),
                                np.array([vb], dtype=float), np.zeros(1), np.zeros(1))
        return int(search._translation_kernel(motion, np.array([0]), np.array([t_max], dtype=float))[0][0])

    unit = c2.Circle((0, 0), 1)
    assert codes(unit, c2.Circle((5, 0), 1), (-1, 0), 10) == constants.HIT
    assert codes(unit, c2.Circle((5, 0), 1), (1, 0), 10) == constants.MISS
    assert codes(unit, c2.Circle((5, 0), 1), (-1, 0), 2) == constants.MISS
    assert codes(unit, c2.Circle((1, 0), 1), (-1, 0), 10) == constants.OVERLAP
    assert (constants.NEAR, constants.MINIMUM) == (search._NEAR, search._MINIMUM)
    # a tangent graze: the kernel's search for the minimum decides it (touching at the minimum)
    assert codes(unit, c2.Circle((5, 2), 1), (-1, 0), 10) == constants.MINIMUM
    assert codes(unit, c2.Circle((5, 2 + 1e-9), 1), (-1, 0), 10) == constants.MISS  # a near miss, decided


def _graze_pairs():
    """Translating pairs that graze, pass by a hair or meet at a sharp minimum (``b`` moves by
    ``(-1, 0)`` from ``x = 5``): every family of kinds, the cases that the compiled search once
    handed back to the Python search. (Curved pairs penetrating by 1e-14 to 1e-9 still go there:
    their certification falls within the sign band where the relation kernel's float filter
    cannot tell, and the exact relation is Python's.)"""
    pairs = []
    for dy in (0.0, 1e-15, -1e-15, 1e-9, -1e-3):
        pairs += [
            (c2.Circle((0, 0), 1), c2.Circle((5, 2 + dy), 1)),  # circles touching at one instant
            (c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((5, 2 + dy), (0.5, 1), angle=0.0)),  # ellipses, the same
            (c2.Ellipse((0, 0), (1.5, 0.5), angle=0.4), c2.Point((5, 0.3 + dy))),  # a point passing near an ellipse
            (c2.Circle((0, 0), 1), c2.Segment((5, 1 + dy), (6, 1 + dy))),  # a segment's end along a circle's top
            (c2.Box((0, 0), (1, 1)), c2.RotatedBox((5.5, 1.5 + dy), (0.5, 0.5), angle=math.pi / 4)),  # corner over a corner
            (c2.Box((0, 0), (1, 1)), c2.Point((5, 1 + dy))),  # a point along a box's top edge
            (c2.Segment((0, 0), (1, 1)), c2.Segment((5, 1 + dy), (6, 2))),  # end against end
        ]
    return pairs


def _two_ellipses(a, b):
    """Two ellipses (circles included) or an ellipse and a point: the pairs of the Perram-Wertheim
    search and its closed form."""
    from collide2d._glue import run

    kinds = {run.kind_of(a), run.kind_of(b)}
    return kinds == {"ellipse"} or kinds == {"ellipse", "point"}


def test_the_kernel_decides_grazes_and_near_misses(monkeypatch):
    """The compiled search decides grazes, near misses, sharp minima and corners at edge ends
    (none goes to the Python search), with the floats the Python search gives, bit for bit (both
    without the exact decision that follows for the kinds that have one), both orders, single and
    batched; or, for flat pairs the closed form decides, the exact contact; pairs of two ellipses
    (circles included), which the Perram-Wertheim search may decide first: see
    test_the_kernel_decides_ellipse_grazes."""
    pairs = _graze_pairs()
    monkeypatch.setattr(search, "_exact_translation", lambda *args: None)
    searched = []
    python_search = search._impact_search

    def counted(motion, t_max):
        searched.append(motion.ia.shape[0])
        return python_search(motion, t_max)

    monkeypatch.setattr(search, "_impact_search", counted)

    def every_call():
        out = []
        for a, b in pairs:
            if _two_ellipses(a, b):
                continue  # (see test_the_kernel_decides_ellipse_grazes)
            for x, y, vx, vy in ((a, b, (0.0, 0.0), (-1.0, 0.0)), (b, a, (-1.0, 0.0), (0.0, 0.0))):
                out.append(c2.time_of_impact(x, y, vx, vy, t_max=10.0))
                out.append(c2.time_of_impact(x, y, np.tile(vx, (2, 1)), np.tile(vy, (2, 1)), t_max=10.0))
        return out

    flat_kinds = ("polygon", "segment", "line", "point")
    calls = [(a, b, run.kind_of(a) in flat_kinds and run.kind_of(b) in flat_kinds)
             for a, b in pairs if not _two_ellipses(a, b) for _ in range(4)]  # both orders, single and batched: b moves by (-1, 0) from a

    fast = every_call()
    assert searched == []

    def handed_back(motion, rows, t_max):
        return np.full(rows.size, 3), np.zeros((rows.size, 5))

    monkeypatch.setattr(search, "_translation_batch", lambda *args: None)  # (batches through _translation_kernel)
    monkeypatch.setattr(search, "_translation_kernel", handed_back)
    monkeypatch.setattr(search, "_single_translation", lambda *args: None)  # single pairs: the batch path
    slow = every_call()
    assert len(searched) == len(slow)
    for (a, b, flat), x, y in zip(calls, fast, slow):
        same = all(np.array_equal(np.asarray(x[field]), np.asarray(y[field]), equal_nan=True) for field in range(3))
        if not same:  # the closed form of flat pairs: the exact contact instead of the search's band
            assert flat
            for t in np.atleast_1d(x.time):
                check(t, first_contact(a, b, (0.0, 0.0), (-1.0, 0.0), 10.0), 10.0)


def test_the_kernel_decides_ellipse_grazes(monkeypatch):
    """The grazes and near misses of two ellipses (circles included) and of an ellipse and a point
    of _graze_pairs: decided in
    the compiled loop (the Perram-Wertheim search, or the general search it hands them to),
    within the contract's tolerance of the Python search, both orders, single and batched."""
    pairs = [(a, b) for a, b in _graze_pairs() if _two_ellipses(a, b)]
    monkeypatch.setattr(search, "_exact_translation", lambda *args: None)
    searched = []
    python_search = search._impact_search
    monkeypatch.setattr(search, "_impact_search", lambda motion, t_max: searched.append(1) or python_search(motion, t_max))

    def every_call():
        return [c2.time_of_impact(x, y, np.tile(vx, (2, 1)), np.tile(vy, (2, 1)), t_max=10.0)
                for a, b in pairs for x, y, vx, vy in ((a, b, (0.0, 0.0), (-1.0, 0.0)), (b, a, (-1.0, 0.0), (0.0, 0.0)))]

    fast = every_call()
    assert searched == []
    monkeypatch.setattr(search, "_translation_batch", lambda *args: None)  # (batches through _translation_kernel)
    monkeypatch.setattr(search, "_translation_kernel", lambda motion, rows, t_max: (np.full(rows.size, 3),
                                                                                     np.zeros((rows.size, 5))))
    for x, y in zip(fast, every_call()):
        # (the general search's normal at a shallow penetration, -1e-3 here, is off by 3e-7; the
        # contact kernel just before the time agrees with the Perram-Wertheim one to 1e-14)
        _close_impacts(x, y, 10.0, normal_tol=1e-6)


@pytest.mark.parametrize("dy", [0.0, 1e-15, 1e-300, TINY, -1e-15])
def test_circle_grazes_in_the_kernel_exact(dy):
    # two unit circles, b passing a's top at a height 2 + dy (the float above 2 for the smallest
    # offsets): exactly touching at t = 5 for dy = 0, a miss above, a hit before 5 below
    y = math.nextafter(2.0, math.inf) if 2.0 + dy == 2.0 and dy > 0 else 2.0 + dy
    a, b = c2.Circle((0, 0), 1), c2.Circle((5, y), 1)
    # exact reference: |(5 - t, y)|**2 = 4 has a root in [0, 10] exactly when y**2 <= 4
    fy = F(y)
    if fy * fy > 4:
        expected = math.inf
    else:
        root = 5 - (4 - fy * fy) ** 0.5 if fy * fy < 4 else 5.0  # (float square root: near 5 anyway)
        expected = float(root)
    for t in both_orders(a, b, (0.0, 0.0), (-1.0, 0.0), 10.0):
        if math.isinf(expected):
            assert math.isinf(t)
        else:
            assert abs(t - expected) <= 1e-12 * 10 and t <= 5.0


def _flat_tops(base, top):
    """Flat shapes whose highest point is at height ``top`` exactly, and the x of that point (the
    right end of a top edge: where a circle sliding left along it touches it first); a line: None
    (a horizontal line through ``(base, top)``)."""
    from collide2d._glue import run

    box = c2.Box((base, base), (base + 1.0, top))
    rotated = c2.RotatedBox((base + 0.5, top - 0.5), (0.5, 0.5), angle=0.7)  # its highest stored corner
    corners = run.flat_rows(rotated)[2]
    high = corners[np.argmax(corners[:, 1])]
    rotated_top = float(high[1])
    return [
        ("box", box, base + 1.0, top),
        ("rotated box", rotated, float(high[0]), rotated_top),
        ("polygon", c2.Polygon([(base, base), (base + 1.0, base), (base + 0.5, top)]), base + 0.5, top),
        ("segment", c2.Segment((base - 1.0, top), (base + 1.0, top)), base + 1.0, top),
        ("line", c2.Line((base, top), (1.0, 0.0)), None, top),
    ]


def _reference_circle_flat(x0, y0, radius, feature_x, top, t_max):
    """Exact first contact of a circle of centre ``(x0 - t, y0)`` with the flat shape whose highest
    point is ``(feature_x, top)`` (and which lies below it): it touches exactly when ``y0 - top <=
    radius`` (Fractions); first where the centre comes within the radius of that point (mpmath, 50
    digits), at 0 for a line."""
    import mpmath

    gap = F(y0) - F(top)
    if gap > radius:
        return math.inf
    if feature_x is None:
        return 0.0
    with mpmath.workdps(50):
        square = F(radius) ** 2 - gap * gap
        t = mpmath.mpf(x0) - mpmath.mpf(feature_x) - mpmath.sqrt(mpmath.mpf(square.numerator) / square.denominator)
        return float(t) if t <= t_max else math.inf


@pytest.mark.parametrize("offset", [0.0] + OFFSETS + [-1e-15, -TINY])
@pytest.mark.parametrize("base", [0.0, 1e15])
def test_circle_against_flat_kinds_exactly(offset, base):
    # a unit circle slides left at height top + 1 + offset over every flat kind: a graze (offset 0),
    # a miss by the smallest step above, a hit just below; exact rationals decide, both orders,
    # single and batched
    for name, shape, feature_x, top in _flat_tops(base, base + 1.0):
        y0 = top + 1.0 + offset
        if offset != 0.0 and y0 == top + 1.0:  # below the float spacing: the next float that way
            y0 = math.nextafter(top + 1.0, math.copysign(math.inf, offset))
        circle = c2.Circle((base + 5.0, y0), 1.0)
        expected = _reference_circle_flat(base + 5.0, y0, 1, feature_x, top, 10.0)
        for t in both_orders(shape, circle, (0.0, 0.0), (-1.0, 0.0), 10.0):
            if math.isinf(expected):
                assert math.isinf(t), (name, offset, base, t)
            else:
                assert abs(t - expected) <= 1e-12 * 10.0 and t <= 10.0, (name, offset, base, t, expected)
