"""Effects that steer the story: links, tests, choices, branches and endings."""

from __future__ import annotations

from typing import Any

from dmtool.engine.dawn_of_madness.constants import domains_from_mapping
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.effects import effect
from dmtool.engine.dawn_of_madness.finale import conclude
from dmtool.engine.dawn_of_madness.outcome import end_stage
from dmtool.engine.dawn_of_madness.rolls import requirement_test
from dmtool.engine.dawn_of_madness.story import holds, resolve_entry, run_effects


@effect("goto")
def _goto(ctx: Ctx, number: int) -> None:
    resolve_entry(ctx, number)


@effect("test")
def _test(ctx: Ctx, spec: dict[str, Any]) -> None:
    w = ctx.need_resolver("test")
    need = domains_from_mapping(spec["roll"])
    kind = "release" if spec.get("release") and w.trapped else "test"
    passed, _ = requirement_test(ctx, w, need, kind=kind,
                                 why="test" if kind == "test" else "release test")
    run_effects(ctx, spec.get("pass" if passed else "fail", []))


@effect("choice")
def _choice(ctx: Ctx, options: list[dict[str, Any]]) -> None:
    open_ = [o for o in options if "when" not in o or holds(ctx, o["when"])]
    if not open_:
        ctx.emit("no_option", options=[o["label"] for o in options])
        return
    labels = tuple([o["label"] for o in open_])
    picked = open_[0] if len(open_) == 1 else None
    if picked is None:
        answer = ctx.answer("choice", "Choose an option", labels, accepts=lambda k, a: (
            k == "choice" and isinstance(a, int) and 1 <= a <= len(open_)))
        picked = open_[answer - 1] if isinstance(answer, int) else open_[labels.index(answer)]
    ctx.emit("option", label=picked["label"])
    run_effects(ctx, picked.get("effects", []))


@effect("if")
def _if(ctx: Ctx, spec: dict[str, Any]) -> None:
    run_effects(ctx, spec["then"] if holds(ctx, spec["when"]) else spec.get("else", []))


@effect("may")
def _may(ctx: Ctx, effects: list[dict[str, Any]]) -> None:
    if ctx.answer("may", "Resolve the optional effects?", (True, False), default=False):
        run_effects(ctx, effects)
    else:
        ctx.emit("declined")


@effect("all_wanderers")
def _all_wanderers(ctx: Ctx, effects: list[dict[str, Any]]) -> None:
    for w in list(ctx.state.wanderers.values()):
        if ctx.halted():
            return
        if ctx.counts_alive(w):
            with ctx.acting(who=w.id):
                run_effects(ctx, effects)


@effect("central_wanderer")
def _central(ctx: Ctx, effects: list[dict[str, Any]]) -> None:
    with ctx.acting(who=ctx.state.central):
        run_effects(ctx, effects)


@effect("end")
def _end(ctx: Ctx, what: str) -> None:
    ctx.frame.ended = True
    ctx.emit("ended", what=what)


@effect("conclude")
def _conclude(ctx: Ctx, legacy: str | None) -> None:
    conclude(ctx, legacy)


@effect("fail_stage")
def _fail(ctx: Ctx, why: str) -> None:
    end_stage(ctx, "failed", why)
