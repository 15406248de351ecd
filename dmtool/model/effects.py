"""The walker over effect trees: every way of reading an effect list, as branches.

A branch runs from the first effect to an exit, with the decisions taken on the way (test
outcomes, choice options, sides of an `if`, taking or skipping a `may`) and the plain
effects resolved in between. A branch that runs off the end of the list without a `goto`
or a terminal has an "open" exit. Branching effects whose sides do not exit fall through
to the effects written after them, as a reader would. The graph analyses, the odds and
the engine all read effects through this one walker (re-exported by model.storybook).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, NamedTuple

Parts = tuple[str | int, ...]

# Effects that end the reading of the storybook for now (the graph's terminals).
TERMINALS = frozenset({"end", "conclude", "fail_stage"})
# Effects that only group other effects; the walker reads their bodies in place.
GROUPS = frozenset({"all_wanderers", "central_wanderer"})
# Effects with sides: each side is a separate branch.
BRANCHING = frozenset({"test", "choice", "if", "may"})


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


class Step(NamedTuple):
    """A decision on a branch.

    kind: pass | fail (a test's outcome), option (a choice's option), then | else (the sides
    of an `if`), take | skip (a `may`). `parts` is where that side is written (the effect
    itself when the side is missing); `condition` is what must hold to take this side
    (`negated` for an `else`).
    """

    kind: str
    parts: Parts
    effect_parts: Parts
    body: Any
    label: str
    index: int = -1
    condition: Mapping[str, Any] | None = None
    negated: bool = False


class Leaf(NamedTuple):
    """A plain (non-branching, non-exiting) effect resolved on a branch."""

    name: str
    value: Any
    parts: Parts


class Exit(NamedTuple):
    """How a branch ends: goto | end | conclude | fail_stage, or open (it just runs out)."""

    kind: str
    value: Any
    parts: Parts

    @property
    def is_terminal(self) -> bool:
        return self.kind in TERMINALS


class Branch(NamedTuple):
    events: tuple[Step | Leaf, ...]
    exit: Exit

    @property
    def steps(self) -> tuple[Step, ...]:
        return tuple(e for e in self.events if isinstance(e, Step))

    @property
    def leaves(self) -> tuple[Leaf, ...]:
        return tuple(e for e in self.events if isinstance(e, Leaf))


def single(effect: Any) -> tuple[str, Any] | None:
    """(name, body) of a one-key effect mapping; None for anything else."""
    if type(effect) is dict and len(effect) == 1:
        for item in effect.items():
            return item
    return None


_Frame = tuple[Sequence[Any], Parts, int]
# What the walker does with an effect, by name (one look-up per effect); any other name
# is a plain effect.
_ROLES = {
    "goto": "exit",
    **dict.fromkeys(TERMINALS, "exit"),
    **dict.fromkeys(BRANCHING, "branching"),
    **dict.fromkeys(GROUPS, "group"),
}


def iter_branches(effects: Sequence[Any], parts: Parts) -> Iterator[Branch]:
    """Every branch of an effect list, depth first, pass before fail, options in order.

    The count can grow with the product of sequential branching effects; callers that must
    stay bounded stop consuming (see storygraph's limit).
    """
    yield from _walk(((effects, parts, 0),), ())


def _walk(frames: tuple[_Frame, ...], events: tuple[Step | Leaf, ...]) -> Iterator[Branch]:
    while frames:
        seq, seq_parts, index = frames[-1]
        if index >= len(seq):
            frames = frames[:-1]
            continue
        effect = seq[index]
        frames = frames[:-1] + ((seq, seq_parts, index + 1),)
        if type(effect) is not dict or len(effect) != 1:
            continue
        ((name, body),) = effect.items()
        here = seq_parts + (index,)
        if name == "goto" or name in TERMINALS:
            yield Branch(events, Exit(name, body, here + (name,)))
            return
        if name in BRANCHING:
            sides = _sides(name, body, here)
            if sides is not None:
                for step, sub, sub_parts in sides:
                    yield from _walk(frames + ((sub, sub_parts, 0),), events + (step,))
                return
        if name in GROUPS:
            frames = frames + ((_list(body), here + (name,), 0),)
            continue
        events = events + (Leaf(name, body, here + (name,)),)
    last = next((e for e in reversed(events) if type(e) is Step), None)
    yield Branch(events, Exit("open", None, last.parts if last is not None else ()))


def first_branches(effects: Sequence[Any], parts: Parts, limit: int) -> list[Branch]:
    """The first `limit` branches of iter_branches(effects, parts), in the same order."""
    return walk_branches(effects, parts, limit)[0]


def walk_branches(effects: Sequence[Any], parts: Parts, limit: int) -> tuple[list[Branch], bool]:
    """(first_branches, whether dead_effects(effects, parts) may find anything).

    Hot path: the story graph walks every entry of every storybook once per check. One
    plain loop per side, appending to a list, costs a third of the nested generators (and
    of their frame tuples, rebuilt for every effect). The walk reads every list that
    dead_effects reads, except those written after an effect that always exits; so a walk
    that meets no such effect before the end of its list, and is not cut short, tells
    that there is no dead effect, and the caller need not look (most entries).
    """
    found: list[Branch] = []
    early: list[Parts] = []
    if limit > 0:
        _collect(effects, parts, 0, (), (), found, limit, early)
    return found, bool(early) or len(found) >= limit


# The named tuples of a branch are built with tuple.__new__ and every field given: their
# own constructor is a Python function, as costly as the rest of the walk put together.
_new = tuple.__new__


def _collect(seq: Sequence[Any], seq_parts: Parts, index: int, outer: tuple[_Frame, ...],
             events: tuple[Step | Leaf, ...], found: list[Branch], limit: int,
             early: list[Parts]) -> bool:
    """Append the branches from effect `index` of `seq` on (then the rest of each frame of
    `outer`, innermost last) to `found`; False once `limit` branches are found. The place
    of each effect met that always exits and is not the last of its list goes to `early`."""
    size = len(seq)
    while True:
        if index >= size:
            if not outer:
                break
            seq, seq_parts, index = outer[-1]
            outer = outer[:-1]
            size = len(seq)
            continue
        effect = seq[index]
        index += 1
        if type(effect) is not dict or len(effect) != 1:
            continue
        ((name, body),) = effect.items()
        role = _ROLES.get(name)
        if role is None:  # most effects: a plain one, resolved on the way
            events = events + (_new(Leaf, (name, body, seq_parts + (index - 1, name))),)
            continue
        here = seq_parts + (index - 1,)
        if role == "exit":
            if index < size:
                early.append(here)
            found.append(_new(Branch, (events, _new(Exit, (name, body, here + (name,))))))
            return len(found) < limit
        if role == "branching":
            sides = _sides(name, body, here)
            if sides is not None:
                # No side reads on past an effect that always exits (nor past a choice
                # without options, which has no side at all).
                if index < size and (not sides or _exits(effect)):
                    early.append(here)
                rest = outer + ((seq, seq_parts, index),)
                for step, sub, sub_parts in sides:
                    if not _collect(sub, sub_parts, 0, rest, events + (step,), found, limit,
                                    early):
                        return False
                return True
        elif role == "group":
            if index < size and _exits(effect):
                early.append(here)
            outer = outer + ((seq, seq_parts, index),)
            seq, seq_parts, index = _list(body), here + (name,), 0
            size = len(seq)
            continue
        events = events + (_new(Leaf, (name, body, here + (name,))),)
    last = next((e for e in reversed(events) if type(e) is Step), None)
    found.append(_new(Branch, (events, _new(Exit, ("open", None,
                                                    last.parts if last is not None else ())))))
    return len(found) < limit


# What the story graph digests of a branch, without the places and the named tuples a
# Branch is made of: (exit kind, exit value, the (condition, negated) of each decision on the
# way that has a condition, and the (name, body) of each plain effect whose name is kept),
# each in the order of the branch (walk_outlines).
Outline = tuple[str, Any, tuple[tuple[Mapping[str, Any], bool], ...], tuple[tuple[str, Any], ...]]


def walk_outlines(effects: Sequence[Any], limit: int,
                  keep: frozenset[str]) -> tuple[list[Outline], bool]:
    """The outline of each branch of walk_branches(effects, parts, limit), in the same order,
    and the same flag of whether dead_effects may find anything.

    Hot path: the story graph outlines every entry of every storybook once per check, and
    reads a branch's places (and its other plain effects) only for a finding or a drawing,
    when it walks that entry again in full. The outline is the walk of _collect without
    building a place for every effect met, a Step for every side or a Leaf for every plain
    effect: under half its cost. tests/test_storygraph_model.py checks that the two walks
    agree.
    """
    found: list[Outline] = []
    early: list[int] = []
    if limit > 0:
        _outline(effects, 0, (), (), (), found, limit, keep, early)
    return found, bool(early) or len(found) >= limit


def _outline(seq: Sequence[Any], index: int, outer: tuple[tuple[Sequence[Any], int], ...],
             conditions: tuple[tuple[Mapping[str, Any], bool], ...],
             kept: tuple[tuple[str, Any], ...], found: list[Outline], limit: int,
             keep: frozenset[str], early: list[int]) -> bool:
    """_collect, step for step, appending outlines instead of branches (see walk_outlines);
    an effect that always exits and is not the last of its list puts its index in `early`."""
    size = len(seq)
    while True:
        if index >= size:
            if not outer:
                break
            seq, index = outer[-1]
            outer = outer[:-1]
            size = len(seq)
            continue
        effect = seq[index]
        index += 1
        if type(effect) is not dict or len(effect) != 1:
            continue
        [name] = effect  # its one key, then its body: no items view and pair built
        body = effect[name]
        role = _ROLES.get(name)
        if role is None:  # most effects: a plain one, passed over unless kept
            if name in keep:
                kept = kept + ((name, body),)
            continue
        if role == "exit":
            if index < size:
                early.append(index)
            found.append((name, body, conditions, kept))
            return len(found) < limit
        if role == "branching":
            sides = _side_effects(name, body)
            if sides is not None:
                if index < size and (not sides or _exits(effect)):
                    early.append(index)
                # (the list goes on after the effect only if there is more of it)
                rest = outer + ((seq, index),) if index < size else outer
                for condition, negated, sub in sides:
                    if not _outline(sub, 0, rest, conditions if condition is None
                                    else conditions + ((condition, negated),),
                                    kept, found, limit, keep, early):
                        return False
                return True
        elif role == "group":
            if index < size and _exits(effect):
                early.append(index)
            outer = outer + ((seq, index),)
            seq, index = _list(body), 0
            size = len(seq)
            continue
        if name in keep:  # a branching effect without sides is a plain one (_collect)
            kept = kept + ((name, body),)
    found.append(("open", None, conditions, kept))
    return len(found) < limit


def _side_effects(name: str,
                  body: Any) -> list[tuple[Mapping[str, Any] | None, bool, Sequence[Any]]] | None:
    """What _sides gives of each side of a branching effect for an outline: the condition
    of its Step (None when it has none), whether negated, and the effects it resolves."""
    if name == "test" and isinstance(body, dict):
        passed, failed = body.get("pass"), body.get("fail")
        return [(None, False, passed if isinstance(passed, list) else []),
                (None, False, failed if isinstance(failed, list) else [])]
    if name == "choice" and isinstance(body, list):
        out: list[tuple[Mapping[str, Any] | None, bool, Sequence[Any]]] = []
        for raw_option in body:
            if isinstance(raw_option, dict):
                when, effects = raw_option.get("when"), raw_option.get("effects")
                out.append((when if isinstance(when, dict) else None, False,
                            effects if isinstance(effects, list) else []))
            else:
                out.append((None, False, []))
        return out
    if name == "if" and isinstance(body, dict):
        when = body.get("when") if isinstance(body.get("when"), dict) else None
        return [(when, False, _list(body.get("then"))), (when, True, _list(body.get("else")))]
    if name == "may":
        return [(None, False, _list(body)), (None, False, ())]
    return None


def _sides(name: str, body: Any, here: Parts) -> list[tuple[Step, Sequence[Any], Parts]] | None:
    """The sides of a branching effect, each with the effects it resolves; None if not one.

    Each Step is built whole with tuple.__new__ (kind, parts, effect_parts, body, label,
    index, condition, negated): see _new. A side's effects that are not a list are none
    (_list, spelt out: this runs for every side of every branch).
    """
    if name == "test" and isinstance(body, dict):
        out = []
        for outcome in ("pass", "fail"):
            sub = body.get(outcome)
            side = here + ("test", outcome)
            where = side if sub is not None else here + ("test",)
            out.append((_new(Step, (outcome, where, here, body, outcome, -1, None, False)),
                        sub if isinstance(sub, list) else [], side))
        return out
    if name == "choice" and isinstance(body, list):
        out = []
        for k, raw_option in enumerate(body):
            option = raw_option if isinstance(raw_option, dict) else {}
            when = option.get("when")
            side = here + ("choice", k)
            label = _str(option.get("label")) or f"option {k + 1}"
            step = _new(Step, ("option", side, here, body, label, k,
                               when if isinstance(when, dict) else None, False))
            effects = option.get("effects")
            out.append((step, effects if isinstance(effects, list) else [], side + ("effects",)))
        return out
    if name == "if" and isinstance(body, dict):
        when = body.get("when") if isinstance(body.get("when"), dict) else None
        then_side, else_side = here + ("if", "then"), here + ("if", "else")
        else_at = else_side if "else" in body else here + ("if",)
        return [
            (_new(Step, ("then", then_side, here, body, "then", -1, when, False)),
             _list(body.get("then")), then_side),
            (_new(Step, ("else", else_at, here, body, "else", -1, when, True)),
             _list(body.get("else")), else_side),
        ]
    if name == "may":
        side = here + ("may",)
        return [
            (_new(Step, ("take", side, here, body, "take", -1, None, False)), _list(body), side),
            (_new(Step, ("skip", side, here, body, "skip", -1, None, False)), (), side),
        ]
    return None


def iter_effects(effects: Sequence[Any], parts: Parts) -> Iterator[tuple[str, Any, Parts]]:
    """Every effect in a tree, branching ones included, as (name, body, parts of the body)."""
    for index, effect in enumerate(effects):
        parsed = single(effect)
        if parsed is None:
            continue
        name, body = parsed
        here = parts + (index, name)
        yield name, body, here
        if name == "test" and isinstance(body, dict):
            for outcome in ("pass", "fail"):
                yield from iter_effects(_list(body.get(outcome)), here + (outcome,))
        elif name == "choice" and isinstance(body, list):
            for k, option in enumerate(body):
                if isinstance(option, dict):
                    yield from iter_effects(_list(option.get("effects")), here + (k, "effects"))
        elif name == "if" and isinstance(body, dict):
            for side in ("then", "else"):
                yield from iter_effects(_list(body.get(side)), here + (side,))
        elif name == "may" or name in GROUPS:
            yield from iter_effects(_list(body), here)


def always_exits(effects: Sequence[Any]) -> bool:
    """Whether every way through the list ends in a goto or a terminal."""
    return any(map(_exits, effects))


def _exits(effect: Any) -> bool:
    """Whether every way through this one effect ends in a goto or a terminal."""
    parsed = single(effect)
    if parsed is None:
        return False
    name, body = parsed
    if name == "goto" or name in TERMINALS:
        return True
    if name == "test" and isinstance(body, dict):
        return all(always_exits(_list(body.get(o))) for o in ("pass", "fail"))
    if name == "choice" and isinstance(body, list) and body:
        return all(isinstance(o, dict) and always_exits(_list(o.get("effects"))) for o in body)
    if name == "if" and isinstance(body, dict):
        return all(always_exits(_list(body.get(s))) for s in ("then", "else"))
    return name in GROUPS and always_exits(_list(body))


def dead_effects(effects: Sequence[Any], parts: Parts) -> Iterator[Parts]:
    """The first effect of each list (nested ones too) written after an effect that always exits."""
    found: list[Parts] = []
    _dead(effects, parts, found)
    return iter(found)


def _dead(effects: Sequence[Any], parts: Parts, found: list[Parts]) -> None:
    """dead_effects, appended to `found` (hot path: one call per node of every graph).

    Each effect is looked at once: its nested lists first, then whether it always exits,
    which makes the next effect the dead one.
    """
    last = len(effects) - 1
    for index, effect in enumerate(effects):
        if type(effect) is not dict or len(effect) != 1:
            continue
        ((name, body),) = effect.items()
        if name in BRANCHING or name in GROUPS:
            here = parts + (index, name)
            if name == "test" and isinstance(body, dict):
                for outcome in ("pass", "fail"):
                    _dead(_list(body.get(outcome)), here + (outcome,), found)
            elif name == "choice" and isinstance(body, list):
                for k, option in enumerate(body):
                    if isinstance(option, dict):
                        _dead(_list(option.get("effects")), here + (k, "effects"), found)
            elif name == "if" and isinstance(body, dict):
                for side in ("then", "else"):
                    _dead(_list(body.get(side)), here + (side,), found)
            elif name == "may" or name in GROUPS:
                _dead(_list(body), here, found)
            exits = index < last and _exits(effect)
        else:
            exits = index < last and (name == "goto" or name in TERMINALS)
        if exits:
            found.append(parts + (index + 1,))
            return
