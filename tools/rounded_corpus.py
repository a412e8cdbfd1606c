"""Record and compare the answers of the pair operations of rounded shapes, bit for bit.

The rounded kind's share of the refactor guard: ``tools/answer_corpus.py`` covers today's eight
kinds (and ``tools/rounded_corpus_zero.py`` rounded shapes of radius 0); this tool covers
capsules, rounded boxes, rotated boxes and polygons of radius > 0 against every kind, themselves
included, in both orders, as single shapes, as one batch of all cases of the pair, as a broadcast
(3, 1) x (4,) batch and as a single shape against the batch. Cases (seeded): small-integer data
(exact touches), random real data, near-tangent pairs (moved into contact along the contact
normal, then 0, 1e-12 and 1 ulp apart or into each other), containment both ways, radius 0 and
capsules of coincident ends mixed into the batches, aspect ratios to 1e4, magnitudes 1e-150 and
1e150. Operations: the predicates and ``relate``, ``distance``, ``contact``, ``overlap_area``,
``intersection_points``; on a mixed collection ``query_pairs`` (every predicate, ``max_distance``)
and ``measure_pairs``. Only the public API is used; the inputs are stored beside the answers::

    PYTHONPATH=$PWD/src python tools/rounded_corpus.py record /tmp/rounded-main.npz
    PYTHONPATH=$PWD/src python tools/rounded_corpus.py compare /tmp/rounded-main.npz
"""

from __future__ import annotations

import math
import pathlib
import sys

import numpy as np

import collide2d as c2

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import answer_corpus as base  # noqa: E402 - the sibling tool: case generators, answers, comparison

PLAIN = base.KINDS
ROUNDED = ("Capsule", "RBox", "RRotatedBox", "RPolygon")
FIELDS = dict(base.FIELDS, Capsule=("a", "b", "radius"), RBox=("min", "max", "radius"),
              RRotatedBox=("center", "half_size", "angle", "radius"), RPolygon=("vertices", "radius"))
POSITIONS = ("xy", "center", "min", "max", "vertices", "start", "end", "point", "a", "b")
OPS = ("relate", "intersects", "disjoint", "touches", "overlaps", "contains", "within", "covers", "covered_by",
       "equals", "distance", "contact", "overlap_area", "intersection_points")
SEED = 20261127 + 27
_CORE = {"Capsule": "Segment", "RBox": "Box", "RRotatedBox": "RotatedBox", "RPolygon": "Polygon"}


def build(kind, fields):
    f = {name: fields[name] for name in FIELDS[kind]}
    if kind == "Capsule":
        return c2.Capsule(**f)
    if kind in _CORE:
        return getattr(c2, _CORE[kind])(**f)
    return getattr(c2, kind)(**f)


def _rounded(kind, core_fields, radius, rng=None, point_core=False):
    """Fields of a rounded ``kind`` on the fields of its core kind."""
    if kind == "Capsule":
        a = np.array(core_fields["start"], dtype=float)
        b = a.copy() if point_core else np.array(core_fields["end"], dtype=float)
        return {"a": a, "b": b, "radius": np.array(float(radius))}
    return dict(core_fields, radius=np.array(float(radius)))


def _case(kind, rng, family, scale=1.0, spread=3.0):
    """Fields of one shape of ``kind`` (plain or rounded) for a family of cases."""
    core = _CORE.get(kind, kind)
    if family == "integer":
        f = base._integer_fields(core, rng)
        radius = float(rng.integers(0, 5)) * 0.5  # 0 now and then: the radius-0 rows of a batch
    else:
        f = base._real_fields(core, rng, scale, spread=spread)
        radius = float(rng.uniform(0.05, 1.0)) * scale
    if kind not in _CORE:
        return f
    return _rounded(kind, f, radius, point_core=kind == "Capsule" and rng.integers(0, 6) == 0)


def _moved(kind, fields, offset):
    return {k: (np.asarray(v) + offset if k in POSITIONS else v) for k, v in fields.items()}


def buildable(kind_a, fa, kind_b, fb):
    """Whether both shapes of a case build (the constructors refuse some random cases)."""
    try:
        build(kind_a, fa), build(kind_b, fb)
    except ValueError:
        return False
    return True


def pair_cases(kind_a, kind_b, rng):
    cases = []

    def add(fa, fb, family):
        if buildable(kind_a, fa, kind_b, fb):
            cases.append((fa, fb, family))

    for _ in range(8):
        add(_case(kind_a, rng, "integer"), _case(kind_b, rng, "integer"), "integer")
    for _ in range(4):
        add(_case(kind_a, rng, "random"), _case(kind_b, rng, "random"), "random")
    for _ in range(3):
        fa, fb = _case(kind_a, rng, "random"), _case(kind_b, rng, "random")
        con = c2.contact(build(kind_a, fa), build(kind_b, fb))
        if not (math.isfinite(con.separation) and np.all(np.isfinite(con.normal))):
            continue
        for extra in (0.0, 1e-12, -1e-12, 2.0**-52, -(2.0**-52)):
            add(fa, _moved(kind_b, fb, -(con.separation - extra) * np.asarray(con.normal)), "tangent")
    # containment both ways: a big shape around a small one
    big_a = _case(kind_a, rng, "random", scale=6.0, spread=0.0)
    small_b = _case(kind_b, rng, "random", scale=0.1, spread=0.2)
    add(big_a, small_b, "containment")
    add(_case(kind_a, rng, "random", scale=0.1, spread=0.2), _case(kind_b, rng, "random", scale=6.0, spread=0.0), "containment")
    if kind_a == kind_b:
        fr = _case(kind_a, rng, "random")
        add(fr, {k: np.copy(v) for k, v in fr.items()}, "identical")
    # aspect 1e4: a long thin core
    for kind, other in ((kind_a, kind_b), (kind_b, kind_a)):
        core = _CORE.get(kind, kind)
        thin = base._fields(core, (0.0, 0.0), 1e2, 1e-4, 0.3)
        thin = _rounded(kind, thin, 1e-2) if kind in _CORE else thin
        pair = (thin, _case(other, rng, "random", spread=1.0))
        add(*(pair if kind is kind_a else pair[::-1]), "aspect")
    for scale in (1e-150, 1e150):
        add(_case(kind_a, rng, "random", scale, spread=1.0), _case(kind_b, rng, "random", scale, spread=1.0), "extreme")
    return cases


def _stack(kind, field_list):
    return {name: np.stack([np.asarray(f[name], dtype=np.float64) for f in field_list]) for name in FIELDS[kind]}


def pairs():
    out = []
    for i, ka in enumerate(ROUNDED):
        out += [(ka, kb) for kb in PLAIN]
        out += [(ka, kb) for kb in ROUNDED[i:]]
    return out


def make_inputs():
    rng = np.random.default_rng(SEED)
    inputs = {}
    for ka, kb in pairs():
        cases = pair_cases(ka, kb, rng)
        for side, kind, column in (("A", ka, 0), ("B", kb, 1)):
            inputs.update({f"pair|{ka}|{kb}|{side}|{name}": value
                           for name, value in _stack(kind, [c[column] for c in cases]).items()})
        inputs[f"pair|{ka}|{kb}|family"] = np.array([c[2] for c in cases])
    kinds = ROUNDED + PLAIN
    for k in range(80):
        kind = kinds[k % len(kinds)]
        fields = _case(kind, rng, "integer" if k % 2 else "random", spread=6.0)
        inputs[f"coll|{k}|kind"] = np.array(kind)
        for name in FIELDS[kind]:
            inputs[f"coll|{k}|{name}"] = np.asarray(fields[name], dtype=np.float64)
    return inputs


def _row(fields, kind, i):
    return build(kind, {name: fields[name][i] for name in FIELDS[kind]})


def evaluate(inputs):
    ans = base.Answers()
    for ka, kb in pairs():
        fa, fb = ({name: inputs[f"pair|{ka}|{kb}|{side}|{name}"] for name in FIELDS[kind]}
                  for side, kind in (("A", ka), ("B", kb)))
        a, b = build(ka, fa), build(kb, fb)
        singles = [(_row(fa, ka, k), _row(fb, kb, k)) for k in range(len(inputs[f"pair|{ka}|{kb}|family"]))]
        for order, (x, y, rows) in enumerate(((a, b, singles), (b, a, [(q, p) for p, q in singles]))):
            tag = f"{ka}-{kb}" if order == 0 else f"{kb}-{ka}-swapped"
            for op in OPS:
                fn = getattr(c2, op)
                for how, args in (("batch", (x, y)), ("bcast", (x[np.array([[0], [1], [2]])], y[np.arange(3, 7)])),
                                  ("single-vs-batch", (x[4], y))):
                    result = ans.guard(f"{op}|{tag}|{how}", fn, *args)
                    if result is not None:
                        base._put_result(ans, f"{op}|{tag}|{how}", result)
                ans.put_single(f"{op}|{tag}|single", [base.attempt(fn, p, q) for p, q in rows])
    k, coll = 0, []
    while f"coll|{k}|kind" in inputs:
        kind = str(inputs[f"coll|{k}|kind"])
        coll.append(build(kind, {name: inputs[f"coll|{k}|{name}"] for name in FIELDS[kind]}))
        k += 1
    for predicate in base.QUERY_PREDICATES:
        base._guarded_put(ans, f"query_pairs|{predicate}", c2.query_pairs, coll, predicate=predicate)
    for limit in (0.0, 0.5, 3.0):
        base._guarded_put(ans, f"max_distance|{limit}", c2.query_pairs, coll, predicate=None, max_distance=limit)
    base._guarded_put(ans, "measure_pairs", c2.measure_pairs, coll, c2.query_pairs(coll))
    return ans.out


def main(argv=None):
    """``answer_corpus``'s record and compare, on this corpus."""
    base.make_inputs = make_inputs
    base.evaluate = lambda inputs: (evaluate(inputs), {})
    return base.main(argv)


if __name__ == "__main__":
    sys.exit(main())
