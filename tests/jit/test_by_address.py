"""Batch loops that call a scalar kernel at its own machine code (``collide2d._jit.call_at``).

With the compile shortcuts (``collide2d._jit._shortcuts``), the loops of the large ellipse kernels (relate, intersects, contact, overlap area) call the kernel
compiled for single pairs, for batches of fewer than ``LINKED_FROM`` pairs, instead of compiling
its call tree into the loop once more; larger batches run a copy of the loop with the kernel
linked in. Checked here, both ways: they give exactly what the scalar kernel gives, pair by pair,
on random, touching, identical and nested pairs; an error raised in the kernel reaches the caller
as from a linked call. And: the loop's own machine code holds no copy of the kernel; a batch
before any single call compiles the kernel once; a second process loads everything from the
disk cache, address calls included. On the plain path (no shortcuts) every loop links its kernel:
the same answers, checked by the same tests.
"""
from __future__ import annotations

import json

import numpy as np
import pytest
from numba import prange

from collide2d._jit import call_at, kernel, loop
from conftest import JIT_DISABLED, SHORTCUTS

from test_first_run import _empty_cache, _run


@kernel
def _reciprocal_gap(p, v, q, w, eps):
    """``1 / (p[0] - q[0])``: a division by zero when the first parameters are equal."""
    return 1.0 / (p[0] - q[0]) + eps


@loop(calls=_reciprocal_gap, tail=("float64",))
def _reciprocal_gap_loop(pa, va, ia, pb, vb, ib, eps, out, at):
    for k in prange(ia.shape[0]):
        out[k] = call_at(_reciprocal_gap, at, pa[ia[k]], va, pb[ib[k]], vb, (eps,))


def _tables():
    a = np.array([[1.0, 0.0], [4.0, 1.0], [-2.0, 5.0]])
    b = np.array([[3.0, 0.0], [0.5, 2.0], [6.0, 1.0]])
    return a, np.zeros((0, 2)), b, np.zeros((0, 2))


@pytest.mark.nojit
def test_a_call_at_an_address_returns_what_the_kernel_returns(call_mode):
    pa, va, pb, vb = _tables()
    index = np.arange(3, dtype=np.int64)
    out = np.full(3, np.nan)
    _reciprocal_gap_loop(pa, va, index, pb, vb, index[::-1].copy(), 0.25, out)
    expected = [1.0 / (pa[i, 0] - pb[j, 0]) + 0.25 for i, j in zip(range(3), range(2, -1, -1))]
    assert out.tolist() == expected


@pytest.mark.skipif(JIT_DISABLED, reason="NUMBA_DISABLE_JIT is set: NumPy floats divide by zero to inf")
def test_an_error_in_the_kernel_reaches_the_caller(call_mode):
    # the kernel's failing status is passed on as from a direct call: no value is made up
    pa, va, pb, vb = _tables()
    pb[1, 0] = pa[2, 0]
    out = np.full(1, np.nan)
    with pytest.raises(ZeroDivisionError):
        _reciprocal_gap_loop(pa, va, np.array([2]), pb, vb, np.array([1]), 0.0, out)


def _ellipse_rows(seed, n=600):
    """Random ellipse rows with touching, identical, nested and circle pairs mixed in."""
    import collide2d as c2

    rng = np.random.default_rng(seed)
    a = c2.Ellipse(rng.uniform(-3, 3, (n, 2)), rng.uniform(0.2, 2, (n, 2)), rng.uniform(0, np.pi, n))
    b = c2.Ellipse(rng.uniform(-3, 3, (n, 2)), rng.uniform(0.2, 2, (n, 2)), rng.uniform(0, np.pi, n))
    pa, pb = a._params.copy(), b._params.copy()
    special = [
        (c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((3, 0), (1, 3))),  # vertex to vertex
        (c2.Ellipse((0, 0), (2, 1), 0.4), c2.Ellipse((0, 0), (2, 1), 0.4)),  # identical
        (c2.Ellipse((0, 0), (3, 2), 0.2), c2.Ellipse((0.5, 0), (1, 0.5), 1.0)),  # nested
        (c2.Circle((0, 0), 1), c2.Circle((2, 0), 1)),  # circles touching
        (c2.Ellipse((1e6, 1e6), (2, 1e-3), 0.7), c2.Ellipse((1e6 + 1, 1e6), (1, 1), 0.0)),  # flat, far out
    ]
    for k, (x, y) in enumerate(special):
        pa[k], pb[k] = x._params, y._params
    for table in (pa, pb):
        table.flags.writeable = False
    return pa, a._verts, pb, b._verts


@pytest.fixture(params=["address", "linked"])
def call_mode(request, monkeypatch):
    """Run the loops both ways: at the kernel's address (small batches) and linked (large ones)."""
    from collide2d import _jit

    if request.param == "linked":
        monkeypatch.setattr(_jit, "LINKED_FROM", 0)
    return request.param


@pytest.mark.skipif(JIT_DISABLED, reason="NUMBA_DISABLE_JIT is set: nothing is called at an address")
@pytest.mark.parametrize("operation", ["relate", "intersects", "contact", "area"])
def test_loops_called_by_address_match_the_scalar_kernel_pair_by_pair(operation, call_mode):
    from collide2d._dispatch import EPS
    from collide2d._kernels.measure import distance_ellipse, loops as contact_loops
    from collide2d._kernels.overlay import area_ellipse, loops_area
    from collide2d._kernels.relate import conic, loops as relate_loops

    pa, va, pb, vb = _ellipse_rows(31)
    n = pa.shape[0]
    rng = np.random.default_rng(32)
    ia = rng.permutation(n).astype(np.int64)  # scrambled, with the special rows paired as built
    ia[:5] = np.arange(5)
    ib = ia.copy()
    if operation in ("relate", "intersects"):
        loop = getattr(relate_loops, f"{operation}_ellipse_ellipse_loop")
        scalar = getattr(conic, f"{operation}_ellipse_ellipse")
        out = np.full(n, 99, dtype=np.int8)
        loop(pa, va, ia, pb, vb, ib, EPS, out)
        expected = [scalar(pa[i], va, pb[j], vb, EPS) for i, j in zip(ia, ib)]
        assert len(set(expected)) >= 2
        np.testing.assert_array_equal(out, expected)
    elif operation == "contact":
        out = np.full((n, 9), np.nan)
        contact_loops.contact_ellipse_ellipse_loop(pa, va, ia, pb, vb, ib, out)
        expected = [distance_ellipse.contact_ellipse_ellipse(pa[i], va, pb[j], vb) for i, j in zip(ia, ib)]
        np.testing.assert_array_equal(out, np.array(expected))
    else:
        relation = np.array([conic.relate_ellipse_ellipse(pa[i], va, pb[j], vb, EPS) for i, j in zip(ia, ib)], dtype=np.int8)
        out = np.full(n, np.nan)
        loops_area.area_ellipse_ellipse_loop(pa, va, ia, pb, vb, ib, relation, out)
        expected = [area_ellipse.area_ellipse_ellipse(pa[i], va, pb[j], vb, np.int64(r)) for i, j, r in zip(ia, ib, relation)]
        np.testing.assert_array_equal(out, expected)
        assert (out > 0).sum() > n // 10  # overlaps, not only zeros


@pytest.mark.skipif(JIT_DISABLED, reason="NUMBA_DISABLE_JIT is set: nothing is called at an address")
def test_a_tolerance_of_another_float_type_reaches_the_kernel_as_float64(call_mode):
    # the kernel was compiled, and its address taken, for a float64 eps: the loop converts
    from collide2d._dispatch import EPS
    from collide2d._kernels.relate import loops as relate_loops

    pa, va, pb, vb = _ellipse_rows(33, n=300)
    index = np.arange(300, dtype=np.int64)
    for name in ("relate", "intersects"):
        loop = getattr(relate_loops, f"{name}_ellipse_ellipse_loop")
        expected = np.empty(300, dtype=np.int8)
        loop(pa, va, index, pb, vb, index, EPS, expected)
        for eps in (np.float32(EPS), np.float64(EPS)):
            out = np.empty(300, dtype=np.int8)
            loop(pa, va, index, pb, vb, index, eps, out)
            np.testing.assert_array_equal(out, expected, err_msg=f"{name} {type(eps).__name__}")


BATCH_FIRST = r"""
import json
import numpy as np
from numba.core import event
import collide2d as c2
from collide2d import _jit
from collide2d._kernels.relate import conic, loops

compiled = []

class Count(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__qualname__)
    def on_end(self, ev):
        pass

event.register("numba:compile", Count())
rng = np.random.default_rng(7)
many = c2.Ellipse(rng.uniform(0, 20, (400, 2)), rng.uniform(0.5, 1.5, (400, 2)), rng.uniform(0, 3, 400))
batch = c2.relate(many, many[::-1])       # the loop first: the kernel is compiled for it
single = [int(c2.relate(many[k], many[399 - k])) for k in range(0, 400, 37)]
contact = c2.contact(many, many[::-1]).separation
area = c2.overlap_area(many, many[::-1])
kernel = conic.relate_ellipse_ellipse
(signature,) = kernel.overloads
loop_library = next(iter(loops.relate_ellipse_ellipse_loop.serial.overloads.values())).library
print(json.dumps({
    "batch": batch.tolist(), "single": single, "contact": contact.tolist(), "area": area.tolist(),
    "kernel_compiles": compiled.count("relate_ellipse_ellipse"),
    "inner_only": sorted(map(str, kernel.__dict__.get("_inner_only", ()))),
    "kernel_ir": len(kernel.overloads[signature].library.get_llvm_str()),
    "loop_ir": len(loop_library.get_llvm_str()),
    "compile_seconds": _jit.compile_seconds(),
}))
"""


@pytest.mark.skipif(not SHORTCUTS, reason="the compile shortcuts are off: every loop links its kernel")
def test_a_batch_first_compiles_the_kernel_once_and_a_second_process_loads_everything(tmp_path):
    env = _empty_cache(tmp_path)
    first = json.loads(_run(BATCH_FIRST, env).stdout.strip().splitlines()[-1])
    assert first["kernel_compiles"] == 1  # for the loop and the single calls alike, with its Python entry
    assert first["inner_only"] == []
    # the loop calls the kernel, it holds no copy of its call tree: its optimized LLVM module is a
    # fraction of the kernel's (about 41 KB against 250 KB; a loop that links the kernel, such as
    # intersects_ellipse_ellipse_loop, is larger than the kernel)
    assert first["loop_ir"] < first["kernel_ir"] / 3, (first["loop_ir"], first["kernel_ir"])
    assert first["compile_seconds"] > 0
    batch = first["batch"]
    assert [batch[k] for k in range(0, 400, 37)] == first["single"]
    second = json.loads(_run(BATCH_FIRST, env).stdout.strip().splitlines()[-1])
    assert second["kernel_compiles"] == 0
    assert second["compile_seconds"] == 0.0  # the loops and the kernels, all from the disk cache
    for key in ("batch", "single", "contact", "area"):
        assert second[key] == first[key], key


DELETED = r"""
import sys
sys.modules["collide2d._jit._shortcuts"] = None  # as if the file were deleted: importing it fails
import numba
import collide2d as c2
from collide2d import _jit
print(_jit.shortcuts_active(), getattr(_jit.call_at, "py_func", None) is _jit._plain_call_at, _jit.address_of(None, 0, 0, 0, 0) is None,
      _jit.shared_cache_safe(), _jit.cache_location(numba).startswith("Numba's own"))
a, b = c2.Point([(0.0, 0.0), (1.0, 2.0)]), c2.Point([(0.0, 0.0), (1.0, 2.5)])
print(c2.intersects(a, b).tolist(), c2.relate(c2.Segment((0, 0), (2, 0)), c2.Point((1, 0))).name)
"""


@pytest.mark.skipif(JIT_DISABLED, reason="NUMBA_DISABLE_JIT is set: nothing is compiled")
def test_without_the_shortcuts_module_the_package_runs_on_numbas_public_api(tmp_path):
    # the gate imports collide2d._jit._shortcuts with importlib: a missing file leaves the plain
    # path (the loops link their kernels, Numba's own cache), whatever the Numba release
    lines = _run(DELETED, _empty_cache(tmp_path)).stdout.split("\n")
    assert lines[:2] == ["False True True False True", "[True, False] CONTAINS"]


MODES = r"""
import collide2d as c2
from collide2d import _jit
print(c2.intersects(c2.Point((0.0, 0.0)), c2.Point((0.0, 0.0))), _jit.shortcuts_active(), _jit.compile_seconds() > 0)
"""


def _checked_release():
    import numba

    from collide2d import _jit

    return numba.__version__ == _jit.SHORTCUTS_CHECKED_ON


@pytest.mark.skipif(JIT_DISABLED or not _checked_release(), reason="needs compilation on the release of the shortcuts")
def test_machine_code_made_in_one_mode_is_never_loaded_in_the_other(tmp_path):
    # the shortcuts' cache folder is keyed apart from Numba's own places: on one NUMBA_CACHE_DIR,
    # each mode compiles once (not loading the other's entries), then loads its own
    env = _empty_cache(tmp_path)
    on, off = dict(env, COLLIDE2D_COMPILE_SHORTCUTS="1"), dict(env, COLLIDE2D_COMPILE_SHORTCUTS="0")
    seen = [_run(MODES, mode).stdout.split("\n")[0] for mode in (on, off, on, off)]
    assert seen == ["True True True", "True False True", "True True False", "True False False"]
