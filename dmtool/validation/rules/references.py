"""Unique ids per kind (DM201) and references that resolve (DM202), across the corpus."""

from __future__ import annotations

from collections.abc import Iterator

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.diagnostics.hints import id_hint
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus

# Scenario fixtures define their own cards inline, so their ids need not exist in content.
SELF_CONTAINED_KINDS = frozenset({"scenario"})


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    yield from _duplicate_ids(corpus)
    if corpus.schemas is None:
        return
    # Partial documents make references too (what they could be read to say), but one that
    # did not even parse has no positions to point at; its loading error is its diagnostic.
    for document in corpus.documents + corpus.partial:
        facts = corpus.facts(document)
        if facts.kind in SELF_CONTAINED_KINDS or not facts.standing.loaded:
            continue
        for ref in corpus.unresolved(document):
            candidates = corpus.candidates(ref.kinds)
            wanted = " or ".join(ref.kinds)
            yield diagnose(
                "DM202",
                document.locate(ref.path),
                f"no {wanted} with the id '{ref.value}' exists in the corpus",
                hint=id_hint(ref.value, candidates, corpus.titles(ref.kinds)),
            )


def _duplicate_ids(corpus: Corpus) -> Iterator[Diagnostic]:
    for kind in sorted(corpus.kinds()):
        first_seen: dict[str, SourceDocument] = {}
        for document in corpus.of_kind(kind):
            doc_id = document.doc_id
            if not isinstance(doc_id, str):
                continue
            original = first_seen.get(doc_id)
            if original is not None:
                yield diagnose(
                    "DM201",
                    document.locate(("id",)),
                    f"the {kind} id '{doc_id}' is already used by {original.display}",
                    related=(original.locate(("id",)),),
                )
            else:
                first_seen[doc_id] = document
