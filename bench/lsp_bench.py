"""P8: `dmtool lsp` publishes diagnostics within 300 ms of a pause in typing.

A real server process over stdio, a copy of the real content/. Each round types a few
keystrokes into an open file (as an editor sends them, 40 ms apart) and times from the
last keystroke to the publication of the diagnostics that reflect it: the storybook's own
(a goto broken, then mended) and a cross-file one (a coda renamed: the storybook that
awards it gets DM202), so the figure includes the debounce, the check and the rules.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
STORYBOOK = Path("content/wanderers/hollis-brandt/storybook.yaml")
CODA = Path("content/wanderers/hollis-brandt/codas/the-wheel-turned.yaml")
KEYSTROKE_GAP = 0.04
ROUNDS = 6


class Client:
    """Just enough of an LSP client: framed JSON-RPC, and the diagnostics published so far."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        # (when, uri, diagnostics, version) of each publication
        self.published: asyncio.Queue[tuple[float, str, list[dict[str, Any]], int | None]] = asyncio.Queue()
        self.responses: dict[int, asyncio.Future[Any]] = {}
        # When each answer's last byte came in, by request id (before it is decoded: the
        # decoding is this client's own cost, which an editor's JSON parser pays its way).
        self.arrived: dict[int, float] = {}
        self.next_id = 0
        self.version = 1
        # Each message as it came in (when its last byte did, and its body), decoded in order.
        self._bodies: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()
        self.reader = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        await asyncio.gather(self._read(), self._decode())

    async def _read(self) -> None:
        """The server's messages, each timed when its last byte comes in. Decoding a long
        answer (a 10,000-entry outline: ~40 ms of json.loads) is done on another thread,
        so the messages after it are timed when they come, not when this client is free."""
        stream = self.process.stdout
        assert stream is not None
        while True:
            header = await stream.readuntil(b"\r\n\r\n")
            length = int(next(line.split(b":")[1] for line in header.split(b"\r\n")
                              if line.lower().startswith(b"content-length")))
            body = await stream.readexactly(length)
            self._bodies.put_nowait((time.perf_counter(), body))

    async def _decode(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            arrived, body = await self._bodies.get()
            message = await loop.run_in_executor(None, json.loads, body)
            if message.get("method") == "textDocument/publishDiagnostics":
                params = message["params"]
                self.published.put_nowait((arrived, params["uri"], params["diagnostics"],
                                           params.get("version")))
            elif "id" in message and "method" in message:  # a request from the server
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
            elif "id" in message and message["id"] in self.responses:
                self.arrived[message["id"]] = arrived
                self.responses.pop(message["id"]).set_result(message.get("result"))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        future = asyncio.get_running_loop().create_future()
        self.responses[self.next_id] = future
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return await future

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    async def type(self, uri: str, texts: list[str]) -> float:
        """Send each text as one keystroke, 40 ms apart; returns the time of the last one."""
        last = 0.0
        for text in texts:
            self.version += 1
            self.notify("textDocument/didChange", {
                "textDocument": {"uri": uri, "version": self.version}, "contentChanges": [{"text": text}]})
            last = time.perf_counter()
            await asyncio.sleep(KEYSTROKE_GAP)
        return last

    async def until(self, uri: str, check: Any, since: float) -> float:
        """Seconds from `since` to the first publication for `uri` that passes `check`."""
        while True:
            when, published_uri, diagnostics, _version = await asyncio.wait_for(self.published.get(), 60)
            if published_uri == uri and when >= since and check(diagnostics):
                return when - since


def _codes(diagnostics: list[dict[str, Any]]) -> set[str]:
    return {d["code"] for d in diagnostics}


async def measure(workspace: Path) -> tuple[list[float], list[float]]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "dmtool.cli", "lsp", cwd=workspace, stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    client = Client(process)
    await client.request("initialize", {"processId": None, "rootUri": workspace.as_uri(),
                                        "capabilities": {}, "workspaceFolders": [
                                            {"uri": workspace.as_uri(), "name": "bench"}]})
    client.notify("initialized", {})
    storybook, coda = workspace / STORYBOOK, workspace / CODA
    book_uri, coda_uri = storybook.as_uri(), coda.as_uri()
    book_text, coda_text = storybook.read_text(encoding="utf-8"), coda.read_text(encoding="utf-8")
    for uri, text in ((book_uri, book_text), (coda_uri, coda_text)):
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text}})
    await client.until(book_uri, lambda found: True, 0.0)  # the first analysis (loading) is not timed
    own: list[float] = []
    cross: list[float] = []
    for round_ in range(ROUNDS):
        # Type "goto: 11" into "goto: 99<round>9" one character at a time, then put it
        # back; rename the coda the storybook awards, then put it back. Each round types
        # a text of its own (the session remembers texts it saw: only putting back is an
        # undo it may answer from memory, as it would in an editor).
        broken_goto = [book_text.replace("goto: 11", f"goto: {n}", 1)
                       for n in ("1", "", "9", "99", f"99{round_}", f"99{round_}9")]
        renamed = [coda_text.replace("id: the-wheel-turned", f"id: the-wheel-turne{s}")
                   for s in ("", f"x{round_}")]
        plan = ((own, book_uri, broken_goto, "DM301", True),
                (own, book_uri, [book_text], "DM301", False),
                (cross, coda_uri, renamed, "DM202", True),
                (cross, coda_uri, [coda_text], "DM202", False))
        for times, uri, texts, code, present in plan:
            last = await client.type(uri, texts)
            times.append(await client.until(book_uri, lambda found, c=code, p=present: (c in _codes(found)) == p,
                                            last))
    await client.request("shutdown", None)
    client.notify("exit", None)
    await process.wait()
    client.reader.cancel()
    return own, cross


def main(out: Path) -> None:
    workspace = out / "lsp"
    shutil.rmtree(workspace, ignore_errors=True)
    workspace.mkdir(parents=True)
    shutil.copytree(ROOT / "content", workspace / "content")
    (workspace / "schemas").symlink_to(ROOT / "schemas")
    own, cross = asyncio.run(measure(workspace))
    for label, times in (("the storybook's own diagnostics", own),
                         ("cross-file (a coda renamed, the storybook's DM202)", cross)):
        print(f"P8 lsp, keystroke pause to {label}: median {statistics.median(times) * 1000:.0f} ms, "
              f"worst {max(times) * 1000:.0f} ms over {len(times)} edits (target <= 300)")


if __name__ == "__main__":
    main(ROOT / "bench" / "out")
