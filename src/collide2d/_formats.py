"""Foreign formats read into plain fields and written from them: the leaf under the shape classes.

The shape classes' adapters (``Ellipse.from_opencv``, ``Box.from_pygame``, ``to_opencv``,
``__geo_interface__``, ``ShapeTable.from_dataframe`` and the like) and the public functions of
:mod:`collide2d.convert` share the code here. It parses a foreign object (an OpenCV tuple, an
astropy region, a scikit-image model, a pygame ``Rect``, a pandas DataFrame) into the numbers of
a constructor's fields, and writes the fields of shapes out again; the callers build the shapes
(``cls(**fields)``), so this module imports no shape class, nothing of the public layer and none
of the optional libraries at import time.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from collide2d import _angles
from collide2d._validate import is_real_scalar

DEFAULT_RELATIVE_TOLERANCE = 1e-3  # of the larger radius, when no tolerance is given
SMALLEST_RELATIVE_TOLERANCE = 1e-12  # below it the float rounding of the vertices dominates


# -- outlines of curved shapes ----------------------------------------------------------------------


def vertex_count(tolerance, radius):
    """Vertices of an inscribed polygon, equally spaced in the ellipse's parameter, within
    ``tolerance`` of an ellipse whose larger radius is ``radius``.

    The ellipse is the image of the unit circle under a linear map of norm ``radius``; a chord
    of the circle spanning the angle ``h`` is within ``1 - cos(h / 2) = 2 sin(h / 4)**2`` of its
    arc (and the arc within that of the chord, point by point along the radius), so the image
    chord and arc are within ``radius * 2 sin(h / 4)**2`` of each other (Hausdorff distance).
    """
    ratio = np.minimum(tolerance / radius, 2.0)
    count = np.ceil(math.pi / (2.0 * np.arcsin(np.sqrt(ratio / 2.0))))
    return int(max(np.max(count, initial=0.0), 4.0))


def ellipse_outline(shape, tolerance):
    """Vertices ``batch + (n, 2)`` of the inscribed polygon of ellipse rows, counter-clockwise."""
    params = shape._params
    radius = np.maximum(params[..., 2], params[..., 3])
    if tolerance is None:
        tolerance = DEFAULT_RELATIVE_TOLERANCE * radius
    else:
        tolerance = np.asarray(tolerance, dtype=np.float64)
        if tolerance.ndim or not (tolerance > 0 and np.isfinite(tolerance)):
            raise ValueError(f"tolerance must be a positive finite number, got {tolerance}")
        if np.any(tolerance < SMALLEST_RELATIVE_TOLERANCE * radius):
            raise ValueError(
                f"tolerance must be at least {SMALLEST_RELATIVE_TOLERANCE:g} times the larger radius "
                f"(about two million vertices), got {float(tolerance)!r} for a radius of {float(np.max(radius))!r}"
            )
    n = vertex_count(tolerance, radius)
    t = 2.0 * math.pi * np.arange(n) / n
    cx, cy, a, b, wx, wy = (params[..., k, None] for k in range(6))
    norm = np.hypot(wx, wy)
    ux, uy = wx / norm, wy / norm
    along, across = a * np.cos(t), b * np.sin(t)
    return np.stack([cx + along * ux - across * uy, cy + along * uy + across * ux], axis=-1)


def polygon_rings(shape):
    """The stored vertices of each polygon row (a list, C order), counter-clockwise."""
    rows = shape._params.reshape(-1, 2).astype(np.int64)
    return [shape._verts[offset : offset + count] for offset, count in rows.tolist()]


def flat_coordinates(shape, tolerance):
    """``(kind, coordinates)``: ``coordinates`` a list (C order) of vertex arrays ``(k, 2)``."""
    kind = shape._kind
    if kind == "line":
        raise ValueError("shape is a Line, which is infinite: clip it to a Segment first")
    if kind == "point":
        return kind, list(shape._params.reshape(-1, 1, 2))
    if kind == "segment":
        return kind, list(shape._params.reshape(-1, 2, 2))
    if kind == "ellipse":
        outline = ellipse_outline(shape, tolerance)
        return "polygon", list(outline.reshape((-1,) + outline.shape[-2:]))
    return kind, polygon_rings(shape)


def geo_mapping(shape, tolerance=None):
    """The GeoJSON-like mapping of a shape (see :func:`collide2d.convert.geo_interface`)."""
    kind, coordinates = flat_coordinates(shape, tolerance)
    geometries = []
    for ring in coordinates:
        points = tuple(map(tuple, ring.tolist()))
        if kind == "point":
            geometries.append({"type": "Point", "coordinates": points[0]})
        elif kind == "segment":
            geometries.append({"type": "LineString", "coordinates": points})
        else:
            geometries.append({"type": "Polygon", "coordinates": (points + points[:1],)})
    if not shape.shape:
        return geometries[0]
    return {"type": "GeometryCollection", "geometries": geometries}


# -- numbers ---------------------------------------------------------------------------------------


def real_value(value, name):
    """``value`` as a float when it is a real number: Python's or NumPy's (or a 0-d integer or
    float array), not a bool and not a string, both of which ``float()`` would read."""
    if not (is_real_scalar(value) or (isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf")):
        raise TypeError(f"{name} must be a real number (not a bool or a string), got {type(value).__name__}")
    try:
        return float(value)
    except OverflowError:  # an integer or a fraction beyond the float range
        raise ValueError(f"{name} must be finite, got a number too large for a float") from None


# -- OpenCV -----------------------------------------------------------------------------------------


OPENCV_PARTS = ("cx", "cy", "width", "height", "angle")


def opencv_rects(rotated_rect):
    """``(centers, full sizes, angles in degrees)`` of one RotatedRect (tuples of floats) or of a
    sequence of them (arrays)."""
    try:
        (cx, cy), (w, h), angle = rotated_rect
    except (TypeError, ValueError):
        pass
    else:
        cx, cy, w, h, angle = (real_value(v, f"rotated_rect: {part}") for v, part in zip((cx, cy, w, h, angle), OPENCV_PARTS))
        return (cx, cy), (w, h), angle
    try:
        rects = [(cx, cy, w, h, angle) for (cx, cy), (w, h), angle in rotated_rect]
    except (TypeError, ValueError):
        raise TypeError(
            "rotated_rect must be OpenCV's ((cx, cy), (width, height), angle_degrees) or a sequence of them"
        ) from None
    rows = [[real_value(v, f"rotated_rect[{k}]: {part}") for v, part in zip(rect, OPENCV_PARTS)] for k, rect in enumerate(rects)]
    array = np.array(rows, dtype=np.float64).reshape(-1, 5)
    return array[:, 0:2], array[:, 2:4], array[:, 4]


def halves_and_radians(sizes, degrees):
    if type(sizes) is tuple:
        return (0.5 * sizes[0], 0.5 * sizes[1]), math.radians(degrees)
    return 0.5 * sizes, np.radians(degrees)


def opencv_fields(rotated_rect):
    """``(center, half sizes, angle in radians)`` of OpenCV's ``((cx, cy), (width, height),
    angle_degrees)`` or of a sequence of them: the fields of an ellipse (``radii``) or a rotated
    box (``half_size``)."""
    center, sizes, degrees = opencv_rects(rotated_rect)
    half, angle = halves_and_radians(sizes, degrees)
    return center, half, angle


def opencv_tuples(center, half, angle, batch_shape):
    """OpenCV's ``((cx, cy), (width, height), angle_degrees)`` of the fields of an ellipse, circle
    or rotated box (a list of them, C order, for a batch): see :func:`collide2d.convert.to_opencv`."""
    center = np.reshape(center, (-1, 2)).tolist()
    sizes = (2.0 * np.reshape(half, (-1, 2))).tolist()
    degrees = [degrees_of(theta) for theta in np.reshape(angle, -1).tolist()]
    rects = [((c[0], c[1]), (s[0], s[1]), d) for c, s, d in zip(center, sizes, degrees)]
    return rects if batch_shape else rects[0]


DEGREE_SEARCH = 8  # floats tried on each side of math.degrees(theta): twice the bound of degrees_of' notes


def degrees_of(theta):
    """The angle ``theta`` (radians, a float) in degrees, exact for a round trip.

    Degrees ``d`` become radians as ``math.radians(d)``, the product ``d * fl(pi/180)`` rounded
    to the nearest float (``np.radians`` is the same product). ``math.degrees(theta)`` need not
    give ``d`` back (``math.degrees(math.radians(30.0))`` is ``29.999999999999996``). The floats
    ``d`` with ``math.radians(d) == theta`` (with its sign, for zero) form a run of consecutive
    floats: one float, or two when the product's rounding merges neighbours, or none when no
    degree value gives ``theta``. They lie within about four ulps of ``math.degrees(theta)``
    (each of ``fl(pi/180)``, ``fl(180/pi)`` and the two products is within half an ulp), so the
    floats within ``DEGREE_SEARCH`` ulps on each side are tried. Of those in the run, the one with
    the shortest ``repr`` is returned (a whole or short decimal degree, as a user writes it; at
    most one of two neighbouring floats has 15 or fewer significant digits), the nearest to
    ``math.degrees(theta)`` on a tie; with none, ``math.degrees(theta)``. An angle whose degrees
    overflow (above 3.1e306 rad) gives the degrees of its stored direction instead.
    """
    estimate = math.degrees(theta)
    if not math.isfinite(estimate):  # |theta| beyond 3.1e306 rad: the direction's angle, in (-180, 180]
        wx, wy = _angles.direction_scalar(theta)  # the direction stored for theta (exact reduction)
        return math.degrees(math.atan2(wy, wx))
    sign = math.copysign(1.0, theta)
    candidates = [estimate]  # itself, then outwards (nextafter steps over one of 0.0 and -0.0)
    for toward in (-math.inf, math.inf):
        candidate = estimate
        for _ in range(DEGREE_SEARCH):
            candidate = math.nextafter(candidate, toward)
            candidates.append(candidate)
    best = None
    for candidate in candidates:
        if math.radians(candidate) == theta and math.copysign(1.0, candidate) == sign:
            key = (len(repr(candidate)), abs(candidate - estimate))
            if best is None or key < best[0]:
                best = (key, candidate)
    return estimate if best is None else best[1]


# -- astropy regions and scikit-image --------------------------------------------------------------


def pixel_region(region, expected, method):
    name = type(region).__name__
    if name.endswith("SkyRegion"):
        raise TypeError(f"region is a {name}: convert it to pixels first, region.to_pixel(wcs), then call {method}")
    if name not in expected:
        raise TypeError(f"region must be a {' or '.join(expected)} (astropy regions), got {name}")
    return (float(region.center.x), float(region.center.y))


def radians_of(angle, name):
    """An angle as radians: an astropy ``Quantity`` in any angular unit, or a number in degrees."""
    if hasattr(angle, "to_value"):
        return float(angle.to_value("rad"))
    try:
        return math.radians(float(angle))
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be an astropy Quantity or a number of degrees, got {type(angle).__name__}") from None


def astropy_ellipse_fields(region):
    """The fields of the ellipse of an ``EllipsePixelRegion`` (full sizes halved, the angle in
    radians), or of the circle of a ``CirclePixelRegion`` (``center`` and ``radius``)."""
    center = pixel_region(region, ("EllipsePixelRegion", "CirclePixelRegion"), "Ellipse.from_astropy")
    if type(region).__name__ == "CirclePixelRegion":
        return {"center": center, "radius": float(region.radius)}
    radii = (0.5 * float(region.width), 0.5 * float(region.height))
    return {"center": center, "radii": radii, "angle": radians_of(region.angle, "region.angle")}


def astropy_rectangle_fields(region):
    """The fields of the rotated box of a ``RectanglePixelRegion``."""
    center = pixel_region(region, ("RectanglePixelRegion",), "RotatedBox.from_astropy")
    half_size = (0.5 * float(region.width), 0.5 * float(region.height))
    return {"center": center, "half_size": half_size, "angle": radians_of(region.angle, "region.angle")}


def skimage_fields(model):
    """The fields of the ellipse of scikit-image's ``EllipseModel`` or of its ``params`` (see
    :func:`collide2d.convert.ellipse_from_skimage`)."""
    if hasattr(model, "axis_lengths"):
        values = (*np.ravel(model.center), *np.ravel(model.axis_lengths), model.theta)
    elif hasattr(model, "params") and type(model).__name__ == "EllipseModel":
        values = model.params
    else:
        values = model
    try:
        xc, yc, a, b, theta = values
    except (TypeError, ValueError):
        raise TypeError("model must be an EllipseModel or its params (xc, yc, a, b, theta)") from None
    xc, yc, a, b, theta = (real_value(v, f"model: {name}") for v, name in zip((xc, yc, a, b, theta), ("xc", "yc", "a", "b", "theta")))
    return {"center": (xc, yc), "radii": (a, b), "angle": theta}


# -- pygame -----------------------------------------------------------------------------------------


def pygame_fields(rect, height):
    """The fields ``min`` and ``max`` of the box of a pygame ``Rect`` (see
    :func:`collide2d.convert.box_from_pygame`)."""
    try:
        values = (rect.x, rect.y, rect.w, rect.h) if hasattr(rect, "w") else tuple(rect)
        x, y, w, h = values
    except (TypeError, ValueError):
        raise TypeError(f"rect must be a pygame Rect or (x, y, w, h), got {type(rect).__name__}") from None
    x, y, w, h = (real_value(v, f"rect: {name}") for v, name in zip(values, ("x", "y", "w", "h")))
    if not (w > 0 and h > 0):
        raise ValueError(f"rect must have a positive width and height, got w={w!r}, h={h!r}")
    if height is None:
        return {"min": (x, y), "max": (x + w, y + h)}
    screen = real_value(height, "height")
    if not (0 < screen < math.inf):
        raise ValueError(f"height (the screen's) must be positive and finite, got {screen!r}")
    return {"min": (x, screen - y - h), "max": (x + w, screen - y)}


# -- pandas -----------------------------------------------------------------------------------------


def pandas_module():
    """pandas, imported on first use (``import collide2d`` imports no optional library)."""
    try:
        import pandas
    except ImportError:
        raise ImportError("this needs pandas: pip install pandas") from None
    return pandas


def pair_measures_frame(measures, pairs, ids, relation):
    """The DataFrame of :func:`collide2d.convert.pair_measures_to_dataframe`, one row per pair;
    ``relation`` is the :class:`~collide2d.Relation` enum, whose names label the codes."""
    pandas = pandas_module()
    data: dict[str, Any] = {}
    if pairs is not None:
        pairs = np.asarray(pairs)
        if pairs.ndim != 2 or pairs.shape != (2, len(measures.relation)):
            raise ValueError(f"pairs must have shape (2, {len(measures.relation)}), got {pairs.shape}")
        labels = None if ids is None else np.asarray(ids)
        data["a"] = pairs[0] if labels is None else labels[pairs[0]]
        data["b"] = pairs[1] if labels is None else labels[pairs[1]]
    elif ids is not None:
        raise ValueError("ids needs pairs (the ids label the shapes that pairs index)")
    names = [member.name for member in sorted(relation, key=int)]
    data["relation"] = pandas.Categorical.from_codes(np.asarray(measures.relation, dtype=np.int64), categories=names)
    data["separation"] = measures.separation
    for field in ("normal", "point_a", "point_b"):
        vectors = np.asarray(getattr(measures, field))
        data[f"{field}_x"], data[f"{field}_y"] = vectors[:, 0], vectors[:, 1]
    for field in ("curvature_a", "curvature_b", "overlap_area", "iou"):
        data[field] = getattr(measures, field)
    return pandas.DataFrame(data)
