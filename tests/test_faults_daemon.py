"""The daemon under fault: every client has a deadline, and no client holds up another
(issue #31, "every client and server has a deadline").

A daemon stopped with kill -STOP (or Ctrl-Z on `dmtool daemon run`) still takes
connections (the system queues them), so `dmtool check` and `dmtool daemon status` used
to wait forever for its reply. And a client that connected and said nothing held every
other check back for ten seconds, since requests were read one after another.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dmtool.daemon import client, protocol, server
from tests.test_daemon import Folder, _cwd, folder, running  # noqa: F401  (fixtures)

PATIENCE = 60.0  # a bound only a hang crosses


def _pid(daemon: Folder) -> int:
    return int(daemon.run("daemon", "status").stdout.split("process ")[1].split()[0])


@pytest.fixture
def stopped(running: Folder) -> Iterator[Folder]:  # noqa: F811  (the fixture above)
    pid = _pid(running)
    os.kill(pid, signal.SIGSTOP)
    try:
        yield running
    finally:
        os.kill(pid, signal.SIGCONT)


def test_a_check_asks_a_stopped_daemon_then_checks_by_itself_and_says_so(
        stopped: Folder) -> None:
    alone = stopped.run("check", "--no-daemon")
    through = stopped.run("check")  # (Folder.run times out after 120 s: a hang fails)
    assert (through.returncode, through.stdout) == (alone.returncode, alone.stdout)
    assert "did not answer" in through.stderr and "checking here instead" in through.stderr


def test_status_and_stop_of_a_stopped_daemon_say_it_is_stopped(
        stopped: Folder, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol, "SILENCE_SECONDS", 0.5)  # in this process only
    monkeypatch.setenv(protocol.FOLDER_ENV, stopped.env[protocol.FOLDER_ENV])
    with _cwd(stopped.base):
        with pytest.raises(client.Silent):
            server.status(os.getcwd())
        with pytest.raises(client.Silent):
            server.stop(os.getcwd())


def test_a_stopped_daemon_answers_again_once_resumed(running: Folder) -> None:  # noqa: F811
    pid = _pid(running)
    os.kill(pid, signal.SIGSTOP)
    os.kill(pid, signal.SIGCONT)
    asked = running.served()
    running.run("check")
    assert running.served() == asked + 1


def test_a_silent_client_holds_up_no_other_check(running: Folder) -> None:  # noqa: F811
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as silent, \
            socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as halfway:
        silent.connect(str(running.socket()))
        halfway.connect(str(running.socket()))
        halfway.sendall(protocol.encode((protocol.PROTOCOL, protocol.STATUS))[:3])
        asked = running.served()
        alone = running.run("check", "--no-daemon")
        assert running.run("check").stdout == alone.stdout
        assert running.served() == asked + 1  # answered, not checked by the client
        # Both were still waiting (open, or told the daemon is alive) when it answered:
        # the daemon did not wait for them to speak or give up.
        for waiting in (silent, halfway):
            try:
                heard = waiting.recv(64, socket.MSG_DONTWAIT)
            except BlockingIOError:
                heard = b"+"
            assert heard and set(heard) == {ord("+")}


@pytest.fixture
def sockets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[str]:
    """An in-process daemon's folder (short: AF_UNIX paths hold 107 bytes)."""
    base = tempfile.mkdtemp(prefix="dmf-")
    monkeypatch.setenv(protocol.FOLDER_ENV, os.path.join(base, "d"))
    monkeypatch.setattr(protocol, "ALIVE_SECONDS", 0.1)
    monkeypatch.setattr(protocol, "SILENCE_SECONDS", 0.5)
    monkeypatch.chdir(tmp_path)
    yield base
    shutil.rmtree(base, ignore_errors=True)


def test_clients_wait_through_a_long_answer_their_own_or_another_s(sockets: str) -> None:
    # An answer three times longer than a client's patience: the daemon says it is alive
    # to the client it serves and to the one waiting for its turn.
    def slow(argv: tuple[str, ...], _environ: dict[str, str], _terminal: bool) -> tuple[object, ...]:
        time.sleep(3 * protocol.SILENCE_SECONDS)
        return protocol.ANSWER, " ".join(argv), 0

    ready = threading.Event()
    daemon = threading.Thread(target=server.serve, args=(slow,), daemon=True, kwargs={
        "cwd": os.getcwd(), "idle_seconds": PATIENCE, "ready": ready.set})
    daemon.start()
    assert ready.wait(PATIENCE)
    path = protocol.socket_path(os.getcwd())
    replies: dict[str, object] = {}

    def ask(word: str) -> None:
        request = (protocol.PROTOCOL, protocol.CHECK, protocol.identity(), os.getcwd(),
                   (word,), (), False)
        replies[word] = client.exchange(path, request)

    askers = [threading.Thread(target=ask, args=(word,)) for word in ("first", "second")]
    for asker in askers:
        asker.start()
        time.sleep(0.2)
    for asker in askers:
        asker.join(PATIENCE)
    assert replies == {"first": (protocol.ANSWER, "first", 0),
                       "second": (protocol.ANSWER, "second", 0)}
    assert server.stop(os.getcwd()) is not None
    daemon.join(PATIENCE)
