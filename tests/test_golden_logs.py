"""The same seed gives the same game: whole-game logs recorded before the engine was sped
up must come out byte for byte the same (see tests/golden_logs.py to re-record)."""

from __future__ import annotations

import difflib
import json
from functools import cache
from typing import Any

import pytest

from tests.golden_logs import (
    CASES,
    DIGESTS,
    FOLDER,
    OUTCOMES,
    Case,
    content_digest,
    digest,
    outcome_lines,
    play_text,
)

RERECORD = "re-record with `.venv/bin/python -m tests.golden_logs` only if the change is intended"


@cache
def recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DIGESTS.read_text(encoding="utf-8"))
    return data


def _why() -> str:
    if recorded()["content"] != content_digest():
        return f"content/ changed since the logs were recorded; {RERECORD}"
    return f"content/ is unchanged, so the engine now plays this seed differently; {RERECORD}"


def test_every_case_has_a_recorded_digest() -> None:
    assert sorted(recorded()["cases"]) == sorted(case.name for case in CASES)
    assert all((FOLDER / f"{c.name}.log").is_file() for c in CASES if c.full)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_a_seeded_game_plays_exactly_as_recorded(case: Case) -> None:
    text = play_text(case)
    want = recorded()["cases"][case.name]
    if digest(text) == want["sha256"]:
        return
    if case.full:
        old = (FOLDER / f"{case.name}.log").read_text(encoding="utf-8").splitlines()
        diff = "\n".join(list(difflib.unified_diff(old, text.splitlines(), "recorded", "now",
                                                   lineterm="", n=2))[:40])
    else:
        diff = f"recorded: {want['result']}\nnow:      {text.splitlines()[-2]}"
    pytest.fail(f"{case.name}: the log differs from the golden log ({_why()}).\n{diff}")


def test_a_hundred_seeds_per_policy_end_as_recorded() -> None:
    old = OUTCOMES.read_text(encoding="utf-8").splitlines()
    now = outcome_lines().splitlines()
    changed = [f"  was: {a}\n  now: {b}" for a, b in zip(old, now) if a != b]
    assert len(old) == len(now) and not changed, (
        f"{len(changed)} games end differently ({_why()}):\n" + "\n".join(changed[:10]))
