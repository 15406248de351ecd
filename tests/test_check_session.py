"""CheckSession: the in-process incremental check that watch mode and the language server use.

It must give `dmtool check`'s answer, re-check only what changed (nothing is read from
disk after loading, and an unchanged storybook is not analysed again), and see the
cross-file consequences of an edit or a removal at once.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from storygraph_support import analyses_recorded

from dmtool.validation import pipeline
from dmtool.validation import session as session_module
from dmtool.validation.pipeline import CheckOptions, run_check
from dmtool.validation.session import CheckSession

ROOT = Path(__file__).resolve().parents[1]
HOLLIS = Path("content/wanderers/hollis-brandt")


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("session")
    shutil.copytree(ROOT / "content", base / "content")
    (base / "schemas").symlink_to(ROOT / "schemas")
    return base


@pytest.fixture
def loaded(tree: Path, monkeypatch: pytest.MonkeyPatch) -> CheckSession:
    monkeypatch.chdir(tree)
    session = CheckSession()
    session.load([Path("content")])
    return session


def _flat(by_file: dict[str, list]) -> list[tuple[str, str, int, int, str]]:  # type: ignore[type-arg]
    return sorted((d.code, d.location.path, d.location.line, d.location.column, d.message)
                  for found in by_file.values() for d in found)


def _analyses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the storybooks the story graph rule analyses from now on."""
    return analyses_recorded(monkeypatch)


def test_a_session_gives_the_answer_of_dmtool_check(loaded: CheckSession) -> None:
    report = run_check(CheckOptions(paths=(Path("content"),), cache_dir=None))
    expected = sorted((d.code, d.location.path, d.location.line, d.location.column, d.message)
                      for d in report.diagnostics)
    assert _flat(loaded.diagnostics()) == expected
    assert set(loaded.diagnostics()) >= {f"{HOLLIS}/storybook.yaml", f"{HOLLIS}/wanderer.yaml"}


def test_an_edit_is_seen_at_once_and_nothing_unchanged_is_read_or_analysed_again(
        loaded: CheckSession, monkeypatch: pytest.MonkeyPatch) -> None:
    loaded.diagnostics()
    monkeypatch.setattr(session_module, "read_bytes", _no_disk)
    monkeypatch.setattr(pipeline, "read_bytes", _no_disk)
    analysed = _analyses(monkeypatch)
    coda = Path(f"{HOLLIS}/codas/marens-ring.yaml")
    text = coda.read_text(encoding="utf-8")
    # An unsaved edit that renames the coda: the storybook's gain_coda now points nowhere.
    loaded.update(coda, text.replace("id: marens-ring", "id: marens-rings"))
    found = _flat(loaded.diagnostics())
    assert any(code == "DM202" and "marens-ring'" in message and path.endswith("storybook.yaml")
               for code, path, _, _, message in found)
    assert analysed == [f"{HOLLIS}/storybook.yaml"]  # its context changed; the others did not
    analysed.clear()
    loaded.update(coda, text)
    assert not any(code == "DM202" for code, *_ in _flat(loaded.diagnostics()))
    analysed.clear()
    # Asked again with nothing changed: nothing is analysed again.
    before = _flat(loaded.diagnostics())
    assert analysed == []
    # A change the context reads but whose values the analysis does not use (a coda's
    # flavour text) is answered from the memo of the context's values.
    loaded.update(coda, text.replace("flavor: ", "flavor: Still ", 1))
    assert _flat(loaded.diagnostics()) == before
    assert analysed == []


def test_editing_a_storybook_analyses_that_storybook_alone(
        loaded: CheckSession, monkeypatch: pytest.MonkeyPatch) -> None:
    loaded.diagnostics()
    analysed = _analyses(monkeypatch)
    book = Path(f"{HOLLIS}/storybook.yaml")
    text = book.read_text(encoding="utf-8")
    loaded.update(book, text.replace("\nendings:\n", "\n  - entry: 9999\n    kind: exploration\n"
                                     "    title: Nowhere\n    text: Nobody comes here.\n"
                                     "    effects: [{end: encounter}]\nendings:\n", 1))
    found = _flat(loaded.diagnostics())
    assert analysed == [f"{HOLLIS}/storybook.yaml"]
    assert any(code == "DM303" and "9999" in message for code, *_, message in found)


def test_a_broken_edit_and_a_removal_are_reported(loaded: CheckSession) -> None:
    coda = Path(f"{HOLLIS}/codas/marens-ring.yaml")
    loaded.update(coda, "kind: coda\nid: [unclosed\n")
    by_file = loaded.diagnostics()
    assert [d.code for d in by_file[str(coda)]] == ["DM001"]
    loaded.remove(coda)
    by_file = loaded.diagnostics()
    assert str(coda) not in by_file
    assert any(d.code == "DM202" for d in by_file[f"{HOLLIS}/storybook.yaml"])


def test_a_text_given_again_is_not_checked_again_and_answers_as_fresh(
        loaded: CheckSession, monkeypatch: pytest.MonkeyPatch) -> None:
    """An undo brings back an earlier result with its memos; the answer is still the one a
    fresh session gives, even when another file changed in between (no stale memo)."""
    book = Path(f"{HOLLIS}/storybook.yaml")
    coda = Path(f"{HOLLIS}/codas/marens-ring.yaml")
    book_text, coda_text = book.read_text(encoding="utf-8"), coda.read_text(encoding="utf-8")
    broken = book_text.replace("goto: 11", "goto: 9999", 1)
    assert broken != book_text
    checked: list[str] = []
    original = session_module.check_text

    def counting(text, path, name, schemas, **how):  # type: ignore[no-untyped-def]
        checked.append(name)
        return original(text, path, name, schemas, **how)

    monkeypatch.setattr(session_module, "check_text", counting)
    loaded.update(book, broken)
    loaded.diagnostics()
    loaded.update(book, book_text)
    loaded.diagnostics()
    # Meanwhile the coda the storybook awards is renamed: the book's DM202 depends on it.
    loaded.update(coda, coda_text.replace("id: marens-ring", "id: marens-rings"))
    loaded.diagnostics()
    checked.clear()
    loaded.update(book, broken)  # undo of the mend
    loaded.update(book, broken)  # the same text again
    found = _flat(loaded.diagnostics())
    assert checked == []
    monkeypatch.setattr(session_module, "check_text", original)
    fresh = CheckSession()
    fresh.load([Path("content")])
    fresh.update(book, broken)
    fresh.update(coda, coda_text.replace("id: marens-ring", "id: marens-rings"))
    assert found == _flat(fresh.diagnostics())
    codes = {(code, path) for code, path, *_ in found}
    assert {("DM301", str(book)), ("DM202", str(book))} <= codes


def test_a_cards_sentience_changes_are_memoised_and_follow_its_edits(
        loaded: CheckSession) -> None:
    """The story graph's context reads every card's sentience changes through a memo of
    the card; an edited card is read afresh (never the stale memo)."""
    from dmtool.storygraph.rule import _Context

    drift = Path("content/dawn-of-madness/abominations/the-white-drift.yaml")
    text = drift.read_text(encoding="utf-8")
    assert "modify_sentience: {blue: 1}" in text
    before = _Context(loaded.build_corpus(), "hollis-brandt").context.sentience_changes
    document = loaded.files[drift].result.document
    assert document is not None
    assert "sentience-changes:2:abomination" in document.memos
    loaded.update(drift, text.replace("modify_sentience: {blue: 1}", "modify_sentience: {blue: 5}"))
    after = _Context(loaded.build_corpus(), "hollis-brandt").context.sentience_changes
    assert after["blue"] == (before["blue"][0] + 4, before["blue"][1])
    fresh = CheckSession()
    fresh.load([Path("content")])
    fresh.update(drift, text.replace("modify_sentience: {blue: 1}", "modify_sentience: {blue: 5}"))
    assert _flat(loaded.diagnostics()) == _flat(fresh.diagnostics())


def _no_disk(*args: object, **kwargs: object) -> None:
    raise AssertionError("the session read a file from disk after loading")
