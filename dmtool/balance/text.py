"""The balance report as plain text for a terminal (and the words the HTML shares)."""

from __future__ import annotations

import shlex
from typing import Any

from dmtool.balance.causes_text import cause_lines, points, test_effect_lines
from dmtool.balance.stats import format_p
from dmtool.reporters.rates import interval, percent, words

__all__ = ["interval", "percent", "render_text", "replay_hint", "words"]


def replay_hint(report: dict[str, Any], section: dict[str, Any]) -> str:
    """The `dmtool play` options that replay one of this configuration's games."""
    config = section["config"]
    extra = f" --players {config['players']}" if config["players"] != 1 else ""
    extra += f" --variant {config['variant']}" if config["variant"] != "standard" else ""
    extra += " --devour" if config["devour"] else ""
    extra += f" --content {shlex.quote(report['content'])}" if report.get("content") else ""
    return f"dmtool play --wanderer {report['wanderer']} --policy {config['policy']}{extra}"


def _outcomes(section: dict[str, Any]) -> list[str]:
    heads = {0: "Outcomes", 1: "Endings", 2: "Conclusions"}
    lines: list[str] = []
    width = max((len(words(o["outcome"])) for o in section["outcomes"]), default=10)
    for level, head in heads.items():
        rows = [o for o in section["outcomes"] if o["level"] == level]
        if not rows:
            continue
        lines.append(f"  {head}:")
        for o in rows:
            title = f"  {o['title']}" if o["title"] else ""
            lines.append(f"    {words(o['outcome']):<{width}}  {percent(o['rate']):>6} "
                         f"{interval(o['ci']):<17} {_games(o['games'])}  "
                         f"{_seed(o['example_seed'])}{title}")
    return lines


def _seed(seed: int | None) -> str:
    return "never reached" if seed is None else f"seed {seed}"


def _games(count: int) -> str:
    return f"{count:>7,} game{'' if count == 1 else 's'}"


def _length(section: dict[str, Any]) -> list[str]:
    rounds, finale = section["rounds"], section["finale_rounds"]
    text = (f"  Length: {rounds['mean']:.1f} wanderer-stage rounds a game on average"
            f" (by round: {_hist(rounds['histogram'])})")
    lines = [text]
    if finale["histogram"]:
        lines.append(f"  Finale: {finale['mean']:.1f} rounds on average "
                     f"(by round: {_hist(finale['histogram'])})")
    same = (" (each death gives one, and no game had another)"
            if section["withered_is_deaths"] else
            f" ({_hist(section['withered']['histogram'])})")
    lines.append(f"  Deaths: {section['deaths']['mean']:.2f} a game "
                 f"({_hist(section['deaths']['histogram'])}); Withered cards: "
                 f"{section['withered']['mean']:.2f} a game{same}")
    return lines


def _hist(histogram: dict[str, int]) -> str:
    return " ".join(f"{k}:{v:,}" for k, v in histogram.items())


def _scores(section: dict[str, Any]) -> list[str]:
    scores = section["scores"]
    if not scores["rounds"]:
        return []
    lines = ["  Ending scores at the end of each round (mean over the games still in the "
             "wanderer stage):",
             "    round " + "".join(f"{r:>7}" for r in scores["rounds"])]
    for ending, values in scores["mean"].items():
        lines.append(f"    {ending:<6}" + "".join(f"{v:>7.1f}" for v in values))
    lines.append("    games " + "".join(f"{g:>7,}" for g in scores["games"]))
    return lines


def _entries(section: dict[str, Any]) -> list[str]:
    entries = section["entries"]
    lines = [f"  Entries: {entries['reached']} of {entries['count']} read in at least one game"]
    if entries["never"]:
        lines.append("    never read: " + "; ".join(
            f"{e['entry']} {e['title']}" for e in entries["never"]))
    if entries["least"]:
        lines.append("    read least: " + "; ".join(
            f"{e['entry']} {e['title']} ({percent(e['rate'])})" for e in entries["least"]))
    return lines


def _tests(section: dict[str, Any]) -> list[str]:
    if not section["tests"]:
        return []
    lines = ["  Tests failed most often (passed: with help, stored domains and cards, its "
             "95% interval counting games, not tries, as independent; "
             "dice: exact chance of the dice rolled alone; start: exact chance at the "
             "starting sentience, as dmtool odds gives it):"]
    for t in section["tests"]:
        where = f"{t['where']} {t['title']}".strip()
        lines.append(f"    {where[:40]:<40} {t['need'][:34]:<34} {t['tries']:>7,} tries "
                     f"{t['failed']:>7,} failed  passed {percent(t['observed']['rate']):>6} "
                     f"{interval(t['observed']['ci']):<17}"
                     f"dice {percent(t['exact_rolled']):>6}  start "
                     f"{percent(t['exact_at_start']):>6}")
    return lines


def _decisive(section: dict[str, Any]) -> list[str]:
    if not section["decisive"]:
        return ["  Cards and codas: none went with an outcome surely enough to show."]
    lines = ["  Cards and codas that went with an outcome (association, not proof; "
             "Holm-corrected, largest differences first; a malformation a death spawned is "
             "left out there):"]
    for d in section["decisive"]:
        w, wo = d["with"], d["without"]
        among = "" if d["among"] == "all games" else f" (among the {d['among']})"
        lines.append(f"    {d['item']}: {words(d['outcome'])} in {percent(w['rate'])} of "
                     f"{w['games']:,} games with it, {percent(wo['rate'])} of "
                     f"{wo['games']:,} without ({format_p(d['p'])}){among}")
    return lines


def _comparison(report: dict[str, Any]) -> list[str]:
    """One line per configuration: the finale rate and each ending's, side by side."""
    endings = sorted({o["outcome"] for s in report["configurations"] for o in s["outcomes"]
                      if o["level"] == 1})
    lines = ["Policies and configurations side by side (share of games):",
             "  " + f"{'configuration':<36}{'finale':>22}" + "".join(f"{e:>10}" for e in endings)]
    for s in report["configurations"]:
        by = {o["outcome"]: o for o in s["outcomes"]}
        finale = by.get("reached the finale")
        cells = f"{percent(finale['rate']):>7} {interval(finale['ci'])}" if finale else \
            f"{'0.0%':>7}"
        lines.append(f"  {s['label']:<36}{cells:>22}" + "".join(
            f"{percent(by[e]['rate']) if e in by else '0.0%':>10}" for e in endings))
    return lines + [""]


def _skill(report: dict[str, Any]) -> list[str]:
    """Each policy's place between random play (0) and the run's best (1)."""
    lines = []
    for group in report.get("skill", []):
        lines.append(f"Skill range ({group['variant']}, {group['players']} player(s)): the "
                     f"finale share placed from {group['floor']} (0) to {group['best']} (1):")
        for p in group["policies"]:
            place = "-" if p["place"] is None else f"{p['place']:.2f}"
            against = p["against_best"]
            versus = "" if p["policy"] == group["best"] else (
                f"; against {group['best']} on the same seeds: {against['only_this']:,} "
                f"finales only here, {against['only_best']:,} only there "
                f"({format_p(against['p'])})")
            lines.append(f"  {p['policy']:<20} {place:>5}  finale {percent(p['finale'])} "
                         f"{interval(p['ci'])}{versus}")
    return lines + ([""] if lines else [])


def _changes(against: dict[str, Any]) -> list[str]:
    """'ending D: 4.5% -> 11.2% (p < 0.001)' lines, the surest changes first."""
    lines = [f"Changes against {against['path']} (the same seeds on both; {against['test']}):"]
    for section in against["configurations"]:
        lines.append(f"== {section['label']}: {section['games']:,} paired games ==")
        moved = [c for c in section["changes"] if c["only_before"] or c["only_after"]]
        for change in moved:
            mark = "  (significant)" if change["significant"] else ""
            low, high = change["difference_ci"]
            lines.append(f"  {words(change['outcome'])}: {percent(change['before']['rate'])} -> "
                         f"{percent(change['after']['rate'])}, {points(change['difference'])} "
                         f"points [{points(low)}, {points(high)}] ({format_p(change['p'])}){mark}")
        if not moved:
            lines.append("  no outcome changed in any game")
    return lines


def _sweep(sweep: dict[str, Any]) -> list[str]:
    """Each outcome's share at every value of the sweep, one row an outcome."""
    lines = [f"Sweep over {sweep['parameter']} ({sweep['paired']}):"]
    for config in sweep["configurations"]:
        lines.append(f"== {config['label']} ==")
        lines.append(f"  {'value':<34}" + "".join(f"{v:>9}" for v in sweep["values"]))
        series = [(words(o["outcome"]), o["rate"]) for o in config["outcomes"]]
        if config.get("test"):
            series.insert(0, ("passed the swept test", config["test"]["rate"]))
        for name, rates in series:
            lines.append(f"  {name[:34]:<34}" + "".join(f"{percent(r):>9}" for r in rates))
        for step in config["steps"]:
            for c in step["changes"]:
                if c["significant"]:
                    low, high = c["difference_ci"]
                    lines.append(f"  {step['from']} -> {step['to']}: {words(c['outcome'])} "
                                 f"{points(c['difference'])} points [{points(low)}, "
                                 f"{points(high)}] ({format_p(c['p'])})")
    return lines


def render_text(report: dict[str, Any]) -> str:
    lines = [f"dmtool balance: {report['wanderer']} (storybook {report['storybook']}), "
             f"{report['games']:,} games per configuration from seed {report['seed']}"]
    if report["interrupted"]:
        lines.append(f"INTERRUPTED: the figures cover the {report['finished']:,} games that "
                     "finished.")
    lines.append("")
    if len(report["configurations"]) > 1:
        lines += _comparison(report) + _skill(report)
    for section in report["configurations"]:
        lines.append(f"== {section['label']}: {section['games']:,} games, "
                     f"{section['steps_per_game']:.0f} engine steps a game ==")
        lines.append(f"  (replay any game: {replay_hint(report, section)} --seed N)")
        for part in (_outcomes, _length, _scores, _entries, _tests, _decisive, cause_lines,
                     test_effect_lines):
            lines += part(section)
        lines.append("")
    if "against" in report:
        lines += _changes(report["against"]) + [""]
    if "sweep" in report:
        lines += _sweep(report["sweep"]) + [""]
    return "\n".join(lines)
