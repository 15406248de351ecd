"""Outcome rates in words, shared by `dmtool balance`'s reports and the site's balance
section (which may not import the balance lab: they are independent layers)."""

from __future__ import annotations

FAILURE_WORDS = {"all_wanderers_dead": "all wanderers dead",
                 "tenth_round": "the tenth round ended",
                 "fourth_withered": "a fourth Withered card"}


def words(label: str) -> str:
    """An outcome label as an author reads it ('failed: tenth_round' -> 'failed: the
    tenth round ended')."""
    if label.startswith("failed: "):
        reason = label.removeprefix("failed: ")
        return f"failed: {FAILURE_WORDS.get(reason, reason)}"
    return label


def percent(value: float) -> str:
    """'12.3%'; a rate under 1% keeps two decimals ('0.19%': a rare ending's upper bound)."""
    if 0 < value < 0.01:
        return f"{100 * value:.2f}%"
    return f"{100 * value:.1f}%"


def interval(ci: list[float]) -> str:
    return f"[{percent(ci[0])}, {percent(ci[1])}]"
