"""Rules reference pages: the Dawn of Madness components and the Deep Madness expansions,
with a chapter layout that puts rooms, decks, hazards and the ways to win or lose first."""

from __future__ import annotations

from typing import Any

from dmtool.loading import SourceDocument
from dmtool.sitegen.markdown import inline_prose, plain, prose, table
from dmtool.sitegen.pages import Nav, Page, id_title, nav_title, page_path
from dmtool.sitegen.render import (
    HEAD_KEYS,
    bullets,
    document_page,
    flow,
    head,
    inline_code,
    record_table,
    sections,
    title_of,
)

# Core kinds in reading order: the box, the numbers, the round, then the cards and foes.
CORE_ORDER = ("manifest", "game-rules", "round-trackers", "condition-types", "support-cards",
              "family", "abomination", "terror", "devour-card")
EXPANSION_ORDER = ("manifest", "expansion-rules", "campaign", "chapter", "card-text")
KIND_TITLES = {"family": "Families", "abomination": "Abominations", "terror": "Terrors",
               "devour-card": "Devour cards", "chapter": "Chapters", "card-text": "Cards"}
CHAPTER_FIRST = ("expansion", "number", "introduction", "board", "room_deck", "room_deck_note",
                 "devoured_deck", "deck_building", "deck_rules", "rooms_in_neither_deck",
                 "devouring_track", "winning", "losing", "special_rules")


def core_pages(documents: list[SourceDocument], *, taken: set[str]) -> tuple[list[Page], Nav]:
    """One page per core document, grouped in the nav by kind when a kind has several."""
    return _pages_by_kind(documents, "rules/dawn-of-madness", CORE_ORDER, taken=taken)


def expansion_pages(expansions: dict[str, list[SourceDocument]], *,
                    taken: set[str]) -> tuple[list[Page], Nav]:
    """For each expansion: its documents, chapters in number order, under one nav section."""
    pages: list[Page] = []
    nav: Nav = []
    for expansion in sorted(expansions):
        found, section = _pages_by_kind(expansions[expansion], f"rules/{expansion}",
                                        EXPANSION_ORDER, taken=taken)
        pages += found
        nav.append({nav_title(id_title(expansion)): section})
    return pages, nav


def _pages_by_kind(documents: list[SourceDocument], folder: str, order: tuple[str, ...], *,
                   taken: set[str]) -> tuple[list[Page], Nav]:
    def rank(document: SourceDocument) -> tuple[int, Any, str]:
        kind = document.data.get("kind")
        number = document.data.get("number")
        return (order.index(kind) if kind in order else len(order),
                number if isinstance(number, int) else 0, title_of(document.data).lower())

    pages: list[Page] = []
    nav: Nav = []
    by_kind: dict[str, Nav] = {}
    for document in sorted(documents, key=rank):
        data = document.data
        path = page_path(folder, data, taken=taken)
        text = chapter_page(data) if data.get("kind") == "chapter" else document_page(data)
        pages.append(Page(path, text))
        kind = str(data.get("kind"))
        entry = {nav_title(_nav_name(data)): path}
        if sum(1 for d in documents if d.data.get("kind") == kind) > 1:
            if kind not in by_kind:
                by_kind[kind] = []
                nav.append({nav_title(KIND_TITLES.get(kind, id_title(kind))): by_kind[kind]})
            by_kind[kind].append(entry)
        else:
            nav.append(entry)
    return pages, nav


def _nav_name(data: dict[str, Any]) -> str:
    if data.get("kind") == "chapter" and isinstance(data.get("number"), int):
        return f"{data['number']}. {title_of(data)}"
    return title_of(data)


def chapter_page(data: dict[str, Any]) -> str:
    """A chapter: what the players face first (board, decks, hazards, goals), then the rest."""
    number = data.get("number")
    title = f"Chapter {number}: {title_of(data)}" if isinstance(number, int) else title_of(data)
    blocks = [head(data, title=title)]
    if isinstance(data.get("introduction"), str):
        blocks.append(prose(data["introduction"]))
    blocks += _board(data.get("board"))
    blocks += _decks(data)
    blocks += _hazards(data.get("devouring_track"))
    blocks += _goals("Winning", data.get("winning"))
    losing = data.get("losing")
    blocks += _goals("Losing", losing.get("conditions") if isinstance(losing, dict) else losing)
    for rule in data.get("special_rules") or []:
        if isinstance(rule, dict):
            blocks += [f"## Special rule: {plain(rule.get('title', 'untitled'))}",
                       prose(rule.get("text", ""))]
    blocks += sections(data, skip=(*HEAD_KEYS, *CHAPTER_FIRST))
    return "\n\n".join(blocks) + "\n"


def _board(board: Any) -> list[str]:
    if not isinstance(board, dict):
        return []
    blocks = ["## Rooms"]
    rooms = board.get("rooms") or []
    blocks.append("The board is built from rooms " + ", ".join(plain(r) for r in rooms) + "."
                  if rooms else "The chapter names no rooms.")
    labels = board.get("labels")
    if isinstance(labels, list) and labels:
        blocks.append(record_table([lab for lab in labels if isinstance(lab, dict)]))
    rest = {k: v for k, v in board.items() if k not in ("rooms", "labels")}
    if rest:
        blocks.append("\n".join(bullets(rest, indent=0)))
    return blocks


def _decks(data: dict[str, Any]) -> list[str]:
    rows = []
    for key, name in (("room_deck", "Room deck"), ("devoured_deck", "Devoured deck")):
        if key in data:
            cards = data.get(key) or []
            rows.append([name, ", ".join(plain(c) for c in cards) or "*empty*"])
    if not rows:
        return []
    blocks = ["## Decks", table(["Deck", "Rooms"], rows)]
    if isinstance(data.get("room_deck_note"), str):
        blocks.append(prose(data["room_deck_note"]))
    for key in ("deck_building", "deck_rules", "rooms_in_neither_deck"):
        value = data.get(key)
        if isinstance(value, list) and value:
            blocks += [f"### {plain(key.replace('_', ' ').capitalize())}",
                       record_table([v for v in value if isinstance(v, dict)])]
    return blocks


def _hazards(track: Any) -> list[str]:
    if not isinstance(track, dict):
        return []
    hazards = [h for h in track.get("hazards") or [] if isinstance(h, dict)]
    blocks = ["## Devouring track hazards"]
    if isinstance(track.get("values_note"), str):
        blocks.append(prose(track["values_note"]))
    if hazards:
        rows = [[plain(h.get("skull", "")), inline_prose(h.get("summary", "")),
                 inline_code(flow(h.get("effects", [])))] for h in hazards]
        blocks.append(table(["Skull", "What happens", "Effects"], rows))
    rest = {k: v for k, v in track.items() if k not in ("hazards", "values_note")}
    if rest:
        blocks.append("\n".join(bullets(rest, indent=0)))
    return blocks


def _goals(name: str, goals: Any) -> list[str]:
    if not isinstance(goals, list) or not goals:
        return []
    lines = []
    for goal in goals:
        if isinstance(goal, dict):
            when = f" ({inline_code(flow(goal['when']))})" if "when" in goal else ""
            lines.append(f"- {inline_prose(goal.get('summary', ''))}{when}")
    return [f"## {name}", "\n".join(lines)]
