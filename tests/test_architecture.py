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


def test_no_import_is_exempt_from_the_contracts():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    exempt = {c["name"]: c["ignore_imports"] for c in config["contracts"] if c.get("ignore_imports")}
    assert not exempt, f"imports exempt from the contracts (remove the import instead): {exempt}"


def _cycles(graph):
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[module] = min(low[module], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycles_counting_imports_inside_functions():
    # the layers contract cannot see a cycle inside one layer (within _kernels, say); grimp's graph
    # holds every import, module-level and function-level alike
    grimp = pytest.importorskip("grimp")
    cycles = _cycles(grimp.build_graph("collide2d", cache_dir=None))
    assert not cycles, f"import cycles: {cycles}"


def test_every_kernel_family_is_in_the_independence_contract():
    # a new family (a package under _kernels) must not reach into another family's kernels;
    # relate is the shared family the others may use
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (families,) = [set(c["modules"]) for c in config["contracts"] if c["type"] == "independence"]
    packages = {f"collide2d._kernels.{path.name}" for path in (PACKAGE / "_kernels").iterdir()
                if (path / "__init__.py").exists()}
    missing = sorted(packages - families - {"collide2d._kernels.relate"})
    assert not missing, f"add these kernel families to the independence contract: {missing}"
