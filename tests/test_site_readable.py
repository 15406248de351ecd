"""Issue 33: every part of the built site reads as a page, not as data (lists of records as
lists or tables, no bookkeeping fields, distinct titles and ids, names where people look for
them, code escaped once, "entry N" in prose a link)."""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import markdown
import pytest

from dmtool.balance.run import BalanceOptions, run_balance
from dmtool.cli import main
from dmtool.sitegen.balance import read_balance
from dmtool.sitegen.markdown import link_entries, prose
from dmtool.sitegen.site import site_pages
from dmtool.validation.pipeline import CheckOptions, check_and_load
from tests.site_support import ROOT, BuiltSite, sections

BOOK = "wanderers/hollis-brandt/the-drowned-parish.html"
_PARAGRAPH = re.compile(r"<p>(.*?)</p>", re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def _pages(site: BuiltSite) -> list[Path]:
    return sorted(p for p in site.out.rglob("*.html") if "assets" not in p.parts)


def test_no_page_holds_a_list_written_as_a_paragraph(real_site: BuiltSite) -> None:
    # A bare '-' or '- -' line inside a paragraph is list syntax Markdown did not take as a
    # list: the records it held ran on as one paragraph.
    bad = []
    for page in _pages(real_site):
        for paragraph in _PARAGRAPH.findall(page.read_text(encoding="utf-8")):
            text = _TAG.sub("", paragraph)
            if re.search(r"(?m)^\s*-(\s*$|\s+-\s)", text):
                bad.append(f"{page.relative_to(real_site.out)}: {text[:60]!r}")
    assert not bad, bad


def test_components_are_a_table_and_bookkeeping_is_hidden(real_site: BuiltSite) -> None:
    for wanderer in ("hollis-brandt", "emily-hawkins"):
        html = real_site.html(f"wanderers/{wanderer}/index.html")
        page = sections(html)
        box = html[html.index('id="in-the-box"'):]
        assert "<table>" in box and "<th>Component</th>" in box
        for field in ("title", "scope", "texts-published", "manifest", "id"):
            assert field not in page.ids, (wanderer, field)
    assert "Matching Standee" in real_site.html("wanderers/hollis-brandt/index.html")


def test_page_titles_graph_titles_and_ids_are_distinct(real_site: BuiltSite) -> None:
    titles = Counter()
    for page in _pages(real_site):
        html = page.read_text(encoding="utf-8")
        found = re.search(r"<title>(.*?)</title>", html)
        if found and page.name != "404.html":
            titles[found.group(1)] += 1
        ids = Counter(re.findall(r'\sid="([^"]+)"', html))
        repeated = [k for k, n in ids.items() if n > 1]
        assert not repeated, (page.relative_to(real_site.out), repeated[:5])
    assert [t for t, n in titles.items() if n > 1] == []
    graphs = real_site.html("wanderers/hollis-brandt/the-drowned-parish-map.html")
    svg_titles = re.findall(r'<g id="[^"]*" class="graph"[^>]*>\s*<title>([^<]*)</title>', graphs)
    assert len(svg_titles) >= 5 and len(set(svg_titles)) == len(svg_titles)
    assert "storybook" not in svg_titles


def test_backlinks_name_the_wanderer(real_site: BuiltSite) -> None:
    words = sections(real_site.html("wanderers/hollis-brandt/cards.html")).words
    assert "The Engineer of Lowmere Water" not in words.split("Referred to by:", 1)[1]
    assert "wanderer Hollis Brandt" in words


def test_inline_code_is_escaped_once() -> None:
    html = markdown.markdown(prose("Type `a < b & c` here, then <b>bold</b>."))
    assert "<code>a &lt; b &amp; c</code>" in html
    assert "&lt;b&gt;bold&lt;/b&gt;" in html and "<b>" not in html


def test_entry_numbers_in_prose_are_links_to_the_same_storybook(real_site: BuiltSite) -> None:
    book = sections(real_site.html(BOOK))
    assert "#entry-300" in book.links["ending-a"]
    assert "#entry-331" in book.links["ending-a"]
    text = link_entries(prose("Then read entry 300, not entry 9999 or `entry 12`."),
                        lambda n: f"#entry-{n}" if n in (12, 300) else None)
    assert "[entry 300](#entry-300)" in text and "entry 9999" in text
    assert "`entry 12`" in text and "[entry 12]" not in text
    cards = sections(real_site.html("wanderers/hollis-brandt/cards.html"))
    assert any(h.endswith("the-drowned-parish.html#entry-112")
               for h in cards.links["encounter-card-the-bell-rope"])


def test_markdown_block_syntax_in_prose_renders_as_paragraphs() -> None:
    written = "# x\n!!! danger\nTerm\n: meaning\nText\n---\n```\ncode\n```\n???+ note\n==="
    html = markdown.markdown(prose(written), extensions=[
        "admonition", "def_list", "attr_list", "pymdownx.details", "pymdownx.superfences"])
    for tag in ("<h1", "<h2", "<dl", "<div", "<details", "<pre", "<hr"):
        assert tag not in html, (tag, html)
    assert html.startswith("<p>") and "danger" in html and "meaning" in html


def test_the_balance_report_is_on_its_wanderers_page(tmp_path: Path) -> None:
    report = run_balance(BalanceOptions(content=ROOT / "content", games=4, jobs=1)).report
    data = tmp_path / "balance.json"
    data.write_text(json.dumps(report), encoding="utf-8")
    corpus = check_and_load(CheckOptions(paths=(ROOT / "content",), cache_dir=None)).corpus
    built = site_pages(corpus, docs_dir=None, balance=read_balance((data,)))
    pages = {p.path: p.text for p in built.pages}
    hollis = pages["wanderers/hollis-brandt/index.md"]
    assert "## Balance {#balance}" in hollis and "95% interval" in hollis
    first = report["configurations"][0]["outcomes"][0]
    assert f"| {100 * first['rate']:.1f}% |" in hollis
    assert "{#balance}" not in pages["wanderers/emily-hawkins/index.md"]


def test_a_file_that_is_not_a_balance_report_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    bad = tmp_path / "b.json"
    bad.write_text('{"games": 3}', encoding="utf-8")
    monkeypatch.setattr(sys, "argv", ["dmtool", "site", str(ROOT / "content"), "-o",
                                      str(tmp_path / "s"), "--balance", str(bad)])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "is not a balance report" in err and "Traceback" not in err
    assert not (tmp_path / "s").exists()


def test_the_configured_balance_reports_are_read_when_no_flag_names_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "b.json").write_text('{"games": 3}', encoding="utf-8")
    (tmp_path / "dmtool.toml").write_text('balance = ["b.json"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["dmtool", "site", str(ROOT / "content"), "-o",
                                      str(tmp_path / "s")])
    with pytest.raises(SystemExit) as exited:
        main()
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "b.json" in err and "is not a balance report" in err and "Traceback" not in err
    assert not (tmp_path / "s").exists()
