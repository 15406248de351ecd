"""The Dawn of Madness rule registry and the event kinds its log holds.

Every rule module registers its effects, conditions, system steps and hooks on RULES;
`engine.py` imports them all, so the registry is complete whenever a transition runs.
"""

from __future__ import annotations

from typing import Final

from dmtool.engine.core.registry import Rules
from dmtool.engine.dawn_of_madness.constants import CONDITION_DECKS

GAME = "dawn-of-madness"
RULES: Final = Rules(GAME)

RULES.declare_events({
    "abomination_back": "the wanderer stage ended and the abomination card is turned over",
    "action": "a wanderer took an action and paid its cost",
    "already_on_board": "a monster that should spawn is already on the board",
    "attack": "an attack test's damage against a monster's rift",
    "capacity_lost": "a wanderer lost mental capacity",
    "capacity_overflow": "mental capacity to lose that the wanderer did not have",
    "capacity_restored": "a wanderer regained mental capacity",
    "central_died": "the central wanderer died in the finale: straight to a conclusion",
    "charge_spent": "a charged domain card spent one charge",
    "coda_exhausted": "a coda card's back was used and it is exhausted",
    "coda_gained": "a wanderer gained a coda card",
    "coda_lost": "a wanderer gave back a coda card",
    "coda_used": "a coda card's back added dice to a confrontation test",
    "concluded": "the finale ended in a conclusion",
    "condition_discarded": "a wanderer gave back a condition card",
    "condition_gained": "a wanderer received a condition card",
    "confrontation_resolved": "the abomination resolved its active confrontation card",
    "confrontation_revealed": "a new confrontation card became active",
    "damage": "a wanderer is dealt damage of a colour",
    "damage_prevented": "damage prevented by a defense test or stored eyes",
    "death_punishment": "the abomination's death punishment resolves for a dead wanderer",
    "deck_reshuffled": "a deck ran out and its discard pile was shuffled into it",
    "declined": "an optional ('may') effect was not taken",
    "devour_deck": "the devour deck was built",
    "devour_dice": "devour cards took dice away from a test",
    "devour_resolved": "a devour card's effect resolved for a wanderer",
    "died": "a wanderer died",
    "domain_card_discarded": "a wanderer discarded a domain card",
    "domain_card_gained": "a wanderer gained a domain card",
    "domains_gained": "a wanderer stored domains",
    "domains_lost": "a wanderer lost stored domains",
    "dropped_to_zero": "a character's tracker went to zero (passed, or nothing to do)",
    "encounter_ended": "an encounter ended (done, ended by an effect, or by death)",
    "encounter_spawned": "an encounter card was placed on a shard",
    "encounter_started": "a wanderer entered an encounter",
    "ended": "an 'end' effect ended the current encounter or event",
    "entrance_refused": "an entry's entrance condition did not hold",
    "entry": "a storybook entry was read",
    "existence_absorbed": "existence tokens absorbed wounds",
    "existence_card_bought": "a wanderer bought an existence card",
    "existence_gained": "a wanderer gained existence tokens",
    "existence_lost": "a wanderer lost existence tokens",
    "finale": "the finale stage was set up for an ending",
    "finale_legacy": "the central wanderer gained a finale legacy card",
    "healed": "a wanderer's wounds were healed",
    "hand_reroll": "a wanderer spent a hand to reroll dice of its colour",
    "item_in_effect": "a held domain card's lasting change applies",
    "item_out_of_effect": "a domain card left its holder and its change was taken back",
    "legacy_applied": "legacy cards changed a wanderer's starting sheet",
    "legacy_declined": "a wanderer kept an older legacy card (and took existence)",
    "legacy_gained": "a wanderer gained an abomination's legacy card",
    "legacy_replaced": "a wanderer swapped a legacy card for a new one",
    "legacy_returned": "legacy cards of an abomination that was not killed went back",
    "legacy_used": "a consumable legacy card was spent",
    "lineage_punishment": "a family's punishment for a lineage token resolved at setup",
    "lineage_token": "a family gained an abomination's lineage token",
    "lineage_token_removed": "a lineage token left its family card",
    "max_changed": "a wanderer's maximum health, capacity or domain card limit changed",
    "monster_action": "a monster took an action of its sequence",
    "monster_healed": "a monster healed wounds",
    "monster_killed": "a monster died",
    "monster_moved": "a monster moved toward its target",
    "monster_wounded": "a monster was wounded",
    "moved": "a wanderer moved (by action, or forced by an effect)",
    "no_option": "a choice had no option whose condition held",
    "not_resolved": "an effect could not be resolved, and why",
    "option": "the option picked in a choice",
    "phase": "a new phase of the round began",
    "placed": "a figure was placed at setup",
    "refresh_step": "a step of the refresh phase began",
    "release_die": "a trapped wanderer bought an extra die for a release test",
    "released": "a trapped wanderer was released",
    "respawned": "a dead wanderer respawned",
    "rift_ability": "a monster's rift ability resolved",
    "rift_broken": "an attack broke a monster's domain rift",
    "rifts": "a monster's domain rifts were rolled",
    "rolled": "dice were rolled for a wanderer or monster",
    "score": "ending scores changed",
    "sentience_changed": "a wanderer's sentience values changed",
    "setup": "the game was set up",
    "skull_help": "another wanderer spent a skull for an extra die",
    "spawned": "a monster was put on the board",
    "spent_domains": "a wanderer spent stored domains",
    "stage_failed": "the wanderer stage failed, and why",
    "stage_won": "the wanderer stage was won",
    "storybook_setup": "the storybook's special setup resolved",
    "test": "a test's requirement and whether it passed",
    "token_placed": "a token was put on a shard",
    "token_removed": "a token was taken off a shard",
    "traded": "two wanderers traded domain cards",
    "trapped": "a wanderer was trapped in an encounter",
    "unchanged": "a summoned dead wanderer's health or capacity could not change",
    "unlocked": "a sealed card was unlocked for this and later games",
    "wanderer_reset": "a wanderer went back to its original state between games",
    "wounded": "a wanderer took wounds",
})

# The condition card types a wanderer can hold: one deck each (size, and whether discards go
# to its bottom, are in constants).
RULES.declare_condition_cards(
    {kind: f"a deck of {size} condition cards" for kind, (size, _) in CONDITION_DECKS.items()}
)
