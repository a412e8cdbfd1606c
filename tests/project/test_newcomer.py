"""What a newcomer met on a first run: the pictures, the demo's status line, the README, the quick tests.

Each test reads what a user sees (the rendered text, the positions of labels and markers in the
saved picture's pixel frame, the files the README names) rather than the code that makes it.
"""

from __future__ import annotations

import inspect
import itertools
import pathlib
import re

import numpy as np
import pytest

import collide2d as c2
from collide2d import scenes

ROOT = pathlib.Path(__file__).resolve().parents[2]


# -- pictures ----------------------------------------------------------------------------------------


@pytest.fixture
def figure():
    matplotlib = pytest.importorskip("matplotlib", reason="matplotlib is not installed (pip install 'collide2d[plot]')")
    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(7, 7))
    FigureCanvasAgg(figure)  # renders off-screen, as collide2d pairs --plot does
    return figure


def test_labels_at_one_centre_stay_apart_and_leave_the_point_visible(figure):
    # box-E, point-J and circle-K of the mixed scene are all centred at (5, 0)
    from collide2d import plotting

    scene = scenes.load("mixed")
    ax = figure.add_subplot()
    plotting.plot_pairs(scene.shapes, ax=ax, labels=scene.ids)
    figure.canvas.draw()
    renderer = figure.canvas.get_renderer()
    boxes = {text.get_text(): text.get_window_extent(renderer) for text in ax.texts}
    together = ["box-E", "point-J", "circle-K"]
    assert set(together) <= set(boxes)
    for first, second in itertools.combinations(together, 2):
        assert not boxes[first].overlaps(boxes[second]), (first, second)
    # the point is drawn, above the witness and intersection points that sit on it, under no label
    (points,) = [c for c in ax.collections if c.get_label() == "point shapes"]
    np.testing.assert_array_equal(points.get_offsets(), [[5.0, 0.0]])
    others = [c for c in ax.collections if c.get_label() in ("witness points", "intersection points")]
    assert others and all(points.get_zorder() > c.get_zorder() for c in others)
    x, y = ax.transData.transform((5.0, 0.0))
    assert not any(box.contains(x, y) for box in boxes.values())
    names = [text.get_text() for text in ax.get_legend().texts]
    assert "point" in names


def test_contact_normal_in_the_legend_is_a_line_not_a_rectangle(figure):
    # collide2d check --plot draws with plot_contact
    from matplotlib.lines import Line2D

    from collide2d import plotting

    ax = figure.add_subplot()
    plotting.plot_contact(c2.Box((0, 0), (2, 2)), c2.Circle((2.5, 1), 1), ax=ax)
    legend = ax.get_legend()
    handles = getattr(legend, "legend_handles", None) or legend.legendHandles  # matplotlib < 3.7
    by_name = {text.get_text(): handle for text, handle in zip(legend.texts, handles)}
    normal = [name for name in by_name if "normal" in name]
    assert normal == ["contact normal, a to b"]
    assert isinstance(by_name[normal[0]], Line2D)
    apart = figure.add_subplot(212)
    plotting.plot_contact(c2.Circle((0, 0), 1), c2.Circle((3, 0), 1), ax=apart)
    assert "colliding (red outline)" not in [text.get_text() for text in apart.get_legend().texts]


# -- the demo's bullets mode -------------------------------------------------------------------------


def test_bullets_status_line_counts_frames_and_bullets():
    pg = pytest.importorskip("pygame", reason="pygame-ce is not installed (pip install 'collide2d[demo]')")
    from collide2d.demo import BulletsDemo, bullet_range

    demo = BulletsDemo(bullet_range(640, 400), headless=True, seed=3)
    try:
        for _ in range(7):
            demo.frame(events=[])
        rows = []

        class Recording:  # the demo's font, keeping what it renders
            def __init__(self, font):
                self.font = font

            def render(self, text, *args):
                rows.append(text)
                return self.font.render(text, *args)

        demo.font = Recording(demo.font)
        demo._draw_text()
    finally:
        demo.close()
    assert isinstance(demo.surface, pg.Surface)
    fps = float(re.match(r"\s*([\d.]+) fps", rows[0]).group(1))
    assert fps > 0.0
    assert "last 7 frames" in rows[1]
    assert "colliding pairs" not in rows[0]
    flying = int(demo.bullets.flying.sum())
    stopped = int((demo.bullets.stuck_to >= 0).sum())
    assert flying + stopped > 0  # the gun fired in the first frame
    assert f"{flying} bullets in flight" in rows[0] and f"{stopped} stopped" in rows[0]


# -- the README and the site ---------------------------------------------------------------------


def _relative_targets(markdown):
    """Link and image targets of a Markdown text that are paths in the repository (no scheme, no anchor-only)."""
    targets = re.findall(r"\]\(([^)\s]+)\)", markdown)
    return [t.split("#", 1)[0] for t in targets if not re.match(r"[a-z][\w+.-]*:", t) and not t.startswith("#")]


@pytest.mark.quick
def test_readme_links_and_images_resolve_to_files_in_the_repository():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = _relative_targets(readme)
    images = re.findall(r"!\[[^\]]*\]\(([^)\s]+)\)", readme)
    assert images and all(image in targets for image in images)  # pictures by relative path
    assert sum(t.startswith("docs/") and t.endswith(".md") for t in targets) >= 10  # the guides as pages here
    missing = [t for t in targets if not (ROOT / t).is_file()]
    assert missing == []


@pytest.mark.quick
def test_the_link_check_catches_a_missing_file():
    assert _relative_targets("[a](docs/nope.md) ![b](docs/img/x.png) [c](https://x.org/y.md) [d](#top)") == [
        "docs/nope.md", "docs/img/x.png"]


@pytest.mark.quick
def test_readme_says_how_far_time_of_impact_looks():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert re.search(r"`time_of_impact`[^.]*`t_max\s*=\s*1`", readme.replace("\n", " "))


@pytest.mark.quick
def test_project_urls_and_read_the_docs_configuration():
    tomllib = pytest.importorskip("tomllib", reason="Python 3.11+ reads TOML")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    urls = project["urls"]
    assert {"Source", "Documentation", "Issues"} <= set(urls)
    assert all(url.startswith("https://") for url in urls.values())
    assert "docs" in project["optional-dependencies"]
    config = (ROOT / ".readthedocs.yaml").read_text(encoding="utf-8")
    assert re.search(r"^version: 2$", config, re.M)
    assert re.search(r"^\s+configuration: docs/conf.py$", config, re.M)
    assert (ROOT / "docs" / "conf.py").is_file()
    assert re.search(r"^\s+- docs$", config, re.M)  # the extra that installs Sphinx and its extensions


# -- the quick tests -----------------------------------------------------------------------------------


@pytest.mark.quick
def test_make_test_quick_runs_the_quick_marker():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^test-quick:", makefile, re.M)
    assert re.search(r"-m quick\b", makefile)
    tomllib = pytest.importorskip("tomllib", reason="Python 3.11+ reads TOML")
    markers = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]["markers"]
    assert any(marker.startswith("quick:") for marker in markers)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "make test-quick" in readme


# -- the reference: Raises, examples of the result types, the columns pairs reads -------------------


def _sections(obj):
    """The numpydoc section titles of a docstring (a title line underlined with dashes)."""
    lines = inspect.getdoc(obj).splitlines()
    return {title.strip() for title, under in zip(lines, lines[1:]) if under.strip() and set(under.strip()) == {"-"}}


@pytest.mark.quick
def test_every_public_function_says_what_it_raises():
    functions = [name for name in c2.__all__ if inspect.isfunction(getattr(c2, name))]
    assert len(functions) >= 30
    assert [name for name in functions if "Raises" not in _sections(getattr(c2, name))] == []


@pytest.mark.quick
def test_the_result_types_show_an_example():
    assert [name for name in ("Contact", "Manifold", "Impact", "Impacts", "RayHit") if "Examples" not in _sections(getattr(c2, name))] == []


@pytest.mark.quick
def test_exact_fallback_counts_refuses_a_reset_that_is_not_a_bool():
    before = c2.exact_fallback_counts()
    for wrong in ("no", 0, None):
        with pytest.raises(TypeError, match="reset must be True or False"):
            c2.exact_fallback_counts(reset=wrong)
    assert c2.exact_fallback_counts() == before  # nothing cleared
    assert c2.exact_fallback_counts(reset=np.bool_(False)) == before


def test_pairs_help_names_the_columns_it_reads(capsys, tmp_path):
    from collide2d import cli, io

    with pytest.raises(SystemExit):
        cli.main(["pairs", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    for columns in ("x, y, rx, ry", "x, y, r", "angle", "id", "kind"):
        assert columns in text
    # what the help says holds: any case, other columns ignored, ids and angles read
    (tmp_path / "e.csv").write_text("X,Y,RX,RY,Angle,ID,colour\n0,0,2,1,0.5,first,red\n", encoding="utf-8")
    (tmp_path / "c.csv").write_text("id,x,y,r\nk,1,2,3\n", encoding="utf-8")
    ids, ellipses = io.read_shapes(tmp_path / "e.csv")
    assert ids.tolist() == ["first"] and ellipses.angle.tolist() == [0.5]
    ids, circles = io.read_shapes(tmp_path / "c.csv")
    assert ids.tolist() == ["k"] and circles.radius.tolist() == [3.0]
