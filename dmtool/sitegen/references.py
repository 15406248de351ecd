"""Reference pages generated from the project's own data, so they cannot drift from it: the
rules engine's numbers, the command line (from the click commands) and the schemas."""

from __future__ import annotations

import inspect
from typing import Any

import click

from dmtool.engine.dawn_of_madness.actions import WANDERER_ACTIONS
from dmtool.engine.dawn_of_madness.constants import (
    BRAIN_COLOURS,
    COLOURS,
    CONDITION_DECKS,
    DISCARD_TO_BOTTOM,
    DOMAIN_CARD_LIMIT,
    ENDINGS,
    FAVOURED,
    MAX_MENTAL_CAPACITY,
    MAX_RANGE,
    SCORE_GOALS,
)
from dmtool.engine.dawn_of_madness.finale import choose_ending
from dmtool.engine.dawn_of_madness.items import USE_COST
from dmtool.engine.dawn_of_madness.plans import BASE_COST
from dmtool.engine.dawn_of_madness.refresh import LAST_ROUND, REFRESH_STEPS
from dmtool.sitegen.markdown import code_block, plain, slug, table
from dmtool.sitegen.schemaref import schema_page

RANGED = ("attack", "confront")  # their cost grows with the distance to the target


def game_data_page() -> str:
    blocks = ["# Game data",
              "These tables are read from dmtool's rules engine when the site is built, so "
              "they say exactly what `dmtool play` and `dmtool test` do."]
    rows = []
    for action in WANDERER_ACTIONS:
        base = BASE_COST.get(action)
        cost = "" if base is None else f"{base}" + (
            f" + 1 per space to the target (range at most {MAX_RANGE})" if action in RANGED else "")
        brains = BRAIN_COLOURS.get(action)
        payers = ", ".join(c for c in COLOURS if brains and c in brains) if brains else ""
        rows.append([plain(action), cost or "set by the card or step", payers or "none"])
    blocks += ["## Wanderer actions {#actions}",
               "Costs are in mental capacity. A stored brain domain of a listed colour may pay "
               "one point of it instead; purple pays for any action.",
               table(["Action", "Mental capacity", "Brain colours that may pay"], rows),
               f"Using an item costs {USE_COST} mental capacity unless its card prints an "
               f"action. A wanderer holds at most {DOMAIN_CARD_LIMIT} domain cards and at most "
               f"{MAX_MENTAL_CAPACITY} mental capacity."]
    blocks += ["## The refresh phase, in order {#refresh}",
               "\n".join(f"{i}. **{plain(name.replace('_', ' '))}** "
                         f"({' and '.join(stages)} stage{'s' if len(stages) > 1 else ''})"
                         + (f": {plain(_doc(fn))}" if _doc(fn) else "")
                         for i, (name, stages, fn) in enumerate(REFRESH_STEPS, 1)),
               f"The wanderer stage fails at the end of round {LAST_ROUND} if it is not won."]
    blocks += ["## Which ending is played {#endings}",
               "The ending with the highest score. On a tie, in this order: "
               + ", ".join(_tie_order()) + "."]
    blocks += ["## Score goals {#score-goals}",
               table(["Game length", "Points the four endings need together"],
                     [[plain(k), str(v)] for k, v in sorted(SCORE_GOALS.items(),
                                                            key=lambda kv: kv[1])])]
    blocks += ["## Dice {#dice}",
               "Each colour's die shows every symbol once and its favoured symbol twice.",
               table(["Colour", "Favoured symbol"], [[c, FAVOURED[c]] for c in COLOURS])]
    blocks += ["## Condition decks {#condition-decks}",
               table(["Condition", "Cards", "Shuffled at setup", "Discards go"],
                     [[plain(k), str(n), "yes" if shuffled else "no",
                       "under the deck" if k in DISCARD_TO_BOTTOM else "on top"]
                      for k, (n, shuffled) in sorted(CONDITION_DECKS.items())])]
    return "\n\n".join(blocks) + "\n"


def _doc(function: Any) -> str:
    text = inspect.getdoc(function) or ""
    return " ".join(text.split())


def _tie_order() -> list[str]:
    """Ask the engine: with every score equal, which ending wins, then which of the rest."""
    left = list(ENDINGS)
    order = []
    while left:
        winner = choose_ending(dict.fromkeys(left, 1))
        order.append(winner)
        left.remove(winner)
    return order


def cli_page(group: Any) -> str:
    """Every command of the click group: usage, help and options, as click itself knows them."""
    blocks = ["# Command line",
              "Generated from dmtool's own command definitions; `dmtool COMMAND --help` prints "
              "the same."]
    context = click.Context(group, info_name="dmtool")
    for name in sorted(group.list_commands(context)):
        command = group.get_command(context, name)
        if command is None or command.hidden:
            continue
        sub = click.Context(command, info_name=name, parent=context)
        blocks.append(f"## dmtool {plain(name)} {{#{slug(name)}}}")
        blocks.append(code_block(command.get_usage(sub), language="text"))
        if command.help:
            blocks.append(code_block(inspect.cleandoc(command.help), language="text"))
        rows = []
        for param in command.get_params(sub):
            record = param.get_help_record(sub)
            if record is not None:
                rows.append([f"`{record[0]}`", plain(record[1])])
        if rows:
            blocks.append(table(["Option", "What it does"], rows))
        if command.epilog:
            blocks.append(code_block(inspect.cleandoc(command.epilog), language="text"))
    return "\n\n".join(blocks) + "\n"


__all__ = ["cli_page", "game_data_page", "schema_page"]
