"""Drawing shapes with matplotlib (imported only when a function here is called).

Requires matplotlib (``pip install collide2d[plot]``). Every function takes ``ax=None`` (a new
figure is made) and returns the axes it drew on; large batches are drawn as one collection per
kind, so a scene of 10^5 shapes renders in seconds.
"""

from __future__ import annotations

import math

import numpy as np

from collide2d.shapes import Shape

__all__ = ["plot_shapes"]

COLLIDING_COLOR = "#d62728"  # red outline for shapes that collide


def _axes(ax):
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(7, 7))
        ax.set_aspect("equal")
    return ax


def _flatten(shapes):
    """Yield ``(kind, params_row, verts)`` for every single shape in ``shapes``."""
    if isinstance(shapes, Shape):
        shapes = [shapes]
    for shape in shapes:
        if not isinstance(shape, Shape):
            raise TypeError(f"shapes must be collide2d shapes, got {type(shape).__name__}")
        for row in shape._flat_params():
            yield shape._kind, row, shape._verts


def plot_shapes(shapes, ax=None, *, colliding=None, facecolor="#9ecae1", edgecolor="#08519c", alpha=0.6, linewidth=1.0):
    """Draw shapes; those flagged in ``colliding`` get a red outline.

    Parameters
    ----------
    shapes : Shape or sequence of Shape
        Single shapes or batches, of any kinds. Shapes are numbered in order, batches flattened.
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
    >>> len(ax.collections)
    1
    """
    from matplotlib import patches
    from matplotlib.collections import LineCollection, PatchCollection

    ax = _axes(ax)
    items = list(_flatten(shapes))
    red = np.zeros(len(items), dtype=bool)
    if colliding is not None:
        colliding = np.asarray(colliding)
        if colliding.dtype == bool:
            red[: len(colliding)] = colliding
        else:
            red[colliding.astype(np.int64)] = True
    regions, region_red, strokes, stroke_red, points, point_red, lines = [], [], [], [], [], [], []
    for (kind, row, verts), is_red in zip(items, red):
        if kind == "ellipse":
            cx, cy, a, b, wx, wy = row
            regions.append(patches.Ellipse((cx, cy), 2 * a, 2 * b, angle=math.degrees(math.atan2(wy, wx))))
            region_red.append(is_red)
        elif kind == "polygon":
            offset, count = int(row[0]), int(row[1])
            regions.append(patches.Polygon(verts[offset : offset + count], closed=True))
            region_red.append(is_red)
        elif kind == "segment":
            strokes.append([(row[0], row[1]), (row[2], row[3])])
            stroke_red.append(is_red)
        elif kind == "line":
            lines.append((row, is_red))
        else:
            points.append(row)
            point_red.append(is_red)
    if regions:
        edge = [COLLIDING_COLOR if r else edgecolor for r in region_red]
        width = [2 * linewidth if r else linewidth for r in region_red]
        collection = PatchCollection(regions, facecolor=facecolor, edgecolor=edge, linewidth=width, alpha=alpha)
        collection.set_edgecolor(edge)
        ax.add_collection(collection)
    if strokes:
        ax.add_collection(
            LineCollection(strokes, colors=[COLLIDING_COLOR if r else edgecolor for r in stroke_red], linewidths=1.5 * linewidth)
        )
    if points:
        xy = np.array(points)
        ax.scatter(xy[:, 0], xy[:, 1], s=12, c=[COLLIDING_COLOR if r else edgecolor for r in point_red], zorder=3)
    for row, is_red in lines:
        px, py, dx, dy = row
        ax.axline((px, py), (px + dx, py + dy), color=COLLIDING_COLOR if is_red else edgecolor, linewidth=linewidth)
    ax.autoscale_view()
    return ax
