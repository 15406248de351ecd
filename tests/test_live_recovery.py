"""Half-typed YAML in a long storybook: the edited entries' lines alone are parsed, the
error stands at the bracket left open, and the last good data stands for the rest."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.corpus import story_entries
from dmtool.loading import document, load_text
from dmtool.validation.session import CheckSession

HEAD = "kind: storybook\nid: the-long-road\nwanderer: someone\ntitle: The Long Road\nentries:\n"
BOOK = HEAD + story_entries(count=60, seed=3, first=1)
ANCHOR = "      - gain_existence: 1\n      - goto: 6\n"


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every text the YAML parser is given (the fast path aside)."""
    lengths: list[int] = []
    build = document._build

    def spy(parsed: str, display: str):  # type: ignore[no-untyped-def]
        lengths.append(len(parsed))
        return build(parsed, display)

    monkeypatch.setattr(document, "_build", spy)
    return lengths


def _typed(prefix: str) -> str:
    """The book with `prefix` typed on a new line above entry 5's `goto`."""
    at = BOOK.index(ANCHOR) + len("      - gain_existence: 1\n")
    return BOOK[:at] + prefix + "\n" + BOOK[at:]


def test_an_unclosed_bracket_is_found_in_the_edited_entry_alone(parsed):
    good = load_text(BOOK).document
    assert good is not None and good.fast_path
    broken = _typed("      - spawn_terror: {terror: random")
    result = load_text(broken, previous=good)
    assert result.document is None
    (error,) = result.diagnostics
    line = broken[:broken.index("{terror")].count("\n") + 1
    assert (error.code, error.location.line, error.location.column) == ("DM001", line, 23)
    assert "never closed" in error.message
    assert result.recovered is good  # its data stands for the text's
    assert parsed and max(parsed) < len(broken) / 10  # never the whole book


def test_typing_on_in_a_broken_entry_parses_only_that_entry(tmp_path: Path, parsed):
    path = tmp_path / "storybook.yaml"
    session = CheckSession()
    session.update(path, BOOK)
    effect = "      - spawn_terror: {terror: random, count: 1}"
    for end in range(len("      - spawn_terror: {"), len(effect)):
        session.update(path, _typed(effect[:end]))
        found = session.files[path].result.diagnostics
        assert [d.code for d in found] == ["DM001"], effect[:end]
        assert session.files[path].result.document is not None  # the corpus still has it
    assert parsed and max(parsed) < len(BOOK) / 10
    session.update(path, _typed(effect))  # closed: the book loads as a whole parse would
    loaded = session.files[path].result.document
    assert loaded is not None
    assert loaded.data == load_text(_typed(effect)).document.data
