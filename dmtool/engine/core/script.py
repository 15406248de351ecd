"""Strict scripts: a fixture's rolls and shuffles, used one by one in order (never guessed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mypy_extensions import mypyc_attr


class ScriptError(Exception):
    """The fixture's script does not fit what the engine did (a fixture problem, not a rule).

    `code` is the DM4xx code to report; `where` is the script entry's tuple path, if any.
    """

    def __init__(self, code: str, message: str, where: tuple[Any, ...] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.where = where


@dataclass
class ScriptEntry:
    """One scripted roll or shuffle, with its position in the fixture."""

    data: dict[str, Any]
    where: tuple[Any, ...]
    step: int | None = None  # index of the step that supplied it, None for the fixture's list
    used: bool = False


# A game's scripted dice subclass it, and tests subclass those (interpreted subclasses).
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class StrictScript:
    """Entries taken strictly in order; a game's dice read them through `next_entry`.

    A rejected action rolls back with `checkpoint`/`restore`; entries never used are
    reported by the fixture runner (`unused`).
    """

    entries: list[ScriptEntry] = field(default_factory=list)
    cursor: int = 0

    def add(self, data: dict[str, Any], where: tuple[Any, ...], step: int | None = None) -> None:
        self.entries.append(ScriptEntry(data, where, step))

    def checkpoint(self) -> tuple[int, list[bool]]:
        return self.cursor, [e.used for e in self.entries]

    def restore(self, token: tuple[int, list[bool]]) -> None:
        self.cursor, used = token
        for entry, flag in zip(self.entries, used):
            entry.used = flag

    def unused(self, *, step: int | None = None, every: bool = False) -> list[ScriptEntry]:
        return [e for e in self.entries if not e.used and (every or e.step == step)]

    def next_entry(self, what: str) -> ScriptEntry:
        """The next unused entry (marked used); DM404 when the script has run out."""
        while self.cursor < len(self.entries) and self.entries[self.cursor].used:
            self.cursor += 1
        if self.cursor >= len(self.entries):
            raise ScriptError("DM404", f"The engine needed {what}, but the dice script has no "
                              "more entries; add one to the step's 'dice' list.")
        entry = self.entries[self.cursor]
        entry.used = True
        self.cursor += 1
        return entry


def show(data: Any) -> str:
    """A scripted entry as a short text for messages."""
    return repr(data) if len(repr(data)) < 80 else repr(data)[:77] + "..."


def scripted_order(entry: ScriptEntry, deck: str, cards: list[Any]) -> list[Any]:
    """The order a `shuffle: {deck, order}` entry gives, checked against the deck's cards."""
    body = entry.data.get("shuffle")
    order = body.get("order") if isinstance(body, dict) else None
    what = f"a shuffle of the {deck} deck ({len(cards)} cards)"
    if (len(entry.data) != 1 or not isinstance(body, dict) or body.get("deck") != deck
            or not isinstance(order, list)):
        raise ScriptError("DM403", f"The engine made {what}, but the next scripted entry is "
                          f"{show(entry.data)}; script 'shuffle: {{deck: {deck}, order: "
                          f"[...]}}' here.", entry.where)
    if sorted(map(str, order)) != sorted(map(str, cards)):
        raise ScriptError("DM403", f"The scripted order for the {deck} deck must list exactly "
                          f"its cards {sorted(map(str, cards))}, each once.", entry.where)
    by_text = {str(c): c for c in cards}
    return [by_text[str(c)] for c in order]
