"""Record and compare the answers of ``time_of_impact`` for translating rounded shapes, bit for bit.

The translating share of :mod:`rounded_overlay_corpus` (whose cases are mostly overlapping at
the start), with the cases a time of impact turns on: capsules, rounded boxes, rounded rotated
boxes and rounded polygons against each other and against every kind, both orders, single calls
and one batch per pair and ``t_max``; ``b`` sent at ``a`` (through its middle, off to a side,
grazing at the sum of the radii, parallel faces sliding), touching or overlapping at the start,
moving away or standing still, magnitudes 1e-150 and 1e149 to 1e150, sizes 1e6 apart, ``t_max`` 1.5 and
inf::

    PYTHONPATH=$PWD/src python tools/rounded_motion_corpus.py record /tmp/rounded-motion-main.npz
    PYTHONPATH=$PWD/src python tools/rounded_motion_corpus.py compare /tmp/rounded-motion-main.npz
"""

from __future__ import annotations

import math
import pathlib
import sys

import numpy as np

import collide2d as c2

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import answer_corpus as base  # noqa: E402 (tools/ is on sys.path)
import rounded_overlay_corpus as overlay  # noqa: E402 (the rounded kinds' cases)
from rounded_corpus import build, buildable  # noqa: E402

ROUNDED = overlay.ROUNDED
FIELDS = overlay.FIELDS
SEED = 20261128 + 27
T_MAX = (1.5, math.inf)


def _extent(shape):
    """The middle of a shape's bounds and their larger side (a line: its point, and 0)."""
    box = np.asarray(shape.bounds, dtype=float).reshape(2, 2)
    if not np.all(np.isfinite(box)):
        return np.asarray(shape.point, dtype=float), 0.0
    return box.mean(0), float(np.ptp(box, 0).max())


def _aimed(kind_a, fa, kind_b, fb, rng, family, aim=0.0):
    """``b`` moved to about 4 sizes from ``a`` and sent back at it with speed about 3 per unit of
    time, aimed ``aim`` (a fraction of the sizes) off the line of their centres."""
    if not buildable(kind_a, fa, kind_b, fb):
        return None
    (ca, size_a), (cb, size_b) = _extent(build(kind_a, fa)), _extent(build(kind_b, fb))
    size = size_a + size_b
    if not size > 0.0:
        return None
    direction = rng.normal(size=2)
    direction /= np.hypot(*direction)
    offset = ca + 2.0 * size * direction - cb
    side = np.array([-direction[1], direction[0]]) * aim * size
    try:
        moved = overlay._moved(kind_b, fb, offset)
    except ValueError:  # (beyond the supported range of coordinates)
        return None
    return fa, moved, (-direction * 3.0 + side * 3.0 / (2.0 * size)) * size / 2.0, family


def _grazing(kind_a, fa, kind_b, fb, rng):
    """``b`` sent past ``a`` so that it passes at the contact distance (a graze), found by moving it
    along the normal of their closest approach."""
    found = _aimed(kind_a, fa, kind_b, fb, rng, "graze", aim=0.8)
    if found is None:
        return []
    fa, fb, v, _ = found
    a, b = build(kind_a, fa), build(kind_b, fb)  # (buildable: _aimed checked)
    hit = c2.time_of_impact(a, b, velocity_b=v)
    if math.isfinite(hit.time):  # pass b sideways until it just touches: the closest approach
        return []
    t = np.linspace(0.0, 4.0, 801)
    moved = [c2.distance(a, c2.translate(b, v * s)) for s in t]
    s = float(t[int(np.argmin(moved))])
    con = c2.contact(a, c2.translate(b, v * s))
    if not (math.isfinite(con.separation) and np.all(np.isfinite(con.normal))):
        return []
    out = []
    for gap in (0.0, 1e-12, -1e-12):
        out.append((fa, overlay._moved(kind_b, fb, -(con.separation - gap) * np.asarray(con.normal)), v, "graze"))
    return out


def pair_cases(kind_a, kind_b, rng):
    """Cases of one unordered kind pair: ``(fields_a, fields_b, velocity_b, family)``, those that build."""
    cases = []
    for _ in range(6):
        found = _aimed(kind_a, overlay._real(kind_a, rng), kind_b, overlay._real(kind_b, rng), rng, "aimed",
                       aim=float(rng.uniform(-0.6, 0.6)))
        cases.append(found)
    for _ in range(3):
        cases.append(_aimed(kind_a, overlay._integer(kind_a, rng), kind_b, overlay._integer(kind_b, rng), rng, "integer"))
    for _ in range(2):
        cases += _grazing(kind_a, overlay._real(kind_a, rng), kind_b, overlay._real(kind_b, rng), rng)
    for fa, fb, family in [c for c in overlay._tangent(kind_a, kind_b, rng) if buildable(kind_a, c[0], kind_b, c[1])][:2]:  # touching at the start, or nearly
        cases.append((fa, fb, rng.uniform(-3.0, 3.0, 2), family))
    found = _aimed(kind_a, overlay._real(kind_a, rng), kind_b, overlay._real(kind_b, rng), rng, "away")
    if found is not None:
        cases += [(found[0], found[1], -found[2], "away"), (found[0], found[1], np.zeros(2), "still")]
    fa = overlay._fields(kind_a, (0.0, 0.0), 1.0, 0.5, 0.0, 0.25)  # faces sliding: axis-aligned, moving along x
    fb = overlay._fields(kind_b, (4.0, 0.9), 1.0, 0.5, 0.0, 0.25)
    cases += [(fa, fb, np.array([-2.0, 0.0]), "sliding"), (fa, fb, np.array([-2.0, -0.01]), "sliding")]
    for scale in (1e-150, 1e149):  # (b sent from 4 sizes away: coordinates up to about 1e150)
        found = _aimed(kind_a, overlay._real(kind_a, rng, scale, spread=1.0), kind_b,
                       overlay._real(kind_b, rng, scale, spread=1.0), rng, "extreme", aim=0.2)
        cases.append(found)
    for small in (kind_a, kind_b):  # sizes 1e6 apart
        fa = overlay._fields(kind_a, (0.0, 0.0), 1e3 if small is kind_b else 1e-3, 0.7, 0.3, 0.2)
        fb = overlay._fields(kind_b, (0.0, 0.0), 1e-3 if small is kind_b else 1e3, 0.6, 1.1, 0.3)
        cases.append(_aimed(kind_a, fa, kind_b, fb, rng, "ratio", aim=0.1))
    return [c for c in cases if c is not None and buildable(kind_a, c[0], kind_b, c[1])]


def make_inputs():
    rng = np.random.default_rng(SEED)
    inputs = {}
    for kind_a, kind_b in overlay._pairs():
        cases = [(fa, fb, family, v) for fa, fb, v, family in pair_cases(kind_a, kind_b, rng)]
        overlay.store_cases(inputs, kind_a, kind_b, cases)
        inputs[f"pair|{kind_a}|{kind_b}|velocity"] = np.array([np.asarray(c[3], dtype=float) for c in cases])
    return inputs


def evaluate(inputs):
    ans = base.Answers()
    for kind_a, kind_b in overlay._pairs():
        a, b = overlay._shapes(inputs, kind_a, kind_b, "A", kind_a), overlay._shapes(inputs, kind_a, kind_b, "B", kind_b)
        ra, rb = overlay._rows(inputs, kind_a, kind_b, "A", kind_a), overlay._rows(inputs, kind_a, kind_b, "B", kind_b)
        velocity = inputs[f"pair|{kind_a}|{kind_b}|velocity"]
        for order, (x, y, xs, ys, sign) in (("ab", (a, b, ra, rb, 1.0)), ("ba", (b, a, rb, ra, -1.0))):
            for t_max in T_MAX:
                tag = f"{kind_a}|{kind_b}|{order}|{t_max}"
                v = velocity * sign  # (b's velocity when b is given first: a's, reversed, the same relative motion)
                base._guarded_put(ans, f"time_of_impact|{tag}|batch", c2.time_of_impact, x, y, velocity_b=v, t_max=t_max)
                ans.put_single(f"time_of_impact|{tag}|single",
                               [base.attempt(c2.time_of_impact, p, q, velocity_b=w, t_max=t_max) for p, q, w in zip(xs, ys, v)])
    return ans.out


def main(argv=None):
    """``record FILE`` or ``compare FILE``: the command line of :mod:`answer_corpus`, on this corpus."""
    base.make_inputs, base.evaluate = make_inputs, lambda inputs: (evaluate(inputs), None)
    return base.main(argv)


if __name__ == "__main__":
    sys.exit(main())
