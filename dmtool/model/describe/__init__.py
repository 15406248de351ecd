"""One describer for the whole content vocabulary: every effect and condition in plain English.

References (entries, cards, codas, endings, glossary terms) stay `Ref` values inside the
phrases, so the site renders them as links while logs and graph labels read their words.
"""

from __future__ import annotations

from dmtool.model.describe.conditions import CONDITIONS, describe_condition
from dmtool.model.describe.effects import EFFECTS, describe_effect, describe_effects, roll_words
from dmtool.model.describe.text import (
    Described,
    Phrase,
    Ref,
    Side,
    capitalise,
    flat,
    phrase,
    plain,
)
from dmtool.model.describe.words import Names, no_names

__all__ = [
    "CONDITIONS",
    "EFFECTS",
    "Described",
    "Names",
    "Phrase",
    "Ref",
    "Side",
    "capitalise",
    "describe_condition",
    "describe_effect",
    "describe_effects",
    "flat",
    "no_names",
    "phrase",
    "plain",
    "roll_words",
]
