"""Templates of a new wanderer: its dashboard, storybook, world shards and own cards.

Every value is a valid placeholder, so the new wanderer passes `dmtool check` at once;
each `# TODO:` says what to replace. Holes: see `dmtool.authoring.templates.fill`.
"""

from __future__ import annotations

WANDERER = """\
kind: wanderer
id: <<id>>
name: <<name>>
title: Not Yet Titled  # TODO: the subtitle printed under the name
# TODO: who the wanderer is and what they are running from, in your own words.
description: <<description>>
storybook: <<storybook>>
dashboard:
  # TODO: copy the printed dashboard values.
  max_health: 8
  max_mental_capacity: 6  # never more than 10
  sentience: {red: 2, blue: 2, green: 2, yellow: 2, purple: 2}
  starting_existence_card: <<existence_card>>
  starting_domain_cards: [<<domain_card>>]
# Exactly three malformations, in spawning order (their 'number' is 1, 2, 3).
malformations: [<<malformations>>]
# The three terrors that belong to this wanderer.
terrors: [<<terrors>>]
final_bosses: [<<final_boss>>]
existence_cards:
  basic: [<<existence_card>>]  # TODO: add the other basic existence cards
  locked: []  # locked cards are also listed in forgotten_envelope
domain_cards:
  locked: []  # locked cards are also listed in forgotten_envelope
# One finale legacy card per conclusion of the storybook.
finale_legacy_cards: [<<legacy_cards>>]
other_cards: []
# Everything sealed until the story unlocks it: locked cards and finale legacy cards.
forgotten_envelope: [<<legacy_cards>>]
"""

STORYBOOK = """\
kind: storybook
id: <<id>>
wanderer: <<wanderer>>
title: <<title>>
# TODO: the introduction read before the first round, in your own words.
introduction: This story has not been written yet.
setup:
  text: No special setup yet.  # TODO: the special setup, or delete 'setup'
# Numbering used by this skeleton (renumber freely, but keep the links in step):
#   1-10     round events (round tracker N reads entry N)
#   101-116  world shard encounters (shard N reads entry 100 + N)
#   2x1      the finale of each ending starts here (A 201, B 211, C 221, D 231)
#   2x2      the finale encounter on the world shards of that ending
#   2x9      the ending's conclusion
entries:
<<entries>>
endings:
<<endings>>
"""

EVENT_ENTRY = """\
- entry: <<number>>
  kind: event
  title: Round <<number>>
  text: Nothing happens yet in round <<number>>.  # TODO: this round's event
  effects:
    - end: event
"""

SHARD_ENTRY = """\
- entry: <<number>>
  kind: exploration
  title: <<title>>
  text: The encounter of world shard <<shard>>.  # TODO: write the encounter
  effects:
    - score: {<<ending>>: 1}  # TODO: score the endings this choice leads towards
    - end: encounter
"""

FINALE_ENTRIES = """\
- entry: <<start>>
  kind: finale
  title: Ending <<ending>> Begins
  text: The finale of ending <<ending>> begins.  # TODO: write the opening
  effects:
    # TODO: conclude when the goals are met; until then the event phase ends here.
    - if:
        when: {round_at_least: 3}
        then:
          - goto: <<conclusion>>
        else:
          - end: event
- entry: <<encounter>>
  kind: finale
  title: Ending <<ending>> Encounter
  text: A finale encounter of ending <<ending>>.  # TODO: write the encounter
  effects:
    - end: encounter
- entry: <<conclusion>>
  kind: conclusion
  title: Ending <<ending>> Concluded
  text: Ending <<ending>> concludes.  # TODO: write the conclusion
  effects:
    - conclude: <<legacy>>
"""

ENDING = """\
- ending: <<ending>>
  title: Ending <<ending>>  # TODO: the ending's title
  setup:
    text: No special setup yet.  # TODO: the special setup of ending <<ending>>
  rules: No special rules yet.  # TODO: the special rules of this finale
  event_phase:
    text: Read entry <<start>> in every event phase of this finale.
    effects:
      - goto: <<start>>
  final_bosses: [<<final_bosses>>]
  goals: Survive until round 3.  # TODO: what the wanderers must achieve
  start: <<start>>
  conclusions:
    - entry: <<conclusion>>
      title: Ending <<ending>> Concluded
      legacy: <<legacy>>
"""

WORLD_SHARD = """\
kind: world-shard
id: <<id>>
wanderer: <<wanderer>>
number: <<number>>
title: World Shard <<number>>  # TODO: the shard's title
sentience: [<<sentience>>]  # TODO: the three printed sentience icons
encounter:
  title: Shard <<number>> Encounter  # TODO: the encounter's title
  entry: <<entry>>
  kind: exploration  # or reality_shard
  text: A place not yet described.  # TODO: the description printed on the shard
finale:
  # Two finale encounters for two different endings.
  encounters:
    - {ending: <<e1>>, title: Ending <<e1>> Encounter, entry: <<n1>>}
    - {ending: <<e2>>, title: Ending <<e2>> Encounter, entry: <<n2>>}
"""

MONSTER_BODY = """\
max_health: 6  # TODO: the printed values
max_mental_capacity: 4
actions:
  # In priority order: the monster takes the first action whose cost it can pay.
  - name: Lunge  # TODO: the printed actions
    cost: 2
    text: It moves 1 space and deals 1 red damage.  # TODO: the action in your own words
    effects:
      - monster_move: {spaces: 1}
      - monster_attack: {colour: red, amount: 1}
rift_abilities: []  # TODO: the domain rift abilities, if any
passive:
  text: No passive ability yet.  # TODO: the passive ability
"""

MALFORMATION = """\
kind: malformation
id: <<id>>
wanderer: <<wanderer>>
number: <<number>>  # spawns at this wanderer's death number <<number>>
name: <<name>>
<<body>>existence_reward: 3  # TODO: the printed reward
"""

TERROR = """\
kind: terror
id: <<id>>
name: <<name>>
wanderer: <<wanderer>>
<<body>>existence_reward: 2  # TODO: the printed reward
"""

FINAL_BOSS = """\
kind: final-boss
id: <<id>>
wanderer: <<wanderer>>
name: <<name>>
max_health: 12  # TODO: the printed values
max_mental_capacity: 8
actions:
  - name: Crush  # TODO: the printed actions, in priority order
    cost: 3
    text: It deals 2 purple damage.  # TODO: the action in your own words
    effects:
      - monster_attack: {colour: purple, amount: 2}
"""

EXISTENCE_CARD = """\
kind: existence-card
id: <<id>>
wanderer: <<wanderer>>
title: <<title>>
cost: 0  # TODO: the cost in existence tokens
ability: No ability yet.  # TODO: what the card lets its holder do
locked: <<locked>>  # locked cards are sealed in the forgotten envelope
"""

DOMAIN_CARD = """\
kind: domain-card
id: <<id>>
title: <<title>>
item_type: item  # TODO: the printed item type
text: No effect yet.  # TODO: what the card does, in your own words
domains:
  # TODO: the domains on the card's lower section (three or more).
  - {colour: red, type: hand}
  - {colour: blue, type: brain}
  - {colour: green, type: eye}
wanderer: <<wanderer>>
locked: <<locked>>  # locked cards are sealed in the forgotten envelope
"""

FINALE_LEGACY_CARD = """\
kind: finale-legacy-card
id: <<id>>
wanderer: <<wanderer>>
ending: <<ending>>  # awarded by a conclusion of this ending
title: <<title>>
text: No lasting effect yet.  # TODO: what the card gives, in your own words
"""
