"""The story graph analyses (DM3xx) as a `dmtool check` rule, one storybook at a time.

The analyses read the storybook's context (trackers, shards, cards, codas) tolerantly,
partial documents included, so a typo in a card does not make its entry unreachable. A
source whose entry cannot be read at all leaves the roots incomplete: then what depends
on reachability is not judged, rather than judged wrongly.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterator
from typing import Any

from dmtool.diagnostics import Diagnostic
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus

# Findings about a wanderer's cards rather than one storybook: a card nothing spawns or a
# coda nothing awards is an orphan only if no storybook of that wanderer uses it.
CARD_CODES = frozenset({"DM308", "DM309"})
# Findings that hold only if every root of the storybook is known.
REACHABILITY_CODES = frozenset({"DM303", "DM304", "DM305", "DM306", "DM307", "DM308", "DM309"})
# Kinds that name the storybook's roots, and what each must hold for its root to be known.
_ROOT_FIELDS: dict[str, tuple[tuple[tuple[str, ...], type], ...]] = {
    "encounter-card": ((("entry",), int),),
    "finale-encounter-card": ((("entry",), int), (("ending",), str)),
    "world-shard": ((("encounter", "entry"), int), (("finale", "encounters"), list)),
    "round-trackers": ((("trackers",), list),),
}

def check(corpus: Corpus) -> Iterator[Diagnostic]:
    storybooks = corpus.of_kind("storybook")
    if not storybooks:
        return  # nothing to analyse: keep `dmtool check` of other content free of graph imports
    from dmtool.model.storybook import Storybook
    from dmtool.storygraph.analysis import analyse
    from dmtool.storygraph.context import context_for

    by_wanderer: dict[str, int] = Counter()
    card_findings: dict[str, Counter[tuple[str, str, int, int]]] = defaultdict(Counter)
    first_seen: dict[tuple[str, str, int, int], Diagnostic] = {}
    for document in storybooks:
        storybook = Storybook.from_document(document)
        if not _reported(corpus, document, storybook.wanderer):
            continue  # none of its findings could be located in a file the user asked about
        by_wanderer[storybook.wanderer] += 1
        view = ContextView(corpus, storybook.wanderer)
        for diagnostic in analyse(storybook, context_for(view, storybook.wanderer)).diagnostics:
            if view.incomplete and diagnostic.code in REACHABILITY_CODES:
                continue
            if diagnostic.code not in CARD_CODES:
                yield diagnostic
                continue
            loc = diagnostic.location
            key = (diagnostic.code, loc.path, loc.line, loc.column)
            card_findings[storybook.wanderer][key] += 1
            first_seen.setdefault(key, diagnostic)
    for wanderer, found in card_findings.items():
        for key, count in found.items():
            if count == by_wanderer[wanderer]:
                yield first_seen[key]


# Kinds whose files a storybook's findings can be located in (besides the storybook): its
# roots (DM301, DM310) and its cards and codas (DM308, DM309, DM315).
_FINDINGS_IN = ("world-shard", "encounter-card", "finale-encounter-card", "coda")


def _reported(corpus: Corpus, document: SourceDocument, wanderer: str) -> bool:
    """Whether any finding of this storybook's analysis could be reported in this run."""
    checked = corpus.checked
    if checked is None or document.display in checked:
        return True
    if any(d.display in checked for d in corpus.readable("round-trackers")):
        return True
    return any(
        d.display in checked and (not isinstance(d.data, dict) or d.data.get("wanderer")
                                  in (wanderer, None))
        for kind in _FINDINGS_IN
        for d in corpus.readable(kind)
    )


class ContextView:
    """The corpus as one wanderer's storybook context reads it.

    Partial documents are included; one whose `wanderer` cannot be read (missing,
    mistyped, or naming no wanderer) is taken as this wanderer's, since it may well be.
    `incomplete` is set when such a document's entry number cannot be read.
    """

    def __init__(self, corpus: Corpus, wanderer: str) -> None:
        self._corpus = corpus
        self._wanderer = wanderer
        self.incomplete = False

    def of_kind(self, kind: str) -> list[SourceDocument]:
        return [self._as_mine(document, kind) for document in self._corpus.readable(kind)]

    @property
    def documents(self) -> list[SourceDocument]:
        """Every readable document (the context scans them all for sentience changes)."""
        return self._corpus.documents + self._corpus.partial

    def _as_mine(self, document: SourceDocument, kind: str) -> SourceDocument:
        """The document, read as this wanderer's when its wanderer cannot be read."""
        mine = kind == "round-trackers" or document.data.get("wanderer") == self._wanderer
        read = document
        if not mine and self._corpus.reads_as(document, "wanderer", self._wanderer) is None:
            read, mine = document.read_as({**document.data, "wanderer": self._wanderer}), True
        if mine and not self._corpus.trusted(document) and not _roots_known(read.data, kind):
            self.incomplete = True
        return read


def _roots_known(data: dict[str, Any], kind: str) -> bool:
    """Whether a document's entries (and endings, for finale sources) can be read."""
    for parts, wanted in _ROOT_FIELDS.get(kind, ()):
        value = _dig(data, parts)
        if not isinstance(value, wanted) or isinstance(value, bool):
            return False
        if parts == ("finale", "encounters") and not all(
                isinstance(e, dict) and _is_int(e.get("entry")) and isinstance(e.get("ending"), str)
                for e in value):
            return False
        if parts == ("trackers",) and not all(
                isinstance(t, dict) and _is_int(t.get("entry")) for t in value):
            return False
    return True


def _dig(data: Any, parts: tuple[str | int, ...]) -> Any:
    for part in parts:
        data = data.get(part) if isinstance(data, dict) else None
    return data


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
