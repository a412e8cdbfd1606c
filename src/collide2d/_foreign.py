"""Reading the objects of other libraries into shapes, for :mod:`collide2d.convert`: shapely
geometries (an array of plain polygons at once, else one by one, then stacked into batches),
matplotlib patches, and the degrees and spans that make a patch read back exactly.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from collide2d import _formats
from collide2d import shapes as _shapes
from collide2d._validate import is_real_scalar
from collide2d.table import ShapeTable


def _polygon_array(array):
    """The batch of an array of shapely polygons, read with shapely's vectorised functions: the
    same shapes as geometry by geometry (:func:`_shapes_of_geometries`), in a fraction of the time.

    Only plain cases are read here: every item a non-empty shapely ``Polygon`` without holes or z,
    the rings valid convex polygons whose vertices the ``Polygon`` keeps as they are (none dropped as
    repeated or on a straight run), not all quadrilaterals (rectangles are recognised one by one).
    Anything else returns None, for the geometry-by-geometry path and its messages.
    """
    try:
        import shapely
    except ImportError:
        return None
    flat = array.reshape(-1)
    if flat.size == 0 or not np.all(shapely.is_geometry(flat)):
        return None
    if not np.all(shapely.get_type_id(flat) == shapely.GeometryType.POLYGON):
        return None
    if np.any(shapely.is_empty(flat)) or np.any(shapely.has_z(flat)) or np.any(shapely.get_num_interior_rings(flat)):
        return None
    coordinates = shapely.get_coordinates(flat)  # each exterior ring, closed (its first vertex again)
    counts = shapely.get_num_coordinates(flat) - 1
    if counts.min() < 3 or counts.max() == 4:  # too few vertices (an error), or maybe rectangles
        return None
    starts = np.concatenate([[0], np.cumsum(counts + 1)[:-1]])
    largest = int(counts.max())
    # Each ring counter-clockwise (a clockwise ring read backwards, as the Polygon turns it), padded
    # to the largest count by repeating its last vertex: the rows _padded_polygons makes of the
    # polygons read one by one, when the Polygon keeps every vertex (checked below).
    step = np.minimum(np.arange(largest), counts[:, None] - 1)
    clockwise = ~shapely.is_ccw(shapely.get_exterior_ring(flat))
    gather = starts[:, None] + np.where(clockwise[:, None], counts[:, None] - 1 - step, step)
    rings = coordinates[gather]
    try:
        polygons = _shapes.Polygon(rings.reshape(array.shape + (largest, 2)))
    except ValueError:
        return None
    kept = np.arange(largest) < counts[:, None]
    table = ShapeTable(polygons)  # the vertices each polygon kept, and how many
    if not (np.array_equal(table.params[:, 1], counts) and np.array_equal(table.vertices, rings[kept])):
        return None  # a vertex dropped (repeated, or on a straight run): one by one
    return polygons


def _geometry_array(geometry):
    """``(object array, index labels or None)`` of a collection of geometries, None for one geometry."""
    if isinstance(geometry, np.ndarray):
        if geometry.dtype != object:
            raise TypeError(f"geometry: an array must hold shapely geometries (dtype object), got dtype {geometry.dtype}")
        return geometry, None
    if isinstance(geometry, (list, tuple)):
        try:
            return np.array(geometry, dtype=object), None
        except ValueError:
            raise TypeError("geometry: a nested list of geometries must be rectangular (as an array is)") from None
    if hasattr(geometry, "index") and hasattr(geometry, "to_numpy"):  # pandas or geopandas
        if getattr(geometry, "ndim", None) != 1:
            raise TypeError(f"geometry is a {type(geometry).__name__}: pass its geometry column (a Series)")
        index = geometry.index
        labels = None if _formats.is_default_index(index) else index
        return np.asarray(geometry.to_numpy(), dtype=object).reshape(-1), labels
    return None


def _position_name(shape, flat, labels):
    """How a message names the geometry at the C-order position ``flat`` of a collection."""
    where = ", ".join(map(str, np.unravel_index(flat, shape))) if len(shape) != 1 else str(flat)
    label = "" if labels is None else f" (index label {labels[flat]!r})"
    return f"geometry[{where}]{label}"


def _read_geometry(geometry, name):
    """The Point, Segment or Polygon of one geometry (rectangles not yet recognised); errors
    name it as ``name``."""
    interface = getattr(geometry, "__geo_interface__", None)
    if not isinstance(interface, dict) or "type" not in interface:
        raise TypeError(f"{name} must be a shapely geometry (or have __geo_interface__), got {type(geometry).__name__}")
    kind, coordinates = interface["type"], interface.get("coordinates")
    if kind not in ("Point", "LineString", "Polygon"):
        raise TypeError(f"{name} must be a Point, a LineString or a Polygon, got a {kind}")
    if coordinates is None or len(coordinates) == 0:
        raise ValueError(f"{name} is an empty {kind}")
    if kind == "Point":
        _check_planar([coordinates], kind, name)
    elif kind == "LineString":
        _check_planar(coordinates, kind, name)
    else:
        for ring in coordinates:
            _check_planar(ring, kind, name)
    try:
        if kind == "Point":
            return _shapes.Point(tuple(coordinates[:2]))
        if kind == "LineString":
            if len(coordinates) != 2:
                raise ValueError(f"a LineString must have exactly two points to be a Segment, got {len(coordinates)}")
            return _shapes.Segment(tuple(coordinates[0][:2]), tuple(coordinates[1][:2]))
        if len(coordinates) > 1:
            raise ValueError(f"a Polygon must have no holes, got {len(coordinates) - 1}")
        ring = np.asarray(coordinates[0], dtype=np.float64)[:, :2]
        if len(ring) > 1 and np.array_equal(ring[0], ring[-1]):  # a closed ring, as GeoJSON writes it
            ring = ring[:-1]
        return _shapes.Polygon(ring)
    except ValueError as error:
        raise ValueError(f"{name}: {_polygon_message(error)}") from None


def _shapes_of_geometries(read, shape):
    """One batch of ``shape`` (or a ShapeTable, for mixed kinds) of the shapes read from geometries."""
    if not read:
        return _batch_or_table(read)
    classes = {type(item) for item in read}
    if classes == {_shapes.Polygon}:
        singles = [_rectangle(item) for item in read]
        rectangles = {type(item) for item in singles}
        if len(rectangles) == 1 and rectangles != {_shapes.Polygon}:
            return _batch_of(singles, shape)
        return _padded_polygons(read, shape)
    if len(classes) == 1:
        return _batch_of(read, shape)
    return _batch_or_table([_rectangle(item) for item in read])


def _vertex_count_of(shape):
    return len(shape.vertices) if isinstance(shape, _shapes.Polygon) else 0


def _batch_of(singles, shape):
    """The batch of ``shape`` holding single shapes of one class (polygons of one vertex count),
    each bit for bit: built by the constructor from their fields, or for rotated boxes (whose
    corners were checked, not recomputed) from their stored rows and corners."""
    first = singles[0]
    if isinstance(first, _shapes.RotatedBox):
        fields = {name: np.stack([s.fields[name] for s in singles]).reshape(shape + field.shape) for name, field in first.fields.items()}
        params = np.empty(shape + (2,))
        params[..., 0] = 4.0 * np.arange(len(singles)).reshape(shape)  # four corners each, in order
        params[..., 1] = 4.0
        return _shapes._rebuild(type(first), fields, params, np.concatenate([s.corners for s in singles]))
    stacked = [np.stack([s.fields[name] for s in singles]) for name in first.fields]
    return type(first)(*(field.reshape(shape + field.shape[1:]) for field in stacked))


def _padded_polygons(polygons, shape):
    """One Polygon batch of ``shape``: the vertices of each, padded to the largest count by
    repeating its last vertex (a repeated vertex, which the constructor drops, keeping the first
    of the copies: the stored vertices are those given, from the same first one)."""
    largest = max(len(p.vertices) for p in polygons)
    padded = np.empty((len(polygons), largest, 2))
    for k, polygon in enumerate(polygons):
        count = len(polygon.vertices)
        padded[k, :count] = polygon.vertices
        padded[k, count:] = polygon.vertices[-1]
    return _shapes.Polygon(padded.reshape(shape + (largest, 2)))


def _check_planar(points, kind, name):
    """Refuse a z coordinate other than 0 (a geometry with z = 0 everywhere lies in the plane)."""
    for k, point in enumerate(points):
        for z in point[2:3]:  # GeoJSON positions are (x, y[, z]); shapely writes no m
            if not (is_real_scalar(z) and z == 0):
                raise ValueError(
                    f"{name}: the {kind} has the z coordinate {z!r} at vertex {k}; collide2d is planar and takes z = 0 only"
                )


def _polygon_message(error):
    text = str(error)
    return f"the Polygon's {text}" if text.startswith("vertices") else text


def _rectangle(polygon, **rounding):
    """A Box or RotatedBox with exactly the polygon's vertices, when there is one, else the polygon
    (and any other shape as it is); ``radius=r`` rounds the box (not the polygon given back)."""
    if not isinstance(polygon, _shapes.Polygon):
        return polygon
    v = polygon.vertices
    if len(v) != 4:
        return polygon
    xs, ys = np.unique(v[:, 0]), np.unique(v[:, 1])
    if len(xs) == 2 and len(ys) == 2:  # a convex quadrilateral on two x and two y values: a box
        return _shapes.Box((xs[0], ys[0]), (xs[1], ys[1]), **rounding)
    p = [(Fraction(x), Fraction(y)) for x, y in v.tolist()]
    edge = (p[1][0] - p[0][0], p[1][1] - p[0][1])
    next_edge = (p[2][0] - p[1][0], p[2][1] - p[1][1])
    parallelogram = p[0][0] + p[2][0] == p[1][0] + p[3][0] and p[0][1] + p[2][1] == p[1][1] + p[3][1]
    if not parallelogram or edge[0] * next_edge[0] + edge[1] * next_edge[1] != 0:
        return polygon
    center = (0.5 * (v[0] + v[2])).tolist()
    half_size = (0.5 * math.hypot(*(v[1] - v[0])), 0.5 * math.hypot(*(v[2] - v[1])))
    try:
        box = _shapes.RotatedBox(center, half_size, direction=tuple((v[1] - v[0]).tolist()), **rounding)
    except ValueError:
        return polygon
    corners = box.corners
    for shift in range(4):  # the same corners, in any cyclic order
        if np.array_equal(np.roll(corners, shift, axis=0), v):
            return box
    return polygon


_PATCH_TURNS_MAX = 2.0**20  # radians: above, a float of degrees turns by more than 2**-30 rad from theta


def _patch_degrees(theta, wx, wy):
    """The angle ``theta`` (radians) in degrees that :func:`from_patch` reads back as ``theta``
    when there is one; else ``math.degrees(theta)`` (within a few ulps of ``theta`` once converted
    back) while ``theta`` is moderate, and the degrees of the direction ``(wx, wy)`` beyond."""
    degrees = _formats.degrees_of(theta)
    if math.radians(degrees) == theta or abs(theta) <= _PATCH_TURNS_MAX:
        return degrees
    return math.degrees(math.atan2(wy, wx))


_SPAN_SEARCH = 4  # floats tried on each side of hi - lo


def _span(lo, hi):
    """A float ``w`` with ``lo + w == hi`` in float arithmetic (how matplotlib finds a rectangle's
    far side) when one is near ``hi - lo``, else ``hi - lo``. ``hi - lo`` itself is one when it is
    exact (Sterbenz: ``hi / 2 <= lo <= 2 hi``); otherwise its neighbours are tried."""
    width = hi - lo
    for toward in (math.inf, -math.inf):
        candidate = width
        for _ in range(_SPAN_SEARCH + 1):
            if lo + candidate == hi:
                return candidate
            candidate = math.nextafter(candidate, toward)
    return width


def _shape_of_patch(patch, name):
    from matplotlib import patches, path

    if not isinstance(patch, patches.Patch):
        raise TypeError(f"{name} must be a matplotlib patch (Circle, Ellipse, Rectangle, Polygon, PathPatch), got {type(patch).__name__}")
    _check_data_transform(patch, name)
    try:
        if isinstance(patch, patches.Circle):
            return _shapes.Circle(tuple(patch.center), patch.radius)
        if isinstance(patch, patches.Ellipse):
            radii = (0.5 * patch.width, 0.5 * patch.height)
            return _shapes.Ellipse(tuple(patch.center), radii, math.radians(patch.angle))
        if isinstance(patch, patches.Rectangle):
            return _rectangle_of_patch(patch)
        if isinstance(patch, patches.Polygon):
            xy = np.asarray(patch.get_xy(), dtype=np.float64)
            if patch.get_closed() and len(xy) > 1 and np.array_equal(xy[0], xy[-1]):
                xy = xy[:-1]
            return _shapes.Polygon(xy)
        if type(patch) is patches.PathPatch:
            drawn = patch.get_path()
            codes = drawn.codes
            if len(drawn.vertices) != 2 or not (codes is None or list(codes) == [path.Path.MOVETO, path.Path.LINETO]):
                raise TypeError(f"{name} is a PathPatch of other than one straight piece (two vertices), which no shape is")
            (x0, y0), (x1, y1) = np.asarray(drawn.vertices, dtype=np.float64).tolist()
            return _shapes.Segment((x0, y0), (x1, y1))
    except ValueError as error:
        raise ValueError(f"{name}: {error}") from None
    raise TypeError(f"{name} must be a Circle, Ellipse, Rectangle, Polygon or PathPatch patch, got {type(patch).__name__}")


def _rectangle_of_patch(patch):
    """The Box or RotatedBox of a matplotlib Rectangle (see :func:`from_patch`)."""
    (x0, y0), width, height = patch.get_xy(), patch.get_width(), patch.get_height()
    x0, y0, width, height, angle = (float(v) for v in (x0, y0, width, height, patch.angle))
    pivot = patch.rotation_point
    if angle == 0 and pivot == "xy":
        x1, y1 = x0 + width, y0 + height
        return _shapes.Box((min(x0, x1), min(y0, y1)), (max(x0, x1), max(y0, y1)))
    half = (0.5 * abs(width), 0.5 * abs(height))
    middle = (x0 + 0.5 * width, y0 + 0.5 * height)  # the centre before the turn
    if pivot == "center":
        center = middle
    else:
        px, py = (x0, y0) if pivot == "xy" else (float(pivot[0]), float(pivot[1]))
        if (px - 0.5 * width, py - 0.5 * height) == (x0, y0):  # to_patch's form: turned about its centre
            center = (px, py)
        else:  # the centre turned about the pivot, as matplotlib's transform does
            cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
            dx, dy = middle[0] - px, middle[1] - py
            center = (px + cos * dx - sin * dy, py + sin * dx + cos * dy)
    return _shapes.RotatedBox(center, half, math.radians(angle))


def _check_data_transform(patch, name):
    """Refuse a patch drawn with a transform other than none or its axes' data coordinates."""
    from matplotlib import artist, transforms

    if not patch.is_transform_set():
        return
    transform = artist.Artist.get_transform(patch)
    if isinstance(transform, transforms.IdentityTransform):
        return
    if patch.axes is not None and transform is patch.axes.transData:
        return
    raise ValueError(
        f"{name} is drawn with a transform other than data coordinates ({type(transform).__name__}); "
        "from_patch reads patches in data coordinates, without a transform of their own or with ax.transData"
    )


def _batch_or_table(singles):
    """One batch of single shapes all of one class (polygons padded to one vertex count), else a
    ShapeTable of runs of one class, in order."""
    if not singles:
        return ShapeTable([])
    classes = {type(item) for item in singles}
    if classes == {_shapes.Polygon}:
        return _padded_polygons(singles, (len(singles),))
    if len(classes) == 1:
        return _batch_of(singles, (len(singles),))
    runs = []
    for item in singles:  # runs of one class (and, for polygons, one vertex count)
        if runs and type(runs[-1][0]) is type(item) and _vertex_count_of(runs[-1][0]) == _vertex_count_of(item):
            runs[-1].append(item)
        else:
            runs.append([item])
    return ShapeTable([run[0] if len(run) == 1 else _batch_of(run, (len(run),)) for run in runs])


def _flat_items(shape):
    """The single shapes of a batch in C order."""
    flat = np.arange(shape.size).reshape(shape.shape)
    return [shape[np.unravel_index(k, shape.shape)] for k in flat.ravel().tolist()]


# -- a buffered geometry as a rounded shape (from_shapely(..., rounded=True)) ----------------------
#
# A buffer of a point, a segment or a convex polygon K by r (shapely's buffer, GEOS's
# OffsetCurveBuilder with round joins and caps) is the polygon whose boundary follows K's edges
# pushed out by r (the flats) and, about each vertex of K, an arc of radius r cut into equal
# chords whose ends lie on the circle (GEOS OffsetSegmentGenerator::addDirectedFillet). The fit:
# r is the smallest radius of the circles through three consecutive vertices (those of an arc's
# inner vertices, through three points of one circle; every other triple spans a flat, whose
# circle is larger); the edges whose ends lie on one such circle are chords, their centre a vertex
# of K; the other edges are flats, whose ends moved inward by r are vertices of K. The rounded
# shape K + r is then accepted only when it is within the tolerance of the polygon (the
# Hausdorff distance of two convex sets, the largest difference of their support functions,
# taken exactly over the arcs of directions where both keep one extreme vertex).

SAME_CIRCLE = 1e-6  # relative: a triple whose circle's radius is within this of the smallest is on an arc
MERGE = 1e-6  # relative to r: centres and flat ends closer than this are one vertex of the core
# of the fitted radius: shapely's buffers from quad_segs 4 on (within 0.019 r for the arcs cut into
# equal steps of a box, a capsule, a disc; 0.011 r for quad_segs 8 at worst, an arc of one chord);
# a plain polygon, bevelled or mitred corners, flat or square caps are 0.29 r and more away
DEFAULT_ROUNDED_TOLERANCE = 0.02


def _circumcircle(a, b, c):
    """Centre and radius of the circle through three points (radius inf when collinear)."""
    bx, by = b[0] - a[0], b[1] - a[1]
    cx, cy = c[0] - a[0], c[1] - a[1]
    # the products below are cubes of the lengths: far from 1 (a buffer of radius 1e140 or 1e-140)
    # they would overflow or underflow, so the offsets are scaled by a power of two (exact) first
    size = max(abs(bx), abs(by), abs(cx), abs(cy))
    exponent = math.frexp(size)[1] if size and not 2.0**-300 <= size <= 2.0**300 else 0
    bx, by, cx, cy = (math.ldexp(t, -exponent) for t in (bx, by, cx, cy))
    d = 2.0 * (bx * cy - by * cx)
    if d == 0.0:
        return None, math.inf
    b2, c2 = bx * bx + by * by, cx * cx + cy * cy
    ux, uy = math.ldexp((cy * b2 - by * c2) / d, exponent), math.ldexp((bx * c2 - cx * b2) / d, exponent)
    return (a[0] + ux, a[1] + uy), math.hypot(ux, uy)


def _merged(points, radius):
    """The core's vertices: consecutive points within ``MERGE * radius`` of each other (also the
    last and the first) as one, their mean."""
    groups = []
    for point in points:
        if groups and math.dist(groups[-1][0], point) <= MERGE * radius:
            groups[-1].append(point)
        else:
            groups.append([point])
    if len(groups) > 1 and math.dist(groups[-1][0], groups[0][0]) <= MERGE * radius:
        groups[0] = groups.pop() + groups[0]
    return np.array([np.mean(group, axis=0) for group in groups], dtype=np.float64).reshape(-1, 2)


def fit_rounded(vertices):
    """``(core, r)`` of the rounded shape a buffered convex polygon (``vertices`` counter-clockwise,
    straight-on vertices dropped) approximates: the core's vertices ``(m, 2)`` (one for a disc, two
    for a capsule), or None when no three consecutive vertices lie on a circle.

    The edges on the smallest circles through three consecutive vertices are chords, the others
    flats. Between two flats ``f`` and ``g`` an arc about a core vertex ``c``: the end ``J1`` of
    ``f`` and the start ``J2`` of ``g`` are ``c`` moved out by ``r`` along the flats' outward
    normals, so ``J1 + r n_f = J2 + r n_g`` (``n`` the inward unit normals) and ``r = (J2 - J1) .
    (n_f - n_g) / |n_f - n_g|^2``: exact for exact flats (a box's buffer gives its radius to the
    bit), where the circles through three points round much more. ``r`` is the median over the
    arcs, ``c`` the mean of ``J1 + r n_f`` and ``J2 + r n_g``. Without flats (a point's buffer) the
    centre is the mean of the vertices and ``r`` their median distance from it."""
    v = np.asarray(vertices, dtype=np.float64)
    points = [tuple(p) for p in v.tolist()]
    n = len(points)
    circles = [_circumcircle(points[i - 1], points[i], points[(i + 1) % n]) for i in range(n)]
    smallest = min(rho for _, rho in circles)
    if not math.isfinite(smallest) or smallest <= 0.0:
        return None
    on_arc = [rho <= smallest * (1.0 + SAME_CIRCLE) for _, rho in circles]
    flats = [j for j in range(n) if not (on_arc[j] or on_arc[(j + 1) % n])]  # edge j: v[j] -> v[j + 1]
    if not flats:  # all on one circle: a disc
        centre = v.mean(axis=0)
        return centre[None, :], float(np.median(np.hypot(*(v - centre).T)))
    edges = v[[(j + 1) % n for j in flats]] - v[flats]
    inward = np.stack([-edges[:, 1], edges[:, 0]], axis=-1) / np.hypot(edges[:, 0], edges[:, 1])[:, None]
    ends, starts = v[[(j + 1) % n for j in flats]], v[flats]
    following = np.roll(np.arange(len(flats)), -1)  # the next flat, across the arc between them
    turn = inward - inward[following]
    gap = starts[following] - ends
    size = np.sum(turn * turn, axis=1)
    estimates = np.sum(gap * turn, axis=1)[size > 0] / size[size > 0]
    radius = float(np.median(estimates)) if len(estimates) else smallest
    if not radius > 0.0:
        return None
    corners = 0.5 * ((ends + radius * inward) + (starts[following] + radius * inward[following]))
    return _merged([tuple(p) for p in corners.tolist()], radius), radius


def _normal_angles(points):
    """Directions (radians) of the outward normals of a convex polygon's edges (counter-clockwise
    vertices), of a segment's two sides, none for a point: where its extreme vertex changes."""
    if len(points) == 1:
        return np.zeros(0)
    if len(points) == 2:
        ex, ey = points[1] - points[0]
        return np.array([math.atan2(-ex, ey), math.atan2(ex, -ey)])
    edges = np.roll(points, -1, axis=0) - points
    return np.arctan2(-edges[:, 0], edges[:, 1])


def hausdorff_to_rounded(polygon, core, radius):
    """The Hausdorff distance between a convex polygon (counter-clockwise vertices) and the
    rounded shape ``core + disc(radius)``: the largest ``|h_S(u) - h_P(u)|`` over unit ``u``
    (support functions; for convex sets that is their Hausdorff distance). Between consecutive
    breaks (the normals of both) each keeps one extreme vertex ``p``, ``k``, and the difference
    ``(k - p) . u + r`` is a sinusoid of the angle: its extremes are at the ends or where ``u`` is
    parallel to ``k - p``."""
    polygon = np.asarray(polygon, dtype=np.float64)
    breaks = np.sort(np.mod(np.concatenate([_normal_angles(polygon), _normal_angles(core), [0.0]]), 2.0 * math.pi))
    ends = np.append(breaks, breaks[0] + 2.0 * math.pi)
    worst = 0.0
    for a, b in zip(ends[:-1].tolist(), ends[1:].tolist()):
        mid = 0.5 * (a + b)
        u = (math.cos(mid), math.sin(mid))
        p = polygon[int(np.argmax(polygon @ u))]
        k = core[int(np.argmax(core @ u))]
        d = k - p
        candidates = [a, b]
        if d.any():
            phi = math.atan2(d[1], d[0])
            for theta in (phi, phi + math.pi):
                theta = a + math.fmod(theta - a + 4.0 * math.pi, 2.0 * math.pi)
                if theta <= b:
                    candidates.append(theta)
        for theta in candidates:
            worst = max(worst, abs(d[0] * math.cos(theta) + d[1] * math.sin(theta) + radius))
    return worst


def rounded_of_polygon(polygon, tolerance, name):
    """The rounded shape within ``tolerance`` (None: ``DEFAULT_ROUNDED_TOLERANCE`` times its
    radius) of a polygon read from a buffered geometry: a :class:`~collide2d.Capsule` (``a == b``
    for a disc), else a box, rotated box or polygon with a radius; ValueError naming ``name``
    when there is none."""
    fit = fit_rounded(polygon.vertices)
    advice = "pass rounded=False for the polygon itself, or a larger tolerance"
    if fit is None:
        raise ValueError(f"{name}: no three consecutive vertices lie on a circle: not a buffered shape ({advice})")
    core, radius = fit
    limit = DEFAULT_ROUNDED_TOLERANCE * radius if tolerance is None else tolerance
    try:
        if len(core) <= 2:  # a disc, or a capsule from the end of smaller x (then y): the geometry has no order
            a, b = sorted(map(tuple, core.tolist()))[0], sorted(map(tuple, core.tolist()))[-1]
            shape = _shapes.Capsule(a, b, radius)
        else:
            shape = _rectangle(_shapes.Polygon(core), radius=radius)
            if type(shape) is _shapes.Polygon:
                shape = _shapes.Polygon(core, radius=radius)
    except ValueError as error:
        raise ValueError(f"{name}: not a buffered shape: the core found is refused ({error}); {advice}") from None
    off = hausdorff_to_rounded(polygon.vertices, core, radius)
    if not off <= limit:
        raise ValueError(
            f"{name}: not the buffer of a point, segment or convex polygon within the tolerance {limit:.6g}: the closest "
            f"rounded shape found, {shape!r}, is {off:.6g} from it; {advice}"
        )
    return shape


def _rounded_batch_or_table(singles, shape):
    """One batch of ``shape`` of the shapes read with ``rounded=True`` when they are all of one
    class with fields of one shape (a rotated box excepted, whose corners its fields need not
    give back), built from their fields; else a ShapeTable of them, in order."""
    if not singles:
        return ShapeTable([])
    first = singles[0]
    same = all(type(s) is type(first) and list(s.fields) == list(first.fields)
               and all(np.shape(s.fields[n]) == np.shape(first.fields[n]) for n in first.fields) for s in singles)
    if not same or isinstance(first, (_shapes.RotatedBox, _shapes.Line)):
        return ShapeTable(singles)
    fields = {name: np.stack([s.fields[name] for s in singles]) for name in first.fields}
    return type(first)(**{name: value.reshape(shape + value.shape[1:]) for name, value in fields.items()})
