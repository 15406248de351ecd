"""The language server's reading of its input: frames found again after any mistake.

pygls's own reader trusts each header: after a Content-Length that is not a number, is
negative, too small or too large, or is missing, it read the next messages as headers
or as this one's body and never answered again, not even `shutdown`. Here the stream is
read as bytes, and a bad frame is logged and skipped, reading resuming at the next
`Content-Length: <digits>` line. A JSON body can never hold such a line: inside a string
the text would have to be followed by a raw line break, which JSON writes `\\r\\n`, and
outside strings it is no JSON at all. So a search for it never stops inside a good body,
and a body that holds one was given too large a length (it swallowed the next header);
one given too small a length leaves text that does not parse.

Messages that are read whole but cannot be taken (not JSON, or a request whose params do
not fit its method) are answered as JSON-RPC says: a parse error, or InvalidParams for
the request's id (pygls raised inside its reader and answered nothing, so the editor
waited forever).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
from collections.abc import Iterator
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams, JsonRpcParseError
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.protocol import JsonRPCProtocol

from dmtool.patterns import lazy

logger = logging.getLogger(__name__)

# A Content-Length line (any case): where reading resumes after skipped bytes.
_HEADER_START = lazy(rb"(?i)content-length:[ \t]*[0-9]+[ \t]*\r\n")
_LENGTH = lazy(rb"(?i)content-length:[ \t]*([0-9]+)[ \t]*")
# Any header line: a field name (an HTTP token), ':', a value.
_FIELD = lazy(rb"[A-Za-z0-9!#$%&'*+.^_`|~-]+:[^\r\n]*")
# Far above any message an editor sends (a whole storybook's text is a few MB).
MAX_BODY = 256 * 1024 * 1024
# A header block is a few short lines; more than this without its end is not one.
MAX_HEADER = 4096
_CHUNK = 1 << 16
_UINTEGER = 2**31 - 1
# Params whose contents are the editor's or a command's own, not the protocol's.
_FREE_FORM = frozenset(("initializationOptions", "settings", "arguments", "data"))


class Framer:
    """Bytes in, message bodies out, with the reason for every stretch of bytes skipped."""

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._body: tuple[int, int] | None = None  # (start, length) of the body awaited
        self._scanned = 0  # how far that body was searched for a header (see _take_body)
        self._lost = False  # the buffer starts with skipped bytes: look for a header

    def feed(self, data: bytes) -> Iterator[bytes | str]:
        """The bodies (bytes) and the reasons of skipped bytes (str) that `data` completes."""
        self._buffer += data
        while True:
            found = self._next()
            if found is None:
                return
            yield found

    def _next(self) -> bytes | str | None:
        if self._body is not None:
            return self._take_body(*self._body)
        buffer = self._buffer
        if self._lost:
            header = _HEADER_START.search(buffer)
            if header is None:
                del buffer[:max(0, len(buffer) - MAX_HEADER)]  # a header may be arriving
                return None
            del buffer[:header.start()]
            self._lost = False
        end = buffer.find(b"\r\n\r\n", 0, MAX_HEADER + 4)
        if end < 0:
            if len(buffer) > MAX_HEADER:
                return self._skip(1, "bytes outside any message")
            return None
        length = self._length(bytes(buffer[:end]))
        if length is None:
            return self._skip(1, "bytes outside any message")
        if isinstance(length, str):
            return self._skip(1, length)
        self._body, self._scanned = (end + 4, length), end + 4
        return self._take_body(end + 4, length)

    def _length(self, header: bytes) -> int | str | None:
        """The header's Content-Length, why the header is refused, or None when the
        block is not a header at all."""
        lines = header.split(b"\r\n")
        if not all(_FIELD.fullmatch(line) for line in lines):
            return None
        lengths = [line for line in lines if line[:15].lower() == b"content-length:"]
        if len(lengths) != 1:
            return f"a header with {len(lengths) or 'no'} Content-Length fields"
        value = _LENGTH.fullmatch(lengths[0])
        if value is None:
            shown = lengths[0][:80].decode("utf-8", "replace")
            return f"a Content-Length that is not a whole number ({shown!r})"
        length = int(value.group(1))
        if not 0 < length <= MAX_BODY:
            return f"a Content-Length of {length}, outside 1..{MAX_BODY}"
        return length

    def _take_body(self, start: int, length: int) -> bytes | str | None:
        buffer = self._buffer
        # A header inside the body awaited: its length ran past its message. Searched
        # from where the last search stopped (less a header's length, which may have
        # been cut by the read), so a large body arriving in many reads is searched once.
        since = max(start, self._scanned - MAX_HEADER)
        overrun = _HEADER_START.search(buffer, since, start + length + MAX_HEADER)
        self._scanned = len(buffer)
        if overrun is not None and overrun.start() < start + length:
            self._body = None
            del buffer[:overrun.start()]
            return "a Content-Length larger than its message"
        if len(buffer) < start + length:
            return None
        body = bytes(buffer[start:start + length])
        del buffer[:start + length]
        self._body = None
        return body

    def _skip(self, count: int, reason: str) -> str:
        """Drop `count` bytes and look for the next Content-Length line from there (the
        header refused may be a body's end run into the next header, which then starts
        inside the block)."""
        del self._buffer[:count]
        self._lost = True
        return reason


def serve_stdio(server: LanguageServer, stdin: BinaryIO, stdout: BinaryIO) -> None:
    """pygls's start_io with this module's reader (see the module docstring)."""
    server._stop_event = threading.Event()
    server.protocol.set_writer(StdoutWriter(stdout))
    try:
        asyncio.run(_read(server, stdin.fileno()))
    except BrokenPipeError:
        logger.error("the editor closed the connection; the server stops")
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        server.shutdown()


async def _read(server: LanguageServer, fd: int) -> None:
    loop = asyncio.get_running_loop()
    chunks: asyncio.Queue[bytes] = asyncio.Queue()

    def pump() -> None:  # a thread of its own, so a blocked read never holds up an exit
        while True:
            try:
                chunk = os.read(fd, _CHUNK)
            except OSError:
                chunk = b""
            loop.call_soon_threadsafe(chunks.put_nowait, chunk)
            if not chunk:
                return

    threading.Thread(target=pump, name="dmtool-lsp-stdin", daemon=True).start()
    framer = Framer()
    stop = server._stop_event
    while stop is None or not stop.is_set():
        chunk = await chunks.get()
        if not chunk:
            logger.info("the editor closed the server's input; the server stops")
            return
        for found in framer.feed(chunk):
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
