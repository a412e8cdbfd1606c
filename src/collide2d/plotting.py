"""Drawing shapes, collisions and contacts with matplotlib (imported only when a function is called).

Requires matplotlib (``pip install 'collide2d[plot]'``). Every function takes ``ax=None`` (a new
pyplot figure is made) and returns the axes it drew on; nothing else of pyplot's state is touched
when ``ax`` is given. Shapes are drawn as one collection per kind (an ``EllipseCollection`` for
ellipses and circles, a ``PolyCollection`` for polygons and boxes), so a scene of 10^5 shapes
renders in seconds. What is drawn comes from the public operations (:func:`collide2d.contact`,
:func:`collide2d.overlay.intersection_points`); there is no geometry here beyond placing artists.

Colours: shapes in light blue with a dark blue outline; shapes that collide outlined in red;
overlap regions filled in orange; intersection points as black dots; witness points as small
white-filled circles, joined by the contact normal (an arrow from ``a`` to ``b``); shapes that are
points as diamonds, drawn above the rest.

A scene of a few shapes is labelled with their ids; a scene too large to read as outlines (more
than :data:`DENSITY_ABOVE` shapes) is drawn by :func:`plot_pairs` as a density map of its
colliding pairs instead, and the figure says so.
"""

from __future__ import annotations

import numpy as np

from collide2d import _pairs
from collide2d.shapes import Shape
from collide2d.table import KIND_NAMES, ShapeTable

__all__ = ["COLLIDING_COLOR", "DENSITY_ABOVE", "LABEL_LIMIT", "plot_contact", "plot_pairs", "plot_shapes"]

FACE_COLOR = "#9ecae1"
EDGE_COLOR = "#08519c"
COLLIDING_COLOR = "#d62728"  # red outline for shapes that collide
OVERLAP_COLOR = "#ff7f0e"  # fill of the overlap regions
POINT_COLOR = "black"  # intersection points
POINT_MARKER = "D"  # shapes that are points: a diamond, told apart from the round marks of the details
POINT_MARKER_SIZE = 30.0
POINT_ZORDER = 7.5  # above witness points (6) and intersection points (7), below labels (8)
NORMAL_COLOR = "#2ca02c"  # contact normals and witness points
_REGIONS = ("Circle", "Ellipse", "Box", "RotatedBox", "Polygon")
#: Shapes are labelled with their ids when a scene has at most this many.
LABEL_LIMIT = 40
#: :func:`plot_pairs` draws a density map of the colliding pairs, not outlines, above this many shapes.
DENSITY_ABOVE = 5000


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(7, 7))
    ax.set_aspect("equal")
    return ax


def _table(shapes):
    """The numbered shapes as a :class:`~collide2d.ShapeTable`: what is drawn is read from its
    public arrays (kind codes, parameter rows, polygon vertices, bounds)."""
    if isinstance(shapes, ShapeTable):
        return shapes
    if not isinstance(shapes, Shape):
        shapes = list(shapes)
        for item in shapes:
            if not isinstance(item, Shape):
                raise TypeError(f"shapes must be collide2d shapes, got {type(item).__name__}")
    return ShapeTable(shapes)


def _rows_of(table, kind):
    """The rows of ``table`` of one kernel kind (``"ellipse"``, ``"polygon"``, ...), in order."""
    return np.flatnonzero(table.kinds == KIND_NAMES.index(kind))


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


def plot_shapes(shapes, ax=None, *, colliding=None, labels=None, facecolor=FACE_COLOR, edgecolor=EDGE_COLOR, alpha=0.6, linewidth=1.0):
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
    labels : sequence of str, optional
        One label per numbered shape (their ids), written at the centre of each shape's bounding
        box when there are at most :data:`LABEL_LIMIT` shapes (more would cover the drawing).
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
    table = _table(shapes)
    n = len(table)
    red = _mask(colliding, n)
    facecolor = to_rgba(facecolor, alpha)  # the fill is translucent, the outlines are not
    params, verts = table.params, table.vertices
    ellipse, polygon, segment, line, point, rounded = (_rows_of(table, kind) for kind in KIND_NAMES)
    offsets, counts = params[polygon, 0].astype(np.int64), params[polygon, 1].astype(np.int64)
    polygons = [verts[o : o + c] for o, c in zip(offsets.tolist(), counts.tolist())]
    lines = list(zip(params[line, :4].tolist(), red[line].tolist()))

    def edges(flags):
        colors = np.where(flags, COLLIDING_COLOR, edgecolor)
        return colors.tolist(), np.where(flags, 2 * linewidth, linewidth)

    if ellipse.size:
        p = params[ellipse]
        flags = red[ellipse]
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
        flags = red[polygon]
        colors, widths = edges(flags)
        ax.add_collection(PolyCollection(polygons, facecolors=[facecolor], edgecolors=colors, linewidths=widths))
    if rounded.size:  # capsules and rounded polygons: their outlines, straight stretches and arcs
        from matplotlib.collections import PathCollection

        from collide2d.convert import rounded_path

        flags = red[rounded]
        colors, widths = edges(flags)
        paths = [rounded_path(table[int(k)]) for k in rounded.tolist()]
        ax.add_collection(PathCollection(paths, facecolors=[facecolor], edgecolors=colors, linewidths=widths))
        ax.update_datalim(table.bounds[rounded].reshape(-1, 2))
    if segment.size:
        flags = red[segment]
        colors, widths = edges(flags)
        ax.add_collection(LineCollection(params[segment, :4].reshape(-1, 2, 2), colors=colors, linewidths=1.5 * widths))
    if point.size:
        xy = params[point, :2]
        flags = red[point]
        # a diamond with a white rim, above the witness points and intersection points that often sit
        # on it (a point inside a region is its own witness): the point stays visible
        ax.scatter(xy[:, 0], xy[:, 1], s=POINT_MARKER_SIZE, marker=POINT_MARKER, c=np.where(flags, COLLIDING_COLOR, edgecolor).tolist(),
                   edgecolors="white", linewidths=0.6, zorder=POINT_ZORDER, label="point shapes")
    for (px, py, dx, dy), flag in lines:
        ax.axline((px, py), (px + dx, py + dy), color=COLLIDING_COLOR if flag else edgecolor, linewidth=linewidth)
    if labels is not None:
        _label(ax, table, labels, n)
    ax.margins(0.04)
    ax.autoscale_view()
    return ax


def _bounds(shapes):
    """Bounding boxes ``(n, 4)`` of the numbered shapes (infinite for lines)."""
    return _table(shapes).bounds


def _label(ax, table, labels, n):
    """Write each shape's label on it: a region's at the centre of its bounding box, a point's beside
    its marker, a line's at its point.

    Shapes centred at one place (a point in a box, concentric circles) would write their labels over
    each other and over the point: there the smallest region keeps the centre when no point sits on
    it, and every other region's label hangs from the top of its own bounding box (one line lower
    per label already hung from the same top: equal shapes), so that no two labels and no point
    marker coincide.
    """
    from matplotlib import patheffects

    labels = [str(label) for label in labels]
    if len(labels) != n:
        raise ValueError(f"labels must give one label per shape ({n}), got {len(labels)}")
    if n > LABEL_LIMIT:
        return
    bounds = table.bounds
    with np.errstate(invalid="ignore"):  # a line's box is infinite: its centre is set below
        centre = 0.5 * (bounds[:, :2] + bounds[:, 2:])
    line = _rows_of(table, "line")
    centre[line] = table.params[line, :2]  # unbounded: its point
    kinds = [KIND_NAMES[code] for code in table.kinds.tolist()]
    extent = np.max(bounds[:, 2:] - bounds[:, :2], axis=1)
    finite = np.isfinite(centre).all(axis=1)
    scale = float(np.abs(centre[finite]).max(initial=0.0)) or 1.0
    groups = {}  # rounded centre -> indices of the shapes there
    for index, ((x, y), ok) in enumerate(zip(centre.tolist(), finite.tolist())):
        if ok:
            groups.setdefault((round(x / scale, 6), round(y / scale, 6)), []).append(index)
    style = dict(fontsize=8, color="0.1", zorder=8, annotation_clip=True, textcoords="offset points",
                 path_effects=[patheffects.withStroke(linewidth=2.5, foreground="white")])
    for members in groups.values():
        members.sort(key=lambda index: extent[index])
        has_point = any(kinds[index] == "point" for index in members)
        hung = {}  # labels hung so far per top edge (equal boxes share one)
        for index in members:
            x, y = centre[index].tolist()
            if kinds[index] == "point":  # beside the marker, not on it
                ax.annotate(labels[index], (x, y), xytext=(6, 0), ha="left", va="center", **style)
            elif kinds[index] == "line" or (not has_point and index == members[0]):
                ax.annotate(labels[index], (x, y), xytext=(0, 0), ha="center", va="center", **style)
            else:  # inside the top of its own box
                top = float(bounds[index, 3])
                below = hung.get(round(top / scale, 6), 0)
                ax.annotate(labels[index], (x, top), xytext=(0, -4 - 11 * below), ha="center", va="top", **style)
                hung[round(top / scale, 6)] = below + 1


def _patch(shape, **style):
    """A matplotlib patch of a single region shape (None for points, segments and lines)."""
    from matplotlib import patches

    table = ShapeTable(shape)
    params, kind = table.params[0], KIND_NAMES[int(table.kinds[0])]
    if kind == "ellipse":
        cx, cy, a, b, wx, wy = params
        return patches.Ellipse((cx, cy), 2 * a, 2 * b, angle=np.degrees(np.arctan2(wy, wx)), **style)
    if kind == "polygon":
        offset, count = int(params[0]), int(params[1])
        return patches.Polygon(table.vertices[offset : offset + count], closed=True, **style)
    if kind == "rounded":
        from collide2d.convert import rounded_path

        return patches.PathPatch(rounded_path(table[0]), **style)
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
            try:
                area = np.broadcast_to(overlay.overlap_area(a, b), (m,))
            except NotImplementedError:  # rounded shapes while their overlap area is not implemented
                area = np.zeros(m)
            for k in np.flatnonzero(area > 0).tolist():
                # the region of b drawn clipped to a: the overlap, with no geometry done here
                clip = _patch(_single(a, k), transform=ax.transData)
                fill = _patch(_single(b, k), facecolor=OVERLAP_COLOR, edgecolor="none", alpha=0.85, zorder=2)
                ax.add_patch(fill)
                fill.set_clip_path(clip)
        if points:
            try:
                result = overlay.intersection_points(a, b)
            except NotImplementedError:  # rounded shapes while their intersection points are not implemented
                result = np.zeros((0, 2))
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
        tips = arrow[:, :2] + length * arrow[:, 2:]
        ax.update_datalim(tips[np.isfinite(tips).all(axis=1)])  # the arrows stay inside the frame
        ax.autoscale_view()


def _typical_size(shapes):
    bounds = _bounds(shapes)
    size = np.maximum(bounds[:, 2] - bounds[:, 0], bounds[:, 3] - bounds[:, 1])
    extents = size[np.isfinite(size)]
    return float(np.median(extents)) if extents.size else 1.0


def plot_pairs(
    shapes, pairs=None, ax=None, *, predicate="intersects", periodic=None, shifts=None, detail=400, title=None, labels=None,
    legend=True, density_above=DENSITY_ABOVE,
):
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
    labels : sequence of str, optional
        The shapes' ids, written on them when there are at most :data:`LABEL_LIMIT` shapes.
    legend : bool, default True
        Add a legend (outside the axes, on the right) naming what the colours and marks mean.
    density_above : int, default :data:`DENSITY_ABOVE`
        Above this many shapes, outlines would merge into a solid mat: draw instead a density
        map of the colliding pairs (each pair counted at the midpoint of its two shapes' box
        centres) over the extent of the shapes, with a colour bar, and say so under the title.

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
    >>> ax.get_legend().texts[1].get_text()
    'colliding (red outline)'
    """
    from collide2d import broadphase

    ax = _axes(ax)
    if pairs is None:
        pairs, shifts = broadphase.query_pairs(shapes, predicate=predicate, periodic=periodic, return_shifts=True)
    pairs = np.asarray(pairs, dtype=np.int64).reshape(2, -1)
    n = len(_table(shapes))
    count = pairs.shape[1]
    heading = f"{n} shapes, {count} colliding pair{'' if count == 1 else 's'}"
    if n > density_above:
        note = _density(ax, shapes, pairs, shifts, periodic)
        ax.set_title(title if title is not None else f"{heading}\n{note}", fontsize="medium")
        return ax
    plot_shapes(shapes, ax, colliding=np.unique(pairs), labels=labels, linewidth=0.8)
    shown = pairs[:, :detail]
    shown_shifts = None if shifts is None else np.asarray(shifts)[:detail]
    if shown_shifts is not None and np.any(shown_shifts):
        # images of b across the periodic edges, outlined in grey, where the overlaps are drawn
        moved = np.flatnonzero(np.any(shown_shifts != 0, axis=1))
        ghosts = [b for _, _, b in _pairs.pair_batches(shapes, shown[:, moved], shown_shifts[moved])]
        plot_shapes(ghosts, ax, facecolor="none", edgecolor="0.55", alpha=1.0, linewidth=0.6)
    if shown.shape[1]:
        crowded = shown.shape[1] > 40
        _draw_details(
            ax,
            _pairs.pair_batches(shapes, shown, shown_shifts),
            normal_length=(0.15 if crowded else 0.35) * _typical_size(shapes),
            marker=5.0 if crowded else 16.0,
        )
    if periodic is not None:
        from matplotlib.patches import Rectangle

        lx, ly = periodic
        ax.add_patch(Rectangle((0, 0), lx, ly, fill=False, linestyle="--", edgecolor="0.4", linewidth=1.0, zorder=1))
        ax.update_datalim([(0, 0), (lx, ly)])
        ax.autoscale_view()
    ax.set_title(title if title is not None else heading)
    if legend:
        _legend(ax, shown_shifts, periodic)
    return ax


def _legend(ax, shifts=None, periodic=None, *, colliding=True):
    """A legend outside the axes: only the marks that are drawn, each with a handle that looks like
    its mark (a line with an arrow head for the normals: a quiver's own handle is a rectangle)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    from matplotlib.colors import to_rgba

    face = to_rgba(FACE_COLOR, 0.6)
    handles = [Patch(facecolor=face, edgecolor=EDGE_COLOR, label="shape")]
    if colliding:
        handles.append(Patch(facecolor=face, edgecolor=COLLIDING_COLOR, linewidth=1.6, label="colliding (red outline)"))
    drawn = {artist.get_label() for artist in ax.collections}
    if any(tuple(p.get_facecolor()[:3]) == to_rgba(OVERLAP_COLOR)[:3] for p in ax.patches):
        handles.append(Patch(facecolor=OVERLAP_COLOR, alpha=0.85, label="overlap"))
    if "point shapes" in drawn:
        handles.append(Line2D([], [], linestyle="none", marker=POINT_MARKER, markersize=6, color=EDGE_COLOR,
                              markeredgecolor="white", label="point"))
    if "intersection points" in drawn:
        handles.append(Line2D([], [], linestyle="none", marker="o", markersize=5, color=POINT_COLOR, label="intersection point"))
    if "witness points" in drawn:
        handles.append(Line2D([], [], linestyle="none", marker="o", markersize=6, markerfacecolor="white",
                              markeredgecolor=NORMAL_COLOR, label="witness point (closest or deepest)"))
        handles.append(Line2D([], [], linestyle="none", marker=r"$\rightarrow$", markersize=14, color=NORMAL_COLOR,
                              label="contact normal, a to b"))
    if shifts is not None and np.any(shifts):
        handles.append(Patch(facecolor="none", edgecolor="0.55", label="periodic image of b"))
    if periodic is not None:
        handles.append(Line2D([], [], linestyle="--", color="0.4", label="periodic box"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize="small", frameon=False)


def _density(ax, shapes, pairs, shifts, periodic):
    """A density map of the colliding pairs over the extent of the shapes, with a colour bar; return a note saying so."""
    from matplotlib.patches import Rectangle

    bounds = _bounds(shapes)
    finite = np.isfinite(bounds).all(axis=1)
    if not finite.any():
        bounds, finite = np.array([[0.0, 0.0, 1.0, 1.0]]), np.array([True])
    lo, hi = bounds[finite, :2].min(axis=0), bounds[finite, 2:].max(axis=0)
    if periodic is not None:
        lo, hi = np.zeros(2), np.asarray(periodic, dtype=np.float64)
    span = np.maximum(hi - lo, np.finfo(np.float64).tiny)
    side = int(np.clip(np.sqrt(pairs.shape[1] / 4), 16, 160))  # cells along the long side: a few pairs per cell
    cells = np.maximum(np.round(side * span / span.max()), 1).astype(np.int64)  # square cells
    with np.errstate(invalid="ignore"):  # lines have infinite boxes: their pairs are left out below
        centre = 0.5 * (bounds[:, :2] + bounds[:, 2:])
    i, j = pairs
    where = 0.5 * (centre[i] + centre[j] + (0.0 if shifts is None else np.asarray(shifts, dtype=np.float64).reshape(-1, 2)))
    if periodic is not None:
        where = np.mod(where, span)
    where = where[np.isfinite(where).all(axis=1)]
    counts, xedges, yedges = np.histogram2d(where[:, 0], where[:, 1], bins=cells, range=[[lo[0], hi[0]], [lo[1], hi[1]]])
    mesh = ax.pcolormesh(xedges, yedges, np.ma.masked_equal(counts.T, 0), cmap="YlGnBu", vmin=0, zorder=2)
    ax.add_patch(Rectangle(lo, *span, fill=False, edgecolor="0.6", linewidth=0.8, linestyle="--" if periodic is not None else "-"))
    ax.update_datalim([lo, hi])
    ax.margins(0.02)
    ax.autoscale_view()
    cell = (xedges[1] - xedges[0], yedges[1] - yedges[0])
    ax.figure.colorbar(mesh, ax=ax, shrink=0.8, label=f"colliding pairs per cell of {cell[0]:.3g} x {cell[1]:.3g}")
    return "too many shapes to outline: the density of the colliding pairs"


def plot_contact(a, b, ax=None):
    """Draw two single shapes (labelled a and b), their overlap, intersection points, witness points and normal.

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
    plot_shapes([a, b], ax, colliding=[0, 1] if relation != predicates.Relation.DISJOINT else None, labels=["a", "b"])
    _draw_details(ax, [(None, a, b)], normal_length=0.3 * _typical_size([a, b]))
    separation = measurement.contact(a, b).separation
    ax.set_title(f"{relation.name}, separation {separation:.6g}")
    _legend(ax, colliding=relation != predicates.Relation.DISJOINT)
    return ax
