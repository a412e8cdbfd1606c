"""Shared fixtures: the shape catalogue and random scenes.

The catalogue (``CATALOGUE``) holds, for every public kind, a canonical instance, a rotated one,
a tiny one (size 1e-6), a huge one (1e6 away from the origin) and degenerate-but-valid ones, each
with a readable pytest id such as ``ellipse-flat``. Invalid data (NaN fields, zero-length segments)
cannot be built at all; those cases live in ``INVALID`` and are checked in ``test_shapes.py``.

Random scenes are described as *specs* ``(kind, fields)`` of plain NumPy data so that tests can
apply exact transforms (integer translation, quarter rotation, power-of-two scaling) to the data
and rebuild the shapes: see :func:`random_spec`, :func:`build`, :func:`transform_spec`.
Every random generator is seeded with a literal (``np.random.default_rng(<seed>)``).
"""

from __future__ import annotations

import math
import os
import time

import numba
import numpy as np
import pytest

import collide2d as c2
from collide2d.shapes import direction_from_angle

KINDS = ("Point", "Circle", "Ellipse", "Box", "RotatedBox", "Polygon", "Segment", "Line")
JIT_DISABLED = os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0")


def _shortcuts_active():
    from collide2d import _jit

    return _jit.shortcuts_active()


# The compile shortcuts (collide2d._jit._shortcuts, on Numba's internals) are in use: the tests of
# those internals run only then (`make test` runs the suite once more with them off)
SHORTCUTS = _shortcuts_active()


# Test files that `make test-nojit` runs a second time with NUMBA_DISABLE_JIT=1, so that every kernel
# family (relate, contact and distance, intersection points, area) also runs as plain Python; the
# broad phase's tests carry the marker one by one (its whole file takes minutes uncompiled).
NOJIT_FILES = {
    "test_kernels.py",
    "test_measurement_flat.py",
    "test_distance_ellipse.py",
    "test_distance_ellipse_search.py",
    "test_overlay_flat.py",
    "test_overlay_ellipse.py",
    "test_overlay_ellipse_points.py",
    "test_overlay_caps.py",
    "test_measure_pairs.py",
    "test_intersects_fast.py",
    "test_properties.py",
}


# Test files in `make test-quick` besides tests/test_quick.py (which marks itself): the import, the
# public names and the documentation's links, none of which compiles a kernel.
QUICK_FILES = {"test_import.py", "test_docs.py"}


def pytest_addoption(parser):
    parser.addoption(
        "--file-times", action="store_true", default=False,
        help="after the run, list each test file with the wall-clock and CPU seconds it took (make test)",
    )


def _cpu_seconds():
    """CPU seconds of this process and of its finished child processes (the CLI tests run some)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


class FileTimes:
    """Wall-clock and CPU seconds per test file, from the start of each of its tests to the end
    (fixtures and kernel compilations included), listed in the order the files ran."""

    note = ""

    def __init__(self):
        self.seconds = {}  # file -> [wall, cpu]
        self._start = None

    def pytest_runtest_logstart(self, nodeid, location):
        self._start = (time.perf_counter(), _cpu_seconds())

    def pytest_runtest_logfinish(self, nodeid, location):
        if self._start is None:
            return
        wall, cpu = self._start
        spent = self.seconds.setdefault(location[0], [0.0, 0.0])
        spent[0] += time.perf_counter() - wall
        spent[1] += _cpu_seconds() - cpu
        self._start = None

    def pytest_sessionfinish(self, session):
        # in a worker process of pytest-xdist (-n): hand the figures to the controller, which lists them
        output = getattr(session.config, "workeroutput", None)
        if output is not None:
            output["collide2d_file_times"] = self.seconds

    def pytest_terminal_summary(self, terminalreporter):
        if not self.seconds:
            return
        terminalreporter.section(f"seconds per test file (wall clock / CPU, child processes included{self.note})")
        for path, (wall, cpu) in self.seconds.items():
            terminalreporter.write_line(f"{wall:8.1f} {cpu:8.1f}  {path}")
        wall, cpu = (sum(values) for values in zip(*self.seconds.values()))
        terminalreporter.write_line(f"{wall:8.1f} {cpu:8.1f}  all {len(self.seconds)} files")


class WorkerFileTimes(FileTimes):
    """:class:`FileTimes` in the controller of pytest-xdist (``-n``): each worker process times its
    own files (its tests run one at a time), and the controller adds up what the workers hand
    over when they finish (a file split between workers counts in both)."""

    note = "; timed in the worker processes"

    def pytest_runtest_logstart(self, nodeid, location):
        pass  # the workers' tests overlap here: nothing to time

    def pytest_runtest_logfinish(self, nodeid, location):
        pass

    def pytest_testnodedown(self, node, error):
        for path, (wall, cpu) in getattr(node, "workeroutput", {}).get("collide2d_file_times", {}).items():
            spent = self.seconds.setdefault(path, [0.0, 0.0])
            spent[0] += wall
            spent[1] += cpu


def pytest_configure(config):
    if config.getoption("file_times"):
        controller = getattr(config.option, "dist", "no") != "no" and not hasattr(config, "workerinput")
        config.pluginmanager.register(WorkerFileTimes() if controller else FileTimes(), "collide2d-file-times")
    if JIT_DISABLED:
        # Compiled kernels follow IEEE arithmetic silently (inf - inf is NaN, and the kernels handle
        # it); as plain Python the same operations on NumPy scalars warn, which says nothing here.
        config.addinivalue_line("filterwarnings", "ignore::RuntimeWarning:collide2d._kernels")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in NOJIT_FILES:
            item.add_marker(pytest.mark.nojit)
        if item.path.name in QUICK_FILES:
            item.add_marker(pytest.mark.quick)


def pytest_report_header(config):
    return [
        f"collide2d {c2.__version__}, numpy {np.__version__}, numba {numba.__version__}",
        f"NUMBA_DISABLE_JIT={os.environ.get('NUMBA_DISABLE_JIT', '<unset>')} "
        f"(kernels {'run as plain Python' if JIT_DISABLED else 'are JIT-compiled'})",
    ]


# -- the catalogue ---------------------------------------------------------------------------------

_HUGE = np.array([1.0e6, -1.0e6])


@pytest.fixture
def outcome_codes(monkeypatch):
    """``watch(module, name)``: replace ``module.name``, a search returning ``(code, out)``, by a
    wrapper that appends every outcome code it returns to the list ``watch`` returns (for tests
    that assert which searches decided their pairs)."""

    def watch(module, name):
        codes = []
        original = getattr(module, name)

        def counted(*args):
            code, out = original(*args)
            codes.extend(code.tolist())
            return code, out

        monkeypatch.setattr(module, name, counted)
        return codes

    return watch


def _regular(n, radius=1.0, center=(0.0, 0.0), phase=0.0):
    t = phase + 2 * np.pi * np.arange(n) / n
    return np.stack([center[0] + radius * np.cos(t), center[1] + radius * np.sin(t)], axis=-1)


def _catalogue():
    """Return ``[(id, factory)]``; factories so that a bug in one constructor fails one test only."""
    entries = {
        "Point": [
            ("canonical", lambda: c2.Point((1.0, 2.0))),
            ("origin", lambda: c2.Point((0.0, 0.0))),
            ("tiny", lambda: c2.Point((1e-6, -3e-6))),
            ("huge", lambda: c2.Point(_HUGE + (0.25, 0.5))),
        ],
        "Circle": [
            ("canonical", lambda: c2.Circle((0.0, 0.0), 1.0)),
            ("offset", lambda: c2.Circle((2.5, -1.0), 0.75)),
            ("tiny", lambda: c2.Circle((1e-6, 1e-6), 1e-6)),
            ("huge", lambda: c2.Circle(_HUGE, 3.0)),
            ("huge-radius", lambda: c2.Circle((0.0, 0.0), 1e6)),
        ],
        "Ellipse": [
            ("canonical", lambda: c2.Ellipse((0.0, 0.0), (2.0, 1.0))),
            ("rotated", lambda: c2.Ellipse((1.0, -1.0), (2.0, 1.0), angle=0.5)),
            ("quarter-turn", lambda: c2.Ellipse((0.0, 0.0), (2.0, 1.0), angle=math.pi / 2)),
            ("tiny", lambda: c2.Ellipse((0.0, 1e-6), (2e-6, 1e-6), angle=0.3)),
            ("huge", lambda: c2.Ellipse(_HUGE, (3.0, 2.0), angle=1.0)),
            ("flat", lambda: c2.Ellipse((0.0, 0.0), (1.0, 1e-4), angle=0.25)),  # aspect 1e4
            ("nearly-circular", lambda: c2.Ellipse((0.0, 0.0), (1.0, 1.0 - 1e-12), angle=0.7)),
            ("equal-radii", lambda: c2.Ellipse((0.5, 0.5), (1.0, 1.0), angle=0.7)),
        ],
        "Box": [
            ("canonical", lambda: c2.Box((0.0, 0.0), (2.0, 1.0))),
            ("from-center", lambda: c2.Box.from_center((1.0, 1.0), (0.5, 0.25))),
            ("tiny", lambda: c2.Box((0.0, 0.0), (1e-6, 1e-6))),
            ("huge", lambda: c2.Box(_HUGE, _HUGE + 2.0)),
            ("thin", lambda: c2.Box((0.0, 0.0), (1.0, 1e-9))),
        ],
        "RotatedBox": [
            ("canonical", lambda: c2.RotatedBox((0.0, 0.0), (1.0, 0.5))),
            ("rotated", lambda: c2.RotatedBox((1.0, 2.0), (1.0, 0.5), angle=0.6)),
            ("diamond", lambda: c2.RotatedBox((0.0, 0.0), (1.0, 1.0), angle=math.pi / 4)),
            ("tiny", lambda: c2.RotatedBox((0.0, 0.0), (1e-6, 5e-7), angle=0.3)),
            ("huge", lambda: c2.RotatedBox(_HUGE, (2.0, 1.0), angle=-0.4)),
            ("thin", lambda: c2.RotatedBox((0.0, 0.0), (1.0, 1e-6), angle=1.1)),
        ],
        "Polygon": [
            ("canonical", lambda: c2.Polygon([(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0)])),
            ("clockwise-triangle", lambda: c2.Polygon([(0.0, 0.0), (0.0, 1.0), (1.0, 0.0)])),
            ("hexagon", lambda: c2.Polygon(_regular(6, 1.0, phase=0.1))),
            ("tiny", lambda: c2.Polygon(_regular(5, 1e-6, phase=0.2))),
            ("huge", lambda: c2.Polygon(_HUGE + _regular(7, 2.0, phase=0.3))),
            ("sliver", lambda: c2.Polygon([(0.0, 0.0), (1.0, 0.0), (0.5, 1e-9)])),
            ("near-collinear", lambda: c2.Polygon([(0.0, 0.0), (1.0, -(2.0**-40)), (2.0, 0.0), (1.0, 1.0)])),
            ("many-vertices", lambda: c2.Polygon(_regular(64, 3.0, phase=0.05))),
        ],
        "Segment": [
            ("canonical", lambda: c2.Segment((0.0, 0.0), (1.0, 0.0))),
            ("diagonal", lambda: c2.Segment((-1.0, 2.0), (3.0, -1.5))),
            ("tiny", lambda: c2.Segment((0.0, 0.0), (1e-6, 1e-6))),
            ("huge", lambda: c2.Segment(_HUGE, _HUGE + (3.0, 4.0))),
            ("very-short", lambda: c2.Segment((1.0, 1.0), (1.0 + 2.0**-40, 1.0))),
        ],
        "Line": [
            ("canonical", lambda: c2.Line((0.0, 0.0), (1.0, 0.0))),
            ("diagonal", lambda: c2.Line((1.0, 2.0), (1.0, 1.0))),
            ("vertical", lambda: c2.Line((3.0, 0.0), (0.0, -2.0))),
            ("tiny-direction", lambda: c2.Line((0.0, 0.0), (1e-6, 3e-6))),
            ("huge", lambda: c2.Line(_HUGE, (1.0, -2.0))),
            ("steep", lambda: c2.Line((0.0, 0.0), (1e-9, 1.0))),
        ],
    }
    return [(kind, name, factory) for kind in KINDS for name, factory in entries[kind]]


CATALOGUE_ENTRIES = _catalogue()
CATALOGUE = [
    pytest.param(kind, factory, id=f"{kind.lower()}-{name}") for kind, name, factory in CATALOGUE_ENTRIES
]


def catalogue_of(kind):
    """Catalogue params for one kind."""
    return [
        pytest.param(factory, id=f"{k.lower()}-{name}") for k, name, factory in CATALOGUE_ENTRIES if k == kind
    ]


@pytest.fixture(params=CATALOGUE)
def catalogue_shape(request):
    """Every catalogue shape: ``(kind, shape)``."""
    kind, factory = request.param
    return kind, factory()


# -- invalid input: (id, callable, exception type, words the message must contain) -------------

INVALID = [
    ("point-nan", lambda: c2.Point((np.nan, 0.0)), ValueError, ["xy", "finite"]),
    ("point-inf", lambda: c2.Point((np.inf, 0.0)), ValueError, ["xy", "finite"]),
    ("point-string", lambda: c2.Point("ab"), TypeError, ["xy"]),
    ("point-none", lambda: c2.Point(None), TypeError, ["xy"]),
    ("point-complex", lambda: c2.Point((1j, 0.0)), TypeError, ["xy"]),
    ("point-object", lambda: c2.Point([object(), 1.0]), TypeError, ["xy"]),
    ("point-last-axis-3", lambda: c2.Point((1.0, 2.0, 3.0)), ValueError, ["xy"]),
    ("point-scalar", lambda: c2.Point(1.0), ValueError, ["xy"]),
    ("point-ragged", lambda: c2.Point([(1.0, 2.0), (1.0,)]), ValueError, ["xy"]),
    ("circle-zero-radius", lambda: c2.Circle((0, 0), 0.0), ValueError, ["radius", "positive"]),
    ("circle-negative-radius", lambda: c2.Circle((0, 0), -1.0), ValueError, ["radius", "positive"]),
    ("circle-nan-radius", lambda: c2.Circle((0, 0), np.nan), ValueError, ["radius", "finite"]),
    ("circle-inf-radius", lambda: c2.Circle((0, 0), np.inf), ValueError, ["radius", "finite"]),
    ("circle-nan-center", lambda: c2.Circle((np.nan, 0), 1.0), ValueError, ["center", "finite"]),
    ("circle-inf-center", lambda: c2.Circle((0, -np.inf), 1.0), ValueError, ["center", "finite"]),
    ("circle-string-radius", lambda: c2.Circle((0, 0), "1"), TypeError, ["radius"]),
    ("circle-none-radius", lambda: c2.Circle((0, 0), None), TypeError, ["radius"]),
    ("circle-complex-radius", lambda: c2.Circle((0, 0), 1 + 0j), TypeError, ["radius"]),
    ("circle-none-center", lambda: c2.Circle(None, 1.0), TypeError, ["center"]),
    ("circle-center-shape", lambda: c2.Circle((0, 0, 0), 1.0), ValueError, ["center"]),
    ("circle-batch-mismatch", lambda: c2.Circle(np.zeros((3, 2)), np.ones(4)), ValueError, ["center", "radius"]),
    ("ellipse-zero-radius", lambda: c2.Ellipse((0, 0), (1.0, 0.0)), ValueError, ["radii", "positive"]),
    ("ellipse-negative-radius", lambda: c2.Ellipse((0, 0), (-1.0, 1.0)), ValueError, ["radii", "positive"]),
    ("ellipse-nan-radii", lambda: c2.Ellipse((0, 0), (np.nan, 1.0)), ValueError, ["radii", "finite"]),
    ("ellipse-nan-angle", lambda: c2.Ellipse((0, 0), (2.0, 1.0), np.nan), ValueError, ["angle", "finite"]),
    ("ellipse-inf-angle", lambda: c2.Ellipse((0, 0), (2.0, 1.0), np.inf), ValueError, ["angle", "finite"]),
    ("ellipse-string-angle", lambda: c2.Ellipse((0, 0), (2.0, 1.0), "0.5"), TypeError, ["angle"]),
    ("ellipse-complex-angle", lambda: c2.Ellipse((0, 0), (2.0, 1.0), 0.5j), TypeError, ["angle"]),
    ("ellipse-scalar-radii", lambda: c2.Ellipse((0, 0), 1.0), ValueError, ["radii"]),
    ("ellipse-radii-shape", lambda: c2.Ellipse((0, 0), (1.0, 2.0, 3.0)), ValueError, ["radii"]),
    ("ellipse-nan-center", lambda: c2.Ellipse((0, np.nan), (2.0, 1.0)), ValueError, ["center"]),
    ("box-min-equals-max", lambda: c2.Box((0, 0), (0, 1)), ValueError, ["min", "max"]),
    ("box-min-above-max", lambda: c2.Box((0, 2), (1, 1)), ValueError, ["min", "max"]),
    ("box-nan", lambda: c2.Box((0, np.nan), (1, 1)), ValueError, ["min", "finite"]),
    ("box-inf-max", lambda: c2.Box((0, 0), (np.inf, 1)), ValueError, ["max", "finite"]),
    ("box-string", lambda: c2.Box("ab", (1, 1)), TypeError, ["min"]),
    ("box-shape", lambda: c2.Box((0, 0), (1, 1, 1)), ValueError, ["max"]),
    ("box-from-center-zero", lambda: c2.Box.from_center((0, 0), (1.0, 0.0)), ValueError, ["half_size", "positive"]),
    ("box-from-center-nan", lambda: c2.Box.from_center((np.nan, 0), (1.0, 1.0)), ValueError, ["center", "finite"]),
    ("rotbox-zero-half", lambda: c2.RotatedBox((0, 0), (0.0, 1.0)), ValueError, ["half_size", "positive"]),
    ("rotbox-negative-half", lambda: c2.RotatedBox((0, 0), (1.0, -1.0)), ValueError, ["half_size", "positive"]),
    ("rotbox-nan-angle", lambda: c2.RotatedBox((0, 0), (1.0, 1.0), np.nan), ValueError, ["angle", "finite"]),
    ("rotbox-none-center", lambda: c2.RotatedBox(None, (1.0, 1.0)), TypeError, ["center"]),
    ("rotbox-half-too-small", lambda: c2.RotatedBox((1e6, 1e6), (1e-12, 1e-12), 0.3), ValueError, ["half_size"]),
    ("polygon-nonconvex", lambda: c2.Polygon([(0, 0), (2, 0), (1, 0.5), (2, 2), (0, 2)]), ValueError, ["vertices", "convex"]),
    ("polygon-star", lambda: c2.Polygon(_regular(5)[[0, 2, 4, 1, 3]]), ValueError, ["vertices"]),
    ("polygon-two-vertices", lambda: c2.Polygon([(0, 0), (1, 0)]), ValueError, ["vertices"]),
    ("polygon-one-vertex", lambda: c2.Polygon([(0, 0)]), ValueError, ["vertices"]),
    ("polygon-collinear", lambda: c2.Polygon([(0, 0), (1, 1), (2, 2), (3, 3)]), ValueError, ["vertices"]),
    ("polygon-repeated", lambda: c2.Polygon([(0, 0), (0, 0), (1, 0), (1, 0)]), ValueError, ["vertices"]),
    ("polygon-all-same", lambda: c2.Polygon([(1, 1), (1, 1), (1, 1)]), ValueError, ["vertices"]),
    ("polygon-self-intersecting", lambda: c2.Polygon([(0, 0), (1, 1), (1, 0), (0, 1)]), ValueError, ["vertices"]),
    ("polygon-nan", lambda: c2.Polygon([(0, 0), (1, np.nan), (0, 1)]), ValueError, ["vertices", "finite"]),
    ("polygon-inf", lambda: c2.Polygon([(0, 0), (1, 0), (0, np.inf)]), ValueError, ["vertices", "finite"]),
    ("polygon-last-axis-3", lambda: c2.Polygon([(0, 0, 0), (1, 0, 0), (0, 1, 0)]), ValueError, ["vertices"]),
    ("polygon-flat-list", lambda: c2.Polygon([0, 0, 1, 0, 0, 1]), ValueError, ["vertices"]),
    ("polygon-string", lambda: c2.Polygon("abc"), TypeError, ["vertices"]),
    ("polygon-none", lambda: c2.Polygon(None), TypeError, ["vertices"]),
    ("polygon-complex", lambda: c2.Polygon(np.array([(0, 0), (1, 0), (0, 1)]) * (1 + 0j)), TypeError, ["vertices"]),
    ("segment-zero-length", lambda: c2.Segment((1.0, 2.0), (1.0, 2.0)), ValueError, ["start", "end"]),
    ("segment-zero-length-batch", lambda: c2.Segment([(0, 0), (1, 1)], [(1, 0), (1, 1)]), ValueError, ["start", "end"]),
    ("segment-nan", lambda: c2.Segment((0, 0), (np.nan, 1)), ValueError, ["end", "finite"]),
    ("segment-string", lambda: c2.Segment("xy", (1, 1)), TypeError, ["start"]),
    ("segment-shape", lambda: c2.Segment((0, 0, 0), (1, 1, 1)), ValueError, ["start"]),
    ("line-zero-direction", lambda: c2.Line((0, 0), (0.0, 0.0)), ValueError, ["direction"]),
    ("line-nan-point", lambda: c2.Line((np.nan, 0), (1.0, 0.0)), ValueError, ["point", "finite"]),
    ("line-inf-direction", lambda: c2.Line((0, 0), (np.inf, 0.0)), ValueError, ["direction", "finite"]),
    ("line-none-direction", lambda: c2.Line((0, 0), None), TypeError, ["direction"]),
    ("line-complex-point", lambda: c2.Line((0j, 0), (1.0, 0.0)), TypeError, ["point"]),
]


# -- random scenes as specs -------------------------------------------------------------------------


def _convex_hull(points):
    """Counter-clockwise strict convex hull of integer points (Andrew's monotone chain, exact)."""
    pts = sorted(set(map(tuple, points)))
    if len(pts) < 3:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def random_polygon_vertices(rng, n_out=6, span=3):
    """Integer convex polygon, padded to ``n_out`` vertices by repeating its last vertex."""
    while True:
        hull = _convex_hull(rng.integers(-span, span + 1, size=(rng.integers(3, 7), 2)).tolist())
        if 3 <= len(hull) <= n_out:
            break
    hull = hull + [hull[-1]] * (n_out - len(hull))
    if rng.random() < 0.5:
        hull = hull[::-1]  # both windings in
    return np.array(hull, dtype=np.float64)


def _random_angle(rng, exact_angles):
    quarter = rng.integers(-2, 4) * (np.pi / 2)
    if exact_angles or rng.random() < 0.5:
        return float(quarter)
    return float(quarter + rng.uniform(-np.pi / 4, np.pi / 4))


def random_fields(kind, rng, *, span=4, exact_angles=False):
    """Fields of one random ``kind`` with small-integer data (many touching/degenerate cases).

    ``exact_angles`` restricts rotations to quarter turns, so that the stored corners of a
    RotatedBox translate exactly with its centre.
    """

    def ipair(lo=-span, hi=span):
        return rng.integers(lo, hi + 1, size=2).astype(np.float64)

    if kind == "Point":
        return {"xy": ipair()}
    if kind == "Circle":
        return {"center": ipair(), "radius": float(rng.integers(1, 4))}
    if kind == "Ellipse":
        radii = rng.integers(1, 4, size=2).astype(np.float64)
        return {"center": ipair(), "radii": radii, "angle": _random_angle(rng, exact_angles)}
    if kind == "Box":
        lo = ipair()
        return {"min": lo, "max": lo + rng.integers(1, 4, size=2)}
    if kind == "RotatedBox":
        half = rng.integers(1, 3, size=2).astype(np.float64)
        return {"center": ipair(), "half_size": half, "angle": _random_angle(rng, exact_angles)}
    if kind == "Polygon":
        return {"vertices": random_polygon_vertices(rng) + ipair(-2, 2)}
    if kind == "Segment":
        start = ipair()
        while True:
            end = ipair()
            if np.any(end != start):
                return {"start": start, "end": end}
    if kind == "Line":
        while True:
            direction = ipair(-2, 2)
            if np.any(direction != 0):
                return {"point": ipair(), "direction": direction}
    raise KeyError(kind)


def build(kind, fields):
    """Construct the shape of ``kind`` from a fields dict (single or batched data)."""
    return getattr(c2, kind)(**fields)


def stack_fields(kind, field_list, batch_shape):
    """Stack single-shape fields into batched fields of ``batch_shape``."""
    out = {}
    for name in field_list[0]:
        values = np.stack([np.asarray(f[name], dtype=np.float64) for f in field_list])
        out[name] = values.reshape(tuple(batch_shape) + values.shape[1:])
    return out


def random_batch(kind, rng, batch_shape, **options):
    """``(shape, field_list)``: a random batch of ``kind`` and the fields of each element (C order)."""
    n = int(np.prod(batch_shape, dtype=np.int64))
    field_list = [random_fields(kind, rng, **options) for _ in range(n)]
    if n == 0:  # an empty batch: the field shapes of one random shape, with no rows
        fields = stack_fields(kind, [random_fields(kind, rng, **options)], (1,))
        empty = {name: value[:0].reshape(tuple(batch_shape) + value.shape[1:]) for name, value in fields.items()}
        return build(kind, empty), field_list
    return build(kind, stack_fields(kind, field_list, batch_shape)), field_list


# Exact transforms of the data: integer translation, quarter rotation (x, y) -> (-y, x), scaling by 2**k.
_POSITION_FIELDS = {"xy", "center", "start", "end", "point", "vertices"}


def _rot(v):
    v = np.asarray(v, dtype=np.float64)
    return np.stack([-v[..., 1], v[..., 0]], axis=-1)


def transform_fields(kind, fields, *, translate=None, rotate=False, scale=None):
    """Return the fields after an exact transform (one of translate / rotate / scale)."""
    out = {}
    for name, value in fields.items():
        value = np.asarray(value, dtype=np.float64)
        if translate is not None:
            out[name] = value + translate if name in _POSITION_FIELDS or name in ("min", "max") else value
        elif rotate:
            if name in _POSITION_FIELDS or name == "direction":
                out[name] = _rot(value)
            elif name == "angle":  # the stored direction turned exactly (the float angle + pi/2 is not)
                out["direction"] = _rot(direction_from_angle(value))
            else:
                out[name] = value
        elif scale is not None:
            out[name] = value * scale if name not in ("angle", "direction") else value
        else:
            out[name] = value
    if rotate and kind == "Box":
        lo, hi = np.asarray(fields["min"], dtype=np.float64), np.asarray(fields["max"], dtype=np.float64)
        out["min"] = np.stack([-hi[..., 1], lo[..., 0]], axis=-1)
        out["max"] = np.stack([-lo[..., 1], hi[..., 0]], axis=-1)
    return out
