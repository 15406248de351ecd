"""Every condition of the Dawn of Madness vocabulary (defs.schema.json) as a clause in words.

Conditions are read for the resolving wanderer, addressed as "you" the way a gamebook
addresses its reader: "you hold the coda card The Wheel Turned". Each condition also has
its negation written out ("you do not hold ..."), so `not` and an `if`'s other side read
naturally instead of as "not (...)".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dmtool.model.describe.text import Phrase, join, phrase
from dmtool.model.describe.words import (
    COLOURS,
    ENDINGS,
    TOKENS,
    Names,
    domain_noun,
    ending,
    entry,
    integer,
    monster,
    no_names,
    ref,
    shard,
    term,
)

Describer = Callable[[Any, Names, bool], Phrase]


def describe_condition(condition: Any, names: Names = no_names, *,
                       negated: bool = False) -> Phrase:
    """The condition as a clause ('you hold the coda card X'), or its negation."""
    if not isinstance(condition, Mapping) or len(condition) != 1:
        return ("a condition that cannot be read",)
    ((name, value),) = condition.items()
    describer = CONDITIONS.get(name)
    if describer is None:
        return (f"an unknown condition '{name}'",)
    return describer(value, names, negated)


def _all(value: Any, names: Names, negated: bool) -> Phrase:
    items = value if isinstance(value, list) else []
    # not (A and B) reads as "A does not hold or B does not hold".
    return join([describe_condition(c, names, negated=negated) for c in items],
                "or" if negated else "and")


def _any(value: Any, names: Names, negated: bool) -> Phrase:
    items = value if isinstance(value, list) else []
    if negated:
        return join([describe_condition(c, names, negated=True) for c in items], "and")
    return join([describe_condition(c, names) for c in items], "or")


def _not(value: Any, names: Names, negated: bool) -> Phrase:
    return describe_condition(value, names, negated=not negated)


def _has_card(noun: str, kind: str) -> Describer:
    def describe(value: Any, names: Names, negated: bool) -> Phrase:
        verb = "do not hold" if negated else "hold"
        return phrase(f"you {verb} the ", term(noun), " ", ref(kind, value, names))
    return describe


def _has_condition(value: Any, names: Names, negated: bool) -> Phrase:
    card = ref("condition-type", value, names)
    return phrase("you have no " if negated else "you have a ", card, " ",
                  term("condition card"))


def _has_domain(value: Any, names: Names, negated: bool) -> Phrase:
    return phrase("you do not have " if negated else "you have ", domain_noun(value), " stored")


def _token_on_shard(value: Any, names: Names, negated: bool) -> Phrase:
    value = value if isinstance(value, Mapping) else {}
    token = term(TOKENS.get(str(value.get("token")), f"{value.get('token')} token"))
    where = shard(value.get("shard", "current"))
    return phrase("no " if negated else "a ", token, " lies ", where)


def _score_at_least(value: Any, names: Names, negated: bool) -> Phrase:
    value = value if isinstance(value, Mapping) else {}
    items = [phrase(ending(e), f" has {'fewer than' if negated else 'at least'} "
                    f"{value[e]} point{'' if value[e] == 1 else 's'}")
             for e in ENDINGS if e in value]
    return join(items, "or" if negated else "and")


def _round_at_least(value: Any, names: Names, negated: bool) -> Phrase:
    return (f"it is before round {value}",) if negated else (f"it is round {value} or later",)


def _round_at_most(value: Any, names: Names, negated: bool) -> Phrase:
    return (f"it is after round {value}",) if negated else (f"it is round {value} or earlier",)


def _visited(value: Any, names: Names, negated: bool) -> Phrase:
    return ("entry ", entry(value), f" has {'not ' if negated else ''}been read this game")


def _monster_on_board(value: Any, names: Names, negated: bool) -> Phrase:
    return phrase(monster(value, names), f" is {'not ' if negated else ''}on the board")


def _monster_killed(value: Any, names: Names, negated: bool) -> Phrase:
    return phrase(monster(value, names), f" has {'not ' if negated else ''}been killed this game")


def _sentience_at_least(value: Any, names: Names, negated: bool) -> Phrase:
    value = value if isinstance(value, Mapping) else {}
    items = [phrase(f"your {c} ", term("sentience"),
                    f" is {'below' if negated else 'at least'} {value[c]}")
             for c in COLOURS if c in value]
    return join(items, "or" if negated else "and")


def _at_least(noun: str, key: str) -> Describer:
    def describe(value: Any, names: Names, negated: bool) -> Phrase:
        n = integer(value)
        words = noun if n == 1 else noun + "s"
        return (f"you have {'fewer than' if negated else 'at least'} {n} ", term(key, words))
    return describe


def _flag(yes: str, no: str, key: str) -> Describer:
    def describe(value: Any, names: Names, negated: bool) -> Phrase:
        holds = bool(value) != negated
        return phrase(yes if holds else no, term(key))
    return describe


def _wanderers_at_least(value: Any, names: Names, negated: bool) -> Phrase:
    n = integer(value)
    return (f"{'fewer than' if negated else 'at least'} {n} ",
            term("wanderer", "wanderer" if n == 1 else "wanderers"),
            " are alive" if n != 1 or negated else " is alive")


CONDITIONS: dict[str, Describer] = {
    "all": _all,
    "any": _any,
    "not": _not,
    "has_coda": _has_card("coda card", "coda"),
    "has_condition": _has_condition,
    "has_domain_card": _has_card("domain card", "domain-card"),
    "has_domain": _has_domain,
    "token_on_shard": _token_on_shard,
    "score_at_least": _score_at_least,
    "round_at_least": _round_at_least,
    "round_at_most": _round_at_most,
    "visited": _visited,
    "monster_on_board": _monster_on_board,
    "monster_killed": _monster_killed,
    "sentience_at_least": _sentience_at_least,
    "existence_at_least": _at_least("existence token", "existence token"),
    "wounds_at_least": _at_least("wound", "wound"),
    "trapped": _flag("you are ", "you are not ", "trapped"),
    "is_central": _flag("you are the ", "you are not the ", "central wanderer"),
    "wanderers_at_least": _wanderers_at_least,
}
