"""Published diagnostics name the version of the text they describe, and a newer edit
makes the analysis under way stale: its findings are never published."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import LanguageClient
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES

from dmtool.lsp.server import DmtoolServer
from dmtool.lsp.workspace import LiveWorkspace
from dmtool.validation import session as session_module
from tests.lsp_support import (
    STORYBOOK,
    copy_workspace,
    diagnostics_for,
    open_file,
    position_of,
    replace_all,
    start,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    workspace = copy_workspace(tmp_path_factory.mktemp("lsp-versions"))
    recorded: list[types.PublishDiagnosticsParams] = []

    def record(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
        client.diagnostics[params.uri] = params.diagnostics
        recorded.append(params)

    # Every publication is kept (pygls hands the client to a handler annotated with its type) (the client's own handler keeps only each file's last).
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(DEFAULT_CLIENT_FEATURES, types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, record)
        client = await start(workspace)
    client.workspace_path, client.recorded = workspace, recorded
    yield client
    await client.shutdown_session()


async def test_diagnostics_carry_the_version_of_the_text_they_describe(client):
    path = client.workspace_path / STORYBOOK
    uri = open_file(client, path, version=4)
    await diagnostics_for(client, uri, lambda found: not found)
    text = path.read_text(encoding="utf-8")
    replace_all(client, uri, text.replace("goto: 11", "goto: 9999", 1), 9)
    await diagnostics_for(client, uri, lambda found: any(d.code == "DM301" for d in found))
    replace_all(client, uri, text, 10)
    await diagnostics_for(client, uri, lambda found: not found)
    mine = [(p.version, bool(p.diagnostics)) for p in client.recorded if p.uri == uri]
    assert mine == [(4, False), (9, True), (10, False)]
    # Files not open in the editor have no version to name.
    assert all(p.version is None for p in client.recorded if p.uri != uri)


class _Held(DmtoolServer):
    """A server whose analysis of version 1 waits until the test lets it go on."""

    def __init__(self) -> None:
        super().__init__()
        self.started, self.go_on = threading.Event(), threading.Event()
        self.sent: list[tuple[Path, Any, int | None]] = []

    def _apply(self, changes: dict[Path, Any]) -> Any:
        if any(text == "version 1" for text in changes.values()):
            self.started.set()
            self.go_on.wait(10)
        self.ready = True  # nothing to load: the edits alone are analysed
        return self.live.analyse()

    def _publish(self, changed: dict[Path, Any]) -> None:
        self.sent.extend((path, found, self.versions.get(path)) for path, found in changed.items())


async def test_an_edit_during_an_analysis_makes_its_findings_stale(tmp_path):
    server = _Held()
    path = tmp_path / "book.yaml"
    server.schedule(path, "version 1", 1)
    await asyncio.get_running_loop().run_in_executor(None, server.started.wait, 10)
    server.schedule(path, "version 2", 2)  # typed while version 1 is analysed
    server.go_on.set()
    for _ in range(200):
        if server.sent:
            break
        await asyncio.sleep(0.02)
    assert [(p, v) for p, _found, v in server.sent] == [(path, 2)]


class _Recording(DmtoolServer):
    """A server over a workspace that records what it would publish and log."""

    def __init__(self, workspace: Path) -> None:
        super().__init__()
        self.live = LiveWorkspace.for_folders([workspace])
        self.sent: list[tuple[Path, Any, int | None]] = []
        self.logged: list[str] = []

    def _publish(self, changed: dict[Path, Any]) -> None:
        self.sent.extend((path, found, self.versions.get(path)) for path, found in changed.items())

    def log(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        self.logged.append(message)


async def test_a_newer_edit_stops_the_rules_of_the_analysis_under_way(tmp_path, monkeypatch):
    """Not only dropped: the rules still to run for a stale text never run for it."""
    workspace = copy_workspace(tmp_path)
    monkeypatch.chdir(workspace)
    path = Path(os.path.abspath(workspace / STORYBOOK))
    text = path.read_text(encoding="utf-8")
    held, go_on = threading.Event(), threading.Event()
    witnessed: list[str] = []

    def marks(corpus: Any) -> list[str]:
        return [line for document in corpus.documents + corpus.partial
                if document.path == path for line in document.text.splitlines()
                if line.startswith("# typed ")]

    def gate(corpus: Any) -> list[Any]:  # runs first: holds the analysis of version 2
        if "# typed 2" in marks(corpus):
            held.set()
            go_on.wait(30)
        return []

    def witness(corpus: Any) -> list[Any]:  # runs last: which texts the rules got to
        witnessed.extend(marks(corpus))
        return []

    rules = session_module.rule_checks()
    monkeypatch.setattr(session_module, "rule_checks",
                        lambda: [("0-gate", gate), *rules, ("~witness", witness)])
    server = _Recording(workspace)
    server.schedule(path, text + "# typed 1\n", 1)
    for _ in range(1500):
        if server.sent:
            break
        await asyncio.sleep(0.02)
    server.schedule(path, text + "# typed 2\n", 2)
    await asyncio.get_running_loop().run_in_executor(None, held.wait, 30)
    server.schedule(path, text + "# typed 3\n", 3)  # typed while version 2 is analysed
    go_on.set()
    for _ in range(1500):
        if any(version == 3 for _p, _f, version in server.sent):
            break
        await asyncio.sleep(0.02)
    assert [v for p, _f, v in server.sent if p == path] == [1, 3]
    assert witnessed == ["# typed 1", "# typed 3"]  # version 2's rules stopped at the gate
    assert server.stopped == 1
    assert server.logged == ["dmtool: the analysis of storybook.yaml v2 stopped: a newer edit came"]


async def test_typing_on_stops_stale_analyses_and_only_the_last_version_is_published(client):
    """Through the protocol: keys a little slower than the debounce, each changing where a
    goto leads (every rule that reads the story graph runs again), come while the last
    key's analysis runs. The server says it stopped those analyses, publishes no version
    but the latest one it had, and the last version's diagnostics come."""
    path = client.workspace_path / STORYBOOK
    uri = open_file(client, path, version=20)
    await diagnostics_for(client, uri, lambda found: not found)
    text = path.read_text(encoding="utf-8")
    at = position_of(path, "goto: 11", offset=len("goto: 1"))
    sent: list[int] = []
    for version in range(21, 81):
        digit = "2" if version % 2 else "1"
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(
                range=types.Range(start=at, end=types.Position(line=at.line, character=at.character + 1)),
                text=digit)]))
        sent.append(version)
        await asyncio.sleep(0.06)
        if version >= 40 and any("stopped" in m.message for m in client.log_messages):
            break
    last = sent[-1]
    await diagnostics_for(client, uri, lambda found: True)
    for _ in range(500):
        if any(p.uri == uri and p.version == last for p in client.recorded):
            break
        await asyncio.sleep(0.02)
    stopped = [m.message for m in client.log_messages if "stopped" in m.message]
    assert stopped, "no analysis was stopped"
    assert all("storybook.yaml v" in m for m in stopped)
    mine = [p.version for p in client.recorded if p.uri == uri and p.version is not None and p.version > 20]
    assert mine[-1] == last  # the last version is answered
    assert mine == sorted(set(mine))  # never an older version after a newer one
    # A stopped version is never published.
    stopped_versions = {int(m.split(" v")[1].split()[0].rstrip(",")) for m in stopped}
    assert not stopped_versions & set(mine)
    # Put the text back for the tests after this one.
    replace_all(client, uri, text, last + 1)
    await diagnostics_for(client, uri, lambda found: not found)
