"""What an edit of a long storybook parses again: P8b's edits (bench/author_bench.py), typed
key by key into the language server's workspace, each version analysed, its diagnostics
placed and its outline made as the server does. An edit inside the entries parses no
whole text at all (the edited entries alone, see loading/splice.py), and no version is
parsed whole more than once; a book too large for yaml-rs whole (fast.LARGEST) is
edited the same way. The parsers are counted, not timed."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bench.author_bench import BOOK, CARD, _edits
from bench.corpus import FIRST_ENTRY, build_corpus
from dmtool.loading import document as document_module
from dmtool.loading import fast, splice
from dmtool.lsp.convert import to_lsp
from dmtool.lsp.outline import outline
from dmtool.lsp.workspace import LiveWorkspace
from dmtool.validation.rules import prose
from dmtool.validation.session import CheckSession, display_path
from tests.lsp_support import REPO

ENTRIES = 130  # P8b's first round edits around entry 1060-1065 and the card's 1001


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    workspace = tmp_path_factory.mktemp("live-parses")
    build_corpus(workspace / "content", content=REPO / "content", storybooks=1, entries=ENTRIES)
    (workspace / "schemas").symlink_to(REPO / "schemas")
    return workspace


class _Parses:
    """Every whole-book parse by any of the loader's parsers (yaml-rs, libyaml or pure
    Python, with or without positions, the strict pass), counted; they still run."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, smallest: int) -> None:
        self.smallest, self.count = smallest, 0
        real_yaml_rs, build, strict = fast.yaml_rs, document_module.build, document_module.strict_problems
        parses = self

        class _YamlRs:
            def loads(self, text: str, **options: Any) -> Any:
                parses.seen(text)
                return real_yaml_rs.loads(text, **options)

        def counted_build(text: str, **options: Any) -> Any:
            self.seen(text)
            return build(text, **options)

        def counted_strict(text: str, *args: Any, **options: Any) -> Any:
            self.seen(text)
            return strict(text, *args, **options)

        monkeypatch.setattr(fast, "yaml_rs", _YamlRs())
        monkeypatch.setattr(document_module, "build", counted_build)
        monkeypatch.setattr(document_module, "strict_problems", counted_strict)

    def seen(self, text: str) -> None:
        if len(text) >= self.smallest:
            self.count += 1


def _type_every_edit(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Whole-book parses per version, by edit kind (the most any version of it took)."""
    monkeypatch.chdir(workspace)
    live = LiveWorkspace.for_folders([workspace])
    live.load()
    book = Path(os.path.abspath(workspace / BOOK))
    text = book.read_text(encoding="utf-8")
    live.change(book, text)
    live.analyse()
    parses = _Parses(monkeypatch, len(text) // 2)
    most: Counter[str] = Counter()
    for edit in _edits(text, 0):
        for offset, removed, typed in edit.keys:
            text = text[:offset] + typed + text[offset + removed:]
            parses.count = 0
            live.change(book, text)
            snapshot = live.analyse()
            for path, found in snapshot.diagnostics.items():
                shown = live.text(path) or ""
                for diagnostic in found:
                    to_lsp(diagnostic, shown, None)
            outline(snapshot.documents[book], snapshot.corpus)
            most[edit.name] = max(most[edit.name], parses.count)
        where = workspace / CARD if edit.other_file else book
        codes = {d.code for d in live.snapshot.diagnostics.get(where, ())}
        assert edit.check(codes), (edit.name, codes)  # each edit still shows its effect
    return most


def test_an_edit_inside_the_entries_parses_no_whole_book(corpus, monkeypatch):
    most = _type_every_edit(corpus, monkeypatch)
    assert +most == Counter(), +most


def test_a_book_too_large_for_yaml_rs_whole_is_edited_entry_by_entry(corpus, monkeypatch):
    # The generated book stands for a 10,000-entry one (5 MB, over fast.LARGEST).
    size = (corpus / BOOK).stat().st_size
    for module in (fast, splice, document_module):
        monkeypatch.setattr(module, "LARGEST", size // 2)
    most = _type_every_edit(corpus, monkeypatch)
    assert +most == Counter(), +most


def test_an_edit_searches_the_prose_of_the_entries_it_touched_alone(corpus, tmp_path, monkeypatch):
    book = (corpus / BOOK).read_text(encoding="utf-8")
    path = tmp_path / "storybook.yaml"
    session = CheckSession()
    session.update(path, book)
    session.diagnostics()
    searched: list[object] = []
    candidates = prose._candidates

    def counted(data):  # type: ignore[no-untyped-def]
        if isinstance(data, dict) and "entry" in data:
            searched.append(data["entry"])
        return candidates(data)

    monkeypatch.setattr(prose, "_candidates", counted)
    at = book.index("      ", book.index(f"  - entry: {FIRST_ENTRY + 40}\n"))
    for number, word in enumerate(("lantern", "stair", "<b>voice</b>")):
        book = book[:at] + f"      {word} " + book[at + len("      "):]
        searched.clear()
        session.update(path, book)
        found = session.diagnostics()[display_path(path)]
        # The first edit searches every entry; each one after it, the edited entry alone.
        assert number == 0 or searched == [FIRST_ENTRY + 40], searched
    assert any("<b>" in d.message for d in found), [(d.code, d.message) for d in found]
