"""The commands shown in `docs/*.md` work as written: each guide is replayed in a scratch copy.

Conventions for anyone writing or editing a page under `docs/`:

- A fenced block opened with ```` ```console ```` holds commands. Every line starting with
  `$ ` is a command; it is split like a shell would split it (quotes, a trailing `# comment`)
  but run without a shell. `dmtool` is the console script of the environment running pytest;
  any other program comes from PATH.
- A command must exit 0, unless its line ends with the comment `# exits N`
  (for example `$ dmtool fmt --check  # exits 1`).
- The lines after a command, up to the next `$ ` line or the end of the block, are its
  expected output. Each must appear, in the order shown, within a line of what the command
  printed (standard output and standard error together, leading and trailing spaces ignored).
  A line `...` stands for output left out; `...` inside a line matches any text.
- A fenced block opened with ```` ```diff title="PATH" ```` is an edit the reader makes to
  PATH (relative to the repository root). Lines starting with a space are context, `-` lines
  are removed and `+` lines added; a line starting `@@` separates hunks. The context and
  removed lines of each hunk must occur exactly once in the file.
- A fenced block opened with ```` ```yaml title="PATH" ```` quotes a file of the repository:
  its lines (`...` for lines left out) must appear in that file in the same order.
- Steps run in document order, each docs file in its own fresh copy of `content/` and
  `schemas/` (side by side, as in the repository, so the files' schema modelines resolve)
  and of dmtool's configuration files.
  A command that needs no checking belongs in prose, not in a console block: any other
  fence holding a `dmtool` command fails `test_commands_only_in_console_blocks`.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
GUIDE = DOCS / "writing-a-wanderer.md"
COPIED = ("content", "schemas", "tests/scenarios")
CONFIG_FILES = ("dmtool.toml", "pyproject.toml")

_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})\s*(?P<info>.*)$")
_EXITS = re.compile(r"#\s*exits\s+(?P<code>\d+)\s*$")
_TITLE = re.compile(r'title="(?P<title>[^"]+)"')
_LINK = re.compile(r"\]\((?P<target>[^)#\s]+)(?:#[^)]*)?\)")
_ELISION = "..."


@dataclass
class Command:
    """One `$ ` line of a console block, with the output the page promises."""

    source: str
    line: int
    text: str
    exit_code: int = 0
    expected: list[str] = field(default_factory=list)


@dataclass
class Patch:
    """One diff block: hunks of (old text, new text) applied to a file under the work tree."""

    source: str
    line: int
    path: str
    hunks: list[tuple[str, str]]


Step = Command | Patch


@dataclass
class Fence:
    """A fenced code block: its info string, the page line of its first body line, its lines."""

    info: str
    line: int
    lines: list[str]

    @property
    def language(self) -> str:
        return self.info.split()[0].lower() if self.info.split() else ""


def fences(text: str) -> list[Fence]:
    """The fenced code blocks of a Markdown text, in order."""
    found: list[Fence] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opened = _FENCE.match(lines[index].strip())
        if not opened:
            index += 1
            continue
        marker = opened["fence"]
        body: list[str] = []
        index += 1
        while index < len(lines) and not lines[index].strip().startswith(marker):
            body.append(lines[index])
            index += 1
        found.append(Fence(info=opened["info"], line=index - len(body) + 1, lines=body))
        index += 1
    return found


def steps(text: str, *, source: str) -> list[Step]:
    """The commands and edits of a page, in the order the reader meets them."""
    result: list[Step] = []
    for fence in fences(text):
        if fence.language == "console":
            result.extend(_commands(fence, source=source))
        elif fence.language == "diff" and (title := _TITLE.search(fence.info)):
            result.append(Patch(source, fence.line, title["title"], _hunks(fence.lines)))
    return result


def _commands(fence: Fence, *, source: str) -> list[Command]:
    commands: list[Command] = []
    for offset, raw in enumerate(fence.lines):
        if raw.startswith("$ "):
            text = raw[2:].strip()
            exits = _EXITS.search(text)
            commands.append(Command(source, fence.line + offset, text,
                                    int(exits["code"]) if exits else 0))
        elif commands and raw.strip():
            commands[-1].expected.append(raw.strip())
    return commands


def _hunks(lines: list[str]) -> list[tuple[str, str]]:
    hunks: list[tuple[str, str]] = []
    old: list[str] = []
    new: list[str] = []
    for raw in [*lines, "@@"]:
        if raw.startswith("@@"):
            if old or new:
                hunks.append(("".join(old), "".join(new)))
            old, new = [], []
            continue
        sign, body = (raw[:1], raw[1:]) if raw else (" ", "")
        if sign not in " -+":
            raise AssertionError(f"diff line {raw!r} starts with neither ' ', '-' nor '+'")
        if sign != "+":
            old.append(body + "\n")
        if sign != "-":
            new.append(body + "\n")
    return hunks


def dmtool_script() -> str:
    """The `dmtool` console script installed next to the Python running the tests."""
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        found = shutil.which("dmtool", path=folder)
        if found:
            return found
    pytest.fail("the dmtool console script is not installed; run 'make .venv/.installed'")


def work_tree(root: Path) -> Path:
    """A scratch copy of the repository's content/ and schemas/, side by side."""
    for name in COPIED:
        shutil.copytree(REPO / name, root / name)
    # dmtool reads its settings from these files in the working directory; a reader
    # running the guide in the repository gets them too.
    for name in CONFIG_FILES:
        if (REPO / name).is_file():
            shutil.copy2(REPO / name, root / name)
    return root


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    # CI sets GITHUB_ACTIONS, which switches dmtool's default report format; the pages
    # show what an author sees in a terminal.
    for name in ("GITHUB_ACTIONS", "FORCE_COLOR", "CLICOLOR_FORCE"):
        env.pop(name, None)
    env.update(NO_COLOR="1", PYTHONUNBUFFERED="1", COLUMNS="100")
    return env


def run_step(step: Step, *, cwd: Path, dmtool: str) -> None:
    """Replay one step, failing with the page's line number when it does not hold."""
    where = f"{step.source}:{step.line}"
    if isinstance(step, Patch):
        _apply(step, cwd=cwd, where=where)
        return
    argv = shlex.split(step.text, comments=True)
    if argv and argv[0] == "dmtool":
        argv[0] = dmtool
    done = subprocess.run(argv, cwd=cwd, env=_environment(), capture_output=True,
                          text=True, timeout=120, check=False)
    output = done.stdout + done.stderr
    assert done.returncode == step.exit_code, (
        f"{where}: '$ {step.text}' exited {done.returncode}, the page expects "
        f"{step.exit_code}; its output was:\n{output}")
    missing = _first_missing(step.expected, output)
    assert missing is None, (
        f"{where}: '$ {step.text}' should print {missing!r} (after the lines shown before "
        f"it); it printed:\n{output}")


def _first_missing(expected: list[str], text: str) -> str | None:
    """The first expected line not found in `text` after the ones before it, if any."""
    lines = [line.strip() for line in text.splitlines()]
    position = 0
    for wanted in expected:
        if wanted == _ELISION:
            continue
        while position < len(lines) and not _matches(wanted, lines[position]):
            position += 1
        if position == len(lines):
            return wanted
        position += 1
    return None


def _matches(wanted: str, line: str) -> bool:
    start = 0
    for piece in wanted.split(_ELISION):
        found = line.find(piece.strip(), start)
        if found < 0:
            return False
        start = found + len(piece.strip())
    return True


def _apply(patch: Patch, *, cwd: Path, where: str) -> None:
    target = cwd / patch.path
    assert target.is_file(), f"{where}: the edit is for {patch.path}, which does not exist"
    text = target.read_text(encoding="utf-8")
    for old, new in patch.hunks:
        count = text.count(old)
        assert count == 1, (
            f"{where}: the lines this edit replaces occur {count} times in {patch.path}, "
            f"not once:\n{old}")
        text = text.replace(old, new)
    target.write_text(text, encoding="utf-8")


def replay(page: Path, *, cwd: Path) -> None:
    """Run every step of a page, in order, in `cwd`."""
    dmtool = dmtool_script()
    for step in steps(page.read_text(encoding="utf-8"), source=page.relative_to(REPO).as_posix()):
        run_step(step, cwd=cwd, dmtool=dmtool)


# The README's tour is replayed like the guides: its examples show what dmtool prints.
PAGES = [*sorted(DOCS.glob("*.md")), REPO / "README.md"]


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_page_commands_work_as_written(page: Path, tmp_path: Path) -> None:
    replay(page, cwd=work_tree(tmp_path))


def test_guide_walks_through_the_authoring_loop() -> None:
    found = steps(GUIDE.read_text(encoding="utf-8"), source=GUIDE.name)
    commands = [step.text for step in found if isinstance(step, Command)]
    for needed in ("dmtool check", "dmtool new wanderer", "dmtool new card", "dmtool explain",
                   "dmtool fmt --check", "dmtool fmt "):
        assert any(command.startswith(needed) for command in commands), needed
    assert any(step.exit_code for step in found if isinstance(step, Command)), (
        "the guide should show a check that fails and how to read it")
    assert any(isinstance(step, Patch) for step in found)


def test_commands_only_in_console_blocks() -> None:
    for page in PAGES:
        for fence in fences(page.read_text(encoding="utf-8")):
            if fence.language == "console":
                assert any(line.startswith("$ ") for line in fence.lines), (
                    f"{page.name}:{fence.line}: a console block without a '$ ' command")
                continue
            for offset, line in enumerate(fence.lines):
                assert not re.match(r"^\s*(\$\s+)?dmtool\s", line), (
                    f"{page.name}:{fence.line + offset}: a dmtool command outside a console "
                    "block is never tested; move it into a ```console block")


def test_quoted_excerpts_match_their_files() -> None:
    # A ```yaml title="PATH"``` block quotes a file of the repository: its lines must still
    # be there, in the same order, or the guide describes content that has changed.
    for page in PAGES:
        for fence in fences(page.read_text(encoding="utf-8")):
            title = _TITLE.search(fence.info)
            if fence.language != "yaml" or not title:
                continue
            quoted = REPO / title["title"]
            assert quoted.is_file(), f"{page.name}:{fence.line}: no file {title['title']}"
            missing = _first_missing([line.strip() for line in fence.lines if line.strip()],
                                     quoted.read_text(encoding="utf-8"))
            assert missing is None, (
                f"{page.name}:{fence.line}: the excerpt of {title['title']} quotes "
                f"{missing!r}, which the file no longer has at that place")


def test_relative_links_lead_to_files() -> None:
    # Only the hand-written guides: site pages may link to pages generated at build time.
    for page in (DOCS / "index.md", GUIDE):
        for link in _LINK.finditer(page.read_text(encoding="utf-8")):
            target = link["target"]
            if "://" in target or target.startswith("mailto:"):
                continue
            assert (page.parent / target).exists(), f"{page.name}: broken link {target}"


# The replay must be able to fail, or a broken guide would pass unnoticed.

_SAMPLE = """\
Some prose.

```console
$ dmtool explain DM302{comment}
{output}
```
"""


def _replay_text(text: str, tmp_path: Path) -> None:
    for step in steps(text, source="page.md"):
        run_step(step, cwd=tmp_path, dmtool=dmtool_script())


def test_replay_accepts_matching_output(tmp_path: Path) -> None:
    _replay_text(_SAMPLE.format(comment="", output="DM302 ... Branch that leads nowhere\n..."),
                 tmp_path)


@pytest.mark.parametrize(("comment", "output", "complaint"), [
    ("", "Branch that goes everywhere", "should print"),
    ("", "Example:\nDefault severity: error", "should print"),  # shown in the wrong order
    ("  # exits 1", "", "exited 0, the page expects 1"),
], ids=["missing-output", "output-out-of-order", "wrong-exit-code"])
def test_replay_fails_when_the_page_is_wrong(comment: str, output: str, complaint: str,
                                             tmp_path: Path) -> None:
    with pytest.raises(AssertionError, match=complaint):
        _replay_text(_SAMPLE.format(comment=comment, output=output), tmp_path)


def test_replay_fails_on_an_edit_that_does_not_fit(tmp_path: Path) -> None:
    (tmp_path / "notes.yaml").write_text("a: 1\nb: 2\n", encoding="utf-8")
    good = '```diff title="notes.yaml"\n a: 1\n-b: 2\n+b: 3\n```\n'
    _replay_text(good, tmp_path)
    assert (tmp_path / "notes.yaml").read_text(encoding="utf-8") == "a: 1\nb: 3\n"
    with pytest.raises(AssertionError, match="occur 0 times"):
        _replay_text(good, tmp_path)
