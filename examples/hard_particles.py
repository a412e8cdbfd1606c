#!/usr/bin/env python
"""Event-driven simulation of hard disks or hard ellipses in a periodic box, their pressure, and jamming.

Usage::

    python examples/hard_particles.py --shape disk --eta 0.5 --n 1024 --collisions 1000000 --seed 1
    python examples/hard_particles.py --eta 0.3 --collisions 20000 --engine numpy   # the plain NumPy baseline
    python examples/hard_particles.py --shape ellipse --aspect 2 --eta 0.5 --n 512 --collisions 200000
    python examples/hard_particles.py --jam --n 1024 --growth-rate 0.001 --seed 1   # bidisperse disks to jamming

A command line over :mod:`collide2d.events` (``--engine events``, the default: the event loop in
compiled code) and the engines of Python loops in :mod:`collide2d.events.baseline` it is measured
against (``--engine numpy``: contact times from the root of the quadratic of two moving circles;
``--engine time_of_impact``: from :func:`collide2d.time_of_impact`, disks and ellipses).

Disks of diameter 1 (ellipses of semi-axes ``aspect / 2`` and ``1 / 2``), mass 1, start on a lattice
at packing fraction ``eta`` with ``kT = 1`` in every degree of freedom and no net momentum. The
first fifth of the collisions melts the lattice and is not measured; ``Z = P A / (N kT)`` comes
from the collision virial over ten blocks of the rest, ``Z_err`` is the standard error of the
block means. References: Henderson's and Kolafa and Rottner's equations of state for disks, the
scaled-particle theory and Boublik's for ellipses (:mod:`collide2d.events.equations`).

``--jam``: a 50:50 mixture of disks of diameters 1 and ``--ratio`` (1.4) grows from points at
random places (the Lubachevsky-Stillinger compression, :meth:`collide2d.events.HardDisks.compress`)
until the reduced pressure exceeds ``--pressure``; the packing fraction then is the jamming
density of that compression, which grows as the rate falls (N = 1024: 0.826 at the rate 0.3,
0.841 at 0.03, 0.848 at 0.001; docs/simulation.md), beside O'Hern, Silbert, Liu and Nagel's
about 0.84 (*Phys. Rev. E* 68, 011306, 2003; energy minimisation from random states).

The last line of output is one JSON object: ``Z``, ``Z_err``, the references (``Z_henderson`` and
``Z_kolafa``, or ``Z_spt`` and ``Z_boublik``) and ``deviation`` from them, ``overlaps`` (pairs whose
interiors overlap at the end, by :func:`collide2d.query_pairs`), ``collisions``,
``collisions_per_s`` (production collisions per CPU second), ``kT_drift`` and ``momentum_drift``
(0 to rounding for elastic collisions) and the run's settings; with ``--jam``, ``phi`` and the
compression's history.
"""

from __future__ import annotations

import argparse
import json
import math
import time

import numpy as np

from collide2d.events import HardDisks, HardEllipses, baseline
from collide2d.events.equations import (  # noqa: F401 (the references, for tests and plots)
    KOLAFA_ROTTNER,
    boublik_convex,
    ellipse_perimeter,
    henderson,
    kolafa_rottner,
    nonsphericity,
    spt_convex,
)


class _Compiled:
    """The events engines behind the interface of the baseline loops: ``run(k) -> (virial, elapsed)``."""

    def __init__(self, engine):
        self.engine = engine
        self.vel = engine.velocity

    def run(self, collisions):
        virial, start = self.engine.virial, self.engine.time
        self.engine.run(collisions)
        return self.engine.virial - virial, self.engine.time - start

    def kinetic_kt(self):
        return self.engine.kinetic_temperature()

    def overlaps(self):
        return self.engine.overlaps()


def make_simulation(args):
    if args.shape == "ellipse":
        if args.engine == "events":
            return _Compiled(HardEllipses.lattice(args.n, args.eta, aspect=args.aspect, seed=args.seed))
        return baseline.EllipseSimulation(args.n, args.eta, args.seed, args.aspect, 0.5 if args.skin is None else args.skin)
    if args.engine == "events":
        return _Compiled(HardDisks.lattice(args.n, args.eta, seed=args.seed))
    return baseline.Simulation(args.n, args.eta, args.seed, args.engine, 0.6 if args.skin is None else args.skin)


def jam(args):
    diameters = np.where(np.arange(args.n) % 2 == 0, 1.0, args.ratio)
    side = math.sqrt(np.sum(math.pi * diameters**2 / 4.0))  # packing fraction 1 at full size
    disks = HardDisks.points(args.n, side, diameters, growth_rate=args.growth_rate, seed=args.seed)
    start = time.process_time()
    history = disks.compress(reduced_pressure=args.pressure)
    cpu = time.process_time() - start
    result = {"mode": "jam", "n": args.n, "ratio": args.ratio, "growth_rate": args.growth_rate, "seed": args.seed,
              "phi": round(disks.packing_fraction(), 6), "Z": round(float(history[-1, 2]), 1),
              "phi_ohern": 0.84, "deviation": round(disks.packing_fraction() / 0.84 - 1.0, 5),
              "overlaps": disks.overlaps(), "collisions": disks.collisions,
              "collisions_per_s": round(disks.collisions / cpu, 1),
              "history": [[round(float(p), 6), round(float(z), 3)]
                          for _, p, z, _ in np.concatenate([history[:-1:max(1, len(history) // 60)], history[-1:]])]}
    if args.save:
        np.savez(args.save, positions=disks.positions(), diameters=disks.diameters(), side=disks.side)
    print(json.dumps(result))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shape", choices=["disk", "ellipse"], default="disk")
    parser.add_argument("--aspect", type=float, default=2.0, help="ellipses: major over minor axis (the minor axis is 1)")
    parser.add_argument("--eta", type=float, default=0.3, help="packing fraction")
    parser.add_argument("--n", type=int, default=1024, help="number of particles")
    parser.add_argument("--collisions", type=int, default=100_000, help="collisions in total (a fifth melts the lattice)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--engine", choices=["events", "numpy", "time_of_impact"], default="events",
                        help="events: compiled (default); numpy (disks) and time_of_impact: the Python loops")
    parser.add_argument("--skin", type=float, default=None,
                        help="neighbour-list skin of the Python loops (default 0.6 for disks, 0.5 for ellipses)")
    parser.add_argument("--jam", action="store_true", help="compress a 50:50 bidisperse disk mixture to jamming")
    parser.add_argument("--ratio", type=float, default=1.4, help="--jam: diameter ratio of the two species")
    parser.add_argument("--growth-rate", type=float, default=0.001, help="--jam: growth rate of the diameters")
    parser.add_argument("--pressure", type=float, default=1e6, help="--jam: stop when Z exceeds this")
    parser.add_argument("--save", default=None, help="--jam: write the jammed packing to this .npz file")
    args = parser.parse_args()
    if args.n < 2:
        parser.error("--n must be at least 2")
    if args.jam:
        if not (args.ratio >= 1.0 and args.growth_rate > 0.0 and args.pressure > 1.0):
            parser.error("--jam needs --ratio >= 1, --growth-rate > 0 and --pressure > 1")
        return jam(args)
    if not 0.0 < args.eta < 0.7:
        parser.error("--eta must lie in (0, 0.7): the fluid")
    if args.shape == "ellipse":
        if args.engine == "numpy":
            parser.error("--engine numpy is for disks only")
        if not args.aspect >= 1.0:
            parser.error("--aspect must be at least 1")
    try:
        sim = make_simulation(args)
    except ValueError as error:
        parser.error(str(error))
    melt = args.collisions // 5
    sim.run(melt)
    blocks = 10
    per_block = max(1, (args.collisions - melt) // blocks)
    kt = sim.kinetic_kt()
    momentum = sim.vel.sum(axis=0).copy()
    z_blocks = []
    start = time.process_time()
    for _ in range(blocks):
        virial, elapsed = sim.run(per_block)
        z_blocks.append(1.0 + virial / (2.0 * args.n * kt * elapsed))
        print(f"block {len(z_blocks)}: Z = {z_blocks[-1]:.4f} over {per_block} collisions, t = {elapsed:.3f}", flush=True)
    cpu = time.process_time() - start
    z = float(np.mean(z_blocks))
    z_err = float(np.std(z_blocks, ddof=1) / math.sqrt(blocks))
    result = {"shape": args.shape, "eta": args.eta, "n": args.n, "seed": args.seed, "engine": args.engine,
              "Z": round(z, 5), "Z_err": round(z_err, 5)}
    if args.shape == "disk":
        result.update({"Z_henderson": round(henderson(args.eta), 5), "Z_kolafa": round(kolafa_rottner(args.eta), 5),
                       "deviation": round(z / henderson(args.eta) - 1.0, 5),
                       "deviation_kolafa": round(z / kolafa_rottner(args.eta) - 1.0, 5)})
    else:
        gamma = nonsphericity(0.5 * args.aspect, 0.5)
        result.update({"aspect": args.aspect, "gamma": round(gamma, 6),
                       "Z_spt": round(spt_convex(args.eta, gamma), 5),
                       "Z_boublik": round(boublik_convex(args.eta, gamma), 5),
                       "deviation": round(z / boublik_convex(args.eta, gamma) - 1.0, 5),
                       "deviation_spt": round(z / spt_convex(args.eta, gamma) - 1.0, 5)})
    result.update({
        "overlaps": sim.overlaps(), "collisions": per_block * blocks + melt,
        "collisions_per_s": round(per_block * blocks / cpu, 1),
        "kT": round(kt, 12), "kT_drift": round(sim.kinetic_kt() / kt - 1.0, 12),
        "momentum_drift": float(np.max(np.abs(sim.vel.sum(axis=0) - momentum))),
    })
    print(json.dumps(result))


if __name__ == "__main__":
    main()
