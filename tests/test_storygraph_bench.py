"""The benchmark's generated storybooks are valid and analyse clean, so `make bench` times
the whole analysis (the timings themselves are printed by bench/graph_bench.py, not tested)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.graph_bench import generate, prepared
from dmtool.storygraph.analysis import analyse
from dmtool.validation.schemas import SchemaSet, default_schema_dir


def test_generated_storybook_is_schema_valid_and_clean() -> None:
    data, documents = generate(1500, seed=3)
    schemas = SchemaSet(default_schema_dir())
    assert not list(schemas.validator("storybook").iter_errors(data))
    for document in documents:
        if document["kind"] in ("coda", "world-shard", "encounter-card"):
            assert not list(schemas.validator(document["kind"]).iter_errors(document)), document[
                "id"
            ]
    analysis = analyse(*prepared(1500, seed=3))
    assert analysis.diagnostics == []
    assert len(analysis.graph.entries) > 1400
    assert analysis.solution.reached >= set(analysis.graph.entries)
