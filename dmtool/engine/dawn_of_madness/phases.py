"""System steps: the event phase, monster turns, the refresh phase, effects and summons."""

from __future__ import annotations

from typing import Any, Final

from dmtool.engine.dawn_of_madness import story
from dmtool.engine.dawn_of_madness.actions import Action
from dmtool.engine.dawn_of_madness.catalog import Catalog
from dmtool.engine.dawn_of_madness.context import Ctx, Frame
from dmtool.engine.dawn_of_madness.errors import Reject
from dmtool.engine.dawn_of_madness.finale import finale_event
from dmtool.engine.dawn_of_madness.monsters import activate
from dmtool.engine.dawn_of_madness.outcome import end_of_action, need_ongoing, need_phase
from dmtool.engine.dawn_of_madness.placement import place
from dmtool.engine.dawn_of_madness.registry import RULES
from dmtool.engine.dawn_of_madness.story import holds
from dmtool.engine.dawn_of_madness.turns import active_characters, monster_may_act

RUNAWAY: Final = 500  # monster turns in one advance before the engine assumes a loop
step = RULES.step


@step("effect")
def _effect(ctx: Ctx, action: Action) -> None:
    """Resolve effects directly (as if a card or entry said so) for a wanderer, if named."""
    need_ongoing(ctx)
    effects = action.args if isinstance(action.args, list) else [action.args]
    who = action.wanderer
    if who is not None and who not in ctx.state.wanderers:
        raise Reject("unknown_wanderer", f"There is no wanderer '{who}'.")
    with ctx.in_frame(Frame("effect", wanderer=who)), ctx.acting(who=who):
        story.run_effects(ctx, effects)
    end_of_action(ctx)


@step("summon")
def _summon(ctx: Ctx, action: Action) -> None:
    """A dead wanderer is made to enter an encounter: alive there, health and capacity fixed."""
    need_ongoing(ctx)
    w = ctx.state.wanderers.get(action.arg("wanderer", action.wanderer) or "")
    if w is None:
        raise Reject("unknown_wanderer", "The summoned wanderer does not exist.")
    if w.alive:
        raise Reject("not_summonable", f"{w.id} is alive and enters encounters normally.")
    story.encounter(ctx, w.id, action.arg("entry"), summoned=True)


@step("activate")
def _activate(ctx: Ctx, action: Action) -> None:
    """A monster's turn (it must be the active character), or a free activation."""
    need_ongoing(ctx)
    m = ctx.state.monsters.get(action.arg("monster", "") or "")
    if m is None:
        raise Reject("unknown_monster", f"No monster '{action.arg('monster')}' is on the board.")
    free = bool(action.arg("free", False))
    if not free:
        need_phase(ctx, "action")
        if not monster_may_act(ctx.state, m):
            raise Reject("not_your_turn", f"{m.id} is not the active character.")
    activate(ctx, m, free=free)
    end_of_action(ctx)


@step("advance")
def _advance(ctx: Ctx, action: Action) -> None:
    """Monsters take their turns until a wanderer is the active character or the phase ends."""
    need_phase(ctx, "action")
    for _ in range(RUNAWAY):
        if ctx.state.phase != "action" or ctx.halted():
            return
        active = active_characters(ctx.state)
        if not active or active[0] in ctx.state.wanderers:
            end_of_action(ctx)
            return
        mid = active[0] if len(active) == 1 else ctx.answer(
            "order", "Several monsters are tied on the track: which acts next?", tuple(active))
        activate(ctx, ctx.state.monsters[mid])
        end_of_action(ctx)
    raise Reject("bad_action", "Monsters kept acting without spending capacity.")


def _spawn_gates(catalog: Catalog, stage: str, ending: str | None) -> list[tuple[str, Any]]:
    """(card, spawning condition) of the encounter cards that can spawn in this stage (the
    ending's finale cards in the finale), in catalogue order; worked out once."""
    key = ("spawn_gates", stage, ending)
    found = catalog.derived.get(key)
    if found is None:
        cards = catalog.encounter_cards.items() if stage == "wanderer" else [
            (c, d) for c, d in catalog.finale_cards.items() if d.get("ending") == ending]
        found = catalog.derived[key] = [
            (card, gate["when"]) for card, defn in cards
            if (gate := defn.get("spawn")) and "when" in gate]
    return found  # type: ignore[no-any-return]


@step("event_phase")
def _event_phase(ctx: Ctx, action: Action) -> None:
    """Resolve the round tracker's entry (for the central wanderer), then check the spawning
    conditions of encounter cards not yet in play. In the finale the ending's event phase
    is read instead (its start entry in the first round), and only the ending's finale
    encounter cards can spawn."""
    need_phase(ctx, "event")
    state, catalog = ctx.state, ctx.catalog
    ctx.emit("phase", phase="event", round=state.round, stage=state.stage)
    with ctx.in_frame(Frame("event", wanderer=state.central)), ctx.acting(who=state.central):
        if state.stage == "finale":
            finale_event(ctx)
        elif state.round <= len(catalog.round_trackers):
            story.resolve_entry(ctx, catalog.round_trackers[state.round - 1])
    with ctx.acting(who=state.central):
        for card, when in _spawn_gates(catalog, state.stage, state.ending):
            if ctx.halted():
                break
            if card not in state.spawned_cards and holds(ctx, when):
                shard = place(ctx, card, "random")
                state.shards[shard].cards.append(card)
                state.spawned_cards.append(card)
                ctx.emit("encounter_spawned", card=card, shard=shard)
    if state.outcome == "ongoing":
        state.phase = "action"
        ctx.emit("phase", phase="action", round=state.round)
        end_of_action(ctx)
