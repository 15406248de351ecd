"""What each `dmtool new` subcommand creates, and which existing documents it updates."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dmtool.authoring import _wiring as wiring
from dmtool.authoring.scaffold import ID_LIMIT, NewFile, NewOptions, Plan, display_name, slug
from dmtool.authoring.templates import Text, cards, chapter, fill, indent
from dmtool.authoring.templates import wanderer as tpl
from dmtool.errors import UsageError

ENDINGS = ("A", "B", "C", "D")
COLOURS = ("red", "blue", "green", "yellow", "purple")
ROUNDS = range(1, 11)  # round tracker N reads entry N (content/dawn-of-madness/round-trackers)
SHARDS = range(1, 17)
# The two endings on each world shard's finale side; every ending appears on eight shards.
FINALE_PAIRS = (("A", "B"), ("C", "D"), ("A", "C"), ("B", "D"))
# A wanderer's id starts every id of its documents ('<id>-malformation-1'), which must fit too.
WANDERER_ID_LIMIT = ID_LIMIT - len("-malformation-1")


def shard_entry(number: int) -> int:
    return 100 + number


def finale_entries(ending: str) -> tuple[int, int, int]:
    """(start, finale encounter, conclusion) entry numbers of an ending in the skeleton."""
    start = 201 + 10 * ENDINGS.index(ending)
    return start, start + 1, start + 8


@dataclass(frozen=True)
class WandererIds:
    """The ids a new wanderer's documents get: all start with the wanderer's id."""

    wanderer: str

    @property
    def storybook(self) -> str:
        return f"{self.wanderer}-storybook"

    @property
    def existence_card(self) -> str:
        return f"{self.wanderer}-starting-card"

    @property
    def domain_card(self) -> str:
        return f"{self.wanderer}-starting-item"

    @property
    def final_boss(self) -> str:
        return f"{self.wanderer}-final-boss"

    def malformation(self, number: int) -> str:
        return f"{self.wanderer}-malformation-{number}"

    def terror(self, number: int) -> str:
        return f"{self.wanderer}-terror-{number}"

    def legacy(self, ending: str) -> str:
        return f"{self.wanderer}-legacy-{ending.lower()}"

    def shard(self, number: int) -> str:
        return f"{self.wanderer}-shard-{number:02d}"


def plan_wanderer(options: NewOptions) -> Plan:
    wid = slug(options.name, limit=WANDERER_ID_LIMIT, fallback="wanderer")
    name = display_name(options.name)
    ids, folder = WandererIds(wid), options.root / wid
    legacy = {e: ids.legacy(e) for e in ENDINGS}
    plan = Plan()
    add = plan.files.append
    add(NewFile(folder / "wanderer.yaml", "wanderer", fill(
        tpl.WANDERER, id=wid, name=Text(name), storybook=ids.storybook,
        description=Text(f"{name} has not been written yet."),
        existence_card=ids.existence_card, domain_card=ids.domain_card,
        malformations=", ".join(ids.malformation(n) for n in (1, 2, 3)),
        terrors=", ".join(ids.terror(n) for n in (1, 2, 3)), final_boss=ids.final_boss,
        legacy_cards=", ".join(legacy.values()))))
    add(NewFile(folder / "storybook.yaml", "storybook", storybook_body(
        book_id=ids.storybook, wanderer=wid, title=f"The Story of {name}", legacy=legacy,
        final_bosses=[ids.final_boss])))
    for number in SHARDS:
        first, second = FINALE_PAIRS[(number - 1) % len(FINALE_PAIRS)]
        add(_file(folder, "world-shards", "world-shard", ids.shard(number), fill(
            tpl.WORLD_SHARD, id=ids.shard(number), wanderer=wid, number=number,
            sentience=", ".join(COLOURS[(number - 1 + i) % len(COLOURS)] for i in range(3)),
            entry=shard_entry(number), e1=first, e2=second,
            n1=finale_entries(first)[1], n2=finale_entries(second)[1])))
    for number in (1, 2, 3):
        add(_file(folder, "malformations", "malformation", ids.malformation(number), fill(
            tpl.MALFORMATION, id=ids.malformation(number), wanderer=wid, number=number,
            name=Text(f"Malformation {number} of {name}"), body=tpl.MONSTER_BODY)))
        add(_file(folder, "terrors", "terror", ids.terror(number), fill(
            tpl.TERROR, id=ids.terror(number), wanderer=wid,
            name=Text(f"Terror {number} of {name}"), body=tpl.MONSTER_BODY)))
    add(_file(folder, "final-bosses", "final-boss", ids.final_boss, fill(
        tpl.FINAL_BOSS, id=ids.final_boss, wanderer=wid, name=Text(f"The Final Boss of {name}"))))
    add(_file(folder, "existence-cards", "existence-card", ids.existence_card, fill(
        tpl.EXISTENCE_CARD, id=ids.existence_card, wanderer=wid,
        title=Text(f"{name}'s First Card"), locked="false")))
    add(_file(folder, "domain-cards", "domain-card", ids.domain_card, fill(
        tpl.DOMAIN_CARD, id=ids.domain_card, wanderer=wid, title=Text(f"{name}'s Keepsake"),
        locked="false")))
    for ending, card in legacy.items():
        add(_file(folder, "finale-legacy-cards", "finale-legacy-card", card, fill(
            tpl.FINALE_LEGACY_CARD, id=card, wanderer=wid, ending=ending,
            title=Text(f"Legacy of Ending {ending}"))))
    return plan


def storybook_body(*, book_id: str, wanderer: str, title: str, legacy: dict[str, str],
                   final_bosses: list[str]) -> str:
    """The storybook skeleton: round events, shard encounters, and a finale per ending."""
    entries = [fill(tpl.EVENT_ENTRY, number=n) for n in ROUNDS]
    entries += [fill(tpl.SHARD_ENTRY, number=shard_entry(n), shard=n,
                     title=Text(f"World Shard {n}"), ending=ENDINGS[(n - 1) // 4]) for n in SHARDS]
    endings = []
    for ending in ENDINGS:
        start, encounter, conclusion = finale_entries(ending)
        entries.append(fill(tpl.FINALE_ENTRIES, ending=ending, start=start,
                            encounter=encounter, conclusion=conclusion, legacy=legacy[ending]))
        endings.append(fill(tpl.ENDING, ending=ending, start=start, conclusion=conclusion,
                            legacy=legacy[ending], final_bosses=", ".join(final_bosses)))
    return fill(tpl.STORYBOOK, id=book_id, wanderer=wanderer, title=Text(title),
                entries=indent("".join(entries), 2), endings=indent("".join(endings), 2))


def plan_storybook(options: NewOptions) -> Plan:
    wid = _wanderer_option(options)
    folder = options.root / wid
    book_id = slug(options.name, fallback="storybook")
    plan = Plan()
    ids = WandererIds(wid)
    legacy = dict(wiring.legacy_cards(folder, wid))
    for ending in ENDINGS:
        if ending not in legacy:
            legacy[ending] = ids.legacy(ending)
            plan.notes.append(f"no finale legacy card of ending {ending} found for '{wid}'; "
                              f"create it with: dmtool new card finale-legacy-card "
                              f"{legacy[ending]} --wanderer {wid} --ending {ending}")
    found = wiring.find(folder, "wanderer", wid)
    bosses = list(found.data.get("final_bosses") or []) if found else []
    plan.files.append(NewFile(folder / "storybook.yaml", "storybook", storybook_body(
        book_id=book_id, wanderer=wid, title=display_name(options.name), legacy=legacy,
        final_bosses=bosses)))
    if found is None:
        plan.notes.append(f"no wanderer '{wid}' found under {folder.as_posix()}; create it "
                          f"with: dmtool new wanderer {wid}")
    elif found.data.get("storybook") != book_id:
        plan.updates[found.path] = wiring.edit(found.path, wiring.set_key("storybook", book_id))
    return plan


def _wanderer_option(options: NewOptions) -> str:
    if not options.wanderer:
        raise UsageError(f"'dmtool new {options.what}' needs --wanderer (the wanderer's id)")
    return slug(options.wanderer, limit=WANDERER_ID_LIMIT, fallback="wanderer")


def _file(folder: Path, sub: str, kind: str, doc_id: str, body: str) -> NewFile:
    return NewFile(folder / sub / f"{doc_id}.yaml", kind, body)


# ---------------------------------------------------------------- cards


@dataclass(frozen=True)
class CardKind:
    """How `dmtool new card` makes one kind: folder, template, and where it is wired in."""

    folder: str
    template: str
    lists: tuple[tuple[str, ...], ...] = ()  # wanderer lists that must name the card
    entry_kind: str | None = None  # the kind of storybook entry the card needs, if any
    values: tuple[tuple[str, str], ...] = ()  # extra template values
    note: str | None = None


CARD_KINDS: dict[str, CardKind] = {
    "coda": CardKind("codas", cards.CODA, note=(
        "award '{id}' from a storybook entry with {{gain_coda: {id}}}; until then "
        "'dmtool check' warns that nothing awards it (DM309)")),
    "encounter-card": CardKind("encounter-cards", cards.ENCOUNTER_CARD,
                               entry_kind="exploration"),
    "finale-encounter-card": CardKind("finale-encounter-cards", cards.FINALE_ENCOUNTER_CARD,
                                      entry_kind="finale"),
    "existence-card": CardKind("existence-cards", cards.EXISTENCE_CARD,
                               lists=(("existence_cards", "basic"),),
                               values=(("locked", "false"),)),
    "domain-card": CardKind("domain-cards", cards.DOMAIN_CARD,
                            lists=(("domain_cards", "locked"), ("forgotten_envelope",)),
                            values=(("locked", "true"),)),
    "finale-legacy-card": CardKind("finale-legacy-cards", cards.FINALE_LEGACY_CARD,
                                   lists=(("finale_legacy_cards",), ("forgotten_envelope",))),
    "wanderer-card": CardKind("wanderer-cards", cards.WANDERER_CARD, lists=(("other_cards",),)),
    "final-boss": CardKind("final-bosses", cards.FINAL_BOSS, lists=(("final_bosses",),)),
}


def plan_card(options: NewOptions) -> Plan:
    kind = options.card_kind or ""
    spec = CARD_KINDS.get(kind)
    if spec is None:
        raise UsageError(f"cannot scaffold a card of kind {kind!r}; choose one of "
                         f"{', '.join(CARD_KINDS)} (world shards, malformations and terrors "
                         f"come with 'dmtool new wanderer')")
    wid = _wanderer_option(options)
    folder = options.root / wid
    owner = wiring.find(folder, "wanderer", wid)
    if owner is None:
        raise UsageError(f"no wanderer '{wid}' under {folder.as_posix()}; create it first "
                         f"with: dmtool new wanderer {wid}")
    card_id, title = slug(options.name, fallback=kind), Text(display_name(options.name))
    ending = options.ending.upper()
    if ending not in ENDINGS:
        raise UsageError(f"--ending must be one of {', '.join(ENDINGS)}, not {options.ending!r}")
    values: dict[str, Any] = dict(spec.values)
    plan = Plan()
    if spec.entry_kind is not None:
        book = wiring.find(folder, "storybook", None)
        if book is None:
            raise UsageError(f"no storybook under {folder.as_posix()}; the card needs an entry "
                             f"in it (create one with: dmtool new storybook NAME --wanderer {wid})")
        number = wiring.next_entry(book.data)
        values["entry"] = number
        entry = fill(cards.STORYBOOK_ENTRY, number=number, kind=spec.entry_kind, title=title,
                     card=card_id)
        plan.updates[book.path] = wiring.edit(book.path, wiring.append_to(("entries",), entry))
    body = fill(spec.template, id=card_id, wanderer=wid, title=title, name=title,
                ending=ending, **values)
    plan.files.append(_file(folder, spec.folder, kind, card_id, body))
    if spec.lists:
        plan.updates[owner.path] = wiring.edit(owner.path, *(
            wiring.append_to(parts, card_id) for parts in spec.lists))
    if spec.note:
        plan.notes.append(spec.note.format(id=card_id))
    return plan


# ---------------------------------------------------------------- chapters


def plan_chapter(options: NewOptions) -> Plan:
    if not options.expansion:
        raise UsageError("'dmtool new chapter' needs --expansion (the expansion's id, "
                         "e.g. madness-reborn)")
    expansion = slug(options.expansion)
    folder = options.root / expansion
    if not folder.is_dir():
        raise UsageError(f"no expansion folder {folder.as_posix()}; pass --dir to the folder "
                         f"that holds the expansions")
    numbers = [d.data.get("number") for d in wiring.find_all(folder, "chapter")]
    number = max([n for n in numbers if isinstance(n, int)], default=0) + 1
    chapter_id, title = slug(options.name, fallback="chapter"), Text(display_name(options.name))
    plan = Plan()
    plan.files.append(NewFile(folder / "chapters" / f"{number}-{chapter_id}.yaml", "chapter",
                              fill(chapter.CHAPTER, id=chapter_id, expansion=expansion,
                                   number=number, title=title,
                                   introduction=Text(f"The chapter {title} has not been "
                                                     "written yet."))))
    for campaign in wiring.find_all(folder, "campaign"):
        if campaign.data.get("expansion") == expansion:
            plan.updates[campaign.path] = wiring.edit(
                campaign.path, wiring.extend_campaign(chapter_id))
            plan.notes.append(f"'{chapter_id}' now ends the campaign; check what the chapter "
                              f"before it keeps")
    return plan


PLANNERS: dict[str, Callable[[NewOptions], Plan]] = {
    "wanderer": plan_wanderer,
    "storybook": plan_storybook,
    "card": plan_card,
    "chapter": plan_chapter,
}
