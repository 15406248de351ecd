"""The story graph analyses (DM3xx) as a `dmtool check` rule, one storybook at a time.

A storybook's analysis depends on the book and on the documents its context is drawn
from (round trackers, the wanderer's shards, cards, codas and dashboard). Its findings
are memoised with the book under a key naming the content of each of those documents, so
an unchanged book in an unchanged context is not analysed again, in a later run (through
the check cache) or in a long-lived session.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from dmtool.diagnostics import Diagnostic
from dmtool.loading import SourceDocument
from dmtool.validation.cache import are_packed, pack, unpack
from dmtool.validation.corpus import Corpus

# Findings about a wanderer's cards rather than one storybook: a card nothing spawns or a
# coda nothing awards is an orphan only if no storybook of that wanderer uses it.
CARD_CODES = frozenset({"DM308", "DM309"})
MEMO = "storygraph:1:"
_OWNER = "wanderer-field:1"


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    storybooks = corpus.of_kind("storybook")
    if not storybooks:
        return  # nothing to analyse: keep `dmtool check` of other content free of graph imports
    by_wanderer: dict[str, int] = Counter()
    card_findings: dict[str, Counter[tuple[str, str, int, int]]] = defaultdict(Counter)
    first_seen: dict[tuple[str, str, int, int], Diagnostic] = {}
    context_keys: dict[str, str | None] = {}
    for document in storybooks:
        wanderer = _owner(document)
        if wanderer is None:
            continue  # the schema requires it; a document without one is not analysed
        by_wanderer[wanderer] += 1
        if wanderer not in context_keys:
            context_keys[wanderer] = _context_key(corpus, wanderer)
        for diagnostic in _findings(corpus, document, wanderer, context_keys[wanderer]):
            if diagnostic.code not in CARD_CODES:
                yield diagnostic
                continue
            loc = diagnostic.location
            key = (diagnostic.code, loc.path, loc.line, loc.column)
            card_findings[wanderer][key] += 1
            first_seen.setdefault(key, diagnostic)
    for wanderer, found in card_findings.items():
        for key, count in found.items():
            if count == by_wanderer[wanderer]:
                yield first_seen[key]


def _findings(corpus: Corpus, document: SourceDocument, wanderer: str,
              context_key: str | None) -> list[Diagnostic]:
    def analysed(book: SourceDocument) -> tuple[tuple[Any, ...], ...]:
        return tuple(pack(d) for d in _analyse(corpus, book, wanderer))

    if context_key is None or document.content_key is None:
        return _analyse(corpus, document, wanderer)
    packed = document.memo(MEMO + context_key, analysed, are_packed)
    return [unpack(p) for p in packed]


def _analyse(corpus: Corpus, document: SourceDocument, wanderer: str) -> list[Diagnostic]:
    from dmtool.model.storybook import Storybook
    from dmtool.storygraph.analysis import analyse
    from dmtool.storygraph.context import context_for

    storybook = Storybook.from_document(document)
    return analyse(storybook, context_for(corpus, wanderer)).diagnostics


def _context_key(corpus: Corpus, wanderer: str) -> str | None:
    """A key naming the content of every document the wanderer's context may be drawn from.

    The context's own code decides which kinds it reads (recorded by running it over the
    corpus); of those, documents that name another wanderer cannot contribute. None when
    a document's content is not known (then nothing is memoised).
    """
    from dmtool.storygraph.context import context_for

    recorder = _KindRecorder(corpus)
    try:
        context_for(recorder, wanderer)
    except AttributeError:
        return None  # it reads the corpus in a way the recorder cannot follow: no memo
    hasher = hashlib.blake2b(wanderer.encode(), digest_size=16)
    for kind in sorted(recorder.kinds):
        for document in corpus.of_kind(kind):
            owner = _owner(document)
            if owner is not None and owner != wanderer and kind != "wanderer":
                continue
            if document.content_key is None:
                return None
            hasher.update(f"{kind}\0{document.display}\0{document.content_key}\0".encode())
    return hasher.hexdigest()


def _owner(document: SourceDocument) -> str | None:
    """The document's `wanderer:` field, remembered with it (no need to unpack it again)."""
    def read(doc: SourceDocument) -> str | None:
        data = doc.data
        value = data.get("wanderer") if isinstance(data, dict) else None
        return value if isinstance(value, str) else None

    return document.memo(_OWNER, read, lambda v: v is None or type(v) is str)


class _KindRecorder:
    """A corpus stand-in that notes which kinds a function asks for."""

    def __init__(self, corpus: Corpus) -> None:
        self._corpus = corpus
        self.kinds: set[str] = set()

    def of_kind(self, kind: str) -> list[SourceDocument]:
        self.kinds.add(kind)
        return self._corpus.of_kind(kind)

    def get(self, kind: str, doc_id: str) -> SourceDocument | None:
        self.kinds.add(kind)
        return self._corpus.get(kind, doc_id)

    def __getattr__(self, name: str) -> Callable[..., Any]:
        # Anything else the context might read is not recorded: refuse it, so that
        # _context_key gives no key rather than a key that misses a dependency.
        raise AttributeError(name)
