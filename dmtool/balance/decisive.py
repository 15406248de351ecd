"""Cards and codas that went with an outcome: its rate in the games that saw the card
against the games that did not, with a two-proportion test and Holm's correction."""

from __future__ import annotations

from typing import Any

from dmtool.balance.stats import holm, two_proportions, wilson
from dmtool.balance.tally import Tally

SHOWN = 15  # pairs listed
MIN_GAMES = 10  # each side (with, without) needs this many games to be compared
SIGNIFICANT = 0.05


def _side(count: int, games: int) -> dict[str, Any]:
    low, high = wilson(count, games)
    return {"games": games, "count": count, "rate": round(count / games, 6),
            "ci": [round(low, 6), round(high, 6)]}


def decisive_items(tally: Tally) -> list[dict[str, Any]]:
    """The (card or coda, outcome) pairs whose outcome rate differs most, and surely, between
    the games that saw the card and the games that did not. This is association, not
    proof: a long game sees more cards and also reaches the finale more often."""
    rows: list[dict[str, Any]] = []
    p_values: list[float] = []
    for item, with_games in sorted(tally.items.items()):
        without_games = tally.games - with_games
        if with_games < MIN_GAMES or without_games < MIN_GAMES:
            continue
        for outcome, total in sorted(tally.outcomes.items()):
            with_count = tally.item_outcomes.get((item, outcome), 0)
            without_count = total - with_count
            p = two_proportions(with_count, with_games, without_count, without_games)
            rows.append({"item": item, "outcome": outcome,
                         "with": _side(with_count, with_games),
                         "without": _side(without_count, without_games), "p": p})
            p_values.append(p)
    for row, adjusted in zip(rows, holm(p_values)):
        row["p_holm"] = adjusted
    kept = [r for r in rows if r["p_holm"] < SIGNIFICANT]
    # Biggest sure differences first: what an author can act on.
    kept.sort(key=lambda r: (-abs(r["with"]["rate"] - r["without"]["rate"]), r["p"],
                             r["item"], r["outcome"]))
    return kept[:SHOWN]
