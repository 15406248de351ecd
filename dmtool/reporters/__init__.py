"""Reporters: render a finished Report as text, json, GitHub annotations or SARIF."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from dmtool.diagnostics import Report
from dmtool.errors import UsageError

Renderer = Callable[..., str]

FORMATS = ("text", "json", "github", "sarif")
# Each format's module, imported when a report is rendered in it: a run prints one format,
# and a one-file `dmtool check` (a pre-commit hook) should not load the other three.
_MODULES = {"text": "text", "json": "jsonfmt", "github": "github", "sarif": "sarif"}


def reporter(fmt: str) -> Renderer:
    """The render function of a format (UsageError for an unknown one)."""
    module = _MODULES.get(fmt)
    if module is None:
        raise UsageError(f"Unknown output format {fmt!r}. Choose one of: {', '.join(FORMATS)}.")
    return importlib.import_module(f"{__name__}.{module}").render  # type: ignore[no-any-return]


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
    return reporter(fmt)(report, color=color, tool_version=tool_version, docs_url=docs_url)


__all__ = ["FORMATS", "render", "reporter"]
