"""What one file contributes to the corpus, whatever state it is in (`extract_facts`).

A file that fails its schema, or even fails to parse, still defines things other files
name: a card's id, a storybook's entries and endings. Those facts enter the corpus so the
other files are judged against what the author wrote, not against a hole left by one
typo; the typo itself is the one diagnostic. Facts are plain values (tuples, strings and
numbers) so a cache can keep them per file (`pack_facts` / `unpack_facts`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from dmtool.loading import SourceDocument
from dmtool.loading.splice import EDITED_LIST, EntriesEdit
from dmtool.validation.references import Reference, ReferenceWalker
from dmtool.validation.schemas import SchemaSet

Parts = tuple[str | int, ...]

# Referable things that live as items of a list inside another kind's document:
# containing kind -> (list key, the kind each item defines); each item carries an `id`.
NESTED_DEFINITIONS: dict[str, tuple[str, str]] = {
    "condition-types": ("types", "condition-type"),
}


class Standing(str, Enum):
    """How far a document got, which says how much of it rules may rely on."""

    TRUSTED = "trusted"  # loaded and passed its kind's schema: its shape can be relied on
    INVALID = "invalid"  # loaded but failed its schema: read tolerantly, never trusted
    RECOVERED = "recovered"  # did not parse; data read from the text around the error

    @property
    def loaded(self) -> bool:
        return self is not Standing.RECOVERED


@dataclass(frozen=True, slots=True)
class DocumentFacts:
    """A file's contribution to the corpus: what it is, defines, holds and refers to."""

    kind: str
    id: str | None
    standing: Standing
    # (kind, id) of everything the file defines: itself and its nested definitions.
    defines: tuple[tuple[str, str], ...] = ()
    # Storybook entry numbers and ending letters (empty for other kinds).
    entries: tuple[int, ...] = ()
    endings: tuple[str, ...] = ()
    # References that can be judged: none under a part the schema already rejected.
    references: tuple[Reference, ...] = ()
    # Paths the schema rejected (a misspelt key, a value of the wrong type...).
    broken: tuple[Parts, ...] = ()


def extract_facts(
    data: Any, *, standing: Standing, walker: ReferenceWalker | None = None,
    broken: Iterable[Parts] = (), as_written: Any = None,
) -> DocumentFacts | None:
    """The facts of one document's data; None when not even its kind can be read.

    `broken` lists the paths the schema rejected: a reference at or under one of them is
    part of that mistake (already reported), so it is not judged a second time. When
    `data` is the document as meant (misplaced keys moved back), `as_written` is the data
    as written: references are found there, so their paths match the file. A recovered
    document makes no references: its positions cannot be trusted.
    """
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        return None
    kind = data["kind"]
    doc_id = data["id"] if isinstance(data.get("id"), str) else None
    defines = [(kind, doc_id)] if doc_id is not None else []
    nested = NESTED_DEFINITIONS.get(kind)
    if nested is not None:
        list_key, item_kind = nested
        items = data.get(list_key)
        defines += [(item_kind, item["id"]) for item in (items if isinstance(items, list) else ())
                    if isinstance(item, dict) and isinstance(item.get("id"), str)]
    references: tuple[Reference, ...] = ()
    cut = tuple(broken)
    if walker is not None and standing.loaded and walker.knows(kind):
        written = data if as_written is None else as_written
        references = tuple(ref for ref in walker.references(kind, written)
                           if not any(ref.path[:len(part)] == part for part in cut))
    return DocumentFacts(
        kind=kind, id=doc_id, standing=standing, defines=tuple(defines),
        entries=tuple(_items(data, "entries", "entry", int)),
        endings=tuple(_items(data, "endings", "ending", str)),
        references=references, broken=cut,
    )


def _items(data: dict[str, Any], list_key: str, item_key: str, wanted: type) -> Iterable[Any]:
    """`data[list_key][*][item_key]` where it is there and of the wanted type."""
    if data.get("kind") != "storybook":
        return ()
    items = data.get(list_key)
    return (item[item_key] for item in (items if isinstance(items, list) else ())
            if isinstance(item, dict) and type(item.get(item_key)) is wanted)


def parts_at(data: Any, pointer: str) -> Parts:
    """The path of keys and indexes a JSON pointer names in `data` (as far as it exists)."""
    parts: list[str | int] = []
    node = data
    for raw in pointer.split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, list) and token.isdigit():
            parts.append(int(token))
            node = node[int(token)] if int(token) < len(node) else None
        else:
            parts.append(token)
            node = node.get(token) if isinstance(node, dict) else None
    return tuple(parts)


# The memo under which a document keeps its facts (stored with the file in the check cache).
FACTS_MEMO = "validation.facts/1"


def walker_for(schemas: SchemaSet) -> ReferenceWalker:
    """The schema set's reference walker (built once: it memoises what can hold references)."""
    walker = schemas.derived.get("reference-walker")
    if walker is None:
        walker = schemas.derived["reference-walker"] = ReferenceWalker(schemas)
    return walker  # type: ignore[no-any-return]


def facts_after_edit(document: SourceDocument, walker: ReferenceWalker) -> DocumentFacts | None:
    """The facts of a document that passed its schema and was spliced from the one its
    file gave before (loading/splice.py), when that one passed its schema too: the rest
    extracted again, and the references found before, except those of the entries the
    edit parsed again, which are walked for (none, when it changed only members under
    which the walk finds no reference: their prose); the entries after them keep theirs,
    at their new index. None when the references must be walked for again."""
    edit = document.edit
    if edit is None:
        return None
    packed = document.memos_before_edit.get(FACTS_MEMO)
    if packed is None or not is_packed_facts(packed):
        return None
    before = unpack_facts(packed)
    if before.standing is not Standing.TRUSTED:
        return None
    now = extract_facts(document.data, standing=Standing.TRUSTED)  # no walker: no references
    if now is None or now.kind != before.kind:
        return None
    references: tuple[Reference, ...] | None = before.references
    if (edit.changed_keys is None
            or walker.members_may_refer(before.kind, EDITED_LIST, edit.changed_keys)):
        references = _references_after(document, walker, before, edit)
    if references is None:
        return None
    return DocumentFacts(now.kind, now.id, now.standing, now.defines, now.entries, now.endings,
                         references)


def _references_after(document: SourceDocument, walker: ReferenceWalker, before: DocumentFacts,
                      edit: EntriesEdit) -> tuple[Reference, ...] | None:
    """The references of an edited document, in the whole walk's order: those found before
    outside the entries and in the entries the edit kept (those after the edited ones
    moved by the entries it added or removed), and the edited entries' own, walked for."""
    data = document.data
    items = data.get(EDITED_LIST) if isinstance(data, dict) else None
    if not isinstance(items, list):
        return None
    edited = walker.references_in_items(before.kind, EDITED_LIST,
                                        items[edit.first_entry:edit.first_entry + edit.added],
                                        edit.first_entry)
    if edited is None:
        return None
    # The whole walk takes the document's top-level members in their order (a splice
    # keeps it), and each one's references together.
    order = {key: at for at, key in enumerate(data)}
    entries_at = order[EDITED_LIST]
    kept_end, moved = edit.first_entry + edit.replaced, edit.added - edit.replaced
    above: list[Reference] = []
    head: list[Reference] = []
    tail: list[Reference] = []
    below: list[Reference] = []
    for reference in before.references:
        top = reference.path[0]
        if top != EDITED_LIST:
            at = order.get(top)
            if at is None:
                return None
            (above if at < entries_at else below).append(reference)
            continue
        index = reference.path[1]
        if not isinstance(index, int):
            return None
        if index < edit.first_entry:
            head.append(reference)
        elif index >= kept_end:
            tail.append(reference if not moved else Reference(
                (EDITED_LIST, index + moved, *reference.path[2:]), reference.kinds, reference.value))
    return (*above, *head, *edited, *tail, *below)


def remember_facts(document: SourceDocument, facts: DocumentFacts) -> None:
    """Keep a document's facts with it, as found when its file was checked."""
    document.memos[FACTS_MEMO] = pack_facts(facts)
    document.memos_changed = True


def facts_of(document: SourceDocument, walker: ReferenceWalker | None) -> DocumentFacts | None:
    """The facts remembered with a document; a document without them is taken as trusted."""
    packed = document.memo(
        FACTS_MEMO, lambda d: _packed_or_none(extract_facts(d.data, standing=Standing.TRUSTED,
                                                            walker=walker)),
        check=lambda value: value is None or is_packed_facts(value))
    return None if packed is None else unpack_facts(packed)


def _packed_or_none(facts: DocumentFacts | None) -> tuple[Any, ...] | None:
    return None if facts is None else pack_facts(facts)


_STANDINGS = frozenset(standing.value for standing in Standing)


def is_packed_facts(value: Any) -> bool:
    """Shape check of packed facts read back from the cache, down to every leaf: a file
    whose checksum holds may still come from another version or a bug (a cache miss)."""
    return (type(value) is tuple and len(value) == 8 and type(value[0]) is str
            and (value[1] is None or type(value[1]) is str)
            and type(value[2]) is str and value[2] in _STANDINGS
            and all(type(part) is tuple for part in value[3:8])
            and all(type(d) is tuple and len(d) == 2 and type(d[0]) is str
                    and type(d[1]) is str for d in value[3])
            and all(type(n) is int for n in value[4])
            and all(type(letter) is str for letter in value[5])
            and all(type(r) is tuple and len(r) == 3 and _is_parts(r[0])
                    and type(r[1]) is tuple and all(type(k) is str for k in r[1])
                    and type(r[2]) is str for r in value[6])
            and all(_is_parts(b) for b in value[7]))


def _is_parts(value: Any) -> bool:
    return type(value) is tuple and all(type(p) is str or type(p) is int for p in value)


def pack_facts(facts: DocumentFacts) -> tuple[Any, ...]:
    """Facts as nested tuples of plain values (for marshal)."""
    return (facts.kind, facts.id, facts.standing.value, facts.defines, facts.entries,
            facts.endings, tuple((r.path, r.kinds, r.value) for r in facts.references),
            facts.broken)


def unpack_facts(packed: tuple[Any, ...]) -> DocumentFacts:
    kind, doc_id, standing, defines, entries, endings, references, broken = packed
    return DocumentFacts(
        kind, doc_id, Standing(standing), tuple(tuple(d) for d in defines), tuple(entries),
        tuple(endings), tuple(Reference(tuple(p), tuple(k), v) for p, k, v in references),
        tuple(tuple(b) for b in broken))
