"""Diagnostic codes of the graph stage (DM3xx): links, dead ends, reachability, endings.

Duplicate entry numbers (DM203), conclusion entry kinds (DM259) and encounter entry kinds
(DM268) are checked by the reference and wanderer rules, so the graph stage leaves them be.
"""

from __future__ import annotations

from dmtool.diagnostics.catalogue import CodeInfo
from dmtool.diagnostics.model import Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

CODES: tuple[CodeInfo, ...] = (
    CodeInfo(
        "DM301",
        "broken-link",
        "Link to a missing entry",
        E,
        "A goto, an ending's start or conclusion, a round tracker, a world shard, an "
        "encounter card or a 'visited' condition names an entry number the storybook "
        "does not have.",
        '            effects: [{goto: 999}]\n',
        fixed='            effects: [{goto: 2}]\n',
    ),
    CodeInfo(
        "DM302",
        "dead-end",
        "Branch that leads nowhere",
        E,
        "A way through an entry's effects (a test outcome, a choice option, a side of an "
        "'if', or the entry itself) neither goes to another entry nor ends the encounter, "
        "the event or the game, so the reader is left without an instruction.",
        '            effects: [{lose_mental_capacity: 1}]\n  - entry: 301\n',
        fixed='            effects: [{lose_mental_capacity: 1}, {end: event}]\n  - entry: 301\n',
    ),
    CodeInfo(
        "DM303",
        "unreachable-entry",
        "Entry no game can reach",
        W,
        "No root (a round tracker's event, a world shard's or spawned card's encounter, "
        "an ending's start, setup or event phase) leads to this entry, counting only "
        "sides whose conditions can hold: a condition is judged against what can be known "
        "before play (coda cards some branch awards, entries some root reaches, each "
        "ending's most points and each sentience colour's range in a game that resolves "
        "each encounter once, the ten rounds) and combinations are reduced, so a "
        "contradiction is never true. The message gives the reason and counts the entries "
        "that are only reachable through it.",
        '      - end: event\n  - entry: 40\n',
        fixed='      - goto: 40\n  - entry: 40\n',
    ),
    CodeInfo(
        "DM304",
        "ending-never-scored",
        "Ending never gains points",
        W,
        "No branch that the wanderer stage can reach gives this ending points, so it can "
        "never have the highest score and its finale is never played. (A storybook with "
        "no wanderer stage yet, no event entry, world shard or spawned card, gets no "
        "ending findings at all.)",
        '          - label: The door of glass\n            effects: [{score: {C: 1}}]\n      - end: event\n',
        fixed='          - label: The door of glass\n            effects: [{score: {C: 1}}]\n          - label: The door of reeds\n            effects: [{score: {D: 1}}]\n      - end: event\n',
    ),
    CodeInfo(
        "DM305",
        "conclusion-unreachable",
        "Conclusion the finale cannot reach",
        W,
        "The ending's finale (its start, setup, event phase and finale encounters) never "
        "leads to this conclusion entry, counting only sides whose conditions can hold.",
        '          when: {has_coda: mara-sigil}\n',
        fixed='          when: {is_central: true}\n',
    ),
    CodeInfo(
        "DM306",
        "ending-never-highest",
        "Ending that can never have the highest score",
        W,
        "On every way through the storybook an ending printed earlier gains at least as "
        "many points as this one, and ties go to the earlier ending (A, then B, C, D), so "
        "this ending is never entered. The message gives the bound that proves it.",
        '            effects: [{score: {A: 1, C: 1}}]\n',
        fixed='            effects: [{score: {C: 1}}]\n',
    ),
    CodeInfo(
        "DM307",
        "trap",
        "Loop with no way out",
        E,
        "A set of entries lead to each other and none of them leads on to an exit (the end "
        "of the encounter or event, a conclusion, a failed stage), so a reader who enters "
        "can never leave. A way out whose condition can never hold is no way out; the "
        "message names it and says why.",
        '            effects: [{lose_mental_capacity: 1}, {goto: 25}]\n',
        fixed='            effects: [{lose_mental_capacity: 1}, {end: encounter}]\n',
    ),
    CodeInfo(
        "DM308",
        "orphan-encounter-card",
        "Encounter card that never enters play",
        W,
        "The card has no spawning condition and no reachable branch spawns it, so its "
        "encounter can never be read.",
        'entry: 30\nencounter_kind: exploration\n',
        fixed='entry: 30\nencounter_kind: exploration\nspawn: {when: {round_at_least: 2}, text: From round two on.}\n',
    ),
    CodeInfo(
        "DM309",
        "orphan-coda-card",
        "Coda card nothing awards",
        W,
        "No reachable branch of the wanderer's storybook gains this coda card.",
        '          - label: The door of ash\n            effects: [{score: {A: 1}}]\n',
        fixed='          - label: The door of ash\n            effects: [{score: {A: 1}}, {gain_coda: mara-ember}]\n',
    ),
    CodeInfo(
        "DM310",
        "round-tracker-not-event",
        "Round tracker names a non-event entry",
        E,
        "The entry a round tracker names is read in the event phase, so it must be an "
        "entry of kind 'event' (which ends with {end: event}).",
        '  - entry: 2\n    kind: exploration\n',
        fixed='  - entry: 2\n    kind: event\n',
    ),
    CodeInfo(
        "DM311",
        "ending-start-kind",
        "Ending starts at an entry that is not a finale entry",
        E,
        "An ending's finale story starts at its 'start' entry, which must be an entry of "
        "kind 'finale'.",
        '    start: 1\n',
        fixed='    start: 301\n',
    ),
    CodeInfo(
        "DM312",
        "conclusion-mismatch",
        "Conclusion entry that does not conclude as listed",
        W,
        "A conclusion entry should end the finale with {conclude: <finale legacy card>}, "
        "and the card should be the one its ending lists for that conclusion.",
        '    text: The light does not come back.\n    effects: [{end: encounter}]\n',
        fixed='    text: The light does not come back.\n    effects: [{conclude: mara-legacy-a}]\n',
    ),
    CodeInfo(
        "DM313",
        "effect-never-resolved",
        "Effect after an exit",
        W,
        "Effects written after a goto or a terminal (or after a test, choice or 'if' "
        "whose every side exits) are never resolved; move them before it.",
        '      - end: event\n      - lose_health: 1\n',
        fixed='      - lose_health: 1\n      - end: event\n',
    ),
    CodeInfo(
        "DM314",
        "too-many-paths",
        "Entry with too many paths to analyse",
        W,
        "The entry's effects branch into more than 512 ways through (sequences of tests "
        "and choices that all fall through multiply); only the first 512 were analysed. "
        "Split the entry with gotos.",
        '      - test: {roll: {yellow: [skull]}}\n      - test: {roll: {purple: [sphere]}}\n      - end: event\n',
        fixed='      - end: event\n',
    ),
    CodeInfo(
        "DM315",
        "condition-decided",
        "Condition that is always true or never true",
        W,
        "Play cannot change this condition: judged against what can be known before play "
        "(the ten rounds, each ending's most points and each sentience colour's range in a "
        "game that resolves each encounter once, the number of wanderers), it is always "
        "true or never true, alone or because its parts contradict each other (`all: [x, "
        "{not: x}]`) or cover every case (`any: [x, {not: x}]`). The message says why and "
        "what it means for the effects it guards. A condition that fails only because a "
        "coda card is never awarded or an entry never read is reported there instead "
        "(DM309, DM303).",
        '          when: {any: [{is_central: true}, {is_central: false}]}\n',
        fixed='          when: {is_central: true}\n',
    ),
)
