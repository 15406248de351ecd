"""The board: which world shards are joined by paths, and distances along them."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

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


@lru_cache(maxsize=8)
def _grid(cells: int, width: int) -> tuple[tuple[tuple[int, ...], ...],
                                           tuple[tuple[int, ...], ...],
                                           tuple[tuple[int, int], ...]]:
    """A full grid by position (an index in the layout): the distances from each position
    to every position, each position's neighbours, and the paths as `grid_paths` lists
    them."""
    places = [divmod(i, width) for i in range(cells)]
    apart = tuple(tuple(abs(ra - rb) + abs(ca - cb) for rb, cb in places)
                  for ra, ca in places)
    paths = tuple(grid_paths(range(cells), width=width))
    joined = tuple(tuple(b if a == i else a for a, b in paths if i in (a, b))
                   for i in range(cells))
    return apart, joined, paths


@dataclass
class Board:
    """An undirected graph of the 16 shards; distances are counted in paths walked."""

    paths: list[tuple[int, int]] = field(default_factory=grid_paths)
    _dist: dict[int, dict[int, int]] = field(default_factory=dict, repr=False)
    _adj: dict[int, list[int]] = field(default_factory=dict, repr=False)
    _within: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict, repr=False,
                                                      compare=False)

    def __post_init__(self) -> None:
        if not self._adj:
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
        there, so a distance is rows plus columns apart, with no search. A balance run
        builds one board per game: the grid's distances, neighbours and paths are known
        by position (`_grid`), and only renamed to this layout's shards here."""
        if sorted(layout) != list(SHARDS) or len(layout) % width:
            return cls(grid_paths(layout, width=width))
        apart, joined, paths = _grid(len(layout), width)
        dist = {a: dict(zip(layout, row)) for a, row in zip(layout, apart)}
        place = {shard: i for i, shard in enumerate(layout)}
        adj = {n: sorted([layout[i] for i in joined[place[n]]]) for n in SHARDS}
        return cls([(layout[i], layout[j]) for i, j in paths], _dist=dist, _adj=adj)

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
            found = self._within[key] = tuple(n for _, n in sorted(near))
        return found

    def steps_toward(self, here: int, target: int) -> list[int]:
        """Neighbours of `here` that lie on a shortest path to `target`."""
        d = self.distance(here, target)
        if d is None or d == 0:
            return []
        return [n for n in self._adj[here] if self._dist[n].get(target) == d - 1]

    def is_path(self, start: int, route: list[int]) -> bool:
        here = start
        for step in route:
            if step not in self._adj[here]:
                return False
            here = step
        return True
