"""Typed views of a storybook (entries, endings, conclusions) and a walker over effect trees.

The walker turns an effect list into its *branches*: every way of reading it from the first
effect to an exit, with the decisions taken on the way (test outcomes, choice options, sides
of an `if`, taking or skipping a `may`) and the plain effects resolved in between. A branch
that runs off the end of the list without a `goto` or a terminal has an "open" exit. Branching
effects whose sides do not exit fall through to the effects written after them, as a reader
would. The graph analyses, the odds and the engine all read effects through this one walker.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from dmtool.diagnostics.model import Location

Parts = tuple[str | int, ...]

ENTRY_KINDS = ("event", "exploration", "reality_shard", "finale", "conclusion")
ENDINGS = ("A", "B", "C", "D")
COLOURS = ("red", "blue", "green", "yellow", "purple")
# Effects that end the reading of the storybook for now (the graph's terminals).
TERMINALS = frozenset({"end", "conclude", "fail_stage"})
# Effects that only group other effects; the walker reads their bodies in place.
GROUPS = frozenset({"all_wanderers", "central_wanderer"})
# Effects with sides: each side is a separate branch.
BRANCHING = frozenset({"test", "choice", "if", "may"})


@dataclass(frozen=True, slots=True)
class Entry:
    """One numbered entry; `effects` are the raw effect mappings, `parts` its path in the file."""

    number: int
    kind: str
    title: str
    text: str
    effects: tuple[Any, ...]
    entrance: Mapping[str, Any] | None
    parts: Parts

    @property
    def effects_parts(self) -> Parts:
        return self.parts + ("effects",)


@dataclass(frozen=True, slots=True)
class Conclusion:
    entry: int | None
    title: str
    legacy: str | None
    parts: Parts


@dataclass(frozen=True, slots=True)
class Ending:
    letter: str
    title: str
    start: int | None
    conclusions: tuple[Conclusion, ...]
    setup: tuple[Any, ...]
    event_phase: tuple[Any, ...]
    final_bosses: tuple[str, ...]
    parts: Parts


@dataclass(frozen=True)
class Storybook:
    """A storybook as typed values; `source` (a SourceDocument) gives positions when loaded."""

    id: str
    wanderer: str
    title: str
    entries: Mapping[int, Entry]
    endings: Mapping[str, Ending]
    setup: tuple[Any, ...] = ()
    # Entries whose number an earlier entry already uses (reported, otherwise ignored).
    duplicates: tuple[Entry, ...] = ()
    display: str = "storybook.yaml"
    source: Any = field(default=None, repr=False, compare=False)

    @classmethod
    def from_document(cls, document: Any) -> Storybook:
        return cls.from_data(document.data, display=document.display, source=document)

    @classmethod
    def from_data(cls, data: Any, *, display: str = "storybook.yaml", source: Any = None) -> Storybook:
        """Read plain data; shapes the schema would refuse are skipped, never raised."""
        data = data if isinstance(data, dict) else {}
        entries: dict[int, Entry] = {}
        duplicates: list[Entry] = []
        for index, raw in enumerate(_list(data.get("entries"))):
            entry = _entry(raw, ("entries", index))
            if entry is None:
                continue
            if entry.number in entries:
                duplicates.append(entry)
            else:
                entries[entry.number] = entry
        endings: dict[str, Ending] = {}
        for index, raw in enumerate(_list(data.get("endings"))):
            ending = _ending(raw, ("endings", index))
            if ending is not None and ending.letter not in endings:
                endings[ending.letter] = ending
        return cls(
            id=_str(data.get("id")), wanderer=_str(data.get("wanderer")),
            title=_str(data.get("title")), entries=entries,
            endings={k: endings[k] for k in ENDINGS if k in endings},
            setup=_effects_of(data.get("setup")), duplicates=tuple(duplicates),
            display=display, source=source,
        )

    def locate(self, parts: Parts, *, key: bool = False) -> Location:
        """Where `parts` is written in the file (line 1 when the storybook has no source)."""
        if self.source is not None:
            return self.source.locate(parts, key=key)
        pointer = "".join(f"/{p}" for p in parts)
        return Location(self.display, 1, 1, pointer)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _effects_of(block: Any) -> tuple[Any, ...]:
    return tuple(_list(block.get("effects"))) if isinstance(block, dict) else ()


def _entry(raw: Any, parts: Parts) -> Entry | None:
    if not isinstance(raw, dict) or _int(raw.get("entry")) is None:
        return None
    entrance = raw.get("entrance")
    when = entrance.get("when") if isinstance(entrance, dict) else None
    return Entry(
        number=raw["entry"], kind=_str(raw.get("kind")), title=_str(raw.get("title")),
        text=_str(raw.get("text")), effects=tuple(_list(raw.get("effects"))),
        entrance=when if isinstance(when, dict) else None, parts=parts,
    )


def _ending(raw: Any, parts: Parts) -> Ending | None:
    if not isinstance(raw, dict) or raw.get("ending") not in ENDINGS:
        return None
    conclusions = tuple(
        Conclusion(entry=_int(c.get("entry")), title=_str(c.get("title")),
                   legacy=c.get("legacy") if isinstance(c.get("legacy"), str) else None,
                   parts=parts + ("conclusions", i))
        for i, c in enumerate(_list(raw.get("conclusions"))) if isinstance(c, dict)
    )
    return Ending(
        letter=raw["ending"], title=_str(raw.get("title")), start=_int(raw.get("start")),
        conclusions=conclusions, setup=_effects_of(raw.get("setup")),
        event_phase=_effects_of(raw.get("event_phase")),
        final_bosses=tuple(b for b in _list(raw.get("final_bosses")) if isinstance(b, str)),
        parts=parts,
    )


# ---------------------------------------------------------------------------------------
# The walker


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
        for name, body in effect.items():
            pass
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


def _sides(name: str, body: Any, here: Parts) -> list[tuple[Step, Sequence[Any], Parts]] | None:
    """The sides of a branching effect, each with the effects it resolves; None if not one."""
    if name == "test" and isinstance(body, dict):
        out = []
        for outcome in ("pass", "fail"):
            sub = body.get(outcome)
            where = here + ("test", outcome) if sub is not None else here + ("test",)
            out.append((Step(outcome, where, here, body, outcome), _list(sub), here + ("test", outcome)))
        return out
    if name == "choice" and isinstance(body, list):
        out = []
        for k, option in enumerate(body):
            option = option if isinstance(option, dict) else {}
            when = option.get("when")
            step = Step("option", here + ("choice", k), here, body, _str(option.get("label")) or f"option {k + 1}",
                        index=k, condition=when if isinstance(when, dict) else None)
            out.append((step, _list(option.get("effects")), here + ("choice", k, "effects")))
        return out
    if name == "if" and isinstance(body, dict):
        when = body.get("when") if isinstance(body.get("when"), dict) else None
        has_else = "else" in body
        return [
            (Step("then", here + ("if", "then"), here, body, "then", condition=when),
             _list(body.get("then")), here + ("if", "then")),
            (Step("else", here + ("if", "else") if has_else else here + ("if",), here, body, "else",
                  condition=when, negated=True),
             _list(body.get("else")), here + ("if", "else")),
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
    for effect in effects:
        parsed = single(effect)
        if parsed is None:
            continue
        name, body = parsed
        if name == "goto" or name in TERMINALS:
            return True
        if name == "test" and isinstance(body, dict):
            if all(always_exits(_list(body.get(o))) for o in ("pass", "fail")):
                return True
        elif name == "choice" and isinstance(body, list) and body:
            if all(isinstance(o, dict) and always_exits(_list(o.get("effects"))) for o in body):
                return True
        elif name == "if" and isinstance(body, dict):
            if all(always_exits(_list(body.get(s))) for s in ("then", "else")):
                return True
        elif name in GROUPS and always_exits(_list(body)):
            return True
    return False


def dead_effects(effects: Sequence[Any], parts: Parts) -> Iterator[Parts]:
    """The first effect of each list (nested ones too) written after an effect that always exits."""
    for index, effect in enumerate(effects):
        if index > 0 and always_exits(effects[index - 1:index]):
            yield parts + (index,)
            return
        parsed = single(effect)
        if parsed is None:
            continue
        name, body = parsed
        here = parts + (index, name)
        if name == "test" and isinstance(body, dict):
            for outcome in ("pass", "fail"):
                yield from dead_effects(_list(body.get(outcome)), here + (outcome,))
        elif name == "choice" and isinstance(body, list):
            for k, option in enumerate(body):
                if isinstance(option, dict):
                    yield from dead_effects(_list(option.get("effects")), here + (k, "effects"))
        elif name == "if" and isinstance(body, dict):
            for side in ("then", "else"):
                yield from dead_effects(_list(body.get(side)), here + (side,))
        elif name == "may" or name in GROUPS:
            yield from dead_effects(_list(body), here)
