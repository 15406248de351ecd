"""The Corpus: every loaded, kind-tagged document of a content tree, indexed by kind and id."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from dmtool.loading import SourceDocument

# Referable things that live as items of a list inside another kind's document:
# referred kind -> (containing kind, list key); each item carries an `id`.
NESTED_ID_SOURCES: dict[str, tuple[str, str]] = {
    "condition-type": ("condition-types", "types"),
}


@dataclass
class Corpus:
    """Documents that passed loading and their kind's schema (rules may trust their shape).

    `checked` holds the display paths the user asked about: cross-file rules see the whole
    corpus but the CLI reports only diagnostics located in checked files.
    """

    documents: list[SourceDocument] = field(default_factory=list)
    # The schema set the documents were validated against (reference walks read it).
    schemas: Any = None
    _by_kind: dict[str, list[SourceDocument]] = field(default_factory=lambda: defaultdict(list))
    _by_id: dict[tuple[str, str], SourceDocument] = field(default_factory=dict)

    def add(self, document: SourceDocument) -> None:
        self.documents.append(document)
        kind = document.kind
        self._by_kind[kind].append(document)
        doc_id = document.doc_id
        if isinstance(doc_id, str):
            self._by_id.setdefault((kind, doc_id), document)

    def of_kind(self, kind: str) -> list[SourceDocument]:
        """Documents of a kind, in path order."""
        return self._by_kind.get(kind, [])

    def get(self, kind: str, doc_id: str) -> SourceDocument | None:
        """The (first) document of a kind with this id."""
        return self._by_id.get((kind, doc_id))

    def ids(self, kind: str) -> list[str]:
        return [d.doc_id for d in self.of_kind(kind) if isinstance(d.doc_id, str)]

    def nested_ids(self, kind: str) -> set[str]:
        """Ids of things defined inside other documents (e.g. condition types in one file)."""
        container = NESTED_ID_SOURCES.get(kind)
        if container is None:
            return set()
        container_kind, list_key = container
        found: set[str] = set()
        for document in self.of_kind(container_kind):
            for item in document.data.get(list_key, []):
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    found.add(item["id"])
        return found

    def kinds(self) -> Iterator[str]:
        return iter(self._by_kind)

    def data(self, kind: str, doc_id: str) -> Any:
        doc = self.get(kind, doc_id)
        return None if doc is None else doc.data
