"""What the engine does with a set of seeded games, as one JSON document: run by
tests/test_engine_compiled.py once on the compiled engine and once on the pure one
(DMTOOL_ENGINE=pure), which must print the very same document.

    .venv/bin/python -m tests.engine_outputs [SEEDS]
"""

from __future__ import annotations

import json
import sys
from typing import Any

from dmtool.engine import ENGINE, manifest
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import play
from dmtool.engine.dawn_of_madness.play.newgame import NewGame
from dmtool.model.content_index import default_content_dir
from tests.golden_logs import CASES, WANDERER, digest, play_text

POLICIES = ("random", "first", "greedy")


def outputs(seeds: int) -> dict[str, Any]:
    """Per policy and seed: the event log, the record and the final state, whole (a
    difference shows where it is); and each golden case's `dmtool play` text."""
    base = load_catalog(default_content_dir(), WANDERER)
    games: dict[str, Any] = {}
    for policy in POLICIES:
        for seed in range(seeds):
            game = NewGame(WANDERER, seed, 1 + seed % 3, devour=seed % 4 == 3)
            result = play(base, game, policy=policy)
            games[f"{policy}-{seed}"] = {"log": result.log, "record": result.record,
                                         "state": result.state.to_dict(),
                                         "stalled": result.stalled, "steps": result.steps}
    golden = {case.name: digest(play_text(case)) for case in CASES}
    return {"games": games, "golden": golden}


def main(argv: list[str]) -> None:
    seeds = int(argv[0]) if argv else 10
    data = outputs(seeds)
    # Which engine ran, decided at import and seen in the modules actually loaded.
    data["engine"] = {"decided": ENGINE.partition(":")[0], "loaded": manifest.running()}
    json.dump(data, sys.stdout, sort_keys=True, default=repr)


if __name__ == "__main__":
    main(sys.argv[1:])
