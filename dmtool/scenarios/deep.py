"""Deep Madness fixtures: the hooks the runner calls. A fixture names a chapter (by id in
content/, or inline), describes the chapter state, and may start from a campaign state."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dmtool.diagnostics.subjects import flow
from dmtool.engine.core.errors import EngineFault
from dmtool.engine.core.policy import ScriptedPolicy
from dmtool.engine.core.script import ScriptError
from dmtool.engine.core.transition import Applied, Rejected
from dmtool.engine.deep_madness import (
    REJECTIONS,
    RULES,
    ChapterCatalog,
    ChapterState,
    ScriptedDice,
    apply,
    parse_step,
)
from dmtool.engine.deep_madness import campaign as campaigns
from dmtool.engine.deep_madness.content import chapter_source
from dmtool.engine.deep_madness.setup import SetupError, build_catalog, build_state
from dmtool.model.content_index import index_for
from dmtool.scenarios.borrow import SetupProblem
from dmtool.scenarios.build import resolve_content_dir
from dmtool.scenarios.build_story import CampaignProblem


class DeepFixtures:
    """Runs a fixture through the Deep Madness engine."""

    game = "deep-madness"
    rejections: Mapping[str, str] = REJECTIONS

    def start(self, data: dict[str, Any], *, fixture: Path,
              display: str) -> tuple[ChapterState, ChapterCatalog]:
        content = index_for(resolve_content_dir(fixture, data.get("content")))
        try:
            source = chapter_source(content, data["chapter"])
        except EngineFault as fault:
            raise SetupProblem("DM414", f"{fault}.", ("chapter",)) from None
        setup = dict(data.get("setup", {}))
        spec = setup.pop("campaign", None)
        if spec is not None:
            setup = campaigns.into_setup(self._campaign(spec, source.chapter["id"],
                                                        source.campaign, fixture, display),
                                         setup)
        try:
            catalog = build_catalog(source, setup, RULES)
            state = build_state(catalog, setup, RULES)
        except SetupError as problem:
            raise SetupProblem("DM421", problem.message, problem.where) from None
        return state, catalog

    def _campaign(self, spec: Any, chapter: str, campaign: dict[str, Any], fixture: Path,
                  display: str) -> dict[str, Any]:
        if isinstance(spec, dict):
            return spec
        shown = (Path(display).parent / spec).as_posix()
        data, problems = campaigns.read_campaign(fixture.parent / spec, chapter=chapter,
                                                 campaign=campaign, display=shown)
        if data is None:
            raise CampaignProblem(problems)
        return data

    def dice(self, data: dict[str, Any]) -> ScriptedDice:
        return ScriptedDice()

    def apply(self, state: ChapterState, catalog: ChapterCatalog, action: Any, *, dice: Any,
              policy: Any) -> Applied | Rejected:
        return apply(state, catalog, action, dice=dice, policy=policy)

    def legal(self, state: ChapterState, catalog: ChapterCatalog, action: Any) -> str | None:
        step = parse_step(action)
        try:
            done = apply(state, catalog, step, dice=ScriptedDice(), policy=ScriptedPolicy())
        except ScriptError:
            return f"The step {flow(step.to_dict())} is legal now (it went as far as a roll)."
        if isinstance(done, Rejected):
            return None
        return f"The step {flow(step.to_dict())} is legal now."

    def view(self, state: ChapterState, catalog: ChapterCatalog) -> dict[str, Any]:
        """The state, plus what the campaign would carry on if the chapter were won now."""
        view = state.to_dict()
        if catalog.campaign:
            kept = campaigns.keeps(catalog.campaign, catalog.id)
            view["campaign"] = {"keeps": kept, "carried": {
                i.id: campaigns.carried(i, kept) for i in state.investigators.values()}}
        return view
