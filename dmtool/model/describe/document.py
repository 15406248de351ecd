"""A whole document's effects and conditions in words, as outline lines under their place in
the document (the descriptions snapshot of content/ is made of these)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dmtool.model.describe.locate import SchemaSet, locate
from dmtool.model.describe.names import chapter_names, title_of
from dmtool.model.describe.outline import value_lines
from dmtool.model.describe.words import Names


def document_lines(schemas: SchemaSet, data: Mapping[str, Any], names: Names) -> list[str]:
    """'entries/0/effects (entry 1: The Bell Under the Water)' then its effects indented."""
    local = chapter_names(data, names)
    lines: list[str] = []
    for found in locate(schemas, str(data.get("kind")), data):
        lines.append(_place(data, found.parts))
        lines += value_lines(found.vocabulary, found.value, local, indent="    ")
    return lines


def _place(data: Mapping[str, Any], parts: tuple[str | int, ...]) -> str:
    """The path, and the entry or named item it belongs to, so a reader can find it."""
    where = "/".join(str(p) for p in parts) or "(document)"
    node: Any = data
    label = ""
    for part in parts[:-1]:
        node = node[part] if isinstance(node, (Mapping, list)) else None
        if isinstance(node, Mapping):
            if isinstance(node.get("entry"), int):
                label = f"entry {node['entry']}: {node.get('title', '')}".rstrip(": ")
            elif title_of(node):
                label = title_of(node) or label
    return f"  {where}" + (f" ({label})" if label else "")
