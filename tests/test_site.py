"""`dmtool site` on the real content: a rules site for readers, checked page by page."""

from __future__ import annotations

import json
import re
from collections import deque
from pathlib import Path

import pytest

from dmtool import __version__
from dmtool.diagnostics import catalogue
from dmtool.engine.dawn_of_madness.plans import BASE_COST
from dmtool.model.describe import Described, Ref
from dmtool.model.describe.locate import locate
from dmtool.model.describe.names import CorpusNames
from dmtool.model.describe.outline import describe_value
from dmtool.model.storybook import Storybook
from dmtool.reporters import render
from dmtool.sitegen import maps
from dmtool.sitegen.build import MARKER
from dmtool.sitegen.glossary import TERMS
from dmtool.storygraph.analysis import analyse
from dmtool.storygraph.context import context_for
from dmtool.validation.pipeline import CheckOptions, check_and_load, run_check
from tests.site_support import ROOT, BuiltSite, sections

BOOK = "wanderers/hollis-brandt/the-drowned-parish.html"
SCHEMAS = ROOT / "schemas"


def test_the_real_content_builds_and_reports_what_check_reports(real_site: BuiltSite) -> None:
    check = run_check(CheckOptions(paths=(ROOT / "content",), cache_dir=None))
    assert real_site.result.text == render(check, fmt="text", color=False,
                                           tool_version=__version__)
    assert "Found 0 errors, 0 warnings, 6 infos" in real_site.result.text
    assert (real_site.out / MARKER).is_file()
    assert (real_site.out / "search" / "search_index.js").is_file()  # search from disk
    assert not [p.name for p in real_site.out.parent.iterdir() if p.name != "site"]


def test_the_guide_renders_as_written(real_site: BuiltSite) -> None:
    guide = real_site.html("writing-a-wanderer.html")
    # A fence with a title is a titled code block; the modeline inside it stays code.
    assert '<span class="filename">content/wanderers/hollis-brandt/codas/the-wheel-turned.yaml' \
        in guide
    assert not re.search(r"<h\d[^>]*>[^<]*yaml-language-server", guide)
    assert 'href="#anatomy-of-an-entry"' in guide  # in the table of contents
    assert not re.search(r'href="#[^"]*yaml-language-server', guide)
    publishing = real_site.html("publishing-a-site.html")
    assert 'class="admonition note"' in publishing and 'class="admonition tip"' in publishing


def _effect_names() -> set[str]:
    names: set[str] = set()
    for file in ("defs.schema.json", "deep-madness-defs.schema.json"):
        defs = json.loads((SCHEMAS / file).read_text(encoding="utf-8"))["$defs"]
        for kind in ("effect", "condition"):
            names |= set(defs[kind]["propertyNames"]["enum"])
    return names


def test_no_generated_page_shows_yaml_from_the_content(real_site: BuiltSite) -> None:
    # A snake_case key, a flow mapping, or an effect or condition written as a list item.
    names = "|".join(sorted(_effect_names(), key=len, reverse=True))
    data_shape = re.compile(r"\b[a-z]+_[a-z_]+\s*:|\{\s*[a-z_]+\s*:|\[\s*\{|(?:^|\s)-\s+(?:"
                            + names + r")\s*:")
    pages = [p for folder in ("rules", "wanderers") for p in (real_site.out / folder).rglob("*.html")]
    assert len(pages) > 20
    for page in pages:
        text = sections(page.read_text(encoding="utf-8")).words
        found = data_shape.search(text)
        assert found is None, f"{page.relative_to(real_site.out)} shows data: {found.group()}"
        assert "<pre" not in page.read_text(encoding="utf-8"), page


def test_a_reader_reaches_every_ending_from_the_setup_by_clicking(real_site: BuiltSite) -> None:
    page = sections(real_site.html(BOOK))
    seen, queue = {"setup"}, deque(["setup"])
    while queue:
        for href in page.links.get(queue.popleft(), []):
            if href.startswith("#") and href[1:] in page.links and href[1:] not in seen:
                seen.add(href[1:])
                queue.append(href[1:])
    for letter in "abcd":
        assert f"ending-{letter}" in seen
    conclusions = {f"entry-{n}" for n in (330, 331, 370, 371, 410, 411, 450, 451)}
    assert conclusions <= page.ids and conclusions <= seen


def test_entries_read_as_a_gamebook(real_site: BuiltSite) -> None:
    html = real_site.html(BOOK)
    page = sections(html)
    assert {f"entry-{n}" for n in (1, 106, 107, 153 if "entry-153" in page.ids else 1)} <= page.ids
    entry = page.links["entry-106"]
    assert "#entry-107" in entry and "#entry-108" in entry  # pass / fail are links
    assert "#entry-106" in page.links["entry-107"]  # 'reached from'
    text = page.words
    assert "Test red for hand and blue for brain." in text
    assert "pass chance 21/32, 65.6% with Hollis Brandt's starting sentience" in text
    assert text.count("pass chance") == html.count("Test ") - html.count("Test yourself")
    assert "Each living wanderer in turn takes 1 blue damage." in text
    assert "If you hold the coda card The Wheel Turned" in text


def test_findings_and_score_bounds_are_in_words(real_site: BuiltSite) -> None:
    text = sections(real_site.html(BOOK)).words
    assert "one walk through the story gives it between 0 and 3 points" in text
    # An encounter card stays in play and can be resolved again and again (issue 29), so no
    # bound holds for the sample's endings.
    assert ("a whole game, each encounter resolved as often as the rules allow, gives it no "
            "upper limit") in text


def test_branch_pictures_link_every_entry_to_its_place(real_site: BuiltSite) -> None:
    book = sections(real_site.html(BOOK))
    map_page = real_site.html("wanderers/hollis-brandt/the-drowned-parish-map.html")
    assert map_page.count("<svg") >= 5 and 'class="dmtool-graph pan-zoom"' in map_page
    targets = re.findall(r'xlink:href="([^"]+)"', map_page)
    assert len(targets) > 150
    cards = sections(real_site.html("wanderers/hollis-brandt/cards.html"))
    for target in targets:
        page, _, anchor = target.partition("#")
        if page == "cards.html":  # a card's or shard's tag links to the card (issue 33)
            assert anchor in cards.ids, target
        elif "round-trackers" not in page:
            assert page == "the-drowned-parish.html" and anchor in book.ids, target


def test_cards_have_anchors_words_and_referrers(real_site: BuiltSite) -> None:
    cards = sections(real_site.html("wanderers/hollis-brandt/cards.html"))
    assert "coda-the-wheel-turned" in cards.ids and "world-shard-hallam-valve-house" in cards.ids
    referrers = cards.links["coda-the-wheel-turned"]
    assert "the-drowned-parish.html#entry-101" in referrers
    text = cards.words
    assert "Raise red sentience by 1 and lower yellow sentience by 1." in text


def test_chapter_page_has_board_decks_hazards_and_goals_in_words(real_site: BuiltSite) -> None:
    page = sections(real_site.html("rules/madness-reborn/dimension-breach.html"))
    text = page.words
    assert {"room-5", "component-dimension-sickness-tokens", "hazard-black"} <= page.ids
    assert "Trap Mines" in text and "Dimension Breach" in text
    assert ("Each investigator who is in a devoured room takes 1 Dimension Sickness Token from "
            "the supply (never holding more than 1).") in text
    assert "In rules terms: Dimension Breach has died." in text
    assert "In rules terms: a non-epic monster shares a space with a Trap Mine figure." in text
    campaign = sections(real_site.html("rules/rise-of-dagon/rite-of-bile.html")).words
    assert "This is chapter 1 of 3" in campaign and "carry over" in campaign


def test_reference_pages_come_from_the_engine_the_cli_and_the_schemas(real_site: BuiltSite) -> None:
    data = sections(real_site.html("reference/game-data.html")).words
    for action, cost in BASE_COST.items():
        assert re.search(rf"\b{action}\b\s+{cost}", data), action
    assert "On a tie, in this order: A, B, C, D." in data
    cli = sections(real_site.html("reference/command-line.html"))
    assert {"check", "site", "graph", "play", "explain"} <= cli.ids
    schemas = sections(real_site.html("reference/schemas.html"))
    assert {"kind-storybook", "kind-chapter", "kind-coda"} <= schemas.ids
    diagnostics = sections(real_site.html("reference/diagnostics.html"))
    assert {code.lower() for code in catalogue()} <= diagnostics.ids
    glossary = sections(real_site.html("reference/glossary.html"))
    assert len(glossary.ids & {t.replace(" ", "-") for t in TERMS}) == len(TERMS)


def test_every_page_is_reachable_from_the_home_page(real_site: BuiltSite) -> None:
    out = real_site.out
    pages = {p.relative_to(out).as_posix() for p in out.rglob("*.html") if p.name != "404.html"}
    seen, queue = {"index.html"}, deque(["index.html"])
    while queue:
        here = queue.popleft()
        for href in re.findall(r'href="([^"#:]+\.html)', (out / here).read_text(encoding="utf-8")):
            target = (Path(here).parent / href).as_posix()
            target = str(Path(target)).replace("\\", "/")
            parts: list[str] = []
            for part in target.split("/"):
                parts = parts[:-1] if part == ".." else [*parts, part] if part != "." else parts
            target = "/".join(parts)
            if target in pages and target not in seen:
                seen.add(target)
                queue.append(target)
    assert pages == seen


def test_nothing_is_loaded_from_another_host(real_site: BuiltSite) -> None:
    loads = re.compile(r'<(?:script|img|iframe)[^>]+src="(https?:)?//|<link[^>]+href="(https?:)?//'
                       r"|@import\s+url\(\s*['\"]?https?:")
    for page in real_site.out.rglob("*.html"):
        assert not loads.search(page.read_text(encoding="utf-8")), page
    for sheet in real_site.out.rglob("*.css"):
        assert not re.search(r"url\(\s*['\"]?https?:", sheet.read_text(encoding="utf-8")), sheet


def test_without_dot_the_map_page_says_how_to_get_the_pictures(
        monkeypatch: pytest.MonkeyPatch) -> None:
    book = ROOT / "content/wanderers/hollis-brandt/storybook.yaml"
    corpus = check_and_load(CheckOptions(paths=(ROOT / "content",), cache_dir=None)).corpus
    assert corpus is not None
    document = next(d for d in corpus.documents if Path(d.path) == book)
    analysis = analyse(Storybook.from_document(document), context_for(corpus, "hollis-brandt"))
    found = maps.pictures(analysis, "wanderers/hollis-brandt", "the-drowned-parish",
                          "wanderers/hollis-brandt/the-drowned-parish.md")
    assert 'URL="the-drowned-parish.html#entry-106"' in found[0].dot
    monkeypatch.setattr(maps, "find_dot", lambda: None)
    drawn, problems = maps.draw_all(found)
    assert drawn == [] and set(problems) == {p.path for p in found}
    page = maps.map_page("The Drowned Parish", "wanderers/hollis-brandt/the-drowned-parish.md",
                         found, problems)
    assert page.count("apt-get install graphviz") == len(found)
    assert "data-graph" not in page


def _terms(value: object) -> set[str]:
    """Glossary terms referred to anywhere in described effects or conditions."""
    found: set[str] = set()
    if isinstance(value, Ref):
        if value.kind == "term":
            found.add(str(value.target))
    elif isinstance(value, Described):
        for part in (*value.rest, *(s for side in value.sides for s in side.label)):
            found |= _terms(part)
        for side in value.sides:
            for inner in side.effects:
                found |= _terms(inner)
    elif isinstance(value, tuple):
        for item in value:
            found |= _terms(item)
    return found


def test_every_term_the_describer_links_is_in_the_glossary() -> None:
    corpus = check_and_load(CheckOptions(paths=(ROOT / "content",), cache_dir=None)).corpus
    assert corpus is not None
    names = CorpusNames(d.data for d in corpus.documents)
    used: set[str] = set()
    for document in corpus.documents:
        for found in locate(corpus.schemas, str(document.data.get("kind")), document.data):
            used |= _terms(describe_value(found.vocabulary, found.value, names))
    assert len(used) > 15
    assert used - set(TERMS) == set(), "define these in dmtool/sitegen/glossary.py"
