"""What every command that writes refuses, with and without --force (issue 12's reproductions).

Each test runs the real command line (`dmtool.cli.main`, exit codes and messages included)
in a copy of the project, and compares a fingerprint of every file before and after.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import stat
import threading
from pathlib import Path

import pytest
from cli_support import dmtool

REPO = Path(__file__).resolve().parents[1]
STORYBOOK = "content/wanderers/hollis-brandt/storybook.yaml"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project like the repository: content, docs, schemas, pyproject.toml and .git."""
    root = tmp_path_factory.mktemp("project")
    shutil.copytree(REPO / "content", root / "content")
    shutil.copytree(REPO / "docs", root / "docs")
    shutil.copytree(REPO / "schemas", root / "schemas")
    shutil.copy(REPO / "pyproject.toml", root / "pyproject.toml")
    (root / ".git").mkdir()
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    return root


@pytest.fixture
def project(template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "project"
    shutil.copytree(template, root, symlinks=True)
    monkeypatch.chdir(root)
    return root


def fingerprint(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and not p.is_symlink()}


@pytest.mark.parametrize("out", [
    "content/wanderers", "content/wanderers/hollis-brandt", "content", "docs", "schemas",
    ".git", ".", "content/dawn-of-madness/abominations", "content/new-site",
])
@pytest.mark.parametrize("force", [False, True])
def test_site_never_replaces_what_dmtool_did_not_build(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        out: str, force: bool) -> None:
    before = fingerprint(project)
    code, _, err = dmtool(capsys, monkeypatch, "site", "content", "-o", out,
                          *(["--force"] if force else []))
    assert code == 2, err
    assert "will not replace" in err and "--force" not in err, err
    assert "please report" not in err.lower() and len(err.strip().splitlines()) == 1
    assert fingerprint(project) == before


def test_site_refuses_a_folder_holding_a_content_file_even_if_marked(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A marker does not make an author's YAML file dmtool's to delete."""
    site = project / "public"
    site.mkdir()
    (site / ".dmtool-site").write_text("built by dmtool\n")
    shutil.copy(project / STORYBOOK, site / "draft.yaml")
    before = fingerprint(project)
    code, _, err = dmtool(capsys, monkeypatch, "site", "content", "-o", "public", "--force")
    assert code == 2 and "draft.yaml" in err and "never deletes" in err, err
    assert fingerprint(project) == before


@pytest.mark.parametrize("force", [False, True])
def test_site_refuses_a_marked_folder_that_does_not_list_its_files(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        force: bool) -> None:
    """Issue 31: "a folder holding such a marker (hand-made, or from an older dmtool) and a
    precious.txt is replaced by `dmtool site content -o oldsite` without --force". Without
    its list of files a marker proves nothing: such a folder is someone else's."""
    site = project / "oldsite"
    site.mkdir()
    (site / ".dmtool-site").write_text("This folder was built by 'dmtool site'.\n")
    (site / "precious.txt").write_text("the only copy\n")
    before = fingerprint(project)
    code, _, err = dmtool(capsys, monkeypatch, "site", "content", "-o", "oldsite",
                          *(["--force"] if force else []))
    assert code == 2 and "will not replace oldsite" in err and "list" in err, err
    assert fingerprint(project) == before


@pytest.mark.parametrize(("output", "why"), [
    ("content/dawn-of-madness/game-rules.yaml", "YAML file"),
    ("content/dawn-of-madness/report.yaml", "read as content"),
    ("elsewhere/content/report.yml", "content/ folder"),
    ("pyproject.toml", "project's own file"),
    ("docs/report.txt", "docs/ folder"),
    ("schemas/report.json", "schemas/ folder"),
    (".git/report.txt", "version-control"),
    ("content", "is a directory"),
])
def test_check_report_never_lands_on_content_or_project_files(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        output: str, why: str) -> None:
    before = fingerprint(project)
    code, out, err = dmtool(capsys, monkeypatch, "check", "content/dawn-of-madness",
                            "-o", output)
    assert code == 2 and why in err and output in err, err
    assert out == "" and fingerprint(project) == before


def test_check_report_through_a_link_is_judged_where_it_lands(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "report.txt").symlink_to(project / "content/dawn-of-madness/game-rules.yaml")
    before = fingerprint(project)
    code, _, err = dmtool(capsys, monkeypatch, "check", "content/dawn-of-madness",
                          "-o", "report.txt")
    assert code == 2 and "YAML file" in err
    assert fingerprint(project) == before


def test_check_report_replaces_an_earlier_report_and_writes_devices(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    (project / "report.json").write_text("old report")
    code, _, err = dmtool(capsys, monkeypatch, "check", "content/dawn-of-madness",
                          "--format", "json", "-o", "report.json")
    assert code == 0, err
    assert (project / "report.json").read_text().startswith("{")
    # A pipe (as /dev/stdout or /dev/null would be) is written to, never replaced by a file;
    # a private one, so that a regression cannot replace the machine's /dev/null.
    pipe = project / "pipe"
    os.mkfifo(pipe)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_bytes()))
    reader.start()
    code, _, err = dmtool(capsys, monkeypatch, "check", "content/dawn-of-madness",
                          "-o", "pipe")
    reader.join(timeout=60)
    assert code == 0, err
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode) and b"DM211" in received[0]


@pytest.mark.parametrize("output", ["docs/parish.dot", "schemas/parish.dot", ".git/parish.dot"])
def test_graph_drawing_never_lands_in_the_project(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        output: str) -> None:
    before = fingerprint(project)
    code, _, err = dmtool(capsys, monkeypatch, "graph", STORYBOOK, "-o", output)
    assert code == 2 and "will not write" in err, err
    assert fingerprint(project) == before


def test_witness_fixtures_never_replace_an_edited_one(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = dmtool(capsys, monkeypatch, "graph", STORYBOOK, "--witness",
                            "--witness-dir", "drafts")
    assert code == 0, err
    fixtures = sorted((project / "drafts").iterdir())
    assert fixtures
    fixtures[0].write_text(fixtures[0].read_text() + "# my notes\n")
    before = fingerprint(project)
    code, out, err = dmtool(capsys, monkeypatch, "graph", STORYBOOK, "--witness",
                            "--witness-dir", "drafts")
    assert fingerprint(project) == before
    assert f"{fixtures[0].name} already exists and was left as it is" in out + err


def test_play_never_writes_its_state_over_other_content(
        project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    before = fingerprint(project)
    code, _, err = dmtool(capsys, monkeypatch, "play", "--quiet", "--campaign", "pyproject.toml")
    assert code == 2 and "project's own file" in err, err
    campaign = "content/deep-madness/rise-of-dagon/campaign.yaml"
    code, out, _ = dmtool(capsys, monkeypatch, "play", "--quiet", "--campaign", campaign)
    assert code == 1 and "left unchanged" in out
    assert fingerprint(project) == before
