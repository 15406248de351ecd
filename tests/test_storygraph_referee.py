"""The engine as the referee of the story analysis: seeded games of every policy must never
end with an ending's score above the bound `dmtool graph --format json` states.

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

from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import play
from dmtool.engine.dawn_of_madness.play.newgame import NewGame
from dmtool.model.content_index import default_content_dir
from dmtool.storygraph.commands import GraphOptions, run_graph

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
