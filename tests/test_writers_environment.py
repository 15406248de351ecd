"""Environment errors are usage errors: one line naming the path or key, exit code 2, and
never "internal error ... please report" (issue 12's reproductions, one test per case).

Where this machine can produce the error for real it does (a name too long, a file where a
folder should be, a full device, /proc); read-only file systems and denied permissions
cannot be made without privileges (and root ignores permissions), so the operating system's
answer is stood in for at the one place dmtool asks it.
"""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

import pytest
from cli_support import dmtool

from dmtool.writing import files as files_module

REPO = Path(__file__).resolve().parents[1]
LONG = "x" * 300


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A small content tree (one coda) with its schemas, as the working folder."""
    content = tmp_path / "content"
    content.mkdir()
    shutil.copy(REPO / "tests/cases/DM502/the-drowned-map.yaml", content / "map.yaml")
    (content / "map.yaml").write_text(
        (content / "map.yaml").read_text().replace("../../../schemas/", f"{REPO}/schemas/"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def assert_usage_error(result: tuple[int, str, str], *names: str) -> str:
    code, _, err = result
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "internal error" not in err and "please report" not in err.lower(), err
    for name in names:
        assert name in err, err
    return lines[0]


# -- a name too long for the file system -------------------------------------------------


@pytest.mark.parametrize("command", [
    ["check", "content", "-o", f"{LONG}.txt"],
    ["site", "content", "-o", LONG],
    ["site", "content", "-o", f"out/{LONG}"],
])
def test_a_name_too_long(project: Path, capsys: pytest.CaptureFixture[str],
                         monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    line = assert_usage_error(dmtool(capsys, monkeypatch, *command), "x" * 50)
    assert "too long" in line


# -- a file where a folder should be ------------------------------------------------------


@pytest.mark.parametrize("command", [
    ["check", "content", "-o", "notes.txt/report.txt"],
    ["site", "content", "-o", "notes.txt/site"],
    ["play", "--quiet", "--campaign", "notes.txt/state.yaml", "--content", f"{REPO}/content"],
])
def test_not_a_folder(project: Path, capsys: pytest.CaptureFixture[str],
                      monkeypatch: pytest.MonkeyPatch, command: list[str]) -> None:
    (project / "notes.txt").write_text("an author's notes")
    code, out, err = dmtool(capsys, monkeypatch, *command)
    line = assert_usage_error((code, out, err), "notes.txt")
    assert (project / "notes.txt").read_text() == "an author's notes"
    assert "not a folder" in line
    assert "=== game" not in out  # play found out before playing


# -- no space left on the device ------------------------------------------------------------


def test_no_space_left(project: Path, capsys: pytest.CaptureFixture[str],
                       monkeypatch: pytest.MonkeyPatch) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("this system has no /dev/full")
    line = assert_usage_error(dmtool(capsys, monkeypatch, "check", "content", "-o", "/dev/full"),
                              "/dev/full")
    assert "no space left" in line


def test_no_space_left_while_replacing(project: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "report.txt").write_text("the previous report")
    _deny(monkeypatch, "_fill", errno.ENOSPC)
    line = assert_usage_error(dmtool(capsys, monkeypatch, "check", "content", "-o",
                                     "report.txt"), "report.txt")
    assert "no space left" in line
    assert (project / "report.txt").read_text() == "the previous report"
    assert sorted(p.name for p in project.iterdir()) == ["content", "report.txt"]


# -- read-only file systems and denied permissions -------------------------------------------


def _deny(monkeypatch: pytest.MonkeyPatch, step: str, code: int) -> None:
    """Make the writer's `step` fail as the operating system would with `code`."""
    def refuse(*_: object, **__: object) -> None:
        raise OSError(code, "stood in for the operating system")

    monkeypatch.setattr(files_module, step, refuse)


@pytest.mark.parametrize(("code", "words"), [(errno.EROFS, "read-only"),
                                              (errno.EACCES, "permission denied")])
@pytest.mark.parametrize("command", [
    ["check", "content", "-o", "report.txt"],
    ["new", "wanderer", "Ilse Marrow", "--dir", "content/wanderers"],
    ["play", "--quiet", "--campaign", "state.yaml", "--content", f"{REPO}/content"],
])
def test_read_only_or_denied(project: Path, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch, code: int, words: str,
                             command: list[str]) -> None:
    _deny(monkeypatch, "_open_temporary", code)
    before = sorted(p.relative_to(project).as_posix() for p in project.rglob("*"))
    code_, out, err = dmtool(capsys, monkeypatch, *command)
    line = assert_usage_error((code_, out, err))
    assert words in line and ("report.txt" in line or "content/wanderers" in line
                              or "state.yaml" in line), line
    assert "=== game" not in out  # the campaign's folder is tried before any game is played
    after = sorted(p.relative_to(project).as_posix() for p in project.rglob("*"))
    assert [p for p in after if p not in before and not p.startswith("content/wanderers")] == []


def test_the_site_under_proc(project: Path, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    if not Path("/proc/self").is_dir():
        pytest.skip("this system has no /proc")
    assert_usage_error(dmtool(capsys, monkeypatch, "site", "content", "-o",
                              "/proc/dmtool-site"), "/proc/dmtool-site")
    line = assert_usage_error(dmtool(capsys, monkeypatch, "site", "content", "-o",
                                     "/dev/null"), "/dev/null")
    assert "not a folder" in line


# -- configuration values out of range -------------------------------------------------------


@pytest.mark.parametrize("value", ["99999999999999999999", "1099511627777"])
def test_max_file_size_out_of_range(project: Path, capsys: pytest.CaptureFixture[str],
                                    monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    (project / "dmtool.toml").write_text(f"max-file-size = {value}\n")
    line = assert_usage_error(dmtool(capsys, monkeypatch, "check", "content"),
                              "max-file-size", "dmtool.toml")
    assert "at most" in line


# -- an empty selection is not a clean pass --------------------------------------------------


def test_everything_excluded_is_a_warning_with_its_reason(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "dmtool.toml").write_text('exclude = ["**"]\n')
    code, out, _ = dmtool(capsys, monkeypatch, "check")
    assert code == 0
    assert "warning DM019 nothing was checked: all 1 YAML file(s) under content are excluded by" \
        in out
    assert "'exclude' ('**') in " in out and "dmtool.toml" in out, out
    assert dmtool(capsys, monkeypatch, "check", "--strict")[0] == 1


def test_an_empty_folder_is_a_warning(project: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "empty").mkdir()
    code, out, _ = dmtool(capsys, monkeypatch, "check", "empty")
    assert code == 0 and "warning DM019 no YAML files found under empty" in out
    assert dmtool(capsys, monkeypatch, "check", "empty", "--strict")[0] == 1
