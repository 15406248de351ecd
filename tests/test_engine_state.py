"""State: copies, serialisation, purity of transitions, legal actions, seeded replays."""

from __future__ import annotations

import json

from dmtool.engine.dawn_of_madness import (
    Action,
    DefaultPolicy,
    Game,
    GameState,
    RandomPolicy,
    SeededDice,
    apply,
    is_legal,
    legal_actions,
)
from tests.engine_helpers import small_game


def test_round_trip_through_plain_data() -> None:
    state, _ = small_game()
    data = json.loads(json.dumps(state.to_dict()))
    assert GameState.from_dict(data).to_dict() == state.to_dict()


def test_clone_shares_nothing_mutable() -> None:
    state, _ = small_game()
    copy = state.clone()
    copy.wanderers["mara"].store(("blue", "eye"))
    copy.wanderers["mara"].domain_cards.append("x")
    copy.monsters["gnawing-shade"].rifts.clear()
    copy.shards[6].tokens["void"] = 1
    copy.decks["terror"].clear()
    copy.confrontation["deck"].clear()
    assert state.to_dict() != copy.to_dict()
    assert state.wanderers["mara"].domain_cards == ["lantern"]
    assert state.monsters["gnawing-shade"].rifts and state.decks["terror"]
    assert state.confrontation["deck"] == [2] and not state.shards[6].tokens


def test_apply_returns_a_new_state_and_leaves_the_old_one() -> None:
    state, catalog = small_game()
    before = state.to_dict()
    done = apply(state, catalog, {"wanderer": "mara", "move": {"to": 5}}, dice=SeededDice(),
                 policy=DefaultPolicy())
    assert done.ok and done.state.wanderers["mara"].shard == 5
    assert state.to_dict() == before


def test_rejection_has_a_stable_code() -> None:
    state, catalog = small_game()
    rejected = apply(state, catalog, {"wanderer": "ilse", "pass": {}}, dice=SeededDice(),
                     policy=DefaultPolicy())
    assert not rejected.ok and rejected.code == "not_your_turn"


def test_legal_actions_are_all_legal_and_cover_the_basics() -> None:
    state, catalog = small_game()
    actions = legal_actions(state, catalog)
    keys = {a.key() for a in actions}
    assert all(is_legal(state, catalog, a) for a in actions)
    assert Action("move", "mara", {"to": 2}).key() in keys  # one space away
    assert Action("move", "mara", {"to": 16}).key() not in keys  # four away
    assert Action("attack", "mara", {"monster": "gnawing-shade", "rift": "red hand"}).key() in keys
    assert all(a.wanderer == "mara" for a in actions)


def _play(seed: int, steps: int = 60) -> dict[str, object]:
    state, catalog = small_game(phase="event", round_trackers=[1, 1, 1])
    state.rng = seed
    policy = RandomPolicy(seed)
    game = Game(state, catalog, SeededDice(), policy)
    for _ in range(steps):
        if game.state.outcome != "ongoing":
            break
        if game.state.phase == "event":
            action = Action("event_phase")
        elif game.state.phase == "refresh":
            action = Action("refresh")
        else:
            _, action = policy.ask(_question(legal_actions(game.state, catalog)))
        done = game.step(action)
        assert done.ok, done
    assert [e["step"] for e in game.log] == sorted(e["step"] for e in game.log)
    return game.state.to_dict()


def _question(options: list[Action]):  # type: ignore[no-untyped-def]
    from dmtool.engine.dawn_of_madness import Question

    return Question(("action",), "next action", tuple(options))


def test_seeded_random_games_replay_exactly() -> None:
    first, again, other = _play(3), _play(3), _play(4)
    assert first == again
    assert first != other
    assert first["round"] >= 2  # the loop reached at least one refresh phase
