"""Fixed shapes of Dawn of Madness general content (DM240-DM242): trackers, conditions, dice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus

ROUNDS = 10  # "The wanderer stage is played over 10 game rounds", one tracker each
CONDITION_TYPES = 11  # "There are 11 types of condition cards"
DOMAIN_TYPES = frozenset({"hand", "eye", "brain", "skull", "sphere"})
OTHERWORLD_FACES = 16  # one face per world shard


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    for document in corpus.of_kind("round-trackers"):
        yield from _trackers(document)
    for document in corpus.of_kind("condition-types"):
        yield from _condition_types(document)
    for document in corpus.of_kind("game-rules"):
        yield from _dice(document)


def _trackers(document: SourceDocument) -> Iterator[Diagnostic]:
    trackers = document.data["trackers"]
    rounds = [t["round"] for t in trackers]
    if rounds != list(range(1, ROUNDS + 1)):
        yield diagnose(
            "DM240", document.locate(("trackers",), key=True),
            f"the trackers cover rounds {', '.join(map(str, rounds))}; Dawn of Madness needs exactly one tracker for "
            f"each round 1 to {ROUNDS}, in order")
    seen: dict[int, int] = {}
    for n, tracker in enumerate(trackers):
        first = seen.setdefault(tracker["entry"], n)
        if first != n:
            yield diagnose(
                "DM240", document.locate(("trackers", n, "entry")),
                f"entry {tracker['entry']} is already read in round {trackers[first]['round']}; "
                "each round reads its own event entry",
                related=(document.locate(("trackers", first, "entry")),))


def _condition_types(document: SourceDocument) -> Iterator[Diagnostic]:
    types = document.data["types"]
    if len(types) != CONDITION_TYPES:
        yield diagnose(
            "DM241", document.locate(("types",), key=True),
            f"{len(types)} condition types are listed; Dawn of Madness has {CONDITION_TYPES}")
    for key in ("id", "name"):
        counts = Counter(t[key] for t in types)
        for n, item in enumerate(types):
            if counts[item[key]] > 1 and [t[key] for t in types].index(item[key]) != n:
                yield diagnose("DM241", document.locate(("types", n, key)),
                               f"the condition type {key} '{item[key]}' is used twice; each type "
                               "has its own")


def _dice(document: SourceDocument) -> Iterator[Diagnostic]:
    dice = document.data["sentience_dice"]
    for colour, die in dice["colours"].items():
        faces = die["faces"]
        problems = []
        if len(faces) != dice["sides"]:
            problems.append(f"{len(faces)} faces for a {dice['sides']}-sided die")
        if faces.count(die["favoured"]) != 2:
            shown = faces.count(die["favoured"])
            problems.append(f"the favoured type {die['favoured']} is on {shown} face(s) instead of 2")
        missing = sorted(DOMAIN_TYPES - set(faces))
        if missing:
            problems.append(f"no {', '.join(missing)} face")
        if problems:
            yield diagnose("DM242", document.locate(("sentience_dice", "colours", colour, "faces")),
                           f"the {colour} die is wrong: {'; '.join(problems)}")
    die = document.data["otherworld_die"]
    if die["sides"] != OTHERWORLD_FACES or die["first_face"] != 1:
        yield diagnose(
            "DM242", document.locate(("otherworld_die", "sides")),
            f"the otherworld die must have {OTHERWORLD_FACES} faces numbered from 1, one per "
            "world shard")
