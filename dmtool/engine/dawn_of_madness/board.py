"""The board: which world shards are joined by paths, and distances along them."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

from dmtool.engine.dawn_of_madness.constants import SHARDS


def grid_paths(layout: Iterable[int] | None = None, *, width: int = 4) -> list[tuple[int, int]]:
    """Paths of a 4x4 grid whose spaces hold `layout` (shard numbers row by row)."""
    cells = list(layout) if layout is not None else list(SHARDS)
    out: list[tuple[int, int]] = []
    for i, shard in enumerate(cells):
        _row, col = divmod(i, width)
        if col + 1 < width:
            out.append((shard, cells[i + 1]))
        if i + width < len(cells):
            out.append((shard, cells[i + width]))
    return out


class _GridRows(dict[int, dict[int, int]]):
    """The distance rows of a full 4x4 grid, each worked out on first use: a game builds a
    board per layout and reads the rows of the few shards its figures stand on, not all
    sixteen. (A class rather than a closure, so a board still pickles and copies.)"""

    __slots__ = ("_cell", "_layout")

    def __init__(self, layout: list[int]) -> None:
        super().__init__()
        self._layout = tuple(layout)
        self._cell = dict(zip(layout, range(len(layout))))

    def __missing__(self, shard: int) -> dict[int, int]:
        # zip in C rather than a comprehension: a game makes a dozen rows, the same keys in
        # the same (layout) order.
        row = self[shard] = dict(zip(self._layout, _GRID_4x4[0][self._cell[shard]]))
        return row


def _grid_cells(width: int, size: int) -> tuple[tuple[tuple[int, ...], ...],
                                                tuple[tuple[int, ...], ...]]:
    """For each cell of a `size`-cell grid: the distance to every cell (rows plus columns
    apart), and the cells next to it in ascending cell order."""
    at = [divmod(i, width) for i in range(size)]
    dist = tuple(tuple(abs(r - r2) + abs(c - c2) for r2, c2 in at) for r, c in at)
    near = tuple(tuple(j for j in range(size) if dist[i][j] == 1) for i in range(size))
    return dist, near


_GRID_4x4 = _grid_cells(4, len(SHARDS))
# The cells `grid_paths` joins on a full 4x4 grid, in its order (a board per game names them).
_GRID_4x4_PATHS = tuple(grid_paths(range(len(SHARDS))))


@dataclass
class Board:
    """An undirected graph of the 16 shards; distances are counted in paths walked.

    Distances, neighbours and ranges follow from the paths (so boards compare by paths)."""

    paths: list[tuple[int, int]] = field(default_factory=grid_paths)
    _dist: dict[int, dict[int, int]] = field(default_factory=dict, repr=False, compare=False)
    _adj: dict[int, list[int]] = field(default_factory=dict, repr=False, compare=False)
    _within: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict, repr=False,
                                                            compare=False)

    def __post_init__(self) -> None:
        if self._adj:  # given by `grid`
            return
        adj: dict[int, set[int]] = {n: set() for n in SHARDS}
        for a, b in self.paths:
            adj[a].add(b)
            adj[b].add(a)
        self._adj = {n: sorted(v) for n, v in adj.items()}
        if not self._dist:
            self._dist = {n: self._bfs(n) for n in SHARDS}

    @classmethod
    def grid(cls, layout: list[int], *, width: int = 4) -> Board:
        """The board of `grid_paths(layout)` when the layout fills the grid: every path is
        there, so a distance is rows plus columns apart, with no search (a balance run
        builds one board per game, so rows are made on first use)."""
        if width != 4 or sorted(layout) != list(SHARDS):
            return cls(grid_paths(layout, width=width))
        near = _GRID_4x4[1]
        adj = {shard: sorted([layout[j] for j in near[i]]) for i, shard in enumerate(layout)}
        paths = [(layout[a], layout[b]) for a, b in _GRID_4x4_PATHS]  # = grid_paths(layout)
        return cls(paths, _GridRows(layout), adj)

    def _bfs(self, start: int) -> dict[int, int]:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self._adj[here]:
                if there not in dist:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        return dist

    def neighbours(self, shard: int) -> list[int]:
        return self._adj[shard]

    def distance(self, a: int, b: int) -> int | None:
        """Paths walked from a to b, or None when no path joins them."""
        return self._dist[a].get(b)

    def distances(self, shard: int) -> dict[int, int]:
        """Paths walked from `shard` to every shard joined to it (shared: do not change)."""
        return self._dist[shard]

    def within(self, shard: int, spaces: int) -> list[int]:
        """Shards at distance 1..spaces, nearest first then by number (a fresh list)."""
        return list(self.around(shard, spaces))

    def around(self, shard: int, spaces: int) -> tuple[int, ...]:
        """As `within`, shared: the paths never change, so the answer is worked out once
        per shard and range."""
        key = (shard, spaces)
        found = self._within.get(key)
        if found is None:
            near = [(d, n) for n, d in self._dist[shard].items() if 0 < d <= spaces]
            found = self._within[key] = tuple([n for _, n in sorted(near)])
        return found

    def steps_toward(self, here: int, target: int) -> list[int]:
        """Neighbours of `here` that lie on a shortest path to `target`."""
        # Paths run both ways, so the target's row gives every neighbour's distance to it.
        row = self._dist[target]
        d = row.get(here)
        if d is None or d == 0:
            return []
        return [n for n in self._adj[here] if row.get(n) == d - 1]

    def is_path(self, start: int, route: list[int]) -> bool:
        here = start
        for step in route:
            if step not in self._adj[here]:
                return False
            here = step
        return True
