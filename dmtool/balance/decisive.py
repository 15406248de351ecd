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


def _row(item: str, outcome: str, among: str, with_count: int, with_games: int,
         without_count: int, without_games: int) -> dict[str, Any]:
    p = two_proportions(with_count, with_games, without_count, without_games)
    return {"item": item, "outcome": outcome, "among": among,
            "with": _side(with_count, with_games),
            "without": _side(without_count, without_games), "p": p}


def _stage_rows(tally: Tally) -> list[dict[str, Any]]:
    """Cards of the wanderer stage against every outcome, over all games."""
    rows = []
    for item, with_games in sorted(tally.items.items()):
        without_games = tally.games - with_games
        if with_games < MIN_GAMES or without_games < MIN_GAMES:
            continue
        for outcome, total in sorted(tally.outcomes.items()):
            with_count = tally.item_outcomes.get((item, outcome), 0)
            rows.append(_row(item, outcome, "all games", with_count, with_games,
                             total - with_count, without_games))
    return rows


def _finale_rows(tally: Tally) -> list[dict[str, Any]]:
    """Cards first seen in a finale against that ending's conclusions, among the games that
    reached the ending (only they could see the card)."""
    rows = []
    for (ending, item), with_games in sorted(tally.finale_items.items()):
        without_games = tally.outcomes.get(ending, 0) - with_games
        if with_games < MIN_GAMES or without_games < MIN_GAMES:
            continue
        for outcome, total in sorted(tally.outcomes.items()):
            if not outcome.startswith(f"{ending}, "):
                continue
            with_count = tally.finale_item_outcomes.get((ending, item, outcome), 0)
            rows.append(_row(item, outcome, f"games that reached {ending}", with_count,
                             with_games, total - with_count, without_games))
    return rows


def decisive_items(tally: Tally) -> list[dict[str, Any]]:
    """The (card or coda, outcome) pairs whose outcome rate differs most, and surely, between
    the games that saw the card and the games that did not. This is association, not
    proof: a long game sees more cards and also reaches the finale more often."""
    rows = _stage_rows(tally) + _finale_rows(tally)
    for row, adjusted in zip(rows, holm([r["p"] for r in rows])):
        row["p_holm"] = adjusted
    kept = [r for r in rows if r["p_holm"] < SIGNIFICANT]
    # Biggest sure differences first: what an author can act on.
    kept.sort(key=lambda r: (-abs(r["with"]["rate"] - r["without"]["rate"]), r["p"],
                             r["item"], r["outcome"]))
    return kept[:SHOWN]
