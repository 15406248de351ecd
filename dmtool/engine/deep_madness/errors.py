"""Deep Madness rejections: the stable codes of steps the rules do not allow."""

from __future__ import annotations

from dmtool.engine.core import errors as core
from dmtool.engine.core.errors import EngineFault

__all__ = ["REJECTIONS", "EngineFault", "Reject"]

# Stable rejection codes and what each means. Fixtures name them in `expect_error`.
REJECTIONS: dict[str, str] = {
    "chapter_over": "The chapter has been won or lost; nothing more happens.",
    "bad_action": "The step is malformed.",
    "unknown_investigator": "No investigator has this id.",
    "unknown_figure": "No figure with this id is on the board.",
    "unknown_space": "The board has no such space.",
    "investigator_dead": "A killed investigator takes no more actions.",
    "red_line": "A figure cannot cross a red space line by its own movement.",
    "not_adjacent": "A move goes from a space to an adjacent one, step by step.",
    "no_investigate": "The chapter has no such investigate action, or its condition does "
                      "not hold for this investigator now.",
    "no_hazard": "The chapter's devouring track has no such hazard.",
    "not_your_shadow": "An investigator may attack only the Shadow of Filth of their own "
                       "colour; the others are not monsters to them.",
    "domain_rule_off": "The domain and enlighten rule is not in use in this game.",
    "token_placed": "A domain token is placed at most once per activation.",
    "no_token": "The investigator holds no domain token of that kind.",
    "slot_mismatch": "The enlightenment card's leftmost empty slot takes another kind of "
                     "token, or the card is full.",
    "unknown_card": "No such card is in play.",
    "bad_setup": "The chapter cannot be set up this way.",
    "may_not_mark": "A special rule of the chapter forbids marking this monster now.",
    "may_not_attack": "A special rule of the chapter forbids attacking this monster now.",
    "not_a_target": "A monster attacks only investigators, and what its rules make it take "
                    "for one.",
}


class Reject(core.Reject):
    """A refused Deep Madness step; its code is one of REJECTIONS."""

    CODES = REJECTIONS
