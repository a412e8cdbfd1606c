"""The exact fallback: the kernels' own source, run on :class:`fractions.Fraction` values.

Every stored float is a dyadic rational, so ``Fraction(x)`` is exact and so is every ``+ - *`` of
Fractions. When a float kernel returns ``UNDECIDED`` (its error bound could not settle a sign), the
glue calls :func:`relate` (or :func:`run` for other pair kernels) here, which runs a second, uncompiled copy of :mod:`collide2d._kernels`
(loaded once under the name ``collide2d._kernels_exact``, a package whose functions the JIT
decorators leave uncompiled) on Fractions with ``eps = 0``: every sign is then exact, so the answer is exact for the stored numbers.

How often that happens is counted per kernel; see :func:`collide2d.exact_fallback_counts`.
"""

from __future__ import annotations

import collections
import importlib
import importlib.util
import pathlib
import sys
import threading
from fractions import Fraction

import numpy as np

from collide2d import _jit

_TWIN_NAME = "collide2d._kernels_exact"
_MODULES = ("relate.ellipse", "relate.polygon", "relate.linear")
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
            directory = pathlib.Path(__file__).with_name("_kernels")
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
    if kind == "polygon":
        offset, count = int(params[0]), int(params[1])
        vertices = np.array([[Fraction(float(x)), Fraction(float(y))] for x, y in verts[offset : offset + count]], dtype=object)
        return np.array([Fraction(0), Fraction(count)], dtype=object), vertices
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
    of one pair; counted under ``name``."""
    _counts[name] += 1
    row_a, fverts_a = exact_row(kind_a, params_a, verts_a)
    row_b, fverts_b = exact_row(kind_b, params_b, verts_b)
    return int(kernel_function(name)(row_a, fverts_a, row_b, fverts_b, 0))


def relate(name, kind_a, params_a, verts_a, kind_b, params_b, verts_b):
    """Run the relate kernel ``name`` exactly on the stored numbers of one pair."""
    return run(name, kind_a, params_a, verts_a, kind_b, params_b, verts_b)


def counts(*, reset=False):
    """Return the number of exact fallbacks per kernel since the last reset."""
    result = dict(_counts)
    if reset:
        _counts.clear()
    return result
