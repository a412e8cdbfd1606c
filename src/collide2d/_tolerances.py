"""Every tolerance of collide2d, with its unit and its reason (after Box2D's ``constants.h``).

The glue's and the ladder's tolerances are *defined* here, once; the modules that use them import
them. Two groups must keep their own definition and are *listed* in :data:`ELSEWHERE` with their
value, unit and reason, and ``tests/test_tolerances.py`` checks that the listed values are the
ones in force:

* the kernels' constants: a kernel imports only ``_jit`` and other kernels (the kernel layer sits
  below this module, and its on-disk cache is keyed by the kernels' sources);
* constants of modules that other parts of the project own (motion, the nearest search, the
  supported range in ``_validate``, the foreign formats).

Warning: changing any value changes answers. Record and compare the answer corpus
(``tools/answer_corpus.py``) when you do, and update this page's reasons.

>>> from collide2d import _tolerances as tolerances
>>> tolerances.EPS == 2.0**-53 and tolerances.BAND == 2.0**-32
True
"""

# -- the float kernels' error model ----------------------------------------------------------------

EPS = 2.0**-53
"""Unit roundoff of float64 (dimensionless): the ``eps`` that the float-mode kernels receive and
build their certified error bounds from (Higham's gamma_k, Shewchuk's orientation bound). The
exact twin receives 0 instead, which turns every bound off."""

TAME_LO = 2.0**-100
"""Absolute: the smallest non-zero magnitude of a coordinate or size that the float kernels take
unscaled. Below it a product of degree 4 (the filters' highest) could underflow into the
subnormals, where the error bounds no longer hold."""

TAME_HI = 2.0**100
"""Absolute: the largest magnitude the float kernels take unscaled (degree-4 products stay far
from overflow)."""

SPAN_MAX = 198
"""Binary exponents: a pair whose largest and smallest non-zero numbers are at most ``2**198``
apart is scaled by one power of two so that every number lies in ``[TAME_LO, TAME_HI]``; wider
pairs skip rescaling (predicates answer exactly, measurements take the size-disparate paths)."""

DIRECTION_SPAN_MAX = 98
"""Binary exponents: the widest ratio of a line direction's two components that rescaling
accepts; a normalised direction's components then lie in ``[2**-100, 1)``."""

FLAT_CURVATURE = 2.0**60
"""Dimensionless: a far larger ellipse counts as its tangent half-plane next to a small shape when
its smallest radius of curvature ``b**2 / a`` exceeds the small shape's size by this factor (the
boundary then leaves the tangent line by less than ``2**-60`` of that size across it)."""

PW_SIZE_RATIO = 2.0**-64
"""Dimensionless: a Perram-Wertheim pair whose smaller ellipse is below this fraction of the other's
smaller radius is solved with the small one inflated to that fraction (its contribution to the
contact function is of relative order its size ratio, here below ``2**-64``: under a hundredth of
an ulp), so that no square of its radii underflows in the kernel's frame; its contact point is
shrunk back about its centre."""

# -- bands inside which a float answer is not trusted ---------------------------------------------

BAND = 2.0**-32
"""Relative to the pair's largest coordinate or size (plus the distance limit where there is one):
inside ``|separation| <= BAND * scale`` the sign of a float separation, and inside
``|separation - d| <= BAND * scale`` a ``max_distance`` decision, is taken from the exact
predicates instead. The float separation is accurate to a few ulps of the scale (about 1e-15
relative): the band leaves a margin of about 1e5 and costs an exact decision only near contact."""

ORIENT_BOUND = 6 * 2.0**-53
"""Relative to ``|left| + |right|`` of an orientation's two products: Shewchuk's bound for the
sign of a 2x2 determinant with room to spare. Inside it ``_convex`` decides the turn exactly (the
same bound as ``_TURN_BOUND`` in ``_kernels/construct.py``)."""

# -- certified sums of the single-shape geometry (area, centroid) --------------------------------

CERTIFY = 2.0**-60
"""Relative: a compensated area or centroid sum is certified when its error bound is below this
fraction of the sum; else it is recomputed exactly."""

UNDERFLOW_SLACK = 2.0**-1070
"""Absolute, per product: at most 4 subnormal roundings of ``2**-1075`` in Dekker's product split."""

SAFE_PRODUCT = 2.0**-965
"""Absolute: above it every partial product of a split product keeps its last bit (>= 2**-1074),
so the error-free product is exact."""


# -- listed, defined where they are used ---------------------------------------------------------

ELSEWHERE = {
    # module.NAME: (value, unit and reason)
    "collide2d._validate.MAGNITUDE_MAX": (2.0**500, "absolute: the largest supported coordinate (about 3.27e150); "
                                          "with SIZE_MIN, any two numbers of a pair differ by at most 2**1000"),
    "collide2d._validate.SIZE_MIN": (2.0**-500, "absolute: the smallest supported size (about 3.05e-151)"),
    "collide2d._validate.ASPECT_MAX": (2.0**100, "dimensionless: the largest ratio of an ellipse's radii"),
    "collide2d._nearest.SLACK": (2.0**-30, "relative to the largest coordinate: the nearest search's reach slack"),
    "collide2d._formats.DEFAULT_RELATIVE_TOLERANCE": (1e-3, "relative to the larger radius: how closely an "
                                                      "ellipse written as a polygon follows it, by default"),
    "collide2d._formats.SMALLEST_RELATIVE_TOLERANCE": (1e-12, "relative: below it float rounding of the vertices dominates"),
    "collide2d.motion._TIME_TOL": (2.0**-45, "relative to t_max: the time of impact's tolerance"),
    "collide2d.motion._NOISE": (2.0**-42, "relative to the pair's size and coordinates: float noise of a separation"),
    "collide2d.motion._CERTIFY": (2.0**-40, "relative to t_max: the exact predicates check the shapes are apart this "
                                  "long before the answer"),
    "collide2d.motion._GRAZE": (2.0**-49, "relative: a graze (the shapes touch without meeting)"),
    "collide2d.motion._DISC_MARGIN": (2.0**-48, "relative: widening of the bounding discs and of their window (16 ulps)"),
    "collide2d._kernels.angles.SNAP": (2.0**-52, "relative to |theta|: a remainder this small is an exact quarter turn"),
    "collide2d._kernels.angles.TURN_FLOOR": (2.0**-100, "absolute radians: a smaller turn is no turn at all"),
    "collide2d._kernels.construct._TURN_BOUND": (6 * 2.0**-53, "as ORIENT_BOUND, in the compiled constructors"),
    "collide2d._kernels.measure.distance_flat.FACE_TOL": (64.0 * 2.0**-53, "in units of an edge's L1 length: when an "
                                                          "edge counts as a face of the contact"),
    "collide2d._kernels.measure.distance_flat._CANCELLED": (2.0**-20, "relative: a cross product recomputed after "
                                                            "cancellation"),
    "collide2d._kernels.measure.distance_flat.SQUARED_TIE": (2.0**-48, "relative: a tie between two squared distances"),
    "collide2d._kernels.measure.distance_ellipse._EPS": (2.0**-53, "EPS, inside the kernel"),
    "collide2d._kernels.overlay.area_flat._EPS": (2.0**-53, "EPS, inside the kernel"),
    "collide2d._kernels.overlay.points_flat._EPS": (2.0**-53, "EPS, inside the kernel"),
    "collide2d._kernels.overlay.points_ellipse._EPS": (2.0**-53, "EPS, inside the kernel"),
    "collide2d._kernels.overlay.points_ellipse._MIN_CROSSING_SINE": (1e-7, "dimensionless: the sine of a crossing "
                                                                     "angle below which a crossing is checked for tangency"),
    "collide2d._kernels.overlay.points_ellipse._NEAR_TANGENT": (1e-6, "unit-frame distance that triggers an exact "
                                                                "tangency check"),
    "collide2d._kernels.overlay.points_ellipse._NEAR_PAIR": (1e-5, "unit-frame distance of two crossings that "
                                                             "triggers an exact tangency check"),
    "collide2d._kernels.overlay.points_ellipse.UNRESOLVED": (1e-12, "relative residual of a polished crossing point"),
    "collide2d._kernels.overlay.area_ellipse._LEVEL_BAND": (1e-3, "dimensionless level at which an arc's side is "
                                                            "decided from its midpoint alone"),
    "collide2d._kernels.broadphase.grid._EPS": (2.0**-53, "EPS, inside the grid kernels"),
    "collide2d._kernels.broadphase.grid._SAFE_LO": (2.0**-300, "absolute: lengths and |w|^2 in [_SAFE_LO, 1/_SAFE_LO] "
                                                    "square without under- or overflow"),
    "collide2d._kernels.broadphase.grid._SHRINK": (1.0 - 2.0**-20, "dimensionless: where the witness filter's trial "
                                                   "points sit between centre and boundary"),
    "collide2d._kernels.broadphase.index._EPS": (2.0**-53, "EPS, inside the index kernels"),
    "collide2d._kernels.broadphase.sweep._CIRCLE_MARGIN": (16 * 2.0**-53, "relative error of the bounding-circle "
                                                           "filter for ellipse pairs"),
    "collide2d._kernels.relate.conic._TINY": (2.0**-1000, "absolute: covers underflow in the running error bounds of "
                                              "the ellipse pencil"),
    "collide2d._kernels.vec._SQUARES_LO": (2.0**-960, "absolute underflow guard of the exact squares"),
    "collide2d._kernels.vec._PRODUCT_LO": (2.0**-900, "absolute: a non-zero product below it may have lost bits"),
}
