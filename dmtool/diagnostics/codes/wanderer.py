"""Diagnostic codes of the wanderer domain rules (DM250-DM279): fixed shapes of DoM content."""

from __future__ import annotations

from dmtool.diagnostics.catalogue import CodeInfo

CODES: tuple[CodeInfo, ...] = ()
