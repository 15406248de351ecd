"""Diagnostic codes, one module per stage (0xx loading ... 5xx site)."""

from __future__ import annotations

from dmtool.diagnostics.codes import (
    domain,
    engine,
    graph,
    loading,
    references,
    schema,
    site,
    wanderer,
)

ALL_STAGES = (
    loading.CODES,
    schema.CODES,
    references.CODES,
    domain.CODES,
    wanderer.CODES,
    graph.CODES,
    engine.CODES,
    site.CODES,
)
