"""The import contracts of ``pyproject.toml`` cover every module of the package.

``make typecheck`` checks the contracts themselves (import-linter); this test makes sure that a new
module cannot slip past them by being listed in no layer.
"""

from __future__ import annotations

import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
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
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (families,) = [c["modules"] for c in config["contracts"] if c["type"] == "independence"]
    packages = {f"collide2d._kernels.{p.name}" for p in (PACKAGE / "_kernels").iterdir() if (p / "__init__.py").exists()}
    shared = {"collide2d._kernels.relate"}  # the exact predicates, which every family may call
    missing = sorted(packages - set(families) - shared)
    assert not missing, f"add these kernel families to the independence contract of pyproject.toml: {missing}"


# What a shape or a ShapeTable keeps for the library only; the apps read the public attributes
# (Shape.fields, the field attributes, ShapeTable.kinds / params / vertices / bounds) instead.
SHAPE_PRIVATE = {
    "_fields", "_params", "_verts", "_kind", "_flat_params", "_bounds", "_field_names", "_scalar", "_tame",
    "_finish", "_finish_owned", "_sources", "_starts", "_frame",
}
APPS = ("cli", "io", "plotting", "demo", "dask", "scenes", "convert", "events", "__main__")


def _app_files():
    for name in APPS:
        module, package = PACKAGE / f"{name}.py", PACKAGE / name
        yield from [module] if module.exists() else sorted(package.rglob("*.py"))


def test_apps_read_no_private_field_of_a_shape():
    import ast

    found = []
    for path in _app_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Attribute) and node.attr in SHAPE_PRIVATE):
                continue
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue  # the app's own attributes
            found.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    assert list(_app_files()) and not found, f"apps reading private fields of shapes: {found}"
