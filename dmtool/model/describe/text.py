"""The describer's values: phrases made of words and references, and described effects.

A `Phrase` is a tuple of plain strings and `Ref`s. A `Ref` keeps what a reader may want to
follow (an entry number, a card, a coda, an ending, a glossary term) as data, so a caller
renders it as a link (the site), as plain words (logs, graph labels) or anything else.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

# What a Ref can point at: an entry or ending of the storybook being read; a document by
# its kind ('coda', 'domain-card', 'condition-type', 'wanderer', ...); 'card' (any card-like
# kind) or 'monster' (terror, malformation, final boss, abomination) where the vocabulary
# allows several kinds; 'component', 'chapter-monster' and 'room' of the chapter being
# read; 'term' for the glossary.
REF_KINDS = frozenset({"entry", "ending", "card", "monster", "component", "chapter-monster",
                       "room", "term"})


@dataclass(frozen=True, slots=True)
class Ref:
    """Something the reader can follow: `kind` (see REF_KINDS), its `target` (an entry
    number, an id, an ending letter) and the words it reads as."""

    kind: str
    target: str | int
    text: str


Segment = str | Ref
Phrase = tuple[Segment, ...]
Part = Segment | Phrase | None


def phrase(*parts: Part) -> Phrase:
    """Flatten strings, refs and phrases into one phrase; None and '' are dropped."""
    out: list[Segment] = []
    for part in parts:
        if part is None or part == "":
            continue
        if isinstance(part, tuple):
            out.extend(s for s in part if s != "")
        else:
            out.append(part)
    return tuple(out)


def plain(value: Phrase) -> str:
    """The phrase as plain words (references read as their text)."""
    return "".join(s.text if isinstance(s, Ref) else s for s in value)


def capitalise(value: Phrase) -> Phrase:
    """Upper-case the first letter, whether it starts a string or a reference's text."""
    if not value:
        return value
    first = value[0]
    if isinstance(first, Ref):
        return (Ref(first.kind, first.target, _upper_first(first.text)), *value[1:])
    return (_upper_first(first), *value[1:])


def lower_first(value: Phrase) -> Phrase:
    """Lower-case the first letter of a leading string (for a sentence after a colon)."""
    if value and isinstance(value[0], str) and value[0][:1].isupper() and not _acronym(value[0]):
        return (value[0][:1].lower() + value[0][1:], *value[1:])
    return value


def join(items: Sequence[Phrase], word: str = "and") -> Phrase:
    """'A', 'A and B', 'A, B and C'."""
    items = [i for i in items if i]
    if not items:
        return ()
    if len(items) == 1:
        return items[0]
    out: list[Part] = []
    for index, item in enumerate(items):
        if index == len(items) - 1:
            out.append(f" {word} ")
        elif index > 0:
            out.append(", ")
        out.append(item)
    return phrase(*out)


def count(n: int, noun: str, plural: str | None = None) -> str:
    """'1 existence token', '2 existence tokens'; uncountable nouns never change."""
    return f"{n} {noun if n == 1 else (plural or plural_of(noun))}"


UNCOUNTABLE = frozenset({"health", "mental capacity", "damage", "madness"})


def plural_of(noun: str) -> str:
    if noun in UNCOUNTABLE or noun.endswith(tuple(f" {u}" for u in UNCOUNTABLE)):
        return noun
    head, _, last = noun.rpartition(" ")
    if last.endswith(("s", "x", "ch", "sh")):
        last += "es"
    elif last.endswith("y") and last[-2:-1] not in "aeiou":
        last = last[:-1] + "ies"
    else:
        last += "s"
    return f"{head} {last}" if head else last


def singular_of(name: str) -> str:
    """'Dimension Sickness Tokens' -> 'Dimension Sickness Token' (names written in plural)."""
    if name.endswith("ies"):
        return name[:-3] + "y"
    if name.endswith("s") and not name.endswith("ss"):
        return name[:-1]
    return name


def third_person(verb: str) -> str:
    """'take' -> 'takes', 'go' -> 'goes', 'may' -> 'may' (for a named subject)."""
    irregular = {"be": "is", "have": "has", "may": "may", "do": "does", "go": "goes"}
    if verb in irregular:
        return irregular[verb]
    if verb.endswith(("s", "x", "z", "ch", "sh", "o")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def humanise(identifier: str) -> str:
    """'the-wheel-turned' -> 'The Wheel Turned' (when no title is known)."""
    small = {"a", "an", "and", "at", "by", "for", "in", "of", "on", "or", "the", "to", "under"}
    words = str(identifier).replace("_", "-").split("-")
    return " ".join(w if (i and w in small) else w[:1].upper() + w[1:]
                    for i, w in enumerate(words))


@dataclass(frozen=True, slots=True)
class Side:
    """One way a branching effect can go: its label ('Pass', 'If you hold ...') and effects."""

    label: Phrase
    effects: tuple[Described, ...]


@dataclass(frozen=True, slots=True)
class Described:
    """One effect in words: a verb in its base form and what follows it ('take' + '1 blue
    damage'), so it reads as an instruction ('Take 1 blue damage') or after a subject
    ('Each wanderer takes 1 blue damage'); `verb` is '' when `rest` is a whole clause.
    Branching effects carry their `sides`."""

    verb: str
    rest: Phrase
    sides: tuple[Side, ...] = ()
    # The effect mapping described, for callers that add to the words (e.g. a pass chance).
    source: Any = field(default=None, compare=False, repr=False)

    def clause(self, subject: Phrase | None = None) -> Phrase:
        """The effect's own words (without its sides), as an instruction or after `subject`."""
        if not self.verb:
            return capitalise(self.rest) if subject is None else phrase(subject, " ", self.rest)
        if subject is None:
            if self.verb == "may":
                return phrase("You may ", self.rest)
            return capitalise(phrase(self.verb, " " if self.rest else "", self.rest))
        return phrase(subject, " ", self.predicate())

    def predicate(self) -> Phrase:
        """The words after a named subject: 'takes 1 blue damage'."""
        if not self.verb:
            return self.rest
        return phrase(third_person(self.verb), " " if self.rest else "", self.rest)


def flat(effects: Iterable[Described]) -> Phrase:
    """Effects as running sentences: 'Test green for eye. Pass: go to 243. Fail: go to 224.'"""
    out: list[Part] = []
    for effect in effects:
        words = effect.clause()
        if words:
            out += [" " if out else "", words, "" if _ends(words) else "."]
        for side in effect.sides:
            body = _side_text(side.effects)
            out += [" " if out else "", capitalise(side.label), ": ", body,
                    "" if _ends(body) else "."]
    return phrase(*out)


def _side_text(effects: tuple[Described, ...]) -> Phrase:
    """A side's effects after its label: lower-case, joined by semicolons."""
    if not effects:
        return ("nothing happens",)
    return phrase(*_semi([lower_first(_strip_stop(flat((e,)))) for e in effects]))


def _semi(parts: list[Phrase]) -> list[Part]:
    out: list[Part] = []
    for index, part in enumerate(parts):
        out += ["; " if index else "", part]
    return out


def _strip_stop(value: Phrase) -> Phrase:
    if value and isinstance(value[-1], str) and value[-1].endswith("."):
        return (*value[:-1], value[-1][:-1])
    return value


def _ends(value: Phrase) -> bool:
    return bool(value) and isinstance(value[-1], str) and value[-1].rstrip().endswith((".", ":"))


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _acronym(word: str) -> bool:
    first = word.split(" ", 1)[0]
    return len(first) > 1 and first[:2].isupper()


def wrap_words(text: str, width: int) -> list[str]:
    """Lines of at most `width` characters broken between words, never inside one."""
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""]


def shorten_words(text: str, width: int) -> str:
    """`text` cut at a word boundary to fit `width`, with an ellipsis when cut."""
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    return textwrap.shorten(text, width, placeholder=" …", break_long_words=False)
