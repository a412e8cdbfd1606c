"""Drawing shapes, collisions and contacts with matplotlib (imported only when a function is called).

Requires matplotlib (``pip install 'collide2d[plot]'``). Every function takes ``ax=None`` (a new
pyplot figure is made) and returns the axes it drew on; nothing else of pyplot's state is touched
when ``ax`` is given. Shapes are drawn as one collection per kind (an ``EllipseCollection`` for
ellipses and circles, a ``PolyCollection`` for polygons and boxes), so a scene of 10^5 shapes
renders in seconds. What is drawn comes from the public operations (:func:`collide2d.contact`,
:func:`collide2d.overlay.intersection_points`); there is no geometry here beyond placing artists.

Colours: shapes in light blue with a dark blue outline; shapes that collide outlined in red;
overlap regions filled in orange; intersection points as black dots; witness points as small
white-filled circles, joined by the contact normal (an arrow from ``a`` to ``b``).
"""

from __future__ import annotations

import numpy as np

from collide2d import _pairs, scenes
from collide2d.shapes import Shape

__all__ = ["COLLIDING_COLOR", "plot_contact", "plot_pairs", "plot_shapes"]

FACE_COLOR = "#9ecae1"
EDGE_COLOR = "#08519c"
COLLIDING_COLOR = "#d62728"  # red outline for shapes that collide
OVERLAP_COLOR = "#ff7f0e"  # fill of the overlap regions
POINT_COLOR = "black"  # intersection points
NORMAL_COLOR = "#2ca02c"  # contact normals and witness points
_REGIONS = ("Circle", "Ellipse", "Box", "RotatedBox", "Polygon")


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(7, 7))
    ax.set_aspect("equal")
    return ax


def _rows(shapes):
    """``[(shape batch, kernel rows, vertices)]`` of a collection, in numbering order."""
    sources, _ = _pairs._sources(shapes)
    for source in sources:
        if not isinstance(source, Shape):
            raise TypeError(f"shapes must be collide2d shapes, got {type(source).__name__}")
    return [(source, source._flat_params(), source._verts) for source in sources]


def _mask(colliding, n):
    red = np.zeros(n, dtype=bool)
    if colliding is not None:
        colliding = np.asarray(colliding)
        if colliding.dtype == bool:
            if colliding.shape != (n,):
                raise ValueError(f"colliding must be a mask of {n} values, got shape {colliding.shape}")
            red[:] = colliding
        elif colliding.size:
            red[colliding.astype(np.int64).ravel()] = True
    return red


def plot_shapes(shapes, ax=None, *, colliding=None, facecolor=FACE_COLOR, edgecolor=EDGE_COLOR, alpha=0.6, linewidth=1.0):
    """Draw shapes; those flagged in ``colliding`` get a red outline.

    Parameters
    ----------
    shapes : Shape, sequence of Shape or ShapeTable
        Single shapes or batches of any kinds. Shapes are numbered in order, batches flattened
        (as for :func:`collide2d.query_pairs`).
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when omitted.
    colliding : array_like of bool or of int, optional
        A mask over the numbered shapes, or the indices of those to outline in red.
    facecolor, edgecolor : color
        Fill and outline of the shapes that do not collide.
    alpha : float
        Fill opacity.
    linewidth : float
        Outline width (doubled for colliding shapes).

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import collide2d as c2
    >>> from collide2d.plotting import plot_shapes
    >>> ax = plot_shapes([c2.Ellipse((0, 0), (2, 1), 0.3), c2.Box((1, 0), (3, 1))], colliding=[0, 1])
    >>> [type(c).__name__ for c in ax.collections]
    ['EllipseCollection', 'PolyCollection']
    >>> import matplotlib.pyplot as plt; plt.close(ax.figure)
    """
    from matplotlib.collections import EllipseCollection, LineCollection, PolyCollection

    from matplotlib.colors import to_rgba

    ax = _axes(ax)
    rows = _rows(shapes)
    n = sum(len(r) for _, r, _ in rows)
    red = _mask(colliding, n)
    facecolor = to_rgba(facecolor, alpha)  # the fill is translucent, the outlines are not
    ellipses, ellipse_red, polygons, polygon_red, strokes, stroke_red = [], [], [], [], [], []
    points, point_red, lines = [], [], []
    start = 0
    for source, params, verts in rows:
        flags = red[start : start + len(params)]
        start += len(params)
        kind = source._kind
        if kind == "ellipse":
            ellipses.append(params)
            ellipse_red.append(flags)
        elif kind == "polygon":
            offsets, counts = params[:, 0].astype(np.int64), params[:, 1].astype(np.int64)
            polygons.extend(verts[o : o + c] for o, c in zip(offsets.tolist(), counts.tolist()))
            polygon_red.append(flags)
        elif kind == "segment":
            strokes.append(params[:, :4].reshape(-1, 2, 2))
            stroke_red.append(flags)
        elif kind == "line":
            lines.extend(zip(params[:, :4].tolist(), flags.tolist()))
        else:
            points.append(params[:, :2])
            point_red.append(flags)

    def edges(flags):
        colors = np.where(flags, COLLIDING_COLOR, edgecolor)
        return colors.tolist(), np.where(flags, 2 * linewidth, linewidth)

    if ellipses:
        p = np.concatenate(ellipses)
        flags = np.concatenate(ellipse_red)
        order = np.argsort(flags, kind="stable")  # red outlines on top
        p, flags = p[order], flags[order]
        colors, widths = edges(flags)
        angle = np.degrees(np.arctan2(p[:, 5], p[:, 4]))
        ax.add_collection(
            EllipseCollection(
                2 * p[:, 2], 2 * p[:, 3], angle, units="xy", offsets=p[:, :2], offset_transform=ax.transData,
                facecolors=[facecolor], edgecolors=colors, linewidths=widths,
            )
        )
        # EllipseCollection has no data limits of its own: give the axes the ellipses' bounds.
        reach = np.maximum(p[:, 2], p[:, 3])
        ax.update_datalim(np.concatenate([p[:, :2] - reach[:, None], p[:, :2] + reach[:, None]]))
    if polygons:
        flags = np.concatenate(polygon_red)
        colors, widths = edges(flags)
        ax.add_collection(PolyCollection(polygons, facecolors=[facecolor], edgecolors=colors, linewidths=widths))
    if strokes:
        flags = np.concatenate(stroke_red)
        colors, widths = edges(flags)
        ax.add_collection(LineCollection(np.concatenate(strokes), colors=colors, linewidths=1.5 * widths))
    if points:
        xy = np.concatenate(points)
        flags = np.concatenate(point_red)
        ax.scatter(xy[:, 0], xy[:, 1], s=14, c=np.where(flags, COLLIDING_COLOR, edgecolor).tolist(), zorder=3)
    for (px, py, dx, dy), flag in lines:
        ax.axline((px, py), (px + dx, py + dy), color=COLLIDING_COLOR if flag else edgecolor, linewidth=linewidth)
    ax.margins(0.04)
    ax.autoscale_view()
    return ax


def _patch(shape, **style):
    """A matplotlib patch of a single region shape (None for points, segments and lines)."""
    from matplotlib import patches

    params = shape._flat_params()[0]
    if shape._kind == "ellipse":
        cx, cy, a, b, wx, wy = params
        return patches.Ellipse((cx, cy), 2 * a, 2 * b, angle=np.degrees(np.arctan2(wy, wx)), **style)
    if shape._kind == "polygon":
        offset, count = int(params[0]), int(params[1])
        return patches.Polygon(shape._verts[offset : offset + count], closed=True, **style)
    return None


def _single(batch, k):
    return batch if not batch.shape else batch[k]


def _draw_details(ax, pair_batches, *, overlaps=True, points=True, contacts=True, normal_length=None, marker=16.0):
    """Overlap regions, intersection points, witness points and normals of pairs of shapes."""
    from collide2d import measurement, overlay

    found_points, witness, arrows = [], [], []
    for _, a, b in pair_batches:
        m = max(a.size, b.size)
        if overlaps and type(a).__name__ in _REGIONS and type(b).__name__ in _REGIONS:
            area = np.broadcast_to(overlay.overlap_area(a, b), (m,))
            for k in np.flatnonzero(area > 0).tolist():
                # the region of b drawn clipped to a: the overlap, with no geometry done here
                clip = _patch(_single(a, k), transform=ax.transData)
                fill = _patch(_single(b, k), facecolor=OVERLAP_COLOR, edgecolor="none", alpha=0.85, zorder=2)
                ax.add_patch(fill)
                fill.set_clip_path(clip)
        if points:
            result = overlay.intersection_points(a, b)
            xy = result if isinstance(result, np.ndarray) else result[0]
            xy = xy.reshape(-1, 2)
            found_points.append(xy[~np.isnan(xy[:, 0])])
        if contacts:
            contact = measurement.contact(a, b)
            pa = np.broadcast_to(contact.point_a, (m, 2))
            pb = np.broadcast_to(contact.point_b, (m, 2))
            normal = np.broadcast_to(contact.normal, (m, 2))
            finite = np.isfinite(pa).all(axis=1) & np.isfinite(pb).all(axis=1)
            witness.append(np.concatenate([pa[finite], pb[finite]]))
            arrows.append(np.concatenate([pa[finite], normal[finite]], axis=1))
    if found_points and sum(len(p) for p in found_points):
        xy = np.concatenate(found_points)
        ax.scatter(xy[:, 0], xy[:, 1], s=marker, color=POINT_COLOR, zorder=7, label="intersection points")
    if witness and sum(len(w) for w in witness):
        xy = np.concatenate(witness)
        ax.scatter(xy[:, 0], xy[:, 1], s=1.4 * marker, facecolors="white", edgecolors=NORMAL_COLOR, linewidths=1.2 * (marker / 16) ** 0.5, zorder=6, label="witness points")
        arrow = np.concatenate(arrows)
        length = normal_length if normal_length is not None else 1.0
        ax.quiver(
            arrow[:, 0], arrow[:, 1], length * arrow[:, 2], length * arrow[:, 3], angles="xy", scale_units="xy",
            scale=1.0, color=NORMAL_COLOR, width=0.004, zorder=6, label="contact normals",
        )


def _typical_size(shapes):
    sources, _ = _pairs._sources(shapes)
    extents = []
    for source in sources:
        bounds = np.asarray(source._bounds(), dtype=np.float64).reshape(-1, 4)
        size = np.maximum(bounds[:, 2] - bounds[:, 0], bounds[:, 3] - bounds[:, 1])
        extents.append(size[np.isfinite(size)])
    extents = np.concatenate(extents) if extents else np.zeros(0)
    return float(np.median(extents)) if extents.size else 1.0


def plot_pairs(shapes, pairs=None, ax=None, *, predicate="intersects", periodic=None, shifts=None, detail=400, title=None):
    """Draw a scene and its colliding pairs: red outlines, overlaps, intersection points, normals.

    Parameters
    ----------
    shapes : Shape, sequence of Shape or ShapeTable
        The scene, numbered as for :func:`collide2d.query_pairs`.
    pairs : ndarray of int of shape (2, n), optional
        The pairs to show; by default ``query_pairs(shapes, predicate=predicate, periodic=periodic)``.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when omitted.
    predicate : str, default "intersects"
        Used only when ``pairs`` is omitted.
    periodic : (float, float) or None
        The periodic box ``[0, Lx) x [0, Ly)``, drawn as a dashed frame; pairs that meet across
        its edges are drawn at the image of ``b`` next to ``a``.
    shifts : ndarray of shape (n, 2), optional
        The translation of ``b`` per pair (``query_pairs(..., return_shifts=True)``); computed
        when ``pairs`` is omitted.
    detail : int, default 400
        Overlap regions, intersection points and contact normals are drawn for the first
        ``detail`` pairs only (one artist each); red outlines for all.
    title : str, optional
        Axes title; by default the counts of shapes and pairs.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import collide2d as c2
    >>> from matplotlib.figure import Figure
    >>> from collide2d.plotting import plot_pairs
    >>> ax = Figure().add_subplot()
    >>> _ = plot_pairs(c2.Circle([(0, 0), (1.5, 0), (5, 5)], 1), ax=ax)
    >>> ax.get_title()
    '3 shapes, 1 colliding pair'
    """
    from collide2d import broadphase

    ax = _axes(ax)
    if pairs is None:
        pairs, shifts = broadphase.query_pairs(shapes, predicate=predicate, periodic=periodic, return_shifts=True)
    pairs = np.asarray(pairs, dtype=np.int64).reshape(2, -1)
    n = sum(len(r) for _, r, _ in _rows(shapes))
    plot_shapes(shapes, ax, colliding=np.unique(pairs), linewidth=0.8)
    shown = pairs[:, :detail]
    shown_shifts = None if shifts is None else np.asarray(shifts)[:detail]
    if shown_shifts is not None and np.any(shown_shifts):
        # images of b across the periodic edges, outlined in grey, where the overlaps are drawn
        moved = np.flatnonzero(np.any(shown_shifts != 0, axis=1))
        ghosts = [b for _, _, b in scenes.pair_batches(shapes, shown[:, moved], shown_shifts[moved])]
        plot_shapes(ghosts, ax, facecolor="none", edgecolor="0.55", alpha=1.0, linewidth=0.6)
    if shown.shape[1]:
        crowded = shown.shape[1] > 40
        _draw_details(
            ax,
            scenes.pair_batches(shapes, shown, shown_shifts),
            normal_length=(0.15 if crowded else 0.35) * _typical_size(shapes),
            marker=5.0 if crowded else 16.0,
        )
    if periodic is not None:
        from matplotlib.patches import Rectangle

        lx, ly = periodic
        ax.add_patch(Rectangle((0, 0), lx, ly, fill=False, linestyle="--", edgecolor="0.4", linewidth=1.0, zorder=1))
        ax.update_datalim([(0, 0), (lx, ly)])
        ax.autoscale_view()
    count = pairs.shape[1]
    ax.set_title(title if title is not None else f"{n} shapes, {count} colliding pair{'' if count == 1 else 's'}")
    return ax


def plot_contact(a, b, ax=None):
    """Draw two single shapes, their overlap, intersection points, witness points and normal.

    Parameters
    ----------
    a, b : Shape
        Two single shapes.
    ax : matplotlib.axes.Axes, optional
        Axes to draw on; a new figure when omitted.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import collide2d as c2
    >>> from matplotlib.figure import Figure
    >>> from collide2d.plotting import plot_contact
    >>> ax = plot_contact(c2.Ellipse((0, 0), (2, 1)), c2.Circle((2, 0.5), 1), ax=Figure().add_subplot())
    >>> ax.get_title()
    'OVERLAPPING, separation -...'
    """
    from collide2d import measurement, predicates

    if a.shape or b.shape:
        raise ValueError("plot_contact draws two single shapes; use plot_pairs for batches")
    ax = _axes(ax)
    relation = predicates.relate(a, b)
    plot_shapes([a, b], ax, colliding=[0, 1] if relation != predicates.Relation.DISJOINT else None)
    _draw_details(ax, [(None, a, b)], normal_length=0.3 * _typical_size([a, b]))
    separation = measurement.contact(a, b).separation
    ax.set_title(f"{relation.name}, separation {separation:.6g}")
    ax.legend(loc="upper right", fontsize="small")
    return ax
