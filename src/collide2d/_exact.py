"""Old import path of :mod:`collide2d._robust.exact`, kept for the tests that import it (issue 25
item 6 removes it). The names are the same objects (the counts are shared)."""

from collide2d._robust.exact import _counts, counts, exact_row, kernel_function, load_uncompiled_kernels, relate, run, twin_module

__all__ = ["_counts", "counts", "exact_row", "kernel_function", "load_uncompiled_kernels", "relate", "run", "twin_module"]
