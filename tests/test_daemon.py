"""`dmtool daemon` and `dmtool check` through it, as a user runs them (real processes).

A check the daemon answers must be the check the command gives by itself: the same
standard output and exit code in every format, before and after an edit. Command lines
the daemon cannot answer (help, usage errors, --output, --watch, --no-cache) are run by
the client itself, and nothing about a daemon (stopped, killed, idle, a folder others may
enter, a request it cannot read) ever costs a check more than its speed.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dmtool.daemon import protocol, server
from dmtool.validation import cache
from tests.test_cache_correctness import BAD, _tree

DMTOOL = [sys.executable, "-m", "dmtool"]


class Folder:
    """A content tree with its own daemon folder, and the commands run in it."""

    def __init__(self, base: Path, sockets: Path) -> None:
        self.base = base
        self.env = dict(os.environ, **{protocol.FOLDER_ENV: str(sockets),
                                       cache.CACHE_ENV: str(base / "cache")})
        for name in (protocol.NO_DAEMON_ENV, cache.NO_CACHE_ENV, "GITHUB_ACTIONS", "NO_COLOR"):
            self.env.pop(name, None)
        self.document = _tree(base) / "codas" / "quiet-hour.yaml"

    def run(self, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*DMTOOL, *args], cwd=self.base, env=dict(self.env, **env),
                              capture_output=True, text=True, check=False, timeout=120)

    def served(self) -> int:
        """How many checks the daemon has answered (it must be running)."""
        status = self.run("daemon", "status")
        assert status.returncode == 0, status.stdout + status.stderr
        return int(status.stdout.split("checks answered: ")[1].split(")")[0])

    def socket(self) -> Path:
        with _cwd(self.base):
            name = os.path.basename(protocol.socket_path(os.getcwd()))
        return Path(self.env[protocol.FOLDER_ENV]) / name


class _cwd:
    def __init__(self, where: Path) -> None:
        self.where, self.was = where, os.getcwd()

    def __enter__(self) -> None:
        os.chdir(self.where)

    def __exit__(self, *exc: object) -> None:
        os.chdir(self.was)


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Folder]:
    # A short folder for the sockets: AF_UNIX paths hold 107 bytes, pytest's are long.
    sockets = Path(tempfile.mkdtemp(prefix="dmd-"))
    made = Folder(tmp_path, sockets / "d")
    try:
        yield made
    finally:
        made.run("daemon", "stop")
        shutil.rmtree(sockets, ignore_errors=True)


@pytest.fixture
def running(folder: Folder) -> Folder:
    started = folder.run("daemon", "start", "--idle-timeout", "300")
    assert started.returncode == 0, started.stdout + started.stderr
    assert "ready in process" in started.stdout
    return folder


def _both(folder: Folder, *args: str) -> tuple[subprocess.CompletedProcess[str], ...]:
    """The check through the daemon and by itself, asserted to say the same."""
    asked = folder.served()
    through = folder.run("check", *args)
    assert folder.served() == asked + 1, "the daemon did not answer"
    alone = folder.run("check", "--no-daemon", *args)
    assert (through.returncode, through.stdout, through.stderr) == (
        alone.returncode, alone.stdout, alone.stderr)
    return through, alone


def test_a_check_the_daemon_answers_is_the_check_itself_before_and_after_edits(
        running: Folder) -> None:
    for args in ([], ["--format", "json"], ["--format", "sarif"], ["--format", "github"],
                 ["--strict", "--statistics"], ["content/codas", "--select", "DM0"]):
        _both(running, *args)
    before = _both(running)[0]
    assert "DM015" not in before.stdout
    text = running.document.read_text(encoding="utf-8")
    running.document.write_text(BAD, encoding="utf-8")
    through, _ = _both(running, "--format", "json")
    assert through.returncode == 1 and "DM015" in through.stdout
    assert "DM015" in _both(running)[0].stdout
    running.document.write_text(text, encoding="utf-8")
    assert _both(running)[0].stdout == before.stdout


def test_the_environment_and_the_configuration_are_the_clients(running: Folder) -> None:
    running.document.write_text(BAD, encoding="utf-8")
    asked = running.served()
    github = running.run("check", GITHUB_ACTIONS="true")
    assert github.stdout.startswith("::error ")
    assert running.served() == asked + 1
    (running.base / "dmtool.toml").write_text('ignore = ["DM015"]\n',
                                              encoding="utf-8")
    ignored = _both(running)[0]
    assert "DM015" not in ignored.stdout


def test_command_lines_for_the_command_itself_run_in_the_client(running: Folder) -> None:
    asked = running.served()
    help_text = running.run("check", "--help")
    assert help_text.returncode == 0 and "--no-daemon" in help_text.stdout
    wrong = running.run("check", "--format", "yaml")
    assert wrong.returncode == 2 and "yaml" in wrong.stderr
    missing = running.run("check", "nowhere")
    assert missing.returncode == 2 and "no such file or folder" in missing.stderr
    written = running.run("check", "--output", "report.json", "--format", "json")
    assert written.stdout == "" and '"DM' in (running.base / "report.json").read_text()
    alone = running.run("check", "--no-daemon")
    for bypassing in (running.run("check", "--no-cache"), running.run("check", DMTOOL_NO_CACHE="1"),
                      running.run("check", DMTOOL_NO_DAEMON="1")):
        assert bypassing.stdout == alone.stdout
    assert running.served() == asked  # none of them was answered by the daemon


def test_stop_and_status(running: Folder) -> None:
    assert running.socket().exists()
    again = running.run("daemon", "start")
    assert again.returncode == 2 and "already answers" in again.stderr
    stopped = running.run("daemon", "stop")
    assert "stopped process" in stopped.stdout
    assert not running.socket().exists()
    status = running.run("daemon", "status")
    assert status.returncode == 1 and "no daemon" in status.stdout
    assert running.run("check").returncode == 1  # wanderer: nobody
    assert "no daemon" in running.run("daemon", "stop").stdout


def test_a_killed_daemon_leaves_checks_as_they_were_and_can_be_started_again(
        running: Folder) -> None:
    pid = int(running.run("daemon", "status").stdout.split("process ")[1].split()[0])
    os.kill(pid, 9)
    _wait(lambda: running.run("daemon", "status").returncode == 1)
    assert running.socket().exists()  # left behind: nobody listens on it
    alone = running.run("check", "--no-daemon")
    assert running.run("check").stdout == alone.stdout
    assert running.run("daemon", "start").returncode == 0
    assert running.served() == 0


def test_a_daemon_ended_by_sigterm_leaves_no_socket(running: Folder) -> None:
    pid = int(running.run("daemon", "status").stdout.split("process ")[1].split()[0])
    os.kill(pid, 15)
    _wait(lambda: not running.socket().exists())


def test_a_folder_replaced_at_the_daemon_s_path_is_not_answered_for(running: Folder) -> None:
    # A fresh clone where the tree was: the daemon's folder is the old one, moved away.
    moved = running.base.with_name(running.base.name + "-old")
    running.base.rename(moved)
    shutil.copytree(moved, running.base, symlinks=True)
    running.document.write_text(BAD, encoding="utf-8")
    through = running.run("check")
    assert "DM015" in through.stdout
    assert through.stdout == running.run("check", "--no-daemon").stdout
    _wait(lambda: running.run("daemon", "status").returncode == 1)  # it stopped


def test_a_socket_folder_others_may_enter_is_not_used(running: Folder) -> None:
    sockets = running.socket().parent
    asked = running.served()
    sockets.chmod(0o755)
    try:
        assert running.run("check").returncode == 1  # wanderer: nobody
        refused = running.run("daemon", "status")
        assert refused.returncode == 1
    finally:
        sockets.chmod(0o700)
    assert running.served() == asked


def test_a_request_it_cannot_read_is_declined_and_the_daemon_goes_on(running: Folder) -> None:
    for garbage in (b"", b"\x00not marshal", protocol.encode((protocol.PROTOCOL, "check")),
                    protocol.encode((99, protocol.STATUS))):
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
            connection.connect(str(running.socket()))
            connection.sendall(garbage)
            connection.shutdown(socket.SHUT_WR)
            reply = protocol.decode(connection.recv(1 << 16))
        assert reply is not None and reply[0] == protocol.DECLINE
    _both(running)


def test_an_idle_daemon_stops_by_itself(folder: Folder) -> None:
    assert folder.run("daemon", "start", "--idle-timeout", "1").returncode == 0
    _wait(lambda: not folder.socket().exists())
    assert folder.run("daemon", "status").returncode == 1


def test_a_daemon_that_cannot_start_says_why(folder: Folder) -> None:
    failed = folder.run("daemon", "start", "nowhere")
    assert failed.returncode == 2
    assert "did not start" in failed.stderr and "no such file or folder" in failed.stderr
    assert not folder.socket().exists()


def test_the_client_and_the_cache_agree_on_the_no_cache_switch() -> None:
    assert protocol.NO_CACHE_ENV == cache.NO_CACHE_ENV


def test_a_change_of_dmtool_s_own_code_stops_the_daemon() -> None:
    request = (protocol.PROTOCOL, protocol.CHECK, protocol.identity(), os.getcwd(), (), (),
               False)
    reply, going_on = server._reply(request, lambda *_: (protocol.ANSWER, "", 0),
                                    os.getcwd(), code=["another code"])
    assert reply[0] == protocol.DECLINE and "code changed" in str(reply[1])
    assert going_on is False
    reply, going_on = server._reply(request, lambda *_: (protocol.ANSWER, "ok", 0),
                                    os.getcwd(), code=server.code_stamp())
    assert reply == (protocol.ANSWER, "ok", 0) and going_on


def _wait(condition: object, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)
