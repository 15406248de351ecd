"""Templates of single wanderer cards (`dmtool new card KIND NAME --wanderer W`).

Kinds a wanderer has a fixed number of (world shards, malformations, its three terrors)
come with `dmtool new wanderer` instead; their templates live in `templates.wanderer`.
"""

from __future__ import annotations

from dmtool.authoring.templates.wanderer import (
    DOMAIN_CARD,
    EXISTENCE_CARD,
    FINAL_BOSS,
    FINALE_LEGACY_CARD,
)

CODA = """\
kind: coda
id: <<id>>
wanderer: <<wanderer>>
title: <<title>>
# TODO: what gaining the card does, usually sentience changes.
effects:
  - modify_sentience: {red: 1, blue: -1}
back: [red, blue]  # TODO: the colours of the extra confrontation dice on the back
"""

ENCOUNTER_CARD = """\
kind: encounter-card
id: <<id>>
wanderer: <<wanderer>>
title: <<title>>
entry: <<entry>>  # the storybook entry read when a wanderer enters this card
encounter_kind: exploration  # or reality_shard
spawn:
  # TODO: when the card enters play (or replace 'spawn' by an 'entrance' condition).
  when: {round_at_least: 2}
  text: Spawn this card at the start of round 2.
"""

FINALE_ENCOUNTER_CARD = """\
kind: finale-encounter-card
id: <<id>>
wanderer: <<wanderer>>
ending: <<ending>>  # the only ending whose finale uses this card
title: <<title>>
entry: <<entry>>  # the storybook entry read when a wanderer enters this card
encounter_kind: exploration  # or reality_shard
spawn:
  # TODO: when the card enters play during the finale.
  when: {round_at_least: 2}
  text: Spawn this card at the start of the second finale round.
"""

WANDERER_CARD = """\
kind: wanderer-card
id: <<id>>
wanderer: <<wanderer>>
card_type: special  # TODO: what sort of card this is (treatment, gauge, ...)
title: <<title>>
text: No effect yet.  # TODO: what the card does, in your own words
"""

STORYBOOK_ENTRY = """\
entry: <<number>>
kind: <<kind>>
title: <<title>>
text: The encounter of the card <<card>>.  # TODO: write the encounter
effects:
  - end: encounter
"""

__all__ = [
    "CODA",
    "DOMAIN_CARD",
    "ENCOUNTER_CARD",
    "EXISTENCE_CARD",
    "FINALE_ENCOUNTER_CARD",
    "FINALE_LEGACY_CARD",
    "FINAL_BOSS",
    "STORYBOOK_ENTRY",
    "WANDERER_CARD",
]
