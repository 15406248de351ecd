"""Chapter supplies held to the expansion's manifest (DM229-DM232): the numbers a chapter's
rules and conditions depend on (pools, reserves, thresholds, markers placed) must be
possible with the box's components."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.loading import SourceDocument
from dmtool.validation.corpus import Corpus
from dmtool.validation.rules._manifest_index import ManifestIndex, Parts

# Places a component is counted in where the box's size bounds the count.
_BOUNDED = frozenset({"board", "game", "held", "held_total", "pool", "removed"})


# Every finding is located in a chapter or the expansion's rules (see session._needless_rules).
REPORTS_IN = frozenset({"chapter", "expansion-rules"})


def check(corpus: Corpus) -> Iterator[Diagnostic]:
    index = ManifestIndex.build(corpus)
    for document in corpus.of_kind("chapter"):
        sizes = _sizes(index, document.data)
        yield from _pools(index, document, sizes)
        yield from _reserves(index, document, sizes)
        yield from _markers(document, sizes)
        yield from _thresholds(document, sizes)
    for document in corpus.of_kind("expansion-rules"):
        yield from _thresholds(document, _sizes(index, document.data))


def _sizes(index: ManifestIndex, data: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Each expansion component the document declares: (its manifest count, its position)."""
    found: dict[str, tuple[int, int]] = {}
    for n, use in enumerate(data.get("components", [])):
        if use["source"] != "expansion":
            continue
        component = index.find(data.get("expansion", ""), use["id"])
        if component is not None:
            found[use["id"]] = (component.count, n)
    return found


def _pools(index: ManifestIndex, document: SourceDocument,
           sizes: dict[str, tuple[int, int]]) -> Iterator[Diagnostic]:
    """A pool is the whole supply: its size is the manifest's, not what one rule needs."""
    for n, use in enumerate(document.data.get("components", [])):
        size = sizes.get(use["id"], (None, n))[0]
        if use.get("pool") and size is not None and use.get("count") not in (None, size):
            yield diagnose("DM230", document.locate(("components", n, "count")),
                           f"'{use['id']}' is a pool, which holds the box's whole supply: "
                           f"{size} by the manifest, not {use['count']}; state {size} or leave "
                           "the count out")


def _reserves(index: ManifestIndex, document: SourceDocument,
              sizes: dict[str, tuple[int, int]]) -> Iterator[Diagnostic]:
    """A monster the chapter's effects spawn draws on all its figures in the box."""
    data = document.data
    spawned = {spec["monster"] for spec in _effect_values(data, "spawn")}
    for monster in data.get("monsters", []):
        figure = monster.get("figure")
        if monster["id"] not in spawned or figure not in sizes:
            continue
        size, n = sizes[figure]
        count = data["components"][n].get("count")
        if count is not None and count != size:
            yield diagnose("DM231", document.locate(("components", n, "count")),
                           f"the chapter spawns {monster['name']} from its reserve, which is "
                           f"every figure in the box ({size} by the manifest), not {count}")


def _markers(document: SourceDocument,
             sizes: dict[str, tuple[int, int]]) -> Iterator[Diagnostic]:
    """The board cannot place more of a component than the chapter (or the box) has."""
    data = document.data
    declared = {use["id"]: use.get("count") for use in data.get("components", [])}
    placed: dict[str, int] = {}
    for n, marker in enumerate(data.get("board", {}).get("markers", [])):
        component = marker["component"]
        rooms = max(1, len(marker.get("rooms", [])))
        placed[component] = placed.get(component, 0) + marker.get("count", 0) * rooms
        limit = declared.get(component)
        if limit is None and component in sizes:
            limit = sizes[component][0]
        if limit is not None and placed[component] > limit:
            yield diagnose("DM232", document.locate(("board", "markers", n)),
                           f"the board places {placed[component]} {component} so far, but the "
                           f"chapter has only {limit}")


def _thresholds(document: SourceDocument,
                sizes: dict[str, tuple[int, int]]) -> Iterator[Diagnostic]:
    """A count that must reach more pieces than the box holds can never hold."""
    for parts, spec in _counts(document.data, ()):
        component = spec["of"].get("component")
        if component not in sizes or spec["in"] not in _BOUNDED or "at_least" not in spec:
            continue
        size = sizes[component][0]
        least = spec["at_least"]
        values = least.get("by_investigators", {}).items() if isinstance(least, dict) else [
            (None, least)]
        for players, value in values:
            if value > size:
                where = parts + ("count", "at_least") + (
                    ("by_investigators", players) if players is not None else ())
                yield diagnose("DM229", document.locate(where),
                               f"this needs {value} {component}"
                               f"{f' with {players} investigators' if players else ''}, but the "
                               f"box holds only {size}: the condition can never hold")


def _counts(node: Any, parts: Parts) -> Iterator[tuple[Parts, dict[str, Any]]]:
    if isinstance(node, dict):
        spec = node.get("count")
        if isinstance(spec, dict) and isinstance(spec.get("of"), dict) and "in" in spec:
            yield parts, spec
        for key, value in node.items():
            yield from _counts(value, parts + (key,))
    elif isinstance(node, list):
        for n, value in enumerate(node):
            yield from _counts(value, parts + (n,))


def _effect_values(node: Any, name: str) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        value = node.get(name)
        if isinstance(value, dict) and "monster" in value:
            yield value
        for child in node.values():
            yield from _effect_values(child, name)
    elif isinstance(node, list):
        for child in node:
            yield from _effect_values(child, name)
