"""Rendering any content document's data as a readable page: prose, tables, lists, effects.

Kind-specific pages (chapters, wanderers) put their important parts first and hand the rest
to `sections`, so a field added to a schema later still shows up on the site.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from dmtool.sitegen.markdown import code_block, inline_prose, label, plain, prose, table

# Keys that hold effect or condition trees: shown in their authored (YAML) shape.
RULE_KEYS = frozenset({"effects", "when", "where", "applies_to", "entrance_when", "condition",
                       "pass", "fail", "roll", "modifier_when", "if"})
# Keys shown at the top of every page (heading, source line), never as their own section.
HEAD_KEYS = ("kind", "id", "title", "name", "source")
# Prose keys that open a page, in this order, before the other sections.
LEAD_KEYS = ("introduction", "description", "summary", "convention", "flavor", "text")
_SIMPLE = (str, int, float, bool, type(None))
_PLAIN_WORD = re.compile(r"^[A-Za-z0-9_.+-]+$")


def title_of(data: Mapping[str, Any]) -> str:
    """The human title of a document: its title, else its name, else its id."""
    for key in ("title", "name", "id"):
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value
    return "untitled"


def head(data: Mapping[str, Any], *, title: str | None = None) -> str:
    """The page heading and a line saying what kind of document this is and where it is from."""
    lines = [f"# {plain(title or title_of(data))}", ""]
    facts = [f"*{label(str(data.get('kind', 'document')))}* {inline_code(str(data.get('id', '')))}"]
    source = data.get("source")
    if isinstance(source, dict):
        facts.append("source: " + ", ".join(plain(v) for v in source.values()))
    lines.append(" · ".join(facts))
    return "\n".join(lines)


def document_page(data: Mapping[str, Any], *, title: str | None = None) -> str:
    """A whole page for one document: heading, lead prose, then every other field."""
    return "\n\n".join([head(data, title=title), *sections(data, skip=HEAD_KEYS)]) + "\n"


def sections(data: Mapping[str, Any], *, skip: Iterable[str] = (), level: int = 2) -> list[str]:
    """Markdown blocks for the fields of `data` not in `skip`: lead prose first, then sections."""
    skipped = set(skip)
    blocks: list[str] = []
    for key in LEAD_KEYS:
        value = data.get(key)
        if key not in skipped and isinstance(value, str):
            blocks.append(prose(value))
            skipped.add(key)
    for key, value in data.items():
        if key in skipped:
            continue
        blocks.append(f"{'#' * level} {label(key)}")
        blocks.append(field_block(key, value))
    return blocks


def field_block(key: str, value: Any) -> str:
    """One field's value as a Markdown block (a paragraph, a table, a list or YAML)."""
    if key in RULE_KEYS:
        return code_block(yamlish(value))
    if isinstance(value, str):
        return prose(value)
    if isinstance(value, _SIMPLE):
        return plain(value)
    if isinstance(value, list) and all(isinstance(v, _SIMPLE) for v in value):
        return ", ".join(plain(v) for v in value) if value else "*none*"
    if isinstance(value, list) and _tabular(value):
        return record_table(value)
    return "\n".join(bullets(value, indent=0)) or "*none*"


def record_table(records: list[dict[str, Any]]) -> str:
    """A list of flat mappings as a table with one column per key (first appearance order)."""
    columns: list[str] = []
    for record in records:
        columns += [k for k in record if k not in columns]
    rows = [[cell(record.get(c), key=c) for c in columns] for record in records]
    return table([label(c) for c in columns], rows)


def cell(value: Any, *, key: str = "") -> str:
    """A value squeezed into one table cell or list line."""
    if value is None:
        return ""
    if key in RULE_KEYS or isinstance(value, dict) or (
        isinstance(value, list) and not all(isinstance(v, _SIMPLE) for v in value)
    ):
        return inline_code(flow(value))
    if isinstance(value, list):
        return ", ".join(plain(v) for v in value)
    if isinstance(value, str) and ("\n" in value.strip() or len(value) > 60):
        return inline_prose(value)
    return plain(value)


def bullets(value: Any, *, indent: int) -> list[str]:
    """Nested data as nested Markdown lists (Python-Markdown nests by four spaces)."""
    pad = " " * indent
    lines: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in RULE_KEYS or isinstance(item, _SIMPLE) or _flat_list(item):
                lines.append(f"{pad}- **{label(key)}:** {cell(item, key=key)}")
            else:
                lines.append(f"{pad}- **{label(key)}:**")
                lines += bullets(item, indent=indent + 4)
    elif isinstance(value, list):
        for item in value:
            if isinstance(item, dict) and item and all(
                    isinstance(v, _SIMPLE) or _flat_list(v) for v in item.values()):
                lines.append(pad + "- " + "; ".join(
                    f"**{label(k)}:** {cell(v, key=k)}" for k, v in item.items()))
            elif isinstance(item, dict) and item:
                first, *rest = item.items()
                lines.append(f"{pad}- **{label(first[0])}:** {cell(first[1], key=first[0])}")
                lines += bullets(dict(rest), indent=indent + 4)
            else:
                lines.append(f"{pad}- {cell(item)}")
    else:
        lines.append(f"{pad}- {cell(value)}")
    return lines


def inline_code(text: str) -> str:
    """A code span whose delimiter is longer than any backtick run inside it."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    tick = "`" * (longest + 1)
    return f"{tick} {' '.join(text.split())} {tick}"


def flow(value: Any) -> str:
    """Data in YAML flow style on one line: {spawn_terror: {terror: x, shard: random}}."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    text = str(value)
    if isinstance(value, str) and not _PLAIN_WORD.match(text):
        return '"' + " ".join(text.split()).replace('"', "'") + '"'
    return text


def yamlish(value: Any) -> str:
    """Effect lists one item a line in flow style, the way authors read them in the YAML."""
    if isinstance(value, list):
        return "\n".join(f"- {_item(item)}" for item in value) or "[]"
    if isinstance(value, dict):
        return "\n".join(f"{k}: {flow(v)}" for k, v in value.items()) or "{}"
    return flow(value)


def _item(item: Any) -> str:
    """A single-key mapping (one effect) as 'key: value', the way it is written in YAML."""
    if isinstance(item, dict) and len(item) == 1:
        key, value = next(iter(item.items()))
        return f"{key}: {flow(value)}"
    return flow(item)


def _flat_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, _SIMPLE) for v in value)


def _tabular(value: list[Any]) -> bool:
    """Lists of mappings whose fields are short enough to read as table rows."""
    if not value or not all(isinstance(v, dict) for v in value):
        return False
    for record in value:
        for key, item in record.items():
            if isinstance(item, dict) and key not in RULE_KEYS:
                return False
            if isinstance(item, list) and not _flat_list(item) and key not in RULE_KEYS:
                return False
    return True
