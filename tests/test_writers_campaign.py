"""`dmtool play --campaign`: concurrent runs add up, a linked state file is written through
to its target, and a state that cannot be saved is never silently lost."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_support import dmtool

from dmtool.engine.dawn_of_madness.campaign import read_campaign
from dmtool.writing import files as files_module


def _state(path: Path) -> tuple[int, list[int]]:
    campaign, problems = read_campaign(path)
    assert campaign is not None, problems
    return campaign.games_played, sorted(h["seed"] for h in campaign.history)


def test_four_processes_of_three_games_record_twelve(tmp_path: Path) -> None:
    """The issue's reproduction: four runs at once recorded 5 games of 14 played."""
    state = tmp_path / "thursday.yaml"
    runs = [subprocess.Popen(
        [sys.executable, "-m", "dmtool.cli", "play", "--quiet", "--games", "3",
         "--seed", str(100 * n), "--campaign", str(state)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for n in range(4)]
    outputs = [run.communicate(timeout=600) for run in runs]
    assert [run.returncode for run in runs] == [0, 0, 0, 0], outputs
    played, seeds = _state(state)
    assert played == 12
    assert seeds == sorted(100 * n + g for n in range(4) for g in range(3))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["thursday.yaml"]


def test_a_linked_state_file_is_written_through_to_its_target(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    target = shared / "campaign.yaml"
    link = tmp_path / "mine.yaml"
    link.symlink_to(target)
    monkeypatch.chdir(tmp_path)
    for seed in ("1", "2"):
        code, _, err = dmtool(capsys, monkeypatch, "play", "--quiet", "--seed", seed,
                              "--campaign", "mine.yaml")
        assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert _state(target) == (2, [1, 2])
    assert sorted(p.name for p in shared.iterdir()) == ["campaign.yaml"]


def test_an_unwritable_folder_is_found_before_any_game_is_played(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    def denied(*_: object, **__: object) -> None:
        raise OSError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(files_module, "_open_temporary", denied)
    monkeypatch.chdir(tmp_path)
    code, out, err = dmtool(capsys, monkeypatch, "play", "--seed", "3", "--campaign",
                            "locked/state.yaml")
    assert code == 2 and "cannot write locked/state.yaml: permission denied" in err
    assert "=== game" not in out and "please report" not in err.lower()


def test_a_state_that_cannot_be_saved_is_shown_not_lost(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills up while the game is played: the game's record is printed whole."""
    real_fill = files_module._fill
    calls = []

    def full_after_probe(fd: int, data: bytes, info: object) -> None:
        calls.append(len(data))
        if data:  # the probe writes nothing; the state itself does not fit
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fill(fd, data, info)  # type: ignore[arg-type]

    monkeypatch.setattr(files_module, "_fill", full_after_probe)
    monkeypatch.chdir(tmp_path)
    code, out, err = dmtool(capsys, monkeypatch, "play", "--quiet", "--seed", "4",
                            "--campaign", "state.yaml")
    assert code == 2 and "cannot write state.yaml: no space left" in err
    shown = out.split("could not be saved to state.yaml:\n", 1)[1]
    saved = tmp_path / "by-hand.yaml"
    saved.write_text(shown)
    assert _state(saved) == (1, [4])
    assert not (tmp_path / "state.yaml").exists()
