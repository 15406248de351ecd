"""A check spread over several processes gives exactly the report of one process.

`dmtool check --jobs N` checks files, and analyses storybooks, in forked children that
send their answers back as plain data (dmtool/validation/parallel.py). These tests run
the same trees with one process and with several, with and without the cache, and with
children that fail, and compare whole reports; a child's failure may cost time, never
change an answer.
"""

from __future__ import annotations

import gc
import os
import select
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.corpus import build_corpus
from dmtool.commands.rules import register_rules
from dmtool.loading.collector import collector_paused
from dmtool.validation import filecheck, parallel, pipeline, session
from dmtool.validation.cache import FileRecord
from dmtool.validation.filecheck import from_record
from dmtool.validation.pipeline import CheckOptions, check_and_load

ROOT = Path(__file__).resolve().parents[1]
Answer = list[tuple[object, ...]]


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real content plus three generated storybooks, one with a schema error and one
    with a broken link, a file that does not parse and one with a duplicate key."""
    base = tmp_path_factory.mktemp("parallel")
    (base / "schemas").symlink_to(ROOT / "schemas")
    books = build_corpus(base / "content", content=ROOT / "content", storybooks=3, entries=120)
    manifest = base / "content" / "dawn-of-madness" / "manifest.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("count: 21\n", "count: 99\n", 1),
                        encoding="utf-8")
    books[1].write_text(books[1].read_text(encoding="utf-8").replace(
        "kind: exploration", "kind: exploraton", 1), encoding="utf-8")
    books[2].write_text(books[2].read_text(encoding="utf-8").replace(
        "goto: 1005", "goto: 99998", 1), encoding="utf-8")  # a broken link (the story graph)
    codas = base / "content" / "wanderers" / "bench-walker-002" / "codas"
    codas.mkdir(exist_ok=True)
    (codas / "broken.yaml").write_text("kind: coda\nid: [unclosed\n", encoding="utf-8")
    (codas / "twice.yaml").write_text(
        "kind: coda\nid: twice\nid: again\nwanderer: bench-walker-002\n", encoding="utf-8")
    return base / "content"


@pytest.fixture(autouse=True)
def spread_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spread even this small tree (the real threshold keeps small runs in one process)."""
    register_rules()
    monkeypatch.setattr(parallel, "WORTH_SPREADING_BYTES", 0)


def _answer(tree: Path, *, jobs: int, cache: Path | None) -> Answer:
    result = check_and_load(CheckOptions(paths=(tree,), cache_dir=cache, jobs=jobs))
    return [(d.code, d.severity.value, d.message, d.location.path, d.location.line,
             d.location.column, d.location.pointer, d.hint, d.related)
            for d in result.report.sorted()]


def test_the_tree_has_findings_of_every_stage(tree: Path) -> None:
    codes = {code for code, *_ in _answer(tree, jobs=1, cache=None)}
    assert {"DM001", "DM002", "DM106", "DM301"} <= codes, codes


def test_several_processes_give_the_one_process_report(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    alone = _answer(tree, jobs=1, cache=None)
    started: list[int] = []
    real_fork = parallel.Forked.__init__

    def counted(self: parallel.Forked, work: object, *, items: bool = False) -> None:
        started.append(1)
        real_fork(self, work, items=items)  # type: ignore[arg-type]

    monkeypatch.setattr(parallel.Forked, "__init__", counted)
    assert _answer(tree, jobs=2, cache=None) == alone
    assert len(started) == 4  # two children checked files, two analysed storybooks
    assert _answer(tree, jobs=3, cache=None) == alone
    assert len(started) == 10


def test_with_the_cache_cold_warm_and_after_an_edit(tree: Path, tmp_path: Path) -> None:
    copy = tmp_path / "content"
    shutil.copytree(tree, copy)
    (tmp_path / "schemas").symlink_to(ROOT / "schemas")
    cache = tmp_path / "cache"
    alone = _answer(copy, jobs=1, cache=None)
    assert _answer(copy, jobs=2, cache=cache) == alone  # cold: children fill the cache
    assert _answer(copy, jobs=2, cache=cache) == alone  # warm: replayed
    book = copy / "wanderers" / "bench-walker-000" / "storybook.yaml"
    book.write_text(book.read_text(encoding="utf-8").replace("goto: 1005", "goto: 99999", 1),
                    encoding="utf-8")
    coda = next((copy / "wanderers" / "hollis-brandt" / "codas").glob("*.yaml"))
    coda.write_text(coda.read_text(encoding="utf-8").replace("title: ", "title: New ", 1),
                    encoding="utf-8")
    edited = _answer(copy, jobs=1, cache=None)
    assert edited != alone
    assert _answer(copy, jobs=2, cache=cache) == edited  # memos from children, then reused
    assert _answer(copy, jobs=1, cache=cache) == edited


def test_a_child_that_dies_costs_only_time(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    alone = _answer(tree, jobs=1, cache=None)

    def die(*args: object, **kwargs: object) -> None:
        os._exit(3)

    monkeypatch.setattr(pipeline, "_checked_in_child", die)
    monkeypatch.setattr(parallel, "_memos_made", die)
    assert _answer(tree, jobs=2, cache=None) == alone


def test_a_child_that_raises_or_answers_nonsense_costs_only_time(
        tree: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    alone = _answer(tree, jobs=1, cache=None)

    def nonsense(*args: object, **kwargs: object) -> object:
        return ("not", "a", "record")

    def raises(*args: object, **kwargs: object) -> object:
        raise RuntimeError("a bug in a child")

    monkeypatch.setattr(pipeline, "_checked_in_child", nonsense)
    monkeypatch.setattr(parallel, "_memos_made", raises)
    assert _answer(tree, jobs=2, cache=tmp_path / "cache") == alone


def test_the_queue_hands_out_the_heaviest_first_in_at_most_its_tickets() -> None:
    weights = [5, 1, 9, 3, 3, 7, 0, 2]
    assert parallel.batches(weights) == [[2], [5], [0], [3], [4], [7], [1], [6]]
    many = parallel.batches([1] * 3000)
    assert len(many) <= parallel.MAX_TICKETS
    assert sorted(i for batch in many for i in batch) == list(range(3000))
    assert parallel.batches([]) == []
    with pytest.raises(ValueError):
        parallel.WorkQueue([[0]] * (parallel.MAX_TICKETS + 1))


def test_a_child_stuck_on_one_item_leaves_the_rest_to_the_other() -> None:
    """Work is taken as children free up, not split beforehand: while one child works on
    the heaviest item, the other takes every other one. The child holding item 0 may go
    on only once the other has found the queue empty."""
    release_read, release_write = os.pipe()

    def work(indices: Iterator[int]) -> list[int]:
        done = []
        for index in indices:
            if index == 0:
                ready, _, _ = select.select([release_read], [], [], 20)
                assert ready, "the other child never emptied the queue"
                os.read(release_read, 1)
            done.append(index)
        os.write(release_write, b"x")
        return done

    # Split beforehand by weight, item 0 would share its group with item 4.
    children = parallel.spread([30, 10, 10, 10, 10, 10], 2, work, minimum_weight=1)
    assert children is not None
    answers = sorted(child.result() for child in children)
    os.close(release_read)
    os.close(release_write)
    assert answers == [[0], [1, 2, 3, 4, 5]]


def test_answers_by_index_keeps_only_what_it_can_trust() -> None:
    answer = [(0, "a"), (1, "b"), (1, "again"), (7, "out of range"), (-1, "x"), ["2", "c"],
              (2,), (3, "d")]
    assert parallel.answers_by_index(answer, 5, {3: "known"}) == {0: "a", 1: "b"}
    assert parallel.answers_by_index(None, 5, {}) == {}
    assert parallel.answers_by_index({0: "a"}, 5, {}) == {}


def test_a_child_that_answers_part_of_its_files_costs_only_time(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each file's answer is checked on its own: those a child got wrong are checked here."""
    alone = _answer(tree, jobs=1, cache=None)
    real = pipeline._checked_in_child
    calls = iter(range(10**6))

    def every_other(*args: object, **kwargs: object) -> object:
        return real(*args, **kwargs) if next(calls) % 2 else ("not", "an", "answer")  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "_checked_in_child", every_other)
    assert _answer(tree, jobs=2, cache=None) == alone


def test_a_child_never_collects() -> None:
    """A child's collections would scan the heap it inherited; it runs with the collector
    off, even after a task that paused and restored it."""
    def task() -> tuple[bool, bool]:
        at_start = gc.isenabled()
        with collector_paused():
            pass
        return at_start, gc.isenabled()

    assert gc.isenabled()
    assert parallel.Forked(task).result() == (False, False)
    assert gc.isenabled()  # this process's collector is left as it was


def test_forked_answers_and_failures() -> None:
    assert parallel.Forked(lambda: {"a": (1, [2.5, None])}).result() == {"a": (1, [2.5, None])}
    assert parallel.Forked(lambda: 1 / 0).result() is None
    unsendable = parallel.Forked(object)
    assert unsendable.result() is None
    slow = parallel.Forked(lambda: os.read(os.open(os.devnull, os.O_RDONLY), 1) or os.pause())
    slow.close()  # an answer never taken: the child is stopped and reaped


def test_items_are_sent_as_they_are_made_and_failures_lose_the_whole_answer() -> None:
    def items() -> Iterator[object]:
        yield {"a": 1}
        yield (2, [3.5, None])

    def fails_half_way() -> Iterator[object]:
        yield "sent"
        raise ValueError("the second item")

    assert parallel.Forked(items, items=True).result() == [{"a": 1}, (2, [3.5, None])]
    assert parallel.Forked(lambda: iter(()), items=True).result() == []
    assert parallel.Forked(fails_half_way, items=True).result() is None


def test_children_sending_more_than_a_pipe_holds_are_read_together(tmp_path: Path) -> None:
    """The first child sends more than its pipe holds, then waits until the second has sent
    as much: read one after the other, the second would wait for its turn for ever."""
    done = tmp_path / "second-done"
    big = "x" * (256 * 1024)

    def first() -> Iterator[object]:
        yield from (big for _ in range(4))
        for _ in range(1000):  # at most 10 s
            if done.exists():
                yield "met"
                return
            select.select([], [], [], 0.01)
        yield "never met"

    def second() -> Iterator[object]:
        yield from (big for _ in range(4))
        done.touch()

    answers = parallel.results([parallel.Forked(first, items=True),
                                parallel.Forked(second, items=True)])
    assert answers[0] == [big] * 4 + ["met"]
    assert answers[1] == [big] * 4


def _book_as_a_child_sends_it(tree: Path) -> tuple[Path, Any, FileRecord]:
    """A storybook of the tree, the schemas, and its record as a forked child sends it
    (its data packed with it)."""
    book = next(tree.rglob("storybook.yaml"))
    schemas = check_and_load(CheckOptions(paths=(book,), cache_dir=None)).session.schemas
    packed = pipeline._checked_in_child(book, book.name, schemas, 1 << 30, None)
    assert packed is not None
    record = FileRecord.from_tuple(packed[2])
    assert record is not None and record.data_blob is not None
    return book, schemas, record


def test_a_book_rebuilt_from_its_record_lets_go_of_its_data(tree: Path) -> None:
    """A forked child that analyses storybooks drops each one's data once analysed (it
    is unpacked again when asked for), rather than hold every book it analysed (P5)."""
    book, schemas, record = _book_as_a_child_sends_it(tree)
    document = from_record(record, book, book.name, None, schemas, made_here=True)
    assert document.document is not None
    data = document.document.data
    document.document.let_go_of_data()
    assert not document.document.data_loaded
    assert document.document.data == data



def test_a_very_large_book_keeps_its_data_rather_than_its_packed_copy_beside_it(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Unpacked, a large book's packed data is let go (its data is kept instead): held to
    unpack it again, it would stand beside the data (45 MB of a 53 MB book's, P4)."""
    book, schemas, record = _book_as_a_child_sends_it(tree)
    monkeypatch.setattr(filecheck, "PACKED_DATA_BYTES", len(record.data_blob) - 1)
    document = from_record(record, book, book.name, None, schemas, made_here=True).document
    assert document is not None
    _ = document.data
    document.let_go_of_data()
    assert document.data_loaded


def test_small_work_stays_in_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "WORTH_SPREADING_BYTES", 100)
    assert parallel.spread([10, 20], 2, list, minimum_weight=100) is None
    assert parallel.spread([60, 60], 1, list, minimum_weight=100) is None
    assert parallel.spread([120], 2, list, minimum_weight=100) is None  # one item: here
    children = parallel.spread([60, 60], 2, list, minimum_weight=100)
    assert children is not None
    assert sorted(i for c in children for i in c.result()) == [0, 1]


def test_rules_without_tasks_run_while_the_tasks_run_ahead(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The story graph's analyses run in children while this process runs the other rules;
    the story graph's own check runs once their memos are in."""
    events: list[str] = []
    finish = parallel.Ahead.finish

    def finishing(self: parallel.Ahead) -> None:
        assert all(not child._done for child in self.children)  # still to be taken in
        events.append("taken in")
        finish(self)

    def timed(name: str, check: object) -> object:
        def run(corpus: object) -> object:
            events.append(name)
            return check(corpus)  # type: ignore[operator]
        return run

    rules = session.rule_checks()
    monkeypatch.setattr(parallel.Ahead, "finish", finishing)
    monkeypatch.setattr(session, "rule_checks", lambda: [(n, timed(n, c)) for n, c in rules])
    alone = _answer(tree, jobs=1, cache=None)
    events.clear()
    assert _answer(tree, jobs=2, cache=None) == alone
    assert events.count("taken in") == 1
    taken = events.index("taken in")
    assert "storygraph" in events[taken:] and "references" in events[:taken]
    assert set(events[taken + 1:]) == set(session.rules_with_tasks())


def test_before_runs_only_when_children_are_forked() -> None:
    ran: list[str] = []
    assert parallel.spread([10, 20], 2, list, minimum_weight=100,
                           before=lambda: ran.append("before")) is None
    assert ran == []  # the work stays here: nothing to prepare for children
    children = parallel.spread([60, 60], 2, lambda group: ran, minimum_weight=100,
                               before=lambda: ran.append("before"))
    assert children is not None
    # Run before the fork: each child sees it done.
    assert [c.result() for c in children] == [["before"], ["before"]]


def test_what_children_would_import_is_done_here_while_they_check(
        tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A spread check runs the story graph's imports in this process once its workers
    are started (while_checking), so the children forked for the analyses inherit them;
    a registration made twice runs once."""
    register_rules()
    calls: list[int] = []
    monkeypatch.setattr(parallel, "_WHILE_CHECKING", list(parallel._WHILE_CHECKING))
    parallel.while_checking(lambda: calls.append(os.getpid()))
    from dmtool.storygraph import rule

    parallel.while_checking(rule._import_analyses)  # registered already: not added again
    assert parallel._WHILE_CHECKING.count(rule._import_analyses) == 1
    monkeypatch.setattr(parallel, "WORTH_SPREADING_BYTES", 1)
    check_and_load(CheckOptions(paths=(tree / "content",), schema_dir=tree / "schemas", jobs=2))
    assert calls == [os.getpid()]
    calls.clear()
    check_and_load(CheckOptions(paths=(tree / "content",), schema_dir=tree / "schemas", jobs=1))
    assert calls == []  # not spread: nothing runs ahead of need
