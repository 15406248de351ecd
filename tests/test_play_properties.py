"""Properties of many seeded full games (hypothesis): the invariants hold in every state,
every state is plain data, and a game's record replays to the same final state."""

from __future__ import annotations

import json
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.constants import MAX_MENTAL_CAPACITY
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import GameResult, play, replay
from dmtool.engine.dawn_of_madness.play.newgame import NewGame
from dmtool.engine.dawn_of_madness.state import GameState
from dmtool.model.content_index import default_content_dir

WANDERER = "hollis-brandt"
GAMES = st.builds(
    NewGame, st.just(WANDERER), st.integers(0, 2**32 - 1), st.integers(1, 4),
    st.sampled_from(["short", "standard", "long"]), st.booleans())
POLICIES = st.sampled_from(["random", "greedy", "first"])
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.too_slow])


@cache
def catalog() -> Catalog:
    return load_catalog(default_content_dir(), WANDERER)


def broken(state: GameState) -> list[str]:
    """Every invariant the state breaks (an empty list when all hold)."""
    bad: list[str] = []
    for w in state.wanderers.values():
        counts = [w.wounds, w.existence, w.mc, w.max_mc, w.max_health, *w.domains.values(),
                  *w.charges.values(), *w.conditions.values()]
        if min(counts) < 0:
            bad.append(f"{w.id} has a value below zero")
        if w.mc > w.max_mc or w.max_mc > MAX_MENTAL_CAPACITY:
            bad.append(f"{w.id} capacity {w.mc}/{w.max_mc}")
        if w.alive and w.wounds >= w.max_health:
            bad.append(f"{w.id} is alive with {w.wounds} wounds of {w.max_health}")
        if len(w.domain_cards) > w.domain_card_limit:
            bad.append(f"{w.id} holds more domain cards than the limit")
    for m in state.monsters.values():
        if min(m.wounds, m.mc) < 0 or m.wounds >= m.max_health:
            bad.append(f"{m.id} wounds {m.wounds}/{m.max_health}")
        if m.mc > m.max_mc or m.max_mc > MAX_MENTAL_CAPACITY:
            bad.append(f"{m.id} capacity {m.mc}/{m.max_mc}")
    if min(state.scores.values()) < 0 or state.round < 1:
        bad.append("a score or the round is below its floor")
    if any(n < 0 for shard in state.shards.values() for n in shard.tokens.values()):
        bad.append("a token count is below zero")
    return bad


def _play(game: NewGame, policy: str) -> GameResult:
    return play(catalog(), game, policy=policy, keep_states=True)


@SETTINGS
@given(game=GAMES, policy=POLICIES)
def test_invariants_hold_in_every_state(game: NewGame, policy: str) -> None:
    result = _play(game, policy)
    assert not result.stalled
    assert result.state.game_over
    for index, state in enumerate(result.states):
        assert not broken(state), (index, broken(state))


@SETTINGS
@given(game=GAMES, policy=POLICIES)
def test_every_state_is_plain_data_and_the_record_replays(game: NewGame, policy: str) -> None:
    result = _play(game, policy)
    for state in result.states[::5] + [result.state]:
        data = json.loads(json.dumps(state.to_dict()))
        assert GameState.from_dict(data).to_dict() == data
    record = json.loads(json.dumps(result.record))
    assert replay(catalog(), record).to_dict() == result.state.to_dict()


def test_the_invariant_check_notices_a_broken_state() -> None:
    state = _play(NewGame(WANDERER, 1), "random").states[0]
    hollis = state.wanderers[WANDERER]
    hollis.wounds = hollis.max_health
    hollis.mc = hollis.max_mc + 1
    assert len(broken(state)) == 2
