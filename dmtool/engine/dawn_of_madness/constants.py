"""Fixed vocabulary of the rules: colours, domain types, die faces, domain notation."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

COLOURS: Final[tuple[str, ...]] = ("red", "blue", "green", "yellow", "purple")
TYPES: Final[tuple[str, ...]] = ("hand", "eye", "brain", "skull", "sphere")
ENDINGS: Final[tuple[str, ...]] = ("A", "B", "C", "D")
SHARDS: Final[tuple[int, ...]] = tuple(range(1, 17))

# Each colour's die shows all five types once and its favoured type a second time.
FAVOURED: Final[dict[str, str]] = {
    "red": "hand",
    "blue": "brain",
    "green": "eye",
    "yellow": "skull",
    "purple": "sphere",
}
FACES: Final[dict[str, tuple[str, ...]]] = {
    colour: TYPES + (favoured,) for colour, favoured in FAVOURED.items()
}

# Which brain colour may stand in for mental capacity, by action type; purple pays any.
BRAIN_COLOURS: Final[dict[str, frozenset[str]]] = {
    "move": frozenset({"green", "purple"}),
    "attack": frozenset({"red", "purple"}),
    "confront": frozenset({"red", "purple"}),
    "search": frozenset({"blue", "purple"}),
    "domain": frozenset({"blue", "purple"}),
    "encounter": frozenset({"yellow", "purple"}),
    "component": frozenset({"yellow", "purple"}),
}

MAX_MENTAL_CAPACITY: Final = 10
DOMAIN_CARD_LIMIT: Final = 4
MAX_RANGE: Final = 3
SCORE_GOALS: Final[dict[str, int]] = {"standard": 40, "short": 30, "long": 50}
WITHERED: Final = "withered"
WITHERED_LIMIT: Final = 4  # receiving the fourth Withered card fails the stage

# Condition decks and their sizes (DoM component list); True where the deck is shuffled.
CONDITION_DECKS: Final[dict[str, tuple[int, bool]]] = {
    "burdened": (6, False),
    "disoriented": (15, True),
    "enlightened": (6, False),
    "envenomed": (16, False),
    "fusion": (6, False),
    "lightheaded": (15, True),
    "overwrought": (6, False),
    "slowed": (12, False),
    "traumatized": (15, True),
    "weakened": (12, False),
    "withered": (12, False),
}

# Discarded cards of these types go under their deck; all others go back on top.
DISCARD_TO_BOTTOM: Final[frozenset[str]] = frozenset({"disoriented", "lightheaded", "traumatized"})
TRAUMATIZED_SORTS: Final = 5  # five sorts of Traumatized card, each with its own back

Domain = tuple[str, str]  # (colour, type)


def parse_domain(text: str) -> Domain:
    """'red hand' -> ('red', 'hand'); raises ValueError on anything else."""
    parts = text.split()
    if len(parts) != 2 or parts[0] not in COLOURS or parts[1] not in TYPES:
        raise ValueError(f"{text!r} is not a domain such as 'red hand'")
    return parts[0], parts[1]


def domain_text(domain: Domain) -> str:
    return f"{domain[0]} {domain[1]}"


def domain_texts(domains: Iterable[Domain]) -> list[str]:
    """`domain_text` of each (one call for a whole list, as the log shows them)."""
    return [f"{colour} {kind}" for colour, kind in domains]


def domains_from_mapping(mapping: Mapping[str, Iterable[str]]) -> list[Domain]:
    """{red: [hand, hand]} -> [('red', 'hand'), ('red', 'hand')] in colour order."""
    return [(c, t) for c in COLOURS for t in mapping.get(c, ())]


def domains_to_mapping(domains: Iterable[Domain]) -> dict[str, list[str]]:
    """The inverse of domains_from_mapping, sorted by colour then type order."""
    out: dict[str, list[str]] = {}
    for colour, kind in sorted(domains, key=lambda d: (COLOURS.index(d[0]), TYPES.index(d[1]))):
        out.setdefault(colour, []).append(kind)
    return out


def count_colours(colours: Iterable[str]) -> dict[str, int]:
    """How many of each colour, in first-seen order (a plain loop: `Counter` costs several
    times as much for the three colours of a shard)."""
    counts: dict[str, int] = {}
    for c in colours:
        counts[c] = counts.get(c, 0) + 1
    return counts


def satisfies(have: Iterable[Domain], need: Iterable[Domain]) -> bool:
    """Whether results `have` meet every requirement in `need` (spheres wild per colour)."""
    return not missing(have, need)


def missing(have: Iterable[Domain], need: Iterable[Domain]) -> list[Domain]:
    """Requirements of `need` that `have` cannot meet, spheres filling gaps in their colour."""
    pool: dict[Domain, int] = {}
    for d in have:
        pool[d] = pool.get(d, 0) + 1
    short: list[Domain] = []
    # Exact matches first, sphere requirements before others so wilds are not wasted (a
    # stable partition: what sorting on "is not a sphere" gives).
    need = list(need)
    wanted = [d for d in need if d[1] == "sphere"] + [d for d in need if d[1] != "sphere"]
    gaps: list[Domain] = []
    for d in wanted:
        if pool.get(d, 0):
            pool[d] -= 1
        else:
            gaps.append(d)
    for colour, kind in gaps:
        wild = (colour, "sphere")
        if kind != "sphere" and pool.get(wild, 0):
            pool[wild] -= 1
        else:
            short.append((colour, kind))
    return short
