"""P4 and P6 of performance.md: the storybook graph analysis at 10k and 100k entries (it must
grow linearly) and random playthroughs counted in decisions per second.

The generator builds storybooks as data (no YAML), shaped like authored ones: ten round
events, encounters of three to six entries that branch with tests, choices and conditions
and loop back now and then (always with a way out), world shards and spawned cards as
roots, scores for every ending, coda cards, and each ending's finale with two conclusions.
Generated storybooks analyse clean, so the timing covers the full analysis. Times are CPU
time of this process (time.process_time), which the other work on a shared machine
disturbs far less than wall time; both figures are about one core anyway.
"""

from __future__ import annotations

import gc
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script too

from dmtool.loading import SourceDocument

COLOURS = ("red", "blue", "green", "yellow", "purple")
TYPES = ("hand", "eye", "brain", "skull", "sphere")
ENDINGS = ("A", "B", "C", "D")
WANDERER = "bench-wanderer"
ROOT = Path(__file__).resolve().parents[1]
# performance.md: randomtest.js plays ~4,100 playthroughs a second of ~6.2 choices each.
CHOICESCRIPT_RATE = 25_000


def _entry(number: int, kind: str, effects: list[Any]) -> dict[str, Any]:
    return {
        "entry": number,
        "kind": kind,
        "title": f"Entry {number}",
        "text": "Generated text.",
        "effects": effects,
    }


def _encounter(
    rng: random.Random, first: int, size: int, *, coda: str | None, spawn: str | None
) -> list[dict[str, Any]]:
    """`size` entries numbered from `first`: branching forward, sometimes looping back."""
    out = []
    kind = rng.choice(("exploration", "reality_shard"))
    last = first + size - 1
    for number in range(first, last + 1):
        ending = ENDINGS[rng.randrange(4)]
        if number == last:
            tail: list[Any] = [{"score": {ending: rng.randint(1, 3)}}]
            if coda:
                tail.append({"gain_coda": coda})
            if spawn:
                tail.append({"spawn_encounter": {"card": spawn}})
            out.append(_entry(number, kind, tail + [{"end": "encounter"}]))
            continue
        nxt, far = number + 1, min(number + 2, last)
        shape = rng.randrange(4)
        if shape == 0:
            effects: list[Any] = [
                {
                    "test": {
                        "roll": {rng.choice(COLOURS): [rng.choice(TYPES)]},
                        "pass": [{"score": {ending: 2}}, {"goto": far}],
                        "fail": [{"lose_health": 1}, {"goto": nxt}],
                    }
                }
            ]
        elif shape == 1:
            back = max(first, number - 1)
            effects = [
                {
                    "choice": [
                        {"label": "Press on", "effects": [{"goto": nxt}]},
                        {"label": "Look back", "effects": [{"goto": back}]},
                        {"label": "Run", "effects": [{"score": {ending: 1}}, {"end": "encounter"}]},
                    ]
                }
            ]
        elif shape == 2 and coda:
            effects = [
                {
                    "if": {
                        "when": {"has_coda": coda},
                        "then": [{"goto": far}],
                        "else": [{"goto": nxt}],
                    }
                }
            ]
        else:
            effects = [{"lose_mental_capacity": 1}, {"goto": nxt}]
        out.append(_entry(number, kind, effects))
    return out


def generate(entries: int, *, seed: int = 1) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(storybook data, other documents: round trackers, shards, cards, codas) of about
    `entries` entries."""
    rng = random.Random(seed)
    story: list[dict[str, Any]] = []
    docs: list[dict[str, Any]] = []
    number = 11
    finale_base = max(entries - 24, 200)
    starts: list[int] = []
    index = 0
    pending_cards: list[str] = []
    while number + 6 < finale_base:
        size = rng.randint(3, 6)
        coda = f"coda-{index}" if index % 5 == 0 else None
        spawn = f"card-{index + 1}" if index >= 16 and rng.random() < 0.5 else None
        story += _encounter(rng, number, size, coda=coda, spawn=spawn)
        if coda:
            docs.append(
                {
                    "kind": "coda",
                    "id": coda,
                    "wanderer": WANDERER,
                    "title": coda,
                    "effects": [{"modify_sentience": {rng.choice(COLOURS): 1}}],
                    "back": ["red"],
                }
            )
        if index < 16:
            docs.append(
                {
                    "kind": "world-shard",
                    "id": f"shard-{index + 1}",
                    "wanderer": WANDERER,
                    "number": index + 1,
                    "title": "Shard",
                    "sentience": ["red", "blue", "green"],
                    "encounter": {
                        "title": "E",
                        "entry": number,
                        "kind": story[-1]["kind"],
                        "text": "Generated.",
                    },
                    "finale": {"encounters": []},  # filled in once the finales exist
                }
            )
        else:
            card = {
                "kind": "encounter-card",
                "id": f"card-{index}",
                "wanderer": WANDERER,
                "title": "Card",
                "entry": number,
                "encounter_kind": story[-1]["kind"],
            }
            if f"card-{index}" not in pending_cards:
                card["spawn"] = {"when": {"round_at_least": 2}, "text": "From round 2."}
            docs.append(card)
        if spawn:
            pending_cards.append(spawn)
        starts.append(number)
        number += size
        index += 1
    for round_ in range(1, 11):
        story.insert(
            round_ - 1,
            _entry(
                round_,
                "event",
                [
                    {"spawn_terror": {"terror": "random"}},
                    {"may": [{"score": {ENDINGS[round_ % 4]: 1}}]},
                    {"end": "event"},
                ]
                if round_ % 2
                else [
                    # (not a round: each event entry is read in its own round, where a
                    # round condition is decided)
                    {"if": {"when": {"score_at_least": {"A": 1}}, "then": [{"score": {"A": 1}}]}},
                    {"end": "event"},
                ],
            ),
        )
    endings = []
    number = finale_base
    for letter in ENDINGS:
        start, middle, good, bad = number, number + 1, number + 2, number + 3
        story += [
            _entry(
                start,
                "finale",
                [
                    {
                        "test": {
                            "roll": {"purple": ["sphere"]},
                            "pass": [{"goto": middle}],
                            "fail": [{"goto": bad}],
                        }
                    }
                ],
            ),
            _entry(
                middle,
                "finale",
                [
                    {
                        "choice": [
                            {"label": "Stay", "effects": [{"goto": good}]},
                            {"label": "Go", "effects": [{"goto": bad}]},
                        ]
                    }
                ],
            ),
            _entry(good, "conclusion", [{"conclude": f"legacy-{letter.lower()}-good"}]),
            _entry(bad, "conclusion", [{"conclude": f"legacy-{letter.lower()}-bad"}]),
        ]
        endings.append(
            {
                "ending": letter,
                "title": f"Ending {letter}",
                "setup": {"text": "Set up."},
                "rules": "Rules.",
                "event_phase": {"text": "Each round."},
                "goals": "Goals.",
                "start": start,
                "conclusions": [
                    {"entry": good, "title": "Good", "legacy": f"legacy-{letter.lower()}-good"},
                    {"entry": bad, "title": "Bad", "legacy": f"legacy-{letter.lower()}-bad"},
                ],
            }
        )
        number += 4
    starts = {e["ending"]: e["start"] for e in endings}
    for doc in docs:
        if doc["kind"] == "world-shard":
            pair = (ENDINGS[doc["number"] % 4], ENDINGS[(doc["number"] + 1) % 4])
            doc["finale"]["encounters"] = [
                {"ending": e, "title": "Finale", "entry": starts[e]} for e in pair
            ]
    docs.append(
        {
            "kind": "round-trackers",
            "id": "round-trackers",
            "trackers": [{"round": r, "entry": r} for r in range(1, 11)],
        }
    )
    storybook = {
        "kind": "storybook",
        "id": "bench-book",
        "wanderer": WANDERER,
        "title": "Bench",
        "introduction": "Generated.",
        "entries": story,
        "endings": endings,
    }
    return storybook, docs


class _Corpus:
    """Just enough of a Corpus for context_for: documents by kind."""

    def __init__(self, docs: list[dict[str, Any]]) -> None:
        self.docs = docs

    def of_kind(self, kind: str) -> list[SourceDocument]:
        return [
            SourceDocument(Path(f"{d['id']}.yaml"), f"{d['id']}.yaml", "", d)
            for d in self.docs
            if d["kind"] == kind
        ]


def prepared(entries: int, *, seed: int = 1) -> tuple[Any, Any]:
    """(Storybook, StoryContext) for a generated storybook."""
    from dmtool.model.storybook import Storybook
    from dmtool.storygraph.context import context_for

    data, docs = generate(entries, seed=seed)
    return Storybook.from_data(data), context_for(_Corpus(docs), WANDERER)


def time_analysis(entries: int, *, repeat: int = 1) -> float:
    """Best CPU time of analysing a generated storybook (generation not counted)."""
    from dmtool.storygraph.analysis import analyse

    storybook, context = prepared(entries)
    # The generated input is not part of the analysis: keep the collector off it, so a
    # 100k-entry input does not make every collection during the analysis ten times dearer.
    gc.collect()
    gc.freeze()
    best = float("inf")
    try:
        for _ in range(repeat):
            began = time.process_time()
            result = analyse(storybook, context)
            best = min(best, time.process_time() - began)
            del result  # freeing the answer is not part of computing it
    finally:
        gc.unfreeze()
    return best


def scaling_ratio(small: int = 10_000, large: int = 100_000) -> tuple[float, float, float]:
    """(seconds at `small`, seconds at `large`, ratio); linear growth gives a ratio near 10."""
    # Best of several: the floor of each size is what the code costs; the rest is the machine.
    a = _time_in_fresh_process(small, repeat=7)
    b = _time_in_fresh_process(large, repeat=3)
    return a, b, b / a


def _time_in_fresh_process(entries: int, *, repeat: int) -> float:
    """time_analysis in a new interpreter: each size starts from the same clean process,
    not from a heap the earlier figures of `make bench` left behind."""
    import subprocess

    code = (f"import sys; sys.path.insert(0, {str(ROOT)!r}); "
            f"from bench.graph_bench import time_analysis; "
            f"print(time_analysis({entries}, repeat={repeat}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout.strip().splitlines()[-1])


# P6 plays this storybook (performance.md's sample), or the first one under content/.
SAMPLE = ROOT / "content" / "wanderers" / "hollis-brandt" / "storybook.yaml"


def _sample() -> Any:
    """The analysis of the project's sample storybook, if any."""
    from dmtool.model.storybook import Storybook
    from dmtool.storygraph.analysis import analyse
    from dmtool.storygraph.context import context_for
    from dmtool.storygraph.loader import load_storybooks

    found = [SAMPLE] if SAMPLE.is_file() else []
    found = found or sorted((ROOT / "content").glob("wanderers/*/storybook.yaml"))
    if not found:
        return None
    corpus, documents, _ = load_storybooks([found[0]])
    if not documents:
        return None
    storybook = Storybook.from_document(documents[0])
    return analyse(storybook, context_for(corpus, storybook.wanderer))


def decisions_per_second(runs: int = 2000, *, repeat: int = 5) -> tuple[float, str]:
    """P6: decisions (test outcomes and choices) resolved per second by random playthroughs
    of the sample storybook (a generated one when there is none), and which was played.
    The best of `repeat` timings of the same seed: each includes compiling the storybook."""
    from dmtool.storygraph.analysis import analyse
    from dmtool.storygraph.playthrough import PlayOptions, play

    analysis = _sample()
    if analysis is None:
        analysis, name = analyse(*prepared(400)), "a generated 400-entry storybook"
    else:
        name = f"sample storybook '{analysis.graph.storybook.id}'"
    sentience = dict(analysis.graph.context.sentience or dict.fromkeys(COLOURS, 1))
    play(analysis, PlayOptions(runs=50, seed=0, sentience=sentience))  # warm dice.py's cache
    best = float("inf")
    for _ in range(repeat):
        began = time.process_time()
        report = play(analysis, PlayOptions(runs=runs, seed=1, sentience=sentience))
        best = min(best, time.process_time() - began)
    return report.decisions / best, name


def calls_in_analysis(entries: int) -> int:
    """Python function calls one analysis makes: a measure of work that no noise moves."""
    import cProfile
    import pstats

    from dmtool.storygraph.analysis import analyse

    storybook, context = prepared(entries)
    profile = cProfile.Profile()
    profile.enable()
    analyse(storybook, context)
    profile.disable()
    return int(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]


def main() -> None:
    small, large, ratio = scaling_ratio()
    print(
        f"P4 in memory, graph analysis alone: 10k entries {small:.3f} s, 100k entries {large:.3f} s, "
        f"ratio {ratio:.1f} (target: at most 12)"
    )
    few, many = calls_in_analysis(10_000), calls_in_analysis(100_000)
    print(
        f"P4 in memory, work counted in Python calls (immune to machine noise): 10k {few:,}, "
        f"100k {many:,}, ratio {many / few:.2f}"
    )
    rate, name = decisions_per_second()
    print(
        f"P6 random playthroughs of the {name}: {rate:,.0f} decisions per second = "
        f"{rate / CHOICESCRIPT_RATE:.1f} x ChoiceScript's randomtest as performance.md measured it "
        f"(about {CHOICESCRIPT_RATE:,} a second; not run here) (target: 1,000,000 a second, "
        f"performance.md's P6)"
    )


if __name__ == "__main__":
    main()
