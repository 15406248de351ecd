"""The language server under malformed input (issue #31, "the language server's framing").

After one badly framed message (a Content-Length that is not a number, negative, too
small, too large or missing) the server used to read every later message as a header or
as that one's body, and never answered again, not even `shutdown`. Requests whose params
did not fit their method (hover at line -3, positions as strings, `params: null`, a
completion with no position) got neither a result nor an error, so the editor waited
forever. Here a real `dmtool lsp` is spoken to byte by byte.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dmtool.lsp import framing
from dmtool.lsp.framing import Framer
from dmtool.lsp.server import server as lsp_server
from tests.test_cache_correctness import _tree

PATIENCE = 60.0  # a bound only a hang crosses
INVALID_PARAMS, PARSE_ERROR = -32602, -32700


def frame(message: dict[str, Any], length: object = None, fields: bytes = b"") -> bytes:
    body = json.dumps(message).encode()
    shown = len(body) if length is None else length
    return f"Content-Length: {shown}\r\n".encode() + fields + b"\r\n" + body


def request(number: int, method: str, params: object = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": number, "method": method}
    if params is not None:
        message["params"] = params
    return message


class RawServer:
    """`dmtool lsp` on pipes, written to as raw bytes."""

    def __init__(self, workspace: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "dmtool.cli", "lsp"], cwd=workspace,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.framer = Framer()
        self.read: list[dict[str, Any]] = []
        self.uri = (workspace / "content" / "codas" / "quiet-hour.yaml").as_uri()

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def answer(self, number: int | None) -> dict[str, Any]:
        """The response to request `number` (None: an error about no request)."""
        deadline = time.monotonic() + PATIENCE
        while True:
            for message in self.read:
                if "method" not in message and message.get("id") == number:
                    self.read.remove(message)
                    return message
            left = deadline - time.monotonic()
            assert left > 0, f"no answer to request {number}: the server is deaf"
            out = self.process.stdout
            assert out is not None
            if select.select([out], [], [], left)[0]:
                chunk = os.read(out.fileno(), 1 << 16)
                assert chunk, "the server ended"
                self.read += [json.loads(b) for b in self.framer.feed(chunk)
                              if isinstance(b, bytes)]

    def hover(self, number: int) -> dict[str, Any]:
        self.send(frame(request(number, "textDocument/hover", {
            "textDocument": {"uri": self.uri}, "position": {"line": 0, "character": 0}})))
        return self.answer(number)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RawServer]:
    _tree(tmp_path)
    started = RawServer(tmp_path)
    started.send(frame(request(0, "initialize", {
        "processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}})))
    assert "result" in started.answer(0)
    started.send(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
    yield started
    if started.process.poll() is None:
        started.process.kill()
    started.process.wait()
    for pipe in (started.process.stdin, started.process.stdout):
        if pipe is not None:
            pipe.close()


BAD_FRAMES = {
    "not a number": frame(request(90, "shutdown"), "twelve"),
    "negative": frame(request(90, "shutdown"), -40),
    "too small": frame(request(90, "shutdown"), 7),
    "too large": frame(request(90, "shutdown"), 4000),
    "missing": b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + json.dumps(
        request(90, "shutdown")).encode(),
    "zero": frame(request(90, "shutdown"), 0),
    "junk between messages": b"\r\nhello\r\n\r\n",
}


def test_after_each_malformed_frame_the_server_answers_the_next_message(
        server: RawServer) -> None:
    for number, (kind, bad) in enumerate(BAD_FRAMES.items(), start=1):
        server.send(bad)
        answered = server.hover(number)
        assert "result" in answered or "error" in answered, kind
    server.send(frame(request(99, "shutdown")))
    assert server.answer(99).get("result", "missing") is None
    server.send(frame({"jsonrpc": "2.0", "method": "exit"}))
    assert server.process.wait(PATIENCE) == 0


@pytest.mark.parametrize("params", [
    {"textDocument": {"uri": "file:///x.yaml"}, "position": {"line": -3, "character": 0}},
    {"textDocument": {"uri": "file:///x.yaml"}, "position": {"line": "1", "character": "0"}},
    {"textDocument": {"uri": "file:///x.yaml"}, "position": {"line": 2**40, "character": 0}},
    {"textDocument": {"uri": "file:///x.yaml"}},
    [1, 2],
    "params",
], ids=["negative-line", "string-position", "huge-line", "no-position", "a-list", "a-string"])
def test_parameters_that_do_not_fit_get_invalid_params(params: object) -> None:
    # Judged before any handler runs (framing._take), the same for every method; a real
    # server below shows that such an answer is sent.
    sent: list[tuple[Any, Any]] = []

    class Protocol:
        _server = None

        def _send_response(self, number: Any, _result: Any, error: Any) -> None:
            sent.append((number, error.code))

        def structure_message(self, data: Any) -> Any:
            return lsp_server.protocol.structure_message(data)

    for method in ("textDocument/hover", "textDocument/completion", "textDocument/definition"):
        framing._take(Protocol(), json.dumps(request(5, method, params)).encode())  # type: ignore[arg-type]
    assert sent == [(5, INVALID_PARAMS)] * 3


def test_every_invalid_request_is_answered_and_the_server_goes_on(server: RawServer) -> None:
    document = {"uri": server.uri}
    invalid = [
        request(1, "textDocument/hover", {"textDocument": document,
                                          "position": {"line": -3, "character": 0}}),
        request(2, "textDocument/hover", {"textDocument": document,
                                          "position": {"line": "x", "character": "0"}}),
        {"jsonrpc": "2.0", "id": 3, "method": "textDocument/hover", "params": None},
        request(4, "textDocument/completion", {"textDocument": document}),
        request(5, "textDocument/definition", [1, 2]),
    ]
    for message in invalid:
        server.send(frame(message))
        answered = server.answer(message["id"])
        assert answered["error"]["code"] == INVALID_PARAMS, message
    server.send(b"Content-Length: 9\r\n\r\n{not json")
    assert server.answer(None)["error"]["code"] == PARSE_ERROR
    assert "result" in server.hover(6)


def test_the_server_ends_when_its_input_closes(server: RawServer) -> None:
    assert server.process.stdin is not None
    server.process.stdin.close()
    server.process.wait(PATIENCE)


@pytest.mark.parametrize("kind", BAD_FRAMES)
def test_the_framer_finds_the_next_message_whatever_the_reads(kind: str) -> None:
    after = frame(request(7, "shutdown"))
    stream = BAD_FRAMES[kind] + after
    for size in (len(stream), 1, 5):
        framer = Framer()
        found = [item for start in range(0, len(stream), size)
                 for item in framer.feed(stream[start:start + size])]
        bodies = [item for item in found if isinstance(item, bytes)]
        assert bodies[-1] == after.split(b"\r\n\r\n", 1)[1], (kind, size)
        assert any(isinstance(item, str) for item in found), kind


def test_a_body_that_mentions_a_header_is_read_whole_whatever_the_reads() -> None:
    # A log message quoting a bad header, then the next message: the text inside the
    # string is no header, however the stream is cut (found by this suite's own reader).
    quoting = frame({"jsonrpc": "2.0", "method": "window/logMessage", "params": {
        "message": "skipped 'Content-Length: twelve'\r\nContent-Length: 3\r\n"}})
    after = frame(request(8, "shutdown"))
    stream = quoting + after
    for size in range(1, 40):
        framer = Framer()
        found = [item for start in range(0, len(stream), size)
                 for item in framer.feed(stream[start:start + size])]
        assert found == [quoting.split(b"\r\n\r\n", 1)[1], after.split(b"\r\n\r\n", 1)[1]]
