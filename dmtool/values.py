"""Value classes written out instead of made by `dataclasses`: a start-up cost.

`@dataclass` makes its class at import time by writing the source of `__init__`,
`__repr__`, `__eq__` (and, frozen, `__hash__`, `__setattr__`, `__delattr__`) and exec()ing
it: 2.5-3.4 M instructions a class, where a class written out costs ~0.06 M (its code
comes compiled from the .pyc). A one-file `dmtool check` (P3) made 31 of them, ~111 M of
its ~590 M instructions (callgrind). The classes on that path write their `__init__` out
and take the rest from these bases, which behave as the dataclass did:

- `_fields` names the fields in order (the order of `__init__`'s parameters, and of
  `__match_args__`);
- `==` compares the fields' values of two objects of the same class (NotImplemented for
  any other class); the repr is `Name(field=value, ...)` over `_repr_fields` (`_fields`
  unless a class leaves some out, as `field(repr=False)` did);
- a `Value` is unhashable (a dataclass with eq and not frozen); a `Frozen` one is hashed by
  its fields' values and refuses assignment and deletion (its `__init__` sets its fields
  with `object.__setattr__`), and both pickle and copy through `__init__`;
- `replace(value, **changes)` is `dataclasses.replace`.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, TypeVar

T = TypeVar("T", bound="Value")


class FrozenError(AttributeError):
    """An assignment to, or deletion of, a field of a frozen value."""


class Value:
    """A class whose objects stand for their fields' values (see the module docstring)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()
    _repr_fields: ClassVar[tuple[str, ...]] = ()
    # The fields' values as a tuple, in order (an attrgetter, made for each class).
    _values: ClassVar[Callable[[Any], tuple[Any, ...]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        fields = cls.__dict__.get("_fields")
        if fields is None:
            return
        if len(fields) == 1:
            one = attrgetter(fields[0])
            cls._values = staticmethod(lambda value: (one(value),))  # type: ignore[assignment]
        else:
            cls._values = attrgetter(*fields)  # type: ignore[assignment]
        cls.__match_args__ = fields
        if "_repr_fields" not in cls.__dict__:
            cls._repr_fields = fields

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return bool(self._values(self) == self._values(other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._repr_fields)
        return f"{self.__class__.__qualname__}({shown})"

    def __reduce__(self) -> tuple[Any, ...]:
        return _rebuilt, (self.__class__, dict(zip(self._fields, self._values(self))))


class Frozen(Value):
    """A `Value` that cannot change once made, hashed by its fields' values."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(self._values(self))

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenError(f"cannot delete field {name!r}")


def _rebuilt(cls: type[T], fields: dict[str, Any]) -> T:
    """A value made again from its fields (pickle and copy call this)."""
    return cls(**fields)


def replace(value: T, **changes: Any) -> T:
    """A copy of `value` with the fields named in `changes` changed (dataclasses.replace)."""
    unknown = set(changes) - set(value._fields)
    if unknown:
        raise TypeError(f"{value.__class__.__qualname__} has no field {sorted(unknown)[0]!r}")
    return value.__class__(**{name: changes[name] if name in changes else getattr(value, name)
                              for name in value._fields})
