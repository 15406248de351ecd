"""Unique ids per kind (DM201) and references that resolve (DM202), across the corpus.

Each document's references are extracted once per content (a memo stored with the file
in the check cache); the join against the corpus's ids is cheap and runs every time.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus
from dmtool.validation.references import ReferenceWalker
from dmtool.validation.schema_errors import did_you_mean

# Scenario fixtures define their own cards inline, so their ids need not exist in content.
SELF_CONTAINED_KINDS = frozenset({"scenario"})
MEMO = "references:1"

# A stored reference: (path, kinds, value).
Stored = tuple[tuple[str | int, ...], tuple[str, ...], str]


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    yield from _duplicate_ids(corpus)
    if corpus.schemas is None:
        return
    walker = ReferenceWalker(corpus.schemas)
    known: dict[str, set[str]] = {}
    for document in corpus.documents:
        if document.kind in SELF_CONTAINED_KINDS:
            continue
        for path, kinds, value in _references(document, walker):
            if any(value in _ids(corpus, known, k) for k in kinds):
                continue
            candidates = set().union(*(_ids(corpus, known, k) for k in kinds))
            wanted = " or ".join(kinds)
            yield diagnose(
                "DM202",
                document.locate(path),
                f"no {wanted} with the id '{value}' exists in the corpus",
                hint=did_you_mean(value, candidates),
            )


def _references(document: SourceDocument, walker: ReferenceWalker) -> list[Stored]:
    def extract(doc: SourceDocument) -> list[Stored]:
        return [(r.path, r.kinds, r.value) for r in walker.references(doc.kind, doc.data)]

    return document.memo(MEMO, extract, _is_stored)


def _is_stored(value: Any) -> bool:
    return type(value) is list and all(
        type(r) is tuple and len(r) == 3 and type(r[0]) is tuple
        and all(type(p) in (str, int) for p in r[0]) and type(r[1]) is tuple
        and all(type(k) is str for k in r[1]) and type(r[2]) is str for r in value)


def _ids(corpus: Corpus, cache: dict[str, set[str]], kind: str) -> set[str]:
    found = cache.get(kind)
    if found is None:
        found = set(corpus.ids(kind)) | corpus.nested_ids(kind)
        cache[kind] = found
    return found


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
