#!/usr/bin/env python
"""Plot the compressibility factor of hard disks and hard ellipses from runs of ``hard_particles.py``.

Usage::

    python examples/hard_particles.py --eta 0.3 ... > run-0.3.log    # one run per packing fraction
    python examples/plot_equation_of_state.py run-*.log --output eos.png

Each log's last line is the JSON object of a run (a ``.jsonl`` file: one run per line); the plot shows ``Z`` with its error bar against
the packing fraction, beside the equations of state: for disks Henderson's ``(1 + eta^2 / 8) / (1 -
eta)^2`` (Henderson, *Mol. Phys.* 30, 971, 1975) and Kolafa and Rottner's fit (*Mol. Phys.* 104,
3435, 2006); for ellipses the scaled-particle theory of hard convex bodies and Boublik's
refinement, with the nonsphericity of the ellipses run (formulas in :mod:`collide2d.events.equations`). The
lower panel shows each run against the reference of its shape: Kolafa and Rottner's for disks,
Boublik's for ellipses.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from collide2d.events import equations as hp


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("logs", nargs="+", help="outputs of hard_particles.py (the last line is read), or .jsonl "
                        "files of one run per line")
    parser.add_argument("--output", default="hard_particles_eos.png")
    args = parser.parse_args()
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    runs = []
    for name in args.logs:
        with open(name) as stream:
            lines = [line for line in stream.read().splitlines() if line.startswith("{")]
        runs.extend(json.loads(line) for line in (lines if name.endswith(".jsonl") else lines[-1:]))
    eta = np.linspace(0.0, 0.7, 200)
    kolafa = np.array([hp.kolafa_rottner(e) for e in eta])
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(6.5, 7), sharex=True, height_ratios=(3, 1.4))
    top.plot(eta, (1 + eta**2 / 8) / (1 - eta) ** 2, color="0.6", label="disks: Henderson (1975)")
    top.plot(eta, kolafa, color="k", ls="--", lw=1, label="disks: Kolafa and Rottner (2006)")
    bottom.plot(eta, 100 * ((1 + eta**2 / 8) / (1 - eta) ** 2 / kolafa - 1), color="0.6")
    bottom.axhline(0.0, color="k", ls="--", lw=1)
    for aspect in sorted({r["aspect"] for r in runs if r.get("shape") == "ellipse"}):
        gamma = hp.nonsphericity(0.5 * aspect, 0.5)
        spt, boublik = hp.spt_convex(eta, gamma), hp.boublik_convex(eta, gamma)
        top.plot(eta, spt, color="tab:red", lw=1, ls=":", label=f"ellipses {aspect:g}:1: SPT, gamma = {gamma:.4f}")
        top.plot(eta, boublik, color="tab:red", lw=1, label=f"ellipses {aspect:g}:1: Boublik")
        bottom.plot(eta, 100 * (spt / boublik - 1), color="tab:red", lw=1, ls=":")
    # (shape, engine, marker, face, colour, label, offset in eta so that points at one eta stay apart);
    # "collide2d" is the former name of the time_of_impact engine
    groups = (("disk", "events", "o", None, "tab:blue", "disks, collide2d.events (compiled)", 0.0),
              ("disk", "numpy", "s", "none", "tab:green", "disks, NumPy quadratic (baseline)", -0.006),
              ("disk", "time_of_impact", "^", "none", "tab:purple", "disks, time_of_impact loop", 0.006),
              ("ellipse", "events", "D", None, "tab:red", "ellipses 2:1, collide2d.events (turning)", 0.0),
              ("ellipse", "time_of_impact", "v", "none", "tab:orange", "ellipses 2:1, time_of_impact loop", 0.006))
    for shape, engine, marker, face, color, label, offset in groups:
        mine = [r for r in runs if r.get("shape", "disk") == shape
                and {"collide2d": "time_of_impact"}.get(r.get("engine", "collide2d"), r.get("engine")) == engine]
        if not mine:
            continue
        x = np.array([r["eta"] for r in mine])
        z = np.array([r["Z"] for r in mine])
        err = np.array([r["Z_err"] for r in mine])
        if shape == "disk":
            ref = np.array([hp.kolafa_rottner(e) for e in x])
        else:
            ref = np.array([hp.boublik_convex(r["eta"], hp.nonsphericity(0.5 * r["aspect"], 0.5)) for r in mine])
        style = {"fmt": marker, "capsize": 3, "markersize": 6, "mfc": face, "color": color}
        top.errorbar(x, z, yerr=err, label=label, **style)
        bottom.errorbar(x + offset, 100 * (z / ref - 1), yerr=100 * err / ref, **style)
    top.set_ylabel("Z = PA / (N kT)")
    top.set_ylim(1.0, 9.0)
    top.legend(fontsize=8)
    bottom.set_xlabel("packing fraction")
    bottom.set_ylabel("Z / reference - 1 (%)")
    bottom.set_ylim(-4.0, 3.0)
    bottom.text(0.02, 0.05, "reference: Kolafa-Rottner (disks), Boublik (ellipses)", transform=bottom.transAxes, fontsize=7)
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    print(f"wrote {args.output}")


if __name__ == "__main__":
    main()
