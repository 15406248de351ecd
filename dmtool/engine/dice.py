"""Dice and shuffles: from a fixture's strict script, or from the seeded generator in the state."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from dmtool.engine import rng
from dmtool.engine.constants import COLOURS, FACES, SHARDS, TYPES

if TYPE_CHECKING:
    from dmtool.engine.state import GameState


class ScriptError(Exception):
    """The fixture's script does not fit what the engine did (a fixture problem, not a rule).

    `code` is the DM4xx code to report; `where` is the script entry's tuple path, if any.
    """

    def __init__(self, code: str, message: str, where: tuple[Any, ...] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.where = where


class DiceSource(Protocol):
    """Where randomness comes from. Methods may advance `state.rng` (the state is a clone)."""

    def d6(self, state: GameState, who: str, counts: dict[str, int],
           why: str) -> dict[str, list[str]]:
        """Roll sentience dice: counts by colour -> faces by colour (same colours, same counts)."""
        ...

    def d16(self, state: GameState, who: str, why: str) -> int:
        """Roll the otherworld die."""
        ...

    def shuffle(self, state: GameState, deck: str, cards: list[Any]) -> list[Any]:
        """A shuffled copy of `cards`, top first."""
        ...


class SeededDice:
    """Dice drawn from the splitmix64 generator whose state is `state.rng`."""

    def d6(self, state: GameState, who: str, counts: dict[str, int],
           why: str) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for colour in COLOURS:
            faces: list[str] = []
            for _ in range(counts.get(colour, 0)):
                state.rng, face = rng.below(state.rng, 6)
                faces.append(FACES[colour][face])
            if faces:
                out[colour] = faces
        return out

    def d16(self, state: GameState, who: str, why: str) -> int:
        state.rng, value = rng.below(state.rng, 16)
        return value + 1

    def shuffle(self, state: GameState, deck: str, cards: list[Any]) -> list[Any]:
        state.rng, out = rng.shuffled(state.rng, cards)
        return out


@dataclass
class ScriptEntry:
    """One scripted roll or shuffle, with its position in the fixture."""

    data: dict[str, Any]
    where: tuple[Any, ...]
    step: int | None = None  # index of the step that supplied it, None for the fixture's list
    used: bool = False


def _describe(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {c}" for c, n in counts.items() if n) or "no dice"


@dataclass
class ScriptedDice:
    """Strict dice: each roll must be the next scripted entry, with the same roller and dice."""

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

    def _next(self, what: str) -> ScriptEntry:
        while self.cursor < len(self.entries) and self.entries[self.cursor].used:
            self.cursor += 1
        if self.cursor >= len(self.entries):
            raise ScriptError("DM404", f"The engine needed {what}, but the dice script has no "
                              "more entries; add one to the step's 'dice' list.")
        entry = self.entries[self.cursor]
        entry.used = True
        self.cursor += 1
        return entry

    def d6(self, state: GameState, who: str, counts: dict[str, int],
           why: str) -> dict[str, list[str]]:
        wanted = {c: n for c, n in counts.items() if n}
        if not wanted:
            return {}  # rolling no dice needs no script entry
        what = f"a roll of {_describe(wanted)} for {who} ({why})"
        entry = self._next(what)
        body = entry.data.get(who)
        if len(entry.data) != 1 or not isinstance(body, dict) or "d16" in body:
            raise ScriptError("DM403", f"The engine made {what}, but the next scripted entry is "
                              f"{_show(entry.data)}; script '{who}: {_example(wanted)}' here.",
                              entry.where)
        got = {c: len(v) for c, v in body.items() if isinstance(v, list) and v}
        if got != wanted or set(body) - set(COLOURS):
            raise ScriptError("DM403", f"The engine made {what}, but the script gives "
                              f"{_describe(got)}; script '{who}: {_example(wanted)}' here.",
                              entry.where)
        for faces in body.values():
            for face in faces:
                if face not in TYPES:
                    raise ScriptError("DM403", f"'{face}' is not a die face; faces are "
                                      f"{', '.join(TYPES)}.", entry.where)
        return {c: list(body[c]) for c in COLOURS if c in wanted}

    def d16(self, state: GameState, who: str, why: str) -> int:
        what = f"an otherworld die roll for {who} ({why})"
        entry = self._next(what)
        body = entry.data.get(who)
        value = body.get("d16") if isinstance(body, dict) and len(body) == 1 else None
        if len(entry.data) != 1 or not isinstance(value, int) or value not in SHARDS:
            raise ScriptError("DM403", f"The engine made {what}, but the next scripted entry is "
                              f"{_show(entry.data)}; script '{who}: {{d16: N}}' (1-16) here.",
                              entry.where)
        return value

    def shuffle(self, state: GameState, deck: str, cards: list[Any]) -> list[Any]:
        if len(set(map(str, cards))) <= 1:
            return list(cards)  # nothing to decide (no cards, or all alike): nothing to script
        what = f"a shuffle of the {deck} deck ({len(cards)} cards)"
        entry = self._next(what)
        body = entry.data.get("shuffle")
        order = body.get("order") if isinstance(body, dict) else None
        if (len(entry.data) != 1 or not isinstance(body, dict) or body.get("deck") != deck
                or not isinstance(order, list)):
            raise ScriptError("DM403", f"The engine made {what}, but the next scripted entry is "
                              f"{_show(entry.data)}; script 'shuffle: {{deck: {deck}, order: "
                              f"[...]}}' here.", entry.where)
        if sorted(map(str, order)) != sorted(map(str, cards)):
            raise ScriptError("DM403", f"The scripted order for the {deck} deck must list exactly "
                              f"its cards {sorted(map(str, cards))}, each once.", entry.where)
        by_text = {str(c): c for c in cards}
        return [by_text[str(c)] for c in order]


def _example(counts: dict[str, int]) -> str:
    body = ", ".join(f"{c}: [{', '.join(['FACE'] * n)}]" for c, n in counts.items())
    return "{" + body + "}"


def _show(data: Any) -> str:
    return repr(data) if len(repr(data)) < 80 else repr(data)[:77] + "..."
