"""One notion of "the content" for every command: the paths given or --content, else the
configuration's `content`, else content/ here, with the packaged games beneath wherever the
author's tree lacks them (an author's own copy of a game takes precedence)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from dmtool.cli import cli
from dmtool.packaged import GAME_FOLDERS, games_underneath, packaged_games
from tests.new_support import empty_project, new


def test_the_packaged_games_lie_beneath_a_tree_that_lacks_them(tmp_path: Path) -> None:
    assert [g.name for g in packaged_games()] == list(GAME_FOLDERS)
    assert [g.name for g in games_underneath([tmp_path])] == list(GAME_FOLDERS)
    (tmp_path / "dawn-of-madness").mkdir()  # the author's own copy of the base game
    assert [g.name for g in games_underneath([tmp_path])] == ["deep-madness"]
    assert games_underneath([]) == []


def test_the_configured_content_is_what_check_reads_by_default(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    new(empty_project(tmp_path), "wanderer", "Ilse Marrow")
    (tmp_path / "content").rename(tmp_path / "stories")
    (tmp_path / "dmtool.toml").write_text('content = "stories"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "--format", "json", "--no-cache"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["summary"]["files"] > 20


def test_a_configured_folder_that_is_not_one_is_a_configuration_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "dmtool.toml").write_text('schemas = "nowhere"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check"])
    assert result.exit_code != 0
    assert "'schemas' names 'nowhere', which is not a folder" in str(result.exception or "") + (
        result.output)


@pytest.fixture(scope="module")
def stories(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose content is configured to be stories/, with one new wanderer."""
    root = tmp_path_factory.mktemp("stories")
    new(empty_project(root), "wanderer", "Ilse Marrow")
    (root / "content").rename(root / "stories")
    (root / "dmtool.toml").write_text('content = "stories"\n', encoding="utf-8")
    return root


@pytest.mark.parametrize("args", [
    ["check", "--no-cache"], ["graph"], ["odds"],
    ["play", "--wanderer", "ilse-marrow", "--quiet"],
    ["balance", "--wanderer", "ilse-marrow", "--games", "2", "--jobs", "1"],
    ["site", "--dry-run"]], ids=lambda args: args[0])
def test_every_command_reads_the_configured_content_when_given_none(
        args: list[str], stories: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(stories)
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    assert "ilse-marrow" in result.output or "Ilse Marrow" in result.output or (
        "All checks passed" in result.output), result.output
