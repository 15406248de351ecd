"""Wanderer pages: an overview (dashboard, storybooks, what is in the box) and the cards, each
under its title with an anchor, its kind, numbers, text and effects in words, and what
refers to it (the entries that award it, the cards that name it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dmtool.loading import SourceDocument
from dmtool.sitegen.markdown import plain, prose, slug, table
from dmtool.sitegen.render import HEAD_KEYS, LEAD_KEYS, Renderer, head, title_of, words_of

CARD_ORDER = ("wanderer-card", "existence-card", "domain-card", "coda", "encounter-card",
              "world-shard", "malformation", "terror", "final-boss", "finale-encounter-card",
              "finale-legacy-card")
KIND_NAMES = {"wanderer-card": "Wanderer cards", "existence-card": "Existence cards",
              "domain-card": "Domain cards", "coda": "Coda cards",
              "encounter-card": "Encounter cards", "world-shard": "World shards",
              "malformation": "Malformations", "terror": "Terrors", "final-boss": "Final bosses",
              "finale-encounter-card": "Finale encounter cards",
              "finale-legacy-card": "Finale legacy cards"}
OWN_KINDS = ("wanderer", "storybook", "manifest")
# Fields that keep the content in order and mean nothing to a reader of the page.
BOOKKEEPING = ("kind", "id", "title", "scope", "wanderer", "texts_published", "manifest",
               "storybook")


def card_anchor(kind: str, key: str) -> str:
    return f"{slug(kind)}-{slug(key)}"


def is_card(document: SourceDocument) -> bool:
    return document.data.get("kind") not in OWN_KINDS


def sorted_cards(documents: list[SourceDocument]) -> list[SourceDocument]:
    order = {kind: index for index, kind in enumerate(CARD_ORDER)}

    def rank(document: SourceDocument) -> tuple[Any, ...]:
        data = document.data
        number = data.get("number")
        return (order.get(data.get("kind"), len(order)), str(data.get("kind")),
                number if isinstance(number, int) else 0, title_of(data).lower())
    return sorted((d for d in documents if is_card(d)), key=rank)


Referrers = Mapping[tuple[str, str], list[tuple[str, str]]]


def cards_page(name: str, cards: list[tuple[SourceDocument, Renderer]],
               referrers: Referrers, page: str) -> str:
    blocks = [f"# {plain(name)}: cards",
              "Every card of the wanderer, by kind. Each says what refers to it."]
    kinds = [str(d.data.get("kind")) for d, _ in cards]
    if kinds:
        blocks.append("Kinds: " + ", ".join(
            f"[{KIND_NAMES.get(k, words_of(k))} ({kinds.count(k)})](#{slug(k)}s)"
            for k in dict.fromkeys(kinds)) + ".")
    current = None
    for document, render in cards:
        data = document.data
        kind = str(data.get("kind"))
        if kind != current:
            current = kind
            blocks.append(f"## {KIND_NAMES.get(kind, words_of(kind))} {{#{slug(kind)}s}}")
        blocks += card_blocks(data, render, referrers)
    return "\n\n".join(blocks) + "\n"


def card_blocks(data: Mapping[str, Any], render: Renderer, referrers: Referrers) -> list[str]:
    """One card: heading with anchor, the numbers in a line, text, effects, what refers to it."""
    kind, key = str(data.get("kind")), str(data.get("id"))
    title = title_of(data)
    number = data.get("number")
    if isinstance(number, int) and kind == "world-shard":
        title = f"{number}. {title}"
    blocks = [f"### {plain(title)} {{#{card_anchor(kind, key)}}}"]
    facts = [f"*{plain(words_of(kind))}*"]
    for field in ("cost", "max_health", "max_mental_capacity", "existence_reward", "charges",
                  "item_type", "locked", "ending"):
        if field in data and not isinstance(data[field], (dict, list)):
            facts.append(f"{plain(words_of(field)).capitalize()}: "
                         f"{render.cell((field,), data[field])}")
    entry = data.get("entry")
    url = render.writer.links.to("entry", entry) if isinstance(entry, int) else None
    if url:
        facts.append(f"read [entry {entry}]({url})")
    blocks.append(" · ".join(facts))
    blocks += render.sections(data, skip=(*HEAD_KEYS, "wanderer", "cost", "max_health",
                                          "max_mental_capacity", "existence_reward", "charges",
                                          "item_type", "locked", "ending",
                                          *(("entry",) if url else ())), level=4)
    links = render.writer.links
    came = [f"[{plain(words)}]({links.relative(target)})"
            for words, target in referrers.get((kind, key), [])]
    blocks.append("**Referred to by:** " + (", ".join(dict.fromkeys(came)) + "." if came
                                            else "nothing in the content."))
    return blocks


def overview_page(wanderer: Mapping[str, Any], render: Renderer, *, storybooks: list[str],
                  cards: list[SourceDocument], cards_link: str) -> str:
    name = str(wanderer.get("name") or title_of(wanderer))
    blocks = [head(wanderer, title=name)]
    if isinstance(wanderer.get("title"), str):
        blocks.append(f"*{plain(wanderer['title'])}*")
    if isinstance(wanderer.get("description"), str):
        blocks.append(prose(wanderer["description"]))
    blocks += _dashboard(wanderer.get("dashboard"), render)
    blocks += storybooks
    kinds: dict[str, int] = {}
    for card in cards:
        kind = str(card.data.get("kind"))
        kinds[kind] = kinds.get(kind, 0) + 1
    if kinds:
        blocks += ["## Cards", table(["Kind", "Cards"], [
            [f"[{KIND_NAMES.get(k, words_of(k))}]({cards_link}#{slug(k)}s)", str(n)]
            for k, n in kinds.items()])]
    blocks += render.sections(wanderer, skip=(*HEAD_KEYS, *LEAD_KEYS, *BOOKKEEPING,
                                              "dashboard"))
    return "\n\n".join(blocks) + "\n"


def box_blocks(manifest: Mapping[str, Any], render: Renderer) -> list[str]:
    """A wanderer's component manifest: its description, then one table row per line."""
    blocks = ["## What is in the box {#in-the-box}"]
    if isinstance(manifest.get("description"), str):
        blocks.append(prose(manifest["description"]))
    rows = []
    for index, line in enumerate(manifest.get("components") or []):
        if not isinstance(line, Mapping):
            continue
        name = plain(line.get("name", line.get("id", "")))
        if isinstance(line.get("title"), str):
            name += f" ({plain(line['title'])})"
        counts = line.get("counts")
        rows.append([plain(line.get("line", "")), name, plain(line.get("count", "")),
                     render.cell(("components", index, "counts"), counts) if counts else ""])
    if rows:
        blocks.append(table(["Line", "Component", "Count", "Counted from"], rows))
    blocks += render.sections(manifest, skip=(*HEAD_KEYS, *BOOKKEEPING, "description",
                                              "components"), level=3)
    return blocks


def _dashboard(dashboard: Any, render: Renderer) -> list[str]:
    if not isinstance(dashboard, Mapping):
        return []
    blocks = ["## Dashboard"]
    sentience = dashboard.get("sentience")
    if isinstance(sentience, Mapping):
        blocks.append(table(["Colour", "Starting sentience"],
                            [[plain(k), plain(v)] for k, v in sentience.items()]))
    rest = {k: v for k, v in dashboard.items() if k != "sentience"}
    blocks.append("\n".join(render.bullets(("dashboard",), rest, indent=0)))
    return blocks
