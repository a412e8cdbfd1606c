"""The only place where Numba options live, on Numba's public API.

Kernels are decorated with :func:`kernel` (a scalar function on floats) and batch loops with
:func:`loop` (a ``prange`` loop over rows or pairs, compiled as serial code only; large batches
run it on slices of their rows in threads). Both compile lazily on first call, cache the machine
code on disk (``cache=True``; set ``COLLIDE2D_NUMBA_CACHE=0`` to turn that off) and never use
``fastmath``, which would break the sign tests that exact geometry depends on.

Everything here uses Numba's public API (``numba.njit``, its ``inline="always"`` option,
``numba.config``, a dispatcher's documented ``compile``, ``stats`` and ``py_func``). The compile
shortcuts, which reach into Numba's internals to make the first run cheaper, live in one
optional module, :mod:`collide2d._jit._shortcuts`, imported only on the Numba release they were
checked against (:data:`SHORTCUTS_CHECKED_ON`) and unless ``COLLIDE2D_COMPILE_SHORTCUTS=0``
(:func:`shortcuts_active`). With that module off, or deleted, every answer is the same, bit for
bit: the shortcuts change how much work Numba does, never the code a kernel runs.

The exact fallback (:mod:`collide2d._robust.exact`) loads a second copy of :mod:`collide2d._kernels`
under another package name, registered with :func:`uncompiled_package` before it is imported;
both decorators return the functions of such a package unchanged, so the very same kernel source
runs on :class:`fractions.Fraction` values. The choice depends only on the module a function is
defined in, never on process-wide state, so one thread loading the copy cannot leave another
thread's kernels uncompiled.

A compilation (not a load from the disk cache) that lasts longer than :data:`NOTICE_AFTER` logs
a ``WARNING`` on the ``"collide2d"`` logger naming the operation being compiled, and another with
its duration when it ends; :func:`compile_seconds` tells how long compiling has taken so far.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import logging
import os
import pathlib
import sys
import threading
import time
from typing import Any

from numpy import ndarray as _ndarray

_CACHE = os.environ.get("COLLIDE2D_NUMBA_CACHE", "1") != "0"
_cache_dir = None
_uncompiled: set = set()  # package names whose kernels stay plain Python (see uncompiled_package)
_dispatcher_class = None  # the class of our dispatchers, once one is made

logger = logging.getLogger("collide2d")


def uncompiled_package(name):
    """Make :func:`kernel` and :func:`loop` leave the functions of package ``name`` uncompiled.

    Call it before the package is imported (see :func:`collide2d._robust.exact.load_uncompiled_kernels`).
    """
    _uncompiled.add(name)


def _is_uncompiled(function):
    return _uncompiled_name(function.__module__)


def _uncompiled_name(module):
    return any(module.startswith(name + ".") for name in _uncompiled)


def compiled_module(module):
    """True when the functions of ``module`` (a module name) are compiled by Numba: False in an
    uncompiled copy of the kernel package and when ``NUMBA_DISABLE_JIT`` is set."""
    import numba

    return not (numba.config.DISABLE_JIT or _uncompiled_name(module))


# -- the gate of the compile shortcuts ------------------------------------------------------------------

# The Numba release that collide2d._jit._shortcuts was written and checked against (the whole
# suite passes with it, and without it). On any other, a patch release included, the module is
# not imported: Numba's internals change between releases, and a shortcut that no longer fits
# them must cost a slower first run, never a failing compile.
SHORTCUTS_CHECKED_ON = "0.68.1"

_shortcuts_state: dict = {}  # "module": the shortcuts module or None, once decided
_shortcuts_lock = threading.Lock()


def _shortcuts_module():
    """The module :mod:`collide2d._jit._shortcuts`, or None where the plain path runs (see
    :func:`shortcuts_active`). Decided once, before the first kernel is made."""
    if "module" in _shortcuts_state:
        return _shortcuts_state["module"]
    with _shortcuts_lock:
        if "module" not in _shortcuts_state:
            _shortcuts_state["module"] = _load_shortcuts()
    return _shortcuts_state["module"]


def _load_shortcuts():
    if os.environ.get("COLLIDE2D_COMPILE_SHORTCUTS", "1") == "0":
        return None
    import numba

    if numba.__version__ != SHORTCUTS_CHECKED_ON or numba.config.DISABLE_JIT:
        return None
    try:
        module = importlib.import_module(f"{__name__}._shortcuts")
    except ImportError:  # deleted, or a name it imports is gone
        return None
    return module if module.usable() else None


def shortcuts_active():
    """True when the compile shortcuts (:mod:`collide2d._jit._shortcuts`) are in use: on the Numba
    release :data:`SHORTCUTS_CHECKED_ON` exactly, with the module present and compilation on, unless
    ``COLLIDE2D_COMPILE_SHORTCUTS=0``. Otherwise the kernels compile through Numba's public API
    only, to the same answers."""
    return _shortcuts_module() is not None


def kernel_cache_dir(numba):
    """Directory of the compile shortcuts' disk cache, keyed by a hash of every kernel source file
    and of the shortcuts module.

    Numba re-compiles a cached function when its own file changes, but not when a kernel it calls
    from another file does (a loop would keep running the old kernel). Keying the directory by
    the sources of all of ``_kernels/`` makes any kernel change start from a fresh cache, and by
    ``_jit/_shortcuts.py`` (which lowers the calls by address) any change of how a loop calls its
    kernel. It lives under ``NUMBA_CACHE_DIR`` when that is set, else under
    ``$XDG_CACHE_HOME/collide2d``; the plain path never uses it (see :func:`cache_location`), so
    machine code made with the shortcuts is never loaded without them, nor the reverse.
    """
    global _cache_dir
    if _cache_dir is None:
        digest = hashlib.sha1(b"collide2d compile shortcuts")
        here = pathlib.Path(__file__).parent
        package = here.parent
        for path in sorted(package.joinpath("_kernels").rglob("*.py")) + [here / "_shortcuts.py"]:
            digest.update(path.relative_to(package).as_posix().encode())
            digest.update(path.read_bytes())
        base = numba.config.CACHE_DIR or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "collide2d"
        )
        _cache_dir = os.path.join(base, f"numba-{digest.hexdigest()[:16]}")
    return _cache_dir


def shared_cache_safe():
    """True when processes compiling at once may share the kernel cache: it is on, it is the
    compile shortcuts' own (:func:`cache_location`), and its saves are locked (POSIX ``flock``).
    Numba's own cache has no such lock: two processes saving signatures of one function at once
    may point one signature at the other's machine code."""
    shortcuts = _shortcuts_module()
    return _CACHE and shortcuts is not None and shortcuts.cache_locked()


def cache_location(numba):
    """Where the kernels' machine code is cached: with the compile shortcuts,
    :func:`kernel_cache_dir`; on the plain path (another Numba release, or
    ``COLLIDE2D_COMPILE_SHORTCUTS=0``), Numba's own place for any ``cache=True`` function
    (``NUMBA_CACHE_DIR``, else ``__pycache__`` next to the kernel sources or a user-wide
    directory). Numba's index there is stamped by each function's own file only: after editing a
    kernel in a source checkout, delete that cache."""
    if shortcuts_active():
        return kernel_cache_dir(numba)
    return "Numba's own cache locations (see numba.config.CACHE_DIR)"


# -- compile notices and compile time -----------------------------------------------------------------

_compile_lock = threading.Lock()
_compile_state = {"seconds": 0.0, "announced": False}
_compile_depth = threading.local()

# A compilation still running after this many seconds is announced (a WARNING on the "collide2d"
# logger naming the operation), and its end with its duration; shorter ones pass silently.
NOTICE_AFTER = 1.0

_KINDS = ("ellipse", "polygon", "segment", "line", "point")


def compile_seconds():
    """Wall-clock seconds spent compiling collide2d kernels in this process so far (not counting
    loads from the disk cache)."""
    return _compile_state["seconds"]


# The apps: their functions call the library's, which the notice names instead.
_APPS = frozenset(f"collide2d.{name}" for name in ("cli", "demo", "dask", "plotting", "io", "scenes", "__main__"))


def _operation(dispatcher):
    """What is being compiled, for the notice: the public function called (the outermost frame
    of a public function of collide2d on this thread's stack, or the class of a shape being made)
    and the kind pair of a pair kernel or loop (from its name, ``relate_ellipse_polygon_loop``);
    the kernel's own name when no public function is on the stack."""
    words = dispatcher.py_func.__name__.split("_")
    pair = ""
    if len(words) >= 3 and words[1] in _KINDS and words[2] in _KINDS:
        pair = f" ({words[1]}, {words[2]})"
    public = None
    frame = sys._getframe(1)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        name = frame.f_code.co_name
        if module.startswith("collide2d.") and not module.startswith("collide2d._") and module not in _APPS:
            if name == "__init__" and "self" in frame.f_locals:
                public = type(frame.f_locals["self"]).__name__
            elif not name.startswith("_") and name != "<lambda>":
                public = name
        frame = frame.f_back
    return f"{public}{pair}" if public else dispatcher.py_func.__qualname__


def _notice_compiling(what, first):
    hint = (" (first use: the machine code is cached on disk for later runs; 'collide2d warmup' compiles "
            "every operation ahead of time)") if first else ""
    logger.warning("collide2d: compiling %s ...%s", what, hint)


def _misses(dispatcher):
    """Compilations of ``dispatcher`` so far: the misses of its disk cache (a dispatcher's
    documented ``stats``; counted with the cache off too)."""
    return sum(tuple(dispatcher.stats.cache_misses.values()))


def _announce(notice):
    if not notice["compiling"]():  # a load from the disk cache that takes long: not a compilation
        return
    with _compile_lock:
        first = not _compile_state["announced"]
        _compile_state["announced"] = notice["told"] = True
    _notice_compiling(notice["what"], first)


def _timed(dispatcher):
    """Make ``dispatcher.compile`` time the top-level compilations of this thread and announce
    those that last (:data:`NOTICE_AFTER`). Numba calls ``compile`` for a call from Python with
    new argument types and for a call typed in another kernel; a call made while another of our
    compilations runs in this thread is part of that one. Only this dispatcher object changes."""
    compile_ = dispatcher.compile

    @functools.wraps(compile_)
    def compile(sig):
        if getattr(_compile_depth, "n", 0):
            return compile_(sig)
        _compile_depth.n = 1
        before = _misses(dispatcher)
        notice = None
        if logger.isEnabledFor(logging.WARNING):
            notice = {"what": _operation(dispatcher), "told": False,
                      "compiling": lambda: _misses(dispatcher) > before}
            notice["timer"] = threading.Timer(NOTICE_AFTER, _announce, (notice,))
            notice["timer"].daemon = True
            notice["timer"].start()
        start = time.perf_counter()
        try:
            return compile_(sig)
        finally:
            seconds = time.perf_counter() - start
            _compile_depth.n = 0
            compiled = _misses(dispatcher) > before
            if compiled:
                with _compile_lock:
                    _compile_state["seconds"] += seconds
            if notice is not None:
                notice["timer"].cancel()
                if compiled and seconds >= NOTICE_AFTER:
                    notice["timer"].join()  # its notice first, if it is being written
                    if not notice["told"]:
                        _announce(notice)
                    logger.warning("collide2d: compiling %s done in %.1f s", notice["what"], seconds)

    dispatcher.compile = compile
    return dispatcher


def _compile(function):
    """Make a Numba dispatcher for ``function``, cached on disk (see :func:`cache_location`):
    the compile shortcuts' where they are active, else ``numba.njit``'s."""
    global _dispatcher_class
    import numba

    if numba.config.DISABLE_JIT:
        return function
    options = {"fastmath": False, "nogil": True}
    shortcuts = _shortcuts_module()
    if shortcuts is not None:
        options["nopython"] = True
        dispatcher = shortcuts.dispatcher(function, options, kernel_cache_dir(numba) if _CACHE else None)
    else:
        dispatcher = numba.njit(cache=_CACHE, **options)(function)
    _dispatcher_class = type(dispatcher)
    return _timed(dispatcher)


# -- calls from a loop to a kernel's own machine code ---------------------------------------------------

# A loop over one of the large pair kernels that links the kernel compiles its whole call tree
# once more, on top of the kernel's own compilation for single pairs. With the compile shortcuts,
# a loop made with ``@loop(calls=kernel, ...)`` calls ``call_at(kernel, at, ...)``, and for a
# batch of fewer than LINKED_FROM pairs ``at`` is the address of the kernel's machine code, which
# the loop calls instead of linking it (a call through an address cannot be inlined and passes
# each array as its seven to nine fields: batches of 30,000 pairs ran 0 to 5% slower, measured).
# Larger batches, and the plain path always, pass ``at = None``: a plain call, the kernel linked.
#
# Batches of this many pairs or more run the loop with the kernel linked in: compiling it costs
# 0.1 to 0.4 s of CPU more, which 65,536 pairs at up to 5% of a few hundred nanoseconds each (the
# cost of the call by address) win back within some hundreds of calls, and a large batch is
# rarely called once.
LINKED_FROM = 65536

_linked = threading.local()  # see linked_copies


def _plain_call_at(kernel, address, row_a, va, row_b, vb, tail):
    """``kernel(row_a, va, row_b, vb, *tail)``: the plain path's ``call_at`` (``address`` is
    None, or 0 without compilation). In compiled code Numba inlines its body into the loop before
    typing (``numba.njit(inline="always")``), so the loop links the kernel, as a direct call does,
    and this function is never compiled on its own (an ``overload(inline="always")`` would compile
    its implementation, with the kernel linked in, once per loop, only to inline it)."""
    return kernel(row_a, va, row_b, vb, *tail)


def __getattr__(name: str) -> Any:
    # ``call_at`` is the shortcuts' (typed and lowered as a call by address) where they are
    # active, else the plain one; decided when the first loop module imports it
    if name == "call_at":
        shortcuts = _shortcuts_module()
        if shortcuts is not None:
            return shortcuts.call_at
        with _shortcuts_lock:
            if "plain_call_at" not in _shortcuts_state:
                import numba

                # the Python function itself when NUMBA_DISABLE_JIT is set
                _shortcuts_state["plain_call_at"] = numba.njit(inline="always")(_plain_call_at)
        return _shortcuts_state["plain_call_at"]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def address_of(kernel, pa, va, pb, vb, *tail):
    """Address of ``kernel``'s machine code for the call ``kernel(pa[i], va, pb[j], vb, *tail)``.

    ``tail`` names the Numba types of the trailing arguments (``"float64"``, ``"int64"``); the
    loop must pass them as exactly these types (``np.float64(eps)``, ``np.int64(code)``: Numba's
    ``float`` keeps a float32 a float32), since the call at the address is lowered for the types
    it is typed with. The kernel is compiled (or loaded from the disk cache) as for a call from
    Python. 0 without compilation; ``None`` (link the kernel in) on the plain path (see
    :func:`shortcuts_active`).
    """
    import numba

    if numba.config.DISABLE_JIT:
        return 0
    shortcuts = _shortcuts_module()
    if shortcuts is None:
        return None
    return shortcuts.address_of(kernel, pa, va, pb, vb, *tail)


def kernel_at(kernel, n, pa, va, pb, vb, *tail):
    """The ``at`` argument of a loop making ``n`` calls ``kernel(pa[i], va, pb[j], vb, *tail)``:
    the kernel's address (:func:`address_of`) when ``n`` is below :data:`LINKED_FROM`, else
    ``None`` (the copy of the loop that links the kernel in), also inside :func:`linked_copies`."""
    if n >= LINKED_FROM or getattr(_linked, "depth", 0):
        return None
    return address_of(kernel, pa, va, pb, vb, *tail)


@contextlib.contextmanager
def linked_copies():
    """Run the loops called from this thread with the kernel linked in, whatever the batch size,
    while the block lasts: ``collide2d warmup`` compiles the copies used from :data:`LINKED_FROM`
    pairs on with a small batch (the same argument types, hence the same machine code)."""
    _linked.depth = getattr(_linked, "depth", 0) + 1
    try:
        yield
    finally:
        _linked.depth -= 1


def kernel(function):
    """Compile a scalar kernel: ``nopython``, cached, no fastmath, compiled on first call."""
    if _is_uncompiled(function):
        return function
    return _compile(function)


# Batches smaller than this run a serial copy of the loop: a parallel launch costs tens of
# microseconds on an idle machine and milliseconds on a loaded one (every thread must be scheduled).
SERIAL_BELOW = 4096

# The leading parameters of a pair loop (see :func:`loop`).
_PAIR_PARAMETERS = ("pa", "va", "ia", "pb", "vb", "ib")
_pool = None
_pool_lock = threading.Lock()
_one_thread = threading.local()


def _work_size(args):
    """Largest leading dimension among the array arguments of a loop call (its batch size)."""
    n = 0
    for arg in args:
        if type(arg) is _ndarray and arg.ndim and arg.shape[0] > n:
            n = arg.shape[0]
    return n


def _thread_count():
    import numba

    return max(1, int(numba.config.NUMBA_NUM_THREADS))


@contextlib.contextmanager
def one_thread():
    """Run the loops called from this thread on this thread only, while the block lasts."""
    depth = getattr(_one_thread, "depth", 0)
    _one_thread.depth = depth + 1
    try:
        yield
    finally:
        _one_thread.depth = depth


def threads_here():
    """How many threads a loop called from this thread may use.

    1 inside :func:`one_thread`; else, once Numba's threading layer has been started (by the
    user's own parallel code or ``numba.set_num_threads``), ``numba.get_num_threads()``, so that
    ``numba.set_num_threads(1)`` in this thread is honoured; else ``NUMBA_NUM_THREADS``.

    collide2d never starts Numba's threading layer (no ``parallel=True`` loop, no
    ``numba.get_num_threads()`` before it is started): with GNU OpenMP, the layer records the
    process that started it and terminates any parallel region run in a child of that process
    made by ``fork`` ("fork() called from a process already using GNU OpenMP"; Numba's
    ``omppool.cpp``, and its documentation on threading layers), so starting it would kill the
    user's own parallel code in forked children. Our threads are a plain pool, made anew after a
    fork.
    """
    if getattr(_one_thread, "depth", 0):
        return 1
    import numba

    try:
        numba.threading_layer()  # raises ValueError while the layer is not started
    except ValueError:
        return _thread_count()
    return min(_thread_count(), numba.get_num_threads())


def _thread_pool():
    global _pool
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                from concurrent.futures import ThreadPoolExecutor

                _pool = ThreadPoolExecutor(max_workers=_thread_count(), thread_name_prefix="collide2d")
    return _pool


def _forget_pool():
    """In a child process made by ``fork``: the parent's pool threads do not exist there."""
    global _pool
    _pool = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


def run_in_threads(n, piece):
    """Call ``piece(start, stop)`` on consecutive slices covering ``range(n)``, in a pool of threads.

    About four slices per thread (each of at least ``SERIAL_BELOW // 4`` rows), so that the threads
    stay busy when some rows cost more than others; one call in this thread when ``n`` is small
    or when :func:`threads_here` is 1. ``piece`` should call compiled code, which releases the GIL.
    """
    threads = threads_here()
    pieces = 1 if threads == 1 else max(1, min(4 * threads, n // (SERIAL_BELOW // 4)))
    if pieces == 1:
        piece(0, n)
        return
    bounds = [n * i // pieces for i in range(pieces + 1)]
    for future in [_thread_pool().submit(piece, bounds[i], bounds[i + 1]) for i in range(pieces)]:
        future.result()


def _read_only(array):
    """``array`` itself when read-only, else a read-only view: the loops then see one array type
    for their inputs (Numba compiles once per type, and read-only is a different type)."""
    if array.flags.writeable:
        array = array.view()
        array.flags.writeable = False
    return array


def _pair_loop(function, calls=None, tail=()):
    """A pair loop: only a serial copy is compiled; large batches run it on slices in threads.

    The slices split the rows ``k`` of the batch: ``ia``, ``ib`` and every array argument after
    them (``relation``, ``out``, ``count``: one row per pair), while the parameter tables and
    vertex arrays are shared. Numba releases the GIL in the loops (``nogil=True``), so the
    threads run at once; every row is written by one thread only, so the result does not depend
    on thread timing.
    """
    serial = _compile(function)

    def address(pa, va, ia, pb, vb):
        # the kernel's address for a small batch, else None: the copy of the loop with the kernel
        # linked in (see kernel_at)
        if calls is None:
            return ()
        return (kernel_at(calls, ia.shape[0], pa, va, pb, vb, *tail),)

    def run_serial(*args):
        pa, va, ia, pb, vb, ib = (_read_only(x) for x in args[:6])
        return serial(pa, va, ia, pb, vb, ib, *args[6:], *address(pa, va, ia, pb, vb))

    def run_threaded(*args):
        pa, va, ia, pb, vb, ib = (_read_only(x) for x in args[:6])
        rest = args[6:] + address(pa, va, ia, pb, vb)

        def piece(s, e):
            sliced = tuple(x[s:e] if type(x) is _ndarray else x for x in rest)
            serial(pa, va, ia[s:e], pb, vb, ib[s:e], *sliced)

        run_in_threads(ia.shape[0], piece)

    run = _runner(function, run_serial, run_threaded, lambda args: args[2].shape[0], pairs=True)
    run.serial = serial
    return run


def _cut_rows(function, names):
    """The ``pieces`` of :func:`loop` for a loop whose parameters ``names`` hold one row per
    iteration (cut to the rows of a slice) while the others are shared."""
    parameters = function.__code__.co_varnames[: function.__code__.co_argcount]
    missing = [name for name in names if name not in parameters]
    if missing:
        raise TypeError(f"{function.__qualname__} has no parameter {missing[0]!r}")
    cut = frozenset(parameters.index(name) for name in names)
    first = min(cut)

    def count(args):
        return args[first].shape[0]

    def piece(args, s, e):
        return tuple(x[s:e] if i in cut else x for i, x in enumerate(args))

    return count, piece


def _row_loop(function, pieces):
    """A loop over rows with only a serial copy compiled; large batches run it on slices of the
    rows in threads, ``pieces = (count, cut)`` telling how (see :func:`loop`). The values the
    slices return are added (the loops that return one return a count)."""
    serial = _compile(function)
    count, cut = pieces

    def run_threaded(*args):
        results = []  # list.append is atomic
        run_in_threads(count(args), lambda s, e: results.append(serial(*cut(args, s, e))))
        return None if results[0] is None else sum(results)

    return _runner(function, serial, run_threaded, _work_size)


# Loops other than pair loops run on slices in threads only for batches of this many rows or
# more (the largest leading dimension of their arrays), and only when more than one thread may
# run: their rows are cheap (a 1e5-row construction loop takes about a millisecond), and starting
# the threads costs tens of microseconds on an idle machine and milliseconds on a loaded one.
PARALLEL_FROM = 32768


def _runner(function, small, large, size, pairs=False):
    """The callable that :func:`loop` returns: ``large(*args)`` (the slices in threads) for
    batches of :data:`PARALLEL_FROM` rows, or with ``pairs`` :data:`SERIAL_BELOW` pairs, or more
    (``size(args)``) when more than one thread may run here (:func:`threads_here`), else
    ``small(*args)``."""

    @functools.wraps(function)
    def run(*args):
        if size(args) < (SERIAL_BELOW if pairs else PARALLEL_FROM) or threads_here() == 1:
            return small(*args)
        return large(*args)

    run.serial = small
    run.parallel = large
    run.py_func = function
    return run


def loop(function=None, *, calls=None, tail=(), rows=None, pieces=None):
    """Compile a batch loop (serial code: its ``prange`` runs as ``range``); large batches run it
    on slices of their rows in a pool of threads.

    No loop is compiled with Numba's ``parallel=True``: that would start Numba's threading layer,
    which with GNU OpenMP kills the parallel code of children made by ``fork`` (see
    :func:`threads_here`), and each parallel copy cost about 1 s more to compile than the serial
    one. The loops release the GIL (``nogil=True``), so the threads run at once; every row is
    written by one thread only, so the result does not depend on thread timing.

    A *pair loop*, whose parameters begin with ``pa, va, ia, pb, vb, ib`` (parameter tables,
    vertex arrays and row indices of the two sides; one iteration ``k`` per pair, writing only
    row ``k`` of its outputs), is cut into slices of ``ia``, ``ib`` and every later array
    argument (see :func:`_pair_loop`). Its inputs are passed read-only, so that each loop is
    compiled once whatever the caller's arrays.

    Any other loop says how its rows are cut: ``rows`` names the parameters that hold one row
    per iteration (cut to the slice; the others are shared), or ``pieces = (count, cut)`` gives
    the number of rows of a call, ``count(args)``, and the arguments of the rows ``s .. e - 1``,
    ``cut(args, s, e)``. The values returned by the slices are added. A loop with neither always
    runs in the calling thread.

    ``@loop(calls=kernel, tail=("float64",))`` makes a pair loop whose last parameter, ``at``, is
    not passed by the caller: with the compile shortcuts and for a batch of fewer than
    :data:`LINKED_FROM` pairs it receives the address of ``kernel``'s machine code for the call
    ``kernel(pa[i], va, pb[j], vb, <arguments of the types in tail>)``, which the loop makes with
    ``call_at(kernel, at, ...)`` instead of linking the kernel's code into its own (for the large
    kernels: their call tree is then compiled once, not once more per loop); for a larger batch,
    and always on the plain path, it receives ``None``, and that copy of the loop links the
    kernel in, as a plain call would.

    The returned callable keeps the loop's signature; ``.parallel`` runs the slices in threads
    whatever the batch size, ``.serial`` is the Numba dispatcher (the whole batch in the calling
    thread) and ``.py_func`` the Python function.
    """
    if function is None:
        return functools.partial(loop, calls=calls, tail=tail, rows=rows, pieces=pieces)
    if _is_uncompiled(function):
        return function
    code = function.__code__
    if code.co_varnames[: min(code.co_argcount, 6)] == _PAIR_PARAMETERS:
        return _pair_loop(function, calls, tail)
    if rows is not None:
        pieces = _cut_rows(function, rows)
    if pieces is None:
        serial = _compile(function)
        return _runner(function, serial, serial, _work_size)
    return _row_loop(function, pieces)
