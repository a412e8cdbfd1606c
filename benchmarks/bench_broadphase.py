#!/usr/bin/env python
"""Benchmark ``collide2d.query_pairs`` on many ellipses: time, pairs per second, peak memory.

Usage::

    .venv/bin/python benchmarks/bench_broadphase.py            # 1e4 .. 1e6 ellipses, every backend
    .venv/bin/python benchmarks/bench_broadphase.py --quick    # up to 1e5, for a smoke test
    .venv/bin/python benchmarks/bench_broadphase.py --n 1000000 --backend grid   # one case

Each case runs in a fresh interpreter (a subprocess), so that its peak resident memory
(``resource.getrusage(RUSAGE_SELF).ru_maxrss``) belongs to that case alone. Inside it, the JIT
paths are compiled on a small scene first; then the scene is built (timed apart) and
``query_pairs`` is timed once with ``predicate=None`` (broad phase only) and once with
``predicate="intersects"`` (broad + exact narrow phase), best of ``--repeat`` runs each, in wall
seconds and in CPU seconds of the process (:func:`time.process_time`, all threads: on an idle
machine wall is about CPU / threads; on a busy one only the CPU time says what the code costs).

Scenes (fixed seeds): ``n`` ellipses with centres uniform in a square of side ``sqrt(n)`` (density
one centre per unit area), semi-axes uniform in [0.5, 1.5], angles uniform; "periodic" is the
same scene in a periodic box of that side; "polydisperse" replaces 0.1 % of the ellipses by
circles of radius 20 (the automatic choice then takes the sweep). The script prints a markdown
table and writes no files.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys

CASE = r"""
import json, resource, sys, time
import numpy as np
import collide2d as c2
from collide2d.broadphase import query_pairs

n, scene, backend, repeat = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])

def make(n, seed=1):
    rng = np.random.default_rng(seed)
    side = float(np.sqrt(n))
    center = rng.uniform(0, side, size=(n, 2))
    radii = rng.uniform(0.5, 1.5, size=(n, 2))
    if scene == "polydisperse":
        radii[: max(1, n // 1000)] = 20.0
    return c2.Ellipse(center, radii, rng.uniform(0, np.pi, size=n)), side

small, side_small = make(2000, seed=2)  # compile every path used below
for predicate in (None, "intersects"):
    query_pairs(small, predicate=predicate, backend=backend,
                periodic=(side_small, side_small) if scene == "periodic" else None)
rss_compiled = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
t0 = time.perf_counter()
shapes, side = make(n)
build = time.perf_counter() - t0
periodic = (side, side) if scene == "periodic" else None
result = {"build": build, "rss_compiled_mb": rss_compiled}
for label, predicate in (("broad", None), ("narrow", "intersects")):
    best = best_cpu = float("inf")
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        pairs = query_pairs(shapes, predicate=predicate, backend=backend, periodic=periodic)
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
        count = pairs.shape[1]
        del pairs
    result[label] = best
    result[label + "_cpu"] = best_cpu
    result[label + "_pairs"] = count
result["rss_peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(result))
"""


def run_case(n, scene, backend, repeat):
    """Run one case in a fresh interpreter; return its measurements as a dict."""
    done = subprocess.run(
        [sys.executable, "-c", CASE, str(n), scene, backend, str(repeat)],
        capture_output=True, text=True, check=False,
    )
    if done.returncode:
        raise RuntimeError(f"case n={n} {scene} {backend} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="sizes up to 1e5 only")
    parser.add_argument("--n", type=int, action="append", help="number of ellipses (repeatable)")
    parser.add_argument("--scene", choices=("uniform", "periodic", "polydisperse"), action="append")
    parser.add_argument("--backend", choices=("auto", "grid", "sweep", "brute"), action="append")
    parser.add_argument("--repeat", type=int, default=1, help="runs per timing; the best counts")
    args = parser.parse_args(argv)
    sizes = args.n or ([10_000, 100_000] if args.quick else [10_000, 100_000, 1_000_000])
    scenes = args.scene or ["uniform", "periodic", "polydisperse"]
    backends = args.backend or ["auto", "grid", "sweep"]
    import numba
    import numpy

    print(f"# query_pairs on ellipses ({platform.processor() or platform.machine()}, "
          f"{numba.config.NUMBA_NUM_THREADS} threads, numpy {numpy.__version__}, numba {numba.__version__})\n")
    print("Times are wall seconds, with the CPU seconds of the process (all threads) in brackets;")
    print(f"load average at start: {os.getloadavg()[0]:.1f} (wall times mean little when it exceeds the cores)\n")
    print("| n | scene | backend | candidates | broad s [cpu] | intersecting | broad+narrow s [cpu] | pairs/s | peak RSS MB |")
    print("| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for n in sizes:
        for scene in scenes:
            for backend in backends:
                r = run_case(n, scene, backend, args.repeat)
                rate = r["narrow_pairs"] / r["narrow"] if r["narrow"] else float("nan")
                print(f"| {n:,} | {scene} | {backend} | {r['broad_pairs']:,} | {r['broad']:.2f} [{r['broad_cpu']:.2f}] | "
                      f"{r['narrow_pairs']:,} | {r['narrow']:.2f} [{r['narrow_cpu']:.2f}] | {rate:.3g} | "
                      f"{r['rss_peak_mb']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
