"""The documentation speaks to users: it names no file a user does not have, and its links to the
documentation site point at pages and sections that exist.

Scanned: every text file under ``src/`` and ``docs/`` (not the built site) and the README. A pip
install ships neither ``docs/`` nor the repository's other files, so docstrings and ``--help``
link the site instead of naming ``docs/*.md``; the README is read where the repository is (a code
host renders it), so it links the pages and pictures there by relative path (checked in
``test_newcomer.py``). Notes kept outside the repository, and local absolute paths, are never
named at all.
"""

import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SUFFIXES = {".py", ".md", ".rst", ".txt", ".toml", ".cfg", ".ini", ".json", ".csv"}
SKIP_PARTS = {"_build", "__pycache__", ".pytest_cache"}

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = pytest.importorskip("tomli")

DOCS_URL = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]["Documentation"]


def _scanned():
    files = [ROOT / "README.md"]
    for top in ("src", "docs"):
        for path in sorted((ROOT / top).rglob("*")):
            parts = set(path.relative_to(ROOT).parts)
            if path.is_file() and path.suffix in SUFFIXES and not parts & SKIP_PARTS and not any(
                part.endswith(".egg-info") for part in parts
            ):
                files.append(path)
    return files


FILES = _scanned()

# What a user does not have: the guides as files (they are pages of the site), notes outside the
# repository, and paths on somebody's machine.
FORBIDDEN = [
    (re.compile(r"\bdocs/[\w.-]+\.md\b"), "a docs/*.md file: link the site's page instead"),
    (re.compile(r"\b(?:ALGORITHMS|STYLE|API|NOTES)\.md\b"), "a file outside the repository"),
    (re.compile(r"\.\./shared\b"), "a folder outside the repository"),
    (re.compile(r"(?<![\w.:/])/(?:work|home|root|tmp|Users|mnt|opt)/[\w.-]+"), "an absolute local path"),
    (re.compile(r"\b[A-Za-z]:\\\\?(?:Users|work)\b"), "an absolute local path"),
    (re.compile(r"\bother engineers\b|\bthe lead\b", re.IGNORECASE), "talk about how the work went"),
]


def _lines(path):
    return path.read_text(encoding="utf-8").splitlines()


IN_THE_REPOSITORY = FORBIDDEN[0]  # the README's readers have the repository: its docs/*.md are there


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_names_no_file_a_user_does_not_have(path):
    rules = [rule for rule in FORBIDDEN if not (path.name == "README.md" and rule is IN_THE_REPOSITORY)]
    found = [
        f"{path.relative_to(ROOT)}:{number}: {why}: {line.strip()}"
        for number, line in enumerate(_lines(path), 1)
        for pattern, why in rules
        if pattern.search(line)
    ]
    assert found == []


@pytest.mark.parametrize(
    "line",
    [
        "See ``docs/conventions.md`` for frames.",
        "figures in docs/benchmarks.md, S1-S3",
        "as ALGORITHMS.md section 4 says",
        "the contract in /work/shared/API.md",
        "see ../shared/STYLE.md",
        "written to /tmp/cache/x.csv",
        "from other engineers' test suites",
    ],
)
def test_the_scan_catches_each_kind_of_reference(line):
    assert any(pattern.search(line) for pattern, _ in FORBIDDEN)


@pytest.mark.parametrize(
    "line",
    [
        f"See {DOCS_URL}conventions.html for frames.",
        "[Contact](contact.md) has the derivations",
        "python -m collide2d pairs in.csv -o out/pairs.csv",
        "ratios like 3/4 and a/b/c",
    ],
)
def test_the_scan_lets_site_links_and_relative_paths_pass(line):
    assert not any(pattern.search(line) for pattern, _ in FORBIDDEN)


def _slug(title):
    """The anchor Sphinx and MyST give a heading: lower case, punctuation dropped, spaces to hyphens."""
    title = re.sub(r"[`*]", "", title).lower()
    title = re.sub(r"[^\w\s-]", "", title)
    return re.sub(r"[\s_]+", "-", title).strip("-")


def _page_anchors(page):
    for suffix in (".md", ".rst"):
        source = ROOT / "docs" / (page + suffix)
        if source.exists():
            lines = _lines(source)
            if suffix == ".md":
                return {_slug(line.lstrip("#")) for line in lines if re.match(r"#{1,6} ", line)}
            return {_slug(line) for line, under in zip(lines, lines[1:]) if under and set(under) <= set("=-~^") and len(under) >= len(line) > 0}
    return None


SITE_LINK = re.compile(re.escape(DOCS_URL) + r"([\w/-]*(?:\.html|\.png)?)(?:#([\w-]+))?")


def _site_links():
    for path in FILES:
        for number, line in enumerate(_lines(path), 1):
            for match in SITE_LINK.finditer(line):
                yield f"{path.relative_to(ROOT)}:{number}", match.group(1), match.group(2)


def test_site_links_point_at_pages_and_sections_that_exist():
    links = list(_site_links())
    assert len(links) >= 10  # the README, the package docstring, the shapes and the CLI link the site
    broken = []
    for where, target, anchor in links:
        if target in ("", "index.html"):
            continue
        if target.startswith("_static/"):
            if not (ROOT / "docs" / "img" / target.removeprefix("_static/")).is_file():
                broken.append(f"{where}: {target} is not in docs/img (copied to _static by the build)")
            continue
        anchors = _page_anchors(target.removesuffix(".html")) if target.endswith(".html") else None
        if anchors is None:
            broken.append(f"{where}: {target} is no page of the site")
        elif anchor and anchor not in anchors:
            broken.append(f"{where}: {target} has no section #{anchor}")
    assert broken == []


def test_every_link_to_the_site_uses_the_one_documentation_url():
    stray = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in FILES
        for number, line in enumerate(_lines(path), 1)
        for url in re.findall(r"https?://collide2d\.[\w./-]*", line)
        if not url.startswith(DOCS_URL.rstrip("/"))
    ]
    assert stray == []
    from collide2d import cli

    assert cli.DOCS_URL == DOCS_URL


def test_readme_images_are_pictures_of_the_repository():
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", (ROOT / "README.md").read_text())
    assert images, "the README shows pictures"
    assert [path for path in images if not (path.startswith("docs/img/") and (ROOT / path).is_file())] == []
