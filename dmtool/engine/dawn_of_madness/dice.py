"""Dawn of Madness dice and shuffles: sentience dice (coloured d6 with domain faces), the
otherworld die (d16), from a fixture's strict script or the seeded generator in the state."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from dmtool.engine.core import rng
from dmtool.engine.core.script import ScriptError, StrictScript, scripted_order, show
from dmtool.engine.dawn_of_madness.constants import COLOURS, FACES, SHARDS, TYPES

if TYPE_CHECKING:
    from dmtool.engine.dawn_of_madness.state import GameState

__all__ = ["DiceSource", "ScriptError", "ScriptedDice", "SeededDice"]


class DiceSource(Protocol):
    """Where randomness comes from. Methods may advance `state.rng` (the state is a clone)."""

    def d6(self, state: GameState, who: str, counts: dict[str, int],
           why: str) -> dict[str, list[str]]:
        """Roll sentience dice: counts by colour -> faces by colour (the colours rolled, in
        COLOURS order, each with its count of faces; the log shows this mapping as is)."""
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
        if len(counts) == 1:  # most rolls are of one colour: no walk over the five
            [(colour, n)] = counts.items()
            if n > 0 and colour in FACES:
                state.rng, out[colour] = rng.picks(state.rng, FACES[colour], n)
            return out
        for colour in COLOURS:
            n = counts.get(colour, 0)
            if n > 0:
                state.rng, out[colour] = rng.picks(state.rng, FACES[colour], n)
        return out

    def d16(self, state: GameState, who: str, why: str) -> int:
        state.rng, value = rng.below(state.rng, 16)
        return value + 1

    def shuffle(self, state: GameState, deck: str, cards: list[Any]) -> list[Any]:
        state.rng, out = rng.shuffled(state.rng, cards)
        return out


def _describe(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {c}" for c, n in counts.items() if n) or "no dice"


@dataclass
class ScriptedDice(StrictScript):
    """Strict dice: each roll must be the next scripted entry, with the same roller and dice."""

    def d6(self, state: GameState, who: str, counts: dict[str, int],
           why: str) -> dict[str, list[str]]:
        wanted = {c: n for c, n in counts.items() if n}
        if not wanted:
            return {}  # rolling no dice needs no script entry
        what = f"a roll of {_describe(wanted)} for {who} ({why})"
        entry = self.next_entry(what)
        body = entry.data.get(who)
        if len(entry.data) != 1 or not isinstance(body, dict) or "d16" in body:
            raise ScriptError("DM403", f"The engine made {what}, but the next scripted entry is "
                              f"{show(entry.data)}; script '{who}: {_example(wanted)}' here.",
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
        entry = self.next_entry(what)
        body = entry.data.get(who)
        value = body.get("d16") if isinstance(body, dict) and len(body) == 1 else None
        if len(entry.data) != 1 or not isinstance(value, int) or value not in SHARDS:
            raise ScriptError("DM403", f"The engine made {what}, but the next scripted entry is "
                              f"{show(entry.data)}; script '{who}: {{d16: N}}' (1-16) here.",
                              entry.where)
        return value

    def shuffle(self, state: GameState, deck: str, cards: list[Any]) -> list[Any]:
        if len(set(map(str, cards))) <= 1:
            return list(cards)  # nothing to decide (no cards, or all alike): nothing to script
        entry = self.next_entry(f"a shuffle of the {deck} deck ({len(cards)} cards)")
        return scripted_order(entry, deck, cards)


def _example(counts: dict[str, int]) -> str:
    body = ", ".join(f"{c}: [{', '.join(['FACE'] * n)}]" for c, n in counts.items())
    return "{" + body + "}"
