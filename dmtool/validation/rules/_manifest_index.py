"""Manifest lookups shared by the rulebook rules: components by id, and counted documents."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from dmtool.diagnostics import Location
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus
from dmtool.validation.schema_errors import did_you_mean

Parts = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Component:
    """One line or part of a manifest, with where it sits in the manifest file."""

    id: str
    name: str
    count: int
    parts: Parts
    line_id: str  # the line itself, or the line a part belongs to
    part_ids: tuple[str, ...] = ()


@dataclass
class ManifestIndex:
    """Every manifest of the corpus, its components by id."""

    documents: dict[str, SourceDocument] = field(default_factory=dict)
    components: dict[str, dict[str, Component]] = field(default_factory=dict)

    @classmethod
    def build(cls, corpus: Corpus) -> ManifestIndex:
        index = cls()
        for document in corpus.of_kind("manifest"):
            manifest_id = document.data["id"]
            if manifest_id in index.documents:
                continue  # a duplicate id is DM201's business
            index.documents[manifest_id] = document
            index.components[manifest_id] = dict(_components(document.data))
        return index

    def find(self, manifest_id: str, component_id: str) -> Component | None:
        return self.components.get(manifest_id, {}).get(component_id)

    def has(self, manifest_id: str) -> bool:
        return manifest_id in self.documents

    def hint(self, manifest_id: str, component_id: str) -> str | None:
        return did_you_mean(component_id, self.components.get(manifest_id, {}))

    def location(self, manifest_id: str, component: Component) -> Location:
        return self.documents[manifest_id].locate(component.parts)


def _components(data: dict[str, Any]) -> Iterator[tuple[str, Component]]:
    for n, line in enumerate(data.get("components", [])):
        parts = line.get("parts", [])
        part_ids = tuple(p["id"] for p in parts)
        yield line["id"], Component(line["id"], line["name"], line["count"], ("components", n),
                                    line["id"], part_ids)
        for m, part in enumerate(parts):
            yield part["id"], Component(part["id"], part["name"], part["count"],
                                        ("components", n, "parts", m), line["id"])


def counted(corpus: Corpus, counts: dict[str, Any]) -> list[tuple[SourceDocument, int]]:
    """The documents a manifest `counts` filter matches, each with how many cards it stands for.

    Partial documents count too: a card with a typo elsewhere is still authored.
    """
    found: list[tuple[SourceDocument, int]] = []
    items_key = counts.get("items")
    for document in corpus.readable(counts["kind"]):
        fields = corpus.top_fields(document)  # a storybook is not unpacked to be counted
        if not _matches(fields, counts):
            continue
        if items_key is not None:
            items = document.data.get(items_key)
            amount = len(items) if isinstance(items, list) else 0
        else:
            copies = fields.get("copies", 1)
            amount = copies if isinstance(copies, int) else 1
        found.append((document, amount))
    return found


def unsure(corpus: Corpus, counts: dict[str, Any]) -> int:
    """How many documents of the counted kind might match but cannot be read well enough."""
    wanted = _filter(counts)
    found = 0
    for document in corpus.readable(counts["kind"]):
        verdicts = [corpus.reads_as(document, key, value) for key, value in wanted.items()]
        found += False not in verdicts and None in verdicts
    return found


def _filter(counts: dict[str, Any]) -> dict[str, Any]:
    wanted = {k: counts[k] for k in ("wanderer", "expansion") if k in counts}
    wanted.update(counts.get("where", {}))
    return wanted


def _matches(data: dict[str, Any], counts: dict[str, Any]) -> bool:
    return all(data.get(key) == value for key, value in _filter(counts).items())
