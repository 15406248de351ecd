"""Diagnostic codes of the engine stage."""

from __future__ import annotations

from dmtool.diagnostics.catalogue import CodeInfo

CODES: tuple[CodeInfo, ...] = ()
