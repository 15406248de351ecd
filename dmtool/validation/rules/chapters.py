"""Chapter rules (DM220-DM228, DM243): board and decks, named rooms, declared names, hazards,
numbers, and special rules left as prose."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus
from dmtool.validation.rules._manifest_index import Parts
from dmtool.validation.schema_errors import did_you_mean

_DECKS = ("room_deck", "devoured_deck")
# Keys whose string value names a declared component, or a declared monster.
_COMPONENT_KEYS = frozenset({"component", "via", "matching", "figure", "piece"})
_MONSTER_KEYS = frozenset({"monster", "monster_dead", "entering"})
# Lists of monster ids in the special setup (activation track spaces, withheld spawn cards).
_MONSTER_LIST_KEYS = frozenset({"monsters", "withheld_spawn_cards"})
# Parts of a chapter the name walk covers (the declarations themselves are not uses).
_NAMED_SECTIONS = ("board", "special_setup", "devouring_track", "investigate", "winning", "losing",
                   "special_rules")
# Room lists whose rooms must be on the board, besides single `room:` values.
_ROOM_LIST_KEYS = frozenset({"rooms", "spawn_marker_rooms", "no_spawn_marker_rooms"})


# Every finding is located in a chapter or the expansion's rules (see session._needless_rules).
REPORTS_IN = frozenset({"chapter", "expansion-rules"})


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    chapters = corpus.of_kind("chapter")
    for document in chapters:
        yield from _duplicate_rooms(document)
        yield from _decks(document)
        yield from _neither(document)
        yield from _named_rooms(document)
        yield from _declared_names(document, _NAMED_SECTIONS)
        yield from _hazards(document)
        yield from _prose_only(document)
    for document in corpus.of_kind("expansion-rules"):
        yield from _declared_names(document, ("losing",))
    yield from _numbers(chapters)


def _board(data: dict[str, Any]) -> set[int]:
    return set(data["board"]["rooms"])


def _duplicate_rooms(document: SourceDocument) -> Iterator[Diagnostic]:
    data = document.data
    lists: list[tuple[Parts, list[int]]] = [(("board", "rooms"), data["board"]["rooms"])]
    lists += [((deck,), data[deck]) for deck in _DECKS]
    for parts, rooms in lists:
        seen: set[int] = set()
        for n, room in enumerate(rooms):
            if room in seen:
                yield diagnose("DM225", document.locate(parts + (n,)),
                               f"room {room} is listed twice here; remove the repeat")
            seen.add(room)


def _decks(document: SourceDocument) -> Iterator[Diagnostic]:
    data = document.data
    board = _board(data)
    for deck in _DECKS:
        for n, room in enumerate(data[deck]):
            if room not in board:
                yield diagnose(
                    "DM220", document.locate((deck, n)),
                    f"room {room} is in the {deck.replace('_', ' ')} but not on the chapter's "
                    "board; add it to board.rooms or take it out of the deck",
                    related=(document.locate(("board", "rooms")),))
    devoured = set(data["devoured_deck"])
    for n, room in enumerate(data["room_deck"]):
        if room in devoured:
            yield diagnose(
                "DM221", document.locate(("room_deck", n)),
                f"room {room} is in both the room deck and the devoured deck; keep it in one",
                related=(document.locate(("devoured_deck", data["devoured_deck"].index(room))),))


def _neither(document: SourceDocument) -> Iterator[Diagnostic]:
    data = document.data
    in_decks = set(data["room_deck"]) | set(data["devoured_deck"])
    board = data["board"]["rooms"]
    noted: dict[int, int] = {}
    for n, note in enumerate(data.get("rooms_in_neither_deck", [])):
        room = note["room"]
        noted[room] = n
        if room in in_decks or room not in board:
            where = "is in a deck" if room in in_decks else "is not on the board"
            yield diagnose(
                "DM223", document.locate(("rooms_in_neither_deck", n, "room")),
                f"room {room} {where}, so this note about a room in neither deck does not "
                "apply; remove or correct it")
    for n, room in enumerate(board):
        if room not in in_decks and room not in noted:
            yield diagnose(
                "DM222", document.locate(("board", "rooms", n)),
                f"board room {room} is in neither the room deck nor the devoured deck; if the "
                "rulebook means it, record its reason under 'rooms_in_neither_deck'")


def _named_rooms(document: SourceDocument) -> Iterator[Diagnostic]:
    data = document.data
    board = _board(data)
    skip = {("board", "rooms"), ("room_deck",), ("devoured_deck",), ("rooms_in_neither_deck",)}
    for parts, room in _rooms(data, (), skip):
        if room not in board:
            yield diagnose(
                "DM224", document.locate(parts),
                f"room {room} is named here but is not on the chapter's board; correct the "
                "number or add the room to board.rooms",
                hint=did_you_mean(str(room), [str(r) for r in sorted(board)]))


def _rooms(node: Any, parts: Parts, skip: set[Parts]) -> Iterator[tuple[Parts, int]]:
    if parts in skip:
        return
    if isinstance(node, dict):
        for key, value in node.items():
            here = parts + (key,)
            if key == "room" and isinstance(value, int):
                yield here, value
            elif key in _ROOM_LIST_KEYS and isinstance(value, list) and here not in skip:
                yield from ((here + (n,), v) for n, v in enumerate(value) if isinstance(v, int))
            else:
                yield from _rooms(value, here, skip)
    elif isinstance(node, list):
        for n, value in enumerate(node):
            yield from _rooms(value, parts + (n,), skip)


def _declared_names(document: SourceDocument, sections: tuple[str, ...]) -> Iterator[Diagnostic]:
    data = document.data
    declared = {
        "component": {c["id"] for c in data.get("components", [])},
        "monster": {m["id"] for m in data.get("monsters", [])},
    }
    uses = list(_names(data.get("monsters", []), ("monsters",)))
    for section in sections:
        uses += _names(data.get(section), (section,))
    for parts, what, name in uses:
        if name not in declared[what]:
            listed = "components" if what == "component" else "monsters"
            yield diagnose(
                "DM226", document.locate(parts),
                f"'{name}' is not declared in this document's '{listed}' list; declare it there "
                f"(with its source and count) or use a declared id",
                hint=did_you_mean(name, declared[what]))


def _names(node: Any, parts: Parts) -> Iterator[tuple[Parts, str, str]]:
    """(path, 'component' | 'monster', id) for every name used under a node."""
    if isinstance(node, dict):
        for key, value in node.items():
            here = parts + (key,)
            if key in _COMPONENT_KEYS and isinstance(value, str):
                yield here, "component", value
            elif key in _MONSTER_KEYS and isinstance(value, str):
                yield here, "monster", value
            elif key == "replace_monster_card" and isinstance(value, dict):
                yield from ((here + (k,), "monster", value[k]) for k in ("from", "to") if k in value)
            elif key in _MONSTER_LIST_KEYS and _all_strings(value):
                yield from ((here + (n,), "monster", v) for n, v in enumerate(value))
            else:
                yield from _names(value, here)
    elif isinstance(node, list):
        for n, value in enumerate(node):
            yield from _names(value, parts + (n,))


def _all_strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _hazards(document: SourceDocument) -> Iterator[Diagnostic]:
    seen: dict[str, int] = {}
    for n, hazard in enumerate(document.data["devouring_track"]["hazards"]):
        skull = hazard["skull"]
        if skull == "unlabelled":
            continue
        if skull in seen:
            yield diagnose(
                "DM227", document.locate(("devouring_track", "hazards", n, "skull")),
                f"a hazard for the {skull} skull is already listed; merge the two or correct "
                "the colour",
                related=(document.locate(("devouring_track", "hazards", seen[skull], "skull")),))
        seen.setdefault(skull, n)


def _numbers(chapters: list[SourceDocument]) -> Iterator[Diagnostic]:
    seen: dict[tuple[str, int], SourceDocument] = {}
    for document in chapters:
        key = (document.data["expansion"], document.data["number"])
        first = seen.setdefault(key, document)
        if first is not document:
            yield diagnose(
                "DM228", document.locate(("number",)),
                f"chapter number {key[1]} of '{key[0]}' is already used by '{first.data['id']}'; "
                "number the chapters in rulebook order",
                related=(first.locate(("number",)),))


def _prose_only(document: SourceDocument) -> Iterator[Diagnostic]:
    """A special rule with neither executed clauses nor a rule hook: the engine ignores it."""
    for n, rule in enumerate(document.data.get("special_rules") or []):
        if isinstance(rule, dict) and not rule.get("executes") and not rule.get("hook"):
            yield diagnose("DM243", document.locate(("special_rules", n, "title")),
                           f"the special rule '{rule.get('title')}' is prose only; give it "
                           "'executes' clauses or the 'hook' that executes it")
