"""Scanning a YAML text for the formatter: tokens and nodes with positions (from libyaml,
as dmtool's loader reads files), block scalars, and where the comments are.

YAML parsers drop comments, so they are found here: every character not covered by a
token is whitespace or a comment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ruamel.yaml import YAML, YAMLError
from ruamel.yaml.nodes import Node

# Constructs that a formatter cannot re-emit faithfully; dmtool's loader refuses them too.
REFUSED_TOKENS = {
    "AliasToken": "aliases (*name)",
    "AnchorToken": "anchors (&name)",
    "TagToken": "explicit tags (!tag)",
    "DirectiveToken": "directives (%YAML)",
}
BLOCK_STYLES = ("|", ">")
# libyaml counts these as line breaks too, so its line numbers would not match ours.
OTHER_BREAKS = ("\x85", "\u2028", "\u2029")


class SourceError(Exception):
    """The file uses a construct the formatter does not handle; it is left untouched."""


@dataclass
class BlockScalar:
    """Where a block scalar's header and content lines are in the source."""

    header: str  # indicators as written, e.g. "|", ">-", "|2+"
    first: int  # first content line (0-based)
    last: int  # last content line (inclusive); last < first when there is no content
    indent: int  # the content's indentation in the source


def tokens_of(text: str) -> list[Any]:
    """Every token with its marks, from libyaml (as dmtool's loader uses) when available."""
    try:
        from _ruamel_yaml import CParser
    except ImportError:  # pragma: no cover - only without ruamel.yaml.clib (e.g. PyPy)
        return list(YAML(typ="safe", pure=True).scan(text))
    parser = CParser(text)
    tokens = []
    try:
        while (token := parser.get_token()) is not None:
            tokens.append(token)
    except YAMLError:
        # YAML 1.2 forms libyaml refuses ({url: http://x}): dmtool's loader reads them
        # with the pure parser, and so does the formatter.
        return list(YAML(typ="safe", pure=True).scan(text))
    return tokens


def compose(text: str) -> Node:
    """The document's node tree, with positions."""
    try:
        from ruamel.yaml.cyaml import CSafeLoader
    except ImportError:  # pragma: no cover - only without ruamel.yaml.clib
        return YAML(typ="safe", pure=True).compose(text)
    try:
        return CSafeLoader(text).get_single_node()
    except YAMLError:  # as in tokens_of: what libyaml refuses, the pure parser reads
        return YAML(typ="safe", pure=True).compose(text)


def coverage(
    tokens: list[Any], lines: list[str]
) -> tuple[dict[int, list[tuple[int, int]]], dict[tuple[int, int], BlockScalar]]:
    """Per line, the column spans covered by tokens; block scalar content covers whole lines."""
    covered: dict[int, list[tuple[int, int]]] = {}
    blocks: dict[tuple[int, int], BlockScalar] = {}

    def mark(line: int, start: int, end: int) -> None:
        covered.setdefault(line, []).append((start, end))

    for position, token in enumerate(tokens):
        start, end = token.start_mark, token.end_mark
        if (start.line, start.column) == (end.line, end.column):
            continue
        if type(token).__name__ == "ScalarToken" and token.style in BLOCK_STYLES:
            block = block_scalar(tokens, position, lines)
            mark(start.line, start.column, start.column + len(block.header))
            for line in range(block.first, block.last + 1):
                mark(line, 0, len(lines[line]) + 1)
            blocks[(start.line, start.column)] = block
            continue
        if start.line == end.line:
            mark(start.line, start.column, end.column)
            continue
        mark(start.line, start.column, len(lines[start.line]) + 1)
        for line in range(start.line + 1, end.line):
            mark(line, 0, len(lines[line]) + 1)
        mark(end.line, 0, end.column)
    for spans in covered.values():
        spans.sort(key=lambda span: span[1])
    return covered, blocks


def block_scalar(tokens: list[Any], position: int, lines: list[str]) -> BlockScalar:
    """Header, content lines and content indentation of the block scalar token at `position`.

    The indentation follows YAML's rules: an explicit indicator counts from the indentation
    of the key or dash that owns the scalar; otherwise it is that of the first non-blank
    line. Trailing lines with no more spaces than that are blank lines after the scalar,
    not content, unless the chomping indicator `+` keeps them.
    """
    token = tokens[position]
    start, end = token.start_mark, token.end_mark
    header_line = lines[start.line]
    stop = start.column + 1
    while stop < len(header_line) and header_line[stop] in "+-0123456789":
        stop += 1
    header = header_line[start.column:stop]
    last = min(end.line - 1 if end.column == 0 else end.line, len(lines) - 1)
    body = lines[start.line + 1:last + 1]
    digits = "".join(ch for ch in header if ch.isdigit())
    if digits:
        indent = owner_column(tokens, position) + int(digits)
    else:
        indent = next((len(line) - len(line.lstrip(" ")) for line in body if line.strip()),
                      max((len(line) for line in body), default=0))
    if "+" not in header:
        while last > start.line and not lines[last].strip() and len(lines[last]) <= indent:
            last -= 1
    return BlockScalar(header, start.line + 1, last, indent)


def owner_column(tokens: list[Any], position: int) -> int:
    """The column of the key or dash a block scalar belongs to (-1 for a root scalar)."""
    before = type(tokens[position - 1]).__name__
    if before == "BlockEntryToken":
        return int(tokens[position - 1].start_mark.column)
    if before == "ValueToken":
        for token in reversed(tokens[:position - 1]):
            if type(token).__name__ == "KeyToken":
                return int(token.start_mark.column)
    return -1


def find_comments(
    lines: list[str], covered: dict[int, list[tuple[int, int]]]
) -> tuple[dict[int, str], dict[int, str]]:
    """End-of-line comments by line, and the gap lines: '#' (comment) or '' (blank)."""
    eol: dict[int, str] = {}
    gap: dict[int, str] = {}
    for number, line in enumerate(lines):
        spans = covered.get(number)
        rest = line[spans[-1][1]:] if spans else line
        stripped = rest.strip()
        if stripped and not stripped.startswith("#"):
            raise SourceError(f"line {number + 1} has text the formatter cannot place")
        if spans:
            if stripped:
                eol[number] = stripped
        else:
            gap[number] = "#" if stripped else ""
    return eol, gap
