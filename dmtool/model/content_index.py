"""Borrowing definitions from authored content: an index of documents by kind and id."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmtool.loading import discover, read_document
from dmtool.packaged import content_dir, games_underneath

_CACHE: dict[Path, ContentIndex] = {}


def default_content_dir() -> Path:
    """The content tree when none is given (dmtool/packaged.py: the configured one, else
    content/ of the working folder, else the packaged games)."""
    return content_dir()


@dataclass
class ContentIndex:
    """Every readable YAML document under a folder, by (kind, id); read on first use.
    The packaged games the folder lacks are read after it: an author's own document of
    a kind and id takes precedence."""

    root: Path
    _docs: dict[tuple[str, str], dict[str, Any]] | None = field(default=None, repr=False)

    def get(self, kind: str, doc_id: str) -> dict[str, Any] | None:
        if self._docs is None:
            self._docs = self._load()
        return self._docs.get((kind, doc_id))

    def of_kind(self, kind: str) -> dict[str, dict[str, Any]]:
        """Every document of one kind, by id (sorted by id)."""
        if self._docs is None:
            self._docs = self._load()
        return {doc_id: data for (k, doc_id), data in sorted(self._docs.items()) if k == kind}

    def _load(self) -> dict[tuple[str, str], dict[str, Any]]:
        docs: dict[tuple[str, str], dict[str, Any]] = {}
        if not self.root.is_dir():
            return docs
        files, _ = discover([self.root, *games_underneath([self.root])])
        for path in files:
            doc = read_document(path).document
            data = doc.data if doc is not None else None
            if isinstance(data, dict) and isinstance(data.get("kind"), str):
                docs.setdefault((data["kind"], str(data.get("id"))), data)
        return docs


def index_for(root: Path) -> ContentIndex:
    root = root.resolve()
    if root not in _CACHE:
        _CACHE[root] = ContentIndex(root)
    return _CACHE[root]
