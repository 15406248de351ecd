"""Random playthroughs: seeded, exact where the dice allow, and honest about coverage."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

from storygraph_support import analysed, ending, entry

from bench.graph_bench import prepared
from dmtool.model.storybook import Storybook
from dmtool.storygraph.analysis import Analysis, analyse
from dmtool.storygraph.context import context_for
from dmtool.storygraph.loader import load_storybooks
from dmtool.storygraph.playthrough import PlayOptions, play
from dmtool.storygraph.program import Knowledge, compile_condition

ONE_EACH = {"red": 1, "blue": 1, "green": 1, "yellow": 1, "purple": 1}


def _finale(letter: str, start: int, test: dict | None = None) -> tuple[list, dict]:
    effects = (
        [{"test": {**test, "pass": [{"goto": start + 1}], "fail": [{"goto": start + 2}]}}]
        if test
        else [{"goto": start + 1}]
    )
    return (
        [
            entry(start, effects, kind="finale"),
            entry(start + 1, [{"conclude": "good"}], kind="conclusion"),
            entry(start + 2, [{"conclude": "bad"}], kind="conclusion"),
        ],
        ending(letter, start, [start + 1, start + 2]),
    )


def _book(tmp_path: Path, stage: list, tests: dict | None = None, **extra):  # type: ignore[no-untyped-def]
    entries, endings = list(stage), []
    for i, letter in enumerate("ABCD"):
        more, end = _finale(letter, 901 + 10 * i, (tests or {}).get(letter))
        entries += more
        endings.append(end)
    return analysed(tmp_path, entries, endings, **extra)


def test_ties_go_to_the_earliest_ending_and_impossible_tests_always_fail(tmp_path: Path) -> None:
    a = _book(
        tmp_path,
        [entry(1, [{"score": {"A": 20, "B": 20}}, {"end": "event"}], kind="event")],
        tests={"A": {"roll": {"red": ["skull", "skull"]}}},
    )
    report = play(a, PlayOptions(runs=50, seed=3, sentience=ONE_EACH))
    assert report.outcomes == {"A": 50}
    assert report.conclusions == {("A", 903): 50}  # one red die can never show two skulls


def test_test_outcomes_follow_the_exact_probability(tmp_path: Path) -> None:
    # Two green dice for an eye pass with probability 3/4 exactly.
    a = _book(
        tmp_path,
        [entry(1, [{"score": {"B": 40}}, {"end": "event"}], kind="event")],
        tests={"B": {"roll": {"green": ["eye"]}}},
    )
    report = play(a, PlayOptions(runs=4000, seed=11, sentience={**ONE_EACH, "green": 2}))
    good = report.conclusions[("B", 912)] / 4000
    assert abs(good - 0.75) < 0.03
    assert report.decisions == 4000


def test_stage_fails_without_enough_points_and_coverage_lists_unread_entries(
    tmp_path: Path,
) -> None:
    a = _book(
        tmp_path,
        [
            entry(1, [{"score": {"C": 1}}, {"end": "event"}], kind="event"),
            entry(50, [{"end": "encounter"}]),
        ],
    )
    report = play(a, PlayOptions(runs=20, seed=1, sentience=ONE_EACH))
    assert report.outcomes == {"stage failed": 20}
    assert 50 in report.never_visited and 1 not in report.never_visited


def test_codas_and_conditions_steer_the_walk(tmp_path: Path) -> None:
    a = _book(
        tmp_path,
        [
            entry(1, [{"gain_coda": "the-key"}, {"end": "event"}], kind="event"),
            entry(
                2,
                [
                    {
                        "if": {
                            "when": {"has_coda": "the-key"},
                            "then": [{"score": {"D": 40}}],
                            "else": [{"score": {"A": 40}}],
                        }
                    },
                    {"end": "event"},
                ],
                kind="event",
            ),
        ],
    )
    report = play(a, PlayOptions(runs=30, seed=5, sentience=ONE_EACH))
    assert report.outcomes == {"D": 30}


def test_a_loop_without_exit_is_cut_and_counted(tmp_path: Path) -> None:
    events = [entry(n, [{"goto": 60}], kind="event") for n in range(1, 11)]
    a = _book(tmp_path, events + [entry(60, [{"goto": 60}])])
    report = play(a, PlayOptions(runs=3, seed=1, sentience=ONE_EACH, max_links=50))
    assert report.stuck == 30  # ten rounds in each of three games
    assert report.outcomes == {"stage failed": 3}


def test_same_seed_same_games(tmp_path: Path) -> None:
    choice = {"choice": [{"label": e, "effects": [{"score": {e: 5}}]} for e in "ABCD"]}
    a = _book(tmp_path, [entry(n, [choice, {"end": "event"}], kind="event") for n in range(1, 11)])
    first = play(a, PlayOptions(runs=300, seed=42, sentience=ONE_EACH, goal=40))
    second = play(a, PlayOptions(runs=300, seed=42, sentience=ONE_EACH, goal=40))
    third = play(a, PlayOptions(runs=300, seed=43, sentience=ONE_EACH, goal=40))
    assert first.outcomes == second.outcomes and first.decisions == second.decisions
    assert first.outcomes != third.outcomes
    assert set(first.outcomes) <= {"A", "B", "C", "D", "stage failed"} and len(first.outcomes) >= 3


def test_decisions_are_tests_open_choices_and_optional_effects(tmp_path: Path) -> None:
    closed = {"label": "Closed", "when": {"has_coda": "never"}, "effects": [{"score": {"B": 40}}]}
    a = _book(
        tmp_path,
        [
            entry(
                1,
                [
                    {"may": []},  # taken or not, still a decision
                    {"may": [{"score": {"A": 40}}]},
                    {"choice": [closed]},  # no option open: nothing decided
                    {"if": {"when": {"visited": 1}, "then": [{"score": {"C": 1}}]}},
                    {"end": "event"},
                ],
                kind="event",
            )
        ],
        tests={"A": {"roll": {"red": ["hand"]}}},
    )
    report = play(a, PlayOptions(runs=400, seed=9, sentience=ONE_EACH))
    won = report.outcomes["A"]
    assert report.outcomes == {"A": won, "stage failed": 400 - won} and 140 < won < 260
    assert report.decisions == 2 * 400 + won  # the finale's test is one more


def test_conditions_are_read_from_what_the_walk_knows() -> None:
    know = Knowledge([2, 0, 1, 1, 1])
    know.codas.add("key")
    know.visited.add(7)
    know.scores[1] = 5
    know.round = 3
    board = {"monster_killed": "the-surveyor"}
    expected: list[tuple[object, bool | None]] = [
        (None, True),
        ({"has_coda": "key"}, True),
        ({"has_coda": "lock"}, False),
        ({"visited": 7}, True),
        ({"not": {"visited": 8}}, True),
        ({"not": board}, None),
        (board, None),
        ({}, None),
        ({"any": [board, {"has_coda": "key"}]}, True),
        ({"any": [board, {"has_coda": "lock"}]}, None),
        ({"any": []}, False),
        ({"all": [board, {"has_coda": "lock"}]}, False),
        ({"all": [board, {"has_coda": "key"}]}, None),
        ({"all": []}, True),
        ({"score_at_least": {"B": 5}}, True),
        ({"score_at_least": {"A": 1, "B": 5}}, False),
        ({"round_at_least": 3, "round_at_most": 2}, True),  # the first key read decides
        ({"round_at_most": 2}, False),
        ({"sentience_at_least": {"red": 2, "green": 1}}, True),
        ({"sentience_at_least": {"blue": 1}}, False),
        ({"trapped": False}, True),
        ({"is_central": True}, True),
        ({"wanderers_at_least": 2}, False),
        ({"existence_at_least": 2, "has_coda": "key"}, True),  # unread keys are skipped
    ]
    assert [(c, compile_condition(c)(know)) for c, _ in expected] == expected


# Pinned reports: the same seed must give the same games, decision count and coverage after
# any change to the walk (it is tuned for speed). A deliberate change of the game's rules, or
# an edit of the sample storybook or of the bench generator, needs new pins: print the
# report of these options and check the difference is the one intended.
SAMPLE = Path(__file__).resolve().parents[1] / "content/wanderers/hollis-brandt/storybook.yaml"


def _sample_analysis() -> Analysis:
    corpus, documents, problems = load_storybooks([SAMPLE])
    assert documents and not problems
    storybook = Storybook.from_document(documents[0])
    return analyse(storybook, context_for(corpus, storybook.wanderer))


def _digest(visits: Counter[int]) -> str:
    return hashlib.sha256(repr(sorted(visits.items())).encode()).hexdigest()[:16]


def test_sample_storybook_report_is_pinned() -> None:
    a = _sample_analysis()
    sentience = dict(a.graph.context.sentience or {})
    assert sentience == {"red": 2, "blue": 3, "green": 2, "yellow": 2, "purple": 1}
    report = play(a, PlayOptions(runs=300, seed=1, sentience=sentience))
    assert report.outcomes == {"A": 102, "B": 131, "C": 61, "D": 1, "stage failed": 5}
    assert report.conclusions == {
        ("A", 330): 42,
        ("A", 331): 60,
        ("B", 370): 58,
        ("B", 371): 73,
        ("C", 410): 48,
        ("C", 411): 13,
        ("D", 451): 1,
    }
    assert (report.decisions, report.stuck) == (10259, 0)
    assert (sum(report.visits.values()), _digest(report.visits)) == (12464, "7c318e0d1590db66")
    assert report.never_visited == [
        *(214, 320, 354, 356, 360, 393, 400),
        *(430, 431, 432, 433, 434, 435, 436, 437, 440, 450),
    ]


def test_sample_storybook_report_with_other_options_is_pinned() -> None:
    options = PlayOptions(runs=200, seed=2, sentience=ONE_EACH, goal=25, encounters_per_round=2)
    report = play(_sample_analysis(), options)
    assert report.outcomes == {"A": 36, "B": 125, "C": 29, "D": 1, "stage failed": 9}
    assert report.conclusions == {
        ("A", 330): 13,
        ("A", 331): 23,
        ("B", 370): 55,
        ("B", 371): 70,
        ("C", 410): 21,
        ("C", 411): 8,
        ("D", 450): 1,
    }
    assert (report.decisions, report.stuck) == (4857, 0)
    assert (sum(report.visits.values()), _digest(report.visits)) == (6186, "14323f61c8270538")
    assert len(report.never_visited) == 28 and report.never_visited[:4] == [214, 242, 311, 314]


def test_generated_storybook_report_is_pinned() -> None:
    report = play(
        analyse(*prepared(400, seed=1)), PlayOptions(runs=300, seed=5, sentience=ONE_EACH)
    )
    assert report.outcomes == {"A": 164, "B": 51, "C": 39, "D": 46}
    assert report.conclusions == {
        ("A", 378): 27,
        ("A", 379): 137,
        ("B", 382): 15,
        ("B", 383): 36,
        ("C", 386): 10,
        ("C", 387): 29,
        ("D", 390): 10,
        ("D", 391): 36,
    }
    assert (report.decisions, report.stuck) == (10618, 0)
    assert (sum(report.visits.values()), _digest(report.visits)) == (23209, "7dfcb37f8b2144fa")
    assert report.never_visited == [10, *range(135, 150), 305, 307, 353, 354, 355, 356]


def test_paths_list_each_playthrough_and_change_nothing_else() -> None:
    """`odds --runs --paths` (issue 33): each game's entries in order, scores and ending,
    the same games as without paths."""
    a = _sample_analysis()
    sentience = dict(a.graph.context.sentience or {})
    plain = play(a, PlayOptions(runs=50, seed=4, sentience=sentience))
    traced = play(a, PlayOptions(runs=50, seed=4, sentience=sentience, paths=True))
    assert (traced.outcomes, traced.conclusions, traced.visits, traced.decisions) == (
        plain.outcomes, plain.conclusions, plain.visits, plain.decisions)
    assert plain.paths == [] and len(traced.paths) == 50
    assert Counter(p["outcome"] for p in traced.paths) == traced.outcomes
    visits: Counter[int] = Counter()
    for path in traced.paths:
        visits.update(set(path["entries"]))
        assert path["entries"][0] == 1 and len(path["scores"]) == 4
        if path["outcome"] in "ABCD":
            assert path["entries"][-1] == path["conclusion"]
    assert visits == traced.visits
