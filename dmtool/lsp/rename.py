"""Rename: renumber an entry, or give a document a new id, everywhere it is named.

An entry's number is written on its own `entry:` line and wherever something sends the
reader there (gotos, `visited` conditions, an ending's start and conclusions, the entry of
a shard or card, a fixture's expectations): the places `find references` lists, from the
same walk (targets.py). A number written where it means the entry of several storybooks
(a round tracker) is not changed for one of them: that renumbering is refused. An id is written on its document's `id:` line and wherever the
schemas say a value names a document of that kind. The edit is refused, with the reason,
when the new number or id is malformed or already taken, or when a file to edit has
changed since the last analysis (its places would be stale).

Prose is left alone: "read entry 300" in a text is the author's to reword.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types

from dmtool.loading import SourceDocument
from dmtool.lsp.context import RequestContext, as_location
from dmtool.lsp.convert import char_column, line_of, uri_of
from dmtool.lsp.cursor import Cursor
from dmtool.lsp.navigation import books_defining, subject_of
from dmtool.lsp.targets import Book, Target, books_for, entry_references, id_references, id_targets


class RenameRefused(Exception):
    """A rename that cannot be made; the message tells the author why."""


@dataclass(frozen=True)
class Renaming:
    """What a rename at the cursor would change: an entry number or an id of some kinds."""

    kind: str  # "entry", or the kinds of document the id names, comma-separated
    value: int | str
    cursor: Cursor

    @property
    def kinds(self) -> list[str]:
        return self.kind.split(",")


def renaming_at(context: RequestContext, position: types.Position) -> Renaming | None:
    """The entry number or id under the cursor, if it is one a rename can change."""
    cursor = context.cursor(position)
    if context.document is None or not cursor.word:
        return None
    subject = subject_of(context, cursor)
    if subject is None or subject[0] == "room":  # a room tile's number is printed on it
        return None
    kind, value = subject
    if not isinstance(value, int | str):
        return None
    return Renaming(kind, value, cursor)


def prepare_rename(context: RequestContext, position: types.Position) -> types.PrepareRenamePlaceholder | None:
    renaming = renaming_at(context, position)
    if renaming is None:
        return None
    cursor = renaming.cursor
    if _unquoted(cursor.word) == str(renaming.value):
        word = context.word_range(cursor)
    else:  # on the `entry:` or `id:` key: the value beside it
        document = context.document
        assert document is not None
        word = as_location(Target(document, cursor.path)).range
    return types.PrepareRenamePlaceholder(range=_inside_quotes(context.text, word),
                                          placeholder=str(renaming.value))


def rename(context: RequestContext, position: types.Position, new_name: str,
           current_text: Callable[[Path], str | None]) -> types.WorkspaceEdit | None:
    """The edits that rename what is under the cursor to `new_name` in every file.
    `current_text(path)` is the text the editor shows for a file now."""
    renaming = renaming_at(context, position)
    if renaming is None:
        return None
    new_name = new_name.strip()
    if renaming.kind == "entry":
        assert isinstance(renaming.value, int)
        targets = _renumbering(context, renaming, new_name)
        new_text = str(int(new_name))
    else:
        assert isinstance(renaming.value, str)
        targets = _renaming(context, renaming, new_name)
        new_text = new_name
    return _edit(targets, new_text, current_text)


def _renumbering(context: RequestContext, renaming: Renaming, new_name: str) -> list[Target]:
    number = renaming.value
    assert isinstance(number, int)
    low, high = _bounds(context)
    if not (new_name.isascii() and new_name.isdigit()) or not low <= int(new_name) <= high:
        raise RenameRefused(f"{new_name!r} is not an entry number: a whole number from {low} to {high}")
    new = int(new_name)
    books = books_defining(context, renaming.cursor, number)
    if not books:
        raise RenameRefused(f"entry {number} is not defined, so there is nothing to renumber")
    targets: list[Target] = []
    for book in books:
        if new != number and book.entry(new) is not None:
            raise RenameRefused(f"entry {new} already exists in {_name(book.document)}; "
                                "renumber that one first or choose a free number")
        own = book.entry(number)
        assert own is not None
        targets.append(Target(book.document, own[0] + ("entry",)))
        for target in entry_references(book, number, context.documents, context.tools.finder):
            shared = _shared_with(target.document, book, number, context.documents)
            if shared is not None:
                raise RenameRefused(
                    f"entry {number} is also named by {target.document.display}, which means "
                    f"entry {number} of {shared.display} too; renumbering it would change that "
                    "book's link as well")
            targets.append(target)
    return targets


def _shared_with(document: SourceDocument, book: Book, number: int,
                 documents: list[SourceDocument]) -> SourceDocument | None:
    """Another storybook whose entry `number` the document's entry numbers also mean
    (round trackers mean every storybook's entries), if there is one."""
    for other in books_for(document, documents):
        if other.document is not book.document and other.entry(number) is not None:
            return other.document
    return None


def _renaming(context: RequestContext, renaming: Renaming, new_name: str) -> list[Target]:
    value = renaming.value
    assert isinstance(value, str)
    pattern = _id_pattern(context)
    if pattern is not None and not re.search(pattern, new_name):
        raise RenameRefused(f"{new_name!r} is not an id: lowercase letters and digits in words "
                            "joined by single hyphens (like the-wheel-turned)")
    documents = context.documents
    declared = id_targets(renaming.kinds, value, documents)
    if not declared:
        raise RenameRefused(f"no {' or '.join(renaming.kinds)} has the id {value!r}, so there is nothing to rename")
    taken = id_targets(renaming.kinds, new_name, documents) if new_name != value else []
    if taken:
        raise RenameRefused(f"the id {new_name!r} is already taken, by {_name(taken[0].document)}")
    targets = list(declared)
    for kind in renaming.kinds:
        targets += id_references(kind, value, documents, context.tools.finder)
    return targets


def _edit(targets: Iterable[Target], new_text: str,
          current_text: Callable[[Path], str | None]) -> types.WorkspaceEdit:
    changes: dict[str, list[types.TextEdit]] = {}
    seen: set[tuple[str, int, int]] = set()
    current: set[int] = set()  # documents whose text is the editor's now
    for target in targets:
        document = target.document
        if id(document) not in current:
            if current_text(document.path) != document.text:
                raise RenameRefused(f"{document.display} has changed since it was last checked "
                                    "(or does not parse now): fix it or wait, then rename again")
            current.add(id(document))
        where = _inside_quotes(document.text, as_location(target).range)
        key = (document.display, where.start.line, where.start.character)
        if key in seen:
            continue
        seen.add(key)
        changes.setdefault(uri_of(document.path), []).append(types.TextEdit(range=where, new_text=new_text))
    for edits in changes.values():
        edits.sort(key=lambda e: (e.range.start.line, e.range.start.character))
    return types.WorkspaceEdit(changes=changes)


def _inside_quotes(text: str, where: types.Range) -> types.Range:
    """A token's range, less its quotes if it is quoted ('the-id' keeps its quotes).
    Ids and numbers are ASCII, so their UTF-16 columns index the line's characters
    once the line's own (possibly wider) prefix is accounted for."""
    line = line_of(text, where.start.line)
    column = char_column(line, where.start.character)
    width = where.end.character - where.start.character
    written = line[column:column + width]
    if len(written) >= 2 and written[0] == written[-1] and written[0] in "'\"":
        return types.Range(start=types.Position(line=where.start.line, character=where.start.character + 1),
                           end=types.Position(line=where.end.line, character=where.end.character - 1))
    return where


def _unquoted(word: str) -> str:
    if len(word) >= 2 and word[0] == word[-1] and word[0] in "'\"":
        return word[1:-1]
    return word


def _bounds(context: RequestContext) -> tuple[int, int]:
    """The entry numbers the schemas allow (defs.schema.json's entry_number)."""
    place = context.tools.navigator.place("storybook", ("entries", 0, "entry"))
    low, high = 1, 99999
    for _base, node in place.nodes if place is not None else ():
        low = int(node.get("minimum", low))
        high = int(node.get("maximum", high))
    return low, high


def _id_pattern(context: RequestContext) -> str | None:
    """The pattern every id follows (defs.schema.json's id), read from the coda schema."""
    place = context.tools.navigator.place("coda", ("id",))
    for _base, node in place.nodes if place is not None else ():
        if isinstance(node.get("pattern"), str):
            return str(node["pattern"])
    return None


def _name(document: SourceDocument) -> str:
    return document.display
