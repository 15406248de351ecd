"""Scenario fixture skeletons from witness paths, in the engine's fixture format.

A skeleton reads the witness's first entry with a `goto` effect and scripts what the
engine will ask on the way: the dice of each test (faces that pass or fail it at the
wanderer's sentience) and the option picked at each choice. The setup gives what the
conditions along the path need (setup_needs.py: codas held, entries read, monsters
killed, tokens, round, scores, sentience) and, for a finale's conclusion, the finale of
its ending; the expectations say which entries are visited and what the scores become.
A roll of the otherworld die on the way is noted for the author to script
(`dmtool graph --verify` replays the same script with the engine's seeded die for it, see
commands/replay.py).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmtool.model.storybook import ENDINGS
from dmtool.storygraph.analysis import Analysis
from dmtool.storygraph.build import node_name
from dmtool.storygraph.dice import COLOURS, example_roll
from dmtool.storygraph.setup_needs import HOME_SHARD, Needs, needs_of
from dmtool.storygraph.witness import Witness, render_witness

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


@dataclass
class Test:
    where: str
    roll: Any  # the test's roll spec
    passing: bool
    faces: dict[str, list[str]] | None  # at the wanderer's sentience in the setup


@dataclass
class Pick:
    where: str
    kind: str  # choice | may
    answer: Any  # the option's label, or take (True) / skip (False)
    index: int = -1  # the option's place among all of the choice's options


@dataclass
class Script:
    """What replays a witness: the setup, the first entry, the answers on the way and what
    must come of it."""

    name: str
    who: str
    storybook: str
    setup_wanderer: dict[str, Any]
    needs: Needs
    stage: dict[str, Any]  # stage and ending, for a finale's conclusion
    start: int | None
    tests: list[Test] = field(default_factory=list)
    picks: list[Pick] = field(default_factory=list)
    rolls_d16: list[str] = field(default_factory=list)  # where the otherworld die rolls
    notes: list[str] = field(default_factory=list)
    visited: list[int] = field(default_factory=list)
    scores: dict[str, int] = field(default_factory=dict)

    @property
    def replayable(self) -> str | None:
        """Why the path cannot be set up and played as it stands (None: it can)."""
        if self.start is None:
            return "the path has no entry"
        if self.needs.why_not is not None:
            return self.needs.why_not
        bad = [t.where for t in self.tests if t.faces is None]
        return f"no roll makes the test of {bad[0]} come out as the path needs" if bad else None


def witness_script(witness: Witness, analysis: Analysis) -> Script:
    graph = analysis.graph
    storybook = graph.storybook
    who = storybook.wanderer or "wanderer"
    start_sentience = dict(graph.context.sentience or dict.fromkeys(COLOURS, 1))
    conditions = [(c, False) for c, _ in witness.root.conditions]
    conditions += [c for hop in witness.hops if hop.arc is not None for c in hop.arc.conditions]
    needs = needs_of(conditions, start_sentience)
    sentience = {**start_sentience, **needs.sentience}
    hops = [h for h in witness.hops if isinstance(h.node, int)]
    dashboard = graph.context.dashboard or {}
    script = Script(
        name=f"witness-{storybook.id}-{witness.ending.lower()}-{witness.conclusion or 'points'}",
        who=who, storybook=storybook.id, needs=needs,
        setup_wanderer={
            "sentience": sentience,
            "max_health": dashboard.get("max_health", DEFAULT_HEALTH),
            "max_mental_capacity": dashboard.get("max_mental_capacity", DEFAULT_CAPACITY),
            "shard": HOME_SHARD,
        },
        stage={"stage": "finale", "ending": witness.ending}
        if witness.purpose == "conclusion" else {},
        start=hops[0].node if hops else None,  # type: ignore[arg-type]
        visited=[h.node for h in hops],  # type: ignore[misc]
    )
    script.notes = [
        f"  # starts from {node_name(h.node)}: its branch's conditions are set up below"
        for h in witness.hops if not isinstance(h.node, int)
    ]
    scores = [0, 0, 0, 0]
    for hop in hops:
        if hop.arc is None:
            continue
        for gain in hop.arc.scores:
            scores = [max(0, s + g) for s, g in zip(scores, gain, strict=True)]
        for leaf in hop.arc.branch.leaves:
            if _rolls_d16(leaf.name, leaf.value):
                script.rolls_d16.append(f"{node_name(hop.node)}: {leaf.name}")
        for step in hop.arc.branch.steps:
            where = node_name(hop.node)
            if step.kind in ("pass", "fail"):
                roll = step.body.get("roll", {}) if isinstance(step.body, dict) else {}
                passing = step.kind == "pass"
                script.tests.append(
                    Test(where, roll, passing, example_roll(roll, sentience, passing=passing)))
            elif step.kind == "option":
                script.picks.append(Pick(where, "choice", step.label, step.index))
            elif step.kind in ("take", "skip"):
                script.picks.append(Pick(where, "may", step.kind == "take"))
    script.scores = {e: s for e, s in zip(ENDINGS, scores, strict=True) if s}
    return script


def fixture_skeleton(
    witness: Witness, analysis: Analysis, *, folder: Path | None = None
) -> tuple[str, str]:
    """(file name, YAML text) of a skeleton that replays the witness; `folder` is where it will
    be written, so the schema modeline can point back at schemas/."""
    from dmtool.validation.schemas import default_schema_dir

    script = witness_script(witness, analysis)
    who = script.who
    schema = default_schema_dir() / "scenario.schema.json"
    modeline = os.path.relpath(schema, folder) if folder is not None else schema.as_posix()
    notes = list(script.notes)
    if script.needs.why_not is not None:
        notes.append(f"  # the path needs setup this skeleton cannot write: {script.needs.why_not}")
    notes += [f"  # {where} rolls the otherworld die; script a d16 roll or name a shard"
              for where in script.rolls_d16]
    dice: list[str] = []
    for test in script.tests:
        dice.append(
            f"      - {_flow({who: test.faces})}  # {test.where}: the test "
            f"{'pass' if test.passing else 'fail'}es"
            if test.faces is not None
            else f"      # {test.where}: no roll can make this test "
            f"{'pass' if test.passing else 'fail'}"
        )
    choices = [
        f"      - {{choice: {p.index + 1}}}  # {p.where}: {_flow(p.answer)}" if p.kind == "choice"
        else f"      - {{may: {str(p.answer).lower()}}}  # {p.where}"
        for p in script.picks
    ]
    expect = [f"  visited: {_flow(script.visited)}"]
    if script.scores:
        expect.append(f"  scores: {_flow(script.scores)}")
    made = script.needs.setup()
    wanderer = {**script.setup_wanderer, **made.pop("wanderer", {})}
    wanderer["sentience"] = script.setup_wanderer["sentience"]
    extra = [f"  {k}: {_flow(v)}" for k, v in {**script.stage, **made}.items()]
    if "scores" in made:  # the points the path gives come on top of those it needs
        expect = [line for line in expect if not line.startswith("  scores:")]
        total = {e: made["scores"].get(e, 0) + script.scores.get(e, 0)
                 for e in ENDINGS if e in made["scores"] or e in script.scores}
        expect.append(f"  scores: {_flow(total)}")
    label = render_witness(witness).splitlines()[0]
    lines = [
        f"# yaml-language-server: $schema={Path(modeline).as_posix()}",
        f"# Skeleton from 'dmtool graph --witness' ({label}).",
        "# Check the setup against the conditions noted below, then complete the expectations.",
        "kind: scenario",
        f"id: {script.name}",
        f"title: {_flow('Witness: ' + label)}",
        f"rules: {_flow(_rules(dice, choices, list(script.scores.values())))}",
        "setup:",
        f"  storybook: {script.storybook}",
        *extra,
        "  wanderers:",
        f"    {who}: {_flow(wanderer)}",
        *notes,
        "steps:",
        f"  - do: {{wanderer: {who}, effect: {{goto: {script.start}}}}}"
        if script.start is not None else "  []",
        *(["    dice:", *dice] if dice else []),
        *(["    choices:", *choices] if choices else []),
        "expect:",
        *expect,
        "",
    ]
    return f"{script.name}.yaml", "\n".join(lines)
