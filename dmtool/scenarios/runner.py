"""Running one fixture: build the state, apply each step, compare, collect diagnostics."""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dmtool.diagnostics import Diagnostic, diagnose
from dmtool.diagnostics.subjects import flow
from dmtool.engine.core.errors import EngineFault, Reject
from dmtool.engine.core.fixtures import FixtureHooks
from dmtool.engine.core.policy import ScriptedPolicy
from dmtool.engine.core.script import ScriptError, StrictScript
from dmtool.engine.core.transition import Applied
from dmtool.loading import SourceDocument, read_document
from dmtool.scenarios.build import SetupProblem
from dmtool.scenarios.build_story import CampaignProblem
from dmtool.scenarios.checks import check_document
from dmtool.scenarios.dawn import DawnFixtures
from dmtool.scenarios.deep import DeepFixtures
from dmtool.scenarios.expect import check_events, check_state
from dmtool.validation.schema_errors import schema_diagnostics
from dmtool.validation.schemas import SchemaSet, default_schema_dir

Parts = tuple[Any, ...]
GAMES: dict[str, FixtureHooks] = {hooks.game: hooks for hooks in (DawnFixtures(), DeepFixtures())}
DEFAULT_GAME = "dawn-of-madness"


@dataclass
class FixtureResult:
    """The outcome of one fixture: passed, failed, skipped or error (could not run)."""

    path: str
    id: str
    title: str | None = None
    rules: list[str] = field(default_factory=list)
    status: str = "passed"
    diagnostics: list[Diagnostic] = field(default_factory=list)
    log: list[dict[str, Any]] = field(default_factory=list)
    skip_reason: str | None = None
    final_state: dict[str, Any] | None = None


class _Stop(Exception):
    """Ends a fixture run at its first failure."""


@dataclass
class _Run:
    doc: SourceDocument
    result: FixtureResult
    hooks: FixtureHooks = field(default_factory=DawnFixtures)
    dice: Any = None
    policy: ScriptedPolicy = field(default_factory=ScriptedPolicy)
    state: Any = None
    catalog: Any = None

    def fail(self, code: str, where: Parts, message: str, *, key: bool = False,
             hint: str | None = None) -> None:
        self.result.diagnostics.append(
            diagnose(code, self.doc.locate(where, key=key), message, hint=hint))
        if self.result.status == "passed":
            self.result.status = "failed"

    def stop(self, code: str, where: Parts, message: str, **kw: Any) -> None:
        self.fail(code, where, message, **kw)
        raise _Stop


def run_path(path: Path, display: str | None = None) -> FixtureResult:
    loaded = read_document(path, display)
    if loaded.document is None:
        result = FixtureResult(display or path.as_posix(), path.stem, status="error")
        result.diagnostics.extend(loaded.diagnostics)
        return result
    return run_document(loaded.document)


def run_document(doc: SourceDocument) -> FixtureResult:
    data = doc.data if isinstance(doc.data, dict) else {}
    result = FixtureResult(doc.display, str(data.get("id", Path(doc.display).stem)),
                           data.get("title"), list(data.get("rules", [])))
    run = _Run(doc, result)
    try:
        _schema(run, data)
        _static(run)
        if data.get("skip"):
            result.status = "skipped"
            result.skip_reason = str(data["skip"])
            result.diagnostics.append(diagnose("DM415", doc.locate(("skip",)),
                                               f"Skipped: {data['skip']}"))
            return result
        _start(run, data)
        for index, step in enumerate(data.get("steps", [])):
            _step(run, index, step)
        _unused(run, None, ())
        assert run.state is not None
        _expect(run, data.get("expect", {}), ("expect",))
    except _Stop:
        pass
    if result.status == "failed" and any(d.code in ("DM401", "DM402", "DM414", "DM421", "DM422", "DM427",
                                                    "DM428")
                                         for d in result.diagnostics):
        # the fixture itself is broken: it could not run at all
        result.status = "error"
    if run.state is not None:
        result.final_state = run.hooks.view(run.state, run.catalog)
    return result


def _schema(run: _Run, data: dict[str, Any]) -> None:
    """The same schema diagnostics `dmtool check` gives (DM1xx); a fixture that does not fit
    its schema is not run."""
    validator = SchemaSet(default_schema_dir()).validator("scenario")
    found = schema_diagnostics(run.doc, validator.iter_errors(data))
    run.result.diagnostics.extend(found)
    if any(d.severity.value == "error" for d in found):
        run.result.status = "error"
        raise _Stop


def _static(run: _Run) -> None:
    found = check_document(run.doc)
    run.result.diagnostics.extend(found)
    if any(d.severity.value == "error" for d in found):
        run.result.status = "failed"
        raise _Stop


def _start(run: _Run, data: dict[str, Any]) -> None:
    run.hooks = GAMES[data.get("game", DEFAULT_GAME)]
    run.dice = run.hooks.dice(data)
    try:
        run.state, run.catalog = run.hooks.start(data, fixture=Path(run.doc.path),
                                                 display=run.doc.display)
    except SetupProblem as problem:
        run.stop(problem.code, problem.where, problem.message)
    except CampaignProblem as problem:
        run.result.diagnostics.extend(problem.diagnostics)
        run.result.status = "error"
        raise _Stop from None
    _script(run, data, None, ())


def _script(run: _Run, block: dict[str, Any], step: int | None, where: Parts) -> None:
    if isinstance(run.dice, StrictScript):
        for i, entry in enumerate(block.get("dice", [])):
            run.dice.add(entry, where + ("dice", i), step)
    elif block.get("dice"):
        run.stop("DM401", where + ("dice",), "A seeded fixture cannot also script dice; remove "
                 "'seed' or the dice.")
    for i, entry in enumerate(block.get("choices", [])):
        try:
            run.policy.add(entry, where + ("choices", i), step)
        except ScriptError as problem:
            run.stop(problem.code, problem.where or where, problem.message)


def _step(run: _Run, index: int, step: dict[str, Any]) -> None:
    where: Parts = ("steps", index)
    _script(run, step, index, where)
    if "do" in step:
        _do(run, index, step, where)
    if "expect_illegal" in step:
        _illegal(run, step["expect_illegal"], where + ("expect_illegal",))
    _unused(run, index, where)
    if "expect" in step:
        _expect(run, step["expect"], where + ("expect",))


def _do(run: _Run, index: int, step: dict[str, Any], where: Parts) -> None:
    assert run.state is not None and run.catalog is not None
    before = run.hooks.view(run.state, run.catalog)
    dice_mark = run.dice.checkpoint() if isinstance(run.dice, StrictScript) else None
    policy_mark = run.policy.checkpoint()
    try:
        outcome = run.hooks.apply(run.state, run.catalog, step["do"], dice=run.dice,
                                  policy=run.policy)
    except ScriptError as problem:
        run.stop(problem.code, problem.where or where + ("do",), problem.message)
    except EngineFault as fault:
        run.stop("DM417", where + ("do",), f"The engine cannot run this: {fault}.")
    except Exception as exc:  # an engine bug must not crash the whole test run
        tail = traceback.format_exception_only(type(exc), exc)[-1].strip()
        run.stop("DM418", where + ("do",), f"The engine crashed: {tail}",
                 hint="".join(traceback.format_tb(exc.__traceback__)[-3:]))
    expected_error = step.get("expect_error")
    if isinstance(outcome, Applied):
        for event in outcome.events:
            run.result.log.append({"step": index + 1, **event})
        run.state = outcome.state
        if expected_error:
            run.stop("DM411", where + ("expect_error",), f"The action was accepted, but the "
                     f"step expects the rejection '{expected_error}'.")
        return
    if dice_mark is not None and isinstance(run.dice, StrictScript):
        run.dice.restore(dice_mark)
    run.policy.restore(policy_mark)
    run.result.log.append({"step": index + 1, "event": "rejected", "code": outcome.code,
                           "message": outcome.message})
    if outcome.code in ("unknown_wanderer", "unknown_monster", "unknown_investigator",
                        "unknown_figure"):
        run.stop("DM402", where + ("do",), outcome.message)
    if not expected_error:
        run.stop("DM410", where + ("do",), f"The engine rejected the action with "
                 f"'{outcome.code}': {outcome.message} Add 'expect_error: {outcome.code}' if "
                 "that is the point of the step.")
    if expected_error not in run.hooks.rejections:
        run.stop("DM422", where + ("expect_error",), f"'{expected_error}' is not a rejection "
                 "code of the engine.")
    if outcome.code != expected_error:
        run.stop("DM411", where + ("expect_error",), f"Expected the rejection "
                 f"'{expected_error}', got '{outcome.code}': {outcome.message}")
    if run.hooks.view(run.state, run.catalog) != before:
        run.stop("DM418", where + ("do",), "A rejected action changed the state.")


def _illegal(run: _Run, data: Any, where: Parts) -> None:
    assert run.state is not None and run.catalog is not None
    try:
        legal = run.hooks.legal(run.state, run.catalog, data)
    except Reject as bad:
        run.stop("DM401", where, bad.message)
    if legal is not None:
        run.stop("DM412", where, legal)


def _unused(run: _Run, step: int | None, where: Parts) -> None:
    every = step is None
    if isinstance(run.dice, StrictScript):
        for entry in run.dice.unused(step=step, every=every):
            run.fail("DM405", entry.where, f"This scripted roll was never used"
                     f"{' by its step' if step is not None else ''}: {flow(entry.data)}.")
    for choice in run.policy.unused(step=step, every=every):
        run.fail("DM407", choice.where, f"The scripted choice '{choice.key}' was never asked"
                 f"{' in its step' if step is not None else ''}.")
    if run.result.status == "failed":
        raise _Stop


def _expect(run: _Run, expected: dict[str, Any], where: Parts) -> None:
    assert run.state is not None
    view = run.hooks.view(run.state, run.catalog)
    for miss in check_state(view, expected) + check_events(run.result.log, expected):
        run.fail(miss.code, where + (miss.key,), miss.message, key=miss.code in ("DM409",
                                                                                "DM413"))
    if run.result.status == "failed":
        raise _Stop
