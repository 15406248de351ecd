"""What rules read of a corpus, recorded while they run (the Corpus's side of rules/reads.py).

While a rule runs, the corpus notes every read (a Read: the whole corpus, one kind's
trusted or readable documents, the kinds present, every id defined, the files asked
about, the schema set); `value_of` then says what such a read sees, as plain values: each
document as its signature (path, content key, standing, what settle read differently in
it). Equal values in two corpora of one session mean the read sees the same.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from dmtool.loading import SourceDocument

# What a rule can read of a corpus, as recorded while it runs (see Corpus.recording): the
# whole corpus, one kind's trusted or readable documents, the kinds present, every id
# defined, the files asked about, the schema set.
Read = tuple[str, ...]
ALL: Read = ("all",)
KINDS: Read = ("kinds",)
DEFINED: Read = ("defined",)
CHECKED: Read = ("checked",)
SCHEMAS: Read = ("schemas",)


_UNSEEN = object()


class Same:
    """Equal only to a Same of the very same object (a document without a content key)."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Same) and other.value is self.value

    def __hash__(self) -> int:
        return id(self.value)


class RecordsReads:
    """Recording and the values of reads, for Corpus (whose state and readers they use:
    of_kind, readable, kinds, definitions, facts)."""

    _documents: list[SourceDocument]
    _partial: list[SourceDocument]
    _checked: frozenset[str] | None
    _schemas: Any
    _reads: set[Read] | None
    _values: dict[Read, Any]
    _signatures: dict[int, tuple[Any, ...]]
    _settled_from: dict[int, tuple[SourceDocument, tuple[Any, ...]]]

    @contextmanager
    def recording(self) -> Iterator[set[Read]]:
        """Note every read of the corpus meanwhile, in the set given (see Read)."""
        if self._reads is not None:
            raise RuntimeError("the corpus is already recording its reads")
        reads: set[Read] = set()
        self._reads = reads
        try:
            yield reads
        finally:
            self._reads = None

    def value_of(self, read: Read) -> Any:
        """What a read sees in this corpus: equal values in two corpora of one session
        mean the read sees the same (each document as a signature, see _signature)."""
        if read == CHECKED:
            return self._checked  # set and unset around each run of the rules
        found = self._values.get(read, _UNSEEN)
        if found is _UNSEEN:
            found = self._values[read] = self._value(read)
        return found

    def _value(self, read: Read) -> Any:
        if read == ALL:
            return (tuple(map(self._signature, self._documents)), None,
                    tuple(map(self._signature, self._partial)))
        if read == DEFINED:
            return self.definitions()
        if read == KINDS:
            return tuple(self.kinds())
        if read == SCHEMAS:
            return Same(self._schemas)
        what, kind = read
        if what == "of_kind":
            return tuple(map(self._signature, self.of_kind(kind)))
        if what == "readable":
            return tuple(map(self._signature, self.readable(kind)))
        raise ValueError(f"no such read of a corpus: {read!r}")

    def _signature(self, document: SourceDocument) -> tuple[Any, ...]:
        """What a document holds: its path, its content (its content key, or the very
        object when it has none), its standing and what settle read differently in it."""
        found = self._signatures.get(id(document))
        if found is None:
            original, fixes = self._settled_from.get(id(document), (document, ()))
            content = original.content_key
            found = (document.display, Same(original) if content is None else content,
                     self.facts(document).standing, fixes)
            self._signatures[id(document)] = found
        return found
