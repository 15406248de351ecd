"""The console script's side: hand `dmtool check` to the folder's daemon, if one runs.

This runs before click or any of dmtool's checking code is imported (that is the point:
the answer costs the interpreter's start and one round trip), so it uses the standard
library's built-in modules only. Any doubt (no daemon, a socket in a folder others may
enter, a daemon that is stopping, declines or dies) returns None: the caller then checks
in its own process, as if no daemon had been there.
"""

from __future__ import annotations

import os
import sys

from dmtool.daemon import protocol

CONNECT_SECONDS = 2.0


def answer_check(argv: list[str]) -> int | None:
    """For `dmtool check ...` (`argv` without the program): the daemon's exit code, its
    report written to standard output; None when the check is to run here."""
    if not argv or argv[0] != protocol.CHECK:
        return None
    if os.environ.get(protocol.NO_DAEMON_ENV) or os.environ.get(protocol.NO_CACHE_ENV):
        return None
    options = argv[1:argv.index("--")] if "--" in argv else argv[1:]
    if "--no-daemon" in options or "--no-cache" in options:
        return None  # (the daemon would decline them too, after a round trip)
    try:
        cwd = os.getcwd()
    except OSError:  # the working folder was removed
        return None
    path = protocol.socket_path(cwd)
    if not os.path.exists(path) or not protocol.is_private(os.path.dirname(path)):
        return None
    request = (protocol.PROTOCOL, protocol.CHECK, protocol.identity(), cwd, tuple(argv[1:]),
               tuple((name, os.environ.get(name, "")) for name in protocol.REPORT_ENV),
               sys.stdout.isatty())
    try:
        reply = exchange(path, request)
    except Silent:
        sys.stderr.write(
            f"dmtool: the daemon for this folder did not answer for "
            f"{protocol.SILENCE_SECONDS:g} s (is it stopped, with kill -STOP or Ctrl-Z?); "
            "checking here instead.\n")
        sys.stderr.flush()
        return None
    if (reply is None or len(reply) != 3 or reply[0] != protocol.ANSWER
            or type(reply[1]) is not str or type(reply[2]) is not int):
        return None
    sys.stdout.write(reply[1])
    sys.stdout.flush()
    return reply[2]


class Silent(Exception):
    """The daemon took the connection but said nothing for protocol.SILENCE_SECONDS:
    it is stopped (kill -STOP, Ctrl-Z on `dmtool daemon run`) or stuck."""


def exchange(path: str, request: tuple[object, ...]) -> tuple[object, ...] | None:
    """Send one request to the daemon at `path` and return its reply (None: no reply);
    Silent when the daemon goes quiet for longer than protocol.SILENCE_SECONDS."""
    # Imported here: every dmtool start runs this module, and only one that finds a
    # daemon's socket talks to it (a one-file hook run without a daemon pays nothing).
    import _socket

    connection = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        connection.settimeout(CONNECT_SECONDS)
        connection.connect(path)
        # A large check takes the daemon a while, but it says it is alive every second
        # meanwhile: only a daemon that cannot run goes quiet for this long.
        connection.settimeout(protocol.SILENCE_SECONDS)
        connection.sendall(protocol.encode(request))
        connection.shutdown(_socket.SHUT_WR)
        parts = []
        while True:
            part = connection.recv(1 << 20)
            if not part:
                break
            parts.append(part)
    except TimeoutError:
        raise Silent from None
    except OSError:
        return None
    finally:
        connection.close()
    return protocol.decode(b"".join(parts).lstrip(protocol.ALIVE))
