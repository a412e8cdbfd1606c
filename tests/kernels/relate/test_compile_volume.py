"""How much the first run compiles: one signature per exact-stage helper, kernels called at their
address by the loops of the heavier relate kernels. Answers are checked against the exact
fallback (the kernels' own source on Fractions), both orders, single pairs and batches."""

from __future__ import annotations

import numpy as np
import pytest

import collide2d as c2
from collide2d import _dispatch
from collide2d import _exact
from collide2d._kernels import codes, vec
from collide2d._kernels.relate import conic
from conftest import JIT_DISABLED

# Internally and externally tangent pairs on short numbers: the float certificates cannot decide
# them, the exact float stage (_relate_stage: _checked_pencil, _tangent_containment) does.
TANGENT = [
    (c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((1, 0), (1, 0.5))),  # inside, touching at (2, 0)
    (c2.Ellipse((0, 0), (4, 2)), c2.Ellipse((1, 0), (3, 1.5))),
    (c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((1.5, 0), (0.5, 0.5))),  # the circle of curvature at the vertex
    (c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((3, 0), (1, 3))),  # outside, vertex to vertex
    (c2.Ellipse((0, 0), (2, 1), 0.5), c2.Ellipse((0.25, 0.5), (1, 0.75), 1.25)),  # generic
]


def _exact_code(a, b):
    return _exact.relate("relate_ellipse_ellipse", "ellipse", a._params, a._verts, "ellipse", b._params, b._verts)


@pytest.mark.parametrize("k", range(len(TANGENT)))
def test_tangent_ellipses_relate_as_the_exact_fallback_both_orders(k):
    a, b = TANGENT[k]
    assert int(c2.relate(a, b)) == _exact_code(a, b)
    assert int(c2.relate(b, a)) == _dispatch._MIRROR_CODE[_exact_code(a, b)] == _exact_code(b, a)


def test_tangent_ellipses_batched_as_single():
    firsts = c2.Ellipse(np.array([a.center for a, _ in TANGENT]), np.array([a.radii for a, _ in TANGENT]),
                        np.array([a.angle for a, _ in TANGENT]))
    seconds = c2.Ellipse(np.array([b.center for _, b in TANGENT]), np.array([b.radii for _, b in TANGENT]),
                         np.array([b.angle for _, b in TANGENT]))
    assert c2.relate(firsts, seconds).tolist() == [_exact_code(a, b) for a, b in TANGENT]
    assert c2.relate(seconds, firsts).tolist() == [_exact_code(b, a) for a, b in TANGENT]


@pytest.mark.nojit
def test_exact_coefficients_are_integers_for_fractions_and_floats_when_compiled():
    # the exact fallback's copy multiplies Fractions by them: a float would turn them into floats
    twin = _exact.twin_module("relate.conic")
    constants = (twin._2, twin._3, twin._9, twin._18, twin._M4, twin._M27)
    assert constants == (2, 3, 9, 18, -4, -27)
    assert all(type(c) is int for c in constants)
    want = float if conic._FLOATS_ONLY else int
    assert all(type(c) is want for c in (conic._2, conic._3, conic._9, conic._18, conic._M4, conic._M27))


@pytest.mark.skipif(JIT_DISABLED, reason="NUMBA_DISABLE_JIT is set: nothing is compiled")
def test_exact_stage_helpers_have_one_signature():
    for a, b in TANGENT:
        c2.relate(a, b)
    for helper in (vec.xmul, vec.exact_mul, vec.two_product):
        integer = [sig for sig in helper.signatures if "int" in str(sig[0]) or "int" in str(sig[1])]
        assert integer == [], helper.py_func.__name__


def _polygons_and_ellipses(n, seed):
    rng = np.random.default_rng(seed)
    lo = rng.integers(0, 12, (n, 2)).astype(float)
    boxes = c2.Box(lo, lo + rng.integers(1, 4, (n, 2)))
    ellipses = c2.Ellipse(rng.integers(0, 12, (n, 2)).astype(float), rng.integers(1, 4, (n, 2)) / 2.0,
                          rng.integers(0, 4, n) * (np.pi / 2))
    segments = c2.Segment(rng.integers(0, 12, (n, 2)).astype(float), rng.integers(0, 12, (n, 2)).astype(float) + 0.5)
    return boxes, ellipses, segments


@pytest.mark.parametrize("first, second", [("ellipses", "boxes"), ("ellipses", "segments"), ("boxes", "boxes"),
                                           ("boxes", "segments")])
def test_heavier_relate_loops_match_single_pairs_and_the_exact_fallback(first, second):
    # lattice numbers: many pairs touch exactly, so the exact stages run too
    boxes, ellipses, segments = _polygons_and_ellipses(40, 3)
    shapes = {"boxes": boxes, "ellipses": ellipses, "segments": segments}
    a, b = shapes[first], shapes[second][::-1]
    for x, y in ((a, b), (b, a)):
        batch = c2.relate(x, y).tolist()
        assert batch == [int(c2.relate(x[k], y[k])) for k in range(len(batch))]
        name, _, swapped = _dispatch.pair_kernel("relate", x[0]._kind, y[0]._kind)
        for k in range(len(batch)):
            p, q = (y[k], x[k]) if swapped else (x[k], y[k])
            code = _exact.relate(name, p._kind, p._params, p._verts, q._kind, q._params, q._verts)
            code = _dispatch._MIRROR_CODE[code] if swapped else code
            assert batch[k] == (codes.OVERLAPPING if code == codes.CROSSING else code)  # as the public relate


@pytest.mark.skipif(JIT_DISABLED, reason="NUMBA_DISABLE_JIT is set: nothing is compiled")
def test_heavier_relate_loops_call_the_kernel_at_its_address():
    from collide2d._jit import shortcuts_active
    from collide2d._kernels.relate import loops

    if not shortcuts_active():
        pytest.skip("calls by address are made by the compile shortcuts, which are off")
    boxes, ellipses, segments = _polygons_and_ellipses(8, 5)
    c2.relate(ellipses, boxes), c2.relate(ellipses, segments), c2.relate(boxes, boxes[::-1]), c2.relate(boxes, segments)
    for name in ("relate_ellipse_polygon", "relate_ellipse_segment", "relate_polygon_polygon", "relate_polygon_segment"):
        serial = getattr(loops, name + "_loop").serial
        assert any(str(sig[-1]) == "int64" for sig in serial.signatures), name
        kernel = getattr(loops, name)
        # compiled with its own entry (the address the loop calls), not only linked into the loop
        assert any(args not in kernel.__dict__.get("_inner_only", ()) for args in kernel.overloads), name
