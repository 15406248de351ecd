"""Building a chapter's catalogue and state from its content and a described setup: the
board, investigators, figures and pieces a fixture describes, and pools and reserves sized
from the expansion's manifest (less what is already in play)."""

from __future__ import annotations

from typing import Any

from dmtool.engine.core.registry import Rules
from dmtool.engine.deep_madness.board import HATCH_STATES, LINE_KINDS, WHITE, Board, pair
from dmtool.engine.deep_madness.catalog import ChapterCatalog, ComponentKind, MonsterKind
from dmtool.engine.deep_madness.content import ChapterSource, manifest_counts
from dmtool.engine.deep_madness.records import (
    FILTH_TOKENS,
    INFECTION_CARDS,
    INFECTION_TOKENS,
    Figure,
    Investigator,
    Piece,
)
from dmtool.engine.deep_madness.state import ChapterState

Parts = tuple[Any, ...]


class SetupError(Exception):
    """A described setup the engine cannot start from; `where` is the path in it."""

    def __init__(self, message: str, where: Parts = ()) -> None:
        super().__init__(message)
        self.message, self.where = message, where


def build_catalog(source: ChapterSource, setup: dict[str, Any], rules: Rules) -> ChapterCatalog:
    chapter = source.chapter
    sizes = manifest_counts(source.manifest)
    components: dict[str, ComponentKind] = {}
    for use in chapter.get("components", []):
        size = sizes.get(use["id"]) if use["source"] == "expansion" else use.get("count")
        components[use["id"]] = ComponentKind(use["id"], use["name"], use["source"], size,
                                              bool(use.get("pool", False)))
    monsters: dict[str, MonsterKind] = {}
    for kind in chapter.get("monsters", []):
        figures = sizes.get(kind.get("figure", "")) if kind.get("figure") else None
        rule = rules.hooks.get(f"figures:{kind['id']}")
        monsters[kind["id"]] = MonsterKind(
            kind["id"], kind["name"], kind["card"], epic=kind["card"] == "chapter-specific",
            figures=rule(source.expansion_rules) if rule is not None else figures)
    for mid, body in setup.get("monsters", {}).items():
        base = monsters.get(mid, MonsterKind(mid, str(body.get("name", mid))))
        monsters[mid] = MonsterKind(
            mid, str(body.get("name", base.name)), str(body.get("card", base.card)),
            bool(body.get("epic", base.epic)), body.get("horror", base.horror),
            body.get("max_health", base.max_health), body.get("figures", base.figures),
            tuple(body.get("colours", base.colours)))
    return ChapterCatalog(
        chapter, _board(setup.get("board", {})), components, monsters, source.expansion_rules,
        source.campaign, dict(setup.get("filth_cards", {})), dict(setup.get("domain_cards", {})),
        {k: dict(v) for k, v in setup.get("enlightenment", {}).items()})


def _board(spec: dict[str, Any]) -> Board:
    where: Parts = ("setup", "board")
    rooms = {str(s): int(r) for s, r in spec.get("spaces", {}).items()}
    lines: dict[tuple[str, str], str] = {}
    for n, line in enumerate(spec.get("lines", [])):
        a, b, kind = str(line[0]), str(line[1]), str(line[2]) if len(line) > 2 else WHITE
        if a not in rooms or b not in rooms or kind not in LINE_KINDS:
            raise SetupError(f"A line joins two spaces of the board and is white or red; got "
                             f"{line}.", where + ("lines", n))
        lines[pair(a, b)] = kind
    hatches = {}
    for n, hatch in enumerate(spec.get("hatches", [])):
        if len(hatch) != 3 or pair(str(hatch[0]), str(hatch[1])) not in lines or \
                hatch[2] not in HATCH_STATES:
            raise SetupError(f"A hatch sits on a line: [space, space, {'|'.join(HATCH_STATES)}]; "
                             f"got {hatch}.", where + ("hatches", n))
        hatches[pair(str(hatch[0]), str(hatch[1]))] = str(hatch[2])
    for n, run in enumerate(spec.get("sight", [])):
        if any(str(s) not in rooms for s in run):
            raise SetupError(f"A sight run names spaces of the board; got {run}.",
                             where + ("sight", n))
    spawn = {int(r): str(s) for r, s in spec.get("spawn_spaces", {}).items()}
    return Board(rooms, lines, hatches, [[str(s) for s in run] for run in spec.get("sight", [])],
                 spawn)


def build_state(catalog: ChapterCatalog, setup: dict[str, Any], rules: Rules) -> ChapterState:
    state = ChapterState(catalog.id, round=int(setup.get("round", 1)))
    for iid, body in setup.get("investigators", {}).items():
        inv = Investigator.from_data(str(iid), dict(body))
        inv.colour = inv.colour or inv.id
        state.investigators[inv.id] = inv
    for fid, body in setup.get("figures", {}).items():
        if body.get("monster") not in catalog.monsters:
            raise SetupError(f"The figure '{fid}' names the monster '{body.get('monster')}', "
                             "which neither the chapter nor setup.monsters declares.",
                             ("setup", "figures", fid))
        state.figures[str(fid)] = Figure(str(fid), body["monster"], str(body["space"]),
                                         body.get("colour"), int(body.get("wounds", 0)))
    for space, pieces in setup.get("pieces", {}).items():
        state.spaces[str(space)] = [Piece.from_data(p) for p in pieces]
    state.flooded = [str(s) for s in setup.get("flooded", [])]
    state.devoured = [int(r) for r in setup.get("devoured", [])]
    state.removed = {str(k): int(v) for k, v in setup.get("removed", {}).items()}
    state.killed = {str(k): int(v) for k, v in setup.get("killed", {}).items()}
    state.on_cards = {str(k): int(v) for k, v in setup.get("on_cards", {}).items()}
    devour = setup.get("devour", {})
    state.devour_position = int(devour.get("position", 0))
    values = catalog.track_values()
    state.devour_spaces = devour.get("spaces", len(values) if values else None)
    state.track = list(setup.get("track", _track(catalog)))
    state.decks = _decks(catalog, setup)
    state.domain_rule = bool(setup.get("domain_rule", False))
    state.enlightenment = {k: {"slots": list(v.get("slots", [])),
                               "filled": list(v.get("filled", []))}
                           for k, v in setup.get("enlightenment", {}).items()}
    state.modifiers = [dict(m) for m in setup.get("modifiers", [])]
    _supply(catalog, state, setup)
    _reserve(catalog, state, setup, rules)
    _check(catalog, state)
    return state


def _track(catalog: ChapterCatalog) -> list[str]:
    slots = catalog.chapter.get("special_setup", {}).get("activation_track", [])
    order = {"left-of-track": -1, "end-of-track": 999}
    ranked = sorted(slots, key=lambda s: order.get(s["position"], s["position"]))
    return [m for slot in ranked for m in slot["monsters"]]


def _decks(catalog: ChapterCatalog, setup: dict[str, Any]) -> dict[str, list[Any]]:
    decks = {"room": list(catalog.chapter.get("room_deck", [])),
             "devoured": list(catalog.chapter.get("devoured_deck", []))}
    decks.update({k: list(v) for k, v in setup.get("decks", {}).items()})
    return decks


def _supply(catalog: ChapterCatalog, state: ChapterState, setup: dict[str, Any]) -> None:
    """Each counted component's pool: the manifest's size less what lies on the board, is
    held, or has left the game (a fixture may give the pool's pieces outright)."""
    given = setup.get("supply", {})
    for cid, kind in catalog.components.items():
        if cid in given:
            spec = given[cid]
            state.supply[cid] = [Piece(cid) for _ in range(spec)] if isinstance(spec, int) \
                else [Piece.from_data({"component": cid, **p}) for p in spec]
            continue
        if kind.size is None:
            continue
        used = _in_play(state, cid) + state.removed.get(cid, 0)
        state.supply[cid] = [Piece(cid) for _ in range(max(0, kind.size - used))]


def _in_play(state: ChapterState, cid: str) -> int:
    invs = state.investigators.values()
    if cid == FILTH_TOKENS:
        return sum(i.filth_tokens for i in invs)
    if cid == INFECTION_TOKENS:
        return sum(i.infection_tokens for i in invs)
    if cid == INFECTION_CARDS:
        return sum(1 for i in invs if i.infection_card is not None)
    lying = sum(1 for ps in state.spaces.values() for p in ps if p.component == cid)
    return lying + sum(1 for i in invs for p in i.held if p.component == cid)


def _reserve(catalog: ChapterCatalog, state: ChapterState, setup: dict[str, Any],
             rules: Rules) -> None:
    """Each monster's figures off the board: the box's figures less those on the board."""
    given = setup.get("reserve", {})
    for mid, kind in catalog.monsters.items():
        if mid in given:
            spec = given[mid]
            state.reserve[mid] = [None] * spec if isinstance(spec, int) else list(spec)
            continue
        if kind.figures is None:
            continue
        rule = rules.hooks.get(f"colours:{mid}")
        colours: list[str | None] = list(kind.colours) or (
            rule(state, kind.figures) if rule is not None else [None] * kind.figures)
        for figure in state.figures.values():
            if figure.monster == mid:
                if figure.colour in colours:
                    colours.remove(figure.colour)
                elif colours:
                    colours.pop()
        state.reserve[mid] = colours


def _check(catalog: ChapterCatalog, state: ChapterState) -> None:
    spaces = set(catalog.board.rooms)
    for iid, inv in state.investigators.items():
        if inv.space is not None and inv.space not in spaces:
            raise SetupError(f"{iid} stands on '{inv.space}', which is not a space of the "
                             "board.", ("setup", "investigators", iid, "space"))
    for fid, figure in state.figures.items():
        if figure.space not in spaces:
            raise SetupError(f"The figure {fid} stands on '{figure.space}', which is not a "
                             "space of the board.", ("setup", "figures", fid, "space"))
    for space in state.spaces:
        if space not in spaces:
            raise SetupError(f"Pieces lie on '{space}', which is not a space of the board.",
                             ("setup", "pieces", space))
