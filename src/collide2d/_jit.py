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
import os

_CACHE = os.environ.get("COLLIDE2D_NUMBA_CACHE", "1") != "0"
_pure_depth = 0


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
    import numba

    return numba.njit(cache=_CACHE, fastmath=False, nogil=True)(function)


def loop(function):
    """Compile a batch loop over pairs; its ``prange`` runs on all cores."""
    if _pure_depth:
        return function
    import numba

    return numba.njit(cache=_CACHE, fastmath=False, nogil=True, parallel=True)(function)
