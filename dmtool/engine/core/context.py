"""The resolution context every game's transition works in: the state being built, the
catalogue, dice, policy, the game's registry and the event log."""

from __future__ import annotations

from typing import Any, ClassVar, Final

from mypy_extensions import trait

from dmtool.engine.core.errors import EngineFault
from dmtool.engine.core.policy import REQUIRED, Policy, Question
from dmtool.engine.core.registry import Rules

Event = dict[str, Any]


@trait
class Context:
    """Mutable working context of one transition. `state` is already a private clone.

    A game's context is a dataclass with this trait: it declares the fields, in this order,
    with its own types for the first three (a trait, not a base dataclass, so that the engine
    compiles with mypyc, which lets no subclass narrow a field's type):

        state: ...; catalog: ...; dice: ...; policy: Policy
        events: list[Event] = field(default_factory=list)
        step: int | None = None  # a game loop's step number (see `emit`)

    and names its registry in `rules`, as a class attribute of a plain base class (mypyc
    would take it for a field of the dataclass). Events must be of a kind the registry
    declares, so the log's vocabulary is known to tools that read it.
    """

    __slots__ = ()

    rules: ClassVar[Rules]

    policy: Policy
    events: list[Event]
    # A game loop's step number: when set, each event starts with it ({step, event, ...}),
    # as the loop's log keeps them, so the loop need not copy every event to add it.
    step: int | None

    def emit(self, event: str, **data: Any) -> None:
        # hot path: a game emits hundreds of events; the registry's table is read directly.
        rules = self.rules
        if event not in rules.events:
            raise EngineFault(f"{rules.game}: the event kind '{event}' is not declared")
        step = self.step
        if step is None:
            self.events.append({"event": event, **data})
        else:
            self.events.append({"step": step, "event": event, **data})

    def ask(self, keys: str | tuple[str, ...], prompt: str, options: tuple[Any, ...] = (),
            *, default: Any = REQUIRED, accepts: Any = None) -> tuple[str, Any]:
        names = (keys,) if isinstance(keys, str) else keys
        # hot path: tuple.__new__ builds the Question without the named tuple's Python-level
        # __new__ (the same object: every field is given, in order).
        question = _new_tuple(Question, (names, prompt, options, default, accepts))
        key, answer = self.policy.ask(question)
        if answer != default or key != names[0]:
            self.emit("chose", question=names[0], key=key, answer=answer)
        return key, answer

    def answer(self, key: str, prompt: str, options: tuple[Any, ...] = (),
               *, default: Any = REQUIRED, accepts: Any = None) -> Any:
        """`ask` with one key, giving only the answer (`ask` written out: most questions
        come this way)."""
        question = _new_tuple(Question, ((key,), prompt, options, default, accepts))
        used, answer = self.policy.ask(question)
        if answer != default or used != key:
            self.emit("chose", question=key, key=used, answer=answer)
        return answer


_new_tuple: Final = tuple.__new__
