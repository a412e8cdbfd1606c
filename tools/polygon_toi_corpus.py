"""Record and compare ``time_of_impact`` of every pair with a polygon kind, bit for bit.

The main corpus (:mod:`answer_corpus`) has a few motion cases per kind pair; this one has many for
the pairs of a polygon kind (Box, RotatedBox, Polygon with 4, 8 and 16 vertices) against every
kind, in both orders, translating and turning, as single calls and as batches: random pairs
aimed at each other, the main corpus's cases of the pair (integer data: exact touches, sliding
edges; near-tangent; containment; aspect 1e4; magnitudes 1e-150 and 1e150), hard cases (edges
sliding along each other, vertex on vertex grazes, touching at 0), each pair scaled by 1e-150,
1e-20, 1e20, 1e150 and moved to 1e15, with ``t_max`` 1, 3 and inf.

Usage (any checkout, its own ``PYTHONPATH``)::

    PYTHONPATH=$PWD/src python tools/polygon_toi_corpus.py record /tmp/polygon-toi.npz
    PYTHONPATH=$PWD/src python tools/polygon_toi_corpus.py compare /tmp/polygon-toi.npz
"""

from __future__ import annotations

import argparse
import math
import sys
import warnings

import numpy as np

import collide2d as c2

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from answer_corpus import FIELDS, KINDS, _fields, _stack, build, pair_cases  # noqa: E402

POLYGONAL = ("Box", "RotatedBox", "Polygon")
SEED = 20261128


def _scaled(kind, fields, scale, offset):
    out = {}
    for name, value in fields.items():
        value = np.asarray(value, dtype=np.float64) * scale
        if name in ("xy", "center", "min", "max", "start", "end", "point"):
            value = value + offset
        elif name == "vertices":
            value = value + offset
        out[name] = value
    return out


def _hard(kind_a, kind_b):
    """Edges sliding along each other, vertex on vertex, touching at 0: (fa, fb, va, vb)."""
    cases = []
    if kind_a == "Box" and kind_b == "Box":
        a = {"min": np.array([0.0, 0.0]), "max": np.array([1.0, 1.0])}
        cases.append((a, {"min": np.array([2.0, 1.0]), "max": np.array([3.0, 2.0])}, (0.0, 0.0), (-1.0, 0.0)))  # sliding
        cases.append((a, {"min": np.array([2.0, 2.0]), "max": np.array([3.0, 3.0])}, (0.0, 0.0), (-1.0, -1.0)))  # corner
        cases.append((a, {"min": np.array([1.0, 0.5]), "max": np.array([2.0, 1.5])}, (0.0, 0.0), (1.0, 0.0)))  # touching at 0
        cases.append((a, {"min": np.array([5.0, 1.0 + 1e-15]), "max": np.array([6.0, 2.0])}, (0.0, 0.0), (-1.0, 0.0)))
    if kind_a == "Polygon" and kind_b in ("Polygon", "Point", "Segment"):
        tri = {"vertices": np.array([[0.0, 0.0], [2.0, 0.0], [1.0, 1.0]])}
        other = {"Polygon": {"vertices": np.array([[3.0, 1.0], [5.0, 1.0], [4.0, 2.0]])},
                 "Point": {"xy": np.array([3.0, 1.0])},
                 "Segment": {"start": np.array([3.0, 1.0]), "end": np.array([5.0, 1.0])}}[kind_b]
        cases.append((tri, other, (1.0, 0.0), (0.0, 0.0)))  # vertex grazes the apex (sliding along y = 1)
        cases.append((tri, other, (0.0, 0.0), (-1.0, -1e-17)))
        cases.append((tri, other, (0.5, 0.0), (-0.5, 1e-300)))
    return cases


def pairs(kind_a, kind_b, rng):
    """(fa, fb, va, vb, wa, wb, t_max) of one ordered kind pair."""
    base = [(fa, fb) for fa, fb, _ in pair_cases(kind_a, kind_b, rng)]
    for k in (8, 16):
        if kind_a == "Polygon" or kind_b == "Polygon":
            for _ in range(6):
                fa = _fields(kind_a, rng.uniform(-3, 3, 2), rng.uniform(0.5, 2), rng.uniform(0.3, 1), rng.uniform(0, 6.3),
                             np.linspace(0, 2 * math.pi, k, endpoint=False) + rng.uniform(0, 0.3))
                fb = _fields(kind_b, rng.uniform(-3, 3, 2), rng.uniform(0.5, 2), rng.uniform(0.3, 1), rng.uniform(0, 6.3),
                             np.linspace(0, 2 * math.pi, k, endpoint=False) + rng.uniform(0, 0.3))
                base.append((fa, fb))
    out = []
    for fa, fb in base:
        ca = np.mean([np.asarray(v, dtype=float).reshape(-1, 2).mean(axis=0) for n, v in fa.items()
                      if n in ("xy", "center", "min", "max", "start", "end", "point", "vertices")], axis=0)
        cb = np.mean([np.asarray(v, dtype=float).reshape(-1, 2).mean(axis=0) for n, v in fb.items()
                      if n in ("xy", "center", "min", "max", "start", "end", "point", "vertices")], axis=0)
        aim = (cb - ca) * rng.uniform(0.2, 2.0) + rng.normal(0, 0.3, 2)
        t_max = (1.0, 3.0, math.inf)[int(rng.integers(0, 3))]
        out.append((fa, fb, aim, rng.normal(0, 0.2, 2), 0.0, 0.0, t_max))
    for fa, fb, va, vb in _hard(kind_a, kind_b):
        for t_max in (1.0, 3.0, math.inf):
            out.append((fa, fb, np.array(va), np.array(vb), 0.0, 0.0, t_max))
    scaled = []
    for fa, fb, va, vb, wa, wb, t_max in out:  # magnitudes: scaled pairs, and a pair far from the origin
        for scale, offset in ((1e-150, 0.0), (1e-20, 0.0), (1e20, 0.0), (1e150, 0.0), (1.0, 1e15)):
            scaled.append((_scaled(kind_a, fa, scale, offset), _scaled(kind_b, fb, scale, offset), va * scale,
                           vb * scale, wa, wb, t_max))
    out += scaled
    turning = []
    for fa, fb, va, vb, wa, wb, t_max in out[: len(base)]:
        turning.append((fa, fb, va, vb, float(rng.uniform(-3, 3)), float(rng.uniform(-3, 3)) * (kind_b != "Line"),
                        t_max if kind_a != "Line" and kind_b != "Line" else 1.0))
    return out, turning


def _valid(kind_a, kind_b, cases):
    keep = []
    for case in cases:
        try:
            build(kind_a, case[0]), build(kind_b, case[1])
        except ValueError:
            continue
        keep.append(case)
    return keep


def answers():
    """Every answer of the corpus as a flat dict of arrays."""
    rng = np.random.default_rng(SEED)
    result = {}
    for kind_a in POLYGONAL:
        for kind_b in KINDS:
            for order in ("ab", "ba"):
                if order == "ba" and kind_b in POLYGONAL and KINDS.index(kind_b) <= KINDS.index(kind_a) and kind_b != kind_a:
                    continue
                translating, turning = pairs(kind_a, kind_b, rng)
                for mode, cases in (("translate", translating), ("turn", turning)):
                    ka, kb = (kind_a, kind_b) if order == "ab" else (kind_b, kind_a)
                    cases = [(fb, fa, vb, va, wb, wa, t) for fa, fb, va, vb, wa, wb, t in cases] if order == "ba" else cases
                    cases = _valid(ka, kb, cases)
                    if not cases:
                        continue
                    key = f"{ka}|{kb}|{mode}"
                    groups = {}  # batches need one vertex count per polygon side
                    for i, case in enumerate(cases):
                        sig = tuple(np.asarray(case[s][n]).shape for s in (0, 1) for n in sorted(case[s]))
                        groups.setdefault(sig, []).append(i)
                    for g, rows in enumerate(groups.values()):
                        sub = [cases[i] for i in rows]
                        a = build(ka, _stack(ka, [c[0] for c in sub]))
                        b = build(kb, _stack(kb, [c[1] for c in sub]))
                        arrays = [np.array([c[j] for c in sub], dtype=np.float64) for j in (2, 3, 4, 5, 6)]
                        result[f"{key}|batch{g}"] = _impact(a, b, *arrays)
                    single = []
                    for case in cases:
                        a, b = build(ka, case[0]), build(kb, case[1])
                        single.append(_impact(a, b, tuple(map(float, case[2])), tuple(map(float, case[3])), case[4], case[5],
                                              case[6]))
                    result[f"{key}|single"] = np.array(single)
    return result


def _impact(a, b, va, vb, wa, wb, t_max):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            hit = c2.time_of_impact(a, b, va, vb, angular_velocity_a=wa, angular_velocity_b=wb, t_max=t_max)
        except (ValueError, ZeroDivisionError, OverflowError) as error:
            code = float(hash(type(error).__name__ + str(error)) % 2**40)
            n = np.size(va) // 2 if np.ndim(va) > 1 else 1
            return np.full((n, 5), code).squeeze()
    time = np.asarray(hit.time, dtype=np.float64)
    return np.concatenate([time[..., None], np.asarray(hit.point, dtype=np.float64),
                           np.asarray(hit.normal, dtype=np.float64)], axis=-1)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("record", "compare"))
    parser.add_argument("file")
    args = parser.parse_args(argv)
    got = answers()
    if args.command == "record":
        np.savez(args.file, **got)
        print(f"recorded {len(got)} arrays, {sum(v.size for v in got.values())} values")
        return 0
    old = np.load(args.file)
    bad = 0
    for key in sorted(set(old.files) | set(got)):
        if key not in old.files or key not in got:
            print(f"{key}: missing on one side")
            bad += 1
            continue
        x, y = old[key], got[key]
        if x.shape != y.shape:
            print(f"{key}: shape {x.shape} -> {y.shape}")
            bad += 1
            continue
        differ = np.flatnonzero((x.view(np.int64) != y.view(np.int64)).reshape(x.shape[0] if x.ndim else 1, -1).any(axis=1))
        if differ.size:
            bad += differ.size
            print(f"{key}: {differ.size} of {x.shape[0]} rows differ, e.g. {differ[:3].tolist()}: "
                  f"{x[differ[0]].tolist()} -> {y[differ[0]].tolist()}")
    print(f"{len(got)} arrays, {sum(v.size for v in got.values())} values; {bad} rows differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
