"""Moving shapes: translate, rotate, time_of_impact, query_impacts.

References, independent of the library's kernels:

* pure translation, every kind pair: the entry time of the ray ``-t V`` into the Minkowski
  difference ``C = b - a`` from its support function, ``t* = max over unit n with n.V > 0 of
  -h_C(n) / (n.V)`` (a hit when it is below the exit time ``min over n.V < 0 of h_C(n) / -n.V``),
  maximised over the angle of ``n`` in mpmath at 40 digits (a grid, then golden sections);
* flat kinds also by exact rationals: the first time a vertex of one shape, moving on a line,
  reaches an edge of the other (``fractions.Fraction``);
* turning shapes: the needle against a disc by a root of the point-to-ellipse distance in
  mpmath; turning shapes against a moving point by the first sign change of the point's
  implicit or edge functions in the turning frame, bisected at 40 digits.

One file over 800 lines by choice: the references above are shared by every test of translation,
turning and ``query_impacts``; the edges and the exact hit-or-miss have files of their own.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import collide2d as c2
from collide2d import motion

mp = mpmath.mp.clone() if hasattr(mpmath.mp, "clone") else mpmath.mp
mpmath.mp.dps = 40


# -- support functions in mpmath ----------------------------------------------------------------------


def _mp(x):
    return mpmath.mpf(float(x))


def support(shape):
    """h(nx, ny) of a single bounded shape, in mpmath (lines: None)."""
    if isinstance(shape, (c2.Circle, c2.Ellipse)):
        cx, cy, a, b, wx, wy = (_mp(v) for v in shape._params)
        norm = mpmath.sqrt(wx * wx + wy * wy)
        ux, uy = wx / norm, wy / norm

        def h(nx, ny):
            p = nx * ux + ny * uy
            q = -nx * uy + ny * ux
            return nx * cx + ny * cy + mpmath.sqrt(a * a * p * p + b * b * q * q)

        return h
    if isinstance(shape, c2.Line):
        return None
    if isinstance(shape, c2.Point):
        pts = [shape._params]
    elif isinstance(shape, c2.Segment):
        pts = [shape._params[0:2], shape._params[2:4]]
    else:
        off, cnt = (int(v) for v in shape._params)
        pts = shape._verts[off : off + cnt]
    pts = [(_mp(x), _mp(y)) for x, y in pts]

    def h(nx, ny):
        return max(nx * x + ny * y for x, y in pts)

    return h


def reference_translation(a, b, va, vb, t_max):
    """First contact time of ``a`` moving with ``va`` and ``b`` with ``vb`` (bounded shapes, apart
    at 0), from the support function of ``b - a`` in mpmath; ``inf`` if none within ``t_max``."""
    ha, hb = support(a), support(b)
    vx, vy = _mp(vb[0]) - _mp(va[0]), _mp(vb[1]) - _mp(va[1])

    def entry(phi):  # -h_C(n) / (n . V) for n . V > 0, else -inf
        nx, ny = mpmath.cos(phi), mpmath.sin(phi)
        nv = nx * vx + ny * vy
        if nv <= 0:
            return -mpmath.inf
        return -(hb(nx, ny) + ha(-nx, -ny)) / nv

    def exit_(phi):
        nx, ny = mpmath.cos(phi), mpmath.sin(phi)
        nv = nx * vx + ny * vy
        if nv >= 0:
            return mpmath.inf
        return (hb(nx, ny) + ha(-nx, -ny)) / -nv

    t_in = _maximise(entry)
    t_out = -_maximise(lambda p: -exit_(p))
    if t_in > t_out or t_in > t_max:
        return math.inf
    return float(t_in)


def _golden_max(f, lo, hi, steps=170):
    """Maximum of a unimodal ``f`` on ``[lo, hi]`` by golden sections."""
    g = (mpmath.sqrt(5) - 1) / 2
    x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
    f1, f2 = f(x1), f(x2)
    for _ in range(steps):
        if f1 < f2:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + g * (hi - lo)
            f2 = f(x2)
        else:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - g * (hi - lo)
            f1 = f(x1)
    return max(f1, f2)


def _maximise(f, grid=720):
    """Maximum of ``f`` over the angle: the best of a grid, refined by golden sections on both
    neighbouring cells (a grid fine enough for the smooth or kinked unimodal peaks used here)."""
    step = 2 * mpmath.pi / grid
    values = [f(k * step) for k in range(grid)]
    k = max(range(grid), key=lambda i: values[i])
    return max(_golden_max(f, (k - 1) * step, (k + 1) * step), values[k])


# -- flat kinds by exact rationals ----------------------------------------------------------------------


def _features(shape):
    """Vertices and edges ``(q0, q1, infinite)`` of a flat shape, as Fractions."""
    F = Fraction
    if isinstance(shape, c2.Point):
        return [tuple(map(F, shape._params))], []
    if isinstance(shape, c2.Segment):
        p = list(map(F, shape._params))
        return [(p[0], p[1]), (p[2], p[3])], [((p[0], p[1]), (p[2], p[3]), False)]
    if isinstance(shape, c2.Line):
        p = list(map(F, shape._params))
        return [], [((p[0], p[1]), (p[0] + p[2], p[1] + p[3]), True)]
    off, cnt = (int(v) for v in shape._params)
    v = [tuple(map(F, xy)) for xy in shape._verts[off : off + cnt]]
    return v, [(v[i], v[(i + 1) % cnt], False) for i in range(cnt)]


def _cross(ax, ay, bx, by):
    return ax * by - ay * bx


def _vertex_edge(p, v, edge):
    """First t >= 0 with ``p + t v`` on the edge (None if never)."""
    (q0x, q0y), (q1x, q1y), infinite = edge
    ex, ey = q1x - q0x, q1y - q0y
    den = _cross(v[0], v[1], ex, ey)
    if den != 0:
        t = _cross(q0x - p[0], q0y - p[1], ex, ey) / den
        u = _cross(q0x - p[0], q0y - p[1], v[0], v[1]) / den
        return t if t >= 0 and (infinite or 0 <= u <= 1) else None
    if _cross(q0x - p[0], q0y - p[1], ex, ey) != 0 or (v[0] == 0 and v[1] == 0):
        return None
    # moving along the edge's own line: the first time the position parameter enters [0, 1]
    ee = ex * ex + ey * ey
    u0 = ((p[0] - q0x) * ex + (p[1] - q0y) * ey) / ee
    du = (v[0] * ex + v[1] * ey) / ee
    if infinite or 0 <= u0 <= 1:
        return Fraction(0)
    target = 0 if u0 < 0 else 1
    t = (target - u0) / du
    return t if t >= 0 else None


def exact_translation(a, b, va, vb):
    """First contact time (a Fraction, or None) of flat shapes apart at 0."""
    v = (Fraction(vb[0]) - Fraction(va[0]), Fraction(vb[1]) - Fraction(va[1]))
    verts_a, edges_a = _features(a)
    verts_b, edges_b = _features(b)
    times = []
    for p in verts_b:
        times += [_vertex_edge(p, v, e) for e in edges_a]
        for q in verts_a:  # vertex meets vertex
            vv = v[0] * v[0] + v[1] * v[1]
            t = ((q[0] - p[0]) * v[0] + (q[1] - p[1]) * v[1]) / vv if vv else None
            times.append(t if t is not None and t >= 0 and (p[0] + t * v[0], p[1] + t * v[1]) == q else None)
    neg = (-v[0], -v[1])
    for q in verts_a:
        times += [_vertex_edge(q, neg, e) for e in edges_b]
    times = [t for t in times if t is not None]
    return min(times) if times else None


# -- random shapes --------------------------------------------------------------------------------------


def random_shape(rng, kind, center, size=1.0):
    cx, cy = center
    angle = float(rng.uniform(0, math.pi))
    if kind == "Point":
        return c2.Point((cx, cy))
    if kind == "Circle":
        return c2.Circle((cx, cy), float(rng.uniform(0.3, 1.0)) * size)
    if kind == "Ellipse":
        return c2.Ellipse((cx, cy), tuple(rng.uniform(0.1, 1.0, 2) * size), angle)
    if kind == "Box":
        h = rng.uniform(0.2, 1.0, 2) * size
        return c2.Box((cx - h[0], cy - h[1]), (cx + h[0], cy + h[1]))
    if kind == "RotatedBox":
        return c2.RotatedBox((cx, cy), tuple(rng.uniform(0.2, 1.0, 2) * size), angle)
    if kind == "Polygon":
        phi = np.sort(rng.uniform(0, 2 * math.pi, 6))
        r = rng.uniform(0.5, 1.0) * size
        return c2.Polygon(np.stack([cx + r * np.cos(phi), cy + r * np.sin(phi)], axis=-1))
    if kind == "Segment":
        d = size * np.array([math.cos(angle), math.sin(angle)])
        return c2.Segment((cx - d[0], cy - d[1]), (cx + d[0], cy + d[1]))
    return c2.Line((cx, cy), (math.cos(angle), math.sin(angle)))


BOUNDED = ("Point", "Circle", "Ellipse", "Box", "RotatedBox", "Polygon", "Segment")
FLAT = ("Point", "Box", "RotatedBox", "Polygon", "Segment", "Line")
PAIRS = [(p, q) for i, p in enumerate(BOUNDED) for q in BOUNDED[i:] if (p, q) != ("Point", "Point")]


def _approach(rng, kind_a, kind_b, graze=False):
    """a near the origin, b near (6, y) moving roughly towards it (apart at 0: bounds disjoint)."""
    a = random_shape(rng, kind_a, (0.0, 0.0))
    y = float(rng.uniform(-1.5, 1.5))
    b = random_shape(rng, kind_b, (6.0, y))
    va = tuple(rng.uniform(-0.5, 0.5, 2))
    aim = rng.uniform(1.0, 1.6) * np.array([-6.0, -y]) + rng.uniform(-0.6, 0.6, 2)  # towards a, or past it
    return a, b, va, (float(aim[0] + va[0]), float(aim[1] + va[1]))


# -- translate and rotate -----------------------------------------------------------------------------


@pytest.mark.nojit
def test_translate_every_kind_and_batches():
    rng = np.random.default_rng(11)
    for kind in BOUNDED + ("Line",):
        s = random_shape(rng, kind, (0.25, -0.5))
        moved = c2.translate(s, (2.0, -3.0))
        assert type(moved) is type(s)
        # integer offsets of dyadic coordinates: every moved coordinate is exact, and distances stay
        back = c2.translate(moved, (-2.0, 3.0))
        assert c2.distance(back, c2.Point((9, 9))) == pytest.approx(c2.distance(s, c2.Point((9, 9))), rel=1e-14)
        assert c2.distance(moved, c2.Point((11, 6))) == pytest.approx(c2.distance(s, c2.Point((9, 9))), rel=1e-14)
    batch = c2.translate(c2.Circle([(0, 0), (1, 1)], 1.0), [[(1, 0)], [(0, 1)], [(2, 2)]])
    assert batch.shape == (3, 2)
    assert batch.center[2, 1].tolist() == [3.0, 3.0]
    assert c2.translate(c2.Box((0, 0), (1, 1)), (0.5, 0.25)).bounds == (0.5, 0.25, 1.5, 1.25)


@pytest.mark.nojit
def test_quarter_turns_are_exact():
    box = c2.rotate(c2.Box((0.0, 0.0), (4.0, 2.0)), [math.pi / 2, math.pi, -math.pi / 2, 2 * math.pi])
    assert type(box) is c2.Box
    assert box.min.tolist() == [[1.0, -1.0], [0.0, 0.0], [1.0, -1.0], [0.0, 0.0]]
    e = c2.rotate(c2.Ellipse((0.1, 0.7), (3, 1), direction=(0.6, 0.8)), math.pi / 2)
    assert e.direction.tolist() == [-0.8, 0.6] and e.center.tolist() == [0.1, 0.7]
    # a quarter turn of a polygon about a point: the exact image rounded once
    v = np.array([(0.1, 0.2), (3.3, 0.7), (1.1, 2.9)])
    p = c2.rotate(c2.Polygon(v), math.pi / 2, origin=(0.3, 0.45))
    ox, oy = Fraction(0.3), Fraction(0.45)
    want = sorted((float(ox - (Fraction(y) - oy)), float(oy + (Fraction(x) - ox))) for x, y in v)
    assert sorted(map(tuple, p.vertices.tolist())) == want
    s = c2.rotate(c2.Segment((0.1, 0.3), (0.7, 0.2)), math.pi)  # a half turn about its (float) midpoint
    m = [Fraction(0.5 * (0.1 + 0.7)), Fraction(0.5 * (0.3 + 0.2))]
    assert s.start.tolist() == [float(2 * m[0] - Fraction(0.1)), float(2 * m[1] - Fraction(0.3))]
    assert s.end.tolist() == [float(2 * m[0] - Fraction(0.7)), float(2 * m[1] - Fraction(0.2))]


@pytest.mark.nojit
def test_rotate_invariants():
    rng = np.random.default_rng(5)
    probe = c2.Point((4.0, -3.0))
    for kind in BOUNDED + ("Line",):
        s = random_shape(rng, kind, (0.5, 0.25))
        angle = float(rng.uniform(-3, 3))
        turned = c2.rotate(s, angle)
        assert type(turned) is (c2.RotatedBox if kind == "Box" else type(s))
        again = c2.rotate(turned, -angle)
        full = c2.rotate(s, 2 * math.pi)
        d = c2.distance(s, probe)
        assert c2.distance(again, probe) == pytest.approx(d, rel=1e-12, abs=1e-12)
        assert c2.distance(full, probe) == pytest.approx(d, rel=1e-12, abs=1e-12)
        # a rigid motion of both shapes keeps their distance
        other = random_shape(rng, "Ellipse", (3.0, 1.0))
        o = (1.5, -2.0)
        moved = [c2.translate(c2.rotate(x, angle, origin=o), (0.5, 3.0)) for x in (s, other)]
        assert c2.distance(*moved) == pytest.approx(c2.distance(s, other), rel=1e-10, abs=1e-12)


@pytest.mark.nojit
def test_rotate_batches_and_errors():
    e = c2.rotate(c2.Ellipse((0, 0), (2, 1)), np.array([0.0, 0.5, 1.0]))
    assert e.shape == (3,) and np.allclose(e.direction[1], [math.cos(0.5), math.sin(0.5)], atol=1e-16)
    with pytest.raises(ValueError, match="angle"):
        c2.rotate(c2.Box((0, 0), (1, 1)), math.nan)
    with pytest.raises(ValueError, match="offset"):
        c2.translate(c2.Box((0, 0), (1, 1)), (math.inf, 0))
    with pytest.raises(ValueError, match="origin"):
        c2.rotate(c2.Box((0, 0), (1, 1)), 1.0, origin=(0, 0, 0))
    with pytest.raises(TypeError, match="shape"):
        c2.translate((0, 0), (1, 1))


# -- time of impact: translation --------------------------------------------------------------------


@pytest.mark.parametrize("kind_a,kind_b", PAIRS)
def test_translation_against_support_reference(kind_a, kind_b):
    rng = np.random.default_rng(BOUNDED.index(kind_a) * 31 + BOUNDED.index(kind_b))
    hits = 0
    for _ in range(4):
        a, b, va, vb = _approach(rng, kind_a, kind_b)
        want = reference_translation(a, b, va, vb, 1.0)
        got = c2.time_of_impact(a, b, va, vb)
        swapped = c2.time_of_impact(b, a, vb, va)
        if math.isinf(want):
            assert math.isinf(got.time) and math.isinf(swapped.time)
            continue
        hits += 1
        assert got.time == pytest.approx(want, abs=1e-12)
        assert swapped.time == pytest.approx(want, abs=1e-12)
        assert np.allclose(got.normal, -swapped.normal, atol=1e-7)
        assert np.hypot(*got.normal) == pytest.approx(1.0, abs=1e-14)
        # the point is on both moved shapes, and they are apart just before
        at = [c2.translate(s, np.multiply(v, got.time)) for s, v in ((a, va), (b, vb))]
        assert c2.distance(at[0], c2.Point(got.point)) < 1e-9 and c2.distance(at[1], c2.Point(got.point)) < 1e-9
        before = [c2.translate(s, np.multiply(v, got.time - 1e-9)) for s, v in ((a, va), (b, vb))]
        assert not c2.intersects(*before)
    assert hits >= 1


@pytest.mark.nojit
@pytest.mark.parametrize("kind_a", FLAT)
@pytest.mark.parametrize("kind_b", FLAT)
def test_flat_translation_against_exact_rationals(kind_a, kind_b):
    rng = np.random.default_rng(FLAT.index(kind_a) * 7 + FLAT.index(kind_b))
    for _ in range(3):
        a = random_shape(rng, kind_a, (0.0, 0.0))
        b = random_shape(rng, kind_b, (6.0, float(rng.uniform(-1.5, 1.5))))
        if c2.intersects(a, b):  # lines
            assert c2.time_of_impact(a, b).time == 0.0
            continue
        va = tuple(rng.uniform(-0.5, 0.5, 2))
        vb = (float(rng.uniform(-6.0, -3.0)), float(rng.uniform(-1.0, 1.0)))
        want = exact_translation(a, b, va, vb)
        got = c2.time_of_impact(a, b, va, vb, t_max=2.0).time
        if want is None or want > 2:
            assert math.isinf(got)
        else:
            assert got == pytest.approx(float(want), abs=2e-12)


def test_batched_translation_matches_single_calls():
    rng = np.random.default_rng(3)
    a = c2.Ellipse(rng.uniform(-1, 1, (5, 2)), rng.uniform(0.2, 1, (5, 2)), rng.uniform(0, 3, 5))
    b = c2.Circle([(5.0, 0.0), (6.0, 1.0), (5.0, -1.0)], 0.5)
    vb = np.array([[-4.0, 0.0], [-5.0, -1.0], [-6.0, 1.0]])
    batch = c2.time_of_impact(a[:, None], b[None, :], velocity_b=vb[None, :])
    assert batch.time.shape == (5, 3) and batch.point.shape == (5, 3, 2)
    for i in range(5):
        for j in range(3):
            one = c2.time_of_impact(a[i], b[j], velocity_b=vb[j])
            assert one.time == batch.time[i, j] or abs(one.time - batch.time[i, j]) < 1e-13
            want = reference_translation(a[i], b[j], (0, 0), vb[j], 1.0)
            assert (math.isinf(want) and math.isinf(one.time)) or one.time == pytest.approx(want, abs=1e-12)


@pytest.mark.nojit
def test_thin_and_elongated():
    # aspect ratio 1e3: a thin ellipse hit broadside and end-on, a fast point through a thin box
    thin = c2.Ellipse((0, 0), (1.0, 1e-3), 0.3)
    for b, vb in [(c2.Circle((3, 0.5), 0.01), (-7.0, -1.0)), (c2.Ellipse((0.2, 4), (0.5, 5e-4), 1.0), (0.1, -9.0))]:
        want = reference_translation(thin, b, (0, 0), vb, 1.0)
        got = c2.time_of_impact(thin, b, velocity_b=vb)
        assert got.time == pytest.approx(want, abs=1e-12)
    wall = c2.Box((0, -1), (1e-3, 1))  # a bullet that would pass through in one frame
    bullet = c2.Point((-5, 0.25))
    got = c2.time_of_impact(wall, bullet, velocity_b=(1000.0, 0.0))
    assert got.time == pytest.approx(5 / 1000, abs=1e-15) and got.normal.tolist() == [-1.0, 0.0]
    assert np.allclose(got.point, (0.0, 0.25), atol=1e-14)


# Grazes made exact by the data: every shape below has its top at height 1 exactly, every shape
# above its lowest point at height 1 + dy exactly, and the motion is along x. With dy = 0 they
# touch for one instant (or, for a flat side, from the instant its end arrives on); with dy > 0
# their y ranges are disjoint, so they never meet.
GRAZE_BELOW = {
    "Circle": lambda: c2.Circle((0, 0), 1),
    "Ellipse": lambda: c2.Ellipse((0, 0), (2, 1)),
    "Ellipse90": lambda: c2.Ellipse((0, 0), (1, 3), direction=(0, 1)),  # a quarter turn, exactly
    "Box": lambda: c2.Box((-1, 0), (1, 1)),  # a flat top from x = -1 to 1
    "Triangle": lambda: c2.Polygon([(-1, -1), (1, -1), (0, 1)]),  # a vertex at the top
}
GRAZE_ABOVE = {  # (shape with its lowest point at (x, y), half width of its flat bottom)
    "Point": lambda x, y: (c2.Point((x, y)), 0),
    "Circle": lambda x, y: (c2.Circle((x, y + 0.5), 0.5), 0),
    "Ellipse": lambda x, y: (c2.Ellipse((x, y + 0.25), (3, 0.25)), 0),
    "Ellipse90": lambda x, y: (c2.Ellipse((x, y + 3), (3, 1), direction=(0, 1)), 0),
    "Box": lambda x, y: (c2.Box((x - 1, y), (x + 1, y + 1)), 1),
    "RotatedBox": lambda x, y: (c2.RotatedBox((x, y + 0.5), (0.5, 1.0), direction=(0, 1)), 1),
    "Polygon": lambda x, y: (c2.Polygon([(x, y), (x + 1, y + 2), (x - 1, y + 2)]), 0),
    "Segment": lambda x, y: (c2.Segment((x - 1, y), (x + 1, y)), 1),
    "SegmentEnd": lambda x, y: (c2.Segment((x, y), (x + 1, y + 2)), 0),
}


@pytest.mark.parametrize("below", GRAZE_BELOW)
def test_exact_grazes_touch_at_the_closest_approach(below):
    # the reference is exact: the first contact is when the lowest point of the upper shape (or
    # the end of its flat bottom) reaches the top of the lower one (or the end of its flat top)
    a = GRAZE_BELOW[below]()
    top = 1 if below == "Box" else 0
    for x0, vx, va in [(-5.0, 10.0, (0.0, 0.0)), (-5.3, 7.1, (1.0, 0.0)), (-50.3, 71.0, (-0.3, 0.0))]:
        vb = (va[0] + vx, 0.0)
        for above, make in GRAZE_ABOVE.items():
            b, bottom = make(x0, 1.0)
            want = (-Fraction(x0) - top - bottom) / Fraction(vx)
            for got, normal in ((c2.time_of_impact(a, b, va, vb), (0.0, 1.0)),
                                (c2.time_of_impact(b, a, vb, va), (0.0, -1.0))):
                assert abs(Fraction(got.time) - want) <= 2.0**-51, (below, above, x0)
                if "Ellipse" in below + above or "Circle" in below + above:
                    assert got.normal.tolist() == pytest.approx(normal, abs=1e-7)
                    assert abs(got.point[1] - 1.0) <= 1e-15
                else:  # a vertex: a normal of its cone; the point moved from the check 2**-40 before
                    assert abs(got.point[1] - 1.0) <= vx * 2.0**-40
            # just above: never (the y ranges are disjoint), both orders
            b, _ = make(x0, 1.0 + 1e-14)
            assert c2.time_of_impact(a, b, va, vb).time == math.inf
            assert c2.time_of_impact(b, a, vb, va).time == math.inf
    # along a diagonal: unit and radius-4 circles whose centres pass at distance exactly 5
    hit = c2.time_of_impact(c2.Circle((0, 0), 1), c2.Circle((-1, 7), 4), velocity_b=(8, -6))
    assert abs(hit.time - 0.5) <= 2.0**-52 and np.allclose(hit.point, (0.6, 0.8), atol=1e-15)
    assert np.allclose(hit.normal, (0.6, 0.8), atol=1e-15)
    assert c2.time_of_impact(c2.Circle((0, 0), 1), c2.Circle((-1, 7 + 1e-14), 4), velocity_b=(8, -6)).time == math.inf


@pytest.mark.nojit
@pytest.mark.parametrize("below", ["Circle", "Ellipse"])
def test_near_grazes_of_a_point(below):
    # a point at height y passing over a circle (x^2 + y^2 = 1) or an ellipse (x^2/4 + y^2 = 1):
    # above 1 it never meets it; below, first at x = -sqrt(1 - y^2) (times 2 for the ellipse),
    # computed in mpmath. Near the graze the time is ill-conditioned: a separation known to a few
    # ulps (delta) moves it by delta over the approach speed, vx |x| / (radius of the boundary).
    a = GRAZE_BELOW[below]()
    half = 1 if below == "Circle" else 2
    x0, vx = -5.3, 7.1
    for dy in (1e-14, 1e-12, 1e-10, 1e-8, 1e-6, 1e-4):
        for sign in (1.0, -1.0):
            y = 1.0 + sign * dy
            got = c2.time_of_impact(a, c2.Point((x0, y)), velocity_b=(vx, 0.0))
            if y > 1.0:
                assert got.time == math.inf
                continue
            x = -half * mpmath.sqrt(1 - _mp(y) ** 2)
            want = (x - _mp(x0)) / _mp(vx)
            speed = vx * float(-x) / float(mpmath.sqrt(x * x + (half * half * _mp(y)) ** 2) / half)  # V . n
            tolerance = 16 * 2.0**-52 * half / speed
            assert got.time == pytest.approx(float(want), abs=max(tolerance, 2.0**-52)), (dy, tolerance)


@pytest.mark.nojit
def test_grazing_and_start_states():
    # two unit circles passing at exactly distance 2: they touch for one instant, at t = 5
    hit = c2.time_of_impact(c2.Circle((0, 0), 1), c2.Circle((-5, 2), 1), velocity_b=(1, 0), t_max=10)
    assert hit.time == pytest.approx(5.0, abs=1e-6)  # a tangency: the time is ill-conditioned
    assert np.allclose(hit.point, (0, 1), atol=1e-6) and np.allclose(hit.normal, (0, 1), atol=1e-6)
    # a box corner that only grazes another box's corner
    hit = c2.time_of_impact(c2.Box((0, 0), (1, 1)), c2.Box((-3, 1), (-2, 2)), velocity_b=(2, 0), t_max=2)
    assert hit.time == 1.0
    # a near-graze with a depth of 1e-6: still right to 1e-12
    b = c2.Circle((-5, 2 - 1e-6), 1)
    want = reference_translation(c2.Circle((0, 0), 1), b, (0, 0), (1, 0), 10.0)
    assert c2.time_of_impact(c2.Circle((0, 0), 1), b, velocity_b=(1, 0), t_max=10).time == pytest.approx(want, abs=1e-11)
    # overlapping at 0: time 0, normal NaN; touching at 0: time 0 with the contact normal
    start = c2.time_of_impact(c2.Circle((0, 0), 1), c2.Circle((1, 0), 1))
    assert start.time == 0.0 and np.isnan(start.normal).all() and c2.intersects(c2.Circle((0, 0), 1), c2.Point(start.point))
    touch = c2.time_of_impact(c2.Circle((0, 0), 1), c2.Circle((2, 0), 1), velocity_b=(5, 0))
    assert touch.time == 0.0 and touch.normal.tolist() == [1.0, 0.0] and touch.point.tolist() == [1.0, 0.0]
    never = c2.time_of_impact(c2.Circle((0, 0), 1), c2.Circle((3, 0), 1), velocity_b=(1, 0))
    assert math.isinf(never.time) and np.isnan(never.point).all() and np.isnan(never.normal).all()


@pytest.mark.nojit
def test_points():
    # two points meet only on a collision course: exactly, at the rational time
    assert c2.time_of_impact(c2.Point((0, 0)), c2.Point((4, 2)), (0.5, 0.25), (-1.5, -0.75), t_max=5).time == 2.0
    assert c2.time_of_impact(c2.Point((0, 0)), c2.Point((4, 2)), velocity_b=(-2, -1.1), t_max=5).time == math.inf


@pytest.mark.nojit
def test_lines():
    line = c2.Line((0, 0), (1, 0))
    assert c2.time_of_impact(line, c2.Circle((3, 4), 1), velocity_b=(0, -2), t_max=3).time == 1.5
    assert c2.time_of_impact(line, c2.Line((0, 2), (-3, 0)), velocity_b=(5, -1), t_max=3).time == 2.0
    assert c2.time_of_impact(line, c2.Line((0, 2), (-3, 0)), velocity_b=(5, 1), t_max=3).time == math.inf
    spin = c2.time_of_impact(line, c2.Line((0, 2), (-3, 0)), angular_velocity_b=0.1)
    assert spin.time == 0.0 and spin.point.tolist() == [-math.inf, 0.0] and spin.normal.tolist() == [0.0, 1.0]
    # a line turning about the origin meets a point at distance 2 after a quarter turn at 1 rad/s
    turn = c2.time_of_impact(line, c2.Point((0, 2)), angular_velocity_a=1.0, t_max=2.0)
    assert turn.time == pytest.approx(math.pi / 2, abs=1e-9)


def _mp_crossing(a, b, va, vb, wa, wb, t):
    """The crossing point of two moving lines at time ``t``, in mpmath (each line turning about
    its point)."""
    def at(line, v, w):
        px, py, ux, uy = (_mp(x) for x in line._params)
        c, s = mpmath.cos(w * t), mpmath.sin(w * t)
        return px + _mp(v[0]) * t, py + _mp(v[1]) * t, c * ux - s * uy, s * ux + c * uy

    (ax, ay, ux, uy), (bx, by, wx, wy) = at(a, va, _mp(wa)), at(b, vb, _mp(wb))
    lam = ((bx - ax) * wy - (by - ay) * wx) / (ux * wy - uy * wx)
    return ax + lam * ux, ay + lam * uy


@pytest.mark.nojit
@pytest.mark.parametrize("direction", [(1.0, 0.0), (0.0, 1.0), (3.0, -4.0)])
def test_parallel_lines_turning_at_different_rates(direction):
    # apart at 0, crossing at every t > 0: the time is the infimum 0.0, the normal that at 0, and
    # the point the limit of the crossing as t -> 0+, at infinity along the lines (finite across)
    u = np.array(direction) / math.hypot(*direction)
    m = np.array([-u[1], u[0]])
    for offset, wa, wb, va, vb in [(2.0, 0.0, 0.1, (0, 0), (0, 0)), (2.0, 0.3, 0.1, (1, 2), (0, 0)),
                                   (-1.5, -0.3, 0.1, (0, 0), (0.5, 0)), (3.0, 0.25, -2.0, (0, 0), (0, 0))]:
        a = c2.Line((0.5, -0.25), direction)
        b = c2.Line(tuple(np.array([0.5, -0.25]) + offset * m + 7 * u), tuple(-2 * np.array(direction)))
        got = c2.time_of_impact(a, b, va, vb, angular_velocity_a=wa, angular_velocity_b=wb)
        assert got.time == 0.0 and not c2.intersects(a, b)
        assert got.normal.tolist() == pytest.approx((np.sign(offset) * m).tolist(), abs=1e-15)
        x, y = _mp_crossing(a, b, va, vb, wa, wb, mpmath.mpf("1e-25"))
        for want, far, component in ((x, 1e20, got.point[0]), (y, 1e20, got.point[1])):
            if abs(want) > far:  # receding: an infinite coordinate of the same sign
                assert component == math.copysign(math.inf, want)
            else:
                assert component == pytest.approx(float(want), abs=1e-12)
        # the swapped pair: the same point, the opposite normal
        swapped = c2.time_of_impact(b, a, vb, va, angular_velocity_a=wb, angular_velocity_b=wa)
        assert swapped.time == 0.0 and swapped.point.tolist() == pytest.approx(got.point.tolist(), abs=1e-15)
        assert swapped.normal.tolist() == pytest.approx((-got.normal).tolist(), abs=1e-15)


@pytest.mark.nojit
def test_turning_line_against_a_circle():
    # a line through the origin turning at w meets a circle of radius r whose centre is at
    # distance d and polar angle phi when sin(phi - w t) d = r
    d, phi, r, w = 5.0, 1.2, 0.5, 2.0
    circle = c2.Circle((d * math.cos(phi), d * math.sin(phi)), r)
    got = c2.time_of_impact(c2.Line((0, 0), (1, 0)), circle, angular_velocity_a=w)
    want = (phi - math.asin(r / d)) / w
    assert got.time == pytest.approx(want, abs=1e-9)
    assert np.allclose(got.normal, [-math.sin(w * want), math.cos(w * want)], atol=1e-6)
    # the same, the circle moving along the line's turning direction as well
    got = c2.time_of_impact(circle, c2.Line((0, 0), (1, 0)), angular_velocity_b=w)
    assert got.time == pytest.approx(want, abs=1e-9)


@pytest.mark.nojit
def test_validation():
    a, b = c2.Circle((0, 0), 1), c2.Circle((3, 0), 1)
    with pytest.raises(ValueError, match="velocity_a"):
        c2.time_of_impact(a, b, (math.nan, 0))
    with pytest.raises(ValueError, match="velocity_b"):
        c2.time_of_impact(a, b, velocity_b=(1, 2, 3))
    with pytest.raises(ValueError, match="angular_velocity_b"):
        c2.time_of_impact(a, b, angular_velocity_b=math.inf)
    with pytest.raises(ValueError, match="t_max"):
        c2.time_of_impact(a, b, t_max=-1.0)
    with pytest.raises(ValueError, match="t_max"):
        c2.time_of_impact(a, b, t_max=math.nan)
    with pytest.raises(ValueError, match="broadcast"):
        c2.time_of_impact(c2.Circle([(0, 0)] * 2, 1), b, velocity_b=[(1, 0)] * 3)
    with pytest.raises(TypeError, match="b must"):
        c2.time_of_impact(a, "b")
    with pytest.raises(TypeError, match="t_max"):
        c2.time_of_impact(a, b, t_max="soon")
    assert c2.time_of_impact(a, b, t_max=0.0).time == math.inf
    assert c2.time_of_impact(a, b, velocity_b=(-1, 0), t_max=math.inf).time == 1.0


# -- time of impact: turning shapes --------------------------------------------------------------------


def _point_ellipse_distance(px, py, a, b):
    """Distance from (px, py) outside the ellipse x^2/a^2 + y^2/b^2 <= 1 to it, in mpmath: the
    squared distance to the boundary point of eccentric angle phi, minimised over a grid and golden
    sections (unimodal near the best grid point)."""
    f = lambda phi: (a * mpmath.cos(phi) - px) ** 2 + (b * mpmath.sin(phi) - py) ** 2  # noqa: E731
    return mpmath.sqrt(-_maximise(lambda phi: -f(phi), grid=2880))


def test_spinning_needle_hits_disc_at_first_touch():
    needle = c2.Ellipse((0, 0), (5, 0.01))
    disc = c2.Circle((0, 4), 0.05)
    got = c2.time_of_impact(needle, disc, angular_velocity_a=40.0)

    def gap(t):  # the disc centre in the needle's frame, turned back by 40 t
        th = 40 * t
        px, py = 4 * mpmath.sin(th), 4 * mpmath.cos(th)
        return _point_ellipse_distance(px, py, mpmath.mpf(5), mpmath.mpf("0.01")) - mpmath.mpf("0.05")

    lo, hi = mpmath.mpf("0.03"), mpmath.mpf("0.0395")
    assert gap(lo) > 0 > gap(hi)
    for _ in range(60):  # bisection to below 1e-19
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if gap(mid) > 0 else (lo, mid)
    want = hi  # less than a quarter turn: not a revolution later
    assert got.time == pytest.approx(float(want), abs=1e-9)
    swapped = c2.time_of_impact(disc, needle, angular_velocity_b=40.0)
    assert swapped.time == pytest.approx(float(want), abs=1e-9)
    assert np.allclose(swapped.normal, -got.normal, atol=1e-6)


@pytest.mark.parametrize("minor,w,closing,t_max", [(0.9, 10.0, 0.01, 200.0), (0.99, 30.0, 0.003, 700.0),
                                                  (0.999, 100.0, 0.001, 2000.0)])
def test_long_slow_crawl(minor, w, closing, t_max):
    # a point closing in slowly on an ellipse of semi-axes (1, minor) that spins fast: its steps
    # are bounded by w (the turn) against a gap that shrinks at `closing` (hundreds of thousands of
    # certified steps, batched). No contact before the point is within 1 of the centre, at
    # t0 = 1 / closing; then within one half turn, when the major axis points at it. Reference:
    # the first sign change of its implicit function in the turning frame over [t0, t0 + pi / w]
    # (a grid of 4000 times, then bisection at 40 digits).
    got = c2.time_of_impact(c2.Ellipse((0, 0), (1, minor)), c2.Point((0, 2)), velocity_b=(0, -closing),
                            angular_velocity_a=w, t_max=t_max)
    b, vy, w_ = _mp(minor), -_mp(closing), _mp(w)

    def g(t):
        y = 2 + vy * t
        return (mpmath.sin(w_ * t) * y) ** 2 + (mpmath.cos(w_ * t) * y / b) ** 2 - 1

    t0 = -1 / vy
    assert g(t0 - mpmath.mpf("1e-9")) > 0
    prev, want = t0, None
    for k in range(1, 4001):
        t = t0 + mpmath.pi / w_ * k / 4000
        if g(t) <= 0:
            lo, hi = prev, t
            for _ in range(80):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if g(mid) > 0 else (lo, mid)
            want = float(hi)
            break
        prev = t
    assert want is not None and got.time == pytest.approx(want, abs=1e-9 * t_max)


def test_out_of_rounds_warns_with_a_lower_bound(monkeypatch):
    # the search gives up after motion._MAX_STEPS rounds: never silently
    monkeypatch.setattr(motion.search, "_MAX_STEPS", 3)
    needle, disc = c2.Ellipse((0, 0), (5, 0.01)), c2.Circle((0, 4), 0.05)
    full = 0.0389198891  # the first contact (see test_spinning_needle_hits_disc_at_first_touch)
    with pytest.warns(RuntimeWarning, match="stopped after 3 rounds.*lower bound"):
        got = c2.time_of_impact(needle, disc, angular_velocity_a=40.0)
    assert 0.0 < got.time < full
    assert not c2.intersects(c2.rotate(needle, 40.0 * got.time), disc)


def _first_root(g, t_max, samples=4000, halvings=140):
    """First sign change of ``g`` (positive at 0) on a grid, bisected at 40 digits."""
    prev = mpmath.mpf(0)
    for k in range(1, samples + 1):
        t = mpmath.mpf(t_max) * k / samples
        if g(t) <= 0:
            lo, hi = prev, t
            for _ in range(halvings):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if g(mid) > 0 else (lo, mid)
            return float(hi)
        prev = t
    return math.inf


@pytest.mark.parametrize("seed", range(4))
def test_turning_ellipse_against_moving_point(seed):
    rng = np.random.default_rng(100 + seed)
    a = c2.Ellipse((0.0, 0.0), tuple(rng.uniform(0.3, 2.0, 2)), float(rng.uniform(0, 3)))
    p0 = np.array([3.0, float(rng.uniform(-2, 2))])
    vp = np.array([float(rng.uniform(-3, -1)), float(rng.uniform(-1, 1))])
    w = float(rng.uniform(-6, 6))
    got = c2.time_of_impact(a, c2.Point(tuple(p0)), angular_velocity_a=w, velocity_b=tuple(vp), t_max=2.0)
    ra, rb = (_mp(r) for r in a._params[2:4])
    th0 = mpmath.atan2(_mp(a._params[5]), _mp(a._params[4]))

    def g(t):  # implicit function of the point in the ellipse's turning frame, minus 1
        x, y = _mp(p0[0]) + _mp(vp[0]) * t, _mp(p0[1]) + _mp(vp[1]) * t
        th = th0 + _mp(w) * t
        u = mpmath.cos(th) * x + mpmath.sin(th) * y
        v = -mpmath.sin(th) * x + mpmath.cos(th) * y
        return (u / ra) ** 2 + (v / rb) ** 2 - 1

    want = _first_root(g, 2.0)
    assert (math.isinf(want) and math.isinf(got.time)) or got.time == pytest.approx(want, abs=1e-9)


@pytest.mark.parametrize("kind", ["Box", "RotatedBox", "Polygon"])
def test_turning_flat_shape_against_moving_point(kind):
    rng = np.random.default_rng(len(kind))
    for _ in range(3):
        a = random_shape(rng, kind, (0.0, 0.0), size=1.5)
        ref = motion.reference_points(a)[0]
        p0 = np.array([3.0, float(rng.uniform(-2, 2))])
        vp = np.array([float(rng.uniform(-3, -1)), float(rng.uniform(-1, 1))])
        w = float(rng.uniform(-8, 8))
        got = c2.time_of_impact(a, c2.Point(tuple(p0)), angular_velocity_a=w, velocity_b=tuple(vp), t_max=2.0)
        pts = [(_mp(x) - _mp(ref[0]), _mp(y) - _mp(ref[1])) for x, y in a._verts]
        edges = list(zip(pts, pts[1:] + pts[:1]))

        def g(t):  # > 0 while the point is outside the turning polygon (counter-clockwise vertices)
            x, y = _mp(p0[0]) + _mp(vp[0]) * t - _mp(ref[0]), _mp(p0[1]) + _mp(vp[1]) * t - _mp(ref[1])
            th = _mp(w) * t
            u = mpmath.cos(th) * x + mpmath.sin(th) * y
            v = -mpmath.sin(th) * x + mpmath.cos(th) * y
            return -min((x1 - x0) * (v - y0) - (y1 - y0) * (u - x0) for (x0, y0), (x1, y1) in edges)

        want = _first_root(g, 2.0)
        assert (math.isinf(want) and math.isinf(got.time)) or got.time == pytest.approx(want, abs=1e-9)


ALL_PAIRS = PAIRS + [(kind, "Line") for kind in BOUNDED + ("Line",)] + [("Point", "Point")]


@pytest.mark.parametrize("kind_a,kind_b", ALL_PAIRS)
def test_turning_pairs_touch_at_the_time_and_are_apart_before(kind_a, kind_b):
    rng = np.random.default_rng(7 * len(kind_a) + len(kind_b))
    a, b, va, vb = _approach(rng, kind_a, kind_b)
    wa, wb = float(rng.uniform(-5, 5)), float(rng.uniform(-5, 5))
    got = c2.time_of_impact(a, b, va, vb, angular_velocity_a=wa, angular_velocity_b=wb, t_max=2.0)
    swapped = c2.time_of_impact(b, a, vb, va, angular_velocity_a=wb, angular_velocity_b=wa, t_max=2.0)
    assert got.time == pytest.approx(swapped.time, abs=1e-9) or math.isinf(got.time) == math.isinf(swapped.time) is True

    def at(t):
        return [c2.translate(c2.rotate(s, w * t), np.multiply(v, t)) for s, v, w in ((a, va, wa), (b, vb, wb))]

    if got.time == 0.0:
        assert c2.intersects(*at(0.0)) or (kind_a == kind_b == "Line" and wa != wb)
        return
    ts = np.linspace(0, min(got.time, 2.0), 400, endpoint=not math.isfinite(got.time))[:-1]
    for t in ts:  # apart at every earlier sampled time
        assert not c2.intersects(*at(float(t)))
    if math.isfinite(got.time):
        assert c2.distance(*at(got.time)) < 1e-9
        assert not c2.intersects(*at(got.time - 1e-9))


# -- query_impacts ------------------------------------------------------------------------------------


def _brute_impacts(shapes, v, w, t_max):
    """time_of_impact over every pair i < j (the brute-force reference of query_impacts)."""
    table = c2.ShapeTable(shapes)
    n = len(table)
    out = []
    for i in range(n):
        for j in range(i + 1, n):
            hit = c2.time_of_impact(table[i], table[j], v[i], v[j], angular_velocity_a=w[i],
                                    angular_velocity_b=w[j], t_max=t_max)
            if math.isfinite(hit.time):
                out.append((i, j, hit.time))
    return out


@pytest.mark.parametrize("turning", [False, True])
def test_query_impacts_against_all_pairs(turning):
    rng = np.random.default_rng(21 + turning)
    shapes = [random_shape(rng, kind, tuple(rng.uniform(0, 12, 2)), size=0.6) for kind in BOUNDED * 4]
    n = len(shapes)
    v = rng.normal(0, 2, (n, 2))
    w = rng.normal(0, 2, n) if turning else np.zeros(n)
    got = c2.query_impacts(shapes, v, angular_velocity=w, t_max=1.5)
    want = _brute_impacts(shapes, v, w, 1.5)
    assert len(want) >= 3
    assert got.pairs.tolist() == [[i for i, _, _ in want], [j for _, j, _ in want]]
    assert np.allclose(got.time, [t for _, _, t in want], rtol=0, atol=1e-12)
    assert got.point.shape == (len(want), 2) and got.normal.shape == (len(want), 2)


@pytest.mark.nojit
def test_query_impacts_batch_and_periodic():
    rng = np.random.default_rng(8)
    e = c2.Ellipse(rng.uniform(0, 10, (40, 2)), rng.uniform(0.1, 0.6, (40, 2)), rng.uniform(0, 3, 40))
    v = rng.normal(0, 2, (40, 2))
    got = c2.query_impacts(e, v, t_max=1.0)
    want = _brute_impacts(e, v, np.zeros(40), 1.0)
    assert got.pairs.tolist() == [[i for i, _, _ in want], [j for _, j, _ in want]]
    # through the boundary of a periodic box: a pair 1 apart across x = 0 closing at speed 2
    pair = c2.Circle([(0.5, 0.0), (19.5, 0.0)], 0.25)
    hit = c2.query_impacts(pair, [(-1.0, 0.0), (1.0, 0.0)], periodic=(20.0, 20.0))
    assert hit.pairs.tolist() == [[0], [1]] and hit.time[0] == pytest.approx(0.25, abs=1e-14)
    assert c2.query_impacts(pair, [(-1.0, 0.0), (1.0, 0.0)]).pairs.shape == (2, 0)
    with pytest.raises(ValueError, match="t_max"):
        c2.query_impacts(pair, [(1.0, 0.0)] * 2, t_max=math.inf)
    with pytest.raises(ValueError, match="velocity"):
        c2.query_impacts(pair, [(1.0, 0.0)] * 3)


def _perram_wertheim_gap(e1, e2, golden=120):
    """``g(t) = max over lambda of F(lambda) - 1`` for two moving ellipses (Perram and Wertheim
    1985: ``F(l) = l (1 - l) d^T [(1 - l) S1 + l S2]^-1 d`` with ``S = R diag(a^2, b^2) R^T``): > 0
    exactly while they are apart. ``e1``, ``e2``: ``(centre, radii, angle at 0, velocity, w)``."""

    def sigma(radii, angle):
        c, s = mpmath.cos(angle), mpmath.sin(angle)
        a2, b2 = radii[0] ** 2, radii[1] ** 2
        return a2 * c * c + b2 * s * s, (a2 - b2) * c * s, a2 * s * s + b2 * c * c

    def g(t):
        (c1, r1, th1, v1, w1), (c2_, r2, th2, v2, w2) = e1, e2
        dx = (c2_[0] + v2[0] * t) - (c1[0] + v1[0] * t)
        dy = (c2_[1] + v2[1] * t) - (c1[1] + v1[1] * t)
        s1, s2 = sigma(r1, th1 + w1 * t), sigma(r2, th2 + w2 * t)

        def f(lam):
            xx = (1 - lam) * s1[0] + lam * s2[0]
            xy = (1 - lam) * s1[1] + lam * s2[1]
            yy = (1 - lam) * s1[2] + lam * s2[2]
            det = xx * yy - xy * xy
            return lam * (1 - lam) * (yy * dx * dx - 2 * xy * dx * dy + xx * dy * dy) / det

        return _golden_max(f, mpmath.mpf(0), mpmath.mpf(1), steps=golden) - 1  # F is concave in lambda

    return g


@pytest.mark.parametrize("seed", range(3))
def test_turning_ellipse_pairs_against_perram_wertheim(seed):
    rng = np.random.default_rng(300 + seed)
    radii_a, radii_b = tuple(rng.uniform(0.2, 1.2, 2)), tuple(rng.uniform(0.2, 1.2, 2))
    th_a, th_b = float(rng.uniform(0, 3)), float(rng.uniform(0, 3))
    yb = float(rng.uniform(-1, 1))
    vb = (float(rng.uniform(-4, -2)), float(-yb * rng.uniform(0.5, 1.5)))
    wa, wb = float(rng.uniform(-4, 4)), float(rng.uniform(-4, 4))
    a = c2.Ellipse((0.0, 0.0), radii_a, direction=(math.cos(th_a), math.sin(th_a)))
    b = c2.Ellipse((4.0, yb), radii_b, direction=(math.cos(th_b), math.sin(th_b)))
    got = c2.time_of_impact(a, b, (0, 0), vb, angular_velocity_a=wa, angular_velocity_b=wb, t_max=2.0)
    angle = [mpmath.atan2(_mp(e._params[5]), _mp(e._params[4])) for e in (a, b)]  # the stored directions
    g = _perram_wertheim_gap(
        (((_mp(0), _mp(0))), tuple(map(_mp, radii_a)), angle[0], (0, 0), _mp(wa)),
        (((_mp(4.0), _mp(yb))), tuple(map(_mp, radii_b)), angle[1], tuple(map(_mp, vb)), _mp(wb)),
    )
    want = _first_root(g, 2.0, samples=300)
    assert math.isfinite(want)
    assert got.time == pytest.approx(want, abs=1e-9)


@pytest.mark.nojit
@pytest.mark.parametrize("far", [1e3, 1e6, 1e9])
def test_far_from_the_origin(far, monkeypatch):
    # the search runs in a frame at the pair (the moved coordinates would round to ulps of `far`):
    # the time is that of the same pair at the origin up to the rounding of the input far + 5.1
    # (half an ulp of `far`, over the speed; was 64 ulps), and the search does not crawl through
    # rounding (a regression: thousands of probes)
    calls = []
    contact = motion._Motion.contact
    monkeypatch.setattr(motion._Motion, "contact",
                        lambda self, rows, t, exact=True, **given: calls.append(1) or contact(self, rows, t, exact, **given))
    a, b = c2.Circle((far, 0.3), 1), c2.Circle((far + 5.1, 0.7), 1.3)
    near = c2.time_of_impact(c2.Circle((0.0, 0.3), 1), c2.Circle((5.1, 0.7), 1.3), velocity_b=(-3.7, 0.1), t_max=2)
    for w in (0.0, 0.5):
        calls.clear()
        got = c2.time_of_impact(a, b, velocity_b=(-3.7, 0.1), angular_velocity_a=w, t_max=2)
        assert got.time == pytest.approx(near.time, abs=1e-12 + 2 * far * 2.0**-52 / 3.7)
        assert len(calls) < 200


@pytest.mark.parametrize("gap", [1e-4, 7e-6, 6e-6, 1e-6])
def test_turning_near_miss_and_near_graze(gap):
    # a point passing just above an ellipse that turns slowly: the top rises by about 6.75e-6
    # while the point passes, so it misses above 7e-6 and hits (at a small approach speed) below;
    # the search must neither report the near miss as a hit nor crawl (a regression)
    e = c2.Ellipse((0, 0), (1, 0.5))
    got = c2.time_of_impact(e, c2.Point((-3, 0.5 + gap)), velocity_b=(1, 0), angular_velocity_a=1e-3, t_max=6)

    def g(t):
        x, y = t - 3, mpmath.mpf(0.5 + gap)
        th = mpmath.mpf(1e-3) * t
        u = mpmath.cos(th) * x + mpmath.sin(th) * y
        v = -mpmath.sin(th) * x + mpmath.cos(th) * y
        return u**2 + (v / mpmath.mpf(0.5)) ** 2 - 1

    want = _first_root(g, 6.0, samples=20000)
    assert (math.isinf(want) and math.isinf(got.time)) or got.time == pytest.approx(want, abs=1e-8)


@pytest.mark.parametrize("wa", [0.0, 0.1, -0.1])
def test_apart_at_the_start_by_less_than_the_noise(wa):
    # an ellipse turning at wa and a circle whose gap along the ellipse's minor axis is within an
    # ulp or a few of 0 (the circle's centre (-1.6, 1.2) is not exact in binary): moving apart,
    # towards each other or (in translation) along each other. The reference is the Perram-Wertheim function in mpmath, and
    # the normal at the start is the ellipse's minor axis (-0.8, 0.6).
    a = c2.Ellipse((0, 0), (1, 0.5), direction=(0.6, 0.8))
    t_max = 1e-3
    for scale in (1.0, 1.0 + 8 * 2.0**-52):
        b = c2.Circle((-1.6 * scale, 1.2 * scale), 1.5)
        assert not c2.intersects(a, b) and c2.distance(a, b) < 1e-14
        # (gliding along each other while turning, the gap changes at second order, and within
        # the noise its sign is that of the float separation: not decided, not tested)
        for vb in [(-0.8, 0.6), (0.8, -0.6)] + ([(0.6, 0.8), (-0.6, -0.8)] if wa == 0.0 else []):
            got = c2.time_of_impact(a, b, velocity_b=vb, angular_velocity_a=wa, t_max=t_max)
            g = _perram_wertheim_gap(
                ((_mp(0), _mp(0)), (_mp(1), _mp(0.5)), mpmath.atan2(_mp(0.8), _mp(0.6)), (0, 0), _mp(wa)),
                (tuple(map(_mp, b._params[0:2])), (_mp(1.5), _mp(1.5)), 0, tuple(map(_mp, vb)), 0),
                golden=60)
            want = _first_root(g, t_max, samples=20, halvings=60)
            assert math.isinf(got.time) == math.isinf(want), (scale, vb)
            if math.isfinite(want):
                assert got.time == pytest.approx(want, abs=1e-12 * t_max)
                assert got.normal.tolist() == pytest.approx([-0.8, 0.6], abs=1e-12)


@pytest.mark.parametrize("r, phi, w, gap", [
    *(pytest.param(*case, 0.0, marks=pytest.mark.nojit)
      for case in ((0.5, 0.5, 1.0), (0.25, 0.5, 3.0), (2.0, 0.5, 0.1), (0.5, 0.5, -1.0), (0.1, 1.3, 2.0))),
    (0.1, 1.3, 2.0, 1e-9)])
def test_turning_ellipse_tip_grazes_a_disc(r, phi, w, gap):
    # an ellipse of semi-axes (2, 0.5) spinning at w about the origin and a disc of radius r
    # centred at distance 2 + r (+ gap) in the direction phi pi: the tip touches the disc for one
    # instant, the first time the major axis points at the centre (w t = direction mod pi); with
    # a gap it never touches. The float centre is taken exactly into mpmath.
    t_max = 8.0 / abs(w)
    angle = mpmath.mpf(phi) * mpmath.pi
    centre = tuple(float((2 + mpmath.mpf(r) + gap) * f(angle)) for f in (mpmath.cos, mpmath.sin))
    got = c2.time_of_impact(c2.Ellipse((0, 0), (2, 0.5)), c2.Circle(centre, r), angular_velocity_a=w, t_max=t_max)
    x, y = (mpmath.mpf(c) for c in centre)
    dist = mpmath.sqrt(x * x + y * y) - 2 - mpmath.mpf(r)
    if gap:
        assert dist > 1e-10 and math.isinf(got.time)
        return
    assert abs(dist) < 1e-15  # a touch or a miss within the noise
    want = float((mpmath.atan2(y, x) * mpmath.sign(w)) % mpmath.pi / abs(w))
    assert abs(got.time - want) <= 1e-12 * t_max


@pytest.mark.nojit
@pytest.mark.parametrize("wa, wb", [(1.0, 1.0), (1.0, 3.0), (1.0, -1.0), (0.5, 1.5), (-1.0, 3.0)])
def test_turning_ellipse_tips_graze(wa, wb):
    # ellipses of semi-axes (2, 0.5) at the origin and (1, 0.3) at (0, 3) spinning at wa and wb
    # about their centres: apart until both major axes are vertical at once (their tips meet at
    # (0, 2) for one instant), the first t with wa t and wb t both pi/2 mod pi. The search passes
    # the instants where only one of them is vertical (a local minimum of the separation apart).
    t_max = 8.0
    got = c2.time_of_impact(c2.Ellipse((0, 0), (2, 0.5)), c2.Ellipse((0, 3), (1, 0.3)),
                            angular_velocity_a=wa, angular_velocity_b=wb, t_max=t_max)
    half = mpmath.mpf(1) / 2
    times = ((j + half) * mpmath.pi / abs(wa) for j in range(8))
    turns = ((abs(wb) * t / mpmath.pi + half, t) for t in times)  # wb t = pi/2 mod pi: a whole number of turns
    want = next(t for q, t in turns if abs(q - mpmath.nint(q)) < 1e-30)
    assert abs(got.time - float(want)) <= 1e-12 * t_max
    assert got.point == pytest.approx((0.0, 2.0), abs=1e-12)
