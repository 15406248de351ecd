"""Scenario fixtures: loading them, running them through the engine, reporting differences."""

from __future__ import annotations
