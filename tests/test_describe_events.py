"""`dmtool play`'s log reads as sentences: every event the engine emits has one."""

from __future__ import annotations

import re
from pathlib import Path

from dmtool.engine.play.command import PlayOptions, run_play
from dmtool.model.describe.events import EVENTS, describe_event

ENGINE = Path(__file__).resolve().parents[1] / "dmtool" / "engine"
EMIT = re.compile(r"""emit\(\s*["']([a-z_]+)["']""")
CHOICE = re.compile(r'emit\(\s*"([a-z_]+)"\s+if\b[^"]*else\s+"([a-z_]+)"')


def _emitted() -> set[str]:
    """Event names in emit("name", ...) calls, and both names of emit("a" if c else "b")."""
    names: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        names |= set(EMIT.findall(text))
        names |= {n for pair in CHOICE.findall(text) for n in pair}
    return {n for n in names if not n.endswith("_")}  # emit("stage_" + outcome): see below


def test_every_event_the_engine_emits_has_a_sentence() -> None:
    emitted = _emitted()
    assert len(emitted) > 80
    assert emitted - set(EVENTS) == set(), "give these events a sentence in describe/events.py"
    # end_stage emits "stage_" + outcome for the outcomes it is called with.
    outcomes = set(re.findall(r'end_stage\(ctx, "([a-z]+)"', "".join(
        p.read_text(encoding="utf-8") for p in ENGINE.rglob("*.py"))))
    assert outcomes and {f"stage_{o}" for o in outcomes} <= set(EVENTS)


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
