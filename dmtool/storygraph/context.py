"""What the rest of the corpus says about a storybook: the entries named on round trackers,
world shards and encounter cards, the wanderer's coda cards and starting sentience."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dmtool.diagnostics.model import Location

ROUND_TRACKERS = "round-trackers"


@dataclass(frozen=True, slots=True)
class Place:
    """Where something is written, resolved only when a finding needs it: the loader
    computes positions lazily (a second parse of the file), and most runs need none."""

    document: Any
    parts: tuple[str | int, ...]

    def resolve(self) -> Location:
        return self.document.locate(self.parts)


def located(where: Location | Place) -> Location:
    return where.resolve() if isinstance(where, Place) else where


@dataclass(frozen=True, slots=True)
class Source:
    """An entry named outside the storybook.

    kind: round | shard | card | finale-shard | finale-card. `spawned` marks cards whose
    back carries a spawning condition (they enter play by themselves, so they are roots).
    `ending` binds finale sources to one ending.
    """

    kind: str
    label: str
    entry: int
    location: Location | Place
    ending: str | None = None
    card_id: str | None = None
    spawned: bool = False
    encounter_kind: str | None = None
    entrance: Mapping[str, Any] | None = None
    # Where the card's id is written (for findings about the card itself).
    where: Location | Place | None = None
    # The spawning condition on the card's back, when it has one.
    spawn: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class StoryContext:
    """Roots and cards for one storybook; `rounds` is None when no round trackers are known
    (then every event entry is taken as a root, so a lone storybook still analyses)."""

    rounds: tuple[Source, ...] | None = None
    shards: tuple[Source, ...] = ()
    cards: tuple[Source, ...] = ()
    finale: tuple[Source, ...] = ()
    # Coda cards of the wanderer: id -> where the card's id is written.
    codas: Mapping[str, Location | Place] = field(default_factory=dict)
    # Coda front effects (applied when a coda is gained, e.g. sentience changes).
    coda_effects: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)
    sentience: Mapping[str, int] | None = None
    # The wanderer's printed dashboard (max health, max mental capacity, ...), when known.
    dashboard: Mapping[str, Any] | None = None
    # Starting sentience of every wanderer of the content (any of them may resolve an entry);
    # empty means only `sentience` is known.
    sentience_starts: tuple[Mapping[str, int], ...] = ()
    # colour -> (sum of raises, sum of drops) that cards other than the storybook's own coda
    # cards can make (legacy cards, existence cards, ...), each counted once.
    sentience_changes: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    # Coda cards that cards other than the storybook can award (their effects gain them).
    codas_elsewhere: frozenset[str] = frozenset()
    # Mental capacity restored and domains gained by every card of those kinds together
    # (storygraph.economy counts them once a round for each wanderer).
    units_elsewhere: int = 0

    def card(self, card_id: str) -> Source | None:
        for source in self.cards + self.finale:
            if source.card_id == card_id:
                return source
        return None


def context_for(corpus: Any, wanderer: str) -> StoryContext:
    """Gather a storybook's context from a Corpus (or anything with `of_kind(kind)`)."""
    rounds = _rounds(corpus.of_kind(ROUND_TRACKERS))
    shards: list[Source] = []
    finale: list[Source] = []
    for doc in _mine(corpus.of_kind("world-shard"), wanderer):
        data = doc.data
        number = data.get("number")
        encounter = data.get("encounter")
        if isinstance(encounter, dict) and _is_int(encounter.get("entry")):
            shards.append(
                Source(
                    "shard",
                    f"world shard {number}",
                    encounter["entry"],
                    Place(doc, ("encounter", "entry")),
                    encounter_kind=encounter.get("kind"),
                )
            )
        side = data.get("finale")
        encounters = side.get("encounters") if isinstance(side, dict) else None
        for i, enc in enumerate(encounters if isinstance(encounters, list) else []):
            if isinstance(enc, dict) and _is_int(enc.get("entry")):
                finale.append(
                    Source(
                        "finale-shard",
                        f"world shard {number} (finale)",
                        enc["entry"],
                        Place(doc, ("finale", "encounters", i, "entry")),
                        ending=enc.get("ending"),
                    )
                )
    cards = [_card(doc, "card") for doc in _mine(corpus.of_kind("encounter-card"), wanderer)]
    finale += [
        _card(doc, "finale-card")
        for doc in _mine(corpus.of_kind("finale-encounter-card"), wanderer)
    ]
    codas: dict[str, Location | Place] = {}
    coda_effects: dict[str, tuple[Any, ...]] = {}
    for doc in _mine(corpus.of_kind("coda"), wanderer):
        codas[doc.data["id"]] = Place(doc, ("id",))
        effects = doc.data.get("effects")
        coda_effects[doc.data["id"]] = tuple(effects) if isinstance(effects, list) else ()
    changes, codas_elsewhere, units = _card_effects(corpus)
    return StoryContext(
        rounds=rounds,
        shards=tuple(shards),
        cards=tuple(c for c in cards if c is not None),
        finale=tuple(c for c in finale if c is not None),
        codas=codas,
        coda_effects=coda_effects,
        sentience=_sentience(corpus, wanderer),
        dashboard=_dashboard(corpus, wanderer),
        sentience_starts=_sentience_starts(corpus),
        sentience_changes=changes,
        codas_elsewhere=codas_elsewhere,
        units_elsewhere=units,
    )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _mine(documents: list[Any], wanderer: str) -> list[Any]:
    mine = []
    for document in documents:  # hot path: every shard and card of the content, per book
        data = document.data
        if (isinstance(data, dict) and data.get("wanderer") == wanderer
                and isinstance(data.get("id"), str)):
            mine.append(document)
    return mine


def _card(doc: Any, kind: str) -> Source | None:
    data = doc.data
    if not _is_int(data.get("entry")):
        return None
    spawn = data.get("spawn")
    entrance = data.get("entrance")
    when = entrance.get("when") if isinstance(entrance, dict) else None
    return Source(
        kind,
        f"card '{data['id']}'",
        data["entry"],
        Place(doc, ("entry",)),
        ending=data.get("ending"),
        card_id=data["id"],
        spawned=isinstance(spawn, dict),
        encounter_kind=data.get("encounter_kind"),
        entrance=when if isinstance(when, dict) else None,
        where=Place(doc, ("id",)),
        spawn=spawn.get("when")
        if isinstance(spawn, dict) and isinstance(spawn.get("when"), dict)
        else None,
    )


def _rounds(documents: list[Any]) -> tuple[Source, ...] | None:
    """Round trackers: each item of the document's list names its round and event entry."""
    if not documents:
        return None
    found: list[Source] = []
    for doc in documents:
        data = doc.data if isinstance(doc.data, dict) else {}
        key = next((k for k in ("trackers", "rounds") if isinstance(data.get(k), list)), None)
        for i, item in enumerate(data.get(key, []) if key else []):
            if isinstance(item, dict) and _is_int(item.get("entry")):
                number = item.get("round", i + 1)
                found.append(
                    Source("round", f"round {number}", item["entry"], Place(doc, (key, i, "entry")))
                )
    return tuple(found)


def _dashboard(corpus: Any, wanderer: str) -> dict[str, Any] | None:
    for doc in corpus.of_kind("wanderer"):
        data = doc.data
        if isinstance(data, dict) and data.get("id") == wanderer:
            dashboard = data.get("dashboard")
            return dashboard if isinstance(dashboard, dict) else None
    return None


# The kinds of card whose effects (or, for finale legacy cards, printed changes) may change a
# wanderer's sentience in a game; the storybook's branches and its coda cards are counted
# by the analysis itself. tests/test_storygraph_conditions.py keeps this list in step with
# the schemas. Read through `of_kind`, so the check's memo of a storybook's findings knows
# which documents they depend on.
SENTIENCE_KINDS = (
    "abomination",
    "devour-card",
    "domain-card",
    "existence-card",
    "family",
    "finale-legacy-card",
    "terror",
    "wanderer-card",
)


def _card_effects(corpus: Any) -> tuple[dict[str, tuple[int, int]], frozenset[str], int]:
    """(raises and drops of each colour, coda cards gained, capacity and domains given)
    that any card of the content other than the storybook and its coda cards can make."""
    totals: dict[str, list[int]] = {}
    codas: set[str] = set()
    units = 0
    for kind in SENTIENCE_KINDS:
        for document in corpus.of_kind(kind):
            changes, gained, given = _changes_of(document, kind)
            codas.update(gained)
            units += given
            for colour, amount in changes:
                pair = totals.setdefault(colour, [0, 0])
                pair[0 if amount > 0 else 1] += abs(amount)
    return ({colour: (up, down) for colour, (up, down) in totals.items()}, frozenset(codas),
            units)


# A card's sentience changes are read from its data alone: remembered with the document
# (every analysis reads every card of these kinds; unpacking each one every time costs
# more than the rest of the context).
_CHANGES_MEMO = "sentience-changes:2:"
Changes = tuple[tuple[tuple[str, int], ...], tuple[str, ...], int]


def _changes_of(document: Any, kind: str) -> Changes:
    """((colour, amount) of each sentience change, coda cards gained, mental capacity
    restored and domains gained) written on a card."""
    memo = getattr(document, "memo", None)
    if memo is None:
        return _read_changes(document, kind)
    return memo(_CHANGES_MEMO + kind,  # type: ignore[no-any-return]
                lambda doc: _read_changes(doc, kind), _are_changes)


def _read_changes(document: Any, kind: str) -> Changes:
    data = document.data
    if not isinstance(data, dict):
        return (), (), 0
    changes: list[Any] = []
    codas: list[str] = []
    units = 0
    for name, body in _effects_in(data):
        if name == "modify_sentience" and isinstance(body, dict):
            changes.append(body)
        elif name == "gain_coda" and isinstance(body, str):
            codas.append(body)
        elif name == "restore_mental_capacity" and _is_int(body):
            units += max(body, 0)
        elif name == "gain_domain" and isinstance(body, dict):
            units += sum(len(v) for v in body.values() if isinstance(v, list))
    if kind == "finale-legacy-card" and isinstance(data.get("sentience"), dict):
        changes.append(data["sentience"])
    found = tuple((colour, amount) for change in changes for colour, amount in change.items()
                  if isinstance(colour, str) and _is_int(amount))
    return found, tuple(codas), units


def _are_changes(value: Any) -> bool:
    return (type(value) is tuple and len(value) == 3 and type(value[0]) is tuple
            and type(value[2]) is int
            and all(type(c) is tuple and len(c) == 2 and type(c[0]) is str
                    and type(c[1]) is int for c in value[0])
            and type(value[1]) is tuple and all(type(n) is str for n in value[1]))


def _effects_in(value: Any) -> Any:
    """(name, body) of every one-key mapping anywhere inside a document's data (effects and
    anything shaped like one; the callers pick the names they know)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if len(item) == 1:
                yield next(iter(item.items()))
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _sentience(corpus: Any, wanderer: str) -> dict[str, int] | None:
    return _sentience_of(_dashboard(corpus, wanderer))


def _sentience_of(dashboard: dict[str, Any] | None) -> dict[str, int] | None:
    values = (dashboard or {}).get("sentience")
    return {k: v for k, v in values.items() if _is_int(v)} if isinstance(values, dict) else None


def _sentience_starts(corpus: Any) -> tuple[dict[str, int], ...]:
    """The starting sentience of each wanderer document that has one, in order: what
    _sentience gives for each one's id (the dashboard of the first document of that id),
    with the documents read once rather than once per wanderer."""
    wanderers = corpus.of_kind("wanderer")
    dashboards: dict[str, Any] = {}
    for doc in wanderers:
        data = doc.data
        if isinstance(data, dict):
            key = data.get("id")
            if type(key) is str and key not in dashboards:
                dashboard = data.get("dashboard")
                dashboards[key] = dashboard if isinstance(dashboard, dict) else None
    starts = []
    for doc in wanderers:
        start = _sentience_of(dashboards.get(str(doc.data.get("id"))))
        if start is not None:
            starts.append(start)
    return tuple(starts)
