"""The balance report as one self-contained HTML page (inline SVG, inline CSS, nothing
fetched), and as a fragment the site can embed on a wanderer's page."""

from __future__ import annotations

import json
from html import escape
from typing import Any

from dmtool.balance.charts import histogram, rate_bars, score_lines
from dmtool.balance.stats import format_p
from dmtool.balance.text import interval, percent, replay_hint, words

STYLE = """
.dmtool-balance{font-family:sans-serif;color:#222;max-width:60rem;line-height:1.4}
.dmtool-balance table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.9rem}
.dmtool-balance th,.dmtool-balance td{border-bottom:1px solid #ddd;padding:.2rem .5rem;
text-align:left;vertical-align:top}
.dmtool-balance td.n{text-align:right;font-variant-numeric:tabular-nums}
.dmtool-balance .chart{margin:1rem 0}
.dmtool-balance .note{color:#555;font-size:.85rem}
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
             interval(o["ci"]), f"{o['games']:,}", str(o["example_seed"])]
            for o in section["outcomes"]]
    chart = rate_bars([(words(o["outcome"]), o["rate"], o["ci"][0], o["ci"][1])
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
    parts.append(histogram(section["deaths"]["histogram"], "Deaths a game", "deaths"))
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
             f"{t['tries']:,}", f"{t['failed']:,}", percent(t["observed"]["rate"]),
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
            "first.</p>" + _table(["card or coda", "outcome", "among", "with it", "without", "p"],
                                  rows, {3, 4}))


def _changes(against: dict[str, Any]) -> str:
    parts = [f"<h2>Changes against {escape(against['path'])}</h2>"
             f'<p class="note">{escape(against["test"])}.</p>']
    for section in against["configurations"]:
        moved = [c for c in section["changes"] if c["only_before"] or c["only_after"]]
        rows = [[escape(words(c["outcome"])), percent(c["before"]["rate"]),
                 percent(c["after"]["rate"]), format_p(c["p"]),
                 "yes" if c["significant"] else "no"] for c in moved]
        parts.append(f"<h3>{escape(section['label'])}: {section['games']:,} paired games</h3>"
                     + _table(["outcome", "before", "after", "p", "significant"], rows,
                              {1, 2, 3}))
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
    for section in report["configurations"]:
        parts.append(f"<h2>{escape(section['label'])}: {section['games']:,} games</h2>"
                     f'<p class="note">Replay any game: <code>'
                     f"{escape(replay_hint(report, section))} --seed N</code></p>")
        for head, part in (("Outcomes", _outcomes), ("Length", _length),
                           ("Scores over time", _scores), ("Entries", _entries),
                           ("Tests failed most often", _tests),
                           ("Cards and codas that went with an outcome", _decisive)):
            parts.append(f"<h3>{head}</h3>{part(section)}")
    if "against" in report:
        parts.append(_changes(report["against"]))
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
