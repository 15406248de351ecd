"""What a value points at, and what points at a thing: entries of storybooks and documents by id.

An entry number means an entry of the storybook in scope: the storybook itself, the
storybook a scenario fixture names or writes inline, the storybooks of the wanderer a card
or shard belongs to, or (for round trackers and other shared content) every storybook.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dmtool.loading import SourceDocument
from dmtool.lsp.schema_nav import ReferenceFinder
from dmtool.validation.corpus import NESTED_ID_SOURCES

Parts = tuple[str | int, ...]


@dataclass(frozen=True)
class Book:
    """Numbered entries written in a document: a storybook, or a fixture's inline one."""

    document: SourceDocument
    prefix: Parts

    @property
    def data(self) -> Mapping[str, Any]:
        node: Any = self.document.data
        for part in self.prefix:
            node = node.get(part) if isinstance(node, dict) else None
        return node if isinstance(node, dict) else {}

    def entries(self) -> Iterator[tuple[int, Parts, Mapping[str, Any]]]:
        """(number, parts of the entry item, the entry) for each well-formed entry."""
        items = self.data.get("entries")
        for index, item in enumerate(items if isinstance(items, list) else []):
            number = item.get("entry") if isinstance(item, dict) else None
            if isinstance(number, int) and not isinstance(number, bool):
                yield number, self.prefix + ("entries", index), item

    def entry(self, number: int) -> tuple[Parts, Mapping[str, Any]] | None:
        for found, parts, item in self.entries():
            if found == number:
                return parts, item
        return None

    def is_definition(self, parts: Parts) -> bool:
        """Whether `parts` is an entry's own `entry:` number in this book."""
        tail = parts[len(self.prefix):]
        return (parts[:len(self.prefix)] == self.prefix and len(tail) == 3
                and tail[0] == "entries" and tail[2] == "entry")


@dataclass(frozen=True)
class Target:
    """A place something points at: a document and the path of the node inside it."""

    document: SourceDocument
    parts: Parts


def kind_of(document: SourceDocument) -> str:
    data = document.data
    kind = data.get("kind") if isinstance(data, dict) else None
    return kind if isinstance(kind, str) else ""


def books_for(document: SourceDocument, documents: Iterable[SourceDocument]) -> list[Book]:
    """The storybooks whose entries an entry number in `document` means."""
    data = document.data if isinstance(document.data, dict) else {}
    kind = kind_of(document)
    if kind == "storybook":
        return [Book(document, ())]
    storybooks = [d for d in documents if kind_of(d) == "storybook"]
    if kind == "scenario":
        setup = data.get("setup")
        named = setup.get("storybook") if isinstance(setup, dict) else None
        if isinstance(named, dict):
            return [Book(document, ("setup", "storybook"))]
        return [Book(d, ()) for d in storybooks if d.data.get("id") == named]
    wanderer = data.get("id") if kind == "wanderer" else data.get("wanderer")
    if isinstance(wanderer, str):
        return [Book(d, ()) for d in storybooks if d.data.get("wanderer") == wanderer]
    return [Book(d, ()) for d in storybooks]


def entry_targets(document: SourceDocument, number: int,
                  documents: Iterable[SourceDocument]) -> list[Target]:
    """Where entry `number`, as written in `document`, is defined."""
    found: list[Target] = []
    for book in books_for(document, list(documents)):
        entry = book.entry(number)
        if entry is not None:
            found.append(Target(book.document, entry[0]))
    return found


def id_targets(kinds: Iterable[str], value: str,
               documents: Iterable[SourceDocument]) -> list[Target]:
    """The documents (or items of a document) of these kinds with this id."""
    kinds = set(kinds)
    found: list[Target] = []
    for document in documents:
        kind = kind_of(document)
        if kind in kinds and document.data.get("id") == value:
            found.append(Target(document, ("id",)))
        for nested, (container, key) in NESTED_ID_SOURCES.items():
            if nested in kinds and kind == container:
                items = document.data.get(key)
                for index, item in enumerate(items if isinstance(items, list) else []):
                    if isinstance(item, dict) and item.get("id") == value:
                        found.append(Target(document, (key, index, "id")))
    return found


ROOMS = ("board", "rooms")  # where a chapter lists the room tiles its board is made of


def room_targets(document: SourceDocument, number: int) -> list[Target]:
    """Where a chapter lists room `number` among the rooms of its board."""
    rooms = document.data.get("board", {}).get("rooms") if isinstance(document.data, dict) else None
    if not isinstance(rooms, list) or number not in rooms:
        return []
    return [Target(document, ROOMS + (rooms.index(number),))]


def room_references(document: SourceDocument, number: int, finder: ReferenceFinder) -> list[Target]:
    """Every other place in the chapter that names room `number`."""
    return [Target(document, parts)
            for parts, place, value in finder.in_document(document)
            if place.is_room and value == number and parts[:2] != ROOMS]


def entry_references(book: Book, number: int, documents: list[SourceDocument],
                     finder: ReferenceFinder) -> list[Target]:
    """Every place that names entry `number` of `book` (its own `entry:` line excluded)."""
    return [target for named, target in entry_uses(book, documents, finder) if named == number]


def entry_uses(book: Book, documents: list[SourceDocument],
               finder: ReferenceFinder) -> Iterator[tuple[int, Target]]:
    """(number, where) for every place that names an entry of `book`, resolved or not
    (the entries' own `entry:` lines excluded): one walk of the documents in its scope."""
    for document in documents:
        books = books_for(document, documents)
        if not any(b.document is book.document and b.prefix == book.prefix for b in books):
            continue
        for parts, place, value in finder.in_document(document):
            if place.is_entry_number and not any(b.is_definition(parts) for b in books):
                yield value, Target(document, parts)


def id_references(kind: str, value: str, documents: list[SourceDocument],
                  finder: ReferenceFinder) -> list[Target]:
    """Every place that names the document of `kind` with id `value`."""
    found: list[Target] = []
    for document in documents:
        for parts, place, named in finder.in_document(document):
            if named == value and kind in place.refers_to:
                found.append(Target(document, parts))
    return found


def by_path(documents: Iterable[SourceDocument]) -> dict[Path, SourceDocument]:
    return {d.path: d for d in documents}
