"""The story graph analyses (DM3xx) as a `dmtool check` rule, one storybook at a time
(registered with the validation rules by dmtool.commands.rules).

The analyses read the storybook's context (trackers, shards, cards, codas) tolerantly,
partial documents included, so a typo in a card does not make its entry unreachable. A
source whose entry cannot be read at all leaves the roots incomplete: then what depends
on reachability is not judged, rather than judged wrongly.

A storybook's findings depend on the book and on whatever its context reads from the
rest of the corpus (round trackers, the wanderer's cards and dashboard, every card that
changes sentience...). The context is built over a recording view of the corpus, so the
documents it actually read are known; the findings are memoised with the book together
with those documents' content keys, and reused while none of them changed and no
document was added or removed. An unchanged book in an unchanged context is not
analysed again, in a later run (through the check cache) or in a long-lived session.
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from itertools import repeat
from typing import TYPE_CHECKING, Any

from dmtool.diagnostics import Diagnostic
from dmtool.loading import SourceDocument
from dmtool.loading.collector import collector_paused
from dmtool.validation import parallel
from dmtool.validation.cache import are_packed, moved, pack, unpack
from dmtool.validation.corpus import Corpus
from dmtool.validation.filekeys import blake2b
from dmtool.validation.rules.recording import RecordingCorpus

if TYPE_CHECKING:
    from dmtool.storygraph.analysis import Analysis

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
MEMO = "storygraph:3:"
# The keys of an entry the analyses never read: its prose (Entry.text and Entry.title are
# read only to draw and describe the graph, never to judge it). An edit that changes
# nothing else keeps the findings of the book as it was, moved to the lines they are on
# now (tests/test_live_edits.py proves that rewriting them changes no finding).
UNREAD_ENTRY_KEYS = frozenset({"text", "title"})
# Where the analyses made inside keeping_analyses() go (the innermost), by storybook, with
# the corpus each was made in: `dmtool graph` prints the summaries of the very analyses its
# check reported (not made twice). Kept only there and only as long as its caller holds
# them: an analysis holds its whole storybook and graph, so a plain check, which never asks
# again, would hold every book's at once (peak memory), and a process that kept them for
# good would keep every corpus it ever graphed.
_KEEPERS: list[dict[SourceDocument, tuple[Corpus, Analysis]]] = []


@contextmanager
def keeping_analyses() -> Iterator[dict[SourceDocument, tuple[Corpus, Analysis]]]:
    """Keep the analyses the rule makes meanwhile in the dict given, for analysis_of."""
    kept: dict[SourceDocument, tuple[Corpus, Analysis]] = {}
    _KEEPERS.append(kept)
    try:
        yield kept
    finally:
        _KEEPERS.pop()


_OWNER = "wanderer-field:1"


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    storybooks = corpus.of_kind("storybook")
    if not storybooks:
        return  # nothing to analyse: keep `dmtool check` of other content free of graph imports
    by_wanderer: dict[str, int] = Counter()
    card_findings: dict[str, Counter[tuple[str, str, int, int]]] = defaultdict(Counter)
    first_seen: dict[tuple[str, str, int, int], Diagnostic] = {}
    memo = _Memo(corpus)
    for document in storybooks:
        wanderer = _owner(document)
        if wanderer is None:
            continue  # the schema requires it; a document without one is not analysed
        if not _reported(corpus, document, wanderer):
            continue  # none of its findings could be located in a file the user asked about
        by_wanderer[wanderer] += 1
        found = _findings_uncollected(memo, document, wanderer)
        for diagnostic in found:
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


def prepare(corpus: Corpus) -> list[tuple[int, Callable[[], object]]]:
    """The analyses `check` will make, one task per storybook, weighed by its file's size:
    run ahead (on other cores), they leave their findings in the books' memos. None while
    analyses are kept (`dmtool graph` prints them: they cannot be sent between processes)."""
    if _KEEPERS or not corpus.of_kind("storybook"):
        return []
    memo = _Memo(corpus)
    tasks: list[tuple[int, Callable[[], object]]] = []
    for document in corpus.of_kind("storybook"):
        wanderer = _owner(document)
        if wanderer is None or document.content_key is None:
            continue  # not analysed, or analysed without a memo to hand back
        if _reported(corpus, document, wanderer) and not memo.known(document, wanderer):
            tasks.append((_file_size(document),
                          functools.partial(_findings_uncollected, memo, document, wanderer)))
    return tasks


def _import_analyses() -> None:
    """The modules the analyses run: imported in the checking process while its workers
    read the files (parallel.while_checking), so the children that analyse the storybooks
    find them imported rather than each importing them again (about 100 M instructions,
    most of it building their dataclasses)."""
    import dmtool.storygraph.analysis  # noqa: F401


parallel.while_checking(_import_analyses)


def _findings_uncollected(memo: _Memo, document: SourceDocument,
                          wanderer: str) -> list[Diagnostic]:
    """memo.findings with the collector off until the book's data and analysis are freed
    again: a collection while they are alive (when the analysis ends, or while the data
    is unpacked) would scan all of them, and the corpus around them, for no cycle."""
    with collector_paused():
        return memo.findings(document, wanderer)


def _file_size(document: SourceDocument) -> int:
    try:
        return os.path.getsize(document.path)
    except OSError:
        return 0


class _Memo:
    """Findings per storybook, remembered with what their context read, two ways.

    First by the contents of every document the context read (cheap to check: nothing is
    built). When one of them changed, the context is built again and its values compared:
    an edit that leaves every value the analysis uses unchanged (a coda's title, a
    comment) is answered from a second memo keyed by those values and by the contents of
    the documents whose positions the findings name.
    """

    def __init__(self, corpus: Corpus) -> None:
        self._corpus = corpus
        everything = corpus.documents + corpus.partial
        self._keys = {d.display: d.content_key for d in everything}
        members = sorted([(d.display, str(d.kind), d in corpus.partial) for d in everything])
        self._membership = blake2b(repr(members).encode(), digest_size=16).hexdigest()
        self._untold: dict[int, bool] = {}  # shared by the wanderers' views (ContextView)

    def known(self, book: SourceDocument, wanderer: str) -> bool:
        """Whether the book's findings are remembered for its documents as they are now."""
        stored = book.memos.get(f"{MEMO}{wanderer}:{self._membership}")
        return stored is not None and self._current(stored)

    def findings(self, book: SourceDocument, wanderer: str) -> list[Diagnostic]:
        if book.content_key is None:
            found = _analyse(self._corpus, book, wanderer, self._untold)[0]
            book.let_go_of_data()
            return found
        by_documents = f"{MEMO}{wanderer}:{self._membership}"
        stored = book.memos.get(by_documents)
        if stored is not None and self._current(stored):
            book.memos_used.add(by_documents)
            # The memo by the context's values answers the next edit that changes none of
            # them (a coda's title): kept with this one, not dropped as unused by this run.
            by_values_of_wanderer = f"{MEMO}values:{wanderer}:"
            book.memos_used.update(key for key in book.memos
                                   if key.startswith(by_values_of_wanderer))
            return [unpack(p) for p in stored[1]]
        carried = self._carried_over(book, by_documents)
        if carried is not None:
            book.memos[by_documents] = carried
            book.memos_used.add(by_documents)
            book.memos_changed = True
            return [unpack(p) for p in carried[1]]
        built = _Context(self._corpus, wanderer, self._untold)
        by_values = f"{MEMO}values:{wanderer}:{built.fingerprint()}"

        def compute(doc: SourceDocument) -> tuple[Any, ...]:
            found, located = built.analyse(doc)
            return self._known(located), tuple(pack(d) for d in found)

        _, packed = book.memo(by_values, compute, self._current)
        book.memos[by_documents] = (self._known(built.recording.read - {book.display}), packed)
        book.memos_used.add(by_documents)
        book.memos_changed = True
        book.let_go_of_data()  # a large book's data, built again for its analysis: not kept
        return [unpack(p) for p in packed]

    def _carried_over(self, book: SourceDocument, key: str) -> tuple[Any, ...] | None:
        """The book's findings before an edit that changed only what the analyses never
        read (UNREAD_ENTRY_KEYS), remembered under `key` for the same documents around it
        as now, and moved to the lines they are on now; None when there are none such, or
        one of them was written within the lines the edit parsed again."""
        edit = book.edit
        if edit is None or edit.changed_keys is None or not edit.changed_keys <= UNREAD_ENTRY_KEYS:
            return None
        stored = book.memos_before_edit.get(key)
        if stored is None or not self._current(stored):
            return None
        found = [moved(packed, book.display, edit.moved) for packed in stored[1]]
        if any(packed is None for packed in found):
            return None
        return stored[0], tuple(found)

    def _known(self, names: set[str]) -> tuple[tuple[str, str | None], ...]:
        return tuple((name, self._keys.get(name)) for name in sorted(names))

    def _current(self, value: Any) -> bool:
        """A stored value whose recorded documents all still have the same contents (one
        of unknown content is never current: such a value is computed again)."""
        return (type(value) is tuple and len(value) == 2 and type(value[0]) is tuple
                and are_packed(value[1])
                and all(type(item) is tuple and len(item) == 2 and type(item[0]) is str
                        and type(item[1]) is str and self._keys.get(item[0]) == item[1]
                        for item in value[0]))


class _Context:
    """One wanderer's storybook context, built over a recording view of the corpus."""

    def __init__(self, corpus: Corpus, wanderer: str,
                 untold: dict[int, bool] | None = None) -> None:
        from dmtool.storygraph.context import context_for

        self.corpus = corpus
        self.view = ContextView(corpus, wanderer, untold)
        self.recording = RecordingCorpus(self.view)
        self.context = context_for(self.recording, wanderer)

    def fingerprint(self) -> str:
        """A key of every value of the context (a place in another file by its path)."""
        plain = (_plain_values(self.context), self.view.incomplete)
        return blake2b(repr(plain).encode(), digest_size=16).hexdigest()

    def analyse(self, document: SourceDocument) -> tuple[list[Diagnostic], set[str]]:
        """The book's findings, and the documents whose positions they name."""
        from dmtool.model.storybook import ENDINGS, Storybook
        from dmtool.storygraph.analysis import analyse

        storybook = Storybook.from_document(document)
        analysis = analyse(storybook, self.context)
        if _KEEPERS:
            _KEEPERS[-1][document] = (self.corpus, analysis)
        found = analysis.diagnostics
        # An ending left out (DM258 names it) leaves its finale's entries without a root.
        if self.view.incomplete or set(storybook.endings) != set(ENDINGS):
            found = [d for d in found if d.code not in REACHABILITY_CODES]
        return found, self.recording.located - {document.display}


# The classes whose values stand for themselves in _plain_values.
_SCALARS = frozenset({str, int, bool, float, type(None)})
# The field names of each dataclass met in a context (dataclasses.fields is slow).
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _plain_values(value: Any) -> Any:
    """The context as plain values: a place in a document stands as (path, parts)."""
    cls = value.__class__
    # The plain data of the context first, by exact type (most of it: effects and their
    # bodies); the generic tests below are much slower and give the same values for these.
    # Lists are built, then made tuples (a generator per container costs more), and a
    # scalar item is taken as it is without a call (most items are).
    if cls is dict:
        return tuple([(key, item if item.__class__ in _SCALARS else _plain_values(item))
                      for key, item in value.items()])
    if cls is list or cls is tuple:
        return tuple([item if item.__class__ in _SCALARS else _plain_values(item)
                      for item in value])
    if cls in _SCALARS:
        return value
    from dmtool.storygraph.context import Place

    if isinstance(value, Place):
        return ("place", value.document.display, value.parts)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        # A Source, a Location: its fields in order.
        names = _FIELD_NAMES.get(cls)
        if names is None:
            names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(value))
        return (cls.__name__, tuple([item if item.__class__ in _SCALARS else _plain_values(item)
                                     for item in map(getattr, repeat(value), names)]))
    if isinstance(value, Mapping):
        return tuple([(key, _plain_values(item)) for key, item in value.items()])
    if isinstance(value, list | tuple):
        return tuple([_plain_values(item) for item in value])
    return value


def analysis_of(corpus: Corpus, document: SourceDocument,
                kept: Mapping[SourceDocument, tuple[Corpus, Analysis]]) -> Analysis | None:
    """The storybook's analysis in this corpus, as the rule makes it: the one kept while
    checking the corpus (keeping_analyses), else made now (None: the book names no
    wanderer)."""
    made = kept.get(document)
    if made is None or made[0] is not corpus:
        wanderer = _owner(document)
        if wanderer is None:
            return None
        with keeping_analyses() as now:
            _Context(corpus, wanderer).analyse(document)
        made = now[document]
    return made[1]


def _analyse(corpus: Corpus, document: SourceDocument, wanderer: str,
             untold: dict[int, bool] | None = None) -> tuple[list[Diagnostic], set[str]]:
    """The book's findings, and the display names of the other documents they depend on."""
    built = _Context(corpus, wanderer, untold)
    found, _ = built.analyse(document)
    return found, built.recording.read - {document.display}


def remember(document: SourceDocument) -> None:
    """A storybook's wanderer, memoised (see rules/__init__.py)."""
    if document.kind == "storybook":
        _owner(document)


def _owner(document: SourceDocument) -> str | None:
    """The document's `wanderer:` field, remembered with it (no need to unpack it again)."""
    def read(doc: SourceDocument) -> str | None:
        data = doc.data
        value = data.get("wanderer") if isinstance(data, dict) else None
        return value if isinstance(value, str) else None

    return document.memo(_OWNER, read, lambda v: v is None or type(v) is str)


# Kinds whose files a storybook's findings can be located in (besides the storybook): its
# roots (DM301, DM310) and its cards and codas (DM308, DM309, DM315). They are also the
# kinds the context takes from the book's own wanderer alone (context.py: _mine).
_FINDINGS_IN = ("world-shard", "encounter-card", "finale-encounter-card", "coda")
# The kinds whose documents ContextView reads as one wanderer's: the wanderer's own, and the
# round trackers, whose entries must all be read for the roots to be known.
_READ_AS_MINE = frozenset({*_FINDINGS_IN, "round-trackers"})


def _reported(corpus: Corpus, document: SourceDocument, wanderer: str) -> bool:
    """Whether any finding of this storybook's analysis could be reported in this run."""
    checked = corpus.checked
    if checked is None or document.display in checked:
        return True
    if any(d.display in checked for d in corpus.readable("round-trackers")):
        return True
    # A document whose wanderer cannot be read may be this wanderer's (as ContextView reads it).
    return any(
        d.display in checked and _owner(d) in (wanderer, None)
        for kind in _FINDINGS_IN
        for d in corpus.readable(kind)
    )


class ContextView:
    """The corpus as one wanderer's storybook context reads it.

    Partial documents are included; a shard, card or coda whose `wanderer` cannot be read
    (missing, mistyped, or naming no wanderer) is taken as this wanderer's, since it may
    well be. `incomplete` is set when such a document's entry number cannot be read.
    """

    def __init__(self, corpus: Corpus, wanderer: str,
                 untold: dict[int, bool] | None = None) -> None:
        self._corpus = corpus
        self._wanderer = wanderer
        self.incomplete = False
        # id(document) -> whether its wanderer cannot be told (Corpus.reads_as is None); the
        # same for every wanderer it does not name, so the views of one corpus share it.
        self._untold = {} if untold is None else untold
        # The context asks for some kinds many times (every card kind, once per analysis);
        # the corpus does not change while a view lives, so each kind is read once.
        self._kinds: dict[str, list[SourceDocument]] = {}

    def of_kind(self, kind: str) -> list[SourceDocument]:
        found = self._kinds.get(kind)
        if found is None:
            readable = self._corpus.readable(kind)
            # The context reads every document of another kind (sentience changes, the
            # wanderers' dashboards) whoever it names: such a document is read as it is,
            # without telling whose it is (most of the documents asked for, every book).
            found = self._kinds[kind] = (
                [self._as_mine(document, kind) for document in readable]
                if kind in _READ_AS_MINE else list(readable))
        return found

    @property
    def documents(self) -> list[SourceDocument]:
        """Every readable document (the context scans them all for sentience changes)."""
        return self._corpus.documents + self._corpus.partial

    def _as_mine(self, document: SourceDocument, kind: str) -> SourceDocument:
        """The document, read as this wanderer's when its wanderer cannot be read."""
        # Whose it is, from the document's top-level fields (a memo): a card of another
        # wanderer is not unpacked to be told apart.
        mine = (kind == "round-trackers"
                or self._corpus.top_fields(document).get("wanderer") == self._wanderer)
        read = document
        if not mine and self._cannot_tell(document):
            read, mine = document.read_as({**document.data, "wanderer": self._wanderer}), True
        if mine and not self._corpus.trusted(document) and not _roots_known(read.data, kind):
            self.incomplete = True
        return read


    def _cannot_tell(self, document: SourceDocument) -> bool:
        """Whether the wanderer of a document that does not name this one cannot be told."""
        found = self._untold.get(id(document))
        if found is None:
            found = self._untold[id(document)] = (
                self._corpus.reads_as(document, "wanderer", self._wanderer) is None)
        return found


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
