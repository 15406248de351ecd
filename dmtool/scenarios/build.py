"""Turning a fixture's setup into a GameState and a Catalog (card texts borrowed if asked)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dmtool.engine.dawn_of_madness.board import Board, grid_paths
from dmtool.engine.dawn_of_madness.catalog import Catalog, playable_monster
from dmtool.engine.dawn_of_madness.constants import ENDINGS, MAX_MENTAL_CAPACITY, parse_domain
from dmtool.engine.dawn_of_madness.state import GameState, Monster, Shard, Wanderer
from dmtool.model.content_index import ContentIndex, default_content_dir
from dmtool.scenarios.borrow import SetupProblem, borrow
from dmtool.scenarios.build_story import extend_catalog, extend_state

__all__ = ["SetupProblem", "build", "resolve_content_dir"]

Parts = tuple[Any, ...]
SECTION_KIND = {"terrors": "terror", "malformations": "malformation",
                "abominations": "abomination", "final_bosses": "final-boss"}
CARD_KIND = {"codas": "coda", "domain_cards": "domain-card",
             "existence_cards": "existence-card", "encounter_cards": "encounter-card"}


def build(setup: dict[str, Any], *, content: ContentIndex, base: Path | None = None,
          display: str | None = None) -> tuple[GameState, Catalog]:
    """The state and catalogue of a fixture's setup. `base` is the fixture's folder (for a
    campaign state file it names) and `display` its path as shown in diagnostics."""
    catalog = Catalog(
        monsters=_monster_defs(setup, content),
        entries=_entries(setup, content),
        round_trackers=list(setup.get("round_trackers", [])),
        shards=_shards(setup),
        board=_board(setup.get("board", {})),
    )
    cards = setup.get("cards", {})
    for section, kind in CARD_KIND.items():
        for cid, body in cards.get(section, {}).items():
            getattr(catalog, section)[cid] = borrow(content, kind, body, ("setup", "cards",
                                                                           section, cid))
    catalog.support_cards.update(cards.get("support_cards", {}))
    for card in catalog.domain_cards.values():
        card["domains"] = [_domain_obj(d) for d in card.get("domains", [])]
    state = _state(setup, catalog, content)
    extend_catalog(setup, catalog, content)
    extend_state(setup, state, catalog, base, display)
    _validate(state, catalog)
    return state, catalog


def _monster_defs(setup: dict[str, Any], content: ContentIndex) -> dict[str, dict[str, Any]]:
    defs: dict[str, dict[str, Any]] = {}
    cards = setup.get("cards", {})
    for section, kind in SECTION_KIND.items():
        for mid, body in cards.get(section, {}).items():
            defs[mid] = playable_monster(borrow(content, kind, body, ("setup", "cards", section, mid)),
                                   kind)
    state_keys = ("shard", "wounds", "mental_capacity", "rifts")
    for mid, body in setup.get("monsters", {}).items():
        card = {k: v for k, v in body.items() if k not in state_keys}
        where = ("setup", "monsters", mid)
        if len(card) > (1 if "kind" in card else 0) or "from" in card:
            kinds = (card["kind"],) if "kind" in card else tuple(SECTION_KIND.values())
            merged = borrow(content, kinds[0], card, where, kinds)
            defs[mid] = playable_monster({**defs.get(mid, {}), **merged}, merged.get("kind", "terror"))
        elif mid not in defs:
            raise SetupProblem("DM402", f"The monster '{mid}' has no card: give its definition "
                               "here, under setup.cards, or borrow it with 'from'.", where)
    for mid, d in defs.items():
        for key in ("max_health", "max_mental_capacity"):
            if key not in d:
                raise SetupProblem("DM402", f"The monster '{mid}' needs '{key}'.",
                                   ("setup", "monsters", mid))
    return defs


def _entries(setup: dict[str, Any], content: ContentIndex) -> dict[int, dict[str, Any]]:
    book = setup.get("storybook")
    if isinstance(book, str):
        found = content.get("storybook", book)
        if found is None:
            raise SetupProblem("DM414", f"No storybook '{book}' in {content.root}.",
                               ("setup", "storybook"))
        book = found
    return {e["entry"]: e for e in (book or {}).get("entries", [])}


def _shards(setup: dict[str, Any]) -> dict[int, dict[str, Any]]:
    out: dict[int, dict[str, Any]] = {}
    for key, body in setup.get("shards", {}).items():
        info: dict[str, Any] = {}
        if "sentience" in body:
            info["sentience"] = list(body["sentience"])
        if "encounter" in body:
            info["encounter"] = {"entry": body["encounter"]}
        out[int(key)] = info
    return out


def _board(spec: dict[str, Any]) -> Board:
    if "paths" in spec:
        return Board([(a, b) for a, b in spec["paths"]])
    return Board(grid_paths(spec.get("layout")))


def _domain_obj(value: Any) -> dict[str, str]:
    if isinstance(value, str):
        colour, kind = parse_domain(value)
        return {"colour": colour, "type": kind}
    return dict(value)


def _wanderer(wid: str, body: dict[str, Any], content: ContentIndex, phase: str) -> Wanderer:
    where = ("setup", "wanderers", wid)
    body = dict(body)
    source = body.pop("from", None)
    if source is not None:
        doc = content.get("wanderer", source)
        if doc is None:
            raise SetupProblem("DM414", f"No wanderer '{source}' in {content.root}.",
                               where + ("from",))
        dash = doc.get("dashboard", {})
        base = {"sentience": dash.get("sentience"), "max_health": dash.get("max_health"),
                "max_mental_capacity": dash.get("max_mental_capacity"),
                "malformations": doc.get("malformations", []),
                "domain_cards": dash.get("starting_domain_cards", []),
                "existence_cards": [dash["starting_existence_card"]]
                if dash.get("starting_existence_card") else []}
        body = {**base, **body}
    for key in ("sentience", "max_health", "max_mental_capacity"):
        if body.get(key) is None:
            raise SetupProblem("DM402", f"The wanderer '{wid}' needs '{key}'.", where)
    body.setdefault("mental_capacity", body["max_mental_capacity"])
    if "shard" not in body and phase != "setup":
        raise SetupProblem("DM402", f"The wanderer '{wid}' needs a 'shard' outside the setup "
                           "phase.", where)
    w = Wanderer.from_dict(wid, body)
    if w.trapped is not None:
        w.trapped.setdefault("shard", w.shard or 0)
    return w


def _state(setup: dict[str, Any], catalog: Catalog, content: ContentIndex) -> GameState:
    phase = setup.get("phase", "action")
    wanderers = {wid: _wanderer(wid, body, content, phase)
                 for wid, body in setup["wanderers"].items()}
    central = setup.get("central", next(iter(wanderers)))
    state = GameState(central, wanderers, round=setup.get("round", 1), phase=phase,
                      devour_rule=bool(setup.get("devour_rule", False)),
                      rng=setup.get("rng", 0), score_goal=setup.get("score_goal", 40))
    for ending in ENDINGS:
        state.scores[ending] = setup.get("scores", {}).get(ending, 0)
    for key, body in setup.get("shards", {}).items():
        state.shards[int(key)] = Shard(dict(body.get("tokens", {})),
                                       list(body.get("encounter_cards", [])))
    for mid, body in setup.get("monsters", {}).items():
        card = catalog.monsters[mid]
        state.monsters[mid] = Monster(
            mid, card["kind"], body["shard"], card["max_health"], card["max_mental_capacity"],
            body.get("mental_capacity", card["max_mental_capacity"]), body.get("wounds", 0),
            [parse_domain(r) for r in body.get("rifts", [])])
    _abomination(setup, state, catalog, content)
    state.decks = {k: list(v) for k, v in setup.get("decks", {}).items()}
    state.support = dict(setup.get("support_cards", {}))
    state.visited = list(setup.get("visited", []))
    state.killed = list(setup.get("killed", []))
    return state


def _abomination(setup: dict[str, Any], state: GameState, catalog: Catalog,
                 content: ContentIndex) -> None:
    spec = setup.get("abomination")
    if not spec:
        return
    aid = spec["id"]
    if aid not in catalog.monsters:
        found = content.get("abomination", aid)
        if found is None:
            raise SetupProblem("DM402", f"The abomination '{aid}' is not defined under "
                               "setup.cards.abominations nor found in content.",
                               ("setup", "abomination", "id"))
        catalog.monsters[aid] = playable_monster(dict(found), "abomination")
    card = catalog.monsters[aid]
    state.abomination = aid
    state.abomination_killed = bool(spec.get("killed", False))
    numbers = list(range(1, len(card.get("confrontation_cards", [])) + 1))
    on_board = spec.get("on_board", state.phase != "setup" and not state.abomination_killed)
    state.confrontation = {"deck": list(spec.get("deck", numbers if not on_board else [])),
                           "active": spec.get("active"), "discard": list(spec.get("discard", []))}
    if on_board:
        if "shard" not in spec:
            raise SetupProblem("DM402", "An abomination on the board needs a 'shard'.",
                               ("setup", "abomination"))
        state.monsters[aid] = Monster(aid, "abomination", spec["shard"], card["max_health"],
                                      card["max_mental_capacity"],
                                      spec.get("mental_capacity", card["max_mental_capacity"]),
                                      spec.get("wounds", 0))


def _validate(state: GameState, catalog: Catalog) -> None:
    for w in state.wanderers.values():
        where = ("setup", "wanderers", w.id)
        if w.max_mc > MAX_MENTAL_CAPACITY or w.mc > w.max_mc:
            raise SetupProblem("DM421", f"{w.id}'s mental capacity {w.mc} must not exceed its "
                               f"max {w.max_mc}, and the max must not exceed 10.", where)
        if w.alive and w.wounds >= w.max_health:
            raise SetupProblem("DM421", f"{w.id} is alive with {w.wounds} wounds but max "
                               f"health {w.max_health}; set alive: false or fewer wounds.", where)
        for mid in w.malformations:
            if mid not in catalog.monsters:
                raise SetupProblem("DM402", f"{w.id}'s malformation '{mid}' is not defined.",
                                   where + ("malformations",))
    for m in state.monsters.values():
        if m.mc > m.max_mc or m.wounds >= m.max_health:
            raise SetupProblem("DM421", f"The monster {m.id} has capacity above its max or "
                               "wounds at its max health.", ("setup", "monsters", m.id))


def resolve_content_dir(fixture: Path, declared: str | None) -> Path:
    return (fixture.parent / declared) if declared else default_content_dir()
