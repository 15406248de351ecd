"""The causes and the tests' weight, as words: shared by the text and the HTML report."""

from __future__ import annotations

from typing import Any

from dmtool.reporters.rates import percent, words


def points(value: float) -> str:
    """A difference of two rates in percentage points: '+12.3'."""
    return f"{100 * value:+.1f}"


def change(row: dict[str, Any]) -> str:
    """'62.0% of 50 games with it, 11.0% of 200 without: +51.0 points [+38.0, +62.0]'."""
    low, high = row["difference_ci"]
    return (f"{percent(row['with']['rate'])} of {row['with']['games']:,} games with it, "
            f"{percent(row['without']['rate'])} of {row['without']['games']:,} without: "
            f"{points(row['difference'])} points [{points(low)}, {points(high)}]")


def feature(row: dict[str, Any]) -> str:
    """The feature, its entry's title, and the features met in exactly the same games."""
    text = row["feature"] + (f" ({row['title']})" if row.get("title") else "")
    if row.get("same"):
        text += "; the same games as " + ", ".join(row["same"])
    return text


def games(count: int) -> str:
    return f"{count:,} game{'' if count == 1 else 's'}"


def diverges(outcome: dict[str, Any]) -> str:
    where = outcome.get("diverges")
    if not where:
        return "no round where its games surely part from the others"
    return (f"its games part from the others by round {where['round']}: "
            f"{where['feature']}, {change(where)}")


def cause_lines(section: dict[str, Any]) -> list[str]:
    report = section["causes"]
    lines = ["  Causes: what the games met before each outcome, against the games still playing "
             "then without it (* sure after Holm's correction; association, not proof):"]
    for outcome in report["outcomes"]:
        head = f"    {words(outcome['outcome'])} ({games(outcome['games'])})"
        if outcome["level"] < 2:
            head += f"; {diverges(outcome)}"
        lines.append(head)
        for row in outcome["causes"]:
            mark = "*" if row["sure"] else " "
            among = "" if row["among"] == "all games" else f" (among {row['among']})"
            lines.append(f"      {mark} {feature(row)}: {change(row)}{among}")
        if not outcome["causes"]:
            lines.append("        nothing met before it went surely with it")
        for left in outcome["left_out"]:
            lines.append(f"        left out: {left['feature']}, as {left['rule']}")
    for rule in report["rules"]:
        lines.append(f"    Left out by rule: {', '.join(rule['features'])}: {rule['rule']}.")
    return lines


def test_effect_lines(section: dict[str, Any]) -> list[str]:
    if not section["test_effects"]:
        return []
    lines = ["  Storybook tests: each outcome when the first try passed against when it failed:"]
    for test in section["test_effects"]:
        lines.append(f"    {test['where']} {test['title']} ({test['need']}): passed first in "
                     f"{test['passed_games']:,} games, failed in {test['failed_games']:,}")
        for name, row in test["outcomes"].items():
            low, high = row["difference_ci"]
            lines.append(f"      {words(name):<34} {percent(row['with']['rate']):>6} passed, "
                         f"{percent(row['without']['rate']):>6} failed: "
                         f"{points(row['difference'])} [{points(low)}, {points(high)}]")
    return lines
