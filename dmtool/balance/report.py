"""The balance report as plain data: what text, JSON and HTML all render."""

from __future__ import annotations

from collections import Counter
from typing import Any

from dmtool.balance.causes import causes, level
from dmtool.balance.decisive import decisive_items
from dmtool.balance.games import Bundle
from dmtool.balance.pool import RunResult
from dmtool.balance.skill import skill_range
from dmtool.balance.stats import mean, wilson
from dmtool.balance.summary import ENGINE_FAILURES, exact_chance
from dmtool.balance.tally import FINALE, Tally
from dmtool.balance.test_effects import test_effects
from dmtool.engine.dawn_of_madness.constants import ENDINGS

LEAST = 10  # entries reached least, listed
HARDEST = 15  # tests failed most often, listed
SCHEMA = 1  # the JSON report's format version


def rate(count: int, games: int) -> dict[str, Any]:
    low, high = wilson(count, games)
    return {"games": count, "rate": _r(count / games if games else 0.0),
            "ci": [_r(low), _r(high)]}


def _r(value: float) -> float:
    """Rounded for reports: equal inputs give equal texts, and the noise digits go."""
    return round(value, 6)


def _histogram(counts: Counter[int]) -> dict[str, Any]:
    values = [v for v, n in counts.items() for _ in range(n)]
    return {"mean": _r(mean(values)), "histogram": {str(k): counts[k] for k in sorted(counts)}}


def _outcomes(tally: Tally, bundle: Bundle) -> list[dict[str, Any]]:
    """Every outcome label with its rate: the finale or each failure, each ending, each
    conclusion (with its title), broadest first, commonest first within a level."""
    titles = {f"ending {e}": str(d.get("title", "")) for e, d in bundle.catalog.endings.items()}
    for ending, data in bundle.catalog.endings.items():
        for c in data.get("conclusions", []):
            titles[f"ending {ending}, conclusion {c['entry']}"] = str(c.get("title", ""))

    # An outcome no game reached is listed too, with its upper bound: 0 of 2,000 games
    # says "under 0.19%", which an author needs to know of an ending meant to be rare.
    possible = [FINALE, *(f"failed: {reason}" for reason in ENGINE_FAILURES), *titles]
    names = sorted(set(tally.outcomes) | set(possible),
                   key=lambda n: (level(n), -tally.outcomes.get(n, 0), n))
    out = []
    for name in names:
        base = name.split(" (central")[0]
        out.append({"outcome": name, "level": level(name), "title": titles.get(base, ""),
                    **rate(tally.outcomes.get(name, 0), tally.games),
                    "example_seed": tally.examples.get(name)})
    return out


def _scores(tally: Tally) -> dict[str, Any]:
    rounds = sorted(tally.score_sums)
    means = {e: [_r(tally.score_sums[r][i] / tally.score_games[r]) for r in rounds]
             for i, e in enumerate(ENDINGS)}
    return {"rounds": rounds, "games": [tally.score_games[r] for r in rounds], "mean": means}


def _entries(tally: Tally, bundle: Bundle) -> dict[str, Any]:
    entries = bundle.catalog.entries
    never = [{"entry": n, "title": str(entries[n].get("title", ""))}
             for n in sorted(entries) if not tally.entries.get(n)]
    reached = sorted((count, n) for n, count in tally.entries.items() if n in entries)
    least = [{"entry": n, "title": str(entries[n].get("title", "")),
              **rate(count, tally.games)} for count, n in reached[:LEAST]]
    return {"count": len(entries), "reached": len(reached), "never": never, "least": least}


def _tests(tally: Tally, bundle: Bundle) -> list[dict[str, Any]]:
    """The tests failed most often: tries, observed pass rate (help, stored domains and
    cards included), the exact chance of the dice rolled, and (for storybook tests) the
    exact chance at the central wanderer's starting sentience, as `dmtool odds` gives."""
    start = bundle.catalog.wanderers[bundle.wanderer]["dashboard"]["sentience"]
    dice = tuple(sorted((c, max(0, int(n))) for c, n in start.items()))
    rows = []
    for (where, need), test in tally.tests.items():
        title = ""
        if where.startswith("entry "):
            title = str(bundle.catalog.entries[int(where.split()[1])].get("title", ""))
        clustered = test.clustered()
        low, high = clustered.interval()
        rows.append({"where": where, "title": title, "need": need, "tries": test.tries,
                     "games": test.games, "failed": test.tries - test.passed,
                     # The interval counts games, not tries, as independent (stats.Clustered).
                     "observed": {"games": test.passed, "rate": _r(clustered.rate),
                                  "ci": [_r(low), _r(high)],
                                  "design_effect": _r(clustered.design_effect())},
                     "exact_rolled": _r(test.exact / test.tries),
                     "exact_at_start": _r(exact_chance(tuple(need.split(", ")), dice))})
    rows.sort(key=lambda r: (-r["failed"], r["where"], r["need"]))
    return rows[:HARDEST]


def _visits(tally: Tally, bundle: Bundle) -> dict[str, Any]:
    """Per entry and per option: the games that read or chose it and how many times in all
    (what `visits_csv` writes for a spreadsheet)."""
    entries = bundle.catalog.entries
    return {"entries": [{"entry": n, "title": str(entries[n].get("title", "")),
                         "games": tally.entries.get(n, 0), "reads": tally.reads.get(n, 0)}
                        for n in sorted(entries)],
            "options": [{"entry": entry, "option": label, "games": tally.option_games[key],
                         "times": count}
                        for key, count in sorted(tally.options.items())
                        for entry, label in [key]]}


def configuration(tally: Tally, bundle: Bundle, label: str, config: dict[str, Any],
                  asked: int) -> dict[str, Any]:
    """One configuration's section of the report."""
    return {
        "label": label, "config": config, "games": tally.games, "asked": asked,
        "steps_per_game": _r(tally.steps / tally.games) if tally.games else 0.0,
        "outcomes": _outcomes(tally, bundle),
        "rounds": _histogram(tally.rounds), "finale_rounds": _histogram(tally.finale_rounds),
        "deaths": _histogram(tally.deaths), "withered": _histogram(tally.withered),
        # Every death gives a Withered card: when no game had any other, they are one measure.
        "withered_is_deaths": tally.deaths_are_withered == tally.games,
        "visits": _visits(tally, bundle),
        "scores": _scores(tally), "entries": _entries(tally, bundle),
        "tests": _tests(tally, bundle), "decisive": decisive_items(tally),
        "causes": causes(tally, bundle.catalog.entries),
        "test_effects": test_effects(tally, bundle.catalog.entries),
    }


def build(result: RunResult, bundle: Bundle, *, seed: int) -> dict[str, Any]:
    """The whole report: one section per configuration, in the order asked."""
    sections = [configuration(t, bundle, c.label, {"policy": c.policy, "variant": c.variant,
                                                   "players": c.players, "devour": c.devour},
                              result.games)
                for c, t in zip(result.configs, result.tallies)]
    book = bundle.catalog.wanderers[bundle.wanderer].get("storybook", "")
    return {"schema": SCHEMA, "tool": "dmtool balance", "wanderer": bundle.wanderer,
            "storybook": book, "seed": seed, "games": result.games,
            "finished": result.finished, "interrupted": result.interrupted,
            "configurations": sections, "skill": skill_range(sections, result.tallies)}
