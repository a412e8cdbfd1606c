#!/usr/bin/env python
"""``collide2d.query_impacts`` (translation) against a static ``collide2d.query_pairs`` on the same shapes.

Usage::

    .venv/bin/python benchmarks/bench_motion_impacts.py            # 10,000 ellipses
    .venv/bin/python benchmarks/bench_motion_impacts.py --shapes 2000

The ellipses of ``bench_motion.py`` (centres uniform in a square of side ``sqrt(n) * 2``, semi-axes
in [0.1, 0.4], velocities normal with deviation 1, ``t_max = 1``): the first contacts of every
moving pair in one call, and the pairs that intersect at time 0 in one call, best CPU time of
``--repeat`` runs each, and their ratio. Seeds are fixed; prints markdown.
"""

from __future__ import annotations

import argparse
import sys

import collide2d as c2
from bench_motion import moving_ellipses  # noqa: E402 (benchmarks/ is on sys.path)
from common import LAST_CPU, best_of, table  # noqa: E402


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--shapes", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    small, v_small, _ = moving_ellipses(500)
    c2.query_impacts(small, v_small), c2.query_pairs(small)  # compile outside the timing
    shapes, v, _ = moving_ellipses(args.shapes)
    wall_i, hits = best_of(lambda: c2.query_impacts(shapes, v), args.repeat)
    cpu_i = LAST_CPU[0]
    wall_p, pairs = best_of(lambda: c2.query_pairs(shapes), args.repeat)
    cpu_p = LAST_CPU[0]
    rows = [["query_impacts (translation, t_max = 1)", f"{wall_i:.4f}", f"{cpu_i:.4f}", hits.pairs.shape[1]],
            ["query_pairs (static, the same shapes at 0)", f"{wall_p:.4f}", f"{cpu_p:.4f}", pairs.shape[1]],
            ["ratio", f"{wall_i / wall_p:.1f}x", f"{cpu_i / cpu_p:.1f}x", ""]]
    print(f"{args.shapes} moving ellipses\n")
    print(table(["call", "wall s", "CPU s", "pairs"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
