"""Every effect of the Dawn of Madness vocabulary (defs.schema.json) in words.

`describe_effects` turns an effect list into `Described` values; branching effects (test,
choice, if, may) and groups (all_wanderers, central_wanderer) carry their sides. The plain
effects are in `effects_plain`; this module holds the registry and the structural ones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from dmtool.model.describe.conditions import describe_condition
from dmtool.model.describe.effects_plain import PLAIN
from dmtool.model.describe.text import Described, Phrase, Side, join, phrase
from dmtool.model.describe.words import (
    COLOURS,
    Names,
    entry,
    no_names,
    ref,
    term,
)

EffectDescriber = Callable[[Any, Names], Described]


def describe_effects(effects: Any, names: Names = no_names) -> tuple[Described, ...]:
    """An effect list in words, one `Described` per effect, in order."""
    if not isinstance(effects, Sequence) or isinstance(effects, str):
        return ()
    return tuple(describe_effect(e, names) for e in effects)


def describe_effect(effect: Any, names: Names = no_names) -> Described:
    if not isinstance(effect, Mapping) or len(effect) != 1:
        return Described("", ("an effect that cannot be read",))
    ((name, value),) = effect.items()
    describer = EFFECTS.get(name)
    if describer is None:
        return Described("", (f"an unknown effect '{name}'",))
    return replace(describer(value, names), source=effect)


def roll_words(roll: Any) -> Phrase:
    """{green: [eye, eye], red: [sphere]} -> 'green for eye (2 needed) and red for sphere'."""
    items: list[Phrase] = []
    if isinstance(roll, Mapping):
        for colour in COLOURS:
            kinds = roll.get(colour)
            if not isinstance(kinds, list):
                continue
            seen: dict[str, int] = {}
            for kind in kinds:
                seen[str(kind)] = seen.get(str(kind), 0) + 1
            wanted = join([(k + (f" ({n} needed)" if n > 1 else ""),) for k, n in seen.items()])
            items.append(phrase(f"{colour} for ", wanted))
    return join(items)


def _test(value: Any, names: Names) -> Described:
    value = value if isinstance(value, Mapping) else {}
    release = (" to break free (each mental capacity spent buys one extra die of any colour)"
               if value.get("release") else "")
    sides = tuple(Side((outcome.capitalize(),), describe_effects(value[outcome], names))
                  for outcome in ("pass", "fail") if outcome in value)
    return Described("test", phrase(roll_words(value.get("roll")), release), sides)


def _choice(value: Any, names: Names) -> Described:
    sides = []
    for raw in value if isinstance(value, list) else []:
        option = raw if isinstance(raw, Mapping) else {}
        label: Phrase = ("“", str(option.get("label", "")), "”")
        if isinstance(option.get("when"), Mapping):
            label = phrase(label, " (offered only if ", describe_condition(option["when"], names),
                           ")")
        sides.append(Side(label, describe_effects(option.get("effects"), names)))
    return Described("choose", ("one option",), tuple(sides))


def _if(value: Any, names: Names) -> Described:
    value = value if isinstance(value, Mapping) else {}
    when = value.get("when")
    sides = [Side(phrase("if ", describe_condition(when, names)),
                  describe_effects(value.get("then"), names))]
    if "else" in value:
        sides.append(Side(("otherwise",), describe_effects(value.get("else"), names)))
    return Described("", (), tuple(sides))


def _may(value: Any, names: Names) -> Described:
    inner = describe_effects(value, names)
    if len(inner) == 1 and not inner[0].sides and inner[0].verb and inner[0].verb != "may":
        only = inner[0]
        return Described("may", phrase(only.verb, " " if only.rest else "", only.rest))
    return Described("may", ("resolve the following",), (Side(("if you do",), inner),))


def _group(subject: Phrase, label: Phrase) -> EffectDescriber:
    """all_wanderers / central_wanderer: one sentence with a subject when every effect is a
    plain verb ('Each wanderer takes 1 blue damage'), else a side with the effects."""
    def describe(value: Any, names: Names) -> Described:
        inner = describe_effects(value, names)
        if inner and all(e.verb and e.verb != "may" and not e.sides for e in inner):
            return Described("", phrase(subject, " ", join([e.predicate() for e in inner])))
        return Described("", (), (Side(label, inner),))
    return describe


def _goto(value: Any, names: Names) -> Described:
    return Described("go", ("to ", entry(value)))


def _end(value: Any, names: Names) -> Described:
    return Described("end", ("the encounter",) if value == "encounter" else ("the event",))


def _conclude(value: Any, names: Names) -> Described:
    return Described("conclude", ("the finale: the game ends and the ", term("central wanderer"),
                                  " gains the ", term("finale legacy card"), " ",
                                  ref("finale-legacy-card", value, names)))


def _fail_stage(value: Any, names: Names) -> Described:
    return Described("", ("the ", term("wanderer stage"), " is failed: ", str(value)))


EFFECTS: dict[str, EffectDescriber] = {
    "goto": _goto,
    "test": _test,
    "choice": _choice,
    "if": _if,
    "may": _may,
    "all_wanderers": _group(("each living wanderer in turn",), ("each living wanderer in turn",)),
    "central_wanderer": _group(("the ", term("central wanderer")),
                               ("the ", term("central wanderer"))),
    "end": _end,
    "conclude": _conclude,
    "fail_stage": _fail_stage,
    **PLAIN,
}
