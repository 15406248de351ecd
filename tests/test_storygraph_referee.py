"""The engine as the referee of the story analysis: seeded games of every policy must never
end with an ending's score above the bound `dmtool graph --format json` states, nor take a
wanderer's sentience out of its range; games aimed at a place refute a false "never" that
seeded games miss; every witness replays to its place.

The rulebook (Dawn of Madness, "Encounter Action"): "If a world shard has a completed token
on it, then the world shard encounter has already been completed and cannot be resolved
again." So a shard's encounter may be resolved again and again until a completed token is
placed, and each pass scores again: a bound that reads each encounter once is not a bound.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest

from dmtool.commands.aim import Aim, Options, Target, aimed_game, distances
from dmtool.commands.observe import key, observing
from dmtool.commands.replay import replay
from dmtool.commands.verify import POLICIES, Verdicts, refuted, verdicts
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import GameResult, play
from dmtool.engine.dawn_of_madness.play.newgame import NewGame
from dmtool.model.content_index import default_content_dir
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.checked import check_storybooks
from dmtool.storygraph.commands import GraphOptions, run_graph
from dmtool.storygraph.fixtures import witness_script
from dmtool.storygraph.witness import render_witness, witnesses

WANDERER = "hollis-brandt"
SAMPLE = default_content_dir() / "wanderers" / WANDERER / "storybook.yaml"


@cache
def _catalog() -> Catalog:
    return load_catalog(default_content_dir(), WANDERER)


@cache
def _bounds() -> dict[str, Any]:
    data = json.loads(run_graph(GraphOptions(paths=(SAMPLE,), fmt="json")).text)
    (book,) = data["storybooks"]
    return book["score_bounds"]  # type: ignore[no-any-return]


def _over(scores: dict[str, int]) -> list[str]:
    """Each ending whose final score is above the bound the analysis states."""
    over = []
    for ending, bound in _bounds().items():
        if not bound["unbounded"] and scores.get(ending, 0) > bound["game_max"]:
            over.append(f"{ending} {scores[ending]} > {bound['game_max']}")
    return over


# The games the issue names (greedy, four players, seeds 109 and 118 end with D 26), and a
# spread of every policy and player count.
GAMES = [("greedy", 4, 109), ("greedy", 4, 118)] + [
    (policy, players, seed)
    for policy in ("random", "first", "greedy", "planner")
    for players, seed in ((1, 3), (2, 11), (4, 29))
]


@pytest.mark.parametrize(("policy", "players", "seed"), GAMES)
def test_no_seeded_game_ends_above_a_stated_score_bound(
        policy: str, players: int, seed: int) -> None:
    result = play(_catalog(), NewGame(WANDERER, seed, players), policy=policy,
                  keep_record=False)
    assert _over(dict(result.state.scores)) == []


# --- targeted playthroughs, witness replays, DM307, DM315 and sentience -------------------

@cache
def _analysis() -> Analysis:
    [analysis] = check_storybooks((SAMPLE,)).analyses()
    return analysis


def _aim(entries: frozenset[int]) -> Aim:
    target = Target("DM303", "entries " + ", ".join(map(str, sorted(entries))), entries)
    return Aim(target, distances(_analysis(), entries), Options(_catalog().entries))


def test_aimed_games_reach_entries_that_seeded_games_of_every_policy_miss() -> None:
    """A referee that only plays seeded games would let a false 'never' stand for entry
    149 (behind a choice and a test): no plain game of these seeds reads it, the aimed ones
    do, and the verdict is then refuted in words."""
    false = Verdicts(frozenset({149}), {}, frozenset(), {})
    plain = [play(_catalog(), NewGame(WANDERER, seed, 1 + seed % 4), policy=policy,
                  keep_record=False) for seed in range(6) for policy in POLICIES]
    assert [list(refuted(false, r)) for r in plain] == [[]] * len(plain)
    aimed = [aimed_game(_catalog(), NewGame(WANDERER, seed, 1 + seed % 4), _aim(
        frozenset({149})), ("greedy", "random")[seed % 2]) for seed in range(6)]
    told = [w for game in aimed for w in refuted(false, game)]
    assert "entry 149 is called unreachable, but the game read it" in told


def test_a_false_trap_is_refuted_by_an_encounter_that_leaves_it() -> None:
    """DM307 says a reader who enters can never leave by a branch; entry 100 has exits, so a
    game aimed at it refutes a verdict that calls it a trap."""
    false = Verdicts(frozenset(), {}, frozenset(), {}, traps=(frozenset({100}),))
    told = [w for seed in range(4) for w in refuted(false, aimed_game(
        _catalog(), NewGame(WANDERER, seed, 1 + seed % 4), _aim(frozenset({100})),
        "greedy"))]
    assert any(w.startswith("entries 100 are said to lead only to each other") for w in told)


def test_a_false_decided_condition_is_refuted_where_it_is_read() -> None:
    """DM315: entry 3 (round 3's event) asks whether the reader holds The Wheel Turned. A
    verdict that it is always true is refuted by the engine's own reading of it there."""
    condition = {"has_coda": "the-wheel-turned"}
    false = Verdicts(frozenset(), {}, frozenset(), {}, decided=(("then", 3, condition, True),))
    with observing() as seen:
        result = play(_catalog(), NewGame(WANDERER, 3, 1), policy="greedy", keep_record=False)
        assert seen[key(3, condition)] == {False}
        assert list(refuted(false, result, seen)) == [
            'the then condition {"has_coda": "the-wheel-turned"} of entry 3 is said to be '
            "always true, but came out false"]
    assert "if" not in seen  # the engine's handlers are its own again


def test_every_witness_of_the_sample_replays_to_its_place() -> None:
    found = witnesses(_analysis())
    assert len(found) == 12
    assert {render_witness(w).splitlines()[0]: replay(witness_script(w, _analysis()),
                                                      default_content_dir())
            for w in found} == {render_witness(w).splitlines()[0]: None for w in found}


def test_a_witness_that_does_not_get_there_says_why() -> None:
    """The replay checks the path, not only that it ran: the same script with the choice
    of entry 4 swapped reads entry 4 but gives ending B no points."""
    [witness] = [w for w in witnesses(_analysis())
                 if render_witness(w).startswith("ending B: points")]
    script = witness_script(witness, _analysis())
    script.picks[0].answer = "Tear it to pieces and let the rain have it"
    assert replay(script, default_content_dir()) == "points short: B 0 < 2"


def _sentience_over(result: GameResult) -> list[str]:
    bounds = verdicts(_analysis())
    return list(refuted(Verdicts(frozenset(), {}, frozenset(), {},
                                 sentience=bounds.sentience), result))


@pytest.mark.parametrize(("policy", "players", "seed"), GAMES + [("planner", 2, 1)])
def test_no_seeded_game_takes_sentience_out_of_the_stated_range(
        policy: str, players: int, seed: int) -> None:
    """The rulebook's sentience (dashboard values changed by coda cards' fronts, other
    cards and `modify_sentience`, recorded below zero too) stays in the range the analysis
    states for any wanderer. Planner seed 1 with two wanderers once took red to -6: the
    engine dealt a held coda card again each time its encounter was resolved again."""
    result = play(_catalog(), NewGame(WANDERER, seed, players), policy=policy,
                  keep_record=False)
    assert _sentience_over(result) == []
