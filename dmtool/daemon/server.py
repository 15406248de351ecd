"""The daemon's side: listen on the folder's socket and answer one request at a time.

The loop knows nothing of checking: the CLI gives it the function that answers a
`dmtool check` command line (cli.py, over validation/live.py). Requests are served in
turn, each once its client has sent it whole (intake.py: a client that says nothing holds
up nobody), and nothing a client sends can stop the daemon but a STOP: a request that is
not of the expected shape gets a DECLINE, and so does one the answering function fails
on (the traceback goes to the daemon's log). The
daemon stops by itself when idle for its timeout, and when dmtool's own code changes
under it (its answers would no longer be that code's).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import threading
import traceback
from collections.abc import Callable
from typing import ClassVar, cast

from dmtool.daemon import protocol
from dmtool.daemon.client import Silent, exchange
from dmtool.daemon.intake import Intake
from dmtool.errors import UsageError
from dmtool.validation.filekeys import Stat, python_files, stat_of, trustworthy

# A check command line: its arguments, the environment it names, whether stdout is a terminal.
Answer = Callable[[tuple[str, ...], dict[str, str], bool], tuple[object, ...]]
# How long a client may take to read its reply (one that does not is only a loss to itself).
REPLY_SECONDS = 10.0
SILENT_DAEMON = (f"the daemon for this folder takes requests but has said nothing for "
                 f"{protocol.SILENCE_SECONDS:g} s: it is stopped (kill -STOP, or Ctrl-Z on "
                 "`dmtool daemon run`); resume it (kill -CONT, or fg) or end it (kill)")
# AF_UNIX addresses hold at most 108 bytes on Linux, the final NUL included.
MAX_SOCKET_PATH = 107


def serve(answer: Answer, *, cwd: str, idle_seconds: float,
          ready: Callable[[], None] = lambda: None,
          after_reply: Callable[[], None] = lambda: None) -> None:
    """Answer requests for the working folder `cwd` until stopped, idle or out of date;
    `after_reply` runs once a reply is sent (work the client need not wait for)."""
    path = protocol.socket_path(cwd)
    listener = _listen(path)
    bound = os.stat(path).st_ino
    code = code_stamp()
    if threading.current_thread() is threading.main_thread():
        # `kill` (SIGTERM) ends it as a STOP does, leaving no socket behind.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    intake = Intake(listener)
    try:
        ready()
        while True:
            got = intake.next_request(idle_seconds)
            if got is None:
                return  # idle for the whole timeout
            connection, raw = got
            with connection:
                going_on = _serve_one(connection, raw, intake, answer, cwd, code)
            after_reply()
            if not going_on:
                return
    finally:
        intake.close()
        listener.close()
        if (found := stat_of(path)) is not None and found[3] == bound:  # still ours
            os.unlink(path)


def code_stamp() -> object:
    """The stats of dmtool's own Python files (an upgrade or an edit changes them)."""
    return [(path, stat_of(path)) for path in _CodeFiles.now()]


class _CodeFiles:
    """dmtool's Python files, listed again only when a folder of them changed (a folder
    changed a moment before its listing is listed again every time, as live.py does)."""

    files: ClassVar[list[str] | None] = None
    folders: ClassVar[list[tuple[str, Stat | None]]] = []

    @classmethod
    def now(cls) -> list[str]:
        if cls.files is not None and all(stat_of(f) == s for f, s in cls.folders):
            return cls.files
        folders: list[tuple[str, Stat | None]] = []
        files = python_files(protocol.identity()[1], folders)
        kept = all(s is not None and trustworthy(s) for _, s in folders)
        cls.files, cls.folders = (files if kept else None), folders
        return files


def status(cwd: str) -> tuple[object, ...] | None:
    """(pid, served) of the daemon answering for `cwd`; None when none answers; Silent
    when one took the request but went quiet (it is stopped)."""
    reply = _ask(cwd, protocol.STATUS)
    if reply is None or len(reply) != 3 or reply[0] != protocol.STATUS:
        return None
    return reply[1:]


def stop(cwd: str) -> int | None:
    """Ask the daemon for `cwd` to stop; its pid, or None when none answered (Silent as
    for status)."""
    reply = _ask(cwd, protocol.STOP)
    if reply is None or len(reply) != 2 or reply[0] != protocol.STOP or type(reply[1]) is not int:
        return None
    return reply[1]


def private_folder() -> str:
    """The sockets' folder, made if need be; refused when others may enter it."""
    directory = protocol.folder()
    os.makedirs(directory, mode=0o700, exist_ok=True)
    if not protocol.is_private(directory):
        raise UsageError(f"{directory} is not a folder of yours that only you may enter; the "
                         f"daemon's socket must be private (set {protocol.FOLDER_ENV} to one)")
    return directory


def _ask(cwd: str, operation: str) -> tuple[object, ...] | None:
    path = protocol.socket_path(cwd)
    if not os.path.exists(path) or not protocol.is_private(os.path.dirname(path)):
        return None
    return exchange(path, (protocol.PROTOCOL, operation))


def _listen(path: str) -> socket.socket:
    private_folder()
    if len(os.fsencode(path)) > MAX_SOCKET_PATH:
        raise UsageError(f"the daemon's socket path is too long for the system ({path}); set "
                         f"{protocol.FOLDER_ENV} to a shorter folder")
    if os.path.exists(path):
        try:
            answered = exchange(path, (protocol.PROTOCOL, protocol.STATUS)) is not None
        except Silent:
            raise UsageError(SILENT_DAEMON) from None
        if answered:
            raise UsageError("a daemon already answers for this folder; stop it first "
                             "(dmtool daemon stop)")
        os.unlink(path)  # left by a daemon that was killed
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    mask = os.umask(0o077)
    try:
        listener.bind(path)
    except OSError as exc:
        listener.close()
        raise UsageError(f"cannot listen on {path}: {exc.strerror or exc}") from None
    finally:
        os.umask(mask)
    listener.listen(16)
    return listener


class _Served:
    count = 0  # check requests answered since the start (for `dmtool daemon status`)


def _serve_one(connection: socket.socket, raw: bytes, intake: Intake, answer: Answer,
               cwd: str, code: object) -> bool:
    """Answer one request read whole by the intake; False when the daemon is to stop."""
    request = protocol.decode(raw)
    with intake.keep_alive(connection):
        reply, going_on = _reply(request, answer, cwd, code)
    connection.settimeout(REPLY_SECONDS)
    with contextlib.suppress(OSError):  # the client went away (Ctrl-C): its loss only
        connection.sendall(protocol.encode(reply))
    return going_on


def _reply(request: tuple[object, ...] | None, answer: Answer, cwd: str,
           code: object) -> tuple[tuple[object, ...], bool]:
    if request is None or len(request) < 2 or request[0] != protocol.PROTOCOL:
        return (protocol.DECLINE, "not a request this daemon understands"), True
    operation = request[1]
    if operation == protocol.STATUS and len(request) == 2:
        return (protocol.STATUS, os.getpid(), _Served.count), True
    if operation == protocol.STOP and len(request) == 2:
        return (protocol.STOP, os.getpid()), False
    if operation != protocol.CHECK or len(request) != 7 or not _well_formed(request):
        return (protocol.DECLINE, "not a request this daemon understands"), True
    _, _, identity, where, argv, environ, terminal = request
    if identity != protocol.identity() or where != cwd:
        return (protocol.DECLINE, "a request for another dmtool or another folder"), True
    if not _still_there(cwd):
        return (protocol.DECLINE, "the folder it was started in is not at its path any more"), False
    if code_stamp() != code:
        return (protocol.DECLINE, "dmtool's code changed since the daemon started"), False
    try:
        # _well_formed: a tuple of strings, of pairs of strings, and a bool
        reply = answer(cast(tuple[str, ...], argv),
                       dict(cast(tuple[tuple[str, str], ...], environ)), cast(bool, terminal))
    except Exception:  # its own failure: logged, and the client checks by itself
        traceback.print_exc(file=sys.stderr)
        sys.stderr.flush()
        return (protocol.DECLINE, "the daemon failed on this request (see its log)"), True
    if reply and reply[0] == protocol.ANSWER:
        _Served.count += 1
    return reply, True


def _still_there(cwd: str) -> bool:
    """Whether the folder at the path `cwd` is still the daemon's working folder (not
    moved away and replaced, as a fresh clone in its place would be)."""
    here, there = stat_of("."), stat_of(cwd)
    return here is not None and there is not None and here[3:5] == there[3:5]


def _well_formed(request: tuple[object, ...]) -> bool:
    _, _, identity, where, argv, environ, terminal = request
    return (type(identity) is tuple and type(where) is str and type(terminal) is bool
            and type(argv) is tuple and all(type(a) is str for a in argv)
            and type(environ) is tuple
            and all(type(p) is tuple and len(p) == 2 and all(type(v) is str for v in p)
                    for p in environ))


def start_in_background(command: list[str], paths: list[str], cwd: str) -> int:
    """Run `command PATHS` (a `dmtool daemon run`) in a session of its own, its output
    going to the daemon's log, and wait until it says it is ready (it is given
    `--ready-fd=N`); its pid. Refused with the log's last lines when it ends before that."""
    private_folder()
    log = protocol.log_path(cwd)
    read_end, write_end = os.pipe()
    os.set_inheritable(write_end, True)
    try:
        pid = os.posix_spawn(command[0], [*command, f"--ready-fd={write_end}", "--", *paths], os.environ,
                             file_actions=[
                                 (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                                 (os.POSIX_SPAWN_OPEN, 1, log,
                                  os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
                                 (os.POSIX_SPAWN_DUP2, 1, 2)],
                             setsid=True)
    finally:
        os.close(write_end)
    with os.fdopen(read_end, "rb") as said:
        ready = said.read().startswith(b"ready")
    if ready:
        return pid
    os.waitpid(pid, 0)
    try:
        with open(log, encoding="utf-8", errors="replace") as handle:
            tail = "".join(handle.readlines()[-5:]).strip()
    except OSError:
        tail = ""
    raise UsageError("the daemon did not start" + (f":\n{tail}" if tail else ""))
