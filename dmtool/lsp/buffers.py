"""Open buffers that take a keystroke in time independent of their length.

pygls applies a ranged change by splitting the whole text into lines and writing every
line out again, on the event loop, for each keystroke: about 40 ms on a 10,000-entry book,
during which no other message is read. Here the change's two positions are found through
the text's line index (lines.py) and the new text is made from two slices; only a text
whose line breaks are not all `\\n` (where the editor's lines and the index's could
differ) takes pygls's own way.
"""

from __future__ import annotations

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace

from dmtool.lsp.lines import LineIndex, line_index

# Characters str.splitlines (pygls) or an editor may take as line breaks besides "\n".
_OTHER_BREAKS = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


class IndexedDocument(TextDocument):
    """A pygls text document whose ranged changes are applied through a line index."""

    def _apply_incremental_change(self, change: types.TextDocumentContentChangePartial) -> None:
        text = self.source
        index = line_index(text)
        if not _plain(index):
            super()._apply_incremental_change(change)
            return
        start = self._offset(index, change.range.start)
        end = self._offset(index, change.range.end)
        self._source = text[:start] + change.text + text[max(start, end):]

    def _offset(self, index: LineIndex, at: types.Position) -> int:
        """The character offset of a position (one past the last line: the text's end)."""
        if at.line >= index.count:
            return len(index.text)
        line = index.line(at.line)
        column = self._position_codec.position_from_client_units(
            [line], types.Position(line=0, character=at.character)).character
        return index.starts[at.line] + min(column, len(line))


def _plain(index: LineIndex) -> bool:
    """Whether the text's only line breaks are "\\n" (known once per text's index)."""
    known = index.plain
    if known is None:
        text = index.text
        known = index.plain = not any(char in text for char in _OTHER_BREAKS)
    return known


class IndexedWorkspace(Workspace):
    """pygls's workspace, whose open documents are IndexedDocuments."""

    def _create_text_document(self, doc_uri: str, source: str | None = None,
                              version: int | None = None,
                              language_id: str | None = None) -> TextDocument:
        return IndexedDocument(doc_uri, source=source, version=version, language_id=language_id,
                               sync_kind=self._sync_kind, position_codec=self._position_codec)
