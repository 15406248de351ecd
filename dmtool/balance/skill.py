"""Where each policy stands between random play and the best play of the run: its finale
rate placed on the range from the random player's (0) to the best configuration's (1),
among the configurations of one variant, player count and devour rule."""

from __future__ import annotations

from typing import Any

from dmtool.balance.stats import mcnemar
from dmtool.balance.tally import FINALE, Tally, seed_pairs

RANDOM = "random"


def _finale(section: dict[str, Any]) -> dict[str, Any]:
    return next(o for o in section["outcomes"] if o["outcome"] == FINALE)


def finale_pairs(first: Tally, second: Tally) -> tuple[int, int]:
    """The seeds only the first, and only the second, brought to the finale (both played
    the same seeds: McNemar's test weighs these)."""
    pairs = seed_pairs(first, second)
    return (sum(n for (a, b), n in pairs.items() if FINALE in a and FINALE not in b),
            sum(n for (a, b), n in pairs.items() if FINALE in b and FINALE not in a))


def skill_range(sections: list[dict[str, Any]], tallies: list[Tally]) -> list[dict[str, Any]]:
    """Per group of configurations that differ only in policy (two or more): the floor
    (the random player, or the weakest policy when random was not played), the best, and
    each policy's place between them, with McNemar's paired test against the best."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    tally_of = {id(s): t for s, t in zip(sections, tallies)}
    for section in sections:
        config = section["config"]
        groups.setdefault((config["variant"], config["players"], config["devour"]),
                          []).append(section)
    out = []
    for (variant, players, devour), members in groups.items():
        if len(members) < 2:
            continue
        rates = {s["config"]["policy"]: _finale(s) for s in members}
        played = {s["config"]["policy"]: tally_of[id(s)] for s in members}
        floor = RANDOM if RANDOM in rates else min(rates, key=lambda p: rates[p]["rate"])
        best = max(rates, key=lambda p: rates[p]["rate"])
        low, high = rates[floor]["rate"], rates[best]["rate"]
        out.append({"variant": variant, "players": players, "devour": devour,
                    "floor": floor, "best": best,
                    "policies": [{"policy": p, "finale": r["rate"], "ci": r["ci"],
                                  "place": round((r["rate"] - low) / (high - low), 6)
                                  if high > low else None,
                                  "against_best": _against(played[p], played[best])}
                                 for p, r in sorted(rates.items(),
                                                    key=lambda item: item[1]["rate"])]})
    return out


def _against(policy: Tally, best: Tally) -> dict[str, Any]:
    only_policy, only_best = finale_pairs(policy, best)
    return {"only_this": only_policy, "only_best": only_best,
            "p": mcnemar(only_policy, only_best)}
