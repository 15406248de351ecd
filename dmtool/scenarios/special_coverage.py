"""How many of the chapters' special rules the engine executes, proven both ways: a rule
counts when it has structure (`executes`) or a rule `hook`, and fixtures show it changing
the outcome and rightly not applying (their `special_rules: {applies, does_not_apply}`); a
skipped fixture counts for nothing."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from dmtool.model.content_index import ContentIndex


@dataclass(frozen=True)
class SpecialRule:
    chapter: str
    id: str
    title: str
    executed: bool

    @property
    def ref(self) -> str:
        return f"{self.chapter}/{self.id}"


@dataclass
class SpecialCoverage:
    rules: list[SpecialRule] = field(default_factory=list)
    missing: dict[str, str] = field(default_factory=dict)  # ref -> what it lacks

    @property
    def executed(self) -> int:
        return len(self.rules) - len(self.missing)

    def line(self) -> str:
        return f"chapter special rules: {self.executed} of {len(self.rules)} executed"

    def listing(self) -> list[str]:
        by_chapter: dict[str, list[str]] = {}
        for rule in self.rules:
            if rule.ref in self.missing:
                by_chapter.setdefault(rule.chapter, []).append(
                    f"    {rule.title} ({self.missing[rule.ref]})")
        return [line for chapter, rows in by_chapter.items() for line in (f"  {chapter}:", *rows)]


def special_rules(index: ContentIndex) -> list[SpecialRule]:
    found = []
    for chapter_id, chapter in sorted(index.of_kind("chapter").items(),
                                      key=lambda kv: (str(kv[1].get("expansion")),
                                                      kv[1].get("number", 0))):
        for rule in chapter.get("special_rules", []) or []:
            if isinstance(rule, dict):
                found.append(SpecialRule(chapter_id, str(rule.get("id")), str(rule.get("title")),
                                         bool(rule.get("executes") or rule.get("hook"))))
    return found


def coverage(index: ContentIndex, fixtures: Iterable[dict[str, Any]]) -> SpecialCoverage:
    applies: set[str] = set()
    not_applies: set[str] = set()
    for data in fixtures:
        if data.get("skip"):
            continue  # a fixture that is not run proves nothing
        proven = data.get("special_rules")
        if isinstance(proven, dict):
            applies.update(proven.get("applies", []) or [])
            not_applies.update(proven.get("does_not_apply", []) or [])
    result = SpecialCoverage(special_rules(index))
    for rule in result.rules:
        lacks = [what for what, ok in (("prose only", rule.executed),
                                        ("no fixture where it applies", rule.ref in applies),
                                        ("no fixture where it does not apply",
                                         rule.ref in not_applies)) if not ok]
        if lacks:
            result.missing[rule.ref] = "; ".join(lacks)
    return result
