"""Shared wording: how ids, colours, domains, shards, tokens and monsters read in English,
and the `Names` look-up through which a caller supplies real titles for ids."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dmtool.model.describe.text import Phrase, Ref, count, humanise, join, phrase

# Names(kind, id) -> the title to show, or None to fall back to the humanised id.
Names = Callable[[str, str], "str | None"]
COLOURS = ("red", "blue", "green", "yellow", "purple")
ENDINGS = ("A", "B", "C", "D")
TOKENS = {"void": "void token", "completed": "completed token",
          "consequence_red": "red consequence token",
          "consequence_blue": "blue consequence token", "devour": "devour token"}


def no_names(_kind: str, _key: str) -> str | None:
    return None


def ref(kind: str, target: Any, names: Names) -> Ref:
    """A reference to a document or chapter part, reading as its title when one is known."""
    key = str(target)
    return Ref(kind, target if isinstance(target, int) else key, names(kind, key) or humanise(key))


def term(key: str, text: str | None = None) -> Ref:
    """A glossary term ('existence token'), linked by the site to its definition."""
    return Ref("term", key, text or key)


def entry(number: Any) -> Ref:
    return Ref("entry", number, str(number)) if isinstance(number, int) else Ref(
        "entry", str(number), str(number))


def ending(letter: Any) -> Phrase:
    return ("ending ", Ref("ending", str(letter), str(letter)))


def integer(value: Any, default: int = 1) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def counted_term(n: int, key: str) -> Phrase:
    """'1 existence token' with the noun linked to the glossary."""
    words = count(n, key)
    return (f"{n} ", term(key, words.split(" ", 1)[1]))


def shard(placement: Any, *, preposition: str = "on") -> Phrase:
    """'on a random world shard', 'on the current world shard', 'on world shard 5'."""
    if placement == "random":
        return (f"{preposition} a random ", term("world shard"))
    if placement == "current" or placement is None:
        return (f"{preposition} the current ", term("world shard"))
    return (f"{preposition} ", term("world shard"), f" {placement}")


def domains(value: Any) -> Phrase:
    """{red: [hand], blue: [eye, eye]} -> 'red hand and blue eye' with 'x2' as a times sign."""
    items: list[Phrase] = []
    if isinstance(value, Mapping):
        for colour in COLOURS:
            kinds = value.get(colour)
            if not isinstance(kinds, list):
                continue
            seen: dict[str, int] = {}
            for kind in kinds:
                seen[str(kind)] = seen.get(str(kind), 0) + 1
            items += [(f"{colour} {kind}" + (f" ×{n}" if n > 1 else ""),)
                      for kind, n in seen.items()]
    return join(items)


def domain_noun(value: Any) -> Phrase:
    """'the domain red hand' / 'the domains red hand and blue eye'."""
    total = sum(len(v) for v in value.values() if isinstance(v, list)) if isinstance(
        value, Mapping) else 0
    return phrase("the ", term("domain", "domain" if total == 1 else "domains"), " ",
                  domains(value))


def monster(value: Any, names: Names) -> Phrase:
    if value == "abomination":
        return ("the ", term("abomination"))
    return (ref("monster", value, names),)


def wanderer(value: Any, names: Names) -> Phrase:
    if value in (None, "active"):
        return ("the active wanderer",)
    if value == "central":
        return ("the ", term("central wanderer"))
    return (ref("wanderer", value, names),)


def signed_change(amount: int, what: Phrase) -> tuple[str, Phrase]:
    """('raise', 'red sentience by 1'), ('lower', 'max health by 2'), ('keep', 'max health')."""
    if amount == 0:
        return "keep", what
    return ("raise" if amount > 0 else "lower"), phrase(what, f" by {abs(amount)}")
