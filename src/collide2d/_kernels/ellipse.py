"""Ellipse kernels: an ellipse (or circle) against every kind.

Frame: all pair formulas use only differences to the ellipse centre, ``y = x - c``; the ellipse
is ``b^2 (w.y)^2 + a^2 (w^.y)^2 <= a^2 b^2 |w|^2`` (see the package docstring), a positive sum of
squares that is exact in rationals (ALGORITHMS.md section 9).
"""

from collide2d._jit import kernel  # noqa: F401

from . import codes  # noqa: F401
from .conic import relate_ellipse_ellipse  # noqa: F401  (ellipse vs ellipse lives in conic.py)
