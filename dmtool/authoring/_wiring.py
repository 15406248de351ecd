"""Reading and updating existing documents for `dmtool new`: listing a new card on its
wanderer, adding its storybook entry, appending a chapter to its campaign."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dmtool.authoring._scan import MappingNode, Node, ScalarNode, SequenceNode
from dmtool.authoring._source import Source, parse
from dmtool.errors import UsageError
from dmtool.loading import read_document

Edit = Callable[[str], str]


@dataclass(frozen=True)
class Found:
    """A loaded document found under a folder."""

    path: Path
    data: dict[str, Any]


def find_all(folder: Path, kind: str) -> list[Found]:
    """Every loadable document of `kind` under `folder`, in path order."""
    found: list[Found] = []
    if not folder.is_dir():
        return found
    for path in sorted(p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml")):
        document = read_document(path).document
        if (
            document is not None
            and isinstance(document.data, dict)
            and document.data.get("kind") == kind
        ):
            found.append(Found(path, document.data))
    return found


def find(folder: Path, kind: str, doc_id: str | None) -> Found | None:
    """The document of `kind` with id `doc_id` (or the first one, if None) under `folder`."""
    return next((f for f in find_all(folder, kind) if doc_id in (None, f.data.get("id"))), None)


def legacy_cards(folder: Path, wanderer: str) -> Iterator[tuple[str, str]]:
    """(ending, card id) of the wanderer's finale legacy cards, the first per ending."""
    seen: set[str] = set()
    for card in find_all(folder, "finale-legacy-card"):
        ending, card_id = card.data.get("ending"), card.data.get("id")
        if card.data.get("wanderer") == wanderer and isinstance(ending, str) and ending not in seen:
            seen.add(ending)
            yield ending, str(card_id)


def next_entry(storybook: dict[str, Any]) -> int:
    """A free entry number after every existing one."""
    numbers = [e.get("entry") for e in storybook.get("entries") or [] if isinstance(e, dict)]
    return max([n for n in numbers if isinstance(n, int)], default=100) + 1


def edit(path: Path, *edits: Edit) -> tuple[bytes, str]:
    """The bytes of `path` as read, and its text after `edits` (not yet formatted or
    written); the bytes let the write refuse a file that changed in the meantime."""
    raw = path.read_bytes()
    text = raw.decode("utf-8").replace("\r\n", "\n")
    for change in edits:
        text = change(text)
    return raw, text


# Edits work on the text itself: new lines go right after the last line of the list they
# join, so every comment stays exactly where it was. The formatter then lays them out.


def set_key(key: str, value: str) -> Edit:
    """Set a top-level key to a one-line scalar value (added at the end if missing)."""

    def change(text: str) -> str:
        source = parse(text)
        root = source.coll(source.root)
        lines = text.split("\n")
        for item in root.items:
            if item.key is not None and item.key.value == key:
                node = item.value
                if not isinstance(node, ScalarNode) or node.start_mark.line != node.end_mark.line:
                    raise UsageError(f"cannot set '{key}': its value is not a one-line value")
                line, start, end = (node.start_mark.line, node.start_mark.column,
                                    node.end_mark.column)
                lines[line] = lines[line][:start] + value + lines[line][end:]
                return "\n".join(lines)
        return _insert(lines, _last_line(source, source.root), [f"{key}: {value}"])

    return change


def append_to(parts: tuple[str, ...], item_yaml: str) -> Edit:
    """Append the value written as YAML in `item_yaml` to the list at `parts`."""

    def change(text: str) -> str:
        source = parse(text)
        lines = text.split("\n")
        parent, node = _walk(source, parts)
        item_lines = item_yaml.strip("\n").split("\n")
        if node is None or (isinstance(node, ScalarNode) and node.value in ("", "~", "null")):
            if node is not None:
                raise UsageError(f"'{'/'.join(parts)}' is empty; write [] there first")
            column = source.coll(parent).col
            new = _as_list(parts[-1], item_lines, column)
            return _insert(lines, _last_line(source, parent), new)
        if not isinstance(node, SequenceNode):
            raise UsageError(f"cannot add to '{'/'.join(parts)}': it is not a list")
        if item_yaml.strip() in [getattr(v, "value", None) for v in node.value]:
            return text
        if node.flow_style:
            if len(item_lines) != 1:
                raise UsageError(f"cannot add a mapping to the one-line list '{'/'.join(parts)}'")
            line, column = node.end_mark.line, node.end_mark.column - 1  # the closing ']'
            joiner = ", " if node.value else ""
            lines[line] = lines[line][:column] + joiner + item_lines[0] + lines[line][column:]
            return "\n".join(lines)
        column = source.coll(node).col
        new = [" " * column + "- " + item_lines[0]]
        new += [" " * (column + 2) + line if line else "" for line in item_lines[1:]]
        return _insert(lines, _last_line(source, node), new)

    return change


def extend_campaign(chapter_id: str) -> Edit:
    """Append a chapter to a campaign; the chapter before it now needs 'keeps'."""

    def change(text: str) -> str:
        source = parse(text)
        _, chapters = _walk(source, ("chapters",))
        if not isinstance(chapters, SequenceNode) or chapters.flow_style:
            raise UsageError("the campaign has no block list 'chapters' to add the chapter to")
        last = chapters.value[-1] if chapters.value else None
        if isinstance(last, MappingNode) and not last.flow_style:
            keys = [k.value for k, _ in last.value]
            if "keeps" not in keys:
                general = _walk(source, ("general_keeps",))[1]
                keeps = f"[{', '.join(v.value for v in general.value)}]" if isinstance(
                    general, SequenceNode) else "[]"
                column = source.coll(last).col
                text = _insert(text.split("\n"), _last_line(source, last), [
                    f"{' ' * column}keeps: {keeps}  # TODO: what carries over into {chapter_id}"])
        return append_to(("chapters",), f"chapter: {chapter_id}")(text)

    return change


def _walk(source: Source, parts: tuple[str, ...]) -> tuple[Node, Node | None]:
    """(the mapping holding the last part, the node at `parts` or None)."""
    parent: Node = source.root
    for depth, part in enumerate(parts):
        if not isinstance(parent, MappingNode):
            raise UsageError(f"cannot find '{'/'.join(parts)}': it is not inside a mapping")
        found = next((v for k, v in parent.value if k.value == part), None)
        if depth == len(parts) - 1:
            return parent, found
        if found is None:
            raise UsageError(f"cannot find '{'/'.join(parts[:depth + 1])}' to add to")
        parent = found
    return parent, None


def _last_line(source: Source, node: Node) -> int:
    """The last source line that holds part of `node` (comments after it excluded)."""
    if isinstance(node, ScalarNode):
        block = source.blocks.get((node.start_mark.line, node.start_mark.column))
        if block is not None:
            return max(block.last, node.start_mark.line)
    elif not node.flow_style and node.value:
        last = node.value[-1]
        return _last_line(source, last[1] if isinstance(last, tuple) else last)
    end = node.end_mark
    return end.line if end.column > 0 else end.line - 1


def _as_list(key: str, item_lines: list[str], column: int) -> list[str]:
    pad = " " * column
    if len(item_lines) == 1:
        return [f"{pad}{key}: [{item_lines[0]}]"]
    return [f"{pad}{key}:", f"{pad}  - {item_lines[0]}",
            *(f"{pad}    {line}" if line else "" for line in item_lines[1:])]


def _insert(lines: list[str], after: int, new: list[str]) -> str:
    return "\n".join([*lines[:after + 1], *new, *lines[after + 1:]])
