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
    """The first `limit` branches of iter_branches(effects, parts), in the same order.

    Hot path: the story graph walks every entry of every storybook once per check. One
    plain loop per side, appending to a list, costs a third of the nested generators (and
    of their frame tuples, rebuilt for every effect).
    """
    found: list[Branch] = []
    if limit > 0:
        _collect(effects, parts, 0, (), (), found, limit)
    return found


def _collect(seq: Sequence[Any], seq_parts: Parts, index: int, outer: tuple[_Frame, ...],
             events: tuple[Step | Leaf, ...], found: list[Branch], limit: int) -> bool:
    """Append the branches from effect `index` of `seq` on (then the rest of each frame of
    `outer`, innermost last) to `found`; False once `limit` branches are found."""
    while True:
        if index >= len(seq):
            if not outer:
                break
            seq, seq_parts, index = outer[-1]
            outer = outer[:-1]
            continue
        effect = seq[index]
        index += 1
        if type(effect) is not dict or len(effect) != 1:
            continue
        ((name, body),) = effect.items()
        role = _ROLES.get(name)
        if role is None:  # most effects: a plain one, resolved on the way
            events = events + (Leaf(name, body, seq_parts + (index - 1, name)),)
            continue
        here = seq_parts + (index - 1,)
        if role == "exit":
            found.append(Branch(events, Exit(name, body, here + (name,))))
            return len(found) < limit
        if role == "branching":
            sides = _sides(name, body, here)
            if sides is not None:
                rest = outer + ((seq, seq_parts, index),)
                for step, sub, sub_parts in sides:
                    if not _collect(sub, sub_parts, 0, rest, events + (step,), found, limit):
                        return False
                return True
        elif role == "group":
            outer = outer + ((seq, seq_parts, index),)
            seq, seq_parts, index = _list(body), here + (name,), 0
            continue
        events = events + (Leaf(name, body, here + (name,)),)
    last = next((e for e in reversed(events) if type(e) is Step), None)
    found.append(Branch(events, Exit("open", None, last.parts if last is not None else ())))
    return len(found) < limit


def _sides(name: str, body: Any, here: Parts) -> list[tuple[Step, Sequence[Any], Parts]] | None:
    """The sides of a branching effect, each with the effects it resolves; None if not one."""
    if name == "test" and isinstance(body, dict):
        out = []
        for outcome in ("pass", "fail"):
            sub = body.get(outcome)
            side = here + ("test", outcome)
            where = side if sub is not None else here + ("test",)
            out.append((Step(outcome, where, here, body, outcome), _list(sub), side))
        return out
    if name == "choice" and isinstance(body, list):
        out = []
        for k, raw_option in enumerate(body):
            option = raw_option if isinstance(raw_option, dict) else {}
            when = option.get("when")
            side = here + ("choice", k)
            label = _str(option.get("label")) or f"option {k + 1}"
            step = Step("option", side, here, body, label, k, when if isinstance(when, dict) else None)
            out.append((step, _list(option.get("effects")), side + ("effects",)))
        return out
    if name == "if" and isinstance(body, dict):
        when = body.get("when") if isinstance(body.get("when"), dict) else None
        has_else = "else" in body
        return [
            (
                Step("then", here + ("if", "then"), here, body, "then", condition=when),
                _list(body.get("then")),
                here + ("if", "then"),
            ),
            (
                Step(
                    "else",
                    here + ("if", "else") if has_else else here + ("if",),
                    here,
                    body,
                    "else",
                    condition=when,
                    negated=True,
                ),
                _list(body.get("else")),
                here + ("if", "else"),
            ),
        ]
    if name == "may":
        return [
            (Step("take", here + ("may",), here, body, "take"), _list(body), here + ("may",)),
            (Step("skip", here + ("may",), here, body, "skip"), (), here + ("may",)),
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
