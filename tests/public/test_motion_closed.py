"""Time of impact of translating flat pairs in closed form (``_kernels/motion/toi_closed.py``):
the slabs of the separating axes with rigorous float bounds, checked against a brute force of
the separating-axis theorem in exact rationals (every edge normal and direction of both shapes,
the relative velocity and its normal, the coordinate axes: enough axes for any pair of convex
sets), on random pairs of every flat kind, grazes and near misses from 1e-15 down to
the smallest float, near the origin and at 1e15, touching at 0, and the ends of ``t_max``; both
orders, single and batched (the reference: ``motion_references.py``)."""

import math

import numpy as np
import pytest

import collide2d as c2
from collide2d._glue import run
from collide2d._kernels.motion import constants, toi_closed
from collide2d.motion import search
from motion_references import F, check, first_contact

TINY = 5e-324
OFFSETS = [1e-15, 1e-100, 1e-300, TINY]


def both_orders(a, b, va, vb, t_max):
    """``(time, exact)`` of (a, b) and (b, a), single and in a batch of two copies."""
    out = []
    for x, y, vx, vy in ((a, b, va, vb), (b, a, vb, va)):
        exact = first_contact(x, y, vx, vy, t_max)
        out.append((c2.time_of_impact(x, y, vx, vy, t_max=t_max).time, exact))
        batch = c2.time_of_impact(x, y, np.tile(vx, (2, 1)), np.tile(vy, (2, 1)), t_max=t_max)
        out.extend((t, exact) for t in batch.time.tolist())
    return out


def _random_polygon(rng, centre, k):
    angles = np.sort(rng.uniform(0.0, 2.0 * np.pi, k))
    radii = rng.uniform(0.5, 1.5)
    return c2.Polygon(centre + radii * np.stack([np.cos(angles), np.sin(angles)], axis=-1))


def _random_shape(rng, kind, centre):
    if kind == "polygon":
        return _random_polygon(rng, centre, int(rng.integers(3, 7)))
    if kind == "box":
        return c2.Box(centre - rng.uniform(0.2, 1.0, 2), centre + rng.uniform(0.2, 1.0, 2))
    if kind == "rotated":
        return c2.RotatedBox(centre, rng.uniform(0.2, 1.0, 2), angle=float(rng.uniform(0, 3)))
    if kind == "segment":
        return c2.Segment(centre - rng.normal(size=2), centre + rng.normal(size=2))
    if kind == "line":
        return c2.Line(centre, rng.normal(size=2))
    return c2.Point(centre)


PAIRS = [("polygon", "polygon"), ("box", "rotated"), ("box", "box"), ("polygon", "segment"), ("rotated", "point"),
         ("polygon", "line"), ("segment", "segment"), ("segment", "point"), ("segment", "line"), ("point", "line"),
         ("point", "point")]


@pytest.mark.parametrize("kinds", PAIRS, ids=["-".join(k) for k in PAIRS])
def test_random_pairs_against_exact_slabs(kinds):
    """Random approaching pairs (some aimed past, some away), decided by the kernel wherever the
    bounds settle them (most: every pair but grazes), both orders, single and batched."""
    rng = np.random.default_rng(PAIRS.index(kinds))
    n = 12
    a = [_random_shape(rng, kinds[0], rng.normal(size=2) * 3) for _ in range(n)]
    b = [_random_shape(rng, kinds[1], rng.normal(size=2) * 3 + 6.0) for _ in range(n)]
    va = rng.normal(size=(n, 2))
    vb = -rng.uniform(2.0, 6.0, (n, 1)) * (1.0 + rng.normal(size=(n, 2)) * 0.3)
    vb[::4] *= -1.0
    decided = 0
    for i in range(n):
        t_max = [3.0, math.inf, 1.5][i % 3]
        for t, exact in both_orders(a[i], b[i], tuple(va[i].tolist()), tuple(vb[i].tolist()), t_max):
            check(t, exact, t_max)
        for x, y, vx, vy in ((a[i], b[i], va[i], vb[i]), (b[i], a[i], vb[i], va[i])):
            code, out = kernel_code(x, y, vx, vy, t_max)
            if code != toi_closed.UNDECIDED:  # the closed form: exact hit-or-miss, never after the contact
                decided += 1
                exact = first_contact(x, y, vx, vy, t_max)
                assert code == (constants.MISS if exact is None else constants.HIT)
                check(out[0], exact, t_max, strict=True)
    assert decided >= (n if "line" in kinds else 2 * n - 4)


def kernel_code(a, b, va, vb, t_max):
    """The closed form's outcome and ``(time, px, py, nx, ny)`` for two single flat shapes as
    given (no shift)."""
    (ka, pa, xa), (kb, pb, xb) = run.flat_rows(a), run.flat_rows(b)
    codes = dict(polygon=toi_closed.POLYGON, segment=toi_closed.SEGMENT, line=toi_closed.LINE, point=toi_closed.POINT)
    row = np.zeros(16)
    row[2:4], row[4:6], row[15] = va, vb, t_max
    out = np.full(6, -7.0)
    code = toi_closed.closed_translation(codes[ka], codes[kb], np.ascontiguousarray(pa[0]), np.ascontiguousarray(xa),
                                         np.ascontiguousarray(pb[0]), np.ascontiguousarray(xb), row, out)
    return code, out[1:]


def test_the_kernel_decides_clear_pairs_and_hands_back_the_rest():
    rng = np.random.default_rng(5)
    decided = total = 0
    for _ in range(200):
        a = _random_polygon(rng, rng.normal(size=2), int(rng.integers(3, 9)))
        b = _random_polygon(rng, rng.normal(size=2) + 5.0, int(rng.integers(3, 9)))
        va, vb = rng.normal(size=2), (-4.0, 0.0) + rng.normal(size=2)
        code, out = kernel_code(a, b, va, vb, 2.0)
        exact = first_contact(a, b, va, vb, 2.0)
        total += 1
        if code == toi_closed.UNDECIDED:
            continue
        decided += 1
        assert code == (constants.MISS if exact is None else constants.HIT)
        check(out[0], exact, 2.0, strict=True)
        if code == constants.HIT:  # the contact: a unit normal, a point on both shapes at that time
            assert abs(math.hypot(out[3], out[4]) - 1.0) < 1e-15
            at_a = c2.translate(a, tuple((va * out[0]).tolist()))
            at_b = c2.translate(b, tuple((np.asarray(vb) * out[0]).tolist()))
            for shape in (at_a, at_b):
                assert float(c2.distance(shape, c2.Point(tuple(out[1:3].tolist())))) < 1e-12
            before = c2.contact(c2.translate(a, tuple((va * (out[0] - 1e-6)).tolist())),
                                c2.translate(b, tuple((np.asarray(vb) * (out[0] - 1e-6)).tolist())))
            assert np.allclose(before.normal, out[3:5], atol=1e-4)  # from a to b
    assert decided >= 0.97 * total


@pytest.mark.parametrize("offset", OFFSETS)
@pytest.mark.parametrize("base", [0.0, 1e15])
def test_grazes_and_near_misses_are_exact(offset, base):
    """A corner passing a corner, a point along an edge, a segment end along an edge, a face
    sliding along a face: at the float just beyond (a miss) or exactly on (a hit), never a
    contact of the band."""
    top = base + 1.0
    above = math.nextafter(top, math.inf) if top + offset == top else top + offset
    left = c2.Box((base, base), (base + 1.0, top))
    tilted = c2.Polygon([(base, base), (base + 1.0, base), (base + 1.0, top), (base + 0.5, top)])
    for y, hits in ((above, False), (top, True)):
        pairs = [
            (left, c2.Box((base + 5.0, y), (base + 6.0, y + 1.0))),  # face along face
            (left, c2.Point((base + 5.0, y))),  # a point along the top
            (left, c2.Segment((base + 5.0, y), (base + 6.0, y + 2.0))),  # a segment's end along the top
            (left, c2.Polygon([(base + 5.0, y), (base + 6.0, y + 1.0), (base + 5.0, y + 2.0)])),  # a corner
            (tilted, c2.Segment((base + 5.0, y), (base + 7.0, y))),  # a segment along the top
        ]
        for a, b in pairs:
            for t, exact in both_orders(a, b, (0.0, 0.0), (-1.0, 0.0), 10.0):
                assert (exact is not None) == hits
                check(t, exact, 10.0)


def test_touching_at_zero_and_the_ends_of_t_max():
    a = c2.Box((0.0, 0.0), (1.0, 1.0))
    touching = c2.Box((1.0, 0.5), (2.0, 1.5))
    for t, exact in both_orders(a, touching, (0.0, 0.0), (1.0, 0.0), 5.0):  # touching at 0, moving away
        assert exact == 0 and t == 0.0
    b = c2.RotatedBox((5.0, 0.5), (0.5, 0.5), angle=0.3)
    for t_max in (0.0, 3.0, math.inf):
        for t, exact in both_orders(a, b, (0.0, 0.0), (-1.0, 0.0), t_max):
            check(t, exact, t_max)
    exact_end = first_contact(a, c2.Point((5.0, 0.5)), (0.0, 0.0), (-1.0, 0.0), 4.0)
    assert exact_end == 4  # reached at t_max exactly
    for t, exact in both_orders(a, c2.Point((5.0, 0.5)), (0.0, 0.0), (-1.0, 0.0), 4.0):
        assert exact == 4 and t <= 4.0
        check(t, exact, 4.0)
    for t, exact in both_orders(a, c2.Point((5.0, 0.5)), (0.0, 0.0), (-1.0, 0.0), math.nextafter(4.0, 0.0)):
        assert exact is None and t == math.inf


def test_periodic_images_are_shifted_exactly():
    """The offset of ``b`` (a periodic image) enters the slabs with its rounding bounded."""
    a = c2.Polygon([(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)])
    b = c2.Polygon([(0.1, 0.2), (0.9, 0.3), (0.5, 0.9)])
    for shift, v in (((6.0, 0.25), (-1.0, 0.0)), ((6.0, 1.0 + 2.0**-40), (-1.0, 0.0)), ((1e15, 0.0), (-1e14, 0.0))):
        motion = search._Motion(a, b, np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros((1, 2)),
                                np.array([v], dtype=float), np.zeros(1), np.zeros(1), offset_b=np.array([shift]))
        time = search._impact_flat(motion, np.array([10.0]))[0][0]
        check(time, first_contact(a, b, (0.0, 0.0), v, 10.0, shift), 10.0)


def test_pinned_times_of_a_corner_crossing_a_line():
    """A point crossing a line or a segment, or meeting a point head-on, touches at one instant:
    the two sides of the line give the same time exactly, which decides alone (a hit at the exact
    float below it where the side tests are exact; a miss when it lies before 0 or after t_max)."""
    point, line = c2.Point((0.0, 0.0)), c2.Line((5.0, 0.3), (1.0, 2.0))
    cases = [(point, line, (-1.0, 0.0), 10.0), (point, line, (1.0, 0.0), 10.0), (point, line, (-1.0, 0.0), 4.0),
             (point, c2.Point((5.0, 0.0)), (-1.0, 0.0), 10.0), (point, c2.Segment((5.0, -1.0), (6.0, 2.0)), (-1.0, 0.0), 10.0)]
    for a, b, vb, t_max in cases:
        for x, y, vx, vy in ((a, b, (0.0, 0.0), vb), (b, a, vb, (0.0, 0.0))):
            code, out = kernel_code(x, y, np.array(vx), np.array(vy), t_max)
            exact = first_contact(x, y, vx, vy, t_max)
            if code == toi_closed.UNDECIDED:  # two points sliding into each other along an axis: the search
                assert run.kind_of(x) == run.kind_of(y) == "point"
                continue
            assert code == (constants.MISS if exact is None else constants.HIT)
            check(out[0], exact, t_max, strict=True)
