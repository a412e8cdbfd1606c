"""Record and compare the answers of the rounded kind's overlay, motion and manifold operations, bit for bit.

The rounded kind's share of :mod:`answer_corpus` (which covers today's eight kinds): capsules,
rounded boxes, rounded rotated boxes and rounded polygons against each other and against every
kind, both orders, single shapes and one batch per pair, for ``intersection_points``,
``overlap_area``, ``iou``, ``time_of_impact`` (translating and turning) and ``contact_manifold``.
A refactor of those operations must change no answer::

    PYTHONPATH=$PWD/src python tools/rounded_overlay_corpus.py record /tmp/rounded-before.npz
    PYTHONPATH=$PWD/src python tools/rounded_overlay_corpus.py compare /tmp/rounded-before.npz

Cases per pair (fixed seed): random real data, small-integer data (exact touches), near-tangent
pairs (moved into contact along the contact normal, then 0, 1e-12 apart or into each other and
1 ulp), containment both ways, radius 0 (a rounded shape of radius 0 beside rounded ones in the
same batch), aspect 1e4, and magnitudes 1e-150, 1e150 and both in one pair. The inputs are
stored beside the answers; comparison is on the bits, dtypes and shapes, and for single calls the
Python types (see :func:`answer_corpus.differences`). Only the public API is used.
"""

from __future__ import annotations

import math
import pathlib
import sys

import numpy as np

import collide2d as c2

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import answer_corpus as base  # noqa: E402 (tools/ is on sys.path)
from rounded_corpus import build, buildable  # noqa: E402 (the rounded kinds' constructors, one place)

ROUNDED = ("Capsule", "RBox", "RRotatedBox", "RPolygon")
FLAT = base.KINDS
FIELDS = base.FIELDS  # the flat kinds' fields, and the rounded ones' (for base._stack):
FIELDS.update(Capsule=("a", "b", "radius"), RBox=("min", "max", "radius"),
              RRotatedBox=("center", "half_size", "angle", "radius"), RPolygon=("vertices", "radius"))
SEED = 20261127 + 27
OPERATIONS = ("intersection_points", "overlap_area", "iou")


def _fields(kind, center, size, aspect=1.0, angle=0.0, radius=0.25, phases=None):
    if kind not in ROUNDED:
        return base._fields(kind, center, size, aspect, angle, phases)
    r = np.array(float(radius) * float(size))
    flat = {"Capsule": "Segment", "RBox": "Box", "RRotatedBox": "RotatedBox", "RPolygon": "Polygon"}[kind]
    f = base._fields(flat, center, size, aspect, angle, phases)
    if kind == "Capsule":
        return {"a": f["start"], "b": f["end"], "radius": r}
    return dict(f, radius=r)


def _real(kind, rng, scale=1.0, spread=3.0, radius=None):
    radius = float(rng.uniform(0.05, 0.6)) if radius is None else radius
    return _fields(kind, rng.uniform(-spread, spread, 2) * scale, rng.uniform(0.5, 2.0) * scale,
                   float(rng.uniform(0.3, 1.0)), float(rng.uniform(0, 2 * math.pi)), radius, rng.uniform(0, 2 * math.pi, 4))


def _integer(kind, rng):
    if kind not in ROUNDED:
        return base._integer_fields(kind, rng)
    flat = {"Capsule": "Segment", "RBox": "Box", "RRotatedBox": "RotatedBox", "RPolygon": "Polygon"}[kind]
    f = base._integer_fields(flat, rng)
    r = np.array(float(rng.integers(1, 3)) / 2.0)
    if kind == "Capsule":
        return {"a": f["start"], "b": f["end"], "radius": r}
    return dict(f, radius=r)


def _moved(kind, fields, offset):
    shape = c2.translate(build(kind, fields), offset)
    out = dict(fields)
    if kind in ROUNDED:
        for name in FIELDS[kind]:
            if name != "radius":
                out[name] = np.array(getattr(shape, name), dtype=float)
        return out
    return base._moved(kind, fields, offset)


def _tangent(kind_a, kind_b, rng):
    """Pairs moved into contact along the contact normal, then 0, 1e-12 apart or into each other, 1 ulp."""
    fa, fb = _real(kind_a, rng), _real(kind_b, rng)
    con = c2.contact(build(kind_a, fa), build(kind_b, fb))
    if not (math.isfinite(con.separation) and np.all(np.isfinite(con.normal))):
        return []
    return [(fa, _moved(kind_b, fb, -(con.separation - gap) * np.asarray(con.normal)), "tangent")
            for gap in (0.0, 1e-12, -1e-12, 2.0**-52)]


def pair_cases(kind_a, kind_b, rng):
    """Cases of one unordered kind pair: a list of (fields_a, fields_b, family), those that build."""
    a, b = kind_a, kind_b
    cases = [(_real(a, rng), _real(b, rng), "random") for _ in range(6)]
    cases += [(_integer(a, rng), _integer(b, rng), "integer") for _ in range(4)]
    cases += [case for _ in range(3) for case in _tangent(a, b, rng)]
    cases += [(_fields(a, (0.25, -0.5), 8.0, 0.7, 0.4, 0.1), _fields(b, (0.5, 0.25), 0.5, 0.8, 1.1, 0.2), "containment"),
              (_fields(a, (0.0, 0.0), 0.5, 0.8, 1.1, 0.2), _fields(b, (0.1, 0.1), 8.0, 0.7, 0.4, 0.1), "containment")]
    cases += [(_real(a, rng, radius=0.0), _real(b, rng), "radius 0") for _ in range(2)]
    cases += [(_real(a, rng), _real(b, rng, radius=0.0), "radius 0") for _ in range(2)]
    cases += [(_fields(a, (0.0, 0.0), 1e2, 1e-4, 0.3, 1e-5), _real(b, rng, spread=1.0), "aspect"),
              (_real(a, rng, spread=1.0), _fields(b, (0.5, 0.0), 1e4, 1e-4, 1.2, 1e-5), "aspect")]
    cases += [(_real(a, rng, scale, spread=1.0), _real(b, rng, scale, spread=1.0), "extreme") for scale in (1e-150, 1e150)]
    cases += [(_fields(a, (0.3e150, 0.0), 1e150, 0.5, 0.2), _fields(b, (0.0, 0.0), 1e-150, 0.5, 0.7), "extreme"),
              (_fields(a, (0.0, 0.0), 1e-150, 0.5, 0.7), _fields(b, (1e-150, 0.0), 1e150, 0.25, 2.0), "extreme")]
    return [case for case in cases if buildable(a, case[0], b, case[1])]


def _pairs():
    for i, kind_a in enumerate(ROUNDED):
        for kind_b in ROUNDED[i:] + FLAT:
            yield kind_a, kind_b


def store_cases(inputs, kind_a, kind_b, cases):
    """The fields of both sides of the cases ``(fields_a, fields_b, family, ...)`` of a pair of kinds
    into ``inputs``, stacked, and their families."""
    for side, kind, k in (("A", kind_a, 0), ("B", kind_b, 1)):
        for name, value in base._stack(kind, [c[k] for c in cases]).items():
            inputs[f"pair|{kind_a}|{kind_b}|{side}|{name}"] = value
    inputs[f"pair|{kind_a}|{kind_b}|family"] = np.array([c[2] for c in cases])


def make_inputs():
    rng = np.random.default_rng(SEED)
    inputs = {}
    for kind_a, kind_b in _pairs():
        cases = pair_cases(kind_a, kind_b, rng)
        store_cases(inputs, kind_a, kind_b, cases)
        n = len(cases)
        inputs[f"pair|{kind_a}|{kind_b}|velocity"] = rng.uniform(-4.0, 4.0, (n, 2))
    return inputs


def _shapes(inputs, kind_a, kind_b, side, kind):
    return build(kind, {name: inputs[f"pair|{kind_a}|{kind_b}|{side}|{name}"] for name in FIELDS[kind]})


def _rows(inputs, kind_a, kind_b, side, kind):
    fields = {name: inputs[f"pair|{kind_a}|{kind_b}|{side}|{name}"] for name in FIELDS[kind]}
    n = len(next(iter(fields.values())))
    return [build(kind, {name: v[i] for name, v in fields.items()}) for i in range(n)]


_MOTIONS = {"translation": {}, "turning": {"angular_velocity_a": 1.5}}


def evaluate(inputs):
    ans = base.Answers()
    for kind_a, kind_b in _pairs():
        a, b = _shapes(inputs, kind_a, kind_b, "A", kind_a), _shapes(inputs, kind_a, kind_b, "B", kind_b)
        ra, rb = _rows(inputs, kind_a, kind_b, "A", kind_a), _rows(inputs, kind_a, kind_b, "B", kind_b)
        velocity = inputs[f"pair|{kind_a}|{kind_b}|velocity"]
        for order, (x, y, xs, ys) in (("ab", (a, b, ra, rb)), ("ba", (b, a, rb, ra))):
            tag = f"{kind_a}|{kind_b}|{order}"
            for op in OPERATIONS:
                fn = getattr(c2, op)
                base._guarded_put(ans, f"{op}|{tag}|batch", fn, x, y)
                ans.put_single(f"{op}|{tag}|single", [base.attempt(fn, p, q) for p, q in zip(xs, ys)])
            for motion, kw in _MOTIONS.items():
                base._guarded_put(ans, f"time_of_impact|{motion}|{tag}|batch", c2.time_of_impact, x, y, velocity_b=velocity, **kw)
                ans.put_single(f"time_of_impact|{motion}|{tag}|single",
                               [base.attempt(c2.time_of_impact, p, q, velocity_b=v, **kw) for p, q, v in zip(xs, ys, velocity)])
            base._guarded_put(ans, f"contact_manifold|{tag}|batch", c2.contact_manifold, x, y)
            ans.put_single(f"contact_manifold|{tag}|single", [base.attempt(c2.contact_manifold, p, q) for p, q in zip(xs, ys)])
            base._guarded_put(ans, f"contact_manifold|margin|{tag}|batch", c2.contact_manifold, x, y, margin=0.1)
    return ans.out


def main(argv=None):
    """``record FILE`` or ``compare FILE``: the command line of :mod:`answer_corpus`, on this corpus."""
    base.make_inputs = make_inputs
    base.evaluate = lambda inputs: (evaluate(inputs), None)
    return base.main(argv)


if __name__ == "__main__":
    sys.exit(main())
