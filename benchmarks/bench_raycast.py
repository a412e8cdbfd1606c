#!/usr/bin/env python
"""Accuracy and speed of ``collide2d.raycast``.

Usage::

    .venv/bin/python benchmarks/bench_raycast.py           # about a minute
    .venv/bin/python benchmarks/bench_raycast.py --quick   # smaller counts

Accuracy against the independent reference of ``tests/public/test_raycast.py`` (exact rationals for every
decision, mpmath at 40 digits for the values): the largest error of the distance in units of
``eps (distance + size)`` and of the point in units of ``eps (|point| + size)`` (``eps = 2**-52``)
over random hits of every kind, with shapes of size about 1 seen from within 3, and shapes of size
1e-6 seen from 1e6 away; and for rays 1e-12 (relative) from a tangent of random ellipses of
aspect up to 1e4, the largest error in units of ``sqrt(eps R rho)`` (``R`` the larger semi-axis,
``rho = R**2 / r`` the largest radius of curvature). Speed: one ray against one shape, and 1e6
rays against 1e6 shapes (wall and process CPU time, best of ``--repeat``). Prints markdown; seeds
are fixed.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys
import time

import numpy as np

import collide2d as c2
from common import table  # noqa: E402 (benchmarks/ is on sys.path)

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests"))
import test_raycast as ref  # noqa: E402  (the reference lives with the tests)


def accuracy(count, seed=7):
    rng = np.random.default_rng(seed)
    rows = []
    for kind in ref.KINDS:
        for scale, center, far in ((1.0, (0.0, 0.0), 0.0), (1e-6, (3.0, -2.0), 1e6)):
            worst_d = worst_p = 0.0
            hits = 0
            for _ in range(count):
                shape = ref.random_shape(rng, kind, scale=scale, center=center)
                if far:
                    f = rng.uniform(-1, 1, 2)
                    f = far * f / np.hypot(*f)
                    b = np.asarray(shape.bounds, dtype=float)
                    target = rng.uniform(b[:2], b[2:]) if np.isfinite(b).all() else np.asarray(shape._params[:2])
                    o = tuple((target + f).tolist())
                    d = tuple((target - np.array(o)).tolist())
                else:
                    o, d = ref.aimed_ray(rng, shape)
                status, distance, point, _ = ref.reference(shape, o, d)
                if status != "hit":
                    continue
                hits += 1
                hit = c2.raycast(shape, o, d)
                size = ref._size(shape)
                worst_d = max(worst_d, float(abs(hit.distance - distance) / (ref.EPS * (float(distance) + size))))
                err_p = max(abs(hit.point[0] - point[0]), abs(hit.point[1] - point[1]))
                worst_p = max(worst_p, float(err_p / (ref.EPS * (float(max(abs(point[0]), abs(point[1]))) + size))))
            setting = "size ~1, origin within 3" if not far else "size 1e-6, origin 1e6 away"
            rows.append([kind, setting, hits, f"{worst_d:.2f}", f"{worst_p:.2f}"])
    return rows


def grazing(count, seed=1510):
    rng = np.random.default_rng(seed)
    worst, seen = 0.0, {"hit": 0, "miss": 0}
    for _ in range(count):
        radii = rng.uniform(0.01, 2, 2) * [1, rng.choice([1, 1e-3, 1e-4])]
        radii = np.maximum(radii, 1e-5)
        e = c2.Ellipse(rng.uniform(-1, 1, 2), radii, rng.uniform(-4, 4))
        phi = rng.uniform(0, 2 * np.pi)
        (cx, cy), (a, b) = e.center, e.radii
        w = e.direction / np.hypot(*e.direction)
        lx, ly = a * math.cos(phi), b * math.sin(phi)
        tx, ty = -a * math.sin(phi), b * math.cos(phi)
        px, py = cx + w[0] * lx - w[1] * ly, cy + w[1] * lx + w[0] * ly
        dx, dy = w[0] * tx - w[1] * ty, w[1] * tx + w[0] * ty
        for offset in (-1e-12, 0.0, 1e-12):
            shift = offset * max(a, b) / math.hypot(dy, dx)
            o = (px - 5 * dx + shift * dy, py - 5 * dy - shift * dx)
            status, distance, point, _ = ref.reference(e, o, (dx, dy))
            hit = c2.raycast(e, o, (dx, dy))
            seen[status] = seen.get(status, 0) + 1
            if status == "hit":
                err = max(abs(hit.point[0] - point[0]), abs(hit.point[1] - point[1]), abs(hit.distance - distance))
                worst = max(worst, float(err / math.sqrt(ref.EPS * max(a, b) * max(a, b) ** 2 / min(a, b))))
            elif hit.distance != math.inf:
                raise AssertionError("a grazing miss came out as a hit")
    return seen, worst


def speed(n, repeat):
    rng = np.random.default_rng(0)
    shapes = {
        "Circle": c2.Circle((0, 0), 1),
        "RotatedBox": c2.RotatedBox((0, 0), (1, 0.5), 0.3),
        "Segment": c2.Segment((0, 0), (1, 1)),
    }
    rows = []
    for name, shape in shapes.items():
        c2.raycast(shape, (-3.0, 0.1), (1.0, 0.0))
        best = math.inf
        for _ in range(repeat):
            start = time.perf_counter()
            for _ in range(1000):
                c2.raycast(shape, (-3.0, 0.1), (1.0, 0.0))
            best = min(best, (time.perf_counter() - start) / 1000)
        rows.append([f"one ray, one {name}", f"{best * 1e6:.1f} us", ""])
    origins, directions = rng.uniform(-20, 20, (n, 2)), rng.uniform(-1, 1, (n, 2))
    batches = {
        "Ellipse": c2.Ellipse(rng.uniform(-10, 10, (n, 2)), rng.uniform(0.1, 1, (n, 2)), rng.uniform(0, 3, n)),
        "RotatedBox": c2.RotatedBox(rng.uniform(-10, 10, (n, 2)), rng.uniform(0.1, 1, (n, 2)), rng.uniform(0, 3, n)),
    }
    for name, batch in batches.items():
        c2.raycast(batch[:10], origins[:10], directions[:10])
        best, best_cpu = math.inf, math.inf
        for _ in range(repeat):
            start, start_cpu = time.perf_counter(), time.process_time()
            c2.raycast(batch, origins, directions)
            best, best_cpu = min(best, time.perf_counter() - start), min(best_cpu, time.process_time() - start_cpu)
        rows.append([f"{n} rays against {n} shapes ({name})", f"{best:.3f} s", f"{best_cpu:.3f} s"])
    return rows


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts (smoke test)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per timing (best counts)")
    args = parser.parse_args(argv)
    print(f"# raycast: accuracy and speed (collide2d {c2.__version__})\n")
    print("## Accuracy against the reference (random hits, seed 7)\n")
    print(table(["kind", "setting", "hits", "distance / eps (d + size)", "point / eps (|p| + size)"],
                accuracy(30 if args.quick else 150)))
    seen, worst = grazing(60 if args.quick else 300)
    print(f"\nGrazing rays (1e-12 from a tangent, aspect to 1e4): {seen.get('hit', 0)} hits and "
          f"{seen.get('miss', 0)} misses decided as the reference does; largest error "
          f"{worst:.2f} sqrt(eps R rho)\n")
    print("## Speed\n")
    print(table(["case", "wall", "CPU"], speed(100_000 if args.quick else 1_000_000, args.repeat)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
