"""Policies: the built-in planner, and the `dmtool.policies` entry point for an author's own
player, in `dmtool play` and `dmtool balance` alike."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from dmtool.balance.run import BalanceOptions, run_balance
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.engine import candidate_actions, is_legal
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.play.command import PlayOptions, run_play
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import next_action, play
from dmtool.engine.dawn_of_madness.play.newgame import NewGame, board_catalog, layout_for
from dmtool.engine.dawn_of_madness.play.planner import Planner
from dmtool.engine.dawn_of_madness.play.policies import make_player, policy_names
from dmtool.engine.dawn_of_madness.turns import active_characters
from dmtool.model.content_index import default_content_dir

WANDERER = "hollis-brandt"
PLUG_IN = '''
from dmtool.engine.dawn_of_madness.play.players import Chooser


class Cautious(Chooser):
    """Passes whenever it may; otherwise the first option."""

    def __init__(self, seed):
        super().__init__("first", seed)

    def choose(self, state, catalog, candidates, legal):
        passing = [a for a in candidates if a.kind == "pass" and legal(a)]
        return passing[0] if passing else self.pick(candidates, legal)


def broken(seed):
    raise RuntimeError("no players today")
'''


@cache
def catalog() -> Catalog:
    return load_catalog(default_content_dir(), WANDERER)


def test_the_planner_plays_whole_games_the_same_way_from_the_same_seed() -> None:
    first = play(catalog(), NewGame(WANDERER, 4), policy="planner")
    again = play(catalog(), NewGame(WANDERER, 4), policy="planner")
    greedy = play(catalog(), NewGame(WANDERER, 4), policy="greedy")
    assert first.state.game_over and not first.stalled
    assert first.log == again.log
    assert first.log != greedy.log


def test_the_planner_looks_ahead_on_copies_with_its_own_dice() -> None:
    result = play(catalog(), NewGame(WANDERER, 2), policy="greedy", keep_states=True)
    board = board_catalog(catalog(), layout_for(2))
    planner = Planner(seed=99)
    decided = 0
    for state in result.states[:60]:
        if state.phase != "action" or state.game_over:
            continue
        before = state.to_dict()
        action = next_action(state, board, planner)
        assert state.to_dict() == before  # nothing played on the real state, dice included
        active = active_characters(state)
        if action.kind != "activate":
            decided += 1
            assert is_legal(state, board, action, active=active)
            assert action in candidate_actions(state, board, active)
    assert decided >= 5


@pytest.fixture()
def plug_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An installed distribution with two policies in the `dmtool.policies` group."""
    (tmp_path / "cautious_players.py").write_text(PLUG_IN, encoding="utf-8")
    info = tmp_path / "cautious_players-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cautious-players\n"
                                   "Version: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[dmtool.policies]\ncautious = cautious_players:Cautious\n"
        "broken = cautious_players:broken\ngreedy = cautious_players:broken\n",
        encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_a_plug_in_policy_plays_in_dmtool_play_and_balance(plug_in: Path) -> None:
    assert policy_names() == ("random", "first", "greedy", "planner", "broken", "cautious")
    lines: list[str] = []
    assert run_play(PlayOptions(seed=3, policy="cautious"), emit=lines.append) == 0
    assert "cautious policy" in lines[0]
    game = play(catalog(), NewGame(WANDERER, 3), policy="cautious")
    assert any(e["event"] == "action" and e["action"] == "pass" for e in game.log)
    report = run_balance(BalanceOptions(content=default_content_dir(), games=3,
                                        policies=("cautious", "greedy"), jobs=1)).report
    assert [s["label"] for s in report["configurations"]] == [
        "cautious, standard, 1 player", "greedy, standard, 1 player"]


def test_a_broken_plug_in_is_reported_not_raised(plug_in: Path) -> None:
    with pytest.raises(EngineFault, match=r"'broken' \(cautious_players:broken\) failed to "
                                          r"start: RuntimeError: no players today"):
        make_player("broken", 1)
    assert type(make_player("greedy", 1)).__name__ == "Chooser"  # built-ins cannot be taken


def test_an_unknown_policy_names_the_ones_there_are() -> None:
    with pytest.raises(EngineFault, match="no policy 'clever'; the policies are random, "
                                          "first, greedy, planner"):
        make_player("clever", 1)
    assert "planner" in policy_names()
