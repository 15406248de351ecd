"""An independent checker of the story analysis's certificates (storygraph.certify).

It reads the content tree's YAML itself (PyYAML, no dmtool model), walks each effect list
into its branches by the rules of the content vocabulary, and judges a condition by
evaluating it at concrete values in the ranges the certificate states. It shares no code
with dmtool.storygraph, so a certificate it accepts is a proof the analysis did not write.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

TERMINALS = ("end", "conclude", "fail_stage")
GROUPS = ("all_wanderers", "central_wanderer")
STAGE: list[int | None] = [1, 10]
ANY: list[int | None] = [1, None]
Root = tuple[Any, list[Any], list[int | None]]
Branch = tuple[tuple[tuple[Any, bool], ...], str, Any, tuple[str, ...], tuple[str, ...]]


class Content:
    """The documents of a content tree that a storybook's graph depends on."""

    def __init__(self, root: Path, book_path: Path) -> None:
        self.docs = [d for p in sorted(root.rglob("*.yaml"))
                     for d in [yaml.safe_load(p.read_text(encoding="utf-8"))]
                     if isinstance(d, dict)]
        self.book = yaml.safe_load(book_path.read_text(encoding="utf-8"))
        who = self.book.get("wanderer")
        self.entries = {e["entry"]: e for e in self.book.get("entries", [])}
        self.endings = {e["ending"]: e for e in self.book.get("endings", [])}
        self.mine = [d for d in self.docs if d.get("wanderer") == who]
        self.cards = {d["id"]: d for d in self.mine
                      if d.get("kind") in ("encounter-card", "finale-encounter-card")}
        # (round, entry) of each tracker: round N's event phase reads its entry.
        self.trackers = [(i.get("round"), i["entry"]) for d in self.docs
                         if d.get("kind") == "round-trackers"
                         for key in ("trackers", "rounds") for i in d.get(key) or []
                         if isinstance(i, dict) and "entry" in i]
        self.has_trackers = any(d.get("kind") == "round-trackers" for d in self.docs)

    def effects(self, node: Any) -> list[Any]:
        if isinstance(node, int):
            return list(self.entries[node].get("effects") or [])
        if node == "setup":
            return list((self.book.get("setup") or {}).get("effects") or [])
        letter, block = node.split(":")
        part = self.endings[letter].get("setup" if block == "setup" else "event_phase") or {}
        return list(part.get("effects") or []) if isinstance(part, dict) else []

    def entrance(self, number: int) -> Any:
        gate = self.entries.get(number, {}).get("entrance")
        return gate.get("when") if isinstance(gate, dict) else None

    def stage_roots(self) -> Iterator[Root]:
        """(node, conditions it needs, rounds it is read in) of every root of the wanderer
        stage: the setup before round 1, a tracker's entry in its round, encounters in any
        of the stage's ten rounds."""
        if self.effects("setup"):
            yield "setup", [], [1, 1]
        if self.has_trackers:
            for number, entry in self.trackers:
                yield entry, [], [number, number] if isinstance(number, int) else STAGE
        else:
            for n, e in self.entries.items():
                if e.get("kind") == "event":
                    yield n, [], STAGE
        for d in self.mine:
            if d.get("kind") == "world-shard" and isinstance(d.get("encounter"), dict):
                yield d["encounter"].get("entry"), [], STAGE
        for card in self.cards.values():
            if card["kind"] == "encounter-card" and isinstance(card.get("spawn"), dict):
                yield card.get("entry"), _card_conditions(card), STAGE

    def finale_roots(self, letter: str) -> Iterator[Root]:
        """The same for ending `letter`'s finale, whose rounds have no last one."""
        yield f"{letter}:setup", [], ANY
        yield f"{letter}:event", [], ANY
        start = self.endings[letter].get("start")
        if start is not None:
            yield start, [], ANY
        for d in self.mine:
            side = d.get("finale") if d.get("kind") == "world-shard" else None
            for enc in (side or {}).get("encounters") or []:
                if isinstance(enc, dict) and enc.get("ending") == letter:
                    yield enc.get("entry"), [], ANY
        for card in self.cards.values():
            if (card["kind"] == "finale-encounter-card" and card.get("ending") == letter
                    and isinstance(card.get("spawn"), dict)):
                yield card.get("entry"), _card_conditions(card), ANY


def _card_conditions(card: dict[str, Any]) -> list[Any]:
    found = []
    for key in ("spawn", "entrance"):
        part = card.get(key)
        if isinstance(part, dict) and isinstance(part.get("when"), dict):
            found.append(part["when"])
    return found


def branches(effects: list[Any]) -> Iterator[Branch]:
    """Every way through an effect list: (conditions with negation, how it ends, the goto's
    target or None, codas gained, cards spawned)."""
    yield from _walk(list(effects), (), (), ())


def _walk(seq: list[Any], conds: tuple[Any, ...], codas: tuple[str, ...],
          spawns: tuple[str, ...]) -> Iterator[Branch]:
    for i, effect in enumerate(seq):
        if not isinstance(effect, dict) or len(effect) != 1:
            continue
        ((name, body),) = effect.items()
        rest = seq[i + 1:]
        if name == "goto":
            yield conds, "goto", body, codas, spawns
            return
        if name in TERMINALS:
            yield conds, name, body, codas, spawns
            return
        if name == "test" and isinstance(body, dict):
            for side in ("pass", "fail"):
                yield from _walk(list(body.get(side) or []) + rest, conds, codas, spawns)
            return
        if name == "choice" and isinstance(body, list):
            for option in body:
                if isinstance(option, dict):
                    when = option.get("when")
                    more = conds + (((when, False),) if when is not None else ())
                    yield from _walk(list(option.get("effects") or []) + rest, more, codas,
                                     spawns)
            return
        if name == "if" and isinstance(body, dict):
            when = body.get("when")
            yes = conds + (((when, False),) if when is not None else ())
            no = conds + (((when, True),) if when is not None else ())
            yield from _walk(list(body.get("then") or []) + rest, yes, codas, spawns)
            yield from _walk(list(body.get("else") or []) + rest, no, codas, spawns)
            return
        if name == "may":
            yield from _walk(list(body or []) + rest, conds, codas, spawns)
            yield from _walk(rest, conds, codas, spawns)
            return
        if name in GROUPS:
            yield from _walk(list(body or []) + rest, conds, codas, spawns)
            return
        if name == "gain_coda":
            codas += (body,)
        elif name == "spawn_encounter" and isinstance(body, dict):
            spawns += (body.get("card"),)
    yield conds, "open", None, codas, spawns


class Ranges:
    """What a certificate says can hold: quantity ranges (None: no bound), codas, entries."""

    def __init__(self, ranges: dict[str, list[int | None]], codas: set[str] | None,
                 visited: set[int] | None, rounds: dict[str, list[int | None]] | None = None,
                 floors: dict[str, int] | None = None, ending_of: dict[str, str] | None = None,
                 must: dict[str, dict[str, list[Any]]] | None = None,
                 held: frozenset[str] = frozenset(), seen: frozenset[int] = frozenset(),
                 ) -> None:
        self.ranges, self.codas, self.visited = ranges, codas, visited
        self.rounds, self.floors, self.ending_of = rounds or {}, floors or {}, ending_of or {}
        self.must = must or {}
        self.held, self.seen = held, seen
        self.fixed: dict[str, bool] = {}  # flags a certificate's premises settle

    def knows(self, node: Any) -> tuple[frozenset[str], frozenset[int]]:
        found = self.must.get(str(node), {})
        return frozenset(found.get("codas", ())), frozenset(found.get("entries", ()))

    def of(self, node: Any) -> Ranges:
        """The ranges where `node` is read: its own rounds, and in an ending's own finale
        that ending's least points."""
        held, seen = self.knows(node)
        found = Ranges(self.ranges, self.codas, self.visited, self.rounds, self.floors,
                       self.ending_of, self.must, held, seen)
        letter = self.ending_of.get(str(node))
        if letter in self.floors:
            high = self.ranges.get(f"score {letter}", [0, None])[1]
            found = found.replaced(f"score {letter}", [self.floors[letter], high])
        span = self.rounds.get(str(node))
        return found if span is None else found.within(span)

    def replaced(self, quantity: str, span: list[int | None]) -> Ranges:
        return Ranges({**self.ranges, quantity: span}, self.codas, self.visited, self.rounds,
                      self.floors, self.ending_of, self.must, self.held, self.seen)

    def reading(self, content: Content, node: Any) -> Ranges:
        """ranges.of(node), without the reader's cards where the reader may change (a group)
        or be another later (a trap)."""
        here = self.of(node)
        if named(content.effects(node), ("all_wanderers", "central_wanderer", "trap")):
            here = Ranges(here.ranges, here.codas, here.visited, here.rounds, here.floors,
                          here.ending_of, here.must, frozenset(), here.seen)
        return here

    def within(self, span: list[int | None]) -> Ranges:
        return self.replaced("round", span)

    def span(self, node: Any) -> list[int | None]:
        return self.rounds.get(str(node), ANY)

    def values(self, quantity: str, thresholds: list[int]) -> list[int]:
        low, high = self.ranges.get(quantity, [None, None])
        if quantity == "wanderers":
            low, high = 1, 4
        low = -100 if low is None else low
        top = max([low, *thresholds]) + 1
        high = top if high is None else high
        picks = {low, high, *(t for t in thresholds), *(t - 1 for t in thresholds)}
        return sorted(v for v in picks if low <= v <= high) or [low]

    def flag(self, key: str) -> list[bool]:
        name, _, value = key.partition(" ")
        if name == "has_coda" and self.codas is not None and value not in self.codas:
            return [False]
        if name == "visited" and self.visited is not None and int(value) not in self.visited:
            return [False]
        if key in self.fixed:
            return [self.fixed[key]]
        if name == "has_coda" and value in self.held:
            return [True]
        if name == "visited" and int(value) in self.seen:
            return [True]
        return [False, True]


# Flags a condition asks to be set (true) or not (false): one flag either way.
YES_NO = ("trapped", "is_central")
_BOUNDS = {"round_at_least": "round", "round_at_most": "round", "score_at_least": "score",
           "sentience_at_least": "sentience", "wanderers_at_least": "wanderers",
           "existence_at_least": "existence", "wounds_at_least": "wounds"}


def _reads(condition: Any, quantities: dict[str, list[int]], flags: set[str]) -> None:
    if not isinstance(condition, dict) or len(condition) != 1:
        flags.add(json.dumps(condition, sort_keys=True, default=str))
        return
    ((name, value),) = condition.items()
    if name in ("all", "any") and isinstance(value, list):
        for part in value:
            _reads(part, quantities, flags)
    elif name == "not":
        _reads(value, quantities, flags)
    elif name in _BOUNDS and isinstance(value, dict):
        for key, n in value.items():
            quantities.setdefault(f"{_BOUNDS[name]} {key}", []).append(n)
    elif name in _BOUNDS:
        shift = 1 if name == "round_at_most" else 0
        quantities.setdefault(_BOUNDS[name], []).append(value + shift)
    elif name in YES_NO and isinstance(value, bool):
        flags.add(name)
    else:
        flags.add(f"{name} {value}" if isinstance(value, str | int) else
                  json.dumps(condition, sort_keys=True, default=str))


def _value(condition: Any, at: dict[str, Any]) -> bool:
    if not isinstance(condition, dict) or len(condition) != 1:
        return at[json.dumps(condition, sort_keys=True, default=str)]  # type: ignore[no-any-return]
    ((name, value),) = condition.items()
    if name == "all" and isinstance(value, list):
        return all(_value(p, at) for p in value)
    if name == "any" and isinstance(value, list):
        return any(_value(p, at) for p in value)
    if name == "not":
        return not _value(value, at)
    if name == "round_at_most":
        return at["round"] <= value  # type: ignore[no-any-return]
    if name in _BOUNDS and isinstance(value, dict):
        return all(at[f"{_BOUNDS[name]} {k}"] >= n for k, n in value.items())
    if name in _BOUNDS:
        return at[_BOUNDS[name]] >= value  # type: ignore[no-any-return]
    if name in YES_NO and isinstance(value, bool):
        return at[name] is value
    key = (f"{name} {value}" if isinstance(value, str | int) else
           json.dumps(condition, sort_keys=True, default=str))
    return at[key]  # type: ignore[no-any-return]


def outcomes(condition: Any, ranges: Ranges) -> set[bool]:
    """The values the condition takes at every combination of values the ranges allow
    (both values when there are too many combinations to try)."""
    quantities: dict[str, list[int]] = {}
    flags: set[str] = set()
    _reads(condition, quantities, flags)
    axes = [(q, ranges.values(q, t)) for q, t in quantities.items()]
    axes += [(f, ranges.flag(f)) for f in sorted(flags)]
    size = 1
    for _, values in axes:
        size *= len(values)
    if size > 20000:
        return {False, True}
    found: set[bool] = set()
    for combo in itertools.product(*(values for _, values in axes)):
        found.add(_value(condition, dict(zip([name for name, _ in axes], combo))))
        if len(found) == 2:
            break
    return found


def taken(conds: tuple[Any, ...], ranges: Ranges) -> bool:
    """Whether a branch with these conditions may be taken: they can all hold at once."""
    if not conds:
        return True
    together = {"all": [{"not": c} if negated else c for c, negated in conds]}
    return True in outcomes(together, ranges)


# The least goal of the four scores together (DoM: 40, or 30 for a quicker game), and so
# the least points of the leading ending, whose finale is played.
LEAST_GOAL = 30
FLOOR = -(-LEAST_GOAL // 4)


def named(effects: Any, names: tuple[str, ...]) -> list[Any]:
    """The bodies of every effect with one of these names written anywhere in effects."""
    found = []
    stack = [effects]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found += [item[n] for n in names if n in item and len(item) == 1]
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def check_knowledge(content: Content, members: set[Any], roots: list[Root], ranges: Ranges,
                    stage: set[Any]) -> list[str]:
    """The premises of what every way to a node surely did: nothing is known at a root, and
    along each branch a node knows at most what its source knew, with the codas the branch
    awards (read in the wanderer stage, by the reader: not inside a group) and without
    those the node gives back, and with the source read."""
    problems = []
    for node, _, _ in roots:
        if node in members and any(ranges.knows(node)):
            problems.append(f"root {node} is said to know {ranges.knows(node)}")
    for node in members:
        if isinstance(node, int) and node not in content.entries:
            continue
        effects = content.effects(node)
        grouped = bool(named(effects, ("all_wanderers", "central_wanderer", "trap")))
        lost = set(named(effects, ("lose_coda",)))
        held, seen = ranges.knows(node)
        held = frozenset() if grouped else held
        here = ranges.reading(content, node)
        for conds, kind, target, codas, spawns in branches(effects):
            if not taken(conds, here):
                continue
            won = set() if grouped or node not in stage else set(codas)
            may_hold = (held | won) - lost
            may_see = seen | {node}
            targets = [target] if kind == "goto" else []
            targets += [content.cards.get(c, {}).get("entry") for c in spawns]
            for i, after in enumerate(targets):
                if after not in members:
                    continue
                has, read = ranges.knows(after)
                if not read <= may_see or not has <= (may_hold if i == 0 and targets[0] ==
                                                      target and kind == "goto" else set()):
                    problems.append(f"{after} is said to know {(has, read)}, more than "
                                    f"{node} gives it")
    return problems


def lowers(effects: Any, letter: str) -> bool:
    """Whether any score effect written anywhere in these effects takes points from the
    ending."""
    if isinstance(effects, list):
        return any(lowers(e, letter) for e in effects)
    if isinstance(effects, dict):
        score = effects.get("score")
        if isinstance(score, dict) and isinstance(score.get(letter), int) and score[letter] < 0:
            return True
        return any(lowers(v, letter) for v in effects.values())
    return False


def check_floors(content: Content, closure: dict[str, Any]) -> list[str]:
    """The premises of each finale floor: the floor follows from the goal, the ending's
    finale never takes its points, and a node said to be read only in that finale is read
    nowhere else."""
    problems = []
    for letter, floor in closure["floors"].items():
        if floor > FLOOR:
            problems.append(f"ending {letter}'s floor {floor} is above {FLOOR}")
        finale = set(closure["finale"][letter]) | {f"{letter}:setup", f"{letter}:event"}
        if any(lowers(content.effects(n), letter) for n in finale
               if not isinstance(n, int) or n in content.entries):
            problems.append(f"ending {letter}'s finale can take its points")
    for node, letter in closure["ending_of"].items():
        others = set(closure["stage"]) | {n for e, f in closure["finale"].items()
                                          if e != letter for n in f}
        if node in {str(n) for n in others}:
            problems.append(f"{node} is read outside ending {letter}'s finale")
    return problems


def _within(inner: list[int | None], outer: list[int | None]) -> bool:
    low, high = inner
    top = float("inf") if high is None else high
    out_top = float("inf") if outer[1] is None else outer[1]
    return (outer[0] or 1) <= (low or 1) and top <= out_top


def check_closure(content: Content, members: set[Any], roots: list[Root],
                  ranges: Ranges, *, awards: bool = True) -> list[str]:
    """What breaks the claim that `members` hold everything the roots lead to (and, with
    `awards`, every coda their branches award: only the wanderer stage's awards count,
    since the finale's setup removes the coda cards nobody obtained), and that each node's
    rounds hold those of everything that leads to it."""
    problems = []

    def enterable(number: Any, where: Ranges) -> bool:
        gate = content.entrance(number) if isinstance(number, int) else None
        return gate is None or True in outcomes(gate, where)

    for node, conditions, span in roots:
        if isinstance(node, int) and node not in content.entries:
            continue
        where = ranges.within(span)
        if not (enterable(node, where) and all(True in outcomes(c, where) for c in conditions)):
            continue
        if node not in members:
            problems.append(f"root {node} can enter play but is not in the closure")
        elif not _within(span, ranges.span(node)):
            problems.append(f"root {node} is read in rounds {span}, outside {ranges.span(node)}")
    for node in members:
        if isinstance(node, int) and node not in content.entries:
            continue
        here = ranges.reading(content, node)
        span = ranges.span(node)
        for conds, kind, target, codas, spawns in branches(content.effects(node)):
            if not taken(conds, here):
                continue
            if kind == "goto" and target in content.entries and enterable(target, here):
                if target not in members:
                    problems.append(f"{node} leads to {target}, outside the closure")
                elif not _within(span, ranges.span(target)):
                    problems.append(f"{node} (rounds {span}) leads to {target} "
                                    f"(rounds {ranges.span(target)})")
            for coda in codas if awards else ():
                if ranges.codas is not None and coda not in ranges.codas:
                    problems.append(f"{node} awards coda {coda}, not among the closure's")
            later = [span[0], 10 if span[1] is not None and span[1] <= 10 else None]
            there = ranges.within(later)
            for card in spawns:
                found = content.cards.get(card, {})
                entry = found.get("entry")
                gate = found.get("entrance")
                gates = [gate["when"]] if isinstance(gate, dict) and "when" in gate else []
                if (entry in content.entries and enterable(entry, there)
                        and all(True in outcomes(g, there) for g in gates)):
                    if entry not in members:
                        problems.append(f"{node} spawns the card of entry {entry}, outside")
                    elif not _within(later, ranges.span(entry)):
                        problems.append(f"{node} spawns entry {entry} in rounds {later}, "
                                        f"outside {ranges.span(entry)}")
    return problems
