"""A grid board made from a layout (rows worked out on first use) answers exactly as the
board searched from the same paths, and still pickles and copies."""

from __future__ import annotations

import copy
import pickle

from dmtool.engine.dawn_of_madness.board import Board, grid_paths
from dmtool.engine.dawn_of_madness.constants import SHARDS
from dmtool.engine.dawn_of_madness.play.newgame import layout_for


def _same(board: Board, searched: Board) -> None:
    assert board == searched
    for a in SHARDS:
        assert board.neighbours(a) == searched.neighbours(a)
        assert board.distances(a) == searched.distances(a)
        assert board.around(a, 2) == searched.around(a, 2)
        for b in SHARDS:
            assert board.distance(a, b) == searched.distance(a, b)
            assert board.steps_toward(a, b) == searched.steps_toward(a, b)


def test_grid_board_matches_the_searched_board() -> None:
    for seed in range(40):
        layout = layout_for(seed)
        _same(Board.grid(layout), Board(grid_paths(layout)))


def test_grid_board_pickles_and_copies() -> None:
    layout = layout_for(7)
    board = Board.grid(layout)
    board.distances(layout[0])  # one row made, the others not yet
    for twin in (pickle.loads(pickle.dumps(board)), copy.deepcopy(board)):
        _same(twin, Board(grid_paths(layout)))


def test_steps_toward_on_a_board_with_missing_paths() -> None:
    paths = [p for i, p in enumerate(grid_paths()) if i % 3]
    board = Board(paths)
    for a in SHARDS:
        for b in SHARDS:
            d = board.distance(a, b)
            want = [] if not d else [n for n in board.neighbours(a)
                                     if board.distance(n, b) == d - 1]
            assert board.steps_toward(a, b) == want
