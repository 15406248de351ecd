"""How often the walks of a game can be resolved, from the rules as the engine plays them.

The per-game bounds (scores, sentience) add up what one walk can do times how often it can
be resolved, so this module says how often, with the premises it rests on:

- the storybook's setup is read once, a round tracker's event entry once in each round that
  names it (10 rounds; each event entry once when the trackers are not known);
- a world shard's encounter can be resolved again while its shard has no completed token
  (DoM "Encounter Action"): the pass that places the token is resolved once per shard, the
  others as often as encounter actions can be paid for; an encounter card stays on its
  shard, so each of its passes can repeat; a trapped wanderer re-enters the entry that
  trapped them whatever the tokens say;
- an encounter action costs 2 mental capacity (or brains stored as domains); a wanderer's
  capacity is restored to its maximum, 10 at most, each round; the domain action rolls 3
  dice once a round (a support card may give it again, 5 cards at most); anything else
  that gives capacity or domains back (other walks, coda cards, other cards) is counted
  in full.

When some repeatable pass can give back the 2 it costs, nothing bounds the number of
encounter actions and `encounters` is infinite: the bounds that depend on it are
`unbounded`, never guessed.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dmtool.storygraph.build import Arc, Node, StoryGraph

INF = float("inf")
ROUNDS = 10  # the wanderer stage ends after the tenth round (DoM "Refresh Phase")
WANDERERS = 4
MAX_CAPACITY = 10  # a wanderer's maximum mental capacity (dashboards, modify_max)
ENCOUNTER_COST = 2
DOMAIN_DICE = 3  # the domain action rolls three dice
SUPPORT_CARDS = 5  # the most support cards laid out (two wanderers)
# Effects that cannot end a wanderer's encounter before the rest of their block resolves:
# a completed token written in an entry made only of these is surely placed once reached.
SAFE = frozenset({
    "score", "gain_coda", "lose_coda", "modify_sentience", "place_token", "remove_token",
    "goto", "end", "test", "choice", "if", "may", "restore_health", "restore_mental_capacity",
    "gain_existence", "gain_domain", "spawn_encounter", "unlock", "all_wanderers",
    "central_wanderer", "release_trap",
})


@dataclass(frozen=True)
class NodeFacts:
    """What a node's effects can do to the action economy, all branches together."""

    units: int  # capacity restored and domains gained (each other wanderer's counted too)
    safe: bool  # no effect that can end the encounter early (SAFE)
    traps: bool  # a trap effect: the wanderer must re-enter this entry
    reopens: bool  # removes a completed token


def node_facts(effects: Sequence[Any]) -> NodeFacts:
    units, safe, traps, reopens = 0, True, False, False
    stack: list[tuple[Any, int]] = [(effects, 1)]
    while stack:
        value, times = stack.pop()
        if isinstance(value, list | tuple):
            stack.extend((v, times) for v in value)
            continue
        if not isinstance(value, Mapping) or len(value) != 1:
            continue
        ((name, body),) = value.items()
        if name not in SAFE:
            safe = False
        if name == "restore_mental_capacity" and _is_int(body):
            units += max(body, 0) * times
        elif name == "gain_domain" and isinstance(body, Mapping):
            units += sum(len(v) for v in body.values() if isinstance(v, list)) * times
        elif name == "trap":
            traps = True
        elif name == "remove_token" and isinstance(body, Mapping) and (
                body.get("token") == "completed"):
            reopens = True
        elif name == "all_wanderers":
            stack.append((body, times * WANDERERS))
        elif isinstance(body, Mapping):
            stack.extend((v, times) for v in body.values())
        elif isinstance(body, list):
            stack.append((body, times))
    return NodeFacts(units, safe, traps, reopens)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Passes:
    """Where the walks of the wanderer stage start and how often each can be resolved."""

    once: tuple[tuple[Node, int], ...]  # (start, times): setup, round events
    shards: tuple[Node, ...]  # each shard's encounter entry, once per shard naming it
    repeat_open: tuple[Node, ...]  # starts whose every pass can repeat (cards, traps)
    repeat_shards: tuple[Node, ...]  # shard starts: only their non-completing passes repeat
    reopened: bool  # a completed token can be removed: a shard's every pass can repeat
    premises: tuple[str, ...]


def passes(graph: StoryGraph, stage: Collection[Node], arcs_of: Mapping[Node, Sequence[Arc]],
           facts_of: Mapping[Node, NodeFacts]) -> Passes:
    once: dict[Node, int] = {}
    shards: list[Node] = []
    repeat: dict[Node, None] = {}
    premises = [f"the wanderer stage lasts at most {ROUNDS} rounds"]
    for root in graph.stage_roots:
        if root.node not in stage:
            continue
        if root.kind in ("setup", "round"):  # a tracker's entry once in each round naming it
            once[root.node] = once.get(root.node, 0) + 1
        elif root.kind == "event":
            once[root.node] = 1
        elif root.kind == "shard":
            shards.append(root.node)
        else:
            repeat[root.node] = None
    if graph.context.rounds is None:
        premises.append("the round trackers are not known: each event entry is taken to be "
                        "read once")
    else:
        premises.append("a round tracker's event entry is read once in its round")
    for node in stage:
        for arc in arcs_of.get(node, ()):
            for target in arc.enables:
                if target in stage:
                    repeat[target] = None
    # `facts_of` holds the nodes that can trap or remove a token (the others cannot).
    for node, facts in facts_of.items():
        if facts.traps and node in stage:
            repeat[node] = None
    reopened = any(f.reopens for n, f in facts_of.items() if n in stage)
    premises.append(
        "a completed token can be removed (a branch says so): every pass of a shard's "
        "encounter can repeat" if reopened else
        "a shard's encounter is resolved again only while no completed token is on it "
        "(DoM 'Encounter Action'); an encounter card stays in play")
    return Passes(tuple(once.items()), tuple(shards), tuple(repeat),
                  tuple(dict.fromkeys(shards)), reopened, tuple(premises))


def surely_completes(arc: Arc, facts_of: Mapping[Node, NodeFacts]) -> bool:
    """Whether a pass taking this branch surely ends with a completed token on its shard
    (nothing in its entry can end the encounter first)."""
    return arc.completes and arc.node in facts_of and facts_of[arc.node].safe


@dataclass(frozen=True)
class Budget:
    """The most encounter actions of one wanderer stage (INF: no bound), and why."""

    encounters: float
    premises: tuple[str, ...]


def budget(units_once: float, units_repeat: float, others: int, worst: Node | None) -> Budget:
    """`units_once`: capacity and domains the passes resolved a bounded number of times can
    give back in a game; `units_repeat`: the most one repeatable pass can give back (from
    `worst`); `others`: what cards outside the storybook can give a wanderer in a round."""
    per_round = MAX_CAPACITY + DOMAIN_DICE + others
    base = ROUNDS * WANDERERS * per_round + ROUNDS * SUPPORT_CARDS * DOMAIN_DICE
    premises = [
        f"at most {WANDERERS} wanderers; an encounter action costs {ENCOUNTER_COST} mental "
        f"capacity or brains; each round a wanderer has at most {MAX_CAPACITY} capacity, "
        f"{DOMAIN_DICE} domains from the domain action and {others} from other cards, and "
        f"support cards add at most {SUPPORT_CARDS * DOMAIN_DICE} domains a round",
    ]
    if units_repeat >= ENCOUNTER_COST:
        premises.append(
            f"entry {worst} can give back {_n(units_repeat)} capacity or domains for the "
            f"{ENCOUNTER_COST} its encounter costs and can be resolved again, so nothing "
            "bounds the number of encounter actions")
        return Budget(INF, tuple(premises))
    total = base + units_once
    count = INF if total == INF else int(total // (ENCOUNTER_COST - units_repeat))
    premises.append(
        f"so at most {_n(count)} encounter actions in the wanderer stage ({_n(total)} "
        f"capacity and domains in all, each action costing at least "
        f"{_n(ENCOUNTER_COST - units_repeat)} once what it gives back is taken off)")
    return Budget(count, tuple(premises))


def _n(value: float) -> str:
    return "unlimited" if value == INF else str(int(value))
