"""The first run: compile notice, one compilation per helper, thread safety on first use.

The subprocess runs start fresh processes (nothing compiled or loaded yet); the ones that must see
Numba compile use an empty kernel cache of their own.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import JIT_DISABLED, SHORTCUTS

pytestmark = pytest.mark.skipif(JIT_DISABLED, reason="NUMBA_DISABLE_JIT is set: nothing is compiled")
shortcuts_only = pytest.mark.skipif(not SHORTCUTS, reason="a test of the compile shortcuts, which are off")


def _run(code, env_extra=None, timeout=600):
    env = dict(os.environ, **(env_extra or {}))
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env, timeout=timeout
    )
    assert result.returncode == 0, result.stderr
    return result


def _empty_cache(tmp_path):
    return {"NUMBA_CACHE_DIR": str(tmp_path / "numba"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}


def test_a_compilation_names_its_operation_and_is_timed(tmp_path):
    # every compilation is announced here (NOTICE_AFTER = 0): the public function called and the
    # kind pair, then the duration; the first notice says that the cache and warmup exist
    code = """
        import collide2d as c2
        from collide2d import _jit
        _jit.NOTICE_AFTER = 0.0
        print(c2.intersects(c2.Point((0, 0)), c2.Point((1, 1))), c2.relate(c2.Segment((0, 0), (1, 0)), c2.Point((2, 0))).name)
        print(_jit.compile_seconds() > 0)
    """
    first = _run(code, _empty_cache(tmp_path))
    assert first.stdout.split() == ["False", "DISJOINT", "True"]
    lines = first.stderr.splitlines()
    assert lines[0].startswith("collide2d: compiling intersects (point, point) ... (first use: ") and "warmup" in lines[0]
    assert "collide2d: compiling relate (segment, point) ..." in lines
    assert sum(line.startswith("collide2d: compiling intersects (point, point) done in ") for line in lines) == 1
    assert sum("first use" in line for line in lines) == 1
    again = _run(code, _empty_cache(tmp_path))  # the same cache: loaded, not compiled
    assert again.stdout.split() == ["False", "DISJOINT", "False"]
    assert "compiling" not in again.stderr


def test_a_compilation_longer_than_a_second_announces_itself(tmp_path):
    # the default threshold: the first single relate of two ellipses compiles for seconds
    code = """
        import collide2d as c2
        from collide2d import _jit
        print(c2.relate(c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((3, 0), (1, 3))).name, _jit.compile_seconds())
    """
    result = _run(code, _empty_cache(tmp_path))
    name, seconds = result.stdout.split()
    assert name == "TOUCHING"
    if float(seconds) <= 1.0:
        pytest.skip(f"compiled in {seconds} s: nothing lasted a second to announce")
    lines = result.stderr.splitlines()
    assert lines[0].startswith("collide2d: compiling relate (ellipse, ellipse) ... (first use: ")
    assert any(line.startswith("collide2d: compiling relate (ellipse, ellipse) done in ") for line in lines)


def test_the_notice_can_be_silenced(tmp_path):
    code = """
        import logging
        import collide2d as c2
        from collide2d import _jit
        _jit.NOTICE_AFTER = 0.0
        logging.getLogger("collide2d").setLevel(logging.ERROR)
        print(c2.intersects(c2.Point((0, 0)), c2.Point((1, 1))))
    """
    result = _run(code, _empty_cache(tmp_path))
    assert result.stdout.split() == ["False"] and "compiling" not in result.stderr


# One compilation per helper (see "One signature per helper" in collide2d._kernels): Numba types a
# constant argument of a call between kernels as a literal type and compiles the callee once per
# value. The scan below finds such arguments in the kernels' source; the run after it counts the
# literal copies that Numba actually compiles on the plain path.

def _kernel_functions(trees):
    """Names of the functions decorated with ``kernel`` or ``loop`` (and the names they are imported as)."""
    import ast

    def decorated(node):
        return isinstance(node, ast.FunctionDef) and any(
            ast.unparse(d).split("(")[0].split(".")[-1] in ("kernel", "loop") for d in node.decorator_list)

    names = {node.name for tree in trees.values() for node in ast.walk(tree) if decorated(node)}
    for tree in trees.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names.update(alias.asname for alias in node.names if alias.asname and alias.name in names)
    return names, decorated


def constant_arguments(package):
    """``file:line: caller -> callee(argument)`` for every argument of a call from a kernel to a kernel
    that Numba types as a literal or leaves out: an int or bool constant, a module-level int or bool constant
    (``codes.UNDECIDED``), or a local variable with such a definition anywhere in the caller (with
    Numba's SSA form the call is typed with the constant first, and the callee compiled for it,
    before the loop's other definitions widen the variable to ``int64``), or a parameter with a
    default left out (typed as that default)."""
    import ast

    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(package.rglob("*.py"))}

    def constant(node):
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            node = node.operand
        return isinstance(node, ast.Constant) and type(node.value) in (int, bool)

    module_constants = {target.id for tree in trees.values() for node in tree.body if isinstance(node, ast.Assign)
                        and constant(node.value) for target in node.targets if isinstance(target, ast.Name)}
    kernels, decorated = _kernel_functions(trees)
    # parameters of each kernel, for the calls that leave a default out (Numba types the omitted
    # argument as its default value: a signature of its own)
    defaults_of = {}  # kernel name -> (parameters, how many have defaults) of each kernel so named
    for tree in trees.values():
        for node in filter(decorated, ast.walk(tree)):
            defaults_of.setdefault(node.name, []).append(([a.arg for a in node.args.args], len(node.args.defaults)))
    found = []
    for path, tree in trees.items():
        if "_kernels" not in path.parts:
            continue
        for function in filter(decorated, ast.walk(tree)):
            parameters = {a.arg for a in function.args.args}
            definitions = {}
            for node in ast.walk(function):
                if isinstance(node, ast.Assign):
                    for target in node.targets:
                        pairs = [(target, node.value)]
                        if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                            pairs = list(zip(target.elts, node.value.elts))
                        for name, value in pairs:
                            if isinstance(name, ast.Name):
                                definitions.setdefault(name.id, []).append(value)

            def literal(node, seen=()):
                if constant(node):
                    return True
                if isinstance(node, ast.Attribute):
                    return isinstance(node.value, ast.Name) and node.attr in module_constants
                if isinstance(node, ast.Name) and node.id not in parameters and node.id not in seen:
                    if node.id in definitions:
                        return any(literal(value, seen + (node.id,)) for value in definitions[node.id])
                    return node.id in module_constants
                return False

            for call in ast.walk(function):
                if not isinstance(call, ast.Call):
                    continue
                callee = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", None)
                if callee not in kernels:
                    continue
                given = len(call.args) + len(call.keywords)
                definitions_of = defaults_of.get(callee, [])
                if definitions_of and all(len(names) - n <= given < len(names) for names, n in definitions_of):
                    where = f"{path.relative_to(package.parent).as_posix()}:{call.lineno}"
                    found.append(f"{where}: {function.name} -> {callee}(omits {definitions_of[0][0][given]})")
                for argument in call.args + [keyword.value for keyword in call.keywords]:
                    for item in argument.elts if isinstance(argument, ast.Tuple) else [argument]:
                        if literal(item):
                            where = f"{path.relative_to(package.parent).as_posix()}:{call.lineno}"
                            found.append(f"{where}: {function.name} -> {callee}({ast.unparse(item)})")
    return found


def test_no_kernel_passes_a_constant_to_another_kernel():
    import collide2d

    package = pathlib.Path(collide2d.__file__).parent
    assert constant_arguments(package) == []


def test_the_constant_scan_finds_each_kind_of_literal_argument(tmp_path):
    package = tmp_path / "collide2d"
    (package / "_kernels").mkdir(parents=True)
    (package / "_kernels" / "m.py").write_text(textwrap.dedent("""
        from .codes import FLAG
        from . import codes
        LIMIT = 3
        @kernel
        def helper(x, k):
            return x
        @kernel
        def flagged(x, checked=False):
            return x
        @kernel
        def caller(x, k):
            n = 0
            for i in range(3):
                n = helper(x, n)
            return helper(x, 1) + helper(x, -2) + helper(x, True) + helper(x, LIMIT) + helper(x, codes.FLAG) + helper(x, FLAG) + (
                helper(x, k) + helper(x, int(1)) + helper(x, bool(True)) + helper(x, 0.5) + helper(x, i)
                + flagged(x) + flagged(x, bool(False)))
    """))
    (package / "_kernels" / "codes.py").write_text("FLAG = 2\n")
    found = [line.split(": ", 1)[1] for line in constant_arguments(package)]
    assert sorted(found) == sorted([
        "caller -> helper(n)", "caller -> helper(1)", "caller -> helper(-2)", "caller -> helper(True)",
        "caller -> helper(LIMIT)", "caller -> helper(codes.FLAG)", "caller -> helper(FLAG)", "caller -> flagged(omits checked)",
    ])


LITERAL_COPIES = """
    import json, sys
    import collide2d as c2
    from collide2d import _jit

    a, b = c2.Ellipse((0, 0), (2, 1), 0.3), c2.Ellipse((2.5, 1), (1, 0.5), 0.4)
    c2.contact(a, b), c2.relate(a, b), c2.overlap_area(a, b), c2.intersection_points(a, b)
    box, segment = c2.Box((0, 0), (2, 1)), c2.Segment((1, -1), (1.5, 3))
    c2.contact(segment, c2.Point((3, 3))), c2.intersection_points(box, segment), c2.relate(segment, segment)
    signatures, literal = 0, []
    for name, module in list(sys.modules.items()):
        if name.startswith("collide2d._kernels"):
            for attribute, value in vars(module).items():
                if isinstance(value, _jit._dispatcher_class) and value.py_func.__module__ == name:
                    signatures += len(value.signatures)
                    literal += [f"{name}.{attribute}{sig}" for sig in value.signatures
                                if "Literal" in str(sig) or "omitted" in str(sig)]
    print(json.dumps({"shortcuts": _jit.shortcuts_active(), "signatures": signatures, "literal": literal}))
"""


def test_helpers_are_compiled_once_not_once_per_integer_literal(tmp_path):
    # Slow (about 25 s of CPU: it compiles on an empty cache). On the plain path (Numba's public API only), in a fresh process on an empty cache: every
    # helper these calls reach is compiled for plain types (int64, bool), none for a literal value
    # (``_m3(..., 0, 1)`` once compiled as ``_m3(..., Literal[int](0), Literal[int](1))``: 51 such
    # copies for these calls before the kernels passed their constants as ``int(0)``, ``bool(True)``).
    env = dict(_empty_cache(tmp_path), COLLIDE2D_COMPILE_SHORTCUTS="0")
    out = json.loads(_run(LITERAL_COPIES, env, timeout=1800).stdout.strip().splitlines()[-1])
    assert not out["shortcuts"] and out["signatures"] > 100
    assert out["literal"] == []


RACE = """
    import importlib, json, threading
    import numpy as np
    import collide2d as c2
    from collide2d import _exact, _jit

    e1, e2 = c2.Ellipse((0, 0), (2, 1), 0.3), c2.Ellipse((2.5, 1), (1, 0.5), 0.4)
    rng = np.random.default_rng(1)
    n = 3 * _jit.SERIAL_BELOW  # large enough for the threaded loops
    many = c2.Ellipse(rng.uniform(0, 40, (n, 2)), rng.uniform(0.5, 1.5, (n, 2)), rng.uniform(0, 3, n))
    operations = {
        "touches": lambda: bool(c2.touches(c2.Circle((0, 0), 1), c2.Circle((2, 0), 1))),  # exact fallback
        "contact": lambda: c2.contact(e1, e2).separation,
        "area": lambda: c2.overlap_area(c2.Circle((0, 0), 1), c2.Circle((0, 0), 1)),
        "points": lambda: c2.intersection_points(c2.Circle((0, 0), 1), c2.Circle((2, 0), 1)).tolist(),
        "distance": lambda: c2.distance(c2.Box((0, 0), (1, 1)), c2.Point((4, 5))),
        "contains_xy": lambda: bool(c2.contains_xy(e1, (1.0, 0.2))),
        "batch": lambda: int(c2.intersects(many, many[::-1]).sum()),
    }
    barrier = threading.Barrier(len(operations) + 1)
    results, errors = {}, []

    def run(name, operation):
        barrier.wait()
        try:
            results[name] = operation()
        except Exception as error:  # reported below
            errors.append(repr(error))

    def load_copies():  # keeps loading uncompiled copies while the others import and compile
        barrier.wait()
        for k in range(6):
            _exact.load_uncompiled_kernels(f"collide2d_race_copy_{k}")

    threads = [threading.Thread(target=run, args=item) for item in operations.items()]
    threads.append(threading.Thread(target=load_copies))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    kernels = {
        "relate.conic": "relate_ellipse_ellipse", "relate.ellipse": "relate_ellipse_point",
        "measure.distance_ellipse": "contact_ellipse_ellipse", "overlay.area_ellipse": "area_ellipse_ellipse",
        "overlay.points_ellipse": "points_ellipse_ellipse", "measure.distance_flat": "contact_polygon_point", "vec": "certain_sign",
    }
    compiled = {
        f"{module}.{name}": isinstance(getattr(importlib.import_module(f"collide2d._kernels.{module}"), name), _jit._dispatcher_class)
        for module, name in kernels.items()
    }
    loops = importlib.import_module("collide2d._kernels.relate.loops")
    compiled["loops.intersects_ellipse_ellipse_loop"] = isinstance(loops.intersects_ellipse_ellipse_loop.serial, _jit._dispatcher_class)
    twin = _exact.kernel_function("relate_ellipse_ellipse")
    expected = int((c2.relate(many, many[::-1]) != 0).sum())
    print(json.dumps({"results": results, "errors": errors, "compiled": compiled,
                      "twin_plain": type(twin).__name__ == "function", "expected_batch": expected}))
"""


def test_threads_on_first_use_leave_every_kernel_compiled():
    # Many threads call different operations at once in a fresh process while another loads
    # uncompiled copies of the kernels (as the exact fallback does): the copies must stay plain
    # Python and every kernel of the package itself compiled, whatever the interleaving.
    out = json.loads(_run(RACE).stdout.strip().splitlines()[-1])
    assert out["errors"] == []
    assert all(out["compiled"].values()), out["compiled"]
    assert out["twin_plain"]
    r = out["results"]
    assert r["touches"] is True
    assert r["contact"] < 0
    assert r["area"] == pytest.approx(3.141592653589793, rel=1e-12)
    assert r["points"] == [[1.0, 0.0]]
    assert r["distance"] == 5.0
    assert r["contains_xy"] is True
    assert r["batch"] == out["expected_batch"]


def test_threaded_batches_match_the_serial_loop():
    import numpy as np

    import collide2d as c2
    from collide2d import _jit

    rng = np.random.default_rng(5)
    n = 3 * _jit.SERIAL_BELOW + 11
    a = c2.Ellipse(rng.uniform(0, 30, (n, 2)), rng.uniform(0.5, 1.5, (n, 2)), rng.uniform(0, 3, n))
    b = a[::-1]
    whole = c2.contact(a, b)
    parts = [c2.contact(a[k : k + 1000], b[k : k + 1000]) for k in range(0, n, 1000)]  # serial loop
    np.testing.assert_array_equal(whole.separation, np.concatenate([p.separation for p in parts]))
    np.testing.assert_array_equal(whole.normal, np.concatenate([p.normal for p in parts]))


def test_xy_predicates_of_one_point_match_the_point_shape():
    import collide2d as c2

    shapes = [
        c2.Ellipse((0, 0), (2, 1), 0.3),
        c2.Box((0, 0), (1, 1)),
        c2.Segment((0, 0), (2, 2)),
        c2.Line((0, 0), (1, 1)),
        c2.Point((1, 1)),
    ]
    points = [(1, 1), (1.0, 0.0), [0, 0], (2, 0), (0.5, 0.5), (3, -1)]
    for shape in shapes:
        for xy in points:
            assert c2.intersects_xy(shape, xy) is c2.intersects(shape, c2.Point(xy))
            assert c2.contains_xy(shape, xy) is c2.contains(shape, c2.Point(xy))
    for predicate in (c2.contains_xy, c2.intersects_xy):
        with pytest.raises(ValueError):
            predicate(shapes[0], (float("nan"), 0.0))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_threaded_batches_work_in_a_forked_child():
    # the parent's pool threads do not exist in a child made by fork: a new pool must be made
    code = """
        import os
        import numpy as np
        import collide2d as c2
        from collide2d import _jit

        rng = np.random.default_rng(0)
        a = c2.Ellipse(rng.uniform(0, 30, (3 * _jit.SERIAL_BELOW, 2)), (1.0, 0.5))
        print(int(c2.intersects(a, a[::-1]).sum()), flush=True)
        pid = os.fork()
        if pid == 0:
            print(int(c2.intersects(a, a[::-1]).sum()), flush=True)
            os._exit(0)
        os.waitpid(pid, 0)
    """
    parent, child = _run(code, timeout=300).stdout.split()
    assert parent == child


@shortcuts_only
def test_kernels_compiled_for_other_kernels_get_a_python_entry_when_called_from_python(tmp_path):
    # A kernel first compiled because another kernel calls it is built without the Python entry
    # point and without a disk cache entry (its caller links its code); called from Python later,
    # it is compiled once more with both, and gives the same answers either way.
    code = """
        import collide2d as c2
        from collide2d._kernels import vec
        from collide2d._kernels.relate import conic
        a, b = c2.Ellipse((0, 0), (2, 1), 0.3), c2.Ellipse((2.5, 1), (1, 0.5), 0.4)
        print(c2.relate(a, b).name)
        print(len(conic._relate_float.signatures), len(vec.two_sum._inner_only))
        print(vec.two_sum(1.0, 2.0**-60) == (1.0, 2.0**-60), len(vec.two_sum._inner_only))
        print(len(conic._relate_exact.signatures))  # the exact (Fraction) branch is never compiled
        import os
        cached = [n for _, _, names in os.walk(os.environ["NUMBA_CACHE_DIR"]) for n in names if n.endswith(".nbi")]
        print(any("relate_ellipse_ellipse" in n for n in cached), any("_relate_float" in n for n in cached))
    """
    lines = _run(code, _empty_cache(tmp_path)).stdout.split("\n")
    assert lines[:5] == ["OVERLAPPING", "1 1", "True 0", "0", "True False"]


@shortcuts_only
def test_kernels_compiled_for_other_kernels_get_no_machine_code_and_compile_shortcuts_end_with_the_compile(tmp_path):
    # Such a kernel is lowered to LLVM IR that its callers link (no machine code of its own, no
    # module in the JIT engine); the typing memo of a compilation is dropped when it ends, so other
    # Numba code in the process types its calls as usual.
    code = """
        import numba
        import collide2d as c2
        from collide2d._jit import _shortcuts
        from collide2d._kernels.relate import conic
        a, b = c2.Ellipse((0, 0), (2, 1), 0.3), c2.Ellipse((2.5, 1), (1, 0.5), 0.4)
        print(c2.relate(a, b).name, c2.intersects(a, b))
        inner = conic._relate_float.overloads[next(iter(conic._relate_float.overloads))]
        print(type(inner.library).__name__, type(inner.entry_point).__name__, inner.library._finalized)
        print(_shortcuts._memo.calls is None)

        @numba.njit
        def other(x, y):
            return abs(x * y) + 2 * x

        print(other(1.5, -2.0), other(3, 4))
    """
    lines = _run(code, _empty_cache(tmp_path)).stdout.split("\n")
    assert lines[:4] == ["OVERLAPPING True", "LinkOnlyLibrary _InnerKey True", "True", "6.0 18"]


def test_kernels_compile_the_plain_way_without_the_shortcuts(tmp_path):
    # the fallback for Numba releases the shortcuts were not written for: same answers, plain
    # Numba libraries with machine code of their own
    code = """
        import collide2d as c2
        from collide2d._kernels.relate import conic
        a, b = c2.Ellipse((0, 0), (2, 1), 0.3), c2.Ellipse((2.5, 1), (1, 0.5), 0.4)
        print(c2.relate(a, b).name, c2.intersects(a, b), c2.contact(a, b).separation < 0)
        inner = conic._relate_float.overloads[next(iter(conic._relate_float.overloads))]
        print(type(inner.library).__name__)
        # and the loops link their kernel in, even for a small batch (no call by address)
        import numpy as np
        from collide2d._kernels.relate import loops
        many = c2.Ellipse(np.random.default_rng(1).uniform(0, 9, (50, 2)), (1.0, 0.5), 0.3)
        codes = c2.relate(many, many[::-1]).tolist()
        print(codes == [int(c2.relate(many[k], many[49 - k])) for k in range(50)], len(set(codes)) > 1)
        print(sorted({str(s[-1]) for s in loops.relate_ellipse_ellipse_loop.serial.signatures}))
    """
    env = dict(_empty_cache(tmp_path), COLLIDE2D_COMPILE_SHORTCUTS="0")
    lines = _run(code, env).stdout.split("\n")
    assert lines[:4] == ["OVERLAPPING True True", "JITCodeLibrary", "True True", "['none']"]


def test_rewrites_after_type_inference_still_run_where_one_applies(tmp_path):
    # the shortcuts skip Numba's after-inference rewrites on a function where none can match; an
    # array expression still becomes one fused loop (Numba's array_expr function in the IR)
    code = """
        import numpy as np
        from collide2d import _jit

        def fused(a, b):
            return a + 2.0 * b

        def scalar(x, y):
            return x + 2.0 * y

        f, g = _jit._compile(fused), _jit._compile(scalar)
        print(f(np.arange(3.0), np.ones(3)).tolist(), g(1.0, 2.0))
        print("array_expr" in f.inspect_llvm(f.signatures[0]), "array_expr" in g.inspect_llvm(g.signatures[0]))
    """
    env = dict(_empty_cache(tmp_path), COLLIDE2D_NUMBA_CACHE="0")
    lines = _run(code, env).stdout.split("\n")
    assert lines[:2] == ["[2.0, 3.0, 4.0] 5.0", "True False"]


LOCK_RACE = r"""
import threading, time
import numba
errors, stop = [], []

def user_compiles():  # another library's functions, compiled while collide2d sets itself up
    i = 0
    while not stop:
        ns = {}
        exec(f"def f{i}(x):\n    s = 0.0\n    for k in range(x.shape[0]):\n        s += x[k] * {i}\n    return s", ns)
        try:
            numba.njit(ns[f"f{i}"]).compile("float64(float64[:])")
        except Exception as error:  # reported below
            errors.append(repr(error))
            return
        i += 1

thread = threading.Thread(target=user_compiles, daemon=True)
thread.start()
time.sleep(0.5)
from collide2d._kernels.relate import conic  # the first kernel module: the compile shortcuts go in
time.sleep(0.5)
stop.append(True)
thread.join(30)
from llvmlite.binding import ffi
print(errors, ffi.lib._lock._lock.acquire(timeout=5))
"""


def test_other_threads_compile_while_collide2d_sets_itself_up(tmp_path):
    # the compile shortcuts go in while another thread compiles its own functions: that thread
    # compiles as usual, and Numba's LLVM lock is free after
    assert _run(LOCK_RACE, _empty_cache(tmp_path)).stdout.strip().splitlines()[-1] == "[] True"



# -- collide2d warmup: every copy a call reaches, in one process or several ---------------------------

FIRST_CALLS = """
import json
import numpy as np
import collide2d as c2
from collide2d import _jit

rng = np.random.default_rng(3)
make = {
    "ellipse": lambda c: c2.Ellipse(c, rng.uniform(0.3, 2, c.shape), rng.uniform(0, 3, c.shape[:-1])),
    "segment": lambda c: c2.Segment(c, c + 1.0),
    "point": lambda c: c2.Point(c),
}
out = {}
for pair in PAIRS:
    first, second = pair.split("-")
    for n in (100_000, 2, 0):  # 100,000 pairs: the linked loops, run on slices in threads; 0: single shapes
        shape = (n, 2) if n else (2,)
        a, b = make[first](rng.uniform(0, 300, shape)), make[second](rng.uniform(0, 300, shape))
        before = _jit.compile_seconds()
        c2.intersects(a, b)
        out[f"{pair} {n}"] = _jit.compile_seconds() - before
print(json.dumps(out))
"""


def _warmup(env, *args):
    result = subprocess.run([sys.executable, "-m", "collide2d", "warmup", *args], capture_output=True, text=True,
                            env=dict(os.environ, **env), timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stderr


def _first_calls(env, pairs):
    """Compile seconds of the first intersects calls of each kind pair, at every size, in a new process."""
    return json.loads(_run(f"PAIRS = {pairs!r}\n" + FIRST_CALLS, env).stdout.strip().splitlines()[-1])


def test_warmup_compiles_the_copies_of_large_batches_too(tmp_path):
    # after warming one operation, its first call on 100,000 pairs (the loop that links the
    # kernel, from LINKED_FROM pairs on), on 2 pairs (the loop calling the kernel by address) and
    # on single shapes compiles nothing in a new process
    env = _empty_cache(tmp_path)
    err = _warmup(env, "--only", "intersects ellipse-ellipse*")
    # without a terminal: one line per operation with its seconds
    assert "collide2d: [1/2] intersects ellipse-ellipse (single): " in err
    assert "collide2d: [2/2] intersects ellipse-ellipse (batch): " in err
    compiled = _first_calls(env, ["ellipse-ellipse"])
    assert compiled == {"ellipse-ellipse 100000": 0.0, "ellipse-ellipse 2": 0.0, "ellipse-ellipse 0": 0.0}


def _cache_entries(root):
    """Signatures per cached function: {index file name: number of entries}."""
    import pickle

    entries = {}
    for index in pathlib.Path(root).rglob("*.nbi"):
        with open(index, "rb") as handle:
            pickle.load(handle)  # Numba's version
            _, overloads = pickle.loads(handle.read())
        entries[index.name] = len(overloads)
    return entries


@shortcuts_only
def test_warmup_in_two_processes_warms_as_one_does(tmp_path):
    # two groups of operations (segment-point, point-point), one per process, into one cache
    one, two = _empty_cache(tmp_path / "one"), _empty_cache(tmp_path / "two")
    _warmup(one, "--only", "intersects *t-point*")
    err = _warmup(two, "--only", "intersects *t-point*", "--jobs", "2")
    assert "(4 operations, 2 processes; cached under " in err
    assert sorted(line.split("] ")[1].split(":")[0] for line in err.splitlines() if line.startswith("collide2d: [")) == [
        "intersects point-point (batch)", "intersects point-point (single)",
        "intersects segment-point (batch)", "intersects segment-point (single)",
    ]
    entries = _cache_entries(two["NUMBA_CACHE_DIR"])
    assert entries and entries == _cache_entries(one["NUMBA_CACHE_DIR"])
    assert set(_first_calls(two, ["segment-point", "point-point"]).values()) == {0.0}


LOCKED_SAVE = """
import sys
sys.path.insert(0, {folder!r})
import tiny
print(tiny.add(ARG, ARG), flush=True)
"""


@shortcuts_only
@pytest.mark.skipif(not hasattr(os, "fork"), reason="the cache lock is a POSIX flock")
def test_processes_save_into_the_kernel_cache_one_at_a_time(tmp_path):
    # Numba's index of a function's entries is read, extended and written back by each save:
    # two processes saving signatures of one function at once could point one signature at the
    # other's machine code. Saves (and loads) wait for the cache's lock file.
    import fcntl

    import numba

    from collide2d import _jit

    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "tiny.py").write_text("from collide2d._jit import kernel\n\n\n@kernel\ndef add(x, y):\n    return x + y\n")
    env = _empty_cache(tmp_path)
    directory = pathlib.Path(env["NUMBA_CACHE_DIR"]) / pathlib.Path(_jit.kernel_cache_dir(numba)).name
    directory.mkdir(parents=True)
    with open(directory / "cache.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        children = [
            subprocess.Popen([sys.executable, "-c", LOCKED_SAVE.format(folder=str(folder)).replace("ARG", arg)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ, **env))
            for arg in ("1", "1.5")
        ]
        time.sleep(2.0)
        assert [child.poll() for child in children] == [None, None]  # waiting for the lock
        fcntl.flock(lock, fcntl.LOCK_UN)
    outputs = [child.communicate(timeout=120) for child in children]
    assert [out.strip() for out, _ in outputs] == ["2", "3.0"], outputs
    (index,) = [name for name in _cache_entries(directory) if name.startswith("tiny.add")]
    assert _cache_entries(directory)[index] == 2  # both signatures, each with its own data file
    assert len(list(directory.rglob("tiny.add*.nbc"))) == 2


def test_pairs_at_extreme_magnitudes_run_the_compiled_single_pair_code():
    # A pair beyond the tame range runs the single-pair kernel on its rows scaled by a power of two
    # (collide2d._magnitude): on read-only rows, the very code a single pair runs, not a second copy
    # compiled for writeable arrays (seconds of compiling on the first such pair, even after warmup).
    # The answers are those of the pair scaled to unit size (exact: a power of two).
    import numpy as np

    import collide2d as c2
    from collide2d._kernels.measure import distance_ellipse
    from collide2d._kernels.relate import conic

    def pair(scale, n=None):
        centres, radii = np.array([(0.0, 0.0), (2.5, 1.0)]), np.array([(2.0, 1.0), (1.0, 0.5)])
        if n is None:
            return c2.Ellipse(centres[0] * scale, radii[0] * scale, 0.3), c2.Ellipse(centres[1] * scale, radii[1] * scale, 0.4)
        return (c2.Ellipse(np.repeat(centres[:1], n, 0) * scale, radii[0] * scale, 0.3),
                c2.Ellipse(np.repeat(centres[1:], n, 0) * scale, radii[1] * scale, 0.4))

    unit = pair(1.0)
    # the single-pair kernels (compiled or loaded), in both orders
    expected = {order: (c2.relate(*unit[::order]), c2.contact(*unit[::order]).separation) for order in (1, -1)}
    signatures = {kernel: set(kernel.signatures) for kernel in (conic.relate_ellipse_ellipse, distance_ellipse.contact_ellipse_ellipse)}
    for scale in (2.0**460, 2.0**-460):
        for order in (1, -1):
            relation, separation = expected[order]
            assert c2.relate(*pair(scale)[::order]) == relation
            assert c2.contact(*pair(scale)[::order]).separation == separation * scale
            batch = pair(scale, 3)[::order]
            assert c2.relate(*batch).tolist() == [relation] * 3
            assert c2.contact(*batch).separation.tolist() == [separation * scale] * 3
    assert {kernel: set(kernel.signatures) for kernel in signatures} == signatures
