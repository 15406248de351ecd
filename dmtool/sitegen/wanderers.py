"""Wanderer pages: the dashboard, cards by kind and the storybook's summary and analysis on
one page, and the storybook's entries with their text on a second."""

from __future__ import annotations

from collections import Counter
from typing import Any

from dmtool.loading import SourceDocument
from dmtool.model.storybook import Storybook
from dmtool.sitegen.markdown import code_block, plain, prose, slug, table
from dmtool.sitegen.pages import Nav, Page, id_title, nav_title
from dmtool.sitegen.render import (
    HEAD_KEYS,
    LEAD_KEYS,
    bullets,
    document_page,
    head,
    sections,
    title_of,
    yamlish,
)
from dmtool.storygraph.analysis import Analysis, analyse
from dmtool.storygraph.context import context_for

CARD_ORDER = ("wanderer-card", "existence-card", "domain-card", "coda", "encounter-card",
              "world-shard", "malformation", "final-boss", "finale-encounter-card",
              "finale-legacy-card")
OWN_KINDS = ("wanderer", "storybook", "manifest")


def wanderer_pages(wanderers: dict[str, list[SourceDocument]], corpus: Any) -> tuple[list[Page], Nav]:
    """Two pages per wanderer with a storybook (overview, storybook), one otherwise."""
    pages: list[Page] = []
    nav: Nav = []
    for wanderer_id in sorted(wanderers):
        documents = wanderers[wanderer_id]
        folder = f"wanderers/{slug(wanderer_id)}"
        wanderer = next((d.data for d in documents if d.data.get("kind") == "wanderer"), None)
        name = str(wanderer.get("name") or title_of(wanderer)) if wanderer else id_title(wanderer_id)
        if wanderer is None:
            manifests = [d.data for d in documents if d.data.get("kind") == "manifest"]
            text = "\n".join(document_page(m) for m in manifests) or f"# {plain(name)}\n"
            pages.append(Page(f"{folder}/index.md", text))
            nav.append({nav_title(name): f"{folder}/index.md"})
            continue
        storybooks = [d for d in documents if d.data.get("kind") == "storybook"]
        analyses = [(d, analyse(book := Storybook.from_document(d),
                                context_for(corpus, book.wanderer))) for d in storybooks]
        pages.append(Page(f"{folder}/index.md", overview(wanderer, documents, analyses)))
        section: Nav = [{"Overview": f"{folder}/index.md"}]
        for document, _ in analyses:
            path = f"{folder}/storybook-{slug(document.data.get('id'))}.md"
            pages.append(Page(path, storybook_page(document.data)))
            section.append({nav_title(f"Storybook: {title_of(document.data)}"): path})
        nav.append({nav_title(name): section})
    return pages, nav


def overview(wanderer: dict[str, Any], documents: list[SourceDocument],
             analyses: list[tuple[SourceDocument, Analysis]]) -> str:
    blocks = [head(wanderer, title=str(wanderer.get("name") or title_of(wanderer)))]  # name, not title
    if isinstance(wanderer.get("title"), str):
        blocks.append(f"*{plain(wanderer['title'])}*")
    if isinstance(wanderer.get("description"), str):
        blocks.append(prose(wanderer["description"]))
    blocks += _dashboard(wanderer.get("dashboard"))
    blocks += sections(wanderer, skip=(*HEAD_KEYS, "description", "dashboard", "storybook"))
    for document, analysis in analyses:
        blocks += storybook_summary(document, analysis)
    blocks += _cards(documents)
    return "\n\n".join(blocks) + "\n"


def _dashboard(dashboard: Any) -> list[str]:
    if not isinstance(dashboard, dict):
        return []
    blocks = ["## Dashboard"]
    sentience = dashboard.get("sentience")
    if isinstance(sentience, dict):
        blocks.append(table(["Colour", "Starting sentience"],
                            [[plain(k), plain(v)] for k, v in sentience.items()]))
    rest = {k: v for k, v in dashboard.items() if k != "sentience"}
    blocks.append("\n".join(bullets(rest, indent=0)))
    return blocks


def storybook_summary(document: SourceDocument, analysis: Analysis) -> list[str]:
    """The storybook in numbers: entries by kind, endings and conclusions, findings, scores."""
    data = document.data
    book = analysis.graph.storybook
    link = f"storybook-{slug(data.get('id'))}.md"
    kinds = Counter(entry.kind for entry in book.entries.values())
    counts = ", ".join(f"{n} {plain(kind)}" for kind, n in sorted(kinds.items()))
    blocks = [f"## Storybook: {plain(title_of(data))}",
              f"{len(book.entries)} entries ({counts}). [Read every entry]({link})."]
    if isinstance(data.get("introduction"), str):
        blocks.append(prose(data["introduction"]))
    blocks.append("### Endings")
    for ending in data.get("endings") or []:
        if isinstance(ending, dict):
            blocks += _ending(ending, link)
    blocks.append("### Story graph findings")
    findings = sorted(analysis.diagnostics, key=lambda d: d.sort_key())
    if findings:
        blocks.append(table(["Line", "Code", "Severity", "Finding"], [
            [str(d.location.line), d.code, d.severity.value, plain(d.message)] for d in findings]))
    else:
        blocks.append("The story graph analysis found no broken links, dead ends, unreachable "
                      "entries or traps.")
    blocks.append("### Score bounds")
    blocks.append("Points one walk through the story can give each ending, and the most a game "
                  "can give it if every encounter is read once.")
    blocks.append(table(["Ending", "One walk, least", "One walk, most", "One game, most"], [
        [letter, _num(b.walk_min), _num(b.walk_max), _num(b.game_max)]
        for letter, b in analysis.scores.bounds.items()]))
    return blocks


def _ending(ending: dict[str, Any], link: str) -> list[str]:
    blocks = [f"#### Ending {plain(ending.get('ending', '?'))}: {plain(ending.get('title', ''))}"]
    facts = []
    if isinstance(ending.get("start"), int):
        facts.append(f"the finale starts at [entry {ending['start']}]({link}#entry-{ending['start']})")
    if ending.get("final_bosses"):
        facts.append("final bosses: " + ", ".join(plain(b) for b in ending["final_bosses"]))
    if facts:
        blocks.append("; ".join(facts).capitalize() + ".")
    for key in ("goals", "rules"):
        if isinstance(ending.get(key), str):
            blocks += [f"**{key.capitalize()}.**", prose(ending[key])]
    rows = []
    for conclusion in ending.get("conclusions") or []:
        if isinstance(conclusion, dict):
            entry = conclusion.get("entry")
            where = f"[{entry}]({link}#entry-{entry})" if isinstance(entry, int) else ""
            rows.append([where, plain(conclusion.get("title", "")), plain(conclusion.get("legacy", ""))])
    if rows:
        blocks.append(table(["Entry", "Conclusion", "Finale legacy card"], rows))
    return blocks


def _num(value: float) -> str:
    return "unbounded" if value == float("inf") else str(int(value))


def _cards(documents: list[SourceDocument]) -> list[str]:
    cards = [d.data for d in documents if d.data.get("kind") not in OWN_KINDS]
    order = {kind: index for index, kind in enumerate(CARD_ORDER)}
    cards.sort(key=lambda c: (order.get(c.get("kind"), len(order)), str(c.get("kind")),
                              c.get("number") if isinstance(c.get("number"), int) else 0,
                              title_of(c).lower()))
    blocks: list[str] = []
    current = None
    for card in cards:
        if card.get("kind") != current:
            current = card.get("kind")
            count = sum(1 for c in cards if c.get("kind") == current)
            blocks.append(f"## {plain(id_title(str(current)))}s ({count})")
        blocks.append(f"### {plain(title_of(card))}")
        blocks += [prose(card[key]) for key in LEAD_KEYS if isinstance(card.get(key), str)]
        rest = {k: v for k, v in card.items()
                if k not in (*HEAD_KEYS, "wanderer", *LEAD_KEYS)}
        if rest:
            blocks.append("\n".join(bullets(rest, indent=0)))
    return blocks


def storybook_page(data: dict[str, Any]) -> str:
    """Every entry in number order with its kind, entrance, text and effects."""
    blocks = [head(data)]
    setup = data.get("setup")
    if isinstance(setup, dict):
        blocks.append("## Storybook setup")
        if isinstance(setup.get("text"), str):
            blocks.append(prose(setup["text"]))
        if setup.get("effects"):
            blocks.append(code_block(yamlish(setup["effects"])))
    entries = [e for e in data.get("entries") or [] if isinstance(e, dict)]
    for entry in sorted(entries, key=lambda e: e.get("entry") if isinstance(e.get("entry"), int) else 0):
        number = entry.get("entry")
        if isinstance(number, int):
            # Our own anchor (an int), so ending and conclusion links need no authored slug.
            blocks.append(f'<div id="entry-{int(number)}"></div>')
        blocks.append(f"## {plain(number)}: {plain(entry.get('title', ''))}")
        blocks.append(f"*{plain(str(entry.get('kind', '')).replace('_', ' '))}*")
        entrance = entry.get("entrance")
        if isinstance(entrance, dict):
            blocks.append("**Entrance** (" + plain(yamlish(entrance.get("when"))) + "): "
                          + prose(entrance.get("text", "")))
        if isinstance(entry.get("text"), str):
            blocks.append(prose(entry["text"]))
        if entry.get("effects"):
            blocks.append(code_block(yamlish(entry["effects"])))
    return "\n\n".join(blocks) + "\n"
