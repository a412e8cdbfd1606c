"""Batch loop of the ray casts against rounded rows (:mod:`.raycast_rounded`), as
:mod:`.motion.loops_raycast` for the other kinds: ``codes[k]`` the decision (``UNDECIDED`` for the glue
to settle on Fractions), ``out[k] = distance, px, py, nx, ny`` for the decided rows."""

from numba import prange

from collide2d._jit import loop

from .motion.raycast import UNDECIDED
from .raycast_rounded import raycast_code_rounded, raycast_rounded


@loop
def raycast_rounded_loop(pa, va, ia, pb, vb, ib, eps, codes, features, out):
    for k in prange(ia.shape[0]):
        code, feature = raycast_code_rounded(pa[ia[k]], va, pb[ib[k]], eps)
        codes[k] = code
        features[k] = feature
        if code != UNDECIDED:
            out[k, 0], out[k, 1], out[k, 2], out[k, 3], out[k, 4] = raycast_rounded(pa[ia[k]], va, pb[ib[k]], code, feature)
