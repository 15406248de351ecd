"""Helpers for the language server tests: a copy of content/ and a client over stdio."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities
from pytest_lsp.client import make_test_lsp_client

REPO = Path(__file__).resolve().parents[2]
STORYBOOK = Path("content/wanderers/hollis-brandt/storybook.yaml")


def copy_workspace(tmp: Path) -> Path:
    """A workspace holding a copy of the real content/ and schemas/."""
    for folder in ("content", "schemas"):
        shutil.copytree(REPO / folder, tmp / folder)
    return tmp


def server_fixtures(name: str) -> tuple[object, object]:
    """Module-scoped `workspace` and `client` fixtures: one server over a fresh copy of the
    content serves a module's tests in order. Use: `workspace, client = server_fixtures("x")`."""

    @pytest.fixture(scope="module", name="workspace")
    def workspace_fixture(tmp_path_factory: pytest.TempPathFactory) -> Path:
        return copy_workspace(tmp_path_factory.mktemp(name))

    @pytest_asyncio.fixture(scope="module", loop_scope="module", name="client")
    async def client_fixture(workspace: Path):  # type: ignore[no-untyped-def]
        client = await start(workspace)
        yield client
        await client.shutdown_session()

    return workspace_fixture, client_fixture


async def start(workspace: Path, options: dict[str, object] | None = None) -> LanguageClient:
    """`dmtool lsp` started in `workspace`, initialised as VS Code would."""
    client = make_test_lsp_client()
    client.registrations = []  # type: ignore[attr-defined]

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def _register(params: types.RegistrationParams) -> None:
        # As VS Code does: accept the server's file watchers (the server asks for them).
        client.registrations.extend(params.registrations)  # type: ignore[attr-defined]

    await client.start_io(sys.executable, "-m", "dmtool.cli", "lsp", cwd=str(workspace))
    await client.initialize_session(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=workspace.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=workspace.as_uri(), name="content")],
        initialization_options=options,
    ))
    return client


def open_file(client: LanguageClient, path: Path, version: int = 1) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=types.TextDocumentItem(
        uri=uri, language_id="yaml", version=version, text=path.read_text(encoding="utf-8"))))
    return uri


def replace_all(client: LanguageClient, uri: str, text: str, version: int) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def diagnostics_for(client: LanguageClient, uri: str, predicate, timeout: float = 30.0):
    """Wait until the diagnostics published for `uri` satisfy `predicate`; returns them."""
    async def wait() -> list[types.Diagnostic]:
        while True:
            found = client.diagnostics.get(uri)
            if found is not None and predicate(found):
                return list(found)
            await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return await asyncio.wait_for(wait(), timeout)


def position_of(path: Path, needle: str, offset: int = 0, nth: int = 0) -> types.Position:
    """The position of the `nth` occurrence of `needle` in the file, plus `offset` characters."""
    seen = 0
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n")):
        start = line.find(needle)
        while start >= 0:
            if seen == nth:
                return types.Position(line=number, character=start + offset)
            seen += 1
            start = line.find(needle, start + 1)
    raise AssertionError(f"{needle!r} not found in {path}")
