"""Diagnostic codes of the wanderer domain rules (DM250-DM279): fixed shapes of DoM content."""

from __future__ import annotations

from dmtool.diagnostics.catalogue import CodeInfo
from dmtool.diagnostics.model import Severity

E, W = Severity.ERROR, Severity.WARNING

CODES: tuple[CodeInfo, ...] = (
    CodeInfo("DM250", "shard-number-taken", "Two world shards share a number", E,
             "Each of a wanderer's 16 world shards carries its own number from 1 to 16, the face "
             "of the otherworld die that selects it. Two shards of one wanderer with the same "
             "number make the die ambiguous.",
             'id: mara-shard-b\nwanderer: mara\nnumber: 1\ntitle: Shard 1\n',
             fixed='id: mara-shard-b\nwanderer: mara\nnumber: 2\ntitle: Shard 2\n'),
    CodeInfo("DM251", "shards-missing", "World shard numbers missing", E,
             "A wanderer whose world shards are being authored needs all sixteen, numbered 1 to "
             "16, because the board has sixteen spaces and the otherworld die has sixteen faces. "
             "The diagnostic points at the wanderer and names the missing numbers. (A wanderer "
             "with no world shard files at all is not reported here; its manifest, if any, "
             "reports it as incomplete.)",
             'id: mara-shard-16\nwanderer: mara\nnumber: 15\n',
             fixed='id: mara-shard-16\nwanderer: mara\nnumber: 16\n'),
    CodeInfo("DM252", "finale-side-shape", "Unusual finale side of a world shard", W,
             "A world shard's finale side usually shows two finale encounters for two different "
             "endings. One, three or four encounters, or two for the same ending, is allowed "
             "but probably a slip.",
             '    - {ending: C, title: Door C, entry: 1}\n    - {ending: C, title: Door C, entry: 1}\n',
             fixed='    - {ending: C, title: Door C, entry: 1}\n    - {ending: D, title: Door D, entry: 1}\n'),
    CodeInfo("DM253", "malformation-order", "Malformation out of order", E,
             "The wanderer's 'malformations' list is in spawning order: its first item must be "
             "the malformation with number 1 of this wanderer, the second number 2, the third "
             "number 3. The listed malformation has another number or belongs to another "
             "wanderer.",
             'malformations: [mara-malformation-2, mara-malformation-1, mara-malformation-3]\n',
             fixed='malformations: [mara-malformation-1, mara-malformation-2, mara-malformation-3]\n'),
    CodeInfo("DM254", "malformation-unlisted", "Malformation not listed by its wanderer", E,
             "A malformation names a wanderer whose 'malformations' list does not include it. "
             "Every wanderer has exactly three malformations, all listed on the wanderer.",
             'id: mara-malformation-4\nwanderer: mara\nnumber: 1\nname: Mara Malformation 4\n',
             fixed='id: ivo-malformation-1\nwanderer: ivo\nnumber: 1\nname: Ivo Malformation 1\n'),
    CodeInfo("DM255", "abomination-card-count", "Wrong number of abomination cards", E,
             "Every abomination comes with exactly 10 confrontation cards, 12 legacy cards and "
             "12 specific devour cards. The diagnostic points at the list with the wrong count.",
             '  - {required: {red: [hand], blue: [brain]}, existence_reward: 1, damage: 2, devour_tokens: 1, special_action: {text: It moves 2 spaces., effects: [{monster_move: {spaces: 2}}]}}\nlegacy_cards:\n',
             fixed='  - {required: {red: [hand], blue: [brain]}, existence_reward: 1, damage: 2, devour_tokens: 1, special_action: {text: It moves 2 spaces., effects: [{monster_move: {spaces: 2}}]}}\n  - {required: {red: [hand], blue: [brain]}, existence_reward: 1, damage: 2, devour_tokens: 1, special_action: {text: It moves 2 spaces., effects: [{monster_move: {spaces: 2}}]}}\nlegacy_cards:\n'),
    CodeInfo("DM256", "family-membership", "Abomination and family disagree", E,
             "An abomination names a family that does not list it, a family lists an abomination "
             "that names another family, or two families list the same abomination. Each "
             "abomination belongs to exactly one family of four.",
             'id: rancor\nname: Rancor\nfamily: rage\n',
             fixed='id: rancor\nname: Rancor\nfamily: malice\n'),
    CodeInfo("DM257", "family-punishments", "Lineage punishments do not match the family", E,
             "A family's lineage card has one punishment per abomination of the family. A "
             "punishment names an abomination outside the family or one that already has a "
             "punishment, or an abomination of the family has none.",
             '  - {abomination: fury, text: Every wanderer starts with 1 wound.}\n',
             fixed='  - {abomination: fury, text: Every wanderer starts with 1 wound.}\n  - {abomination: wrath, text: Every wanderer starts with 1 wound.}\n'),
    CodeInfo("DM258", "storybook-endings", "Endings A-D not each present once", E,
             "A storybook has four endings, A, B, C and D, each exactly once.",
             '  - ending: A\n    title: Ending A\n    setup: {text: Nothing changes.}\n    rules: The usual rules apply.\n    event_phase: {text: Nothing happens.}\n    goals: Reach the door.\n    start: 1\n    conclusions:\n      - {entry: 2, title: Morning, legacy: mara-legacy-a}\n  - ending: C\n',
             fixed='  - ending: B\n    title: Ending B\n    setup: {text: Nothing changes.}\n    rules: The usual rules apply.\n    event_phase: {text: Nothing happens.}\n    goals: Reach the door.\n    start: 1\n    conclusions:\n      - {entry: 2, title: Morning, legacy: mara-legacy-a}\n  - ending: C\n'),
    CodeInfo("DM259", "conclusion-entry-kind",
             "Conclusion points at a non-conclusion entry", E,
             "An ending's conclusion names an entry whose kind is not 'conclusion'. Conclusion "
             "entries close the finale and award the finale legacy card. (A conclusion that "
             "names a missing entry is a broken link, reported by the story graph stage.)",
             '      - {entry: 1, title: Morning}\n',
             fixed='      - {entry: 2, title: Morning}\n'),
    CodeInfo("DM260", "conclusion-legacy-mismatch",
             "Conclusion awards another ending's card", W,
             "A conclusion of one ending awards a finale legacy card whose 'ending' is another "
             "letter, or that belongs to another wanderer than the storybook's.",
             '      - {entry: 2, title: Morning, legacy: mara-legacy-a}\n  - ending: C\n',
             fixed='      - {entry: 2, title: Morning}\n  - ending: C\n'),
    CodeInfo("DM261", "locked-card-not-sealed",
             "Locked card missing from the forgotten envelope", E,
             "A wanderer's locked existence cards, locked domain cards and finale legacy cards "
             "are sealed in the forgotten envelope until the story unlocks them, so each must "
             "also be listed in 'forgotten_envelope'.",
             'forgotten_envelope: [mara-legacy-a]\n',
             fixed='forgotten_envelope: [mara-legacy-a, mara-second-sight]\n'),
    CodeInfo("DM262", "basic-card-sealed", "Basic card sealed in the forgotten envelope", E,
             "A basic existence card, the starting existence card or a starting domain card is "
             "available from the first game, so it cannot also be sealed in the forgotten "
             "envelope.",
             'forgotten_envelope: [mara-legacy-a, mara-steady-hands]\n',
             fixed='forgotten_envelope: [mara-legacy-a]\n'),
    CodeInfo("DM263", "envelope-stray-card",
             "Forgotten envelope holds a card the wanderer does not list", E,
             "Every id in 'forgotten_envelope' must be one of the wanderer's own locked "
             "existence cards, locked domain cards, finale legacy cards or other cards, so the "
             "envelope and the wanderer's card lists tell the same story.",
             'forgotten_envelope: [mara-legacy-a, rusted-key]\n',
             fixed='forgotten_envelope: [mara-legacy-a]\n'),
    CodeInfo("DM264", "card-lock-mismatch",
             "Card's 'locked' flag disagrees with the wanderer", E,
             "The wanderer lists a card as locked but the card says 'locked: false', or lists it "
             "as basic or starting but the card says 'locked: true'. Change whichever is wrong.",
             'id: mara-second-sight\nwanderer: mara\ntitle: Steady Hands\ncost: 2\nability: Once per round, reroll one red die.\nlocked: false\n',
             fixed='id: mara-second-sight\nwanderer: mara\ntitle: Steady Hands\ncost: 2\nability: Once per round, reroll one red die.\nlocked: true\n'),
    CodeInfo("DM265", "card-owner-mismatch", "Wanderer lists another wanderer's card", E,
             "A wanderer lists a card (existence, domain, finale legacy, other card, terror or "
             "final boss) whose own 'wanderer' field names a different wanderer, or a locked "
             "domain card that names no wanderer.",
             'terrors: [mara-terror-1, mara-terror-2, ivo-terror-3]\n',
             fixed='terrors: [mara-terror-1, mara-terror-2, mara-terror-3]\n'),
    CodeInfo("DM266", "card-unlisted", "Card not listed by its wanderer", W,
             "A card names a wanderer, but that wanderer's lists do not include it, so setup "
             "never puts it in play. Add it to the matching list on the wanderer (existence "
             "cards, locked domain cards, finale legacy cards, other cards, terrors or final "
             "bosses).",
             'existence_cards:\n  basic: [mara-steady-hands]\nfinale_legacy_cards',
             fixed='existence_cards:\n  basic: [mara-steady-hands, mara-second-sight]\nfinale_legacy_cards'),
    CodeInfo("DM267", "storybook-owner-mismatch", "Wanderer and storybook disagree", E,
             "A wanderer's 'storybook' names a storybook whose 'wanderer' is someone else, or a "
             "storybook names a wanderer whose 'storybook' is a different one.",
             'name: Mara Vell\nstorybook: ivo-book\n',
             fixed='name: Mara Vell\nstorybook: mara-book\n'),
    CodeInfo("DM268", "encounter-entry-kind", "Encounter leads to an entry of another kind", W,
             "A world shard encounter or encounter card is an exploration or a reality shard, "
             "and its storybook entry should have the same kind; finale encounters should lead "
             "to entries of kind 'finale'.",
             'entry: 1\nencounter_kind: exploration\n',
             fixed='entry: 3\nencounter_kind: exploration\n'),
)
