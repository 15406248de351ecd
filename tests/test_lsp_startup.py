"""A request made the moment the server starts is answered from the content, not from an
empty workspace: the server waits for its first analysis (it does not block meanwhile)."""

from __future__ import annotations

import pytest
from lsprotocol import types

from tests.lsp_support import STORYBOOK, position_of, server_fixtures

pytestmark = pytest.mark.asyncio(loop_scope="module")
workspace, client = server_fixtures("lsp-start")


async def test_a_hover_sent_at_once_after_start_knows_the_storybook(client, workspace):
    path = workspace / STORYBOOK
    # No file opened, no diagnostics awaited: the first request races the first analysis.
    found = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
        position=position_of(path, "roll: {red: [hand]}", 2)))
    assert found is not None and "(3/4)" in found.contents.value
