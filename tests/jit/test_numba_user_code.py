"""The user's own Numba code next to collide2d: it compiles and behaves exactly as without it.

collide2d compiles its kernels with its own options (and, on the Numba release they were checked
against, with compile shortcuts on Numba's internals: a dispatcher subclass, a pipeline, a typing
memo). None of that may reach a function the user decorates with ``numba.njit``: not while our
kernels compile in another thread, not afterwards. A user module exercising what the shortcuts
touch (builtin calls typed again and again, integer literals passed to a helper, tuples and arrays
let go of, a list comprehension and a closure, an array expression, a cached function) is run in
a process without collide2d and in one where collide2d compiles its kernels in a thread meanwhile;
answers, signatures and cache places must be the same, and the Numba methods the typing memo stands
in for must be Numba's own whenever the user's code is being typed.
"""

from __future__ import annotations

import json
import textwrap

import pytest

from conftest import JIT_DISABLED

from test_first_run import _empty_cache, _run

USER_MODULE = '''
import math

import numba
import numpy as np
from numba.extending import overload

def probe():
    return 0


@overload(probe)
def _probe():
    CHECK()  # runs while Numba types ``user``, holding its compiler lock
    return lambda: 0


@numba.njit
def helper(x, k):
    return x * k + abs(x) - math.hypot(x, k)


@numba.njit
def user(a, b):
    probe()
    t = (a[0], 2.0)
    s = helper(t[0], 0) + helper(t[1], 1) + helper(a[1], 2)  # integer literals
    squares = [v * v for v in a]  # a list comprehension

    def scale(v):  # a closure
        return v * s

    c = a + 2.0 * b  # an array expression, fused by Numba's rewrite
    total = 0.0
    for v in squares:
        total += scale(v)
    return total + c.sum(), c, (t, s)


@numba.njit(cache=True)
def cached(x):
    return np.sqrt(x * x + 1.0).sum()
'''

SCRIPT = """
import importlib, json, sys, threading
sys.path.insert(0, {folder!r})
from numba.core import base, ir
from numba.core.base import BaseContext
from numba.core.lowering import Lower
from numba.core.runtime.context import NRTContext
from numba.core.types.functions import BaseFunction

# Numba's own functions, before collide2d is imported: the six the typing memo stands in for
NAMES = [(BaseFunction, "get_call_type"), (BaseContext, "get_abi_sizeof"), (base, "_has_loc"), (Lower, "decref"),
         (NRTContext, "_call_incref_decref"), (ir.Inst, "_rec_list_vars")]
ORIGINAL = [getattr(owner, name) for owner, name in NAMES]

def numbas_own():
    return all(getattr(owner, name) is f for (owner, name), f in zip(NAMES, ORIGINAL))

done = threading.Event()
ours_errors = []
if {with_collide2d}:
    import collide2d as c2

    def ours():  # our kernels compile in this thread (an empty kernel cache)
        try:
            e1, e2 = c2.Ellipse((0, 0), (2, 1), 0.3), c2.Ellipse((2.5, 1), (1, 0.5), 0.4)
            ours_errors.append(c2.relate(e1, e2).name)
        except Exception as error:
            ours_errors.append(repr(error))
        finally:
            done.set()

    thread = threading.Thread(target=ours)
    thread.start()
else:
    done.set()

import numpy as np
import usercode

report = []

def check():
    report.append([numbas_own(), not done.is_set()])

usercode.CHECK = check
a, b = np.array([0.5, -1.25, 3.0]), np.array([2.0, 0.125, -0.75])
results, rounds = [], 0
while True:  # the user's module compiled anew, over and over while our kernels compile
    module = usercode if rounds == 0 else importlib.reload(usercode)
    module.CHECK = check
    total, c, (t, s) = module.user(a, b)
    results.append([total.hex(), [x.hex() for x in c], [x.hex() for x in t], s.hex(), module.cached(a).hex()])
    rounds += 1
    if done.is_set():
        break
if {with_collide2d}:
    thread.join()
print(json.dumps({{
    "results": results, "report": report, "ours": ours_errors, "rounds": rounds,
    "after": numbas_own(),
    "signatures": {{name: [str(s) for s in getattr(module, name).signatures] for name in ("helper", "user", "cached")}},
    "cache_path": module.cached.stats.cache_path,
    "cache_hits": sum(module.cached.stats.cache_hits.values()),
}}))
"""


@pytest.mark.skipif(JIT_DISABLED, reason="NUMBA_DISABLE_JIT is set: nothing is compiled")
def test_the_users_njit_code_compiles_and_runs_as_without_collide2d_also_while_ours_compile(tmp_path):
    folder = tmp_path / "user"
    folder.mkdir()
    (folder / "usercode.py").write_text(textwrap.dedent(USER_MODULE))

    def run(with_collide2d, cache):
        code = SCRIPT.format(folder=str(folder), with_collide2d=with_collide2d)
        return json.loads(_run(code, _empty_cache(tmp_path / cache)).stdout.strip().splitlines()[-1])

    alone = run(False, "alone")
    beside = run(True, "beside")
    assert beside["ours"] == ["OVERLAPPING"]
    # the user's functions were typed while our kernels compiled, and Numba's own functions did it
    assert any(during for _, during in beside["report"]), beside["report"]
    assert all(own for own, _ in beside["report"]) and all(own for own, _ in alone["report"])
    assert beside["after"] and alone["after"]
    # the same answers, bit for bit, in every round; the same signatures (an integer literal
    # compiles the helper once per value in plain Numba: not for int64 as our kernels' helpers)
    assert alone["results"][0] == beside["results"][0]
    assert all(result == alone["results"][0] for result in beside["results"])
    assert alone["signatures"] == beside["signatures"]
    assert any("Literal" in s for s in alone["signatures"]["helper"])
    # the cached function is cached where Numba puts it (NUMBA_CACHE_DIR), not in collide2d's cache
    assert alone["cache_path"].startswith(str(tmp_path / "alone" / "numba"))
    assert beside["cache_path"] == alone["cache_path"].replace(str(tmp_path / "alone"), str(tmp_path / "beside"))
