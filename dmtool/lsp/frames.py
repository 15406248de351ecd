"""Frames of the language server's input, found again after any mistake: bytes only.

pygls's own reader trusts each header: after a Content-Length that is not a number, is
negative, too small or too large, or is missing, it read the next messages as headers
or as this one's body and never answered again, not even `shutdown`. Here the stream is
read as bytes, and a bad frame is skipped with its reason, reading resuming at the next
`Content-Length: <digits>` line. A JSON body can never hold such a line: inside a string
the text would have to be followed by a raw line break, which JSON writes `\\r\\n`, and
outside strings it is no JSON at all. So a search for it never stops inside a good body,
and a body that holds one was given too large a length (it swallowed the next header);
one given too small a length leaves text that does not parse.

This module imports neither pygls nor lsprotocol: `dmtool lsp` reads its first message
with it before those are imported (early.py). framing.py hands the bodies to pygls.
"""

from __future__ import annotations

from collections.abc import Iterator

from dmtool.patterns import lazy

# A Content-Length line (any case): where reading resumes after skipped bytes.
_HEADER_START = lazy(rb"(?i)content-length:[ \t]*[0-9]+[ \t]*\r\n")
_LENGTH = lazy(rb"(?i)content-length:[ \t]*([0-9]+)[ \t]*")
# Any header line: a field name (an HTTP token), ':', a value.
_FIELD = lazy(rb"[A-Za-z0-9!#$%&'*+.^_`|~-]+:[^\r\n]*")
# Far above any message an editor sends (a whole storybook's text is a few MB).
MAX_BODY = 256 * 1024 * 1024
# A header block is a few short lines; more than this without its end is not one.
MAX_HEADER = 4096
# Bytes asked of the input at a time.
CHUNK = 1 << 16
# pygls's header, written before each message the server sends.
CONTENT_TYPE = "application/vscode-jsonrpc; charset=utf-8"


def frame(body: str) -> bytes:
    """A message body (ASCII JSON) with its header, as pygls writes it."""
    return f"Content-Length: {len(body)}\r\nContent-Type: {CONTENT_TYPE}\r\n\r\n{body}".encode("ascii")


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
