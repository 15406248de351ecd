"""Setting up the wanderer stage: support cards, decks, placement, trackers, starting domains,
and what earlier games left behind (unlocked cards, legacy cards, lineage tokens)."""

from __future__ import annotations

from dmtool.engine.dawn_of_madness import devour, legacy, story
from dmtool.engine.dawn_of_madness.actions import Action
from dmtool.engine.dawn_of_madness.constants import (
    COLOURS,
    CONDITION_DECKS,
    SCORE_GOALS,
    domain_texts,
)
from dmtool.engine.dawn_of_madness.context import Ctx, Frame
from dmtool.engine.dawn_of_madness.errors import Reject
from dmtool.engine.dawn_of_madness.placement import place
from dmtool.engine.dawn_of_madness.registry import RULES
from dmtool.engine.dawn_of_madness.state import Monster


def support_cards_for(ctx: Ctx, wanderers: int) -> list[str]:
    """Two wanderers use the 2-wanderer cards, three the 3-wanderer cards, four none."""
    return [cid for cid, card in ctx.catalog.support_cards.items()
            if card.get("wanderers") == wanderers]


@RULES.step("start_game")
def _start_game(ctx: Ctx, action: Action) -> None:
    state, catalog = ctx.state, ctx.catalog
    if state.phase != "setup":
        raise Reject("wrong_phase", "The game is set up once, from the setup phase.")
    players = action.arg("players", len(state.wanderers))
    count = len(state.wanderers)
    wanted = 2 if players == 1 else players
    if not isinstance(players, int) or not 1 <= players <= 4 or count != wanted:
        raise Reject("bad_setup", f"{players} player(s) play {wanted} wanderer(s) (one player "
                     f"plays two); the setup has {count}.")
    variant = action.arg("variant", "standard")
    if variant not in SCORE_GOALS:
        raise Reject("bad_setup", f"The variant is one of {', '.join(SCORE_GOALS)}.")
    state.score_goal = SCORE_GOALS[variant]
    if "devour" in (action.args or {}):
        state.devour_rule = bool(action.arg("devour"))
    state.support = dict.fromkeys(support_cards_for(ctx, count), True)
    ctx.emit("setup", players=players, wanderers=count, score_goal=state.score_goal,
             support_cards=list(state.support), devour_rule=state.devour_rule)
    _earlier_games(ctx)

    # 1.3: the domain deck is shuffled once the starting cards are taken out.
    held = {c for w in state.wanderers.values() for c in w.domain_cards}
    deck = [c for c in state.decks.get("domain", []) if c not in held]
    state.decks["domain"] = ctx.dice.shuffle(state, "domain", deck)
    # 1.4: starting domains come from rolling the recorded sentience values.
    for w in state.wanderers.values():
        w.mc = w.max_mc
        faces = ctx.dice.d6(state, w.id, {c: w.dice(c) for c in COLOURS if w.dice(c)},
                            "starting domains")
        rolled = [(c, f) for c in COLOURS for f in faces.get(c, [])]
        for d in rolled:
            w.store(d)
        ctx.emit("domains_gained", wanderer=w.id, domains=domain_texts(rolled))
    # 2.4: each wanderer's figure goes where the otherworld die says, never onto another's.
    for w in state.wanderers.values():
        taken = {o.shard for o in state.wanderers.values() if o.shard is not None}
        w.shard = place(ctx, w.id, "random", avoid=taken)
        ctx.emit("placed", character=w.id, shard=w.shard)
    _abomination(ctx)
    terror_deck = [c for c in state.decks.get("terror", [])
                   if catalog.monsters.get(c, {}).get("wanderer") != state.central]
    state.decks["terror"] = ctx.dice.shuffle(state, "terror", terror_deck)
    # 5.3: condition decks; Disoriented, Lightheaded and Traumatized are shuffled.
    for kind, (size, shuffled) in CONDITION_DECKS.items():
        pile = state.condition_decks.setdefault(kind, [kind] * size)
        if shuffled:
            state.condition_decks[kind] = ctx.dice.shuffle(state, kind, pile)
    devour.build_deck(ctx)
    _lineage(ctx)
    _storybook_setup(ctx)
    if state.outcome == "ongoing":
        state.phase = "event"
        ctx.emit("phase", phase="event", round=state.round)


def _earlier_games(ctx: Ctx) -> None:
    """Unlocked envelope cards join their decks; passive legacy cards and finale legacy cards
    change the starting sheets (before trackers are set and domains rolled)."""
    state, catalog = ctx.state, ctx.catalog
    for card in state.unlocked:
        owner = catalog.existence_cards.get(card, {}).get("wanderer")
        w = state.wanderers.get(owner or "")
        if w is not None and card not in w.existence_deck and card not in w.existence_cards:
            w.existence_deck.append(card)
        elif card in catalog.domain_cards and card not in state.decks.get("domain", []):
            state.decks.setdefault("domain", []).append(card)
    for w in state.wanderers.values():
        legacy.apply_at_setup(ctx, w)


def _lineage(ctx: Ctx) -> None:
    """4.5: the chosen abomination's family punishes the wanderers for each lineage token."""
    state, catalog = ctx.state, ctx.catalog
    family = catalog.family_of(state.abomination) if state.abomination else None
    if family is None:
        return
    tokens = state.lineage.get(family, [])
    for punishment in catalog.families.get(family, {}).get("punishments", []):
        if punishment.get("abomination") in tokens and not ctx.halted():
            ctx.emit("lineage_punishment", family=family,
                     abomination=punishment["abomination"])
            with ctx.in_frame(Frame("effect")), ctx.acting(who=state.central):
                story.run_effects(ctx, punishment.get("effects", []))


def _storybook_setup(ctx: Ctx) -> None:
    """1.6: the storybook's special setup (resolved once the board is ready)."""
    effects = ctx.catalog.setup.get("effects", [])
    if effects:
        ctx.emit("storybook_setup")
        with ctx.in_frame(Frame("event", wanderer=ctx.state.central)), \
                ctx.acting(who=ctx.state.central):
            story.run_effects(ctx, effects)


def _abomination(ctx: Ctx) -> None:
    """4.2-4.4: the abomination is placed away from wanderers; its deck is shuffled and the
    top card revealed."""
    state = ctx.state
    aid = state.abomination
    if aid is None:
        return
    defn = ctx.catalog.monster(aid)
    taken = {w.shard for w in state.wanderers.values() if w.shard is not None}
    shard = place(ctx, aid, "random", avoid=taken)
    state.monsters[aid] = Monster(aid, "abomination", shard, defn["max_health"],
                                  defn["max_mental_capacity"], defn["max_mental_capacity"])
    ctx.emit("placed", character=aid, shard=shard)
    cards = list(range(1, len(defn.get("confrontation_cards", [])) + 1))
    conf = state.confrontation
    conf["deck"] = ctx.dice.shuffle(state, "confrontation", cards)
    conf["discard"] = []
    conf["active"] = conf["deck"].pop(0) if conf["deck"] else None
    ctx.emit("confrontation_revealed", card=conf["active"])
