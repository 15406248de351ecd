"""Deep Madness dice: the six- and twelve-sided dice, always from a fixture's strict script.

The base game's die faces are not in our sources, so a roll is scripted as the result the
rule asks about: a named result ('claw', 'failure', or any other word for a result that is
not it) or, where results are compared, a number.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from dmtool.engine.core.script import ScriptError, StrictScript, scripted_order, show

__all__ = ["DIE_SIDES", "ScriptError", "ScriptedDice"]

DIE_SIDES = {"d6": 6, "d12": 12}


# Tests script looser dice by subclassing it (an interpreted subclass of a compiled class).
@mypyc_attr(allow_interpreted_subclasses=True)
@dataclass
class ScriptedDice(StrictScript):
    """Strict dice: each roll must be the next scripted entry, by the same roller and die."""

    def roll(self, who: str, die: str, why: str, *, number: bool = False) -> Any:
        """The scripted result of one die: an int 1..sides when `number`, else a word."""
        what = f"a {die} roll for {who} ({why})"
        entry = self.next_entry(what)
        body = entry.data.get(who)
        value = body.get(die) if isinstance(body, dict) and len(body) == 1 else None
        if len(entry.data) != 1 or value is None:
            raise ScriptError("DM403", f"The engine made {what}, but the next scripted entry is "
                              f"{show(entry.data)}; script '{who}: {{{die}: RESULT}}' here.",
                              entry.where)
        if number:
            if not isinstance(value, int) or isinstance(value, bool) or not (
                    1 <= value <= DIE_SIDES[die]):
                raise ScriptError("DM403", f"{what} compares numbers: script a number from 1 "
                                  f"to {DIE_SIDES[die]}, not {value!r}.", entry.where)
            return value
        if not isinstance(value, str):
            raise ScriptError("DM403", f"{what} asks for a named result (such as 'claw' or "
                              f"'failure'); the base game's faces are not in our sources, so "
                              f"a number cannot say which it is (got {value!r}).", entry.where)
        return value

    def shuffle(self, deck: str, cards: list[Any]) -> list[Any]:
        if len(set(map(str, cards))) <= 1:
            return list(cards)
        entry = self.next_entry(f"a shuffle of the {deck} deck ({len(cards)} cards)")
        return scripted_order(entry, deck, cards)
