"""Scenario fixture skeletons from witness paths, in the engine's fixture format.

A skeleton reads the witness's first entry with a `goto` effect and scripts what the
engine will ask on the way: the dice of each test (faces that pass or fail it at the
wanderer's starting sentience) and the option picked at each choice. Conditions along the
path are listed as comments, because making them hold is a matter of setup the author
knows best; the expectations say which entries are visited and what the scores become.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from dmtool.model.storybook import ENDINGS
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.build import node_name
from dmtool.storygraph.dice import COLOURS, example_roll
from dmtool.storygraph.witness import Witness, describe_step, render_witness

# Used when the wanderer is not in the corpus (a lone storybook).
DEFAULT_HEALTH, DEFAULT_CAPACITY = 6, 7


def _flow(value: Any) -> str:
    """A value as YAML flow text (JSON is YAML)."""
    return json.dumps(value, ensure_ascii=False)


def _rolls_d16(name: str, value: Any) -> bool:
    """Effects whose default or 'random' placement rolls the otherworld die."""
    if name in ("spawn_encounter", "spawn_terror", "spawn_final_boss"):
        return not isinstance(value, dict) or value.get("shard", "random") == "random"
    if name in ("place_token", "remove_token"):
        return isinstance(value, dict) and value.get("shard") == "random"
    return name == "move_wanderer" and value == "random"


def _rules(dice: list[str], choices: list[str], scores: list[int]) -> list[str]:
    """Checklist rules the replay touches: tests (R15), optional effects (R34), scores (R38)."""
    found = ["R15"] if dice else []
    found += ["R34"] if any("may:" in c for c in choices) else []
    found += ["R38"] if any(scores) else []
    return found or ["R15"]


def fixture_skeleton(
    witness: Witness, analysis: Analysis, *, folder: Path | None = None
) -> tuple[str, str]:
    """(file name, YAML text) of a skeleton that replays the witness; `folder` is where it will
    be written, so the schema modeline can point back at schemas/."""
    from dmtool.validation.schemas import default_schema_dir

    graph = analysis.graph
    storybook = graph.storybook
    who = storybook.wanderer or "wanderer"
    sentience = dict(graph.context.sentience or dict.fromkeys(COLOURS, 1))
    name = f"witness-{storybook.id}-{witness.ending.lower()}-{witness.conclusion or 'points'}"
    schema = default_schema_dir() / "scenario.schema.json"
    modeline = os.path.relpath(schema, folder) if folder is not None else schema.as_posix()
    hops = [h for h in witness.hops if isinstance(h.node, int)]
    notes = [
        f"  # starts from {node_name(h.node)}: read its effects first if they matter"
        for h in witness.hops
        if not isinstance(h.node, int)
    ]
    dice: list[str] = []
    choices: list[str] = []
    scores = [0, 0, 0, 0]
    for hop in hops:
        if hop.arc is None:
            continue
        for gain in hop.arc.scores:
            scores = [max(0, s + g) for s, g in zip(scores, gain, strict=True)]
        for leaf in hop.arc.branch.leaves:
            if _rolls_d16(leaf.name, leaf.value):
                notes.append(
                    f"  # {node_name(hop.node)}: {leaf.name} rolls the otherworld die; "
                    "script a d16 roll or name a shard"
                )
        for step in hop.arc.branch.steps:
            where = node_name(hop.node)
            if step.kind in ("pass", "fail"):
                roll = step.body.get("roll", {}) if isinstance(step.body, dict) else {}
                faces = example_roll(roll, sentience, passing=step.kind == "pass")
                dice.append(
                    f"      - {_flow({who: faces})}  # {where}: the test {step.kind}es"
                    if faces is not None
                    else f"      # {where}: no roll can make this test {step.kind}"
                )
            elif step.kind == "option":
                choices.append(
                    f"      - {{choice: {step.index + 1}}}  # {where}: {_flow(step.label)}"
                )
            elif step.kind in ("take", "skip"):
                choices.append(f"      - {{may: {str(step.kind == 'take').lower()}}}  # {where}")
            else:
                notes.append(f"  # {where}: the path needs '{describe_step(step)[3:]}'")
    expect = [f"  visited: {_flow([h.node for h in hops])}"]
    if any(scores):
        expect.append(
            f"  scores: {_flow({e: s for e, s in zip(ENDINGS, scores, strict=True) if s})}"
        )
    # Only what the story needs: the wanderer's dashboard values and a place on the board.
    dashboard = graph.context.dashboard or {}
    wanderer = {
        "sentience": sentience,
        "max_health": dashboard.get("max_health", DEFAULT_HEALTH),
        "max_mental_capacity": dashboard.get("max_mental_capacity", DEFAULT_CAPACITY),
        "shard": 1,
    }
    lines = [
        f"# yaml-language-server: $schema={Path(modeline).as_posix()}",
        f"# Skeleton from 'dmtool graph --witness' ({render_witness(witness).splitlines()[0]}).",
        "# Check the setup against the conditions noted below, then complete the expectations.",
        "kind: scenario",
        f"id: {name}",
        f"title: {_flow('Witness: ' + render_witness(witness).splitlines()[0])}",
        f"rules: {_flow(_rules(dice, choices, scores))}",
        "setup:",
        f"  storybook: {storybook.id}",
        "  wanderers:",
        f"    {who}: {_flow(wanderer)}",
        *notes,
        "steps:",
        f"  - do: {{wanderer: {who}, effect: {{goto: {hops[0].node}}}}}" if hops else "  []",
        *(["    dice:", *dice] if dice else []),
        *(["    choices:", *choices] if choices else []),
        "expect:",
        *expect,
        "",
    ]
    return f"{name}.yaml", "\n".join(lines)
