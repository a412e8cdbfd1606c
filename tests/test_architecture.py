"""The import contracts of ``pyproject.toml`` cover every module of the package.

``make typecheck`` checks the contracts themselves (import-linter); this test makes sure that a new
module cannot slip past them by being listed in no layer.
"""

from __future__ import annotations

import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "collide2d"

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")


def _layered_modules():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in config["contracts"] if c["type"] == "layers"]
    return {name.strip() for layer in layers for name in re.split(r"[|:]", layer)}


def _package_modules():
    names = set()
    for path in PACKAGE.glob("*.py"):
        if path.name != "__init__.py":
            names.add(f"collide2d.{path.stem}")
    for path in PACKAGE.iterdir():
        if path.is_dir() and (path / "__init__.py").exists():
            names.add(f"collide2d.{path.name}")
    return names


def test_every_module_is_in_a_layer_of_the_import_contract():
    missing = sorted(_package_modules() - _layered_modules())
    assert not missing, f"add these modules to a layer in [tool.importlinter] of pyproject.toml: {missing}"


def test_every_layer_names_a_module_that_exists():
    stale = sorted(_layered_modules() - _package_modules())
    assert not stale, f"layers name modules that do not exist: {stale}"
