"""The exact fallback: the kernels' own source, run on :class:`fractions.Fraction` values.

Every stored float is a dyadic rational, so ``Fraction(x)`` is exact and so is every ``+ - *`` of
Fractions. When a float kernel returns ``UNDECIDED`` (its error bound could not settle a sign), the
glue calls :func:`relate` (or :func:`run` for other pair kernels) here, which runs a second, uncompiled copy of :mod:`collide2d._kernels`
(loaded once under the name ``collide2d._kernels_exact``, a package whose functions the JIT
decorators leave uncompiled) on Fractions with ``eps = 0``: every sign is then exact, so the answer is exact for the stored numbers.

How often that happens is counted per kernel; see :func:`collide2d.exact_fallback_counts`.

Below the twin: exact flat geometry on Fractions for the ``max_distance`` decision
(:mod:`collide2d._within`): squared distances of shapes without curves, rational support bounds.
"""

from __future__ import annotations

import collections
import importlib
import importlib.util
import math
import pathlib
import sys
import threading
from fractions import Fraction

import numpy as np

from collide2d import _jit

_TWIN_NAME = "collide2d._kernels_exact"
_MODULES = ("relate.ellipse", "relate.polygon", "relate.linear", "relate.rounded")
_counts: collections.Counter = collections.Counter()
_twin: dict = {}
_load_lock = threading.RLock()  # one loader at a time: others wait for a complete copy


def load_uncompiled_kernels(package_name, modules=_MODULES):
    """Import an uncompiled copy of ``collide2d._kernels`` as ``package_name`` (once per name).

    Relative imports inside the copy resolve within it, so every kernel it calls is uncompiled
    too. The exact fallback uses ``collide2d._kernels_exact``; tests may load private copies to
    patch them. Returns ``{module: module object}`` for ``modules``.

    The copy is uncompiled because its package name is registered with
    :func:`collide2d._jit.uncompiled_package` first (the decorators look at the module a function
    is defined in), not through any process-wide switch: other threads keep compiling their
    kernels meanwhile. Safe to call from several threads at once.
    """
    with _load_lock:
        if package_name not in sys.modules:
            _jit.uncompiled_package(package_name)
            directory = pathlib.Path(__file__).parents[1] / "_kernels"
            spec = importlib.util.spec_from_file_location(
                package_name, directory / "__init__.py", submodule_search_locations=[str(directory)]
            )
            package = importlib.util.module_from_spec(spec)
            sys.modules[package_name] = package
            spec.loader.exec_module(package)
        return {name: importlib.import_module(f"{package_name}.{name}") for name in modules}


def _load_twin():
    """The uncompiled copy of the kernel package that the exact fallback runs (loaded once)."""
    if not _twin:
        with _load_lock:
            if not _twin:
                _twin.update(load_uncompiled_kernels(_TWIN_NAME))
    return _twin


def twin_module(name):
    """The uncompiled module ``name`` of the exact fallback's copy (for example ``"overlay.points_ellipse"``)."""
    return load_uncompiled_kernels(_TWIN_NAME, (name,))[name]


def exact_row(kind, params, verts):
    """Return a kind's parameter row and vertices as object arrays of Fractions."""
    if kind == "rounded":  # offset 0 into its own vertices (a polygon core's), count, radius, end points
        count = int(params[1])
        row = np.array([Fraction(0), Fraction(count)] + [Fraction(float(x)) for x in params[2:7]], dtype=object)
        if count >= 3:
            return row, exact_row("polygon", params[0:2], verts)[1]
        return row, np.zeros((0, 2), dtype=object)
    if kind == "polygon":
        offset, count = int(params[0]), int(params[1])
        vertices = np.array([[Fraction(float(x)), Fraction(float(y))] for x, y in verts[offset : offset + count]], dtype=object)
        rest = [Fraction(float(value)) for value in params[2:]]  # a rounded row's radius and ends
        return np.array([Fraction(0), Fraction(count)] + rest, dtype=object), vertices
    row = np.array([Fraction(float(value)) for value in params], dtype=object)
    return row, np.zeros((0, 2), dtype=object)


def kernel_function(name):
    """The uncompiled kernel ``name`` (for example ``"relate_polygon_segment"``)."""
    twin = _load_twin()
    for module in twin.values():
        if hasattr(module, name):
            return getattr(module, name)
    raise KeyError(name)


def run(name, kind_a, params_a, verts_a, kind_b, params_b, verts_b):
    """Run the pair kernel ``name`` (signature ``(pa, va, pb, vb, eps) -> int``, for example
    ``relate_ellipse_ellipse`` or ``intersects_ellipse_ellipse``) exactly on the stored numbers
    of one pair; counted under ``name``.

    A rounded shape against an ellipse is decided by :mod:`collide2d._robust.rounded_ellipse`
    (through :func:`collide2d._robust.ladder.exact_code`), not here."""
    _counts[name] += 1
    row_a, fverts_a = exact_row(kind_a, params_a, verts_a)
    row_b, fverts_b = exact_row(kind_b, params_b, verts_b)
    return int(kernel_function(name)(row_a, fverts_a, row_b, fverts_b, 0))


def count(name):
    """Count one exact decision of kernel ``name`` made outside :func:`run`."""
    _counts[name] += 1


def relate(name, kind_a, params_a, verts_a, kind_b, params_b, verts_b):
    """Run the relate kernel ``name`` exactly on the stored numbers of one pair."""
    return run(name, kind_a, params_a, verts_a, kind_b, params_b, verts_b)


def counts(*, reset=False):
    """Return the number of exact fallbacks per kernel since the last reset."""
    result = dict(_counts)
    if reset:
        _counts.clear()
    return result


# -- exact flat geometry (the max_distance decision of collide2d._within) -----------------------------

_SQRT_BITS = 160  # bits after the binary point of the rational square-root bounds


def grown(row, d):
    """The ellipse row with both semi-axes grown by ``d``, rounded down."""
    out = np.array(row, dtype=np.float64)
    for j in (2, 3):
        value = float(out[j]) + d
        if Fraction(value) > Fraction(float(out[j])) + Fraction(d):
            value = math.nextafter(value, -math.inf)
        out[j] = value
    return out


def sqrt_up(x):
    """A rational upper bound of ``sqrt(x)`` for a rational ``x >= 0`` (within ``2**-_SQRT_BITS``)."""
    n, q = x.numerator, x.denominator
    root = math.isqrt(n * q << (2 * _SQRT_BITS))
    return Fraction(root + 1, q << _SQRT_BITS)


def _points(kind, row, verts):
    """The vertices of a flat shape (or a line's point) as rational pairs."""
    if kind == "polygon":
        offset, count = int(row[0]), int(row[1])
        return [(Fraction(float(x)), Fraction(float(y))) for x, y in verts[offset : offset + count]]
    if kind == "segment":
        return [(Fraction(float(row[0])), Fraction(float(row[1]))), (Fraction(float(row[2])), Fraction(float(row[3])))]
    return [(Fraction(float(row[0])), Fraction(float(row[1])))]


def _edges(kind, points):
    if kind == "polygon":
        return list(zip(points, points[1:] + points[:1]))
    if kind == "segment":
        return [(points[0], points[1])]
    return []


def point_segment2(p, s, e):
    """The squared distance of the point ``p`` from the segment ``se``, exact on Fractions: the
    nearest point is ``s + t (e - s)``, ``t`` the projection clamped to ``[0, 1]`` (0 when the
    segment is one point)."""
    dx, dy = e[0] - s[0], e[1] - s[1]
    length2 = dx * dx + dy * dy
    t = Fraction(0) if length2 == 0 else min(max(((p[0] - s[0]) * dx + (p[1] - s[1]) * dy) / length2, Fraction(0)), Fraction(1))
    x, y = s[0] + t * dx - p[0], s[1] + t * dy - p[1]
    return x * x + y * y


def apart_distance2(kind_a, row_a, verts_a, kind_b, row_b, verts_b):
    """Exact squared distance of two disjoint shapes without curves, as a Fraction."""
    if kind_b == "line":
        kind_a, row_a, verts_a, kind_b, row_b, verts_b = kind_b, row_b, verts_b, kind_a, row_a, verts_a
    if kind_a == "line":
        # disjoint from a line: a convex shape's nearest point to it is a vertex (a parallel line: its point)
        (px, py), dx, dy = _points("point", row_a, verts_a)[0], Fraction(float(row_a[2])), Fraction(float(row_a[3]))
        others = _points("point" if kind_b == "line" else kind_b, row_b, verts_b)
        return min(((x - px) * dy - (y - py) * dx) ** 2 for x, y in others) / (dx * dx + dy * dy)
    pa, pb = _points(kind_a, row_a, verts_a), _points(kind_b, row_b, verts_b)
    best = min((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 for p in pa for q in pb)
    for points, edges in ((pa, _edges(kind_b, pb)), (pb, _edges(kind_a, pa))):
        for s, e in edges:
            for p in points:
                best = min(best, point_segment2(p, s, e))
    return best


def support_up(kind, row, verts, ux, uy):
    """A rational upper bound of ``max p.u`` over the shape (``None`` when unbounded)."""
    if kind == "ellipse":
        cx, cy, a, b, wx, wy = (Fraction(float(x)) for x in row[:6])
        p, r = wx * ux + wy * uy, wx * uy - wy * ux
        return cx * ux + cy * uy + sqrt_up((a * a * p * p + b * b * r * r) / (wx * wx + wy * wy))
    if kind == "line":
        if Fraction(float(row[2])) * ux + Fraction(float(row[3])) * uy != 0:
            return None
        kind = "point"
    return max(x * ux + y * uy for x, y in _points(kind, row, verts))
