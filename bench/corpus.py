"""Generate the benchmark corpus of performance.md: storybooks in dmtool's own format.

Generated content is for measuring only (authored content is written, not generated).
Each benchmark wanderer is scaffolded with `dmtool new wanderer` (so it is complete and
clean), then its storybook grows a generated story of `entries` entries that an encounter
card with a spawning condition opens: every entry is reachable, tests and choices branch,
every branch links on or ends, so the graph analyses do real work and report nothing.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

from dmtool.authoring.scaffold import NewOptions, run_new

_WORDS = ["the", "stair", "hums", "with", "a", "voice", "that", "is", "almost", "your", "mother's", "while", "lantern", "light", "gutters", "and", "something", "below", "counts", "your", "breaths", "in", "a", "language", "made", "of", "rust", "and", "salt", "water", "a", "door", "remembers", "being", "a", "tree", "the", "floor", "tilts", "toward", "a", "name", "you", "never", "said", "aloud", "glass", "teeth", "rattle", "inside", "the", "walls", "and", "the", "corridor", "folds", "itself", "like", "a", "letter"]
_COLOURS = ("red", "blue", "green", "yellow", "purple")
_TYPES = ("hand", "eye", "brain", "skull", "sphere")
FIRST_ENTRY = 1001


def _prose(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(words)).capitalize() + "."


def story_entries(*, count: int, seed: int, first: int = FIRST_ENTRY) -> str:
    """`count` storybook entries numbered from `first`, as YAML list items at indent 2."""
    rng = random.Random(seed)
    last = first + count - 1
    out: list[str] = []
    for number in range(first, last + 1):
        nxt, alt = min(number + 1, last), min(number + 2, last)
        ending = "ABCD"[number % 4]
        out += [f"  - entry: {number}", "    kind: exploration",
                f"    title: {_prose(rng, 3)[:-1]}", "    text: |",
                f"      {_prose(rng, 30)}", f"      {_prose(rng, 25)}", "    effects:"]
        if number == last:
            out += ["      - gain_existence: 1", "      - end: encounter"]
        elif number % 3 == 0:
            colour, dtype = rng.choice(_COLOURS), rng.choice(_TYPES)
            out += ["      - test:", f"          roll: {{{colour}: [{dtype}]}}",
                    f"          pass: [{{score: {{{ending}: 2}}}}, {{goto: {nxt}}}]",
                    f"          fail: [{{lose_health: 1}}, {{goto: {alt}}}]"]
        elif number % 3 == 1:
            out += ["      - choice:", f"          - label: {_prose(rng, 4)[:-1]}",
                    f"            effects: [{{score: {{{ending}: 1}}}}, {{goto: {nxt}}}]",
                    f"          - label: {_prose(rng, 4)[:-1]}",
                    "            effects: [{end: encounter}]"]
        else:
            out += ["      - gain_existence: 1", f"      - goto: {nxt}"]
    return "\n".join(out) + "\n"


def _opening_card(wanderer: str, first: int) -> str:
    return (
        "# yaml-language-server: $schema=../../../../schemas/encounter-card.schema.json\n"
        f"kind: encounter-card\nid: {wanderer}-long-road\nwanderer: {wanderer}\n"
        f"title: The Long Road\nentry: {first}\nencounter_kind: exploration\n"
        "spawn:\n  when: {round_at_least: 2}\n  text: From the second round on, the road opens.\n"
    )


def build_corpus(target: Path, *, content: Path, storybooks: int, entries: int,
                 dirty_percent: float = 0.0) -> list[Path]:
    """Copy the real content tree into `target`, add benchmark wanderers; return storybooks."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(content, target)
    rng = random.Random(7)
    made: list[Path] = []
    for index in range(storybooks):
        name = f"Bench Walker {index:03d}"
        wanderer = f"bench-walker-{index:03d}"
        run_new(NewOptions(what="wanderer", name=name, directory=target / "wanderers"))
        folder = target / "wanderers" / wanderer
        (folder / "encounter-cards").mkdir(exist_ok=True)
        (folder / "encounter-cards" / "long-road.yaml").write_text(
            _opening_card(wanderer, FIRST_ENTRY), encoding="utf-8")
        book = folder / "storybook.yaml"
        text = book.read_text(encoding="utf-8")
        story = story_entries(count=entries, seed=index)
        if dirty_percent and rng.random() * 100 < dirty_percent:
            story = story.replace("kind: exploration", "kind: exploraton", 1)
        text = text.replace("\nendings:\n", "\n" + story + "endings:\n", 1)
        book.write_text(text, encoding="utf-8")
        made.append(book)
    return made


def edit_prose(path: Path, attempt: int) -> None:
    """A real edit of a generated storybook's data (one word of prose, not a comment); each
    attempt makes a different text, so no cache can know it."""
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("the corridor", f"the corridor{attempt}", 1), encoding="utf-8")
