"""`dmtool balance --sweep`: one parameter over values on the same seeds, each outcome's
curve with its band, the paired steps, and clear errors for a sweep that cannot be made.
(The 2,000-games-a-point monotone check is in `make bench`: bench/sweep_bench.py.)"""

from __future__ import annotations

import pytest

from dmtool.balance.html import render_html
from dmtool.balance.run import BalanceOptions, run_balance
from dmtool.balance.sweep import parse_sweep
from dmtool.balance.text import render_text
from dmtool.errors import UsageError
from dmtool.model.content_index import default_content_dir
from tests.cli_support import dmtool

CONTENT = default_content_dir()


def test_a_test_sweep_plays_the_same_seeds_and_draws_each_outcome_as_a_curve() -> None:
    report = run_balance(BalanceOptions(content=CONTENT, games=40, jobs=2,
                                        sweep="test:228=1,2,3")).report
    sweep = report["sweep"]
    assert sweep["values"] == ["1", "2", "3"] and len(report["configurations"]) == 3
    config = sweep["configurations"][0]
    passed = config["test"]["rate"]
    assert passed[0] > passed[1] > passed[2]  # a harder test is passed less often
    for low, high in config["test"]["ci"]:
        assert 0 <= low <= high <= 1
    finale = next(o for o in config["outcomes"] if o["outcome"] == "reached the finale")
    assert len(finale["rate"]) == 3 and all(lo <= r <= hi for r, (lo, hi) in
                                            zip(finale["rate"], finale["ci"]))
    # Common random numbers: every value played seeds 0..39, paired seed by seed.
    step = config["steps"][0]
    assert (step["from"], step["to"]) == ("1", "2")
    assert all(c["before"]["games"] + 0 <= 40 for c in step["changes"])
    page = render_html(report)
    assert page.count("<polygon") >= len(config["outcomes"])  # a band for every curve
    assert "Sweep over times the test at entry 228 needs its first symbol" in render_text(report)


def test_a_variant_sweep_is_one_configuration_a_value() -> None:
    report = run_balance(BalanceOptions(content=CONTENT, games=4, jobs=1,
                                        sweep="variant=short,long")).report
    assert [s["config"]["variant"] for s in report["configurations"]] == ["short", "long"]
    assert report["sweep"]["configurations"][0]["test"] is None


def test_a_score_sweep_changes_the_points_an_entry_gives() -> None:
    report = run_balance(BalanceOptions(content=CONTENT, games=20, jobs=1,
                                        sweep="score:228:D=0,6")).report
    ending_d = next(o for o in report["sweep"]["configurations"][0]["outcomes"]
                    if o["outcome"] == "ending D")
    assert ending_d["rate"][1] > ending_d["rate"][0]


@pytest.mark.parametrize("text, message", [
    ("foo=1", "is not one of"), ("test:228=", "is not one of"), ("test:228=0,1", "at least 1"),
    ("score:200:E=1", "must be one of"), ("variant=huge", "values among"),
    ("players=5", "values among"), ("test:x=1", "whole numbers")])
def test_a_sweep_that_cannot_be_read_is_a_usage_error(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_sweep(text)


@pytest.mark.parametrize("args, message", [
    (["--sweep", "test:1=1,2"], "entry 1 has no test"),
    (["--sweep", "score:9999:A=1"], "has no entry 9999"),
    (["--sweep", "test:228=1", "--against", "."], "cannot be used together")])
def test_a_sweep_the_content_cannot_take_is_refused_before_playing(
        args: list[str], message: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = dmtool(capsys, monkeypatch, "balance", "--games", "2", "--jobs", "1",
                          "--content", str(CONTENT), *args)
    assert code == 2 and message in err and "Traceback" not in err
