"""Reporters: render a finished Report as text, json, GitHub annotations or SARIF."""

from __future__ import annotations

from collections.abc import Callable

from dmtool.diagnostics import Report
from dmtool.errors import UsageError
from dmtool.reporters import github, jsonfmt, sarif, text

Renderer = Callable[..., str]

FORMATS = ("text", "json", "github", "sarif")
REPORTERS: dict[str, Renderer] = {
    "text": text.render,
    "json": jsonfmt.render,
    "github": github.render,
    "sarif": sarif.render,
}


def render(
    report: Report,
    *,
    fmt: str,
    color: bool,
    tool_version: str,
    docs_url: str | None = None,
) -> str:
    """The whole output for `report` in format `fmt`, ending in a newline (or empty).

    `color` only affects the text format. `docs_url` is an optional address template with
    `{code}` and `{name}` fields; when given, json and sarif link each code to it.
    """
    renderer = REPORTERS.get(fmt)
    if renderer is None:
        raise UsageError(f"Unknown output format {fmt!r}. Choose one of: {', '.join(FORMATS)}.")
    return renderer(report, color=color, tool_version=tool_version, docs_url=docs_url)


__all__ = ["FORMATS", "REPORTERS", "render"]
