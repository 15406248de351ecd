"""The daemon's intake: every client is read side by side, and none can hold up another.

Requests are answered one at a time, but read all at once: a connection is accepted as
soon as it arrives and read whenever it has bytes, without blocking, and it is answered
only once its request is whole (the client has shut its side). A client that connects and
says nothing (or too little) is closed after REQUEST_SECONDS while the others are read
and answered (a blocking read of it used to hold every other check back for that long).

While a request is answered, `keep_alive` tells every client it holds that the daemon is
alive (protocol.ALIVE), from a thread of its own: a client gives up on a daemon silent
for longer than protocol.SILENCE_SECONDS (one stopped with kill -STOP or Ctrl-Z) and
checks by itself, but waits as long as a large check takes, its own or another's.
"""

from __future__ import annotations

import contextlib
import selectors
import socket
import threading
import time
from collections import deque
from collections.abc import Iterator

from dmtool.daemon import protocol

# How long a client has to send its whole request once connected.
REQUEST_SECONDS = 10.0


class _Pending:
    __slots__ = ("parts", "size", "until")

    def __init__(self, until: float) -> None:
        self.parts: list[bytes] = []
        self.size = 0
        self.until = until


class Intake:
    """The listener's connections until each has sent its request (see the module)."""

    def __init__(self, listener: socket.socket) -> None:
        self._listener = listener
        listener.setblocking(False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(listener, selectors.EVENT_READ)
        self._pending: dict[socket.socket, _Pending] = {}
        self._whole: deque[tuple[socket.socket, bytes]] = deque()

    def next_request(self, idle_seconds: float) -> tuple[socket.socket, bytes] | None:
        """The next connection whose request is whole, with its bytes (b"" when it broke
        off or sent more than a request holds); None once idle for `idle_seconds` (no
        connection arrived or waits)."""
        idle_until = time.monotonic() + idle_seconds
        while not self._whole:
            now = time.monotonic()
            self._expire(now)
            if not self._pending and now >= idle_until:
                return None
            # Idle only once nobody waits: while someone does, wake for their deadline.
            until = min(p.until for p in self._pending.values()) if self._pending else idle_until
            for key, _ in self._selector.select(max(0.0, until - now)):
                if key.fileobj is self._listener:
                    self._accept()
                    idle_until = time.monotonic() + idle_seconds
                else:
                    self._read(key.fileobj)  # type: ignore[arg-type]
        connection, request = self._whole.popleft()
        connection.setblocking(True)
        return connection, request

    @contextlib.contextmanager
    def keep_alive(self, served: socket.socket) -> Iterator[None]:
        """While the block runs, tell `served` and every waiting client, every
        protocol.ALIVE_SECONDS, that the daemon is alive (clients arriving meanwhile are
        accepted, to be told too). The block must not use the intake."""
        done = threading.Event()

        def beat() -> None:
            while not done.wait(protocol.ALIVE_SECONDS):
                self._accept()
                for connection in (served, *self._pending, *(c for c, _ in self._whole)):
                    _tell_alive(connection)

        beating = threading.Thread(target=beat, name="dmtool-daemon-alive", daemon=True)
        beating.start()
        try:
            yield
        finally:
            done.set()
            beating.join()

    def close(self) -> None:
        for connection in [*self._pending, *(c for c, _ in self._whole)]:
            connection.close()
        self._pending.clear()
        self._whole.clear()
        self._selector.close()

    def _accept(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return  # (out of descriptors, or the listener closed): try again later
            connection.setblocking(False)
            self._pending[connection] = _Pending(time.monotonic() + REQUEST_SECONDS)
            self._selector.register(connection, selectors.EVENT_READ)

    def _read(self, connection: socket.socket) -> None:
        pending = self._pending[connection]
        try:
            part = connection.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            part, pending.parts = b"", []  # broken off: not a request
        if part:
            pending.parts.append(part)
            pending.size += len(part)
            if pending.size <= protocol.MAX_REQUEST:
                return
            pending.parts = []  # too long: not a request
        self._done(connection)
        self._whole.append((connection, b"".join(pending.parts)))

    def _expire(self, now: float) -> None:
        for connection, pending in list(self._pending.items()):
            if pending.until <= now:  # silent too long: it gets no answer
                self._done(connection)
                connection.close()

    def _done(self, connection: socket.socket) -> None:
        del self._pending[connection]
        self._selector.unregister(connection)


def _tell_alive(connection: socket.socket) -> None:
    # Gone, or not reading: it is told nothing more this time.
    with contextlib.suppress(OSError):
        connection.send(protocol.ALIVE, socket.MSG_DONTWAIT)
