#!/usr/bin/env python
"""Plot a jammed packing of bidisperse disks and the pressure of its compression.

Usage::

    python examples/hard_particles.py --jam --n 1024 --growth-rate 0.01 --seed 1 --save jammed.npz > jam.log
    python examples/plot_jamming.py jammed.npz jam-*.log --output jammed.png

Left: the disks of the ``.npz`` file written by ``hard_particles.py --jam --save`` in their periodic
box (the small ones light, the large ones dark; the disks across an edge drawn on both sides).
Right: the reduced pressure ``Z = P A / (N kT)`` against the packing fraction during each
compression of the logs (the last line of each is the JSON object of a run, with its
``history``), beside the free-volume form ``Z = 2 phi_J / (phi_J - phi)`` of a jammed
two-dimensional packing (Donev, Torquato and Stillinger, *Phys. Rev. E* 71, 011105, 2005: ``d /
(1 - phi / phi_J)``) and the jamming density of O'Hern et al. (*Phys. Rev. E* 68, 011306, 2003).
"""

from __future__ import annotations

import argparse
import json

import numpy as np


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("packing", help="an .npz file of hard_particles.py --jam --save")
    parser.add_argument("logs", nargs="*", help="outputs of hard_particles.py --jam (the last line is read)")
    parser.add_argument("--output", default="jammed.png")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import Circle

    data = np.load(args.packing)
    positions, diameters, side = data["positions"], data["diameters"], float(data["side"])
    phi = float(np.sum(np.pi * diameters**2 / 4.0)) / side**2
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 5.2), width_ratios=(1, 1.1))
    patches, colours = [], []
    small = diameters.min()
    for (x, y), d in zip(positions, diameters):
        r = 0.5 * d
        for sx in (-side, 0.0, side):
            for sy in (-side, 0.0, side):
                if -r < x + sx < side + r and -r < y + sy < side + r:
                    patches.append(Circle((x + sx, y + sy), r))
                    colours.append("#9ecae1" if d <= small * 1.0001 else "#3182bd")
    left.add_collection(PatchCollection(patches, facecolor=colours, edgecolor="k", linewidth=0.3))
    left.set_xlim(0.0, side)
    left.set_ylim(0.0, side)
    left.set_aspect("equal")
    left.set_xticks([])
    left.set_yticks([])
    left.set_title(f"{len(diameters)} disks, diameters 1 : {diameters.max() / small:.1f}, jammed at phi = {phi:.4f}",
                   fontsize=9)
    phi_j = []
    for name in args.logs:
        with open(name) as stream:
            run = json.loads([line for line in stream.read().splitlines() if line.startswith("{")][-1])
        history = np.array(run["history"])
        right.semilogy(history[:, 0], history[:, 1], lw=1,
                       label=f"growth rate {run['growth_rate']:g}, seed {run['seed']}: phi_J = {run['phi']:.4f}")
        phi_j.append(run["phi"])
    if phi_j:
        grid = np.linspace(0.6, min(phi_j) - 1e-5, 400)
        right.semilogy(grid, 2.0 * np.mean(phi_j) / (np.mean(phi_j) - grid), "k:", lw=1,
                       label="free volume, 2 phi_J / (phi_J - phi)")
    right.axvline(0.84, color="0.5", ls="--", lw=1, label="O'Hern et al. (2003): 0.84")
    right.set_xlim(0.6, 0.86)
    right.set_xlabel("packing fraction")
    right.set_ylabel("Z = PA / (N kT)")
    right.legend(fontsize=7)
    right.set_title("Lubachevsky-Stillinger compression", fontsize=9)
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
