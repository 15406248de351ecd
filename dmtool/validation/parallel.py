"""Work spread over the machine's cores: forked children that hand back plain data.

A cold check of a large tree is mostly work on one file or one storybook at a time. The
items go into a queue, heaviest first, and each forked child takes the next one whenever
it is free, until none is left (spread). Taking work as it frees up keeps the children
busy to the end whatever an item really costs: weighed by size alone, a group of many
small files takes half as long again as a group of a few large ones of the same total
size, and a child that shares its core with this process falls behind. A child sees this
process's memory as it was at the fork (the loaded corpus, the schemas, the registered
rules), so nothing has to be sent to it; it sends back only its answers, marshalled
(plain data, as the check cache stores it). This process doing none of the work itself
is what keeps it small (it never compiles the validators nor unpacks a storybook), and
it is no slower: while children run a rule's tasks ahead (start_ahead) it runs the rules
that have none. A child that fails, for whatever reason, only costs time: what it did not
answer is done again here, so the answer never depends on how many cores there were, nor
on which child took which item.

Forking is used only where it is safe and known to be cheap: on systems with fork, from a
process running no other thread (the language server has threads; it checks in-process).
"""

from __future__ import annotations

import contextlib
import gc
import io
import marshal
import os
import select
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dmtool.loading import SourceDocument

# Work is spread only when at least this much is to be done (in bytes of the files it
# reads): below it, starting children and sending their answers back costs more than
# it saves (a fork and a pipe cost a few milliseconds; the real content/ is 0.3 MB).
WORTH_SPREADING_BYTES = 1024 * 1024


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity, where the system tells)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def resolve_jobs(jobs: int) -> int:
    """`--jobs`: 0 means one process per usable core."""
    return usable_cores() if jobs <= 0 else jobs


def can_fork() -> bool:
    """Whether forking a child here is safe: a fork copies only the calling thread, so a
    process running other threads (locks held by them) is never forked."""
    return hasattr(os, "fork") and threading.active_count() == 1


# The queue is a pipe filled before the fork, so that it must never fill up: at most this
# many tickets of 4 bytes (4 KiB, the smallest pipe buffer of the systems that fork).
MAX_TICKETS = 1024
_TICKET_BYTES = 4


def batches(weights: Sequence[int], most: int = MAX_TICKETS) -> list[list[int]]:
    """The items' indices in the order the children take them, heaviest first (ties: the
    lower index), cut into at most `most` batches of consecutive items: one item a batch
    unless there are more items than that."""
    order = sorted(range(len(weights)), key=lambda i: (-weights[i], i))
    size = max(1, -(-len(order) // max(1, most)))
    return [order[start:start + size] for start in range(0, len(order), size)]


class WorkQueue:
    """Tickets, one per batch, that forked children take one at a time: whichever child
    reads a ticket first does its batch. A read of 4 bytes from a pipe holding only whole
    4-byte tickets takes one whole ticket (the pipe is read under its lock), and the pipe
    is filled and its writing end closed before any child starts, so a child that finds
    it empty knows the work is all taken."""

    def __init__(self, batches: list[list[int]]) -> None:
        if len(batches) > MAX_TICKETS:
            raise ValueError(f"at most {MAX_TICKETS} batches, not {len(batches)}")
        self._batches = batches
        read_end, write_end = os.pipe()
        try:
            tickets = b"".join(n.to_bytes(_TICKET_BYTES, "little") for n in range(len(batches)))
            view = memoryview(tickets)
            while view:
                view = view[os.write(write_end, view):]
        finally:
            os.close(write_end)
        self._read_end: int | None = read_end

    def taken(self) -> Iterator[int]:
        """In a child: the indices of each batch it takes, until the queue is empty."""
        while self._read_end is not None:
            ticket = b""
            while len(ticket) < _TICKET_BYTES:
                more = os.read(self._read_end, _TICKET_BYTES - len(ticket))
                if not more:
                    return  # empty (a ticket is never split: `more` is all or nothing)
                ticket += more
            yield from self._batches[int.from_bytes(ticket, "little")]

    def close(self) -> None:
        """This process's end of the queue, once every child has its own."""
        if self._read_end is not None:
            os.close(self._read_end)
            self._read_end = None


class Forked:
    """A forked child computing `work()`; `result()` is its marshalled answer, or None
    when the child failed (it raised, was killed, or answered something unreadable).

    With `items`, `work()` gives its answer item by item and each is sent as soon as it is
    made, the child holding one at a time rather than the whole answer and its marshalled
    copy (P5: these were the peak of a cold check); `result()` is then the list of items.
    Such a child may wait for its pipe to be read: read its answer with others' (results).
    """

    def __init__(self, work: Callable[[], Any], *, items: bool = False) -> None:
        read_end, write_end = os.pipe()
        self._pid = os.fork()
        if self._pid == 0:  # the child: answer, then leave without running exit handlers
            os.close(read_end)
            # No collections here: the child ends when its work does, so the collector would
            # only scan the whole heap it inherited (touching, and so copying, every page of
            # it) for garbage that leaving frees anyway. A rule's task that pauses and then
            # restores the collector restored it here at the end of every task, at a cost
            # of 7% of a story-graph child.
            gc.disable()
            status = 1
            try:
                if items:
                    # Small answers are sent a buffer at a time (each send wakes the
                    # parent, which shares the cores with the children).
                    with os.fdopen(write_end, "wb", buffering=_SEND_BUFFER) as out:
                        for item in work():
                            sent = marshal.dumps(item)
                            out.write(len(sent).to_bytes(_LENGTH_BYTES, "little"))
                            out.write(sent)
                else:
                    payload = marshal.dumps(work())
                    with os.fdopen(write_end, "wb") as out:
                        out.write(payload)
                status = 0
            finally:
                # Exit here whatever happened: never return into the parent's code, and
                # never flush output buffers copied from the parent (they would print twice).
                os._exit(status)
        os.close(write_end)
        self._read_end: int | None = read_end
        self._items = items
        # What the child sent so far, grown in place (joining chunks at the end would hold
        # a large answer twice: a 53 MB book's data, P4).
        self._received = io.BytesIO()
        self._done = False

    def result(self) -> Any:
        """Wait for the child; its answer, or None when it failed."""
        return results([self])[0]

    def _take(self) -> bool:
        """Read what the child has written (it has written some); False at its end."""
        assert self._read_end is not None
        chunk = os.read(self._read_end, _CHUNK_BYTES)
        if chunk:
            self._received.write(chunk)
            return True
        os.close(self._read_end)
        self._read_end = None
        return False

    def _answer(self) -> Any:
        """Once its pipe is read to the end: reap the child, and decode what it sent."""
        _, status = os.waitpid(self._pid, 0)
        self._done = True
        received, self._received = self._received, io.BytesIO()
        if status != 0:
            return None
        try:
            view = received.getbuffer()
            if not self._items:
                return marshal.loads(view)
            # Each item is its length, then its marshalled bytes: read in place, as
            # marshal.loads reads a slice (marshal.load from a stream is four times slower).
            answer, at = [], 0
            while at < len(view):
                size = int.from_bytes(view[at:at + _LENGTH_BYTES], "little")
                at += _LENGTH_BYTES
                if at + size > len(view):
                    return None  # cut short
                answer.append(marshal.loads(view[at:at + size]))
                at += size
            return answer
        except (EOFError, ValueError, TypeError):
            return None

    def close(self) -> None:
        """Stop and reap the child if its answer was never taken (an error or Ctrl-C here)."""
        if self._done:
            return
        if self._read_end is not None:
            os.close(self._read_end)
            self._read_end = None
        # Imported here, not at the top: signal builds its enums at import (~2.8 M
        # instructions), which a check that never kills a child (P3) would pay for nothing
        # (tests/test_one_file_imports.py).
        import signal

        with contextlib.suppress(ProcessLookupError):
            os.kill(self._pid, signal.SIGKILL)
        os.waitpid(self._pid, 0)
        self._done = True


# A child's answer is read from its pipe this much at a time, at most; a child sends its
# items this much at a time, unless one is larger.
_CHUNK_BYTES = 1 << 20
_SEND_BUFFER = 1 << 18
_LENGTH_BYTES = 8


def results(children: Sequence[Forked]) -> list[Any]:
    """Each child's answer (Forked.result), their pipes read together as the children write
    them, so that none waits for its turn to be read."""
    reading = {child._read_end: child for child in children if child._read_end is not None}
    while reading:
        ready, _, _ = select.select(list(reading), [], [])
        for end in ready:
            if not reading[end]._take():
                del reading[end]
    return [None if child._done else child._answer() for child in children]


# Work this process may do while its children check the files (see while_checking).
_WHILE_CHECKING: list[Callable[[], object]] = []


def while_checking(call: Callable[[], object]) -> None:
    """Have `call` run in this process while forked children check the files (a rule
    registers the imports its analyses will need once the files are in). Run there, it
    is done once, on a core the children leave free part of the time, and the children
    forked later for the rule's own tasks find it done, rather than each doing it again.
    A check that is not spread never runs it: the rule does the work when it needs it."""
    if call not in _WHILE_CHECKING:
        _WHILE_CHECKING.append(call)


def checking_started() -> None:
    """Run what was registered with while_checking (called once the children run)."""
    for call in _WHILE_CHECKING:
        call()


def spread(weights: Sequence[int], jobs: int, work: Callable[[Iterator[int]], Any],
           *, minimum_weight: int,
           before: Callable[[], object] | None = None) -> list[Forked] | None:
    """Start up to `jobs` children that share the work, when it is worth it.

    Each child calls `work` once, with the indices of the items it takes from the queue
    (WorkQueue), heaviest first, as it comes to them, and sends each item of what `work`
    gives as soon as it is made (Forked's `items`: read the answers with `results`); so
    the answer must say which items it covers. Returns the children, or None when the
    work is too small (below `minimum_weight` in all, or a single item) or forking is not
    safe here: then the caller does all of it itself. `before` runs just before the
    children are forked (only when they are): what every child would otherwise do for
    itself.
    """
    if jobs <= 1 or len(weights) < 2 or sum(weights) < minimum_weight or not can_fork():
        return None
    order = batches(weights)
    if before is not None:
        before()
    queue = WorkQueue(order)
    children: list[Forked] = []
    try:
        for _ in range(min(jobs, len(order))):
            children.append(Forked(lambda: work(queue.taken()), items=True))
    except OSError:  # no more processes or memory: the rest is done here
        for child in children:
            child.close()
        return None
    finally:
        queue.close()
    return children


def answers_by_index(answer: Any, count: int, known: Mapping[int, Any]) -> dict[int, Any]:
    """A child's answer to work that answers [(index, answer of the item)] (see spread):
    the items' answers by index, leaving out any pair that is not one (a child's answer
    is not trusted blindly), out of range, or already in `known`; nothing when the
    answer is not a list (the child failed: Forked.result gives None)."""
    if type(answer) is not list:
        return {}
    found: dict[int, Any] = {}
    for pair in answer:
        if (type(pair) is tuple and len(pair) == 2 and type(pair[0]) is int
                and 0 <= pair[0] < count and pair[0] not in known and pair[0] not in found):
            found[pair[0]] = pair[1]
    return found


@dataclass(slots=True)
class Ahead:
    """Rule tasks running on other cores (start_ahead); `finish` takes their memos in."""

    children: list[Forked]
    documents: Sequence[SourceDocument]

    def finish(self) -> None:
        """Wait for every child and enter the memos it sends back (see start_ahead)."""
        try:
            for changes in results(self.children):
                if _are_changes(changes, len(self.documents)):
                    _enter(changes, self.documents)
        finally:
            self.close()

    def close(self) -> None:
        for child in self.children:
            child.close()


def start_ahead(tasks: Sequence[tuple[int, Callable[[], object]]],
                documents: Sequence[SourceDocument], jobs: int) -> Ahead | None:
    """Start rule tasks (weight, call) whose results are memos of `documents` on several
    cores, when worth it (None: not started). Meanwhile this process may do other work;
    once `finish` has run, each child's memos (those its tasks added or changed) are
    entered into this process's documents, so the rule finds its work done.

    A memo this process made in the meantime is kept (memos are functions of their
    documents); the locations memos of both are joined (see _enter). When a child fails,
    nothing is run for it here: the rule does that work itself as it goes, exactly as
    without this step.
    """
    children = spread([weight for weight, _ in tasks], jobs,
                      lambda indices: _memos_made(tasks, indices, documents),
                      minimum_weight=WORTH_SPREADING_BYTES)
    return None if children is None else Ahead(children, documents)


def _marks(document: SourceDocument) -> dict[str, tuple[Any, int]]:
    """Each memo's value and, for a dict (the locations memo grows in place), its size.
    The values are held, not only named by id(): an id is unique only while it lives."""
    return {key: (value, len(value) if type(value) is dict else -1)
            for key, value in document.memos.items()}


def _memos_made(tasks: Sequence[tuple[int, Callable[[], object]]], indices: Iterable[int],
                documents: Sequence[SourceDocument]) -> list[tuple[int, dict[str, Any], list[str]]]:
    """In a child: run the tasks; then, per document they touched, (its position, the
    memos added or changed, the memo keys newly used)."""
    before = [(_marks(document), set(document.memos_used)) for document in documents]
    for index in indices:
        tasks[index][1]()
    changes = []
    for position, (document, (marks, used)) in enumerate(zip(documents, before, strict=True)):
        changed = {}
        for key, value in document.memos.items():
            mark = marks.get(key)
            if mark is None or mark[0] is not value or mark[1] != (
                    len(value) if type(value) is dict else -1):
                changed[key] = value
        newly_used = sorted(document.memos_used - used)
        if changed or newly_used:
            changes.append((position, changed, newly_used))
    return changes


def _are_changes(value: Any, count: int) -> bool:
    """The shape of a child's answer, checked whole before any of it is entered."""
    return type(value) is list and all(
        type(item) is tuple and len(item) == 3 and type(item[0]) is int
        and 0 <= item[0] < count and type(item[1]) is dict
        and all(type(key) is str for key in item[1]) and type(item[2]) is list
        and all(type(key) is str for key in item[2])
        for item in value)


def _enter(changes: list[tuple[int, dict[str, Any], list[str]]],
           documents: Sequence[SourceDocument]) -> None:
    """Enter a child's memos. A memo this process made too is the same value (memos are
    functions of their documents), so it is kept; two dicts of the locations memo are
    joined, since each process located its own findings, in the order of their keys:
    which child located what depends on which items it took, and the check cache, which
    stores them, must not."""
    for position, changed, newly_used in changes:
        document = documents[position]
        for key, value in changed.items():
            mine = document.memos.get(key)
            if type(value) is dict and (type(mine) is dict or key not in document.memos):
                document.memos[key] = _in_key_order({**value, **(mine or {})})
            elif key not in document.memos:
                document.memos[key] = value
        document.memos_used.update(newly_used)
        document.memos_changed = True


def _in_key_order(joined: dict[Any, Any]) -> dict[Any, Any]:
    """`joined` with its keys sorted, when they are all text (as the locations memo's)."""
    if all(type(key) is str for key in joined):
        return dict(sorted(joined.items()))
    return joined
