"""`initialize` answered before the server is imported (issue #32, early.py).

The early answer (capabilities.py, plain data) must be the one pygls would give: it is
compared with pygls's own, computed in process on the real server's registered features,
for the capabilities of several clients. A real `dmtool lsp` then answers `initialize`
with it exactly once and works as before; when the first message is anything else, the
server reads it as it always did.
"""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import client_capabilities

from dmtool.lsp.capabilities import differences, in_utf16, initialize_result
from dmtool.lsp.early import HANDOVER_ID, Opening, answer_early, read_opening
from dmtool.lsp.frames import Framer
from dmtool.lsp.server import server as lsp_server
from tests.test_cache_correctness import _tree
from tests.test_faults_lsp import PATIENCE, frame, request

_UNSTRUCTURE = default_converter().unstructure


def _client(name: str) -> dict[str, Any]:
    """A real client's capabilities as it sends them (JSON), from pytest-lsp's records."""
    return _UNSTRUCTURE(client_capabilities(name))


CLIENTS: dict[str, Callable[[], dict[str, Any]]] = {
    "empty": dict,
    "vscode": lambda: _client("visual-studio-code"),
    "neovim": lambda: _client("neovim"),
    "emacs": lambda: _client("emacs"),
    "utf-8 then utf-16": lambda: {"general": {"positionEncodings": ["utf-8", "utf-16"]}},
    "utf-32": lambda: {"general": {"positionEncodings": ["utf-32"]}},
    "unknown encodings": lambda: {"general": {"positionEncodings": ["utf-7", "ebcdic"]}},
    "no encodings": lambda: {"general": {"positionEncodings": []}},
    "general null": lambda: {"general": None},
    "prepare rename": lambda: {"textDocument": {"rename": {"prepareSupport": True}}},
    "no prepare rename": lambda: {"textDocument": {"rename": {"prepareSupport": False}}},
    "will save": lambda: {"textDocument": {"synchronization": {"willSave": True,
                                                               "willSaveWaitUntil": True}}},
    "will save off": lambda: {"textDocument": {"synchronization": {"willSave": False,
                                                                   "willSaveWaitUntil": False}}},
    "file operations": lambda: {"workspace": {"fileOperations": dict.fromkeys(
        ("didCreate", "willCreate", "didRename", "willRename", "didDelete", "willDelete"), True)}},
    "notebooks": lambda: {"notebookDocument": {"synchronization": {"dynamicRegistration": True}}},
}


@pytest.fixture
def pygls_answer() -> Iterator[Callable[[dict[str, Any]], dict[str, Any]]]:
    """pygls's answer to `initialize` on the real server, as the JSON it would send: its
    own lsp_initialize, on the features server.py registered. dmtool's handler is not run
    (it loads the workspace; it registers no feature, and a server that gets a different
    answer says so in its log, see test_a_wrong_early_answer_is_logged). The protocol's
    state is put back after."""
    protocol = lsp_server.protocol
    saved = [(kept, dict(vars(kept))) for kept in (lsp_server, protocol)]

    def answer(capabilities: dict[str, Any]) -> dict[str, Any]:
        params = protocol._converter.structure(  # as framing.py hands them to pygls
            in_utf16({"processId": None, "rootUri": None, "capabilities": capabilities}),
            types.InitializeParams)
        steps = protocol.lsp_initialize(params)
        handler, _args, _kwargs = next(steps)
        assert handler.func.__name__ == "_initialize"  # pygls binds the server to it
        try:
            steps.send(None)
        except StopIteration as done:
            response = types.InitializeResponse(id=1, result=done.value)
            return json.loads(json.dumps(response, default=protocol._serialize_message))["result"]
        raise AssertionError("pygls's initialize asked for more than dmtool's handler")

    yield answer
    for kept, state in saved:
        vars(kept).clear()
        vars(kept).update(state)


@pytest.mark.parametrize("name", CLIENTS)
def test_the_early_answer_is_pygls_answer(name: str, pygls_answer) -> None:
    capabilities = CLIENTS[name]()
    early = initialize_result({"processId": None, "capabilities": capabilities})
    assert early is not None
    assert differences(early, pygls_answer(capabilities)) == []


def test_a_feature_registered_without_its_capability_is_found(pygls_answer) -> None:
    # What the test above catches when server.py registers a feature capabilities.py
    # does not state (here for the length of the test, on the real server).
    features = lsp_server.protocol.fm.features
    features[types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT] = lambda ls, params: None
    try:
        found = differences(initialize_result({"capabilities": {}}), pygls_answer({}))
    finally:
        del features[types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT]
    assert found == ["capabilities.documentHighlightProvider: sent nothing, pygls true"]


@pytest.mark.parametrize("encodings", [["utf-8", "utf-16"], ["utf-32"], ["utf-8"], "utf-8", [8]])
def test_dmtool_speaks_utf16_whatever_encodings_the_client_lists(encodings: Any, pygls_answer) -> None:
    # dmtool counts columns in UTF-16 units; the protocol's default, which every client
    # speaks. pygls took the client's first it knew (Neovim lists utf-8 first).
    capabilities = {"general": {"positionEncodings": encodings}}
    early = initialize_result({"capabilities": capabilities})
    assert early is not None and early["capabilities"]["positionEncoding"] == "utf-16"
    assert pygls_answer(capabilities)["capabilities"]["positionEncoding"] == "utf-16"


@pytest.mark.parametrize("capabilities", [
    {"general": ["utf-8"]},
    {"textDocument": {"rename": {"prepareSupport": "yes"}}},
    {"textDocument": {"synchronization": {"willSave": 1}}},
    {"textDocument": []},
    {"workspace": {"fileOperations": {"didRename": "true"}}},
], ids=["general-a-list", "prepare-a-string",
        "will-save-a-number", "text-document-a-list", "file-operation-a-string"])
def test_capabilities_of_the_wrong_shape_are_left_to_pygls(capabilities: dict[str, Any]) -> None:
    # pygls's reading of them may differ: no early answer.
    assert initialize_result({"capabilities": capabilities}) is None


def test_params_without_capabilities_are_left_to_pygls() -> None:
    assert initialize_result({"processId": None}) is None
    assert initialize_result({"capabilities": None}) is None


def test_differences_name_each_place() -> None:
    sent = {"a": {"b": True, "c": [1]}, "d": 1}
    assert differences(sent, sent) == []
    assert differences(sent, {"a": {"b": 1, "c": [1], "e": None}}) == [
        "a.b: sent true, pygls 1", "a.e: sent nothing, pygls null", "d: sent 1, pygls nothing"]


def test_the_early_path_imports_neither_pygls_nor_lsprotocol() -> None:
    # What `dmtool lsp` imports before it answers: the CLI, then early.py with its modules.
    code = ("import sys, json\nstart = set(sys.modules)\nimport dmtool.cli\ncli = set(sys.modules)\n"
            "import dmtool.lsp.early\n"
            "print(json.dumps([sorted(set(sys.modules) - start), sorted(set(sys.modules) - cli)]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    imported, by_early = json.loads(done.stdout)
    heavy = [name for name in imported if name.split(".")[0] in ("lsprotocol", "pygls", "attrs", "cattrs")]
    assert heavy == []
    ours = {name for name in by_early if name.startswith("dmtool")}
    assert ours <= {"dmtool.lsp", "dmtool.lsp.early", "dmtool.lsp.frames",
                    "dmtool.lsp.capabilities", "dmtool.patterns"}, ours


def _read_from(pieces: list[bytes]) -> Opening:
    """read_opening on a pipe written `pieces` one at a time, then closed."""
    reading, writing = os.pipe()

    def write() -> None:
        for piece in pieces:
            os.write(writing, piece)
            time.sleep(0.01)
        os.close(writing)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    try:
        return read_opening(reading)
    finally:
        writer.join()  # the pieces fit in the pipe: all written, even those not read
        os.close(reading)


def test_the_first_message_is_read_whole_however_it_arrives() -> None:
    first = frame(request(1, "initialize", {"capabilities": {}}))
    second = frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    opening = _read_from([first[:10], first[10:30], first[30:] + second])
    assert opening.first == first.split(b"\r\n\r\n", 1)[1]
    # What the same read brought after it stays in the framer, for the server to read first.
    assert list(opening.framer.feed(b"")) == [second.split(b"\r\n\r\n", 1)[1]]


def test_input_that_ends_before_a_message_leaves_nothing_to_answer() -> None:
    assert _read_from([b"Content-Length: 40\r\n\r\n{"]).first is None


def test_an_initialize_is_answered_and_handed_over_under_the_servers_id() -> None:
    params = {"processId": None, "capabilities": {"general": {"positionEncodings": ["utf-32"]}}}
    out = io.BytesIO()
    body = json.dumps(request("seven", "initialize", params)).encode()
    opening = answer_early(Opening(Framer(), body), out)
    header, answer = out.getvalue().split(b"\r\n\r\n", 1)
    assert header == (b"Content-Length: %d\r\nContent-Type: application/vscode-jsonrpc; "
                      b"charset=utf-8" % len(answer))
    assert json.loads(answer) == {"id": "seven", "result": initialize_result(params), "jsonrpc": "2.0"}
    assert opening.answered == initialize_result(params)
    assert isinstance(opening.first, bytes)
    assert json.loads(opening.first) == {**json.loads(body), "id": HANDOVER_ID}


@pytest.mark.parametrize("first", [
    None,
    "a Content-Length of 0, outside 1..268435456",
    b"{not json",
    json.dumps(request(1, "shutdown")).encode(),
    json.dumps(request(True, "initialize", {"capabilities": {}})).encode(),
    json.dumps({"jsonrpc": "2.0", "method": "initialize", "params": {"capabilities": {}}}).encode(),
    json.dumps(request(1, "initialize", [1])).encode(),
    json.dumps({"id": 1, "method": "initialize", "params": {"capabilities": {}}}).encode(),
], ids=["no-message", "skipped-bytes", "not-json", "another-request", "a-boolean-id",
        "a-notification", "params-a-list", "not-json-rpc-2"])
def test_anything_else_first_is_left_to_the_server(first: bytes | str | None) -> None:
    out = io.BytesIO()
    opening = Opening(Framer(), first)
    assert answer_early(opening, out) is opening
    assert out.getvalue() == b""


class Session:
    """`dmtool lsp` (or another command) on pipes, every message it sends kept in order."""

    def __init__(self, workspace: Path, command: list[str] | None = None) -> None:
        self.process = subprocess.Popen(
            command or [sys.executable, "-m", "dmtool.cli", "lsp"], cwd=workspace,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.framer = Framer()
        self.received: list[dict[str, Any]] = []
        self.uri = (workspace / "content" / "codas" / "quiet-hour.yaml").as_uri()

    def send(self, data: bytes | dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data if isinstance(data, bytes) else frame(data))
        self.process.stdin.flush()

    def wait_for(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """The first message received that is `wanted`, reading on until one comes."""
        deadline = time.monotonic() + PATIENCE
        seen = 0
        while True:
            for message in self.received[seen:]:
                if wanted(message):
                    return message
            seen = len(self.received)
            left = deadline - time.monotonic()
            assert left > 0, "the server did not send what was awaited"
            out = self.process.stdout
            assert out is not None
            if select.select([out], [], [], left)[0]:
                chunk = os.read(out.fileno(), 1 << 16)
                assert chunk, "the server ended"
                self.received += [json.loads(b) for b in self.framer.feed(chunk) if isinstance(b, bytes)]

    def answer(self, number: int | None) -> dict[str, Any]:
        return self.wait_for(lambda m: "method" not in m and m.get("id") == number)

    def end(self) -> int:
        self.send(request(99, "shutdown"))
        assert self.answer(99).get("result", "missing") is None
        self.send({"jsonrpc": "2.0", "method": "exit"})
        code = self.process.wait(PATIENCE)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()
        return code

    def logged(self) -> list[str]:
        return [m["params"]["message"] for m in self.received if m.get("method") == "window/logMessage"]


@pytest.fixture
def session(tmp_path: Path) -> Iterator[Session]:
    _tree(tmp_path)
    started = Session(tmp_path)
    yield started
    if started.process.poll() is None:
        started.process.kill()
        started.process.wait()


def _initialize(capabilities: dict[str, Any], workspace: Path) -> dict[str, Any]:
    return {"processId": None, "rootUri": workspace.as_uri(), "capabilities": capabilities,
            "workspaceFolders": [{"uri": workspace.as_uri(), "name": "content"}]}


def test_a_real_server_answers_initialize_once_with_the_early_answer_and_works(
        session: Session, tmp_path: Path) -> None:
    params = {**_initialize(_client("visual-studio-code"), tmp_path),
              "initializationOptions": {"siteUrl": "https://example.org/dm"}}
    session.send(request(1, "initialize", params))
    assert session.answer(1)["result"] == initialize_result(params)
    session.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    text = (tmp_path / "content" / "codas" / "quiet-hour.yaml").read_text(encoding="utf-8")
    session.send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": session.uri, "languageId": "yaml", "version": 1, "text": text}}})
    published = session.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                                 and m["params"]["uri"] == session.uri)
    # The check ran (the coda is awarded by no storybook of this small tree), and dmtool's
    # own initialize handler was handed the params (the explanations link to the site).
    found = {d["code"]: d for d in published["params"]["diagnostics"]}
    assert found["DM309"]["codeDescription"]["href"].startswith("https://example.org/dm/")
    session.send(request(2, "textDocument/documentSymbol", {"textDocument": {"uri": session.uri}}))
    assert session.answer(2)["result"]
    assert session.end() == 0
    answers = [m for m in session.received if "method" not in m and m.get("id") in (1, HANDOVER_ID)]
    assert [m["id"] for m in answers] == [1]
    assert not [line for line in session.logged() if "initialize" in line]


@pytest.mark.parametrize("early", [True, False], ids=["answered-early", "answered-by-pygls"])
def test_a_real_server_speaks_utf16_to_a_client_that_lists_utf8_first(
        session: Session, tmp_path: Path, early: bool) -> None:
    if not early:  # a first message that is no initialize: pygls answers the initialize
        session.send(request(5, "textDocument/hover", {"textDocument": {"uri": session.uri},
                                                       "position": {"line": 0, "character": 0}}))
    capabilities = {"general": {"positionEncodings": ["utf-8", "utf-16", "utf-32"]}}
    session.send(request(1, "initialize", _initialize(capabilities, tmp_path)))
    assert session.answer(1)["result"]["capabilities"]["positionEncoding"] == "utf-16"
    session.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    assert session.end() == 0
    assert not [line for line in session.logged() if "initialize" in line]


def test_messages_sent_at_once_after_initialize_are_handled_in_order(
        session: Session, tmp_path: Path) -> None:
    # The editor does not wait: initialize, initialized, didOpen and a request in one write,
    # all read before the server is imported.
    text = (tmp_path / "content" / "codas" / "quiet-hour.yaml").read_text(encoding="utf-8")
    session.send(frame(request(1, "initialize", _initialize({}, tmp_path)))
                 + frame({"jsonrpc": "2.0", "method": "initialized", "params": {}})
                 + frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
                     "uri": session.uri, "languageId": "yaml", "version": 1, "text": text}}})
                 + frame(request(2, "textDocument/hover", {"textDocument": {"uri": session.uri},
                                                         "position": {"line": 0, "character": 0}})))
    assert "result" in session.answer(1)
    assert "result" in session.answer(2)
    assert session.end() == 0


@pytest.mark.parametrize("first", [
    b"Content-Length: twelve\r\n\r\n{}",
    b"Content-Length: 9\r\n\r\n{not json",
    frame(request(5, "textDocument/hover", {"textDocument": {"uri": "file:///x.yaml"},
                                            "position": {"line": 0, "character": 0}})),
    frame(request(5, "initialize", {"processId": None, "capabilities": {"general": ["utf-8"]}})),
], ids=["bad-frame", "not-json", "a-request", "capabilities-of-the-wrong-shape"])
def test_when_the_first_message_is_not_answered_early_the_server_reads_it_as_before(
        session: Session, tmp_path: Path, first: bytes) -> None:
    session.send(first)
    session.send(request(1, "initialize", _initialize({}, tmp_path)))
    answers = session.answer(1)
    assert answers["result"]["serverInfo"]["name"] == "dmtool"
    session.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    assert session.end() == 0
    assert [m["id"] for m in session.received if m.get("id") in (1, HANDOVER_ID)] == [1]


def test_a_wrong_early_answer_is_logged(tmp_path: Path) -> None:
    # A server whose early answer says it has no hover: pygls's answer says it has one,
    # and the editor is told.
    _tree(tmp_path)
    lying = ("import dmtool.lsp.early as early\n"
             "real = early.initialize_result\n"
             "def initialize_result(params):\n"
             "    result = real(params)\n"
             "    result['capabilities']['hoverProvider'] = False\n"
             "    return result\n"
             "early.initialize_result = initialize_result\n"
             "early.serve()\n")
    session = Session(tmp_path, [sys.executable, "-c", lying])
    try:
        session.send(request(1, "initialize", _initialize({}, tmp_path)))
        assert session.answer(1)["result"]["capabilities"]["hoverProvider"] is False
        session.send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        warning = session.wait_for(lambda m: m.get("method") == "window/logMessage"
                                   and "initialize" in m["params"]["message"])
        assert warning["params"]["type"] == types.MessageType.Warning
        assert "capabilities.hoverProvider: sent false, pygls true" in warning["params"]["message"]
        assert session.end() == 0
    finally:
        if session.process.poll() is None:
            session.process.kill()
            session.process.wait()
