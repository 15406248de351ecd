"""Authoring tools: the canonical YAML formatter (`dmtool fmt`) and scaffolding (`dmtool new`)."""

from __future__ import annotations

from dmtool.authoring.commands import (
    FmtOptions,
    FmtResult,
    NewOptions,
    NewResult,
    run_fmt,
    run_new,
)
from dmtool.authoring.fmt import FormatError, format_text

__all__ = [
    "FmtOptions",
    "FmtResult",
    "FormatError",
    "NewOptions",
    "NewResult",
    "format_text",
    "run_fmt",
    "run_new",
]
