"""Prose the site will show literally: raw HTML (DM501), links (DM502) and Markdown block
syntax (DM503: headings, admonitions, definitions) in authored text.

Prose is Markdown without raw HTML. The site escapes such text anyway (and sanitises its
HTML); these diagnostics tell the author, at `dmtool check` time, that what they wrote will
not look the way they may have meant. `dmtool site` prints the same report.
"""

from __future__ import annotations

import re
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.loading import SourceDocument
from dmtool.patterns import lazy
from dmtool.validation.cache import are_packed, pack, unpack
from dmtool.validation.corpus import Corpus

# A start or end tag, a comment or a declaration: '<b>', '</p>', '<img src=x onerror=...>'.
_RAW_HTML = lazy(r"<(?:/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?|!--.*?--|![A-Za-z][^<>]*)>",
                       re.DOTALL)
# Markdown links and images '[x](y)', autolinks '<scheme:...>' and link definitions '[x]: y'.
_LINK = lazy(
    r"!?\[[^\]\n]*\]\([^)\n]*\)|<[A-Za-z][A-Za-z0-9+.-]*:[^<>\s]*>|^[ ]{0,3}\[[^\]\n]+\]:[ \t]*\S",
    re.MULTILINE,
)
# A line Markdown would read as a block of its own: a heading ('#', with or without a
# space, as Python-Markdown reads it), an admonition or details block ('!!!', '???'), or a
# definition (': words' under a line). Raw HTML blocks are DM501's.
_BLOCK = lazy(r"^(?:#{1,6}|!!!|\?\?\?\+?[ \t]|[ ]{0,3}:[ \t]+\S)", re.MULTILINE)
# The same marks where a string's line can start in the file: an indented line (a block
# scalar's; a comment at the margin is never text) or a quoted value. A file without any
# has no string that can match (an indented comment may, and the file is walked).
_BLOCK_SOURCE = re.compile(r"(?m)^[ \t]+(?:#|!!!|\?\?\?|:[ \t])"
                           r"|[:-][ \t]+[\"']?(?:!!!|\?\?\?)|[:-][ \t]+[\"'](?:#|:[ \t])")
_SHOWN = 40  # characters of the offending text quoted in a message
MEMO = "prose:1"
# What a string must hold for either pattern to match it: raw HTML needs '<'; a link
# '](' (Markdown), '<' (autolink) or ']:' (definition). None of these is ever built by
# YAML from other characters but by an escape ('\\x3c', an escaped line break): line
# folding turns a line break into a space or keeps it, never into nothing. So a file
# whose text holds none of the marks nor a backslash has no string that can match.
_NEEDED = ("<", "](", "]:")
# The same for a whole text, or a backslash: a regular expression led by ']' finds the
# two-character marks faster than `in` does (hot path: run on every file's text).
_BRACKET_MARK = re.compile(r"\][(:]")
# What each finding looks for, what it calls it, and what the author should do instead.
_FINDINGS = (
    ("DM501", _RAW_HTML, "raw HTML", "which the site shows as literal text; write it plainly "
     "or use Markdown emphasis such as *word*"),
    ("DM502", _LINK, "a link or image", "which the site shows as literal text and never as a "
     "link; name the place in words instead"),
    ("DM503", _BLOCK, "a line Markdown reads as a heading, an admonition or a definition",
     "which the site shows as a plain sentence; start the line with words"),
)

Parts = tuple[str | int, ...]


def check(corpus: Corpus) -> list[Diagnostic]:
    return prose_diagnostics(corpus.documents)


def prose_diagnostics(documents: list[SourceDocument]) -> list[Diagnostic]:
    """One diagnostic per string field holding raw HTML, and one per field holding a link.

    The findings of one document depend on it alone: they are remembered with it (in the
    check cache too), so an unchanged storybook's prose is not read again.
    """
    found: list[Diagnostic] = []
    for document in documents:
        found.extend(unpack(d) for d in document.memo(MEMO, _packed, are_packed))
    return found


def remember(document: SourceDocument) -> None:
    """The document's findings, memoised (see rules/__init__.py)."""
    document.memo(MEMO, _packed, are_packed)


def _packed(document: SourceDocument) -> tuple[tuple[Any, ...], ...]:
    return tuple(pack(d) for d in _document_prose(document))


def _document_prose(document: SourceDocument) -> list[Diagnostic]:
    source = document.text  # once: a large file's text is read from disk each time
    if ("<" not in source and "\\" not in source and _BRACKET_MARK.search(source) is None
            and _BLOCK_SOURCE.search(source) is None):
        return []  # neither raw HTML, a link nor a block can be in its strings: no walk
    found: list[Diagnostic] = []
    for parts, code, message in _findings_of(document):
        found.append(diagnose(code, document.locate(parts), message))
    return found


Finding = tuple[Parts, str, str]
# The findings inside each entry of the book a session read last, by the entry's data
# (kept with it, so its id stays its own): an edit of a long book keeps the entries it
# did not touch (loading/splice.py), whose prose is not searched again. A 10,000-entry
# book's every string was walked and searched for each version typed.
# Only books that were edited are kept (a one-shot check lets go of its books' data).
_BY_ENTRY: dict[str, dict[int, tuple[Any, list[Finding]]]] = {}
_BOOKS_KEPT = 2


def _findings_of(document: SourceDocument) -> list[Finding]:
    """Each finding's path, code and message, in the order a walk of the whole data
    finds them (the data's key order; the entries' where their key stands)."""
    data = document.data
    entries = data.get("entries") if data.__class__ is dict else None
    if entries.__class__ is not list:
        return _searched(_candidates(data))
    found: list[Finding] = []
    for key, value in data.items():
        if key != "entries":
            found.extend(_searched(_candidates({key: value})))
            continue
        before = _BY_ENTRY.pop(document.display, {})
        now: dict[int, tuple[Any, list[Finding]]] = {}
        for index, entry in enumerate(entries):
            known = before.get(id(entry))
            if known is None or known[0] is not entry:
                known = (entry, _searched(_candidates(entry)))
            now[id(entry)] = known
            found.extend((("entries", index, *parts), code, message)
                         for parts, code, message in known[1])
        if document.edit is not None or before:  # a book being edited (not a one-shot check's)
            _BY_ENTRY[document.display] = now
        while len(_BY_ENTRY) > _BOOKS_KEPT:
            del _BY_ENTRY[next(iter(_BY_ENTRY))]
    return found


def _searched(candidates: list[tuple[Parts, str]]) -> list[Finding]:
    found: list[Finding] = []
    for parts, text in candidates:
        for code, pattern, what, advice in _FINDINGS:
            match = pattern.search(text)
            if match is not None:
                found.append((parts, code, f"this text contains {what} ({_quote(match.group())}), {advice}"))
    return found


def _candidates(data: Any) -> list[tuple[Parts, str]]:
    """Every string value that holds one of _NEEDED, with its path, in document order
    (keys are ids, not prose). Only these can match a pattern: the others are never
    searched (hot path: a storybook holds tens of thousands of strings)."""
    found: list[tuple[Parts, str]] = []
    if isinstance(data, str):
        if _may_match(data) or _may_block(data):
            found.append(((), data))
    elif isinstance(data, (dict, list)):
        _collect(data, (), found)
    return found


def _collect(container: dict[str, Any] | list[Any], parts: Parts,
             found: list[tuple[Parts, str]]) -> None:
    items = container.items() if isinstance(container, dict) else enumerate(container)
    for key, item in items:
        if isinstance(item, str):
            if "<" in item or "](" in item or "]:" in item or (  # _may_match, inlined
                    item[:1] in _BLOCK_FIRST or "\n" in item):
                found.append(((*parts, key), item))
        elif isinstance(item, (dict, list)):
            _collect(item, (*parts, key), found)


def _may_match(text: str) -> bool:
    return any(mark in text for mark in _NEEDED)


# What a one-line string must start with for _BLOCK to match it (a longer one may match
# after any line break).
_BLOCK_FIRST = frozenset("#!?: ")


def _may_block(text: str) -> bool:
    return text[:1] in _BLOCK_FIRST or "\n" in text


def _quote(text: str) -> str:
    shown = " ".join(text.split())
    return f"'{shown[:_SHOWN]}...'" if len(shown) > _SHOWN else f"'{shown}'"
