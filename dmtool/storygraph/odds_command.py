"""`dmtool odds` as a plain function: the exact pass chance of every test of a storybook, or
random playthroughs. The storybook's content is checked first, as `dmtool check` would: its
errors are printed and make the exit code 1 (odds of broken content would mislead)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmtool import __version__
from dmtool.diagnostics import Report, Severity
from dmtool.errors import UsageError
from dmtool.loading.collector import collector_paused
from dmtool.reporters import render
from dmtool.storygraph.checked import check_storybooks
from dmtool.storygraph.dice import COLOURS
from dmtool.storygraph.odds import collect_odds, odds_sentience, render_odds, render_play
from dmtool.storygraph.playthrough import PlayOptions, play
from dmtool.validation.pipeline import CheckOptions


@dataclass(frozen=True, kw_only=True)
class OddsOptions:
    paths: tuple[Path, ...]
    sentience: Mapping[str, int] = field(default_factory=dict)  # overrides the wanderer's values
    runs: int | None = None  # random playthroughs; None lists test odds instead
    seed: int = 0
    goal: int = 40
    encounters_per_round: int = 3
    show_paths: bool = False  # with runs: each playthrough's entries, scores and ending too
    fmt: str = "text"
    # The check to run first (built from the configuration by the CLI); None: the defaults.
    check: CheckOptions | None = None


@dataclass(frozen=True)
class OddsResult:
    text: str
    data: dict[str, Any]
    exit_code: int = 0


def parse_sentience(text: str) -> dict[str, int]:
    """'red=2,blue=1' -> {'red': 2, 'blue': 1}."""
    values: dict[str, int] = {}
    for item in filter(None, (p.strip() for p in text.split(","))):
        colour, sep, number = item.partition("=")
        colour = colour.strip().lower()
        if not sep or colour not in COLOURS:
            raise UsageError(
                f"cannot read sentience '{item}': write COLOUR=N with a colour among "
                f"{', '.join(COLOURS)}, e.g. --sentience red=2,blue=1"
            )
        try:
            values[colour] = int(number)
        except ValueError:
            raise UsageError(f"sentience '{item}' needs a whole number, e.g. red=2") from None
    return values


def run_odds(options: OddsOptions) -> OddsResult:
    """`_odds` with the cycle collector resting while the analyses are alive (as graph)."""
    with collector_paused():
        return _odds(options)


def _odds(options: OddsOptions) -> OddsResult:
    if options.runs is not None and options.runs < 1:
        raise UsageError("--runs needs a positive number of playthroughs, e.g. --runs 1000")
    checked = check_storybooks(options.paths, options.check)
    errors = Report(
        diagnostics=[d for d in checked.result.report.diagnostics if d.severity is Severity.ERROR],
        sources=checked.result.report.sources,
        files_checked=checked.result.report.files_checked,
    )
    analyses = checked.analyses()
    texts: list[str] = []
    data: dict[str, Any] = {"storybooks": []}
    if errors.diagnostics:
        # Odds of broken content would mislead: say what is wrong first (as `dmtool check`).
        texts.append(render(errors, fmt="text", color=False, tool_version=__version__).rstrip())
        data["diagnostics"] = json.loads(
            render(errors, fmt="json", color=False, tool_version=__version__)
        )["diagnostics"]
    for analysis in analyses:
        sentience, source = odds_sentience(analysis, options.sentience)
        storybook = analysis.graph.storybook
        record: dict[str, Any] = {"storybook": storybook.id, "sentience": sentience}
        if options.runs is None:
            odds = collect_odds(analysis, sentience)
            record["tests"] = [o.as_dict() for o in odds]
            texts.append(render_odds(odds, sentience, source=source, path=storybook.display))
        else:
            play_options = PlayOptions(
                runs=options.runs,
                seed=options.seed,
                sentience=sentience,
                goal=options.goal,
                encounters_per_round=options.encounters_per_round,
                paths=options.show_paths,
            )
            report = play(analysis, play_options)
            record["playthroughs"] = {
                "runs": report.runs,
                "seed": options.seed,
                "outcomes": dict(report.outcomes),
                "conclusions": [
                    {"ending": e, "entry": c, "count": n}
                    for (e, c), n in sorted(
                        report.conclusions.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0)
                    )
                ],
                "never_visited": report.never_visited,
                "decisions": report.decisions,
                **({"paths": report.paths} if options.show_paths else {}),
            }
            texts.append(
                render_play(
                    report,
                    storybook=storybook.id,
                    seed=options.seed,
                    goal=options.goal,
                    per_round=options.encounters_per_round,
                    entries=len(analysis.graph.entries),
                )
                + "".join(_path_line(i, p) for i, p in enumerate(report.paths, 1))
            )
        data["storybooks"].append(record)
    text = (
        json.dumps(data, indent=2, ensure_ascii=True)
        if options.fmt == "json"
        else "\n\n".join(texts)
    )
    return OddsResult(text + "\n", data, 1 if errors.diagnostics else 0)


def _path_line(number: int, path: Mapping[str, Any]) -> str:
    """One playthrough of --paths: its ending (and conclusion), scores and entries read."""
    end = path["outcome"] + (f" (conclusion {path['conclusion']})"
                             if path["conclusion"] is not None else "")
    scores = ", ".join(f"{e} {n}" for e, n in zip("ABCD", path["scores"]))
    return (f"\nrun {number}: {end}; scores {scores}; entries "
            + " ".join(str(n) for n in path["entries"]))
