"""`dmtool lsp`: the language server over stdio (pygls), wiring requests to the live check.

Edits are collected as they arrive; a short pause in typing (DEBOUNCE) starts one
analysis on a worker thread, so requests are answered while it runs. Each analysis
publishes the diagnostics of every file whose findings changed, open or not, so a fix in
one file clears the errors it caused in another. A request never takes the server down:
a failure is logged and answered with nothing.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import os
import sys
import threading
import traceback
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified, JsonRpcException
from pygls.lsp.server import LanguageServer

from dmtool import __version__
from dmtool.errors import DmtoolError
from dmtool.loading.collector import settle_lasting_state
from dmtool.lsp.buffers import IndexedWorkspace
from dmtool.lsp.capabilities import (
    CODE_ACTION_KINDS,
    COMPLETION_TRIGGERS,
    INTER_FILE_DEPENDENCIES,
    NAME,
    differences,
)
from dmtool.lsp.completion import complete
from dmtool.lsp.context import RequestContext, Tools
from dmtool.lsp.convert import path_of, to_lsp, uri_of
from dmtool.lsp.early import HANDOVER_ID, Opening
from dmtool.lsp.explain_links import ExplainLinks
from dmtool.lsp.frames import frame
from dmtool.lsp.framing import serve_stdio
from dmtool.lsp.lenses import code_lenses
from dmtool.lsp.navigation import definition, references
from dmtool.lsp.outline import folding_ranges, outline
from dmtool.lsp.rename import RenameRefused, prepare_rename, rename
from dmtool.lsp.schema_nav import ReferenceFinder, SchemaNavigator
from dmtool.lsp.symbols import workspace_symbols
from dmtool.lsp.tokens import LEGEND, semantic_tokens
from dmtool.lsp.workspace import LiveWorkspace, Snapshot, changed_files
from dmtool.validation.session import AnalysisStopped

# Seconds of quiet after the last edit before the check runs (part of P8's 300 ms).
DEBOUNCE = 0.05
# How long a request made right after start waits for the first analysis (the content's
# documents) before it is answered from what is known (nothing, at worst).
FIRST_ANALYSIS_WAIT = 30.0
# LSP's RequestFailed: the request was valid but cannot be carried out (a refused rename).
REQUEST_FAILED = -32803
_Result = TypeVar("_Result")
_CLOSE, _DISK = object(), object()


class DmtoolServer(LanguageServer):
    """The server's state: the live workspace, the pending edits and the checker task."""

    def __init__(self) -> None:
        super().__init__(NAME, __version__,
                         text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.live = LiveWorkspace()
        self.links = ExplainLinks()
        self.tools = Tools(SchemaNavigator(self.live.session.schemas),
                           ReferenceFinder(SchemaNavigator(self.live.session.schemas)))
        self.folders: list[Path] = []
        self.pending: dict[Path, Any] = {}
        # The version of each open buffer's text as last scheduled, and as last analysed:
        # diagnostics are published with the version of the text they describe.
        self.pending_versions: dict[Path, int] = {}
        self.versions: dict[Path, int] = {}
        self.ready = False
        self.settled = False  # whether the first analysis's state is frozen (settle_lasting_state)
        # Set once the first analysis is done (or failed): requests wait for it, since
        # before it the snapshot holds no documents and hovers would be empty.
        self.analysed = threading.Event()
        # Set while the snapshot describes the buffers' latest texts (cleared by an edit,
        # set when its analysis is in): a rename must not edit places of an older text.
        self.current = threading.Event()
        # Analyses stopped half way because a newer edit came (see _apply).
        self.stopped = 0
        # The files whose outline the editor asks for: it asks again after each edit, so
        # each new version's outline is written as soon as its analysis is published.
        self.outlined: set[Path] = set()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dmtool-check")
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    def log(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        self.window_log_message(types.LogMessageParams(type=kind, message=message))

    def context(self, uri: str) -> RequestContext | None:
        path = path_of(uri)
        if path is None:
            return None
        path = Path(os.path.abspath(path))
        text = self.workspace.get_text_document(uri).source
        return RequestContext(self.live.snapshot, self.tools, path, text)

    def schedule(self, path: Path, change: Any, version: int | None = None) -> None:
        """Note an edit (text, at the buffer's `version`), a close or a change on disk;
        the checker picks it up."""
        path = Path(os.path.abspath(path))
        self.pending[path] = change
        if version is not None:
            self.pending_versions[path] = version
        elif change is _CLOSE:
            self.pending_versions.pop(path, None)
        self.current.clear()
        self._start().set()

    def _start(self) -> asyncio.Event:
        if self._wake is None:
            self._wake = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(self._checker(self._wake))
        return self._wake

    async def _checker(self, wake: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        published = self.live.snapshot  # what the editor has been told
        edited: set[Path] = set()  # buffers edited since then
        while True:
            await wake.wait()
            while True:  # wait for a pause in the edits
                wake.clear()
                try:
                    await asyncio.wait_for(wake.wait(), DEBOUNCE)
                except TimeoutError:
                    break
            changes, self.pending = self.pending, {}
            self.versions.update(self.pending_versions)
            for path, change in changes.items():
                if change is _CLOSE:
                    self.versions.pop(path, None)
            edited.update(p for p, c in changes.items() if c is not _CLOSE and c is not _DISK)
            stopped = self.stopped
            try:
                after = await loop.run_in_executor(self._executor, self._apply, changes)
            except Exception:  # a bug in a rule must not stop live checking
                self.log("dmtool: the check failed:\n" + traceback.format_exc(), types.MessageType.Error)
                self.analysed.set()
                if not self.pending:
                    self.current.set()  # as current as it will get
                continue
            if after is None or self.pending:
                # Newer edits came in while these texts were read or analysed: what was
                # found describes texts already gone, so only the next round is published.
                if stopped != self.stopped:
                    self.log(f"dmtool: the analysis of {_versions(changes, self.versions)} stopped: "
                             "a newer edit came")
                continue
            changed = changed_files(published, after)
            for path in edited - changed.keys():  # an edited buffer always hears back
                changed[path] = after.diagnostics.get(path, ())
            self._publish(changed)
            self._outline_ahead(after, changed.keys())
            published, edited = after, set()
            self.analysed.set()
            self.current.set()

    def _outline_ahead(self, snapshot: Snapshot, changed: Iterable[Path]) -> None:
        """Write the outlines the editor will ask for, off the loop (outline.py keeps them)."""
        for path in self.outlined.intersection(changed):
            document = snapshot.documents.get(path)
            if document is not None:
                _REQUESTS.submit(outline, document, snapshot.corpus)

    def _apply(self, changes: dict[Path, Any]) -> Snapshot | None:
        """On the worker thread: load once, apply the edits, analyse."""
        if not self.ready:
            self.live.load()
            _warm_up()
            self.ready = True
        for path, change in changes.items():
            if change is _CLOSE:
                self.live.close(path)
            elif change is _DISK:
                self.live.disk_changed(path)
            else:
                self.live.change(path, change)
        if self.pending:
            # The author kept typing while these files were read: the rules would describe
            # a text that is already gone, so skip them and start on the newer one.
            return None
        # And when the author types on while the rules run, the rules not run yet are not
        # run at all (a newer edit's analysis starts at once, not after them).
        self.live.session.stop = self._stale
        try:
            analysed = self.live.analyse()
        except AnalysisStopped:
            self.stopped += 1
            return None
        finally:
            self.live.session.stop = None
        if not self.settled:
            settle_lasting_state()  # the workspace lives as long as the server: collector.py
            self.settled = True
        return analysed

    def _stale(self) -> bool:
        """Whether an edit came after the texts under analysis were taken (read from the
        worker: the event loop only ever sets `pending` to a new dict or adds to it)."""
        return bool(self.pending)

    def _publish(self, changed: dict[Path, Any]) -> None:
        for path, diagnostics in sorted(changed.items()):
            text = self.live.text(path) or ""
            found = [to_lsp(d, text, self.links.link(d.code)) for d in diagnostics]
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                uri=uri_of(path), diagnostics=found, version=self.versions.get(path)))


def _warm_up() -> None:
    """Import the hover's and the quick fixes' modules (the story graph's odds, the
    formatter: half of the server's own imports) on the checker's thread, during the
    first analysis: `initialize` is answered without waiting for them, and a request
    for them later finds them imported."""
    import dmtool.lsp.actions
    import dmtool.lsp.hover  # noqa: F401


def _versions(changes: dict[Path, Any], versions: dict[Path, int]) -> str:
    """The edited texts of an analysis, as `name v<version>`, for the server's log."""
    named = [f"{path.name} v{versions[path]}" for path in sorted(changes) if path in versions]
    return ", ".join(named) or "the workspace"


server = DmtoolServer()


class Prepared:
    """An answer already written as JSON text (the outline's, outline.py, or one made into
    JSON on a worker thread), sent as it is.
    cattrs passes a class it does not know through unchanged; `_send_prepared` writes
    its text, and pygls's own JSON encoder, which takes an object's `__dict__`, would
    find the data there. An editor asks for the outline after every key: a 10,000-entry
    book's is megabytes, which pygls encoded again on the event loop for each request."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    @property
    def __dict__(self) -> Any:  # type: ignore[override]
        return json.loads(self.text)


def _send_prepared(protocol: Any) -> None:
    """Answers whose result is Prepared are written from its JSON text; the others as
    pygls writes them (the same framing: its header, and ASCII JSON)."""
    send = protocol._send_data

    def send_data(data: Any) -> None:
        result = getattr(data, "result", None)
        if result.__class__ is not Prepared or protocol.writer is None:
            send(data)
            return
        protocol.writer.write(frame(f'{{"id": {json.dumps(data.id)}, "jsonrpc": "2.0", "result": {result.text}}}'))

    protocol._send_data = send_data


_send_prepared(server.protocol)


def _after_first_analysis(feature: Callable[..., Any]) -> Callable[..., Any]:
    """Answer on the event loop once the first analysis is in (waiting without blocking
    the loop, which must stay free to finish that analysis)."""

    @functools.wraps(feature)
    async def waiting(ls: DmtoolServer, params: Any) -> Any:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FIRST_ANALYSIS_WAIT
        while not ls.analysed.is_set() and loop.time() < deadline:
            await asyncio.sleep(0.02)
        return feature(ls, params)

    return waiting


_REQUESTS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="dmtool-request")


# Answers that read a whole long book (code lenses, all of a file's semantic tokens) run
# one at a time on a thread of their own, so they never hold up the requests above.
_WHOLE_BOOK = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dmtool-whole-book")


def _off_loop(feature: Callable[..., Any], pool: ThreadPoolExecutor = _REQUESTS) -> Callable[..., Any]:
    """Answer on a worker thread, so typing stays answered meanwhile; the answer is sent
    from the event loop (pygls's own thread handlers write it from the worker, where a
    long answer and a publication written at once interleave on stdout)."""

    @functools.wraps(feature)
    async def answered(ls: DmtoolServer, params: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(pool, feature, ls, params)

    return answered


def _off_loop_alone(feature: Callable[..., Any]) -> Callable[..., Any]:
    """As _off_loop, on the thread of the answers that read a whole book."""
    return _off_loop(feature, _WHOLE_BOOK)


def _safe(default: Any) -> Callable[[Callable[..., _Result]], Callable[..., _Result]]:
    """Answer `default` instead of failing when a feature raises (and log why)."""

    def wrap(feature: Callable[..., _Result]) -> Callable[..., _Result]:
        @functools.wraps(feature)
        def guarded(ls: DmtoolServer, params: Any) -> Any:
            try:
                return feature(ls, params)
            except JsonRpcException:
                raise  # an answer of its own: the editor shows its message
            except Exception:
                ls.log(f"dmtool: {feature.__name__} failed:\n{traceback.format_exc()}",
                       types.MessageType.Error)
                return default
        return guarded

    return wrap


@server.feature(types.INITIALIZE)
def _initialize(ls: DmtoolServer, params: types.InitializeParams) -> None:
    # Open buffers take keystrokes through a line index (buffers.py); pygls made the
    # workspace just now, with no document in it yet.
    ls.workspace.__class__ = IndexedWorkspace
    folders = [path_of(f.uri) for f in params.workspace_folders or []]
    if not folders and params.root_uri:
        folders = [path_of(params.root_uri)]
    ls.folders = [f for f in folders if f is not None] or [Path.cwd()]
    options = params.initialization_options if isinstance(params.initialization_options, dict) else {}
    site = options.get("siteUrl")
    ls.links = ExplainLinks(site if isinstance(site, str) and site else None)
    try:
        ls.live = LiveWorkspace.for_folders(ls.folders)
    except DmtoolError as exc:
        ls.live = LiveWorkspace()
        ls.window_show_message(types.ShowMessageParams(
            type=types.MessageType.Warning, message=f"dmtool: {exc}; using the defaults"))
    ls.tools = Tools(SchemaNavigator(ls.live.session.schemas),
                     ReferenceFinder(SchemaNavigator(ls.live.session.schemas)))


@server.feature(types.INITIALIZED)
async def _initialized(ls: DmtoolServer, params: types.InitializedParams) -> None:
    ls._start().set()  # the first analysis loads the content trees
    watching = ls.client_capabilities.workspace
    dynamic = watching and watching.did_change_watched_files
    if dynamic and dynamic.dynamic_registration:
        ls.client_register_capability(types.RegistrationParams(registrations=[types.Registration(
            id="dmtool-yaml", method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers=[
                types.FileSystemWatcher(glob_pattern="**/*.{yaml,yml}")]))]))


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
async def _did_open(ls: DmtoolServer, params: types.DidOpenTextDocumentParams) -> None:
    path = path_of(params.text_document.uri)
    if path is not None:
        ls.schedule(path, params.text_document.text, params.text_document.version)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
async def _did_change(ls: DmtoolServer, params: types.DidChangeTextDocumentParams) -> None:
    path = path_of(params.text_document.uri)
    if path is not None:
        ls.schedule(path, ls.workspace.get_text_document(params.text_document.uri).source,
                    params.text_document.version)


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
async def _did_close(ls: DmtoolServer, params: types.DidCloseTextDocumentParams) -> None:
    path = path_of(params.text_document.uri)
    if path is not None:
        ls.schedule(path, _CLOSE)


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
async def _watched(ls: DmtoolServer, params: types.DidChangeWatchedFilesParams) -> None:
    for change in params.changes:
        path = path_of(change.uri)
        if path is not None:
            ls.schedule(path, _DISK)


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
@_after_first_analysis
@_safe([])
def _definition(ls: DmtoolServer, params: types.DefinitionParams) -> list[types.Location]:
    context = ls.context(params.text_document.uri)
    return definition(context, params.position) if context else []


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
@_off_loop  # reads every document: off the loop, so typing stays answered
@_safe([])
def _references(ls: DmtoolServer, params: types.ReferenceParams) -> list[types.Location]:
    ls.analysed.wait(FIRST_ANALYSIS_WAIT)  # on a worker thread: blocking is fine here
    context = ls.context(params.text_document.uri)
    if context is None:
        return []
    return references(context, params.position, params.context.include_declaration)


@server.feature(types.TEXT_DOCUMENT_HOVER)
@_after_first_analysis
@_safe(None)
def _hover(ls: DmtoolServer, params: types.HoverParams) -> types.Hover | None:
    from dmtool.lsp.hover import hover  # after `initialize`: see _warm_up

    context = ls.context(params.text_document.uri)
    return hover(context, params.position) if context else None


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=COMPLETION_TRIGGERS))
@_off_loop  # a long book's entry numbers are thousands of items: made and written off the loop
@_safe(None)
def _completion(ls: DmtoolServer, params: types.CompletionParams) -> Any:
    ls.analysed.wait(FIRST_ANALYSIS_WAIT)  # on a worker thread: blocking is fine here
    context = ls.context(params.text_document.uri)
    found = complete(context, params.position) if context else None
    return Prepared(json.dumps(ls.protocol._converter.unstructure(found))) if found is not None else None


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind(k) for k in CODE_ACTION_KINDS]))
@_after_first_analysis
@_safe([])
def _code_action(ls: DmtoolServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    from dmtool.lsp.actions import code_actions  # see _warm_up

    context = ls.context(params.text_document.uri)
    return code_actions(context, params) if context else []


@server.feature(types.TEXT_DOCUMENT_FORMATTING)
@_off_loop  # a long storybook takes a moment to lay out and verify
@_safe(None)
def _formatting(ls: DmtoolServer, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
    from dmtool.lsp.actions import format_document  # see _warm_up

    context = ls.context(params.text_document.uri)
    if context is None or not ls.live.is_content(context.path, context.text):
        return None  # not content: a workflow's `on:` must stay as written
    return format_document(context, ls.live.session.schemas.directory)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@_off_loop  # every entry of a long storybook: off the loop, so typing stays answered
@_safe([])
def _symbols(ls: DmtoolServer, params: types.DocumentSymbolParams) -> Any:
    ls.analysed.wait(FIRST_ANALYSIS_WAIT)  # on a worker thread: blocking is fine here
    context = ls.context(params.text_document.uri)
    document = context.document if context else None
    if document is None:
        return []
    ls.outlined.add(document.path)
    return Prepared(outline(document, ls.live.snapshot.corpus))


@server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
@_off_loop
@_safe([])
def _folding(ls: DmtoolServer, params: types.FoldingRangeParams) -> list[types.FoldingRange]:
    ls.analysed.wait(FIRST_ANALYSIS_WAIT)
    context = ls.context(params.text_document.uri)
    document = context.document if context else None
    return folding_ranges(document) if document is not None else []


@server.feature(types.WORKSPACE_SYMBOL)
@_off_loop
@_safe([])
def _workspace_symbols(ls: DmtoolServer, params: types.WorkspaceSymbolParams) -> list[types.WorkspaceSymbol]:
    ls.analysed.wait(FIRST_ANALYSIS_WAIT)
    return workspace_symbols(ls.live.snapshot.documents.values(), params.query)


@server.feature(types.TEXT_DOCUMENT_DIAGNOSTIC,
                types.DiagnosticOptions(inter_file_dependencies=INTER_FILE_DEPENDENCIES,
                                        workspace_diagnostics=False))
@_after_first_analysis
@_safe(None)
def _pull(ls: DmtoolServer, params: types.DocumentDiagnosticParams) -> types.RelatedFullDocumentDiagnosticReport:
    """The diagnostics of the last analysis, for an editor that asks rather than listens."""
    path = path_of(params.text_document.uri)
    found = ls.live.snapshot.diagnostics.get(Path(os.path.abspath(path)), ()) if path else ()
    text = (ls.live.text(path) or "") if path else ""
    return types.RelatedFullDocumentDiagnosticReport(
        items=[to_lsp(d, text, ls.links.link(d.code)) for d in found])


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
@_off_loop  # finds the entry's books among every document
@_safe(None)
def _prepare_rename(ls: DmtoolServer, params: types.PrepareRenameParams) -> types.PrepareRenamePlaceholder | None:
    ls.current.wait(FIRST_ANALYSIS_WAIT)  # on a worker thread: the last edits' analysis
    context = ls.context(params.text_document.uri)
    return prepare_rename(context, params.position) if context else None


@server.feature(types.TEXT_DOCUMENT_RENAME)
@_off_loop  # walks every document for the places to change
@_safe(None)
def _rename(ls: DmtoolServer, params: types.RenameParams) -> types.WorkspaceEdit | None:
    ls.current.wait(FIRST_ANALYSIS_WAIT)
    context = ls.context(params.text_document.uri)
    if context is None:
        return None
    try:
        return rename(context, params.position, params.new_name, ls.live.text)
    except RenameRefused as refused:
        raise JsonRpcException(message=f"dmtool: {refused}", code=REQUEST_FAILED) from None


def _tokens(ls: DmtoolServer, uri: str, lines: tuple[int, int] | None) -> types.SemanticTokens | None:
    ls.current.wait(FIRST_ANALYSIS_WAIT)
    context = ls.context(uri)
    document = context.document if context else None
    if context is None or document is None or document.text != context.text:
        return None  # tokens of another text would land in the wrong places
    snapshot = context.snapshot  # the one the document came from

    def stale() -> bool:  # an edit came: its tokens will be asked for
        return not ls.current.is_set() or ls.live.snapshot.documents.get(context.path) is not document

    found = semantic_tokens(document, snapshot.documents, ls.tools.finder, lines, stale)
    if found is None:  # LSP's way to say "ask again": the editor does, for the new text
        raise JsonRpcContentModified("dmtool: the text changed while its tokens were read")
    return found


@server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, LEGEND)
@_off_loop_alone
@_safe(None)
def _semantic_tokens(ls: DmtoolServer, params: types.SemanticTokensParams) -> types.SemanticTokens | None:
    return _tokens(ls, params.text_document.uri, None)


@server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, LEGEND)
@_off_loop
@_safe(None)
def _semantic_tokens_range(ls: DmtoolServer,
                           params: types.SemanticTokensRangeParams) -> types.SemanticTokens | None:
    return _tokens(ls, params.text_document.uri, (params.range.start.line, params.range.end.line))


@server.feature(types.TEXT_DOCUMENT_CODE_LENS)
@_off_loop_alone  # the story graph's analysis of the book, once per version
@_safe([])
def _code_lens(ls: DmtoolServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    ls.current.wait(FIRST_ANALYSIS_WAIT)
    context = ls.context(params.text_document.uri)
    document = context.document if context else None
    if context is None or document is None or document.text != context.text:
        return []  # lenses of another text would stand over the wrong entries
    if not ls.current.is_set():  # typed on meanwhile: the editor asks again
        raise JsonRpcContentModified("dmtool: the text changed before its lenses were made")
    snapshot = context.snapshot  # the one the document came from
    return code_lenses(document, snapshot.documents, ls.tools.finder, snapshot.corpus)


def _answered_early(server: DmtoolServer, sent: dict[str, Any]) -> None:
    """The client had its answer to `initialize` before the server was imported
    (early.py): pygls's own answer to the handover (HANDOVER_ID) is never sent, only
    compared with the one sent, and any difference logged to the editor."""
    protocol = server.protocol
    send = protocol._send_data
    awaited = True  # the handover is answered once: later messages all go out

    def send_data(data: Any) -> None:
        nonlocal awaited
        if not awaited or getattr(data, "id", None) != HANDOVER_ID:
            send(data)
            return
        awaited = False
        answer = json.loads(json.dumps(data, default=protocol._serialize_message))
        if "error" in answer:
            found = [f"pygls answered with an error: {answer['error'].get('message')}"]
        else:
            found = differences(sent, answer.get("result"))
        if found:
            server.log("dmtool: initialize was answered before the server was loaded, and that "
                       f"answer differs from pygls's: {'; '.join(found)}", types.MessageType.Warning)

    protocol._send_data = send_data


SWITCH_INTERVAL = 0.001


def serve(opening: Opening | None = None) -> None:
    """Run the server on standard input and output until the client says exit, after
    what early.py read (and answered) before the server was imported."""
    logging.getLogger("pygls").setLevel(logging.WARNING)
    # The checker's thread holds the interpreter for long stretches of analysis; the
    # event loop and the request threads, which answer the editor, wait for it at most
    # this long each time (Python's default is 5 ms, and an answer passes between
    # threads several times).
    sys.setswitchinterval(SWITCH_INTERVAL)
    if opening is not None and opening.answered is not None:
        _answered_early(server, opening.answered)
    serve_stdio(server, sys.stdin.buffer, sys.stdout.buffer, opening)  # pygls's start_io, resilient
