"""Writing a parsed `Source` back out in the canonical layout (see `dmtool.authoring.fmt`)."""

from __future__ import annotations

from bisect import bisect_left

from dmtool.authoring._scalars import scalar_text
from dmtool.authoring._scan import BLOCK_STYLES, MappingNode, Node, ScalarNode, SequenceNode
from dmtool.authoring._source import Coll, Item, Source
from dmtool.authoring.keyorder import EMPTY, Cursor, KeyOrder

INDENT = 2  # mapping indent; list dashes sit 2 in from their key, items 2 in from the dash
MODELINE_PREFIX = "# yaml-language-server:"


# The source lines an output line carries, as an inclusive range (None: none at all). A
# range is enough: what lies between a line's first and last source line is its own
# content or whole-line comments, never another node's end-of-line comment.
Src = tuple[int, int] | None


class _Line:
    __slots__ = ("src", "text", "verbatim")

    def __init__(self, text: str, src: Src = None, verbatim: bool = False) -> None:
        self.text = text
        self.src = src
        self.verbatim = verbatim  # block scalar content: trailing spaces are data


def emit(source: Source, order: KeyOrder, *, width: int, open_end: bool = False) -> str:
    """The canonical text of `source`; `open_end` says the file had no final line break."""
    return _Emitter(source, order, width, open_end).run()


class _Emitter:
    def __init__(self, source: Source, order: KeyOrder, width: int, open_end: bool) -> None:
        self.source = source
        self.open_end = open_end
        self.order = order
        self.width = width
        self.out: list[_Line] = []
        self._dash: tuple[int, Src] | None = None  # pending "- " for a compact mapping

    def run(self) -> str:
        root = self.source.root
        for text in _header(self.source.header):
            self.out.append(_Line(text))
        if not root.value:
            empty = "{}" if isinstance(root, MappingNode) else "[]"
            self.out.append(_Line(empty, _lines(root)))
        elif isinstance(root, MappingNode):
            self._mapping(root, 0, self.order.root(_kind_of(root)), root=True)
        else:
            self._sequence(root, 0, EMPTY)
        trailer = _collapse(self.source.trailer)
        while trailer and not trailer[-1]:
            trailer.pop()
        self._comments(trailer, 0)
        self._attach_eol()
        return "\n".join(
            line.text if line.verbatim else line.text.rstrip() for line in self.out
        ) + "\n"

    # -- collections ---------------------------------------------------------------

    def _plan(self, coll: Coll, cursor: Cursor, *,
              root: bool = False) -> list[tuple[Item, Cursor]]:
        """A mapping's items in canonical order, each with the cursor for its value."""
        items = coll.items
        keys = tuple([str(item.key.value) for item in items])  # type: ignore[union-attr]
        return [(items[i], child) for i, child in self.order.plan(cursor, keys, root=root)]

    def _mapping(self, node: MappingNode, indent: int, cursor: Cursor, *,
                 root: bool = False) -> None:
        coll = self.source.coll(node)
        for position, (item, child) in enumerate(self._plan(coll, cursor, root=root)):
            if item.leading:
                self._comments(_collapse(item.leading, first=position == 0), indent)
            self._entry(item, indent, child)
        if not root and coll.trailing:
            self._comments(_collapse(coll.trailing), indent)

    def _entry(self, item: Item, indent: int, cursor: Cursor) -> None:
        assert item.key is not None
        head = " " * indent + self._scalar(item.key, flow=False) + ":"
        line = item.key.start_mark.line
        self._value(item, head, (line, line), indent, cursor)

    def _sequence(self, node: SequenceNode, dash: int, cursor: Cursor) -> None:
        coll = self.source.coll(node)
        for position, item in enumerate(coll.items):
            if item.leading:
                self._comments(_collapse(item.leading, first=position == 0), dash)
            dash_line = item.dash_line
            src = (dash_line, dash_line) if dash_line is not None else None
            self._value(item, " " * dash + "-", src, dash, self.order.item(cursor, position))
        if coll.trailing:
            self._comments(_collapse(coll.trailing), dash)

    def _value(self, item: Item, head: str, src: Src, indent: int, cursor: Cursor) -> None:
        """The rest of an entry or list item whose line so far is `head`."""
        value = item.value
        if type(value) is ScalarNode:
            if value.style in BLOCK_STYLES and (
                    value.start_mark.line, value.start_mark.column) in self.source.blocks:
                self._block(item, head, src, indent)
                return
            text = self._scalar(value, flow=False)
            self._emit(head + (" " + text if text else ""), _join(src, _lines(value)))
            return
        inline = self._inline(value, len(head) + 1, cursor)
        if inline is not None:
            self._emit(head + " " + inline, _join(src, _lines(value)))
            return
        if isinstance(value, MappingNode) and item.key is None and self._compact(item, cursor):
            self._dash = (len(head) - 1, src)
            self._mapping(value, indent + INDENT, cursor)
            return
        self._emit(head, src)
        if isinstance(value, MappingNode):
            self._mapping(value, indent + INDENT, cursor)
        else:
            assert isinstance(value, SequenceNode)
            self._sequence(value, indent + INDENT, cursor)

    def _compact(self, item: Item, cursor: Cursor) -> bool:
        """Whether a list item's mapping can start on the dash line (`- key: value`)."""
        first = self._plan(self.source.coll(item.value), cursor)[0][0]
        if any(_collapse(first.leading, first=True)):
            return False
        dash = item.dash_line
        return dash is None or dash == first.line or dash not in self.source.eol

    def _inline(self, node: Node, used: int, cursor: Cursor) -> str | None:
        """A flow collection on one line, if it holds no comments and fits the width."""
        if not isinstance(node, MappingNode | SequenceNode) or not node.flow_style:
            return None
        empty = not node.value
        if not empty and self.source.has_comment_inside(node):
            return None
        if empty:
            return "{}" if isinstance(node, MappingNode) else "[]"
        return self._flow(node, cursor, self.width - used)

    def _flow(self, node: Node, cursor: Cursor, budget: int) -> str | None:
        """`node` in flow style, or None as soon as it is longer than `budget`: a collection
        too wide for one line is given up early, not spelled out whole at every level."""
        if type(node) is ScalarNode:
            text = self._scalar(node, flow=True)
            return text if len(text) <= budget else None
        coll = self.source.coll(node)
        parts: list[str] = []
        left = budget - 2  # the brackets
        if isinstance(node, SequenceNode):
            for index, item in enumerate(coll.items):
                part = self._flow(item.value, self.order.item(cursor, index), left)
                if part is None:
                    return None
                parts.append(part)
                left -= len(part) + 2
            text = "[" + ", ".join(parts) + "]"
            return text if len(text) <= budget else None
        for item, child in self._plan(coll, cursor):
            assert item.key is not None
            key = self._scalar(item.key, flow=True) + ": "
            part = self._flow(item.value, child, left - len(key))
            if part is None:
                return None
            parts.append(key + part)
            left -= len(key) + len(part) + 2
        text = "{" + ", ".join(parts) + "}"
        return text if len(text) <= budget else None

    # -- scalars -------------------------------------------------------------------

    def _scalar(self, node: ScalarNode, *, flow: bool) -> str:
        return scalar_text(node, flow=flow)

    def _block(self, item: Item, head: str, src: Src, indent: int) -> None:
        """A literal or folded block scalar, re-indented line by line from the source."""
        value = item.value
        block = self.source.blocks[(value.start_mark.line, value.start_mark.column)]
        lines = self.source.lines[block.first:block.last + 1]
        source_indent = block.indent
        content = [line[source_indent:] if len(line) > source_indent else "" for line in lines]
        # Without an indicator YAML takes the indentation from the first non-blank line, so
        # one is needed when that line starts with spaces or blank lines before it carry some.
        start = next((i for i, c in enumerate(content) if c.strip()), len(content))
        first_text = content[start] if start < len(content) else ""
        needs_indicator = first_text.startswith(" ") or any(content[:start])
        chomp = "".join(ch for ch in block.header if ch in "+-")
        if (self.open_end and chomp != "-" and block.last == len(self.source.lines) - 2
                and lines and lines[-1].strip()):
            # The file ended inside this scalar with no line break, so its value has none;
            # the output ends with one, which only '-' (strip) keeps out of the value.
            chomp = "-"
        header = block.header[0] + (str(INDENT) if needs_indicator else "") + chomp
        start_line = value.start_mark.line
        self._emit(head + " " + header, _join(src, (start_line, start_line)))
        pad = " " * (indent + INDENT)
        for text in content:
            self.out.append(_Line(pad + text if text else "", verbatim=True))

    # -- lines and comments --------------------------------------------------------

    def _emit(self, text: str, src: Src) -> None:
        if self._dash is not None:
            column, dash_src = self._dash
            self._dash = None
            text = text[:column] + "- " + text[column + 2:]
            src = _join(src, dash_src)
        self.out.append(_Line(text, src))

    def _comments(self, lines: list[str], indent: int) -> None:
        for text in lines:
            self.out.append(_Line(" " * indent + text if text else ""))

    def _attach_eol(self) -> None:
        """Each end-of-line comment goes to the output line that carries its source line."""
        if not self.source.eol:
            return
        first: dict[int, int] = {}
        for index, line in enumerate(self.out):
            if line.src is not None:
                for number in range(line.src[0], line.src[1] + 1):
                    first.setdefault(number, index)
        known = sorted(first)
        for number, comment in sorted(self.source.eol.items()):
            target = first.get(number)
            if target is None and known:
                earlier = bisect_left(known, number)  # the nearest carried line before it
                target = first[known[earlier - 1]] if earlier else first[known[0]]
            if target is None:  # nothing carries source lines: keep it on a line of its own
                self.out.append(_Line(comment))
                continue
            line = self.out[target]
            line.text = line.text.rstrip() + "  " + comment


def _kind_of(root: MappingNode) -> object:
    for key, value in root.value:
        if isinstance(key, ScalarNode) and key.value == "kind" and isinstance(value, ScalarNode):
            return value.value
    return None


def _lines(node: Node) -> Src:
    return (node.start_mark.line, node.end_mark.line)


def _join(a: Src, b: Src) -> Src:
    if a is None or b is None:
        return a if b is None else b
    return (a[0] if a[0] < b[0] else b[0], a[1] if a[1] > b[1] else b[1])


def _collapse(lines: list[str] | None, *, first: bool = False) -> list[str]:
    """At most one blank line in a row; none at the start of a block."""
    if not lines:
        return []
    out: list[str] = []
    for text in lines:
        if not text and ((not out and first) or (out and not out[-1])):
            continue
        out.append(text)
    return out


def _header(lines: list[str]) -> list[str]:
    """The file's opening comments, with the schema modeline moved to the first line."""
    header = _collapse(lines, first=True)
    modelines = [text for text in header if text.startswith(MODELINE_PREFIX)]
    if modelines:
        header.remove(modelines[0])
        header = _collapse([modelines[0], *header], first=True)
    return header
