"""An edit of a storybook's prose keeps what was found before it (issue 11, P2b).

A long-lived session (the daemon, watch mode, the language server) loads an edited book by
splicing in the entries the edit touched (loading/splice.py), which also tells which keys
of those entries changed and where the lines after the edit went. Where only an entry's
text or title changed, the story graph's findings are those of the book before the edit,
moved to the lines they are on now, and its references are the ones found before; every
other edit is analysed and walked again. Each answer must be a fresh uncached check's.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from storygraph_support import analyses_recorded

from dmtool.commands.rules import register_rules
from dmtool.storygraph.rule import UNREAD_ENTRY_KEYS, _Context, _owner
from dmtool.validation.cache import pack
from dmtool.validation.live import LiveCheck
from dmtool.validation.pipeline import CheckOptions, check_and_load, run_check
from dmtool.validation.references import ReferenceWalker
from tests.test_live_check import (  # noqa: F401  (_trusted_stats: its fixture trusts every stat)
    Answer,
    _agrees,
    _answer,
    _options,
    _tick,
    _trusted_stats,
)

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "cases"
BOOK = "storybook.yaml"

register_rules()


@pytest.fixture
def case(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the DM301-goto case (entry 2 sends a choice to entry 999, line 30)."""
    shutil.copytree(CASES / "DM301-goto", tmp_path / "case")
    monkeypatch.chdir(tmp_path / "case")
    return Path(".")


def _edit(old: str, new: str) -> None:
    _tick()
    text = Path(BOOK).read_text(encoding="utf-8")
    assert old in text
    Path(BOOK).write_text(text.replace(old, new, 1), encoding="utf-8")


class _Counted:
    """The live session's answers, each asserted equal to a fresh check's, counting the
    analyses of the book and the walks of storybooks for references the session made."""

    def __init__(self, live: LiveCheck, options: CheckOptions,
                 monkeypatch: pytest.MonkeyPatch) -> None:
        self.live, self.options = live, options
        self._analysed = analyses_recorded(monkeypatch)
        self._walked = _walks_of_books(monkeypatch)
        self.analyses = self.walks = self.entry_walks = 0

    def answer(self) -> Answer:
        fresh = run_check(self.options)  # its own analyses and walks are not counted
        analysed, walked = len(self._analysed), len(self._walked)
        answer = self.live.run(self.options)
        self.analyses += self._analysed[analysed:].count(BOOK)
        self.walks += self._walked[walked:].count("storybook")
        self.entry_walks += self._walked[walked:].count("storybook entries")
        assert _answer(answer) == _answer(fresh)
        return _answer(answer)


def _broken_link_line(answer: Answer) -> int:
    (line,) = [line for code, _, path, line, *_ in answer if code == "DM301" and path == BOOK]
    return line


def _walks_of_books(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The kinds of documents whose references are walked for from now on: the kind for a
    whole document, the kind and "entries" for the entries an edit parsed again."""
    walked: list[str] = []
    original = ReferenceWalker.references
    in_items = ReferenceWalker.references_in_items

    def counting(self: ReferenceWalker, kind: str, data: Any) -> Any:
        walked.append(kind)
        return original(self, kind, data)

    def counting_items(self: ReferenceWalker, kind: str, list_key: str, items: Any, first: int) -> Any:
        walked.append(f"{kind} {list_key}")
        return in_items(self, kind, list_key, items, first)

    monkeypatch.setattr(ReferenceWalker, "references", counting)
    monkeypatch.setattr(ReferenceWalker, "references_in_items", counting_items)
    return walked


def test_a_prose_edit_keeps_the_findings_moved_to_their_lines(
        case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live, options = LiveCheck(), _options(case)
    assert _broken_link_line(_agrees(live, options)) == 30
    counted = _Counted(live, options, monkeypatch)
    # Entry 1's text grows a line, before the finding: the finding moves down a line.
    _edit("    text: The flame leans toward one of four doors.\n",
          "    text: |\n      The flame leans\n      toward one of four doors.\n")
    assert _broken_link_line(counted.answer()) == 32
    # A title after the finding: the finding stays where it is.
    _edit("    title: Morning\n", "    title: Morning, at last\n")
    assert _broken_link_line(counted.answer()) == 32
    assert (counted.analyses, counted.walks, counted.entry_walks) == (0, 0, 0)


def test_an_edit_of_the_entry_a_finding_is_in_analyses_the_book_again(
        case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live, options = LiveCheck(), _options(case)
    _agrees(live, options)
    counted = _Counted(live, options, monkeypatch)
    # Prose only, but in entry 2, which the finding is in: it cannot be moved.
    _edit("    text: Someone has poured a line of salt under the window.\n",
          "    text: |\n      Someone has poured\n      a line of salt.\n")
    assert _broken_link_line(counted.answer()) == 32
    assert (counted.analyses, counted.walks, counted.entry_walks) == (1, 0, 0)


def test_an_edit_of_what_the_analyses_read_analyses_the_book_again(
        case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live, options = LiveCheck(), _options(case)
    _agrees(live, options)
    counted = _Counted(live, options, monkeypatch)
    _edit("            effects: [{goto: 999}]\n", "            effects: [{goto: 301}]\n")
    assert "DM301" not in {code for code, *_ in counted.answer()}
    _edit("    kind: finale\n", "    kind: exploration\n")
    counted.answer()
    # Both are read by the analyses; effects may hold references, a kind may not: the
    # edited entry is walked for them, once, and never the whole book.
    assert (counted.analyses, counted.walks, counted.entry_walks) == (2, 0, 1)


def test_an_edit_of_a_reference_is_walked_for_again(
        case: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    live, options = LiveCheck(), _options(case)
    _agrees(live, options)
    _edit("    text: The door stands open at last.\n", "    text: The door stands open.\n")
    _agrees(live, options)
    _edit("      - {entry: 302, title: Morning, legacy: mara-legacy-a}\n",
          "      - {entry: 302, title: Morning, legacy: mara-legacy-z}\n")
    assert "DM202" in {code for code, *_ in _agrees(live, options)}
    _edit("    effects: [{conclude: mara-legacy-a}]\n", "    effects: [{conclude: mara-legacy-q}]\n")
    assert "DM202" in {code for code, *_ in _agrees(live, options)}


def test_only_prose_is_left_unwalked() -> None:
    """The walker tells which members of an entry may hold a reference (the schema's
    x-refers-to): its prose may not, its effects may."""
    result = check_and_load(CheckOptions(paths=(CASES / "DM301-goto",), cache_dir=None))
    walker = ReferenceWalker(result.full_corpus().schemas)
    assert not walker.members_may_refer("storybook", "entries", frozenset(UNREAD_ENTRY_KEYS))
    assert walker.members_may_refer("storybook", "entries", frozenset({"effects"}))
    assert walker.members_may_refer("no-such-kind", "entries", frozenset({"text"}))


def _books_with_findings() -> list[Path]:
    folders = [CASES / p.name for p in sorted(CASES.iterdir())
               if (p / BOOK).is_file() and p.name.startswith("DM3")]
    return [ROOT / "content", *folders]


def _unread_rewritten(data: Any) -> Any:
    """The data with every entry's text and title another text."""
    entries = [{key: (f"rewritten {number} {key}" if key in UNREAD_ENTRY_KEYS else value)
                for key, value in item.items()} if isinstance(item, dict) else item
               for number, item in enumerate(data.get("entries", []))]
    return {**data, "entries": entries}


@pytest.mark.parametrize("tree", _books_with_findings(), ids=lambda p: p.name)
def test_the_analyses_read_no_entry_prose(tree: Path) -> None:
    """UNREAD_ENTRY_KEYS holds: a book whose entries' texts and titles are all rewritten
    has the very same findings (codes, messages and places), in every storybook of the
    content and of the story graph's cases."""
    corpus = check_and_load(CheckOptions(paths=(tree,), cache_dir=None)).full_corpus()
    books = corpus.of_kind("storybook")
    assert books
    compared = 0
    for book in books:
        wanderer = _owner(book)
        if wanderer is None:
            continue
        found = [pack(d) for d in _Context(corpus, wanderer).analyse(book)[0]]
        rewritten = type(book)(book.path, book.display, book.text, _unread_rewritten(book.data))
        assert [pack(d) for d in _Context(corpus, wanderer).analyse(rewritten)[0]] == found
        compared += len(found)
    assert compared or tree.name == "content"  # each case's book has findings to compare
