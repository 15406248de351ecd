"""What one editor request sees: the buffer's text, its last good document and the workspace."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types

from dmtool.loading import SourceDocument
from dmtool.lsp.convert import char_column, line_of, location_range, span, uri_of
from dmtool.lsp.cursor import Cursor, cursor_at
from dmtool.lsp.schema_nav import Place, ReferenceFinder, SchemaNavigator
from dmtool.lsp.targets import Target
from dmtool.lsp.workspace import Snapshot

_KIND_LINE = re.compile(r"^kind:\s*['\"]?([a-z0-9-]+)", re.MULTILINE)


@dataclass
class Tools:
    """Long-lived helpers built once per server from the schemas."""

    navigator: SchemaNavigator
    finder: ReferenceFinder


@dataclass
class RequestContext:
    """The file a request is about, as the editor shows it now."""

    snapshot: Snapshot
    tools: Tools
    path: Path
    text: str
    _cursors: dict[tuple[int, int], Cursor] = field(default_factory=dict, repr=False)
    _ranges: dict[tuple[int, int, int], types.Range] = field(default_factory=dict, repr=False)

    @property
    def document(self) -> SourceDocument | None:
        """The file's document: as typed if it loads, else the last one that did."""
        return self.snapshot.documents.get(self.path)

    @property
    def data(self) -> Any:
        document = self.document
        return document.data if document is not None else None

    @property
    def kind(self) -> str:
        data = self.data
        if isinstance(data, dict) and isinstance(data.get("kind"), str):
            return str(data["kind"])
        found = _KIND_LINE.search(self.text)
        return found.group(1) if found else ""

    @property
    def documents(self) -> list[SourceDocument]:
        return list(self.snapshot.documents.values())

    def cursor(self, position: types.Position) -> Cursor:
        """The cursor at an LSP position (placed once per position and request)."""
        key = (position.line, position.character)
        found = self._cursors.get(key)
        if found is None:
            column = char_column(line_of(self.text, position.line), position.character)
            found = self._cursors[key] = cursor_at(self.text, position.line, column)
        return found

    def word_range(self, cursor: Cursor) -> types.Range:
        """The range of the word under a cursor, as LSP counts it."""
        key = (cursor.line, cursor.start, cursor.end)
        found = self._ranges.get(key)
        if found is None:
            found = self._ranges[key] = span(self.text, cursor.line, cursor.start, cursor.end)
        return found

    def place(self, parts: tuple[str | int, ...]) -> Place | None:
        return self.tools.navigator.place(self.kind, parts) if self.kind else None


def value_at(data: Any, parts: tuple[str | int, ...]) -> Any:
    """The data at `parts`, or None where the path leaves it."""
    node = data
    for part in parts:
        if isinstance(node, dict) and isinstance(part, str):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            return None
    return node


def as_location(target: Target, *, key: bool = False) -> types.Location:
    """Where a target is written, as an LSP location (the token at its start)."""
    document = target.document
    where = document.locate(target.parts, key=key)
    return types.Location(uri=uri_of(document.path), range=location_range(document.text, where))
