"""`dmtool site` treats authored text as untrusted, and only ever replaces its own output."""

from __future__ import annotations

import io
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import markdown
import pytest
from ruamel.yaml import YAML

from dmtool.errors import UsageError
from dmtool.sitegen import SiteOptions, run_site
from dmtool.sitegen.markdown import plain, prose
from dmtool.validation.pipeline import CheckOptions, check_and_load

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = "<script>alert('s')</script>"
IMAGE = "<img src=x onerror=alert('i')>"
LINK = "[x](javascript:alert('l'))"
TEMPLATE = "{{ 7*7 }}"
ATTRIBUTES = "{: onclick=alert('a') }"
EVERYTHING = f"{SCRIPT} {IMAGE} {LINK} {TEMPLATE} {ATTRIBUTES} <https://example.org>"


class _Markup(HTMLParser):
    """Collects every tag, attribute and script body of a page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)


def _assert_inert(html: str) -> None:
    markup = _Markup()
    markup.feed(html)
    for tag, attrs in markup.tags:
        assert not any(name.startswith("on") for name in attrs), (tag, attrs)
        for name in ("href", "src"):
            value = (attrs.get(name) or "").strip().lower()
            assert not value.startswith(("javascript:", "https://example.org")), (tag, attrs)
        assert not (tag == "img" and attrs.get("src") == "x")
    assert not any("alert" in body for body in markup.scripts)


@pytest.mark.parametrize("escape", [plain, prose])
def test_escaped_text_renders_as_text_only(escape) -> None:  # type: ignore[no-untyped-def]
    html = markdown.markdown(escape(EVERYTHING), extensions=["tables", "fenced_code", "toc"])
    _assert_inert(html)
    assert "&lt;script&gt;" in html and TEMPLATE in html
    assert "[x](javascript:alert('l'))" in html  # shown as written, not as a link


def test_prose_keeps_paragraphs_and_emphasis() -> None:
    html = markdown.markdown(prose("One *dark* night.\n\nA second paragraph."))
    assert html == "<p>One <em>dark</em> night.</p>\n<p>A second paragraph.</p>"


def _hostile(value: str) -> str:
    """The same text with every kind of injection appended (still one line of prose)."""
    return f"{value} {EVERYTHING}"


# Fields that hold authored words: prose, and titles, names, labels and summaries.
_WORDS = frozenset({"title", "name", "label", "summary", "text", "description", "flavor",
                    "introduction", "note", "reason", "rules", "goals", "convention"})


def _poison(value: Any, key: str = "") -> Any:
    if isinstance(value, dict):
        return {k: _poison(v, str(k)) for k, v in value.items()}
    if isinstance(value, list):
        return [_poison(v, key) for v in value]
    if isinstance(value, str) and key in _WORDS:
        return _hostile(value)
    return value


@pytest.fixture(scope="module")
def injected(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A copy of the real content with hostile text in every title, name, label and prose
    field of every document, the storybook's title (drawn into its pictures) included."""
    root = tmp_path_factory.mktemp("hostile")
    content = root / "content"
    shutil.copytree(ROOT / "content", content)
    shutil.copytree(ROOT / "schemas", root / "schemas")
    corpus = check_and_load(CheckOptions(paths=(content,), cache_dir=None)).corpus
    assert corpus is not None
    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = False
    yaml.width = 4096
    for document in corpus.documents:
        path = Path(document.path)
        modeline = path.read_text(encoding="utf-8").splitlines()[0]
        stream = io.StringIO()
        yaml.dump(_poison(document.data), stream)
        path.write_text(modeline + "\n" + stream.getvalue(), encoding="utf-8")
    return root, content


def test_hostile_content_becomes_text_and_diagnostics(injected: tuple[Path, Path]) -> None:
    root, content = injected
    out = root / "site"
    result = run_site(SiteOptions(content=content, out=out, docs_dir=None))
    assert result.exit_code == 0, (result.text[-2000:], result.messages)
    found = {(d.code, Path(d.location.path).name) for d in result.report.diagnostics}
    assert ("DM501", "storybook.yaml") in found and ("DM501", "wanderer.yaml") in found
    assert ("DM502", "storybook.yaml") in found and ("DM502", "1-dimension-breach.yaml") in found
    pages = sorted(out.rglob("*.html"))
    assert len(pages) > 30
    for page in pages:
        _assert_inert(page.read_text(encoding="utf-8"))
    book = (out / "wanderers/hollis-brandt/the-drowned-parish.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert" in book and TEMPLATE in book
    overview = (out / "wanderers/hollis-brandt/index.html").read_text(encoding="utf-8")
    assert "Hollis Brandt &lt;script&gt;" in overview and "Hollis Brandt ‹script›" in overview


def test_the_storybook_title_drawn_into_pictures_stays_text(injected: tuple[Path, Path]) -> None:
    root, _ = injected
    out = root / "site"
    pictures = sorted((out / "wanderers/hollis-brandt/maps").glob("*.svg"))
    if not pictures:
        pytest.skip("Graphviz's dot is not installed, so no pictures were drawn")
    for picture in pictures:
        svg = picture.read_text(encoding="utf-8")
        assert "The Drowned Parish &lt;script&gt;" in svg
        _assert_inert(svg)
        assert not re.search(r"<(script|foreignObject|iframe)", svg)
        for link in re.findall(r'href="([^"]*)"', svg):
            # An entry, or (issue 33) the card or round tracker that sends play to one.
            assert re.fullmatch(r"the-drowned-parish\.html#entry-\d+|cards\.html#[a-z0-9-]+"
                                r"|\.\./\.\./rules/dawn-of-madness/round-trackers\.html", link), link
    page = (out / "wanderers/hollis-brandt/the-drowned-parish-map.html").read_text("utf-8")
    _assert_inert(page)


def _small_content(root: Path) -> Path:
    content = root / "content"
    content.mkdir()
    shutil.copy(ROOT / "tests/cases/DM502/the-drowned-map.yaml", content / "map.yaml")
    (content / "map.yaml").write_text(
        (content / "map.yaml").read_text().replace("../../../schemas/", f"{ROOT}/schemas/"))
    return content


def test_refuses_a_folder_it_did_not_make(tmp_path: Path) -> None:
    content = _small_content(tmp_path)
    out = tmp_path / "site"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    for force in (False, True):  # --force only ever replaces what dmtool built
        with pytest.raises(UsageError, match="dmtool did not build it") as refused:
            run_site(SiteOptions(content=content, out=out, force=force))
        assert "--force" not in str(refused.value)
    assert sorted(p.name for p in out.iterdir()) == ["notes.txt"]
    assert (out / "notes.txt").read_text() == "mine"


def test_rebuilds_its_own_site_and_leaves_the_rest_alone(tmp_path: Path) -> None:
    content = _small_content(tmp_path)
    out = tmp_path / "site"
    run_site(SiteOptions(content=content, out=out))
    (out / "index.html").write_text("edited")  # files of the build may change freely
    run_site(SiteOptions(content=content, out=out))
    assert (out / "index.html").read_text() != "edited"
    (out / "stale.html").write_text("old")  # a file the build did not write
    with pytest.raises(UsageError, match=r"stale\.html were added since") as refused:
        run_site(SiteOptions(content=content, out=out))
    assert "--force" in str(refused.value)  # dmtool built the folder: --force may replace it
    run_site(SiteOptions(content=content, out=out, force=True))
    assert not (out / "stale.html").exists() and (out / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["content", "site"]


@pytest.mark.parametrize("where", [".", "content"])
def test_never_replaces_the_content_or_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    content = _small_content(tmp_path)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match="will not replace"):
        run_site(SiteOptions(content=content, out=Path(where), force=True))
    assert (content / "map.yaml").is_file()


def test_content_with_errors_builds_nothing_unless_allowed(tmp_path: Path) -> None:
    content = _small_content(tmp_path)
    (content / "map.yaml").write_text((content / "map.yaml").read_text() + "  - goto: [\n")
    out = tmp_path / "site"
    result = run_site(SiteOptions(content=content, out=out))
    assert result.exit_code == 1
    assert any(d.severity.value == "error" for d in result.report.diagnostics)
    assert "--allow-errors" in result.messages[0]
    assert not out.exists()
    allowed = run_site(SiteOptions(content=content, out=out, allow_errors=True))
    assert allowed.exit_code == 0 and allowed.text == result.text
    assert "Built from content with 1 error" in (out / "index.html").read_text("utf-8")
