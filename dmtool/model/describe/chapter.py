"""Every condition of the Deep Madness chapter vocabulary (deep-madness-defs.schema.json) in
words, and the things chapters name (components, monsters, rooms).

Many chapter conditions are read for "the investigator in scope". They are written as a
predicate ('is in a devoured room') so the same words follow any subject: 'the
investigator', 'every investigator', 'each investigator who'. Conditions about the whole
game ('Dimension Breach has died') are whole clauses.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from dmtool.model.describe.text import Phrase, Ref, join, phrase, plural_of, singular_of
from dmtool.model.describe.words import Names, humanise, integer, no_names, term

STATES = {"face_up": "face-up ", "face_down": "face-down ", "flooded": "flooded "}
CLASSES = {"any": "monster", "non-epic": "non-epic monster",
           "any-except-horror-zero": "monster other than Horror Zero"}
# Where a count is made, as (singular, plural) verb phrases.
WHERE = {"board": ("is on the board", "are on the board"),
         "game": ("is in the game", "are in the game"),
         "held_total": ("is held by the investigators together",
                        "are held by the investigators together"),
         "killed": ("has been killed so far this game", "have been killed so far this game"),
         "reserve": ("is left in the reserve", "are left in the reserve"),
         "pool": ("is left in the pool", "are left in the pool"),
         "removed": ("has been removed from the game so far",
                     "have been removed from the game so far")}
INVESTIGATOR: Phrase = ("the investigator",)


class Clause(NamedTuple):
    """A condition in words: a predicate for the investigator in scope, or a whole clause."""

    scoped: bool
    words: Phrase


def describe_chapter_condition(condition: Any, names: Names = no_names, *,
                               subject: Phrase = INVESTIGATOR, negated: bool = False) -> Phrase:
    """The condition as a clause; predicates about an investigator follow `subject`."""
    clause = chapter_clause(condition, names, negated=negated)
    return phrase(subject, " ", clause.words) if clause.scoped else clause.words


def chapter_clause(condition: Any, names: Names = no_names, *, negated: bool = False) -> Clause:
    if not isinstance(condition, Mapping) or len(condition) != 1:
        return Clause(False, ("a condition that cannot be read",))
    ((name, value),) = condition.items()
    describer = CHAPTER_CONDITIONS.get(name)
    if describer is None:
        return Clause(False, (f"an unknown condition '{name}'",))
    return describer(value, names, negated)


def thing(value: Any, names: Names, *, number: int | None = None, article: str = "a",
          plural: bool = False) -> Phrase:
    """'a face-up Trap Mine Control Marker', '3 Trap Mine figures', 'Dimension Breach';
    `plural` without a number gives the bare plural ('Trap Mine figures')."""
    value = value if isinstance(value, Mapping) else {}
    if plural:
        article = ""
    plural = plural or (number is not None and number != 1)
    if "monster" in value:
        key = str(value["monster"])
        return (Ref("chapter-monster", key, names("chapter-monster", key) or humanise(key)),)
    state = STATES.get(str(value.get("state")), "")
    if "component" in value:
        key = str(value["component"])
        name = names("component", key) or humanise(key)
        noun: Phrase = (Ref("component", key, plural_of(singular_of(name)) if plural
                            else singular_of(name)),)
    elif "monster_class" in value:
        words = CLASSES.get(str(value["monster_class"]), "monster")
        noun = (plural_of(words) if plural else words,)
    else:
        words = f"{value.get('rooms', '')} room"
        noun = (plural_of(words) if plural else words,)
    if value.get("state") == "dagons_domain":
        noun = phrase(noun, " showing its Dagon's Domain side")
    tail: list[Any] = []
    if "matching" in value:
        tail += [" of the same colour as the ", component(value["matching"], names),
                 " the investigator holds"]
    if value.get("held_counts"):
        tail.append(" (one held by an investigator counts too)")
    lead = (f"{number} " if number is not None else
            "" if article == "" else _article(article, state or _first_word(noun)))
    return phrase(lead, state, noun, *tail)


def threshold(value: Any) -> str:
    """3, or '6 with 4 investigators, 8 with 5 or 9 with 6'."""
    if isinstance(value, Mapping) and isinstance(value.get("by_investigators"), Mapping):
        pairs = sorted(value["by_investigators"].items(), key=lambda kv: int(kv[0]))
        words = [f"{n} with {k}" for k, n in pairs]
        words[0] += " investigator" if str(pairs[0][0]) == "1" else " investigators"
        return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]
    return str(integer(value, 0))


def component(key: Any, names: Names, *, plural: bool = False) -> Ref:
    """A chapter component by its local id, singular or plural."""
    name = singular_of(names("component", str(key)) or humanise(str(key)))
    return Ref("component", str(key), plural_of(name) if plural else name)


def _article(article: str, word: str) -> str:
    if article == "a" and word[:1].lower() in "aeiou":
        return "an "
    return f"{article} "


def _first_word(noun: Phrase) -> str:
    first = noun[0] if noun else ""
    return first.text if isinstance(first, Ref) else str(first)


Describer = Callable[[Any, Names, bool], Clause]


def _combine(word: str) -> Describer:
    def describe(value: Any, names: Names, negated: bool) -> Clause:
        # De Morgan: not (A and B) = not A or not B.
        joiner = {"and": "or", "or": "and"}[word] if negated else word
        clauses = [chapter_clause(c, names, negated=negated)
                   for c in (value if isinstance(value, list) else [])]
        # "either" keeps an 'or' readable when it sits inside an 'and'.
        lead = "either " if joiner == "or" and len(clauses) > 1 else ""
        if clauses and all(c.scoped for c in clauses):
            return Clause(True, phrase(lead, join([c.words for c in clauses], joiner)))
        return Clause(False, phrase(lead, join([phrase(INVESTIGATOR, " ", c.words) if c.scoped
                                                else c.words for c in clauses], joiner)))
    return describe


def _not(value: Any, names: Names, negated: bool) -> Clause:
    return chapter_clause(value, names, negated=not negated)


def _every(value: Any, names: Names, negated: bool) -> Clause:
    inner = chapter_clause(value, names, negated=negated)
    if not inner.scoped:
        return inner
    return Clause(False, phrase("some investigator " if negated else "every investigator ",
                                inner.words))


def _some(value: Any, names: Names, negated: bool) -> Clause:
    inner = chapter_clause(value, names)
    if not inner.scoped:
        return Clause(False, phrase("it is not the case that ", inner.words) if negated
                      else inner.words)
    return Clause(False, phrase("no investigator " if negated else "some investigator ",
                                inner.words))


def _count(value: Any, names: Names, negated: bool) -> Clause:
    value = value if isinstance(value, Mapping) else {}
    low, high = value.get("at_least"), value.get("at_most")
    where = str(value.get("in"))
    if isinstance(low, Mapping) or isinstance(high, Mapping):
        return _count_by_players(value, names, negated)
    if high == 0 and low is None:
        amount, many = ("at least 1", False) if negated else ("no", True)
    elif low is not None and high is not None:
        amount, many = f"{'not ' if negated else ''}between {low} and {high}", True
    elif low is not None:
        amount = f"{'fewer than' if negated else 'at least'} {low}"
        many = negated or low != 1
    else:
        amount, many = f"{'more than' if negated else 'at most'} {high}", high != 1 or negated
    noun = thing(value.get("of"), names, plural=many, article="")
    if where == "held":
        return Clause(True, phrase(f"holds {amount} ", noun))
    verbs = WHERE.get(where, ("is counted", "are counted"))
    return Clause(False, phrase(f"{amount} ", noun, f" {verbs[1] if many else verbs[0]}"))


def _count_by_players(value: Mapping[str, Any], names: Names, negated: bool) -> Clause:
    """Thresholds that depend on the number of investigators: 'the number of X held by the
    investigators together is at least 6 with 4 investigators, 8 with 5 or 9 with 6'."""
    low, high = value.get("at_least"), value.get("at_most")
    bounds = []
    if low is not None:
        bounds.append(f"{'below' if negated else 'at least'} {threshold(low)}")
    if high is not None:
        bounds.append(f"{'above' if negated else 'at most'} {threshold(high)}")
    noun = thing(value.get("of"), names, plural=True)
    where = {"held": "held", "held_total": "held by the investigators together"}.get(
        str(value.get("in")), WHERE.get(str(value.get("in")), ("", "counted"))[1])
    scoped = value.get("in") == "held"
    words = phrase("the number of ", noun, f" {where} is ", (" or " if negated else " and ").join(bounds))
    return Clause(False, phrase(words, " for the investigator" if scoped else ""))


def _space(words: str, negative: str) -> Describer:
    def describe(value: Any, names: Names, negated: bool) -> Clause:
        return Clause(True, phrase(negative if negated else words, thing(value, names)))
    return describe


def _in_room(value: Any, names: Names, negated: bool) -> Clause:
    value = value if isinstance(value, Mapping) else {}
    verb = "is not in " if negated else "is in "
    if "room" in value:
        return Clause(True, (verb, Ref("room", str(value["room"]), f"room {value['room']}")))
    return Clause(True, (verb, "a devoured room" if value.get("devoured") else "an undevoured room"))


def _infected(value: Any, names: Names, negated: bool) -> Clause:
    holds = bool(value) != negated
    return Clause(True, ("has at least one ", term("infection token")) if holds
                  else ("has no ", term("infection token")))


def _path_connects(value: Any, names: Names, negated: bool) -> Clause:
    value = value if isinstance(value, Mapping) else {}
    verb = "has no" if negated else "has a"
    return Clause(True, phrase(f"{verb} path of ", component(value.get("via"), names, plural=True),
                               " linking ", thing(value.get("from"), names, article="the"),
                               " in their space to ", thing(value.get("to"), names)))


def _monster_dead(value: Any, names: Names, negated: bool) -> Clause:
    return Clause(False, phrase(thing({"monster": value}, names),
                                " has not died" if negated else " has died"))


def _share_space(value: Any, names: Names, negated: bool) -> Clause:
    pair = value if isinstance(value, list) and len(value) == 2 else [{}, {}]
    verb = " shares no space with " if negated else " shares a space with "
    return Clause(False, phrase(thing(pair[0], names), verb, thing(pair[1], names)))


def _round_begins(value: Any, names: Names, negated: bool) -> Clause:
    return Clause(False, (f"round {value} {'has not begun' if negated else 'begins'}",))


def _shortfall(value: Any, names: Names, negated: bool) -> Clause:
    value = value if isinstance(value, Mapping) else {}
    if negated:
        return Clause(False, phrase("there is still ", thing(value.get("of"), names),
                                    f" left in the {value.get('from')}"))
    return Clause(False, phrase(thing(value.get("of"), names),
                                f" must be taken from the {value.get('from')}, but none is left"))


def _own_piece_in(value: Any, names: Names, negated: bool) -> Clause:
    value = value if isinstance(value, Mapping) else {}
    rooms = "a devoured room" if value.get("rooms") == "devoured" else "an undevoured room"
    verb = "does not have " if negated else "has "
    return Clause(True, phrase(verb, "their own ", component(value.get("component"), names),
                               f" lying in {rooms}"))


def _scoped(yes: Phrase, no: Phrase) -> Describer:
    def describe(value: Any, names: Names, negated: bool) -> Clause:
        return Clause(True, no if negated else yes)
    return describe


def _fixed(yes: Phrase, no: Phrase) -> Describer:
    def describe(value: Any, names: Names, negated: bool) -> Clause:
        return Clause(False, no if negated else yes)
    return describe


CHAPTER_CONDITIONS: dict[str, Describer] = {
    "all": _combine("and"),
    "any": _combine("or"),
    "not": _not,
    "every_investigator": _every,
    "any_investigator": _some,
    "count": _count,
    "same_space": _space("is in the same space as ", "is not in the same space as "),
    "adjacent_space": _space("is next to ", "is not next to "),
    "in_room": _in_room,
    "infected": _infected,
    "path_connects": _path_connects,
    "monster_dead": _monster_dead,
    "share_space": _share_space,
    "round_begins": _round_begins,
    "shortfall": _shortfall,
    "on_spawn_marker": _scoped(("stands on a spawn marker's space",),
                               ("does not stand on a spawn marker's space",)),
    "own_piece_in": _own_piece_in,
    "seen_by_figure": _scoped(("is in that figure's line of sight",),
                              ("is not in that figure's line of sight",)),
    "sees": _space("has in their line of sight ", "does not have in their line of sight "),
    "investigator_killed": _fixed(("an investigator is killed",), ("no investigator is killed",)),
    "devour_marker_at_end": _fixed(
        ("the devour marker reaches the last space of the devouring track",),
        ("the devour marker has not reached the last space of the devouring track",)),
}
