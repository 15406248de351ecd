"""Diagnostic codes of the rulebook domain rules (DM210-DM249): manifests, chapters, supplies, campaigns."""

from __future__ import annotations

from dmtool.diagnostics.catalogue import CodeInfo
from dmtool.diagnostics.model import Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

_MANIFESTS: tuple[CodeInfo, ...] = (
    CodeInfo("DM210", "manifest-exceeded", "More authored cards than the box holds", E,
             "A manifest line says how many of a component exist; the documents counted against it "
             "(its 'counts' filter) outnumber that. Either a document is extra or duplicated, or the "
             "filter counts documents it should not.",
             '  - {id: search-cards, line: 3, name: Search Cards, count: 1,\n',
             fixed='  - {id: search-cards, line: 3, name: Search Cards, count: 2,\n'),
    CodeInfo("DM211", "manifest-incomplete", "Manifest not fully authored", I,
             "Some lines of a manifest have fewer authored documents than the printed count. This "
             "is normal while a wanderer or expansion is being written (or when its texts are not "
             "published); the diagnostic lists the lines that are short.",
             'id: mini\n',
             fixed="id: mini  # dmtool: ignore[DM211] the second search card's text is not published\n"),
    CodeInfo("DM212", "manifest-breakdown", "Breakdown does not add up", E,
             "The parts printed after a component must add up to its count, and an even breakdown "
             "('N per X', 'N types, M of each') must multiply out to it.",
             '    count: 3\n    parts:\n',
             fixed='    count: 2\n    parts:\n'),
    CodeInfo("DM213", "duplicate-component-id", "Component id used twice in a manifest", E,
             "Every line and part of a manifest needs its own id, because other documents refer "
             "to components by it.",
             '      - {id: boss-figure, name: Egg, count: 1}\n',
             fixed='      - {id: egg-figure, name: Egg, count: 1}\n'),
    CodeInfo("DM214", "unknown-component", "Reference to a component the manifest lacks", E,
             "A document (condition types, support cards, trackers, dice, a chapter, a campaign, "
             "expansion rules or a card text) names a component id that its manifest does not list.",
             'component: serch-cards\n',
             fixed='component: search-cards\n'),
    CodeInfo("DM215", "supply-mismatch", "Stated size differs from the manifest", E,
             "A document states the whole size of a supply (a condition deck, a support card set, "
             "the round trackers, the sentience dice) and the manifest line it names prints a "
             "different number, or the items listed do not match the stated size.",
             '  - {id: game-round-trackers, line: 1, name: Game Round Trackers, count: 9}\n',
             fixed='  - {id: game-round-trackers, line: 1, name: Game Round Trackers, count: 10}\n'),
    CodeInfo("DM216", "counts-unknown-kind", "Manifest counts a kind that does not exist", W,
             "A manifest line counts documents of a kind no schema defines, so nothing can ever be "
             "counted against it; the kind is probably misspelt.",
             '     counts: {kind: card-txet}}\n',
             fixed='     counts: {kind: card-text}}\n'),
    CodeInfo("DM217", "component-exceeds-manifest", "Chapter needs more than the box holds", E,
             "A chapter (or expansion rule) needs more of an expansion component than the "
             "expansion's manifest lists, so the chapter cannot be set up as written.",
             '  - {id: ritual-markers, name: Ritual Markers, source: expansion, count: 4}\n',
             fixed='  - {id: ritual-markers, name: Ritual Markers, source: expansion, count: 3}\n'),
    CodeInfo("DM218", "unlisted-component", "Chapter uses a component no list includes", I,
             "The chapter uses a component that the expansion's component list does not include and "
             "that the rulebook does not attribute to another box. The content records this as "
             "'source: unlisted' with a note; dmtool reports it so it stays visible.",
             '    source: unlisted\n',
             fixed="    source: unlisted  # dmtool: ignore[DM218] the rulebook's list has no trap figures\n"),
    CodeInfo("DM219", "component-grouping", "Expansion component grouped twice or not at all", W,
             "An expansion's rules sort its components into groups of use (chapters only, anywhere, "
             "optional rule) or list them as unassigned. Each manifest line belongs in exactly one "
             "place, either by its own id or through all of its parts.",
             '  components: [monster-figures, noise-tokens]\n',
             fixed='  components: [monster-figures, search-cards]\n'),
)

_CHAPTERS: tuple[CodeInfo, ...] = (
    CodeInfo("DM220", "deck-room-not-on-board", "Deck names a room that is not on the board", E,
             "The room deck and the devoured deck may only hold rooms of the chapter's board.",
             'room_deck: [1, 2, 5]\n',
             fixed='room_deck: [1, 2]\n'),
    CodeInfo("DM221", "room-in-both-decks", "Room in both decks", E,
             "A room is either in the room deck or in the devoured deck, never in both.",
             'room_deck: [1, 2, 3]\n',
             fixed='room_deck: [1, 2]\n'),
    CodeInfo("DM222", "room-in-neither-deck", "Board room in neither deck", W,
             "A board room that is in neither deck can never be revealed or devoured through the "
             "decks. The rulebooks do this on purpose for a few rooms; record the reason under "
             "'rooms_in_neither_deck' to silence this warning.",
             'room_deck: [1]\n',
             fixed='room_deck: [1, 2]\n'),
    CodeInfo("DM223", "stale-room-note", "Note about a room that needs none", W,
             "'rooms_in_neither_deck' names a room that is in a deck or is not on the board, so the "
             "note no longer describes the chapter.",
             'rooms_in_neither_deck:\n  - {room: 2, reason: Kept out by the rulebook.}\n',
             fixed=''),
    CodeInfo("DM224", "named-room-not-on-board", "Named room not on the board", E,
             "A start space, spawn marker, label, placement, deck-building step or investigate "
             "condition names a room that the chapter's board does not have.",
             '  spawn_marker_rooms: [2, 9]\n',
             fixed='  spawn_marker_rooms: [2, 4]\n'),
    CodeInfo("DM225", "duplicate-room", "Room listed twice", E,
             "A room appears twice in the board's room list or in one deck.",
             'devoured_deck: [3, 4, 4]\n',
             fixed='devoured_deck: [3, 4]\n'),
    CodeInfo("DM226", "undeclared-name", "Component or monster not declared by the chapter", E,
             "Conditions, effects, placements and setup steps name components and monsters by id; "
             "each id must be declared in the chapter's 'components' or 'monsters' list, which says "
             "where the piece comes from and how many are needed.",
             '    when: {monster_dead: bos}\n',
             fixed='    when: {monster_dead: boss}\n'),
    CodeInfo("DM227", "duplicate-hazard", "Two hazards for one skull colour", E,
             "Each skull colour of the devouring track has one hazard effect.",
             '    - skull: teal\n      summary: Still nothing.\n',
             fixed='    - skull: blue\n      summary: Still nothing.\n'),
    CodeInfo("DM228", "duplicate-chapter-number", "Two chapters share a number", E,
             "Chapters of one expansion are numbered in rulebook order; two with the same number "
             "make the order (and any campaign) ambiguous.",
             'id: other-chapter\nexpansion: mini\nnumber: 1\n',
             fixed='id: other-chapter\nexpansion: mini\nnumber: 2\n'),
    CodeInfo("DM229", "threshold-beyond-supply", "Condition needs more than the box holds", E,
             "A chapter or expansion condition counts an expansion component and needs more of "
             "it than the expansion's manifest lists, so it can never hold (and the rule it "
             "stands for never fires). Check the threshold against the rulebook.",
             '      when: {count: {of: {component: infection-tokens}, in: held_total, at_least: 10}}\n',
             fixed='      when: {count: {of: {component: infection-tokens}, in: held_total, at_least: 9}}\n'),
    CodeInfo("DM230", "pool-size-mismatch", "Pool not sized as the box", E,
             "A component marked as a pool is the whole supply that can run dry during the "
             "chapter, so its size is the manifest's count; a smaller number would make the "
             "engine lose the chapter too early (or never).",
             '  - {id: noise-tokens, name: Noise Tokens, source: expansion, count: 7, pool: true}\n',
             fixed='  - {id: noise-tokens, name: Noise Tokens, source: expansion, count: 24, pool: true}\n'),
    CodeInfo("DM231", "reserve-size-mismatch", "Reserve not sized as the box", E,
             "A monster the chapter's effects spawn comes from its reserve, which holds all of "
             "its figures in the box; the count of its figure component must be the manifest's "
             "(or left out), or the reserve runs out at the wrong moment.",
             '  - {id: egg-figures, name: Egg figures, source: expansion, count: 3}\n',
             fixed='  - {id: egg-figures, name: Egg figures, source: expansion, count: 6}\n'),
    CodeInfo("DM232", "placed-beyond-count", "Board places more than the chapter has", E,
             "The board's markers put more pieces of a component on the board than the chapter "
             "declares (or, without a count, than the box holds).",
             '    - {component: hunger-marker, rooms: [2, 3], count: 1}\n',
             fixed='    - {component: hunger-marker, rooms: [2], count: 1}\n'),
)

_CAMPAIGNS: tuple[CodeInfo, ...] = (
    CodeInfo("DM235", "campaign-order", "Campaign chapters out of order", E,
             "A campaign lists its chapters in playing order: chapter numbers 1, 2, 3 and so on, "
             "each once, with none of the expansion's chapters left out.",
             '  - chapter: second-chapter\n    keeps: [noise-tokens]\n  - chapter: test-chapter\n',
             fixed='  - chapter: test-chapter\n    keeps: [noise-tokens]\n  - chapter: second-chapter\n'),
    CodeInfo("DM236", "campaign-foreign-chapter", "Campaign chapter from another expansion", E,
             "Every chapter of a campaign belongs to the campaign's expansion.",
             'id: foreign-chapter\nexpansion: other\n',
             fixed='id: foreign-chapter\nexpansion: mini\n'),
    CodeInfo("DM237", "campaign-carry-over", "Carry-over missing or pointless", W,
             "Every chapter except the last says what investigators keep for the next one; the last "
             "chapter has nothing to hand on.",
             '  - chapter: test-chapter\n  - chapter: second-chapter\n    keeps: [noise-tokens]\n',
             fixed='  - chapter: test-chapter\n    keeps: [noise-tokens]\n  - chapter: second-chapter\n'),
)

_BASE_GAME: tuple[CodeInfo, ...] = (
    CodeInfo("DM240", "round-trackers-shape", "Round trackers are not ten rounds in order", E,
             "Dawn of Madness has ten game round trackers, one for each round from 1 to 10 in order, "
             "each naming its own storybook entry.",
             '  - {round: 3, entry: 3}\n  - {round: 2, entry: 2}\n  - {round: 4, entry: 3}\n',
             fixed='  - {round: 2, entry: 2}\n  - {round: 3, entry: 3}\n  - {round: 4, entry: 4}\n'),
    CodeInfo("DM241", "condition-types-shape", "Not eleven condition types", E,
             "Dawn of Madness has eleven condition card types, each with its own id and name.",
             '  - {id: type-10, name: Type 10, deck_size: 6, component: {manifest: base, component: burdened-cards}, shuffled_at_setup: false, discard_to: top}\n',
             fixed='  - {id: type-10, name: Type 10, deck_size: 6, component: {manifest: base, component: burdened-cards}, shuffled_at_setup: false, discard_to: top}\n  - {id: type-11, name: Type 11, deck_size: 6, component: {manifest: base, component: burdened-cards}, shuffled_at_setup: false, discard_to: top}\n'),
    CodeInfo("DM242", "die-shape", "Die faces do not match the die", E,
             "A sentience die has as many faces as sides, shows every domain type, and shows its "
             "colour's favoured type exactly twice; the otherworld die has sixteen faces from 1, "
             "one per world shard.",
             '    red: {favoured: hand, faces: [hand, eye, brain, skull, sphere, sphere]}\n',
             fixed='    red: {favoured: hand, faces: [hand, hand, eye, brain, skull, sphere]}\n'),
    CodeInfo("DM243", "special-rule-prose-only", "Special rule the engine does not execute", W,
             "A chapter's special rule has only its prose: no 'executes' clauses and no 'hook' "
             "naming a registered rule hook. The engine then plays the chapter as if the rule "
             "did not exist, so a fixture can win or lose it in a way the rulebook forbids.",
             '  - id: boss-cannot-die\n',
             fixed='  - id: boss-cannot-die\n    executes: [{immunity: {monster: boss, wounds_from: nobody}}]\n'),
)

CODES: tuple[CodeInfo, ...] = _MANIFESTS + _CHAPTERS + _CAMPAIGNS + _BASE_GAME
