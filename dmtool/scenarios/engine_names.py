"""Names a fixture takes from the engine, judged against the game's own registry: the types
of condition card a wanderer holds (DM427) and the kinds of event the expectations look for
(DM428). The registry is what the engine registers as it loads (dmtool.engine.games), so
these checks follow the engine wherever its rules live."""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.engine.core.registry import Rules
from dmtool.engine.games import GAMES
from dmtool.loading import SourceDocument

Parts = tuple[Any, ...]
DEFAULT_GAME = "dawn-of-madness"
TITLES = {"dawn-of-madness": "Dawn of Madness", "deep-madness": "Deep Madness"}


def check_engine_names(doc: SourceDocument, data: Mapping[str, Any]) -> list[Diagnostic]:
    game = data.get("game", DEFAULT_GAME)
    rules = GAMES.get(game)
    if rules is None:
        return []  # the schema says which games there are
    title = TITLES.get(game, game)
    out = list(_condition_types(doc, data, rules, title))
    out += _event_kinds(doc, data, rules, title)
    return out


def _condition_types(
    doc: SourceDocument, data: Mapping[str, Any], rules: Rules, title: str
) -> Iterator[Diagnostic]:
    known = set(rules.condition_cards)
    if not known:
        return
    setup = data.get("setup")
    wanderers = setup.get("wanderers") if isinstance(setup, dict) else None
    for wid, sheet in (wanderers.items() if isinstance(wanderers, dict) else ()):
        if not isinstance(sheet, dict):
            continue
        where: Parts = ("setup", "wanderers", wid)
        held = sheet.get("conditions")
        for kind in held if isinstance(held, dict) else ():
            if kind not in known:
                yield _unknown_type(doc, where + ("conditions", kind), str(kind), known, title)
        cards = sheet.get("condition_cards")
        for i, card in enumerate(cards if isinstance(cards, list) else []):
            kind = str(card).split("-", 1)[0]
            if kind not in known:
                yield _unknown_type(doc, where + ("condition_cards", i), kind, known, title)


def _unknown_type(
    doc: SourceDocument, where: Parts, kind: str, known: set[str], title: str
) -> Diagnostic:
    return diagnose(
        "DM427",
        doc.locate(where, key=where[-2] == "conditions"),
        f"'{kind}' is not a type of condition card in {title}; its engine deals "
        f"{', '.join(sorted(known))}",
        hint=_close(kind, known),
    )


def _event_kinds(
    doc: SourceDocument, data: Mapping[str, Any], rules: Rules, title: str
) -> Iterator[Diagnostic]:
    known = set(rules.events)
    for where, kind in _expected_events(data):
        if kind not in known:
            yield diagnose(
                "DM428",
                doc.locate(where),
                f"the {title} engine never logs an event '{kind}', so this expectation can "
                f"never be met; it logs {', '.join(sorted(known))}",
                hint=_close(kind, known),
            )


def _expected_events(data: Mapping[str, Any]) -> Iterator[tuple[Parts, str]]:
    """(where the name is written, the event kind) of every event an expectation names."""
    blocks: list[tuple[Parts, Any]] = [(("expect",), data.get("expect"))]
    steps = data.get("steps")
    for i, step in enumerate(steps if isinstance(steps, list) else []):
        if isinstance(step, dict):
            blocks.append((("steps", i, "expect"), step.get("expect")))
    for where, block in blocks:
        if not isinstance(block, dict):
            continue
        for key in ("events", "absent_events"):
            patterns = block.get(key)
            inner: Parts = (key,)
            if isinstance(patterns, dict) and isinstance(patterns.get("any_order"), list):
                patterns, inner = patterns["any_order"], (key, "any_order")
            for i, pattern in enumerate(patterns if isinstance(patterns, list) else []):
                if isinstance(pattern, dict) and isinstance(pattern.get("event"), str):
                    yield where + inner + (i, "event"), pattern["event"]


def _close(name: str, options: set[str]) -> str | None:
    found = difflib.get_close_matches(name, sorted(options), n=1)
    return f"did you mean '{found[0]}'?" if found else None
