"""Half-typed YAML in a long storybook: the edited entries' lines alone are parsed, the
error stands at the bracket left open, and the last good data stands for the rest."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bench.corpus import story_entries
from dmtool.loading import document, load_text
from dmtool.validation.schemas import SchemaSet, default_schema_dir
from dmtool.validation.session import CheckSession
from tests.lsp_support import REPO, STORYBOOK

HEAD = "kind: storybook\nid: the-long-road\nwanderer: someone\ntitle: The Long Road\nentries:\n"
BOOK = HEAD + story_entries(count=60, seed=3, first=1)
ANCHOR = "      - gain_existence: 1\n      - goto: 6\n"


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every text the YAML parser is given (the fast path aside)."""
    lengths: list[int] = []
    build = document._build

    def spy(parsed: str, display: str, *rest: Any):  # type: ignore[no-untyped-def]
        lengths.append(len(parsed))
        return build(parsed, display, *rest)

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


def _paths(node: object, parts: tuple[str | int, ...]) -> list[tuple[str | int, ...]]:
    found = [parts]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*parts, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*parts, index))
    return found


def test_a_place_inside_an_entry_is_located_from_that_entry_alone(monkeypatch):
    fast = load_text(BOOK).document
    assert fast is not None and fast.fast_path
    whole = document.SourceDocument(Path("b.yaml"), "<text>", BOOK, fast.data)
    built: list[int] = []
    build = document.build
    monkeypatch.setattr(document, "build", lambda text, **kw: built.append(len(text)) or build(text, **kw))
    paths = [p for index in (0, 7, 59) for p in _paths(fast.data["entries"][index], ("entries", index))]
    paths += [("entries", 3, "effects", 9), ("entries", 3, "nothing")]  # gone: its ancestor
    found = [fast.locate(parts, key=key) for parts in paths for key in (False, True)]
    assert len(built) == 4 and max(built) < len(BOOK) / 20  # each entry parsed alone, once
    assert found == [whole.locate(parts, key=key) for parts in paths for key in (False, True)]


def test_schema_errors_of_a_few_entries_are_those_of_the_whole_book():
    schemas = SchemaSet(default_schema_dir())
    broken = BOOK.replace("- goto: 6\n", "- gotoo: 6\n", 1).replace(
        "- end: encounter\n", "- end: 3\n", 1)
    sample = load_text((REPO / STORYBOOK).read_text(encoding="utf-8")).document.data
    data = {**load_text(broken).document.data, "introduction": "x", "endings": sample["endings"]}

    def told(errors: list[Any]) -> list[tuple[list[Any], str, list[Any]]]:
        return sorted((list(e.absolute_path), e.message,
                       sorted(list(c.absolute_path) for c in e.context or ())) for e in errors)

    found = told(schemas.errors("storybook", data))
    assert {path[1] for path, _message, _context in found} == {4, 59}
    assert found == told(schemas.validator("storybook").iter_errors(data))
