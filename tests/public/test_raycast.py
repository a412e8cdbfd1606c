"""raycast against an independent reference: exact rationals for every decision, mpmath for values.

The reference below shares no code with the kernels. It decides hit, miss, origin on the boundary
and origin inside on :class:`fractions.Fraction` values of the stored numbers (for an ellipse the
quadratic ``A t^2 + 2 B t + C`` of the ray's own parameter, degree 12, with the discriminant
``B^2 - A C`` taken as it is; for the flat kinds a brute force over every edge of the exact
rational intersection parameters), and computes distances, points and normals in mpmath at 40
digits from those exact data.
"""

from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

import collide2d as c2
from collide2d import _exact

EPS = 2.0**-52

# -- the reference ---------------------------------------------------------------------------------


def _F(x):
    return Fraction(float(x))


def _mp(x):
    """An mpf of a Fraction, float or mpf (the Fraction rounded to 40 digits)."""
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(x)


def _cross(ax, ay, bx, by):
    return ax * by - ay * bx


def _unit_mp(x, y):
    x, y = _mp(x), _mp(y)
    r = mpmath.sqrt(x**2 + y**2)
    return (x / r, y / r)


def _ref_ellipse(row, o, d):
    """``(status, t, normal)`` with ``t`` in units of ``|d|`` (an mpf), status hit/miss/on/inside."""
    cx, cy, a, b, wx, wy = map(_F, row)
    ox, oy, dx, dy = map(_F, (*o, *d))
    px, py = ox - cx, oy - cy

    def Q(ux, uy, vx, vy):  # bilinear form b^2 (w.u)(w.v) + a^2 (w^.u)(w^.v)
        return b * b * (wx * ux + wy * uy) * (wx * vx + wy * vy) + a * a * (wx * uy - wy * ux) * (wx * vy - wy * vx)

    R = a * a * b * b * (wx * wx + wy * wy)
    A, B, C = Q(dx, dy, dx, dy), Q(dx, dy, px, py), Q(px, py, px, py) - R

    def grad(qx, qy):  # gradient of the quadratic form at q - c (mpf)
        ma, mb, mwx, mwy = _mp(a), _mp(b), _mp(wx), _mp(wy)
        u = mwx * qx + mwy * qy
        v = mwx * qy - mwy * qx
        return _unit_mp(mb * mb * u * mwx - ma * ma * v * mwy, mb * mb * u * mwy + ma * ma * v * mwx)

    if C < 0:
        return "inside", _mp(0), None
    if C == 0:
        return "on", _mp(0), grad(_mp(px), _mp(py))
    D = B * B - A * C
    if D < 0 or B >= 0:
        return "miss", None, None
    t = (-_mp(B) - mpmath.sqrt(_mp(D))) / _mp(A)
    return "hit", t, grad(_mp(px) + t * _mp(dx), _mp(py) + t * _mp(dy))


def _ray_segment_params(o, d, p0, p1):
    """Exact parameters ``t >= 0`` (units of ``|d|``) where the ray meets the closed segment
    ``p0 p1``: a list of Fractions (the nearest end for a collinear overlap)."""
    ox, oy, dx, dy = o[0], o[1], d[0], d[1]
    ex, ey = p1[0] - p0[0], p1[1] - p0[1]
    den = _cross(dx, dy, ex, ey)
    wx, wy = p0[0] - ox, p0[1] - oy
    if den != 0:
        t = _cross(wx, wy, ex, ey) / den
        s = _cross(wx, wy, dx, dy) / den
        return [t] if t >= 0 and 0 <= s <= 1 else []
    if _cross(wx, wy, dx, dy) != 0:
        return []
    dd = dx * dx + dy * dy
    t0 = (wx * dx + wy * dy) / dd
    t1 = ((p1[0] - ox) * dx + (p1[1] - oy) * dy) / dd
    lo, hi = min(t0, t1), max(t0, t1)
    if hi < 0:
        return []
    return [max(lo, Fraction(0))]


def _ref_polygon(vertices, o, d):
    v = [(_F(x), _F(y)) for x, y in vertices]
    o = (_F(o[0]), _F(o[1]))
    d = (_F(d[0]), _F(d[1]))
    n = len(v)
    area2 = sum(_cross(*v[i], *v[(i + 1) % n]) for i in range(n))
    if area2 < 0:
        v = v[::-1]
    sides = [_cross(v[(i + 1) % n][0] - v[i][0], v[(i + 1) % n][1] - v[i][1], o[0] - v[i][0], o[1] - v[i][1]) for i in range(n)]
    normals = [_unit_mp(v[(i + 1) % n][1] - v[i][1], v[i][0] - v[(i + 1) % n][0]) for i in range(n)]
    if all(s > 0 for s in sides):
        return "inside", _mp(0), None
    if all(s >= 0 for s in sides):
        on = [i for i in range(n) if sides[i] == 0]
        return "on", _mp(0), _pick_normal(on, normals, n)
    best = None
    for i in range(n):
        for t in _ray_segment_params(o, d, v[i], v[(i + 1) % n]):
            if best is None or t < best:
                best = t
    if best is None:
        return "miss", None, None
    q = (o[0] + best * d[0], o[1] + best * d[1])
    on = [i for i in range(n) if _cross(v[(i + 1) % n][0] - v[i][0], v[(i + 1) % n][1] - v[i][1], q[0] - v[i][0], q[1] - v[i][1]) == 0
          and min(v[i][0], v[(i + 1) % n][0]) <= q[0] <= max(v[i][0], v[(i + 1) % n][0])
          and min(v[i][1], v[(i + 1) % n][1]) <= q[1] <= max(v[i][1], v[(i + 1) % n][1])]
    return "hit", _mp(best), _pick_normal(on, normals, n)


def _pick_normal(on, normals, n):
    """The edge normal, or at a corner (two edges) the bisector of the two."""
    if len(on) == 1:
        return normals[on[0]]
    i, j = on
    return _unit_mp(normals[i][0] + normals[j][0], normals[i][1] + normals[j][1])


def _facing(nx, ny, d):
    nx, ny = _unit_mp(nx, ny)
    if nx * d[0] + ny * d[1] > 0:
        return (-nx, -ny)
    return (nx, ny)


def _ref_segment(row, o, d):
    p0, p1 = (_F(row[0]), _F(row[1])), (_F(row[2]), _F(row[3]))
    o = (_F(o[0]), _F(o[1]))
    d = (_F(d[0]), _F(d[1]))
    ex, ey = p1[0] - p0[0], p1[1] - p0[1]
    parallel = _cross(d[0], d[1], ex, ey) == 0
    back = _unit_mp(-d[0], -d[1])
    normal = back if parallel else _facing(-ey, ex, d)
    if _cross(ex, ey, o[0] - p0[0], o[1] - p0[1]) == 0 and min(p0[0], p1[0]) <= o[0] <= max(p0[0], p1[0]) \
            and min(p0[1], p1[1]) <= o[1] <= max(p0[1], p1[1]):
        return "on", _mp(0), normal
    ts = _ray_segment_params(o, d, p0, p1)
    if not ts:
        return "miss", None, None
    return "hit", _mp(ts[0]), normal


def _ref_line(row, o, d):
    q, e = (_F(row[0]), _F(row[1])), (_F(row[2]), _F(row[3]))
    o = (_F(o[0]), _F(o[1]))
    d = (_F(d[0]), _F(d[1]))
    den = _cross(d[0], d[1], e[0], e[1])
    normal = _unit_mp(-d[0], -d[1]) if den == 0 else _facing(-e[1], e[0], d)
    if _cross(e[0], e[1], o[0] - q[0], o[1] - q[1]) == 0:
        return "on", _mp(0), normal
    if den == 0:
        return "miss", None, None
    t = _cross(q[0] - o[0], q[1] - o[1], e[0], e[1]) / den
    return ("hit", _mp(t), normal) if t >= 0 else ("miss", None, None)


def _ref_point(row, o, d):
    q = (_F(row[0]), _F(row[1]))
    o = (_F(o[0]), _F(o[1]))
    d = (_F(d[0]), _F(d[1]))
    back = _unit_mp(-d[0], -d[1])
    if q == o:
        return "on", _mp(0), back
    w = (q[0] - o[0], q[1] - o[1])
    if _cross(d[0], d[1], *w) != 0 or w[0] * d[0] + w[1] * d[1] < 0:
        return "miss", None, None
    return "hit", _mp((w[0] * d[0] + w[1] * d[1]) / (d[0] * d[0] + d[1] * d[1])), back


def reference(shape, o, d):
    """``(status, distance, point, normal)`` of one shape (single) and one ray, as mpf values
    computed at 40 digits."""
    with mpmath.workdps(40):
        return _reference(shape, o, d)


def _reference(shape, o, d):
    kind = shape._kind
    if kind == "ellipse":
        status, t, normal = _ref_ellipse(shape._params, o, d)
    elif kind == "polygon":
        off, count = int(shape._params[0]), int(shape._params[1])
        status, t, normal = _ref_polygon(shape._verts[off : off + count], o, d)
    else:
        status, t, normal = {"segment": _ref_segment, "line": _ref_line, "point": _ref_point}[kind](shape._params, o, d)
    if status == "miss":
        return status, math.inf, None, None
    if status == "inside":
        return status, _mp(0), (_mp(o[0]), _mp(o[1])), None
    length = mpmath.sqrt(_mp(d[0]) ** 2 + _mp(d[1]) ** 2)
    point = (_mp(o[0]) + t * _mp(d[0]), _mp(o[1]) + t * _mp(d[1]))
    return status, t * length, point, normal


def _size(shape):
    x0, y0, x1, y1 = np.asarray(shape.bounds, dtype=float).tolist()
    return max(x1 - x0, y1 - y0) if math.isfinite(x1 - x0) else 1.0


def check(shape, o, d, *, tol=8 * EPS, graze=None):
    """Compare one raycast with the reference: the status exactly; the distance to ``tol`` times
    the distance plus the shape's size, the point to ``tol`` times its coordinates plus the size;
    ``graze`` an absolute allowance for grazing rays (whose hit moves like the square root of a
    perturbation), which also skips the normal."""
    hit = c2.raycast(shape, o, d)
    status, distance, point, normal = reference(shape, o, d)
    if status == "miss":
        assert hit.distance == math.inf, (shape, o, d, hit)
        assert np.isnan(hit.point).all() and np.isnan(hit.normal).all()
        return status
    assert hit.distance != math.inf, (shape, o, d, status, hit)
    if status in ("inside", "on"):
        assert hit.distance == 0.0 and hit.point.tolist() == [float(o[0]), float(o[1])], (shape, o, d, status, hit)
        if status == "inside":
            assert np.isnan(hit.normal).all()
        else:
            assert abs(hit.normal[0] - normal[0]) + abs(hit.normal[1] - normal[1]) < 1e-9, (shape, o, d, hit, normal)
        return status
    size = _size(shape)
    allowed = tol * (float(distance) + size) + (graze or 0.0)
    assert abs(hit.distance - distance) <= allowed, (shape, o, d, hit.distance, float(distance), allowed)
    allowed = tol * (float(max(abs(point[0]), abs(point[1]))) + size) + (graze or 0.0)
    assert abs(hit.point[0] - point[0]) <= allowed and abs(hit.point[1] - point[1]) <= allowed, (shape, o, d, hit, point)
    if graze is None:
        err = abs(hit.normal[0] - normal[0]) + abs(hit.normal[1] - normal[1])
        assert err < 1e-9, (shape, o, d, hit.normal, normal)
    return status


# -- random shapes and rays -------------------------------------------------------------------------


def random_shape(rng, kind, scale=1.0, center=(0.0, 0.0)):
    c = np.asarray(center) + scale * rng.uniform(-1, 1, 2)
    if kind == "Circle":
        return c2.Circle(c, scale * rng.uniform(0.2, 1))
    if kind == "Ellipse":
        return c2.Ellipse(c, scale * rng.uniform(0.05, 1, 2), rng.uniform(-4, 4))
    if kind == "Box":
        return c2.Box(c, c + scale * rng.uniform(0.1, 1, 2))
    if kind == "RotatedBox":
        return c2.RotatedBox(c, scale * rng.uniform(0.1, 1, 2), rng.uniform(-4, 4))
    if kind == "Polygon":
        t = np.sort(rng.uniform(0, 2 * np.pi, rng.integers(3, 9)))
        r = scale * rng.uniform(0.3, 1)
        try:
            return c2.Polygon(c + r * np.stack([np.cos(t), np.sin(t)], axis=-1))
        except ValueError:
            return c2.Polygon(c + r * np.array([[1, 0], [0, 1], [-1, 0]]))
    if kind == "Segment":
        return c2.Segment(c, c + scale * rng.uniform(-1, 1, 2))
    if kind == "Line":
        return c2.Line(c, rng.uniform(-1, 1, 2))
    return c2.Point(c)


KINDS = ("Circle", "Ellipse", "Box", "RotatedBox", "Polygon", "Segment", "Line", "Point")


def aimed_ray(rng, shape, spread=3.0):
    """A random origin and a direction aimed near a point of the shape (so that hits are common)."""
    if shape._kind == "point" and rng.random() < 0.5:  # exactly through the point: small integers
        q = np.asarray(shape._params)
        d = rng.integers(-4, 5, 2).astype(float)
        d = d if d.any() else np.array([1.0, 0.0])
        o = q - rng.integers(-3, 8) * d
        return tuple(o.tolist()), tuple(d.tolist())
    o = rng.uniform(-spread, spread, 2)
    x0, y0, x1, y1 = np.asarray(shape.bounds, dtype=float).tolist()
    if not math.isfinite(x1 - x0) or not math.isfinite(y1 - y0):
        target = np.asarray(shape._params[:2]) + rng.uniform(-1, 1, 2)
    else:
        target = rng.uniform((x0, y0), (x1, y1))
    d = target - o
    if rng.random() < 0.2:
        d = -d
    return tuple(o.tolist()), tuple((d * rng.uniform(0.1, 10)).tolist())


@pytest.mark.nojit
@pytest.mark.parametrize("kind", KINDS)
def test_raycast_random_rays_match_the_reference(kind):
    rng = np.random.default_rng(1500 + KINDS.index(kind))
    statuses = set()
    for _ in range(60):
        shape = random_shape(rng, kind)
        for _ in range(3):
            o, d = aimed_ray(rng, shape)
            statuses.add(check(shape, o, d))
    assert "hit" in statuses and "miss" in statuses


@pytest.mark.parametrize("kind", KINDS)
def test_raycast_batch_equals_single_calls(kind):
    rng = np.random.default_rng(1600 + KINDS.index(kind))
    shapes = [random_shape(rng, kind) for _ in range(7)]
    rays = [aimed_ray(rng, s) for s in shapes]
    batch_shape = {
        "Circle": lambda: c2.Circle([s.center for s in shapes], [s.radius for s in shapes]),
        "Ellipse": lambda: c2.Ellipse([s.center for s in shapes], [s.radii for s in shapes], [s.angle for s in shapes]),
        "Box": lambda: c2.Box([s.min for s in shapes], [s.max for s in shapes]),
        "RotatedBox": lambda: c2.RotatedBox([s.center for s in shapes], [s.half_size for s in shapes], [s.angle for s in shapes]),
        "Segment": lambda: c2.Segment([s.start for s in shapes], [s.end for s in shapes]),
        "Line": lambda: c2.Line([s.point for s in shapes], [s.direction for s in shapes]),
        "Point": lambda: c2.Point([s.xy for s in shapes]),
    }
    origins = np.array([o for o, _ in rays])
    directions = np.array([d for _, d in rays])
    if kind == "Polygon":  # one polygon against many rays, and many rays against it one by one
        batch = c2.raycast(shapes[0], origins, directions)
        singles = [c2.raycast(shapes[0], o, d) for o, d in rays]
    else:
        batch = c2.raycast(batch_shape[kind](), origins, directions)
        singles = [c2.raycast(s, o, d) for s, (o, d) in zip(shapes, rays)]
    assert batch.distance.shape == (7,) and batch.point.shape == (7, 2) and batch.normal.shape == (7, 2)
    np.testing.assert_array_equal(batch.distance, [h.distance for h in singles])
    np.testing.assert_array_equal(batch.point, [h.point for h in singles])
    np.testing.assert_array_equal(batch.normal, [h.normal for h in singles])


def test_raycast_broadcasts_shapes_rays_and_limits():
    circles = c2.Circle([[(0, 0)], [(0, 10)]], 1.0)  # batch (2, 1)
    origins = np.array([(-5, 0), (-5, 10), (-5, 0.5)])  # rays (3,)
    hit = c2.raycast(circles, origins, (1, 0), max_distance=[[10], [4.5]])
    assert hit.distance.shape == (2, 3) and hit.point.shape == (2, 3, 2)
    expected0 = [4.0, math.inf, 5 - math.sqrt(0.75)]
    np.testing.assert_allclose(hit.distance[0], expected0, rtol=1e-15)
    assert hit.distance[1].tolist() == [math.inf, 4.0, math.inf]


# -- adversarial rays -----------------------------------------------------------------------------


@pytest.mark.nojit
def test_raycast_ellipse_grazing_is_a_hit_exactly_when_the_line_touches():
    # Test 1: axis-aligned ellipse, rays along y = b exactly (tangent at the top vertex), and rays
    # 1 ulp above and below: hit (tangent), miss, secant
    e = c2.Ellipse((0.25, -0.5), (3.0, 1.25))
    top = -0.5 + 1.25
    graze = 4 * math.sqrt(EPS * 3.0 * 3.0**2 / 1.25)
    assert check(e, (-10.0, top), (1.0, 0.0), graze=graze) == "hit"
    assert c2.raycast(e, (-10.0, top), (1.0, 0.0)).point.tolist() == [0.25, top]
    assert check(e, (-10.0, math.nextafter(top, 1)), (1.0, 0.0)) == "miss"
    assert check(e, (-10.0, math.nextafter(top, 0)), (1.0, 0.0), graze=graze) == "hit"
    # Test 2: a circle of radius 5 and the tangent lines through its lattice points (3, 4):
    # the tangent at (3, 4) has direction (4, -3); the ray from (3, 4) - 7 (4, -3) grazes it
    c = c2.Circle((0, 0), 5)
    assert check(c, (3.0 - 28.0, 4.0 + 21.0), (4.0, -3.0), graze=4 * math.sqrt(EPS * 25)) == "hit"
    assert check(c, (3.0 - 28.0, 4.0 + 21.0 + 1e-9), (4.0, -3.0)) == "miss"
    # Test 3: rotated thin ellipses, rays offset from the exact tangent by 1e-12 relative, on
    # both sides; the reference decides, the kernels must agree on every one
    rng = np.random.default_rng(1510)
    seen = set()
    for _ in range(150):
        radii = rng.uniform(0.01, 2, 2) * [1, rng.choice([1, 1e-3, 1e-4])]
        radii = np.maximum(radii, 1e-5)
        e = c2.Ellipse(rng.uniform(-1, 1, 2), radii, rng.uniform(-4, 4))
        phi = rng.uniform(0, 2 * np.pi)
        (cx, cy), (a, b) = e.center, e.radii
        w = e.direction / np.hypot(*e.direction)
        # a boundary point and the tangent there, in floats (close to tangent, not exactly)
        lx, ly = a * math.cos(phi), b * math.sin(phi)
        tx, ty = -a * math.sin(phi), b * math.cos(phi)
        px, py = cx + w[0] * lx - w[1] * ly, cy + w[1] * lx + w[0] * ly
        dx, dy = w[0] * tx - w[1] * ty, w[1] * tx + w[0] * ty
        nx, ny = dy, -dx
        for offset in (-1e-12, 0.0, 1e-12):
            shift = offset * max(a, b) / math.hypot(nx, ny)
            o = (px - 5 * dx + shift * nx, py - 5 * dy + shift * ny)
            # a grazing hit moves like sqrt(2 rho delta) for a perturbation delta of the data
            # (rho the largest radius of curvature, a^2 / b); measured at most 0.93 of this
            seen.add(check(e, o, (dx, dy), graze=4 * math.sqrt(EPS * max(a, b) * max(a, b) ** 2 / min(a, b))))
    assert {"hit", "miss"} <= seen


@pytest.mark.nojit
def test_raycast_origin_on_the_boundary_and_inside():
    # Test 1: on the boundary (exact boundary points: vertices of axis-aligned ellipses, polygon
    # edge midpoints and corners, segment points): distance 0, the outward normal
    e = c2.Ellipse((1.0, 2.0), (3.0, 0.5))
    for o, n in (((4.0, 2.0), (1, 0)), ((1.0, 1.5), (0, -1)), ((-2.0, 2.0), (-1, 0))):
        for d in ((1, 0), (-1, 0.5), (0, 1)):
            hit = c2.raycast(e, o, d)
            assert hit.distance == 0.0 and hit.point.tolist() == list(o) and hit.normal.tolist() == list(n)
            assert check(e, o, d) == "on"
    box = c2.Box((0, 0), (2, 1))
    assert c2.raycast(box, (1, 0), (0, 1)).normal.tolist() == [0.0, -1.0]
    corner = c2.raycast(box, (2, 1), (-1, 0)).normal
    np.testing.assert_allclose(corner, [math.sqrt(0.5)] * 2, rtol=1e-15)
    poly = c2.Polygon([(0, 0), (4, 0), (0, 4)])
    assert check(poly, (2.0, 2.0), (1.0, 3.0)) == "on"
    assert check(c2.Segment((0, 0), (2, 2)), (1.0, 1.0), (1.0, 0.0)) == "on"
    assert check(c2.Line((0, 0), (2, 2)), (-1.0, -1.0), (0.0, 1.0)) == "on"
    assert check(c2.Point((1, 1)), (1.0, 1.0), (0.0, 1.0)) == "on"
    # Test 2: inside: distance 0, normal NaN
    rng = np.random.default_rng(1520)
    for kind in ("Circle", "Ellipse", "Box", "RotatedBox", "Polygon"):
        for _ in range(10):
            s = random_shape(rng, kind)
            bounds = np.asarray(s.bounds, dtype=float)
            center = tuple((0.5 * (bounds[:2] + bounds[2:])).tolist())
            o = tuple(np.asarray(c2.closest_point(s, center)).tolist())
            assert check(s, center, tuple(rng.uniform(-1, 1, 2))) == "inside"
            assert check(s, o, tuple(rng.uniform(-1, 1, 2))) in ("on", "inside", "hit", "miss")


@pytest.mark.nojit
def test_raycast_corners_and_edges_along_the_ray():
    box = c2.Box((0, 0), (2, 1))
    # Test 1: through a corner exactly (entering there), and grazing a corner from outside
    assert check(box, (-1.0, -1.0), (1.0, 1.0)) == "hit"
    assert c2.raycast(box, (-1.0, -1.0), (1.0, 1.0)).point.tolist() == [0.0, 0.0]
    assert check(box, (-1.0, 0.0), (1.0, 1.0)) == "hit"  # touches the corner (0, 1) only
    assert c2.raycast(box, (-1.0, 0.0), (1.0, 1.0)).point.tolist() == [0.0, 1.0]
    assert check(box, (-1.0, math.nextafter(0.0, 1)), (1.0, 1.0)) == "miss"
    assert check(box, (-1.0, math.nextafter(0.0, -1)), (1.0, 1.0)) == "hit"
    # Test 2: along an edge's line: the nearer end; from beyond it: a miss
    assert check(box, (-3.0, 1.0), (1.0, 0.0)) == "hit"
    assert c2.raycast(box, (-3.0, 1.0), (1.0, 0.0)).point.tolist() == [0.0, 1.0]
    assert check(box, (5.0, 1.0), (-1.0, 0.0)) == "hit"
    assert c2.raycast(box, (5.0, 1.0), (-1.0, 0.0)).point.tolist() == [2.0, 1.0]
    assert check(box, (5.0, 1.0), (1.0, 0.0)) == "miss"
    # Test 3: segments: crossing, through an end, collinear from either side, parallel
    seg = c2.Segment((0, 0), (4, 0))
    assert check(seg, (1.0, -1.0), (1.0, 1.0)) == "hit"
    assert check(seg, (-1.0, -1.0), (1.0, 1.0)) == "hit"  # through the end (0, 0)
    assert check(seg, (-2.0, 0.0), (3.0, 0.0)) == "hit"
    assert c2.raycast(seg, (-2.0, 0.0), (3.0, 0.0)).normal.tolist() == [-1.0, 0.0]
    assert check(seg, (9.0, 0.0), (-1.0, 0.0)) == "hit"
    assert check(seg, (9.0, 0.0), (1.0, 0.0)) == "miss"
    assert check(seg, (0.0, 1.0), (1.0, 0.0)) == "miss"
    # Test 4: lines: parallel misses, crossing behind misses
    line = c2.Line((0, 0), (1, 2))
    assert check(line, (5.0, 0.0), (1.0, 2.0)) == "miss"
    assert check(line, (5.0, 0.0), (-1.0, 0.0)) == "hit"
    assert check(line, (5.0, 0.0), (1.0, 0.0)) == "miss"


@pytest.mark.nojit
@pytest.mark.parametrize("kind", KINDS)
def test_raycast_far_origins_tiny_shapes_and_thin_ellipses(kind):
    rng = np.random.default_rng(1530 + KINDS.index(kind))
    # Test 1: shapes of size 1e-6 seen from 1e6 away: the hit keeps the accuracy of the shape's
    # size plus that of the distance (TwoSum offsets), checked to 16 ulps of the scale
    hits = 0
    for _ in range(20):
        shape = random_shape(rng, kind, scale=1e-6, center=(3.0, -2.0))
        far = rng.uniform(-1, 1, 2)
        far = 1e6 * far / np.hypot(*far)
        x0, y0, x1, y1 = np.asarray(shape.bounds, dtype=float).tolist()
        if math.isfinite(x1 - x0) and math.isfinite(y1 - y0):
            target = rng.uniform((x0, y0), (x1, y1))
        else:
            target = np.asarray(shape._params[:2])
        o = tuple((target + far).tolist())
        d = tuple((target - np.array(o)).tolist())
        status = check(shape, o, d)
        hits += status == "hit"
        hit = c2.raycast(shape, o, d)
        if status == "hit" and kind != "Line":  # the point lies within the shape's size of its bounds
            assert x0 - 1e-12 <= hit.point[0] <= x1 + 1e-12 and y0 - 1e-12 <= hit.point[1] <= y1 + 1e-12
    assert hits >= 5 or kind == "Point"
    # Test 2: aspect ratio 1e4
    if kind == "Ellipse":
        for _ in range(40):
            e = c2.Ellipse(rng.uniform(-1, 1, 2), (1.0, 1e-4), rng.uniform(-4, 4))
            o, d = aimed_ray(rng, e)
            check(e, o, d)


def test_raycast_agrees_with_intersection_points_of_a_segment_from_the_origin():
    rng = np.random.default_rng(1540)
    compared = 0
    for kind in ("Circle", "Ellipse", "Box", "RotatedBox", "Polygon", "Segment", "Line"):
        for _ in range(25):
            shape = random_shape(rng, kind)
            o, d = aimed_ray(rng, shape)
            hit = c2.raycast(shape, o, d)
            u = np.array(d) / np.hypot(*d)
            if c2.intersects(shape, c2.Point(o)):
                assert hit.distance == 0.0
                continue
            points = c2.intersection_points(shape, c2.Segment(o, np.array(o) + 100 * u))
            if len(points) == 0:
                assert hit.distance == math.inf
                continue
            if kind in ("Segment", "Line") and len(points) == 0:
                continue
            nearest = points[np.argmin(np.hypot(*(points - o).T))]
            np.testing.assert_allclose(hit.point, nearest, atol=1e-9)
            compared += 1
    assert compared > 50


def test_raycast_mouse_picking_with_max_distance():
    # Test 1: pick the nearest of many shapes under a ray from the camera, within reach
    rng = np.random.default_rng(1550)
    centers = rng.uniform(-10, 10, (200, 2))
    shapes = c2.Ellipse(centers, rng.uniform(0.1, 0.8, (200, 2)), rng.uniform(-3, 3, 200))
    origin, direction = (-12.0, 0.3), (1.0, 0.05)
    hits = c2.raycast(shapes, origin, direction, max_distance=15.0)
    assert hits.distance.shape == (200,)
    assert np.all((hits.distance <= 15.0) | (hits.distance == math.inf))
    full = c2.raycast(shapes, origin, direction)
    np.testing.assert_array_equal(hits.distance, np.where(full.distance <= 15.0, full.distance, math.inf))
    assert np.isnan(hits.point[hits.distance == math.inf]).all()
    picked = int(np.argmin(full.distance))
    for k in range(200):  # the nearest agrees with the reference, shape by shape
        status, distance, _, _ = reference(shapes[k], origin, direction)
        if status == "hit":
            assert abs(full.distance[k] - float(distance)) <= 1e-13 * 30
        else:
            assert full.distance[k] == math.inf
    assert full.distance[picked] == np.min(full.distance) < math.inf
    # Test 2: max_distance per ray, 0 allowed (only origins on or in the shape count)
    circle = c2.Circle((0, 0), 1)
    hit = c2.raycast(circle, [(-3, 0), (-3, 0), (0.5, 0)], (1, 0), max_distance=[2.0, 1.5, 0.0])
    assert hit.distance.tolist() == [2.0, math.inf, 0.0]


def test_raycast_exact_fallback_decides_what_the_float_bounds_cannot():
    # a ray whose line passes within about 1e-17 of a tangent: the float bound cannot tell and
    # the decision runs on rationals, counted under the kernel's name
    c = c2.Circle((0.1, 0.3), 0.7)
    _exact.counts(reset=True)
    o = (0.1 + 0.7, -5.0)
    status = check(c, (math.nextafter(o[0], 0), o[1]), (0.0, 1.0), graze=4 * math.sqrt(EPS * 0.49))
    assert status == "hit"
    assert check(c, (math.nextafter(o[0], 1), o[1]), (0.0, 1.0)) in ("hit", "miss")
    assert sum(v for k, v in _exact.counts().items() if k.startswith("raycast_code")) >= 1


@pytest.mark.parametrize(
    "args, kwargs, error, match",
    [
        ((c2.Circle((0, 0), 1), (0, 0), (0, 0)), {}, ValueError, "direction must be a non-zero"),
        ((c2.Circle((0, 0), 1), (0, math.nan), (1, 0)), {}, ValueError, "origin must be finite"),
        ((c2.Circle((0, 0), 1), (0, 0), (1, math.inf)), {}, ValueError, "direction must be finite"),
        ((c2.Circle((0, 0), 1), (0, 0), (1, 0)), {"max_distance": -1.0}, ValueError, "max_distance must be >= 0"),
        ((c2.Circle((0, 0), 1), (0, 0), (1, 0)), {"max_distance": math.nan}, ValueError, "max_distance"),
        ((c2.Circle((0, 0), 1), (0, 0, 1), (1, 0)), {}, ValueError, "origin must have a last axis"),
        ((c2.Circle((0, 0), 1), [(0, 0), (1, 1)], [(1, 0)] * 3), {}, ValueError, "do not broadcast"),
        ((c2.Circle([(0, 0), (1, 1)], 1), [(0, 0)] * 3, (1, 0)), {}, ValueError, "do not broadcast"),
        (((0, 0), (0, 0), (1, 0)), {}, TypeError, "shape must be a collide2d shape"),
        ((c2.Circle((0, 0), 1), "ab", (1, 0)), {}, TypeError, "origin"),
        ((c2.Circle((0, 0), 1), (0, 0), (1, 0)), {"max_distance": "far"}, TypeError, "max_distance"),
        ((c2.Circle((0, 0), 1), (1e200, 0), (1, 0)), {}, ValueError, "origin must lie within"),
    ],
)
def test_raycast_rejects_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        c2.raycast(*args, **kwargs)


def test_raycast_large_batches_run_in_threads_with_the_same_answers():
    # 5000 rays (beyond the serial threshold of the batch loops) against one rotated ellipse and a
    # batch of boxes: every row equals the single call
    rng = np.random.default_rng(1560)
    origins = rng.uniform(-6, 6, (5000, 2))
    directions = rng.uniform(-1, 1, (5000, 2))
    e = c2.Ellipse((0.5, -0.25), (3.0, 0.5), 0.7)
    boxes = c2.RotatedBox(rng.uniform(-2, 2, (5000, 2)), rng.uniform(0.2, 2, (5000, 2)), rng.uniform(-3, 3, 5000))
    for shape in (e, boxes):
        hits = c2.raycast(shape, origins, directions)
        assert np.isfinite(hits.distance).sum() > 500
        for k in rng.integers(0, 5000, 40).tolist():
            one = c2.raycast(shape if not shape.shape else shape[k], tuple(origins[k]), tuple(directions[k]))
            assert hits.distance[k] == one.distance
            np.testing.assert_array_equal(hits.point[k], one.point)
