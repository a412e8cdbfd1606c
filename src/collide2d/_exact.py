"""Old import path of :mod:`collide2d._robust.exact`, kept for the tests that import it (to be
removed once they import the new path). The names are the same objects (the counts are shared)."""

from collide2d._robust.exact import _counts, counts, exact_row, kernel_function, load_uncompiled_kernels, relate, run, twin_module

__all__ = ["_counts", "counts", "exact_row", "kernel_function", "load_uncompiled_kernels", "relate", "run", "twin_module"]
