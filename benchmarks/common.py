"""Helpers shared by the benchmark scripts: workloads, polygonised ellipses, timing, tables.

The scripts run as ``python benchmarks/<script>.py``, so this folder is on ``sys.path``.
"""

from __future__ import annotations

import math
import time

import numpy as np

SEED = 20260601
SPREAD = 3.5  # offsets of b from a are uniform in [-SPREAD, SPREAD]^2: about 40% of pairs intersect

LAST_CPU = [math.nan]  # the best CPU seconds of the last best_of call


def best_of(function, repeat):
    """Return ``(best seconds, last result)`` of ``repeat`` calls of ``function()``.

    The best process CPU time of the same calls is kept in ``LAST_CPU[0]``: on a loaded machine
    it is a steadier measure of the work than the wall time.
    """
    best, best_cpu, result = math.inf, math.inf, None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = function()
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
    LAST_CPU[0] = best_cpu
    return best, result


def table(header, rows):
    """A markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def random_pairs(n, seed=SEED):
    """Random ellipse pairs: centres in [-100, 100]^2, b near a, radii in [0.5, 2], any angle."""
    rng = np.random.default_rng(seed)
    center_a = rng.uniform(-100.0, 100.0, (n, 2))
    center_b = center_a + rng.uniform(-SPREAD, SPREAD, (n, 2))
    radii_a = rng.uniform(0.5, 2.0, (n, 2))
    radii_b = rng.uniform(0.5, 2.0, (n, 2))
    angle_a = rng.uniform(-np.pi, np.pi, n)
    angle_b = rng.uniform(-np.pi, np.pi, n)
    return (center_a, radii_a, angle_a), (center_b, radii_b, angle_b)


def unit_direction(ellipse):
    """The stored direction of an ellipse batch, normalised (it is unit up to rounding)."""
    w = np.asarray(ellipse.direction, dtype=np.float64)
    return w / np.hypot(w[..., 0], w[..., 1])[..., None]


def polygon_vertices(center, radii, w, count):
    """Vertices of the inscribed regular-parameter ``count``-gon: ``c + a cos t w + b sin t w^``."""
    t = np.linspace(0.0, 2.0 * np.pi, count, endpoint=False)
    x = radii[:, 0:1] * np.cos(t)
    y = radii[:, 1:2] * np.sin(t)
    wx, wy = w[:, 0:1], w[:, 1:2]
    return np.stack([center[:, 0:1] + wx * x - wy * y, center[:, 1:2] + wy * x + wx * y], axis=-1)


def covariances(radii, w):
    """ellipsoid-tree's Sigma = R diag(a^2, b^2) R^T for each ellipse (rows of radii, unit w)."""
    a2, b2 = radii[:, 0] ** 2, radii[:, 1] ** 2
    c, s = w[:, 0], w[:, 1]
    sigma = np.empty((len(radii), 2, 2))
    sigma[:, 0, 0] = a2 * c * c + b2 * s * s
    sigma[:, 1, 1] = a2 * s * s + b2 * c * c
    sigma[:, 0, 1] = sigma[:, 1, 0] = (a2 - b2) * c * s
    return sigma
