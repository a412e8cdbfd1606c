#!/usr/bin/env python
"""Accuracy of ``collide2d.time_of_impact`` at grazes (pure translation).

Usage::

    .venv/bin/python benchmarks/bench_motion_grazes.py           # about five minutes
    .venv/bin/python benchmarks/bench_motion_grazes.py --quick   # exact grazes only, seconds

The pairs of ``tests/test_motion.py`` (``GRAZE_BELOW`` against ``GRAZE_ABOVE``): a circle, an
ellipse, a quarter-turned ellipse, a box and a triangle with their top at height 1 exactly, against
every kind with its lowest point at height ``1 + dy`` exactly, moving along x, both argument
orders. With ``dy = 0`` the first contact is a ratio of the input floats (exact rationals, three
motions); with ``dy > 0`` the pair never meets (disjoint ranges of y); with ``dy < 0`` the first
contact comes from the support-function reference of the tests (mpmath, 40 digits). Prints the
largest error of the time (``t_max = 1``) and the evaluations of the contact per call.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys
from fractions import Fraction

import collide2d as c2
from collide2d import motion
from common import table  # noqa: E402 (benchmarks/ is on sys.path)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
import test_motion as ref  # noqa: E402  (the reference lives with the tests)

CALLS = []
_contact = motion._Motion.contact


def _counted(self, rows, t, exact=True):
    CALLS.append(rows.size)
    return _contact(self, rows, t, exact)


def run(x0, vx, dy, reference):
    """Largest error of the time and the evaluations of the contact per call, over all pairs."""
    errors, calls = [], []
    va = (1.0, 0.0)
    vb = (1.0 + vx, 0.0)
    for below, make_a in ref.GRAZE_BELOW.items():
        a = make_a()
        for above, make_b in ref.GRAZE_ABOVE.items():
            b, bottom = make_b(x0, 1.0 + dy)
            if dy == 0.0:
                top = 1 if below == "Box" else 0
                want = float((-Fraction(x0) - top - bottom) / Fraction(vx))
            elif dy > 0.0:
                want = math.inf
            else:
                want = reference(a, b, va, vb, 1.0)
            for first, second, v1, v2 in ((a, b, va, vb), (b, a, vb, va)):
                CALLS.clear()
                got = c2.time_of_impact(first, second, v1, v2)
                calls.append(len(CALLS))
                if math.isinf(want) or math.isinf(got.time):
                    errors.append(0.0 if math.isinf(want) == math.isinf(got.time) else math.inf)
                else:
                    errors.append(abs(got.time - want))
    return max(errors), len(errors), sorted(calls)[len(calls) // 2], max(calls)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="exact grazes only")
    args = parser.parse_args()
    motion._Motion.contact = _counted
    rows = []
    for x0, vx in [(-5.0, 10.0), (-5.3, 7.1), (-50.3, 71.0)]:
        worst, count, median, most = run(x0, vx, 0.0, None)
        rows.append((f"exact graze, x0 = {x0}, vx = {vx}", count, f"{worst:.2g}", median, most))
    if not args.quick:
        for dy in (1e-14, 1e-12, 1e-10, 1e-8, 1e-6, -1e-6, -1e-8, -1e-10, -1e-12, -1e-14):
            worst, count, median, most = run(-5.3, 7.1, dy, ref.reference_translation)
            kind = "miss" if dy > 0 else "penetration"
            rows.append((f"{kind} by {abs(dy):.0e}", count, "all misses" if dy > 0 and worst == 0.0 else f"{worst:.2g}",
                         median, most))
    print(table(("case", "calls", "largest error of time", "median evaluations", "most"), rows))


if __name__ == "__main__":
    main()
