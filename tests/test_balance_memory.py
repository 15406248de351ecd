"""balance's parent keeps bounded memory however many games it plays: its work is made
as it is sent (a run of 10^12 games holds no list of tasks), and what it keeps of the games
is counts. A run that compares games seed by seed (--against, --sweep, several policies)
keeps a two-byte code a game for that, and nothing more.

The games here are one real game's summary under every seed: the counts' keys then stay
the same, and any growth of the parent's structures is growth per game. Their size is
measured (sys.getsizeof over every object they hold), not the process's memory, so the
test is exact and does not depend on the allocator.
"""

from __future__ import annotations

import dataclasses
import sys
from array import array
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest

from dmtool.balance.against import paired_changes
from dmtool.balance.games import Bundle, Chunk, Config, Plan, play_one
from dmtool.balance.pool import collect
from dmtool.balance.summary import GameSummary
from dmtool.balance.tally import Tally

REPO = Path(__file__).resolve().parents[1]
CONFIG = (Config("greedy"),)


def _size(root: object) -> int:
    """Bytes of `root` and of everything it holds (each object once)."""
    seen: set[int] = set()
    stack = [root]
    total = 0
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, type):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif isinstance(item, (str, bytes, bytearray, int, float, array)) or item is None:
            pass
        else:
            stack.extend(vars(item).values() if hasattr(item, "__dict__") else ())
            stack.extend(getattr(item, name) for name in getattr(type(item), "__slots__", ())
                         if hasattr(item, name))
    return total


@pytest.fixture(scope="module")
def game() -> GameSummary:
    return play_one(Bundle.load(REPO / "content", "hollis-brandt"), CONFIG[0], 0)


def _played(game: GameSummary, plan: Plan) -> Iterator[tuple[Chunk, Tally]]:
    """What a runner yields: each chunk's tally, its games the one game under its seeds."""
    for chunk in plan:
        tally = Tally()
        for seed in range(chunk.first, chunk.first + chunk.count):
            tally.add(dataclasses.replace(game, seed=seed))
        yield chunk, tally


def _parent(game: GameSummary, games: int, *, paired: bool) -> int:
    plan = Plan(len(CONFIG), games, 0)
    result = collect(_played(game, plan), CONFIG, plan, games, paired=paired)
    assert result.finished == games
    return _size(result.tallies)


def test_the_parent_keeps_the_same_memory_for_ten_times_the_games(game: GameSummary) -> None:
    assert _parent(game, 1_000, paired=False) == _parent(game, 10_000, paired=False)


def test_a_run_that_compares_seed_by_seed_keeps_two_bytes_a_game(game: GameSummary) -> None:
    grown = _parent(game, 10_000, paired=True) - _parent(game, 1_000, paired=True)
    assert 0 < grown <= 2 * 9_000 * 1.2  # the array's spare room at most a fifth


def test_the_work_of_a_huge_run_is_made_as_it_is_taken() -> None:
    plan = Plan(3, 10**12, 7)
    assert plan.total == 3 * 10**12
    first, second = islice(plan, 2)
    assert (first.config, first.first, second.first) == (0, 7, 7 + first.count)


def test_pairs_kept_compactly_compare_as_the_games_did(game: GameSummary) -> None:
    """Two runs of the same seeds: the changes are counted from the codes, seed by seed."""
    before, after = Tally(), Tally()
    failed = dataclasses.replace(game, outcome="failed", detail="tenth_round")
    for seed in range(10):
        before.add(dataclasses.replace(game if seed < 6 else failed, seed=seed))
        after.add(dataclasses.replace(game if seed < 3 else failed, seed=seed))
    rows = {row["outcome"]: row for row in paired_changes(before, after)}
    assert (rows["reached the finale"]["only_before"],
            rows["reached the finale"]["only_after"]) == (3, 0)
    assert rows["failed: tenth_round"]["after"]["games"] == 7
