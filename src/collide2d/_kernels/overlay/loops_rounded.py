"""Batch loops of the rounded kind's overlay kernels (:mod:`area_rounded`, :mod:`points_rounded`):
``out[k]`` for the pair of rows ``pa[ia[k]]``, ``pb[ib[k]]`` of kinds ``ka``, ``kb``."""

from numba import prange

from collide2d._jit import loop

from .area_rounded import area_rounded_region  # noqa: E402
from .points_rounded import points_rounded_any  # noqa: E402


@loop
def area_rounded_region_loop(ka, pa, va, ia, kb, pb, vb, ib, out):
    for k in prange(ia.shape[0]):
        out[k] = area_rounded_region(ka, pa[ia[k]], va, kb, pb[ib[k]], vb)


@loop
def points_rounded_any_loop(ka, pa, va, ia, kb, pb, vb, ib, out, count):
    for k in prange(ia.shape[0]):
        count[k] = points_rounded_any(ka, pa[ia[k]], va, kb, pb[ib[k]], vb, out[k])
