"""collide2d in forked children and next to the user's own Numba code.

collide2d runs its batch loops in a thread pool of its own and never starts Numba's threading
layer: with GNU OpenMP that layer terminates the parallel code of any child made by ``fork`` from
the process that started it. And it compiles without changing anything the user's own Numba code
sees: no ``numba.config`` value is swapped, no event is hidden from the user's listeners. The
subprocesses start fresh (nothing compiled or loaded yet), the compiling ones on an empty cache.
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np
import pytest
from test_first_run import _empty_cache, _run

import collide2d as c2
from collide2d import _jit
from collide2d.broadphase import _settle
from conftest import JIT_DISABLED

FORK = """
    import hashlib, multiprocessing
    import numba
    import numpy as np
    import collide2d as c2

    @numba.njit(parallel=True)
    def user_total(x):  # the user's own parallel code
        s = 0.0
        for i in numba.prange(x.shape[0]):
            s += x[i]
        return s

    def build():
        # 40,000 > 32,768: the construction loops run on both threads
        rng = np.random.default_rng(7)
        n = 40_000
        centre, radii, angle = rng.uniform(-50, 50, (n, 2)), rng.uniform(1, 2, (n, 2)), rng.uniform(-3, 3, n)
        e, b = c2.Ellipse(centre, radii, angle), c2.RotatedBox(centre, radii, angle)
        data = e.direction.tobytes() + b.corners.tobytes() + e.angle.tobytes()
        return hashlib.sha256(data).hexdigest(), angle, e.direction

    def child(queue, with_user_code):
        data = build()[0]
        queue.put((data, user_total(np.ones(1000)) if with_user_code else None))

    def in_child(with_user_code):
        context = multiprocessing.get_context("fork")
        queue = context.Queue()
        process = context.Process(target=child, args=(queue, with_user_code))
        process.start()
        process.join(120)
        return process.exitcode, queue.get(timeout=5) if process.exitcode == 0 else (None, None)

    data, angle, direction = build()
    print(float(np.max(np.abs(direction - np.stack([np.cos(angle), np.sin(angle)], axis=-1)))))
    # a child of a process where collide2d ran its large batches: both collide2d and the
    # user's parallel code run
    code, (child_data, total) = in_child(True)
    print(code, child_data == data, total)
    # the user starts Numba's threading layer here: collide2d's loops still run in a child
    print(user_total(np.ones(10)))
    code, (child_data, _) = in_child(False)
    print(code, child_data == data)
"""


@pytest.mark.skipif(JIT_DISABLED, reason="NUMBA_DISABLE_JIT is set: nothing is compiled")
@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_a_child_made_by_fork_builds_large_batches_and_runs_the_users_parallel_code():
    lines = _run(FORK, timeout=300).stdout.split("\n")
    assert float(lines[0]) <= 2.0**-52  # the stored directions are (cos, sin) of the angles
    assert lines[1:4] == ["0 True 1000.0", "10.0", "0 True"]


def _batches():
    rng = np.random.default_rng(11)
    n = 300
    centre, radii, angle = rng.uniform(-20, 20, (n, 2)), rng.uniform(0.5, 2, (n, 2)), rng.uniform(-7, 7, n)
    angle[::50] = 1e300  # beyond the fast reduction: reduced exactly in Python
    return centre, radii, angle


def _everything_the_row_loops_make():
    centre, radii, angle = _batches()
    ellipses, boxes = c2.Ellipse(centre, radii, angle), c2.RotatedBox(centre, radii, angle)
    polygons = c2.Polygon(boxes.corners)
    turn = np.linspace(-3, 3, len(angle))
    made = [ellipses.direction, ellipses.angle, boxes.corners, boxes.angle]
    for shapes in (ellipses, boxes, polygons, c2.Segment(centre, centre + radii), c2.Point(centre)):
        made.append(c2.rotate(shapes, turn, origin=(1.0, -2.0)).bounds)
    for backend in ("grid", "sweep", "brute"):
        made.append(c2.query(ellipses, boxes, backend=backend, predicate=None))
        made.append(c2.query_pairs(ellipses, backend=backend, predicate="intersects"))
        made.append(c2.query_pairs(ellipses, backend=backend, periodic=(45, 45)))
    return made


@pytest.mark.skipif(JIT_DISABLED, reason="NUMBA_DISABLE_JIT is set: no compiled loops")
def test_row_loops_cut_into_slices_give_the_answers_of_one_piece(monkeypatch):
    # every loop over rows (construction, rigid moves, the sweep, grid and brute broad phases and
    # their row sorts, the ellipse filters) run on many slices in threads gives the very answers
    # of one call over all rows
    whole = _everything_the_row_loops_make()
    monkeypatch.setattr(_jit, "PARALLEL_FROM", 0)
    monkeypatch.setattr(_jit, "SERIAL_BELOW", 8)  # slices of 2 rows and more
    monkeypatch.setattr(_jit, "threads_here", lambda: 2)
    monkeypatch.setattr(_settle, "SERIAL_BELOW", 0)
    sliced = _everything_the_row_loops_make()
    for a, b in zip(whole, sliced):
        np.testing.assert_array_equal(a, b)
    # the directions against (cos, sin), and a few single shapes built in Python
    centre, radii, angle = _batches()
    direction = sliced[0]
    expected = np.array([(math.cos(t), math.sin(t)) for t in angle.tolist()])
    assert np.max(np.abs(direction - expected)) <= 2.0**-52
    for i in (0, 1, 50, 299):
        single = c2.Ellipse(centre[i], radii[i], angle[i])
        assert tuple(direction[i]) == tuple(single.direction)


def test_loops_never_start_numbas_threading_layer():
    code = """
        import numba
        import numpy as np
        import collide2d as c2
        n = 40_000
        rng = np.random.default_rng(3)
        e = c2.Ellipse(rng.uniform(0, 400, (n, 2)), (1.0, 0.5), rng.uniform(0, 3, n))
        print(int(c2.intersects(e, e[::-1]).sum()) >= 0, len(c2.query_pairs(e[:5000])[0]) >= 0)
        try:
            print(numba.threading_layer())
        except ValueError as error:
            print(error)
    """
    assert _run(code).stdout.split("\n")[:2] == ["True True", "Threading layer is not initialized."]


CACHE_RACE = """
    import importlib, os, pkgutil, sys, threading
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    import numba
    sys.path.insert(0, {folder!r})
    import usermod

    expected = numba.njit(cache=True)(usermod.f).stats.cache_path  # Numba's own choice
    paths, done = [], []

    def user():  # the user's own cache=True functions, made while collide2d makes its dispatchers
        while not done:
            paths.append(numba.njit(cache=True)(usermod.f).stats.cache_path)

    thread = threading.Thread(target=user)
    thread.start()
    import collide2d._kernels as kernels
    for module in pkgutil.walk_packages(kernels.__path__, kernels.__name__ + "."):
        importlib.import_module(module.name)
    done.append(True)
    thread.join()
    g = numba.njit(cache=True)(usermod.f)
    g(1.0)
    print(len(paths) > 20, [p for p in paths if p != expected][:3])
    print(expected == os.path.join(os.environ["NUMBA_CACHE_DIR"], os.path.basename(expected)))
    print(sorted(name for name in os.listdir(expected) if name.endswith(".nbi")))
"""


@pytest.mark.skipif(JIT_DISABLED, reason="NUMBA_DISABLE_JIT is set: nothing is cached")
def test_user_functions_made_while_collide2d_makes_its_dispatchers_are_cached_where_numba_puts_them(tmp_path):
    folder = tmp_path / "user"
    folder.mkdir()
    (folder / "usermod.py").write_text("def f(x):\n    return x + 1.0\n")
    lines = _run(CACHE_RACE.format(folder=str(folder)), _empty_cache(tmp_path)).stdout.split("\n")
    index = f"usermod.f-1.py{sys.version_info[0]}{sys.version_info[1]}.nbi"
    assert lines[:3] == ["True []", "True", str([index])]


LOCK_TIME = """
    import numba
    import numpy as np
    from numba.core import event
    import collide2d as c2

    def timed(call):
        lock, compiling = [], []
        with event.install_timer("numba:llvm_lock", lock.append), event.install_timer("numba:compile", compiling.append):
            call()
        return sum(lock) / compiling[0]  # no lock time seen: no call of the callback

    @numba.njit
    def user(x, y):
        s = 0.0
        for i in range(x.shape[0]):
            s += abs(x[i] * y) + 2.0 * x[i]
        return s

    ours = timed(lambda: c2.relate(c2.Segment((0, 0), (1, 0)), c2.Point((2, 0))))
    theirs = timed(lambda: user(np.ones(3), 2.0))
    print(ours, theirs)
"""


@pytest.mark.skipif(JIT_DISABLED, reason="NUMBA_DISABLE_JIT is set: nothing is compiled")
def test_a_user_timer_on_the_llvm_lock_sees_our_compilations(tmp_path):
    # the share of a compilation spent holding Numba's LLVM lock, as the user's own timers see it:
    # for our kernels about what it is for the user's own function (four tenths here), not 0
    ours, theirs = map(float, _run(LOCK_TIME, _empty_cache(tmp_path)).stdout.split())
    assert theirs > 0.1 and ours > theirs / 3
