"""Titles for the ids that effects and conditions name, read from the documents themselves."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from dmtool.model.describe.words import Names

# The kinds a Ref of kind 'card' or 'monster' may point at (the schemas' x-refers-to lists).
CARD_KINDS = ("coda", "encounter-card", "finale-encounter-card", "existence-card", "domain-card",
              "finale-legacy-card", "wanderer-card")
MONSTER_KINDS = ("terror", "malformation", "final-boss", "abomination")


def title_of(data: Mapping[str, Any]) -> str | None:
    for key in ("title", "name"):
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return " ".join(value.split())
    return None


class CorpusNames:
    """Names(kind, id) over a corpus: document titles by kind, condition types by id."""

    def __init__(self, documents: Iterable[Mapping[str, Any]]) -> None:
        self.titles: dict[tuple[str, str], str] = {}
        for data in documents:
            kind, key = data.get("kind"), data.get("id")
            title = title_of(data)
            if isinstance(kind, str) and isinstance(key, str) and title:
                self.titles[(kind, key)] = title
            if kind == "condition-types":
                for item in data.get("types") or []:
                    if isinstance(item, Mapping) and isinstance(item.get("id"), str):
                        name = title_of(item)
                        if name:
                            self.titles[("condition-type", item["id"])] = name

    def __call__(self, kind: str, key: str) -> str | None:
        if kind == "card":
            return self._first(CARD_KINDS, key)
        if kind == "monster":
            return self._first(MONSTER_KINDS, key)
        return self.titles.get((kind, key))

    def _first(self, kinds: tuple[str, ...], key: str) -> str | None:
        return next((self.titles[(k, key)] for k in kinds if (k, key) in self.titles), None)


def chapter_names(chapter: Mapping[str, Any], fallback: Names) -> Names:
    """Names for a chapter's own components and monsters, then anything else from `fallback`."""
    local: dict[tuple[str, str], str] = {}
    for field, kind in (("components", "component"), ("monsters", "chapter-monster")):
        for item in chapter.get(field) or []:
            if isinstance(item, Mapping) and isinstance(item.get("id"), str):
                name = title_of(item)
                if name:
                    local[(kind, item["id"])] = name

    def names(kind: str, key: str) -> str | None:
        return local.get((kind, key)) or fallback(kind, key)
    return names
