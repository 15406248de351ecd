"""A view of the corpus that records which documents a function read.

Rules that memoise a result derived from other documents (the story graph's context)
run that derivation over a RecordingCorpus: every document whose data, text or
positions were used is noted by its display path, so the memo can be keyed on exactly
those documents' contents. Anything read another way marks the recording as unknown.
"""

from __future__ import annotations

from typing import Any

from dmtool.loading import SourceDocument

# Stands in `read` for "something was read that the recording cannot name".
UNKNOWN = "\0unknown"


class TrackedDocument:
    """A document seen through a RecordingCorpus: reading it is recorded."""

    __slots__ = ("_document", "_located", "_read")

    def __init__(self, document: SourceDocument, read: set[str], located: set[str]) -> None:
        self._document = document
        self._read = read
        self._located = located

    @property
    def data(self) -> Any:
        self._read.add(self._document.display)
        return self._document.data

    @property
    def text(self) -> str:
        self._read.add(self._document.display)
        return self._document.text

    def memo(self, *args: Any, **kwargs: Any) -> Any:
        # A memo is derived from the document's contents: using it is reading them.
        self._read.add(self._document.display)
        return self._document.memo(*args, **kwargs)

    def locate(self, *args: Any, **kwargs: Any) -> Any:
        self._read.add(self._document.display)
        self._located.add(self._document.display)
        return self._document.locate(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        # display, path, kind, doc_id, modeline, content_key: what the cache already knows.
        return getattr(self._document, name)


class RecordingCorpus:
    """The parts of a Corpus (or of a view of one) that derivations use, recording what
    they read in `read`."""

    def __init__(self, corpus: Any) -> None:
        self._corpus = corpus
        self.read: set[str] = set()
        # Documents whose positions were used (a subset of `read`).
        self.located: set[str] = set()
        self._tracked: dict[int, TrackedDocument] = {}

    def _track(self, document: SourceDocument) -> TrackedDocument:
        tracked = self._tracked.get(id(document))
        if tracked is None:
            tracked = self._tracked[id(document)] = TrackedDocument(document, self.read, self.located)
        return tracked

    @property
    def documents(self) -> list[TrackedDocument]:
        return [self._track(d) for d in self._corpus.documents]

    def of_kind(self, kind: str) -> list[TrackedDocument]:
        return [self._track(d) for d in self._corpus.of_kind(kind)]

    def get(self, kind: str, doc_id: str) -> TrackedDocument | None:
        found = self._corpus.get(kind, doc_id)
        if found is None:
            # The absence of a document is read too: adding one changes the corpus's
            # membership, which the memo keys name.
            return None
        return self._track(found)

    def __getattr__(self, name: str) -> Any:
        self.read.add(UNKNOWN)
        return getattr(self._corpus, name)
