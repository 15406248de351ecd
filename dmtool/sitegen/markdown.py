"""Turning untrusted authored text into inert Markdown: escaping, tables, code blocks.

Authored text never reaches MkDocs as raw HTML or as a link. `plain` makes a string
Markdown-inert (every punctuation mark that Python-Markdown treats specially is escaped);
`prose` keeps emphasis and paragraphs but escapes HTML, link and attribute syntax.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable, Sequence

# Characters Python-Markdown (with the tables extension) unescapes after a backslash.
_MARKDOWN_PUNCTUATION = re.compile(r"([\\`*_{}\[\]()#+\-.!|~])")
# In prose, emphasis and code stay; only what builds links, images or attributes goes.
_PROSE_PUNCTUATION = re.compile(r"([\\\[\]{}|])")
_BACKTICKS = re.compile(r"`+")
# A code span: Markdown escapes its content itself, so it is left as written (escaping it
# here too showed '&lt;' for '<').
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# "entry 300" in prose, outside code spans and links (`link_entries`).
_ENTRY_WORDS = re.compile(r"(?<![\[\w])(entry) (\d+)\b(?!\]|`)", re.IGNORECASE)


# A line Markdown would read as a block of its own (issue 33): a heading, an admonition or
# details block, a definition, a setext underline or rule, a code fence. Its first mark is
# written as a character reference, which Markdown shows but does not read as syntax.
_BLOCK_START = re.compile(r"^(#|!!!|\?\?\?|:|[=\-*_](?:[ \t]*[=\-*_])*[ \t]*$|```|~~~)")
_REFERENCE = {c: f"&#{ord(c)};" for c in "#!?:=-*_`~"}


def _html(text: str) -> str:
    """Angle brackets and ampersands as entities, so no tag and no entity trick survives."""
    return html.escape(text, quote=False)


def one_line(text: str) -> str:
    """Collapse hard-wrapped prose into one line (paragraph breaks become a space too)."""
    return " ".join(text.split())


def plain(value: object) -> str:
    """Any authored scalar as Markdown-inert inline text on one line."""
    text = _scalar(value)
    return _MARKDOWN_PUNCTUATION.sub(r"\\\1", _html(one_line(text)))


def prose(value: object) -> str:
    """Authored prose as Markdown paragraphs: emphasis kept, HTML and links shown as text."""
    text = _scalar(value).strip("\n")
    lines = []
    for line in text.splitlines():
        escaped = _prose_line(line.rstrip())
        bare = escaped.lstrip(" \t")
        if _BLOCK_START.match(bare):  # the mark shown as a character, the line as prose
            escaped = escaped[:len(escaped) - len(bare)] + _REFERENCE[bare[0]] + bare[1:]
        # An indented line would become a code block and a leading '>' is already an entity;
        # four spaces of authored indentation are dropped so prose stays prose.
        lines.append(escaped.lstrip(" \t") if line.startswith(("    ", "\t")) else escaped)
    return "\n".join(lines)


def _prose_line(line: str) -> str:
    """One line of prose escaped, its code spans as written."""
    out, at = [], 0
    for span in _CODE_SPAN.finditer(line):
        out.append(_PROSE_PUNCTUATION.sub(r"\\\1", _html(line[at:span.start()])))
        out.append(span.group())
        at = span.end()
    out.append(_PROSE_PUNCTUATION.sub(r"\\\1", _html(line[at:])))
    return "".join(out)


def link_entries(text: str, target: Callable[[int], str | None]) -> str:
    """Escaped prose with every "entry N" a link where `target` knows entry N (code spans
    are left alone)."""
    def one(found: re.Match[str]) -> str:
        url = target(int(found.group(2)))
        return f"[{found.group(1)} {found.group(2)}]({url})" if url else found.group()

    out, at = [], 0
    for span in _CODE_SPAN.finditer(text):
        out += [_ENTRY_WORDS.sub(one, text[at:span.start()]), span.group()]
        at = span.end()
    out.append(_ENTRY_WORDS.sub(one, text[at:]))
    return "".join(out)


def inline_prose(value: object) -> str:
    """Prose squeezed onto one line, for list items and table cells."""
    return " ".join(prose(value).split())


def code_block(text: str, *, language: str = "yaml") -> str:
    """A fenced block; the fence outgrows any backtick run inside, so it cannot be closed early."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text.rstrip()}\n{fence}"


def table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """A Markdown table; cells must already be escaped (`plain` escapes the pipe)."""
    body = [f"| {' | '.join(headers)} |", f"|{'|'.join('---' for _ in headers)}|"]
    body += [f"| {' | '.join(cell or ' ' for cell in row)} |" for row in rows]
    return "\n".join(body)


def label(key: str) -> str:
    """A data key as a human label: 'max_health' -> 'Max health'."""
    words = key.replace("_", " ").replace("-", " ").strip()
    return plain(words[:1].upper() + words[1:])


def slug(value: object) -> str:
    """A safe file or anchor name from an id: lower-case letters, digits and dashes only."""
    cleaned = re.sub(r"[^a-z0-9]+", "-", str(value).lower()).strip("-")
    return cleaned or "page"


def _scalar(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def anchored(value: object, anchor: str) -> str:
    """Bold words carrying an anchor of our own (attr_list), linkable from anywhere."""
    return f"**{plain(value)}**{{#{slug(anchor)}}}"
