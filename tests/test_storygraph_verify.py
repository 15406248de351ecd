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
from dmtool.commands.verify import Verdicts, refuted, run_verify, verify_analysis
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
    # A witness whose path needs no setup gets there in the engine (the score witnesses of
    # ending A and D, the conclusion 410 of ending C's finale among them).
    assert len(result.confirmed) >= 3, result.needs_setup


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


def test_verify_on_the_bench_corpus(tmp_path: Path) -> None:
    books = build_corpus(tmp_path / "content", content=default_content_dir(), storybooks=2,
                         entries=40)
    results = run_verify(tuple(books), 1)
    assert [r.skipped for r in results] == [None, None]
    assert all(r.games == 4 and r.contradictions == [] for r in results), results


def test_graph_verify_option_prints_and_exits_by_contradictions() -> None:
    result = CliRunner().invoke(cli, ["graph", str(default_content_dir() / BOOK), "--verify",
                                      "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    [verified] = json.loads(result.stdout)["verify"]
    assert verified["games"] == 4 and verified["contradictions"] == []
