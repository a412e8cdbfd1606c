"""Rounded shapes in motion (capsules, rounded polygons and boxes): what the time-of-impact search
needs beyond the other kinds.

A rounded shape is its core (a point, a segment or a convex polygon) grown by the disc of radius
``r``. Its separation from another shape is the separation of the cores less the radii (the
signed distance to the Minkowski difference of the cores, grown by the disc of radius
``r_a + r_b``; :mod:`collide2d._kernels.measure.distance_rounded`), so two moving shapes first
touch when the distance of their cores first equals ``r_a + r_b``. Under a translation that
separation is still a convex function of time: a translating pair first touches where the ray of
the relative motion enters the Minkowski difference of the cores grown by ``r_a + r_b``, which
the closed form of :mod:`collide2d._kernels.motion.toi_closed_rounded` finds and certifies
(:func:`translation_batch`: one compiled pass over a batch as given); what it leaves (lines,
ellipses other than circles, grazes, pairs touching at the start) the search of
:mod:`collide2d.motion.search` takes, unchanged: the compiled translation search with the rounded
contact and relate kernels (:mod:`collide2d._kernels.toi_loops_rounded`), the Python search (the
pairs the kernels hand back) with the contacts and exact predicates of the rounded glue. Turning pairs run in the compiled
turning loop of their cores' kinds with the radii in the row (:func:`run_turning`; the search
grows each contact of the cores by the radii: :mod:`collide2d._kernels.motion.toi_turning`), so
that no loop is compiled for them alone. The rigid moves are those of the cores
(:mod:`collide2d._kernels.motion.loops_rounded`); the extent of a rounded shape about its
reference point is its core's plus ``r``.

A rounded shape of radius 0 is its core's shape (:func:`plain_if_zero`): every answer is then the
plain kind's, bit for bit.
"""

from __future__ import annotations

import importlib

import numpy as np

from collide2d._glue import run
from collide2d._tolerances import EPS
from collide2d.motion.rigid import rounded_kernel_shape

_KIND_CODE = {"ellipse": 0, "polygon": 1, "segment": 2, "line": 3, "point": 4, "rounded": 5}  # those of _kernels.motion.toi


def plain_if_zero(*shapes):
    """The arguments with each rounded shape whose radii are all 0 replaced by its core's shape
    (:func:`collide2d._glue.rounded.plain_if_zero`); anything else as it is."""
    if not any(getattr(shape, "_kind", None) == "rounded" for shape in shapes):
        return shapes
    glue = run.rounded()
    return tuple(glue.plain_if_zero(s) if getattr(s, "_kind", None) == "rounded" else s for s in shapes)


def pair_for_search(a, b):
    """``a`` and ``b`` as the search takes them: a rounded shape of radius 0 as its core's shape
    (:func:`plain_if_zero`), and circles met by a rounded shape as rounded discs (a point core
    grown by the radius; the same set, the same reference point and extent), so that the pair's
    predicates are the exact ones of two rounded shapes rather than the band of an ellipse against
    a rounded shape (:mod:`collide2d._kernels.relate.rounded`): the certified time is then that
    of the distance of the cores, to the rounding of the search, in both argument orders."""
    a, b = plain_if_zero(a, b)
    kinds = (getattr(a, "_kind", None), getattr(b, "_kind", None))
    if "ellipse" in kinds and "rounded" in kinds and run.rounded().far_apart(a, b, run.tame_rows):  # exact, measured at the small one's scale
        return a, b
    if kinds == ("rounded", "ellipse"):
        return a, _disc(b)
    if kinds == ("ellipse", "rounded"):
        return _disc(a), b
    return a, b


def _row_kinds(shape, index):
    """Per pair: 0 for a rounded row of radius > 0, else the count of its core's vertices (1, 2, or
    3 for a polygon): the kind the row runs as. None for a shape of another kind."""
    kind, p = run.shape_rows(shape)[:2]
    if kind != "rounded":
        return None
    p = p.reshape(-1, 7)[index]
    return np.where(p[:, 2] > 0.0, 0, np.minimum(p[:, 1], 3)).astype(np.int64)


def radius_groups(a, b, index_a, index_b):
    """The pairs ``a[index_a[k]]``, ``b[index_b[k]]`` (flat indices) grouped by the kinds their rows
    run as, when a rounded batch mixes rows of radius 0 with rows of radius > 0 (or cores of
    several kinds at radius 0): a list of row arrays; None when every pair runs as one pair of
    kinds (:func:`pair_for_search` makes a batch of radius 0 its core's kind). ``a``, ``b``: the
    shapes as given (before :func:`pair_for_search`: a circle against rows of radius 0 stays a
    circle, as in their plain pair)."""
    keys = [k for k in (_row_kinds(a, index_a), _row_kinds(b, index_b)) if k is not None]
    if not keys:
        return None
    key = keys[0] * 4 + (keys[1] if len(keys) == 2 else 0)
    if key.size == 0 or bool((key == key[0]).all()):
        return None
    return [np.flatnonzero(key == value) for value in np.unique(key).tolist()]


def _take(shape, flat_index):
    """The shapes at the flat indices of a batch (a single shape as it is)."""
    if not shape.shape:
        return shape
    return shape[np.unravel_index(flat_index, shape.shape)]


def joined(time_of_impact, groups, a, b, index_a, index_b, va, vb, wa, wb, t_max):
    """``(time, point, normal)`` of the flat pairs: each group of :func:`radius_groups` is one call
    of ``time_of_impact`` on its rows (those of radius 0 as the core's kind, through
    :func:`pair_for_search`), so that a row of radius 0 gets the answer of its plain pair, bit for
    bit, whatever the other rows of the batch. ``va`` ... ``t_max``: the motion of each pair."""
    n = index_a.shape[0]
    time, point, normal = np.empty(n), np.empty((n, 2)), np.empty((n, 2))
    for rows in groups:
        part = time_of_impact(_take(a, index_a[rows]), _take(b, index_b[rows]), va[rows], vb[rows],
                              angular_velocity_a=wa[rows], angular_velocity_b=wb[rows], t_max=t_max[rows])
        time[rows], point[rows], normal[rows] = part.time, part.point, part.normal
    return time, point, normal


def far_rows(a, b, index_a, index_b):
    """The flat pairs ``a[index_a[k]]``, ``b[index_b[k]]`` of a batch that are a rounded shape and
    an ellipse whose numbers no power of two tames (:func:`collide2d._glue.rounded.far_apart`), or
    None when there are none (the common case: every row tame, answered by the cached flags).
    A single call runs such a pair with the small shape moving and keeps a circle as an ellipse
    (measured at the small shape's scale); a batch runs them the same way, one call each, so that
    a row of a batch gets the answer of its single call."""
    if {run.kind_of(a), run.kind_of(b)} != {"rounded", "ellipse"} or (not a.shape and not b.shape) or index_a.size == 0:
        return None
    tame_a, tame_b = run.tame_rows(a), run.tame_rows(b)
    if tame_a is True and tame_b is True:
        return None
    wild = np.ones(index_a.shape[0], dtype=bool)
    if tame_a is not True and tame_b is not True:
        wild = ~tame_a.reshape(-1)[index_a] | ~tame_b.reshape(-1)[index_b]
    elif tame_a is not True:
        wild = ~tame_a.reshape(-1)[index_a]
    else:
        wild = ~tame_b.reshape(-1)[index_b]
    glue = run.rounded()
    far = [k for k in np.flatnonzero(wild).tolist()
           if glue.far_apart(_one(a, index_a[k]), _one(b, index_b[k]), run.tame_rows)]
    return np.array(far, dtype=np.int64) if far else None


def _one(shape, flat_index):
    """The single shape at a flat index of a batch (a single shape as it is)."""
    return shape if not shape.shape else shape[np.unravel_index(int(flat_index), shape.shape)]


def one_by_one(time_of_impact, far, a, b, index_a, index_b, va, vb, wa, wb, t_max):
    """``(time, point, normal)`` of the flat pairs ``far`` (:func:`far_rows`), each a single call."""
    time, point, normal = np.empty(far.size), np.empty((far.size, 2)), np.empty((far.size, 2))
    for j, k in enumerate(far.tolist()):
        hit = time_of_impact(_one(a, index_a[k]), _one(b, index_b[k]), va[k], vb[k], angular_velocity_a=wa[k],
                             angular_velocity_b=wb[k], t_max=t_max[k])
        time[j], point[j], normal[j] = hit.time, hit.point, hit.normal
    return time, point, normal


def _disc(shape):
    """A batch of circles as rounded rows with point cores (else the shape as it is)."""
    p = run.shape_rows(shape)[1]
    if p.size == 0 or not np.all(p[..., 2] == p[..., 3]):
        return shape
    rows = np.zeros(p.shape[:-1] + (7,))
    rows[..., 1] = 1.0
    rows[..., 2] = p[..., 2]
    rows[..., 3:5] = p[..., 0:2]
    rows[..., 5:7] = p[..., 0:2]
    return rounded_kernel_shape(rows, np.zeros((0, 2)))


_CORE_KINDS = np.array(["point", "point", "segment", "polygon"])  # by a rounded row's vertex count (0: none)
_RADIUS, _SPIN, _REACH, _TURN = 21, 18, 16, 6  # columns of collide2d._kernels.motion.toi_turning.ROW


def _core_rows(params, kind):
    """The rows of kind ``kind`` of the cores of rounded rows ``params`` (flat ``(n, 7)``), read-only
    as a shape's rows (the loops then see the array types of the plain kinds: no new compile)."""
    rows = np.ascontiguousarray(params[:, {"polygon": slice(0, 2), "segment": slice(3, 7), "point": slice(3, 5)}[kind]])
    rows.flags.writeable = False
    return rows


def _grown_numbers(numbers, side, radius, point_core):
    """The numbers of the pairs (:data:`collide2d._kernels.motion.toi_turning.ROW`, in place) whose
    shape ``side`` (0: a, 1: b) is rounded with radii ``radius``: the radius column, and the speed
    bound of the turn that of the core (``|w| (extent - r)``: the extent of a rounded shape is its
    core's plus ``r``, rounded up; 0 for a point core, a disc turning into itself)."""
    numbers[:, _RADIUS + side] = radius
    spin, reach = numbers[:, _SPIN + side], numbers[:, _REACH + side]
    core = np.abs(numbers[:, _TURN + side]) * (reach - radius)
    numbers[:, _SPIN + side] = np.where((spin == 0.0) | point_core, 0.0, core)


def run_turning(a, b, framed_a, framed_b, shifted, index, numbers, loop_of):
    """The compiled turning search of pairs with a rounded shape (the arguments and results of
    :func:`collide2d.motion.search._run_turning`; ``numbers`` is changed in place): each group of
    pairs whose cores are of one pair of kinds runs in the turning loop of those kinds
    (``loop_of(kind_a, kind_b)``: ``(loop, swapped, code_a, code_b)``), the cores' rows with the
    radii in the numbers."""
    n = index.shape[0]
    kinds, arrays = [], []
    for side, (given, framed) in enumerate(((a, framed_a), (b, framed_b))):
        (kind, gp, gv), (_, fp, fv) = run.flat_rows(given), run.flat_rows(framed)
        if kind != "rounded":
            kinds.append(np.full(n, kind))
            c = np.ascontiguousarray
            arrays.append(lambda core, gp=c(gp), gv=c(gv), fp=c(fp), fv=c(fv): (gp, gv, fp, fv))
            continue
        p = gp[index[:, side]]
        kinds.append(_CORE_KINDS[np.minimum(p[:, 1], 3.0).astype(np.int64)])
        _grown_numbers(numbers, side, p[:, 2], p[:, 1] == 1.0)
        arrays.append(lambda core, gp=gp, gv=gv, fp=fp, fv=fv: (_core_rows(gp, core), gv, _core_rows(fp, core), fv))
    code = np.empty(n, dtype=np.int64)
    out = np.empty((n, 5))
    pairs = np.char.add(np.char.add(kinds[0], " "), kinds[1])
    for key in np.unique(pairs).tolist():
        kind_a, kind_b = key.split(" ")
        rows = np.flatnonzero(pairs == key) if n > 1 else np.zeros(1, dtype=np.int64)
        loop, swapped, code_a, code_b = loop_of(kind_a, kind_b)
        loop = loop if rows.size > 1 else getattr(loop, "serial", loop)
        (ga, gva, fa, fva), (gb, gvb, fb, fvb) = arrays[0](kind_a), arrays[1](kind_b)
        found = np.empty((rows.size, 6))
        loop(EPS, swapped, code_a, code_b, shifted, ga, gva, gb, gvb, fa, fva, fb, fvb, np.ascontiguousarray(index[rows]),
             np.ascontiguousarray(numbers[rows]), found)
        code[rows], out[rows] = found[:, 0].astype(np.int64), found[:, 1:]
    return code, out


def single_cores(kind_a, ga, fa, kind_b, gb, fb, numbers):
    """The turning search of two single shapes with a capsule (:func:`direct_pair`;
    :func:`collide2d.motion.search._single_turning`): ``(kind, given row, framed row)`` of each
    shape as the loop of the cores takes them, the radii and the cores' speed bounds in
    ``numbers`` (in place, as :func:`run_turning`)."""
    sides = []
    for side, (kind, given, framed) in enumerate(((kind_a, ga, fa), (kind_b, gb, fb))):
        if kind == "rounded":  # (_grown_numbers on one row, in Python floats: the same floats)
            radius, point_core = float(given[0, 2]), given[0, 1] == 1.0
            row = numbers[0]
            row[_RADIUS + side] = radius
            if row[_SPIN + side] != 0.0:
                row[_SPIN + side] = 0.0 if point_core else abs(float(row[_TURN + side])) * (float(row[_REACH + side]) - radius)
            kind = "point" if point_core else "segment"
            given, framed = _core_rows(given, kind), _core_rows(framed, kind)
        sides.append((kind, given, framed))
    return sides


def direct_pair(a, b):
    """Whether a pair of single shapes may take the direct path of
    :func:`collide2d.motion.search._single_translation`: no polygon (vertex lists), and a rounded
    shape only as a capsule of radius > 0 (a segment or point core) against a point, segment, line
    or capsule (radius 0 is the plain kind's path; circles go through :func:`pair_for_search`)."""
    kinds = (run.kind_of(a), run.kind_of(b))
    if "polygon" in kinds:
        return False
    if "rounded" not in kinds:
        return True
    if "ellipse" in kinds:
        return False
    rows = [run.shape_rows(s)[:2] for s in (a, b)]
    return all(kind != "rounded" or (p.ndim == 1 and p[1] <= 2.0 and p[2] > 0.0) for kind, p in rows)


def reach(p):
    """Reference point and extent of a single capsule row (a list), the floats of
    :func:`collide2d.motion.rigid.reference_points` and :func:`collide2d.motion.rigid._extents`."""
    rx, ry = 0.5 * (p[3] + p[5]), 0.5 * (p[4] + p[6])
    r = max(float(np.hypot(p[3] - rx, p[4] - ry)), float(np.hypot(p[5] - rx, p[6] - ry))) + p[2]
    return rx, ry, r * (1.0 + 8 * 2.0**-52)


def shifted_row(p, dx, dy):
    """A capsule row (a list) shifted by ``(dx, dy)``: the floats of ``move_rounded_loop`` with the
    turn ``(1, 0)``."""
    return [p[0], p[1], p[2], p[3] + dx, p[4] + dy, p[5] + dx, p[6] + dy]


def _read_only(array):
    """``array`` contiguous, as a read-only view (the compiled loop sees one array type)."""
    view = np.ascontiguousarray(array).view()
    view.flags.writeable = False
    return view


def translation_batch(a, b, index_a, index_b, va, vb, t_max, search):
    """``(time, point, normal)`` of the translating pairs ``a[index_a[k]]``, ``b[index_b[k]]`` (flat
    indices; velocities ``va``, ``vb``, ``t_max`` per pair) with a rounded shape, against a
    rounded shape, a polygon, a segment, a point or a circle: the closed form of
    :mod:`collide2d._kernels.motion.toi_closed_rounded` on the rows as given, in one compiled
    pass, before any frame is built; the pairs it leaves undecided by ``search(rows)`` (the
    certified search, which asks the same closed form first: the same answers as a batch of those
    pairs alone). None for a line (the search alone)."""
    (kind_a, ga, gva), (kind_b, gb, gvb) = run.flat_rows(a), run.flat_rows(b)
    if not {kind_a, kind_b} <= {"rounded", "polygon", "segment", "point", "ellipse"}:
        return None  # (lines: the search; the closed form hands back ellipses other than circles)
    loop = importlib.import_module("collide2d._kernels.toi_loops_rounded").closed_rounded_loop
    out = np.empty((index_a.shape[0], 6))
    r = _read_only
    loop(_KIND_CODE[kind_a], r(ga), r(gva), _KIND_CODE[kind_b], r(gb), r(gvb), r(index_a), r(index_b), r(va), r(vb),
         r(t_max), out)
    time, point, normal = out[:, 1].copy(), out[:, 2:4].copy(), out[:, 4:6].copy()
    rest = np.flatnonzero(out[:, 0] < 0.0)  # (HIT 0, MISS 1; -1: undecided)
    if rest.size:
        time[rest], point[rest], normal[rest] = search(rest)
    return time, point, normal


def run_translation(a, b, framed_a, framed_b, shifted, index, numbers):
    """The compiled translation search of pairs with a rounded shape (the arguments and results
    of :func:`collide2d.motion.search._run_translation`): the loop ``toi_rounded_<other>_loop``,
    the rounded shape first (``swapped`` when it is ``b``)."""
    (kind_a, ga, gva), (kind_b, gb, gvb) = run.flat_rows(a), run.flat_rows(b)
    (_, fa, fva), (_, fb, fvb) = run.flat_rows(framed_a), run.flat_rows(framed_b)
    swapped = kind_a != "rounded"
    other = kind_b if not swapped else kind_a
    loop = getattr(importlib.import_module("collide2d._kernels.toi_loops_rounded"), f"toi_rounded_{other}_loop")
    out = np.empty((index.shape[0], 6))
    c = np.ascontiguousarray
    loop(EPS, swapped, _KIND_CODE[kind_a], _KIND_CODE[kind_b], shifted, c(ga), c(gva), c(gb), c(gvb), c(fa), c(fva),
         c(fb), c(fvb), c(index), c(numbers), out)
    return out[:, 0].astype(np.int64), out[:, 1:]
