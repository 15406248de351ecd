"""`dmtool graph --verify N`: the rules engine referees the story analysis on the sample
storybook, the bench corpus and mutated copies of the sample.

The rulebook is the referee of both: "If a world shard has a completed token on it, then
the world shard encounter has already been completed and cannot be resolved again" (DoM,
Encounter Action) is why a bound reading each encounter once was refuted by play.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from click.testing import CliRunner

from dmtool.cli import cli
from dmtool.commands.verify import (
    StoryVerification,
    Verdicts,
    _stopped,
    refuted,
    run_verify,
    verify_analysis,
)
from dmtool.engine.dawn_of_madness.errors import EngineFault
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import play
from dmtool.engine.dawn_of_madness.play.newgame import NewGame
from dmtool.model.content_index import default_content_dir
from dmtool.storygraph.checked import check_storybooks

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storygraph_support import planted_copy

from bench.corpus import build_corpus

BOOK = "wanderers/hollis-brandt/storybook.yaml"


def test_the_referee_refutes_the_bound_the_issue_names() -> None:
    """The old analysis said ending D has at most 25 points; greedy, four players, seed 109
    ends with D 26. The referee says so in words."""
    catalog = load_catalog(default_content_dir(), "hollis-brandt")
    result = play(catalog, NewGame("hollis-brandt", 109, 4), policy="greedy", keep_record=False)
    old = Verdicts(frozenset(), {}, frozenset(), {"A": 52, "B": 49, "C": 49, "D": 25})
    assert list(refuted(old, result)) == [
        "ending D is said to have at most 25 points, but ended with 26"]


def test_verify_finds_no_contradiction_on_the_sample() -> None:
    [result] = run_verify((default_content_dir() / BOOK,), 2)
    assert result.skipped is None and result.games == 8
    assert result.contradictions == []
    # Every witness gets there in the engine, set up with what its conditions need (the
    # finale's conclusions need their ending's finale, a monster killed, tokens, round 8).
    assert (len(result.confirmed), result.needs_setup) == (12, [])
    # The sample is clean: nothing is called impossible, so nothing is aimed at.
    assert (result.targets, result.aimed_games) == ([], 0)


def test_verify_on_mutated_copies_of_the_sample(tmp_path: Path) -> None:
    # An entrance no wanderer can meet: the analysis calls the card's entry unreachable,
    # and no game of any policy reads it.
    content = planted_copy(tmp_path, {
        "wanderers/hollis-brandt/encounter-cards/the-organ-loft.yaml": (
            "when: {sentience_at_least: {purple: 2}}",
            "when: {all: [{round_at_least: 3}, {round_at_most: 2}]}"),
        # What the issue planted: play reaches 26 points for ending D, so the analysis
        # must not call the branch behind it impossible.
        BOOK: ("when: {score_at_least: {D: 5}}", "when: {score_at_least: {D: 26}}"),
    })
    [analysis] = check_storybooks((content / BOOK,)).analyses()
    codes = sorted(d.code for d in analysis.diagnostics)
    assert codes == ["DM303", "DM315"], [d.message for d in analysis.diagnostics]
    result = verify_analysis(analysis, 2, root=content)
    assert result.games == 8 and result.contradictions == []
    assert result.targets == ["DM303 entry 242", "DM315 the card-entrance condition "
                              "{\"all\": [{\"round_at_least\": 3}, {\"round_at_most\": 2}]} of entry 242"]
    assert result.aimed_games == 4
    # The card's entrance is judged never true: no game enters the card (its always-true
    # twin would be counted as not observed, a refused card being an illegal action).
    assert result.unobserved == []


# One copy of the sample with a defect of each kind the referee aims at.
PLANTED = [
    ("goto: 330", "goto: 331"),  # DM305: ending A's finale never reaches conclusion 330
    ("      - gain_existence: 1\n      - place_token: {token: completed, shard: current}\n"
     "      - end: encounter\n  - entry: 106",
     "      - gain_existence: 1\n      - goto: 102\n  - entry: 106"),  # DM307: 102 loops
    ("      - gain_coda: the-wheel-turned\n", "      - gain_existence: 1\n"),  # DM309
    ("when: {has_coda: the-wheel-turned}", "when: {round_at_least: 4}"),  # DM315 in round 3
]


def _planted(tmp_path: Path) -> Path:
    content = planted_copy(tmp_path, {})
    path = content / BOOK
    text = path.read_text(encoding="utf-8")
    for old, new in PLANTED:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return content


def test_verify_aims_at_every_kind_of_verdict_on_a_mutated_copy(tmp_path: Path) -> None:
    content = _planted(tmp_path)
    [analysis] = check_storybooks((content / BOOK,)).analyses()
    codes = sorted(d.code for d in analysis.diagnostics)
    assert codes == ["DM305", "DM307", "DM309", "DM315"], [d.message for d in
                                                            analysis.diagnostics]
    result = verify_analysis(analysis, 2, root=content)
    assert result.contradictions == []
    assert sorted({t.split()[0] for t in result.targets}) == [
        "DM303", "DM305", "DM307", "DM309", "DM315"]
    assert "DM315 the then condition {\"round_at_least\": 4} of entry 3" in result.targets
    # The two games aimed at the trap walk to the shard whose encounter leads into it and
    # get stuck there (the engine stops nesting: what DM307 says); the others play out.
    assert (len(result.targets), result.aimed_games, result.limited) == (5, 8, [])
    assert result.needs_setup == [] and len(result.confirmed) == 11  # 330 has no witness


def test_verify_on_the_bench_corpus(tmp_path: Path) -> None:
    books = build_corpus(tmp_path / "content", content=default_content_dir(), storybooks=2,
                         entries=40)
    results = run_verify(tuple(books), 1)
    assert [r.skipped for r in results] == [None, None]
    assert all(r.games == 4 and r.contradictions == [] for r in results), results
    assert all(r.needs_setup == [] and r.confirmed for r in results), results


def test_verify_aims_at_a_bench_storybook_made_unreachable(tmp_path: Path) -> None:
    """The bench corpus is clean (nothing to aim at); a copy whose long road is cut at
    entry 1010 has 30 entries called unreachable, each aimed at."""
    [book] = build_corpus(tmp_path / "content", content=default_content_dir(), storybooks=1,
                          entries=40)
    text = book.read_text(encoding="utf-8")
    cut = text.replace("goto: 1010}", "end: encounter}").replace("goto: 1010\n",
                                                                 "end: encounter\n")
    assert cut != text
    book.write_text(cut, encoding="utf-8")
    [result] = run_verify((book,), 1)
    assert result.skipped is None and result.contradictions == [], result.contradictions
    assert "DM303 entry 1010" in result.targets and result.aimed_games == len(result.targets)


def test_graph_verify_option_prints_and_exits_by_contradictions() -> None:
    result = CliRunner().invoke(cli, ["graph", str(default_content_dir() / BOOK), "--verify",
                                      "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    [verified] = json.loads(result.stdout)["verify"]
    assert verified["games"] == 4 and verified["contradictions"] == []


def test_a_game_stopped_at_the_engines_nesting_limit_is_sorted_by_where() -> None:
    """Inside a trap (DM307) the engine's refusal to nest on is what the verdict says; on a
    long chain with ways out (the bench corpus's road, read 140 entries deep by the
    planner) it is an engine limit, reported apart; any other fault is a contradiction."""
    found = Verdicts(frozenset(), {}, frozenset(), {}, traps=(frozenset({102}),))
    out = StoryVerification("book")
    limit = ("the story nests more than 200 blocks of effects in one encounter (entry {}): "
             "its entries lead on to each other without an end")
    _stopped(found, EngineFault(limit.format(102)), "planner seed 3", out)
    _stopped(found, EngineFault(limit.format(1138)), "planner seed 3", out)
    _stopped(found, EngineFault("no handler for the effect 'x'"), "greedy seed 1", out)
    assert out.limited == ["planner seed 3: " + limit.format(1138)]
    assert out.contradictions == [
        "greedy seed 1: the engine stopped: no handler for the effect 'x'"]
