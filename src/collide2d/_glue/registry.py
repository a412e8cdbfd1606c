"""The pair table: (operation, kind a, kind b) -> kernel, batch loop, mirrored or not.

One line per kernel, every kernel and loop written out once by name, so that a reader greps from
an operation to the code that runs (as Box2D registers its pair functions with ``b2AddType`` in
``src/contact.c``: one function per unordered pair, the flip done in one place). Each kernel is
registered in one order of the kinds, the *kernel order* :data:`KERNEL_ORDER` (``rounded,
ellipse, polygon, segment, line, point``: a rounded shape comes first, its kernels take every partner); :func:`entry` serves the other order from the same line with ``swapped=True``, and the
runner (:mod:`collide2d._glue.run`) swaps the arguments and mirrors the result. The contact
manifold kernels are the exception: one kernel per order (the reference face depends on it), so
:data:`MANIFOLD` lines are written in both orders and never swapped.

Kernel modules are imported lazily: ``import collide2d`` imports none of them, and a kernel module
(with its compiled code, from the on-disk cache) is loaded the first time one of its pairs runs;
a batch loop's module only when a batch runs. The loaders below are plain ``from ... import``
statements, one per module.

To add a kind pair: write its kernels in their module under ``_kernels``, add a loader below if the
module is new, and one line per operation to ``_TABLE`` in kernel order (the architecture page of
the documentation, "Adding a shape kind", lists the rest).
"""

from __future__ import annotations

from typing import Any, Callable

KIND_ORDER = ("ellipse", "polygon", "segment", "line", "point", "rounded")  # the kind codes (ShapeTable's, motion's)
KERNEL_ORDER = ("rounded",) + KIND_ORDER[:-1]  # a pair's kernel takes its kinds in this order

# Operations: one per kernel signature (see collide2d._glue.run for what each returns).
RELATE = "relate"  # (pa, va, pb, vb, eps) -> relation code or UNDECIDED
INTERSECTS = "intersects"  # (pa, va, pb, vb, eps) -> 1, 0 or UNDECIDED; only where faster than relate
CONTACT = "contact"  # (pa, va, pb, vb) -> 9 floats
SEPARATION = "separation"  # the contact kernel; its loop stores the separation alone
POINTS = "points"  # (pa, va, pb, vb, relation, out) -> count (negative: an exact decision is due)
AREA = "area"  # (pa, va, pb, vb, relation) -> area
PERRAM_WERTHEIM = "perram_wertheim"  # (pa, va, pb, vb) -> point, normal, scale, approach distance
RAY = "ray"  # (params, verts, ray, eps) -> (code, feature): where the ray first meets the shape, decided
RAY_HIT = "ray_hit"  # (params, verts, ray, code, feature) -> distance, point, normal of that decision
MANIFOLD = "manifold"  # (pa, va, pb, vb, contact, radius_a, radius_b, margin) -> 13 floats; both orders
TOI_TURNING = "toi_turning"  # the loop over row tables of turning pairs, one pair or many (no separate batch loop)


# -- lazy module loaders: one plain import each ----------------------------------------------------


def _relate_ellipse():
    from collide2d._kernels.relate import ellipse

    return ellipse


def _relate_polygon():
    from collide2d._kernels.relate import polygon

    return polygon


def _relate_linear():
    from collide2d._kernels.relate import linear

    return linear


def _relate_loops():
    from collide2d._kernels.relate import loops

    return loops


def _relate_rounded():
    from collide2d._kernels.relate import rounded

    return rounded


def _relate_rounded_loops():
    from collide2d._kernels.relate import loops_rounded

    return loops_rounded


def _distance_rounded():
    from collide2d._kernels.measure import distance_rounded

    return distance_rounded


def _measure_rounded_loops():
    from collide2d._kernels.measure import loops_rounded

    return loops_rounded


def _points_rounded():
    from collide2d._kernels.overlay import points_rounded

    return points_rounded


def _area_rounded():
    from collide2d._kernels.overlay import area_rounded

    return area_rounded


def _overlay_rounded_loops():
    from collide2d._kernels.overlay import loops_rounded

    return loops_rounded


def _distance_ellipse():
    from collide2d._kernels.measure import distance_ellipse

    return distance_ellipse


def _distance_flat():
    from collide2d._kernels.measure import distance_flat

    return distance_flat


def _measure_loops():
    from collide2d._kernels.measure import loops

    return loops


def _points_ellipse():
    from collide2d._kernels.overlay import points_ellipse

    return points_ellipse


def _points_flat():
    from collide2d._kernels.overlay import points_flat

    return points_flat


def _points_loops():
    from collide2d._kernels.overlay import loops_points

    return loops_points


def _area_ellipse():
    from collide2d._kernels.overlay import area_ellipse

    return area_ellipse


def _area_flat():
    from collide2d._kernels.overlay import area_flat

    return area_flat


def _area_loops():
    from collide2d._kernels.overlay import loops_area

    return loops_area


def _raycast():
    from collide2d._kernels.motion import raycast

    return raycast


def _raycast_loops():
    from collide2d._kernels.motion import loops_raycast

    return loops_raycast


def _raycast_rounded():
    from collide2d._kernels import raycast_rounded

    return raycast_rounded


def _raycast_rounded_loops():
    from collide2d._kernels import loops_raycast_rounded

    return loops_raycast_rounded
def _toi_turning_loops():
    from collide2d._kernels import toi_turning_loops

    return toi_turning_loops


def _manifold_clip():
    from collide2d._kernels.manifold import clip

    return clip


def _manifold_loops():
    from collide2d._kernels.manifold import loops

    return loops


def one_point_manifold():
    """The kernel of the one-point manifold of a contact (``manifold_single``), for the pairs
    without a face on both sides, which have no :data:`MANIFOLD` entry."""
    return _manifold_clip().manifold_single


def _no_loop():
    return None


# -- the table, in kernel order ----------------------------------------------------------------------
# (operation, kind a, kind b): (kernel, batch loop), each a function that returns the compiled
# function from its (lazily imported) module. The name of a kernel is also the name of its exact
# twin (collide2d._robust.exact) and the key of its count in collide2d.exact_fallback_counts().

_Loader = Callable[[], Any]
_TABLE: dict[tuple[str, str, str], tuple[_Loader, _Loader]] = {
    # the rounded kind (capsules, rounded polygons and boxes; a row of radius 0 runs as its core's
    # kind, see collide2d._glue.rounded): relate, intersects (where faster than relate), contact and
    # separation (the separation's sign made exact in the runner: ContactSig)
    (RELATE, "rounded", "rounded"): (lambda: _relate_rounded().relate_rounded_rounded, lambda: _relate_rounded_loops().relate_rounded_rounded_loop),
    (RELATE, "rounded", "ellipse"): (lambda: _relate_rounded().relate_rounded_ellipse, lambda: _relate_rounded_loops().relate_rounded_ellipse_loop),
    (RELATE, "rounded", "polygon"): (lambda: _relate_rounded().relate_rounded_polygon, lambda: _relate_rounded_loops().relate_rounded_polygon_loop),
    (RELATE, "rounded", "segment"): (lambda: _relate_rounded().relate_rounded_segment, lambda: _relate_rounded_loops().relate_rounded_segment_loop),
    (RELATE, "rounded", "line"): (lambda: _relate_rounded().relate_rounded_line, lambda: _relate_rounded_loops().relate_rounded_line_loop),
    (RELATE, "rounded", "point"): (lambda: _relate_rounded().relate_rounded_point, lambda: _relate_rounded_loops().relate_rounded_point_loop),
    (INTERSECTS, "rounded", "rounded"): (lambda: _relate_rounded().intersects_rounded_rounded, lambda: _relate_rounded_loops().intersects_rounded_rounded_loop),
    (INTERSECTS, "rounded", "ellipse"): (lambda: _relate_rounded().intersects_rounded_ellipse, lambda: _relate_rounded_loops().intersects_rounded_ellipse_loop),
    (INTERSECTS, "rounded", "polygon"): (lambda: _relate_rounded().intersects_rounded_polygon, lambda: _relate_rounded_loops().intersects_rounded_polygon_loop),
    (INTERSECTS, "rounded", "segment"): (lambda: _relate_rounded().intersects_rounded_segment, lambda: _relate_rounded_loops().intersects_rounded_segment_loop),
    (CONTACT, "rounded", "rounded"): (lambda: _distance_rounded().contact_rounded_rounded, lambda: _measure_rounded_loops().contact_rounded_rounded_loop),
    (CONTACT, "rounded", "ellipse"): (lambda: _distance_rounded().contact_rounded_ellipse, lambda: _measure_rounded_loops().contact_rounded_ellipse_loop),
    (CONTACT, "rounded", "polygon"): (lambda: _distance_rounded().contact_rounded_polygon, lambda: _measure_rounded_loops().contact_rounded_polygon_loop),
    (CONTACT, "rounded", "segment"): (lambda: _distance_rounded().contact_rounded_segment, lambda: _measure_rounded_loops().contact_rounded_segment_loop),
    (CONTACT, "rounded", "line"): (lambda: _distance_rounded().contact_rounded_line, lambda: _measure_rounded_loops().contact_rounded_line_loop),
    (CONTACT, "rounded", "point"): (lambda: _distance_rounded().contact_rounded_point, lambda: _measure_rounded_loops().contact_rounded_point_loop),
    (SEPARATION, "rounded", "rounded"): (lambda: _distance_rounded().contact_rounded_rounded, lambda: _measure_rounded_loops().separation_rounded_rounded_loop),
    (SEPARATION, "rounded", "ellipse"): (lambda: _distance_rounded().contact_rounded_ellipse, lambda: _measure_rounded_loops().separation_rounded_ellipse_loop),
    (SEPARATION, "rounded", "polygon"): (lambda: _distance_rounded().contact_rounded_polygon, lambda: _measure_rounded_loops().separation_rounded_polygon_loop),
    (SEPARATION, "rounded", "segment"): (lambda: _distance_rounded().contact_rounded_segment, lambda: _measure_rounded_loops().separation_rounded_segment_loop),
    (SEPARATION, "rounded", "line"): (lambda: _distance_rounded().contact_rounded_line, lambda: _measure_rounded_loops().separation_rounded_line_loop),
    (SEPARATION, "rounded", "point"): (lambda: _distance_rounded().contact_rounded_point, lambda: _measure_rounded_loops().separation_rounded_point_loop),
    (POINTS, "rounded", "rounded"): (lambda: _points_rounded().points_rounded_rounded, lambda: _overlay_rounded_loops().points_rounded_rounded_loop),
    (POINTS, "rounded", "ellipse"): (lambda: _points_rounded().points_rounded_ellipse, lambda: _overlay_rounded_loops().points_rounded_ellipse_loop),
    (POINTS, "rounded", "polygon"): (lambda: _points_rounded().points_rounded_polygon, lambda: _overlay_rounded_loops().points_rounded_polygon_loop),
    (POINTS, "rounded", "segment"): (lambda: _points_rounded().points_rounded_segment, lambda: _overlay_rounded_loops().points_rounded_segment_loop),
    (POINTS, "rounded", "line"): (lambda: _points_rounded().points_rounded_line, lambda: _overlay_rounded_loops().points_rounded_line_loop),
    (POINTS, "rounded", "point"): (lambda: _points_rounded().points_rounded_point, lambda: _overlay_rounded_loops().points_rounded_point_loop),
    (AREA, "rounded", "rounded"): (lambda: _area_rounded().area_rounded_rounded, lambda: _overlay_rounded_loops().area_rounded_rounded_loop),
    (AREA, "rounded", "ellipse"): (lambda: _area_rounded().area_rounded_ellipse, lambda: _overlay_rounded_loops().area_rounded_ellipse_loop),
    (AREA, "rounded", "polygon"): (lambda: _area_rounded().area_rounded_polygon, lambda: _overlay_rounded_loops().area_rounded_polygon_loop),
    # relate: the relation code
    (RELATE, "ellipse", "ellipse"): (lambda: _relate_ellipse().relate_ellipse_ellipse, lambda: _relate_loops().relate_ellipse_ellipse_loop),
    (RELATE, "ellipse", "polygon"): (lambda: _relate_ellipse().relate_ellipse_polygon, lambda: _relate_loops().relate_ellipse_polygon_loop),
    (RELATE, "ellipse", "segment"): (lambda: _relate_ellipse().relate_ellipse_segment, lambda: _relate_loops().relate_ellipse_segment_loop),
    (RELATE, "ellipse", "line"): (lambda: _relate_ellipse().relate_ellipse_line, lambda: _relate_loops().relate_ellipse_line_loop),
    (RELATE, "ellipse", "point"): (lambda: _relate_ellipse().relate_ellipse_point, lambda: _relate_loops().relate_ellipse_point_loop),
    (RELATE, "polygon", "polygon"): (lambda: _relate_polygon().relate_polygon_polygon, lambda: _relate_loops().relate_polygon_polygon_loop),
    (RELATE, "polygon", "segment"): (lambda: _relate_polygon().relate_polygon_segment, lambda: _relate_loops().relate_polygon_segment_loop),
    (RELATE, "polygon", "line"): (lambda: _relate_polygon().relate_polygon_line, lambda: _relate_loops().relate_polygon_line_loop),
    (RELATE, "polygon", "point"): (lambda: _relate_polygon().relate_polygon_point, lambda: _relate_loops().relate_polygon_point_loop),
    (RELATE, "segment", "segment"): (lambda: _relate_linear().relate_segment_segment, lambda: _relate_loops().relate_segment_segment_loop),
    (RELATE, "segment", "line"): (lambda: _relate_linear().relate_segment_line, lambda: _relate_loops().relate_segment_line_loop),
    (RELATE, "segment", "point"): (lambda: _relate_linear().relate_segment_point, lambda: _relate_loops().relate_segment_point_loop),
    (RELATE, "line", "line"): (lambda: _relate_linear().relate_line_line, lambda: _relate_loops().relate_line_line_loop),
    (RELATE, "line", "point"): (lambda: _relate_linear().relate_line_point, lambda: _relate_loops().relate_line_point_loop),
    (RELATE, "point", "point"): (lambda: _relate_linear().relate_point_point, lambda: _relate_loops().relate_point_point_loop),
    # intersects: dedicated kernels where they skip the containment classification; other pairs
    # answer with relate's code != DISJOINT
    (INTERSECTS, "ellipse", "ellipse"): (lambda: _relate_ellipse().intersects_ellipse_ellipse, lambda: _relate_loops().intersects_ellipse_ellipse_loop),
    # contact: separation, normal, witness points, curvatures
    (CONTACT, "ellipse", "ellipse"): (lambda: _distance_ellipse().contact_ellipse_ellipse, lambda: _measure_loops().contact_ellipse_ellipse_loop),
    (CONTACT, "ellipse", "polygon"): (lambda: _distance_ellipse().contact_ellipse_polygon, lambda: _measure_loops().contact_ellipse_polygon_loop),
    (CONTACT, "ellipse", "segment"): (lambda: _distance_ellipse().contact_ellipse_segment, lambda: _measure_loops().contact_ellipse_segment_loop),
    (CONTACT, "ellipse", "line"): (lambda: _distance_ellipse().contact_ellipse_line, lambda: _measure_loops().contact_ellipse_line_loop),
    (CONTACT, "ellipse", "point"): (lambda: _distance_ellipse().contact_ellipse_point, lambda: _measure_loops().contact_ellipse_point_loop),
    (CONTACT, "polygon", "polygon"): (lambda: _distance_flat().contact_polygon_polygon, lambda: _measure_loops().contact_polygon_polygon_loop),
    (CONTACT, "polygon", "segment"): (lambda: _distance_flat().contact_polygon_segment, lambda: _measure_loops().contact_polygon_segment_loop),
    (CONTACT, "polygon", "line"): (lambda: _distance_flat().contact_polygon_line, lambda: _measure_loops().contact_polygon_line_loop),
    (CONTACT, "polygon", "point"): (lambda: _distance_flat().contact_polygon_point, lambda: _measure_loops().contact_polygon_point_loop),
    (CONTACT, "segment", "segment"): (lambda: _distance_flat().contact_segment_segment, lambda: _measure_loops().contact_segment_segment_loop),
    (CONTACT, "segment", "line"): (lambda: _distance_flat().contact_segment_line, lambda: _measure_loops().contact_segment_line_loop),
    (CONTACT, "segment", "point"): (lambda: _distance_flat().contact_segment_point, lambda: _measure_loops().contact_segment_point_loop),
    (CONTACT, "line", "line"): (lambda: _distance_flat().contact_line_line, lambda: _measure_loops().contact_line_line_loop),
    (CONTACT, "line", "point"): (lambda: _distance_flat().contact_line_point, lambda: _measure_loops().contact_line_point_loop),
    (CONTACT, "point", "point"): (lambda: _distance_flat().contact_point_point, lambda: _measure_loops().contact_point_point_loop),
    # separation: the contact kernel for single pairs, loops that store one column
    (SEPARATION, "ellipse", "ellipse"): (lambda: _distance_ellipse().contact_ellipse_ellipse, lambda: _measure_loops().separation_ellipse_ellipse_loop),
    (SEPARATION, "ellipse", "polygon"): (lambda: _distance_ellipse().contact_ellipse_polygon, lambda: _measure_loops().separation_ellipse_polygon_loop),
    (SEPARATION, "ellipse", "segment"): (lambda: _distance_ellipse().contact_ellipse_segment, lambda: _measure_loops().separation_ellipse_segment_loop),
    (SEPARATION, "ellipse", "line"): (lambda: _distance_ellipse().contact_ellipse_line, lambda: _measure_loops().separation_ellipse_line_loop),
    (SEPARATION, "ellipse", "point"): (lambda: _distance_ellipse().contact_ellipse_point, lambda: _measure_loops().separation_ellipse_point_loop),
    (SEPARATION, "polygon", "polygon"): (lambda: _distance_flat().contact_polygon_polygon, lambda: _measure_loops().separation_polygon_polygon_loop),
    (SEPARATION, "polygon", "segment"): (lambda: _distance_flat().contact_polygon_segment, lambda: _measure_loops().separation_polygon_segment_loop),
    (SEPARATION, "polygon", "line"): (lambda: _distance_flat().contact_polygon_line, lambda: _measure_loops().separation_polygon_line_loop),
    (SEPARATION, "polygon", "point"): (lambda: _distance_flat().contact_polygon_point, lambda: _measure_loops().separation_polygon_point_loop),
    (SEPARATION, "segment", "segment"): (lambda: _distance_flat().contact_segment_segment, lambda: _measure_loops().separation_segment_segment_loop),
    (SEPARATION, "segment", "line"): (lambda: _distance_flat().contact_segment_line, lambda: _measure_loops().separation_segment_line_loop),
    (SEPARATION, "segment", "point"): (lambda: _distance_flat().contact_segment_point, lambda: _measure_loops().separation_segment_point_loop),
    (SEPARATION, "line", "line"): (lambda: _distance_flat().contact_line_line, lambda: _measure_loops().separation_line_line_loop),
    (SEPARATION, "line", "point"): (lambda: _distance_flat().contact_line_point, lambda: _measure_loops().separation_line_point_loop),
    (SEPARATION, "point", "point"): (lambda: _distance_flat().contact_point_point, lambda: _measure_loops().separation_point_point_loop),
    # points: the boundary intersection points
    (POINTS, "ellipse", "ellipse"): (lambda: _points_ellipse().points_ellipse_ellipse, lambda: _points_loops().points_ellipse_ellipse_loop),
    (POINTS, "ellipse", "polygon"): (lambda: _points_ellipse().points_ellipse_polygon, lambda: _points_loops().points_ellipse_polygon_loop),
    (POINTS, "ellipse", "segment"): (lambda: _points_ellipse().points_ellipse_segment, lambda: _points_loops().points_ellipse_segment_loop),
    (POINTS, "ellipse", "line"): (lambda: _points_ellipse().points_ellipse_line, lambda: _points_loops().points_ellipse_line_loop),
    (POINTS, "ellipse", "point"): (lambda: _points_ellipse().points_ellipse_point, lambda: _points_loops().points_ellipse_point_loop),
    (POINTS, "polygon", "polygon"): (lambda: _points_flat().points_polygon_polygon, lambda: _points_loops().points_polygon_polygon_loop),
    (POINTS, "polygon", "segment"): (lambda: _points_flat().points_polygon_segment, lambda: _points_loops().points_polygon_segment_loop),
    (POINTS, "polygon", "line"): (lambda: _points_flat().points_polygon_line, lambda: _points_loops().points_polygon_line_loop),
    (POINTS, "polygon", "point"): (lambda: _points_flat().points_polygon_point, lambda: _points_loops().points_polygon_point_loop),
    (POINTS, "segment", "segment"): (lambda: _points_flat().points_segment_segment, lambda: _points_loops().points_segment_segment_loop),
    (POINTS, "segment", "line"): (lambda: _points_flat().points_segment_line, lambda: _points_loops().points_segment_line_loop),
    (POINTS, "segment", "point"): (lambda: _points_flat().points_segment_point, lambda: _points_loops().points_segment_point_loop),
    (POINTS, "line", "line"): (lambda: _points_flat().points_line_line, lambda: _points_loops().points_line_line_loop),
    (POINTS, "line", "point"): (lambda: _points_flat().points_line_point, lambda: _points_loops().points_line_point_loop),
    (POINTS, "point", "point"): (lambda: _points_flat().points_point_point, lambda: _points_loops().points_point_point_loop),
    # area: the overlap area of two regions (other pairs have none)
    (AREA, "ellipse", "ellipse"): (lambda: _area_ellipse().area_ellipse_ellipse, lambda: _area_loops().area_ellipse_ellipse_loop),
    (AREA, "ellipse", "polygon"): (lambda: _area_ellipse().area_ellipse_polygon, lambda: _area_loops().area_ellipse_polygon_loop),
    (AREA, "polygon", "polygon"): (lambda: _area_flat().area_polygon_polygon, lambda: _area_loops().area_polygon_polygon_loop),
    # Perram-Wertheim contact function of two ellipses (no robustness rung: a float answer)
    (PERRAM_WERTHEIM, "ellipse", "ellipse"): (lambda: _distance_ellipse().perram_wertheim_ellipse_ellipse,
                                              lambda: _distance_ellipse().perram_wertheim_ellipse_ellipse_loop),
    # ray casts: a shape against ray rows (ox, oy, dx, dy); the decision (with its batch loop, which
    # also measures), then the measurement of a decision taken exactly
    (RAY, "ellipse", "ray"): (lambda: _raycast().raycast_code_ellipse, lambda: _raycast_loops().raycast_ellipse_loop),
    (RAY, "polygon", "ray"): (lambda: _raycast().raycast_code_polygon, lambda: _raycast_loops().raycast_polygon_loop),
    (RAY, "segment", "ray"): (lambda: _raycast().raycast_code_segment, lambda: _raycast_loops().raycast_segment_loop),
    (RAY, "line", "ray"): (lambda: _raycast().raycast_code_line, lambda: _raycast_loops().raycast_line_loop),
    (RAY, "point", "ray"): (lambda: _raycast().raycast_code_point, lambda: _raycast_loops().raycast_point_loop),
    (RAY_HIT, "ellipse", "ray"): (lambda: _raycast().raycast_ellipse, _no_loop),
    (RAY_HIT, "polygon", "ray"): (lambda: _raycast().raycast_polygon, _no_loop),
    (RAY_HIT, "segment", "ray"): (lambda: _raycast().raycast_segment, _no_loop),
    (RAY_HIT, "line", "ray"): (lambda: _raycast().raycast_line, _no_loop),
    (RAY_HIT, "point", "ray"): (lambda: _raycast().raycast_point, _no_loop),
    (RAY, "rounded", "ray"): (lambda: _raycast_rounded().raycast_code_rounded, lambda: _raycast_rounded_loops().raycast_rounded_loop),
    (RAY_HIT, "rounded", "ray"): (lambda: _raycast_rounded().raycast_rounded, _no_loop),
    # time of impact of turning pairs: the compiled search (collide2d._kernels.motion.toi_turning);
    # its loop takes one pair or a batch of row tables alike
    (TOI_TURNING, "ellipse", "ellipse"): (lambda: _toi_turning_loops().toi_turning_ellipse_ellipse_loop, _no_loop),
    (TOI_TURNING, "ellipse", "polygon"): (lambda: _toi_turning_loops().toi_turning_ellipse_polygon_loop, _no_loop),
    (TOI_TURNING, "ellipse", "segment"): (lambda: _toi_turning_loops().toi_turning_ellipse_segment_loop, _no_loop),
    (TOI_TURNING, "ellipse", "line"): (lambda: _toi_turning_loops().toi_turning_ellipse_line_loop, _no_loop),
    (TOI_TURNING, "ellipse", "point"): (lambda: _toi_turning_loops().toi_turning_ellipse_point_loop, _no_loop),
    (TOI_TURNING, "polygon", "polygon"): (lambda: _toi_turning_loops().toi_turning_polygon_polygon_loop, _no_loop),
    (TOI_TURNING, "polygon", "segment"): (lambda: _toi_turning_loops().toi_turning_polygon_segment_loop, _no_loop),
    (TOI_TURNING, "polygon", "line"): (lambda: _toi_turning_loops().toi_turning_polygon_line_loop, _no_loop),
    (TOI_TURNING, "polygon", "point"): (lambda: _toi_turning_loops().toi_turning_polygon_point_loop, _no_loop),
    (TOI_TURNING, "segment", "segment"): (lambda: _toi_turning_loops().toi_turning_segment_segment_loop, _no_loop),
    (TOI_TURNING, "segment", "line"): (lambda: _toi_turning_loops().toi_turning_segment_line_loop, _no_loop),
    (TOI_TURNING, "segment", "point"): (lambda: _toi_turning_loops().toi_turning_segment_point_loop, _no_loop),
    (TOI_TURNING, "line", "line"): (lambda: _toi_turning_loops().toi_turning_line_line_loop, _no_loop),
    (TOI_TURNING, "line", "point"): (lambda: _toi_turning_loops().toi_turning_line_point_loop, _no_loop),
    (TOI_TURNING, "point", "point"): (lambda: _toi_turning_loops().toi_turning_point_point_loop, _no_loop),
    # contact manifolds of two shapes with a face each: registered in both orders (the reference
    # face is chosen per order, so a result is not mirrored); every other pair: one_point_manifold
    (MANIFOLD, "polygon", "polygon"): (lambda: _manifold_clip().manifold_polygon_polygon, lambda: _manifold_loops().manifold_polygon_polygon_loop),
    (MANIFOLD, "polygon", "segment"): (lambda: _manifold_clip().manifold_polygon_segment, lambda: _manifold_loops().manifold_polygon_segment_loop),
    (MANIFOLD, "segment", "polygon"): (lambda: _manifold_clip().manifold_segment_polygon, lambda: _manifold_loops().manifold_segment_polygon_loop),
    (MANIFOLD, "segment", "segment"): (lambda: _manifold_clip().manifold_segment_segment, lambda: _manifold_loops().manifold_segment_segment_loop),
    (MANIFOLD, "polygon", "line"): (lambda: _manifold_clip().manifold_polygon_line, lambda: _manifold_loops().manifold_polygon_line_loop),
    (MANIFOLD, "line", "polygon"): (lambda: _manifold_clip().manifold_line_polygon, lambda: _manifold_loops().manifold_line_polygon_loop),
    (MANIFOLD, "segment", "line"): (lambda: _manifold_clip().manifold_segment_line, lambda: _manifold_loops().manifold_segment_line_loop),
    (MANIFOLD, "line", "segment"): (lambda: _manifold_clip().manifold_line_segment, lambda: _manifold_loops().manifold_line_segment_loop),
}


class Entry:
    """One registered pair kernel, as seen from the caller's order of the kinds.

    ``operation``: the table's operation; ``name``: the kernel's name (that of its exact twin too);
    ``kernel``: the compiled function;
    ``loop()``: its batch loop (imported on first use); ``swapped``: the caller's kinds come in
    the other order, so the runner swaps the arguments and mirrors the result.
    """

    __slots__ = ("operation", "name", "kernel", "_loop", "_load_loop", "swapped")

    def __init__(self, operation, kernel, load_loop, swapped):
        self.operation = operation
        self.kernel = kernel
        self.name = kernel.__name__
        self._load_loop = load_loop
        self._loop = None
        self.swapped = swapped

    def loop(self):
        if self._loop is None:
            self._loop = self._load_loop()
        return self._loop


_ORDER = KERNEL_ORDER + ("ray",)  # a ray is the second argument of its kernels
_entries: dict = {}


def entry(operation, kind_a, kind_b):
    """The :class:`Entry` of ``operation`` on the kinds ``kind_a, kind_b`` (either order), or
    ``None`` when the table has no kernel for it (an ``INTERSECTS`` pair without a dedicated
    kernel, an ``AREA`` pair that is not two regions)."""
    key = (operation, kind_a, kind_b)
    try:
        return _entries[key]
    except KeyError:
        # an operation registered in both orders (MANIFOLD) is never swapped
        swapped = key not in _TABLE and _ORDER.index(kind_a) > _ORDER.index(kind_b)
        loaders = _TABLE.get((operation, kind_b, kind_a) if swapped else key)
        found = _entries[key] = None if loaders is None else Entry(operation, loaders[0](), loaders[1], swapped)
        return found


def has(operation, kind_a, kind_b):
    """Whether the table holds ``operation`` for the kinds (in either order), without importing it."""
    first, second = sorted((kind_a, kind_b), key=_ORDER.index)
    return (operation, first, second) in _TABLE
