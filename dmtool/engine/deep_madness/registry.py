"""The Deep Madness rule registry and the event kinds its log holds.

Every rule module registers its effects, conditions, steps and hooks on RULES; `engine.py`
imports them all, so the registry is complete whenever a transition runs.
"""

from __future__ import annotations

from dmtool.engine.core.registry import Rules

GAME = "deep-madness"
RULES = Rules(GAME)

RULES.declare_events({
    "action_resolved": "an investigator's action has fully resolved",
    "activated": "a monster figure is activated (a step, or a rule making it act once)",
    "activation_order": "the order the monster cards act in this round, special rules applied",
    "monster_attacked": "a monster attacked an investigator or a figure it takes for one",
    "special_rule": "a chapter's special rule acted at its moment of the round",
    "activation_ended": "an investigator's or a figure's activation ended",
    "attacked": "an investigator attacked a figure",
    "before_winning": "a winning condition holds; the effects it needs first resolve",
    "chapter_lost": "a losing condition holds: the chapter is lost, and which rule",
    "chapter_started": "the chapter's special setup ran",
    "chapter_won": "a winning condition holds: the chapter is won, and which rule",
    "deck_reshuffled": "a deck ran out and its discards were shuffled into it",
    "devour_marker": "the devour marker moved along the devouring track",
    "discarded": "a token or marker was discarded back to its pool",
    "domain_card_drawn": "an investigator drew a domain card (and its token)",
    "domain_cards_returned": "domain cards looked at went under the domain deck",
    "domain_rule_required": "an investigator made the domain and enlighten rule compulsory",
    "domain_token_placed": "a domain token filled an enlightenment card's slot",
    "enlightenment_cleared": "the tokens on a resolved enlightenment card were discarded",
    "enlightenment_resolved": "a full enlightenment card's effect resolved",
    "figure_killed": "a figure died and went back to its reserve",
    "figure_moved": "a figure moved or was transported",
    "figure_wounded": "a figure took wounds",
    "filth_card_discarded": "a face-down filth card left an infection card",
    "filth_card_gained": "an investigator gained a filth card (face down, or to resolve)",
    "filth_card_resolved": "a filth card gave its filth tokens and was discarded",
    "filth_token_discarded": "an investigator discarded a filth token",
    "filth_tokens_gained": "an investigator gained filth tokens",
    "flipped": "a token or marker was turned over",
    "gained": "an investigator took a token or marker",
    "hazard": "a devouring-track hazard resolved",
    "infection_card_dealt": "an investigator received a face-down infection card",
    "infection_card_revealed": "an infection card was turned face up",
    "infection_token_gained": "an investigator received an infection token",
    "investigated": "an investigator took one of the chapter's investigate actions",
    "investigator_healed": "an investigator's wounds were healed",
    "investigator_killed": "an investigator was killed",
    "investigator_moved": "an investigator moved (or was moved)",
    "investigator_wounded": "an investigator took wounds",
    "judged": "the chapter conditions judged after a step: which held and which did not",
    "measured": "distance, range and line of sight between two spaces",
    "modified_roll": "a rule in force changed a die result",
    "modifier_ended": "a rule lasting the round ended",
    "modifier_in_force": "a rule started to bind investigators for a while",
    "monster_card_replaced": "one monster card took another's place on the activation track",
    "no_effect": "a hazard with no effect resolved",
    "not_killed": "a figure that cannot be killed now was not",
    "not_resolved": "an effect could not be resolved, and why",
    "not_wounded": "a figure that cannot take wounds now took none",
    "piece_moved": "a token or marker figure was moved",
    "piece_placed": "a token or marker was put on a space",
    "removed_from_game": "a token or marker left the game for good",
    "respawning": "a figure that spawns again when killed is spawning",
    "rested": "an investigator took a rest action",
    "die_rolled": "an investigator rolled a die for a named result",
    "returned": "a marker went back to the investigator who placed it",
    "room_restored": "a devoured room turned back to its normal side",
    "room_devoured": "a room was devoured",
    "room_flooded": "every space of a room was flooded",
    "round_began": "a new round began",
    "shortfall": "something had to be taken from a pool or reserve that had none left",
    "spawn_waiting": "a spawn waits for a later moment of the round",
    "figure_spawned": "a figure came onto the board from its reserve",
    "tie_rolls": "tied investigators' rolls",
})
