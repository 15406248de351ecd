"""Sentience tests: rolling, the help loop (hand, skull, release dice, coda) and spending."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from dmtool.engine.dawn_of_madness.constants import (
    COLOURS,
    TYPES,
    Domain,
    domain_text,
    domain_texts,
    missing,
    parse_domain,
)
from dmtool.engine.dawn_of_madness.context import Ctx
from dmtool.engine.dawn_of_madness.devour import reduce_dice
from dmtool.engine.dawn_of_madness.items import take_effect
from dmtool.engine.dawn_of_madness.state import Wanderer


@dataclass(slots=True)
class Pool:
    """The dice of one test: results as (colour, face), and which helps were used."""

    tester: str
    kind: str  # test | attack | defense | confront | release | respawn
    dice: list[Domain] = field(default_factory=list)
    coda_used: str | None = None
    spent: list[Domain] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)

    # Written out (the same fields and defaults): a native __init__ (see Ctx).
    def __init__(self, tester: str, kind: str, dice: list[Domain] | None = None,
                 coda_used: str | None = None, spent: list[Domain] | None = None,
                 cards: list[str] | None = None) -> None:
        self.tester = tester
        self.kind = kind
        self.dice = [] if dice is None else dice
        self.coda_used = coda_used
        self.spent = [] if spent is None else spent
        self.cards = [] if cards is None else cards

    def faces(self, colour: str) -> list[str]:
        return [f for c, f in self.dice if c == colour]


def roll_into(ctx: Ctx, pool: Pool, counts: dict[str, int], why: str) -> list[Domain]:
    """Roll dice for the pool's tester and add them; returns the new results."""
    counts = {c: n for c, n in counts.items() if n > 0}
    if not counts:
        return []
    faces = ctx.dice.d6(ctx.state, pool.tester, counts, why)
    new = [(c, f) for c, rolled in faces.items() for f in rolled]
    pool.dice.extend(new)
    # The faces by colour, as the log shows them: a dice source gives them in colour order,
    # one non-empty list per colour rolled (see `DiceSource.d6`).
    ctx.emit("rolled", who=pool.tester, why=why, dice=faces)
    return new


def can_use(w: Wanderer, colour: str, kind: str) -> Domain | None:
    """The stored domain that would pay for a special effect of `kind` in `colour`:
    the exact domain first, else a sphere of the same colour (spheres are wild)."""
    for domain in ((colour, kind), (colour, "sphere")):
        if w.stored(domain):
            return domain
    return None


def start_pool(ctx: Ctx, w: Wanderer, kind: str, counts: dict[str, int], why: str) -> Pool:
    pool = Pool(w.id, kind)
    counts = reduce_dice(ctx, w, counts, kind)  # the optional devour rule takes dice away
    roll_into(ctx, pool, counts, why)
    return pool


def help_loop(ctx: Ctx, w: Wanderer, pool: Pool) -> None:
    """Offer the helps the rules allow after a roll until the players decline.

    hand: spend a hand (or sphere) domain of a colour to reroll some of that colour's dice;
    skull: another wanderer spends a skull (or sphere) domain for one extra die of its colour;
    extra_die: in a release test, 1 mental capacity buys one die of any colour;
    coda: in a confrontation, one unexhausted coda adds its back's dice and is exhausted.
    """
    while not ctx.halted():
        offers = _offers(ctx, w, pool)
        if not offers:
            return
        key, answer = ctx.ask(tuple(offers), f"{w.id} may improve the {pool.kind} roll",
                              default=None, accepts=lambda k, a: _valid(ctx, w, pool, k, a))
        if answer is None or answer is False:
            return
        _apply_help(ctx, w, pool, key, answer)


def _offers(ctx: Ctx, w: Wanderer, pool: Pool) -> list[str]:
    # Asked after every roll: `can_use` and `pool.faces` written out over the stored domains.
    offers: list[str] = []
    stored = w.domains
    if pool.kind != "respawn" and stored and _any_of(stored, {c for c, _ in pool.dice}, "hand"):
        offers.append("reroll")
    for o in ctx.state.wanderers.values():
        held = o.domains
        if held and o.alive and o.id != w.id and _any_of(held, COLOURS, "skull"):
            offers.append("skull")
            break
    if pool.kind == "release" and w.mc > 0 and not ctx.frozen(w):
        offers.append("extra_die")
    if pool.kind == "confront" and pool.coda_used is None and _fresh_codas(w):
        offers.append("coda")
    return offers


def _any_of(stored: dict[Domain, int], colours: Iterable[str], kind: str) -> bool:
    """Whether a `kind` domain (or a wild sphere) of one of the colours is stored."""
    for c in colours:  # noqa: SIM110 (a loop, not a generator: asked after every roll)
        if stored.get((c, kind)) or stored.get((c, "sphere")):
            return True
    return False


def _fresh_codas(w: Wanderer) -> list[str]:
    return [c for c in w.codas if c not in w.exhausted]


def _valid(ctx: Ctx, w: Wanderer, pool: Pool, key: str, answer: Any) -> bool:
    if answer is None or answer is False:
        return True
    if key == "reroll":
        if not isinstance(answer, dict) or len(answer) != 1:
            return False
        [(colour, faces)] = answer.items()
        if colour not in COLOURS or not isinstance(faces, list) or not faces:
            return False
        have = Counter(pool.faces(colour))
        return can_use(w, colour, "hand") is not None and not Counter(faces) - have
    if key == "skull":
        if not isinstance(answer, dict):
            return False
        helper = ctx.state.wanderers.get(answer.get("wanderer", ""))
        colour = answer.get("colour")
        return (helper is not None and helper.alive and helper.id != w.id
                and colour in COLOURS and can_use(helper, colour, "skull") is not None)
    if key == "extra_die":
        return answer in COLOURS and w.mc > 0
    if key == "coda":
        return answer in _fresh_codas(w)
    return False


def _apply_help(ctx: Ctx, w: Wanderer, pool: Pool, key: str, answer: Any) -> None:
    if key == "reroll":
        [(colour, faces)] = answer.items()
        paid = can_use(w, colour, "hand")
        assert paid is not None
        w.spend(paid)
        for face in faces:
            pool.dice.remove((colour, face))
        ctx.emit("hand_reroll", wanderer=w.id, spent=domain_text(paid), dice={colour: faces})
        roll_into(ctx, pool, {colour: len(faces)}, "hand reroll")
    elif key == "skull":
        helper = ctx.wanderer(answer["wanderer"])
        paid = can_use(helper, answer["colour"], "skull")
        assert paid is not None
        helper.spend(paid)
        ctx.emit("skull_help", helper=helper.id, wanderer=w.id, spent=domain_text(paid))
        roll_into(ctx, pool, {answer["colour"]: 1}, "skull help")
    elif key == "extra_die":
        w.mc -= 1
        ctx.emit("release_die", wanderer=w.id, colour=answer)
        roll_into(ctx, pool, {answer: 1}, "release test extra die")
    elif key == "coda":
        pool.coda_used = answer
        back = ctx.catalog.codas.get(answer, {}).get("back", [])
        ctx.emit("coda_used", wanderer=w.id, coda=answer)
        roll_into(ctx, pool, dict(Counter(back)), "coda back")


def offer_spending(ctx: Ctx, w: Wanderer, pool: Pool, *, useful: Callable[[Domain], bool],
                   auto: Callable[[list[Domain], list[tuple[str, list[Domain]]]], tuple[
                       list[Domain], list[str]]]) -> list[Domain]:
    """Ask which stored domains and domain cards to spend; returns the extra results.

    `useful` says which domains can count here; `auto(stored, cards)` picks a set for the
    answer `true` (let the engine choose). Spent domains and discarded cards are gone.
    """
    # Most tests find nothing stored and no cards in hand: nothing to sort or judge then.
    stored = [d for d, n in sorted(w.domains.items()) if useful(d)
              for _ in range(n)] if w.domains else []
    cards: list[tuple[str, list[Domain]]] = []
    if w.domain_cards:
        cards = [(cid, _card_domains(ctx, cid)) for cid in w.domain_cards]
        cards = [(cid, ds) for cid, ds in cards if _any_useful(ds, useful)]
    extra: list[Domain] = []
    if stored:
        answer = ctx.answer("spend_domains", f"{w.id} may spend stored domains",
                            default=False, accepts=lambda k, a: _spend_ok(w, a, useful))
        if answer is True:
            answer = domain_texts(auto(stored, [])[0])
        for text in answer or []:
            domain = parse_domain(text)
            w.spend(domain)
            extra.append(domain)
        if extra:
            ctx.emit("spent_domains", wanderer=w.id, domains=domain_texts(extra))
    if cards:
        answer = ctx.answer("discard_cards", f"{w.id} may discard domain cards for their domains",
                            default=False,
                            accepts=lambda k, a: a is True or a is False or (
                                isinstance(a, list) and all(c in w.domain_cards for c in a)))
        if answer is True:
            answer = auto([*stored, *extra], cards)[1]
        for cid in answer or []:
            discard_domain_card(ctx, w, cid, why="test")
            extra.extend(_card_domains(ctx, cid))
            pool.cards.append(cid)
    pool.spent.extend(extra)
    return extra


def _any_useful(domains: list[Domain], useful: Callable[[Domain], bool]) -> bool:
    """`any(map(useful, domains))` as a loop: a generator (or map over a lambda) is resumed
    from C, and every test a wanderer holding cards takes asks this of each card."""
    for d in domains:  # noqa: SIM110
        if useful(d):
            return True
    return False


def _spend_ok(w: Wanderer, answer: Any, useful: Callable[[Domain], bool]) -> bool:
    if answer is True or answer is False:
        return True
    if not isinstance(answer, list):
        return False
    try:
        wanted = Counter(parse_domain(t) for t in answer)
    except (ValueError, AttributeError):
        return False
    return all(useful(d) and w.stored(d) >= n for d, n in wanted.items())


def _card_domains(ctx: Ctx, cid: str) -> list[Domain]:
    card = ctx.catalog.domain_cards.get(cid, {})
    return [(d["colour"], d["type"]) for d in card.get("domains", [])]


def discard_domain_card(ctx: Ctx, w: Wanderer, cid: str, *, why: str) -> None:
    w.domain_cards.remove(cid)
    w.charges.pop(cid, None)
    ctx.state.decks.setdefault("domain_discard", []).insert(0, cid)
    ctx.emit("domain_card_discarded", wanderer=w.id, card=cid, why=why)
    take_effect(ctx, w, cid, gained=False)


def minimal_for(need: list[Domain]) -> Callable[[list[Domain], list[tuple[str, list[Domain]]]],
                                                tuple[list[Domain], list[str]]]:
    """An `auto` chooser for requirement tests: the fewest stored domains (then cards) that
    close the gap left by the dice, exact domains before wild spheres."""

    def choose(stored: list[Domain], cards: list[tuple[str, list[Domain]]]) -> tuple[
            list[Domain], list[str]]:
        gap = list(need)
        picked: list[Domain] = []
        for wild in (False, True):
            for d in stored:
                if (d[1] == "sphere") != wild:
                    continue
                left = missing(picked + [d], gap)
                if len(left) < len(missing(picked, gap)):
                    picked.append(d)
        chosen: list[str] = []
        for cid, ds in cards:
            if missing(picked, gap) and len(missing(picked + ds, gap)) < len(missing(picked, gap)):
                chosen.append(cid)
                picked.extend(ds)
        return picked, chosen

    return choose


def requirement_test(ctx: Ctx, w: Wanderer, need: list[Domain], *, kind: str = "test",
                     every_colour: bool = False, why: str = "test") -> tuple[bool, Pool]:
    """Roll the tester's sentience in the needed colours (every colour for a confrontation),
    offer help, then stored domains and domain cards; pass if every requirement is met."""
    needed = {c for c, _ in need}
    sentience = w.sentience  # `Wanderer.dice` of each colour: negative values roll none
    pool = start_pool(ctx, w, kind, {c: max(0, sentience.get(c, 0)) for c in COLOURS
                                     if every_colour or c in needed}, why)
    help_loop(ctx, w, pool)
    gap = missing(pool.dice, need)
    if gap and not ctx.halted():
        # A domain helps if it is a missing one, or a sphere (wild) of a missing colour.
        helps = {*gap, *[(c, "sphere") for c, _ in gap]}
        offer_spending(ctx, w, pool, auto=minimal_for(gap), useful=helps.__contains__)
        gap = missing(pool.dice + pool.spent, need)
    passed = not gap
    ctx.emit("test", wanderer=w.id, kind=kind, need=domain_texts(need),
             passed=passed, missing=domain_texts(gap))
    return passed, pool


def sorted_types(faces: list[str]) -> list[str]:
    return sorted(faces, key=TYPES.index)
