"""Helpers shared by the reporters: counting what is shown, catalogue look-ups, text hygiene."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dmtool.diagnostics import CodeInfo, Diagnostic, Severity, catalogue

# Bidirectional controls can make a line read differently from what it holds ("trojan
# source"), so reporters spell them out instead of passing them through.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@dataclass(frozen=True, slots=True)
class Summary:
    """How many diagnostics of each severity a report shows, and how many files it covers."""

    errors: int
    warnings: int
    infos: int
    files: int

    @property
    def total(self) -> int:
        return self.errors + self.warnings + self.infos


def summarize(diagnostics: Sequence[Diagnostic], *, files: int) -> Summary:
    """Count the diagnostics actually rendered, so the summary agrees with the listing."""
    counts = dict.fromkeys(Severity, 0)
    for d in diagnostics:
        counts[d.severity] += 1
    return Summary(counts[Severity.ERROR], counts[Severity.WARNING], counts[Severity.INFO], files)


def code_info(code: str) -> CodeInfo | None:
    return catalogue().get(code)


def code_url(template: str | None, code: str) -> str | None:
    """The documentation address of a code from a template with {code} and {name} fields."""
    if not template:
        return None
    info = code_info(code)
    # Plain replacement rather than str.format: a URL may contain other braces.
    return template.replace("{code}", code).replace("{name}", info.name if info else "")


def visible_char(ch: str) -> str:
    """A printable stand-in for a character a terminal would act on instead of show."""
    point = ord(ch)
    if point < 0x20:
        return chr(0x2400 + point)  # the Unicode "control pictures" block: ␛, ␀, ...
    if point == 0x7F:
        return "\u2421"
    if 0x80 <= point < 0xA0 or 0xD800 <= point < 0xE000:
        return "\ufffd"  # C1 controls and lone surrogates cannot be shown or encoded safely
    if ch in _BIDI:
        return f"<U+{point:04X}>"
    return ch


def clean_text(text: str, *, keep_newlines: bool = True) -> str:
    """Text with control characters made visible; tabs (and newlines if asked) kept."""
    text = text.replace("\r\n", "\n")
    if text.isprintable():
        return text
    keep = "\t\n" if keep_newlines else "\t"
    return "".join(ch if ch in keep else visible_char(ch) for ch in text)


def char_width(text: str) -> int:
    """Terminal columns taken by already-visible text (wide East Asian characters count 2)."""
    if text.isascii():
        return len(text)
    # Imported here, not at the top: only an excerpt of a finding's non-ASCII line needs
    # it, and a clean one-file check (P3) then never imports it
    # (tests/test_one_file_imports.py).
    import unicodedata

    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
