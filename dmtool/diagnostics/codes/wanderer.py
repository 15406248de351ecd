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
             "# shard-07.yaml\nnumber: 7\n# shard-08.yaml (same wanderer)\nnumber: 7\n"),
    CodeInfo("DM251", "shards-missing", "World shard numbers missing", E,
             "A wanderer whose world shards are being authored needs all sixteen, numbered 1 to "
             "16, because the board has sixteen spaces and the otherworld die has sixteen faces. "
             "The diagnostic points at the wanderer and names the missing numbers. (A wanderer "
             "with no world shard files at all is not reported here; its manifest, if any, "
             "reports it as incomplete.)",
             "# 15 world shards name wanderer 'ilse-marrow'; none has number 16\n"),
    CodeInfo("DM252", "finale-side-shape", "Unusual finale side of a world shard", W,
             "A world shard's finale side usually shows two finale encounters for two different "
             "endings. One, three or four encounters, or two for the same ending, is allowed "
             "but probably a slip.",
             "finale:\n  encounters:\n    - {ending: A, title: Ash, entry: 301}\n"
             "    - {ending: A, title: Dust, entry: 305}\n"),
    CodeInfo("DM253", "malformation-order", "Malformation out of order", E,
             "The wanderer's 'malformations' list is in spawning order: its first item must be "
             "the malformation with number 1 of this wanderer, the second number 2, the third "
             "number 3. The listed malformation has another number or belongs to another "
             "wanderer.",
             "malformations: [the-hollow-choir, the-first-skin, the-last-mirror]  # 2, 1, 3\n"),
    CodeInfo("DM254", "malformation-unlisted", "Malformation not listed by its wanderer", E,
             "A malformation names a wanderer whose 'malformations' list does not include it. "
             "Every wanderer has exactly three malformations, all listed on the wanderer.",
             "kind: malformation\nid: a-fourth-face\nwanderer: ilse-marrow   # not in her list\n"),
    CodeInfo("DM255", "abomination-card-count", "Wrong number of abomination cards", E,
             "Every abomination comes with exactly 10 confrontation cards, 12 legacy cards and "
             "12 specific devour cards. The diagnostic points at the list with the wrong count.",
             "confrontation_cards:   # only 9 items\n  - {...}\n"),
    CodeInfo("DM256", "family-membership", "Abomination and family disagree", E,
             "An abomination names a family that does not list it, a family lists an abomination "
             "that names another family, or two families list the same abomination. Each "
             "abomination belongs to exactly one family of four.",
             "# abomination 'e'\nfamily: rage\n# family 'rage'\n"
             "abominations: [a, b, c, d]\n"),
    CodeInfo("DM257", "family-punishments", "Lineage punishments do not match the family", E,
             "A family's lineage card has one punishment per abomination of the family. A "
             "punishment names an abomination outside the family or one that already has a "
             "punishment, or an abomination of the family has none.",
             "abominations: [a, b, c, d]\npunishments:\n  - {abomination: a, text: ...}\n"),
    CodeInfo("DM258", "storybook-endings", "Endings A-D not each present once", E,
             "A storybook has four endings, A, B, C and D, each exactly once.",
             "endings:\n  - ending: A\n  - ending: A\n  - ending: C\n  - ending: D\n"),
    CodeInfo("DM259", "conclusion-entry-kind",
             "Conclusion points at a non-conclusion entry", E,
             "An ending's conclusion names an entry whose kind is not 'conclusion'. Conclusion "
             "entries close the finale and award the finale legacy card. (A conclusion that "
             "names a missing entry is a broken link, reported by the story graph stage.)",
             "conclusions:\n  - {entry: 12, title: Dawn}   # entry 12 is an exploration\n"),
    CodeInfo("DM260", "conclusion-legacy-mismatch",
             "Conclusion awards another ending's card", W,
             "A conclusion of one ending awards a finale legacy card whose 'ending' is another "
             "letter, or that belongs to another wanderer than the storybook's.",
             "- ending: B\n  conclusions:\n"
             "    - {entry: 340, title: Ash, legacy: ending-a-card}\n"),
    CodeInfo("DM261", "locked-card-not-sealed",
             "Locked card missing from the forgotten envelope", E,
             "A wanderer's locked existence cards, locked domain cards and finale legacy cards "
             "are sealed in the forgotten envelope until the story unlocks them, so each must "
             "also be listed in 'forgotten_envelope'.",
             "existence_cards:\n  locked: [second-sight]\nforgotten_envelope: []\n"),
    CodeInfo("DM262", "basic-card-sealed", "Basic card sealed in the forgotten envelope", E,
             "A basic existence card, the starting existence card or a starting domain card is "
             "available from the first game, so it cannot also be sealed in the forgotten "
             "envelope.",
             "existence_cards:\n  basic: [steady-hands]\nforgotten_envelope: [steady-hands]\n"),
    CodeInfo("DM263", "envelope-stray-card",
             "Forgotten envelope holds a card the wanderer does not list", E,
             "Every id in 'forgotten_envelope' must be one of the wanderer's own locked "
             "existence cards, locked domain cards, finale legacy cards or other cards, so the "
             "envelope and the wanderer's card lists tell the same story.",
             "forgotten_envelope: [someone-elses-card]\n"),
    CodeInfo("DM264", "card-lock-mismatch",
             "Card's 'locked' flag disagrees with the wanderer", E,
             "The wanderer lists a card as locked but the card says 'locked: false', or lists it "
             "as basic or starting but the card says 'locked: true'. Change whichever is wrong.",
             "# wanderer\nexistence_cards: {locked: [second-sight]}\n"
             "# existence card 'second-sight'\nlocked: false\n"),
    CodeInfo("DM265", "card-owner-mismatch", "Wanderer lists another wanderer's card", E,
             "A wanderer lists a card (existence, domain, finale legacy, other card, terror or "
             "final boss) whose own 'wanderer' field names a different wanderer, or a locked "
             "domain card that names no wanderer.",
             "# wanderer ilse-marrow\nterrors: [patient-aftershock]\n"
             "# terror patient-aftershock\nwanderer: emily-hawkins\n"),
    CodeInfo("DM266", "card-unlisted", "Card not listed by its wanderer", W,
             "A card names a wanderer, but that wanderer's lists do not include it, so setup "
             "never puts it in play. Add it to the matching list on the wanderer (existence "
             "cards, locked domain cards, finale legacy cards, other cards, terrors or final "
             "bosses).",
             "kind: existence-card\nid: second-sight\nwanderer: ilse-marrow  # not listed\n"),
    CodeInfo("DM267", "storybook-owner-mismatch", "Wanderer and storybook disagree", E,
             "A wanderer's 'storybook' names a storybook whose 'wanderer' is someone else, or a "
             "storybook names a wanderer whose 'storybook' is a different one.",
             "# wanderer ilse-marrow\nstorybook: bonds-of-twins   # which names emily-hawkins\n"),
    CodeInfo("DM268", "encounter-entry-kind", "Encounter leads to an entry of another kind", W,
             "A world shard encounter or encounter card is an exploration or a reality shard, "
             "and its storybook entry should have the same kind; finale encounters should lead "
             "to entries of kind 'finale'.",
             "encounter: {title: Stair, entry: 42, kind: exploration, text: ...}\n"
             "# storybook entry 42 has kind: event\n"),
)
