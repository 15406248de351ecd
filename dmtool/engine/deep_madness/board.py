"""A chapter's board: spaces in rooms, the lines between them, and three separate queries on
it: movement distance, range, and line of sight (R49).

The expansions never print the base game's board geometry, so a board is described data:
which spaces touch across which kind of line (white, red or a hatch) and the straight runs
of spaces a figure can look along (`sight`). The rules on top of that data are the
expansions': a red line joins two spaces for range and sight but not for movement; a
locked hatch blocks sight; a closed hatch between spaces flooded differently blocks an
investigator's sight but not a Hydra's.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field

WHITE, RED = "white", "red"
LINE_KINDS = (WHITE, RED)
HATCH_STATES = ("open", "closed", "locked")
VIEWERS = ("investigator", "hydra", "any")


def pair(a: str, b: str) -> tuple[str, str]:
    """A line's key: its two spaces in sorted order (lines have no direction)."""
    return (a, b) if a <= b else (b, a)


@dataclass
class Board:
    """Spaces (by name) with their rooms, lines between touching spaces, hatches on some of
    those lines, and sight runs. Flooding lives in the state; queries take it as given."""

    rooms: dict[str, int] = field(default_factory=dict)  # space -> room number
    lines: dict[tuple[str, str], str] = field(default_factory=dict)  # pair -> white | red
    hatches: dict[tuple[str, str], str] = field(default_factory=dict)  # pair -> state
    sight: list[list[str]] = field(default_factory=list)  # runs: a space, then what it sees
    spawn_spaces: dict[int, str] = field(default_factory=dict)  # room -> its spawn space
    _walk: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _reach: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self.reindex()

    def reindex(self) -> None:
        """Rebuild the neighbour lists after lines change."""
        walk: dict[str, set[str]] = {s: set() for s in self.rooms}
        reach: dict[str, set[str]] = {s: set() for s in self.rooms}
        for (a, b), kind in self.lines.items():
            reach[a].add(b)
            reach[b].add(a)
            if kind == WHITE:
                walk[a].add(b)
                walk[b].add(a)
        self._walk = {s: sorted(v) for s, v in walk.items()}
        self._reach = {s: sorted(v) for s, v in reach.items()}

    @property
    def spaces(self) -> list[str]:
        return list(self.rooms)

    def room_of(self, space: str) -> int:
        return self.rooms[space]

    def spaces_in(self, room: int) -> list[str]:
        return [s for s, r in self.rooms.items() if r == room]

    def line(self, a: str, b: str) -> str | None:
        return self.lines.get(pair(a, b))

    def adjacent(self, a: str, b: str) -> bool:
        """Adjacent spaces share a white line; a red line leaves them not adjacent."""
        return self.line(a, b) == WHITE

    def neighbours(self, space: str) -> list[str]:
        """Spaces a figure may step to by its own movement (white lines only)."""
        return self._walk[space]

    def forced_neighbours(self, space: str) -> list[str]:
        """Spaces a figure may be pushed to (any line, red ones included)."""
        return self._reach[space]

    def distance(self, a: str, b: str) -> int | None:
        """Spaces walked by voluntary movement (never across a red line); None if unreachable."""
        return _bfs(a, self._walk).get(b)

    def range(self, a: str, b: str) -> int | None:
        """Lines crossed on the shortest way, red lines counting like white ones."""
        return _bfs(a, self._reach).get(b)

    def line_of_sight(self, a: str, b: str, *, viewer: str = "investigator",
                      flooded: Iterable[str] = ()) -> bool:
        """Whether `b` lies on a sight run from `a` (runs read both ways) before anything
        that blocks: a locked hatch for everyone, and for an investigator a closed hatch
        between a flooded and a dry space. A figure always sees its own space."""
        if a == b:
            return True
        wet = set(flooded)
        for run in self.sight:
            for seq in (run, run[::-1]):
                if a in seq and b in seq and seq.index(a) < seq.index(b):
                    start, end = seq.index(a), seq.index(b)
                    if not any(self._blocks(seq[i], seq[i + 1], viewer, wet)
                               for i in range(start, end)):
                        return True
        return False

    def _blocks(self, a: str, b: str, viewer: str, wet: set[str]) -> bool:
        state = self.hatches.get(pair(a, b))
        if state == "locked":
            return True
        return state == "closed" and viewer == "investigator" and ((a in wet) != (b in wet))

    def steps_toward(self, here: str, target: str) -> list[str]:
        """Neighbours (by movement) on a shortest walk to `target`."""
        far = _bfs(target, self._walk)
        d = far.get(here)
        if not d:
            return []
        return [n for n in self._walk[here] if far.get(n) == d - 1]

    def shortest_paths(self, start: str, goals: set[str], through: set[str]) -> list[list[str]]:
        """Every shortest walk from `start` to a goal space whose inner spaces all lie in
        `through` (at least one inner space); each walk lists the inner spaces only."""
        found: list[list[str]] = []
        frontier: list[list[str]] = [[n] for n in self._walk[start] if n in through]
        seen = {start}
        while frontier and not found:
            seen |= {p[-1] for p in frontier}
            for walk in frontier:
                if any(g in self._walk[walk[-1]] for g in goals):
                    found.append(walk)
            frontier = [w + [n] for w in frontier for n in self._walk[w[-1]]
                        if n in through and n not in seen and n not in w]
        return found


def _bfs(start: str, graph: dict[str, list[str]]) -> dict[str, int]:
    if start not in graph:
        return {}
    dist = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in graph[here]:
            if there not in dist:
                dist[there] = dist[here] + 1
                queue.append(there)
    return dist
