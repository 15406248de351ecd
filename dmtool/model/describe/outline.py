"""Any located piece of vocabulary in words, and described effects as an indented outline
(the descriptions snapshot and terminal output read it)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from dmtool.model.describe.chapter import describe_chapter_condition
from dmtool.model.describe.chapter_effects import describe_chapter_effect, describe_chapter_effects
from dmtool.model.describe.conditions import describe_condition
from dmtool.model.describe.effects import describe_effect, describe_effects
from dmtool.model.describe.text import (
    Described,
    Phrase,
    capitalise,
    join,
    lower_first,
    phrase,
    plain,
)
from dmtool.model.describe.words import Names, no_names

CONDITION_VOCABULARIES = frozenset({"condition", "chapter-condition", "chapter-conditions"})


def describe_value(vocabulary: str, value: Any, names: Names = no_names) -> tuple[Described, ...] | Phrase:
    """Effects as `Described` values, conditions as one clause (see locate.VOCABULARY)."""
    if vocabulary == "effects":
        return describe_effects(value, names)
    if vocabulary == "effect":
        return (describe_effect(value, names),)
    if vocabulary == "chapter-effects":
        return describe_chapter_effects(value, names)
    if vocabulary == "chapter-effect":
        return (describe_chapter_effect(value, names),)
    if vocabulary == "condition":
        return describe_condition(value, names)
    if vocabulary == "chapter-condition":
        return describe_chapter_condition(value, names)
    if vocabulary == "chapter-conditions":
        items = value if isinstance(value, list) else []
        return join([describe_chapter_condition(c, names) for c in items], "or")
    raise ValueError(f"unknown vocabulary {vocabulary!r}")


def outline(effects: Iterable[Described], indent: str = "") -> list[str]:
    """One line per effect, its sides indented under it."""
    lines: list[str] = []
    for effect in effects:
        words = effect.clause()
        if words:
            lines.append(indent + sentence(words))
        for side in effect.sides:
            lines.append(f"{indent}{'  ' if words else ''}{plain(capitalise(side.label))}:")
            lines += outline(side.effects, indent + ("    " if words else "  "))
            if not side.effects:
                lines.append(indent + ("    " if words else "  ") + "Nothing happens.")
    return lines


def sentence(words: Phrase) -> str:
    text = plain(capitalise(words))
    return text if text.endswith((".", ":", "!", "?")) else text + "."



def value_lines(vocabulary: str, value: Any, names: Names = no_names,
                indent: str = "") -> list[str]:
    """A located value as outline lines: effects one per line, a condition as 'When ...'."""
    described = describe_value(vocabulary, value, names)
    if vocabulary in CONDITION_VOCABULARIES:
        return [indent + sentence(phrase("When ", lower_first(described)))]  # type: ignore[arg-type]
    return outline(described, indent)  # type: ignore[arg-type]
