#!/usr/bin/env python
"""How many translating pairs the compiled time of impact hands back to the Python search.

Usage::

    .venv/bin/python benchmarks/bench_motion_handback.py            # 4000 pairs per kind pair
    .venv/bin/python benchmarks/bench_motion_handback.py --pairs 500

For every pair of kinds (circle, ellipse, box, rotated box, polygon, segment, line, point; one
order, the other order is the mirrored search), random pairs starting apart, `a` moving at `b`
with some scatter (about half pass by, some of them closely), `t_max = 1`: the share of pairs the
compiled search (:mod:`collide2d._kernels.motion.toi`) could not decide and handed to the Python
search (its outcome codes ``EXACT`` and ``ROUNDS``), and the CPU time per pair of the whole batch
call (the second of two, so that no compilation is timed). Seeds are fixed; prints markdown.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import collide2d as c2
from collide2d.motion import search
from common import table  # noqa: E402 (benchmarks/ is on sys.path)

KINDS = ("circle", "ellipse", "box", "rotated_box", "polygon", "segment", "line", "point")


def make(kind, centres, rng):
    n = len(centres)
    if kind == "circle":
        return c2.Circle(centres, rng.uniform(0.5, 2.0, n))
    if kind == "ellipse":
        return c2.Ellipse(centres, rng.uniform(0.5, 2.0, (n, 2)), rng.uniform(-np.pi, np.pi, n))
    if kind == "box":
        half = rng.uniform(0.5, 2.0, (n, 2))
        return c2.Box(centres - half, centres + half)
    if kind == "rotated_box":
        return c2.RotatedBox(centres, rng.uniform(0.5, 2.0, (n, 2)), rng.uniform(-np.pi, np.pi, n))
    if kind == "polygon":
        angles = np.sort(rng.uniform(0.0, 2.0 * np.pi, (n, 5)), axis=1)
        radius = rng.uniform(0.5, 2.0, (n, 1))
        verts = centres[:, None, :] + radius[..., None] * np.stack([np.cos(angles), np.sin(angles)], axis=-1)
        return c2.Polygon(verts)
    if kind == "segment":
        heading = rng.uniform(0.0, 2.0 * np.pi, n)
        half = rng.uniform(0.5, 2.0, n)[:, None] * np.stack([np.cos(heading), np.sin(heading)], axis=-1)
        return c2.Segment(centres - half, centres + half)
    if kind == "line":
        heading = rng.uniform(0.0, 2.0 * np.pi, n)
        return c2.Line(centres, np.stack([np.cos(heading), np.sin(heading)], axis=-1))
    return c2.Point(centres)


def pairs(kind_a, kind_b, n, seed):
    rng = np.random.default_rng(seed)
    ca = rng.uniform(-50.0, 50.0, (n, 2))
    heading = rng.uniform(0.0, 2.0 * np.pi, n)
    cb = ca + rng.uniform(4.5, 8.0, n)[:, None] * np.stack([np.cos(heading), np.sin(heading)], axis=-1)
    a, b = make(kind_a, ca, rng), make(kind_b, cb, rng)
    aim = heading + rng.normal(0.0, 0.3, n)
    va = rng.uniform(2.0, 8.0, n)[:, None] * np.stack([np.cos(aim), np.sin(aim)], axis=-1)
    vb = rng.uniform(-1.0, 1.0, (n, 2))
    return a, b, va, vb


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=4000)
    args = parser.parse_args(argv)
    codes = []
    kernel = search._translation_kernel

    def counted(*a, **k):
        code, out = kernel(*a, **k)
        codes.append(code)
        return code, out

    search._translation_kernel = counted
    rows = []
    total_back, total = 0, 0
    for i, kind_a in enumerate(KINDS):
        for kind_b in KINDS[i:]:
            a, b, va, vb = pairs(kind_a, kind_b, args.pairs, seed=7 + 31 * i + KINDS.index(kind_b))
            c2.time_of_impact(a, b, va, vb)  # compile (also the Python search's kernels) outside the timing
            codes.clear()
            start = time.process_time()
            hit = c2.time_of_impact(a, b, va, vb)
            cpu = time.process_time() - start
            code = np.concatenate(codes)
            back = int(np.sum((code == 3) | (code == 4)))  # EXACT, ROUNDS (collide2d._kernels.motion.constants)
            near = int(np.sum(code >= 5))  # NEAR, MINIMUM: decided in the kernel through the band (the exact check may follow)
            total_back += back
            total += code.size
            rows.append([f"{kind_a} - {kind_b}", code.size, int(np.isfinite(hit.time).sum()), near, back,
                         f"{100.0 * back / max(code.size, 1):.2f} %", f"{cpu / args.pairs * 1e6:.1f} us"])
    rows.append(["all", total, "", "", total_back, f"{100.0 * total_back / max(total, 1):.2f} %", ""])
    print(table(["kinds", "pairs", "contacts", "hits through the band", "handed back", "share", "CPU per pair (batch)"], rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
