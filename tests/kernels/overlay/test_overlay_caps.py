"""Ellipse against polygon areas where one straight edge cuts a cap off the ellipse.

Both ends of the cutting edge lie outside the ellipse (the kernel's chord branch), and the cap is
shallow or the polygon keeps everything but the cap (an arc longer than a half turn, whose side is
decided by a test point). Reference: the closed form of an elliptic cap cut by the line y = d,
``a b (acos(d / b) - (d / b) sqrt(1 - (d / b)^2))``, in 40-digit mpmath (the ellipse is axis
aligned and the data are exact, so the reference is the exact answer to 1e-40).
"""

from __future__ import annotations

import math

import mpmath
import pytest

import collide2d as c2

EPS = 2.0**-53


def cap_area(a, b, d):
    """Area of the part of the ellipse x^2/a^2 + y^2/b^2 <= 1 above the line y = d (|d| < b)."""
    with mpmath.workdps(40):
        t = mpmath.mpf(d) / b
        return a * b * (mpmath.acos(t) - t * mpmath.sqrt(1 - t * t))


@pytest.mark.parametrize(("a", "b"), [(1.0, 1.0), (2.0, 1.0), (0.5, 3.0)])
@pytest.mark.parametrize("depth", [0.5, 2.0**-3, 2.0**-7, 2.0**-12])
def test_cap_and_all_but_the_cap(a, b, depth):
    d = b - depth * b
    ellipse = c2.Ellipse((0.0, 0.0), (a, b)) if a != b else c2.Circle((0.0, 0.0), a)
    cap = float(cap_area(a, b, d))
    rest = float(mpmath.pi * a * b - cap_area(a, b, d))
    # the cap: a box above the line y = d, wider than the ellipse (both ends of its lower edge outside)
    above = c2.Box((-2 * a, d), (2 * a, 2 * b))
    # everything but the cap: a box below the line, the arc it keeps is longer than a half turn
    below = c2.Box((-2 * a, -2 * b), (2 * a, d))
    # the same cap cut by a triangle whose edge on y = d reaches outside on both sides
    wedge = c2.Polygon([(-3 * a, d), (3 * a, d), (0.0, 4 * b)])
    for polygon, want in ((above, cap), (below, rest), (wedge, cap)):
        for got in (c2.overlap_area(ellipse, polygon), c2.overlap_area(polygon, ellipse)):
            # the claim of docs/area.md: within a few eps of the smaller area (here the ellipse's;
            # measured worst 0.02 eps of it, 43 eps of the cap of depth 2^-7)
            assert abs(got - want) <= 16 * EPS * math.pi * a * b, (polygon, got, want)


@pytest.mark.parametrize(("a", "b"), [(1.0, 1.0), (2.0, 1.0), (0.5, 3.0)])
@pytest.mark.parametrize("depth", [0.25, 2.0**-3, 2.0**-7])
def test_all_but_two_caps_at_a_corner(a, b, depth):
    # a box whose corner cuts two disjoint caps (on x = (1 - depth) a and y = (1 - depth) b) off the
    # ellipse: the long arc kept runs from an exit on one edge to an entry on the other
    dx, dy = a - depth * a, b - depth * b
    ellipse = c2.Ellipse((0.0, 0.0), (a, b)) if a != b else c2.Circle((0.0, 0.0), a)
    box = c2.Box((-2 * a, -2 * b), (dx, dy))
    want = float(mpmath.pi * a * b - cap_area(a, b, dy) - cap_area(b, a, dx))
    for got in (c2.overlap_area(ellipse, box), c2.overlap_area(box, ellipse)):
        assert abs(got - want) <= 16 * EPS * math.pi * a * b, (got, want)


@pytest.mark.parametrize("d", [0.5, -0.5])
def test_edge_tangent_with_both_ends_outside(d):
    # the box's lower edge touches the unit circle at (0, -1) and runs outside on both sides, its
    # upper edge cuts the cap above y = d
    box = c2.Box((-2.0, -1.0), (2.0, d))
    want = float(mpmath.pi - cap_area(1.0, 1.0, d))
    for got in (c2.overlap_area(c2.Circle((0, 0), 1), box), c2.overlap_area(box, c2.Circle((0, 0), 1))):
        assert abs(got - want) <= 16 * EPS * math.pi, (got, want)
