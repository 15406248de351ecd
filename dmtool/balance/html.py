"""The balance report as one self-contained HTML page (inline SVG, inline CSS, nothing
fetched), and as a fragment the site can embed on a wanderer's page."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from dmtool.balance.causes_text import diverges, feature, points
from dmtool.balance.charts import (
    difference_bars,
    histogram,
    rate_bars,
    score_lines,
    sweep_curves,
)
from dmtool.balance.stats import format_p
from dmtool.balance.tally import FINALE
from dmtool.balance.text import interval, percent, replay_hint, words

STYLE = """
.dmtool-balance{font-family:sans-serif;color:#222;max-width:60rem;line-height:1.4}
.dmtool-balance table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.9rem}
.dmtool-balance th,.dmtool-balance td{border-bottom:1px solid #ddd;padding:.2rem .5rem;
text-align:left;vertical-align:top}
.dmtool-balance td.n{text-align:right;font-variant-numeric:tabular-nums}
.dmtool-balance .chart{margin:1rem 0}
.dmtool-balance .note{color:#555;font-size:.85rem}
.dmtool-balance summary{cursor:pointer}
.dmtool-balance summary h2{display:inline}
"""


def _table(head: list[str], rows: list[list[str]], numeric: set[int]) -> str:
    """A table of already-escaped cells; columns in `numeric` align right."""
    top = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(
        f'<td class="n">{c}</td>' if i in numeric else f"<td>{c}</td>"
        for i, c in enumerate(row)) + "</tr>" for row in rows)
    return f"<table><thead><tr>{top}</tr></thead><tbody>{body}</tbody></table>"


def _outcomes(section: dict[str, Any]) -> str:
    rows = [[escape(words(o["outcome"])), escape(o["title"]), percent(o["rate"]),
             interval(o["ci"]), f"{o['games']:,}",
             "never reached" if o["example_seed"] is None else str(o["example_seed"])]
            for o in section["outcomes"]]
    chart = rate_bars([(words(o["outcome"]), o["rate"], o["ci"][0], o["ci"][1], o["games"])
                       for o in section["outcomes"] if o["level"] < 2],
                      "Outcomes (bar: share of games; whisker: 95% Wilson interval)")
    return (f'<div class="chart">{chart}</div>' + _table(
        ["outcome", "title", "games %", "95% interval", "games", "example seed"], rows,
        {2, 3, 4, 5}))


def _length(section: dict[str, Any]) -> str:
    parts = [histogram(section["rounds"]["histogram"], "Wanderer-stage rounds a game lasted",
                       "rounds")]
    if section["finale_rounds"]["histogram"]:
        parts.append(histogram(section["finale_rounds"]["histogram"],
                               "Finale rounds (games that reached it)", "finale rounds"))
    if section["withered_is_deaths"]:  # one measure, one figure
        parts.append(histogram(section["deaths"]["histogram"],
                               "Deaths a game (each gave a Withered card; no game had another)",
                               "deaths = Withered cards"))
    else:
        parts.append(histogram(section["deaths"]["histogram"], "Deaths a game", "deaths"))
        parts.append(histogram(section["withered"]["histogram"], "Withered cards a game",
                               "Withered cards"))
    text = (f"<p>{section['rounds']['mean']:.1f} wanderer-stage rounds, "
            f"{section['deaths']['mean']:.2f} deaths and {section['withered']['mean']:.2f} "
            "Withered cards a game on average.</p>")
    return text + "".join(f'<div class="chart">{p}</div>' for p in parts)


def _scores(section: dict[str, Any]) -> str:
    scores = section["scores"]
    if not scores["rounds"]:
        return ""
    chart = score_lines(scores["rounds"], scores["mean"],
                        "Mean ending scores at the end of each round (games still playing)")
    return f'<div class="chart">{chart}</div>'


def _entries(section: dict[str, Any]) -> str:
    entries = section["entries"]
    never = ", ".join(f"{e['entry']} {escape(e['title'])}" for e in entries["never"]) or "none"
    rows = [[str(e["entry"]), escape(e["title"]), percent(e["rate"]), f"{e['games']:,}"]
            for e in entries["least"]]
    return (f"<p>{entries['reached']} of {entries['count']} entries read in at least one "
            f"game. Never read: {never}.</p><p>Read least:</p>"
            + _table(["entry", "title", "games %", "games"], rows, {2, 3}))


def _tests(section: dict[str, Any]) -> str:
    rows = [[escape(f"{t['where']} {t['title']}".strip()), escape(t["need"]),
             f"{t['tries']:,}", f"{t['failed']:,}",
             f"{percent(t['observed']['rate'])} {interval(t['observed']['ci'])}",
             percent(t["exact_rolled"]), percent(t["exact_at_start"])]
            for t in section["tests"]]
    return ('<p class="note">passed: with help, stored domains and cards; dice: exact '
            "chance of the dice rolled alone; start: exact chance at the starting sentience "
            "(as <code>dmtool odds</code> gives it).</p>" + _table(
                ["test", "needs", "tries", "failed", "passed", "dice", "start"], rows,
                {2, 3, 4, 5, 6}))


def _decisive(section: dict[str, Any]) -> str:
    rows = [[escape(d["item"]), escape(words(d["outcome"])), escape(d["among"]),
             f"{percent(d['with']['rate'])} of {d['with']['games']:,}",
             f"{percent(d['without']['rate'])} of {d['without']['games']:,}",
             format_p(d["p"])] for d in section["decisive"]]
    return ('<p class="note">Association, not proof; Holm-corrected; largest differences '
            "first; a malformation a death spawned is left out in that game (it stands for "
            "the death).</p>" + _table(["card or coda", "outcome", "among", "with it", "without", "p"],
                                  rows, {3, 4}))


def _causes(section: dict[str, Any]) -> str:
    parts = ['<p class="note">What the games met before each outcome, against the games still '
             "playing then without it; * sure after Holm's correction. Association, not "
             "proof.</p>"]
    for outcome in section["causes"]["outcomes"]:
        head = f"{words(outcome['outcome'])} ({outcome['games']:,} games)"
        if outcome["level"] < 2:
            head += f"; {diverges(outcome)}"
        rows = [[("* " if r["sure"] else "") + escape(feature(r)), escape(r["among"]),
                 f"{percent(r['with']['rate'])} of {r['with']['games']:,}",
                 f"{percent(r['without']['rate'])} of {r['without']['games']:,}",
                 f"{points(r['difference'])} [{points(r['difference_ci'][0])}, "
                 f"{points(r['difference_ci'][1])}]"] for r in outcome["causes"]]
        parts.append(f"<h4>{escape(head)}</h4>" + (_table(
            ["met before it", "among", "with it", "without", "change (points)"], rows,
            {2, 3, 4}) if rows else "<p>Nothing met before it went surely with it.</p>"))
    for rule in section["causes"]["rules"]:
        parts.append(f'<p class="note">Left out by rule: {escape(", ".join(rule["features"]))}: '
                     f"{escape(rule['rule'])}.</p>")
    return "".join(parts)


def _skill(report: dict[str, Any]) -> str:
    """Each policy placed between random play and the run's best, as bars."""
    parts = []
    for group in report.get("skill", []):
        chart = rate_bars([(p["policy"], p["place"] or 0.0, p["place"] or 0.0,
                            p["place"] or 0.0, round(100 * p["finale"]))
                           for p in group["policies"]],
                          f"Skill range ({group['variant']}, {group['players']} player(s)): "
                          f"0% = {group['floor']}, 100% = {group['best']} (in brackets: "
                          "finale %)", "place between the floor and the best")
        parts.append(f'<div class="chart">{chart}</div>')
    return "".join(parts)


def _test_effects(section: dict[str, Any]) -> str:
    rows = []
    for test in section["test_effects"]:
        finale = test["outcomes"].get(FINALE)
        if finale is None:
            continue
        low, high = finale["difference_ci"]
        rows.append([escape(f"{test['where']} {test['title']}"), escape(test["need"]),
                     f"{test['passed_games']:,}", f"{test['failed_games']:,}",
                     percent(finale["with"]["rate"]), percent(finale["without"]["rate"]),
                     f"{points(finale['difference'])} [{points(low)}, {points(high)}]"])
    return ('<p class="note">The games split by the first try; the finale share in each '
            "(every outcome is in the JSON report's test_effects).</p>" + _table(
                ["test", "needs", "passed first", "failed first", "finale if passed",
                 "finale if failed", "change (points)"], rows, {2, 3, 4, 5, 6}))


def _side_by_side(sections: list[dict[str, Any]]) -> str:
    """Every configuration's finale and ending rates in one table, each row a link to its
    section (a report of many configurations is long)."""
    names = [FINALE] + sorted({o["outcome"] for s in sections for o in s["outcomes"]
                               if o["level"] == 1})
    rows = []
    for number, section in enumerate(sections):
        by = {o["outcome"]: o for o in section["outcomes"]}
        cells = [f"{percent(by[n]['rate'])} {interval(by[n]['ci'])}" if n in by else "" for n in names]
        rows.append([f'<a href="#configuration-{number}">{escape(section["label"])}</a>',
                     f"{section['games']:,}", *cells])
    return ('<h2 id="configurations">Configurations side by side</h2>'
            + _table(["configuration", "games", *map(escape, names)], rows,
                     set(range(1, len(names) + 2))))


def _sweep(sweep: dict[str, Any]) -> str:
    """Each configuration's outcomes over the swept values, drawn as curves with bands."""
    parts = [f"<h2>Sweep: {escape(sweep['parameter'])}</h2>"
             f'<p class="note">{escape(sweep["paired"])}.</p>']
    for config in sweep["configurations"]:
        series = [(words(o["outcome"]), o["rate"], o["ci"]) for o in config["outcomes"]]
        if config.get("test"):
            series.insert(0, ("passed the swept test", config["test"]["rate"],
                              config["test"]["ci"]))
        chart = sweep_curves(sweep["values"], series,
                             f"{config['label']}: each outcome by {sweep['parameter']}",
                             sweep["parameter"])
        rows = [[escape(f"{step['from']} -> {step['to']}"), escape(words(c["outcome"])),
                 f"{percent(c['before']['rate'])} -> {percent(c['after']['rate'])}",
                 f"{points(c['difference'])} [{points(c['difference_ci'][0])}, "
                 f"{points(c['difference_ci'][1])}]", format_p(c["p"])]
                for step in config["steps"] for c in step["changes"] if c["significant"]]
        parts.append(f'<h3>{escape(config["label"])}</h3><div class="chart">{chart}</div>'
                     + (_table(["step", "outcome", "share", "change (points)", "p"], rows,
                               {2, 3, 4}) if rows else
                        "<p>No step changed an outcome surely (Holm-corrected).</p>"))
    return "".join(parts)


def _changes(against: dict[str, Any]) -> str:
    parts = [f"<h2>Changes against {escape(against['path'])}</h2>"
             f'<p class="note">{escape(against["test"])}.</p>']
    for section in against["configurations"]:
        moved = [c for c in section["changes"] if c["only_before"] or c["only_after"]]
        rows = [[escape(words(c["outcome"])), percent(c["before"]["rate"]),
                 percent(c["after"]["rate"]), f"{100 * c['difference']:+.1f}",
                 f"[{100 * c['difference_ci'][0]:+.1f}, {100 * c['difference_ci'][1]:+.1f}]",
                 format_p(c["p"]), "yes" if c["significant"] else "no"] for c in moved]
        chart = difference_bars(
            [(words(c["outcome"]), c["difference"], *c["difference_ci"]) for c in moved],
            "Change in each outcome's share (bar; whisker: 95% interval on the paired games)")
        parts.append(f"<h3>{escape(section['label'])}: {section['games']:,} paired games</h3>"
                     + (f'<div class="chart">{chart}</div>' if moved else "")
                     + _table(["outcome", "before", "after", "change (points)", "95% interval",
                               "p", "significant"], rows, {1, 2, 3, 4}))
    return "".join(parts)


def render_fragment(report: dict[str, Any]) -> str:
    """The report as one <section> (its own scoped style included) for embedding."""
    parts = [f"<style>{STYLE}</style>",
             f"<h1>Balance: {escape(report['wanderer'])} "
             f"({escape(report['storybook'])})</h1>",
             f"<p>{report['games']:,} seeded games per configuration from seed "
             f"{report['seed']}.</p>"]
    if report.get("dmtool_version"):  # what made it: a report is evidence only with this
        parts.append(f"<p>dmtool {escape(report['dmtool_version'])}, content "
                     f"{escape(report['content'])} (digest {escape(report['content_digest'])})"
                     "</p>")
    if report["interrupted"]:
        parts.append(f"<p><strong>Interrupted:</strong> the figures cover the "
                     f"{report['finished']:,} games that finished.</p>")
    sections = report["configurations"]
    if len(sections) > 1:
        parts.append(_side_by_side(sections) + _skill(report))
    for number, section in enumerate(sections):
        # Each configuration folds (the first open): a page of many stays short, and the
        # side-by-side table's links lead to each.
        parts.append(f'<details id="configuration-{number}"{" open" if number == 0 else ""}>'
                     f'<summary><h2>{escape(section["label"])}: '
                     f"{section['games']:,} games</h2></summary>"
                     f'<p class="note">Replay any game: <code>'
                     f"{escape(replay_hint(report, section))} --seed N</code></p>")
        for head, part in (("Outcomes", _outcomes), ("Length", _length),
                           ("Scores over time", _scores), ("Entries", _entries),
                           ("Tests failed most often", _tests),
                           ("Cards and codas that went with an outcome", _decisive),
                           ("Causes of each outcome", _causes),
                           ("Storybook tests: outcomes when passed and when failed",
                            _test_effects)):
            parts.append(f"<h3>{head}</h3>{part(section)}")
        if len(sections) > 1:
            parts.append('<p class="note"><a href="#configurations">back to the '
                         "configurations</a></p>")
        parts.append("</details>")
    if "against" in report:
        parts.append(_changes(report["against"]))
    if "sweep" in report:
        parts.insert(3, _sweep(report["sweep"]))
    return '<section class="dmtool-balance">' + "".join(parts) + "</section>"


def render_html(report: dict[str, Any]) -> str:
    """A whole page; the report's data rides along as JSON for tools."""
    # No '<' at all inside the script element: authored titles cannot close it.
    data = json.dumps(report, separators=(",", ":")).replace("<", "\\u003c")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>dmtool balance: {escape(report['wanderer'])}</title></head><body>"
            + render_fragment(report)
            + f'<script type="application/json" id="dmtool-balance-data">{data}</script>'
            "</body></html>\n")
