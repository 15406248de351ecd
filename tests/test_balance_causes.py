"""`dmtool balance` says why games end as they do: causes of every outcome from the games'
event logs, rule-made associations left out with the rule named, and a deadly test planted
in a copy of the sample found first."""

from __future__ import annotations

import shutil
from pathlib import Path

from dmtool.balance.causes import CLOCK_RULE, DEATH_RULE, EVERY_GAME_RULE, causes
from dmtool.balance.decisive import decisive_items
from dmtool.balance.run import BalanceOptions, run_balance
from dmtool.balance.summary import GameSummary
from dmtool.balance.tally import Tally
from dmtool.balance.text import render_text
from dmtool.model.content_index import default_content_dir

CONTENT = default_content_dir()
STORYBOOK = Path("wanderers/hollis-brandt/storybook.yaml")
# The Floating Pew's test (entry 202), made harder and its fail branch to kill every
# wanderer.
PEW_FAIL = """                  roll: {yellow: [skull]}
                  pass:
                    - goto: 203
                  fail:
                    - gain_condition: {type: lightheaded}
                    - end: encounter
"""
DEADLY = """                  roll: {yellow: [skull, skull]}
                  pass:
                    - goto: 203
                  fail:
                    - all_wanderers:
                        - lose_health: 10
                    - end: encounter
"""


def _named(row: dict[str, object]) -> list[str]:
    return [str(row["feature"]), *row["same"]]  # type: ignore[misc]


def _storybook(names: list[str]) -> bool:
    return any(n.startswith(("entry ", "test at entry ")) for n in names)


def test_every_failure_of_the_sample_names_an_entry_or_test_with_its_effect() -> None:
    report = run_balance(BalanceOptions(content=CONTENT, games=200, jobs=2)).report
    section = report["configurations"][0]
    outcomes = {o["outcome"]: o for o in section["causes"]["outcomes"]}
    assert set(outcomes) == {o["outcome"] for o in section["outcomes"] if o["games"]}
    failures = [name for name in outcomes if name.startswith("failed")]
    assert len(failures) >= 3
    for name in failures:
        rows = [r for r in outcomes[name]["causes"] if _storybook(_named(r))]
        assert rows, name
        low, high = rows[0]["difference_ci"]
        assert 0 < low <= rows[0]["difference"] <= high
    text = render_text(report)
    assert "Causes: what the games met before each outcome" in text
    assert "Storybook tests: each outcome when the first try passed" in text


def test_a_deadly_test_planted_in_a_copy_of_the_sample_is_ranked_first(tmp_path: Path) -> None:
    copy = tmp_path / "content"
    shutil.copytree(CONTENT, copy)
    book = copy / STORYBOOK
    text = book.read_text(encoding="utf-8")
    assert text.count(PEW_FAIL) == 1
    book.write_text(text.replace(PEW_FAIL, DEADLY), encoding="utf-8")
    report = run_balance(BalanceOptions(content=copy, games=200, jobs=2)).report
    section = report["configurations"][0]
    dead = next(o for o in section["causes"]["outcomes"]
                if o["outcome"] == "failed: all_wanderers_dead")
    first = dead["causes"][0]
    assert first["feature"] == "test at entry 202 (yellow skull, yellow skull) failed"
    assert first["sure"] and first["title"] == "The Floating Pew"
    # The tests' table weighs it by its first try, every outcome with its interval.
    pew = next(t for t in section["test_effects"] if t["where"] == "entry 202")
    died = pew["outcomes"]["failed: all_wanderers_dead"]
    assert pew["failed_games"] > 0 and died["difference_ci"][0] <= died["difference"]


def _game(seed: int, outcome: str, detail: str, rounds: int,
          features: tuple[tuple[str, int], ...], by_death: tuple[str, ...] = ()) -> GameSummary:
    return GameSummary(seed=seed, outcome=outcome, detail=detail, rounds=rounds,
                       finale_rounds=0, deaths=0, withered=0, scores=(), entries=(), tests=(),
                       items=(), steps=1, features=features, by_death=by_death)


def test_what_a_rule_makes_go_with_an_outcome_is_left_out_and_the_rule_named() -> None:
    tally = Tally()
    crown = "malformation: the-man-on-the-crown"
    for seed in range(200):
        dead = seed % 4 == 0
        length = 10 if seed % 5 == 0 else 8 if dead else 9 + seed % 2
        met: tuple[tuple[str, int], ...] = (("entry 1", 1),)
        if length >= 9:  # a clock: read in round 9 by every game that lasts nine rounds
            met += (("entry 9", 9),)
        if dead:  # the death spawned the malformation: it stands for the death
            met += ((crown, 3),)
        if seed % 5 == 0:  # a storybook fail_stage at entry 10
            tally.add(_game(seed, "failed", "storybook entry 10", 10, met + (("entry 10", 10),),
                            (crown,) if dead else ()))
            continue
        tally.add(_game(seed, "failed" if dead else "ending A",
                        "all_wanderers_dead" if dead else "conclusion 331",
                        length, met, (crown,) if dead else ()))
    report = causes(tally, {})
    rules = {r["rule"]: r["features"] for r in report["rules"]}
    assert rules[DEATH_RULE] == [crown]
    assert rules[EVERY_GAME_RULE] == ["entry 1"]
    assert rules[CLOCK_RULE.format(round=9)] == ["entry 9"]
    named = {f for o in report["outcomes"] for r in o["causes"] for f in _named(r)}
    assert crown not in named and "entry 1" not in named
    fail_stage = next(o for o in report["outcomes"] if o["outcome"] == "failed: storybook entry 10")
    assert [x["feature"] for x in fail_stage["left_out"]] == ["entry 10"]


def test_a_death_spawned_malformation_no_longer_goes_with_the_deaths_outcomes() -> None:
    crown = "malformation: the-man-on-the-crown"
    tally = Tally()
    for seed in range(120):  # the death spawns it in every game where the central one died
        died = seed % 3 == 0
        tally.add(GameSummary(
            seed=seed, outcome="ending C" if died else "ending A",
            detail="conclusion 411 (central wanderer died)" if died else "conclusion 331",
            rounds=6, finale_rounds=1, deaths=int(died), withered=int(died), scores=(),
            entries=(), tests=(), items=(crown,) if died else (), steps=1,
            features=((crown, 3),) if died else (), by_death=(crown,) if died else ()))
    assert not [r for r in decisive_items(tally) if r["item"] == crown]


def test_games_that_met_a_malformation_only_by_a_death_are_on_neither_side() -> None:
    crown = "malformation: the-man-on-the-crown"
    tally = Tally()
    for seed in range(100):
        if seed < 40:  # the storybook spawned it: 30 of these 40 reach ending A
            game = _game(seed, "ending A" if seed < 30 else "failed", "conclusion 331"
                         if seed < 30 else "tenth_round", 10, (("entry 1", 1), (crown, 2)))
        elif seed < 70:  # a death spawned it: these stand for the death, not the monster
            game = _game(seed, "failed", "all_wanderers_dead", 10, (("entry 1", 1), (crown, 2)),
                         (crown,))
        else:  # never met: 10 of 30 reach ending A
            game = _game(seed, "ending A" if seed < 80 else "failed", "conclusion 331"
                         if seed < 80 else "tenth_round", 10, (("entry 1", 1),))
        tally.add(game)
    ending_a = next(o for o in causes(tally, {})["outcomes"] if o["outcome"] == "ending A")
    row = next(r for r in ending_a["causes"] if r["feature"] == crown)
    assert (row["with"]["games"], row["with"]["count"]) == (40, 30)
    assert (row["without"]["games"], row["without"]["count"]) == (30, 10)  # not 60 games
