"""Time of impact of translating polygons (boxes, rotated boxes, 8- and 16-gons) through the rows
built in one compiled pass (``_kernels/motion/toi_rows.py``) and the direct path of single
calls (``search._single_polygon``): against the exact first contact in rationals
(``motion_references.py``: the ray against the Minkowski difference, written independently of
the kernels) on random pairs and hard cases (edges sliding along each other, vertex on vertex,
touching at 0, ``t_max = inf``), scaled by powers of two to 1.2e-150 and 6.4e148 (the exact
time does not change) and moved to 1e9; both orders, single and batched, and the single call
bit for bit the batch's row. Against curved kinds (no rational reference): the general path
(a ``_Motion`` of the NumPy construction) bit for bit, and the contact at the answer touching."""

import math

import numpy as np
import pytest

import collide2d as c2
from collide2d.motion import search
from motion_references import check, first_contact

SCALES = [(1.0, 0.0), (2.0**-498, 0.0), (2.0**494, 0.0), (1.0, 1e9)]  # (power of two, offset): 1.2e-150, 6.4e148


def _gon(centre, radius, k, phase, squash=1.0):
    angle = phase + np.linspace(0.0, 2.0 * np.pi, k, endpoint=False)
    return np.asarray(centre) + radius * np.stack([np.cos(angle), squash * np.sin(angle)], axis=-1)


def _shape(kind, centre, rng):
    if kind == "box":
        return c2.Box(centre - rng.uniform(0.3, 1.0, 2), centre + rng.uniform(0.3, 1.0, 2))
    if kind == "rotated":
        return c2.RotatedBox(centre, rng.uniform(0.3, 1.0, 2), float(rng.uniform(-3.0, 3.0)))
    if kind in ("8-gon", "16-gon"):
        return c2.Polygon(_gon(centre, rng.uniform(0.5, 2.0), int(kind[:-4]), rng.uniform(0.0, 1.0), rng.uniform(0.4, 1.0)))
    if kind == "segment":
        return c2.Segment(centre - rng.normal(size=2), centre + rng.normal(size=2))
    if kind == "line":
        return c2.Line(centre, rng.normal(size=2))
    return c2.Point(centre)


def _moved(shape, scale, offset):
    """The shape scaled by a power of two (exactly) and moved by ``(offset, offset)``."""
    name = type(shape).__name__
    fields = {key: np.asarray(value) for key, value in shape.fields.items()}
    for key in fields:
        if key not in ("angle", "direction"):
            fields[key] = fields[key] * scale
        if key in ("center", "min", "max", "vertices", "start", "end", "point", "xy") and offset:
            fields[key] = fields[key] + offset
    if name == "Line":
        return c2.Line(fields["point"], fields["direction"])
    return type(shape)(**fields)


def _bits(x):
    return np.ascontiguousarray(x).view(np.uint8).tobytes()


def _cases(kind_a, kind_b, rng, n):
    """Random pairs apart, ``a`` aimed at ``b`` with scatter (some pass by, some move away)."""
    cases = []
    for i in range(n):
        ca, cb = rng.normal(size=2), rng.normal(size=2) + rng.choice([-1.0, 1.0], 2) * 5.0
        a, b = _shape(kind_a, ca, rng), _shape(kind_b, cb, rng)
        aim = (cb - ca) * rng.uniform(0.2, 0.8)
        va = rng.normal(size=2) * 0.3 + (aim if i % 4 else -aim)
        cases.append((a, b, va, rng.normal(size=2) * 0.3, [2.0, math.inf, 0.5][i % 3]))
    return cases


def _hard():
    """Edges sliding along each other, vertex on vertex, grazes by 1e-15 and by 1 ulp, touching
    at 0, overlapping at 0, a miss by the smallest float: ``(a, b, va, vb)``."""
    box = c2.Box((0.0, 0.0), (1.0, 1.0))
    tri = c2.Polygon([(0.0, 0.0), (2.0, 0.0), (1.0, 1.0)])
    gon = c2.Polygon(_gon((0.0, 0.0), 1.0, 16, 0.0))
    top = float(np.asarray(gon.fields["vertices"])[:, 1].max())
    return [
        (box, c2.Box((2.0, 1.0), (3.0, 2.0)), (0.0, 0.0), (-1.0, 0.0)),  # edges sliding along y = 1
        (box, c2.Box((2.0, 1.0 + 1e-15), (3.0, 2.0)), (0.0, 0.0), (-1.0, 0.0)),  # a miss by 1e-15
        (box, c2.Box((2.0, np.nextafter(1.0, 2.0)), (3.0, 2.0)), (0.0, 0.0), (-1.0, 0.0)),  # by one ulp
        (box, c2.Box((2.0, 2.0), (3.0, 3.0)), (0.0, 0.0), (-1.0, -1.0)),  # corner on corner
        (box, c2.RotatedBox((3.0, 1.0 + math.sqrt(0.5)), (0.5, 0.5), math.pi / 4), (0.5, 0.0), (-0.5, 0.0)),  # a corner grazes
        (tri, c2.Polygon([(3.0, 1.0), (5.0, 1.0), (4.0, 2.0)]), (1.0, 0.0), (0.0, 0.0)),  # vertex past vertex
        (tri, c2.Point((3.0, 1.0)), (0.0, 0.0), (-1.0, -1e-17)),
        (tri, c2.Segment((3.0, 1.0), (5.0, 1.0)), (0.5, 0.0), (-0.5, 5e-324)),
        (gon, c2.Polygon(_gon((5.0, 2.0 * top), 1.0, 16, 0.0)), (1.0, 0.0), (-1.0, 0.0)),  # 16-gons sliding
        (box, c2.Box((1.0, 0.5), (2.0, 1.5)), (0.0, 0.0), (1.0, 0.0)),  # touching at 0, parting
        (box, c2.Box((1.0, 0.5), (2.0, 1.5)), (0.0, 0.0), (-1.0, 0.0)),  # touching at 0, closing
        (gon, c2.Polygon(_gon((1.5, 0.0), 1.0, 16, 0.3)), (0.0, 0.0), (1.0, 0.0)),  # overlapping at 0
        (gon, c2.Line((0.0, 3.0), (1.0, 0.0)), (0.0, 1.0), (0.0, 0.0)),
    ]


def _verify(a, b, va, vb, t_max):
    """Both orders, single calls and a batch of three copies: against the exact first contact,
    and the single call bit for bit the batch's row."""
    for x, y, vx, vy in ((a, b, va, vb), (b, a, vb, va)):
        exact = first_contact(x, y, tuple(vx), tuple(vy), t_max)
        single = c2.time_of_impact(x, y, tuple(map(float, vx)), tuple(map(float, vy)), t_max=t_max)
        check(single.time, exact, t_max)
        batch = c2.time_of_impact(c2.translate(x, np.zeros((3, 2))), y, np.tile(vx, (3, 1)), vy, t_max=t_max)
        for k in range(3):
            assert _bits(batch.time[k]) == _bits(single.time)
            assert _bits(batch.point[k]) == _bits(single.point) and _bits(batch.normal[k]) == _bits(single.normal)


PAIRS = [("16-gon", "16-gon"), ("8-gon", "box"), ("rotated", "16-gon"), ("box", "rotated"), ("16-gon", "segment"),
         ("8-gon", "point"), ("box", "line")]


@pytest.mark.parametrize("kinds", PAIRS, ids=["-".join(k) for k in PAIRS])
def test_random_polygon_pairs_against_exact_rationals(kinds):
    rng = np.random.default_rng(PAIRS.index(kinds) + 40)
    for a, b, va, vb, t_max in _cases(*kinds, rng, 6):
        for scale, offset in SCALES:
            _verify(_moved(a, scale, offset), _moved(b, scale, offset), va * scale, vb * scale, t_max)


def test_hard_polygon_cases_against_exact_rationals():
    for a, b, va, vb in _hard():
        for scale, offset in SCALES:
            for t_max in (3.0, math.inf):
                _verify(_moved(a, scale, offset), _moved(b, scale, offset), np.array(va) * scale, np.array(vb) * scale, t_max)


def _general(a, b, va, vb, t_max):
    """The general path: a ``_Motion`` of the NumPy construction and ``_impact_flat``."""
    n = t_max.size
    ia = np.arange(n) if a.shape else np.zeros(n, int)
    ib = np.arange(n) if b.shape else np.zeros(n, int)
    motion = search._Motion(a, b, ia, ib, va, vb, np.zeros(n), np.zeros(n))
    return search._impact_flat(motion, t_max)


@pytest.mark.parametrize("kinds", [("16-gon", "ellipse"), ("circle", "box"), ("16-gon", "16-gon"), ("rotated", "segment")])
def test_polygon_batches_match_the_general_path(kinds):
    """Batches through the compiled rows, and single calls through the direct path, bit for bit
    the general path's answers (the NumPy rows), at every magnitude, both orders; the shapes touch
    at each contact found (the exact-signed contact there, within the search's band)."""
    rng = np.random.default_rng(7)
    make = {"ellipse": lambda c: c2.Ellipse(c, rng.uniform(0.5, 2.0, 2), float(rng.uniform(-3, 3))),
            "circle": lambda c: c2.Circle(c, float(rng.uniform(0.5, 2.0)))}
    n = 16
    for scale, offset in SCALES:
        shapes = []
        for kind, shift in zip(kinds, (0.0, 4.0)):
            one = [make[kind](rng.normal(size=2) + shift) if kind in make else _shape(kind, rng.normal(size=2) + shift, rng)
                   for _ in range(n)]
            shapes.append([_moved(s, scale, offset) for s in one])
        va = (rng.normal(size=(n, 2)) + [4.0, 0.0]) * scale
        vb = rng.normal(size=(n, 2)) * scale
        t_max = np.where(np.arange(n) % 2 == 0, 2.0, np.inf)
        for xs, ys, vx, vy in ((shapes[0], shapes[1], va, vb), (shapes[1], shapes[0], vb, va)):
            x = _stack(xs)
            y = _stack(ys)
            found = c2.time_of_impact(x, y, vx, vy, t_max=t_max)
            expected = _general(x, y, vx, vy, t_max)
            for got, want in zip(found, expected):
                assert _bits(got) == _bits(want)
            for k in range(0, n, 5):
                one = c2.time_of_impact(xs[k], ys[k], tuple(vx[k].tolist()), tuple(vy[k].tolist()), t_max=float(t_max[k]))
                assert _bits(one.time) == _bits(found.time[k]) and _bits(one.point) == _bits(found.point[k])
                assert _bits(one.normal) == _bits(found.normal[k])
            hit = np.flatnonzero(np.isfinite(found.time) & (found.time > 0.0))
            if hit.size:
                at = c2.contact(c2.translate(x[hit], vx[hit] * found.time[hit, None]),
                                c2.translate(y[hit], vy[hit] * found.time[hit, None]))
                size = (4.0 + np.abs(vx[hit]).max() + 8.0) * scale + abs(offset)
                assert np.all(np.abs(at.separation) <= 1e-9 * size)


def _stack(shapes):
    """A batch of single shapes of one class (and one vertex count)."""
    kind = type(shapes[0])
    fields = {key: np.stack([np.asarray(s.fields[key]) for s in shapes]) for key in shapes[0].fields}
    if kind is c2.Line:
        return c2.Line(fields["point"], fields["direction"])
    return kind(**fields)
