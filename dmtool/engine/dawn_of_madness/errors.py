"""Dawn of Madness rejections: the stable codes of actions the rules do not allow."""

from __future__ import annotations

from dmtool.engine.core import errors as core
from dmtool.engine.core.errors import EngineFault

__all__ = ["REJECTIONS", "EngineFault", "Reject"]

# Stable rejection codes and what each means. Fixtures name them in `expect_error`.
REJECTIONS: dict[str, str] = {
    "stage_over": "The stage has ended; no more actions can be taken.",
    "wrong_phase": "This action belongs to another phase of the round.",
    "unknown_wanderer": "No wanderer has this id.",
    "unknown_monster": "No monster with this id is on the board.",
    "unknown_card": "No card with this id exists, or it is not where the action needs it.",
    "wanderer_dead": "A dead wanderer is out of the game until they respawn.",
    "not_your_turn": "Another character is the active character.",
    "trapped": "A trapped wanderer can only take the action the trap allows.",
    "not_enough_capacity": "The wanderer cannot pay the action's mental capacity.",
    "bad_brain_payment": "Brain domains of that colour cannot pay for this action, or none "
                         "is stored.",
    "too_far": "The destination or target is more than 3 spaces away.",
    "no_path": "The route does not follow the board's paths.",
    "bad_move": "A move goes at least one space.",
    "abomination_not_attackable": "The abomination is harmed only by confrontations and "
                                  "effects.",
    "no_such_rift": "The monster has no such domain rift.",
    "void_shard": "A void token blocks encounter, domain and search actions on this shard.",
    "encounter_completed": "This shard's encounter has already been completed.",
    "no_encounter": "There is no such encounter here.",
    "entrance_condition": "The encounter's entrance condition does not hold.",
    "once_per_round": "This action can only be taken once per round.",
    "deck_empty": "The deck and its discard pile are both empty.",
    "no_partner": "Trading needs another living wanderer in the same space.",
    "card_not_held": "The card is not held by the wanderer who would give or use it.",
    "not_enough_existence": "The wanderer does not have enough existence tokens.",
    "no_abomination": "The abomination is not on the board.",
    "no_active_card": "There is no active confrontation card.",
    "support_unavailable": "This support card is not in the game or is face down.",
    "support_twice": "Two support cards cannot be used one right after the other.",
    "support_action": "The support card does not offer this action.",
    "no_component_action": "The card has no action to take.",
    "bad_setup": "The game cannot be set up this way.",
    "not_summonable": "Only a dead wanderer is summoned into an encounter.",
    "bad_action": "The action is malformed.",
    "no_finale": "The finale is set up only after the wanderer stage is won.",
    "no_confrontation": "There are no confrontation actions in the finale stage.",
    "not_tradeable": "Coda cards cannot be traded or discarded by choice.",
    "legacy_unavailable": "The wanderer holds no such consumable legacy card, has spent it "
                          "this game, or has already used one this round.",
}


class Reject(core.Reject):
    """A refused Dawn of Madness action; its code is one of REJECTIONS."""

    CODES = REJECTIONS
