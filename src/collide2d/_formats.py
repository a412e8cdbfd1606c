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


def ellipse_outline(params, tolerance):
    """Vertices ``batch + (n, 2)`` of the inscribed polygon of ellipse rows ``params`` (batch shape
    plus the row axis), counter-clockwise."""
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


def polygon_rings(params, verts):
    """The stored vertices ``verts`` of each polygon row of ``params`` (a list, C order),
    counter-clockwise."""
    rows = params.reshape(-1, 2).astype(np.int64)
    return [verts[offset : offset + count] for offset, count in rows.tolist()]


def flat_coordinates(rows, tolerance):
    """``(kind, coordinates)`` of a shape's kernel ``rows`` (its kind, parameter table and polygon
    vertices): ``coordinates`` a list (C order) of vertex arrays ``(k, 2)``."""
    kind, params, verts = rows
    if kind == "line":
        raise ValueError("shape is a Line, which is infinite: clip it to a Segment first")
    if kind == "point":
        return kind, list(params.reshape(-1, 1, 2))
    if kind == "segment":
        return kind, list(params.reshape(-1, 2, 2))
    if kind == "ellipse":
        outline = ellipse_outline(params, tolerance)
        return "polygon", list(outline.reshape((-1,) + outline.shape[-2:]))
    return kind, polygon_rings(params, verts)


def geo_mapping(rows, tolerance=None):
    """The GeoJSON-like mapping of a shape given by its kernel ``rows`` (kind, parameter table,
    vertices; see :func:`collide2d.convert.geo_interface`)."""
    kind, coordinates = flat_coordinates(rows, tolerance)
    geometries = []
    for ring in coordinates:
        points = tuple(map(tuple, ring.tolist()))
        if kind == "point":
            geometries.append({"type": "Point", "coordinates": points[0]})
        elif kind == "segment":
            geometries.append({"type": "LineString", "coordinates": points})
        else:
            geometries.append({"type": "Polygon", "coordinates": (points + points[:1],)})
    if rows[1].ndim == 1:  # a single shape: one row
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


DEGREE_SEARCH = 8  # floats tried on each side of math.degrees(theta): twice the bound of degrees_of's notes


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

# The fields of each kind of a catalogue, in the constructor's order, with their columns (a vector
# field as two columns). The same columns in a DataFrame (ShapeTable.from_dataframe, to_dataframe)
# and in a CSV catalogue of any kinds (collide2d.io); ``vertices`` holds a polygon's vertices (an
# array in a DataFrame, the numbers ``x1 y1 x2 y2 ...`` in a CSV field). ``radius`` is the rounding
# radius of a capsule and of a rounded box, rotated box or polygon (``r`` is a circle's radius):
# empty (NaN) or absent for a plain box, rotated box or polygon. ``dx, dy`` of an ellipse or rotated
# box: the direction it was built from, when it was (``Shape.fields`` has it then; the angle alone
# would give the direction only within an ulp); empty otherwise.
CATALOGUE_FIELDS = {
    "ellipse": (("center", ("x", "y")), ("radii", ("rx", "ry")), ("angle", ("angle",)), ("direction", ("dx", "dy"))),
    "circle": (("center", ("x", "y")), ("radius", ("r",))),
    "box": (("min", ("xmin", "ymin")), ("max", ("xmax", "ymax")), ("radius", ("radius",))),
    "rotated_box": (
        ("center", ("x", "y")), ("half_size", ("hx", "hy")), ("angle", ("angle",)), ("direction", ("dx", "dy")), ("radius", ("radius",)),
    ),
    "segment": (("start", ("x0", "y0")), ("end", ("x1", "y1"))),
    "line": (("point", ("x", "y")), ("direction", ("dx", "dy"))),
    "point": (("xy", ("x", "y")),),
    "polygon": (("vertices", ("vertices",)), ("radius", ("radius",))),
    "capsule": (("a", ("x0", "y0")), ("b", ("x1", "y1")), ("radius", ("radius",))),
}
# Catalogue columns of each kind, in the order of the constructor's fields (vectors as two columns).
CATALOGUE_COLUMNS = {kind: tuple(c for _, columns in fields for c in columns) for kind, fields in CATALOGUE_FIELDS.items()}
DETECT_ORDER = ("ellipse", "rotated_box", "circle", "box", "capsule", "segment", "line", "point", "polygon")
ANGLE_OPTIONAL = ("ellipse", "rotated_box")
ROUNDABLE = ("box", "rotated_box", "polygon")  # take an optional radius (rounded corners)
CATALOGUE_NAMES = tuple(dict.fromkeys(c for columns in CATALOGUE_COLUMNS.values() for c in columns))  # in order, once each


def optional_column(kind, name):
    """True for the columns a ``kind`` may lack: the angle of an ellipse or rotated box (0) and the
    direction it was built from (``dx, dy``), the radius of a box, rotated box or polygon (none:
    the plain shape)."""
    return (name in ("angle", "dx", "dy") and kind in ANGLE_OPTIONAL) or (name == "radius" and kind in ROUNDABLE)


#: The optional fields whose presence splits a run of rows into batches: given for all or for none.
RUN_FIELDS = (("radius", ROUNDABLE), ("dx", ANGLE_OPTIONAL))


def catalogue_kind(shape):
    """The catalogue kind of a shape (``"circle"``, ``"rotated_box"``, ``"capsule"``, ...; a box,
    rotated box or polygon with a radius is still a ``"box"``, ...): its class's name, or that of
    the first public class it derives from."""
    for cls in type(shape).__mro__:
        name = _KIND_OF_CLASS_NAME.get(cls.__name__)
        if name is not None and not cls.__name__.startswith("_"):
            return name
    raise TypeError(f"{type(shape).__name__} has no catalogue kind")


_KIND_OF_CLASS_NAME = {
    "Ellipse": "ellipse", "Circle": "circle", "Box": "box", "RotatedBox": "rotated_box", "Segment": "segment",
    "Line": "line", "Point": "point", "Polygon": "polygon", "Capsule": "capsule",
}


def shape_fields(kind, values):
    """Constructor arguments ``(args, kwargs)`` of ``kind`` from a dict of column arrays (catalogue
    names); ``radius`` of a box, rotated box or polygon as a keyword, when ``values`` has it."""
    args, kwargs = [], {}
    for field, columns in CATALOGUE_FIELDS[kind]:
        if any(c not in values for c in columns):
            continue
        value = np.stack([values[c] for c in columns], axis=-1) if len(columns) == 2 else values[columns[0]]
        if (field == "radius" and kind in ROUNDABLE) or field == "direction":
            kwargs[field] = value
        else:
            args.append(value)
    return tuple(args), kwargs


def kind_of_columns(names, name="df"):
    """The kind whose columns a frame without a ``kind`` column has; every catalogue column it has
    must be one of that kind's (``x, y, rx, angle`` is an ellipse missing ``ry``, not points).
    ``name`` names the frame (or file) in the messages."""
    for kind in DETECT_ORDER:
        needed = [c for c in CATALOGUE_COLUMNS[kind] if not optional_column(kind, c)]
        if all(c in names for c in needed):
            stray = [c for c in CATALOGUE_NAMES if c in names and c not in CATALOGUE_COLUMNS[kind]]
            if stray:
                raise ValueError(incomplete_message(kind, stray, names, name))
            return kind
    listing = "; ".join(f"{kind}: {','.join(cols)}" for kind, cols in CATALOGUE_COLUMNS.items() if kind != "polygon")
    raise ValueError(f"{name} must have the columns of one kind ({listing}), or a kind column; got {','.join(map(str, names))}")


def incomplete_message(kind, stray, names, name="df"):
    """The error for a frame with the columns of ``kind`` and also ``stray`` catalogue columns of
    other kinds: which kinds those columns belong to, and what each lacks."""
    wanted = []
    for other, columns in CATALOGUE_COLUMNS.items():
        # a kind's columns named without the optional direction and rounding, which no other kind lacks
        columns = tuple(c for c in columns if c == "angle" or not optional_column(other, c))
        if other != kind and any(c in columns for c in stray):
            missing = [c for c in columns if c not in names and not optional_column(other, c)]
            wanted.append(f"{other} ({','.join(columns)}) lacks {','.join(missing)}" if missing else other)
    return (
        f"{name} has the columns of {kind}s and also {', '.join(stray)}, which {kind}s do not have: "
        f"{'; '.join(wanted)}. Add the missing columns, drop or rename the others, or give a kind column"
    )


def catalogue_frame(df, columns):
    """``{catalogue name: column of df}``: the columns of ``df`` under their catalogue names.

    Each catalogue name (and ``kind``) must name exactly one column: a name that two columns of
    ``df`` share, or that a rename gives to a second column, is an error, as pandas would return
    both columns (a frame) for it and every row would count twice.
    """
    columns = {} if columns is None else columns
    if not isinstance(columns, dict):
        raise TypeError(f"columns must be a dict {{catalogue name: column of df}}, got {type(columns).__name__}")
    known = set(CATALOGUE_NAMES) | {"kind", "id"}
    labels = list(df.columns)
    for name, label in columns.items():
        if name not in known:
            raise ValueError(f"columns: {name!r} is not a catalogue column; use one of {', '.join(sorted(known))}")
        if labels.count(label) != 1:
            found = "is not a column of df" if label not in labels else "names several columns of df"
            raise ValueError(f"columns[{name!r}] = {label!r} {found}")
    renamed = set(columns.values())
    sources = {}
    for position, label in enumerate(labels):
        if label in renamed or label not in known:
            continue
        if label in sources:
            raise ValueError(f"df has the column {label!r} twice: rename or drop one (each row would give two shapes)")
        sources[label] = position
    for name, label in columns.items():
        if name in sources:
            raise ValueError(
                f"columns[{name!r}] = {label!r}, but df has a column {name!r} too: rename or drop one of them"
            )
        sources[name] = labels.index(label)
    return {name: df.iloc[:, position] for name, position in sources.items()}


def is_default_index(index):
    """True for pandas' default index, ``0 .. n-1`` (positions and labels agree)."""
    return type(index).__name__ == "RangeIndex" and index.start == 0 and index.step == 1 and index.name is None


def frame_numbers(column, name, lo, hi):
    """Rows ``lo:hi`` of a column as float64: only integer and float columns (``dtype.kind`` of
    ``i``, ``u`` or ``f``, which pandas' nullable types share; a missing value becomes NaN)."""
    kind = getattr(column.dtype, "kind", None)
    if kind not in ("i", "u", "f"):
        what = {"b": "booleans", "M": "dates", "m": "durations", "c": "complex numbers"}.get(kind, f"dtype {column.dtype}")
        raise ValueError(
            f"df: column {name} must hold numbers (an integer or float dtype), got {what}; "
            "convert it first (for example with pandas.to_numeric)"
        )
    return column.iloc[lo:hi].to_numpy(dtype=np.float64, na_value=np.nan)


def run_fields(kind, frame, lo, hi, degrees):
    """The constructor arguments ``(args, kwargs)`` of rows ``lo:hi`` of a catalogue frame, all of
    ``kind`` (angles in radians); for polygons ``args`` is the list of their vertex arrays. The
    ``radius`` of a box, rotated box or polygon is a keyword when the frame has the column (the
    caller gives runs whose radii are all NaN, the plain shapes, without it: see
    :func:`rounded_rows`)."""
    needed = CATALOGUE_COLUMNS[kind]
    missing = [c for c in needed if c not in frame and not optional_column(kind, c)]
    if missing:
        raise ValueError(f"df: rows {lo}.. are {kind}s and need the columns {', '.join(missing)}")
    if kind in ANGLE_OPTIONAL and ("dx" in frame) != ("dy" in frame):  # half a direction: not dropped in silence
        given, lacking = ("dx", "dy") if "dx" in frame else ("dy", "dx")
        raise ValueError(f"df: rows {lo}.. ({kind}) have the column {given} but not {lacking}: the direction needs both")
    values = {}
    for name in needed:
        if name == "vertices":
            continue
        if name in frame:
            values[name] = frame_numbers(frame[name], name, lo, hi)
        elif name == "angle":
            values[name] = np.zeros(hi - lo)
    if kind in ROUNDABLE and "radius" in values and np.isnan(values["radius"]).all():
        del values["radius"]  # the plain shapes
    if kind in ANGLE_OPTIONAL and "dx" in values and np.isnan(values["dx"]).all() and np.isnan(values["dy"]).all():
        del values["dx"], values["dy"]  # built from an angle
    if kind in ANGLE_OPTIONAL and "dx" in values and "angle" not in frame:
        del values["angle"]  # built from a direction, no angle column: not the angle 0 besides it
    if degrees and "angle" in values:
        values["angle"] = np.radians(values["angle"])
    if kind == "polygon":
        return frame["vertices"].iloc[lo:hi].tolist(), {k: v for k, v in values.items() if k == "radius"}
    return shape_fields(kind, values)


def stray_values(kinds, frame):
    """Raise ``ValueError`` for a row that gives a value (not NaN or None) in a catalogue column its
    kind does not have (the ``radius`` of a segment, the ``x0`` of a box): the shape would silently
    differ from the row, so it is refused, as in a CSV or Parquet catalogue. ``kinds`` are the rows'
    kinds (strings)."""
    for name in frame:
        if name in ("kind", "id"):
            continue
        foreign = ~np.isin(kinds, [kind for kind, columns in CATALOGUE_COLUMNS.items() if name in columns])
        if not foreign.any():
            continue
        bad = np.flatnonzero(foreign & frame[name].notna().to_numpy(dtype=bool))
        if len(bad):
            row = int(bad[0])
            raise ValueError(
                f"df row {row}: a {kinds[row]} has no {name}; leave it NaN or None (got {frame[name].iloc[row]!r})"
            )


def run_keys(kinds, frame, n):
    """For each row of a frame of ``n`` rows (``kinds`` their kinds): which of the optional fields
    that split runs (:data:`RUN_FIELDS`: a radius, rounding a box, rotated box or polygon; a
    direction ``dx``, of an ellipse or rotated box built from one) it gives (not NaN), an int per
    row; the rows of one run give the same ones, so that a run is one batch."""
    keys = np.zeros(n, dtype=np.int64)
    for bit, (name, owners) in enumerate(RUN_FIELDS):
        if name not in frame:
            continue
        column = frame[name]
        if getattr(column.dtype, "kind", None) not in ("i", "u", "f"):
            frame_numbers(column, name, 0, n)  # raises its message
        given = ~np.isnan(column.to_numpy(dtype=np.float64, na_value=np.nan)) & np.isin(kinds, owners)
        keys |= given.astype(np.int64) << bit
    return keys


def table_frame(parts, frame, degrees):
    """The DataFrame of :func:`collide2d.convert.table_to_dataframe`: ``parts`` the table's
    sources with their catalogue kinds and kernel rows, ``(kind, shape, rows)`` in order, ``frame`` what the table keeps
    of the DataFrame it was read from (its ``_frame``)."""
    pandas = pandas_module()
    out_parts = []
    for kind, source, rows in parts:
        data: dict[str, Any] = {"kind": np.full(source.size, kind, dtype=object)}
        fields = source.fields
        if kind == "polygon":
            data["vertices"] = [np.array(ring) for ring in polygon_rings(rows[1][..., 0:2], rows[2])]
            fields = {name: value for name, value in fields.items() if name != "vertices"}
        names = [c for field, columns in CATALOGUE_FIELDS[kind] if field in fields for c in columns]
        if names:
            flat = [np.reshape(value, (source.size, -1)) for value in fields.values()]
            for name, column in zip(names, np.concatenate(flat, axis=1).T, strict=True):
                data[name] = column
        out_parts.append(pandas.DataFrame(data))
    out = pandas.concat(out_parts, ignore_index=True) if out_parts else pandas.DataFrame({"kind": np.zeros(0, dtype=object)})
    if degrees is None:
        degrees = "degrees" in frame
    if degrees and "angle" in out:
        angle = out["angle"].to_numpy(dtype=np.float64, copy=True)
        given = frame.get("degrees", np.full(len(angle), np.nan))
        read = ~np.isnan(given)  # the degrees read, bit for bit
        angle[read] = given[read]
        other = ~read & ~np.isnan(angle)
        angle[other] = [degrees_of(theta) for theta in angle[other].tolist()]
        out["angle"] = angle
    if "id" in frame:
        out.insert(0, "id", frame["id"])
    if "index" in frame:
        out.index = frame["index"]
    return out


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
