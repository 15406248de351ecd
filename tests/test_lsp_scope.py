"""The language server speaks only about content: a CI workflow opened in the editor gets
no diagnostics (it was DM014, "no kind") and no formatting (`on:` became `'on':`)."""

from __future__ import annotations

from pathlib import Path

from dmtool.lsp.workspace import LiveWorkspace
from tests.lsp_support import copy_workspace

WORKFLOW = "name: ci\non:\n  push:\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
CODA = ("kind: coda\nid: a-stray-coda\nwanderer: nobody-at-all\nname: A Stray Coda\n"
        "text: Nothing yet.\n")


def _workspace(tmp_path: Path) -> LiveWorkspace:
    live = LiveWorkspace.for_folders([copy_workspace(tmp_path)])
    live.load()
    return live


def test_a_workflow_outside_the_content_tree_is_not_checked(tmp_path: Path) -> None:
    live = _workspace(tmp_path)
    workflow = tmp_path / ".github" / "workflows" / "ci.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(WORKFLOW, encoding="utf-8")
    live.open(workflow, WORKFLOW)
    snapshot = live.analyse()
    assert workflow not in snapshot.diagnostics
    assert not live.is_content(workflow, WORKFLOW)  # so no formatting either


def test_a_file_with_a_dmtool_kind_is_checked_wherever_it_is(tmp_path: Path) -> None:
    live = _workspace(tmp_path)
    stray = tmp_path / "drafts" / "coda.yaml"
    stray.parent.mkdir()
    stray.write_text(CODA, encoding="utf-8")
    live.open(stray, CODA)
    assert live.is_content(stray, CODA)
    assert live.analyse().diagnostics.get(stray)  # e.g. the wanderer it names is unknown


def test_every_file_under_the_content_tree_is_checked(tmp_path: Path) -> None:
    live = _workspace(tmp_path)
    empty = tmp_path / "content" / "wanderers" / "notes.yaml"
    live.open(empty, "just: notes\n")
    assert live.is_content(empty, "just: notes\n")
    assert "DM014" in {d.code for d in live.analyse().diagnostics.get(empty, ())}


def test_the_configured_content_tree_is_the_servers(tmp_path: Path) -> None:
    """`content = "stories"` in dmtool.toml: the server reads that tree, as check does."""
    copy_workspace(tmp_path)
    (tmp_path / "content").rename(tmp_path / "stories")
    (tmp_path / "dmtool.toml").write_text('content = "stories"\n', encoding="utf-8")
    live = LiveWorkspace.for_folders([tmp_path])
    live.load()
    notes = tmp_path / "stories" / "wanderers" / "notes.yaml"
    live.open(notes, "just: notes\n")
    assert live.is_content(notes, "just: notes\n")
    assert "DM014" in {d.code for d in live.analyse().diagnostics.get(notes, ())}
