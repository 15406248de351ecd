"""Go to definition and find references: entry numbers to entries, ids to their documents."""

from __future__ import annotations

from lsprotocol import types

from dmtool.lsp.context import RequestContext, as_location, value_at
from dmtool.lsp.cursor import Cursor
from dmtool.lsp.targets import (
    Book,
    Target,
    books_for,
    entry_references,
    entry_targets,
    id_references,
    id_targets,
    kind_of,
    room_references,
    room_targets,
)


def _number(word: str) -> int | None:
    return int(word) if word.isdigit() else None


def _subject(context: RequestContext, cursor: Cursor) -> tuple[str, object] | None:
    """What the cursor names: ("entry", number) or (kind, id), read from the buffer."""
    if cursor.role != "value" or not cursor.word:
        return None
    place = context.place(cursor.path)
    if place is None:
        return None
    number = _number(cursor.word)
    if number is not None and place.is_entry_number:
        return ("entry", number)
    if number is not None and place.is_room:
        return ("room", number)
    if place.refers_to:
        return (",".join(place.refers_to), cursor.word)
    return None


def definition(context: RequestContext, position: types.Position) -> list[types.Location]:
    cursor = context.cursor(position)
    subject = _subject(context, cursor)
    document = context.document
    if subject is None or document is None:
        return []
    kind, value = subject
    if kind == "entry":
        assert isinstance(value, int)
        targets = entry_targets(document, value, context.documents)
        return [as_location(Target(t.document, t.parts + ("entry",)), key=True) for t in targets]
    if kind == "room":
        assert isinstance(value, int)
        return [as_location(t) for t in room_targets(document, value)]
    assert isinstance(value, str)
    return [as_location(t) for t in id_targets(kind.split(","), value, context.documents)]


def references(context: RequestContext, position: types.Position,
               include_declaration: bool) -> list[types.Location]:
    """Everything that names the entry or document under the cursor (or this file's own id)."""
    cursor = context.cursor(position)
    document = context.document
    if document is None:
        return []
    documents = context.documents
    finder = context.tools.finder
    subject = subject_of(context, cursor)
    found: list[Target] = []
    declarations: list[Target] = []
    if subject is None:
        return []
    kind, value = subject
    if kind == "room":
        assert isinstance(value, int)
        found = room_references(document, value, finder)
        declarations = room_targets(document, value)
    elif kind == "entry":
        assert isinstance(value, int)
        for book in books_defining(context, cursor, value):
            found += entry_references(book, value, documents, finder)
            entry = book.entry(value)
            if entry is not None:
                declarations.append(Target(book.document, entry[0] + ("entry",)))
    else:
        assert isinstance(value, str)
        for one in kind.split(","):
            found += id_references(one, value, documents, finder)
        declarations = id_targets(kind.split(","), value, documents)
    located = sorted((as_location(t) for t in found),
                     key=lambda f: (f.uri, f.range.start.line, f.range.start.character))
    if include_declaration:
        return [as_location(t) for t in declarations] + located
    return located


def subject_of(context: RequestContext, cursor: Cursor) -> tuple[str, object] | None:
    """What references and rename are about: what the cursor names, or the entry or
    document whose own number or id it is on."""
    return _subject(context, cursor) or _own_subject(context, cursor)


def _own_subject(context: RequestContext, cursor: Cursor) -> tuple[str, object] | None:
    """On an entry's own `entry:` line or a document's own `id:`: that entry or document."""
    document = context.document
    assert document is not None
    parts = cursor.path
    if parts and parts[-1] == "entry" and _number(cursor.word or "") is None:
        value = value_at(document.data, parts)
        word = str(value) if isinstance(value, int) else ""
    else:
        word = cursor.word
    if parts == ("id",) and isinstance(document.data.get("id"), str):
        return (kind_of(document), document.data["id"])
    number = _number(word)
    if number is not None and any(b.is_definition(parts) for b in books_for(document, [document])):
        return ("entry", number)
    return None


def books_defining(context: RequestContext, cursor: Cursor, number: int) -> list[Book]:
    """The books whose entry `number` the cursor means (its own, for a definition line)."""
    document = context.document
    assert document is not None
    own = [b for b in books_for(document, [document]) if b.is_definition(cursor.path)]
    if own:
        return own
    return [b for b in books_for(document, context.documents) if b.entry(number) is not None]
