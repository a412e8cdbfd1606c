"""Whether an ellipse lies in a rounded shape: exact (:mod:`collide2d._robust.ellipse_in_rounded`).

The reference is independent: the largest of ``h_E(u) - h_K(u) - r`` over unit directions ``u``
(support functions; ``E`` lies in ``K + D(r)`` iff it is at most 0), maximised on a dense grid of
directions and refined at 40 digits (mpmath) by golden-section search around the local maxima. Cases sit at tangency (the maximum exactly 0), one ulp either side of it, and at random
margins; both orders through ``c2.relate``, single and batched, and the decision function itself.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

import collide2d as c2
from collide2d._robust.ellipse_in_rounded import ellipse_in_rounded

mpmath.mp.dps = 40


def _reference_margin(ellipse, core, r):
    """max over unit u of h_E(u) - h_K(u) - r: the two largest local maxima of a 2048-direction grid (in
    floats) refined by golden-section search at 40 digits (mpmath)."""
    cx, cy, a, b, wx, wy = (mpmath.mpf(float(x)) for x in ellipse)
    norm = mpmath.sqrt(wx * wx + wy * wy)
    ex, ey = wx / norm, wy / norm
    mcore = [(mpmath.mpf(float(x)), mpmath.mpf(float(y))) for x, y in core]
    mr = mpmath.mpf(float(r))

    def f(theta):
        ux, uy = mpmath.cos(theta), mpmath.sin(theta)
        along, across = ux * ex + uy * ey, -ux * ey + uy * ex
        h_e = cx * ux + cy * uy + mpmath.sqrt(a * a * along * along + b * b * across * across)
        return h_e - max(x * ux + y * uy for x, y in mcore) - mr

    n = 2048
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    u = np.stack([np.cos(t), np.sin(t)], axis=-1)
    e = np.array([float(ex), float(ey)])
    along, across = u @ e, u @ np.array([-e[1], e[0]])
    h = u @ np.array([float(cx), float(cy)]) + np.sqrt(float(a) ** 2 * along**2 + float(b) ** 2 * across**2)
    values = h - (u @ np.asarray(core, dtype=float).T).max(axis=1) - float(r)
    peaks = [k for k in range(n) if values[k] >= values[k - 1] and values[k] >= values[(k + 1) % n]]
    peaks = sorted(peaks, key=lambda k: -values[k])[:2]
    g = (mpmath.sqrt(5) - 1) / 2
    best = -mpmath.inf
    for k in peaks:
        lo, hi = mpmath.mpf(t[k]) - 2 * mpmath.pi / n, mpmath.mpf(t[k]) + 2 * mpmath.pi / n
        for _ in range(60):
            t1, t2 = hi - g * (hi - lo), lo + g * (hi - lo)
            if f(t1) >= f(t2):
                hi = t2
            else:
                lo = t1
        best = max(best, f((lo + hi) / 2), f(mpmath.mpf(t[k])))
    return best


def _core_of(shape):
    if isinstance(shape, c2.Capsule):
        return [tuple(shape.a), tuple(shape.b)] if tuple(shape.a) != tuple(shape.b) else [tuple(shape.a)]
    if isinstance(shape, c2.Box):
        (x0, y0), (x1, y1) = shape.min, shape.max
        return [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    return [tuple(v) for v in shape.vertices]


TANGENT = [  # (rounded shape, ellipse touching its boundary from inside, the relation)
    (c2.Capsule((-1, 0), (1, 0), 1.0), c2.Ellipse((0, 0), (2, 1)), "CONTAINS"),  # at both tips and along the flats
    (c2.Capsule((0.5, 0.25), (0.5, 0.25), 1.0), c2.Ellipse((0.5, 0.25), (1, 1)), "EQUAL"),  # the same disc
    (c2.Box((0, 0), (2, 1), radius=0.5), c2.Ellipse((1, 0.5), (1.5, 1.0)), "CONTAINS"),  # touching the flats only
    (c2.Capsule((0, -3), (0, 3), 0.5), c2.Ellipse((0, 3), (0.5, 0.5)), "CONTAINS"),  # a disc in an end cap
]


@pytest.mark.parametrize("case", range(len(TANGENT)))
def test_tangent_inside_is_contained_and_one_ulp_more_is_not(case):
    rounded, ellipse, relation = TANGENT[case]
    row = [*ellipse.center, *ellipse.radii, 1.0, 0.0]
    core, r = _core_of(rounded), float(rounded.radius)
    assert _reference_margin(row, core, r) <= mpmath.mpf(10) ** -40
    assert ellipse_in_rounded(row, core, r)
    mirrored = {"CONTAINS": "WITHIN", "EQUAL": "EQUAL"}[relation]
    assert c2.relate(rounded, ellipse) == c2.Relation[relation] and c2.relate(ellipse, rounded) == c2.Relation[mirrored]
    bigger = c2.Ellipse(ellipse.center, (np.nextafter(ellipse.radii[0], 9.0), ellipse.radii[1]))
    row = [*bigger.center, *bigger.radii, 1.0, 0.0]
    assert _reference_margin(row, core, r) > 0
    assert not ellipse_in_rounded(row, core, r)
    grown = ("WITHIN", "CONTAINS") if relation == "EQUAL" else ("OVERLAPPING", "OVERLAPPING")  # the disc in the grown one
    assert c2.relate(rounded, bigger) == c2.Relation[grown[0]] and c2.relate(bigger, rounded) == c2.Relation[grown[1]]
    smaller = c2.Capsule(rounded.a, rounded.b, np.nextafter(r, 0.0)) if isinstance(rounded, c2.Capsule) else None
    if smaller is not None:
        assert c2.relate(smaller, ellipse) == c2.Relation[grown[0]]


def test_random_pairs_against_the_mpmath_reference_both_orders_single_and_batched():
    rng = np.random.default_rng(11)
    rows, shapes, expected = [], [], []
    while len(expected) < 12:
        kind = len(expected) % 3
        r = rng.uniform(0.3, 1.5)
        if kind == 0:
            shape = c2.Capsule(rng.uniform(-1, 1, 2), rng.uniform(-1, 1, 2), r)
        elif kind == 1:
            shape = c2.RotatedBox(rng.uniform(-1, 1, 2), rng.uniform(0.2, 1.0, 2), rng.uniform(-3, 3), radius=r)
        else:
            shape = c2.Capsule(rng.uniform(-1, 1, 2), rng.uniform(-1, 1, 2), r)
        core = _core_of(shape) if kind != 1 else [tuple(v) for v in c2.RotatedBox(shape.center, shape.half_size, shape.angle).corners]
        angle = rng.uniform(-3, 3)
        ellipse = c2.Ellipse(np.mean(core, axis=0) + rng.uniform(-0.3, 0.3, 2), rng.uniform(0.3, 1.6, 2), angle)
        row = [*ellipse.center, *ellipse.radii, math.cos(angle), math.sin(angle)]
        if c2.relate(shape, ellipse) not in (c2.Relation.CONTAINS, c2.Relation.OVERLAPPING):
            continue  # only pairs whose answer is the ellipse's containment
        margin = _reference_margin(row, core, r)
        if abs(margin) < 1e-9:
            continue
        inside = margin <= 0
        assert ellipse_in_rounded(np.asarray(ellipse._params).tolist(), core, r) == inside
        assert (c2.relate(shape, ellipse) == c2.Relation.CONTAINS) == inside
        assert (c2.relate(ellipse, shape) == c2.Relation.WITHIN) == inside
        shapes.append((shape, ellipse))
        expected.append(inside)
    assert 2 <= sum(expected) <= 10
    capsules = [s for s, _ in shapes if isinstance(s, c2.Capsule)]
    ellipses = [e for s, e in shapes if isinstance(s, c2.Capsule)]
    batch_a = c2.Capsule(np.array([c.a for c in capsules]), np.array([c.b for c in capsules]), np.array([c.radius for c in capsules]))
    batch_e = c2.Ellipse(np.array([e.center for e in ellipses]), np.array([e.radii for e in ellipses]),
                         np.array([e.angle for e in ellipses]))
    single = [c2.relate(c, e) for c, e in zip(capsules, ellipses)]
    assert c2.relate(batch_a, batch_e).tolist() == [int(x) for x in single]
    assert c2.relate(batch_e, batch_a).tolist() == [int(c2.relate(e, c)) for c, e in zip(capsules, ellipses)]


def _grid_margin(row, core, r, n=4096):
    """:func:`_reference_margin` on a grid of directions only (floats): to place cases."""
    cx, cy, a, b, wx, wy = row
    t = np.linspace(0, 2 * np.pi, n, endpoint=False)
    u = np.stack([np.cos(t), np.sin(t)], axis=-1)
    e = np.array([wx, wy]) / math.hypot(wx, wy)
    h = u @ np.array([cx, cy]) + np.sqrt(a * a * (u @ e) ** 2 + b * b * (u @ np.array([-e[1], e[0]])) ** 2)
    return float(np.max(h - (u @ np.asarray(core, dtype=float).T).max(axis=1) - r))


def test_support_certificate_decides_ellipses_close_to_the_boundary_without_the_exact_path():
    """Ellipses inside a rounded shape or sticking out of it by 1e-5 to 1e-2 of its size: the
    support-function certificate of the float kernel (``_support_inside``) decides them, so no pair
    reaches the exact path (the sampled test left those within about 3e-2 to it), and the answers
    agree with the mpmath reference, both orders, single and batched."""
    from collide2d._kernels.relate import rounded as kernels

    rng = np.random.default_rng(27)
    shapes, ellipses, inside = [], [], []
    for k in range(8):
        r = rng.uniform(0.2, 0.5)
        if k % 2:
            shape = c2.Capsule(rng.uniform(-1, 1, 2), rng.uniform(-1, 1, 2), r)
            core = _core_of(shape)
        else:
            shape = c2.RotatedBox(rng.uniform(-1, 1, 2), rng.uniform(0.3, 1.0, 2), rng.uniform(-3, 3), radius=r)
            core = [tuple(v) for v in c2.RotatedBox(shape.center, shape.half_size, shape.angle).corners]
        angle = rng.uniform(-3, 3)
        center, radii = np.mean(core, axis=0) + rng.uniform(-0.1, 0.1, 2), rng.uniform(0.3, 1.0, 2)
        target = (1 if k % 4 < 2 else -1) * 10.0 ** rng.uniform(-5, -2)  # the margin sought: out (+) or in (-)
        lo, hi = 0.0, 4.0  # the scale of the radii whose margin is the target, by bisection
        for _ in range(60):
            mid = (lo + hi) / 2
            row = [*center, *(mid * radii), math.cos(angle), math.sin(angle)]
            lo, hi = (mid, hi) if _grid_margin(row, core, r) < target else (lo, mid)
        ellipse = c2.Ellipse(center, lo * radii, angle)
        margin = _reference_margin(np.asarray(ellipse._params).tolist(), core, r)
        assert 0.5e-5 < abs(margin) < 2e-2 and (margin < 0) == (target < 0)
        assert kernels._support_inside(ellipse._params, shape._params, shape._verts, 2.0**-40 * 4, 128) == (1 if margin < 0 else 0)
        shapes.append(shape)
        ellipses.append(ellipse)
        inside.append(bool(margin < 0))
    c2.exact_fallback_counts(reset=True)
    for shape, ellipse, expected in zip(shapes, ellipses, inside):
        code = c2.relate(shape, ellipse)
        if code in (c2.Relation.CONTAINS, c2.Relation.OVERLAPPING):  # not decided by the ellipse's side alone
            assert (code == c2.Relation.CONTAINS) == expected
            assert (c2.relate(ellipse, shape) == c2.Relation.WITHIN) == expected
    capsules = [k for k in range(8) if k % 2]
    batch = c2.Capsule(np.array([shapes[k].a for k in capsules]), np.array([shapes[k].b for k in capsules]),
                       np.array([float(shapes[k].radius) for k in capsules]))
    batch_e = c2.Ellipse(np.array([ellipses[k].center for k in capsules]), np.array([ellipses[k].radii for k in capsules]),
                         np.array([float(ellipses[k].angle) for k in capsules]))
    assert c2.relate(batch, batch_e).tolist() == [int(c2.relate(shapes[k], ellipses[k])) for k in capsules]
    assert c2.relate(batch_e, batch).tolist() == [int(c2.relate(ellipses[k], shapes[k])) for k in capsules]
    assert sum(inside) == 4 and not any("ellipse" in name for name in c2.exact_fallback_counts())
