"""Conditions judged before play: impossible branches are not links, what lies only behind
them is unreachable (DM303) with the reason, a loop whose only way out is impossible is a
trap (DM307), and a condition decided before play is reported at the condition (DM315)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from storygraph_support import analysed, clean_entries, entry, line_of, planted_copy

from dmtool.diagnostics import Location
from dmtool.storygraph.conditions import Facts, judge
from dmtool.storygraph.context import Source, StoryContext

HERE = Location("card.yaml", 3, 5)


def _if(when: Any, then: list[Any], otherwise: list[Any]) -> dict[str, Any]:
    return {"if": {"when": when, "then": then, "else": otherwise}}


def _d_reaches_25() -> list[dict[str, Any]]:
    """Ending D can have 1 point from entry 1 and 24 from entry 3: 25 at most in a game."""
    return clean_entries() + [
        entry(3, [{"score": {"D": 24}}, {"end": "event"}], kind="event"),
    ]


def _found(analysis: Any, code: str) -> list[Any]:
    return [d for d in analysis.diagnostics if d.code == code]


def test_a_score_no_game_reaches_makes_the_branch_impossible(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        _d_reaches_25()
        + [
            entry(2, [_if({"score_at_least": {"D": 26}}, [{"goto": 30}], [{"end": "event"}])],
                  kind="event"),
            entry(30, [{"goto": 31}]),
            entry(31, [{"end": "encounter"}]),
        ],
    )
    path = tmp_path / "storybook.yaml"
    [unreachable] = _found(a, "DM303")
    assert unreachable.location.line == line_of(path, "entry: 30")
    assert "ending D has at most 25 points in any game" in unreachable.message
    assert "1 more entry" in unreachable.message
    [decided] = _found(a, "DM315")
    assert decided.location.line == line_of(path, "when:")
    assert "'ending D has at least 26 points' is never true" in decided.message
    assert "at most 25 points" in decided.message
    assert a.problems["unreachable"] == {30, 31}


def test_a_score_some_game_reaches_is_left_to_play(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        _d_reaches_25()
        + [
            entry(2, [_if({"score_at_least": {"D": 25}}, [{"goto": 30}], [{"end": "event"}])],
                  kind="event"),
            entry(30, [{"end": "encounter"}]),
        ],
    )
    assert [d.code for d in a.diagnostics] == []


def _with_sentience(purple: int, raise_by: int = 0) -> StoryContext:
    return StoryContext(
        sentience={"red": 1, "blue": 1, "green": 1, "yellow": 1, "purple": purple},
        codas={"insight": HERE},
        coda_effects={"insight": ({"modify_sentience": {"purple": raise_by}},)} if raise_by
        else {},
    )


def _sentience_book(threshold: int) -> list[dict[str, Any]]:
    return clean_entries() + [
        entry(2, [{"gain_coda": "insight"}, {"end": "event"}], kind="event"),
        entry(
            4,
            [_if({"sentience_at_least": {"purple": threshold}}, [{"goto": 30}],
                 [{"end": "event"}])],
            kind="event",
        ),
        entry(30, [{"end": "encounter"}]),
    ]


def test_a_sentience_no_wanderer_reaches_makes_the_branch_impossible(tmp_path: Path) -> None:
    # Purple 2 on the dashboard, +1 from the one coda card the storybook awards: 3 at most.
    a = analysed(tmp_path, _sentience_book(4), context=_with_sentience(2, raise_by=1))
    [unreachable] = _found(a, "DM303")
    assert "purple sentience" in unreachable.message and "at most 3" in unreachable.message
    assert sorted(d.code for d in a.diagnostics) == ["DM303", "DM315"]
    b = analysed(tmp_path, _sentience_book(3), context=_with_sentience(2, raise_by=1))
    assert b.diagnostics == []


def test_a_contradiction_is_never_true(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(2, [{"gain_coda": "key"}, {"end": "event"}], kind="event"),
            entry(
                3,
                [_if({"all": [{"has_coda": "key"}, {"not": {"has_coda": "key"}}]},
                     [{"goto": 30}], [{"end": "event"}])],
                kind="event",
            ),
            entry(30, [{"end": "encounter"}]),
        ],
    )
    [unreachable] = _found(a, "DM303")
    assert "cannot both be true" in unreachable.message
    [decided] = _found(a, "DM315")
    assert "never true" in decided.message and "cannot both be true" in decided.message


def test_a_tautology_is_always_true_and_its_else_side_never_taken(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(2, [{"goto": 41}], kind="event"),
            entry(41, [{"end": "encounter"}]),
            entry(
                3,
                [_if({"any": [{"visited": 41}, {"not": {"visited": 41}}]},
                     [{"end": "event"}], [{"goto": 30}])],
                kind="event",
            ),
            entry(30, [{"end": "encounter"}]),
        ],
    )
    [unreachable] = _found(a, "DM303")
    assert unreachable.location.line == line_of(tmp_path / "storybook.yaml", "entry: 30")
    [decided] = _found(a, "DM315")
    assert "always true" in decided.message and "in every game" in decided.message


def test_nested_sides_that_contradict_each_other_are_impossible(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(2, [{"gain_coda": "key"}, {"end": "event"}], kind="event"),
            entry(
                3,
                [_if({"has_coda": "key"},
                     [_if({"not": {"has_coda": "key"}}, [{"goto": 30}], [{"end": "event"}])],
                     [{"end": "event"}])],
                kind="event",
            ),
            entry(30, [{"end": "encounter"}]),
        ],
    )
    assert a.problems["unreachable"] == {30}
    [unreachable] = _found(a, "DM303")
    assert "cannot both be true" in unreachable.message


def test_a_loop_whose_only_exit_is_impossible_is_a_trap(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        _d_reaches_25()
        + [
            entry(2, [{"goto": 50}], kind="event"),
            entry(50, [{"goto": 51}]),
            entry(51, [_if({"score_at_least": {"D": 30}}, [{"end": "encounter"}],
                           [{"goto": 50}])]),
        ],
    )
    [trap] = _found(a, "DM307")
    assert trap.location.line == line_of(tmp_path / "storybook.yaml", "entry: 50")
    assert "entries 50, 51" in trap.message
    assert "the way out from entry 51 is taken only when ending D has at least 30 points" in (
        trap.message
    )
    assert "at most 25 points" in trap.message
    assert a.traps == [[50, 51]]


def test_round_bounds_decide_conditions(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        clean_entries()
        + [
            entry(2, [_if({"round_at_least": 1}, [{"end": "event"}], [{"goto": 30}])],
                  kind="event"),
            entry(3, [_if({"all": [{"round_at_least": 6}, {"round_at_most": 5}]},
                          [{"goto": 31}], [{"end": "event"}])], kind="event"),
            entry(30, [{"end": "encounter"}]),
            entry(31, [{"end": "encounter"}]),
        ],
    )
    assert a.problems["unreachable"] == {30, 31}
    messages = sorted(d.message for d in _found(a, "DM315"))
    assert len(messages) == 2
    assert any("always true" in m and "round 1" in m for m in messages)
    assert any("'it is round 6 or later' and 'it is round 5 or earlier' cannot both be true"
               in m for m in messages)


def _behind_coda_lost() -> list[dict[str, Any]]:
    """The clean book plus entry 30, reached only by an event holding the coda 'lost'."""
    return clean_entries() + [
        entry(2, [_if({"has_coda": "lost"}, [{"goto": 30}], [{"end": "event"}])], kind="event"),
        entry(30, [{"end": "encounter"}]),
    ]


def test_a_coda_nobody_awards_is_explained_where_it_is_not_a_second_finding(
    tmp_path: Path,
) -> None:
    # The coda is the cause (DM309 when the card exists); the condition is not reported again.
    a = analysed(tmp_path, _behind_coda_lost())
    assert [d.code for d in a.diagnostics] == ["DM303"]
    assert "no reachable branch or card awards coda card 'lost'" in a.diagnostics[0].message


def test_a_coda_another_card_awards_is_not_judged_never_held(tmp_path: Path) -> None:
    a = analysed(
        tmp_path,
        _behind_coda_lost(),
        context=StoryContext(codas_elsewhere=frozenset({"lost"})),
    )
    assert a.diagnostics == []


def test_a_card_whose_spawning_condition_never_holds_never_enters_play(tmp_path: Path) -> None:
    context = StoryContext(
        cards=(
            Source("card", "card 'the-door'", 12, HERE, card_id="the-door", spawned=True,
                   where=HERE, spawn={"score_at_least": {"C": 60}}),
        ),
    )
    a = analysed(tmp_path, clean_entries() + [entry(12, [{"end": "encounter"}])],
                 context=context)
    assert 12 not in a.solution.reached
    [unreachable] = _found(a, "DM303")
    assert "card 'the-door' spawns only when ending C has at least 60 points" in (
        unreachable.message
    )
    [decided] = _found(a, "DM315")
    assert decided.location == HERE


def test_judge_reduces_combinations() -> None:
    facts = Facts(codas={"key"}, visited={1, 2})
    assert judge({"all": [{"has_coda": "key"}, {"not": {"has_coda": "key"}}]}, facts).value is False
    assert judge({"any": [{"visited": 2}, {"not": {"visited": 2}}]}, facts).value is True
    assert judge({"has_coda": "key"}, facts).value is None
    assert judge({"has_coda": "other"}, facts).value is False
    assert judge({"not": {"has_coda": "other"}}, facts).value is True
    assert judge({"score_at_least": {"A": 0}}, facts).value is True
    assert judge({"score_at_least": {"A": 3}}, facts).value is None
    # In the wanderer stage "the game ends at the end of the tenth round" (DoM): the round is
    # at most 10 there, but a finale has no last round.
    assert judge({"round_at_most": 10}, facts.at_rounds((1, 10))).value is True
    assert judge({"round_at_most": 10}, facts).value is None
    read_in_round_2 = judge({"round_at_least": 5}, facts.at_rounds((2, 2)))
    assert read_in_round_2.value is False and "round 2 at the latest" in read_in_round_2.reason
    assert judge({"all": [{"round_at_least": 3}, {"round_at_most": 3}]}, facts).value is None
    assert judge({"all": [{"trapped": True}, {"trapped": False}]}, facts).value is False
    assert judge({"any": [{"is_central": True}, {"is_central": False}]}, facts).value is True
    assert judge({"wanderers_at_least": 1}, facts).value is True
    never = judge({"all": [{"round_at_least": 6}, {"not": {"round_at_least": 2}}]}, facts)
    assert never.value is False and "cannot both be true" in never.reason


ROOT = Path(__file__).resolve().parents[1]


def _planted(tmp_path: Path, edits: dict[str, tuple[str, str]]) -> list[dict[str, Any]]:
    """`dmtool check` of a copy of the real content/ with each file's text replaced once."""
    import json

    from click.testing import CliRunner

    from dmtool.cli import cli

    content = planted_copy(tmp_path, edits)
    result = CliRunner().invoke(cli, ["check", "--no-cache", "--format", "json", str(content)])
    return [d for d in json.loads(result.stdout)["diagnostics"] if d["code"].startswith("DM3")]


def test_the_issues_cases_in_the_real_storybook(tmp_path: Path) -> None:
    """Issue 29: ending D's 26 points were called impossible, yet `dmtool play --policy greedy
    --players 4 --seed 109` ends with D 26. An encounter card stays in play and is resolved
    again (DoM "Encounter Action" bars only a shard with a completed token), so nothing
    bounds D: the condition is left to play. The card's entrance is still judged."""
    book = "wanderers/hollis-brandt/storybook.yaml"
    found = _planted(
        tmp_path,
        {book: ("when: {score_at_least: {D: 5}}", "when: {score_at_least: {D: 26}}")},
    )
    assert found == []
    found = _planted(
        tmp_path / "2",
        {"wanderers/hollis-brandt/encounter-cards/the-organ-loft.yaml": (
            "when: {sentience_at_least: {purple: 2}}",
            "when: {all: [{sentience_at_least: {purple: 2}}, {not: {sentience_at_least: "
            "{purple: 2}}}]}")},
    )
    messages = {d["message"] for d in found}
    assert sorted(d["code"] for d in found) == ["DM303", "DM315"], messages
    [card] = [m for m in messages if m.startswith("entry 242 can never be reached")]
    assert "card 'the-organ-loft' can be entered only when" in card


def test_every_kind_that_can_change_sentience_is_read_for_the_ranges() -> None:
    from dmtool.storygraph.context import SENTIENCE_KINDS
    from dmtool.validation.schemas import SchemaSet

    # The storybook's branches and coda cards are counted by the analysis; fixtures and
    # chapters (Deep Madness) never reach a Dawn of Madness game.
    counted_elsewhere = {"storybook", "coda", "scenario", "chapter"}
    can_change = set()
    for kind in SchemaSet(ROOT / "schemas").kinds:
        text = (ROOT / "schemas" / f"{kind}.schema.json").read_text(encoding="utf-8")
        if kind not in counted_elsewhere and ("$defs/effect" in text or "sentience_change" in text):
            can_change.add(kind)
    assert can_change == set(SENTIENCE_KINDS)
