"""The Corpus: every kind-tagged document of a content tree, indexed by kind and id.

Documents that passed their schema are trusted: rules may rely on their shape. Documents
that failed it (or failed to parse and were partly recovered) are kept apart as partial:
they still define ids, entries and endings, and tolerant readers (counts, the story
graph's context) see them, so one mistake in a file is reported once, in that file.
After loading, `settle` reads each document as its author meant it (see as_meant.py).
While a rule runs the corpus records what it reads, so that a session can tell whether
the rule's findings still hold after an edit (see rules/reads.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from dmtool.diagnostics.hints import closest_id
from dmtool.loading import SourceDocument
from dmtool.validation.as_meant import with_values
from dmtool.validation.corpus_reads import (
    ALL,
    CHECKED,
    DEFINED,
    KINDS,
    SCHEMAS,
    Read,
    RecordsReads,
    Same,
)
from dmtool.validation.facts import (
    NESTED_DEFINITIONS,
    DocumentFacts,
    Standing,
    facts_of,
    walker_for,
)
from dmtool.validation.references import Reference, ReferenceWalker

# Names the rule reads and tests import from here (they are corpus_reads.py's).
__all__ = ["ALL", "CHECKED", "CONTAINER", "DEFINED", "KINDS", "NESTED_ID_SOURCES", "SCHEMAS",
           "Corpus", "Read", "Same", "top_fields_of"]

# Referable things that live as items of a list inside another kind's document:
# referred kind -> (containing kind, list key); each item carries an `id`.
NESTED_ID_SOURCES: dict[str, tuple[str, str]] = {
    item_kind: (container, list_key)
    for container, (list_key, item_kind) in NESTED_DEFINITIONS.items()
}


_TOP_FIELDS = "top-fields:1"
# Stands for a list or mapping among top-level fields; equal to no YAML value.
CONTAINER = ("container",)


def _top_fields(document: SourceDocument) -> dict[str, Any]:
    data = document.data
    if not isinstance(data, dict):
        return {}
    return {k: CONTAINER if isinstance(v, dict | list) else v for k, v in data.items()}


def _are_top_fields(value: Any) -> bool:
    return type(value) is dict and all(
        type(k) is str and (v == CONTAINER or v is None or type(v) in (str, int, float, bool))
        for k, v in value.items())


def top_fields_of(document: SourceDocument) -> dict[str, Any]:
    """Corpus.top_fields, for a document not yet in a corpus."""
    return document.memo(_TOP_FIELDS, _top_fields, _are_top_fields)


class Corpus(RecordsReads):
    """Trusted documents (`documents`, `of_kind`, `get`) and partial ones (`readable`).

    `checked` holds the display paths the user asked about (None: every file): cross-file
    rules see the whole corpus but only diagnostics located in checked files are reported,
    so a rule may skip work whose findings could only land elsewhere.

    Inside `recording()` every read of the corpus is noted (what the read depends on, see
    Read); `value_of` says what such a read sees. A rule's findings depend only on what it
    read (a rule learns of documents only from the corpus, and what a document holds is
    named by its content key), so a session may reuse them while every value it read is
    unchanged (see rules/reads.py).
    """

    def __init__(self, schemas: Any = None) -> None:
        self._documents: list[SourceDocument] = []
        # The schema set the documents were validated against (reference walks read it).
        self._schemas = schemas
        # Documents of a known kind that failed their schema or did not parse.
        self._partial: list[SourceDocument] = []
        self._checked: frozenset[str] | None = None
        self._facts: dict[int, DocumentFacts] = {}
        self._top_refs: dict[int, dict[str | int, list[Reference]]] = {}
        self._by_kind: dict[str, list[SourceDocument]] | None = None
        self._partial_by_kind: dict[str, list[SourceDocument]] | None = None
        self._by_id: dict[tuple[str, str], SourceDocument] | None = None
        self._defined: dict[str, set[str]] | None = None
        self._walker: ReferenceWalker | None = None
        # Documents settle read as meant, by id: (the document as added, what was read
        # differently); and documents as added all of whose references resolved.
        self._settled_from: dict[int, tuple[SourceDocument, tuple[Any, ...]]] = {}
        self._clean: dict[int, SourceDocument] = {}
        # The references to nothing of each document settle looked at (see unresolved).
        self._missing: dict[int, list[Reference]] = {}
        self._reads: set[Read] | None = None
        self._signatures: dict[int, tuple[Any, ...]] = {}
        self._values: dict[Read, Any] = {}

    def __repr__(self) -> str:
        return f"Corpus({len(self._documents)} documents, {len(self._partial)} partial)"

    @property
    def documents(self) -> list[SourceDocument]:
        """Every trusted document, in path order."""
        if self._reads is not None:
            self._reads.add(ALL)
        return self._documents

    @property
    def partial(self) -> list[SourceDocument]:
        """Every partial document (failed its schema or did not parse), in path order."""
        if self._reads is not None:
            self._reads.add(ALL)
        return self._partial

    @property
    def schemas(self) -> Any:
        if self._reads is not None:
            self._reads.add(SCHEMAS)
        return self._schemas

    @property
    def checked(self) -> frozenset[str] | None:
        if self._reads is not None:
            self._reads.add(CHECKED)
        return self._checked

    @checked.setter
    def checked(self, value: frozenset[str] | None) -> None:
        self._checked = value

    def add(self, document: SourceDocument, facts: DocumentFacts | None = None) -> None:
        """Add a document; without facts (or with trusted ones) it is trusted."""
        if facts is not None:
            self._facts[id(document)] = facts
        if facts is not None and facts.standing is not Standing.TRUSTED:
            self._partial.append(document)
        else:
            self._documents.append(document)
        self._forget()

    def settle(self, previous: Corpus | None = None) -> None:
        """Read every document as meant: a reference to nothing names the id it most resembles.

        The document's facts keep the references as written, so DM202 still reports them.
        `previous` is an earlier corpus of the same files: where it defines the very same
        ids, a document it held all of whose references resolved still has them resolve,
        and is not looked at again (a session's corpus after an edit).
        """
        reuse = (previous is not None and previous._schemas is self._schemas
                 and previous.definitions() == self.definitions())
        clean = previous._clean if previous is not None and reuse else {}
        for documents in (self._documents, self._partial):
            for index, document in enumerate(documents):
                key = id(document)
                if clean.get(key) is document:
                    assert previous is not None
                    self._clean[key] = document
                    self._missing[key] = []
                    # What the previous corpus derived from the very same document and facts.
                    if key in previous._top_refs:
                        self._top_refs[key] = previous._top_refs[key]
                    if key in previous._signatures:
                        self._signatures[key] = previous._signatures[key]
                    continue
                missing = [ref for ref in self.facts(document).references
                           if not self.resolves(ref)]
                self._missing[key] = missing
                if not missing:
                    self._clean[key] = document
                    continue
                fixes = [(ref.path, meant) for ref, meant in self._meant(missing)]
                if fixes:
                    settled = document.read_as(with_values(document.data, fixes))
                    self._facts[id(settled)] = self.facts(document)
                    self._settled_from[id(settled)] = (document, tuple(fixes))
                    self._missing[id(settled)] = missing
                    documents[index] = settled
        defined, missing_of = self._defined, self._missing
        self._forget()
        # A document read as meant defines what it did as written, and its facts (so its
        # references) are the same.
        self._defined, self._missing = defined, missing_of

    def definitions(self) -> dict[str, set[str]]:
        """Every id defined, by kind (what `defined` answers from)."""
        self.defined("")
        assert self._defined is not None
        return self._defined

    def _meant(self, missing: list[Reference]) -> Iterator[tuple[Reference, str]]:
        for ref in missing:
            meant = closest_id(ref.value, self.candidates(ref.kinds), self.titles(ref.kinds))
            if meant is not None:
                yield ref, meant

    def unresolved(self, document: SourceDocument) -> list[Reference]:
        """A document's references that name no id defined for their kinds (settle found
        them: most documents have none, and their references need not be looked at again)."""
        if self._reads is not None:
            self._reads.add(DEFINED)
        found = self._missing.get(id(document))
        if found is None:  # not settled here (not kept: the document may not be held)
            found = [ref for ref in self.facts(document).references if not self.resolves(ref)]
        return found

    def resolves(self, ref: Reference) -> bool:
        """Whether a reference names an id defined for one of its kinds (asked of every
        reference: cheaper than gathering the candidates, which only a miss needs)."""
        return any(ref.value in self.defined(kind) for kind in ref.kinds)

    def candidates(self, kinds: Iterable[str]) -> set[str]:
        """Every id defined for any of `kinds`."""
        return set().union(*(self.defined(kind) for kind in kinds))

    def titles(self, kinds: Iterable[str]) -> dict[str, str]:
        """What the documents of `kinds` are called (title or name), by id."""
        found: dict[str, str] = {}
        for kind in kinds:
            for document in self.readable(kind):
                data = document.data
                name = data.get("title") or data.get("name")
                if isinstance(document.doc_id, str) and isinstance(name, str):
                    found.setdefault(document.doc_id, name)
        return found

    def _forget(self) -> None:
        self._by_kind = self._partial_by_kind = self._by_id = self._defined = None
        self._values.clear()
        self._missing = {}

    def _index(self) -> None:
        by_kind: dict[str, list[SourceDocument]] = defaultdict(list)
        partial_by_kind: dict[str, list[SourceDocument]] = defaultdict(list)
        by_id: dict[tuple[str, str], SourceDocument] = {}
        for document in self._documents:
            kind = document.kind
            by_kind[kind].append(document)
            doc_id = document.doc_id
            if isinstance(doc_id, str):
                by_id.setdefault((kind, doc_id), document)
        for document in self._partial:
            partial_by_kind[document.kind].append(document)
        self._by_kind, self._partial_by_kind, self._by_id = by_kind, partial_by_kind, by_id

    def of_kind(self, kind: str) -> list[SourceDocument]:
        """Trusted documents of a kind, in path order."""
        if self._reads is not None:
            self._reads.add(("of_kind", kind))
        if self._by_kind is None:
            self._index()
        assert self._by_kind is not None
        return self._by_kind.get(kind, [])

    def readable(self, kind: str) -> list[SourceDocument]:
        """Trusted and partial documents of a kind: for readers that check every shape."""
        if self._reads is not None:
            self._reads.add(("readable", kind))
        if self._partial_by_kind is None:
            self._index()
        assert self._partial_by_kind is not None
        return self.of_kind(kind) + self._partial_by_kind.get(kind, [])

    def get(self, kind: str, doc_id: str) -> SourceDocument | None:
        """The (first) trusted document of a kind with this id."""
        if self._reads is not None:
            self._reads.add(("of_kind", kind))
        if self._by_id is None:
            self._index()
        assert self._by_id is not None
        return self._by_id.get((kind, doc_id))

    def trusted(self, document: SourceDocument) -> bool:
        return self.facts(document).standing is Standing.TRUSTED

    def facts(self, document: SourceDocument) -> DocumentFacts:
        """A document's facts: given when it was added, else extracted now (trusted)."""
        found = self._facts.get(id(document))
        if found is None:
            found = facts_of(document, self.walker())
            if found is None:  # not a kind-tagged mapping; defines and refers to nothing
                found = DocumentFacts(kind="", id=None, standing=Standing.TRUSTED)
            self._facts[id(document)] = found
        return found

    def walker(self) -> ReferenceWalker | None:
        if self._reads is not None:
            self._reads.add(SCHEMAS)  # the walker is the schema set's
        if self._walker is None and self._schemas is not None:
            self._walker = walker_for(self._schemas)
        return self._walker

    def ids(self, kind: str) -> list[str]:
        """Ids of documents of a kind, partial ones included."""
        return [d.doc_id for d in self.readable(kind) if isinstance(d.doc_id, str)]

    def defined(self, kind: str) -> set[str]:
        """Every id of a kind that any document defines (nested ones and partial included)."""
        if self._reads is not None:
            self._reads.add(DEFINED)
        if self._defined is None:
            defined: dict[str, set[str]] = defaultdict(set)
            for document in self._documents + self._partial:
                for def_kind, def_id in self.facts(document).defines:
                    defined[def_kind].add(def_id)
            self._defined = defined
        return self._defined.get(kind, set())

    def nested_ids(self, kind: str) -> set[str]:
        """Ids of things defined inside other documents (e.g. condition types in one file)."""
        container = NESTED_ID_SOURCES.get(kind)
        if container is None:
            return set()
        container_kind, list_key = container
        found: set[str] = set()
        for document in self.readable(container_kind):
            items = document.data.get(list_key)
            for item in items if isinstance(items, list) else ():
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    found.add(item["id"])
        return found

    def top_fields(self, document: SourceDocument) -> dict[str, Any]:
        """A document's top-level scalar members (remembered with it: no need to unpack a
        large document again to filter on them). Lists and mappings stand as CONTAINER."""
        return top_fields_of(document)

    def reads_as(self, document: SourceDocument, key: str, wanted: Any) -> bool | None:
        """Whether a document's top-level `key` says `wanted`: None when it cannot be told.

        It cannot be told when the value names nothing that exists (and nothing close), or
        when a partial document lacks it or has a value of the wrong type there. Rules that
        count or match documents on such a key must not report what only that explains.
        """
        fields = self.top_fields(document)  # a storybook is not unpacked to be matched
        value = fields.get(key)
        if value == wanted:
            return True
        facts = self.facts(document)
        # Loops, not any() of generators: asked of every card and shard of every other
        # wanderer, once per storybook analysed (storygraph's ContextView).
        for ref in self._top_references(document, facts).get(key, ()):
            if ref.value == value:
                for kind in ref.kinds:
                    if value in self.defined(kind):
                        break
                else:
                    return None
        if facts.standing is not Standing.TRUSTED and (
                key not in fields or any(part[:1] == (key,) for part in facts.broken)):
            return None
        return False

    def _top_references(self, document: SourceDocument,
                        facts: DocumentFacts) -> dict[str | int, list[Reference]]:
        """A document's references written at its top level, by key (reads_as is asked
        for every document of a counted kind, once per manifest line)."""
        found = self._top_refs.get(id(document))
        if found is None:
            found = {}
            for ref in facts.references:
                if len(ref.path) == 1:
                    found.setdefault(ref.path[0], []).append(ref)
            self._top_refs[id(document)] = found
        return found

    def kinds(self) -> Iterator[str]:
        """The kinds of the trusted documents, in order of their first document."""
        if self._reads is not None:
            self._reads.add(KINDS)
        if self._by_kind is None:
            self._index()
        assert self._by_kind is not None
        return iter(self._by_kind)

    def data(self, kind: str, doc_id: str) -> Any:
        doc = self.get(kind, doc_id)
        return None if doc is None else doc.data
