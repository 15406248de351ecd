"""Where each policy stands between random play and the best play of the run: its finale
rate placed on the range from the random player's (0) to the best configuration's (1),
among the configurations of one variant, player count and devour rule."""

from __future__ import annotations

from typing import Any

from dmtool.balance.tally import FINALE

RANDOM = "random"


def _finale(section: dict[str, Any]) -> dict[str, Any]:
    return next(o for o in section["outcomes"] if o["outcome"] == FINALE)


def skill_range(sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per group of configurations that differ only in policy (two or more): the floor
    (the random player, or the weakest policy when random was not played), the best, and
    each policy's place between them."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for section in sections:
        config = section["config"]
        groups.setdefault((config["variant"], config["players"], config["devour"]),
                          []).append(section)
    out = []
    for (variant, players, devour), members in groups.items():
        if len(members) < 2:
            continue
        rates = {s["config"]["policy"]: _finale(s) for s in members}
        floor = RANDOM if RANDOM in rates else min(rates, key=lambda p: rates[p]["rate"])
        best = max(rates, key=lambda p: rates[p]["rate"])
        low, high = rates[floor]["rate"], rates[best]["rate"]
        out.append({"variant": variant, "players": players, "devour": devour,
                    "floor": floor, "best": best,
                    "policies": [{"policy": p, "finale": r["rate"], "ci": r["ci"],
                                  "place": round((r["rate"] - low) / (high - low), 6)
                                  if high > low else None}
                                 for p, r in sorted(rates.items(),
                                                    key=lambda item: item[1]["rate"])]})
    return out
