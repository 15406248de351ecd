"""Static checks of scenario fixtures (no engine run): names, rule ids, rejection codes."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.engine.dawn_of_madness.errors import REJECTIONS
from dmtool.engine.deep_madness.errors import REJECTIONS as CHAPTER_REJECTIONS
from dmtool.loading import SourceDocument
from dmtool.scenarios.coverage import RULE_IDS
from dmtool.scenarios.engine_names import check_engine_names

Parts = tuple[Any, ...]


def check(corpus: Any) -> Iterable[Diagnostic]:
    """Rule-module entry point for `dmtool check`: every scenario document of the corpus."""
    for doc in corpus.of_kind("scenario"):
        yield from check_document(doc)


def check_document(doc: SourceDocument) -> list[Diagnostic]:
    data = doc.data if isinstance(doc.data, dict) else {}
    out: list[Diagnostic] = []
    for i, rule in enumerate(data.get("rules", [])):
        if rule not in RULE_IDS:
            out.append(diagnose("DM416", doc.locate(("rules", i)), f"'{rule}' is not a rule id "
                                f"of the checklist (R01-R{len(RULE_IDS):02d})."))
    if "seed" in data and (data.get("dice") or any(s.get("dice") for s in data.get("steps", []))):
        out.append(diagnose("DM401", doc.locate(("seed",), key=True), "A seeded fixture cannot "
                            "also script dice; remove 'seed' or the dice."))
    out += check_engine_names(doc, data)
    if data.get("game") == "deep-madness":
        return out + _codes(doc, data, CHAPTER_REJECTIONS) + _chapter_names(doc, data)
    setup = data.get("setup", {})
    wanderers = set(setup.get("wanderers", {}))
    monsters = set(setup.get("monsters", {}))
    for section in ("terrors", "malformations", "abominations", "final_bosses"):
        monsters |= set(setup.get("cards", {}).get(section, {}))
    if isinstance(setup.get("abomination"), dict):
        monsters.add(setup["abomination"].get("id"))
    for where, kind, name in _names(data):
        known = wanderers if kind == "wanderer" else monsters
        if name not in known:
            options = ", ".join(sorted(known)) or "none"
            out.append(diagnose("DM402", doc.locate(where), f"The {kind} '{name}' is not in the "
                                f"fixture's setup (it has: {options}).",
                                hint=_close(name, known)))
    return out + _codes(doc, data, REJECTIONS)


def _codes(doc: SourceDocument, data: dict[str, Any], codes: dict[str, str]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for i, step in enumerate(data.get("steps", [])):
        code = step.get("expect_error")
        if code is not None and code not in codes:
            out.append(diagnose("DM422", doc.locate(("steps", i, "expect_error")),
                                f"'{code}' is not a rejection code of the engine.",
                                hint=_close(code, set(codes))))
    return out


def _chapter_names(doc: SourceDocument, data: dict[str, Any]) -> list[Diagnostic]:
    """Investigators a Deep Madness fixture's steps name must be in its setup."""
    known = set(data.get("setup", {}).get("investigators", {}))
    out: list[Diagnostic] = []
    for i, step in enumerate(data.get("steps", [])):
        for key in ("do", "expect_illegal"):
            action = step.get(key)
            name = action.get("investigator") if isinstance(action, dict) else None
            if name is not None and name not in known and not data["setup"].get("campaign"):
                out.append(diagnose("DM402", doc.locate(("steps", i, key, "investigator")),
                                    f"The investigator '{name}' is not in the fixture's setup "
                                    f"(it has: {', '.join(sorted(known)) or 'none'}).",
                                    hint=_close(name, known)))
    return out


def _close(name: str, options: set[str]) -> str | None:
    found = difflib.get_close_matches(str(name), sorted(o for o in options if o), n=1)
    return f"did you mean '{found[0]}'?" if found else None


def _names(data: dict[str, Any]) -> Iterator[tuple[Parts, str, str]]:
    """(where, 'wanderer' | 'monster', name) for every name a step uses."""
    for i, step in enumerate(data.get("steps", [])):
        for key in ("do", "expect_illegal"):
            action = step.get(key)
            if isinstance(action, dict):
                yield from _action_names(action, ("steps", i, key))


def _action_names(action: dict[str, Any], where: Parts) -> Iterator[tuple[Parts, str, str]]:
    if "wanderer" in action:
        yield where + ("wanderer",), "wanderer", action["wanderer"]
    for kind, args in action.items():
        if not isinstance(args, dict):
            continue
        if kind in ("attack", "activate") and "monster" in args:
            yield where + (kind, "monster"), "monster", args["monster"]
        if kind == "trade" and "with" in args:
            yield where + (kind, "with"), "wanderer", args["with"]
        if kind == "summon" and "wanderer" in args:
            yield where + (kind, "wanderer"), "wanderer", args["wanderer"]
        if kind == "support":
            inner = {k: v for k, v in args.items() if k != "card"}
            yield from _action_names(inner, where + (kind,))
