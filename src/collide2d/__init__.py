"""collide2d: exact and fast 2D collision detection, centred on the ellipse.

Conventions: Cartesian plane with y up; angles in radians, counter-clockwise from +x; float64
throughout; shapes are closed (a shape contains its boundary). Every function takes single shapes
or batches and broadcasts like NumPy.

Documentation: https://collide2d.readthedocs.io/en/latest/ (frames, signs and tolerances:
https://collide2d.readthedocs.io/en/latest/conventions.html).

>>> import collide2d as c2
>>> c2.relate(c2.Ellipse((0, 0), (2, 1)), c2.Ellipse((3, 0), (1, 3)))  # vertex to vertex
<Relation.TOUCHING: 1>
"""

from collide2d.predicates import (
    Relation,
    contains,
    contains_xy,
    covered_by,
    covers,
    disjoint,
    equals,
    exact_fallback_counts,
    intersects,
    intersects_xy,
    overlaps,
    relate,
    touches,
    within,
)
from collide2d.convert import from_patch, from_shapely, to_patch, to_shapely
from collide2d.geometry import area, centroid, length
from collide2d.broadphase import Index, PairMeasures, measure_pairs, query, query_pairs
from collide2d.measurement import Contact, closest_point, contact, distance
from collide2d.manifold import Manifold, contact_manifold
from collide2d.nearest import query_nearest
from collide2d.motion import Impact, Impacts, query_impacts, rotate, time_of_impact, translate
from collide2d.overlay import intersection_points, iou, overlap_area
from collide2d.perram_wertheim import PerramWertheim, perram_wertheim
from collide2d.raycast import RayHit, raycast
from collide2d.shapes import Box, Capsule, Circle, Ellipse, Line, Point, Polygon, RotatedBox, Segment, Shape
from collide2d.table import ShapeTable

__version__ = "0.1.0"

__all__ = [
    "Box",
    "Capsule",
    "Circle",
    "Contact",
    "Ellipse",
    "Impact",
    "Impacts",
    "Index",
    "Line",
    "Manifold",
    "PairMeasures",
    "PerramWertheim",
    "Point",
    "Polygon",
    "RayHit",
    "Relation",
    "RotatedBox",
    "Segment",
    "Shape",
    "ShapeTable",
    "area",
    "centroid",
    "closest_point",
    "contact",
    "contact_manifold",
    "contains",
    "contains_xy",
    "covered_by",
    "covers",
    "disjoint",
    "distance",
    "equals",
    "exact_fallback_counts",
    "from_patch",
    "from_shapely",
    "intersection_points",
    "intersects",
    "intersects_xy",
    "iou",
    "length",
    "measure_pairs",
    "overlap_area",
    "overlaps",
    "perram_wertheim",
    "query",
    "query_impacts",
    "query_nearest",
    "query_pairs",
    "raycast",
    "relate",
    "rotate",
    "time_of_impact",
    "to_patch",
    "to_shapely",
    "touches",
    "translate",
    "within",
]
