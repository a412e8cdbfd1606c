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


# -- plots of the user's own data --------------------------------------------------------------------


def _texts(ax):
    return sorted(text.get_text() for text in ax.texts)


def test_few_shapes_are_labelled_with_their_ids(ax):
    scene = scenes.load("mixed")
    plotting.plot_pairs(scene.shapes, ax=ax, labels=scene.ids)
    # one label per shape, also for the point and the circle centred in the box (apart: test_newcomer.py)
    assert _texts(ax) == sorted(["ellipse-A", "ellipse-B", "circle-C", "ellipse-D", "box-E", "point-J", "circle-K", "rotated-box-F",
                                 "polygon-G", "segment-H", "line-I"])
    line = next(text for text in ax.texts if text.get_text() == "line-I")
    assert line.xy == (0.0, -3.0)  # a line is labelled at its point
    many = c2.Circle(np.column_stack([np.arange(plotting.LABEL_LIMIT + 1) * 3.0, np.zeros(plotting.LABEL_LIMIT + 1)]), 1)
    other = Figure().add_subplot()
    plotting.plot_shapes(many, other, labels=[f"c{k}" for k in range(many.size)])
    assert len(other.texts) == 0  # too many to read: none
    plotting.plot_shapes(many[:3], other, labels=["a", "b", "c"])
    assert _texts(other) == ["a", "b", "c"]
    with pytest.raises(ValueError, match="one label per shape"):
        plotting.plot_shapes(many[:3], other, labels=["a"])


def test_pairs_plot_has_a_legend_of_what_is_drawn(ax):
    plotting.plot_pairs(scenes.load("mixed").shapes, ax=ax)
    names = [text.get_text() for text in ax.get_legend().texts]
    assert names[:3] == ["shape", "colliding (red outline)", "overlap"]
    assert {"intersection point", "contact normal, a to b"} <= set(names)
    other = Figure().add_subplot()
    plotting.plot_pairs(c2.Circle([(0.5, 5), (9.5, 5)], 1), ax=other, periodic=(10, 10))
    names = [text.get_text() for text in other.get_legend().texts]
    assert "overlap" in names and "periodic image of b" in names and "periodic box" in names
    plotting.plot_pairs(c2.Circle([(0, 0), (5, 0)], 1), ax=(bare := Figure().add_subplot()), legend=False)
    assert bare.get_legend() is None


def test_normals_stay_inside_the_frame(ax):
    # a long normal leaves a shape at the bottom of the scene (line I at y = -3, ellipse B above it)
    plotting.plot_pairs(scenes.load("mixed").shapes, ax=ax)
    ax.figure.canvas.draw()
    (quiver,) = [c for c in ax.collections if c.get_label() == "contact normals"]
    tips = quiver.XY + np.column_stack([quiver.U, quiver.V])
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    assert np.all((tips[:, 0] >= x0) & (tips[:, 0] <= x1) & (tips[:, 1] >= y0) & (tips[:, 1] <= y1))
    assert tips[:, 1].min() < -3.5  # the arrow below the line is long enough to have left the old frame


def test_large_scene_becomes_a_density_map_of_the_colliding_pairs(ax):
    rng = np.random.default_rng(5)
    far = rng.uniform(0, 1000, size=(300, 2)) * [1, 0.001] + [0, 500]  # a thin row of shapes, far apart in x
    far[:, 0] = np.arange(300) * 4.0 + 2000
    crowd = rng.uniform(0, 20, size=(200, 2))  # all the colliding pairs are in the crowd at [0, 20]^2
    shapes = c2.Circle(np.concatenate([crowd, far]), 1.0)
    pairs = c2.query_pairs(shapes)
    assert pairs.shape[1] > 100 and pairs.max() < 200
    plotting.plot_pairs(shapes, pairs, ax=ax, density_above=400)
    assert not [c for c in ax.collections if type(c).__name__ == "EllipseCollection"]  # no outlines
    (mesh,) = [c for c in ax.collections if type(c).__name__ == "QuadMesh"]
    counts = mesh.get_array()
    assert counts.sum() == pairs.shape[1]  # every pair counted once
    coordinates = mesh.get_coordinates()  # cell corners (ny + 1, nx + 1, 2)
    filled = np.argwhere(~np.ma.getmaskarray(counts).reshape(coordinates.shape[0] - 1, -1))
    assert coordinates[filled[:, 0] + 1, filled[:, 1] + 1, 0].min() > 0  # the cells that hold pairs ...
    assert coordinates[filled[:, 0], filled[:, 1], 0].max() < 21  # ... all lie over the crowd
    assert "too many shapes to outline: the density of the colliding pairs" in ax.get_title()
    assert ax.get_xlim()[1] > 3000  # the frame covers every shape, not only the pairs
