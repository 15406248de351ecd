"""Where the cursor is in a YAML buffer, as a data path, read from the text alone.

Navigation, hover and completion must work on the buffer the author is typing, which is
often not valid YAML at that moment. So the cursor is placed by a forgiving scan of the
block layout (indentation, `key:` and `- ` items, block scalars skipped, one-line flow
collections taken apart) rather than by the parser. The scan reads the lines above the
cursor once; content files are formatted by `dmtool fmt`, so the layout is regular.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dmtool.loading.splice import ENTRIES_LINE, ENTRY_LINE, OUTSIDE_AN_ENTRY
from dmtool.lsp.lines import LineIndex, line_index

Path_ = tuple[str | int, ...]

_BLOCK_SCALAR = re.compile(r"[|>][0-9+-]*$")
_WORD = re.compile(r"[^\s,:{}\[\]#]+")


@dataclass(frozen=True)
class Cursor:
    """The node under the cursor.

    role: key (a mapping key, maybe half typed), value (a scalar), prose (inside a block
    scalar) or none. `path` is the data path of the node: for a key, the path of its value;
    `container` is the mapping or list that holds it. `word` is the token's text and
    `start`/`end` its columns on `line` (0-based, in characters).
    """

    role: str
    path: Path_
    container: Path_
    word: str = ""
    line: int = 0
    start: int = 0
    end: int = 0


@dataclass
class _Frame:
    indent: int
    kind: str  # map | seq
    path: Path_
    key: str | None = None
    index: int = -1
    children: list[str] = field(default_factory=list)

    @property
    def child(self) -> Path_:
        if self.kind == "seq":
            return self.path + (max(self.index, 0),)
        return self.path + ((self.key,) if self.key is not None else ())


def cursor_at(text: str, line: int, column: int, *, from_entry: bool = True) -> Cursor:
    """The Cursor at a 0-based line and character column of `text`.

    In a storybook's entries, in dmtool's layout, the lines read are those of the entry
    the cursor is in (and of the one above it), not all those above it: an editor asks for
    every hover and completion, and a cursor half-way down a 10,000-entry book had 60,000
    lines above it (a tenth of a second each time). `from_entry` False reads them all."""
    index = line_index(text)
    if line >= index.count:
        return Cursor("none", (), ())
    start = _entry_start(text, index, line) if from_entry else None
    first, stack = start if start is not None else (0, [_Frame(-1, "map", ())])
    block = _read_lines(index, stack, first, line)
    raw = index.line(line)
    indent = len(raw) - len(raw.lstrip(" "))
    if block is not None and (not raw.strip() or indent > block):
        frame = stack[-1]
        return Cursor("prose", frame.child, frame.path, line=line)
    return _on_line(stack, raw, line, column)


def _read_lines(index: LineIndex, stack: list[_Frame], first: int, stop: int) -> int | None:
    """Update the frames with lines `first` to `stop` (not included); returns the indent
    of the key whose block scalar is open at `stop`, if one is."""
    block: int | None = None  # indent of the key that opened a block scalar
    for number in range(first, stop):
        raw = index.line(number)
        indent = len(raw) - len(raw.lstrip(" "))
        content = _strip_comment(raw.strip())
        if block is not None:
            if not content or indent > block:
                continue
            block = None
        if not content:
            continue
        opened = _read_line(stack, indent, content)
        if opened is not None:
            block = opened
    return block


def _entry_start(text: str, index: LineIndex, line: int) -> tuple[int, list[_Frame]] | None:
    """For a cursor on `line` inside a storybook's entries in dmtool's layout (`entries:`
    at the margin once, each entry's first line `  - `, every other line of those above
    the cursor's entry further in, blank or a comment): the first line of the entry above
    the cursor's line, and the frames that reading every line above it leaves (those of
    the lines before `entries:`, and the entries' list at that entry's index). None
    elsewhere: everything above is read."""
    at = text.find(ENTRIES_LINE)
    if at < 0 or text.find(ENTRIES_LINE, at + 1) >= 0:
        return None
    first = at + len(ENTRIES_LINE)
    here = index.starts[line]
    if here <= first or not text.startswith("  - ", first):
        return None
    entry = text.rfind(ENTRY_LINE, first - 1, here) + 1
    if OUTSIDE_AN_ENTRY.search(text, first - 1, entry) is not None:
        return None
    stack = [_Frame(-1, "map", ())]
    if _read_lines(index, stack, 0, index.line_at(first)) is not None:
        return None
    top = stack[-1]
    if not (top.kind == "map" and top.indent == 0 and top.key == "entries"):
        return None
    above = text.count(ENTRY_LINE, first - 1, entry)  # the entries above this one
    if above:
        stack.append(_Frame(2, "seq", ("entries",), index=above - 1))
    return index.line_at(entry), stack


def _strip_comment(content: str) -> str:
    """The line without an end-of-line comment (a '#' after a blank, outside quotes)."""
    if "#" not in content:
        return content
    quote = None
    for index, char in enumerate(content):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"" and (index == 0 or content[index - 1] in " [{,:"):
            quote = char
        elif char == "#" and (index == 0 or content[index - 1] in " \t"):
            return content[:index].rstrip()
    return content


def _split_key(content: str) -> tuple[str, str] | None:
    """(key, rest) when `content` starts with a mapping key ('key:' or 'key: value')."""
    if ":" not in content:
        return None
    quote = None
    for index, char in enumerate(content):
        if quote:
            if char == quote:
                quote = None
            continue
        if char in "'\"" and index == 0:
            quote = char
        elif char in "{[" and index == 0:
            return None
        elif char == ":" and (index + 1 == len(content) or content[index + 1] in " \t"):
            return content[:index].strip().strip("'\""), content[index + 1:].strip()
    return None


def _pop_to(stack: list[_Frame], indent: int) -> None:
    while len(stack) > 1 and stack[-1].indent > indent:
        stack.pop()


def _read_line(stack: list[_Frame], indent: int, content: str) -> int | None:
    """Update the frames with one line; returns the indent of a block scalar it opens."""
    _pop_to(stack, indent)
    indent, content = _dash_items(stack, indent, content, None)
    split = _split_key(content) if content else None
    if split is None:
        return None
    key, value = split
    top = stack[-1]
    if top.kind == "seq" and top.indent == indent:
        stack.pop()
        top = stack[-1]
    if top.kind == "map" and top.indent == indent:
        top.key = key
        top.children.append(key)
    else:
        stack.append(_Frame(indent, "map", top.child, key=key, children=[key]))
    return indent if _BLOCK_SCALAR.match(value) else None


def _dash_items(stack: list[_Frame], indent: int, content: str,
                column: int | None) -> tuple[int, str]:
    """Enter the list items a line opens (`- `, `- - `); returns where its content starts.

    Stops early (with the rest of the line) when the cursor `column` is on a dash.
    """
    while content.startswith("-") and (len(content) == 1 or content[1] == " "):
        top = stack[-1]
        if top.kind == "seq" and top.indent == indent:
            top.index += 1
        else:
            parent = top.child if top.indent < indent or top.kind == "map" else top.path
            stack.append(_Frame(indent, "seq", parent, index=0))
        rest = content[1:].lstrip(" ")
        indent += len(content) - len(rest)
        content = rest
        if not content or (column is not None and column < indent):
            break
    return indent, content


def _on_line(stack: list[_Frame], raw: str, line: int, column: int) -> Cursor:
    """Place the cursor on its own line, after the lines above have set up the frames."""
    indent = len(raw) - len(raw.lstrip(" "))
    content = _strip_comment(raw[indent:])
    if not content.strip():
        _pop_to(stack, column)
        return _new_key(stack, column, line)
    _pop_to(stack, indent)
    first = indent
    indent, content = _dash_items(stack, indent, content, column)
    if indent != first and (not content or column < indent):
        seq = stack[-1]
        return Cursor("value", seq.child, seq.path, "", line, column, column)
    split = _split_key(content)
    top = stack[-1]
    if split is None:
        # A bare word: a value in a list, or a key being typed in a mapping.
        word_end = indent + len(content.rstrip())
        if top.kind == "seq" and top.indent < indent:
            return _flow_or_scalar(content, indent, column, top.child, top.path, line)
        container = top.path if top.kind == "map" and top.indent == indent else top.child
        return Cursor("key", container + (content.strip(),), container, content.strip(),
                      line, indent, word_end)
    key, value = split
    if top.kind == "seq" and top.indent == indent:
        stack.pop()
        top = stack[-1]
    container = top.path if top.kind == "map" and top.indent == indent else top.child
    key_end = indent + content.index(":")
    if column <= key_end:
        return Cursor("key", container + (key,), container, key, line, indent, key_end)
    value_start = key_end + 1 + (len(content) - content.index(":") - 1 - len(value))
    return _flow_or_scalar(value, value_start, column, container + (key,), container, line)


def _new_key(stack: list[_Frame], column: int, line: int) -> Cursor:
    top = stack[-1]
    container = top.path if top.kind == "map" and top.indent == column else top.child
    if top.kind == "seq" and top.indent == column:
        container = top.path
    return Cursor("key", container, container, "", line, column, column)


def _flow_or_scalar(value: str, start: int, column: int, path: Path_, container: Path_,
                    line: int) -> Cursor:
    if value.startswith(("{", "[")):
        return _in_flow(value, start, column, path, line)
    word = value.strip().strip("'\"")
    return Cursor("value", path, container, word, line, start, start + len(value.rstrip()))


def _in_flow(value: str, start: int, column: int, path: Path_, line: int) -> Cursor:
    """The cursor inside a one-line flow collection such as `{card: x, shard: random}`."""
    # Each level: [path, kind, key or None, index, expecting a key].
    levels: list[list[object]] = []
    index = 0
    while index < len(value):
        char = value[index]
        here = start + index
        if char in "{[":
            parent = _flow_child(levels, path)
            levels.append([parent, "map" if char == "{" else "seq", None, 0, char == "{"])
        elif char in "}]":
            if here >= column and levels:
                break
            if levels:
                levels.pop()
        elif char == ",":
            if here >= column:
                break
            if levels:
                levels[-1][3] = int(levels[-1][3]) + 1  # type: ignore[call-overload]
                levels[-1][4] = levels[-1][1] == "map"
        elif char == ":" and levels and levels[-1][4]:
            levels[-1][4] = False
        elif char not in " \t":
            match = _WORD.match(value, index)
            if match is None:
                match = re.compile(r"'[^']*'|\"[^\"]*\"|.").match(value, index)
            assert match is not None
            word = match.group(0)
            end = start + match.end()
            if levels and levels[-1][4] and levels[-1][1] == "map":
                if here <= column <= end:
                    owner = levels[-1][0]
                    assert isinstance(owner, tuple)
                    return Cursor("key", owner + (word,), owner, word, line, here, end)
                levels[-1][2] = word
            elif here <= column <= end:
                child = _flow_child(levels, path)
                owner = levels[-1][0] if levels else path
                assert isinstance(owner, tuple)
                return Cursor("value", child, owner, word.strip("'\""), line, here, end)
            index = match.end()
            continue
        index += 1
    if not levels:
        return Cursor("value", path, path, "", line, column, column)
    top = levels[-1]
    owner = top[0]
    assert isinstance(owner, tuple)
    if top[4]:
        return Cursor("key", owner, owner, "", line, column, column)
    return Cursor("value", _flow_child(levels, path), owner, "", line, column, column)


def _flow_child(levels: list[list[object]], path: Path_) -> Path_:
    if not levels:
        return path
    owner, kind, key, index, _expect = levels[-1]
    assert isinstance(owner, tuple)
    if kind == "seq":
        assert isinstance(index, int)
        return owner + (index,)
    return owner + ((key,) if isinstance(key, str) else ())
