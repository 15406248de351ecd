"""The balance report (`dmtool balance --json FILE`) on its wanderer's page: what the seeded
games reached, with 95% intervals, in words. The report is read as data and every value
written as text; a file that is not such a report is a usage error naming the file."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dmtool.errors import UsageError
from dmtool.reporters.rates import interval, percent, words
from dmtool.sitegen.markdown import plain, table


def read_balance(paths: tuple[Path, ...]) -> dict[str, Mapping[str, Any]]:
    """Each report by the wanderer it is about; a second report of one wanderer is refused."""
    reports: dict[str, Mapping[str, Any]] = {}
    for path in paths:
        where = path.as_posix()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as error:
            raise UsageError(f"cannot read the balance report {where}: {error}; give the "
                             "file `dmtool balance --json FILE` wrote") from None
        if (not isinstance(data, dict) or data.get("tool") != "dmtool balance"
                or not isinstance(data.get("wanderer"), str)
                or not isinstance(data.get("configurations"), list)):
            raise UsageError(f"{where} is not a balance report: write one with "
                             "`dmtool balance --json FILE`")
        if data["wanderer"] in reports:
            raise UsageError(f"two balance reports of the wanderer {data['wanderer']!r}; "
                             "give one per wanderer")
        reports[data["wanderer"]] = data
    return reports


def balance_blocks(report: Mapping[str, Any]) -> list[str]:
    """The report as a section of the wanderer's page: one table of outcomes per
    configuration, then how long the games lasted."""
    games = report.get("games", 0)
    blocks = ["## Balance {#balance}",
              f"From `dmtool balance`: {plain(games)} seeded games per configuration, from seed "
              f"{plain(report.get('seed', 0))}. Rates are shares of games, with 95% intervals; "
              "`dmtool play --seed N` replays a game."]
    for section in report.get("configurations") or []:
        if not isinstance(section, Mapping):
            continue
        blocks.append(f"### {plain(section.get('label', ''))}")
        rows = []
        for row in section.get("outcomes") or []:
            if not isinstance(row, Mapping):
                continue
            try:
                rate, ci = percent(float(row["rate"])), interval([float(v) for v in row["ci"]])
            except (KeyError, TypeError, ValueError, IndexError):
                rate, ci = "", ""
            rows.append([plain(words(str(row.get("outcome", "")))), plain(row.get("title", "")),
                         rate, ci, plain(row.get("games", "")), plain(row.get("example_seed", ""))])
        if rows:
            blocks.append(table(["Outcome", "Title", "Rate", "95% interval", "Games",
                                 "Example seed"], rows))
        rounds = section.get("rounds")
        if isinstance(rounds, Mapping) and isinstance(rounds.get("mean"), (int, float)):
            blocks.append(f"Games lasted {rounds['mean']:.1f} wanderer-stage rounds on average.")
    return blocks
