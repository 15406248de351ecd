"""Causes of each outcome, from what the games met on the way (summary.GameSummary.features):
for every failure, ending and conclusion, the entries read, storybook tests passed or failed,
cards, codas and monsters after which the outcome came more often than without them; the
first round where the games bound for an outcome part from the others; and the associations
a rule makes by definition, left out with the rule named once.

Each cause is a difference of two rates (the outcome among the games that met the feature,
and among those that did not), with Newcombe's interval and a two-proportion test,
Holm-corrected over an outcome's features. It is association, not proof: a feature only a
long game meets goes with the outcomes long games have.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from dmtool.balance.stats import holm, newcombe, two_proportions, wilson
from dmtool.balance.tally import FINALE, Tally

LANDMARK = 0.05  # the share of a feature's games met by its landmark round
MIN_GAMES = 10  # each side (with, without) needs this many games to be compared
SHOWN = 8  # causes listed per outcome
SIGNIFICANT = 0.05
DEATH_RULE = ("a wanderer's death spawns one of their malformations (and gives a Withered "
              "card): a game that met one only that way is weighed on neither side of it, "
              "since there it stands for the death itself")
CLOCK_RULE = ("met by every game still playing in round {round}: it tells only how long a "
              "game lasted, so it is left out of every outcome's causes")
EVERY_GAME_RULE = ("met by every game: it cannot tell one outcome from another, so it is left "
                   "out of every outcome's causes")
FAIL_STAGE_RULE = ("the storybook's fail_stage at entry {entry} ends the game there: reading "
                   "that entry is this outcome")


def _r(value: float) -> float:
    return round(value, 6)


def side(count: int, games: int) -> dict[str, Any]:
    low, high = wilson(count, games)
    return {"games": games, "count": count, "rate": _r(count / games if games else 0.0),
            "ci": [_r(low), _r(high)]}


def effect(k1: int, n1: int, k2: int, n2: int) -> dict[str, Any]:
    """The outcome among n1 games with a feature (k1 of them) against n2 without (k2)."""
    low, high = newcombe(k1, n1, k2, n2)
    return {"with": side(k1, n1), "without": side(k2, n2),
            "difference": _r(k1 / n1 - k2 / n2), "difference_ci": [_r(low), _r(high)],
            "p": two_proportions(k1, n1, k2, n2)}


def level(name: str) -> int:
    """0: the finale or a failure; 1: an ending; 2: a conclusion (within its ending)."""
    if name == FINALE or not name.startswith("ending"):
        return 0
    return 2 if "conclusion" in name else 1


def _titles(entries: Mapping[int, Mapping[str, Any]], feature: str) -> str:
    """The entry's title for 'entry N' and 'test at entry N (...)' features."""
    words = feature.removeprefix("test at ").split()
    if len(words) >= 2 and words[0] == "entry" and words[1].isdigit():
        return str(entries.get(int(words[1]), {}).get("title", ""))
    return ""


def _definitional(feature: str, outcome: str) -> str | None:
    """The rule that makes `feature` go with `outcome` by definition, if one does."""
    if outcome.startswith("failed: storybook entry "):
        entry = outcome.rsplit(" ", 1)[1]
        if feature == f"entry {entry}":
            return FAIL_STAGE_RULE.format(entry=entry)
    return None


class Features:
    """The features' game counts, summed over the round each was first met; the first round
    any game met each; and the games still playing at the start of each round."""

    def __init__(self, tally: Tally) -> None:
        self.games: Counter[str] = Counter()
        self.outcomes: Counter[tuple[str, str]] = Counter()
        self.earliest: dict[str, int] = {}
        for (feature, first), count in tally.feature_rounds.items():
            self.games[feature] += count
            self.earliest[feature] = min(first, self.earliest.get(feature, first))
        self.playing: Counter[int] = Counter()  # games that lasted at least r rounds
        self.playing_outcomes: Counter[tuple[int, str]] = Counter()
        for (length, outcome), count in tally.length_outcomes.items():
            for number in range(1, length + 1):
                self.playing_outcomes[(number, outcome)] += count
        for length, count in tally.rounds.items():
            for number in range(1, length + 1):
                self.playing[number] += count
        for (feature, _first, outcome), count in tally.feature_outcomes.items():
            self.outcomes[(feature, outcome)] += count
        # Met only as a death's consequence in some game (not counted there).
        self.by_death = sorted(tally.by_death)
        self.clocks = self._clocks(tally)
        self.typical = self._landmarks(tally)
        # The games with each feature that lasted to its landmark round, and their outcomes.
        self.lasting: Counter[str] = Counter()
        self.lasting_outcomes: Counter[tuple[str, str]] = Counter()
        for (feature, length), count in tally.feature_lengths.items():
            if length >= self.typical[feature]:
                self.lasting[feature] += count
        for (feature, length, outcome), count in tally.feature_length_outcomes.items():
            if length >= self.typical[feature]:
                self.lasting_outcomes[(feature, outcome)] += count
        self.death_lengths = tally.death_lengths
        self.spawned = frozenset(tally.by_death)
        self.death_length_outcomes = tally.death_length_outcomes

    def by_death_from(self, feature: str, first: int, outcome: str | None = None) -> int:
        """The games still playing in round `first` that met `feature` only by a death (of
        `outcome`, when given): left out of that feature's comparison on both sides."""
        if feature not in self.spawned:  # most features: no death ever spawned them
            return 0
        if outcome is None:
            return sum(n for (f, length), n in self.death_lengths.items()
                       if f == feature and length >= first)
        return sum(n for (f, length, o), n in self.death_length_outcomes.items()
                   if f == feature and o == outcome and length >= first)

    @staticmethod
    def _landmarks(tally: Tally) -> dict[str, int]:
        """The round from which games meet each feature: the first round by which LANDMARK
        of the games that met it had met it (an outlier met early does not count)."""
        firsts: dict[str, list[tuple[int, int]]] = {}
        for (feature, first), count in sorted(tally.feature_rounds.items()):
            firsts.setdefault(feature, []).append((first, count))
        typical = {}
        for feature, counts in firsts.items():
            share, seen = sum(c for _, c in counts) * LANDMARK, 0
            for first, count in counts:
                seen += count
                if seen >= share:
                    typical[feature] = first
                    break
        return typical

    def _clocks(self, tally: Tally) -> dict[str, int]:
        """Features every game still playing in some round R met (an event entry read at
        the start of round R, a monster it spawns): by the first such R."""
        lasting: dict[str, Counter[int]] = {}
        for (feature, length), count in tally.feature_lengths.items():
            lasting.setdefault(feature, Counter())[length] += count
        clocks = {}
        last = max(self.playing, default=0)
        for feature, lengths in lasting.items():
            met = 0
            for number in range(last, 0, -1):  # met by the games that lasted >= number
                met += lengths[number]
                if met == self.playing[number] and met >= MIN_GAMES:
                    clocks[feature] = number
        return clocks


def _population(features: Features, feature: str,
                outcome: str) -> tuple[int, int, int, int, str]:
    """(with count, with games, without count, without games, among) for one pair: every
    game that met the feature, against the games still playing in its landmark round that
    never met it. An entry read only from round 9 on is weighed against the games that
    lasted nine rounds, not against games that ended before it could be read (which would
    make it 'cause' long games); a test that kills at once keeps every game it killed. A
    conclusion is weighed among its ending's games (only they could reach it)."""
    first = features.typical[feature]
    total = features.playing_outcomes[(first, outcome)]
    if level(outcome) == 2:
        ending = outcome.split(",")[0]
        base = features.playing_outcomes[(first, ending)]
        lasting = features.lasting_outcomes[(feature, ending)]
        with_games = features.outcomes[(feature, ending)]
        among = f"games that reached {ending}"
    else:
        base, lasting = features.playing[first], features.lasting[feature]
        with_games, among = features.games[feature], "games"
    among = f"{among} still playing in round {first}" if first > 1 else f"all {among}"
    with_count = features.outcomes[(feature, outcome)]
    without_count = (total - features.lasting_outcomes[(feature, outcome)]
                     - features.by_death_from(feature, first, outcome))
    base -= features.by_death_from(feature, first,
                                   outcome.split(",")[0] if level(outcome) == 2 else None)
    return with_count, with_games, without_count, base - lasting, among


def _causes_of(tally: Tally, features: Features, outcome: str,
               entries: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    rows, left_out = [], []
    skip = set(features.clocks)
    for feature in sorted(features.games):
        if feature in skip:
            continue
        k1, n1, k2, n2, among = _population(features, feature, outcome)
        if n1 < MIN_GAMES or n2 < MIN_GAMES:
            continue
        rule = _definitional(feature, outcome)
        if rule is not None:
            left_out.append({"feature": feature, "rule": rule})
            continue
        rows.append({"feature": feature, "title": _titles(entries, feature), "among": among,
                     **effect(k1, n1, k2, n2)})
    for row, adjusted in zip(rows, holm([r["p"] for r in rows])):
        row["p_holm"] = adjusted
    # Each kept cause's own interval excludes no effect; `sure` says it stays so after
    # Holm's correction over all the outcome's features (a lead is worth a look; a sure
    # cause is worth acting on).
    kept = [r | {"sure": r["p_holm"] < SIGNIFICANT} for r in rows if r["difference_ci"][0] > 0]
    # The surest large effects first: ranked by how large the effect is at least.
    kept.sort(key=lambda r: (-r["difference_ci"][0], r["p"], r["feature"]))
    return {"outcome": outcome, "level": level(outcome),
            "games": tally.outcomes.get(outcome, 0), "causes": _same_games(kept)[:SHOWN],
            "left_out": left_out,
            "diverges": diverges(tally, features, outcome, skip) if level(outcome) < 2 else None}



def _same_games(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row for features met in exactly the same counts (an encounter card and the entry
    it opens): the first, naming the others as `same`."""
    out: list[dict[str, Any]] = []
    seen: dict[tuple[Any, ...], dict[str, Any]] = {}
    for row in rows:
        key = (row["with"]["games"], row["with"]["count"], row["without"]["games"],
               row["without"]["count"])
        if key in seen:
            seen[key]["same"].append(row["feature"])
            continue
        seen[key] = row
        out.append(row | {"same": []})
        seen[key] = out[-1]
    return out


def diverges(tally: Tally, features: Features, outcome: str,
             skip: set[str]) -> dict[str, Any] | None:
    """The first wanderer-stage round by whose end the games bound for `outcome` part from
    the others: some feature met by then makes the outcome surely more likely than in the
    games still playing without it (Holm over every feature and round). None when no round
    does."""
    rounds = sorted({first for _, first in tally.feature_rounds})
    met: dict[str, Counter[int]] = {}
    hits: dict[str, Counter[int]] = {}
    for (feature, first), count in tally.feature_rounds.items():
        met.setdefault(feature, Counter())[first] += count
    for (feature, first, name), count in tally.feature_outcomes.items():
        if name == outcome:
            hits.setdefault(feature, Counter())[first] += count
    rows = []
    for feature in sorted(set(met) - skip):
        earliest = features.earliest[feature]
        playing = (features.playing[earliest]
                   - features.by_death_from(feature, earliest))
        total = (features.playing_outcomes[(earliest, outcome)]
                 - features.by_death_from(feature, earliest, outcome))
        n1 = k1 = 0
        for number in rounds:
            n1 += met[feature][number]
            k1 += hits.get(feature, Counter())[number]
            n2 = playing - n1
            if n1 >= MIN_GAMES and n2 >= MIN_GAMES and k1 / n1 > (total - k1) / n2:
                rows.append((number, feature, k1, n1, total - k1, n2,
                             two_proportions(k1, n1, total - k1, n2)))
    adjusted = holm([row[-1] for row in rows])
    sure = [row for row, p in zip(rows, adjusted) if p < SIGNIFICANT]
    if not sure:
        return None
    first = min(row[0] for row in sure)
    best = max((row for row in sure if row[0] == first),
               key=lambda row: (newcombe(*row[2:6])[0], row[1]))
    return {"round": first, "feature": best[1], **effect(*best[2:6])}


def causes(tally: Tally, entries: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    """Every outcome's causes, and the rules whose consequences were left out."""
    features = Features(tally)
    rules = ([{"rule": DEATH_RULE, "features": features.by_death}]
             if features.by_death else [])
    for number in sorted(set(features.clocks.values())):
        rules.append({"rule": CLOCK_RULE.format(round=number) if number > 1 else EVERY_GAME_RULE,
                      "features": sorted(f for f, r in features.clocks.items() if r == number)})
    names = sorted(tally.outcomes, key=lambda n: (level(n), -tally.outcomes[n], n))
    return {"outcomes": [_causes_of(tally, features, name, entries) for name in names],
            "rules": rules}
