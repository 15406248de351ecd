"""A range of skill: the planner reads story choices ahead, an epsilon dial between a policy
and random play, and the report placing each policy between random and the best. (That the
planner beats greedy on 2,000 paired seeds with p < 0.01 is measured by `make bench`:
bench/skill_bench.py; it takes minutes.)"""

from __future__ import annotations

import pytest

from dmtool.balance.run import BalanceOptions, run_balance
from dmtool.balance.text import render_text
from dmtool.engine.core.policy import Question
from dmtool.engine.dawn_of_madness.play.epsilon import Epsilon, split_policy
from dmtool.engine.dawn_of_madness.play.policies import make_player, policy_error
from dmtool.engine.dawn_of_madness.play.story_choice import StoryLookahead
from dmtool.model.content_index import default_content_dir
from tests.cli_support import dmtool

CONTENT = default_content_dir()
BOOK = {
    1: {"effects": [{"choice": [
        {"label": "Walk away", "effects": [{"end": "encounter"}]},
        {"label": "Read the ledger", "effects": [{"goto": 2}]},
        {"label": "Break the seal", "effects": [{"fail_stage": "The water comes."}]}]}]},
    2: {"effects": [{"test": {"roll": {"blue": ["brain"]},
                              "pass": [{"score": {"A": 2}}, {"goto": 3}],
                              "fail": [{"take_damage": {"colour": "blue", "amount": 1}}]}}]},
    3: {"effects": [{"score": {"B": 1}}, {"goto": 2}]},  # a loop of gotos ends
}


def test_the_planner_reads_a_choice_ahead_through_tests_and_gotos() -> None:
    ahead = StoryLookahead(BOOK)
    labels = ("Walk away", "Read the ledger", "Break the seal")
    assert ahead.best(labels) == "Read the ledger"
    assert ahead.value_of("Break the seal") < ahead.value_of("Walk away") == 0
    planner = make_player("planner", 7)
    planner.story = ahead  # type: ignore[attr-defined]
    question = Question(("choice",), "Choose an option", labels)
    assert planner.ask(question) == ("choice", "Read the ledger")


def test_epsilon_is_read_from_the_policy_name_and_bounded() -> None:
    assert split_policy("greedy~0.25") == ("greedy", 0.25)
    assert split_policy("greedy") == ("greedy", None)
    assert policy_error("greedy~0.3") is None
    assert "between 0 and 1" in str(policy_error("greedy~2"))
    assert "not one of" in str(policy_error("clever~0.5"))
    player = make_player("greedy~0.5", 3)
    assert isinstance(player, Epsilon) and player.epsilon == 0.5


def _finale(section: dict[str, object]) -> float:
    return next(o["rate"] for o in section["outcomes"]  # type: ignore[attr-defined]
                if o["outcome"] == "reached the finale")


def test_epsilon_spans_the_range_and_the_report_places_each_policy() -> None:
    report = run_balance(BalanceOptions(content=CONTENT, games=24, jobs=2,
                                        policies=("random", "greedy"), epsilons=(0, 1))).report
    by = {s["config"]["policy"]: s for s in report["configurations"]}
    assert set(by) == {"random", "random~1", "greedy", "greedy~1"}
    # Epsilon 0 is the policy itself; epsilon 1 plays at random at every decision.
    plain = run_balance(BalanceOptions(content=CONTENT, games=24, jobs=2,
                                       policies=("greedy~0",))).report
    assert _finale(plain["configurations"][0]) == _finale(by["greedy"])
    assert _finale(by["greedy~1"]) < _finale(by["greedy"])
    group = report["skill"][0]
    assert group["floor"] == "random" and group["best"] == "greedy"
    places = {p["policy"]: p["place"] for p in group["policies"]}
    assert places["random"] == 0 and places["greedy"] == 1
    assert 0 <= places["greedy~1"] < 1
    # Against the best on the same seeds: the finales only each one reached, and McNemar.
    random = next(p for p in group["policies"] if p["policy"] == "random")["against_best"]
    greedy_finales = round(_finale(by["greedy"]) * 24)
    assert random == {"only_this": 0, "only_best": greedy_finales, "p": random["p"]}
    assert random["p"] < 0.01
    assert "Skill range (standard, 1 player(s))" in render_text(report)


@pytest.mark.parametrize("args, message", [
    (["--epsilon", "2"], "chances from 0 to 1"), (["--epsilon", "x"], "chances from 0 to 1"),
    (["--policy", "greedy~x"], "is not a number")])
def test_a_bad_epsilon_is_a_usage_error(args: list[str], message: str,
                                        capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = dmtool(capsys, monkeypatch, "balance", "--games", "1", "--jobs", "1",
                          "--content", str(CONTENT), *args)
    assert code == 2 and message in err and "Traceback" not in err
