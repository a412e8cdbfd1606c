"""``from_shapely(geometry, rounded=True)``: shapely's buffers of points, segments and convex
polygons read as discs, capsules and rounded boxes and polygons, at several ``quad_segs`` and
radii, against the parameters they were buffered from; the Hausdorff distance that decides
against shapely's own (densified) measure; refusals of polygons that are no buffer.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import collide2d as c2
from collide2d._foreign import fit_rounded, hausdorff_to_rounded

shapely = pytest.importorskip("shapely")

CORES = [
    ("point", shapely.Point(1.5, -2.0), [(1.5, -2.0)]),
    ("segment", shapely.LineString([(0, 0), (2, 1)]), [(0, 0), (2, 1)]),
    ("segment", shapely.LineString([(-3, 5), (-3, 1e-3)]), [(-3, 5), (-3, 1e-3)]),
    ("box", shapely.box(0, 0, 2, 1), [(0, 0), (2, 0), (2, 1), (0, 1)]),
    ("polygon", shapely.Polygon([(0, 0), (3, 0), (1, 2)]), [(0, 0), (3, 0), (1, 2)]),
    ("polygon", shapely.Polygon([(0, 0), (4, 1), (5, 3), (2, 4), (-1, 2)]), [(0, 0), (4, 1), (5, 3), (2, 4), (-1, 2)]),
]


def _core_points(shape):
    if isinstance(shape, c2.Capsule):
        return np.unique(np.array([shape.a, shape.b]), axis=0)
    if isinstance(shape, c2.Box):
        (x0, y0), (x1, y1) = shape.min, shape.max
        return np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    return np.asarray(shape.vertices)


@pytest.mark.parametrize("quad_segs", [4, 8, 64])
@pytest.mark.parametrize("radius", [1e-3, 3.0])
@pytest.mark.parametrize(("kind", "geometry", "core"), CORES, ids=[f"{c[0]}{k}" for k, c in enumerate(CORES)])
def test_buffers_come_back_as_the_rounded_shapes_they_were_made_of(kind, geometry, core, radius, quad_segs):
    buffered = geometry.buffer(radius, quad_segs=quad_segs)
    # the chords' distance from the arcs: r (1 - cos(h / 2)), their angle h = a / round(a / q) for an
    # arc of angle a, the step q = pi / (2 quad_segs) (GEOS OffsetSegmentGenerator::addDirectedFillet):
    # h = q for a disc, a capsule and a box, at most 1.5 q (an arc of one chord), beyond the default
    # tolerance 0.02 r for quad_segs 4 (0.043 r)
    sagitta = radius * (1.0 - math.cos((1.0 if kind != "polygon" else 1.5) * math.pi / (4 * quad_segs)))
    tolerance = None if sagitta <= 0.02 * radius else sagitta * (1 + 1e-9)
    shape = c2.from_shapely(buffered, rounded=True, tolerance=tolerance)
    expected_class = {"point": c2.Capsule, "segment": c2.Capsule, "box": c2.Box, "polygon": c2.Polygon}[kind]
    assert isinstance(shape, expected_class) and type(shape).__name__.lstrip("_").removeprefix("Rounded") == expected_class.__name__
    scale = 5.0 + radius
    assert shape.radius == pytest.approx(radius, rel=1e-12, abs=1e-14 * scale)
    got = _core_points(shape)
    want = np.array(core, dtype=float)
    assert got.shape == want.shape
    for point in want:  # the same vertices, in any order and from any start
        assert np.min(np.hypot(*(got - point).T)) <= 1e-13 * scale
    if kind == "box":
        assert shape.min.tolist() == [0.0, 0.0] or radius == 1e-3  # exact flats: exact corners (to an ulp of r)
    assert hausdorff_to_rounded(np.asarray(c2.from_shapely(buffered).vertices), got, shape.radius) <= sagitta * (1 + 1e-9) + 1e-14 * scale


def test_hausdorff_distance_matches_shapely_on_fits_and_misfits():
    """The exact support-function distance against shapely's, with the rounded shape densified
    (its polygon within 1e-9 of the arcs)."""
    cases = [
        (shapely.box(0, 0, 2, 1).buffer(0.5, quad_segs=2), np.array([(0, 0), (2, 0), (2, 1), (0, 1)], float), 0.5),
        (shapely.box(0, 0, 2, 1), np.array([(1.0, 0.5)]), math.sqrt(1.25)),
        (shapely.Polygon([(0, 0), (3, 0), (1, 2)]), np.array([(0, 0), (3, 0)], float), 0.7),
        (shapely.Point(0, 0).buffer(1.0, quad_segs=3), np.array([(0.2, -0.1)]), 1.1),
    ]
    for polygon, core, radius in cases:
        vertices = shapely.get_coordinates(shapely.geometry.polygon.orient(polygon, 1.0).exterior)[:-1]  # counter-clockwise
        ours = hausdorff_to_rounded(vertices, core, radius)
        rounded = c2.Capsule(core[0], core[-1], radius) if len(core) <= 2 else c2.Polygon(core, radius=radius)
        theirs = shapely.hausdorff_distance(polygon, c2.to_shapely(rounded, tolerance=1e-8), densify=0.02)
        assert ours == pytest.approx(theirs, abs=1e-6)


@pytest.mark.parametrize(
    "geometry",
    [
        shapely.box(0, 0, 2, 1),  # a plain rectangle: its corners on one circle, 0.29 r from it
        shapely.Polygon([(0, 0), (3, 0), (1, 2)]),
        shapely.LineString([(0, 0), (2, 0)]).buffer(0.5, cap_style="flat"),
        shapely.LineString([(0, 0), (2, 0)]).buffer(0.5, cap_style="square"),
        shapely.box(0, 0, 2, 1).buffer(0.5, join_style="mitre"),
        shapely.box(0, 0, 2, 1).buffer(0.5, join_style="bevel"),
        shapely.box(0, 0, 2, 1).buffer(0.5, quad_segs=2),  # chords 0.076 r from the arcs: beyond 0.02 r
        shapely.Point(0, 0).buffer(1.0, quad_segs=8).union(shapely.box(0, -0.2, 1.5, 0.2)).convex_hull,
    ],
)
def test_polygons_that_are_no_buffer_within_the_tolerance_are_refused(geometry):
    with pytest.raises(ValueError, match=r"^geometry: .*(not the buffer|not a buffered shape).*rounded=False"):
        c2.from_shapely(geometry, rounded=True)


def test_tolerance_and_arguments():
    coarse = shapely.box(0, 0, 2, 1).buffer(0.5, quad_segs=2)
    assert c2.from_shapely(coarse, rounded=True, tolerance=0.04).radius == 0.5  # 0.0381 away: within 0.04
    with pytest.raises(ValueError, match="tolerance 0.038: .* is 0.0380602 from it"):
        c2.from_shapely(coarse, rounded=True, tolerance=0.038)
    with pytest.raises(ValueError, match="tolerance applies with rounded=True only"):
        c2.from_shapely(coarse, tolerance=0.01)
    for bad in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="tolerance must be a positive finite number"):
            c2.from_shapely(coarse, rounded=True, tolerance=bad)
    with pytest.raises(TypeError, match="rounded must be True or False"):
        c2.from_shapely(coarse, rounded=1)
    assert repr(c2.from_shapely(shapely.Point(1, 2), rounded=True)) == "Point(xy=(1.0, 2.0))"  # points and segments as without
    assert fit_rounded(np.array([(0, 0), (1, 0), (2, 0)])) is None  # no circle through three vertices


def test_many_buffers_give_a_batch_or_a_table():
    capsules = [shapely.LineString([(k, 0), (k + 1, 1)]).buffer(0.25) for k in range(3)]
    batch = c2.from_shapely(np.array(capsules, dtype=object), rounded=True)
    assert type(batch) is c2.Capsule and batch.shape == (3,)
    assert np.allclose(batch.radius, 0.25, rtol=1e-12, atol=0)
    mixed = c2.from_shapely([capsules[0], shapely.box(0, 0, 1, 1).buffer(0.5), shapely.Point(3, 3)], rounded=True)
    assert isinstance(mixed, c2.ShapeTable) and [type(s).__name__ for s in mixed] == ["Capsule", "Box", "Point"]
    with pytest.raises(ValueError, match=r"^geometry\[1\]: not the buffer"):
        c2.from_shapely([capsules[0], shapely.box(0, 0, 1, 1)], rounded=True)
