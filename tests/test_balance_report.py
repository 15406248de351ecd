"""The balance report is complete: outcomes never reached listed with their upper bound,
test pass rates with intervals clustered by game, one figure per measure, charts with axes
and counts, the configurations side by side in HTML with links, --against as differences
with intervals."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from click.testing import CliRunner

from dmtool.balance.html import render_html
from dmtool.balance.run import BalanceOptions, run_balance
from dmtool.balance.stats import wilson
from dmtool.balance.text import render_text
from dmtool.cli import cli
from dmtool.model.content_index import default_content_dir

CONTENT = default_content_dir()


def test_the_report_lists_what_no_game_reached_and_draws_every_measure_once() -> None:
    report = run_balance(BalanceOptions(content=CONTENT, games=40, jobs=1,
                                        policies=("greedy", "first"), against=CONTENT)).report
    greedy, first = report["configurations"]
    outcomes = {o["outcome"]: o for o in greedy["outcomes"]}
    never = [o for o in outcomes.values() if o["games"] == 0]
    assert never and all(o["example_seed"] is None for o in never)
    assert never[0]["ci"] == [0.0, round(wilson(0, 40)[1], 6)]
    for name in ("failed: all_wanderers_dead", "failed: tenth_round", "failed: fourth_withered",
                 "ending A", "ending B", "ending C", "ending D", "ending C, conclusion 410"):
        assert name in outcomes
    assert "never reached" in render_text(report)
    for test in greedy["tests"]:  # clustered by game: never narrower than independent tries
        low, high = test["observed"]["ci"]
        naive = wilson(test["observed"]["games"], test["tries"])
        assert high - low >= naive[1] - naive[0] - 1e-6 and test["observed"]["design_effect"] >= 1
    page = render_html(report)
    assert '<h2 id="configurations">' in page
    assert page.count('href="#configuration-') == 2
    # Each configuration folds, the first open: a page of many stays short.
    assert '<details id="configuration-0" open>' in page and '<details id="configuration-1">' in page
    assert "Storybook tests: outcomes when passed and when failed" in page
    # Deaths and Withered cards: one figure when they are one measure.
    assert greedy["withered_is_deaths"] is (page.count("Withered cards a game</title>") == 0)
    assert page.count(">games</text>") >= 2  # the histograms' count axes
    assert re.search(r">\d+\.\d% \(\d+\)</text>", page)  # bars carry their game counts
    assert "<script src" not in page and "http://" not in page.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")
    changes = report["against"]["configurations"][0]["changes"]
    assert all(c["difference_ci"] == [0.0, 0.0] and c["difference"] == 0.0 for c in changes)
    assert first["label"].startswith("first")


def test_visits_are_written_as_csv_for_a_spreadsheet(tmp_path: Path) -> None:
    out = tmp_path / "visits.csv"
    result = CliRunner().invoke(cli, ["balance", "--games", "6", "--jobs", "1", "--content",
                                      str(CONTENT), "--visits", str(out)])
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(out.read_text(encoding="utf-8").splitlines()))
    entries = [r for r in rows if r["kind"] == "entry"]
    options = [r for r in rows if r["kind"] == "option"]
    assert {r["entry"] for r in entries} >= {"1", "2", "138"}  # read or not, every entry
    first = next(r for r in entries if r["entry"] == "1")
    assert first["games"] == "6" and first["share of games"] == "1.0"
    assert int(first["times"]) >= 6 and first["title or option"] == "The Bell Under the Water"
    assert options and all(int(r["times"]) >= int(r["games"]) >= 1 for r in options)
