"""Effects in words for hovers, through the one describer the site, logs and graph share."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from dmtool.loading import SourceDocument
from dmtool.model.describe import describe_effects, flat, plain
from dmtool.model.describe.names import CorpusNames


def effects_in_words(effects: Sequence[Any], documents: Iterable[SourceDocument] = ()) -> list[str]:
    """One sentence (or a few) per effect of a list, naming cards and codas by their titles."""
    names = CorpusNames(d.data for d in documents if isinstance(d.data, dict))
    return [plain(flat((described,))) for described in describe_effects(list(effects), names)]
