"""The max-nesting setting: a project may refuse nesting shallower than the loader's own limit.

A document nested deeper than the setting is refused with DM004 at the mapping or list that
goes one level too deep, and is not loaded, on every path a check takes: `dmtool check`
(and its cache), the daemon's live check, watch mode's session and the language server.
Without the setting nothing changes: the loader's own limit (64 levels) alone applies.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from dmtool.cli import cli
from dmtool.config import load_config
from dmtool.loading.builder import MAX_DEPTH
from dmtool.loading.nesting import too_deep
from dmtool.lsp.workspace import LiveWorkspace
from dmtool.validation import parallel
from dmtool.validation.cache import record_key
from dmtool.validation.live import LiveCheck
from dmtool.validation.pipeline import CheckOptions, run_check
from dmtool.validation.session import CheckSession

ROOT = Path(__file__).resolve().parents[1]
# A small content tree that checks clean; its storybook nests ten levels deep (entry 1:
# entries, an entry, its effects, a choice, the choice's options, an option, its effects,
# an effect `{score: {A: 1}}` and the score `{A: 1}`).
CLEAN_CASE = ROOT / "tests" / "cases" / "legal-DM309-mutual"
# With max-nesting = 8, the first container at level 9: `{score: {A: 1}}` of entry 1's
# first option (line 15, `            effects: [{score: {A: 1}}]`).
TOO_DEEP_AT = ("storybook.yaml", 15, 23)


def _tree(tmp_path: Path, setting: str | None = None) -> Path:
    """A copy of the clean case, with the schemas its modelines name, and a dmtool.toml
    holding `setting` (none when None)."""
    folder = tmp_path / "tests" / "cases" / "case"
    shutil.copytree(CLEAN_CASE, folder)
    (tmp_path / "schemas").symlink_to(ROOT / "schemas")
    (folder / "expected.txt").unlink()
    _configure(folder, setting)
    return folder


def _configure(folder: Path, setting: str | None) -> None:
    config = folder / "dmtool.toml"
    if setting is None:
        config.unlink(missing_ok=True)
    else:
        config.write_text(setting + "\n", encoding="utf-8")


def _check(folder: Path, monkeypatch: pytest.MonkeyPatch, *, cache: Path | None = None
           ) -> tuple[int, list[tuple[str, str, int, int]]]:
    """`dmtool check .` from inside `folder`: its exit code and (code, path, line, column)."""
    monkeypatch.chdir(folder)
    if cache is None:
        monkeypatch.setenv("DMTOOL_NO_CACHE", "1")
    else:
        monkeypatch.delenv("DMTOOL_NO_CACHE", raising=False)
        monkeypatch.setenv("DMTOOL_CACHE_DIR", str(cache))
    result = CliRunner().invoke(cli, ["check", ".", "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    found = json.loads(result.stdout)["diagnostics"]
    return result.exit_code, sorted((d["code"], d["path"], d["line"], d["column"])
                                    for d in found)


# --- finding the container that goes too deep


def test_too_deep_names_the_first_container_past_the_limit_in_document_order() -> None:
    data = {"a": {"b": 1}, "c": [{"d": [1]}, {"e": {"f": {}}}]}
    # Levels: the top 1, `a` and `c` 2, `c`'s items 3, `d` and `e` 4, `f` 5.
    assert too_deep(data, 5) is None
    assert too_deep(data, 4) == ("c", 1, "e", "f")
    assert too_deep(data, 3) == ("c", 0, "d")
    assert too_deep(data, 2) == ("c", 0) and too_deep(data, 1) == ("a",)
    assert too_deep("text", 1) is None and too_deep({}, 1) is None


def test_too_deep_walks_a_deep_document_without_recursion() -> None:
    data: list[object] = []
    for _ in range(10_000):
        data = [data]
    assert too_deep(data, MAX_DEPTH) == (0,) * MAX_DEPTH


# --- the configuration key


def test_the_key_is_read_from_dmtool_toml_and_pyproject(tmp_path: Path) -> None:
    (tmp_path / "dmtool.toml").write_text("max-nesting = 8\n", encoding="utf-8")
    assert load_config(tmp_path).max_nesting == 8
    (tmp_path / "dmtool.toml").unlink()
    (tmp_path / "pyproject.toml").write_text("[tool.dmtool]\nmax-nesting = 64\n",
                                             encoding="utf-8")
    assert load_config(tmp_path).max_nesting == MAX_DEPTH
    (tmp_path / "pyproject.toml").unlink()
    assert load_config(tmp_path).max_nesting is None


# --- dmtool check


def test_check_refuses_a_file_deeper_than_the_setting_where_it_goes_too_deep(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path, "max-nesting = 8")
    monkeypatch.chdir(folder)
    result = CliRunner().invoke(cli, ["check", ".", "--no-cache"])
    assert result.exit_code == 1
    file, line, column = TOO_DEEP_AT
    assert f"{file}:{line}:{column}: error DM004" in result.output
    assert "more than 8 levels deep" in result.output and "max-nesting" in result.output
    # Refused means not loaded, as for the loader's refusal: no schema nor rule looks at it
    # (the documents that refer to the storybook see what recovery reads of it).
    assert _check(folder, monkeypatch) == (1, [("DM004", *TOO_DEEP_AT)])


def test_check_passes_without_the_key_and_at_the_documents_own_depth(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    assert _check(folder, monkeypatch) == (0, [])
    _configure(folder, "max-nesting = 10")
    assert _check(folder, monkeypatch) == (0, [])
    _configure(folder, "max-nesting = 9")
    code, found = _check(folder, monkeypatch)
    assert code == 1 and ("DM004", "storybook.yaml", 15, 31) in found  # `{A: 1}`, level 10


def test_the_cache_serves_no_result_made_under_another_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    cache = tmp_path / "cache"
    assert _check(folder, monkeypatch, cache=cache) == (0, [])
    assert list(cache.glob("check-*"))
    _configure(folder, "max-nesting = 8")
    code, found = _check(folder, monkeypatch, cache=cache)
    assert code == 1 and ("DM004", *TOO_DEEP_AT) in found
    _configure(folder, None)
    assert _check(folder, monkeypatch, cache=cache) == (0, [])
    _configure(folder, "max-nesting = 8")
    assert _check(folder, monkeypatch, cache=cache) == (code, found)


def test_the_record_key_tells_the_limits_apart() -> None:
    # Without the setting the key is what it was, so earlier caches still serve.
    assert record_key("abc", "a.yaml", 64) == "abc|64|a.yaml"
    assert record_key("abc", "a.yaml", 64, 8) != record_key("abc", "a.yaml", 64)
    assert record_key("abc", "a.yaml", 64, 8) != record_key("abc", "a.yaml", 64, 9)


def test_run_check_with_workers_refuses_alike(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    monkeypatch.chdir(folder)
    monkeypatch.setattr(parallel, "WORTH_SPREADING_BYTES", 0)
    report = run_check(CheckOptions(paths=(Path("."),), max_nesting=8, jobs=2))
    assert ("DM004", *TOO_DEEP_AT) in [
        (d.code, d.location.path, d.location.line, d.location.column)
        for d in report.diagnostics]


# --- the live paths: the session, the daemon's live check, the language server


def test_a_session_refuses_from_disk_and_from_an_editors_buffer(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    monkeypatch.chdir(folder)
    session = CheckSession(max_nesting=8)
    session.load([Path(".")])
    storybook = Path("storybook.yaml")
    assert _located(session, "storybook.yaml") == [("DM004", 15, 23)]
    (path,) = [p for p, state in session.files.items() if state.display == "storybook.yaml"]
    assert not session.files[path].result.loaded
    # An edit that flattens entry 1 below the limit: only the second option goes too deep.
    text = storybook.read_text(encoding="utf-8")
    flat = text.replace("effects: [{score: {A: 1}}]", "effects: []", 1)
    session.update(path, flat)
    assert _located(session, "storybook.yaml") == [("DM004", 17, 23)]
    plain = CheckSession()
    plain.load([Path(".")])
    assert _located(plain, "storybook.yaml") == []


def _located(session: CheckSession, name: str) -> list[tuple[str, int, int]]:
    return [(d.code, d.location.line, d.location.column)
            for d in session.diagnostics().get(name, [])]


def test_the_daemons_live_check_makes_a_new_session_for_another_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = _tree(tmp_path)
    monkeypatch.chdir(folder)
    live = LiveCheck()
    assert live.run(CheckOptions(paths=(Path("."),))).diagnostics == []
    limited = live.run(CheckOptions(paths=(Path("."),), max_nesting=8))
    assert ("DM004", *TOO_DEEP_AT) in [
        (d.code, d.location.path, d.location.line, d.location.column)
        for d in limited.diagnostics]
    assert live.run(CheckOptions(paths=(Path("."),))).diagnostics == []


def test_the_language_server_honours_the_setting(tmp_path: Path) -> None:
    # The editor's folder is the case's, named as the tree to check.
    folder = _tree(tmp_path, 'paths = ["."]\nmax-nesting = 8')
    workspace = LiveWorkspace.for_folders([folder])
    workspace.load()
    storybook = (folder / "storybook.yaml").absolute()
    found = workspace.analyse().diagnostics[storybook]
    assert [(d.code, d.location.line, d.location.column) for d in found] == [("DM004", 15, 23)]
    # The editor's buffer is held to it too: with entry 1's first option flattened, its
    # second goes too deep; with every option flattened, nothing does.
    text = storybook.read_text(encoding="utf-8")
    workspace.change(storybook, text.replace("[{score: {A: 1}}]", "[]"))
    found = workspace.analyse().diagnostics[storybook]
    assert [(d.code, d.location.line, d.location.column) for d in found] == [("DM004", 17, 23)]
    for score in "ABCD":
        text = text.replace(f"[{{score: {{{score}: 1}}}}]", "[]")
    workspace.change(storybook, text)
    assert "DM004" not in [d.code for d in workspace.analyse().diagnostics.get(storybook, ())]
    plain = _tree(tmp_path / "plain", 'paths = ["."]')
    unlimited = LiveWorkspace.for_folders([plain])
    unlimited.load()
    assert unlimited.analyse().diagnostics[(plain / "storybook.yaml").absolute()] == ()


# --- the default is unchanged


def test_without_the_setting_the_loaders_own_limit_alone_applies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "content"
    folder.mkdir()
    head = "kind: coda\nid: deep\nnotes: "
    # The top mapping is level 1: `notes` may hold 63 nested lists, not 64.
    (folder / "at-the-limit.yaml").write_text(
        head + "[" * (MAX_DEPTH - 1) + "x" + "]" * (MAX_DEPTH - 1) + "\n", encoding="utf-8")
    (folder / "past-it.yaml").write_text(
        head + "[" * MAX_DEPTH + "x" + "]" * MAX_DEPTH + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    report = run_check(CheckOptions(paths=(Path("content"),)))
    refused = [(d.location.path, d.location.line, d.location.column)
               for d in report.diagnostics if d.code == "DM004"]
    assert refused == [("content/past-it.yaml", 3, 8 + MAX_DEPTH - 1)]
    assert CheckOptions(paths=()).max_nesting is None and CheckSession().max_nesting is None
    assert load_config(tmp_path).max_nesting is None


def test_a_text_the_loader_refuses_is_refused_where_the_setting_is_passed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond 64 levels the loader builds nothing to walk; the refusal still names the
    container one level past the setting, not the one past the loader's own limit."""
    folder = tmp_path / "content"
    folder.mkdir()
    (folder / "far-past-it.yaml").write_text(
        "kind: coda\nid: deep\nnotes: " + "[" * 1000 + "x" + "]" * 1000 + "\n",
        encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    report = run_check(CheckOptions(paths=(Path("content"),), max_nesting=8))
    assert [(d.code, d.location.line, d.location.column) for d in report.diagnostics] == [
        ("DM004", 3, 8 + 7)]
    assert "more than 8 levels" in report.diagnostics[0].message


def test_a_cached_run_is_not_replayed_under_another_limit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No configuration file changes here (its bytes are part of a run's key): the options
    # alone differ, as when the pipeline is run by another command.
    folder = _tree(tmp_path)
    monkeypatch.chdir(folder)
    cache = tmp_path / "cache"

    def refused(nesting: int | None) -> list[tuple[str, int, int]]:
        report = run_check(CheckOptions(paths=(Path("."),), max_nesting=nesting,
                                        cache_dir=cache))
        return [(d.location.path, d.location.line, d.location.column)
                for d in report.diagnostics if d.code == "DM004"]

    assert refused(None) == []
    assert refused(8) == [TOO_DEEP_AT]
    assert refused(9) == [("storybook.yaml", 15, 31)]
    assert refused(None) == []
    assert refused(8) == [TOO_DEEP_AT]
