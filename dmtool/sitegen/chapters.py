"""A Deep Madness chapter as a page for the table: the board's rooms with their labels and
roles, the decks, components with the box's counts, setup, the hazard of each skull colour,
investigate actions, how to win and lose (in words), and the campaign around it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dmtool.sitegen.markdown import anchored, plain, prose, slug, table
from dmtool.sitegen.render import HEAD_KEYS, Renderer, head, title_of, words_of

# Fields this page lays out itself; the rest go through Renderer.sections.
LAID_OUT = ("expansion", "number", "introduction", "board", "room_deck", "room_deck_note",
            "devoured_deck", "deck_building", "deck_rules", "rooms_in_neither_deck",
            "components", "monsters", "devouring_track", "investigate", "winning", "losing",
            "special_rules")


def chapter_local_targets(page: str, data: Mapping[str, Any]) -> dict[tuple[str, str], str]:
    """Rooms, components and monsters of the chapter, for links in its own words."""
    targets: dict[tuple[str, str], str] = {}
    for room in (data.get("board") or {}).get("rooms") or []:
        targets[("room", str(room))] = f"{page}#room-{room}"
    for field, kind, prefix in (("components", "component", "component"),
                                ("monsters", "chapter-monster", "monster")):
        for item in data.get(field) or []:
            if isinstance(item, Mapping) and isinstance(item.get("id"), str):
                targets[(kind, item["id"])] = f"{page}#{prefix}-{item['id']}"
    return targets


def chapter_page(data: Mapping[str, Any], render: Renderer, *, box: Mapping[str, int],
                 campaign: list[str]) -> str:
    number = data.get("number")
    title = f"Chapter {number}: {title_of(data)}" if isinstance(number, int) else title_of(data)
    blocks = [head(data, title=title)]
    if isinstance(data.get("introduction"), str):
        blocks.append(prose(data["introduction"]))
    blocks += _board(data, render)
    blocks += _decks(data, render)
    blocks += _components(data, render, box)
    blocks += _hazards(data, render)
    blocks += _investigate(data, render)
    blocks += _goals(data, render)
    for index, rule in enumerate(data.get("special_rules") or []):
        if isinstance(rule, Mapping):
            blocks += [f"## Special rule: {plain(rule.get('title', 'untitled'))}",
                       *render.sections(rule, ("special_rules", index),
                                       skip=("title", "id", "hook"), level=3)]
    blocks += campaign
    blocks += render.sections(data, skip=(*HEAD_KEYS, *LAID_OUT))
    return "\n\n".join(b for b in blocks if b) + "\n"


def _board(data: Mapping[str, Any], render: Renderer) -> list[str]:
    board = data.get("board")
    if not isinstance(board, Mapping):
        return []
    labels = {lab.get("room"): lab for lab in board.get("labels") or [] if isinstance(lab, Mapping)}
    decks = {"room_deck": "room deck", "devoured_deck": "devoured deck"}
    rows = []
    for room in board.get("rooms") or []:
        lab = labels.get(room, {})
        where = [name for key, name in decks.items() if room in (data.get(key) or [])]
        rows.append([f"**Room {int(room)}**{{#room-{int(room)}}}",
                     plain(lab.get("label", "")), plain(words_of(lab.get("role", ""))),
                     ", ".join(where) or "neither deck"])
    blocks = ["## Board {#board}",
              f"The board is built from {len(rows)} rooms, in this order: "
              + ", ".join(str(r) for r in board.get("rooms") or []) + "."]
    if rows:
        blocks.append(table(["Room", "Label", "Role", "Deck"], rows))
    rest = {k: v for k, v in board.items() if k not in ("rooms", "labels")}
    if rest:
        blocks.append("\n".join(render.bullets(("board",), rest, indent=0)))
    return blocks


def _decks(data: Mapping[str, Any], render: Renderer) -> list[str]:
    rows = []
    for key, name in (("room_deck", "Room deck"), ("devoured_deck", "Devoured deck")):
        if key in data:
            rooms = data.get(key) or []
            rows.append([name, ", ".join(f"[{r}](#room-{r})" for r in rooms) or "*empty*"])
    if not rows:
        return []
    blocks = ["## Decks", table(["Deck", "Rooms"], rows)]
    if isinstance(data.get("room_deck_note"), str):
        blocks.append(prose(data["room_deck_note"]))
    for key, title in (("deck_building", "Building the decks"), ("deck_rules", "Deck rules"),
                       ("rooms_in_neither_deck", "Rooms in neither deck")):
        if data.get(key):
            blocks += [f"### {title}", render.block((key,), data[key])]
    return blocks


def _components(data: Mapping[str, Any], render: Renderer, box: Mapping[str, int]) -> list[str]:
    rows = []
    for index, item in enumerate(data.get("components") or []):
        if not isinstance(item, Mapping):
            continue
        key = str(item.get("id"))
        source = {"expansion": "this expansion's box", "base-game": "the Deep Madness base game",
                  "unlisted": "no component list"}.get(str(item.get("source")), "")
        in_box = str(box[key]) if key in box and item.get("source") == "expansion" else ""
        note = render.cell(("components", index, "note"), item["note"]) if item.get("note") else ""
        rows.append([anchored(item.get("name", key), f"component-{slug(key)}"),
                     source, plain(item.get("count", "")), in_box, note])
    blocks = []
    if rows:
        blocks += ["## Components {#components}",
                   "What the chapter uses, how many it needs at most, and how many the box holds.",
                   table(["Component", "From", "Needed", "In the box", "Note"], rows)]
    monsters = []
    for item in data.get("monsters") or []:
        if isinstance(item, Mapping):
            key = str(item.get("id"))
            figure = str(item.get("figure", ""))
            known = any(isinstance(c, Mapping) and c.get("id") == figure
                        for c in data.get("components") or [])
            monsters.append([anchored(item.get("name", key), f"monster-{slug(key)}"),
                             plain(words_of(item.get("card", ""))),
                             f"[{plain(words_of(figure))}](#component-{slug(figure)})" if known
                             else plain(words_of(figure))])
    if monsters:
        blocks += ["### Monsters", table(["Monster", "Card", "Figure"], monsters)]
    return blocks


def _hazards(data: Mapping[str, Any], render: Renderer) -> list[str]:
    track = data.get("devouring_track")
    if not isinstance(track, Mapping):
        return []
    blocks = ["## Devouring track {#devouring-track}"]
    if isinstance(track.get("values_note"), str):
        blocks.append(prose(track["values_note"]))
    seen: set[str] = set()
    for index, hazard in enumerate(track.get("hazards") or []):
        if not isinstance(hazard, Mapping):
            continue
        skull = plain(words_of(hazard.get("skull", "?"))).capitalize()
        # Two hazards may share a skull ('unlabelled'); ids must differ, so the second is
        # numbered.
        anchor = slug(f"hazard-{hazard.get('skull', index)}")
        anchor = anchor if anchor not in seen else f"{anchor}-{index + 1}"
        seen.add(anchor)
        blocks.append(f"### {skull} skull {{#{anchor}}}")
        if isinstance(hazard.get("summary"), str):
            blocks.append(prose(hazard["summary"]))
        effects = render.effects_block(("devouring_track", "hazards", index, "effects"))
        if effects:
            blocks += ["In rules terms:", effects]
    rest = {k: v for k, v in track.items() if k not in ("hazards", "values_note")}
    if rest:
        blocks.append("\n".join(render.bullets(("devouring_track",), rest, indent=0)))
    return blocks


def _investigate(data: Mapping[str, Any], render: Renderer) -> list[str]:
    actions = [a for a in data.get("investigate") or [] if isinstance(a, Mapping)]
    if not actions:
        return []
    blocks = ["## Investigate actions {#investigate}"]
    for index, action in enumerate(data.get("investigate") or []):
        if not isinstance(action, Mapping):
            continue
        lines = [f"{index + 1}. " + (plain(" ".join(str(action.get("summary", "")).split())))]
        when = render.condition(("investigate", index, "when"))
        if when:
            lines.append(f"    - **Allowed when** {when}.")
        described = render.described(("investigate", index, "effects"))
        if described:
            lines.append("    - **Then:**")
            lines += render.writer.block().effects(described, 8)
        blocks.append("\n".join(lines))
    return blocks


def _goals(data: Mapping[str, Any], render: Renderer) -> list[str]:
    blocks = []
    losing = data.get("losing")
    sets = [("Winning", ("winning",), data.get("winning"))]
    if isinstance(losing, Mapping):
        sets.append(("Losing", ("losing", "conditions"), losing.get("conditions")))
    else:
        sets.append(("Losing", ("losing",), losing))
    for title, parts, goals in sets:
        if not isinstance(goals, list):
            if title == "Losing" and isinstance(losing, Mapping):
                blocks += [f"## {title} {{#{title.lower()}}}",
                           prose(losing.get("note", "The chapter prints no way to lose."))]
            continue
        blocks.append(f"## {title} {{#{title.lower()}}}")
        lines = []
        for index, goal in enumerate(goals):
            if not isinstance(goal, Mapping):
                continue
            lines.append(f"- {plain(' '.join(str(goal.get('summary', '')).split()))}")
            before = render.described((*parts, index, "before"))
            if before:
                lines.append("    - **First:**")
                lines += render.writer.block().effects(before, 8)
            when = render.condition((*parts, index, "when"))
            if when:
                lines.append(f"    - **In rules terms:** {when}.")
            if isinstance(goal.get("note"), str):
                lines.append(f"    - {plain(' '.join(goal['note'].split()))}")
        blocks.append("\n".join(lines))
        if isinstance(losing, Mapping) and title == "Losing" and isinstance(losing.get("note"), str):
            blocks.append(prose(losing["note"]))
    return blocks
