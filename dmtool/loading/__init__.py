"""Loading: finding content files and reading YAML safely, with a position for every node."""

from __future__ import annotations

from dmtool.loading.discovery import discover
from dmtool.loading.document import LoadResult, SourceDocument, load_text, read_document

__all__ = ["LoadResult", "SourceDocument", "discover", "load_text", "read_document"]
