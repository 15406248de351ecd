"""`--against`: the same seeds played on another content tree, and what changed.

Both runs play game i of a configuration with the same seed, so the games come in pairs.
Each outcome is tested with McNemar's exact test on those pairs: only the seeds whose games
changed between the trees count, which is both exact and far more sensitive than comparing
two independent samples. Holm's correction over a configuration's outcomes says which
changes an author can trust.
"""

from __future__ import annotations

from typing import Any

from dmtool.balance.pool import RunResult
from dmtool.balance.report import rate
from dmtool.balance.stats import holm, mcnemar, paired_difference
from dmtool.balance.tally import Tally, seed_pairs

SIGNIFICANT = 0.05


def paired_changes(before: Tally, after: Tally) -> list[dict[str, Any]]:
    """Every outcome's rate in two runs of the same seeds, its paired change with an
    interval, and McNemar's test, Holm-corrected over the outcomes."""
    pairs = seed_pairs(before, after)  # (outcomes before, outcomes after) -> seeds
    seeds = sum(pairs.values())
    names = sorted(set(before.outcomes) | set(after.outcomes))
    rows = []
    for name in names:
        only_before = sum(n for (old, new), n in pairs.items() if name in old and name not in new)
        only_after = sum(n for (old, new), n in pairs.items() if name in new and name not in old)
        was = sum(n for (old, _), n in pairs.items() if name in old)
        now = sum(n for (_, new), n in pairs.items() if name in new)
        low, high = paired_difference(only_after, only_before, seeds)
        rows.append({"outcome": name, "before": rate(was, seeds),
                     "after": rate(now, seeds), "only_before": only_before,
                     "only_after": only_after, "p": mcnemar(only_before, only_after),
                     "difference": round((now - was) / seeds, 6) if seeds else 0.0,
                     "difference_ci": [round(low, 6), round(high, 6)]})
    for row, adjusted in zip(rows, holm([r["p"] for r in rows])):
        row["p_holm"] = adjusted
        row["significant"] = adjusted < SIGNIFICANT
    rows.sort(key=lambda r: (r["p"], r["outcome"]))
    return rows


def compare(before: RunResult, after: RunResult, *, path: str) -> dict[str, Any]:
    """Per configuration, every outcome's rate on both trees and its paired test."""
    return {"path": path, "test": "McNemar's exact test on games paired by seed, "
                                  "Holm-corrected per configuration",
            "configurations": [
                {"label": config.label, "games": sum(seed_pairs(old, new).values()),
                 "changes": paired_changes(old, new)}
                for config, old, new in zip(after.configs, before.tallies, after.tallies)]}

