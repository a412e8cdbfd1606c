"""Relate kernels: jit == py_func, float-decided codes == exact twin, batch loops == scalar kernel.

CI also runs this file with ``NUMBA_DISABLE_JIT=1`` (kernels are then plain Python and only the
jit-vs-py_func comparison is skipped), so sizes are small.
"""

from __future__ import annotations

import importlib
import itertools

import numpy as np
import pytest
from conftest import JIT_DISABLED, random_batch

from collide2d import _exact
from collide2d._kernels import codes

EPS = 2.0**-53
KERNEL_KINDS = ("ellipse", "polygon", "segment", "line", "point")
MODULE_OF_KIND = {"ellipse": "relate.ellipse", "polygon": "relate.polygon", "segment": "relate.linear", "line": "relate.linear", "point": "relate.linear"}
PUBLIC_KINDS = {
    "ellipse": ("Circle", "Ellipse"),
    "polygon": ("Box", "RotatedBox", "Polygon"),
    "segment": ("Segment",),
    "line": ("Line",),
    "point": ("Point",),
}
KERNELS = [
    (f"relate_{a}_{b}", a, b)
    for i, a in enumerate(KERNEL_KINDS)
    for b in KERNEL_KINDS[i:]
]
KERNEL_IDS = [name for name, _, _ in KERNELS]
ROWS = 24  # rows per kernel and scene; the exact twin runs on Fractions, keep this small
ALL_CODES = {codes.DISJOINT, codes.TOUCHING, codes.OVERLAPPING, codes.CONTAINS, codes.WITHIN, codes.EQUAL, codes.CROSSING}


def get_kernel(name, kind_a):
    module = importlib.import_module(f"collide2d._kernels.{MODULE_OF_KIND[kind_a]}")
    return getattr(module, name)


def _nudge(rng, array):
    """Move about half of the entries by one ulp up or down (near-degenerate cases)."""
    array = np.array(array, dtype=np.float64)
    pick = rng.random(array.shape) < 0.5
    up = rng.random(array.shape) < 0.5
    moved = np.where(up, np.nextafter(array, np.inf), np.nextafter(array, -np.inf))
    return np.where(pick, moved, array)


def kind_rows(kind, rng, n, *, nudge=False):
    """``(params, verts)`` for ``n`` random rows of a kernel kind, drawn from its public shapes.

    The shapes use small integers (many exact contacts); with ``nudge`` positions move by one ulp,
    which makes pairs that are almost, but not exactly, touching.
    """
    params, verts = [], [np.zeros((0, 2))]
    offset = 0
    for k in range(n):
        public = PUBLIC_KINDS[kind][k % len(PUBLIC_KINDS[kind])]
        shape, _ = random_batch(public, rng, (1,))
        row = np.array(shape._flat_params()[0])
        if kind == "polygon":
            start, count = int(row[0]), int(row[1])
            v = np.array(shape._verts[start : start + count])
            if nudge:
                v = _nudge(rng, v)
            verts.append(v)
            row = np.array([float(offset), float(count)])
            offset += count
        elif nudge:
            if kind == "ellipse":
                row[:2] = _nudge(rng, row[:2])
            elif kind == "line":
                row[:2] = _nudge(rng, row[:2])
            else:
                row = _nudge(rng, row)
        params.append(row)
    verts = np.ascontiguousarray(np.concatenate(verts, axis=0))
    return np.ascontiguousarray(np.array(params)), verts


def pair_rows(name, kind_a, kind_b, seed, nudge=False):
    rng = np.random.default_rng([seed, KERNEL_IDS.index(name)])
    pa, va = kind_rows(kind_a, rng, ROWS, nudge=nudge)
    pb, vb = kind_rows(kind_b, rng, ROWS, nudge=nudge)
    if kind_a == kind_b:  # equal pairs: b copies a in one row of four
        if kind_a == "polygon":  # b's vertex table becomes va + vb, so that a's rows index it too
            pb = pb + np.array([float(len(va)), 0.0])
            vb = np.ascontiguousarray(np.concatenate([va, vb]))
        for k in range(0, ROWS, 4):
            pb[k] = pa[k]
        pb = np.ascontiguousarray(pb)
    return pa, va, pb, vb


def exact_code(name, kind_a, pa, va, kind_b, pb, vb):
    row_a, fa = _exact.exact_row(kind_a, pa, va)
    row_b, fb = _exact.exact_row(kind_b, pb, vb)
    return int(_exact.kernel_function(name)(row_a, fa, row_b, fb, 0))


SCENES = [pytest.param(1001, False, id="integers"), pytest.param(1002, True, id="nudged")]


@pytest.mark.skipif(JIT_DISABLED, reason="NUMBA_DISABLE_JIT is set: kernels are plain Python, no py_func to compare")
@pytest.mark.parametrize(("seed", "nudge"), SCENES)
@pytest.mark.parametrize(("name", "kind_a", "kind_b"), KERNELS, ids=KERNEL_IDS)
def test_jit_matches_py_func(name, kind_a, kind_b, seed, nudge):
    kernel = get_kernel(name, kind_a)
    assert hasattr(kernel, "py_func"), f"{name} is not a Numba dispatcher"
    pa, va, pb, vb = pair_rows(name, kind_a, kind_b, seed, nudge)
    for k in range(ROWS):
        jitted = kernel(pa[k], va, pb[k], vb, EPS)
        python = kernel.py_func(pa[k], va, pb[k], vb, EPS)
        assert jitted == python, (name, k, pa[k], pb[k])
        assert isinstance(jitted, int)


@pytest.mark.parametrize(("seed", "nudge"), SCENES)
@pytest.mark.parametrize(("name", "kind_a", "kind_b"), KERNELS, ids=KERNEL_IDS)
def test_float_decisions_match_exact_twin(name, kind_a, kind_b, seed, nudge):
    kernel = get_kernel(name, kind_a)
    pa, va, pb, vb = pair_rows(name, kind_a, kind_b, seed, nudge)
    for k in range(ROWS):
        code = int(kernel(pa[k], va, pb[k], vb, EPS))
        assert code == codes.UNDECIDED or code in ALL_CODES, code
        exact = exact_code(name, kind_a, pa[k], va, kind_b, pb[k], vb)
        assert exact in ALL_CODES, exact  # eps = 0 on Fractions: always decided
        if code == codes.UNDECIDED:
            continue
        assert code == exact, _reproducer(name, kind_a, pa[k], va, kind_b, pb[k], vb, code, exact)


def _reproducer(name, kind_a, pa, va, kind_b, pb, vb, code, exact):
    def rows(kind, p, v):
        if kind == "polygon":
            off, n = int(p[0]), int(p[1])
            return f"verts={v[off:off + n].tolist()!r}"
        return f"row={p.tolist()!r}"

    return f"{name}: float {code} != exact {exact}; a {rows(kind_a, pa, va)}; b {rows(kind_b, pb, vb)}"


@pytest.mark.parametrize(("name", "kind_a", "kind_b"), KERNELS, ids=KERNEL_IDS)
def test_exact_twin_is_uncompiled(name, kind_a, kind_b):
    twin = _exact.kernel_function(name)
    assert not hasattr(twin, "py_func")
    assert twin.__name__ == name


STALE_CACHE_HINT = (
    "loop != scalar kernel. If the kernel source changed recently, suspect a stale Numba disk cache: "
    "the cache of loops.py is keyed on loops.py alone and is not invalidated when a kernel it calls "
    "(in ellipse.py, polygon.py, linear.py, ...) changes (numba/numba#1833). Re-run with "
    "COLLIDE2D_NUMBA_CACHE=0 to confirm."
)


def _readonly(*arrays):
    out = []
    for array in arrays:
        array = np.array(array)
        array.flags.writeable = False
        out.append(array)
    return out


@pytest.mark.parametrize("readonly", [False, True], ids=["writable", "readonly"])
@pytest.mark.parametrize(("name", "kind_a", "kind_b"), KERNELS, ids=KERNEL_IDS)
def test_loop_matches_scalar_kernel(name, kind_a, kind_b, readonly):
    """Loops against the scalar kernel; read-only tables too, as shapes store them (Numba compiles,
    and caches, a separate specialisation for read-only arrays)."""
    loops = importlib.import_module("collide2d._kernels.relate.loops")
    loop = getattr(loops, name + "_loop")
    kernel = get_kernel(name, kind_a)
    pa, va, pb, vb = pair_rows(name, kind_a, kind_b, 1003, nudge=False)
    if readonly:
        pa, va, pb, vb = _readonly(pa, va, pb, vb)
    rng = np.random.default_rng([1004, KERNEL_IDS.index(name)])
    # every pairing of a few rows, in a scrambled order with repeats (as broadcasting produces)
    ia = np.repeat(np.arange(ROWS // 3), ROWS // 3).astype(np.int64)
    ib = np.tile(np.arange(ROWS // 3), ROWS // 3).astype(np.int64)
    order = rng.permutation(ia.size)
    ia, ib = np.ascontiguousarray(ia[order]), np.ascontiguousarray(ib[order])
    out = np.full(ia.size, 99, dtype=np.int8)
    loop(pa, va, ia, pb, vb, ib, EPS, out)
    expected = np.array([kernel(pa[i], va, pb[j], vb, EPS) for i, j in zip(ia, ib)], dtype=np.int8)
    np.testing.assert_array_equal(out, expected, err_msg=STALE_CACHE_HINT)
    # the diagonal, and an empty batch leaves ``out`` untouched
    diag = np.arange(ROWS, dtype=np.int64)
    out = np.full(ROWS, 99, dtype=np.int8)
    loop(pa, va, diag, pb, vb, diag, EPS, out)
    np.testing.assert_array_equal(out, [kernel(pa[k], va, pb[k], vb, EPS) for k in range(ROWS)], err_msg=STALE_CACHE_HINT)
    empty = np.zeros(0, dtype=np.int64)
    out = np.zeros(0, dtype=np.int8)
    loop(pa, va, empty, pb, vb, empty, EPS, out)


def test_kernel_list_is_complete():
    """Every canonical pair has a kernel, and no kernel exists for the reversed order."""
    for name, kind_a, kind_b in KERNELS:
        get_kernel(name, kind_a)
    for kind_a, kind_b in itertools.combinations(KERNEL_KINDS, 2):
        module = importlib.import_module(f"collide2d._kernels.{MODULE_OF_KIND[kind_b]}")
        assert not hasattr(module, f"relate_{kind_b}_{kind_a}")
