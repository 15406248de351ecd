"""The rules engine's event log in words: one sentence per event ('Hollis Brandt takes 2
green damage from The Accretion.'), for `dmtool play` and scenario explanations.

Events are plain mappings ({'event': name, ...fields}); every event name the engine emits
has a sentence here (a test reads the engine's source for them). An event this table does
not know still reads as words: its name and its fields, never `key=value`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from dmtool.model.describe.chapter_events import CHAPTER_EVENTS
from dmtool.model.describe.text import count, humanise

Event = Mapping[str, Any]


def _name(value: Any) -> str:
    """An id as a name ('the-tolling-deacon' -> 'The Tolling Deacon'); numbers as they are."""
    if isinstance(value, str) and value and value.replace("-", "").isalnum():
        return humanise(value)
    return _words(value)


def _words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(_words(v) for v in value) if value else "none"
    if isinstance(value, Mapping):
        return ", ".join(f"{_words(k)} {_words(v)}" for k, v in value.items()) or "none"
    if value is None:
        return "nothing"
    return str(value).replace("_", " ")


def _source(value: Any) -> str:
    return "an effect" if value == "effect" else _name(value)


def _dice(value: Any) -> str:
    """{'blue': ['brain', 'skull']} -> 'blue brain, blue skull'."""
    if isinstance(value, Mapping):
        return ", ".join(f"{c} {t}" for c, faces in value.items() for t in faces) or "no dice"
    return _words(value)


def _signed(changes: Any, unit: str = "") -> str:
    if not isinstance(changes, Mapping):
        return _words(changes)
    return ", ".join(f"{k} {'+' if v > 0 else ''}{v}{unit}" for k, v in changes.items())


def _n(e: Event, key: str, noun: str) -> str:
    value = e.get(key)
    return count(value, noun) if isinstance(value, int) else f"{_words(value)} {noun}"


Template = Callable[[Event], str]
W = "wanderer"

EVENTS: dict[str, Template] = {
    "setup": lambda e: (f"Setup: {e.get('players')} player(s), {e.get('wanderers')} wanderers, "
                        f"score goal {e.get('score_goal')}"
                        f"{', devour rule' if e.get('devour_rule') else ''}."),
    "storybook_setup": lambda e: "The storybook's setup is resolved.",
    "phase": lambda e: (f"Round {e.get('round')}: the {_words(e.get('phase'))} phase"
                        f"{' of the ' + _words(e.get('stage')) + ' stage' if e.get('stage') else ''}"
                        " begins."),
    "refresh_step": lambda e: f"Refresh: {_words(e.get('name'))}.",
    "placed": lambda e: f"{_name(e.get('character'))} is placed on shard {e.get('shard')}.",
    "entry": lambda e: f"{_name(e.get(W))} reads entry {e.get('entry')}.",
    "entrance_refused": lambda e: f"Entry {e.get('entry')}'s entrance condition does not hold.",
    "encounter_started": lambda e: (f"{_name(e.get(W))} starts the encounter at entry "
                                    f"{e.get('entry')}"
                                    f"{' (card ' + _name(e.get('card')) + ')' if e.get('card') else ''}."),
    "encounter_ended": lambda e: (f"{_name(e.get(W))}'s encounter at entry {e.get('entry')} ends"
                                  f"{' (' + _words(e.get('reason')) + ')' if e.get('reason') else ''}."),
    "ended": lambda e: f"The {_words(e.get('what'))} ends.",
    "option": lambda e: f"Option chosen: “{e.get('label')}”.",
    "no_option": lambda e: f"No option can be taken (of {_words(e.get('options'))}).",
    "declined": lambda e: "The optional effects are declined.",
    "chose": lambda e: f"Decision ({_words(e.get('question'))}): {_words(e.get('answer'))}.",
    "action": lambda e: (f"{_name(e.get(W))} takes the {_words(e.get('action'))} action "
                         f"(cost {e.get('cost')}"
                         f"{', support card ' + _name(e.get('support')) if e.get('support') else ''})."),
    "moved": lambda e: (f"{_name(e.get(W))} moves from shard {e.get('from')} to shard "
                        f"{e.get('to')}{' (forced)' if e.get('forced') else ''}."),
    "rolled": lambda e: f"{_name(e.get('who'))} rolls for the {_words(e.get('why'))}: {_dice(e.get('dice'))}.",
    "test": lambda e: (f"{_name(e.get(W))}'s {_words(e.get('kind'))} test needing "
                       f"{_words(e.get('need'))} {'passes' if e.get('passed') else 'fails'}"
                       f"{'' if e.get('passed') else ' (missing ' + _words(e.get('missing')) + ')'}."),
    "hand_reroll": lambda e: f"{_name(e.get(W))} spends {_words(e.get('spent'))} to reroll.",
    "skull_help": lambda e: (f"{_name(e.get('helper'))} spends {_words(e.get('spent'))} to help "
                             f"{_name(e.get(W))}."),
    "release_die": lambda e: f"{_name(e.get(W))} buys an extra {_words(e.get('colour'))} die.",
    "attack": lambda e: (f"{_name(e.get(W))} attacks {_name(e.get('monster'))}"
                         f"{' at the ' + _words(e.get('rift')) + ' rift' if e.get('rift') else ''}"
                         f" for {e.get('damage')} damage."),
    "damage": lambda e: (f"{_name(e.get(W))} receives {e.get('amount')} {_words(e.get('colour'))} "
                         f"damage from {_source(e.get('source'))}."),
    "damage_prevented": lambda e: f"{_name(e.get(W))} prevents {e.get('amount')} damage.",
    "wounded": lambda e: (f"{_name(e.get(W))} takes {_n(e, 'amount', 'wound')} "
                          f"({_name(e.get('cause'))})."),
    "healed": lambda e: f"{_name(e.get(W))} restores {e.get('amount')} health.",
    "died": lambda e: f"{_name(e.get(W))} dies on shard {e.get('shard')}.",
    "respawned": lambda e: (f"{_name(e.get(W))} comes back on shard {e.get('shard')} "
                            f"(healed {e.get('healed')})."),
    "central_died": lambda e: (f"The central wanderer {_name(e.get(W))} dies; the finale "
                               f"concludes at entry {e.get('conclusion')}."),
    "unchanged": lambda e: (f"{_name(e.get(W))}'s {_words(e.get('what'))} is unchanged "
                            f"({_words(e.get('reason'))})."),
    "capacity_lost": lambda e: (f"{_name(e.get(W))} loses {e.get('amount')} mental capacity"
                                f"{' (' + _words(e.get('cause')) + ')' if e.get('cause') else ''}."),
    "capacity_overflow": lambda e: (f"{_name(e.get(W))} has no mental capacity left for "
                                    f"{e.get('amount')} more; it becomes lost health."),
    "capacity_restored": lambda e: f"{_name(e.get(W))} restores {e.get('amount')} mental capacity.",
    "dropped_to_zero": lambda e: f"{_name(e.get('character'))}'s mental capacity drops to zero.",
    "existence_gained": lambda e: f"{_name(e.get(W))} gains {_n(e, 'amount', 'existence token')}.",
    "existence_lost": lambda e: f"{_name(e.get(W))} loses {_n(e, 'amount', 'existence token')}.",
    "existence_absorbed": lambda e: (f"{_name(e.get(W))} gives up "
                                     f"{_n(e, 'amount', 'existence token')} instead of health."),
    "existence_card_bought": lambda e: (f"{_name(e.get(W))} buys the existence card "
                                        f"{_name(e.get('card'))} for {e.get('price')}."),
    "domains_gained": lambda e: f"{_name(e.get(W))} stores {_words(e.get('domains'))}.",
    "domains_lost": lambda e: f"{_name(e.get(W))} loses the domains {_words(e.get('domains'))}.",
    "spent_domains": lambda e: f"{_name(e.get(W))} spends {_words(e.get('domains'))}.",
    "domain_card_gained": lambda e: f"{_name(e.get(W))} gains the domain card {_name(e.get('card'))}.",
    "domain_card_discarded": lambda e: (f"{_name(e.get(W))} discards the domain card "
                                        f"{_name(e.get('card'))} ({_words(e.get('why'))})."),
    "charge_spent": lambda e: (f"{_name(e.get(W))} spends a charge of {_name(e.get('card'))} "
                               f"({e.get('left')} left)."),
    "item_in_effect": lambda e: f"{_name(e.get('card'))} now affects {_name(e.get(W))}.",
    "item_out_of_effect": lambda e: f"{_name(e.get('card'))} no longer affects {_name(e.get(W))}.",
    "traded": lambda e: (f"{_name(e.get(W))} trades {_words(e.get('gave'))} to "
                         f"{_name(e.get('partner'))} for {_words(e.get('took'))}."),
    "coda_gained": lambda e: f"{_name(e.get(W))} gains the coda card {_name(e.get('coda'))}.",
    "coda_lost": lambda e: f"{_name(e.get(W))} returns the coda card {_name(e.get('coda'))}.",
    "coda_used": lambda e: f"{_name(e.get(W))} uses the coda card {_name(e.get('coda'))}.",
    "coda_exhausted": lambda e: f"{_name(e.get(W))} has used up {_name(e.get('coda'))}.",
    "condition_gained": lambda e: (f"{_name(e.get(W))} receives a {_name(e.get('condition'))} "
                                   "condition card."),
    "condition_discarded": lambda e: (f"{_name(e.get(W))} discards a {_name(e.get('condition'))} "
                                      f"condition card (to the {_words(e.get('to'))} of its deck)."),
    "sentience_changed": lambda e: f"{_name(e.get(W))}'s sentience changes: {_signed(e.get('changes'))}.",
    "max_changed": lambda e: (f"{_name(e.get(W))}'s maximums are now: health {e.get('health')}, "
                              f"mental capacity {e.get('mental_capacity')}, domain cards "
                              f"{e.get('domain_cards')}."),
    "trapped": lambda e: f"{_name(e.get(W))} is trapped on shard {e.get('shard')}.",
    "released": lambda e: f"{_name(e.get(W))} breaks free.",
    "score": lambda e: f"Ending scores change: {_signed(e.get('changes'))}.",
    "token_placed": lambda e: f"A {_words(e.get('token'))} token is placed on shard {e.get('shard')}.",
    "token_removed": lambda e: (f"A {_words(e.get('token'))} token is removed from shard "
                                f"{e.get('shard')}."),
    "unlocked": lambda e: f"{_name(e.get('card'))} is taken out of the forgotten envelope.",
    "encounter_spawned": lambda e: (f"The encounter card {_name(e.get('card'))} is spawned on "
                                    f"shard {e.get('shard')}."),
    "spawned": lambda e: (f"{_name(e.get('monster'))} ({_words(e.get('kind'))}) spawns on shard "
                          f"{e.get('shard')}"
                          f"{' (' + _words(e.get('why')) + ')' if e.get('why') else ''}."),
    "already_on_board": lambda e: f"{_name(e.get('monster'))} is already on the board.",
    "rifts": lambda e: f"{_name(e.get('monster'))}'s domain rifts: {_words(e.get('rifts'))}.",
    "rift_broken": lambda e: f"{_name(e.get('monster'))}'s {_words(e.get('rift'))} rift is broken.",
    "rift_ability": lambda e: f"{_name(e.get('monster'))}'s rift ability joins its action.",
    "monster_action": lambda e: (f"{_name(e.get('monster'))} takes action {e.get('action')} "
                                 f"(cost {e.get('cost')})."),
    "monster_moved": lambda e: (f"{_name(e.get('monster'))} moves from shard {e.get('from')} to "
                                f"shard {e.get('to')} toward {_name(e.get('toward'))}."),
    "monster_healed": lambda e: f"{_name(e.get('monster'))} restores {e.get('amount')} health.",
    "monster_wounded": lambda e: (f"{_name(e.get('monster'))} takes {_n(e, 'amount', 'wound')} "
                                  f"from {_name(e.get('by'))}."),
    "monster_killed": lambda e: f"{_name(e.get('monster'))} is killed by {_name(e.get('by'))}.",
    "confrontation_revealed": lambda e: f"Confrontation card {e.get('card')} is revealed.",
    "confrontation_resolved": lambda e: f"Confrontation card {e.get('card')} is resolved.",
    "deck_reshuffled": lambda e: f"The {_words(e.get('deck'))} deck is reshuffled.",
    "devour_deck": lambda e: f"The devour deck holds {_n(e, 'cards', 'card')}.",
    "devour_dice": lambda e: (f"{_name(e.get(W))} reveals {_words(e.get('cards'))} devour "
                              f"card(s); dice removed: {_words(e.get('removed'))}."),
    "devour_resolved": lambda e: f"{_name(e.get(W))} resolves devour card {_name(e.get('card'))}.",
    "death_punishment": lambda e: (f"{_name(e.get('abomination'))} punishes the death of "
                                   f"{_name(e.get(W))}."),
    "lineage_punishment": lambda e: (f"The {_name(e.get('family'))} family's lineage punishes: "
                                     f"{_name(e.get('abomination'))}."),
    "lineage_token": lambda e: (f"{_name(e.get('abomination'))} gains a {_name(e.get('family'))} "
                                "lineage token."),
    "lineage_token_removed": lambda e: (f"{_name(e.get('abomination'))}'s "
                                        f"{_name(e.get('family'))} lineage token is removed."),
    "abomination_back": lambda e: (f"{_name(e.get('abomination'))}'s back side is resolved "
                                   f"({_words(e.get('section'))})."),
    "finale": lambda e: f"The finale of ending {e.get('ending')} begins (scores {_words(e.get('scores'))}).",
    "concluded": lambda e: (f"The finale concludes at entry {e.get('entry')}; finale legacy card "
                            f"{_name(e.get('legacy'))}."),
    "finale_legacy": lambda e: (f"{_name(e.get(W))} keeps the finale legacy card "
                                f"{_name(e.get('card'))}"
                                f"{' instead of ' + _name(e.get('replaced')) if e.get('replaced') else ''}."),
    "legacy_applied": lambda e: f"{_name(e.get(W))}'s legacy cards take effect.",
    "legacy_gained": lambda e: f"{_name(e.get(W))} gains the legacy card {_name(e.get('card'))}.",
    "legacy_declined": lambda e: f"{_name(e.get(W))} declines the legacy card {_name(e.get('card'))}.",
    "legacy_replaced": lambda e: (f"{_name(e.get(W))} takes the legacy card {_name(e.get('card'))} "
                                  f"and returns {_name(e.get('returned'))}."),
    "legacy_returned": lambda e: f"{_name(e.get(W))} returns the legacy cards {_words(e.get('cards'))}.",
    "legacy_used": lambda e: f"{_name(e.get(W))} uses the legacy card {_name(e.get('card'))}.",
    "wanderer_reset": lambda e: f"{_name(e.get(W))} is reset for the next game.",
    "rejected": lambda e: f"The action is refused ({_words(e.get('code'))}).",
    "not_resolved": lambda e: (f"The {_words(e.get('effect'))} effect cannot be resolved: "
                               f"{_words(e.get('reason'))}."),
    "stage_won": lambda e: f"The wanderer stage is won ({_words(e.get('reason'))}).",
    "stage_failed": lambda e: f"The wanderer stage is failed ({_words(e.get('reason'))}).",
}
EVENTS.update(CHAPTER_EVENTS)  # Deep Madness chapters (the two games share no event name)
HIDDEN = ("step", "event")


def describe_event(event: Event) -> str:
    """One event as a sentence."""
    template = EVENTS.get(str(event.get("event")))
    if template is not None:
        return template(event)
    fields = [f"{_words(k)} {_short(v)}" for k, v in event.items()
              if k not in HIDDEN and v not in (None, [], {})]
    head = _words(event.get("event")).capitalize()
    return f"{head}: {', '.join(fields)}." if fields else f"{head}."


def _short(value: Any) -> str:
    if isinstance(value, (str, int, float, bool)) or value is None:
        return _name(value) if isinstance(value, str) else _words(value)
    text = _words(value)
    return text if len(text) < 200 else json.dumps(value)[:200]
