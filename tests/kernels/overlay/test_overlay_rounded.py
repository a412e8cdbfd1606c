"""intersection_points, overlap_area and iou with rounded shapes (capsules, rounded polygons and
boxes) against independent references.

References: the overlap area as the integral over x of the length of the intersection of the
vertical line at x with both shapes, each shape's slice computed in closed form at 20 digits
(mpmath: a rounded shape's slice is the hull of its core's slice, the slices of the discs about
its vertices and of the rectangles on its edges), integrated by mpmath.quad between the x's where
the slices' ends cross (found by bisection, and at the computed meeting points,
which only help the quadrature); exact rationals (Fractions) where the
intersection has only flat sides; shapely's buffer at high resolution as a coarse cross-check.
Meeting points are checked by their distances to both boundaries (mpmath) and their count.
"""

from __future__ import annotations

import math
import os

import numpy as np
import pytest

import collide2d as c2
from collide2d.overlay import intersection_points, iou, overlap_area

mpmath = pytest.importorskip("mpmath")
mp = mpmath.mp


# -- the slice reference -------------------------------------------------------------------------


def _polygon_slice(v, x):
    """``(lo, hi)`` of a convex polygon (mp vertices) on the vertical line at ``x``, or None."""
    ys = []
    n = len(v)
    for i in range(n):
        (x0, y0), (x1, y1) = v[i], v[(i + 1) % n]
        if x0 == x1:
            if x == x0:
                ys += [y0, y1]
            continue
        if min(x0, x1) <= x <= max(x0, x1):
            ys.append(y0 + (y1 - y0) * (x - x0) / (x1 - x0))
    return (min(ys), max(ys)) if ys else None


def _disc_slice(cx, cy, r, x):
    h = r * r - (x - cx) ** 2
    if h < 0:
        return None
    h = mpmath.sqrt(h)
    return (cy - h, cy + h)


def _hull(slices):
    slices = [s for s in slices if s is not None]
    if not slices:
        return None
    return (min(s[0] for s in slices), max(s[1] for s in slices))


class Ref:
    """A shape for the reference: its slice at x and its x-range, at mp precision."""

    def __init__(self, shape):
        mpf = mpmath.mpf
        f = {k: np.asarray(v, dtype=float) for k, v in shape.fields.items()}
        round_region = "radii" in f or type(shape).__name__ == "Circle"
        self.r = mpf(float(f.get("radius", 0.0))) if not round_region else 0
        self.ellipse = self.core = None
        if round_region:
            (cx, cy) = f["center"]
            a, b = f["radii"] if "radii" in f else (f["radius"], f["radius"])
            self.ellipse = tuple(mpf(float(v)) for v in (cx, cy, a, b, f.get("angle", 0.0)))
            return
        if isinstance(shape, c2.Capsule):
            core = [f["a"]] if (f["a"] == f["b"]).all() else [f["a"], f["b"]]
        elif isinstance(shape, c2.RotatedBox):
            (cx, cy), (hx, hy), t = [mpf(float(v)) for v in f["center"]], [mpf(float(v)) for v in f["half_size"]], mpf(float(f["angle"]))
            c, s = mpmath.cos(t), mpmath.sin(t)
            self.core = [(cx + c * sx * hx - s * sy * hy, cy + s * sx * hx + c * sy * hy) for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
            return
        elif isinstance(shape, c2.Box):
            (x0, y0), (x1, y1) = f["min"], f["max"]
            core = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        elif isinstance(shape, (c2.Segment, c2.Line)):
            core = [f[k] for k in f][:2]
        else:
            core = list(f["vertices"])
            x = [float(v[0]) for v in core]
            y = [float(v[1]) for v in core]
            if sum(x[i] * y[(i + 1) % len(x)] - x[(i + 1) % len(x)] * y[i] for i in range(len(x))) < 0:
                core = core[::-1]
        self.core = [(mpf(float(x)), mpf(float(y))) for x, y in core]

    def xrange(self):
        if self.ellipse is not None:
            cx, cy, a, b, t = self.ellipse
            w = mpmath.sqrt((a * mpmath.cos(t)) ** 2 + (b * mpmath.sin(t)) ** 2)
            return cx - w, cx + w
        xs = [p[0] for p in self.core]
        return min(xs) - self.r, max(xs) + self.r

    def slice(self, x):
        if self.ellipse is not None:
            cx, cy, a, b, t = self.ellipse
            c, s = mpmath.cos(t), mpmath.sin(t)
            # points (cx, cy) + R (a X, b Y): solve for y on the vertical line, a quadratic
            dx = x - cx
            # q(y) = ((c dx + s dy)/a)^2 + ((-s dx + c dy)/b)^2 = 1, dy = y - cy
            A = (s / a) ** 2 + (c / b) ** 2
            B = 2 * dx * (c * s / a**2 - s * c / b**2)
            C = (c * dx / a) ** 2 + (s * dx / b) ** 2 - 1
            disc = B * B - 4 * A * C
            if disc < 0:
                return None
            root = mpmath.sqrt(disc)
            return (cy + (-B - root) / (2 * A), cy + (-B + root) / (2 * A))
        core, r = self.core, self.r
        parts = [_disc_slice(px, py, r, x) for px, py in core] if r > 0 else []
        if len(core) >= 3:
            parts.append(_polygon_slice(core, x))
        elif len(core) == 2 and r == 0:
            parts.append(_polygon_slice(core, x))
        if r > 0 and len(core) >= 2:
            n = len(core)
            for i in range(n if n > 2 else 1):
                (x0, y0), (x1, y1) = core[i], core[(i + 1) % n]
                ex, ey = x1 - x0, y1 - y0
                length = mpmath.sqrt(ex * ex + ey * ey)
                nx, ny = ey / length * r, -ex / length * r
                rect = [(x0 + nx, y0 + ny), (x1 + nx, y1 + ny), (x1 - nx, y1 - ny), (x0 - nx, y0 - ny)]
                parts.append(_polygon_slice(rect, x))
        return _hull(parts)


def _width(a, b, x):
    sa, sb = a.slice(x), b.slice(x)
    if sa is None or sb is None:
        return mpmath.mpf(0)
    return max(mpmath.mpf(0), min(sa[1], sb[1]) - max(sa[0], sb[0]))


def reference_area(shape_a, shape_b, dps=20, grid=24):
    """The overlap area by integration of slice widths (see the module docstring)."""
    with mp.workdps(dps):
        a, b = Ref(shape_a), Ref(shape_b)
        lo = max(a.xrange()[0], b.xrange()[0])
        hi = min(a.xrange()[1], b.xrange()[1])
        if lo >= hi:
            return mpmath.mpf(0)
        # the kinks: vertex and arc-end x's, and where the slices' ends cross
        points = {lo, hi}
        for ref in (a, b):
            if ref.core is not None:
                for px, _ in ref.core:
                    for dx in (-ref.r, 0, ref.r):
                        if lo < px + dx < hi:
                            points.add(px + dx)
                if ref.r > 0 and len(ref.core) >= 2:
                    n = len(ref.core)
                    for i in range(n):
                        (x0, y0), (x1, y1) = ref.core[i], ref.core[(i + 1) % n]
                        ex, ey = x1 - x0, y1 - y0
                        length = mpmath.sqrt(ex * ex + ey * ey)
                        for sign in (-1, 1):
                            for px in (x0, x1):
                                t = px + sign * ey / length * ref.r
                                if lo < t < hi:
                                    points.add(t)

        def ends(x):
            sa, sb = a.slice(x), b.slice(x)
            if sa is None or sb is None:
                return None
            return (sa[0] - sb[0], sa[1] - sb[1], sa[1] - sb[0], sa[0] - sb[1])

        # the computed meeting points as extra breakpoints: they only help the quadrature (a
        # breakpoint an ulp off a kink costs nothing); the integrand does not depend on them
        for x, _ in intersection_points(shape_a, shape_b).tolist():
            if lo < x < hi:
                points.add(mpmath.mpf(x))
        xs = [lo + (hi - lo) * k / grid for k in range(grid + 1)]
        values = [ends(x) for x in xs]
        for k in range(grid):
            u, w = values[k], values[k + 1]
            if u is None or w is None:
                continue
            for j in range(4):
                if u[j] == 0 or w[j] == 0 or (u[j] < 0) == (w[j] < 0):
                    continue
                left, right, fl = xs[k], xs[k + 1], u[j]
                for _ in range(dps * 4):
                    mid = (left + right) / 2
                    fm = ends(mid)
                    if fm is None:
                        break
                    if (fm[j] < 0) == (fl < 0):
                        left, fl = mid, fm[j]
                    else:
                        right = mid
                points.add((left + right) / 2)
        points = sorted(points)
        return mpmath.quad(lambda x: _width(a, b, x), points)


def _relative(value, reference):
    reference = float(reference)
    return abs(value - reference) / max(abs(reference), 1e-300)


# -- cases ---------------------------------------------------------------------------------------

CAPSULE = c2.Capsule((0, 0), (2, 1), 0.5)
ROUNDED_BOX = c2.Box((1, -1), (3, 0.5), radius=0.3)
ROUNDED_ROTATED = c2.RotatedBox((1.5, 0.7), (1.2, 0.4), 0.6, radius=0.25)
ROUNDED_POLYGON = c2.Polygon([(0.5, -0.5), (2.5, 0.2), (1.0, 1.5)], radius=0.2)
DISC_CAPSULE = c2.Capsule((1.4, 0.6), (1.4, 0.6), 0.7)

PARTNERS = {
    "circle": c2.Circle((2.1, 0.9), 0.8),
    "ellipse": c2.Ellipse((1.2, 0.3), (1.5, 0.45), angle=0.4),
    "box": c2.Box((0.8, -0.2), (2.6, 1.9)),
    "rotated box": c2.RotatedBox((0.5, 0.4), (0.9, 0.3), -0.7),
    "polygon": c2.Polygon([(1.0, -0.6), (2.9, 0.1), (2.2, 1.6), (0.6, 0.9)]),
    "capsule": c2.Capsule((2.5, -0.5), (0.2, 1.4), 0.35),
    "rounded box": c2.Box((1.4, 0.1), (3.0, 2.0), radius=0.4),
    "rounded polygon": c2.Polygon([(2.0, -0.4), (3.2, 1.0), (1.0, 1.2)], radius=0.15),
}
ROUNDED = {"capsule": CAPSULE, "rounded box": ROUNDED_BOX, "rounded rotated box": ROUNDED_ROTATED,
           "rounded polygon": ROUNDED_POLYGON, "disc capsule": DISC_CAPSULE}


@pytest.mark.parametrize("partner", sorted(PARTNERS))
def test_overlap_area_against_slice_integration_both_orders(partner):
    """Two rounded shapes per partner (each rounded shape meets three or four partners), to keep
    the references fast; ``COLLIDE2D_FULL_MATRIX=1`` takes all five against every partner."""
    b = PARTNERS[partner]
    names = sorted(ROUNDED)
    k = sorted(PARTNERS).index(partner)
    chosen = names if os.environ.get("COLLIDE2D_FULL_MATRIX") == "1" else [names[k % 5], names[(k + 2) % 5]]
    for name in chosen:
        a = ROUNDED[name]
        reference = reference_area(a, b)
        assert float(reference) > 0.01, (name, partner)
        forward, backward = overlap_area(a, b), overlap_area(b, a)
        assert _relative(forward, reference) < 1e-13, (name, partner, forward, float(reference))
        assert _relative(backward, reference) < 1e-13, (name, partner, backward, float(reference))


def test_overlap_area_batched_equals_single_both_orders():
    rounded = c2.Capsule([(0, 0), (0.5, 0.2), (1, 1)], [(2, 1), (2.5, 0.2), (1, 1)], [0.5, 0.3, 0.8])
    box = c2.RotatedBox((1.5, 0.7), (1.2, 0.4), 0.6, radius=0.25)
    ellipse = c2.Ellipse([(1.2, 0.3), (0.0, 0.0)], (1.5, 0.45), angle=0.4)
    for other in (box, ellipse[0]):
        forward, backward = overlap_area(rounded, other), overlap_area(other, rounded)
        singles = [overlap_area(rounded[k], other) for k in range(3)]
        assert forward.tolist() == singles == backward.tolist()
    grid = overlap_area(rounded[:, None], ellipse[None, :])
    assert grid.shape == (3, 2)
    for i in range(3):
        for j in range(2):
            assert grid[i, j] == overlap_area(rounded[i], ellipse[j])
            assert _relative(grid[i, j], reference_area(rounded[i], ellipse[j])) < 1e-13


def test_overlap_area_rational_when_the_sides_are_flat():
    from fractions import Fraction

    rounded = c2.Box((0, 0), (4, 2), radius=0.5)
    box = c2.Box((1, -2), (3, 1))  # the intersection: x in [1, 3], y in [-0.5, 1]
    assert overlap_area(rounded, box) == overlap_area(box, rounded) == float(Fraction(2) * Fraction(3, 2))
    capsule = c2.Capsule((0, 0), (8, 0), 0.75)
    cut = c2.Polygon([(1, -3), (5, -3), (5, 3), (1, 3)])  # x in [1, 5], |y| <= 3/4
    assert overlap_area(capsule, cut) == float(Fraction(4) * Fraction(3, 2))
    crossing = c2.Capsule((3, -5), (3, 5), 0.25)  # two perpendicular capsules: a square 1/2 x 3/2
    assert overlap_area(capsule, crossing) == overlap_area(crossing, capsule) == float(Fraction(1, 2) * Fraction(3, 2))


def test_overlap_area_nested_touching_identical_and_iou():
    capsule = c2.Capsule((0, 0), (2, 0), 0.5)
    area = 2.0 + math.pi * 0.25
    assert overlap_area(capsule, c2.Capsule((0, 0), (2, 0), 0.5)) == capsule.area
    assert iou(capsule, c2.Capsule((0, 0), (2, 0), 0.5)) == 1.0
    assert overlap_area(capsule, c2.Box((-5, -5), (5, 5))) == capsule.area
    assert abs(capsule.area - area) < 1e-15
    small = c2.Circle((1, 0), 0.25)
    assert overlap_area(capsule, small) == overlap_area(small, capsule) == small.area
    touching = c2.Capsule((0, 1), (2, 1), 0.5)  # resting on the flat: the regions touch
    assert overlap_area(capsule, touching) == 0.0 and iou(capsule, touching) == 0.0
    above = c2.Capsule((0, 1.0 - 2.0**-40), (2, 1.0 - 2.0**-40), 0.5)  # a sliver 2 x 2**-40
    assert _relative(overlap_area(capsule, above), 2.0 * 2.0**-40) < 1e-3
    half = c2.Box((1, -1), (5, 1))
    value = iou(capsule, half)
    inter = 1.0 + math.pi / 8
    assert _relative(value, inter / (capsule.area + 8.0 - inter)) < 1e-15


def test_overlap_area_zero_for_points_segments_lines():
    capsule = c2.Capsule((0, 0), (2, 0), 0.5)
    for other in (c2.Point((1, 0)), c2.Segment((-1, 0), (3, 0)), c2.Line((0, 0), (1, 1))):
        assert overlap_area(capsule, other) == overlap_area(other, capsule) == 0.0
        assert iou(other, capsule) == 0.0


@pytest.mark.parametrize("exponent", [-140, -40, 0, 40, 140])
def test_overlap_area_at_extreme_magnitudes_and_size_ratios(exponent):
    s = 10.0**exponent
    a = c2.Polygon([(0.5 * s, -0.5 * s), (2.5 * s, 0.2 * s), (1.0 * s, 1.5 * s)], radius=0.2 * s)
    b = c2.Ellipse((1.2 * s, 0.3 * s), (1.5 * s, 0.45 * s), angle=0.4)
    reference = reference_area(ROUNDED_POLYGON, PARTNERS["ellipse"]) * mpmath.mpf(s) ** 2
    assert _relative(overlap_area(a, b), reference) < 1e-12
    # a small capsule (1e-6) across the edge of a large rounded box (1e0)
    tiny = c2.Capsule((3.0 * s, 0.5 * s), (3.0 * s + 1e-6 * s, 0.5 * s + 1e-6 * s), 1e-6 * s)
    big = c2.Box((0.0, 0.0), (3.0 * s, 1.0 * s), radius=0.5 * s)  # its right flat at x = 3.5 s
    tiny_ref = c2.Capsule((3.0, 0.5), (3.0 + 1e-6, 0.5 + 1e-6), 1e-6)
    assert _relative(overlap_area(tiny, big), tiny_ref.area * s * s) < 1e-9
    edge = c2.Capsule((3.5 * s, 0.5 * s), (3.5 * s, 0.5 * s + 1e-6 * s), 1e-6 * s)  # cut in half
    assert _relative(overlap_area(edge, big) / (s * s), 0.5 * (2e-12 + math.pi * 1e-12)) < 1e-6


def test_small_capsule_across_the_flat_of_a_huge_rounded_box_of_small_radius():
    """A capsule of size 1e-140 centred on the top flat of a rounded box of size 2**466 (1.9e140)
    and radius 2e-140 (its flat at y = 2e-140 exactly): centrally symmetric about a point of the
    straight boundary, it is cut in half. The reference is half the capsule's area at 50 digits
    (mpmath); the meeting points lie on the flat (y within rounding of 2e-140) at the capsule's
    two sides. Both orders, single and batched (before: 0 and no points, the pair scaled as one)."""
    big_size = 2.0**465
    r, d, u = 1e-140, 3e-140, 1e-140
    flat = 2e-140
    capsule = c2.Capsule((-d, flat - u), (d, flat + u), r)
    box = c2.Box((-big_size, -2.0 * big_size), (big_size, 0.0), radius=flat)
    with mpmath.workdps(50):
        length = 2 * mpmath.sqrt(mpmath.mpf(d) ** 2 + mpmath.mpf(u) ** 2)
        half = (2 * mpmath.mpf(r) * length + mpmath.pi * mpmath.mpf(r) ** 2) / 2
    batch_a = c2.Capsule([capsule.a] * 2, [capsule.b] * 2, [r, r])
    batch_b = c2.Box([box.min] * 2, [box.max] * 2, radius=[flat, flat])
    for value in (overlap_area(capsule, box), overlap_area(box, capsule), *overlap_area(batch_a, batch_b),
                  *overlap_area(batch_b, batch_a)):
        assert _relative(value, half) < 1e-12
    for found in (intersection_points(capsule, box), intersection_points(box, capsule)):
        assert found.shape == (2, 2)
        assert np.all(np.abs(found[:, 1] - flat) <= 1e-12 * flat)
        assert sorted(np.sign(found[:, 0]).tolist()) == [-1.0, 1.0]
    points, count = intersection_points(batch_a, batch_b)
    assert count.tolist() == [2, 2] and np.all(np.abs(points[:, :2, 1] - flat) <= 1e-12 * flat)


def test_small_capsule_on_the_vertex_of_a_huge_ellipse_runs_against_its_tangent_half_plane():
    """A capsule of size 1e-140 centred on the vertex (0, 0) of an ellipse of semi-axes 2**495
    and 2**494 (curvature radius 2**493 there): the ellipse is its tangent half-plane x <= 0 to far
    below rounding, which cuts the centrally symmetric capsule in half (mpmath, 50 digits). The
    overlap rung is called with the relation OVERLAPPING directly (the pair's ``relate`` answers
    TOUCHING today, a separate defect); before, the pair was scaled as one and the points kernel
    divided by zero."""
    from collide2d._glue import registry
    from collide2d._kernels import codes
    from collide2d._robust import magnitude

    big = 2.0**495
    ellipse = c2.Ellipse((-big, 0.0), (big, big / 2), 0.0)
    r = 1e-140
    capsule = c2.Capsule((-r, -r), (r, r), r)
    with mpmath.workdps(50):
        half = (2 * mpmath.mpf(r) * mpmath.sqrt(8 * mpmath.mpf(r) ** 2) + mpmath.pi * mpmath.mpf(r) ** 2) / 2
    rows = ("rounded", capsule._params, capsule._verts, "ellipse", ellipse._params, ellipse._verts)
    area = magnitude.rounded_area_row(registry.entry("area", "rounded", "ellipse").kernel, *rows, codes.OVERLAPPING)
    assert _relative(area, half) < 1e-12
    out = np.full((8, 2), np.nan)
    count = magnitude.rounded_points_row(registry.entry("points", "rounded", "ellipse").kernel, *rows,
                                         codes.OVERLAPPING, out)
    assert count == 2 and np.all(np.abs(out[:2, 0]) <= 1e-12 * r)


def test_overlap_area_against_shapely_buffer_coarse():
    shapely = pytest.importorskip("shapely")
    for a in ROUNDED.values():
        for b in PARTNERS.values():
            sa, sb = c2.to_shapely(a, tolerance=1e-7), c2.to_shapely(b, tolerance=1e-7)
            rough = shapely.intersection(sa, sb).area
            assert abs(overlap_area(a, b) - rough) < 1e-5


def test_radius_zero_is_the_plain_shape_bit_for_bit():
    tri = [(0.5, -0.5), (2.5, 0.2), (1.0, 1.5)]
    for other in (PARTNERS["ellipse"], PARTNERS["polygon"], c2.Segment((0, 0), (3, 1)), c2.Line((0, 0.3), (1, 0.4))):
        assert np.array_equal(intersection_points(c2.Polygon(tri, radius=0.0), other), intersection_points(c2.Polygon(tri), other))
        assert overlap_area(c2.Polygon(tri, radius=0.0), other) == overlap_area(c2.Polygon(tri), other)
    mixed = c2.Polygon([tri, tri], radius=[0.0, 0.2])
    area = overlap_area(mixed, PARTNERS["ellipse"])
    assert area[0] == overlap_area(c2.Polygon(tri), PARTNERS["ellipse"])
    assert area[1] == overlap_area(c2.Polygon(tri, radius=0.2), PARTNERS["ellipse"])
    points, count = intersection_points(mixed, PARTNERS["polygon"])
    plain = intersection_points(c2.Polygon(tri), PARTNERS["polygon"])
    assert count[0] == len(plain) and np.array_equal(points[0, : count[0]], plain)


# -- intersection points -------------------------------------------------------------------------


def _distance_to_boundary(shape, xy):
    """Distance of ``xy`` to the outline of ``shape`` (mp, then float): a rounded shape by its core."""
    with mp.workdps(30):
        x, y = mpmath.mpf(float(xy[0])), mpmath.mpf(float(xy[1]))
        if "radii" in shape.fields or type(shape).__name__ == "Circle":
            return _ellipse_level_gap(shape, xy)
        ref = Ref(shape)
        core, r = ref.core, ref.r
        if isinstance(shape, (c2.Segment, c2.Line)):
            return 0.0
        best = None
        n = len(core)
        for i in range(n if n > 1 else 1):
            (x0, y0), (x1, y1) = core[i], core[(i + 1) % n]
            ex, ey = x1 - x0, y1 - y0
            e2 = ex * ex + ey * ey
            t = 0 if e2 == 0 else min(1, max(0, ((x - x0) * ex + (y - y0) * ey) / e2))
            d = mpmath.sqrt((x - x0 - t * ex) ** 2 + (y - y0 - t * ey) ** 2)
            best = d if best is None else min(best, d)
        if n >= 3 and r == 0:
            return float(best)
        inside = n >= 3 and all((core[(i + 1) % n][0] - core[i][0]) * (y - core[i][1])
                                - (core[(i + 1) % n][1] - core[i][1]) * (x - core[i][0]) > 0 for i in range(n))
        return float(abs((-best if inside else best) - r))


def _ellipse_level_gap(ellipse, xy):
    f = ellipse.fields
    (cx, cy), t = f["center"], float(f.get("angle", 0.0))
    a, b = f["radii"] if "radii" in f else (f["radius"], f["radius"])
    dx, dy = xy[0] - cx, xy[1] - cy
    X = (math.cos(t) * dx + math.sin(t) * dy) / a
    Y = (-math.sin(t) * dx + math.cos(t) * dy) / b
    return abs(math.hypot(X, Y) - 1.0) * min(a, b)


@pytest.mark.parametrize("partner", sorted(PARTNERS))
def test_intersection_points_lie_on_both_boundaries_both_orders(partner):
    b = PARTNERS[partner]
    shapely = pytest.importorskip("shapely")
    for name, a in ROUNDED.items():
        points = intersection_points(a, b)
        back = intersection_points(b, a)
        assert sorted(map(tuple, points.tolist())) == sorted(map(tuple, back.tolist())), (name, partner)
        for xy in points:
            assert _distance_to_boundary(a, xy) < 1e-13 and _distance_to_boundary(b, xy) < 1e-13, (name, partner, xy)
        # the count against shapely's outlines at high resolution (coarse)
        ra = c2.to_shapely(a, tolerance=1e-9).exterior
        rb = c2.to_shapely(b, tolerance=1e-9).exterior
        rough = shapely.get_num_geometries(shapely.intersection(ra, rb))
        assert len(points) == rough, (name, partner, points, rough)


def test_intersection_points_segments_lines_points_batched():
    capsule = c2.Capsule((0, 0), (2, 0), 0.5)
    assert sorted(intersection_points(capsule, c2.Segment((1, -2), (1, 2))).tolist()) == [[1.0, -0.5], [1.0, 0.5]]
    assert sorted(intersection_points(c2.Line((-3, 0), (1, 0)), capsule).tolist()) == [[-0.5, 0.0], [2.5, 0.0]]
    assert intersection_points(capsule, c2.Point((2.5, 0.0))).tolist() == [[2.5, 0.0]]
    assert intersection_points(c2.Point((2.4, 0.0)), capsule).shape == (0, 2)
    # a segment on the flat: the ends of the shared piece
    assert sorted(intersection_points(capsule, c2.Segment((-3, 0.5), (1, 0.5))).tolist()) == [[0.0, 0.5], [1.0, 0.5]]
    # touching circles: one point, tangent
    assert intersection_points(capsule, c2.Circle((2.0, 1.5), 1.0)).tolist() == [[2.0, 0.5]]
    batch = c2.Capsule([(0, 0), (0, 0)], [(2, 0), (2, 0)], [0.5, 1.0])
    segment = c2.Segment((1, -2), (1, 2))
    points, count = intersection_points(batch, segment)
    back, back_count = intersection_points(segment, batch)
    assert count.tolist() == back_count.tolist() == [2, 2] and points.shape == (2, 2, 2)
    for k in range(2):
        single = intersection_points(batch[k], segment)
        assert np.array_equal(points[k, : count[k]], single) and np.array_equal(back[k, : count[k]], single)
    # circle against circle arc, exact: unit circles about (0, 0) and (1, 0) meet at (1/2, +-sqrt(3)/2)
    disc = c2.Capsule((0, 0), (0, 0), 1.0)
    got = sorted(intersection_points(disc, c2.Circle((1, 0), 1)).tolist())
    assert np.allclose(got, [[0.5, -math.sqrt(3) / 2], [0.5, math.sqrt(3) / 2]], rtol=0, atol=4e-16)


def _rounded_kind(shape):
    return isinstance(shape, c2.Capsule) or float(shape.fields.get("radius", 0.0)) > 0.0 and not type(shape).__name__ == "Circle"


EVERY_KIND = {
    "point": c2.Point((1.0, 0.5)),
    "segment": c2.Segment((-1.0, 0.2), (3.0, 0.6)),
    "line": c2.Line((0.0, 0.1), (1.0, 0.3)),
    **PARTNERS,
}


@pytest.mark.parametrize("other", sorted(EVERY_KIND))
def test_every_kind_pair_both_orders_single_and_batched(other):
    """The table of docs/rounded.md: intersection_points, overlap_area and iou take every kind
    against the rounded ones, in both orders, single and batched (the batch rows equal the single
    answers), and the table lists them."""
    b = EVERY_KIND[other]
    batch = c2.Capsule([(0, 0), (0.5, 0.2), (9, 9)], [(2, 1), (2.5, 0.2), (9, 9)], [0.5, 0.3, 0.8])
    for name, values in (("forward", lambda x, y: (x, y)), ("backward", lambda x, y: (y, x))):
        x, y = values(batch, b)
        points, count = intersection_points(x, y)
        areas, ratios = overlap_area(x, y), iou(x, y)
        assert areas.shape == ratios.shape == count.shape == (3,)
        for k in range(3):
            xs, ys = values(batch[k], b)
            single = intersection_points(xs, ys)
            assert np.array_equal(points[k, : count[k]], single), (name, k)
            assert areas[k] == overlap_area(xs, ys) and ratios[k] == iou(xs, ys)
        assert count[2] == 0 and areas[2] == 0.0  # the far disc
    assert (areas > 0).any() == (other not in ("point", "segment", "line"))
    with open(__file__.rsplit("tests", 1)[0] + "docs/rounded.md") as f:
        text = f.read()
    assert "| `intersection_points` | yes |" in text and "| `overlap_area`, `iou` |" in text


def test_collinear_core_vertices_give_no_spurious_arc():
    """A core vertex on the line of its neighbours (an exterior angle of 0, or -1e-17 by rounding)
    rounds nothing: the square's area, not a full circle more."""
    box = c2.Box((1, -1), (3, 1))
    expected = 1.0 * 1.1 + 0.1 + math.pi * 0.01 / 4  # core, right strip, the corner's quarter disc
    built = 0
    for middle in [(1.0, 0.0), (1.0, 1e-17), (1.0, -1e-17)]:
        try:  # the constructor refuses the non-convex one
            square = c2.Polygon([(0, 0), middle, (2, 0), (2, 2), (0, 2)], radius=0.1)
        except ValueError:
            continue
        built += 1
        assert _relative(overlap_area(square, box), expected) < 1e-15
    assert built >= 2


def test_touching_curved_pairs_meet_at_one_point_flat_ones_along_the_shared_stretch():
    """Two touching convex regions share a point, or a segment when both boundaries are flat there.
    An exact tangency (a capsule's cap on a circle, on an ellipse's vertex, a rounded box's flat
    on a circle) gives the contact's witness on the first shape, once, not two crossings a hair
    apart; the same pairs overlapping by 1e-13 are OVERLAPPING (decided exactly, not within the
    ellipse band) with their two crossings; both orders, single and batched."""
    import collide2d as c2

    curved = [
        (c2.Capsule((0, 0), (0, 0), 1.0), c2.Circle((2.0, 0.0), 1.0)),
        (c2.Capsule((0, 0), (0, 1), 1.0), c2.Ellipse((0, 3.0), (2, 1))),
        (c2.Box((0, 0), (1, 1), radius=0.5), c2.Circle((0.5, 2.5), 1.0)),
    ]
    overlapping = [
        (c2.Capsule((0, 0), (0, 0), 1.0), c2.Circle((2 - 1e-13, 0.0), 1.0)),
        (c2.Capsule((0, 0), (0, 1), 1.0), c2.Ellipse((0, 3 - 2e-13), (2, 1))),
        (c2.Box((0, 0), (1, 1), radius=0.5), c2.Circle((0.5, 2.5 - 1e-13), 1.0)),
    ]
    for a, b in overlapping:
        for x, y in ((a, b), (b, a)):
            assert c2.relate(x, y) == c2.Relation.OVERLAPPING
            assert c2.intersection_points(x, y).shape == (2, 2)
    for a, b in curved:
        for x, y in ((a, b), (b, a)):
            assert c2.relate(x, y) == c2.Relation.TOUCHING
            points = c2.intersection_points(x, y)
            assert points.shape == (1, 2)
            np.testing.assert_array_equal(points[0], c2.contact(x, y).point_a)
    circles = c2.Circle([(2.0, 0.0)] * 3, [1.0] * 3)
    discs = c2.Capsule([(0, 0)] * 3, [(0, 0)] * 3, [1.0, 1.0, 0.0])  # the last: radius 0, a point
    for x, y in ((discs, circles), (circles, discs)):
        points, count = c2.intersection_points(x, y)
        assert count.tolist() == [1, 1, 0]
        np.testing.assert_array_equal(points[:2, 0], c2.contact(x, y).point_a[:2])
    flat = (c2.Box((0, 0), (2, 1), radius=0.5), c2.Box((0, 2), (3, 3), radius=0.5))
    for x, y in (flat, flat[::-1]):
        assert sorted(map(tuple, c2.intersection_points(x, y).tolist())) == [(0.0, 1.5), (2.0, 1.5)]


def test_batches_grow_their_workspace_for_many_sided_rows():
    """A batch loop makes one workspace for its rows (room for 8 pieces a side) and grows it when a
    pair needs more: rounded 12-gons (24 pieces) against a rounded box and an ellipse, both
    orders, next to rounded boxes (8 pieces). Every row equals its single call (a workspace of its
    own size), bit for bit, and a 12-gon's area its slice integral."""
    angles = np.linspace(0.0, 2.0 * np.pi, 12, endpoint=False)
    gon = np.stack([1.3 + 1.1 * np.cos(angles), 0.4 + 0.9 * np.sin(angles)], axis=-1)
    small = c2.Polygon([[(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0)]] * 2, radius=[0.2, 0.1])
    big = c2.Polygon([gon, gon + 0.3, gon - 0.2], radius=[0.15, 0.3, 0.05])
    partners = [c2.Box((1.0, -0.5), (3.0, 1.5), radius=0.25), c2.Ellipse((1.2, 0.3), (1.5, 0.45), angle=0.4)]
    for shape in (small, big):
        for other in partners:
            for x, y in ((shape, other), (other, shape)):
                area = overlap_area(x, y)
                points, count = intersection_points(x, y)
                for k in range(len(shape)):
                    single = (shape[k], other) if x is shape else (other, shape[k])
                    assert area[k] == overlap_area(*single)
                    expected = intersection_points(*single)
                    assert count[k] == len(expected) > 0
                    np.testing.assert_array_equal(points[k, : count[k]], expected)
    assert _relative(overlap_area(big, partners[0])[1], reference_area(big[1], partners[0])) < 1e-13


def test_line_meeting_points_use_its_direction():
    """A line is stored as a point and a direction: the rounded kernels took the direction for a
    second point of the line (Capsule((-1, 0), (1, 0), 1) met the line through (1.5, 0) along
    (1, 1) at (1.8, -0.6) and (1, 1), points of the line through (1.5, 0) and (1, 1)). Reference:
    the line y = x - 1.5 meets the flat y = -1 at (0.5, -1) and the circle about (1, 0) at x =
    (5 + sqrt 7) / 4, exactly. Both orders, single and batched."""
    capsule = c2.Capsule((-1, 0), (1, 0), 1.0)
    line = c2.Line((1.5, 0.0), (1.0, 1.0))
    x = (5 + mpmath.sqrt(7)) / 4
    expected = np.array([[0.5, -1.0], [float(x), float(x - mpmath.mpf(1.5))]])
    batch = c2.Capsule([(-1, 0), (-9, 9)], [(1, 0), (-8, 9)], [1.0, 0.5])  # row 1 far from the line
    lines = c2.Line([(1.5, 0.0), (1.5, 0.0)], [(1.0, 1.0), (2.0, 2.0)])  # the same line, a longer direction
    answers = [intersection_points(capsule, line), intersection_points(line, capsule)]
    for points, count in (intersection_points(batch, line), intersection_points(line, batch),
                          intersection_points(capsule, lines), intersection_points(lines, capsule)):
        answers += [points[k, : count[k]] for k in range(len(count)) if count[k]]
    assert len(answers) == 8  # 2 single, 2 from the capsule batches (row 1 meets nothing), 4 from the line batches
    for got in answers:
        got = np.asarray(sorted(map(tuple, got)))
        assert got.shape == (2, 2) and np.abs(got - expected).max() <= 1e-15
