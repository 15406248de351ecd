"""The Deep Madness engine's events in words: one sentence per event of a chapter's log
('Ada gains a filth card (face down).'), joined to the event table by events.py."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dmtool.model.describe.text import count, humanise

Event = Mapping[str, Any]
WHO = "investigator"


def _n(value: Any) -> str:
    """An id as a name; anything else as plain words."""
    if isinstance(value, str) and value and value.replace("-", "").isalnum():
        return humanise(value)
    if isinstance(value, (list, tuple)):
        return ", ".join(_n(v) for v in value) if value else "none"
    if isinstance(value, Mapping):
        return ", ".join(f"{_n(k)} {_n(v)}" for k, v in value.items()) or "none"
    return "nothing" if value is None else str(value).replace("_", " ")


def _piece(e: Event) -> str:
    colour = f"{e.get('colour')} " if e.get("colour") else ""
    return f"a {colour}{_n(e.get('component')).lower()} piece"


def _amount(e: Event, noun: str) -> str:
    value = e.get("amount")
    return count(value, noun) if isinstance(value, int) else f"{_n(value)} {noun}"


CHAPTER_EVENTS: dict[str, Callable[[Event], str]] = {
    "chapter_started": lambda e: (f"{_n(e.get('chapter'))} starts "
                                  f"({count(e.get('setup_effects', 0), 'setup step')} as data)."),
    "round_began": lambda e: f"Round {e.get('round')} begins.",
    "hazard": lambda e: f"The {_n(e.get('skull'))} skull's hazard (number {e.get('number')}) resolves.",
    "no_effect": lambda e: "Nothing happens.",
    "measured": lambda e: (f"From {e.get('from')} to {e.get('to')}: distance "
                           f"{_n(e.get('distance'))}, range {_n(e.get('range'))}, "
                           f"{'in' if e.get('line_of_sight') else 'out of'} line of sight."),
    "investigator_moved": lambda e: (f"{_n(e.get(WHO))} moves from {e.get('from')} to {e.get('to')}"
                                     f"{' (moved by an effect)' if e.get('forced') else ''}."),
    "action_resolved": lambda e: f"{_n(e.get(WHO))}'s {_n(e.get('action'))} action is over.",
    "investigated": lambda e: f"{_n(e.get(WHO))} takes investigate action {e.get('action')}.",
    "rested": lambda e: f"{_n(e.get(WHO))} rests.",
    "attacked": lambda e: f"{_n(e.get(WHO))} attacks {_n(e.get('figure'))}.",
    "activated": lambda e: f"{_n(e.get('figure'))} is activated ({_n(e.get('why'))}).",
    "activation_ended": lambda e: f"{_n(e.get(WHO) or e.get('figure'))}'s activation ends.",
    "figure_spawned": lambda e: (f"{_n(e.get('figure'))} spawns on {e.get('space')}."),
    "figure_moved": lambda e: (f"{_n(e.get('figure'))} {'is carried' if e.get('transport') else 'moves'}"
                               f" from {e.get('from') or 'the reserve'} to {e.get('to')}."),
    "figure_wounded": lambda e: (f"{_n(e.get('figure'))} takes {_amount(e, 'wound')}"
                                 f"{' from ' + _n(e.get('by')) if e.get('by') else ''}."),
    "figure_killed": lambda e: (f"{_n(e.get('figure'))} is killed"
                                f"{' by ' + _n(e.get('by')) if e.get('by') else ''}."),
    "not_wounded": lambda e: f"{_n(e.get('figure'))} cannot be wounded now.",
    "not_killed": lambda e: f"{_n(e.get('figure'))} cannot be killed now.",
    "respawning": lambda e: f"{_n(e.get('figure'))} spawns again at once.",
    "spawn_waiting": lambda e: f"{_n(e.get('monster'))} will spawn at the {_n(e.get('until'))}.",
    "shortfall": lambda e: (f"No {_n(e.get('component') or e.get('monster')).lower()} is left "
                            f"in the {_n(e.get('from'))}."),
    "investigator_wounded": lambda e: f"{_n(e.get(WHO))} takes {_amount(e, 'wound')} ({_n(e.get('cause'))}).",
    "investigator_healed": lambda e: f"{_n(e.get(WHO))} heals {_amount(e, 'wound')}.",
    "investigator_killed": lambda e: f"{_n(e.get(WHO))} is killed ({_n(e.get('cause'))}).",
    "gained": lambda e: f"{_n(e.get(WHO))} takes {_piece(e)}.",
    "discarded": lambda e: (f"{_n(e.get(WHO))} discards {_piece(e)}." if e.get(WHO) else
                            f"{_piece(e).capitalize()} on {e.get('space')} is discarded."),
    "removed_from_game": lambda e: f"{_piece(e).capitalize()} leaves the game.",
    "piece_placed": lambda e: f"{_piece(e).capitalize()} is put on {e.get('space')}.",
    "piece_moved": lambda e: f"{_piece(e).capitalize()} moves from {e.get('from')} to {e.get('to')}.",
    "flipped": lambda e: f"{_piece(e).capitalize()} on {e.get('space')} turns {_n(e.get('to'))}.",
    "die_rolled": lambda e: (f"{_n(e.get(WHO))} rolls the {e.get('die')}: {_n(e.get('result'))}"
                             f"{'' if e.get('hit') else ' (no effect)'}."),
    "tie_rolls": lambda e: f"Tie rolls: {_n(e.get('rolls'))}.",
    "modified_roll": lambda e: (f"{_n(e.get(WHO))}'s {e.get('rolled')} counts as {e.get('counts')} "
                                f"({_n(e.get('modifier'))})."),
    "modifier_in_force": lambda e: (
        f"In force ({'for the round' if e.get('duration') == 'round' else 'no duration printed'}"
        f"): {_n(e.get('modifier'))}."),
    "modifier_ended": lambda e: f"No longer in force: {_n(e.get('modifier'))}.",
    "room_devoured": lambda e: f"Room {e.get('room')} is devoured.",
    "room_flooded": lambda e: f"Room {e.get('room')} floods.",
    "monster_card_replaced": lambda e: f"{_n(e.get('to'))} replaces {_n(e.get('from'))} on the track.",
    "devour_marker": lambda e: f"The devour marker moves to space {e.get('position')}.",
    "filth_card_gained": lambda e: (f"{_n(e.get(WHO))} gains a filth card"
                                    f"{' (face down)' if e.get('face_down') else ''}: "
                                    f"{_n(e.get('cause'))}."),
    "filth_card_resolved": lambda e: (f"{_n(e.get(WHO))}'s filth card {_n(e.get('card'))} gives "
                                      f"{count(e.get('tokens', 0), 'filth token')}."),
    "filth_card_discarded": lambda e: f"{_n(e.get(WHO))} discards the filth card {_n(e.get('card'))}.",
    "filth_tokens_gained": lambda e: (f"{_n(e.get(WHO))} gains {_amount(e, 'filth token')} "
                                      f"({e.get('total')} held)."),
    "filth_token_discarded": lambda e: f"{_n(e.get(WHO))} discards a filth token.",
    "infection_token_gained": lambda e: (f"{_n(e.get(WHO))} receives an infection token "
                                         f"({e.get('total')} held"
                                         f"{', now infected' if e.get('newly_infected') else ''})."),
    "infection_card_dealt": lambda e: f"{_n(e.get(WHO))} receives a face-down infection card.",
    "infection_card_revealed": lambda e: (f"{_n(e.get(WHO))}'s infection card is revealed "
                                          f"({_n(e.get('why'))})."),
    "domain_card_drawn": lambda e: (f"{_n(e.get(WHO))} draws the domain card {_n(e.get('card'))}"
                                    f" and a {_n(e.get('token'))} token."),
    "domain_cards_returned": lambda e: f"{_n(e.get('cards'))} go under the domain deck.",
    "domain_rule_required": lambda e: (f"The domain rule is in use: {_n(e.get('investigators'))}"
                                       " plays."),
    "domain_token_placed": lambda e: (f"{_n(e.get(WHO))} puts a {_n(e.get('token'))} token on "
                                      f"{_n(e.get('card'))} (slot {e.get('slot')})."),
    "enlightenment_resolved": lambda e: f"{_n(e.get('card'))} is full and resolves.",
    "enlightenment_cleared": lambda e: f"The tokens on {_n(e.get('card'))} are discarded.",
    "before_winning": lambda e: f"{_n(e.get('rule'))} holds; what it needs first resolves.",
    "chapter_won": lambda e: f"The chapter is won ({e.get('rule')}).",
    "chapter_lost": lambda e: f"The chapter is lost ({e.get('rule')}).",
    "activation_order": lambda e: f"The monster cards act in this order: {_n(e.get('order'))}.",
    "monster_attacked": lambda e: (f"{_n(e.get('figure'))} attacks "
                                   f"{_n(e.get(WHO) or e.get('target'))} "
                                   f"({_amount({'amount': e.get('damage')}, 'damage')})."),
    "special_rule": lambda e: f"The special rule {e.get('rule')} acts ({_n(e.get('at'))}).",
    "marked": lambda e: f"{_n(e.get(WHO))} marks {_n(e.get('figure'))}.",
    "oxygen_exhausted": lambda e: (f"{_n(e.get(WHO))} exhausts 1 oxygen "
                                   f"({e.get('total')} so far)."),
    "placed_on_card": lambda e: (f"A {_n(e.get('component')).lower()} piece goes on the "
                                 f"{_n(e.get('card'))} card ({e.get('total')} there)."),
    "returned": lambda e: (f"{_piece(e).capitalize()} on {e.get('space')} goes back to "
                           f"{_n(e.get(WHO))}."),
    "room_restored": lambda e: (f"Room {e.get('room')} turns back to its normal side "
                                f"({_n(e.get(WHO))})."),
    "judged": lambda e: (f"Conditions judged: {count(len(e.get('held', [])), 'holds', 'hold')}, "
                         f"{len(e.get('unheld', []))} do not."),
}
