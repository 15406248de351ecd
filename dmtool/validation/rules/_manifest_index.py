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


# Equal to no YAML value: what Corpus.reads_as says of a field that does not match.
_MISMATCH = object()


class Counting:
    """The documents manifest `counts` filters look at, read once for every line of every
    manifest: each counted kind's documents with their top-level fields, and what a field
    that does not match says (Corpus.reads_as: False, or None when it cannot be told),
    which depends on the document and the key alone, not on the value looked for."""

    def __init__(self, corpus: Corpus) -> None:
        self._corpus = corpus
        self._of_kind: dict[str, list[tuple[SourceDocument, dict[str, Any]]]] = {}
        self._mismatch: dict[tuple[int, str], bool | None] = {}

    def counted(self, counts: dict[str, Any]) -> list[tuple[SourceDocument, int]]:
        """The documents a `counts` filter matches, each with how many cards it stands for.

        Partial documents count too: a card with a typo elsewhere is still authored.
        """
        found: list[tuple[SourceDocument, int]] = []
        items_key = counts.get("items")
        wanted = _filter(counts)
        for document, fields in self._documents(counts["kind"]):
            if not all(fields.get(key) == value for key, value in wanted.items()):
                continue
            if items_key is not None:
                items = document.data.get(items_key)
                amount = len(items) if isinstance(items, list) else 0
            else:
                copies = fields.get("copies", 1)
                amount = copies if isinstance(copies, int) else 1
            found.append((document, amount))
        return found

    def unsure(self, counts: dict[str, Any]) -> int:
        """How many documents of the counted kind might match but cannot be read well enough:
        no field says it does not match, and one cannot be told."""
        wanted = _filter(counts)
        found = 0
        for document, fields in self._documents(counts["kind"]):
            untold = False
            for key, value in wanted.items():
                if fields.get(key) == value:
                    continue
                verdict = self._mismatched(document, key)
                if verdict is False:
                    break
                untold = True
            else:
                found += untold
        return found

    def _documents(self, kind: str) -> list[tuple[SourceDocument, dict[str, Any]]]:
        found = self._of_kind.get(kind)
        if found is None:  # top_fields: a storybook is not unpacked to be counted
            found = self._of_kind[kind] = [(d, self._corpus.top_fields(d))
                                          for d in self._corpus.readable(kind)]
        return found

    def _mismatched(self, document: SourceDocument, key: str) -> bool | None:
        slot = (id(document), key)
        if slot not in self._mismatch:
            self._mismatch[slot] = self._corpus.reads_as(document, key, _MISMATCH)
        return self._mismatch[slot]


def _filter(counts: dict[str, Any]) -> dict[str, Any]:
    wanted = {k: counts[k] for k in ("wanderer", "expansion") if k in counts}
    wanted.update(counts.get("where", {}))
    return wanted
