"""Handlers of the effect vocabulary, one module per theme; each registers on the game's
registry (`engine.py` imports them all)."""

from __future__ import annotations

from dmtool.engine.dawn_of_madness.registry import RULES

effect = RULES.effect
