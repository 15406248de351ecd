"""Effects and conditions in words, for hovers: the one place the server asks for wording.

Until the shared describer (dmtool.model.describe) is on main, each effect is shown as
its name and value in YAML's flow form, which an author reads as written.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any


def effects_in_words(effects: Sequence[Any]) -> list[str]:
    """One line per effect of a list."""
    return [_flow(effect) for effect in effects]


def condition_in_words(condition: Any) -> str:
    return _flow(condition)


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if isinstance(value, str):
        return value
    return json.dumps(value)
