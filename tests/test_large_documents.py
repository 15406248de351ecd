"""Large documents keep their data packed between uses (pipeline._lighten), not as objects.

A clean storybook above the cache's stored-data size keeps the memos the rules derive from
it alone, and its data marshalled: the story graph unpacks it for its analysis and lets it
go again. None of this may change an answer: every run here is compared, diagnostic by
diagnostic, with the same check made with the data kept as objects.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from dmtool.validation import pipeline
from dmtool.validation.pipeline import CheckOptions, check_and_load

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.corpus import build_corpus  # noqa: E402

BOOK = Path("content/wanderers/bench-walker-000/storybook.yaml")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("large")
    build_corpus(base / "content", content=ROOT / "content", storybooks=1, entries=700)
    (base / "schemas").symlink_to(ROOT / "schemas")
    book = base / BOOK
    text = book.read_text(encoding="utf-8")
    # Findings of several rules located in the large book: a goto to nothing (story graph),
    # raw HTML in a text (prose) and a wanderer that does not own it (storybooks).
    text = text.replace("- goto: 209", "- goto: 99999", 1)
    text = text.replace("text: No special setup yet.", "text: No <b>special</b> setup yet.", 1)
    book.write_text(text, encoding="utf-8")
    assert book.stat().st_size > pipeline.STORED_DATA_BYTES
    return base


def _answer(tree: Path, monkeypatch: pytest.MonkeyPatch, *, packed: bool,
            cache: Path | None) -> list[tuple[str, str, int, int, str]]:
    monkeypatch.chdir(tree)
    if not packed:
        monkeypatch.setattr(pipeline, "PACKED_DATA_BYTES", 0)
    result = check_and_load(CheckOptions(paths=(Path("content"),), cache_dir=cache))
    monkeypatch.undo()
    return sorted((d.code, d.location.path, d.location.line, d.location.column, d.message)
                  for d in result.report.diagnostics)


def test_packed_data_gives_the_same_answer(tree: Path, monkeypatch: pytest.MonkeyPatch,
                                           tmp_path: Path) -> None:
    expected = _answer(tree, monkeypatch, packed=False, cache=None)
    codes = {(code, path) for code, path, *_ in expected}
    assert {("DM301", str(BOOK)), ("DM501", str(BOOK))} <= codes
    assert _answer(tree, monkeypatch, packed=True, cache=None) == expected
    # Through the cache: the cold run, then the run after an edit elsewhere (the book is
    # rebuilt from its record, its data parsed again only for its analysis).
    assert _answer(tree, monkeypatch, packed=True, cache=tmp_path / "cache") == expected
    card = sorted((tree / "content/wanderers/bench-walker-000/encounter-cards").glob("*.yaml"))[0]
    original = card.read_text(encoding="utf-8")
    card.write_text(original.replace("title: ", "title: Renamed ", 1), encoding="utf-8")
    try:
        fresh = _answer(tree, monkeypatch, packed=False, cache=None)
        assert _answer(tree, monkeypatch, packed=True, cache=tmp_path / "cache") == fresh
    finally:
        card.write_text(original, encoding="utf-8")


def test_a_large_book_is_held_packed_and_let_go_after_its_analysis(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tree)
    unpacked: list[str] = []
    original = pipeline.marshal.loads

    def counting(blob: bytes) -> object:
        unpacked.append("book")
        return original(blob)

    monkeypatch.setattr(pipeline.marshal, "loads", counting)
    result = check_and_load(CheckOptions(paths=(Path("content"),), cache_dir=None))
    assert result.corpus is not None
    book = next(d for d in result.corpus.documents + result.corpus.partial
                if d.display == str(BOOK))
    # Unpacked once, for the story graph's analysis (the other rules read its memos),
    # and not held once the analysis is done.
    assert unpacked == ["book"]
    assert not book.data_loaded
    assert book.data["kind"] == "storybook"


def test_a_book_read_as_meant_keeps_its_data(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A book with a schema error is read as its author meant it: that is not what its
    file parses to, so it is never packed and parsed again."""
    build_corpus(tmp_path / "content", content=ROOT / "content", storybooks=1, entries=700)
    (tmp_path / "schemas").symlink_to(ROOT / "schemas")
    book = tmp_path / BOOK
    book.write_text(book.read_text(encoding="utf-8").replace("title: ", "titel: ", 1),
                    encoding="utf-8")
    expected = _answer(tmp_path, monkeypatch, packed=False, cache=None)
    assert any(code.startswith("DM1") and path == str(BOOK) for code, path, *_ in expected)
    assert _answer(tmp_path, monkeypatch, packed=True, cache=None) == expected
