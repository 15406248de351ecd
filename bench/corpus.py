"""Generate the benchmark corpus of performance.md: storybooks in dmtool's own format.

Generated content is for measuring only (authored content is written, not generated).
Each storybook is a connected, valid story: entries 1-10 are round events, every entry
links onward, tests and choices branch, and the four endings each have a start and two
conclusions, so the graph analyses do real work and report nothing.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

_WORDS = (
    "the stair hums with a voice that is almost your mother's while lantern light gutters "
    "and something below counts your breaths in a language made of rust and salt water "
    "a door remembers being a tree the floor tilts toward a name you never said aloud "
    "glass teeth rattle inside the walls and the corridor folds itself like a letter"
).split()
_COLOURS = ("red", "blue", "green", "yellow", "purple")
_TYPES = ("hand", "eye", "brain", "skull", "sphere")


def _prose(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def storybook_yaml(*, storybook_id: str, wanderer: str, entries: int, legacy: list[str],
                   seed: int, schema_path: str) -> str:
    """One storybook of `entries` entries (at least 40) as YAML text."""
    rng = random.Random(seed)
    out = [f"# yaml-language-server: $schema={schema_path}", "kind: storybook",
           f"id: {storybook_id}", f"wanderer: {wanderer}", f"title: Benchmark {storybook_id}",
           "introduction: |", f"  {_prose(rng, 40)}", "entries:"]
    last_story = entries - 12  # the tail holds the endings' starts and conclusions
    for number in range(1, last_story + 1):
        kind = "event" if number <= 10 else rng.choice(("exploration", "reality_shard"))
        out += [f"  - entry: {number}", f"    kind: {kind}", f"    title: {_prose(rng, 3)[:-1]}",
                "    text: |", f"      {_prose(rng, 30)}", f"      {_prose(rng, 25)}", "    effects:"]
        nxt, alt = min(number + 1, last_story), min(number + 2, last_story)
        ending = "ABCD"[number % 4]
        if kind == "event":
            out += [f"      - spawn_terror: {{terror: random, count: 1}}",
                    f"      - end: event"]
        elif number % 3 == 0:
            colour, dtype = rng.choice(_COLOURS), rng.choice(_TYPES)
            out += ["      - test:", f"          roll: {{{colour}: [{dtype}]}}",
                    f"          pass: [{{score: {{{ending}: 2}}}}, {{goto: {nxt}}}]",
                    f"          fail: [{{lose_health: 1}}, {{goto: {alt}}}]"]
        elif number % 3 == 1:
            out += ["      - choice:", f"          - label: {_prose(rng, 4)[:-1]}",
                    f"            effects: [{{score: {{{ending}: 1}}}}, {{end: encounter}}]",
                    f"          - label: {_prose(rng, 4)[:-1]}", f"            effects: [{{goto: {nxt}}}]"]
        else:
            out += [f"      - gain_existence: 1", f"      - goto: {nxt}"]
    out.append("endings:")
    for index, letter in enumerate("ABCD"):
        start = last_story + 1 + index * 3
        first, second = start + 1, start + 2
        out += [f"  - ending: {letter}", f"    title: Ending {letter}",
                f"    setup: {{text: {_prose(rng, 8)}}}", f"    rules: {_prose(rng, 10)}",
                f"    event_phase: {{text: {_prose(rng, 8)}}}", "    final_bosses: []",
                f"    goals: {_prose(rng, 8)}", f"    start: {start}", "    conclusions:",
                f"      - {{entry: {first}, title: First of {letter}, legacy: {legacy[0]}}}",
                f"      - {{entry: {second}, title: Second of {letter}, legacy: {legacy[1 % len(legacy)]}}}"]
    tail = []
    for index, letter in enumerate("ABCD"):
        start = last_story + 1 + index * 3
        tail += [f"  - entry: {start}", "    kind: finale", f"    title: Into {letter}",
                 f"    text: {_prose(rng, 12)}", "    effects:", "      - choice:",
                 f"          - {{label: Hold on, effects: [{{goto: {start + 1}}}]}}",
                 f"          - {{label: Let go, effects: [{{goto: {start + 2}}}]}}"]
        for offset in (1, 2):
            tail += [f"  - entry: {start + offset}", "    kind: conclusion",
                     f"    title: Conclusion {letter}{offset}", f"    text: {_prose(rng, 12)}",
                     f"    effects: [{{conclude: {legacy[(offset - 1) % len(legacy)]}}}]"]
    at = out.index("endings:")
    return "\n".join(out[:at] + tail + out[at:]) + "\n"


def build_corpus(target: Path, *, content: Path, storybooks: int, entries: int,
                 wanderer: str, legacy: list[str], dirty_percent: float = 0.0) -> list[Path]:
    """Copy the real content tree into `target` and add generated storybooks; return them."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(content, target)
    made: list[Path] = []
    rng = random.Random(7)
    for index in range(storybooks):
        folder = target / "wanderers" / f"bench-{index:03d}"
        folder.mkdir(parents=True)
        path = folder / "storybook.yaml"
        text = storybook_yaml(storybook_id=f"bench-{index:03d}", wanderer=wanderer,
                              entries=entries, legacy=legacy, seed=index,
                              schema_path="../../../schemas/storybook.schema.json")
        if dirty_percent and rng.random() * 100 < dirty_percent:
            text = text.replace("kind: exploration", "kind: exploraton", 1)
        path.write_text(text, encoding="utf-8")
        made.append(path)
    return made
