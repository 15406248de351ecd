"""Diagnostic codes of the engine stage (DM4xx): scenario fixtures and the rules engine."""

from __future__ import annotations

from dmtool.diagnostics.catalogue import CodeInfo
from dmtool.diagnostics.model import Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

CODES: tuple[CodeInfo, ...] = (
    CodeInfo("DM401", "scenario-structure", "Fixture parts that cannot go together", E,
             "The fixture combines parts its schema cannot forbid on its own, such as a seed "
             "(seeded dice) together with scripted dice.",
             'seed: 7\n',
             fixed=''),
    CodeInfo("DM402", "scenario-unknown-name", "Fixture names something its setup lacks", E,
             "A step, expectation or setup entry names a wanderer, monster, card or entry that "
             "the fixture's setup (and the content it borrows from) does not define.",
             '  - do: {wanderer: marra, pass: {}}\n',
             fixed='  - do: {wanderer: mara, pass: {}}\n'),
    CodeInfo("DM403", "dice-mismatch", "Scripted roll does not fit the roll made", E,
             "The next scripted roll names another roller, other colours or another number of "
             "dice than the engine rolled at that moment. Scripts are strict so a fixture "
             "proves exactly which dice the rules roll.",
             '  - do: {wanderer: mara, domain: {}}\n    dice: [{mara: {red: [hand]}}]\n',
             fixed='  - do: {wanderer: mara, domain: {}}\n    dice: [{mara: {red: [hand], blue: [brain], green: [eye]}}]\n'),
    CodeInfo("DM404", "dice-missing", "The engine needed a roll the script lacks", E,
             "The engine rolled dice (or shuffled a deck) and the script had no entry left.",
             '  - do: {wanderer: mara, domain: {}}\n',
             fixed='  - do: {wanderer: mara, domain: {}}\n    dice: [{mara: {red: [hand], blue: [brain], green: [eye]}}]\n'),
    CodeInfo("DM405", "dice-unused", "Scripted roll never used", E,
             "A scripted roll was still unused when its step (or the fixture) ended: the rules "
             "rolled fewer dice than the fixture expects.",
             '  - do: {wanderer: mara, move: {to: 2}}\n    dice: [{mara: {red: [hand]}}]\n',
             fixed='  - do: {wanderer: mara, move: {to: 2}}\n'),
    CodeInfo("DM406", "choice-missing", "The engine asked a question the script does not answer",
             E, "Where the rulebook leaves a decision to the players and there is no safe "
             "default (a tie, a target, which card to discard), the fixture must answer it in "
             "the step's 'choices'.",
             '  - do: {activate: {monster: gnawing-shade}}\n',
             fixed='  - do: {activate: {monster: gnawing-shade}}\n    choices: [{target: mara}]\n'),
    CodeInfo("DM407", "choice-unused", "Scripted choice never used", E,
             "A scripted answer was never asked for: the question did not come up, or came up "
             "under another name.", '    choices: [{defend: true}]\n',
                                    fixed=''),
    CodeInfo("DM408", "choice-invalid", "Scripted answer is not allowed", E,
             "The scripted answer is not one of the options the rules allow at that moment.",
             '    choices: [{absorb: 2}]\n',
             fixed='    choices: [{absorb: 1}]\n'),
    CodeInfo("DM409", "expectation-mismatch", "Expected state differs from the actual state", E,
             "After a step (or at the end), a value of the game state differs from what the "
             "fixture expects. The message shows both.",
             '  wanderers.mara.mental_capacity: 5\n',
             fixed='  wanderers.mara.mental_capacity: 6\n'),
    CodeInfo("DM410", "unexpected-rejection", "The engine refused an action", E,
             "A step's action was rejected by the rules, and the step did not say "
             "'expect_error'. The message gives the rejection code and reason.",
             '  - do: {wanderer: mara, move: {to: 16}}\n',
             fixed='  - do: {wanderer: mara, move: {to: 2}}\n'),
    CodeInfo("DM411", "expected-rejection-missing", "The expected rejection did not happen", E,
             "A step says 'expect_error: CODE' but the action was accepted, or rejected with "
             "another code.", '    expect_error: too_far\n',
                              fixed=''),
    CodeInfo("DM412", "action-legal", "An action expected to be illegal is legal", E,
             "'expect_illegal' names an action that the engine would accept now.",
             '  - expect_illegal: {wanderer: mara, pass: {}}\n',
             fixed='  - do: {wanderer: mara, pass: {}}\n'),
    CodeInfo("DM413", "unknown-state-path", "Expectation names no value of the state", E,
             "A dotted path in 'expect' does not lead to a value of the game state.",
             '  wanderers.mara.wonds: 0\n',
             fixed='  wanderers.mara.wounds: 0\n'),
    CodeInfo("DM414", "content-missing", "Borrowed content not found", E,
             "A setup entry says 'from: ID' but no content document of that kind and id was "
             "found in the fixture's content folder.",
             '    hollow-hound: {from: hollow-hund, shard: 3}\n',
             fixed='    hollow-hound: {shard: 3, max_health: 4, max_mental_capacity: 6, actions: [{cost: 2, effects: [{monster_move: {spaces: 1}}]}]}\n'),
    CodeInfo("DM415", "scenario-skipped", "Fixture skipped", I,
             "The fixture says 'skip: REASON'; it is listed but not run.",
             'skip: the devour rule arrives with part 2 of the engine\n',
             fixed=''),
    CodeInfo("DM416", "unknown-rule-id", "Fixture names an unknown rule id", W,
             "'rules' lists ids of shared/design/rules-checklist.md (R01-R55).",
             'rules: [R99]\n',
             fixed='rules: [R09]\n'),
    CodeInfo("DM417", "engine-cannot-run", "The engine cannot run this content", E,
             "The fixture reached content the engine cannot interpret, such as a coda card "
             "without a definition or an effect that needs a wanderer where none resolves it.",
             'steps:\n  - do: {wanderer: mara, effect: {gain_coda: the-voice-below}}\n',
             fixed='  codas:\n    the-voice-below: {effects: [], back: [purple]}\nsteps:\n  - do: {wanderer: mara, effect: {gain_coda: the-voice-below}}\n'),
    CodeInfo("DM418", "engine-crash", "Internal engine error", E,
             "The engine raised an unexpected exception while running the fixture. This is a "
             "bug in dmtool; the message carries the exception.", '    broken-terror: {from: broken-terror, shard: 3}\n',
                                                                  fixed='    broken-terror: {shard: 3, max_health: 3, max_mental_capacity: 4, actions: [{cost: 2, effects: [{monster_move: {spaces: 1}}]}]}\n'),
    CodeInfo("DM419", "missing-event", "Expected event not in the event log", E,
             "The fixture's 'events' expectation lists an event (in order) that the engine's "
             "event log does not contain. Run with --explain to read the log.",
             '  events: [{event: moved, to: 3}]\n',
             fixed='  events: [{event: moved, to: 2}]\n'),
    CodeInfo("DM421", "setup-invalid", "Fixture setup describes an impossible state", E,
             "The setup gives a value the rules never allow: mental capacity above its max, a "
             "max above 10, a living wanderer with wounds at max health, a shard outside 1-16.",
             'mental_capacity: 9, shard: 1}\n',
             fixed='mental_capacity: 7, shard: 1}\n'),
    CodeInfo("DM422", "unknown-error-code", "Unknown rejection code", E,
             "'expect_error' names a code the engine never uses; see the game's errors "
             "module (dmtool.engine.dawn_of_madness.errors).",
             '    expect_error: too_farr\n',
             fixed='    expect_error: too_far\n'),
    CodeInfo("DM423", "forbidden-event", "Event that must not happen was logged", E,
             "An event listed in 'absent_events' appears in the event log.",
             '  absent_events: [{event: moved}]\n',
             fixed='  absent_events: [{event: died}]\n'),
    CodeInfo("DM427", "unknown-condition-card", "Condition card type the game does not have",
             E, "A fixture's wanderer holds condition cards (`conditions:` or "
             "`condition_cards:`) of a type the game's engine does not deal. The message "
             "lists the types it does (the engine's registry, dmtool.engine.games).",
             '      conditions: {filth: 2}\n',
             fixed='      conditions: {burdened: 2}\n'),
    CodeInfo("DM428", "unknown-event-kind", "Event kind the engine never logs", E,
             "An 'events' or 'absent_events' expectation names an event kind the game's "
             "engine never logs, so it can never be met (or is always met). The message "
             "lists the kinds it logs (the engine's registry, dmtool.engine.games).",
             '  events: [{event: actoin, wanderer: mara}]\n',
             fixed='  events: [{event: moved, wanderer: mara}]\n'),
    CodeInfo("DM424", "campaign-unknown-id", "Campaign state names something content lacks",
             E, "A campaign state file (kind campaign-state) names a wanderer, card, "
             "abomination, legacy card or family that the content does not define. The "
             "file is not used until it is fixed, so no game starts from a wrong state.",
             '    legacy_cards: [the-accretion/legacy-13]\n',
             fixed='    legacy_cards: [the-accretion/legacy-12]\n'),
    CodeInfo("DM425", "campaign-inconsistent", "Campaign state breaks a legacy rule", E,
             "A campaign state file holds something the rules never allow: two legacy cards "
             "of one abomination for one wanderer, one legacy card held by two wanderers, a "
             "card unlocked for a wanderer whose envelope does not hold it, or a lineage "
             "token on a family the abomination does not belong to.",
             '    legacy_cards: [the-accretion/legacy-1, the-accretion/legacy-7]\n',
             fixed='    legacy_cards: [the-accretion/legacy-1]\n'),
    CodeInfo("DM426", "campaign-chapter-order", "Chapter played out of campaign order", E,
             "A chapter campaign state (Rise of Dagon) is played chapter by chapter in order: "
             "the chapters it records as won must be the campaign's first ones, its next "
             "chapter the one after them, and a chapter can only start from a state whose "
             "next chapter it is (not once the campaign is won or lost).",
             'completed: [rite-of-bile]\nnext_chapter: virulent-whispers\n',
             fixed='completed: [rite-of-bile, virulent-whispers]\nnext_chapter: dagon-rising\n'),
)
