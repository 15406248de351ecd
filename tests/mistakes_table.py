"""The one-mistake-at-a-time experiment as data: each common slip, planted in each kind of file.

Every row is one mistake an author makes in a copy of `content/`: a misspelt key, a
misspelt effect (or condition), a misspelt id, a value of the wrong type, a missing
field, a line indented too far. `tests/test_one_mistake.py` plants each alone and asserts
that `dmtool check` then reports exactly one new diagnostic: the row's code, on the row's
line (by default the line where `old` starts), with a hint containing `hint` if given.
"""

from __future__ import annotations

from dataclasses import dataclass

WANDERER = "wanderers/hollis-brandt/"


@dataclass(frozen=True)
class Mistake:
    file: str  # under content/
    slip: str  # key | effect | id | type | missing | indent
    old: str  # replaced once (its first occurrence)
    new: str
    code: str
    line: int | None = None  # where the diagnostic must be; default: the line of `old`
    hint: str = ""  # a piece of text the hint must contain

    @property
    def name(self) -> str:
        return f"{self.file.rsplit('/', 1)[-1].removesuffix('.yaml')}-{self.slip}"


# A key indented too far and a missing required key are both reported at the mapping
# that holds them: for a whole document, its first key (line 2, after the modeline).
ROOT = 2
TOO_FAR = "indented"
MEANT = "did you mean"


def _standard(file: str, key_line: str, misspelt: str, missing_line: str, wrong: tuple[str, str],
              indent_line: str, *extra: Mistake, indent_code: str = "DM001") -> list[Mistake]:
    """The four slips every kind can suffer, plus the kind's own (effects, ids).

    A key indented under a scalar breaks the YAML (DM001); under a nested mapping it
    parses as a key of that mapping (DM102): `indent_code` says which the row expects.
    """
    key = key_line.split(":", 1)[0]
    return [
        Mistake(file, "key", key_line, key_line.replace(key, misspelt, 1), "DM102", hint=MEANT),
        Mistake(file, "type", wrong[0], wrong[1], "DM103"),
        Mistake(file, "missing", missing_line + "\n", "", "DM104", line=ROOT),
        Mistake(file, "indent", indent_line + "\n", "  " + indent_line + "\n", indent_code,
                hint=TOO_FAR),
        *extra,
    ]


MISTAKES: list[Mistake] = [
    *_standard("dawn-of-madness/abominations/the-accretion.yaml", "max_health: 16", "max_helth",
               "max_mental_capacity: 8", ("max_health: 16", "max_health: sixteen"),
               "max_mental_capacity: 8",
               Mistake("dawn-of-madness/abominations/the-accretion.yaml", "effect",
                       "- monster_heal: 1", "- monster_heel: 1", "DM105", hint=MEANT),
               Mistake("dawn-of-madness/abominations/the-accretion.yaml", "id",
                       "family: the-settling", "family: the-setling", "DM202", hint=MEANT)),
    *_standard("deep-madness/rise-of-dagon/campaign.yaml", "in_order: true", "in_ordr",
               "title: The Rise of Dagon campaign", ("in_order: true", "in_order: 3"), "advance_on: win",
               Mistake("deep-madness/rise-of-dagon/campaign.yaml", "id",
                       "- chapter: dagon-rising", "- chapter: dagon-risng", "DM202", hint=MEANT)),
    *_standard("deep-madness/rise-of-dagon/cards/collective-renewal.yaml", "card_type:",
               "card_typ", "name: Collective Renewal",
               ("shown_as_example: true", "shown_as_example: 3"), "name: Collective Renewal",
               Mistake("deep-madness/rise-of-dagon/cards/collective-renewal.yaml", "id",
                       "expansion: rise-of-dagon", "expansion: rise-of-dagin", "DM202",
                       hint=MEANT)),
    *_standard("deep-madness/madness-reborn/chapters/1-dimension-breach.yaml", "introduction:",
               "introducton", "title: Dimension Breach", ("number: 1", "number: one"),
               "title: Dimension Breach",
               Mistake("deep-madness/madness-reborn/chapters/1-dimension-breach.yaml", "id",
                       "expansion: madness-reborn", "expansion: madness-reborne", "DM202",
                       hint=MEANT)),
    *_standard(WANDERER + "codas/a-boys-blueprint.yaml", "title:", "titel",
               "title: A Boy's Blueprint", ("back: [blue, purple]", "back: blue"),
               "flavor: Sluices, a spillway, and a little road along the top. He was very proud of it.",
               Mistake(WANDERER + "codas/a-boys-blueprint.yaml", "effect", "- modify_sentience:",
                       "- modify_sentiense:", "DM105", hint=MEANT),
               Mistake(WANDERER + "codas/a-boys-blueprint.yaml", "id", "wanderer: hollis-brandt",
                       "wanderer: hollis-brant", "DM202", hint=MEANT)),
    *_standard("dawn-of-madness/conditions.yaml", "several_of_one_type:", "several_of_one_typ",
               "title: Condition card types", ("    deck_size: 6", "    deck_size: six"),
               "title: Condition card types",
               Mistake("dawn-of-madness/conditions.yaml", "id",
                       "{manifest: dawn-of-madness, component: burdened-cards}",
                       "{manifest: dawn-of-madnes, component: burdened-cards}", "DM202",
                       hint=MEANT)),
    *_standard(WANDERER + "domain-cards/coyles-measuring-chain.yaml", "item_type:", "item_typ",
               "title: Coyle's Measuring Chain", ("locked: true", "locked: 1"),
               "flavor: Sixty-six feet of links, and every one of them tells the truth.",
               Mistake(WANDERER + "domain-cards/coyles-measuring-chain.yaml", "id",
                       "wanderer: hollis-brandt", "wanderer: hollis-brand", "DM202", hint=MEANT)),
    *_standard(WANDERER + "encounter-cards/marens-shawl.yaml", "entry: 212", "entri",
               "entry: 212", ("entry: 212", "entry: two hundred and twelve"),
               "flavor: The only dry thing in the valley, and it is still warm.",
               Mistake(WANDERER + "encounter-cards/marens-shawl.yaml", "id",
                       "wanderer: hollis-brandt", "wanderer: hollis-brandtt", "DM202",
                       hint=MEANT)),
    *_standard(WANDERER + "existence-cards/a-dry-match.yaml", "cost: 5", "cots",
               "title: A Dry Match", ("cost: 5", "cost: five"),
               "flavor: The last dry thing you own. Strike it when it matters.",
               Mistake(WANDERER + "existence-cards/a-dry-match.yaml", "effect",
                       "- restore_mental_capacity: 2", "- restore_mental_capasity: 2", "DM105",
                       hint=MEANT),
               Mistake(WANDERER + "existence-cards/a-dry-match.yaml", "id",
                       "wanderer: hollis-brandt", "wanderer: holis-brandt", "DM202", hint=MEANT)),
    *_standard("deep-madness/madness-reborn/expansion-rules.yaml", "title:", "titl",
               "title: How Madness Reborn's components are used",
               ("title: How Madness Reborn's components are used", "title: [How, Madness]"),
               "title: How Madness Reborn's components are used",
               Mistake("deep-madness/madness-reborn/expansion-rules.yaml", "id",
                       "expansion: madness-reborn", "expansion: madnes-reborn", "DM202",
                       hint=MEANT)),
    *_standard("dawn-of-madness/families/the-settling.yaml", "name: Settling", "nmae",
               "name: Settling", ("name: Settling", "name: [Settling]"), "name: Settling",
               Mistake("dawn-of-madness/families/the-settling.yaml", "effect",
                       "- lose_existence: 1", "- lose_existance: 1", "DM105", hint=MEANT),
               Mistake("dawn-of-madness/families/the-settling.yaml", "id",
                       "{type: burdened}", "{type: burdend}", "DM202", hint=MEANT)),
    *_standard(WANDERER + "final-bosses/lowmere-water.yaml", "max_health: 14", "max_heath",
               "wanderer: hollis-brandt", ("max_health: 14", "max_health: fourteen"),
               "existence_reward: 0",
               Mistake(WANDERER + "final-bosses/lowmere-water.yaml", "effect", "- monster_heal: 1",
                       "- monster_heall: 1", "DM105", hint=MEANT),
               Mistake(WANDERER + "final-bosses/lowmere-water.yaml", "id",
                       "wanderer: hollis-brandt", "wanderer: hollis-brandy", "DM202", hint=MEANT),
               indent_code="DM102"),
    *_standard(WANDERER + "finale-encounter-cards/the-mud-path.yaml", "ending: A", "endng",
               "ending: A", ("entry: 320", 'entry: "320"'),
               "flavor: Planks laid across the mud by hands that are not there.",
               Mistake(WANDERER + "finale-encounter-cards/the-mud-path.yaml", "effect",
                       "token_on_shard:", "token_on_shards:", "DM107", hint=MEANT),
               Mistake(WANDERER + "finale-encounter-cards/the-mud-path.yaml", "id",
                       "wanderer: hollis-brandt", "wanderer: hollis-brant", "DM202", hint=MEANT),
               indent_code="DM102"),
    *_standard(WANDERER + "finale-legacy-cards/a-ringer-for-the-bell.yaml", "sentience:",
               "sentiense", "title: A Ringer for the Bell", ("purple: 2}", "purple: two}"),
               "flavor: Somebody has to ring it. Somebody always did.",
               Mistake(WANDERER + "finale-legacy-cards/a-ringer-for-the-bell.yaml", "effect",
                       "- modify_max:", "- modify_maks:", "DM105", hint=MEANT),
               Mistake(WANDERER + "finale-legacy-cards/a-ringer-for-the-bell.yaml", "id",
                       "wanderer: hollis-brandt", "wanderer: hollis-brandts", "DM202",
                       hint=MEANT)),
    *_standard("dawn-of-madness/game-rules.yaml", "players:", "playrs",
               "title: Dawn of Madness numbers", ("  sides: 6", "  sides: six"),
               "title: Dawn of Madness numbers",
               Mistake("dawn-of-madness/game-rules.yaml", "id",
                       "{manifest: dawn-of-madness, component: sentience-dice}",
                       "{manifest: dawn-of-madnes, component: sentience-dice}", "DM202",
                       hint=MEANT)),
    *_standard(WANDERER + "malformations/the-dry-widower.yaml", "max_health: 8", "max_healt",
               "name: The Dry Widower", ("max_health: 8", "max_health: eight"),
               "existence_reward: 5",
               Mistake(WANDERER + "malformations/the-dry-widower.yaml", "effect",
                       "- monster_heal: 2", "- monster_hael: 2", "DM105", hint=MEANT),
               Mistake(WANDERER + "malformations/the-dry-widower.yaml", "id",
                       "wanderer: hollis-brandt", "wanderer: hollis-brand", "DM202", hint=MEANT),
               indent_code="DM102"),
    *_standard("dawn-of-madness/manifest.yaml", "scope: game", "scoep",
               "title: Dawn of Madness general components", ("    count: 10", "    count: ten"),
               "scope: game"),
    *_standard("dawn-of-madness/round-trackers.yaml", "convention:", "conventon",
               "title: Game round trackers", ("{round: 1, entry: 1}", "{round: 1, entry: one}"),
               "title: Game round trackers",
               Mistake("dawn-of-madness/round-trackers.yaml", "id",
                       "{manifest: dawn-of-madness, component: game-round-trackers}",
                       "{manifest: dawn-of-madnes, component: game-round-trackers}", "DM202",
                       hint=MEANT)),
    *_standard(WANDERER + "storybook.yaml", "introduction:", "introducion",
               "title: The Drowned Parish", ("  - entry: 1\n", "  - entry: one\n"),
               "title: The Drowned Parish",
               # The slip the issue quotes: one DM105, no DM202 in wanderer.yaml, no count.
               Mistake(WANDERER + "storybook.yaml", "effect", "- goto: 11", "- gotoo: 11",
                       "DM105", hint=MEANT),
               Mistake(WANDERER + "storybook.yaml", "id", "{card: the-evacuation-ledger,",
                       "{card: the-evacuation-ledgr,", "DM202", hint=MEANT)),
    *_standard("dawn-of-madness/support-cards.yaml", "description:", "descripton",
               "title: Support cards", ("    size: 5", "    size: five"), "title: Support cards",
               Mistake("dawn-of-madness/support-cards.yaml", "id",
                       "{manifest: dawn-of-madness, component: two-wanderer-support-cards}",
                       "{manifest: dawn-of-madnes, component: two-wanderer-support-cards}",
                       "DM202", hint=MEANT)),
    *_standard("dawn-of-madness/terrors/silt-choristers.yaml", "max_health:", "max_helath",
               "name: Silt Choristers", ("max_health: 4", "max_health: four"),
               "existence_reward: 2",
               Mistake("dawn-of-madness/terrors/silt-choristers.yaml", "effect",
                       "- monster_attack:", "- monster_atack:", "DM105", hint=MEANT),
               Mistake("dawn-of-madness/terrors/silt-choristers.yaml", "id",
                       "wanderer: hollis-brandt", "wanderer: hollis-brandtt", "DM202",
                       hint=MEANT),
               indent_code="DM102"),
    *_standard(WANDERER + "wanderer.yaml", "title:", "titel", "name: Hollis Brandt",
               ("  max_health: 9", "  max_health: nine"), "manifest: hollis-brandt",
               Mistake(WANDERER + "wanderer.yaml", "id", "storybook: the-drowned-parish",
                       "storybook: the-drowned-parsh", "DM202", hint=MEANT)),
    *_standard(WANDERER + "wanderer-cards/the-reservoir-gauge.yaml", "card_type:", "card_tpye",
               "title: The Reservoir Gauge", ("card_type: gauge", "card_type: 5"),
               "flavor: A painted post in the water, marked in feet, and someone keeps moving it.",
               Mistake(WANDERER + "wanderer-cards/the-reservoir-gauge.yaml", "effect",
                       "- lose_mental_capacity: 1", "- lose_mental_capcity: 1", "DM105",
                       hint=MEANT),
               Mistake(WANDERER + "wanderer-cards/the-reservoir-gauge.yaml", "id",
                       "wanderer: hollis-brandt", "wanderer: hollis-brnadt", "DM202",
                       hint=MEANT)),
    *_standard(WANDERER + "world-shards/bellmouth-spillway.yaml", "number:", "numbr",
               "number: 14", ("number: 14", "number: fourteen"),
               "title: The Bellmouth Spillway",
               Mistake(WANDERER + "world-shards/bellmouth-spillway.yaml", "id",
                       "wanderer: hollis-brandt", "wanderer: hollis-brandtt", "DM202",
                       hint=MEANT)),
]
