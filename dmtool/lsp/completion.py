"""Completion: keys of the mapping being written (effects and conditions included), entry
numbers with their titles, ids of the kind a reference wants, and enum values."""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from dmtool.lsp.context import RequestContext, value_at
from dmtool.lsp.cursor import Cursor
from dmtool.lsp.schema_nav import Place
from dmtool.lsp.targets import books_for, kind_of
from dmtool.validation.corpus import NESTED_ID_SOURCES

Item = types.CompletionItem


def complete(context: RequestContext, position: types.Position) -> types.CompletionList:
    cursor = context.cursor(position)
    items: list[Item] = []
    if cursor.role == "key":
        items = _keys(context, cursor)
    elif cursor.role == "value":
        place = context.place(cursor.path)
        if place is not None:
            items = _values(context, cursor, place)
        # A bare word in a list of mappings is a key being typed (`- got`).
        container = context.place(cursor.container)
        if not items and container is not None and not cursor.word.isdigit():
            item_place = context.place(cursor.path)
            if item_place is not None and item_place.takes_mapping:
                items = _key_items(context, cursor, item_place, cursor.path, list_item=False)
    return types.CompletionList(is_incomplete=False, items=items)


def _edit(context: RequestContext, cursor: Cursor, text: str) -> types.TextEdit:
    """Replace the word being typed with `text`."""
    return types.TextEdit(range=context.word_range(cursor), new_text=text)


def _keys(context: RequestContext, cursor: Cursor) -> list[Item]:
    container = cursor.container
    place = context.place(container)
    if place is None:
        return []
    if not place.takes_mapping:
        # A new line in a list: offer the keys of its items, each starting an item.
        items = context.place(container + (0,))
        if items is None or not items.takes_mapping:
            return []
        return _key_items(context, cursor, items, container, list_item=True)
    return _key_items(context, cursor, place, container, list_item=False)


def _key_items(context: RequestContext, cursor: Cursor, place: Place,
               container: tuple[str | int, ...], *, list_item: bool) -> list[Item]:
    present = value_at(context.data, container)
    taken = set(present) if isinstance(present, dict) and not list_item else set()
    items = []
    for key, description in place.keys.items():
        if key in taken and key != cursor.word:
            continue
        text = ("- " if list_item else "") + f"{key}: "
        items.append(Item(label=key, kind=types.CompletionItemKind.Property,
                          documentation=description or None, filter_text=key,
                          text_edit=_edit(context, cursor, text)))
    return items


def _values(context: RequestContext, cursor: Cursor, place: Place) -> list[Item]:
    if place.is_entry_number:
        return _entries(context, cursor)
    if place.refers_to:
        return _ids(context, cursor, place.refers_to)
    values = place.enum or ([True, False] if _boolean(place) else [])
    return [Item(label=_yaml(v), kind=types.CompletionItemKind.EnumMember,
                 documentation=place.description, text_edit=_edit(context, cursor, _yaml(v)))
            for v in values]


def _boolean(place: Place) -> bool:
    return any(node.get("type") == "boolean" for _b, node in place.nodes)


def _yaml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _entries(context: RequestContext, cursor: Cursor) -> list[Item]:
    document = context.document
    if document is None:
        return []
    items = []
    for book in books_for(document, context.documents):
        for number, _parts, entry in book.entries():
            title = str(entry.get("title") or "")
            items.append(Item(
                label=str(number), kind=types.CompletionItemKind.Reference,
                detail=f"{title} ({entry.get('kind', '')})" if title else None,
                documentation=book.document.display if book.document is not document else None,
                # Editors filter on this text: typing part of a title finds the entry too.
                filter_text=f"{number} {title}", sort_text=f"{number:08d}",
                text_edit=_edit(context, cursor, str(number))))
    return items


def _ids(context: RequestContext, cursor: Cursor, kinds: tuple[str, ...]) -> list[Item]:
    mine = _owner(context.data)
    found: dict[str, Item] = {}
    for document in context.documents:
        kind = kind_of(document)
        for doc_id, title in _ids_in(document, kind, kinds):
            owner = _owner(document.data)
            found.setdefault(doc_id, Item(
                label=doc_id, kind=types.CompletionItemKind.Reference,
                detail=f"{kind}: {title}" if title else kind,
                # The author's own wanderer's cards first.
                sort_text=("0" if owner == mine else "1") + doc_id,
                text_edit=_edit(context, cursor, doc_id)))
    return list(found.values())


def _ids_in(document: Any, kind: str, kinds: tuple[str, ...]) -> list[tuple[str, str]]:
    data = document.data if isinstance(document.data, dict) else {}
    found = []
    if kind in kinds and isinstance(data.get("id"), str):
        found.append((data["id"], str(data.get("title") or data.get("name") or "")))
    for nested, (container, key) in NESTED_ID_SOURCES.items():
        if nested in kinds and kind == container:
            for item in data.get(key) or []:
                if isinstance(item, dict) and isinstance(item.get("id"), str):
                    found.append((item["id"], str(item.get("name") or item.get("title") or "")))
    return found


def _owner(data: Any) -> str | None:
    return data.get("wanderer") if isinstance(data, dict) else None
