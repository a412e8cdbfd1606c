"""Many shapes at once: every pair that satisfies a predicate, without testing all pairs.

Two steps. The *broad phase* finds the candidate pairs whose axis-aligned bounds overlap (closed
boxes, bounds rounded outward so that a touching pair is never dropped) with a uniform grid, a
sweep and prune, or a brute-force loop (:mod:`collide2d._kernels.broadphase.sweep`). The *narrow phase* runs
the exact relate kernel of each kind pair on the candidates, in chunks, and keeps the pairs the
predicate accepts. Both steps count before they fill, so the result never depends on the number
of threads.

The common queries (candidates of any kinds, or ``"intersects"`` among ellipses, without periodic
images, on a grid) take a faster path that does both steps in one grid pass,
:mod:`collide2d._kernels.broadphase.grid` (``_backend._fused_pairs``): the circle filter runs as each candidate is
found, two certified middle filters and the ``intersects`` kernel on the rest. Circles of similar
radii (``"intersects"``, also with ``max_distance``) and polygons of similar widths
(``"intersects"``) take a grid of their centres instead (``_backend._circle_pairs``,
``_backend._polygon_pairs``, :mod:`collide2d._kernels.broadphase.circles`), with the general
path's decision for every pair.

The package: this module holds the public functions; ``index`` the :class:`Index` kept between
calls; ``_backend`` the backend choice, the candidate chunks, the fused-grid driver, the grids of
centres, the periodic images and the query that runs them, with their tuning constants;
``_settle`` the narrow phase, the end of a grid pass with the exact fallback, and when a pass
runs on both cores (``PARALLEL_WORK``, ``SERIAL_BELOW``); ``_inputs`` the collections, the
argument checks and the kernel modules (imported with Numba on first use).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, NamedTuple, overload

import numpy as np
from numpy.typing import ArrayLike

from collide2d import _formats, _pairs, predicates
from collide2d._glue import run
from collide2d._pairs import pair_batches
from collide2d._validate import as_float_array, check_range
from collide2d.broadphase._backend import _run
from collide2d.broadphase._inputs import Shapes as Shapes
from collide2d.broadphase._inputs import _Collection as _Collection
from collide2d.broadphase.index import Index
from collide2d.shapes import Box
from collide2d.typing import FloatArray, Int8Array, IntArray

# the private names that nearest (_Collection, _box_candidates), motion (_query) and dask (the
# checks) read through this module
from collide2d.broadphase._backend import _query as _query  # noqa: E402
from collide2d.broadphase._inputs import _check_periodic as _check_periodic  # noqa: E402
from collide2d.broadphase._inputs import _check_predicate as _check_predicate  # noqa: E402
from collide2d.broadphase.index import _box_candidates as _box_candidates  # noqa: E402

__all__ = ["Index", "PairMeasures", "measure_pairs", "query", "query_pairs"]


@overload
def query_pairs(
    shapes: Shapes, *, predicate: str | None = "intersects", max_distance: float | None = None, backend: str = "auto",
    periodic: Sequence[float] | Box[Any] | None = None, return_shifts: Literal[False] = False,
) -> IntArray: ...
@overload
def query_pairs(
    shapes: Shapes, *, predicate: str | None = "intersects", max_distance: float | None = None, backend: str = "auto",
    periodic: Sequence[float] | Box[Any] | None = None, return_shifts: Literal[True],
) -> tuple[IntArray, FloatArray]: ...
def query_pairs(
    shapes: Shapes, *, predicate: str | None = "intersects", max_distance: float | None = None, backend: str = "auto",
    periodic: Sequence[float] | Box[Any] | None = None, return_shifts: bool = False
) -> IntArray | tuple[IntArray, FloatArray]:
    """Return every pair ``i < j`` of ``shapes`` that satisfies a predicate.

    Parameters
    ----------
    shapes : Shape, sequence of Shape or ShapeTable
        A batch (its shapes are numbered in C order, ``0 .. shapes.size - 1``), a list of single
        shapes and batches of any kinds, or a :class:`ShapeTable`.
    predicate : str or None, default "intersects"
        ``"intersects"``, ``"touches"``, ``"overlaps"``, ``"contains"``, ``"within"`` or
        ``"equals"``: keep the pairs for which ``predicate(shapes[i], shapes[j])`` is true
        (exactly, like the function of that name). ``None`` returns the broad-phase candidates
        instead: the pairs whose closed bounding boxes (:attr:`Shape.bounds`) overlap, a superset
        of the intersecting pairs. ``"disjoint"`` is refused (almost all pairs are disjoint).
    max_distance : float, optional
        With ``predicate="intersects"``: keep every pair at Euclidean distance at most
        ``max_distance`` (:func:`collide2d.distance`), a pair at exactly that distance included
        (see Notes). With ``predicate=None``: the pairs whose bounding boxes, each grown by
        ``max_distance / 2`` on every side, overlap (a superset). ``0`` is the same as not giving
        it; other predicates are refused.
    backend : {"auto", "grid", "sweep", "brute"}, default "auto"
        Broad-phase structure. ``"grid"``: uniform grid (larger boxes go into every cell they
        cover; cells of the median bounding-box extent on the fused path, about the 99th
        percentile otherwise), best when most sizes are similar; ``"sweep"``: sweep and prune along the axis of wider spread, for sizes that
        vary broadly; ``"brute"``: all pairs.
        ``"auto"`` takes ``"grid"`` when the 99th percentile of the box extents is under 4 times
        their median, ``"sweep"`` otherwise (or with lines) and ``"brute"`` below 33 shapes.
        Every backend gives the same result.
    periodic : (float, float) or Box, optional
        A periodic domain: ``(Lx, Ly)`` for the box ``[0, Lx) x [0, Ly)``, or a single
        :class:`Box` ``(min, max)`` for ``[min, max)``. Shapes may lie anywhere; each pair is
        tested in its minimum image, with ``b`` translated by whole box lengths. Every shape's
        bounding box must be less than half the box in each direction (else ``ValueError``), so
        that at most one image of a pair can meet; lines are refused.
    return_shifts : bool, default False
        Also return, per pair, the translation applied to ``shapes[j]``: float64 array of shape
        ``(n, 2)``, whole multiples of ``(Lx, Ly)`` (zeros without ``periodic``).

    Returns
    -------
    pairs : ndarray of int64, shape (2, n)
        Row 0 holds ``i``, row 1 ``j``, with ``i < j``, sorted by ``i`` then ``j``.
    shifts : ndarray of float64, shape (n, 2)
        Only with ``return_shifts=True``.

    Raises
    ------
    ValueError
        For an unknown predicate or backend, a non-positive periodic box, or a shape too large for
        the periodic box.

    See Also
    --------
    query : the pairs between two collections.

    Notes
    -----
    Bounds are rounded outward, so shapes that touch exactly are always candidates. The narrow
    phase is the exact kernel of each kind pair (``intersects`` for ``"intersects"`` between
    ellipses, after certified filters; ``relate`` otherwise), so the answer equals the pairwise
    predicate. With ``periodic``, the narrow phase tests ``shapes[i]`` against ``shapes[j]``
    translated by the shift, with the translated coordinates rounded to float64.

    With ``max_distance=d`` the broad phase grows every bounding box by ``d / 2`` and the narrow
    phase decides ``distance <= d``: certain answers from bounding and inscribed circles first,
    then the floating-point separation wherever it is farther from ``d`` than ``2**-32`` of the
    pair's coordinates (it is accurate to a few ulps of them), and the remaining close calls one
    by one in exact rational arithmetic. That decision is exact for pairs without curves (squared
    distances of vertices to edges). With an ellipse it rests on two certificates: *in* when the
    ellipse with both semi-axes grown by ``d`` meets the other shape (exact for a circle when
    ``r + d`` is a float, and whenever the nearest points include an end of an ellipse's axis,
    as in lattices of aligned ellipses), *out* when the supports of the two shapes along the
    contact normal are more than ``d`` apart. A pair for which neither holds is kept: a pair at
    distance ``<= d`` is never dropped, and a kept pair is farther than ``d`` by at most a few
    ulps of its distance (8 ulps at most over 200 random pairs of turned ellipses).

    Memory stays bounded by processing the candidates in chunks (about four million pairs on
    the fused grid of ``"intersects"`` among ellipses and of ``predicate=None``, a million
    otherwise). Each pass uses every thread when it has enough work (``PARALLEL_WORK``).

    Examples
    --------
    >>> import collide2d as c2
    >>> circles = c2.Circle([(0, 0), (2, 0), (5, 0), (5.5, 0)], 1)
    >>> c2.query_pairs(circles).tolist()  # 0 and 1 touch at (1, 0)
    [[0, 2], [1, 3]]
    >>> c2.query_pairs(circles, predicate="touches").tolist()
    [[0], [1]]
    >>> c2.query_pairs([c2.Box((0, 0), (4, 4)), c2.Point((1, 1)), c2.Segment((3, 3), (9, 9))]).tolist()
    [[0, 0], [1, 2]]
    >>> pairs, shifts = c2.query_pairs(c2.Circle([(0.5, 5), (9.5, 5)], 1), periodic=(10, 10), return_shifts=True)
    >>> pairs.tolist(), shifts.tolist()  # they overlap across the left/right edge
    ([[0], [1]], [[-10.0, 0.0]])
    >>> c2.query_pairs(c2.Circle((0, 0), 1)).shape  # a single shape has no pairs
    (2, 0)
    >>> c2.query_pairs(circles, max_distance=1.0).tolist()  # 1 and 2 are exactly 1 apart
    [[0, 1, 2], [1, 2, 3]]
    """
    return _run(_Collection(shapes, "shapes"), None, predicate, backend, periodic, return_shifts, max_distance)


@overload
def query(
    a: Shapes, b: Shapes, /, *, predicate: str | None = "intersects", max_distance: float | None = None, backend: str = "auto",
    periodic: Sequence[float] | Box[Any] | None = None, return_shifts: Literal[False] = False,
) -> IntArray: ...
@overload
def query(
    a: Shapes, b: Shapes, /, *, predicate: str | None = "intersects", max_distance: float | None = None, backend: str = "auto",
    periodic: Sequence[float] | Box[Any] | None = None, return_shifts: Literal[True],
) -> tuple[IntArray, FloatArray]: ...
def query(
    a: Shapes, b: Shapes, /, *, predicate: str | None = "intersects", max_distance: float | None = None, backend: str = "auto",
    periodic: Sequence[float] | Box[Any] | None = None, return_shifts: bool = False
) -> IntArray | tuple[IntArray, FloatArray]:
    """Return every pair ``(i, j)`` with ``predicate(a[i], b[j])`` true, between two collections.

    Parameters
    ----------
    a, b : Shape, sequence of Shape or ShapeTable
        Two collections, as for :func:`query_pairs` (batches are numbered in C order).
    predicate : str or None, default "intersects"
        As for :func:`query_pairs`; asymmetric predicates read ``contains(a[i], b[j])``.
    max_distance : float, optional
        As for :func:`query_pairs`: the pairs at distance at most ``max_distance``.
    backend : {"auto", "grid", "sweep", "brute"}, default "auto"
        As for :func:`query_pairs`.
    periodic : (float, float) or Box, optional
        As for :func:`query_pairs`; ``b[j]`` is translated into the minimum image of ``a[i]``.
    return_shifts : bool, default False
        Also return the translation applied to ``b[j]`` per pair.

    Returns
    -------
    pairs : ndarray of int64, shape (2, n)
        Row 0 indexes ``a``, row 1 indexes ``b``; sorted by row 0, then row 1.
    shifts : ndarray of float64, shape (n, 2)
        Only with ``return_shifts=True``.

    Raises
    ------
    TypeError
        If `a` or `b` is not a shape, a list of shapes or a ShapeTable, `max_distance` is not a
        real number, `periodic` is neither a pair of numbers nor a Box, or `return_shifts` is not
        True or False.
    ValueError
        For an unknown predicate or backend (``"disjoint"`` is refused), a negative or non-finite
        `max_distance` or one given with a predicate other than ``"intersects"`` or None, a
        periodic box that is a batch or not finite and positive, or a shape too large for the
        periodic box (a line is always).

    See Also
    --------
    query_pairs : the pairs within one collection.

    Examples
    --------
    >>> import collide2d as c2
    >>> boxes = c2.Box([(0, 0), (3, 0)], [(1, 1), (4, 1)])
    >>> dots = c2.Point([(1, 1), (2, 2), (3.5, 0.5)])
    >>> c2.query(boxes, dots).tolist()  # (1, 1) is a corner of box 0: closed shapes intersect
    [[0, 1], [0, 2]]
    >>> c2.query(boxes, dots, predicate="contains").tolist()
    [[1], [2]]
    >>> c2.query(boxes, []).shape
    (2, 0)
    >>> c2.query(boxes, dots, max_distance=1.5).tolist()  # (2, 2) is sqrt(2) from both boxes
    [[0, 0, 1, 1], [0, 1, 1, 2]]
    """
    return _run(_Collection(a, "a"), _Collection(b, "b"), predicate, backend, periodic, return_shifts, max_distance)


class PairMeasures(NamedTuple):
    """Everything a simulation step or a catalogue comparison needs about a list of pairs.

    Arrays of length ``n`` (vectors of shape ``(n, 2)``); see :func:`collide2d.contact` for the
    meaning and signs of the contact fields. ``iou`` is NaN when a shape of the pair has no area.

    Examples
    --------
    >>> import collide2d as c2
    >>> boxes = c2.Box([(0, 0), (1, 0)], [(2, 1), (3, 1)])
    >>> m = c2.measure_pairs(boxes, c2.query_pairs(boxes))
    >>> m.overlap_area.tolist(), m.iou.tolist()
    ([1.0], [0.3333333333333333])
    """

    relation: Int8Array
    separation: FloatArray
    normal: FloatArray
    point_a: FloatArray
    point_b: FloatArray
    curvature_a: FloatArray
    curvature_b: FloatArray
    overlap_area: FloatArray
    iou: FloatArray

    def to_dataframe(self, pairs: ArrayLike | None = None, ids: ArrayLike | None = None) -> Any:
        """Return a pandas DataFrame with one row per pair (vectors as ``_x``/``_y`` columns).

        Parameters
        ----------
        pairs : array_like of int, shape (2, n), optional
            The pairs measured: adds the columns ``a`` and ``b``.
        ids : array_like, optional
            Labels of the shapes (for example a catalogue's index), used for ``a`` and ``b``.

        Returns
        -------
        pandas.DataFrame
            See :func:`collide2d.convert.pair_measures_to_dataframe`.

        Examples
        --------
        >>> import collide2d as c2
        >>> circles = c2.Circle([(0, 0), (1.5, 0), (4, 0)], 1)
        >>> pairs = c2.query_pairs(circles)
        >>> df = c2.measure_pairs(circles, pairs).to_dataframe(pairs, ids=["p", "q", "r"])
        >>> df[["a", "b", "relation", "separation", "overlap_area"]].round(6)
           a  b     relation  separation  overlap_area
        0  p  q  OVERLAPPING        -0.5      0.453312
        """
        return _formats.pair_measures_frame(self, pairs, ids, predicates.Relation)


_REGION_KINDS = ("ellipse", "polygon")
_AREA_KINDS = _REGION_KINDS + ("rounded",)  # kinds with an overlap area (a rounded shape of radius 0 arrives as its core)


def measure_pairs(shapes: Shapes, pairs: ArrayLike, /, *, shifts: ArrayLike | None = None) -> PairMeasures:
    """Return relation, contact, overlap area and IoU of every pair found by :func:`query_pairs`.

    Parameters
    ----------
    shapes : Shape, sequence of Shape or ShapeTable
        The collection given to :func:`query_pairs`.
    pairs : array_like of int, shape (2, n)
        Its result (row 0 the first shape of each pair).
    shifts : array_like of float, shape (n, 2), optional
        The image shifts from ``query_pairs(..., periodic=..., return_shifts=True)``: the second
        shape of each pair is moved by its shift before measuring.

    Returns
    -------
    PairMeasures
        ``relation`` (int8 codes of :class:`collide2d.Relation`), ``separation``, ``normal``,
        ``point_a``, ``point_b``, ``curvature_a``, ``curvature_b``, ``overlap_area``, ``iou``.
        ``overlap_area`` is 0 and ``iou`` NaN for a pair that is not two regions (a point, a
        segment, a line, or a capsule of radius 0, is involved); a capsule, or a polygon or box
        with a radius, of radius > 0 is a region.

    Raises
    ------
    TypeError
        When ``shifts`` is not numeric.
    ValueError
        When ``pairs`` is not an integer array of shape (2, n), or holds an index that is
        negative or not below the number of shapes (negative indices do not count from the end);
        when ``shifts`` is not finite, not of shape (n, 2), or moves a shape beyond the supported
        range of coordinates.

    Examples
    --------
    >>> import collide2d as c2
    >>> circles = c2.Circle([(0, 0), (1.5, 0), (4, 0)], [1, 1, 1.5])
    >>> pairs = c2.query_pairs(circles)
    >>> m = c2.measure_pairs(circles, pairs)
    >>> pairs.tolist(), m.separation.tolist(), m.normal.tolist()
    ([[0, 1], [1, 2]], [-0.5, 0.0], [[1.0, 0.0], [1.0, 0.0]])
    """
    from collide2d import measurement, overlay

    pairs = np.asarray(pairs)
    if pairs.ndim != 2 or pairs.shape[0] != 2 or not np.issubdtype(pairs.dtype, np.integer):
        raise ValueError(f"pairs must be an integer array of shape (2, n), got {pairs.dtype} {pairs.shape}")
    n = pairs.shape[1]
    if n:
        count = int(_pairs._sources(shapes)[1][-1])
        low, high = int(pairs.min()), int(pairs.max())
        if low < 0 or high >= count:
            wrong = low if low < 0 else high
            within = f"shapes 0 to {count - 1}" if count else "no shape (the collection is empty)"
            raise ValueError(f"pairs must index {within}; got {wrong}")
    if shifts is not None:
        shifts = as_float_array(shifts, "shifts")  # numbers, finite
        if shifts.shape != (n, 2):
            raise ValueError(f"shifts must have shape ({n}, 2) to match pairs, got {shifts.shape}")
    out = PairMeasures(
        np.zeros(n, dtype=np.int8), np.zeros(n), np.zeros((n, 2)), np.zeros((n, 2)), np.zeros((n, 2)),
        np.zeros(n), np.zeros(n), np.zeros(n), np.full(n, np.nan),
    )
    for where, a, b in pair_batches(shapes, pairs, shifts):
        a, b = (run.rounded().plain_if_zero(s) if run.kind_of(s) == "rounded" else s for s in (a, b))  # radius 0: the core
        m = len(where)
        if shifts is not None:
            try:
                check_range(type(b).__name__.lower(), b.fields)
            except ValueError as error:
                raise ValueError(f"shifts must keep the moved shapes in the supported range: {error}") from None
        out.relation[where] = np.broadcast_to(np.asarray(predicates.relate(a, b), dtype=np.int8), (m,))
        contact = measurement.contact(a, b)
        for name in ("separation", "curvature_a", "curvature_b"):
            getattr(out, name)[where] = np.broadcast_to(getattr(contact, name), (m,))
        for name in ("normal", "point_a", "point_b"):
            getattr(out, name)[where] = np.broadcast_to(getattr(contact, name), (m, 2))
        if run.kind_of(a) in _AREA_KINDS and run.kind_of(b) in _AREA_KINDS:
            out.overlap_area[where] = np.broadcast_to(overlay.overlap_area(a, b), (m,))
            out.iou[where] = np.broadcast_to(overlay.iou(a, b), (m,))
    return out
