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


@dataclass(slots=True)
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
    manifest: each counted kind's documents with their top-level fields, indexed by the
    value of each field filtered on, and those whose field cannot be told (Corpus.reads_as
    is None), which depends on the document and the key alone, not on the value looked for."""

    def __init__(self, corpus: Corpus) -> None:
        self._corpus = corpus
        self._of_kind: dict[str, list[tuple[SourceDocument, dict[str, Any]]]] = {}
        # (kind, key) -> {field value: positions of the kind's documents holding it}
        self._by_value: dict[tuple[str, str], dict[Any, list[int]]] = {}
        # (kind, key) -> positions of the kind's documents whose field cannot be told
        self._untold: dict[tuple[str, str], set[int]] = {}

    def counted(self, counts: dict[str, Any]) -> list[tuple[SourceDocument, int]]:
        """The documents a `counts` filter matches, each with how many cards it stands for.

        Partial documents count too: a card with a typo elsewhere is still authored.
        """
        found: list[tuple[SourceDocument, int]] = []
        items_key = counts.get("items")
        wanted = _filter(counts)
        documents = self._documents(counts["kind"])
        for index in self._matching(counts["kind"], wanted):
            document, fields = documents[index]
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
        kind = counts["kind"]
        wanted = _filter(counts)
        documents = self._documents(kind)
        # Only a document with a field that cannot be told can be unsure: every other one
        # either matches or has a field that says it does not.
        doubtful: set[int] = set()
        for key in wanted:
            doubtful |= self._untold_of(kind, key)
        found = 0
        for index in sorted(doubtful):
            fields = documents[index][1]
            untold = False
            for key, value in wanted.items():
                if fields.get(key) == value:
                    continue
                if index not in self._untold_of(kind, key):
                    break  # the field says it does not match
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

    def _matching(self, kind: str, wanted: dict[str, Any]) -> list[int]:
        """Positions, in order, of the kind's documents whose fields say all of `wanted`."""
        documents = self._documents(kind)
        if not wanted:
            return list(range(len(documents)))
        (key, value), *rest = wanted.items()
        try:
            pool = self._values_of(kind, key).get(value, [])
        except TypeError:  # a value that cannot be a key (a list): every document is looked at
            pool = [i for i, (_, fields) in enumerate(documents) if fields.get(key) == value]
        return [i for i in pool if all(documents[i][1].get(k) == v for k, v in rest)]

    def _values_of(self, kind: str, key: str) -> dict[Any, list[int]]:
        found = self._by_value.get((kind, key))
        if found is None:
            found = self._by_value[(kind, key)] = {}
            # top_fields holds scalars (CONTAINER stands for lists and mappings): all keys
            for index, (_, fields) in enumerate(self._documents(kind)):
                found.setdefault(fields.get(key), []).append(index)
        return found

    def _untold_of(self, kind: str, key: str) -> set[int]:
        found = self._untold.get((kind, key))
        if found is None:
            found = self._untold[(kind, key)] = {
                index for index, (document, _) in enumerate(self._documents(kind))
                if self._corpus.reads_as(document, key, _MISMATCH) is None}
        return found


def _filter(counts: dict[str, Any]) -> dict[str, Any]:
    wanted = {k: counts[k] for k in ("wanderer", "expansion") if k in counts}
    wanted.update(counts.get("where", {}))
    return wanted
