"""Rounded shapes drawn: the exact outline as a matplotlib path (straight stretches and arcs) and
the plotting app, checked against the distance to the core (an independent reference: a point of
the outline lies at the radius from the core)."""

from __future__ import annotations

import numpy as np
import pytest

import collide2d as c2

SHAPES = [
    (c2.Capsule((0, 0), (2, 1), 0.5), c2.Segment((0, 0), (2, 1))),
    (c2.Capsule((3, 4), (3, 4), 0.75), c2.Point((3, 4))),
    (c2.Box((0, 0), (2, 1), radius=0.3), c2.Box((0, 0), (2, 1))),
    (c2.RotatedBox((1, 2), (2, 0.5), 0.3, radius=0.7), c2.RotatedBox((1, 2), (2, 0.5), 0.3)),
    (c2.Polygon([(0, 0), (1, 0), (0.2, 1)], radius=0.1), c2.Polygon([(0, 0), (1, 0), (0.2, 1)])),
]


@pytest.mark.parametrize(("shape", "core"), SHAPES, ids=lambda s: type(s).__name__)
def test_to_patch_outline_lies_at_the_radius(shape, core):
    pytest.importorskip("matplotlib")
    patch = c2.to_patch(shape, facecolor="none")
    path = patch.get_path()
    r = float(shape.radius)
    # the curve itself (each cubic piece evaluated), every point within 1e-7 r of the outline
    t = np.linspace(0.0, 1.0, 41)
    points = np.concatenate([segment(t) for segment, _ in path.iter_bezier()])
    gap = np.array([c2.distance(core, c2.Point(tuple(p))) for p in points.tolist()]) - r
    assert np.abs(gap).max() < 1e-7 * r
    # and it goes all the way round: its extents are the shape's bounds
    np.testing.assert_allclose(path.get_extents().bounds, _xywh(shape.bounds), atol=1e-7 * r)
    # a closed path of straight stretches and cubic arcs
    assert path.codes[0] == path.MOVETO and path.codes[-1] == path.CLOSEPOLY and path.CURVE4 in path.codes


def _xywh(bounds):
    x0, y0, x1, y1 = bounds
    return (x0, y0, x1 - x0, y1 - y0)


def test_to_shapely_within_its_tolerance():
    shapely = pytest.importorskip("shapely")
    for shape, core in SHAPES:
        r = float(shape.radius)
        polygon = c2.to_shapely(shape, tolerance=1e-4)
        exterior = np.asarray(polygon.exterior.coords)
        gap = np.array([c2.distance(core, c2.Point(tuple(p))) for p in exterior.tolist()]) - r
        assert np.abs(gap).max() < 1e-12 * max(1.0, r)  # the vertices lie on the outline
        reference = c2.to_shapely(core) if not isinstance(core, c2.Point) else shapely.Point(3, 4)
        fine = reference.buffer(r, quad_segs=4096)
        assert fine.area - polygon.area < 1e-4 * fine.length  # the chords stray at most the tolerance


def test_plot_pairs_draws_rounded_shapes(tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.collections import PathCollection

    from collide2d import plotting

    shapes = [shape for shape, _ in SHAPES] + [c2.Capsule((10, 10), (11, 10), 0.2), c2.Circle((6, 3), 0.5)]
    ax = plotting.plot_pairs(shapes)
    drawn = [c for c in ax.collections if isinstance(c, PathCollection) and len(c.get_paths()) == 6]
    assert len(drawn) == 1
    from matplotlib.colors import to_rgba

    colliding = set(c2.query_pairs(shapes).ravel().tolist())
    red = [tuple(c) == to_rgba(plotting.COLLIDING_COLOR) for c in drawn[0].get_edgecolors().tolist()]
    assert red == [k in colliding for k in range(6)] and 0 < sum(red) < 6  # colliding outlines red
    ax.figure.savefig(tmp_path / "rounded.png", dpi=40)
    assert (tmp_path / "rounded.png").stat().st_size > 1000
    import matplotlib.pyplot as plt

    plt.close(ax.figure)
