"""Plotting on the Agg backend: artists created, red outlines where shapes collide, no pyplot leaks."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import collide2d as c2  # noqa: E402
from collide2d import plotting, scenes  # noqa: E402

RED = to_rgba(plotting.COLLIDING_COLOR)


@pytest.fixture
def ax():
    return Figure().add_subplot()


def _red(collection):
    return [tuple(color) == RED for color in collection.get_edgecolors()]


def test_plot_shapes_collections_per_kind_and_red_outlines(ax):
    shapes = [c2.Circle([(0, 0), (1, 0), (5, 5)], 1), c2.Box((0, 0), (1, 1)), c2.Segment((0, 0), (1, 1)), c2.Point((3, 3))]
    plotting.plot_shapes(shapes, ax, colliding=[0, 3])
    kinds = [type(c).__name__ for c in ax.collections]
    assert kinds == ["EllipseCollection", "PolyCollection", "LineCollection", "PathCollection"]
    ellipses, polygons = ax.collections[:2]
    assert sorted(_red(ellipses)) == [False, False, True]  # red outlines are drawn last
    assert _red(polygons) == [True]
    assert _red(ax.collections[2]) == [False]
    x0, x1 = ax.get_xlim()
    assert x0 < -1 and x1 > 6  # the ellipses set the data limits


def test_plot_shapes_boolean_mask_and_errors(ax):
    circles = c2.Circle([(0, 0), (5, 0)], 1)
    plotting.plot_shapes(circles, ax, colliding=np.array([False, True]))
    assert sorted(_red(ax.collections[0])) == [False, True]
    with pytest.raises(ValueError, match="mask of 2"):
        plotting.plot_shapes(circles, ax, colliding=np.array([True]))
    with pytest.raises(TypeError, match="collide2d shapes"):
        plotting.plot_shapes([circles, "circle"], ax)


def test_plot_pairs_mixed_scene(ax):
    scene = scenes.load("mixed")
    plotting.plot_pairs(scene.shapes, ax=ax)
    assert ax.get_title() == "11 shapes, 10 colliding pairs"
    ellipses = ax.collections[0]  # ellipse-A, B, D and circles C, K: all collide
    assert all(_red(ellipses))
    polygons = ax.collections[1]  # box E and polygon G collide, rotated box F does not
    assert sorted(_red(polygons)) == [False, True, True]
    overlaps = [p for p in ax.patches if tuple(p.get_facecolor()[:3]) == to_rgba(plotting.OVERLAP_COLOR)[:3]]
    assert len(overlaps) == 2  # A and D, E and K (K inside E); pairs with a point or a line have no area
    assert all(p.get_clip_path() is not None for p in overlaps)
    labels = {c.get_label() for c in ax.collections}
    assert {"intersection points", "witness points", "contact normals"} <= labels


def test_plot_pairs_periodic_draws_box_and_images(ax):
    circles = c2.Circle([(0.5, 5), (9.5, 5)], 1)
    plotting.plot_pairs(circles, ax=ax, periodic=(10, 10))
    assert ax.get_title() == "2 shapes, 1 colliding pair"
    frames = [p for p in ax.patches if type(p).__name__ == "Rectangle" and p.get_linestyle() == "--"]
    assert len(frames) == 1
    # the image of circle 1 at x = -0.5 is outlined next to circle 0
    images = [c for c in ax.collections if type(c).__name__ == "EllipseCollection"][1]
    np.testing.assert_allclose(images.get_offsets(), [[-0.5, 5.0]])


def test_plot_contact(ax):
    plotting.plot_contact(c2.Ellipse((0, 0), (2, 1)), c2.Circle((2, 0.5), 1), ax=ax)
    assert ax.get_title().startswith("OVERLAPPING, separation -")
    assert ax.get_legend() is not None
    with pytest.raises(ValueError, match="single shapes"):
        plotting.plot_contact(c2.Circle([(0, 0), (1, 1)], 1), c2.Circle((0, 0), 1), ax=ax)


def test_no_pyplot_state_leaks(ax):
    figures = plt.get_fignums()
    rc = dict(matplotlib.rcParams)
    plotting.plot_pairs(scenes.load("mixed").shapes, ax=ax)
    plotting.plot_contact(c2.Box((0, 0), (1, 1)), c2.Point((1, 1)), ax=ax)
    assert plt.get_fignums() == figures
    assert dict(matplotlib.rcParams) == rc


def test_new_figure_when_no_axes():
    before = set(plt.get_fignums())
    ax = plotting.plot_shapes(c2.Circle((0, 0), 1))
    try:
        assert set(plt.get_fignums()) - before == {ax.figure.number}
        assert ax.get_aspect() == 1.0
    finally:
        plt.close(ax.figure)


def test_large_scene_renders(ax):
    shapes = scenes.catalogue(20_000, seed=3)
    plotting.plot_shapes(shapes, ax, colliding=np.arange(0, 20_000, 7))
    ax.figure.canvas.draw()  # the Agg canvas renders 20 000 ellipses as one collection
    assert len(ax.collections) == 1
    assert sum(_red(ax.collections[0])) == len(range(0, 20_000, 7))
