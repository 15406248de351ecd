"""The lazy menu against the plain listing it stands for, on states of real games: what it
proves illegal is illegal, the random player's draws are the listing of each kind, and the
greedy ranking is a stable sort of the listing by value."""

from __future__ import annotations

from functools import cache

import pytest

from dmtool.engine.dawn_of_madness.candidates import Menu
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.engine import Legality
from dmtool.engine.dawn_of_madness.play.content import load_catalog
from dmtool.engine.dawn_of_madness.play.driver import play
from dmtool.engine.dawn_of_madness.play.greedy import rank, ranked
from dmtool.engine.dawn_of_madness.play.newgame import NewGame, board_catalog
from dmtool.engine.dawn_of_madness.state import GameState
from dmtool.engine.dawn_of_madness.turns import active_characters
from dmtool.model.content_index import default_content_dir

WANDERER = "hollis-brandt"


@cache
def base() -> Catalog:
    return load_catalog(default_content_dir(), WANDERER)


def decisions(policy: str, game: NewGame) -> list[tuple[GameState, Catalog, list[str]]]:
    """The states of a game at which wanderers choose an action."""
    result = play(base(), game, policy=policy, keep_states=True)
    catalog = board_catalog(base(), list(result.record["layout"]))
    out = []
    for state in result.states:
        active = active_characters(state)
        if active and active[0] in state.wanderers:
            out.append((state, catalog, active))
    return out


GAMES = [("random", NewGame(WANDERER, 3)), ("greedy", NewGame(WANDERER, 5)),
         ("random", NewGame(WANDERER, 8, players=3, variant="long")),
         ("greedy", NewGame(WANDERER, 13, players=2, devour=True))]


@pytest.mark.parametrize(("policy", "game"), GAMES)
def test_the_menu_proves_illegal_only_what_is_illegal(policy: str, game: NewGame) -> None:
    for state, catalog, active in decisions(policy, game):
        menu, legal = Menu(state, catalog, active), Legality(state, catalog, active)
        for slot in menu.slots:
            for item in menu.items(slot):
                if menu.hopeless(slot, item):
                    assert not legal(menu.action(slot, item)), (slot, item)


@pytest.mark.parametrize(("policy", "game"), GAMES)
def test_draws_are_the_listing_of_each_kind(policy: str, game: NewGame) -> None:
    for state, catalog, active in decisions(policy, game):
        menu = Menu(state, catalog, active)
        listing = menu.actions()
        assert menu.kinds() == list(dict.fromkeys(a.kind for a in listing))
        for kind in menu.kinds():
            drawn = menu.draws(kind)
            assert [menu.action(*c) for c in menu.of_kind(kind)] == [
                a for a in listing if a.kind == kind]
            assert len(drawn) == len(menu.of_kind(kind))
            for candidate, plain in zip(drawn, menu.of_kind(kind)):
                assert candidate == (None if menu.hopeless(*plain) else plain)


@pytest.mark.parametrize(("policy", "game"), GAMES)
def test_ranked_is_a_stable_sort_of_the_listing(policy: str, game: NewGame) -> None:
    for state, catalog, active in decisions(policy, game):
        menu = Menu(state, catalog, active)
        kept = [menu.action(slot, item) for slot in menu.slots for item in menu.items(slot)
                if not menu.hopeless(slot, item)]
        assert list(ranked(state, catalog, Menu(state, catalog, active))) == rank(
            state, catalog, kept)
