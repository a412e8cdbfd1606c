"""Importing collide2d stays cheap: Numba is imported (and kernels compiled) on first use only."""

import subprocess
import sys


def test_import_does_not_load_numba():
    code = "import sys, collide2d; print('numba' in sys.modules, 'matplotlib' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False"], "import collide2d must not import numba or matplotlib"


def test_public_names_resolve():
    import collide2d

    missing = [name for name in collide2d.__all__ if not hasattr(collide2d, name)]
    assert missing == []


APPS = ("cli", "io", "plotting", "demo", "dask", "scenes", "__main__")


def test_library_never_imports_its_apps():
    # every library module, then a periodic query and its measures: none may pull in an app
    import pkgutil

    import collide2d

    names = [
        info.name
        for info in pkgutil.walk_packages(collide2d.__path__, "collide2d.")
        if info.name.split(".")[1] not in APPS  # an app, or a module of an app package (demo/)
    ]
    assert "collide2d.broadphase" in names and "collide2d._kernels.broadphase.grid" in names
    code = (
        "import importlib, sys\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "import collide2d as c2\n"  # and the lazy imports of a periodic query and its measures
        "shapes = [c2.Circle([(0.5, 5), (9.5, 5)], 1), c2.Box((4, 4), (5, 5))]\n"
        "pairs, shifts = c2.query_pairs(shapes, periodic=(10, 10), return_shifts=True)\n"
        "assert pairs.shape == (2, 1) and c2.measure_pairs(shapes, pairs, shifts=shifts).separation[0] < 0\n"
        f"print(sorted(m for m in sys.modules if m.rsplit('.', 1)[-1] in {APPS!r} and m.startswith('collide2d')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]", f"library modules imported apps: {out}"
