"""Writing a parsed `Source` back out in the canonical layout (see `dmtool.authoring.fmt`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ruamel.yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from dmtool.authoring._scalars import scalar_text
from dmtool.authoring._scan import BLOCK_STYLES
from dmtool.authoring._source import Coll, Item, Source
from dmtool.authoring.keyorder import Cursor, KeyOrder

INDENT = 2  # mapping indent; list dashes sit 2 in from their key, items 2 in from the dash
MODELINE_PREFIX = "# yaml-language-server:"


@dataclass
class _Line:
    text: str
    src: set[int] = field(default_factory=set)
    verbatim: bool = False  # block scalar content: trailing spaces are data


def emit(source: Source, order: KeyOrder, *, width: int) -> str:
    """The canonical text of `source`."""
    return _Emitter(source, order, width).run()


class _Emitter:
    def __init__(self, source: Source, order: KeyOrder, width: int) -> None:
        self.source = source
        self.order = order
        self.width = width
        self.out: list[_Line] = []
        self._dash: tuple[int, set[int]] | None = None  # pending "- " for a compact mapping

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
            self._sequence(root, 0, Cursor())
        trailer = _collapse(self.source.trailer)
        while trailer and not trailer[-1]:
            trailer.pop()
        self._comments(trailer, 0)
        self._attach_eol()
        return "\n".join(
            line.text if line.verbatim else line.text.rstrip() for line in self.out
        ) + "\n"

    # -- collections ---------------------------------------------------------------

    def _ordered(self, coll: Coll, cursor: Cursor, *, root: bool = False) -> list[Item]:
        if isinstance(coll.node, SequenceNode):
            return list(coll.items)
        keys = [_key_name(item) for item in coll.items]
        return [coll.items[i] for i in self.order.order(cursor, keys, root=root)]

    def _mapping(self, node: MappingNode, indent: int, cursor: Cursor, *,
                 root: bool = False) -> None:
        coll = self.source.coll(node)
        keys = [_key_name(item) for item in coll.items]
        for position, item in enumerate(self._ordered(coll, cursor, root=root)):
            self._comments(_collapse(item.leading, first=position == 0), indent)
            self._entry(item, indent, self.order.child(cursor, _key_name(item), keys))
        if not root:
            self._comments(_collapse(coll.trailing), indent)

    def _entry(self, item: Item, indent: int, cursor: Cursor) -> None:
        assert item.key is not None
        head = " " * indent + self._scalar(item.key, flow=False) + ":"
        src = {item.key.start_mark.line}
        self._value(item, head, src, indent, cursor)

    def _sequence(self, node: SequenceNode, dash: int, cursor: Cursor) -> None:
        coll = self.source.coll(node)
        for position, item in enumerate(coll.items):
            self._comments(_collapse(item.leading, first=position == 0), dash)
            src = {item.dash_line} if item.dash_line is not None else set()
            self._value(item, " " * dash + "-", src, dash, self.order.item(cursor, position))
        self._comments(_collapse(coll.trailing), dash)

    def _value(self, item: Item, head: str, src: set[int], indent: int, cursor: Cursor) -> None:
        """The rest of an entry or list item whose line so far is `head`."""
        value = item.value
        if isinstance(value, ScalarNode):
            block = self.source.blocks.get((value.start_mark.line, value.start_mark.column))
            if value.style in BLOCK_STYLES and block is not None:
                self._block(item, head, src, indent)
                return
            text = self._scalar(value, flow=False)
            self._emit(head + (" " + text if text else ""), src | _lines(value))
            return
        inline = self._inline(value, len(head) + 1, cursor)
        if inline is not None:
            self._emit(head + " " + inline, src | _lines(value))
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
        first = self._ordered(self.source.coll(item.value), cursor)[0]
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
        text = self._flow(node, cursor)
        return text if empty or used + len(text) <= self.width else None

    def _flow(self, node: Node, cursor: Cursor) -> str:
        if isinstance(node, ScalarNode):
            return self._scalar(node, flow=True)
        coll = self.source.coll(node)
        if isinstance(node, SequenceNode):
            parts = [self._flow(item.value, self.order.item(cursor, i))
                     for i, item in enumerate(coll.items)]
            return "[" + ", ".join(parts) + "]"
        keys = [_key_name(item) for item in coll.items]
        parts = []
        for item in self._ordered(coll, cursor):
            assert item.key is not None
            child = self.order.child(cursor, _key_name(item), keys)
            parts.append(self._scalar(item.key, flow=True) + ": " + self._flow(item.value, child))
        return "{" + ", ".join(parts) + "}"

    # -- scalars -------------------------------------------------------------------

    def _scalar(self, node: ScalarNode, *, flow: bool) -> str:
        return scalar_text(node, flow=flow)

    def _block(self, item: Item, head: str, src: set[int], indent: int) -> None:
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
        header = block.header[0] + (str(INDENT) if needs_indicator else "") + chomp
        self._emit(head + " " + header, src | {value.start_mark.line})
        pad = " " * (indent + INDENT)
        for text in content:
            self.out.append(_Line(pad + text if text else "", verbatim=True))

    # -- lines and comments --------------------------------------------------------

    def _emit(self, text: str, src: set[int]) -> None:
        if self._dash is not None:
            column, dash_src = self._dash
            self._dash = None
            text = text[:column] + "- " + text[column + 2:]
            src = src | dash_src
        self.out.append(_Line(text, src))

    def _comments(self, lines: list[str], indent: int) -> None:
        for text in lines:
            self.out.append(_Line(" " * indent + text if text else ""))

    def _attach_eol(self) -> None:
        """Each end-of-line comment goes to the output line that carries its source line."""
        first: dict[int, int] = {}
        for index, line in enumerate(self.out):
            for number in line.src:
                first.setdefault(number, index)
        known = sorted(first)
        for number, comment in sorted(self.source.eol.items()):
            target = first.get(number)
            if target is None and known:
                earlier = [n for n in known if n < number]
                target = first[earlier[-1]] if earlier else first[known[0]]
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


def _key_name(item: Item) -> str:
    assert item.key is not None
    return str(item.key.value)


def _lines(node: Node) -> set[int]:
    return set(range(node.start_mark.line, node.end_mark.line + 1))


def _collapse(lines: list[str], *, first: bool = False) -> list[str]:
    """At most one blank line in a row; none at the start of a block."""
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
