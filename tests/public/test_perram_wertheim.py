"""Perram-Wertheim of ellipses whose sizes lie far apart (1e-150 beside 1e150), against closed forms.

The kernel works in the frame of the larger radius, where the small ellipse's squared radii
underflowed (a ``ZeroDivisionError`` from the batch and, in one order, from a single pair). The
references are independent of the kernel: for two circles ``scale = |d| / (r_a + r_b)`` and the
contact point lies on ``a`` scaled by ``scale``; for a vanishing ellipse beside a large one the
contact function is the large one's quadratic form at the small one's centre (Fractions).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

import collide2d as c2


def _both_orders_single_and_batched(a, b):
    """``(pw(a, b), pw(b, a))`` checked against the same pairs inside a batch (beside a unit pair)."""
    results = []
    for x, y in ((a, b), (b, a)):
        single = c2.perram_wertheim(x, y)
        batch_x = type(x)(*[np.stack([np.asarray(v), np.asarray(w)]) for v, w in zip(_fields(x), _fields(_unit(x)))])
        batch_y = type(y)(*[np.stack([np.asarray(v), np.asarray(w)]) for v, w in zip(_fields(y), _fields(_unit(y)))])
        batch = c2.perram_wertheim(batch_x, batch_y)
        for field, value in zip(single._fields, single):
            np.testing.assert_array_equal(np.asarray(getattr(batch, field))[0], value)
        results.append(single)
    return results


def _fields(shape):
    return (shape.center, shape.radius) if isinstance(shape, c2.Circle) else (shape.center, shape.radii, shape.angle)


def _unit(shape):
    return c2.Circle((0.0, 0.0), 1.0) if isinstance(shape, c2.Circle) else c2.Ellipse((0.0, 0.0), (1.0, 0.5), 0.3)


@pytest.mark.parametrize(("r_small", "r_big", "gap"), [(1e-150, 1e150, 3e149), (2.0**-480, 2.0**470, 2.0**471)])
def test_circles_of_sizes_far_apart_match_the_closed_form(r_small, r_big, gap):
    small, big = c2.Circle((0.0, 0.0), r_small), c2.Circle((gap, 0.0), r_big)
    forward, backward = _both_orders_single_and_batched(small, big)
    scale = Fraction(gap) / (Fraction(r_small) + Fraction(r_big))
    for pw in (forward, backward):
        assert pw.scale == pytest.approx(float(scale), rel=4e-16)
        assert pw.approach_distance == pytest.approx(r_small + r_big, rel=4e-16)
        # the contact point lies on the small circle scaled by `scale` about its centre, towards the big one
        assert pw.point[0] == pytest.approx(float(scale * Fraction(r_small)), rel=1e-14)
        assert pw.point[1] == 0.0
    assert forward.normal.tolist() == [1.0, 0.0]
    assert backward.normal.tolist() == [-1.0, 0.0]


def test_a_vanishing_ellipse_beside_a_large_one_matches_its_quadratic_form():
    small = c2.Ellipse((0.0, 0.0), (1e-150, 5e-151), 0.7)
    big = c2.Ellipse((3e149, -1e149), (1e150, 5e149), 0.0)
    forward, backward = _both_orders_single_and_batched(small, big)
    dx, dy = Fraction(3e149), Fraction(-1e149)  # big's centre minus small's
    a, b = Fraction(1e150), Fraction(5e149)
    q = dx * dx / (a * a) + dy * dy / (b * b)  # the large ellipse's quadratic form at the small centre
    nx, ny = float(dx / (a * a)), float(dy / (b * b))
    norm = math.hypot(nx, ny)
    for pw, sign in ((forward, 1.0), (backward, -1.0)):
        assert pw.scale == pytest.approx(math.sqrt(float(q)), rel=1e-14)
        assert pw.approach_distance == pytest.approx(float(abs(Fraction(math.hypot(3e149, 1e149)))) / pw.scale, rel=1e-14)
        np.testing.assert_allclose(pw.normal, [sign * nx / norm, sign * ny / norm], rtol=1e-13)
        # on the small ellipse scaled by `scale`: its own quadratic form there is scale**2
        frame = np.array([[math.cos(0.7), math.sin(0.7)], [-math.sin(0.7), math.cos(0.7)]])
        u, v = frame @ np.asarray(pw.point)
        assert (u / 1e-150) ** 2 + (v / 5e-151) ** 2 == pytest.approx(pw.scale**2, rel=1e-12)
