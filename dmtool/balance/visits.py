"""Per-entry and per-option visit counts as CSV, for a spreadsheet: how many games read each
entry or chose each option, in every configuration (ChoiceScript's randomtest counts lines;
this counts what a storybook author can act on)."""

from __future__ import annotations

import csv
import io
from typing import Any

HEADER = ("configuration", "kind", "entry", "title or option", "games", "share of games",
          "times")


def visits_csv(report: dict[str, Any]) -> str:
    """One row per entry (read or not) and per option chosen, configuration by
    configuration; 'times' counts every read or choice, 'games' the games with at least one."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(HEADER)
    for section in report["configurations"]:
        games = max(section["games"], 1)
        visits = section["visits"]
        for entry in visits["entries"]:
            writer.writerow((section["label"], "entry", entry["entry"], entry["title"],
                             entry["games"], round(entry["games"] / games, 6), entry["reads"]))
        for option in visits["options"]:
            writer.writerow((section["label"], "option", option["entry"], option["option"],
                             option["games"], round(option["games"] / games, 6),
                             option["times"]))
    return out.getvalue()
