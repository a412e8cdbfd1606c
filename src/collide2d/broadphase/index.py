"""A broad phase kept between calls: :class:`Index`, a neighbour list with a skin."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple, overload

import numpy as np

from collide2d import _within
from collide2d.broadphase import _backend
from collide2d.broadphase._backend import _query, _row_ranges, _run
from collide2d.broadphase._inputs import (
    Shapes, _check_margin, _check_max_distance, _check_periodic, _check_predicate, _Collection, screen, sweep,
)
from collide2d.broadphase._settle import _finish_rows, _narrow, _relate_filtered, _run_grid, _tame, _threads_for
from collide2d.shapes import Box, Shape
from collide2d.table import ShapeTable
from collide2d.typing import FloatArray, IntArray

# -- a broad phase kept between calls -------------------------------------------------------------


class _Bounds:
    """Only the boxes of a collection: what the broad phase reads when it returns candidates."""

    kind = None

    def __init__(self, bounds):
        self.bounds = bounds

    def __len__(self):
        return self.bounds.shape[0]


def _box_candidates(bounds_a, bounds_b):
    """The pairs ``(i, j)`` whose closed boxes ``bounds_a[i]`` and ``bounds_b[j]`` overlap, sorted
    (the broad phase :mod:`collide2d._nearest` starts with)."""
    return _query(_Bounds(bounds_a), _Bounds(bounds_b), None, "auto", None, False)




class _Candidates(NamedTuple):
    """Pairs whose inflated boxes, grown by ``max_distance / 2``, overlap: sorted (2, k), with
    their periodic shifts (or None) and the row offsets (CSR) of row 0."""

    pairs: np.ndarray
    shifts: np.ndarray | None
    offsets: np.ndarray


class Index:
    """A broad phase kept between calls, for shapes that move a little from one call to the next.

    The index keeps every shape's bounding box inflated by ``margin`` and, per distance asked
    for, the pairs whose inflated boxes overlap (a *neighbour list* with a *skin*, in the words of
    molecular dynamics). A query screens that list against the current boxes and runs the exact
    narrow phase of :func:`query_pairs`; :meth:`update` takes the moved shapes and re-bins only
    those whose box left its inflated box, so while nothing did the list is reused as it is.

    Parameters
    ----------
    shapes : Shape, sequence of Shape or ShapeTable
        The collection, as for :func:`query_pairs` (batches are numbered in C order).
    margin : float, default 0.0
        How far each bounding box is inflated on every side. A larger margin re-bins less often
        but screens more candidates per query; about the distance a shape moves in ten to twenty
        steps is a good start.
    periodic : (float, float) or Box, optional
        A periodic domain, as for :func:`query_pairs`. The inflated boxes must stay below half
        the box.

    Raises
    ------
    TypeError
        If ``shapes`` is not a collection of shapes or ``margin`` not a number.
    ValueError
        If ``margin`` is negative or not finite, or the periodic box is too small.

    See Also
    --------
    query_pairs : the same answers, computed from scratch.

    Notes
    -----
    Every answer is exactly what :func:`query_pairs` (or :func:`query`) returns on the current
    shapes with the same arguments: the kept list only ever holds a superset of the candidates,
    and the narrow phase is the same. A shape's box is inside its inflated box when it moved by
    less than ``margin`` (turns and size changes count through the box), so with displacements
    below the margin no re-binning happens. This is the Verlet list with a skin of molecular
    dynamics codes (Allen and Tildesley, *Computer Simulation of Liquids*, 2017, section 5.3),
    applied to bounding boxes rather than centres.

    Examples
    --------
    >>> import collide2d as c2
    >>> circles = c2.Circle([(0, 0), (2.5, 0), (6, 0)], 1)
    >>> index = c2.Index(circles, margin=0.5)
    >>> index.query_pairs().tolist()
    [[], []]
    >>> index.query_pairs(max_distance=0.5).tolist()
    [[0], [1]]
    >>> index.update(c2.Circle([(0, 0), (2.0, 0), (6, 0)], 1))  # moved by 0.5: nothing re-binned
    0
    >>> index.query_pairs().tolist()  # they touch now
    [[0], [1]]
    >>> index.query(c2.Point((6, 0.5))).tolist()  # row 0 indexes the query's shapes
    [[0], [2]]
    """

    def __init__(
        self,
        shapes: Shape | Sequence[Shape] | ShapeTable,
        *,
        margin: float = 0.0,
        periodic: tuple[float, float] | Box | None = None,
    ) -> None:
        self._margin = _check_margin(margin)
        _check_periodic(periodic)
        self._periodic = periodic
        self._coll = _Collection(shapes, "shapes")
        self._inflated = self._coll.grown(self._margin).bounds
        self._lists: dict[Any, Any] = {}

    def __len__(self) -> int:
        return len(self._coll)

    def __repr__(self) -> str:
        return f"<Index of {len(self)} shapes, margin={self._margin!r}, periodic={self._periodic!r}>"

    @property
    def margin(self) -> float:
        """How far each bounding box is inflated on every side."""
        return self._margin

    def update(self, shapes: Shape | Sequence[Shape] | ShapeTable) -> int:
        """Replace the shapes by their moved, turned or resized versions.

        Parameters
        ----------
        shapes : Shape, sequence of Shape or ShapeTable
            As many shapes as the index holds, in the same order.

        Returns
        -------
        int
            How many shapes left their inflated box and were re-binned (0: the kept candidate
            lists are reused as they are).

        Raises
        ------
        ValueError
            If ``shapes`` does not hold as many shapes as the index.
        """
        coll = _Collection(shapes, "shapes")
        if len(coll) != len(self._coll):
            raise ValueError(f"shapes must hold the {len(self._coll)} shapes of the index, got {len(coll)}")
        b, box = coll.bounds, self._inflated
        with np.errstate(invalid="ignore"):
            inside = (b[:, 0] >= box[:, 0]) & (b[:, 1] >= box[:, 1]) & (b[:, 2] <= box[:, 2]) & (b[:, 3] <= box[:, 3])
        left = np.flatnonzero(~inside)
        self._coll = coll
        if left.size:
            self._inflated[left] = coll.grown(self._margin).bounds[left]
            if 4 * left.size > len(coll):  # most moved: rebuilding is cheaper than patching
                self._lists.clear()
            for d in list(self._lists):
                self._lists[d] = self._patch(self._lists[d], left, d)
        return int(left.size)

    def _grown_inflated(self, d):
        if not d:
            return self._inflated
        with np.errstate(invalid="ignore"):
            lo = np.nextafter(self._inflated[:, :2] - 0.5 * d, -np.inf)
            hi = np.nextafter(self._inflated[:, 2:] + 0.5 * d, np.inf)
        return np.concatenate([lo, hi], axis=1)

    def _candidates(self, d):
        entry = self._lists.get(d)
        if entry is None:
            pairs, shifts = _query(_Bounds(self._grown_inflated(d)), None, None, "auto", self._periodic, True)
            entry = self._lists[d] = self._entry(pairs, shifts)
        return entry

    def _entry(self, pairs, shifts):
        offsets = np.zeros(len(self._coll) + 1, dtype=np.int64)
        np.cumsum(np.bincount(pairs[0], minlength=len(self._coll)), out=offsets[1:])
        return _Candidates(pairs, shifts if self._periodic is not None else None, offsets)

    def _patch(self, entry, left, d):
        """The candidate list after the shapes ``left`` were re-binned: their old pairs out, the
        pairs of their new inflated boxes with every box in."""
        n = len(self._coll)
        moved = np.zeros(n, dtype=bool)
        moved[left] = True
        pairs, shifts = entry.pairs, entry.shifts
        keep = ~(moved[pairs[0]] | moved[pairs[1]])
        boxes = self._grown_inflated(d)
        found, found_shifts = _query(_Bounds(boxes[left]), _Bounds(boxes), None, "auto", self._periodic, True)
        i, j = left[found[0]], found[1]
        other = i != j
        i, j, found_shifts = i[other], j[other], found_shifts[other]
        swap = i > j
        i, j = np.where(swap, j, i), np.where(swap, i, j)
        found_shifts = np.where(swap[:, None], -found_shifts, found_shifts) + 0.0  # no -0.0
        all_i = np.concatenate([pairs[0, keep], i])
        all_j = np.concatenate([pairs[1, keep], j])
        key, first = np.unique(all_i * n + all_j, return_index=True)  # sorted; a pair of two movers once
        merged = np.stack([key // n, key % n])
        merged_shifts = None
        if shifts is not None:
            merged_shifts = np.concatenate([shifts[keep], found_shifts])[first]
        return self._entry(merged, merged_shifts)

    def query_pairs(
        self,
        predicate: str | None = "intersects",
        *,
        max_distance: float | None = None,
        return_shifts: bool = False,
    ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """Return every pair ``i < j`` of the current shapes that satisfies a predicate.

        Parameters
        ----------
        predicate : str or None, default "intersects"
            As for :func:`query_pairs`.
        max_distance : float, optional
            As for :func:`query_pairs`: the pairs at distance at most ``max_distance``. Each
            distance asked for keeps its own candidate list.
        return_shifts : bool, default False
            As for :func:`query_pairs`.

        Returns
        -------
        pairs : ndarray of int64, shape (2, n)
            Exactly ``query_pairs(shapes, predicate=predicate, max_distance=max_distance,
            periodic=periodic)`` of the current shapes.
        shifts : ndarray of float64, shape (n, 2)
            Only with ``return_shifts=True``.

        Examples
        --------
        >>> import collide2d as c2
        >>> index = c2.Index(c2.Box([(0, 0), (1, 0), (3, 0)], [(1, 1), (2, 1), (4, 1)]), margin=0.25)
        >>> index.query_pairs().tolist(), index.query_pairs(predicate="overlaps").tolist()
        ([[0], [1]], [[], []])
        """
        _check_predicate(predicate)
        d = _check_max_distance(max_distance, predicate) or 0.0
        if not isinstance(return_shifts, (bool, np.bool_)):
            raise TypeError(f"return_shifts must be True or False, got {return_shifts!r}")
        coll = self._coll
        if self._periodic is not None and predicate is None:  # the periodic candidates: the fresh query's own
            return _run(coll, None, None, "auto", self._periodic, return_shifts, max_distance)
        entry = self._candidates(d)
        if self._periodic is not None:
            pairs, shifts = entry.pairs, entry.shifts
        else:
            # intersects among ellipses: the fused grid's filters and kernel, in the screening pass
            fused = (d == 0.0 and predicate == "intersects" and coll.kind == "ellipse"
                     and _tame(coll.kind, coll.params, coll.verts))
            pairs = self._screen(entry, coll.grown(0.5 * d) if d else coll, fused)
            shifts = None
            if predicate is None or fused:
                return (pairs, np.zeros((pairs.shape[1], 2))) if return_shifts else pairs
        test = (functools.partial(_within.within_pairs, d=d) if d
                else functools.partial(_relate_filtered, predicate=predicate))
        keep = np.empty(pairs.shape[1], dtype=bool)
        chunk = _backend.CHUNK
        with _threads_for(len(coll)):
            for s in range(0, pairs.shape[1], chunk):
                shift = None if shifts is None else shifts[s : s + chunk]
                keep[s : s + chunk] = _narrow(coll, coll, pairs[0, s : s + chunk], pairs[1, s : s + chunk], shift, test)
        pairs = np.ascontiguousarray(pairs[:, keep])
        if not return_shifts:
            return pairs
        return pairs, (shifts[keep] if shifts is not None else np.zeros((pairs.shape[1], 2)))

    def _screen(self, entry, coll, narrow):
        """The kept candidates whose current boxes (``coll.bounds``) overlap, and with ``narrow``
        (ellipses, ``intersects``) the intersecting ones: sorted (2, n)."""
        n = len(coll)
        columns_in = np.ascontiguousarray(entry.pairs[1])
        boxes = tuple(np.ascontiguousarray(coll.bounds[:, k]) for k in range(4))
        params = coll.params if narrow else np.zeros((0, 6))
        row_counts = np.zeros(n, dtype=np.int64)
        found = []
        for r0, r1, off in _row_ranges(entry.offsets, _backend.FUSED_CHUNK):
            total = int(off[-1] - off[0])
            if total == 0:
                continue
            out = np.empty(total, dtype=np.int64)
            kept = np.zeros(r1 - r0, dtype=np.int64)
            _run_grid(screen.screen_rows, total, r0, off, columns_in[off[0] : off[-1]], *boxes, params, narrow, kept, out)
            kept, columns = _finish_rows(coll, None, r0, off, kept, out, narrow)
            row_counts[r0:r1] = kept
            found.append(columns)
        pairs = np.empty((2, int(row_counts.sum())), dtype=np.int64)
        if pairs.shape[1]:
            sweep.expand_rows(row_counts, pairs[0])
            np.concatenate(found, out=pairs[1])
        return pairs

    def query(
        self,
        other: Shape | Sequence[Shape] | ShapeTable,
        predicate: str | None = "intersects",
        *,
        max_distance: float | None = None,
        return_shifts: bool = False,
    ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """Return every pair ``(i, j)`` with ``predicate(other[i], shapes[j])`` true.

        Exactly ``query(other, shapes, ...)`` of the current shapes (row 0 indexes ``other``,
        row 1 the index's shapes), computed afresh: ``other`` changes from call to call.

        Parameters
        ----------
        other : Shape, sequence of Shape or ShapeTable
            The query shapes.
        predicate : str or None, default "intersects"
            As for :func:`query`.
        max_distance : float, optional
            As for :func:`query`.
        return_shifts : bool, default False
            As for :func:`query`: the translation applied to ``shapes[j]``.

        Returns
        -------
        pairs : ndarray of int64, shape (2, n)
        shifts : ndarray of float64, shape (n, 2)
            Only with ``return_shifts=True``.

        Examples
        --------
        >>> import collide2d as c2
        >>> index = c2.Index(c2.Circle([(0, 0), (3, 0)], 1))
        >>> index.query(c2.Segment((-2, 0.5), (5, 0.5))).tolist()
        [[0, 0], [0, 1]]
        """
        return _run(_Collection(other, "other"), self._coll, predicate, "auto", self._periodic, return_shifts,
                    max_distance)

    @overload
    def query_nearest(
        self, shapes: Shapes, *, max_distance: float | None = None, return_distance: Literal[False] = False,
        all_matches: bool = True, exclusive: bool = False,
    ) -> IntArray: ...
    @overload
    def query_nearest(
        self, shapes: Shapes, *, max_distance: float | None = None, return_distance: Literal[True],
        all_matches: bool = True, exclusive: bool = False,
    ) -> tuple[IntArray, FloatArray]: ...
    def query_nearest(
        self, shapes: Shapes, *, max_distance: float | None = None, return_distance: bool = False,
        all_matches: bool = True, exclusive: bool = False,
    ) -> IntArray | tuple[IntArray, FloatArray]:
        """For each of ``shapes``, the nearest of the index's current shapes: :func:`collide2d.query_nearest`.

        Exactly ``query_nearest(index, shapes, ...)``; see there for the arguments, the result and
        how it compares with shapely's ``STRtree.query_nearest``. The search is made afresh on the
        current shapes (the kept candidate lists serve :meth:`query_pairs` only).

        Raises
        ------
        ValueError
            For a periodic index (the nearest image is not searched), and as
            :func:`collide2d.query_nearest`.

        Examples
        --------
        >>> import collide2d as c2
        >>> index = c2.Index(c2.Circle([(0, 0), (4, 0), (8, 0)], 1))
        >>> index.query_nearest(c2.Point([(2, 0), (7, 1)])).tolist()  # (2, 0) is 1 from both 0 and 1
        [[0, 0, 1], [0, 1, 2]]
        """
        from collide2d import _nearest

        limit = _nearest.check_arguments(max_distance, return_distance, all_matches, exclusive)
        if self._periodic is not None:
            raise ValueError("query_nearest does not search periodic images: build the Index without periodic")
        pairs, distances = _nearest.nearest(_Collection(shapes, "shapes"), self._coll, limit, all_matches, exclusive,
                                            _box_candidates)
        return (pairs, distances) if return_distance else pairs
