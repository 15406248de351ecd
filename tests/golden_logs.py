"""Golden logs of whole games: which seeded games are kept, and how to (re)record them.

The logs were recorded from the engine as it was before the balance work sped it up; the
test in test_golden_logs.py replays every case and compares, so an optimisation that
changes any outcome, event or answer fails it. Re-record only for an intended change to
the engine's rules or to the sample's content, and say why in the commit:

    .venv/bin/python -m tests.golden_logs
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from dmtool.engine.dawn_of_madness.play.command import PlayOptions, run_play, summary
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import play
from dmtool.engine.dawn_of_madness.play.newgame import NewGame
from dmtool.model.content_index import default_content_dir

FOLDER = Path(__file__).resolve().parent / "golden"
DIGESTS = FOLDER / "digests.json"
OUTCOMES = FOLDER / "outcomes.txt"
OUTCOME_SEEDS = range(100)  # per policy: the summary line of each of these games
WANDERER = "hollis-brandt"


@dataclass(frozen=True)
class Case:
    """One seeded game, as `dmtool play` options; `full` keeps its whole log in a file."""

    seed: int
    policy: str
    players: int = 1
    variant: str = "standard"
    devour: bool = False
    full: bool = False

    @property
    def name(self) -> str:
        extra = "-devour" if self.devour else ""
        return f"{self.policy}-{self.seed}-p{self.players}-{self.variant}{extra}"

    def options(self) -> PlayOptions:
        return PlayOptions(wanderer=WANDERER, seed=self.seed, policy=self.policy,
                           players=self.players, variant=self.variant, devour=self.devour)


CASES = (
    Case(0, "greedy"), Case(1, "greedy"), Case(6, "greedy"), Case(7, "greedy"),
    Case(11, "greedy", full=True), Case(9, "greedy"), Case(2, "greedy"),
    Case(0, "random"), Case(6, "random", full=True), Case(5, "first", full=True),
    Case(4, "greedy", players=3, variant="short"), Case(5, "greedy", players=4, variant="long",
                                                        devour=True),
    Case(8, "random", players=2, devour=True), Case(12, "greedy", devour=True),
    Case(31, "random", players=3, variant="long"),
)


def play_text(case: Case) -> str:
    """The whole `dmtool play` output of a case (log, summary line)."""
    parts: list[str] = []
    code = run_play(case.options(), emit=parts.append)
    return "".join(parts) + f"exit {code}\n"


def outcome_lines() -> str:
    """One line per game of OUTCOME_SEEDS, random and greedy: seed, steps, summary."""
    base = load_catalog(default_content_dir(), WANDERER)
    lines = []
    for policy in ("random", "greedy"):
        for seed in OUTCOME_SEEDS:
            result = play(base, NewGame(WANDERER, seed), policy=policy)
            steps = len(result.record["steps"])
            lines.append(f"{policy} {seed} steps={steps} {summary(result)}")
    return "\n".join(lines) + "\n"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def content_digest() -> str:
    """A digest of every YAML file under content/ (to tell a content edit from an engine
    change when a golden log no longer matches)."""
    root = default_content_dir()
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.yaml")):
        h.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def record() -> None:
    FOLDER.mkdir(exist_ok=True)
    entries = {}
    for case in CASES:
        text = play_text(case)
        last = text.splitlines()[-2]
        entries[case.name] = {"sha256": digest(text), "lines": text.count("\n"), "result": last}
        if case.full:
            (FOLDER / f"{case.name}.log").write_text(text, encoding="utf-8")
    data = {"content": content_digest(), "cases": entries}
    OUTCOMES.write_text(outcome_lines(), encoding="utf-8")
    DIGESTS.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    record()
