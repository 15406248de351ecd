"""Authoring tools: the canonical YAML formatter (`dmtool fmt`) and scaffolding (`dmtool new`)."""

from __future__ import annotations

from dmtool.authoring._plans import CARD_KINDS
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
    "CARD_KINDS",
    "FmtOptions",
    "FmtResult",
    "FormatError",
    "NewOptions",
    "NewResult",
    "format_text",
    "run_fmt",
    "run_new",
]
