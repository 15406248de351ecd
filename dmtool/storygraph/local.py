"""Findings about single entries and the links into the storybook: broken links, dead ends,
effects after an exit, ending starts of the wrong kind, conclusions that do not conclude."""

from __future__ import annotations

from collections.abc import Collection, Iterator
from typing import Any

from dmtool.diagnostics import Diagnostic, Location, diagnose
from dmtool.diagnostics.hints import entry_hint
from dmtool.model.storybook import Parts, Step, Storybook, dead_effects
from dmtool.storygraph.blocks import Blocks
from dmtool.storygraph.build import StoryGraph, node_name
from dmtool.storygraph.context import located


def where(storybook: Storybook, parts: Parts) -> Location:
    """Point at a key when the path ends in one (the line a reader looks for)."""
    return storybook.locate(parts, key=bool(parts) and isinstance(parts[-1], str))


def hint_for(storybook: Storybook, number: Any, near: Collection[int] = (),
             unlinked: Collection[int] = ()) -> str | None:
    """'did you mean entry N?': a neighbour in the block `near` first, then a digit slip."""
    return entry_hint(number, storybook.entries, near, unlinked)


def local_findings(graph: StoryGraph) -> Iterator[Diagnostic]:
    storybook = graph.storybook
    blocks = Blocks(graph)
    for node, arcs in graph.arcs.items():
        seen: set[Parts] = set()
        for arc in arcs:
            if arc.goto is not None:
                continue  # hot path: a link to an entry that exists is neither finding
            if arc.broken is None and (arc.kind != "open" or not isinstance(node, int)):
                continue  # a terminal, told by its kind: its branch is not walked again
            exit_ = arc.branch.exit
            if arc.broken is not None and exit_.parts not in seen:
                seen.add(exit_.parts)
                yield diagnose(
                    "DM301",
                    where(storybook, exit_.parts),
                    f"{node_name(node)} goes to entry {exit_.value}, which does not exist; "
                    f"fix the number or write entry {exit_.value}",
                    hint=hint_for(storybook, exit_.value, blocks.around(node), blocks.unlinked),
                )
            if exit_.kind == "open" and isinstance(node, int) and exit_.parts not in seen:
                seen.add(exit_.parts)
                yield _dead_end(storybook, node, arc.branch.steps)
        if node in graph.may_hold_dead:
            yield from _dead_effects(graph, node)
        if node in graph.truncated:
            yield diagnose(
                "DM314",
                where(storybook, _node_parts(graph, node)),
                f"{node_name(node)} has more than 512 ways through its effects; only the "
                f"first 512 were analysed. Split it into several entries with gotos",
            )
        if node in graph.conditioned:
            yield from _visited_links(storybook, arcs, blocks, node)
    for number, entrance in graph.entrances.items():
        entry = storybook.entries[number]
        yield from _condition_links(
            storybook, entrance, entry.parts + ("entrance", "when"), blocks, number)
    yield from _ending_links(graph, blocks)
    yield from _source_links(graph)


def _dead_effects(graph: StoryGraph, node: Any) -> Iterator[Diagnostic]:
    effects, parts = graph.effects_of(node)
    for dead in dead_effects(effects, parts):
        yield diagnose(
            "DM313",
            where(graph.storybook, dead),
            f"this effect in {node_name(node)} comes after a goto or an exit on every "
            f"way through, so it is never resolved; move it before the exit",
        )


def _node_parts(graph: StoryGraph, node: Any) -> Parts:
    if isinstance(node, int):
        return graph.storybook.entries[node].parts + ("entry",)
    return graph.effects_of(node)[1]


def _dead_end(storybook: Storybook, number: int, steps: tuple[Step, ...]) -> Diagnostic:
    fix = "add a goto to the next entry or an exit such as {end: encounter}"
    if not steps:
        entry = storybook.entries[number]
        what = "has no effects" if not entry.effects else "ends without a goto or an exit"
        return diagnose(
            "DM302",
            where(storybook, entry.parts + ("entry",)),
            f"entry {number} {what}, so the reader is left without an instruction; {fix}",
        )
    step = steps[-1]
    # A side that is not written at all is located at its test or 'if'.
    missing = step.kind in ("pass", "fail", "else") and step.parts[-1] in ("test", "if")
    if step.kind in ("pass", "fail"):
        side = f"the test's '{step.kind}' outcome"
    elif step.kind == "option":
        side = f"option {step.index + 1} ('{step.label}') of the choice"
    elif step.kind in ("then", "else"):
        side = f"the '{step.kind}' side of the 'if'"
    else:
        side = "the optional ('may') effects"
    if missing:
        side += ", which is not written,"
    return diagnose(
        "DM302",
        where(storybook, step.parts),
        f"in entry {number}, {side} neither goes to another entry nor ends; {fix}",
    )


def _visited_links(storybook: Storybook, arcs: Any, blocks: Blocks,
                   node: Any) -> Iterator[Diagnostic]:
    """Conditions of 'if' sides and choice options, each once, read off the branches."""
    if not any(_missing_visits(storybook, condition, ())
               for arc in arcs for condition, _ in arc.conditions):
        return  # nothing to report: the branches, with the sides' places, are not walked
    seen: set[int] = set()
    for arc in arcs:
        if not arc.conditions:
            continue
        for step in arc.branch.steps:
            if step.condition is None or id(step.condition) in seen:
                continue
            seen.add(id(step.condition))
            at = (
                step.parts + ("when",)
                if step.kind == "option"
                else step.effect_parts + ("if", "when")
            )
            yield from _condition_links(storybook, step.condition, at, blocks, node)


def _condition_links(storybook: Storybook, condition: Any, parts: Parts,
                     blocks: Blocks, node: Any) -> Iterator[Diagnostic]:
    """DM301 at every `visited` of a missing entry in the condition (the hint looks in the
    blocks around `node` first; they are worked out only when a hint is wanted)."""
    for value, at in _missing_visits(storybook, condition, parts):
        yield diagnose(
            "DM301",
            where(storybook, at),
            f"the condition asks whether entry {value} was visited, but there is no "
            f"entry {value}; fix the number",
            hint=hint_for(storybook, value, blocks.around(node)),
        )


def _missing_visits(storybook: Storybook, condition: Any, parts: Parts) -> list[tuple[int, Parts]]:
    """(entry, where its `visited` is written) of every `visited` of a missing entry in the
    condition, `parts` being where the condition is written."""
    if not isinstance(condition, dict) or len(condition) != 1:
        return []
    ((name, value),) = condition.items()
    if name == "visited" and isinstance(value, int) and value not in storybook.entries:
        return [(value, parts + ("visited",))]
    if name in ("all", "any") and isinstance(value, list):
        return [found for i, sub in enumerate(value)
                for found in _missing_visits(storybook, sub, parts + (name, i))]
    if name == "not":
        return _missing_visits(storybook, value, parts + ("not",))
    return []


def _ending_links(graph: StoryGraph, blocks: Blocks) -> Iterator[Diagnostic]:
    storybook = graph.storybook
    for letter, ending in storybook.endings.items():
        start = ending.start
        if start is not None and start not in storybook.entries:
            yield diagnose(
                "DM301",
                where(storybook, ending.parts + ("start",)),
                f"ending {letter} starts at entry {start}, which does not exist",
                hint=hint_for(storybook, start, blocks.of_ending(letter)),
            )
        elif start is not None and storybook.entries[start].kind != "finale":
            yield diagnose(
                "DM311",
                where(storybook, ending.parts + ("start",)),
                f"ending {letter} starts at entry {start}, which is of kind "
                f"'{storybook.entries[start].kind}'; an ending starts at a 'finale' entry",
            )
        for conclusion in ending.conclusions:
            number = conclusion.entry
            if number is None:
                continue
            if number not in storybook.entries:
                yield diagnose(
                    "DM301",
                    where(storybook, conclusion.parts + ("entry",)),
                    f"ending {letter} lists conclusion entry {number}, which does not exist",
                    hint=hint_for(storybook, number, blocks.of_ending(letter)),
                )
                continue
            if storybook.entries[number].kind == "conclusion":  # other kinds: DM259
                yield from _conclusion_exits(graph, letter, conclusion)


def _conclusion_exits(graph: StoryGraph, letter: str, conclusion: Any) -> Iterator[Diagnostic]:
    storybook = graph.storybook
    arcs = graph.arcs[conclusion.entry]
    concludes = [a for a in arcs if a.kind == "conclude"]
    if not concludes and arcs and all(a.kind != "open" for a in arcs):
        yield diagnose(
            "DM312",
            where(storybook, storybook.entries[conclusion.entry].parts + ("entry",)),
            f"conclusion entry {conclusion.entry} (ending {letter}) never concludes the "
            f"finale; end it with {{conclude: {conclusion.legacy or '<finale legacy card>'}}}",
        )
    seen: set[Parts] = set()
    for arc in concludes:
        if not conclusion.legacy or arc.exit_value == conclusion.legacy:
            continue  # agreed: the branch, with the exit's place, is not walked again
        exit_ = arc.branch.exit
        if exit_.parts not in seen:
            seen.add(exit_.parts)
            yield diagnose(
                "DM312",
                where(storybook, exit_.parts),
                f"conclusion entry {conclusion.entry} awards '{exit_.value}', but ending "
                f"{letter} lists '{conclusion.legacy}' for it; make the two agree",
                related=(where(storybook, conclusion.parts + ("legacy",)),),
            )


def _source_links(graph: StoryGraph) -> Iterator[Diagnostic]:
    storybook, context = graph.storybook, graph.context
    sources = list(context.rounds or ()) + list(context.shards + context.cards + context.finale)
    for source in sources:
        entry = storybook.entries.get(source.entry)
        if entry is None:
            yield diagnose(
                "DM301",
                located(source.location),
                f"{source.label} names entry {source.entry}, which storybook "
                f"'{storybook.id}' does not have",
                hint=hint_for(storybook, source.entry),
            )
        elif source.kind == "round" and entry.kind != "event":
            yield diagnose(
                "DM310",
                located(source.location),
                f"{source.label} names entry {source.entry}, which is of kind "
                f"'{entry.kind}' in storybook '{storybook.id}'; the event phase reads an "
                f"'event' entry",
            )
