"""Times the paths that the exactness corners touch, for before/after comparisons.

* ``overlap_area`` and ``intersection_points`` on the overlapping ellipse pairs of the
  ``bench_predicates.py`` workload (``common.random_pairs``), batched, and ``perram_wertheim`` on
  all its pairs;
* ``intersection_points`` of ellipses against segments and lines: short segments near the
  ellipse (the segment kernel), long tilted segments and far lines (through the foot of the
  centre), batched and one pair at a time;
* ``overlap_area`` of a 1e-150 ellipse on the corner of a 1e150 box, one pair at a time.

Best of ``--repeat`` runs (wall and CPU), JIT warmed, fixed seeds; markdown on standard output.

    .venv/bin/python benchmarks/bench_corners.py [--n 200000] [--repeat 5]
"""

from __future__ import annotations

import argparse

import numpy as np

import collide2d as c2
from common import LAST_CPU, SEED, best_of, random_pairs, table


def _fmt(seconds):
    return f"{seconds * 1e3:.1f} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.2f} us"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200_000, help="random pairs drawn (the overlapping ones are timed)")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    rows = []

    def add(name, items, function, repeat=args.repeat):
        function()  # warm the JIT
        wall, _ = best_of(function, repeat)
        rows.append((name, f"{items:,}", _fmt(wall), _fmt(LAST_CPU[0]), _fmt(LAST_CPU[0] / items)))

    (ca, ra, ta), (cb, rb, tb) = random_pairs(args.n)
    a, b = c2.Ellipse(ca, ra, ta), c2.Ellipse(cb, rb, tb)
    keep = np.flatnonzero(c2.relate(a, b) == c2.Relation.OVERLAPPING)
    a, b = c2.Ellipse(ca[keep], ra[keep], ta[keep]), c2.Ellipse(cb[keep], rb[keep], tb[keep])
    add("`overlap_area`, overlapping ellipse pairs", keep.size, lambda: c2.overlap_area(a, b))
    add("`intersection_points`, overlapping ellipse pairs", keep.size, lambda: c2.intersection_points(a, b))
    a_all, b_all = c2.Ellipse(ca, ra, ta), c2.Ellipse(cb, rb, tb)
    add("`perram_wertheim`, all ellipse pairs", args.n, lambda: c2.perram_wertheim(a_all, b_all))

    rng = np.random.default_rng(SEED)
    n = 100_000
    ell = c2.Ellipse(rng.uniform(-1, 1, (n, 2)), rng.uniform(0.5, 2, (n, 2)), rng.uniform(0, 6, n))
    start = rng.uniform(-3, 3, (n, 2))
    short = c2.Segment(start, start + rng.uniform(-3, 3, (n, 2)))
    tilt = np.tan(rng.uniform(-1.5, 1.5, n))
    length = 10.0 ** rng.uniform(3, 15, n)
    ends = np.stack([length, length * tilt], axis=1)
    long = c2.Segment(-ends + rng.uniform(-1, 1, (n, 2)), ends)
    lines = c2.Line(-ends, np.stack([np.ones(n), tilt], axis=1))
    add("`intersection_points`, ellipses and short segments", n, lambda: c2.intersection_points(ell, short))
    add("`intersection_points`, ellipses and long tilted segments", n, lambda: c2.intersection_points(ell, long))
    add("`intersection_points`, ellipses and far lines", n, lambda: c2.intersection_points(ell, lines))
    singles = [(ell[k], long[k]) for k in range(1000)]
    add("`intersection_points`, one ellipse and one long segment, per call", len(singles),
        lambda: [c2.intersection_points(e, s) for e, s in singles])
    singles = [(ell[k], lines[k]) for k in range(1000)]
    add("`intersection_points`, one ellipse and one far line, per call", len(singles),
        lambda: [c2.intersection_points(e, s) for e, s in singles])
    s = 2.0**498
    tiny, box = c2.Ellipse((s, s), (1e-120, 1e-150), 0.3), c2.Box((-s, -s), (s, s))
    add("`overlap_area`, a 1e-150 ellipse on a 1e150 box's corner, per call", 200,
        lambda: [c2.overlap_area(tiny, box) for _ in range(200)])
    print(table(["operation", "items", "wall (best)", "CPU (best)", "CPU per item"], rows))
    print(f"\nOverlapping pairs drawn from {args.n:,} of `common.random_pairs` (seed {SEED}); best of {args.repeat}.")


if __name__ == "__main__":
    main()
