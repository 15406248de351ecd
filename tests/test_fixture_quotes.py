"""Every Deep Madness fixture quotes, in its comments, the rulebook sentences it proves, and
every sentence a fixture quotes (in a comment, a note or a description) is in the rulebook
text: an expectation comes from the rulebook, so the words it rests on must be the book's.

Quotes are compared with whitespace collapsed and a word hyphenated across a comment's line
break joined again; `[...]` marks words left out. A quote that itself holds quotation marks
is written between typographic quotes (“...”), any other between straight ones.

The rulebooks are found as tests/rulebook_support.py says (the shared folder beside the
repository or above it); a fresh clone without them skips the tests that read them.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from tests.rulebook_support import find_rulebooks

RULEBOOKS = find_rulebooks() or Path(__file__).resolve().parents[2] / "shared" / "rulebooks"
FIXTURES = Path(__file__).parent / "scenarios" / "deep-madness"
PATHS = sorted(p for p in FIXTURES.rglob("*.yaml")
               if YAML(typ="safe", pure=True).load(p.read_text(encoding="utf-8")).get("kind")
               == "scenario")

needs_rulebooks = pytest.mark.skipif(not RULEBOOKS.is_dir(),
                                     reason=f"no rulebooks at {RULEBOOKS}")

_CURLY = re.compile(r"“(.+?)”", re.S)
_STRAIGHT = re.compile(r'(?<![\w"])"([^"]+?)"(?![\w])', re.S)
_ELLIPSIS = re.compile(r"\s*\[\.\.\.\]\s*")


def normalise(text: str) -> str:
    """Whitespace collapsed, typographic apostrophes straightened, and a word hyphenated
    across a line break ("non-" / "infected") joined again."""
    text = text.replace("’", "'").replace("‘", "'")
    text = re.sub(r"\s+", " ", text).strip()
    return re.sub(r"(\w)- (\w)", r"\1-\2", text)


def quotes(text: str) -> list[str]:
    """The quoted passages of a comment or note: typographic quotes first (they may hold
    straight ones), then straight double quotes."""
    found = [m.group(1) for m in _CURLY.finditer(text)]
    rest = _CURLY.sub(" ", text)
    return found + [m.group(1) for m in _STRAIGHT.finditer(rest)]


def pieces(quote: str) -> list[str]:
    """The parts of a quote on either side of each `[...]`, normalised."""
    return [normalise(p) for p in _ELLIPSIS.split(quote) if normalise(p)]


def comments(path: Path) -> str:
    return comment_text(path.read_text(encoding="utf-8"))


def comment_text(source: str) -> str:
    """A YAML file's whole-line comments, joined (the schema line left out)."""
    lines = [line.strip()[1:].strip() for line in source.splitlines()
             if line.strip().startswith("#") and "yaml-language-server" not in line]
    return "\n".join(lines)


def _notes(data: Any) -> list[str]:
    """Every note and description of the fixture, at any depth."""
    if isinstance(data, dict):
        own = [v for k, v in data.items() if k in ("note", "description") and isinstance(v, str)]
        return own + [n for v in data.values() for n in _notes(v)]
    if isinstance(data, list):
        return [n for v in data for n in _notes(v)]
    return []


def _rulebook_text() -> str:
    return normalise("\n".join(p.read_text(encoding="utf-8")
                               for p in sorted(RULEBOOKS.glob("*.txt"))))


def _missing(text: str, book: str) -> list[str]:
    return [piece for quote in quotes(text) for piece in pieces(quote) if piece not in book]


def test_there_are_fixtures_to_check() -> None:
    assert len(PATHS) >= 65


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_a_fixture_quotes_a_rulebook_sentence_in_its_comments(path: Path) -> None:
    sentences = [q for q in quotes(comments(path)) if len(normalise(q).split()) >= 4]
    assert sentences, f"{path.name} quotes no rulebook sentence in its comments"


@needs_rulebooks
@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_every_quote_of_a_fixture_is_in_the_rulebooks(path: Path) -> None:
    book = _rulebook_text()
    data = YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))
    missing = _missing(comments(path), book) + [
        piece for note in _notes(data) for piece in _missing(note, book)]
    assert not missing, f"{path.name} quotes words the rulebooks do not print: {missing}"


@needs_rulebooks
def test_a_quote_the_rulebooks_do_not_print_is_found_out() -> None:
    book = _rulebook_text()
    wrapped = comment_text('# Rulebook: "Only monsters can\n#  wound her, and non-\n#  infected '
                           'ones least of all."\nkind: scenario\n')
    assert _missing(wrapped, book) == [
        "Only monsters can wound her, and non-infected ones least of all."]
    printed = ('"At the end of a non-\n  infected investigator\'s activation, he/she gains a '
               'filth card [...] in the same space."')
    assert _missing(printed, book) == []


def test_quotes_holding_quotes_and_left_out_words() -> None:
    text = 'a “"Spawn X Wakened Tentacles" on the card” and "Penitent Sorrow dies." too'
    assert quotes(text) == ['"Spawn X Wakened Tentacles" on the card', "Penitent Sorrow dies."]
    assert pieces("one two [...] three\n four") == ["one two", "three four"]
