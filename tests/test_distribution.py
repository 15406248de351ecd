"""dmtool as a fan or a publisher gets it: the built wheel, installed into a fresh venv, in a
scratch repository that holds nothing but one new wanderer.

The wheel must carry the schemas and the games' own content: the wanderer refers to a
base-game terror and must check clean; play, balance, site and the language server work
there; both pre-commit hooks work through `pre-commit try-repo`, which installs this
repository non-editable, as pre-commit does for every user. One venv serves the module
(building and installing is most of its time); pip reaches only the configured index,
once, for every wheel the module installs.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import shutil
import subprocess
import sys
import threading
import venv
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
WANDERER = "content/wanderers/ilse-marrow"
STORYBOOK = f"{WANDERER}/storybook.yaml"
# A base-game terror (content/dawn-of-madness/terrors/), which the scratch repository lacks.
SPAWN = "      - spawn_terror: {terror: silt-choristers, shard: random}\n"


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 300,
         check: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout, check=False)
    if check:
        assert done.returncode == 0, f"{args}: {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


class Installed:
    """The venv with the wheel, the scratch repository, and the hook repository."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.source = root / "dmtool-src"  # a git repository of this checkout's files
        self.scratch = root / "scratch"
        self.bin = root / "venv" / "bin"
        self.env = {**os.environ, "PATH": f"{self.bin}{os.pathsep}{os.environ['PATH']}",
                    "PRE_COMMIT_HOME": str(root / "pre-commit-home"),
                    "DMTOOL_CACHE_DIR": str(root / "cache"), "GIT_AUTHOR_NAME": "t",
                    "GIT_AUTHOR_EMAIL": "t@example.invalid", "GIT_COMMITTER_NAME": "t",
                    "GIT_COMMITTER_EMAIL": "t@example.invalid"}
        for name in ("VIRTUAL_ENV", "PYTHONPATH", "DMTOOL_ENGINE"):
            self.env.pop(name, None)

    def dmtool(self, *args: str, check: bool = True,
               timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return _run([str(self.bin / "dmtool"), *args], self.scratch, self.env, timeout, check)


def _copy_checkout(target: Path, env: dict[str, str]) -> None:
    """This checkout's files as git sees them (committed or not, never ignored ones), in a
    repository of their own: what pre-commit clones, and what the wheel is built from."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=REPO,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = REPO / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "snapshot"]):
        _run(["git", *args], target, env)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    here = Installed(tmp_path_factory.mktemp("distribution"))
    _copy_checkout(here.source, here.env)
    dist = here.root / "dist"
    # The wheel is built as `make test` builds it (PyPA build, in an isolated environment).
    _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist),
          str(here.source)], here.root, here.env)
    (wheel,) = dist.glob("dmtool-*.whl")
    # Every wheel needed, fetched once: the venv and pre-commit's own environment for the
    # hooks (which builds dmtool from its repository) then install without the network.
    house = here.root / "wheelhouse"
    _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
          "--wheel-dir", str(house), str(wheel), "pre-commit>=3.5,<5", "setuptools>=77",
          "wheel"], here.root, here.env, timeout=900)
    # No byte-compiling on install either: most of an install's time, for files this
    # module runs a few times at most.
    here.env.update(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(house), PIP_NO_COMPILE="1")
    venv.create(here.root / "venv", with_pip=True)
    _run([str(here.bin / "python"), "-m", "pip", "install", "--quiet",
          "--disable-pip-version-check", str(wheel), "pre-commit>=3.5,<5"],
         here.root, here.env, timeout=600)
    here.scratch.mkdir()
    _run(["git", "init", "-q"], here.scratch, here.env)
    here.dmtool("new", "wanderer", "Ilse Marrow")
    book = here.scratch / STORYBOOK
    text = book.read_text(encoding="utf-8")
    book.write_text(text.replace("      - end: event\n", SPAWN + "      - end: event\n", 1),
                    encoding="utf-8")
    _run(["git", "add", "-A"], here.scratch, here.env)
    _run(["git", "commit", "-qm", "a wanderer"], here.scratch, here.env)
    return here


def test_the_wanderer_checks_clean_against_the_packaged_game(installed: Installed) -> None:
    assert not (installed.scratch / "schemas").exists()
    assert not (installed.scratch / "content" / "dawn-of-madness").exists()
    done = installed.dmtool("check")
    assert "All checks passed" in done.stdout
    # No DM018: the modeline `dmtool new` wrote resolves to the packaged schema.
    assert "DM018" not in done.stdout
    book = installed.scratch / STORYBOOK
    text = book.read_text(encoding="utf-8")
    book.write_text(text.replace("silt-choristers", "silt-chorister"), encoding="utf-8")
    try:
        broken = installed.dmtool("check", STORYBOOK, check=False)
    finally:
        book.write_text(text, encoding="utf-8")
    assert broken.returncode == 1, broken.stdout
    assert "silt-chorister" in broken.stdout and "DM015" not in broken.stdout


def test_version_names_the_packaged_content(installed: Installed) -> None:
    first, content = installed.dmtool("--version").stdout.splitlines()[:2]
    assert first.startswith("dmtool, version ")
    assert "dawn-of-madness, deep-madness" in content and "site-packages" in content


def test_graph_and_play(installed: Installed) -> None:
    assert "ilse-marrow-storybook" in installed.dmtool("graph", STORYBOOK).stdout
    # Given no path, graph and odds read content/ here, as check does.
    assert "ilse-marrow-storybook" in installed.dmtool("graph").stdout
    assert STORYBOOK in installed.dmtool("odds").stdout
    played = installed.dmtool("play", "--wanderer", "ilse-marrow", "--quiet", "--seed", "2")
    assert "result:" in played.stdout


def test_balance_reports_what_it_played_and_its_replay_line_works(installed: Installed) -> None:
    done = installed.dmtool("balance", "--wanderer", "ilse-marrow", "--games", "20",
                            "--jobs", "1", "--json", "balance.json")
    report = json.loads((installed.scratch / "balance.json").read_text(encoding="utf-8"))
    assert report["finished"] == 20
    assert report["content"] == str(installed.scratch / "content")
    assert len(report["content_digest"]) == 12 and report["dmtool_version"]
    (line,) = [ln for ln in done.stdout.splitlines() if "replay any game:" in ln][:1]
    # The seed the report gives as an example of an ending: pasted in another folder, the
    # line plays the same content, and that seed's game comes to that ending again.
    ending = next(o for o in report["configurations"][0]["outcomes"]
                  if o["outcome"].startswith("ending ") and o["level"] == 1 and o["games"])
    seed = ending["example_seed"]
    command = line.split("replay any game: ", 1)[1].rstrip(")").replace(
        "--seed N", f"--seed {seed}")
    pasted = _run(["bash", "-c", command + " --quiet"], installed.root, installed.env)
    assert f"seed {seed}" in pasted.stdout
    assert f"result: {ending['outcome']}," in pasted.stdout, (ending, pasted.stdout)


def test_site(installed: Installed) -> None:
    installed.dmtool("site", "-o", str(installed.root / "site"))
    assert (installed.root / "site" / "index.html").is_file()


def _lsp_message(stream: Any) -> dict[str, Any] | None:
    length = 0
    while True:
        line = stream.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return json.loads(stream.read(length))


def test_language_server_initialises_and_diagnoses(installed: Installed) -> None:
    server = subprocess.Popen([str(installed.bin / "dmtool"), "lsp"], cwd=installed.scratch,
                              env=installed.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL)
    assert server.stdin is not None and server.stdout is not None
    messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
    threading.Thread(target=lambda: [messages.put(m) for m in iter(
        lambda: _lsp_message(server.stdout), None)], daemon=True).start()

    def send(message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert server.stdin is not None
        server.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        server.stdin.flush()

    book = installed.scratch / STORYBOOK
    uri = book.as_uri()
    try:
        send({"id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": installed.scratch.as_uri(), "capabilities": {}}})
        reply = messages.get(timeout=60)
        assert reply is not None and reply["id"] == 1 and "capabilities" in reply["result"]
        send({"method": "initialized", "params": {}})
        text = book.read_text(encoding="utf-8").replace("silt-choristers", "silt-chorister")
        send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text}}})
        found: list[dict[str, Any]] = []
        while not found:
            message = messages.get(timeout=60)
            assert message is not None, "the server closed its output"
            params = message.get("params", {})
            if message.get("method") == "textDocument/publishDiagnostics" and (
                    params.get("uri") == uri):
                found = params["diagnostics"]
        assert any("silt-chorister" in d["message"] for d in found), found
    finally:
        server.kill()
        server.wait(timeout=10)
        server.stdin.close()
        server.stdout.close()


def test_pre_commit_hooks_from_the_repository(installed: Installed) -> None:
    # Both hooks in one run: pre-commit installs the hook repository once for them.
    done = _run([str(installed.bin / "pre-commit"), "try-repo", str(installed.source),
                 "--all-files"], installed.scratch, installed.env, timeout=600, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "dmtool check" in done.stdout and "dmtool fmt" in done.stdout
    assert "Failed" not in done.stdout


def test_balance_replay_line_is_quoted(installed: Installed) -> None:
    """A content folder with a space still pastes as one argument."""
    spaced = installed.root / "my content"
    shutil.copytree(installed.scratch / "content", spaced)
    done = installed.dmtool("balance", "--wanderer", "ilse-marrow", "--games", "1", "--jobs",
                            "1", "--content", str(spaced))
    assert f"--content {shlex.quote(str(spaced))}" in done.stdout
