"""Typed views of a storybook (entries, endings, conclusions); the walker over effect
trees lives in model.effects and is re-exported here, so one import serves both."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from dmtool.diagnostics.model import Location
from dmtool.model.effects import (
    BRANCHING,
    GROUPS,
    TERMINALS,
    Branch,
    Exit,
    Leaf,
    Parts,
    Step,
    always_exits,
    dead_effects,
    first_branches,
    iter_branches,
    iter_effects,
    single,
)

__all__ = [
    "BRANCHING",
    "COLOURS",
    "ENDINGS",
    "ENTRY_KINDS",
    "GROUPS",
    "TERMINALS",
    "Branch",
    "Conclusion",
    "Ending",
    "Entry",
    "Exit",
    "Leaf",
    "Parts",
    "Step",
    "Storybook",
    "always_exits",
    "dead_effects",
    "first_branches",
    "iter_branches",
    "iter_effects",
    "single",
]

ENTRY_KINDS = ("event", "exploration", "reality_shard", "finale", "conclusion")
ENDINGS = ("A", "B", "C", "D")
COLOURS = ("red", "blue", "green", "yellow", "purple")


class Entry(NamedTuple):
    """One numbered entry; `effects` are the raw effect mappings, `parts` its path in the file.

    A named tuple built with tuple.__new__ (_entries): a frozen dataclass's __init__ sets each
    field with object.__setattr__, about half the cost of reading a storybook's entries.
    """

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
    def from_data(
        cls, data: Any, *, display: str = "storybook.yaml", source: Any = None
    ) -> Storybook:
        """Read plain data; shapes the schema would refuse are skipped, never raised."""
        data = data if isinstance(data, dict) else {}
        entries, duplicates = _entries(_list(data.get("entries")))
        endings: dict[str, Ending] = {}
        for index, raw in enumerate(_list(data.get("endings"))):
            ending = _ending(raw, ("endings", index))
            if ending is not None and ending.letter not in endings:
                endings[ending.letter] = ending
        return cls(
            id=_str(data.get("id")),
            wanderer=_str(data.get("wanderer")),
            title=_str(data.get("title")),
            entries=entries,
            endings={k: endings[k] for k in ENDINGS if k in endings},
            setup=_effects_of(data.get("setup")),
            duplicates=tuple(duplicates),
            display=display,
            source=source,
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


def _entries(raws: list[Any]) -> tuple[dict[int, Entry], list[Entry]]:
    """The entries by number, and those whose number an earlier entry already uses.

    Hot path (every entry of every storybook): each entry's fields are read in place and
    given in order, with no call per entry but the tuple's.
    """
    entries: dict[int, Entry] = {}
    duplicates: list[Entry] = []
    for index, raw in enumerate(raws):
        if not isinstance(raw, dict):
            continue
        number = raw.get("entry")
        if not isinstance(number, int) or isinstance(number, bool):
            continue
        kind, title, text = raw.get("kind"), raw.get("title"), raw.get("text")
        effects = raw.get("effects")
        entrance = raw.get("entrance")
        when = entrance.get("when") if isinstance(entrance, dict) else None
        entry = _new(Entry, (
            number,
            kind if isinstance(kind, str) else "",
            title if isinstance(title, str) else "",
            text if isinstance(text, str) else "",
            tuple(effects) if isinstance(effects, list) else (),
            when if isinstance(when, dict) else None,
            ("entries", index),
        ))
        if number in entries:
            duplicates.append(entry)
        else:
            entries[number] = entry
    return entries, duplicates


# Entries are built with tuple.__new__, every field given: Entry(...) calls a Python
# function more (the named tuple's __new__).
_new = tuple.__new__


def _ending(raw: Any, parts: Parts) -> Ending | None:
    if not isinstance(raw, dict) or raw.get("ending") not in ENDINGS:
        return None
    conclusions = tuple(
        Conclusion(
            entry=_int(c.get("entry")),
            title=_str(c.get("title")),
            legacy=c.get("legacy") if isinstance(c.get("legacy"), str) else None,
            parts=parts + ("conclusions", i),
        )
        for i, c in enumerate(_list(raw.get("conclusions")))
        if isinstance(c, dict)
    )
    return Ending(
        letter=raw["ending"],
        title=_str(raw.get("title")),
        start=_int(raw.get("start")),
        conclusions=conclusions,
        setup=_effects_of(raw.get("setup")),
        event_phase=_effects_of(raw.get("event_phase")),
        final_bosses=tuple(b for b in _list(raw.get("final_bosses")) if isinstance(b, str)),
        parts=parts,
    )
