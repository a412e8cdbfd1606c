#!/usr/bin/env python
"""Plot the compressibility factor of hard disks from runs of ``hard_particles.py``.

Usage::

    python examples/hard_particles.py --eta 0.3 ... > run-0.3.log    # one run per packing fraction
    python examples/plot_equation_of_state.py run-*.log --output eos.png

Each log's last line is the JSON object of a run; the plot shows ``Z`` with its error bar against
the packing fraction, beside Henderson's equation of state ``(1 + eta^2 / 8) / (1 - eta)^2``
(Henderson, *Mol. Phys.* 30, 971, 1975).
"""

from __future__ import annotations

import argparse
import json

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("logs", nargs="+", help="outputs of hard_particles.py (the last line is read)")
    parser.add_argument("--output", default="hard_disks_eos.png")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = []
    for name in args.logs:
        with open(name) as stream:
            lines = [line for line in stream.read().splitlines() if line.startswith("{")]
        runs.append(json.loads(lines[-1]))
    eta = np.linspace(0.0, 0.7, 200)
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6, 6), sharex=True, height_ratios=(3, 1))
    top.plot(eta, (1 + eta**2 / 8) / (1 - eta) ** 2, color="0.4", label="Henderson (1975)")
    for engine, marker, face in (("collide2d", "o", None), ("numpy", "s", "none")):
        mine = [r for r in runs if r.get("engine", "collide2d") == engine]
        if not mine:
            continue
        x = np.array([r["eta"] for r in mine])
        z = np.array([r["Z"] for r in mine])
        err = np.array([r["Z_err"] for r in mine])
        href = (1 + x**2 / 8) / (1 - x) ** 2
        label = "collide2d time_of_impact" if engine == "collide2d" else "NumPy quadratic (baseline)"
        style = {"fmt": marker, "capsize": 3, "markersize": 7, "mfc": face}
        top.errorbar(x, z, yerr=err, label=label, **style)
        bottom.errorbar(x, 100 * (z / href - 1), yerr=100 * err / href, **style)
    top.set_ylabel("Z = PA / (N kT)")
    top.legend()
    bottom.axhline(0.0, color="0.4")
    bottom.set_xlabel("packing fraction")
    bottom.set_ylabel("Z / Henderson - 1 (%)")
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
