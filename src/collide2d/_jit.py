"""The only place where Numba options live.

Kernels are decorated with :func:`kernel` (a scalar function on floats) and batch loops with
:func:`loop` (a ``prange`` loop over pairs, run by a serial copy for small batches).  Both compile
lazily on first call, cache the machine code on disk (``cache=True``; set
``COLLIDE2D_NUMBA_CACHE=0`` to turn that off) and never use ``fastmath``, which would break the sign tests that exact geometry depends on.

The exact fallback (:mod:`collide2d._exact`) loads a second copy of :mod:`collide2d._kernels`
inside :func:`pure_python`; while it does, both decorators return the function unchanged, so the
very same kernel source runs on :class:`fractions.Fraction` values.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import pathlib

from numpy import ndarray as _ndarray

_CACHE = os.environ.get("COLLIDE2D_NUMBA_CACHE", "1") != "0"
_pure_depth = 0
_cache_dir = None


def kernel_cache_dir(numba):
    """Directory of the on-disk cache, keyed by a hash of every kernel source file.

    Numba re-compiles a cached function when its own file changes, but not when a kernel it calls
    from another file does (a loop would keep running the old kernel). Keying the directory by
    the sources of all of ``_kernels/`` makes any kernel change start from a fresh cache. It lives
    under ``NUMBA_CACHE_DIR`` when that is set, else under ``$XDG_CACHE_HOME/collide2d``.
    """
    global _cache_dir
    if _cache_dir is None:
        digest = hashlib.sha1()
        for path in sorted(pathlib.Path(__file__).with_name("_kernels").glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
        base = numba.config.CACHE_DIR or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "collide2d"
        )
        _cache_dir = os.path.join(base, f"numba-{digest.hexdigest()[:16]}")
    return _cache_dir


def _compile(function, subdir=None, **options):
    """Decorate with ``numba.njit``; the cache locator is chosen here, inside our cache directory.

    ``subdir`` puts the cache files in a subdirectory: Numba's cache index is keyed by the
    function's name, line, bytecode and signature but not by the compiler flags, so a second
    compilation of the same function with other flags (the serial copy of a loop) needs a
    directory of its own, else the two copies would overwrite each other's cache entries.
    """
    import numba

    if not _CACHE:
        return numba.njit(cache=False, fastmath=False, nogil=True, **options)(function)
    previous = numba.config.CACHE_DIR
    directory = kernel_cache_dir(numba)
    numba.config.CACHE_DIR = directory if subdir is None else os.path.join(directory, subdir)
    try:
        return numba.njit(cache=True, fastmath=False, nogil=True, **options)(function)
    finally:
        numba.config.CACHE_DIR = previous


@contextlib.contextmanager
def pure_python():
    """Within this block, :func:`kernel` and :func:`loop` leave functions uncompiled."""
    global _pure_depth
    _pure_depth += 1
    try:
        yield
    finally:
        _pure_depth -= 1


def kernel(function):
    """Compile a scalar kernel: ``nopython``, cached, no fastmath, compiled on first call."""
    if _pure_depth:
        return function
    return _compile(function)


# Batches smaller than this run a serial copy of the loop: a parallel launch costs tens of
# microseconds on an idle machine and milliseconds on a loaded one (every thread must be scheduled).
SERIAL_BELOW = 4096


def _work_size(args):
    """Largest leading dimension among the array arguments of a loop call (its batch size)."""
    n = 0
    for arg in args:
        if type(arg) is _ndarray and arg.ndim and arg.shape[0] > n:
            n = arg.shape[0]
    return n


def loop(function):
    """Compile a batch loop over pairs; its ``prange`` runs on all cores for large batches.

    The function is compiled twice, lazily and each with its own disk cache: with
    ``parallel=True`` and, for batches of fewer than :data:`SERIAL_BELOW` rows (the largest
    leading dimension of the array arguments), as plain serial code (``prange`` is ``range``
    there). The returned callable keeps the loop's signature; ``.parallel`` and ``.serial`` are
    the two Numba dispatchers and ``.py_func`` the Python function.
    """
    if _pure_depth:
        return function
    parallel = _compile(function, parallel=True)
    serial = _compile(function, subdir="serial")

    @functools.wraps(function)
    def run(*args):
        if _work_size(args) < SERIAL_BELOW:
            return serial(*args)
        return parallel(*args)

    run.parallel = parallel
    run.serial = serial
    run.py_func = function
    return run
