"""A request made the moment the server starts is answered from the content, not from an
empty workspace: the server waits for its first analysis (it does not block meanwhile)."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types

from tests.lsp_support import STORYBOOK, copy_workspace, position_of, start

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return copy_workspace(tmp_path_factory.mktemp("lsp-start"))


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(workspace: Path):
    client = await start(workspace)
    yield client
    await client.shutdown_session()


async def test_a_hover_sent_at_once_after_start_knows_the_storybook(client, workspace):
    path = workspace / STORYBOOK
    # No file opened, no diagnostics awaited: the first request races the first analysis.
    found = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        position=position_of(path, "roll: {red: [hand]}", 2)))
    assert found is not None and "(3/4)" in found.contents.value
