"""Whole games from content/: setup, seeded policies, the game loop, records and replays."""

from __future__ import annotations
