"""Each storybook test's weight on the game: the finale and each ending's rate among the
games whose first try at it passed, against those whose first try failed (the first try
splits the games that took the test in two; later tries depend on the first)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dmtool.balance.causes import effect
from dmtool.balance.tally import FINALE, Tally

SHOWN = 15  # tests listed, those whose result moves the finale most first


def test_effects(tally: Tally, entries: Mapping[int, Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Per storybook test: its games by first result, and per outcome (the finale, each
    failure and each ending) the rate when passed against when failed, with the interval
    of the difference."""
    outcomes = sorted({name for name in tally.outcomes if "conclusion" not in name})
    rows = []
    for test in sorted({key for key, _ in tally.first_tries}):
        passed = tally.first_tries[(test, True)]
        failed = tally.first_tries[(test, False)]
        if not passed or not failed:
            continue
        where, need = test.split(", ", 1)
        by = {name: effect(tally.first_try_outcomes[(test, True, name)], passed,
                           tally.first_try_outcomes[(test, False, name)], failed)
              for name in outcomes}
        rows.append({"where": where, "need": need,
                     "title": str(entries.get(int(where.split()[1]), {}).get("title", "")),
                     "passed_games": passed, "failed_games": failed, "outcomes": by})
    # What an author can act on: the tests whose result moves the finale rate most surely.
    rows.sort(key=lambda r: (-abs(_finale(r)), r["where"], r["need"]))
    return rows[:SHOWN]


def _finale(row: dict[str, Any]) -> float:
    change = row["outcomes"].get(FINALE)
    if change is None:
        return 0.0
    low, high = change["difference_ci"]
    return 0.0 if low <= 0 <= high else min(abs(low), abs(high))
