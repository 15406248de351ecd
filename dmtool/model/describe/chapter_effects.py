"""Every effect of the Deep Madness chapter vocabulary (deep-madness-defs.schema.json) in words.

Effects act for the investigator in scope, so they read as instructions ('Take 1 Dimension
Sickness Token') or after a subject ('Each investigator who is in a devoured room takes 1
Dimension Sickness Token').
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from dmtool.model.describe.chapter import (
    chapter_clause,
    component,
    describe_chapter_condition,
    thing,
)
from dmtool.model.describe.text import Described, Phrase, Side, count, join, phrase
from dmtool.model.describe.words import Names, integer, no_names, term

EffectDescriber = Callable[[Any, Names], Described]
SOURCES = {"supply": "the supply", "space": "their space", "pool": "the pool"}
PLACES = {"own_space": "in their space", "own_room": "in their room",
          "undevoured_room": "in an undevoured room"}
MODIFIERS = {
    "no-search-cards": "draws no search cards",
    "madness-per-sanity-exhausted": "suffers 1 madness for each sanity they exhaust",
    "six-counts-as-zero": "counts a rolled 6 as 0",
    "monster-die-effects-automatic": "suffers monster-die effects without rolling",
    "treated-as-six-noise-tokens": "counts as holding six noise tokens",
    "wound-per-action-in-unflooded-devoured-room":
        "suffers 1 wound for each action taken in a devoured room that is not flooded",
}
TO_SPACE = {"nearest-to-investigators-in-devoured-room":
            "to the space nearest to the investigators in the devoured room",
            "own-start-space": "to its own start space"}


def describe_chapter_effects(effects: Any, names: Names = no_names) -> tuple[Described, ...]:
    if not isinstance(effects, Sequence) or isinstance(effects, str):
        return ()
    return tuple(describe_chapter_effect(e, names) for e in effects)


def describe_chapter_effect(effect: Any, names: Names = no_names) -> Described:
    if not isinstance(effect, Mapping) or len(effect) != 1:
        return Described("", ("an effect that cannot be read",))
    ((name, value),) = effect.items()
    describer = CHAPTER_EFFECTS.get(name)
    if describer is None:
        return Described("", (f"an unknown effect '{name}'",))
    return replace(describer(value, names), source=effect)


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _none(value: Any, names: Names) -> Described:
    return Described("", ("nothing happens",))


def _gain(value: Any, names: Names) -> Described:
    value = _map(value)
    n = integer(value.get("count"))
    held = (f" (never holding more than {value['max_held']})" if "max_held" in value else "")
    return Described("take", phrase(f"{n} ", component(value.get("component"), names,
                                                       plural=n != 1),
                                    f" from {SOURCES.get(str(value.get('from')), 'the supply')}",
                                    held))


def _discard(value: Any, names: Names) -> Described:
    value = _map(value)
    amount = value.get("count", 1)
    if amount == "all":
        what: Phrase = ("every ", component(value.get("component"), names))
    else:
        n = integer(amount)
        what = (f"{n} ", component(value.get("component"), names, plural=n != 1))
    return Described("discard", phrase(what, " lying in their space"
                                       if value.get("from") == "space" else " they hold"))


def _remove(value: Any, names: Names) -> Described:
    value = _map(value)
    state = {"face_up": "face-up ", "face_down": "face-down "}.get(str(value.get("state")), "")
    piece = phrase(state, component(value.get("component"), names))
    which = {"own": phrase("their own ", piece), "space": phrase("the ", piece, " in their space"),
             "both_matching": phrase("both their ", piece, " and the matching one")}
    return Described("remove", phrase(which.get(str(value.get("which")), piece),
                                      " from the game"))


def _flip(value: Any, names: Names) -> Described:
    value = _map(value)
    side = "face up" if value.get("to") == "face_up" else "face down"
    piece = component(value.get("component"), names)
    if value.get("where") == "board":
        return Described("turn", ("every ", piece, f" on the board {side}"))
    return Described("turn", ("the ", piece, f" in their space {side}"))


def _place(value: Any, names: Names) -> Described:
    value = _map(value)
    chosen = " (the players choose the space)" if value.get("space_chosen_by") else ""
    return Described("place", phrase(thing({"component": value.get("component")}, names), " ",
                                     PLACES.get(str(value.get("where")), ""), chosen))


def _move_figure(value: Any, names: Names) -> Described:
    value = _map(value)
    n = integer(value.get("count"))
    parts: list[Any] = [thing(value.get("figure"), names, number=n)]
    if "spaces" in value:
        parts.append(f" {count(integer(value['spaces']), 'space')}")
    if "toward" in value:
        parts += [" toward ", thing(value["toward"], names, article="the")]
    if "to" in value:
        parts += [" to the space of ", thing(value["to"], names, article="the")]
    if "to_space" in value:
        parts.append(" " + TO_SPACE.get(str(value["to_space"]), str(value["to_space"])))
    if value.get("from_reserve"):
        parts.append(" (from the monster reserve if it is not on the board)")
    return Described("transport" if value.get("transport") else "move", phrase(*parts))


def _move_self(value: Any, names: Names) -> Described:
    return Described("return", ("to their own start space",))


def _spawn(value: Any, names: Names) -> Described:
    value = _map(value)
    n = integer(value.get("count"))
    what = thing({"monster": value.get("monster")}, names)
    at = value.get("at")
    where: Phrase = (
        (" in the devoured room",) if at == "devoured-room" else
        (", each in a different space",) if at == "different-spaces" else
        phrase(" in the space of ", thing(at, names, article="the")) if isinstance(at, Mapping)
        else ())
    when = " at the end of the spawn phase" if value.get("timing") else ""
    sides = ((Side(("after each one spawns",),
                   describe_chapter_effects(value["then_each"], names)),)
             if value.get("then_each") else ())
    return Described("spawn", phrase("" if n == 1 else f"{n} × ", what, where, when), sides)


def _devour_room(value: Any, names: Names) -> Described:
    then = _map(value).get("then")
    sides = ((Side(("then, in that room",), describe_chapter_effects(then, names)),)
             if then else ())
    return Described("devour", ("a room, as in the devour phase",), sides)


def _replace_monster_card(value: Any, names: Names) -> Described:
    value = _map(value)
    return Described("replace", phrase("the ", thing({"monster": value.get("from")}, names),
                                       " monster card in the activation track with the ",
                                       thing({"monster": value.get("to")}, names), " card"))


def _each_investigator(value: Any, names: Names) -> Described:
    value = _map(value)
    inner = describe_chapter_effects(value.get("effects"), names)
    where = value.get("where")
    subject: Phrase = ("each investigator",)
    if isinstance(where, Mapping):
        clause = chapter_clause(where, names)
        subject = (phrase("each investigator who ", clause.words) if clause.scoped
                   else phrase("if ", clause.words, ", each investigator"))
    if inner and all(e.verb and not e.sides for e in inner):
        return Described("", phrase(subject, " ", join([e.predicate() for e in inner])))
    return Described("", (), (Side(subject, inner),))


def _roll(value: Any, names: Names) -> Described:
    value = _map(value)
    die = "a twelve-sided die" if value.get("die") == "d12" else "a six-sided die"
    on = "on a claw" if value.get("on") == "claw" else "on a failure"
    return Described("roll", (die,), (Side((on,), describe_chapter_effects(value.get("effects"),
                                                                          names)),))


def _round_modifier(value: Any, names: Names) -> Described:
    value = _map(value)
    rule = MODIFIERS.get(str(value.get("modifier")), str(value.get("modifier")))
    applies = value.get("applies_to")
    who: Phrase = ("every investigator",)
    if isinstance(applies, Mapping):
        clause = chapter_clause(applies, names)
        who = (phrase("every investigator who ", clause.words) if clause.scoped
               else phrase("if ", clause.words, ", every investigator"))
    lasting = ("until the end of the round, " if value.get("duration", "round") == "round"
               else "for a time the rulebook does not print, ")
    return Described("", phrase(lasting, who, f" {rule}"))


def _flood_rooms(value: Any, names: Names) -> Described:
    return Described("flood", phrase("every room that holds ",
                                     thing(_map(value).get("containing"), names)))


def _reveal_infection_card(value: Any, names: Names) -> Described:
    value = _map(value)
    if value.get("who") == "every-face-down":
        words: Phrase = ("every investigator whose ", term("infection card"),
                         " is still face down reveals it")
    else:
        words = ("the investigator with the most face-down filth cards reveals their ",
                 term("infection card"))
    if value.get("tie_break"):
        words = phrase(words, "; on a tie, the tied investigators roll a die each, again and "
                              "again, until a single lowest result remains")
    return Described("", words)


def _discard_path(value: Any, names: Names) -> Described:
    return Described("discard", ("every ", component(_map(value).get("via"), names),
                                 " of the path just used"))


def _die(value: Any, names: Names) -> Described:
    return Described("die", (f"on the spot ({_map(value).get('cause', 'a rule says so')})",))


def _discard_here(value: Any, names: Names) -> Described:
    return Described("discard", ("every ", component(_map(value).get("component"), names),
                                 " lying in that figure's space"))


def _place_on_card(value: Any, names: Names) -> Described:
    value = _map(value)
    n = integer(value.get("count", 1))
    return Described("place", phrase(f"{n} ", component(value.get("component"), names,
                                                        plural=n != 1),
                                     " on the ", thing({"monster": value.get("card")}, names),
                                     " monster card"))


def _restore_room(value: Any, names: Names) -> Described:
    return Described("restore", ("the devoured room they stand in to its normal side",))


def _return_to_owner(value: Any, names: Names) -> Described:
    value = _map(value)
    piece = component(value.get("component"), names)
    which: Phrase = (("every ", piece, " in that room") if value.get("from") == "room"
                     else ("their own ", piece, ", wherever it lies,"))
    return Described("return", phrase(which, " to the investigator who placed it"))


def _spawn_along_path(value: Any, names: Names) -> Described:
    value = _map(value)
    raised = _map(value.get("treated_as"))
    rule = MODIFIERS.get(str(raised.get("modifier")), str(raised.get("modifier")))
    counts = (f" (an investigator who {rule} counts as holding at least "
              f"{integer(raised.get('count'))})" if raised else "")
    return Described("spawn", phrase(
        thing({"monster": value.get("monster")}, names),
        " figures along the shortest path to the investigator holding the most ",
        component(value.get("of"), names, plural=True), ", as many as they hold", counts))


CHAPTER_EFFECTS: dict[str, EffectDescriber] = {
    "none": _none,
    "gain": _gain,
    "discard": _discard,
    "remove_from_game": _remove,
    "flip": _flip,
    "place": _place,
    "move_figure": _move_figure,
    "move_self": _move_self,
    "spawn": _spawn,
    "devour_room": _devour_room,
    "replace_monster_card": _replace_monster_card,
    "each_investigator": _each_investigator,
    "roll": _roll,
    "round_modifier": _round_modifier,
    "flood_rooms": _flood_rooms,
    "reveal_infection_card": _reveal_infection_card,
    "discard_path": _discard_path,
    "die": _die,
    "discard_here": _discard_here,
    "place_on_card": _place_on_card,
    "restore_room": _restore_room,
    "return_to_owner": _return_to_owner,
    "spawn_along_path": _spawn_along_path,
}

__all__ = ["CHAPTER_EFFECTS", "describe_chapter_condition", "describe_chapter_effect",
           "describe_chapter_effects"]
