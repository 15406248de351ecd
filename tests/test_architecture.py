"""The engine keeps its shape: no imports inside functions, every logged event kind declared,
and the games' registries readable by tools (the import contracts run in `make test`)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from dmtool.engine.games import GAMES, registry, vocabulary

REPO = Path(__file__).resolve().parents[1]
ENGINE = REPO / "dmtool" / "engine"
PACKAGES = {"dawn-of-madness": ENGINE / "dawn_of_madness"}
EMIT = re.compile(r"\.emit\(\s*\"([a-z_]+)\"\s*[,)]")


def test_no_import_inside_a_function_in_the_engine() -> None:
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--select", "PLC0415",
                           "--output-format", "concise", str(ENGINE)],
                          capture_output=True, text=True, cwd=REPO, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("game", sorted(PACKAGES))
def test_every_event_a_game_emits_is_declared(game: str) -> None:
    emitted = {kind for path in PACKAGES[game].rglob("*.py")
               for kind in EMIT.findall(path.read_text(encoding="utf-8"))}
    declared = set(registry(game).events)
    assert emitted, "the scan found no events: the pattern no longer fits the code"
    assert emitted - declared == set()


def test_the_vocabulary_lists_every_registered_name() -> None:
    names = vocabulary()
    assert set(names) == set(GAMES)
    dawn = names["dawn-of-madness"]
    assert "goto" in dawn["effects"] and "visited" in dawn["conditions"]
    assert "refresh" in dawn["steps"] and "wanderer_dies" in dawn["hooks"]
    assert {"chose", "rejected", "died"} <= set(dawn["events"])


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="dawn-of-madness"):
        registry("chess")
