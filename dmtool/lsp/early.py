"""`dmtool lsp`'s first moments: `initialize` answered while the server is still importing.

An editor starts the server, sends `initialize` and waits for its answer before anything
else (issue #32: within 500 ms). Importing the server takes most of that time: pygls,
lsprotocol (which builds about a thousand attrs classes) and dmtool's checks. Yet the
answer needs none of them: it is what dmtool can do, told in the terms the client's
capabilities ask for, and capabilities.py states it as plain data. So the import starts
on a thread at once, and meanwhile this module reads the first message; when it is an
`initialize` request, it is answered here, from capabilities.py.

Once imported, the server is handed that same message under an id of its own
(HANDOVER_ID), so pygls sets up as for any `initialize` (the client's capabilities, the
workspace, dmtool's own initialize handler). Its answer to that id is never sent, since
the client has one: server.py compares it with the answer sent here and logs any
difference to the editor, so the early answer cannot silently lie. Anything else first,
or a message this module cannot read with certainty, is left to pygls as usual.

This module and those it imports (frames.py, capabilities.py) import neither pygls nor
lsprotocol nor dmtool's checks: they are what runs before those are there
(tests/test_lsp_early.py checks).
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import threading
from dataclasses import dataclass
from types import ModuleType
from typing import Any, BinaryIO

from dmtool.lsp.capabilities import initialize_result
from dmtool.lsp.frames import CHUNK, Framer, frame

# The module imported on a thread while the first message is read and answered.
SERVER_MODULE = "dmtool.lsp.server"
# The id of the `initialize` handed to the server after it was answered here: the
# server drops its own answer to this id (server.py, _answered_early).
HANDOVER_ID = "dmtool:initialize-answered-early"


@dataclass
class Opening:
    """What was read before the server was imported. `framer` holds any bytes read past
    the first message; `first` is that message's body (or why bytes were skipped; None
    when the input ended first); `answered` is the result sent for it, when it was an
    `initialize` answered here (`first` is then the handover: the same request under
    HANDOVER_ID)."""

    framer: Framer
    first: bytes | str | None = None
    answered: dict[str, Any] | None = None


class _Import(threading.Thread):
    """The server's module, imported in the background.

    importlib on a thread rather than an import statement: the import is the slow part
    of starting, and the point is to read and answer `initialize` while it runs."""

    def __init__(self) -> None:
        super().__init__(name="dmtool-lsp-import", daemon=True)
        self._module: ModuleType | None = None
        self._error: BaseException | None = None

    def run(self) -> None:
        try:
            self._module = importlib.import_module(SERVER_MODULE)
        except BaseException as error:  # raised again on the main thread (module())
            self._error = error

    def module(self) -> ModuleType:
        """The imported module, once the import is done; its error, if it failed."""
        self.join()
        if self._error is not None:
            raise self._error
        assert self._module is not None
        return self._module


def serve() -> None:
    """Run the language server on standard input and output (`dmtool lsp`)."""
    importing = _Import()
    importing.start()
    opening = answer_early(read_opening(sys.stdin.fileno()), sys.stdout.buffer)
    importing.module().serve(opening)


def read_opening(fd: int) -> Opening:
    """Read from `fd` until its first message is whole (or bytes were skipped, or the
    input ended)."""
    framer = Framer()
    while True:
        try:
            chunk = os.read(fd, CHUNK)
        except OSError:
            chunk = b""
        if not chunk:
            return Opening(framer)
        found = next(framer.feed(chunk), None)
        if found is not None:
            return Opening(framer, found)


def answer_early(opening: Opening, out: BinaryIO) -> Opening:
    """Answer the first message on `out` when it is an `initialize` whose answer is
    certain; the Opening to hand to the server (the handover in place of the request)."""
    request = _initialize_request(opening.first)
    result = initialize_result(request["params"]) if request is not None else None
    if request is None or result is None:
        return opening
    try:
        out.write(frame(json.dumps({"id": request["id"], "result": result, "jsonrpc": "2.0"})))
        out.flush()
    except BrokenPipeError:  # the editor is gone: the server finds out as it reads
        return opening
    handover = json.dumps({**request, "id": HANDOVER_ID}).encode()
    return Opening(opening.framer, handover, result)


def _initialize_request(first: bytes | str | None) -> dict[str, Any] | None:
    """The first message, if it is a well-formed JSON-RPC `initialize` request."""
    if not isinstance(first, bytes):
        return None
    try:
        message = json.loads(first)
    except ValueError:
        return None
    if not (isinstance(message, dict) and message.get("jsonrpc") == "2.0"
            and message.get("method") == "initialize" and isinstance(message.get("params"), dict)):
        return None
    number = message.get("id")
    if number.__class__ not in (int, str):  # not bool, null, a float or a list
        return None
    return message
