"""The game state a witness path's conditions need, as a scenario fixture's setup.

A witness reaches its place through branches whose conditions the analysis found can hold
(something elsewhere in the game awards the coda, kills the monster, places the token).
To replay the path alone, the fixture starts from a state where they do hold: each
condition along the path is asked to come out as the path needs it, and the facts that
make it so are written into the setup (a coda held, an entry read, a monster killed, a
token on a shard, the round, the scores, sentience). What a fresh state already gives (no
token, nothing killed, nothing read) needs nothing. A condition the setup cannot make true
this way, or two that contradict each other, leave the path unscripted (None), with why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dmtool.model.storybook import ENDINGS

# Where the replayed wanderer stands: a shard named "current" by a condition is this one.
HOME_SHARD = 1


@dataclass
class Needs:
    codas: set[str] = field(default_factory=set)
    visited: set[int] = field(default_factory=set)
    killed: set[str] = field(default_factory=set)
    tokens: dict[int, set[str]] = field(default_factory=dict)
    scores: dict[str, int] = field(default_factory=dict)
    sentience: dict[str, int] = field(default_factory=dict)
    rounds: tuple[int, int] = (1, 1 << 30)
    trapped: bool | None = None
    # What must stay false (checked against what the others add).
    absent: set[tuple[str, str]] = field(default_factory=set)
    why_not: str | None = None

    def copy(self) -> Needs:
        return Needs(set(self.codas), set(self.visited), set(self.killed),
                     {k: set(v) for k, v in self.tokens.items()}, dict(self.scores),
                     dict(self.sentience), self.rounds, self.trapped, set(self.absent),
                     self.why_not)

    def consistent(self) -> bool:
        if self.why_not is not None or self.rounds[0] > self.rounds[1]:
            return False
        present = ({("has_coda", c) for c in self.codas} | {("visited", str(v)) for v in
                   self.visited} | {("monster_killed", k) for k in self.killed}
                   | {("token", f"{s}:{t}") for s, ts in self.tokens.items() for t in ts})
        return not present & self.absent

    def setup(self) -> dict[str, Any]:
        """The setup keys (the wanderer's own under 'wanderer')."""
        out: dict[str, Any] = {}
        if self.rounds[0] > 1:
            out["round"] = self.rounds[0]
        if self.scores:
            out["scores"] = {e: self.scores[e] for e in ENDINGS if e in self.scores}
        if self.visited:
            out["visited"] = sorted(self.visited)
        if self.killed:
            out["killed"] = sorted(self.killed)
        if self.tokens:
            out["shards"] = {s: {"tokens": dict.fromkeys(sorted(ts), 1)}
                             for s, ts in sorted(self.tokens.items())}
        wanderer: dict[str, Any] = {}
        if self.codas:
            wanderer["codas"] = sorted(self.codas)
        if self.trapped:
            wanderer["trapped"] = {"shard": HOME_SHARD}
        if self.sentience:
            wanderer["sentience"] = dict(self.sentience)
        if wanderer:
            out["wanderer"] = wanderer
        return out


def needs_of(conditions: Iterable[tuple[Mapping[str, Any], bool]],
             sentience: Mapping[str, int]) -> Needs:
    """What makes each (condition, negated) come out as the path needs (true, or false
    when negated); `sentience` is the wanderer's start."""
    needs = Needs(sentience=dict(sentience))
    start = dict(sentience)
    for condition, negated in conditions:
        found = _want(condition, not negated, needs)
        if found is None:
            why = needs.why_not or f"no setup makes {dict(condition)} come out {not negated}"
            return Needs(why_not=why)
        needs = found
    if needs.sentience == start:
        needs.sentience = {}
    return needs


def _want(condition: Any, value: bool, needs: Needs) -> Needs | None:
    if not isinstance(condition, Mapping) or len(condition) != 1:
        return None
    [(name, arg)] = condition.items()
    if name == "not":
        return _want(arg, not value, needs)
    if name in ("all", "any") and isinstance(arg, list):
        every = (name == "all") == value  # all true, or any false: every part must
        if every:
            for part in arg:
                found = _want(part, value, needs)
                if found is None:
                    return None
                needs = found
            return needs
        for part in arg:  # one part is enough: the first that fits with the rest
            found = _want(part, value, needs.copy())
            if found is not None and found.consistent():
                return found
        return None
    found = _atom(name, arg, value, needs.copy())
    return found if found is not None and found.consistent() else None


def _atom(name: str, arg: Any, value: bool, needs: Needs) -> Needs | None:
    low, high = needs.rounds
    if name == "round_at_least" and isinstance(arg, int):
        needs.rounds = (max(low, arg), high) if value else (low, min(high, arg - 1))
    elif name == "round_at_most" and isinstance(arg, int):
        needs.rounds = (low, min(high, arg)) if value else (max(low, arg + 1), high)
    elif name in ("has_coda", "visited", "monster_killed"):
        store: set[Any] = {"has_coda": needs.codas, "visited": needs.visited,
                           "monster_killed": needs.killed}[name]
        if value:
            store.add(arg)
        else:
            needs.absent.add((name, str(arg)))
    elif name == "token_on_shard" and isinstance(arg, Mapping):
        shard = arg.get("shard", "current")
        shard = HOME_SHARD if shard == "current" else shard
        if not isinstance(shard, int) or not isinstance(arg.get("token"), str):
            return None
        if value:
            needs.tokens.setdefault(shard, set()).add(arg["token"])
        else:
            needs.absent.add(("token", f"{shard}:{arg['token']}"))
    elif name == "score_at_least" and isinstance(arg, Mapping):
        if value:
            for ending, n in arg.items():
                needs.scores[str(ending)] = max(needs.scores.get(str(ending), 0), int(n))
        elif all(needs.scores.get(str(e), 0) >= int(n) for e, n in arg.items()):
            return None
    elif name == "sentience_at_least" and isinstance(arg, Mapping):
        if value:
            for colour, n in arg.items():
                needs.sentience[str(colour)] = max(needs.sentience.get(str(colour), 0), int(n))
        elif all(needs.sentience.get(str(c), 0) >= int(n) for c, n in arg.items()):
            return None
    elif name == "trapped" and isinstance(arg, bool):
        wanted = arg == value
        if needs.trapped is not None and needs.trapped != wanted:
            return None
        needs.trapped = wanted
    elif name == "is_central" and isinstance(arg, bool):
        return needs if arg == value else None  # the replayed wanderer is the central one
    elif name == "wanderers_at_least" and isinstance(arg, int):
        return needs if (arg <= 1) == value else None  # one wanderer replays the path
    else:
        needs.why_not = f"the setup of '{name}' is not written by the replay"
        return None
    return needs
