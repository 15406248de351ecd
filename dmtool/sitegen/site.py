"""Every page of the site and the nav that orders them: rules, chapters, wanderers with their
cards, storybooks and maps, and the references (game data, glossary, diagnostics, CLI,
schemas)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dmtool.loading import SourceDocument
from dmtool.model.describe.names import CorpusNames
from dmtool.model.storybook import Storybook
from dmtool.sitegen.balance import balance_blocks
from dmtool.sitegen.chapters import chapter_local_targets, chapter_page
from dmtool.sitegen.core import campaign_blocks, core_kind_page, expansion_document_page
from dmtool.sitegen.glossary import GLOSSARY_PAGE, glossary_page
from dmtool.sitegen.links import Links
from dmtool.sitegen.maps import Picture, map_page, pictures
from dmtool.sitegen.markdown import plain
from dmtool.sitegen.pages import Nav, Page, group, id_title, nav_title
from dmtool.sitegen.plan import (
    DIAGNOSTICS_PAGE,
    GAME_DATA_PAGE,
    Plan,
    add_referrers,
    make_plan,
    wanderer_folder,
)
from dmtool.sitegen.reader import reader_data, reader_page, reader_path
from dmtool.sitegen.reference import diagnostics_page, guide_pages, home_page
from dmtool.sitegen.references import cli_page, game_data_page, schema_page
from dmtool.sitegen.render import Renderer, title_of
from dmtool.sitegen.storybook import local_targets, storybook_page
from dmtool.sitegen.wanderers import box_blocks, cards_page, overview_page, sorted_cards
from dmtool.sitegen.words import Writer
from dmtool.storygraph.analysis import analyse
from dmtool.storygraph.context import context_for
from dmtool.validation.references import ReferenceWalker

CLI_PAGE = "reference/command-line.md"
SCHEMA_PAGE = "reference/schemas.md"


@dataclass
class Built:
    pages: list[Page]
    nav: Nav
    pictures: list[Picture]
    map_pages: dict[str, tuple[str, str, list[Picture]]]  # page -> (title, book page, drawings)


class _Context:
    """What every page generator needs: the plan, names, schemas and the reference walker."""

    def __init__(self, corpus: Any) -> None:
        self.corpus = corpus
        self.names = CorpusNames(d.data for d in corpus.documents)
        self.walker = ReferenceWalker(corpus.schemas)
        self.groups = group(corpus.documents)
        self.plan: Plan = make_plan(self.groups)
        add_referrers(self.plan, corpus.documents, self.walker, corpus.schemas)

    def renderer(self, data: Mapping[str, Any], page: str,
                 local: Mapping[tuple[str, str], str] | None = None,
                 note: Callable[[Any], str] | None = None) -> Renderer:
        writer = Writer(Links(self.plan.site, page, local or {}), note=note)
        return Renderer.for_document(data, writer=writer, names=self.names,
                                     schemas=self.corpus.schemas, walker=self.walker)


def site_pages(corpus: Any, *, docs_dir: Path | None, commands: Any = None,
               errors: int = 0, balance: Mapping[str, Mapping[str, Any]] | None = None) -> Built:
    context = _Context(corpus)
    pages: list[Page] = []
    core, core_nav = _core(context)
    expansions, expansion_nav = _expansions(context)
    wanderers, wanderer_nav, found, maps = _wanderers(context, balance or {})
    guides, home = guide_pages(docs_dir)
    reference = [Page(GAME_DATA_PAGE, game_data_page()), Page(GLOSSARY_PAGE, glossary_page()),
                 diagnostics_page(), Page(SCHEMA_PAGE, schema_page(corpus.schemas))]
    if commands is not None:
        reference.append(Page(CLI_PAGE, cli_page(commands)))
    sections = [(title, _first(part)) for title, part in (
        ("Dawn of Madness rules", core_nav), ("Deep Madness chapters", expansion_nav),
        ("Wanderers and their storybooks", wanderer_nav)) if part]
    sections += [("Game data from the rules engine", GAME_DATA_PAGE), ("Glossary", GLOSSARY_PAGE),
                 ("Diagnostics reference", DIAGNOSTICS_PAGE)]
    pages = [home_page(home, sections=sections, errors=errors), *guides, *core, *expansions, *wanderers,
             *reference]
    nav: Nav = [{"Home": "index.md"}]
    if guides:
        nav.append({"Guides": [page.path for page in guides]})
    nav += [{title: part} for title, part in (("Dawn of Madness", core_nav),
                                              ("Deep Madness", expansion_nav),
                                              ("Wanderers", wanderer_nav)) if part]
    nav.append({"Reference": [{"Game data": GAME_DATA_PAGE}, {"Glossary": GLOSSARY_PAGE},
                              {"Diagnostics": DIAGNOSTICS_PAGE}, {"Schemas": SCHEMA_PAGE},
                              *([{"Command line": CLI_PAGE}] if commands is not None else [])]})
    return Built(pages, nav, found, maps)


def _first(nav: Nav) -> str:
    value: object = nav
    while isinstance(value, (list, dict)):
        value = value[0] if isinstance(value, list) else next(iter(value.values()))
    return str(value)


def _core(context: _Context) -> tuple[list[Page], Nav]:
    by_page: dict[str, list[SourceDocument]] = {}
    for document in context.groups.core:
        by_page.setdefault(context.plan.where[id(document)].partition("#")[0], []).append(document)
    pages, nav = [], []
    for page, documents in sorted(by_page.items(), key=lambda kv: _core_rank(kv[1][0])):
        renders = [(d, context.renderer(d.data, page)) for d in documents]
        title, text = core_kind_page(renders)
        pages.append(Page(page, text))
        nav.append({nav_title(title): page})
    return pages, nav


CORE_ORDER = ("game-rules", "manifest", "round-trackers", "condition-types", "support-cards",
              "family", "abomination", "terror", "devour-card")


def _core_rank(document: SourceDocument) -> int:
    kind = document.data.get("kind")
    return CORE_ORDER.index(kind) if kind in CORE_ORDER else len(CORE_ORDER)


EXPANSION_ORDER = ("manifest", "expansion-rules", "campaign", "chapter", "card-text")


def _expansions(context: _Context) -> tuple[list[Page], Nav]:
    pages: list[Page] = []
    nav: Nav = []
    for expansion in sorted(context.groups.expansions):
        documents = sorted(context.groups.expansions[expansion], key=_expansion_rank)
        campaigns = [d.data for d in documents if d.data.get("kind") == "campaign"]
        section: Nav = []
        for document in documents:
            data = document.data
            page = context.plan.where[id(document)]
            if data.get("kind") == "chapter":
                render = context.renderer(data, page, chapter_local_targets(page, data))
                text = chapter_page(data, render, box=_box(context, expansion),
                                    campaign=campaign_blocks(data, campaigns, render.writer.links))
                number = data.get("number")
                name = f"{number}. {title_of(data)}" if isinstance(number, int) else title_of(data)
            else:
                render = context.renderer(data, page)
                text, name = expansion_document_page(data, render), title_of(data)
            pages.append(Page(page, text))
            section.append({nav_title(name): page})
        nav.append({nav_title(id_title(expansion)): section})
    return pages, nav


def _expansion_rank(document: SourceDocument) -> tuple[int, Any, str]:
    data = document.data
    kind = data.get("kind")
    number = data.get("number")
    return (EXPANSION_ORDER.index(kind) if kind in EXPANSION_ORDER else len(EXPANSION_ORDER),
            number if isinstance(number, int) else 0, title_of(data).lower())


def _box(context: _Context, expansion: str) -> dict[str, int]:
    """Counts of every line (and part of a line) of the expansion's component manifest."""
    counts: dict[str, int] = {}
    for document in context.groups.expansions.get(expansion, []):
        if document.data.get("kind") != "manifest":
            continue
        for line in document.data.get("components") or []:
            for item in [line, *(line.get("parts") or [])] if isinstance(line, dict) else []:
                if isinstance(item, dict) and isinstance(item.get("count"), int):
                    counts[str(item.get("id"))] = item["count"]
    return counts


def _wanderers(context: _Context, balance: Mapping[str, Mapping[str, Any]]) -> tuple[list[Page], Nav, list[Picture],
                                           dict[str, tuple[str, str, list[Picture]]]]:
    pages: list[Page] = []
    nav: Nav = []
    all_drawings: list[Picture] = []
    maps: dict[str, tuple[str, str, list[Picture]]] = {}
    for wanderer_id in sorted(context.groups.wanderers):
        documents = context.groups.wanderers[wanderer_id]
        folder = wanderer_folder(wanderer_id)
        wanderer = next((d.data for d in documents if d.data.get("kind") == "wanderer"), None)
        name = str((wanderer or {}).get("name") or id_title(wanderer_id))
        books = [d for d in documents if d.data.get("kind") == "storybook"]
        local: dict[tuple[str, str], str] = {}
        for book in books:
            local |= local_targets(context.plan.storybook_pages[str(book.data.get("id"))],
                                   Storybook.from_document(book))
        section: Nav = [{nav_title(f"{name}: overview"): f"{folder}/index.md"}]
        story_blocks: list[str] = []
        for book in books:
            page = context.plan.storybook_pages[str(book.data.get("id"))]
            analysis = analyse(Storybook.from_document(book), context_for(context.corpus, wanderer_id))
            map_path = page.removesuffix(".md") + "-map.md"
            found = pictures(analysis, folder, str(book.data.get("id")), page,
                             Links(context.plan.site, map_path, local))
            all_drawings += found
            maps[map_path] = (title_of(book.data), page, found)
            render = context.renderer(book.data, page, local)
            pages.append(Page(page, storybook_page(
                book.data, analysis, links=render.writer.links, names=context.names,
                wanderer_name=name, map_page=map_path.rsplit("/", 1)[-1],
                reader_page=reader_path(page).rsplit("/", 1)[-1])))
            reading = reader_path(page)
            story = reading.removesuffix(".md") + ".json"
            pages.append(Page(story, reader_data(
                book.data, analysis, links=render.writer.links, names=context.names,
                wanderer=name, map_page=map_path.rsplit("/", 1)[-1])))
            pages.append(Page(reading, reader_page(
                title_of(book.data), name, page, map_path.rsplit("/", 1)[-1], story)))
            section += [{nav_title(f"Read: {title_of(book.data)}"): reading},
                        {nav_title(f"Storybook: {title_of(book.data)}"): page},
                        {nav_title(f"Map: {title_of(book.data)}"): map_path}]
            story_blocks += [f"## Storybook: [{plain(title_of(book.data))}]"
                             f"({page.rsplit('/', 1)[-1]})",
                             f"{len(analysis.graph.storybook.entries)} entries; "
                             f"[read it one entry at a time]({reading.rsplit('/', 1)[-1]}); "
                             f"[map of its branches]({map_path.rsplit('/', 1)[-1]})."]
        cards = sorted_cards(documents)
        if cards:
            card_page = f"{folder}/cards.md"
            renders = [(d, context.renderer(d.data, card_page, local)) for d in cards]
            pages.append(Page(card_page, cards_page(name, renders, context.plan.referrers,
                                                    card_page)))
            section.append({"Cards": card_page})
        overview = wanderer or {"kind": "wanderer", "id": wanderer_id, "name": name}
        render = context.renderer(overview, f"{folder}/index.md", local)
        manifests = [box_blocks(d.data, context.renderer(d.data, f"{folder}/index.md", local))
                     for d in documents if d.data.get("kind") == "manifest"]
        text = overview_page(overview, render, storybooks=story_blocks, cards=cards,
                             cards_link="cards.md")
        if wanderer_id in balance:
            text += "\n" + "\n\n".join(balance_blocks(balance[wanderer_id])) + "\n"
        for blocks in manifests:
            text += "\n" + "\n\n".join(blocks) + "\n"
        pages.append(Page(f"{folder}/index.md", text))
        nav.append({nav_title(name): section})
    return pages, nav, all_drawings, maps


def map_pages(maps: Mapping[str, tuple[str, str, list[Picture]]],
              problems: Mapping[str, str]) -> list[Page]:
    """The map pages, written once the pictures are drawn (or known to be missing)."""
    return [Page(path, map_page(title, book, found, dict(problems)))
            for path, (title, book, found) in maps.items()]
