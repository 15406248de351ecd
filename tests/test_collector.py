"""The collector: paused while acyclic structures are built, and kept off the lasting state
of a long-lived process (`check --watch`, the language server)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from dmtool.commands.check import CheckRequest
from dmtool.loading import collector
from dmtool.lsp import server, watch


class _Node:
    """Something that can take part in a cycle and be watched for its end."""

    def __init__(self) -> None:
        self.other: _Node | None = None


@pytest.fixture
def unfrozen() -> Iterator[None]:
    yield
    gc.unfreeze()  # whatever a test froze is the suite's own again


def test_settling_collects_first_then_freezes_what_lives(unfrozen: None) -> None:
    first, second = _Node(), _Node()
    first.other, second.other = second, first  # garbage once dropped, but only as a cycle
    gone = weakref.ref(first)
    kept = [_Node()]
    del first, second
    assert gone() is not None  # reference counting alone cannot free a cycle
    before = gc.get_freeze_count()
    collector.settle_lasting_state()
    assert gone() is None  # collected before freezing: no garbage is kept for good
    assert gc.get_freeze_count() > before
    last = weakref.ref(kept.pop())
    assert last() is None  # a frozen object is still freed once nothing refers to it


def test_collector_paused_restores_the_collector() -> None:
    assert gc.isenabled()
    with collector.collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_watch_mode_settles_its_state_after_the_first_check(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`check --watch` freezes the session once its first report is built, before waiting
    for changes: every re-check after that passes over the corpus."""
    content = tmp_path / "content"
    content.mkdir()
    (content / "coda.yaml").write_text("kind: coda\nid: x\n", encoding="utf-8")
    events: list[str] = []
    monkeypatch.setattr(watch, "settle_lasting_state", lambda: events.append("settled"))

    def changes(roots: list[Path], **_: object) -> Iterator[set[Path]]:
        events.append("watching")
        yield set()

    monkeypatch.setattr(watch, "watch_changes", changes)
    monkeypatch.chdir(tmp_path)
    code = watch.run_watch(CheckRequest(paths=(content,)), emit=lambda text: events.append("printed"),
                           clear=lambda: None, color=False)
    assert code == 0
    assert events[:3] == ["settled", "printed", "watching"]
    assert events.count("settled") == 1


def test_the_language_server_settles_its_state_after_the_first_analysis(
        monkeypatch: pytest.MonkeyPatch) -> None:
    settled: list[int] = []
    monkeypatch.setattr(server, "settle_lasting_state", lambda: settled.append(1))
    language_server = server.DmtoolServer()
    monkeypatch.setattr(language_server.live, "load", lambda: None)
    assert language_server._apply({}) is not None
    assert language_server._apply({}) is not None
    assert settled == [1]  # once, after the first analysis only
