"""Prose the site will show literally: raw HTML (DM501) and links (DM502) in authored text.

Prose is Markdown without raw HTML. The site escapes such text anyway (and sanitises its
HTML); these diagnostics tell the author, at `dmtool check` time, that what they wrote will
not look the way they may have meant. `dmtool site` prints the same report.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.loading import SourceDocument
from dmtool.validation.cache import are_packed, pack, unpack
from dmtool.validation.corpus import Corpus

# A start or end tag, a comment or a declaration: '<b>', '</p>', '<img src=x onerror=...>'.
_RAW_HTML = re.compile(r"<(?:/?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?|!--.*?--|![A-Za-z][^<>]*)>",
                       re.DOTALL)
# Markdown links and images '[x](y)', autolinks '<scheme:...>' and link definitions '[x]: y'.
_LINK = re.compile(
    r"!?\[[^\]\n]*\]\([^)\n]*\)|<[A-Za-z][A-Za-z0-9+.-]*:[^<>\s]*>|^[ ]{0,3}\[[^\]\n]+\]:[ \t]*\S",
    re.MULTILINE,
)
_SHOWN = 40  # characters of the offending text quoted in a message
MEMO = "prose:1"
# Raw HTML needs '<' and a link '](' or ']:' in some string, so in the file's text too,
# unless an escape ('\\x3c', a line continuation) or a line break builds it.
_MARKS = ("<", "](", "]:", "\\", "]\n")
# What each finding looks for, what it calls it, and what the author should do instead.
_FINDINGS = (
    ("DM501", _RAW_HTML, "raw HTML", "which the site shows as literal text; write it plainly "
     "or use Markdown emphasis such as *word*"),
    ("DM502", _LINK, "a link or image", "which the site shows as literal text and never as a "
     "link; name the place in words instead"),
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
    if not _has_marks(document.text):  # once: a large file's text is read from disk each time
        return []  # neither raw HTML nor a link can be in its strings: no walk needed
    found: list[Diagnostic] = []
    for parts, text in _strings(document.data, ()):
        for code, pattern, what, advice in _FINDINGS:
            match = pattern.search(text)
            if match is not None:
                found.append(diagnose(
                    code, document.locate(parts),
                    f"this text contains {what} ({_quote(match.group())}), {advice}",
                ))
    return found


def _has_marks(text: str) -> bool:
    return any(mark in text for mark in _MARKS)


def _strings(value: Any, parts: Parts) -> Iterator[tuple[Parts, str]]:
    """Every string value with its path, in document order (keys are ids, not prose)."""
    if isinstance(value, str):
        yield parts, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, (*parts, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _strings(item, (*parts, index))


def _quote(text: str) -> str:
    shown = " ".join(text.split())
    return f"'{shown[:_SHOWN]}...'" if len(shown) > _SHOWN else f"'{shown}'"
