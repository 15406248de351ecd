"""dmtool's answer to `initialize`, as plain JSON data.

`dmtool lsp` answers `initialize` before pygls and lsprotocol are imported (early.py), so
the answer cannot come from pygls's ServerCapabilitiesBuilder. It is stated here instead,
as that builder computes it from the features server.py registers (with their options)
and from what the client says it supports. Two things keep the two the same:
tests/test_lsp_early.py compares them for many clients, so registering a feature in
server.py without stating it here fails a test; and each server compares its own
pygls's answer with the one it sent and logs any difference (server.py, _answered_early).

The feature options server.py registers are taken from here (the completion's trigger
characters, the quick fix kind, the semantic tokens' legend), so they are stated once.

No pygls nor lsprotocol here: this runs before they are imported.
"""

from __future__ import annotations

import json
from typing import Any

from dmtool import __version__

# The server's name in `serverInfo` (pygls's LanguageServer takes it with the version).
NAME = "dmtool"

# The semantic tokens' legend: token types and modifiers are sent as indexes into these
# lists (tokens.py). Standard names, so an editor's theme colours them without being told
# about dmtool.
ENTRY, CODA, TEST = "enumMember", "class", "function"
TOKEN_TYPES = [ENTRY, CODA, TEST]
DECLARATION, UNRESOLVED = "declaration", "unresolved"
TOKEN_MODIFIERS = [DECLARATION, UNRESOLVED]

# Completion is asked for after these as well as after a word's characters.
COMPLETION_TRIGGERS = [" ", ":"]
# The code actions dmtool offers: fixes for what diagnostics suggest.
CODE_ACTION_KINDS = ["quickfix"]
# Pulled diagnostics depend on other files (a goto to another book's entry).
INTER_FILE_DEPENDENCIES = True

# LSP's TextDocumentSyncKind.Incremental: edits arrive as ranged changes.
_INCREMENTAL = 2
# The position encoding dmtool speaks (see in_utf16).
_UTF16 = "utf-16"
# The file operations a client may say it sends. pygls states an operation's options only
# when the client supports it and the server registered it: dmtool registers none.
_FILE_OPERATIONS = ("willCreate", "didCreate", "willDelete", "didDelete", "willRename", "didRename")


# A member one JSON object has and the other lacks (see differences).
_MISSING = object()


class _Unsure(ValueError):
    """The client's capabilities are not of the shape they should be: pygls's reading of
    them may differ from this module's, so this module gives no answer."""


def in_utf16(params: Any) -> Any:
    """The `initialize` request's params as the server reads them: without the client's
    list of position encodings, so that pygls settles on UTF-16, the protocol's default,
    which every client speaks. dmtool counts every column it reads and writes in UTF-16
    units; pygls takes the client's first encoding it knows (Neovim lists utf-8 first),
    and every range on a line with a character outside ASCII was then off, a quick fix's
    edit among them."""
    if not isinstance(params, dict):
        return params
    client = params.get("capabilities")
    general = client.get("general") if isinstance(client, dict) else None
    if not isinstance(general, dict) or "positionEncodings" not in general:
        return params
    general = {key: value for key, value in general.items() if key != "positionEncodings"}
    return {**params, "capabilities": {**client, "general": general}}


def initialize_result(params: dict[str, Any]) -> dict[str, Any] | None:
    """pygls's InitializeResult for dmtool, as JSON, for the `initialize` request's
    `params` (as in_utf16 gives them to pygls); None when the params are not of the shape
    the answer depends on (pygls then answers, whatever it makes of them)."""
    client = in_utf16(params).get("capabilities")
    if not isinstance(client, dict) or not isinstance(client.get("general") or {}, dict):
        return None
    try:
        capabilities = server_capabilities(client)
    except _Unsure:
        return None
    return {"capabilities": capabilities, "serverInfo": {"name": NAME, "version": __version__}}


def server_capabilities(client: dict[str, Any]) -> dict[str, Any]:
    """dmtool's ServerCapabilities, told to a client with `client`'s capabilities (in
    the order pygls writes them)."""
    return {
        "positionEncoding": _UTF16,  # see in_utf16
        "textDocumentSync": _text_document_sync(client),
        "completionProvider": {"triggerCharacters": list(COMPLETION_TRIGGERS)},
        "hoverProvider": True,
        "definitionProvider": True,
        "referencesProvider": True,
        "documentSymbolProvider": True,
        "codeActionProvider": {"codeActionKinds": list(CODE_ACTION_KINDS)},
        "codeLensProvider": {"resolveProvider": False},
        "workspaceSymbolProvider": {"resolveProvider": False},
        "documentFormattingProvider": True,
        "renameProvider": _rename(client),
        "foldingRangeProvider": True,
        "executeCommandProvider": {"commands": []},
        "semanticTokensProvider": {
            "legend": {"tokenTypes": list(TOKEN_TYPES), "tokenModifiers": list(TOKEN_MODIFIERS)},
            "range": True, "full": True},
        "diagnosticProvider": {"interFileDependencies": INTER_FILE_DEPENDENCIES,
                               "workspaceDiagnostics": False},
        "workspace": {
            "workspaceFolders": {"supported": True, "changeNotifications": True},
            "fileOperations": _file_operations(client)},
        # A client's notebookDocument capabilities change nothing: dmtool syncs no notebooks.
    }


def _text_document_sync(client: dict[str, Any]) -> dict[str, Any]:
    sync: dict[str, Any] = {"openClose": True, "change": _INCREMENTAL}
    for name in ("willSave", "willSaveWaitUntil"):
        # pygls states these false when the client says either (dmtool registers neither),
        # and leaves them out when it says nothing.
        if _flag(client, "textDocument", "synchronization", name) is not None:
            sync[name] = False
    sync["save"] = False
    return sync


def _rename(client: dict[str, Any]) -> bool | dict[str, Any]:
    # LSP: RenameOptions only for a client that supports prepareRename.
    if _flag(client, "textDocument", "rename", "prepareSupport"):
        return {"prepareProvider": True}
    return True


def _file_operations(client: dict[str, Any]) -> dict[str, Any]:
    # None, whatever the client supports; but every flag is read, as pygls reads them, so
    # one of the wrong type makes the answer unsure.
    for name in _FILE_OPERATIONS:
        _flag(client, "workspace", "fileOperations", name)
    return {}


def _flag(client: dict[str, Any], *path: str) -> bool | None:
    value = _member(client, *path)
    if value is not None and not isinstance(value, bool):
        raise _Unsure(".".join(path))
    return value


def _member(node: Any, *path: str) -> Any:
    """The value at `path` in nested JSON objects: None where a member is missing or null."""
    for depth, name in enumerate(path):
        if node is None:
            return None
        if not isinstance(node, dict):
            raise _Unsure(".".join(path[:depth]))
        node = node.get(name)
    return node


def differences(sent: Any, computed: Any, path: str = "") -> list[str]:
    """Where two JSON values differ, one `where: sent X, pygls Y` line each."""
    if isinstance(sent, dict) and isinstance(computed, dict):
        found: list[str] = []
        for key in [*sent, *(k for k in computed if k not in sent)]:
            found += differences(sent.get(key, _MISSING), computed.get(key, _MISSING),
                                 f"{path}.{key}" if path else key)
        return found
    if _shown(sent) == _shown(computed):  # as JSON: true is not 1
        return []
    return [f"{path or 'the result'}: sent {_shown(sent)}, pygls {_shown(computed)}"]


def _shown(value: Any) -> str:
    return "nothing" if value is _MISSING else json.dumps(value, sort_keys=True)
