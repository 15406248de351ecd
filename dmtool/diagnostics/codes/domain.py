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
             "- {id: coda-cards, line: 13, name: Coda Cards, count: 61,\n"
             "   counts: {kind: coda, wanderer: emily-hawkins}}   # 62 coda files name her\n"),
    CodeInfo("DM211", "manifest-incomplete", "Manifest not fully authored", I,
             "Some lines of a manifest have fewer authored documents than the printed count. This "
             "is normal while a wanderer or expansion is being written (or when its texts are not "
             "published); the diagnostic lists the lines that are short.",
             "kind: manifest\nid: emily-hawkins   # 0 of 61 coda cards authored, ...\n"),
    CodeInfo("DM212", "manifest-breakdown", "Breakdown does not add up", E,
             "The parts printed after a component must add up to its count, and an even breakdown "
             "('N per X', 'N types, M of each') must multiply out to it.",
             "count: 121\nparts: [{id: burdened-cards, name: Burdened Cards, count: 6}]  # 6 != 121\n"),
    CodeInfo("DM213", "duplicate-component-id", "Component id used twice in a manifest", E,
             "Every line and part of a manifest needs its own id, because other documents refer "
             "to components by it.",
             "- {id: void-tokens, line: 19, ...}\n- {id: void-tokens, line: 20, ...}\n"),
    CodeInfo("DM214", "unknown-component", "Reference to a component the manifest lacks", E,
             "A document (condition types, support cards, trackers, dice, a chapter, a campaign, "
             "expansion rules or a card text) names a component id that its manifest does not list.",
             "component: {manifest: dawn-of-madness, component: burdend-cards}\n"),
    CodeInfo("DM215", "supply-mismatch", "Stated size differs from the manifest", E,
             "A document states the whole size of a supply (a condition deck, a support card set, "
             "the round trackers, the sentience dice) and the manifest line it names prints a "
             "different number, or the items listed do not match the stated size.",
             "deck_size: 7\ncomponent: {manifest: dawn-of-madness, component: burdened-cards}  # 6\n"),
    CodeInfo("DM216", "counts-unknown-kind", "Manifest counts a kind that does not exist", W,
             "A manifest line counts documents of a kind no schema defines, so nothing can ever be "
             "counted against it; the kind is probably misspelt.",
             "counts: {kind: codas, wanderer: emily-hawkins}\n"),
    CodeInfo("DM217", "component-exceeds-manifest", "Chapter needs more than the box holds", E,
             "A chapter (or expansion rule) needs more of an expansion component than the "
             "expansion's manifest lists, so the chapter cannot be set up as written.",
             "components:\n  - {id: ritual-markers, name: Ritual Markers, source: expansion, count: 4}  # box: 3\n"),
    CodeInfo("DM218", "unlisted-component", "Chapter uses a component no list includes", I,
             "The chapter uses a component that the expansion's component list does not include and "
             "that the rulebook does not attribute to another box. The content records this as "
             "'source: unlisted' with a note; dmtool reports it so it stays visible.",
             "- {id: trap-mine-figures, name: Trap Mine figures, source: unlisted, count: 3, note: ...}\n"),
    CodeInfo("DM219", "component-grouping", "Expansion component grouped twice or not at all", W,
             "An expansion's rules sort its components into groups of use (chapters only, anywhere, "
             "optional rule) or list them as unassigned. Each manifest line belongs in exactly one "
             "place, either by its own id or through all of its parts.",
             "component_groups:\n  - {id: a, use: chapters-only, components: [filth-cards], ...}\n"
             "  - {id: b, use: optional-rule, components: [filth-cards], ...}\n"),
)

_CHAPTERS: tuple[CodeInfo, ...] = (
    CodeInfo("DM220", "deck-room-not-on-board", "Deck names a room that is not on the board", E,
             "The room deck and the devoured deck may only hold rooms of the chapter's board.",
             "board: {rooms: [2, 3, 4], rooms_printed: true}\nroom_deck: [2, 5]\n"),
    CodeInfo("DM221", "room-in-both-decks", "Room in both decks", E,
             "A room is either in the room deck or in the devoured deck, never in both.",
             "room_deck: [2, 3]\ndevoured_deck: [3, 4]\n"),
    CodeInfo("DM222", "room-in-neither-deck", "Board room in neither deck", W,
             "A board room that is in neither deck can never be revealed or devoured through the "
             "decks. The rulebooks do this on purpose for a few rooms; record the reason under "
             "'rooms_in_neither_deck' to silence this warning.",
             "board: {rooms: [1, 2, 3], rooms_printed: true}\nroom_deck: [2]\ndevoured_deck: [3]\n"),
    CodeInfo("DM223", "stale-room-note", "Note about a room that needs none", W,
             "'rooms_in_neither_deck' names a room that is in a deck or is not on the board, so the "
             "note no longer describes the chapter.",
             "room_deck: [2]\nrooms_in_neither_deck: [{room: 2, reason: ...}]\n"),
    CodeInfo("DM224", "named-room-not-on-board", "Named room not on the board", E,
             "A start space, spawn marker, label, placement, deck-building step or investigate "
             "condition names a room that the chapter's board does not have.",
             "board:\n  rooms: [2, 3]\n  labels: [{room: 20, label: Start, role: start}]\n"),
    CodeInfo("DM225", "duplicate-room", "Room listed twice", E,
             "A room appears twice in the board's room list or in one deck.",
             "devoured_deck: [2, 9, 9]\n"),
    CodeInfo("DM226", "undeclared-name", "Component or monster not declared by the chapter", E,
             "Conditions, effects, placements and setup steps name components and monsters by id; "
             "each id must be declared in the chapter's 'components' or 'monsters' list, which says "
             "where the piece comes from and how many are needed.",
             "investigate:\n  - when: {same_space: {component: food-token}}   # declared: food-tokens\n"),
    CodeInfo("DM227", "duplicate-hazard", "Two hazards for one skull colour", E,
             "Each skull colour of the devouring track has one hazard effect.",
             "hazards:\n  - {skull: blue, ...}\n  - {skull: blue, ...}\n"),
    CodeInfo("DM228", "duplicate-chapter-number", "Two chapters share a number", E,
             "Chapters of one expansion are numbered in rulebook order; two with the same number "
             "make the order (and any campaign) ambiguous.",
             "# both chapters of madness-reborn\nnumber: 2\n"),
    CodeInfo("DM229", "threshold-beyond-supply", "Condition needs more than the box holds", E,
             "A chapter or expansion condition counts an expansion component and needs more of "
             "it than the expansion's manifest lists, so it can never hold (and the rule it "
             "stands for never fires). Check the threshold against the rulebook.",
             "when: {count: {of: {component: infection-tokens}, in: held_total, at_least: 10}}  "
             "# box: 9\n"),
    CodeInfo("DM230", "pool-size-mismatch", "Pool not sized as the box", E,
             "A component marked as a pool is the whole supply that can run dry during the "
             "chapter, so its size is the manifest's count; a smaller number would make the "
             "engine lose the chapter too early (or never).",
             "- {id: noise-tokens, name: Noise Tokens, source: expansion, count: 7, pool: true}  "
             "# box: 24\n"),
    CodeInfo("DM231", "reserve-size-mismatch", "Reserve not sized as the box", E,
             "A monster the chapter's effects spawn comes from its reserve, which holds all of "
             "its figures in the box; the count of its figure component must be the manifest's "
             "(or left out), or the reserve runs out at the wrong moment.",
             "- {id: incarnate-egg-figures, name: Incarnate Egg figures, source: expansion, "
             "count: 3}  # box: 6\n"),
    CodeInfo("DM232", "placed-beyond-count", "Board places more than the chapter has", E,
             "The board's markers put more pieces of a component on the board than the chapter "
             "declares (or, without a count, than the box holds).",
             "markers:\n  - {component: hunger-marker, rooms: [2, 3], count: 1}  # only 1\n"),
)

_CAMPAIGNS: tuple[CodeInfo, ...] = (
    CodeInfo("DM235", "campaign-order", "Campaign chapters out of order", E,
             "A campaign lists its chapters in playing order: chapter numbers 1, 2, 3 and so on, "
             "each once, with none of the expansion's chapters left out.",
             "chapters:\n  - chapter: dagon-rising     # number 3\n  - chapter: rite-of-bile     # number 1\n"),
    CodeInfo("DM236", "campaign-foreign-chapter", "Campaign chapter from another expansion", E,
             "Every chapter of a campaign belongs to the campaign's expansion.",
             "expansion: rise-of-dagon\nchapters:\n  - chapter: purgatory   # a madness-reborn chapter\n"),
    CodeInfo("DM237", "campaign-carry-over", "Carry-over missing or pointless", W,
             "Every chapter except the last says what investigators keep for the next one; the last "
             "chapter has nothing to hand on.",
             "chapters:\n  - chapter: rite-of-bile          # no 'keeps'\n  - chapter: virulent-whispers\n"),
)

_BASE_GAME: tuple[CodeInfo, ...] = (
    CodeInfo("DM240", "round-trackers-shape", "Round trackers are not ten rounds in order", E,
             "Dawn of Madness has ten game round trackers, one for each round from 1 to 10 in order, "
             "each naming its own storybook entry.",
             "trackers:\n  - {round: 1, entry: 1}\n  - {round: 3, entry: 3}   # round 2 missing\n"),
    CodeInfo("DM241", "condition-types-shape", "Not eleven condition types", E,
             "Dawn of Madness has eleven condition card types, each with its own id and name.",
             "types: [...]   # ten types listed\n"),
    CodeInfo("DM242", "die-shape", "Die faces do not match the die", E,
             "A sentience die has as many faces as sides, shows every domain type, and shows its "
             "colour's favoured type exactly twice; the otherworld die has sixteen faces from 1, "
             "one per world shard.",
             "red: {favoured: hand, faces: [hand, eye, brain, skull, sphere, sphere]}\n"),
)

CODES: tuple[CodeInfo, ...] = _MANIFESTS + _CHAPTERS + _CAMPAIGNS + _BASE_GAME
