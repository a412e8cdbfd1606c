"""Record and compare the answers of every public operation, bit for bit.

A refactor must change no answer. This tool computes the answers of collide2d's public API over a
fixed, seeded corpus of inputs and stores them, float bits included; ``compare`` recomputes them
with whatever ``collide2d`` is on the path and reports, per operation, how many answers differ.

Usage (any checkout, its own ``PYTHONPATH``)::

    PYTHONPATH=$PWD/src python tools/answer_corpus.py record /work/corpus/main-XXXXXXX.npz
    PYTHONPATH=$PWD/src python tools/answer_corpus.py compare /work/corpus/main-XXXXXXX.npz

The inputs are stored beside the answers, so ``compare`` evaluates exactly the recorded inputs even
where the corpus was built with the library's help (near-tangent pairs are made touching with
``contact`` and ``translate``). Only the public API is used.

The corpus: every unordered pair of the eight kinds, evaluated in both orders, as single shapes
(scalar path), as one batch of all cases of the pair, and as a broadcast (3, 1) x (4,) batch; cases
are random small-integer data (many exact touches), random real data, near-tangent pairs (moved
into contact, then 1e-12 and 1 ulp apart or into each other), containment, identical or equal
regions, aspect ratios up to 1e4, and extreme magnitudes (1e-150, 1e150 and both in one pair).
Per kind: ``raycast``, ``closest_point``, ``contains_xy``, ``intersects_xy``, ``area``, ``length``,
``centroid``. Collections: ``query_pairs``/``query`` for every predicate, ``max_distance`` and
every backend, ``Index`` queries, ``measure_pairs``, ``query_nearest``. Motion: ``time_of_impact``
on translating and turning pairs. Errors: type and message of a few bad inputs.

Comparison is on the bits (``float64.view(int64)``: NaN-safe, -0.0 differs from 0.0), the dtype
and the shape of every answer; for single-pair calls also the Python type of the result.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time

import numpy as np

import collide2d as c2

KINDS = ("Point", "Circle", "Ellipse", "Box", "RotatedBox", "Polygon", "Segment", "Line")
FIELDS = {
    "Point": ("xy",),
    "Circle": ("center", "radius"),
    "Ellipse": ("center", "radii", "angle"),
    "Box": ("min", "max"),
    "RotatedBox": ("center", "half_size", "angle"),
    "Polygon": ("vertices",),
    "Segment": ("start", "end"),
    "Line": ("point", "direction"),
}
PAIR_PREDICATES = ("relate", "intersects", "disjoint", "touches", "overlaps", "contains", "within",
                   "covers", "covered_by", "equals", "distance", "overlap_area", "iou")
CONTACT_FIELDS = ("separation", "normal", "point_a", "point_b", "curvature_a", "curvature_b")
QUERY_PREDICATES = (None, "intersects", "touches", "overlaps", "contains", "within", "equals")
SEED = 20261127

# ---------------------------------------------------------------------------------------------
# Inputs: each case is a dict of fields (numbers only); shapes are built from it.


def _fields(kind, center, size, aspect=1.0, angle=0.0, phases=None):
    """Fields of a shape of ``kind`` around ``center`` with size ``size`` and ``aspect`` (minor/major)."""
    cx, cy = float(center[0]), float(center[1])
    s, t = float(size), float(size) * float(aspect)
    c, d = math.cos(angle), math.sin(angle)
    if kind == "Point":
        return {"xy": np.array([cx, cy])}
    if kind == "Circle":
        return {"center": np.array([cx, cy]), "radius": np.array(s)}
    if kind == "Ellipse":
        return {"center": np.array([cx, cy]), "radii": np.array([s, t]), "angle": np.array(angle)}
    if kind == "Box":
        return {"min": np.array([cx - s, cy - t]), "max": np.array([cx + s, cy + t])}
    if kind == "RotatedBox":
        return {"center": np.array([cx, cy]), "half_size": np.array([s, t]), "angle": np.array(angle)}
    if kind == "Polygon":
        phases = np.array([0.0, 1.7, 3.3, 4.6]) if phases is None else np.sort(phases)
        x, y = s * np.cos(phases), t * np.sin(phases)
        return {"vertices": np.stack([cx + c * x - d * y, cy + d * x + c * y], axis=-1)}
    if kind == "Segment":
        return {"start": np.array([cx - s * c, cy - s * d]), "end": np.array([cx + s * c, cy + s * d])}
    if kind == "Line":
        return {"point": np.array([cx, cy]), "direction": np.array([s * c, s * d])}
    raise KeyError(kind)


_INTEGER_QUADS = np.array([
    [(0, 0), (2, 0), (2, 1), (0, 1)],
    [(0, 0), (1, -1), (2, 0), (1, 2)],
    [(-1, 0), (0, -2), (1, 0), (0, 1)],
    [(0, 0), (3, 0), (2, 2), (1, 2)],
    [(0, 0), (1, 0), (1, 1), (0, 3)],
], dtype=np.float64)


def _integer_fields(kind, rng):
    """Small-integer data: exact touches, shared edges and degenerate contacts are frequent."""
    def ipair(lo=-3, hi=3):
        return rng.integers(lo, hi + 1, size=2).astype(np.float64)

    quarter = float(rng.integers(0, 4)) * (math.pi / 2)
    if kind == "Point":
        return {"xy": ipair()}
    if kind == "Circle":
        return {"center": ipair(), "radius": np.array(float(rng.integers(1, 4)))}
    if kind == "Ellipse":
        return {"center": ipair(), "radii": rng.integers(1, 4, size=2).astype(np.float64), "angle": np.array(quarter)}
    if kind == "Box":
        lo = ipair()
        return {"min": lo, "max": lo + rng.integers(1, 4, size=2)}
    if kind == "RotatedBox":
        return {"center": ipair(), "half_size": rng.integers(1, 3, size=2).astype(np.float64), "angle": np.array(quarter)}
    if kind == "Polygon":
        return {"vertices": _INTEGER_QUADS[rng.integers(0, len(_INTEGER_QUADS))] + ipair(-2, 2)}
    if kind == "Segment":
        start = ipair()
        end = start + np.array([1.0, 0.0]) * rng.integers(1, 4) + np.array([0.0, 1.0]) * rng.integers(-2, 3)
        return {"start": start, "end": end}
    if kind == "Line":
        direction = np.array([1.0, float(rng.integers(-2, 3))]) if rng.integers(0, 2) else np.array([0.0, 1.0])
        return {"point": ipair(), "direction": direction}
    raise KeyError(kind)


def _real_fields(kind, rng, scale=1.0, spread=3.0, aspect=None):
    aspect = float(rng.uniform(0.3, 1.0)) if aspect is None else aspect
    return _fields(kind, rng.uniform(-spread, spread, 2) * scale, rng.uniform(0.5, 2.0) * scale, aspect,
                   float(rng.uniform(0, 2 * math.pi)), rng.uniform(0, 2 * math.pi, 4))


def build(kind, fields):
    return getattr(c2, kind)(**{name: fields[name] for name in FIELDS[kind]})


def _moved(kind, fields, offset):
    """The fields of ``kind`` translated by ``offset`` (through the public ``translate``)."""
    shape = c2.translate(build(kind, fields), offset)
    return {name: np.array(getattr(shape, name), dtype=np.float64) for name in FIELDS[kind]}


def _try(kind_a, fa, kind_b, fb):
    """The pair if both shapes can be built (the supported range), else None."""
    try:
        build(kind_a, fa), build(kind_b, fb)
    except ValueError:
        return None
    return fa, fb


def pair_cases(kind_a, kind_b, rng):
    """Cases of one unordered kind pair: a list of (fields_a, fields_b, family)."""
    cases = []

    def add(fa, fb, family):
        if _try(kind_a, fa, kind_b, fb) is not None:
            cases.append((fa, fb, family))

    for _ in range(8):
        add(_integer_fields(kind_a, rng), _integer_fields(kind_b, rng), "integer")
    for _ in range(4):
        add(_real_fields(kind_a, rng), _real_fields(kind_b, rng), "random")
    # near-tangent: moved into contact along the contact normal, then a hair apart or into each other
    for _ in range(3):
        fa, fb = _real_fields(kind_a, rng), _real_fields(kind_b, rng)
        con = c2.contact(build(kind_a, fa), build(kind_b, fb))
        if not (math.isfinite(con.separation) and np.all(np.isfinite(con.normal))):
            continue
        for extra in (0.0, 1e-12, -1e-12, 2.0**-52):
            add(fa, _moved(kind_b, fb, -(con.separation - extra) * np.asarray(con.normal)), "tangent")
    # containment: a big a around a small b
    add(_fields(kind_a, (0.25, -0.5), 8.0, 0.7, 0.4), _fields(kind_b, (0.5, 0.25), 0.5, 0.8, 1.1), "containment")
    add(_fields(kind_a, (0.0, 0.0), 0.5, 0.8, 1.1), _fields(kind_b, (0.1, 0.1), 8.0, 0.7, 0.4), "containment")
    # identical (same kind) or the same region in another kind
    fa = _fields(kind_a, (1.0, -2.0), 1.5, 0.5, 0.0)
    same = _fields(kind_b, (1.0, -2.0), 1.5, 0.5, 0.0)
    add(fa, same, "identical")
    if kind_a == kind_b:
        fr = _real_fields(kind_a, rng)
        add(fr, {k: np.copy(v) for k, v in fr.items()}, "identical")
    # aspect up to 1e4
    add(_fields(kind_a, (0.0, 0.0), 1e2, 1e-4, 0.3), _real_fields(kind_b, rng, spread=1.0), "aspect")
    add(_real_fields(kind_a, rng, spread=1.0), _fields(kind_b, (0.5, 0.0), 1e4, 1e-4, 1.2), "aspect")
    # extreme magnitudes
    for scale in (1e-150, 1e150):
        add(_real_fields(kind_a, rng, scale, spread=1.0), _real_fields(kind_b, rng, scale, spread=1.0), "extreme")
    add(_fields(kind_a, (0.3e150, 0.0), 1e150, 0.5, 0.2), _fields(kind_b, (0.0, 0.0), 1e-150, 0.5, 0.7), "extreme")
    add(_fields(kind_a, (0.0, 0.0), 1e-150, 0.5, 0.7), _fields(kind_b, (1e-150, 0.0), 1e150, 0.25, 2.0), "extreme")
    return cases


def _stack(kind, field_list):
    return {name: np.stack([np.asarray(f[name], dtype=np.float64) for f in field_list]) for name in FIELDS[kind]}


def make_inputs():
    """Every input of the corpus as a flat dict of arrays (the keys say what they are)."""
    rng = np.random.default_rng(SEED)
    inputs = {}
    for i, kind_a in enumerate(KINDS):
        for kind_b in KINDS[i:]:
            cases = pair_cases(kind_a, kind_b, rng)
            for name, value in _stack(kind_a, [c[0] for c in cases]).items():
                inputs[f"pair|{kind_a}|{kind_b}|A|{name}"] = value
            for name, value in _stack(kind_b, [c[1] for c in cases]).items():
                inputs[f"pair|{kind_a}|{kind_b}|B|{name}"] = value
            inputs[f"pair|{kind_a}|{kind_b}|family"] = np.array([c[2] for c in cases])
    for kind in KINDS:  # single-kind operations
        shapes = [_integer_fields(kind, rng) for _ in range(4)] + [_real_fields(kind, rng) for _ in range(4)]
        shapes += [_fields(kind, (0.0, 0.0), 1e2, 1e-4, 0.3), _fields(kind, (0.0, 0.0), 1e-150, 0.5, 0.3),
                   _fields(kind, (1e150, 0.0), 1e150, 0.5, 0.3)]
        for name, value in _stack(kind, shapes).items():
            inputs[f"kind|{kind}|{name}"] = value
        n = len(shapes)
        extent = np.array([1.0] * 8 + [1e2, 1e-150, 1e150])
        inputs[f"kind|{kind}|xy"] = rng.uniform(-3, 3, (n, 2)) * extent[:, None]
        inputs[f"kind|{kind}|origin"] = rng.uniform(-3, 3, (n, 2)) * extent[:, None]
        direction = rng.normal(size=(n, 2))
        direction[0] = (1.0, 0.0)
        direction[1] = (0.0, -1.0)
        inputs[f"kind|{kind}|direction"] = direction
        inputs[f"kind|{kind}|max_distance"] = np.where(np.arange(n) % 3 == 0, 2.5 * extent, np.inf)
    # a mixed collection for the broad phase: every kind, integer and real data
    coll = []
    for k in range(96):
        kind = KINDS[k % len(KINDS)]
        coll.append((kind, _integer_fields(kind, rng) if k % 2 else _real_fields(kind, rng, spread=8.0)))
    for kind in KINDS:
        rows = [f for kk, f in coll if kk == kind]
        for name, value in _stack(kind, rows).items():
            inputs[f"coll|{kind}|{name}"] = value
    inputs["coll|order"] = np.array([KINDS.index(kk) for kk, _ in coll])
    return inputs


# ---------------------------------------------------------------------------------------------
# Answers


class Failure:
    """The exception of one single call (its type and message are the answer)."""

    def __init__(self, error):
        self.message = f"{type(error).__name__}: {error}"


def attempt(function, *args, **kwargs):
    try:
        return function(*args, **kwargs)
    except Exception as error:  # noqa: BLE001 - an error is an answer too
        return Failure(error)


class Answers:
    def __init__(self):
        self.out = {}

    def put(self, key, value):
        self.out[key] = np.asarray(value)

    def put_single(self, key, values):
        """Results of single calls: their types and shapes, and their values concatenated as float64."""
        meta, flat = [], []
        for value in values:
            if isinstance(value, Failure):
                meta.append(f"error:{value.message}")
            elif isinstance(value, tuple) and hasattr(value, "_fields"):  # a named tuple of fields
                meta.append(type(value).__name__ + ":" + ",".join(f"{type(v).__name__}{np.shape(v)}" for v in value))
                flat.extend(np.asarray(v, dtype=np.float64).ravel() for v in value)
            else:
                meta.append(f"{type(value).__name__}{np.shape(value)}")
                flat.append(np.asarray(value, dtype=np.float64).ravel())
        self.out[key + "|meta"] = np.array(meta)
        self.out[key] = np.concatenate(flat) if flat else np.zeros(0)

    def guard(self, key, function, *args, **kwargs):
        """``function(*args)``, or the exception's type and message stored under ``key|error``."""
        try:
            return function(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 - an error is an answer too
            self.out[key + "|error"] = np.array(f"{type(error).__name__}: {error}")
            return None


def _kind_shapes(inputs, prefix, kind):
    return build(kind, {name: inputs[f"{prefix}|{name}"] for name in FIELDS[kind]})


def _row(fields_batch, kind, i):
    return build(kind, {name: fields_batch[name][i] for name in FIELDS[kind]})


def _put_result(ans, key, value):
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        for name in value._fields:
            ans.put(f"{key}.{name}", getattr(value, name))
    elif isinstance(value, tuple):
        for k, item in enumerate(value):
            ans.put(f"{key}.{k}", item)
    else:
        ans.put(key, value)


def _pair_ops(ans, tag, a, b, single_rows):
    """Every pair operation of batches ``a``, ``b`` (whole and broadcast) and of the single rows."""
    for op in PAIR_PREDICATES + ("contact", "intersection_points"):
        fn = getattr(c2, op)
        result = ans.guard(f"{op}|{tag}|batch", fn, a, b)
        if result is not None:
            _put_result(ans, f"{op}|{tag}|batch", result)
        if single_rows:
            values = []
            for x, y in single_rows:
                values.append(attempt(fn, x, y))
            ans.put_single(f"{op}|{tag}|single", values)


def evaluate(inputs):
    ans = Answers()
    timings = {}
    # -- pairs of kinds, both orders
    for i, kind_a in enumerate(KINDS):
        for kind_b in KINDS[i:]:
            t0 = time.perf_counter()
            fa = {name: inputs[f"pair|{kind_a}|{kind_b}|A|{name}"] for name in FIELDS[kind_a]}
            fb = {name: inputs[f"pair|{kind_a}|{kind_b}|B|{name}"] for name in FIELDS[kind_b]}
            a, b = build(kind_a, fa), build(kind_b, fb)
            n = len(inputs[f"pair|{kind_a}|{kind_b}|family"])
            singles = [(_row(fa, kind_a, k), _row(fb, kind_b, k)) for k in range(n)]
            for order, (x, y, rows) in enumerate(((a, b, singles), (b, a, [(q, p) for p, q in singles]))):
                names = (kind_a, kind_b) if order == 0 else (kind_b, kind_a)
                tag = f"{names[0]}-{names[1]}" + ("-swapped" if order and kind_a == kind_b else "")
                _pair_ops(ans, tag, x, y, rows)
                # broadcasting: (3, 1) against (4,), from the first rows
                xb = x[np.array([[0], [1], [2]])]
                yb = y[np.arange(3, 7)]
                for op in ("relate", "intersects", "contains", "distance", "contact", "overlap_area", "intersection_points"):
                    result = ans.guard(f"{op}|{tag}|bcast", getattr(c2, op), xb, yb)
                    if result is not None:
                        _put_result(ans, f"{op}|{tag}|bcast", result)
                    result = ans.guard(f"{op}|{tag}|single-vs-batch", getattr(c2, op), x[4], y)
                    if result is not None:
                        _put_result(ans, f"{op}|{tag}|single-vs-batch", result)
                # Perram-Wertheim on the conic pairs
                if {kind_a, kind_b} <= {"Circle", "Ellipse"}:
                    result = ans.guard(f"perram_wertheim|{tag}|batch", c2.perram_wertheim, x, y)
                    if result is not None:
                        _put_result(ans, f"perram_wertheim|{tag}|batch", result)
                    values = [attempt(c2.perram_wertheim, p, q) for p, q in rows]
                    ans.put_single(f"perram_wertheim|{tag}|single", values)
                # motion: translating and turning, the first rows of the integer and random families
                picks = [0, 1, 8, 9]
                va, vb = np.array([[1.0, 0.5], [0.0, 0.0], [-2.0, 1.0], [0.5, -0.5]]), np.array([[-1.0, 0.0], [0.0, 3.0], [2.0, 2.0], [0.0, 0.0]])
                wa, wb = np.array([0.0, 1.5, 0.0, -2.0]), np.array([0.0, 0.0, 0.0, 1.0])
                picks = [p for p in picks if p < n]
                values = []
                for k, p in enumerate(picks):
                    p_a, p_b = rows[p]
                    values.append(attempt(c2.time_of_impact, p_a, p_b, va[k], vb[k],
                                          angular_velocity_a=wa[k], angular_velocity_b=wb[k], t_max=2.0))
                ans.put_single(f"time_of_impact|{tag}|single", values)
                idx = np.array(picks)
                k = len(picks)
                result = ans.guard(f"time_of_impact|{tag}|batch", c2.time_of_impact, x[idx], y[idx], va[:k], vb[:k],
                                   angular_velocity_a=wa[:k], angular_velocity_b=wb[:k], t_max=2.0)
                if result is not None:
                    _put_result(ans, f"time_of_impact|{tag}|batch", result)
            timings[f"{kind_a}-{kind_b}"] = time.perf_counter() - t0
    # -- single kinds
    for kind in KINDS:
        shapes = _kind_shapes(inputs, f"kind|{kind}", kind)
        xy, origin = inputs[f"kind|{kind}|xy"], inputs[f"kind|{kind}|origin"]
        direction, limit = inputs[f"kind|{kind}|direction"], inputs[f"kind|{kind}|max_distance"]
        n = len(xy)
        for op, args in (("closest_point", (xy,)), ("contains_xy", (xy,)), ("intersects_xy", (xy,)),
                         ("area", ()), ("length", ()), ("centroid", ())):
            fn = getattr(c2, op)
            result = ans.guard(f"{op}|{kind}|batch", fn, shapes, *args)
            if result is not None:
                _put_result(ans, f"{op}|{kind}|batch", result)
            values = [attempt(fn, shapes[k], *(arg[k] for arg in args)) for k in range(n)]
            ans.put_single(f"{op}|{kind}|single", values)
        result = ans.guard(f"raycast|{kind}|batch", c2.raycast, shapes, origin, direction, max_distance=limit)
        if result is not None:
            _put_result(ans, f"raycast|{kind}|batch", result)
        values = [attempt(c2.raycast, shapes[k], origin[k], direction[k], max_distance=limit[k]) for k in range(n)]
        ans.put_single(f"raycast|{kind}|single", values)
        # one shape, many rays (the broadcast path)
        result = ans.guard(f"raycast|{kind}|fan", c2.raycast, shapes[3], origin[:8], direction[:8])
        if result is not None:
            _put_result(ans, f"raycast|{kind}|fan", result)
    # -- collections
    order = inputs["coll|order"]
    per_kind = {kind: _kind_shapes(inputs, f"coll|{kind}", kind) for kind in KINDS}
    seen = dict.fromkeys(KINDS, 0)
    coll = []
    for code in order:
        kind = KINDS[code]
        coll.append(per_kind[kind][seen[kind]])
        seen[kind] += 1
    first, second = coll[:60], coll[40:]
    for predicate in QUERY_PREDICATES:
        for backend in ("brute", "grid", "sweep"):
            _guarded_put(ans, f"query_pairs|{predicate}|{backend}", c2.query_pairs, coll, predicate=predicate, backend=backend)
        _guarded_put(ans, f"query|{predicate}", c2.query, first, second, predicate=predicate)
    for limit in (0.0, 0.5, 3.0):
        _guarded_put(ans, f"max_distance|query_pairs|{limit}", c2.query_pairs, coll, predicate=None, max_distance=limit)
        _guarded_put(ans, f"max_distance|query|{limit}", c2.query, first, second, predicate=None, max_distance=limit)
    bounded = [s for s in coll if not isinstance(s, c2.Line)]  # a periodic box holds no line
    _guarded_put(ans, "query_pairs|periodic", c2.query_pairs, bounded, periodic=(20.0, 20.0), return_shifts=True)
    pairs = c2.query_pairs(coll)
    _guarded_put(ans, "measure_pairs|plain", c2.measure_pairs, coll, pairs)
    pp, shifts = c2.query_pairs(bounded, periodic=(20.0, 20.0), return_shifts=True)
    _guarded_put(ans, "measure_pairs|periodic", c2.measure_pairs, bounded, pp, shifts=shifts)
    index = c2.Index(coll)
    for predicate in ("intersects", "contains", "touches"):
        _guarded_put(ans, f"Index.query_pairs|{predicate}", index.query_pairs, predicate)
        _guarded_put(ans, f"Index.query|{predicate}", index.query, first, predicate)
    _guarded_put(ans, "Index.query_nearest", index.query_nearest, first, return_distance=True)
    _guarded_put(ans, "query_nearest|all", c2.query_nearest, coll, first, return_distance=True)
    _guarded_put(ans, "query_nearest|exclusive", c2.query_nearest, coll, coll, return_distance=True, exclusive=True)
    _guarded_put(ans, "query_nearest|limited", c2.query_nearest, coll, first, max_distance=1.0, return_distance=True, all_matches=False)
    # -- bad inputs: the exception type and message
    circle = c2.Circle((0, 0), 1)
    bad = {
        "relate-int": lambda: c2.relate(1, circle),
        "circle-negative": lambda: c2.Circle((0, 0), -1),
        "ellipse-nan": lambda: c2.Ellipse((0, 0), (1, math.nan)),
        "box-inverted": lambda: c2.Box((1, 1), (0, 0)),
        "polygon-two": lambda: c2.Polygon([(0, 0), (1, 0)]),
        "segment-range": lambda: c2.Segment((0, 0), (1e200, 0)),
        "broadcast": lambda: c2.intersects(c2.Circle(np.zeros((3, 2)), np.ones(3)), c2.Circle(np.zeros((4, 2)), np.ones(4))),
        "raycast-zero": lambda: c2.raycast(circle, (0, 0), (0, 0)),
        "query-predicate": lambda: c2.query_pairs([circle, circle], predicate="nearby"),
        "toi-tmax": lambda: c2.time_of_impact(circle, circle, t_max=-1.0),
        "closest-xy": lambda: c2.closest_point(circle, (1, 2, 3)),
        "pw-box": lambda: c2.perram_wertheim(circle, c2.Box((0, 0), (1, 1))),
        "measure-pairs": lambda: c2.measure_pairs([circle], np.array([[0], [3]])),
    }
    for name, call in bad.items():
        if ans.guard(f"error|{name}", call) is not None:
            ans.put(f"error|{name}|noerror", True)
    return ans.out, timings


def _guarded_put(ans, key, fn, *args, **kwargs):
    result = ans.guard(key, fn, *args, **kwargs)
    if result is not None:
        _put_result(ans, key, result)


# ---------------------------------------------------------------------------------------------


def _bits(value):
    value = np.asarray(value)
    if value.dtype.kind == "f":
        return value.astype(np.float64).view(np.int64)
    if value.dtype.kind in "US":
        return value
    return value


def differences(expected, got):
    """Per operation: (number of answers compared, number differing, first few differing keys/indices)."""
    report = {}
    for key in sorted(set(expected) | set(got)):
        if key.startswith(("pair|", "kind|", "coll|")):
            continue
        op = key.split("|")[0].rstrip("0123456789").rstrip(".")
        total, bad, examples = report.setdefault(op, [0, 0, []])
        if key not in expected or key not in got:
            report[op][0] += 1
            report[op][1] += 1
            examples.append(f"{key}: {'missing now' if key not in got else 'new (not recorded)'}")
            continue
        e, g = np.asarray(expected[key]), np.asarray(got[key])
        if e.shape != g.shape or e.dtype != g.dtype:
            report[op][0] += max(e.size, 1)
            report[op][1] += max(e.size, 1)
            examples.append(f"{key}: {e.dtype}{e.shape} recorded, {g.dtype}{g.shape} now")
            continue
        differ = np.asarray(_bits(e) != _bits(g)).reshape(-1)
        report[op][0] += differ.size
        count = int(np.count_nonzero(differ))
        if count:
            report[op][1] += count
            where = np.flatnonzero(differ)[:3]
            ef, gf = e.reshape(-1), g.reshape(-1)
            examples.append(f"{key}[{', '.join(map(str, where))}]: " + "; ".join(f"{ef[w]!r} -> {gf[w]!r}" for w in where))
    return report


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("command", choices=("record", "compare"))
    parser.add_argument("file")
    parser.add_argument("--examples", type=int, default=3, help="differing answers shown per operation")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    if args.command == "record":
        inputs = make_inputs()
        answers, _ = evaluate(inputs)
        np.savez_compressed(args.file, **inputs, **answers)
        print(f"recorded {len(answers)} answer arrays ({sum(np.asarray(v).size for v in answers.values())} values) "
              f"from {c2.__file__} in {time.perf_counter() - start:.1f} s into {args.file}")
        return 0
    with np.load(args.file, allow_pickle=False) as data:
        stored = {key: data[key] for key in data.files}
    inputs = {k: v for k, v in stored.items() if k.startswith(("pair|", "kind|", "coll|"))}
    answers, _ = evaluate(inputs)
    report = differences(stored, answers)
    total_bad = 0
    for op, (total, bad, examples) in sorted(report.items()):
        total_bad += bad
        print(f"{op:22s} {bad:6d} of {total:7d} differ")
        for line in examples[: args.examples]:
            print("    " + line)
    print(f"{total_bad} differences in all ({c2.__file__}, {time.perf_counter() - start:.1f} s)")
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
