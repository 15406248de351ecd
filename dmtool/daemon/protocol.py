"""Where a folder's daemon listens, and the messages `dmtool check` and it exchange.

Messages are marshalled tuples (marshal is built in: the client imports nothing to speak
it, and it never runs code), one each way per connection: the client writes its request
and shuts its side, the daemon answers (after a byte saying it is alive every second
until then) and closes. The socket lives in a folder that only
its user may enter (checked by both sides), named by a hash of the working folder, so a
daemon answers for one folder only.
"""

from __future__ import annotations

import marshal
import os

# Built in, without hashlib's OpenSSL start-up (see validation/filekeys.py).
from _blake2 import blake2b

import dmtool

# Bumped whenever a message changes shape: a daemon and a client that disagree never talk.
PROTOCOL = 2
NO_DAEMON_ENV = "DMTOOL_NO_DAEMON"
# validation/cache.py's switch, named again here so that the client imports nothing of the
# check (a test holds the two equal): no cache means no daemon's memory either.
NO_CACHE_ENV = "DMTOOL_NO_CACHE"
FOLDER_ENV = "DMTOOL_DAEMON_DIR"
# The environment a check's report depends on (commands/check.py), sent with each request.
REPORT_ENV = ("GITHUB_ACTIONS", "NO_COLOR")
# A request is a command line: anything longer than this is not one of ours.
MAX_REQUEST = 1024 * 1024

# Before its reply, the daemon sends this byte every ALIVE_SECONDS while it works (or
# while the client waits for its turn); a marshalled tuple never starts with it. A client
# that hears nothing for SILENCE_SECONDS gives up: the daemon is stopped or stuck.
ALIVE = b"+"
ALIVE_SECONDS = 1.0
SILENCE_SECONDS = 5.0

CHECK, STATUS, STOP = "check", "status", "stop"
ANSWER, DECLINE = "answer", "decline"


def folder() -> str:
    """Where the sockets are: $DMTOOL_DAEMON_DIR, else the user's runtime folder, else a
    folder of the user's own in /tmp."""
    chosen = os.environ.get(FOLDER_ENV)
    if chosen:
        return chosen
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime:
        return os.path.join(runtime, "dmtool")
    return os.path.join("/tmp", f"dmtool-{os.getuid()}")


def socket_path(cwd: str) -> str:
    """The socket of the daemon that answers for the working folder `cwd`."""
    return os.path.join(folder(), f"{_name(cwd)}.sock")


def log_path(cwd: str) -> str:
    """Where the daemon for `cwd` writes what it has to say (its standard streams)."""
    return os.path.join(folder(), f"{_name(cwd)}.log")


def _name(cwd: str) -> str:
    # Collisions would do no harm: the daemon compares the request's folder with its own.
    return blake2b(cwd.encode("utf-8", "surrogateescape"), digest_size=10).hexdigest()


def is_private(path: str) -> bool:
    """Whether `path` is a real folder owned by this user that nobody else may enter."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return (info.st_mode & 0o170000 == 0o040000 and info.st_uid == os.getuid()
            and info.st_mode & 0o077 == 0)


def identity() -> tuple[str, str]:
    """Which dmtool this is: its version and where its package is (two clones differ)."""
    return dmtool.__version__, os.path.dirname(os.path.abspath(dmtool.__file__))


def encode(message: tuple[object, ...]) -> bytes:
    return marshal.dumps(message)  # type: ignore[arg-type]  # tuples of marshallable values


def decode(raw: bytes) -> tuple[object, ...] | None:
    """The message in `raw`, or None when it is not a tuple marshal can read."""
    try:
        message = marshal.loads(raw)
    except (EOFError, ValueError, TypeError):
        return None
    return message if type(message) is tuple and message else None
