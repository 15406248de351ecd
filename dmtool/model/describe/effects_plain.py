"""The plain (non-branching) Dawn of Madness effects in words: a wanderer's health, mind,
existence, domains and cards; spawns and tokens on the board; monsters' actions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dmtool.model.describe.text import Described, Phrase, count, join, phrase
from dmtool.model.describe.words import (
    COLOURS,
    ENDINGS,
    TOKENS,
    Names,
    counted_term,
    domain_noun,
    ending,
    integer,
    monster,
    ref,
    shard,
    signed_change,
    term,
    wanderer,
)

EffectDescriber = Callable[[Any, Names], Described]


def _amount(verb: str, key: str, tail: str = "") -> EffectDescriber:
    """'lose 2 mental capacity', 'gain 1 existence token'."""
    def describe(value: Any, names: Names) -> Described:
        return Described(verb, phrase(counted_term(integer(value), key), tail))
    return describe


def _score(value: Any, names: Names) -> Described:
    value = value if isinstance(value, Mapping) else {}
    gains = [phrase(count(value[e], "point"), " to ", ending(e))
             for e in ENDINGS if integer(value.get(e), 0) > 0]
    losses = [phrase(count(-value[e], "point"), " from ", ending(e))
              for e in ENDINGS if integer(value.get(e), 0) < 0]
    if gains and losses:
        return Described("add", phrase(join(gains), " and remove ", join(losses)))
    return Described("add", join(gains)) if gains else Described("remove", join(losses))


def _take_damage(value: Any, names: Names) -> Described:
    value = value if isinstance(value, Mapping) else {}
    return Described("take", (f"{integer(value.get('amount'))} {value.get('colour')} ",
                              term("damage")))


def _domains(verb: str, tail: str) -> EffectDescriber:
    def describe(value: Any, names: Names) -> Described:
        return Described(verb, phrase(domain_noun(value), tail))
    return describe


def _gain_domain_card(value: Any, names: Names) -> Described:
    value = value if isinstance(value, Mapping) else {}
    if "card" in value:
        return Described("gain", ("the ", term("domain card"), " ",
                                  ref("domain-card", value["card"], names)))
    return Described("draw", phrase(counted_term(integer(value.get("count")), "domain card"),
                                    " from the domain deck"))


def _discard_domain_card(value: Any, names: Names) -> Described:
    n = integer(value.get("count") if isinstance(value, Mapping) else None)
    return Described("discard", phrase(counted_term(n, "domain card"), " of your choice"))


def _coda(verb: str) -> EffectDescriber:
    def describe(value: Any, names: Names) -> Described:
        return Described(verb, ("the ", term("coda card"), " ", ref("coda", value, names)))
    return describe


def _condition_cards(verb: str) -> EffectDescriber:
    def describe(value: Any, names: Names) -> Described:
        value = value if isinstance(value, Mapping) else {}
        n = integer(value.get("count"))
        card = ref("condition-type", value.get("type"), names)
        return Described(verb, (f"{n} ", card, " ",
                                term("condition card", "condition card" if n == 1
                                     else "condition cards")))
    return describe


def _modify_sentience(value: Any, names: Names) -> Described:
    value = value if isinstance(value, Mapping) else {}
    changes = [signed_change(value[c], (f"{c} ", term("sentience"))) for c in COLOURS if c in value]
    return _changes(changes)


def _modify_max(value: Any, names: Names) -> Described:
    value = value if isinstance(value, Mapping) else {}
    what = {"health": ("max ", term("health")),
            "mental_capacity": ("max ", term("mental capacity")),
            "domain_cards": ("the ", term("domain card"), " limit")}
    return _changes([signed_change(integer(value[k], 0), words)
                     for k, words in what.items() if k in value])


def _changes(changes: list[tuple[str, Phrase]]) -> Described:
    """Several (verb, words) changes as one effect: 'raise red sentience by 1 and lower ...'."""
    if not changes:
        return Described("", ("nothing changes",))
    (verb, first), rest = changes[0], changes[1:]
    return Described(verb, join([first, *(phrase(f"{v} ", words) for v, words in rest)]))


def _trap(value: Any, names: Names) -> Described:
    return Described("become", (term("trapped"), " on the current ", term("world shard"),
                                ": only the instructed actions until released"))


def _release_trap(value: Any, names: Names) -> Described:
    return Described("break", ("free: no longer ", term("trapped")))


def _move_wanderer(value: Any, names: Names) -> Described:
    return Described("move", shard(value, preposition="to"))


def _unlock(value: Any, names: Names) -> Described:
    cards = [(ref("card", c, names),) for c in value] if isinstance(value, list) else []
    return Described("take", phrase(join(cards), " out of the ", term("forgotten envelope"),
                                    " (unlocked for later games too)"))


def _spawn_terror(value: Any, names: Names) -> Described:
    value = value if isinstance(value, Mapping) else {}
    n = integer(value.get("count"))
    which = value.get("terror")
    if which == "random":
        what: Phrase = (f"{n} random ", term("terror", "terror" if n == 1 else "terrors"),
                        " from the top of the terror deck")
    else:
        what = phrase("" if n == 1 else f"{n} × ", "the ", term("terror"), " ",
                      ref("monster", which, names))
    apart = " (each on a different shard)" if value.get("different_shards") else ""
    return Described("spawn", phrase(what, " ", shard(value.get("shard", "random")), apart))


def _spawn_malformation(value: Any, names: Names) -> Described:
    value = value if isinstance(value, Mapping) else {}
    owner = wanderer(value.get("wanderer"), names)
    return Described("spawn", phrase(term("malformation"), f" {value.get('number')} of ", owner,
                                     " ", shard(value.get("shard", "current"))))


def _spawn(noun: str, key: str, kind: str) -> EffectDescriber:
    def describe(value: Any, names: Names) -> Described:
        value = value if isinstance(value, Mapping) else {}
        return Described("spawn", ("the ", term(noun), " ", ref(kind, value.get(key), names),
                                   " ", *shard(value.get("shard", "random"))))
    return describe


def _token(verb: str, preposition: str) -> EffectDescriber:
    def describe(value: Any, names: Names) -> Described:
        value = value if isinstance(value, Mapping) else {}
        token = TOKENS.get(str(value.get("token")), f"{value.get('token')} token")
        return Described(verb, phrase("a ", term(token), " ",
                                      shard(value.get("shard", "current"),
                                            preposition=preposition)))
    return describe


def _damage_monster(value: Any, names: Names) -> Described:
    value = value if isinstance(value, Mapping) else {}
    return Described("deal", phrase(f"{integer(value.get('amount'))} ", term("damage"), " to ",
                                    monster(value.get("monster"), names)))


def _resolve_devour_card(value: Any, names: Names) -> Described:
    return Described("resolve", ("the top ", term("devour card"), " if a ", term("devour token"),
                                 " lies in your space (devour rule only)"))


TARGETS = {"nearest_wanderer": "the nearest wanderer", "central_wanderer": "the central wanderer",
           "most_wounded_wanderer": "the most wounded wanderer"}


def _targets(value: Mapping[str, Any]) -> str:
    """'the nearest wanderer within 1 space', 'every wanderer in its space'."""
    reach = value.get("range")
    where = ("" if reach is None else " in its space" if reach == 0
             else f" within {count(integer(reach), 'space')}")
    every = value.get("targets") == "all_in_range"
    return ("every wanderer" if every else "the nearest wanderer") + where


def _monster_move(value: Any, names: Names) -> Described:
    value = value if isinstance(value, Mapping) else {}
    toward = TARGETS.get(str(value.get("toward")), "the nearest wanderer")
    spaces = count(integer(value.get("spaces")), "space")
    return Described("", (f"the monster moves up to {spaces} toward {toward}",))


def _monster_attack(value: Any, names: Names) -> Described:
    value = value if isinstance(value, Mapping) else {}
    amount = f"the monster deals {integer(value.get('amount'))} {value.get('colour')} "
    return Described("", (amount, term("damage"), f" to {_targets(value)}"))


def _monster_drain(value: Any, names: Names) -> Described:
    value = value if isinstance(value, Mapping) else {}
    return Described("", (f"{_targets(value)} loses {integer(value.get('amount'))} ",
                          term("mental capacity"), " to the monster"))


def _monster_heal(value: Any, names: Names) -> Described:
    return Described("", (f"the monster restores {integer(value)} ", term("health")))


def _resolve_confrontation_card(value: Any, names: Names) -> Described:
    return Described("", ("the ", term("abomination"),
                          " resolves the special action of the active ",
                          term("confrontation card")))


PLAIN: dict[str, EffectDescriber] = {
    "score": _score,
    "restore_health": _amount("restore", "health"),
    "restore_mental_capacity": _amount("restore", "mental capacity"),
    "lose_health": _amount("lose", "health", " (wounds, with no defense test)"),
    "lose_mental_capacity": _amount("lose", "mental capacity"),
    "take_damage": _take_damage,
    "gain_existence": _amount("gain", "existence token"),
    "lose_existence": _amount("lose", "existence token"),
    "gain_domain": _domains("store", " on the dashboard"),
    "lose_domain": _domains("spend", " from the dashboard (as many as there are)"),
    "gain_domain_card": _gain_domain_card,
    "discard_domain_card": _discard_domain_card,
    "gain_coda": _coda("gain"),
    "lose_coda": _coda("return"),
    "gain_condition": _condition_cards("receive"),
    "discard_condition": _condition_cards("discard"),
    "modify_sentience": _modify_sentience,
    "modify_max": _modify_max,
    "trap": _trap,
    "release_trap": _release_trap,
    "move_wanderer": _move_wanderer,
    "unlock": _unlock,
    "spawn_terror": _spawn_terror,
    "spawn_malformation": _spawn_malformation,
    "spawn_encounter": _spawn("encounter card", "card", "card"),
    "spawn_final_boss": _spawn("final boss", "boss", "final-boss"),
    "place_token": _token("place", "on"),
    "remove_token": _token("remove", "from"),
    "damage_monster": _damage_monster,
    "resolve_devour_card": _resolve_devour_card,
    "monster_move": _monster_move,
    "monster_attack": _monster_attack,
    "monster_drain": _monster_drain,
    "monster_heal": _monster_heal,
    "resolve_confrontation_card": _resolve_confrontation_card,
}
