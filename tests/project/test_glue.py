"""The pair table, the runner and the tolerances: one door to the kernels, every tolerance in one place.

The answers themselves are covered by the contract, magnitude and kernel tests (and, bit for bit,
by ``tools/answer_corpus.py``); these tests keep the structure honest: the table is complete and
in one order, the names can be grepped, kernel modules load lazily, only the glue reads a shape's
private fields, and every tolerance listed in ``collide2d._tolerances`` is the one in force.
"""

from __future__ import annotations

import importlib
import itertools
import pathlib
import re
import subprocess
import sys

import pytest

from collide2d import _tolerances
from collide2d._glue import registry

SRC = pathlib.Path(__file__).resolve().parents[2] / "src" / "collide2d"
KINDS = registry.KERNEL_ORDER
REGIONS = ("rounded", "ellipse", "polygon")


@pytest.mark.parametrize("operation", [registry.RELATE, registry.CONTACT, registry.SEPARATION, registry.POINTS])
def test_every_kind_pair_has_one_kernel_in_kernel_order(operation):
    for kind_a, kind_b in itertools.product(KINDS, KINDS):
        first, second = sorted((kind_a, kind_b), key=KINDS.index)
        assert (operation, first, second) in registry._TABLE
        if first != second:
            assert (operation, second, first) not in registry._TABLE  # one order only: mirrored by the runner
        assert registry.has(operation, kind_a, kind_b)


def test_area_and_intersects_cover_what_they_should():
    for kind_a, kind_b in itertools.product(KINDS, KINDS):
        assert registry.has(registry.AREA, kind_a, kind_b) == (kind_a in REGIONS and kind_b in REGIONS)
    assert registry.has(registry.INTERSECTS, "ellipse", "ellipse")
    assert registry.entry(registry.INTERSECTS, "point", "segment") is None  # relate's code answers


def test_entries_mirror_once_and_name_their_kernel():
    direct = registry.entry(registry.RELATE, "polygon", "point")
    mirrored = registry.entry(registry.RELATE, "point", "polygon")
    assert not direct.swapped and mirrored.swapped
    assert direct.kernel is mirrored.kernel
    assert direct.name == "relate_polygon_point"
    module = importlib.import_module("collide2d._kernels.relate.polygon")
    assert direct.kernel is module.relate_polygon_point
    loops = importlib.import_module("collide2d._kernels.relate.loops")
    assert direct.loop() is loops.relate_polygon_point_loop


def test_every_table_entry_loads_a_kernel_and_a_loop_of_its_own_name():
    for (operation, kind_a, kind_b), (kernel, loop) in registry._TABLE.items():
        function = kernel()
        assert callable(function), (operation, kind_a, kind_b)
        batch = loop()
        if batch is not None:  # a ray hit's measurement has no loop of its own
            assert batch.__name__.endswith("_loop")
            assert batch.__name__.split("_")[1:-1] == function.__name__.split("_")[1:] or operation in (
                registry.RAY, registry.SEPARATION), (batch.__name__, function.__name__)


def test_no_kernel_is_found_by_string_arithmetic_or_importlib():
    glue = [SRC / "_glue" / name for name in ("registry.py", "run.py", "points.py", "derived.py")]
    glue.append(SRC / "_robust" / "ladder.py")
    glue.append(SRC / "manifold.py")
    for path in glue:
        text = path.read_text()
        assert "importlib" not in text, path
        assert '+ "_loop"' not in text and "name[len(" not in text, path


def test_import_collide2d_loads_no_kernel_module():
    code = "import sys, collide2d; print(sorted(m for m in sys.modules if m.startswith('collide2d._kernels.')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    loaded = eval(out)  # noqa: S307 - our own output, a list of strings
    assert not [m for m in loaded if m.split(".")[2] in ("relate", "measure", "overlay", "motion", "manifold")], loaded


_FACES = ("polygon", "segment", "line")


def test_manifold_kernels_are_registered_in_both_orders_and_never_swapped():
    clip = importlib.import_module("collide2d._kernels.manifold.clip")
    loops = importlib.import_module("collide2d._kernels.manifold.loops")
    for kind_a, kind_b in itertools.product(KINDS, KINDS):
        found = registry.entry(registry.MANIFOLD, kind_a, kind_b)
        if kind_a in _FACES and kind_b in _FACES and not kind_a == kind_b == "line":
            name = f"manifold_{kind_a}_{kind_b}"
            assert not found.swapped and found.kernel is getattr(clip, name)
            assert found.loop() is getattr(loops, name + "_loop")
        else:
            assert found is None and not registry.has(registry.MANIFOLD, kind_a, kind_b)
    assert registry.one_point_manifold() is clip.manifold_single


def test_contact_manifold_through_the_runner_is_the_kernel_bit_for_bit():
    """Both orders, single and batched (with an extreme row, which the runner runs on its own):
    every face pair's manifold is its kernel's 13 numbers on the contact, as called directly."""
    import numpy as np

    import collide2d as c2

    clip = importlib.import_module("collide2d._kernels.manifold.clip")
    floor = c2.Box([(-10, -1), (-1e-140, -1e-140)], [(10, 0), (1e-140, 0.0)])
    box = c2.RotatedBox([(0, 0.549), (0, 1e-140)], (1, 0.5), 0.05)
    seg = c2.Segment([(-2, 0.2), (-1e-140, 2e-140)], [(2, 0.25), (1e-140, 3e-140)])
    line = c2.Line([(0, -0.01), (0, 0)], [(1, 0.02), (1, 0)])
    shapes = {"polygon": (floor, box), "segment": (seg,), "line": (line,)}
    for kind_a, kind_b in itertools.product(_FACES, _FACES):
        if kind_a == kind_b == "line":
            continue
        for a, b in itertools.product(shapes[kind_a], shapes[kind_b]):
            got = c2.contact_manifold(a, b)
            kernel = getattr(clip, f"manifold_{kind_a}_{kind_b}")
            for k in range(2):
                ak, bk = a[k], b[k]
                c = c2.contact(ak, bk)
                row = (c.separation, *c.normal.tolist(), *c.point_a.tolist(), *c.point_b.tolist(),
                       c.curvature_a, c.curvature_b)
                r = np.array(kernel(ak._params, ak._verts, bk._params, bk._verts, row, 0.0, 0.0, np.inf))
                single = c2.contact_manifold(ak, bk)
                for m in (single, got):
                    idx = () if m is single else (k,)
                    assert int(np.asarray(m.count)[idx]) == int(r[0]), (kind_a, kind_b, k)
                    np.testing.assert_array_equal(np.asarray(m.normal)[idx], r[1:3])
                    np.testing.assert_array_equal(np.asarray(m.separations)[idx], r[[3, 8]])


# Modules outside the glue that still read a shape's private fields (shrink this list; never grow it).
# The shape classes themselves (shapes, table) and the apps (owned elsewhere) are not counted.
_STILL_READING: set[str] = set()
_PRIVATE = re.compile(r"\._(params|verts|kind|flat_params|tame|fields|field_names)\b")
_APPS = {"cli.py", "io.py", "demo.py", "dask.py", "plotting.py", "scenes.py", "convert.py", "__main__.py"}


def test_only_the_glue_reads_a_shapes_private_fields():
    readers = set()
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(("_glue/", "_kernels/", "demo/", "shapes/")) or rel in _APPS | {"table.py", "_dispatch.py"}:
            continue
        if _PRIVATE.search(path.read_text()):
            readers.add(rel)
    assert readers <= _STILL_READING, sorted(readers - _STILL_READING)


# -- tolerances ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(_tolerances.ELSEWHERE))
def test_listed_tolerances_are_the_ones_in_force(name):
    module_name, constant = name.rsplit(".", 1)
    value, reason = _tolerances.ELSEWHERE[name]
    assert getattr(importlib.import_module(module_name), constant) == value
    assert reason


def test_band_and_eps_are_defined_once_outside_the_kernels():
    definition = re.compile(r"^_?(EPS|BAND|U)\s*=\s*2\.0\s*\*\*\s*-(53|32)", re.MULTILINE)
    defined = []
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith("_kernels/"):
            continue  # a kernel keeps its own copy (listed in _tolerances.ELSEWHERE)
        defined += [(rel, m.group(0)) for m in definition.finditer(path.read_text())]
    assert defined == [("_tolerances.py", "EPS = 2.0**-53"), ("_tolerances.py", "BAND = 2.0**-32")]


def test_glue_modules_use_the_shared_tolerances():
    from collide2d import _within, measurement
    from collide2d._robust import magnitude
    from collide2d.broadphase import _backend

    assert _within.BAND is _tolerances.BAND
    assert magnitude.TAME_LO == _tolerances.TAME_LO and magnitude.SPAN_MAX == _tolerances.SPAN_MAX
    assert _backend._EPS == _tolerances.EPS
    assert measurement._sign_consistent.__module__ == "collide2d._glue.run"


# -- the row entry points (the broad phase, the nearest search and motion call these) -------------


def test_contact_rows_agree_with_contact_on_shapes_in_both_orders():
    import numpy as np

    import collide2d as c2
    from collide2d._glue import run

    boxes = c2.Polygon(np.array([[(0, 0), (2, 0), (2, 1), (0, 1)], [(5e-151, 0), (1e-150, 0), (1e-150, 5e-151), (5e-151, 5e-151)]],
                                dtype=float))
    circles = c2.Circle([(3.0, 0.5), (2e-150, 2e-150)], [0.5, 1e-150])
    for a, b in ((boxes, circles), (circles, boxes)):
        expected = run.contact_values(a, b)
        kind_a, params_a, verts_a = a._kind, a._flat_params(), a._verts
        kind_b, params_b, verts_b = b._kind, b._flat_params(), b._verts
        index = np.arange(2, dtype=np.int64)
        rows = run.contact_rows(kind_a, params_a, verts_a, index, kind_b, params_b, verts_b, index)
        np.testing.assert_array_equal(rows.view(np.int64), expected.view(np.int64))  # bit for bit, the extreme row too
        single = run.contact_values(a[1], b[1])
        np.testing.assert_array_equal(np.array(single).view(np.int64), expected[1].view(np.int64))
