"""Nearest queries: for each shape of one collection, the nearest shapes of another, by exact distance.

:func:`query_nearest` follows shapely's ``STRtree.query_nearest`` (shapely 2.x): the same
arguments, the same ``(2, n)`` pairs of (query index, tree index), the same treatment of ties
and of ``max_distance``; the distances are collide2d's exact :func:`collide2d.distance`. The
search itself is in :mod:`collide2d._nearest`, on the broad phase of :mod:`collide2d.broadphase`.
"""

from __future__ import annotations

from typing import Literal, overload

from collide2d import broadphase
from collide2d.typing import FloatArray, IntArray

__all__ = ["query_nearest"]


@overload
def query_nearest(
    tree_or_shapes: broadphase.Index | broadphase.Shapes, shapes: broadphase.Shapes, /, *,
    max_distance: float | None = None, return_distance: Literal[False] = False, all_matches: bool = True,
    exclusive: bool = False,
) -> IntArray: ...
@overload
def query_nearest(
    tree_or_shapes: broadphase.Index | broadphase.Shapes, shapes: broadphase.Shapes, /, *,
    max_distance: float | None = None, return_distance: Literal[True], all_matches: bool = True,
    exclusive: bool = False,
) -> tuple[IntArray, FloatArray]: ...
def query_nearest(
    tree_or_shapes: broadphase.Index | broadphase.Shapes, shapes: broadphase.Shapes, /, *,
    max_distance: float | None = None, return_distance: bool = False, all_matches: bool = True,
    exclusive: bool = False,
) -> IntArray | tuple[IntArray, FloatArray]:
    """Return, for each of ``shapes``, the nearest shapes of ``tree_or_shapes``, by exact distance.

    The arguments read like shapely's ``STRtree(tree).query_nearest(shapes)``: ``shapes`` are
    the queries, ``tree_or_shapes`` the collection searched.

    Parameters
    ----------
    tree_or_shapes : Index, Shape, sequence of Shape or ShapeTable
        The collection searched (the *tree*): an :class:`Index` (its current shapes), a batch
        (numbered in C order), a list of shapes and batches of any kinds, or a
        :class:`ShapeTable`, as for :func:`query`.
    shapes : Shape, sequence of Shape or ShapeTable
        The query shapes, in the same forms (a single shape is query 0).
    max_distance : float, optional
        Only tree shapes at distance ``<= max_distance`` (a tie at exactly that distance
        included); a query shape with none gets no row. ``None`` or ``inf``: no limit. ``0``
        keeps the intersecting shapes only.
    return_distance : bool, default False
        Also return the distance of each pair.
    all_matches : bool, default True
        Every tree shape at the nearest distance (ties); ``False``: only the one with the lowest
        tree index.
    exclusive : bool, default False
        Skip the tree shapes equal to the query shape (:func:`collide2d.equals`, exact: the same
        point set); the nearest of the others is returned.

    Returns
    -------
    pairs : ndarray of int64, shape (2, n)
        Row 0 indexes ``shapes``, row 1 the tree; sorted by row 0, then row 1.
    distances : ndarray of float64, shape (n,)
        Only with ``return_distance=True``: :func:`collide2d.distance` of each pair (0 for
        intersecting shapes).

    Raises
    ------
    TypeError
        If a collection is not made of collide2d shapes, ``max_distance`` is not a real number
        (``bool`` is refused), or a flag is not ``True`` or ``False``.
    ValueError
        If ``max_distance`` is negative or NaN, or the :class:`Index` is periodic.

    See Also
    --------
    query : every pair within a distance (``max_distance``), not only the nearest.
    Index.query_nearest : the same search on the shapes an index holds.

    Notes
    -----
    Side by side with shapely 2.x ``STRtree.query_nearest(geometry, max_distance=None,
    return_distance=False, exclusive=False, all_matches=True)``:

    ================== ======================================= =======================================
    \\                  shapely                                 collide2d
    ================== ======================================= =======================================
    result             ``(2, n)`` (query, tree) indices;       ``(2, n)`` always (a single query
                       ``(n,)`` tree indices for a scalar      shape is query 0), like :func:`query`
                       geometry
    order              by query; tree indices in visit order   by query, then tree index
    distance           GEOS distance of the geometries (a      exact distance of the shapes: an
                       circle is a buffered polygon)           ellipse is an ellipse
    ties               every equidistant tree geometry         every tree shape whose float distance
                       (``all_matches=True``)                  equals the smallest (equal floats are
                                                               ties)
    ``all_matches``    ``False``: the first one visited        ``False``: the lowest tree index
    ``max_distance``   must be ``> 0``                         ``>= 0``; ``None`` or ``inf``: no limit
    nothing within     the query gets no row                   the same
    ``exclusive``      skips tree geometries equal to the      skips tree shapes for which the exact
                       input geometry (GEOS ``equals``)        :func:`collide2d.equals` holds
    empty geometries   omitted from the output                 a collide2d shape is never empty
    ================== ======================================= =======================================

    The search (:mod:`collide2d._nearest`) first takes from the broad phase the tree shapes whose
    bounding boxes lie within a typical nearest distance (the 90th percentile over a sample of the
    queries) of each query's box, measures their exact distances and settles the queries whose
    nearest is within that reach; the others (far from the tree, or with a nearest farther away) are
    searched in an R-tree of the tree's boxes, within the smallest farthest-point distance between
    the query's box and a tree box. Each query measures the few tree shapes near it, also when it
    lies far from the whole tree: the work grows like ``n log n``. Where large boxes overlap many
    others it grows with them: a line in the tree is a candidate of every query near its unbounded
    box, a line as query meets the tree along it.

    Examples
    --------
    >>> import collide2d as c2
    >>> tree = c2.Point([(0, 0), (1, 1), (2, 2), (3, 3)])
    >>> c2.query_nearest(tree, c2.Point([(2.25, 2.25), (1, 1)])).tolist()
    [[0, 1], [2, 1]]
    >>> c2.query_nearest(tree, c2.Box((1, 1), (3, 3))).tolist()  # every intersecting one
    [[0, 0, 0], [1, 2, 3]]
    >>> pairs, distances = c2.query_nearest(tree, c2.Point((0.5, 0.5)), return_distance=True)
    >>> pairs.tolist(), distances.round(4).tolist()  # a tie
    ([[0, 0], [0, 1]], [0.7071, 0.7071])
    >>> c2.query_nearest(tree, c2.Point((1, 1)), exclusive=True).tolist()  # not itself
    [[0, 0], [0, 2]]
    >>> c2.query_nearest(tree, c2.Point([(0, 0.5), (9, 9)]), max_distance=1).tolist()
    [[0], [0]]
    """
    from collide2d import _nearest

    limit = _nearest.check_arguments(max_distance, return_distance, all_matches, exclusive)
    if isinstance(tree_or_shapes, broadphase.Index):
        pairs, distances = tree_or_shapes.query_nearest(shapes, max_distance=max_distance, return_distance=True,
                                                        all_matches=all_matches, exclusive=exclusive)
    else:
        tree = broadphase._Collection(tree_or_shapes, "tree_or_shapes")
        pairs, distances = _nearest.nearest(broadphase._Collection(shapes, "shapes"), tree, limit, all_matches,
                                            exclusive, broadphase._box_candidates)
    return (pairs, distances) if return_distance else pairs
