"""Whole games of the sample wanderer from content/: set up, played to the end, replayed."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.play.command import PlayOptions, run_play
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import GameResult, play, replay
from dmtool.engine.dawn_of_madness.play.newgame import NewGame
from dmtool.engine.dawn_of_madness.state import GameState
from dmtool.errors import UsageError
from dmtool.model.content_index import default_content_dir

WANDERER = "hollis-brandt"


@cache
def catalog() -> Catalog:
    return load_catalog(default_content_dir(), WANDERER)


def game(seed: int, **kw: object) -> GameResult:
    policy = str(kw.pop("policy", "random"))
    return play(catalog(), NewGame(WANDERER, seed, **kw), policy=policy)  # type: ignore[arg-type]


def test_a_random_game_runs_to_its_end() -> None:
    result = game(7)
    assert not result.stalled
    assert result.state.game_over
    assert result.state.outcome in ("failed", "concluded")
    kinds = {e["event"] for e in result.log}
    assert {"setup", "phase", "monster_action", "action", "refresh_step"} <= kinds
    assert result.log[0]["event"] == "setup"


def test_the_same_seed_gives_the_same_game_and_another_seed_another() -> None:
    first, again, other = game(11), game(11), game(12)
    assert first.log == again.log
    assert first.state.to_dict() == again.state.to_dict()
    assert first.log != other.log


def test_setup_follows_the_dashboard_and_the_storybook() -> None:
    result = play(catalog(), NewGame(WANDERER, 3), keep_states=True)
    start = result.states[0]
    hollis = start.wanderers[WANDERER]
    assert (hollis.max_health, hollis.max_mc, hollis.mc) == (9, 7, 7)
    assert hollis.domain_cards == ["engineers-slide-rule"]
    assert hollis.existence_cards == ["steady-hands"]
    assert "steady-hands" not in hollis.existence_deck
    assert hollis.malformations == ["the-man-on-the-crown", "the-sluice-hand", "the-dry-widower"]
    assert start.wanderers["stand-in-2"].malformations == []
    assert start.abomination == "the-accretion" and start.confrontation["active"] is not None
    assert "the-tolling-deacon" in start.monsters  # the storybook's special setup
    assert len(start.support) == 5  # two wanderers
    assert sorted(set(start.condition_decks["traumatized"])) == [
        f"traumatized-{n}" for n in range(1, 6)]
    assert start.phase == "event" and start.round == 1


@pytest.mark.parametrize("players, seats, support", [(1, 2, 5), (2, 2, 5), (3, 3, 3), (4, 4, 0)])
def test_players_option_sets_the_seats(players: int, seats: int, support: int) -> None:
    result = play(catalog(), NewGame(WANDERER, 5, players=players), keep_states=True)
    start = result.states[0]
    assert len(start.wanderers) == seats
    assert [w for w in start.wanderers if w != WANDERER] == [
        f"stand-in-{n}" for n in range(2, seats + 1)]
    assert len(start.support) == support


@pytest.mark.parametrize("variant, goal", [("short", 30), ("standard", 40), ("long", 50)])
def test_score_variants(variant: str, goal: int) -> None:
    assert game(2, variant=variant).state.score_goal == goal


def test_devour_option_builds_the_deck_and_spawns_tokens() -> None:
    result = play(catalog(), NewGame(WANDERER, 4, devour=True), keep_states=True)
    start = result.states[0]
    assert start.devour_rule and len(start.decks["devour"]) == 12
    assert all(c.startswith("the-accretion/devour-") for c in start.decks["devour"])
    assert any(e["event"] == "refresh_step" and e["name"] == "devour_tokens" for e in result.log)


def test_greedy_players_reach_the_finale_and_conclude() -> None:
    endings = [game(seed, policy="greedy") for seed in range(6)]
    finales = [r for r in endings if r.state.stage == "finale"]
    assert finales, "no greedy game reached the finale"
    for r in finales:
        assert r.state.outcome == "concluded" and r.state.wanderer_outcome == "won"
        assert r.state.conclusion and r.state.finale_legacy[WANDERER] == r.state.reason
        assert r.state.ending in catalog().endings
        conclusions = {c["entry"] for c in catalog().endings[r.state.ending]["conclusions"]}
        assert r.state.conclusion["entry"] in conclusions


def test_first_policy_takes_the_first_legal_action() -> None:
    first = game(1, policy="first")
    assert first.log == game(1, policy="first").log
    actions = [e for e in first.log if e["event"] == "action"]
    # The engine lists pass first and 'first' takes it only when nothing else is legal,
    # so the opening action is the first other candidate: the domain action.
    assert actions[0]["action"] == "domain"


@pytest.mark.parametrize("seed, policy", [(0, "greedy"), (9, "random"), (21, "greedy")])
def test_a_record_replays_to_the_same_final_state(seed: int, policy: str) -> None:
    result = game(seed, policy=policy)
    record = json.loads(json.dumps(result.record))  # a record is plain data
    assert replay(catalog(), record).to_dict() == result.state.to_dict()


def test_every_state_of_a_game_survives_plain_data() -> None:
    result = play(catalog(), NewGame(WANDERER, 0), policy="greedy", keep_states=True)
    for state in result.states[::7] + [result.state]:
        data = json.loads(json.dumps(state.to_dict()))
        assert GameState.from_dict(data).to_dict() == data


def test_run_play_prints_the_log_and_a_result(tmp_path: Path) -> None:
    out: list[str] = []
    code = run_play(PlayOptions(seed=7, policy="greedy"), emit=out.append)
    text = "".join(out)
    assert code == 0
    assert text.startswith("=== game 1 of 1: hollis-brandt, seed 7, 2 wanderers, score goal 40")
    assert "takes action 1" in text and "\nresult: " in text
    again: list[str] = []
    run_play(PlayOptions(seed=7, policy="greedy"), emit=again.append)
    assert "".join(again) == text
    quiet: list[str] = []
    run_play(PlayOptions(seed=7, policy="greedy", log=False), emit=quiet.append)
    assert len(quiet) == 2 and quiet[1].startswith("result: ")


@pytest.mark.parametrize("options", [
    PlayOptions(policy="smart"), PlayOptions(players=5), PlayOptions(games=0),
    PlayOptions(score_goal=45), PlayOptions(variant="epic"), PlayOptions(wanderer="nobody")])
def test_unusable_options_are_usage_errors(options: PlayOptions) -> None:
    with pytest.raises(UsageError):
        run_play(options)


def test_score_goal_option_maps_to_the_variant() -> None:
    out: list[str] = []
    run_play(PlayOptions(seed=1, score_goal=30, log=False), emit=out.append)
    assert "score goal 30" in out[0]


def test_play_on_content_with_errors_prints_them_and_plays_nothing(tmp_path: Path) -> None:
    import shutil

    root = Path(__file__).resolve().parents[1]
    shutil.copytree(root / "content", tmp_path / "content")
    (tmp_path / "schemas").symlink_to(root / "schemas")
    book = tmp_path / "content" / "wanderers" / "hollis-brandt" / "storybook.yaml"
    text = book.read_text(encoding="utf-8")
    book.write_text(text.replace("kind: exploration", "kind: exploraton", 1), encoding="utf-8")
    out: list[str] = []
    code = run_play(PlayOptions(seed=7, content=tmp_path / "content"), emit=out.append)
    printed = "".join(out)
    assert code == 1
    assert "storybook.yaml" in printed and "error DM1" in printed and "exploraton" in printed
    assert "no game was played" in printed and "=== game" not in printed
