"""Scaffolding (stub while schemas are being written)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class NewOptions:
    what: str


@dataclass
class NewResult:
    exit_code: int = 0


def run_new(options: NewOptions) -> NewResult:
    raise NotImplementedError
