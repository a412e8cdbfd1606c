"""Sphinx configuration of the collide2d documentation (``make docs``).

The site is built offline: no intersphinx, no remote images, no theme downloads. The API
reference is generated from ``collide2d.__all__`` by the ``collide2d-api`` directive below, so a
public name cannot be left out of it.
"""

from __future__ import annotations

import inspect
import os
import sys

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.inspect import TypeAliasForwardRef

sys.path.insert(0, os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "src")))

import collide2d  # noqa: E402

project = "collide2d"
author = "collide2d contributors"
copyright = "2026, collide2d contributors"
release = version = collide2d.__version__

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "**/.ipynb_checkpoints"]
html_theme = "alabaster"
html_title = f"collide2d {release}"
html_static_path = ["img"]  # the pictures, also published at _static/<name>.png
html_theme_options = {
    "description": "Exact and fast 2D collision detection, centred on the ellipse",
    "page_width": "1160px",
}
html_show_sourcelink = False

myst_heading_anchors = 3
suppress_warnings = ["myst.header"]  # guides start sections at ## under a single # title

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
# Signatures show the aliases by name, not their expansions.
autodoc_type_aliases = {
    "ArrayLike": "numpy.typing.ArrayLike",
    "Pair": "collide2d.typing.Pair",
    "FloatArray": "collide2d.typing.FloatArray",
    "BoolArray": "collide2d.typing.BoolArray",
    "Int8Array": "collide2d.typing.Int8Array",
    "IntArray": "collide2d.typing.IntArray",
    "Shapes": "collide2d.broadphase.Shapes",
}
# An alias inside a union (``ArrayLike | None``) is shown by its name, not as ``TypeAliasForwardRef(...)``.
TypeAliasForwardRef.__repr__ = lambda self: self.name  # type: ignore[method-assign]
autosummary_generate = False
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks: set[str] = set()

# Sections of the API reference: each public name goes under the module that defines it.
API_SECTIONS = [
    ("Shapes", ["collide2d.shapes", "collide2d.table"]),
    ("Predicates", ["collide2d.predicates"]),
    ("Measures", ["collide2d.geometry", "collide2d.measurement", "collide2d.overlay", "collide2d.perram_wertheim"]),
    ("Many shapes", ["collide2d.broadphase", "collide2d.broadphase.index", "collide2d.nearest"]),
    ("Motion", ["collide2d.motion", "collide2d.raycast"]),
    ("Converters", ["collide2d.convert"]),
]
OTHER = "More functions and classes"  # public names of modules not listed above


class Collide2dApi(SphinxDirective):
    """Document every name of ``collide2d.__all__``, grouped by the module that defines it."""

    def run(self):
        names = list(collide2d.__all__)
        placed: dict[str, list[str]] = {title: [] for title, _ in API_SECTIONS + [(OTHER, [])]}
        for name in names:
            module = getattr(collide2d, name).__module__
            title = next((t for t, modules in API_SECTIONS if module in modules), OTHER)
            placed[title].append(name)
        lines = [".. currentmodule:: collide2d", ""]
        for title, members in placed.items():
            if not members:
                continue
            lines += [title, "-" * len(title), "", ".. autosummary::", "   :nosignatures:", ""]
            lines += [f"   {name}" for name in members] + [""]
            for name in members:
                kind = "autoclass" if inspect.isclass(getattr(collide2d, name)) else "autofunction"
                lines += [f".. {kind}:: {name}"] + (["   :members:"] if kind == "autoclass" else []) + [""]
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="collide2d.__all__"), self.content_offset, container, match_titles=True)
        return container.children


def setup(app):
    app.add_directive("collide2d-api", Collide2dApi)
