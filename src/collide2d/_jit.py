"""The only place where Numba options live.

Kernels are decorated with :func:`kernel` (a scalar function on floats) and batch loops with
:func:`loop` (a ``prange`` loop over pairs).  Both compile lazily on first call, cache the machine
code on disk (``cache=True``; set ``COLLIDE2D_NUMBA_CACHE=0`` to turn that off) and never use
``fastmath``, which would break the sign tests that exact geometry depends on.

The exact fallback (:mod:`collide2d._exact`) loads a second copy of :mod:`collide2d._kernels`
inside :func:`pure_python`; while it does, both decorators return the function unchanged, so the
very same kernel source runs on :class:`fractions.Fraction` values.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pathlib

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


def _compile(function, **options):
    """Decorate with ``numba.njit``; the cache locator is chosen here, inside our cache directory."""
    import numba

    if not _CACHE:
        return numba.njit(cache=False, fastmath=False, nogil=True, **options)(function)
    previous = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = kernel_cache_dir(numba)
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


def loop(function):
    """Compile a batch loop over pairs; its ``prange`` runs on all cores."""
    if _pure_depth:
        return function
    return _compile(function, parallel=True)
