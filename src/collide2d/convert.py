"""Conversions to and from the shapes of other libraries, with their conventions spelled out.

Every library holds an ellipse differently. collide2d: the centre, the *semi*-axes (``radii``) and
the angle in *radians*, counter-clockwise from +x in a plane whose y axis points *up*.

=================  ==========================  =========  ===============  ==========================
library            axes                        angle      y axis           collide2d
=================  ==========================  =========  ===============  ==========================
shapely            polygon (no ellipse)        --         any              :func:`to_shapely`,
                                                                           :func:`from_shapely`
GeoJSON            polygon (no ellipse)        --         any              ``shape.__geo_interface__``
matplotlib         full width and height       degrees    up (data axes)   :func:`to_patch`,
                                                                           :func:`from_patch`
OpenCV             full width and height       degrees    down (image)     ``Ellipse.from_opencv``
astropy regions    full width and height       Quantity   up (pixels)      ``Ellipse.from_astropy``
scikit-image       semi-axes                   radians    as given (x, y)  ``Ellipse.from_skimage``
pygame             ``Rect(x, y, w, h)``        --         down (screen)    ``Box.from_pygame``
pandas             columns (see below)         radians    any              ``ShapeTable.from_dataframe``
=================  ==========================  =========  ===============  ==========================

A y-down library (an image, a screen) is converted without flipping: the coordinates keep their
numbers, so the shapes cover the same pixels, and an angle keeps its value. Its sense is the same
formula in both: the first axis points along ``(cos angle, sin angle)``, from +x towards +y. On a
y-down screen that turn looks clockwise, in collide2d's y-up plots counter-clockwise.

The optional libraries are imported only inside the functions that need them; ``import collide2d``
imports none of them.

Why this file is over 800 lines: it is the public page of every conversion, one section per library
as in the table above, each function the conventions of one library spelled out around the readers
of :mod:`collide2d._formats` and :mod:`collide2d._foreign`; the sections share nothing but the
shape checks, and a user compares them side by side.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from collide2d import _formats
from collide2d._glue import rounded as _rounded
from collide2d import shapes as _shapes
from collide2d._glue import run
from collide2d._foreign import (
    _batch_or_table, _flat_items, _geometry_array, _patch_degrees, _polygon_array, _position_name, _read_geometry,
    _rectangle, _rounded_batch_or_table, _shape_of_patch, _shapes_of_geometries, _span, rounded_of_polygon,
)
if TYPE_CHECKING:
    from numpy.typing import ArrayLike

__all__ = [
    "box_from_pygame",
    "ellipse_from_astropy",
    "ellipse_from_opencv",
    "ellipse_from_skimage",
    "from_patch",
    "rounded_path",
    "from_shapely",
    "geo_interface",
    "pair_measures_to_dataframe",
    "rotated_box_from_astropy",
    "rotated_box_from_opencv",
    "table_from_dataframe",
    "table_to_dataframe",
    "to_opencv",
    "to_patch",
    "to_shapely",
]

DEFAULT_RELATIVE_TOLERANCE = _formats.DEFAULT_RELATIVE_TOLERANCE  # of the larger radius (see to_shapely)


def _check_shape(shape):
    if not isinstance(shape, _shapes.Shape):
        raise TypeError(f"shape must be a collide2d shape (Point, Circle, Ellipse, ...), got {type(shape).__name__}")


# -- shapely and GeoJSON ----------------------------------------------------------------------------


def _tolerance(tolerance):
    """The ``tolerance`` of :func:`to_shapely` and :func:`geo_interface`: None, or a positive finite
    real number (not a bool or a string), checked whether or not the shape has a curve to use it."""
    if tolerance is None:
        return None
    tolerance = _formats.real_value(tolerance, "tolerance")
    if not (0.0 < tolerance < math.inf):
        raise ValueError(f"tolerance must be a positive finite number, got {tolerance!r}")
    return tolerance


def to_shapely(shape: _shapes.Shape, *, tolerance: float | None = None) -> Any:
    """Return the shape as a shapely geometry (an array of them for a batch).

    A point becomes a ``Point``, a segment a two-point ``LineString``, a box, rotated box or
    polygon a ``Polygon`` of its stored vertices (the same set exactly). A circle or ellipse
    becomes the *inscribed* polygon: its vertices lie on the curve (up to the rounding of their
    float coordinates) at equal steps of the ellipse's parameter, enough of them for the polygon's
    boundary to be within ``tolerance`` of the curve (Hausdorff distance). The polygon therefore
    lies inside the ellipse, and its area is smaller by at most ``tolerance`` times the perimeter.

    Parameters
    ----------
    shape : Shape
        A single shape or a batch; a :class:`~collide2d.Line` (infinite) cannot be converted.
    tolerance : float, optional
        Largest distance between a curve and its polygon, in the shape's units; by default
        ``1e-3`` times the larger radius of each ellipse. At least ``1e-12`` times the larger radius.

    Returns
    -------
    shapely.Geometry or ndarray of object
        For a batch, an array of the batch shape (shapely's vectorised form).

    Raises
    ------
    ValueError
        For a line, or a tolerance that is not positive or too small.
    ImportError
        When shapely is not installed.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.to_shapely(c2.Box((0, 0), (2, 1))).wkt
    'POLYGON ((0 0, 2 0, 2 1, 0 1, 0 0))'
    >>> disc = c2.to_shapely(c2.Circle((0, 0), 1), tolerance=1e-4)
    >>> len(disc.exterior.coords) - 1, round(disc.area, 6)  # inscribed: slightly below pi
    (223, 3.141177)
    >>> c2.to_shapely(c2.Point([(0, 0), (1, 2)])).tolist()
    [<POINT (0 0)>, <POINT (1 2)>]
    """
    import shapely

    _check_shape(shape)
    tolerance = _tolerance(tolerance)
    if _rounded.is_rounded(shape):  # inscribed polygons of the outlines
        return _rounded.to_shapely(shape, tolerance)
    kind, coordinates = _formats.flat_coordinates(run.shape_rows(shape), tolerance)
    if kind == "point":
        out = shapely.points(np.reshape(coordinates, (-1, 2)))
    elif kind == "segment":
        out = shapely.linestrings(np.reshape(coordinates, (-1, 2, 2)))
    else:
        counts = np.array([len(ring) + 1 for ring in coordinates], dtype=np.int64)
        closed = np.concatenate([np.concatenate([ring, ring[:1]]) for ring in coordinates]) if coordinates else np.zeros((0, 2))
        offsets = np.concatenate([[0], np.cumsum(counts)])
        out = shapely.from_ragged_array(
            shapely.GeometryType.POLYGON, closed, (offsets, np.arange(len(counts) + 1, dtype=np.int64))
        )
    return out[0] if not shape.shape else out.reshape(shape.shape)


def geo_interface(shape: _shapes.Shape, *, tolerance: float | None = None) -> dict[str, Any]:
    """Return the GeoJSON-like mapping of a shape (what ``shape.__geo_interface__`` gives).

    The geometries are those of :func:`to_shapely` (an ellipse becomes its inscribed polygon, a
    closed counter-clockwise ring as RFC 7946 asks), written without shapely. A batch becomes a
    ``GeometryCollection`` of its shapes in C order.

    Parameters
    ----------
    shape : Shape
        Single shape or batch; not a line, nor a rounded shape (a ``TypeError``, as for
        ``shape.__geo_interface__``).
    tolerance : float, optional
        As for :func:`to_shapely`.

    Returns
    -------
    dict

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Segment((0, 0), (1, 2)).__geo_interface__
    {'type': 'LineString', 'coordinates': ((0.0, 0.0), (1.0, 2.0))}
    >>> c2.Box((0, 0), (1, 1)).__geo_interface__["coordinates"]
    (((0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0), (0.0, 0.0)),)
    """
    _check_shape(shape)
    tolerance = _tolerance(tolerance)
    if _rounded.is_rounded(shape):  # as shape.__geo_interface__ says
        raise TypeError(
            f"a rounded {type(shape).__name__} has no GeoJSON geometry (not implemented): "
            "to_shapely(shape).__geo_interface__ gives that of its inscribed polygon"
        )
    return _formats.geo_mapping(run.shape_rows(shape), tolerance)


def from_shapely(geometry: Any, *, rounded: bool = False, tolerance: float | None = None) -> Any:
    """Return the collide2d shape of a shapely geometry (or any object with ``__geo_interface__``),
    or the shapes of many: a NumPy array of geometries (any shape, as :func:`to_shapely` returns
    for a batch), a list of them, or a pandas or geopandas ``GeoSeries``.

    * a ``Point`` becomes a :class:`~collide2d.Point`;
    * a ``LineString`` of two distinct points a :class:`~collide2d.Segment`;
    * a convex ``Polygon`` without holes a :class:`~collide2d.Box` when it is an axis-aligned
      rectangle, a :class:`~collide2d.RotatedBox` when it is a rectangle whose corners a rotated
      box stores exactly, else a :class:`~collide2d.Polygon`.

    The shape is exactly the geometry's point set: a rotated rectangle whose corners a
    :class:`~collide2d.RotatedBox` would round differently stays a :class:`~collide2d.Polygon`.
    Vertices where the boundary goes straight on, and repeated ones, are dropped. collide2d is
    planar: a geometry with z coordinates is accepted only when every z is 0 (the plane z = 0,
    which is then dropped); any other z is refused, as dropping it would change the shape.

    Many geometries give one batch of the array's shape when they all map to one class by these
    rules: points a ``Point`` batch, segments a ``Segment`` batch, polygons a ``Box`` batch when
    every one is an axis-aligned rectangle, a ``RotatedBox`` batch when every one is a rotated
    rectangle, and otherwise one ``Polygon`` batch of them all (rectangles included, with their
    vertices as given; polygons of fewer vertices than the most are padded by repeating their last
    vertex, which the polygon drops, so each shape is still exactly its geometry). Geometries of
    mixed kinds (points, segments and polygons together) give a :class:`~collide2d.ShapeTable`,
    shape ``k`` the ``k``-th geometry in C order, converted as on its own (``table[k]`` is
    ``from_shapely(geometries.flat[k])``). No geometries give an empty ``ShapeTable``. So
    ``from_shapely(to_shapely(batch))`` gives back a batch of points, segments, boxes or polygons
    bit for bit (a polygon batch of rectangles only comes back as boxes); circles and ellipses come
    back as the polygons :func:`to_shapely` made of them. An array of plain polygons (convex, no
    holes, no vertex to drop) is read at once with shapely's vectorised functions; any other
    collection geometry by geometry, to the same shapes.

    With ``rounded=True`` a polygon is read as the buffer of a point, a segment or a convex
    polygon (``shapely.buffer`` with round joins and caps, at any ``quad_segs``): the polygon
    whose corners are arcs cut into chords. The fit: the radius ``r`` is that of the smallest
    circle through three consecutive vertices (the arcs' vertices lie on circles of radius ``r``),
    the edges on such a circle are chords whose centre is a vertex of the core, the others are the
    core's edges pushed out by ``r``. The result is a :class:`~collide2d.Capsule` (the buffer of a
    segment; ``a == b`` for a point's), else a :class:`~collide2d.Box`, :class:`~collide2d.RotatedBox`
    or :class:`~collide2d.Polygon` (chosen as above) with ``radius=r``; a capsule's ``a`` is the end
    of smaller x (then y). It is given only when the
    polygon lies within ``tolerance`` of it (Hausdorff distance, computed exactly from the support
    functions); otherwise ``ValueError``: the polygon is not such a buffer (a plain polygon, a
    buffer with flat or square caps or mitred joins, a fillet of one chord, where a corner turns
    less than one of the buffer's steps, may be too). A buffer's chords lie within
    ``r (1 - cos(h / 2))`` of its arcs, ``h`` their angle: GEOS cuts an arc of angle ``a`` into
    ``round(a / q)`` equal chords, ``q = pi / (2 quad_segs)``, so ``h = q`` for a disc, a capsule's
    caps and a box's corners and at most ``1.5 q`` otherwise: ``0.0048 r`` (``0.011 r`` at worst)
    for shapely's default ``quad_segs=8``, ``0.019 r`` (``0.043 r``) for 4. The default tolerance,
    ``0.02 r``, takes them from ``quad_segs=4`` on for boxes, capsules and discs and from 8 on for
    any core; a plain polygon, bevelled or mitred corners and flat or square caps are ``0.29 r``
    and more away. Points and line strings are read as without ``rounded``.

    Parameters
    ----------
    geometry : shapely.Geometry, object with ``__geo_interface__``, or a collection of them
        A collection is a NumPy array of dtype object, a list (or tuple, possibly nested) or a
        pandas/geopandas Series; a ``GeoDataFrame`` is refused (pass its ``geometry`` column).
    rounded : bool, default False
        Read polygons as buffered (rounded) shapes, as above.
    tolerance : float, optional
        With ``rounded``: the largest distance allowed between the polygon and the rounded
        shape; by default 0.02 times the radius found.

    Returns
    -------
    Shape or ShapeTable
        A single shape for one geometry; for a collection a batch of its shape, or a table.

    Raises
    ------
    TypeError
        For other geometry types (multi-part geometries, collections) and non-geometries
        (``None``, a missing geometry, included), naming the position of the geometry in a
        collection (``geometry[1, 2]``, and the index label of a Series).
    ValueError
        For empty geometries, line strings of other than two distinct points, polygons with
        holes or not convex, non-finite coordinates, and z coordinates other than 0; named so too.
        With ``rounded``, for a polygon not within ``tolerance`` of a rounded shape.

    Examples
    --------
    >>> import shapely
    >>> import collide2d as c2
    >>> c2.from_shapely(shapely.box(0, 0, 2, 1))
    Box(min=(0.0, 0.0), max=(2.0, 1.0))
    >>> c2.from_shapely(shapely.LineString([(0, 0), (3, 4)]))
    Segment(start=(0.0, 0.0), end=(3.0, 4.0))
    >>> c2.from_shapely(shapely.Polygon([(0, 0), (4, 0), (0, 3)])).vertices.tolist()
    [[0.0, 0.0], [4.0, 0.0], [0.0, 3.0]]
    >>> c2.from_shapely(shapely.Polygon([(0, 0), (2, 0), (1, 1), (2, 2), (0, 2)]))
    Traceback (most recent call last):
    ...
    ValueError: geometry: the Polygon's vertices must be convex...
    >>> c2.from_shapely(shapely.Point(1, 2, 0))  # z = 0: in the plane
    Point(xy=(1.0, 2.0))
    >>> c2.from_shapely(shapely.Point(1, 2, 3))
    Traceback (most recent call last):
    ...
    ValueError: geometry: the Point has the z coordinate 3.0 at vertex 0; collide2d is planar and takes z = 0 only
    >>> c2.from_shapely(c2.to_shapely(c2.Box([(0, 0), (5, 5)], [(1, 1), (6, 7)])))  # an array
    <Box batch of shape (2,)>
    >>> c2.from_shapely([shapely.Point(0, 0), shapely.box(0, 0, 1, 1)])
    <ShapeTable of 2 shapes: 1 polygon, 1 point>
    >>> c2.from_shapely([shapely.Point(0, 0), shapely.MultiPoint([(0, 0), (1, 1)])])
    Traceback (most recent call last):
    ...
    TypeError: geometry[1] must be a Point, a LineString or a Polygon, got a MultiPoint
    >>> c2.from_shapely(shapely.LineString([(0, 0), (2, 0)]).buffer(0.5), rounded=True)  # doctest: +ELLIPSIS
    Capsule(a=(0.0, 0.0), b=(2.0, 0.0), radius=0.5...)
    >>> c2.from_shapely(shapely.box(0, 0, 2, 1).buffer(0.25), rounded=True)
    Box(min=(0.0, 0.0), max=(2.0, 1.0), radius=0.25)
    >>> c2.from_shapely(shapely.box(0, 0, 2, 1), rounded=True)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: geometry: not the buffer of a point, segment or convex polygon within the tolerance 0.0223607: ...
    """
    if not isinstance(rounded, (bool, np.bool_)):
        raise TypeError(f"rounded must be True or False, got {type(rounded).__name__}")
    if tolerance is not None:
        tolerance = _formats.real_value(tolerance, "tolerance")
        if not (0.0 < tolerance < math.inf):
            raise ValueError(f"tolerance must be a positive finite number, got {tolerance!r}")
    if not rounded and tolerance is not None:
        raise ValueError("tolerance applies with rounded=True only")
    collection = _geometry_array(geometry)
    if collection is None:
        shape = _read_geometry(geometry, "geometry")
        if rounded and isinstance(shape, _shapes.Polygon):
            return rounded_of_polygon(shape, tolerance, "geometry")
        return _rectangle(shape)
    array, labels = collection
    if rounded:
        singles = []
        for k, item in enumerate(array.flat):
            name = _position_name(array.shape, k, labels)
            shape = _read_geometry(item, name)
            singles.append(rounded_of_polygon(shape, tolerance, name) if isinstance(shape, _shapes.Polygon) else shape)
        return _rounded_batch_or_table(singles, array.shape)
    
    fast = _polygon_array(array)
    if fast is not None:
        return fast
    read = [_read_geometry(item, _position_name(array.shape, k, labels)) for k, item in enumerate(array.flat)]
    return _shapes_of_geometries(read, array.shape)


# -- matplotlib -------------------------------------------------------------------------------------


def to_patch(shape: _shapes.Shape, **kwargs: Any) -> Any:
    """Return a matplotlib patch of the shape (a ``PatchCollection`` for a batch).

    matplotlib's ``Ellipse`` takes the *full* width and height and the angle in *degrees*
    (counter-clockwise on y-up axes); a circle becomes a ``Circle``, a box a ``Rectangle``, a
    rotated box a ``Rectangle`` turned about its centre (given as ``rotation_point``), a polygon a
    ``Polygon``, a segment an unfilled ``PathPatch``. The patch is in data coordinates: add it with
    ``ax.add_patch(patch)`` (then ``ax.autoscale_view()``, as patches do not change the limits).
    :func:`from_patch` is the inverse.

    The numbers are chosen so that :func:`from_patch` gives the shape back: a box's width is a
    float with ``x0 + width == x1`` (what matplotlib computes) whenever one exists, and an angle
    the float of degrees whose ``math.radians`` is the shape's ``angle`` whenever one exists (the
    shortest, as :meth:`to_opencv <collide2d.Ellipse.to_opencv>` gives it: ``30.0`` for
    ``math.radians(30)``), else the degrees of the stored direction.

    Parameters
    ----------
    shape : Shape
        A single shape or a batch; not a point or a line (no patch has their form: use
        ``ax.plot`` or ``ax.axline``).
    **kwargs
        Passed to the patch (``facecolor``, ``edgecolor``, ``alpha``, ...); for a batch, to the
        ``PatchCollection``.

    Returns
    -------
    matplotlib.patches.Patch or matplotlib.collections.PatchCollection

    Raises
    ------
    TypeError
        For a point or a line.
    ImportError
        When matplotlib is not installed.

    Examples
    --------
    >>> import math
    >>> import collide2d as c2
    >>> patch = c2.to_patch(c2.Ellipse((1, 2), (3, 1), angle=math.pi / 6), facecolor="none")
    >>> patch.center, patch.width, patch.height, round(patch.angle, 9)
    ((1.0, 2.0), 6.0, 2.0, 30.0)
    >>> box = c2.to_patch(c2.Box((0, 0), (2, 1)))
    >>> box.get_xy(), box.get_width(), box.get_height()
    ((0.0, 0.0), 2.0, 1.0)
    """
    from matplotlib import collections, patches, path

    _check_shape(shape)
    if isinstance(shape, (_shapes.Point, _shapes.Line)):
        raise TypeError(f"shape is a {type(shape).__name__}, which has no matplotlib patch: draw it with ax.plot or ax.axline")
    if shape.shape:
        return collections.PatchCollection([to_patch(item) for item in _flat_items(shape)], **kwargs)
    if _rounded.is_rounded(shape):  # the outline's straight stretches and arcs
        return patches.PathPatch(rounded_path(shape), **kwargs)
    fields = {name: value.tolist() for name, value in shape.fields.items()}  # Python floats
    if isinstance(shape, _shapes.Circle):
        return patches.Circle(tuple(fields["center"]), fields["radius"], **kwargs)
    if isinstance(shape, _shapes.Ellipse):
        (a, b), (wx, wy) = fields["radii"], shape.direction.tolist()
        angle = _patch_degrees(fields["angle"], wx, wy)
        return patches.Ellipse(tuple(fields["center"]), 2.0 * a, 2.0 * b, angle=angle, **kwargs)
    if isinstance(shape, _shapes.Box):
        (x0, y0), (x1, y1) = fields["min"], fields["max"]
        return patches.Rectangle((x0, y0), _span(x0, x1), _span(y0, y1), **kwargs)
    if isinstance(shape, _shapes.RotatedBox):
        (cx, cy), (hx, hy) = fields["center"], fields["half_size"]
        (x0, y0), (x1, y1) = shape.corners[:2].tolist()  # the first edge runs along the box's own x axis
        angle = _patch_degrees(fields["angle"], x1 - x0, y1 - y0)
        return patches.Rectangle((cx - hx, cy - hy), 2.0 * hx, 2.0 * hy, angle=angle, rotation_point=(cx, cy), **kwargs)
    if isinstance(shape, _shapes.Polygon):
        return patches.Polygon(shape.vertices, closed=True, **kwargs)
    kwargs.setdefault("fill", False)
    return patches.PathPatch(path.Path(np.stack([shape.fields["start"], shape.fields["end"]])), **kwargs)


ARC_STEP_DEGREES = 15.0  # the widest arc of one cubic Bezier piece in rounded_path


def _rounded_core(shape):
    """The core of a single rounded shape as counter-clockwise vertices ``(k, 2)`` (1, 2 or more)
    and its radius, from the public fields."""
    fields = shape.fields
    r = float(fields["radius"])
    if isinstance(shape, _shapes.Capsule):
        a, b = fields["a"], fields["b"]
        return (a[None] if np.array_equal(a, b) else np.stack([a, b])), r
    if isinstance(shape, _shapes.Box):
        (x0, y0), (x1, y1) = fields["min"].tolist(), fields["max"].tolist()
        return np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]), r
    if isinstance(shape, _shapes.RotatedBox):
        return np.asarray(shape.corners, dtype=np.float64), r
    return np.asarray(fields["vertices"], dtype=np.float64), r


def rounded_path(shape: _shapes.Shape) -> Any:
    """The boundary of a single rounded shape (a :class:`~collide2d.Capsule`, or a polygon or box
    with ``radius > 0``) as a closed :class:`matplotlib.path.Path`: the core's edges moved out by
    the radius (straight, exact) joined by circular arcs about the core's vertices.

    Each arc is drawn as cubic Bezier pieces of at most ``ARC_STEP_DEGREES`` (matplotlib's
    :meth:`~matplotlib.path.Path.arc`): such a piece strays from its circle by less than ``1e-7``
    times the radius (the error of the cubic approximation falls as the sixth power of the angle;
    ``tests/apps/test_rounded_draw.py`` checks the bound against the distance to the core).

    Examples
    --------
    >>> import collide2d as c2
    >>> from collide2d.convert import rounded_path
    >>> path = rounded_path(c2.Box((0, 0), (2, 1), radius=0.5))
    >>> [round(float(x), 12) for x in path.get_extents().bounds]
    [-0.5, -0.5, 3.0, 2.0]
    """
    from matplotlib.path import Path

    _check_shape(shape)
    if not _rounded.is_rounded(shape):
        raise TypeError(
            f"shape must be a rounded shape (a Capsule, or a polygon or box given a radius), got a {type(shape).__name__}"
        )
    if shape.shape:
        raise ValueError(f"shape must be a single shape, got a batch of shape {shape.shape}: take its elements (shape[i])")
    v, r = _rounded_core(shape)
    if len(v) == 1:
        arcs = [(v[0], 0.0, 360.0)]
    else:
        e = np.roll(v, -1, axis=0) - v
        normal = np.degrees(np.arctan2(-e[:, 0], e[:, 1]))  # outward normal of each edge (ey, -ex)
        arcs = []
        for i in range(len(v)):
            start = normal[i - 1]
            turn = 180.0 if len(v) == 2 else (normal[i] - start) % 360.0
            arcs.append((v[i], start, start + turn))
    vertices, codes = [], []
    for k, (centre, theta1, theta2) in enumerate(arcs):
        n = max(1, math.ceil((theta2 - theta1) / ARC_STEP_DEGREES))
        arc = Path.arc(theta1, theta2, n)
        vertices.append(centre + r * arc.vertices)
        piece = np.array(arc.codes)
        piece[0] = Path.MOVETO if k == 0 else Path.LINETO  # the straight stretch from the last arc
        codes.append(piece)
    vertices.append(vertices[0][:1])
    codes.append(np.array([Path.CLOSEPOLY], dtype=codes[0].dtype))
    return Path(np.concatenate(vertices), np.concatenate(codes))


def from_patch(patch: Any) -> Any:
    """Return the collide2d shape of a matplotlib patch (the inverse of :func:`to_patch`), or of
    a list of patches.

    * a ``Circle`` becomes a :class:`~collide2d.Circle` (``center``, ``radius``);
    * an ``Ellipse`` an :class:`~collide2d.Ellipse`: radii half the width and height, ``angle``
      the patch's degrees converted by ``math.radians``;
    * a ``Rectangle`` a :class:`~collide2d.Box` when it is not turned (``angle == 0``) about its
      corner ``xy`` (the default ``rotation_point``), else a :class:`~collide2d.RotatedBox` about
      its centre: the ``rotation_point`` itself when the corner ``xy`` is that point less half the
      size (as :func:`to_patch` writes it), else the turned centre computed in float;
    * a ``Polygon`` a :class:`~collide2d.Polygon` of its vertices (convex; the closing vertex of a
      closed polygon dropped);
    * a ``PathPatch`` of one straight piece (two vertices) a :class:`~collide2d.Segment`.

    ``from_patch(to_patch(shape))`` gives back a circle, box, polygon or segment bit for bit, and
    an ellipse or rotated box given by an angle whenever some float of degrees converts to that
    angle (always for angles made from degrees, as ``from_opencv`` and ``degrees=True`` make
    them; otherwise the stored direction turns by about an ulp, as degrees cannot hold every
    angle of radians). A list of patches gives a batch when they are all of one class (polygons
    of different vertex counts padded as in :func:`from_shapely`), else a
    :class:`~collide2d.ShapeTable`; a ``PatchCollection`` (what :func:`to_patch` makes of a batch)
    keeps only the drawn paths and is refused: convert the shapes one by one,
    ``[c2.to_patch(s) for s in batch]``.

    Parameters
    ----------
    patch : matplotlib.patches.Patch or list of them
        In data coordinates: drawn without a transform of its own, or with its axes' ``transData``.

    Returns
    -------
    Shape or ShapeTable

    Raises
    ------
    TypeError
        For other patch classes, a ``PatchCollection``, a ``PathPatch`` of other than one
        straight piece, and non-patches (a list names the position: ``patch[2]``).
    ValueError
        For a patch drawn with another transform (axes or figure coordinates, a rotation added
        by ``set_transform``, ...), and for numbers that make no shape (a zero width, a polygon
        that is not convex).

    Examples
    --------
    >>> import math
    >>> import collide2d as c2
    >>> e = c2.Ellipse((1, 2), (3, 1), angle=math.radians(30))
    >>> patch = c2.to_patch(e)
    >>> patch.angle
    30.0
    >>> back = c2.from_patch(patch)
    >>> back.angle == e.angle, back.direction.tolist() == e.direction.tolist()
    (True, True)
    >>> from matplotlib.patches import Rectangle
    >>> c2.from_patch(Rectangle((0, 0), 2, 1))
    Box(min=(0.0, 0.0), max=(2.0, 1.0))
    >>> c2.from_patch([c2.to_patch(c2.Circle((0, 0), 1)), c2.to_patch(c2.Circle((3, 0), 2))])
    <Circle batch of shape (2,)>
    """
    from matplotlib import collections

    if isinstance(patch, collections.PatchCollection):
        raise TypeError(
            "patch is a PatchCollection, which keeps only the drawn paths (an ellipse as Bezier curves): "
            "pass the list of patches instead, [c2.to_patch(s) for s in batch]"
        )
    if isinstance(patch, (list, tuple)):
        singles = [_shape_of_patch(item, f"patch[{k}]") for k, item in enumerate(patch)]
        return _batch_or_table(singles)
    return _shape_of_patch(patch, "patch")


# -- OpenCV -----------------------------------------------------------------------------------------


def ellipse_from_opencv(rotated_rect: Any) -> _shapes.Ellipse:
    """Return the ellipse of OpenCV's ``((cx, cy), (width, height), angle)`` (what
    ``cv2.fitEllipse`` returns and ``cv2.ellipse`` draws).

    OpenCV gives *full* axes and the angle in *degrees*, in image coordinates (x to the right,
    y *down*). The width's axis points along ``(cos angle, sin angle)`` in those coordinates (on the
    screen: clockwise from +x). The ellipse keeps the image coordinates, so it covers the same
    pixels: ``radii = (width / 2, height / 2)`` and ``angle = radians(angle)``. Drawn in a y-up
    plot (as collide2d's plots are) the image appears upside down.

    Parameters
    ----------
    rotated_rect : tuple or sequence of tuples
        ``((cx, cy), (width, height), angle_degrees)``; a sequence of them gives a batch.

    Returns
    -------
    Ellipse

    Raises
    ------
    TypeError
        When ``rotated_rect`` does not have that form, or holds something other than real
        numbers (a string or a bool, which ``float()`` would read, is refused).
    ValueError
        For a width or height that is not positive, or non-finite numbers.

    Examples
    --------
    >>> import collide2d as c2
    >>> e = c2.Ellipse.from_opencv(((320.0, 240.0), (100.0, 40.0), 90.0))
    >>> e.radii.tolist(), e.direction.tolist()
    ([50.0, 20.0], [0.0, 1.0])
    >>> e.to_opencv()
    ((320.0, 240.0), (100.0, 40.0), 90.0)
    """
    return _shapes.Ellipse.from_opencv(rotated_rect)


def rotated_box_from_opencv(rotated_rect: Any) -> _shapes.RotatedBox:
    """Return the rotated box of OpenCV's ``RotatedRect`` ``((cx, cy), (width, height), angle)``
    (what ``cv2.minAreaRect`` returns and ``cv2.boxPoints`` turns into corners).

    The same conventions as :meth:`Ellipse.from_opencv <collide2d.Ellipse.from_opencv>`: full
    sizes, degrees, image coordinates kept (y down), so that the corners are those of
    ``cv2.boxPoints`` (in another order).

    Parameters
    ----------
    rotated_rect : tuple or sequence of tuples
        ``((cx, cy), (width, height), angle_degrees)``; a sequence of them gives a batch.

    Returns
    -------
    RotatedBox

    Examples
    --------
    >>> import collide2d as c2
    >>> box = c2.RotatedBox.from_opencv(((10.0, 10.0), (4.0, 2.0), 90.0))
    >>> box.corners.tolist()
    [[11.0, 8.0], [11.0, 12.0], [9.0, 12.0], [9.0, 8.0]]
    """
    return _shapes.RotatedBox.from_opencv(rotated_rect)


def to_opencv(shape: _shapes.Shape) -> Any:
    """Return OpenCV's ``((cx, cy), (width, height), angle_degrees)`` of an ellipse, circle or
    rotated box (a list of them, C order, for a batch).

    The inverse of ``from_opencv``: full sizes, the shape's ``angle`` field in degrees, the
    coordinates unchanged. ``cv2.ellipse`` and ``cv2.boxPoints`` accept the tuple (drawing
    wants integers: round the centre and sizes first). The degrees round-trip: when the angle was
    made from degrees ``d`` (``from_opencv`` computes ``math.radians(d)``, a rounded product),
    ``d`` is given back exactly, as long as no other float converts to the same radians (then
    the one with the shortest decimal form, such as a whole degree).

    Parameters
    ----------
    shape : Ellipse, Circle or RotatedBox

    Returns
    -------
    tuple or list of tuples

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.RotatedBox((5, 5), (2, 1), angle=0.0).to_opencv()
    ((5.0, 5.0), (4.0, 2.0), 0.0)
    >>> c2.Circle((1, 2), 3).to_opencv()
    ((1.0, 2.0), (6.0, 6.0), 0.0)
    >>> c2.Ellipse.from_opencv(((320.0, 240.0), (100.0, 40.0), 30.0)).to_opencv()  # math.degrees gives 29.999999999999996
    ((320.0, 240.0), (100.0, 40.0), 30.0)
    """
    _check_shape(shape)
    if not isinstance(shape, (_shapes.Circle, _shapes.Ellipse, _shapes.RotatedBox)):
        raise TypeError(f"shape must be an Ellipse, Circle or RotatedBox, got {type(shape).__name__}")
    return shape.to_opencv()


# -- astropy regions and scikit-image --------------------------------------------------------------


def ellipse_from_astropy(region: Any) -> _shapes.Ellipse | _shapes.Circle:
    """Return the ellipse (or circle) of an astropy ``regions`` pixel region.

    ``EllipsePixelRegion(center, width, height, angle)`` holds *full* sizes and its angle as a
    ``Quantity`` (any angular unit; a plain number is read as degrees, the package's unit),
    counter-clockwise from +x in pixel coordinates with y up (astropy's image display); a
    ``CirclePixelRegion`` a radius. Sky regions must be converted with ``region.to_pixel(wcs)``
    first. Nothing of astropy is imported here.

    Parameters
    ----------
    region : regions.EllipsePixelRegion or regions.CirclePixelRegion

    Returns
    -------
    Ellipse or Circle

    Examples
    --------
    >>> import astropy.units as u
    >>> from regions import EllipsePixelRegion, PixCoord
    >>> import collide2d as c2
    >>> region = EllipsePixelRegion(PixCoord(3, 4), width=6, height=2, angle=90 * u.deg)
    >>> e = c2.Ellipse.from_astropy(region)
    >>> e.radii.tolist(), e.direction.tolist()
    ([3.0, 1.0], [0.0, 1.0])
    """
    return _shapes.Ellipse.from_astropy(region)


def rotated_box_from_astropy(region: Any) -> _shapes.RotatedBox:
    """Return the rotated box of an astropy ``regions`` ``RectanglePixelRegion``.

    Full ``width`` and ``height``, ``angle`` a ``Quantity`` (counter-clockwise, y up), pixel
    coordinates: the conventions of :meth:`Ellipse.from_astropy <collide2d.Ellipse.from_astropy>`.

    Parameters
    ----------
    region : regions.RectanglePixelRegion

    Returns
    -------
    RotatedBox

    Examples
    --------
    >>> import astropy.units as u
    >>> from regions import PixCoord, RectanglePixelRegion
    >>> import collide2d as c2
    >>> c2.RotatedBox.from_astropy(RectanglePixelRegion(PixCoord(0, 0), 4, 2, angle=0 * u.deg))
    RotatedBox(center=(0.0, 0.0), half_size=(2.0, 1.0), angle=0.0)
    """
    return _shapes.RotatedBox.from_astropy(region)


def ellipse_from_skimage(model: Any) -> _shapes.Ellipse:
    """Return the ellipse of scikit-image's ``EllipseModel`` (or of its ``params``).

    scikit-image holds the centre ``(xc, yc)``, the *semi*-axes ``(a, b)`` and ``theta`` in
    *radians*, with the point ``(xc + a cos theta cos t - b sin theta sin t, yc + a sin theta cos t
    + b cos theta sin t)``: collide2d's convention, so the numbers pass unchanged. The model fits
    the ``(x, y)`` coordinates it is given; for an image's ``(row, col)`` pass ``(col, row)``.
    Nothing of scikit-image is imported here.

    Parameters
    ----------
    model : skimage.measure.EllipseModel or sequence of 5 numbers
        A fitted model (its ``center``, ``axis_lengths`` and ``theta``, or ``params`` on older
        versions), or ``params = (xc, yc, a, b, theta)`` itself.

    Returns
    -------
    Ellipse

    Raises
    ------
    TypeError
        For another form, or values other than real numbers (strings and bools are refused).
    ValueError
        For values that make no ellipse (a semi-axis not positive, non-finite numbers).

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Ellipse.from_skimage((1.0, 2.0, 4.0, 2.0, 0.5))
    Ellipse(center=(1.0, 2.0), radii=(4.0, 2.0), angle=0.5)
    """
    return _shapes.Ellipse.from_skimage(model)


# -- pygame -----------------------------------------------------------------------------------------


def box_from_pygame(rect: Any, *, height: float | None = None) -> _shapes.Box:
    """Return the box of a pygame ``Rect`` (or ``FRect``, or ``(x, y, w, h)``).

    pygame's screen has y *down*: ``Rect(x, y, w, h)`` has its top-left corner at ``(x, y)`` and
    covers ``[x, x + w] x [y, y + h]``. Without ``height`` the box keeps screen coordinates,
    ``Box((x, y), (x + w, y + h))``; with the screen's ``height`` it is flipped into y-up
    coordinates, ``Box((x, height - y - h), (x + w, height - y))``. (The rectangle covers the
    pixels ``x .. x + w - 1``: its right and bottom edges are the box's edges.)

    Parameters
    ----------
    rect : pygame.Rect, pygame.FRect or sequence of 4 numbers
        Positive width and height.
    height : float, optional
        The screen's height, to flip y: a positive number.

    Returns
    -------
    Box

    Raises
    ------
    TypeError
        For another form, or values other than real numbers (strings and bools are refused).
    ValueError
        For a width, a height or a screen ``height`` that is not positive and finite.

    Examples
    --------
    >>> import collide2d as c2
    >>> c2.Box.from_pygame((10, 20, 30, 40))
    Box(min=(10.0, 20.0), max=(40.0, 60.0))
    >>> c2.Box.from_pygame((10, 20, 30, 40), height=480)
    Box(min=(10.0, 420.0), max=(40.0, 460.0))
    """
    return _shapes.Box.from_pygame(rect, height=height)


# -- pandas -----------------------------------------------------------------------------------------

CATALOGUE_COLUMNS = _formats.CATALOGUE_COLUMNS  # the columns of each kind (see table_from_dataframe)

def table_from_dataframe(df: Any, *, columns: dict[str, str] | None = None, degrees: bool | None = None) -> Any:
    """Return a :class:`~collide2d.ShapeTable` of the rows of a pandas DataFrame, in row order.

    Each row is one shape, read from the columns of its kind (angles in radians, or degrees with
    ``degrees=True``; ``angle`` may be left out and is then 0):

    ===============  ======================================================
    kind             columns
    ===============  ======================================================
    ``ellipse``      ``x, y, rx, ry[, angle][, dx, dy]`` (semi-axes)
    ``circle``       ``x, y, r``
    ``box``          ``xmin, ymin, xmax, ymax[, radius]``
    ``rotated_box``  ``x, y, hx, hy[, angle][, dx, dy][, radius]`` (half sizes)
    ``segment``      ``x0, y0, x1, y1``
    ``line``         ``x, y, dx, dy``
    ``point``        ``x, y``
    ``polygon``      ``vertices[, radius]`` (an array ``(k, 2)`` per row)
    ``capsule``      ``x0, y0, x1, y1, radius``
    ===============  ======================================================

    ``radius`` rounds a box, rotated box or polygon (NaN: the plain shape); ``dx, dy`` is the
    direction an ellipse or rotated box was built from (NaN: built from its angle), as
    :attr:`Shape.fields <collide2d.shapes.Shape.fields>` holds it. A run of rows is split where a
    row gives a radius or a direction and the next does not, so that each batch is all rounded or
    all plain.

    Without a ``kind`` column every row has the kind whose columns the frame has (checked in the
    order of the table), and the frame may have no other column of this table: ``x, y, rx,
    angle`` is an ellipse without ``ry``, an error, not points. With a ``kind`` column, each run of
    rows of the same kind becomes one batch (rows with another kind's columns hold NaN there, as
    :func:`table_to_dataframe` writes them). Columns of other names are ignored. Columns are read
    as whole float64 arrays, one batch per run: no Python loop over rows (except for polygons of
    different vertex counts, built one by one).

    The ``id`` column (renamed like the others, ``columns={"id": "name"}``), else the frame's index
    unless it is pandas' default ``0 .. n-1``, becomes the table's ``ids``; :func:`table_to_dataframe`
    gives them back as they came (the ``id`` column with its dtype, the index itself), and the
    angles in the degrees read, bit for bit, after ``degrees=True``.

    Angles are radians unless ``degrees=True``. When ``degrees`` is not given and an angle read has
    a magnitude above 2 pi (which suggests degrees), a :class:`~collide2d.io.DegreesWarning` names
    the first such row (counted from 0) and the largest angle, as the command line and
    :func:`collide2d.io.read_shapes` do for files; ``degrees=False`` reads radians without it.

    The columns read must hold integers or floats (NumPy's or pandas' nullable ones, where a
    missing value is NaN and refused as such): booleans, dates and times, durations, strings
    (even of digits), categoricals and ``object`` columns are refused (convert them first, for
    example with ``pandas.to_numeric``).

    Parameters
    ----------
    df : pandas.DataFrame
    columns : dict, optional
        Renames: ``{catalogue name: column of df}``, for example ``{"rx": "a", "ry": "b"}``.
    degrees : bool, optional
        Read the ``angle`` column in degrees (True) or radians (False); not given: radians, with a
        warning for angles that look like degrees.

    Returns
    -------
    ShapeTable

    Warns
    -----
    DegreesWarning
        When ``degrees`` is not given and an angle's magnitude exceeds 2 pi.

    Raises
    ------
    ValueError
        Missing columns, the columns of one kind mixed with some of another's, a catalogue name
        given to two columns (by ``df`` or by ``columns``), a column read that does not hold
        numbers (it is named), values that do not make valid shapes (the message names the first
        row of the run it is in), or an unknown kind.

    Examples
    --------
    >>> import pandas as pd
    >>> import collide2d as c2
    >>> df = pd.DataFrame({"x": [0.0, 2.5], "y": [0.0, 0.0], "rx": [2.0, 1.0], "ry": [1.0, 0.5], "angle": [0.0, 90.0]})
    >>> table = c2.ShapeTable.from_dataframe(df, degrees=True)
    >>> table[1].direction.tolist()
    [0.0, 1.0]
    >>> c2.query_pairs(table).tolist()  # touching at (2, 0)
    [[0], [1]]
    >>> table.ids is None, table.to_dataframe()["angle"].tolist()  # the degrees given
    (True, [0.0, 90.0])
    >>> stars = pd.DataFrame({"x": [0.0, 1.5], "y": [0.0, 0.0], "r": [1.0, 1.0]}, index=["a", "b"])
    >>> c2.ShapeTable.from_dataframe(stars).ids.tolist()
    ['a', 'b']
    >>> c2.ShapeTable.from_dataframe(pd.DataFrame([[0.0, 0.0, 1.0, 5.0]], columns=["x", "y", "r", "r"]))
    Traceback (most recent call last):
    ...
    ValueError: df has the column 'r' twice: rename or drop one (each row would give two shapes)
    """
    from collide2d.table import _table_from_dataframe

    return _table_from_dataframe(df, columns, degrees)


def table_to_dataframe(table: Any, *, degrees: bool | None = None) -> Any:
    """Return a pandas DataFrame with one row per shape of a table (or of a shape or batch).

    The columns are ``kind`` and those of each kind present, as :func:`table_from_dataframe`
    reads them (NaN where a row's kind has no such column); ``angle`` is each shape's ``angle``
    field in radians (the angle given, or ``atan2`` of the direction given). Reading the frame
    back gives the same shapes, up to the rounding of angles into directions.

    What :func:`table_from_dataframe` read comes back as it came: its ``id`` column first (with
    its dtype), or ids given to the table as an ``id`` column; the frame's index when it was not
    the default; and after ``degrees=True`` the ``angle`` column in the degrees read, bit for bit.

    Parameters
    ----------
    table : ShapeTable, Shape or sequence of Shape
    degrees : bool, optional
        Write ``angle`` in degrees (True) or radians (False); by default in degrees when the table
        was read with ``degrees=True``, else radians. Degrees of angles not read as degrees are
        the floats whose ``math.radians`` is the angle when there is one (as
        :meth:`to_opencv <collide2d.Ellipse.to_opencv>` gives them).

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> import collide2d as c2
    >>> table = c2.ShapeTable([c2.Circle([(0, 0), (2, 0)], 1), c2.Box((5, 5), (6, 7))])
    >>> c2.ShapeTable.to_dataframe(table)
         kind    x    y    r  xmin  ymin  xmax  ymax
    0  circle  0.0  0.0  1.0   NaN   NaN   NaN   NaN
    1  circle  2.0  0.0  1.0   NaN   NaN   NaN   NaN
    2     box  NaN  NaN  NaN   5.0   5.0   6.0   7.0
    """
    from collide2d.table import ShapeTable

    _formats.pandas_module()  # first, as ever: without pandas, its ImportError before any other error
    table = table if isinstance(table, ShapeTable) else ShapeTable(table)
    return table.to_dataframe(degrees=degrees)


def pair_measures_to_dataframe(measures: Any, pairs: ArrayLike | None = None, ids: ArrayLike | None = None) -> Any:
    """Return a pandas DataFrame of :class:`~collide2d.PairMeasures`, one row per pair.

    Columns: ``a`` and ``b`` (with ``pairs``; ids from ``ids`` when given), ``relation`` (a
    categorical of the :class:`~collide2d.Relation` names), ``separation``, ``normal_x``,
    ``normal_y``, ``point_a_x``, ``point_a_y``, ``point_b_x``, ``point_b_y``, ``curvature_a``,
    ``curvature_b``, ``overlap_area``, ``iou``. Built from whole arrays (no loop over pairs).

    Parameters
    ----------
    measures : PairMeasures
    pairs : array_like of int, shape (2, n), optional
        The pairs measured (``query_pairs``' result).
    ids : array_like, optional
        Labels of the shapes (for example the catalogue's index): ``a = ids[pairs[0]]``.

    Returns
    -------
    pandas.DataFrame
    """
    from collide2d.predicates import Relation

    return _formats.pair_measures_frame(measures, pairs, ids, Relation)
