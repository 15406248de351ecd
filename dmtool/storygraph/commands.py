"""`dmtool graph` as a plain function: frozen options in, data and rendered text out. It
never prints or exits; bad flags raise UsageError (the CLI's exit code 2)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dmtool import __version__
from dmtool.diagnostics import Diagnostic
from dmtool.errors import UsageError
from dmtool.loading.collector import collector_paused
from dmtool.storygraph.checked import check_storybooks
from dmtool.validation.pipeline import CheckOptions, CheckResult


@dataclass(frozen=True, kw_only=True)
class GraphOptions:
    paths: tuple[Path, ...]
    output: Path | None = None  # .svg, .png or .dot
    fmt: str = "text"  # text | json
    witness: bool = False
    witness_dir: Path | None = None  # write a scenario skeleton per witness here
    focus: int | None = None
    depth: int = 2
    ending: str | None = None
    # The check to run first (built from the configuration by the CLI); None: the defaults,
    # through the check cache.
    check: CheckOptions | None = None


@dataclass(frozen=True)
class GraphResult:
    text: str
    data: dict[str, Any]
    diagnostics: tuple[Diagnostic, ...]
    written: tuple[Path, ...] = ()
    messages: tuple[str, ...] = ()  # for standard error, e.g. how to get SVG without Graphviz
    exit_code: int = 0


def run_graph(options: GraphOptions) -> GraphResult:
    """`_graph` with the cycle collector resting: the analyses stay alive to the end, and
    each full collection would walk their hundreds of thousands of acyclic objects again
    (measured: a fifth more CPU than `dmtool check` on the bench corpus; none without)."""
    with collector_paused():
        return _graph(options)


def _graph(options: GraphOptions) -> GraphResult:
    """The check's report of the named storybooks (every rule `dmtool check` runs, over the
    content tree around them), with each storybook's summary; drawings and witnesses on
    request. Without -o or --witness the output is kept with the check's cache, so a second
    run over an unchanged tree costs what a second `dmtool check` does."""
    if options.fmt not in ("text", "json"):
        raise UsageError(f"unknown format {options.fmt!r}; choose text or json")
    if options.output is None and (options.focus is not None or options.ending is not None):
        raise UsageError("--focus, --depth and --ending choose what -o draws; add -o FILE.svg")
    checked = check_storybooks(options.paths, options.check)
    result = checked.result
    report = result.report
    if options.output is not None and len(checked.storybooks) > 1:
        raise UsageError("-o draws one storybook; give the path of a single storybook.yaml")
    key = _derived_key(result, options)
    stored = result.cache.derived_value(key) if key is not None and result.cache else None
    if _is_stored(stored):
        text, data, exit_code = stored
        return GraphResult(text, json.loads(data), tuple(report.diagnostics), exit_code=exit_code)
    # The analyses, drawings and their imports are needed only now: a replayed run (above)
    # costs what a replayed `dmtool check` does.
    from dmtool.reporters import render as render_report
    from dmtool.storygraph.graph_output import graph_output

    analyses = checked.analyses()
    graph = graph_output(analyses, options)
    # A storybook that fails its schema is checked, not analysed: say so, not nothing.
    analysed = {analysis.graph.storybook.display for analysis in analyses}
    skipped = [name for name in checked.storybooks if name not in analysed]
    texts = [*graph.texts, *(f"storybook {name}: not analysed until its own errors (below) "
                             "are fixed" for name in skipped),
             render_report(report, fmt="text", color=False, tool_version=__version__).rstrip()]
    texts += [f"wrote {p.as_posix()}" for p in graph.written]
    data = graph.data
    data["not_analysed"] = skipped
    data["findings"] = len(report.diagnostics)
    # The check's report, as `dmtool check --format json` gives it (the storybooks' own
    # "findings" are their analyses' DM3xx only).
    data["diagnostics"] = json.loads(render_report(report, fmt="json", color=False,
                                                   tool_version=__version__))["diagnostics"]
    text = (
        json.dumps(data, indent=2, ensure_ascii=True)
        if options.fmt == "json"
        else "\n".join(t for t in texts if t)
    ) + "\n"
    exit_code = 2 if graph.not_drawn else report.exit_code()
    if key is not None and result.cache is not None:
        result.cache.remember_derived(key, (text, json.dumps(data), exit_code))
        result.cache.save()
    return GraphResult(text, data, tuple(report.diagnostics), tuple(graph.written),
                       tuple(graph.messages), exit_code)


def _derived_key(result: CheckResult, options: GraphOptions) -> str | None:
    """What the output depends on besides the tree: only outputs that write nothing are kept."""
    if result.run_key is None or options.output is not None or options.witness:
        return None
    return f"{result.run_key}\0graph\0{options.fmt}\0{__version__}"


def _is_stored(value: Any) -> bool:
    return (type(value) is tuple and len(value) == 3 and type(value[0]) is str
            and type(value[1]) is str and type(value[2]) is int)
