"""`dmtool play`'s log reads as sentences: every event the engine emits has one."""

from __future__ import annotations

import re

from dmtool.engine.dawn_of_madness.play.command import PlayOptions, run_play
from dmtool.engine.games import vocabulary
from dmtool.model.describe.events import EVENTS, describe_event


def test_every_event_the_engine_declares_has_a_sentence() -> None:
    for game, kinds in vocabulary().items():
        events = set(kinds["events"])
        assert len(events) > 50, game
        assert events - set(EVENTS) == set(), f"{game}: give these a sentence in describe/events.py"


def test_an_unknown_event_still_reads_as_words() -> None:
    line = describe_event({"event": "tide_turned", "step": 3, "shard": 5, "wanderer": "ilse-marrow"})
    assert line == "Tide turned: shard 5, wanderer Ilse Marrow."


def test_a_played_game_logs_sentences_not_key_value_pairs() -> None:
    lines: list[str] = []
    assert run_play(PlayOptions(seed=3, policy="greedy"), emit=lines.append) == 0
    log = [line for line in "".join(lines).splitlines() if not line.startswith(("===", "result"))]
    assert len(log) > 100
    for line in log:
        assert not re.search(r"\b[a-z_]+=", line), line
        assert line.rstrip().endswith((".", ")")), line
    assert any("reads entry" in line for line in log)
