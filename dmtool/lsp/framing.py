"""The language server's reading of its input: pygls's part.

The bytes are cut into messages by frames.py's Framer, which skips a badly framed
message and finds the next one (pygls's own reader never answered again after one);
each stretch of bytes skipped is logged here, to the editor too.

Messages that are read whole but cannot be taken (not JSON, or a request whose params do
not fit its method) are answered as JSON-RPC says: a parse error, or InvalidParams for
the request's id (pygls raised inside its reader and answered nothing, so the editor
waited forever).

`dmtool lsp` reads its first message before pygls is imported (early.py): what it read
(an Opening) is handled here first, in order, before anything read later.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import threading
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams, JsonRpcParseError
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCProtocol

from dmtool.lsp.capabilities import in_utf16
from dmtool.lsp.early import Opening
from dmtool.lsp.frames import CHUNK, Framer

logger = logging.getLogger(__name__)

_UINTEGER = 2**31 - 1
# Params whose contents are the editor's or a command's own, not the protocol's.
_FREE_FORM = frozenset(("initializationOptions", "settings", "arguments", "data"))


def serve_stdio(server: LanguageServer, stdin: BinaryIO, stdout: BinaryIO,
                opening: Opening | None = None) -> None:
    """pygls's start_io with this module's reader (see the module docstring), after what
    `opening` read before the server was imported."""
    server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(stdout))
    try:
        asyncio.run(_read(server, stdin.fileno(), opening or Opening(Framer())))
    except BrokenPipeError:
        logger.error("the editor closed the connection; the server stops")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()


async def _read(server: LanguageServer, fd: int, opening: Opening) -> None:
    loop = asyncio.get_running_loop()
    chunks: asyncio.Queue[bytes] = asyncio.Queue()

    def pump() -> None:  # a thread of its own, so a blocked read never holds up an exit
        while True:
            try:
                chunk = os.read(fd, CHUNK)
            except OSError:
                chunk = b""
            loop.call_soon_threadsafe(chunks.put_nowait, chunk)
            if not chunk:
                return

    # What was read before the server was imported comes first: the first message, then
    # any others the same reads brought (still in the framer).
    framer = opening.framer
    read_before = [] if opening.first is None else [opening.first]
    for found in itertools.chain(read_before, framer.feed(b"")):
        _handle(server, found)
    threading.Thread(target=pump, name="dmtool-lsp-stdin", daemon=True).start()
    stop = server._stop_event
    while stop is None or not stop.is_set():
        chunk = await chunks.get()
        if not chunk:
            logger.info("the editor closed the server's input; the server stops")
            return
        for found in framer.feed(chunk):
            _handle(server, found)


def _handle(server: LanguageServer, found: bytes | str) -> None:
    """Take a message's body, or log why bytes were skipped."""
    if isinstance(found, str):
        _log(server, f"dmtool: skipped {found}; reading resumes at the next message")
    else:
        _take(server.protocol, found)


def _take(protocol: JsonRPCProtocol, body: bytes) -> None:
    """Hand one body to pygls, or answer why it cannot be taken."""
    try:
        data = json.loads(body)
    except ValueError:
        _log(protocol._server, "dmtool: a message that is not JSON was answered with a parse error")
        protocol._send_response(None, None, JsonRpcParseError().to_response_error())
        return
    request = isinstance(data, dict) and "id" in data and "method" in data
    if request and data["method"] == "initialize":
        data = {**data, "params": in_utf16(data.get("params"))}  # see capabilities.py
    problem = _position_problem(data.get("params")) if request else None
    try:
        if problem is not None:
            raise JsonRpcInvalidParams(problem)
        message = protocol.structure_message(data) if isinstance(data, dict) else None
    except Exception as error:
        if request:
            _log(protocol._server, f"dmtool: {data['method']} had invalid params: {error}")
            protocol._send_response(data["id"], None, JsonRpcInvalidParams(
                problem or "the params do not fit the method").to_response_error())
        else:
            _log(protocol._server, f"dmtool: a message that does not fit the protocol was "
                 f"skipped: {error}")
        return
    if message is None or isinstance(message, dict):
        _log(protocol._server, "dmtool: a message that is not JSON-RPC 2.0 was skipped")
        return
    protocol.handle_message(message)


def _position_problem(params: Any) -> str | None:
    """What is wrong with a line or character in the params (pygls's converter would
    turn a string of digits into a number; the protocol says they are unsigned integers),
    or None."""
    pending = [params]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            for name in ("line", "character"):
                value = node.get(name)
                if name in node and not (value.__class__ is int and 0 <= value <= _UINTEGER):
                    return f"{name} must be a whole number from 0 to {_UINTEGER}, not {value!r}"
            pending.extend(value for key, value in node.items() if key not in _FREE_FORM)
        elif isinstance(node, list):
            pending.extend(node)
    return None


def _log(server: Any, text: str) -> None:
    logger.warning("%s", text)
    try:
        server.window_log_message(types.LogMessageParams(type=types.MessageType.Warning,
                                                         message=text))
    except Exception:  # the log is a courtesy: never a reason to stop reading
        logger.exception("could not log to the editor")
