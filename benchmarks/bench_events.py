#!/usr/bin/env python
"""Benchmark the compiled event loops of :mod:`collide2d.events` against the plain NumPy engine.

Usage::

    .venv/bin/python benchmarks/bench_events.py                 # N = 1024 disks at 0.5, ellipses of aspect 2
    .venv/bin/python benchmarks/bench_events.py --quick         # fewer collisions, a smoke test

One run, one process, CPU seconds (:func:`time.process_time`): hard disks at packing fraction
``--eta`` from the same lattice start (``n`` disks of diameter 1, ``kT = 1``) with

- the plain NumPy engine (:class:`collide2d.events.baseline.Simulation`, ``engine="numpy"``: a
  :mod:`heapq` calendar, neighbour lists from :class:`collide2d.Index`, the contact times from the
  quadratic of two moving circles in NumPy), the baseline of ``examples/hard_particles.py``;
- :class:`collide2d.events.HardDisks` (the compiled loop);
- :class:`collide2d.events.HardEllipses` of aspect 2 at the same packing fraction (translating and
  turning).

Each engine first runs a fifth of its collisions untimed (the melt of the lattice, and the
compilation of the kernels, or their load from the disk cache), then the timed collisions. The
script prints the collisions per CPU second and the ratios, as a markdown table.
"""

from __future__ import annotations

import argparse
import platform
import time

from collide2d.events import HardDisks, HardEllipses, baseline


def rate(run, collisions):
    """Collisions per CPU second of ``run(collisions)`` after an untimed fifth."""
    run(max(1, collisions // 5))
    start = time.process_time()
    run(collisions)
    return collisions / (time.process_time() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=1024)
    parser.add_argument("--eta", type=float, default=0.5)
    parser.add_argument("--quick", action="store_true", help="a tenth of the collisions")
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    plain = baseline.Simulation(args.n, args.eta, 1, "numpy")
    numpy_rate = rate(plain.run, int(20_000 * scale))
    disks = HardDisks.lattice(args.n, args.eta, seed=1)
    disk_rate = rate(disks.run, int(2_000_000 * scale))
    ellipses = HardEllipses.lattice(args.n, args.eta, aspect=2.0, seed=1)
    ellipse_rate = rate(ellipses.run, int(200_000 * scale))
    print(f"Python {platform.python_version()}, N = {args.n}, packing fraction {args.eta}, one run, CPU time\n")
    print("| engine | collisions per CPU second | ratio |")
    print("| --- | --- | --- |")
    print(f"| plain NumPy engine (disks) | {numpy_rate:,.0f} | 1 |")
    print(f"| collide2d.events.HardDisks | {disk_rate:,.0f} | {disk_rate / numpy_rate:,.1f}x the NumPy engine |")
    print(f"| collide2d.events.HardEllipses, aspect 2 | {ellipse_rate:,.0f} | {ellipse_rate / disk_rate:.3f}x the disks, "
          f"{ellipse_rate / numpy_rate:,.1f}x the NumPy engine (disks) |")
    for name, engine in (("disks", disks), ("ellipses", ellipses)):
        assert engine.overlaps() == 0, f"{name}: overlaps"


if __name__ == "__main__":
    main()
