"""The end of the wanderer stage and the finale: the abomination card's back, the ending
chosen by score, the finale's setup and event phase, and the central wanderer's death."""

from __future__ import annotations

from dmtool.engine.dawn_of_madness import legacy, story
from dmtool.engine.dawn_of_madness.actions import Action
from dmtool.engine.dawn_of_madness.constants import ENDINGS
from dmtool.engine.dawn_of_madness.context import Ctx, Frame
from dmtool.engine.dawn_of_madness.errors import EngineFault, Reject
from dmtool.engine.dawn_of_madness.refresh import refresh_support, respawn_all, restore_all
from dmtool.engine.dawn_of_madness.registry import RULES

FINALE_TOKENS_REMOVED = ("completed", "consequence_red", "consequence_blue")


def wrap_up(ctx: Ctx) -> None:
    """The End of the Wanderer Stage, won or failed: turn the abomination card over. Killed:
    its legacy cards are handed out; not killed: its lineage token and the return of its
    legacy cards. Effects printed on the back (if the content gives them) resolve too."""
    state = ctx.state
    if state.stage != "wanderer" or state.outcome not in ("won", "failed") or state.wrapped_up:
        return
    state.wrapped_up = True
    aid = state.abomination
    if aid is None:
        return
    section = "killed" if state.abomination_killed else "not_killed"
    ctx.emit("abomination_back", abomination=aid, section=section)
    ctx.epilogue = True
    try:
        if state.abomination_killed:
            legacy.clear_lineage(ctx)
            legacy.hand_out(ctx)
        else:
            legacy.punish(ctx)
        effects = ctx.catalog.monster(aid).get("back", {}).get(section, {}).get("effects", [])
        if effects:
            with ctx.in_frame(Frame("effect")), ctx.acting(who=state.central):
                story.run_effects(ctx, effects)
    finally:
        ctx.epilogue = False


def choose_ending(scores: dict[str, int]) -> str:
    """The ending with the highest score; ties go to A, then B, then C, then D."""
    return max(ENDINGS, key=lambda e: (scores.get(e, 0), -ENDINGS.index(e)))


@RULES.step("start_finale")
def _start_finale(ctx: Ctx, action: Action) -> None:
    """Setting Up the Finale Stage, steps 1-5."""
    state, catalog = ctx.state, ctx.catalog
    if state.stage != "wanderer" or state.outcome != "won":
        raise Reject("no_finale", "The finale follows a won wanderer stage.")
    wrap_up(ctx)
    ending = choose_ending(state.scores)
    if ending not in catalog.endings:
        raise EngineFault(f"the storybook has no ending {ending}")
    state.stage, state.ending, state.outcome, state.reason = "finale", ending, "ongoing", None
    state.round, state.phase = 1, "setup"
    ctx.emit("finale", ending=ending, scores=dict(state.scores))
    # 2: the abomination, encounter cards, unobtained codas and some tokens leave the game.
    if state.abomination in state.monsters:
        del state.monsters[state.abomination or ""]
    state.confrontation = {"deck": [], "active": None, "discard": []}
    for shard in state.shards.values():
        shard.cards.clear()
        for token in FINALE_TOKENS_REMOVED:
            shard.tokens.pop(token, None)
    # 3: the dead respawn, traps are released, capacity restored, support cards refreshed.
    respawn_all(ctx)
    for w in state.wanderers.values():
        if w.trapped:
            w.trapped = None
            ctx.emit("released", wanderer=w.id)
    restore_all(ctx)
    refresh_support(ctx)
    # 5: the ending's special setup.
    effects = catalog.endings[ending].get("setup", {}).get("effects", [])
    with ctx.in_frame(Frame("event", wanderer=state.central)), ctx.acting(who=state.central):
        story.run_effects(ctx, effects)
    if state.outcome == "ongoing":
        state.phase = "event"
        ctx.emit("phase", phase="event", round=state.round, stage="finale")


def finale_event(ctx: Ctx) -> None:
    """The finale's event phase: the ending's start entry in its first round, then the
    ending's event-phase effects every round."""
    ending = ctx.catalog.endings[ctx.state.ending or ""]
    if ctx.state.round == 1 and ending.get("start") is not None:
        story.resolve_entry(ctx, ending["start"])
    else:
        story.run_effects(ctx, ending.get("event_phase", {}).get("effects", []))


def death_conclusion(ctx: Ctx) -> int:
    """The conclusion the central wanderer's death leads to: the ending's last conclusion."""
    conclusions = ctx.catalog.endings[ctx.state.ending or ""].get("conclusions", [])
    if not conclusions:
        raise EngineFault(f"ending {ctx.state.ending} has no conclusion")
    return int(conclusions[-1]["entry"])


def central_died(ctx: Ctx) -> None:
    """In the finale the central wanderer's death goes straight to a conclusion."""
    entry = death_conclusion(ctx)
    ctx.emit("central_died", wanderer=ctx.state.central, conclusion=entry)
    with ctx.in_frame(Frame("event", wanderer=ctx.state.central)), \
            ctx.acting(who=ctx.state.central):
        story.resolve_entry(ctx, entry)


def conclude(ctx: Ctx, card: str | None) -> None:
    """The finale ends in a conclusion; the central wanderer gains its finale legacy card."""
    state = ctx.state
    if state.outcome != "ongoing":
        return
    state.outcome, state.reason, state.phase = "concluded", card, "ended"
    state.conclusion = {"entry": ctx.frame.entry, "legacy": card}
    ctx.emit("concluded", legacy=card, entry=ctx.frame.entry)
    legacy.award_finale_legacy(ctx, card)


@RULES.step("reset_wanderer")
def _reset(ctx: Ctx, action: Action) -> None:
    """Between games (the setup phase): a wanderer goes back to its original state."""
    state = ctx.state
    if state.phase != "setup":
        raise Reject("wrong_phase", "A wanderer is reset between games, in the setup phase.")
    wid = action.arg("wanderer", action.wanderer)
    if not isinstance(wid, str):
        raise Reject("bad_action", "reset_wanderer names the wanderer: {wanderer: ID}.")
    gone = legacy.reset_wanderer(state, ctx.catalog, wid)
    w = state.wanderers.get(wid)
    if w is not None:
        w.existence_deck = [c for c in w.existence_deck if c not in gone]
    state.decks["domain"] = [c for c in state.decks.get("domain", []) if c not in gone]
    ctx.emit("wanderer_reset", wanderer=wid, returned=gone)
