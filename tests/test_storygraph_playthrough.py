"""Random playthroughs: seeded, exact where the dice allow, and honest about coverage."""

from __future__ import annotations

from pathlib import Path

from storygraph_support import analysed, ending, entry

from dmtool.storygraph.playthrough import PlayOptions, play

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
