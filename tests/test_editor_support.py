"""Editor support: the schemas work in a draft 2020-12 validator that resolves `$ref`s the way
yaml-language-server does (relative to the schema file), every content file's modeline
agrees with `.vscode/settings.json`, and descriptions read well as hover help."""

from __future__ import annotations

import copy
import json
import re
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from dmtool.authoring import NewOptions, run_new
from dmtool.authoring._plans import CARD_KINDS
from dmtool.loading import SourceDocument, read_document
from dmtool.validation.schemas import SchemaSet

REPO = Path(__file__).resolve().parents[1]
SCHEMAS = REPO / "schemas"
SETTINGS = REPO / ".vscode" / "settings.json"
SCHEMA_FILES = sorted(SCHEMAS.glob("*.schema.json"))
# Files the editor mapping covers: the content corpus and the scenario fixtures.
MAPPED = sorted([*(REPO / "content").rglob("*.yaml"),
                 *(REPO / "tests" / "scenarios").glob("*.yaml")])


@cache
def _retrieve(uri: str) -> Resource[Any]:
    """Fetch a schema by its file URI, as an editor does for a relative `$ref`."""
    path = Path(unquote(urlparse(uri).path))
    contents = json.loads(path.read_text(encoding="utf-8"))
    return Resource.from_contents(contents, default_specification=DRAFT202012)


EDITOR_REGISTRY: Registry[Any] = Registry(retrieve=_retrieve)  # type: ignore[call-arg]


@cache
def _editor_validator(schema_uri: str) -> Draft202012Validator:
    return Draft202012Validator({"$ref": schema_uri}, registry=_editor_registry())


@cache
def _editor_registry() -> Registry[Any]:
    """Every schema under its file URI, where an editor fetches it from; a relative $ref
    resolves against the URI of the schema it is written in, and nothing else is known."""
    uris = [p.resolve().as_uri() for p in SCHEMA_FILES]
    return EDITOR_REGISTRY.with_resources((u, _retrieve(u)) for u in uris).crawl()


def editor_errors(schema_file: Path, data: Any) -> list[tuple[str, str]]:
    """Validation errors when `data` is checked against `schema_file` found by its path."""
    validator = _editor_validator(schema_file.resolve().as_uri())
    return sorted((error.json_path, error.message) for error in validator.iter_errors(data))


def _load(path: Path) -> SourceDocument:
    document = read_document(path).document
    assert document is not None, f"{path} does not load"
    return document


def _modeline_schema(document: SourceDocument) -> Path:
    assert document.modeline, f"{document.path} has no schema modeline"
    return (document.path.parent / document.modeline).resolve()


def _kind_of(schema_file: Path) -> str | None:
    kind = json.loads(schema_file.read_text(encoding="utf-8")).get("properties", {}).get("kind")
    return kind.get("const") if isinstance(kind, dict) else None


@pytest.mark.parametrize("schema_file", SCHEMA_FILES, ids=lambda p: p.name)
def test_every_schema_is_valid_draft_2020_12(schema_file: Path) -> None:
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == schema_file.name  # relative, so editors resolve refs next to it


def _properties(node: Any, where: str) -> list[tuple[str, Any]]:
    found = []
    if isinstance(node, dict):
        for name, sub in (node.get("properties") or {}).items():
            found.append((f"{where}/properties/{name}", sub))
        for key, value in node.items():
            found += _properties(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _properties(value, f"{where}/{index}")
    return found


@pytest.mark.parametrize("schema_file", SCHEMA_FILES, ids=lambda p: p.name)
def test_descriptions_read_well_as_hover_help(schema_file: Path) -> None:
    schema = json.loads(schema_file.read_text(encoding="utf-8"))
    assert schema.get("title") and schema.get("description")
    poor = []
    for where, sub in _properties(schema, schema_file.name):
        text = sub.get("description", "") if isinstance(sub, dict) else ""
        # Hover help shows the description alone: a sentence, no placeholder.
        if not re.match(r"^[^a-z\s].*[.!?)'\"]$", text.strip(), re.DOTALL) or "TODO" in text:
            poor.append(f"{where}: {text!r}")
    assert not poor, "\n".join(poor)


def test_editor_resolution_agrees_with_dmtool_on_every_file() -> None:
    """Same schemas, resolved from disk relative to each modeline: the same verdicts."""
    schemas = SchemaSet(SCHEMAS)
    disagreements = []
    for path in MAPPED:
        document = read_document(path).document
        if document is None or not isinstance(document.data, dict):
            continue
        kind = document.data.get("kind")
        if kind not in schemas.kinds:
            continue
        ours = sorted((e.json_path, e.message)
                      for e in schemas.validator(kind).iter_errors(document.data))
        if editor_errors(_modeline_schema(document), document.data) != ours:
            disagreements.append(path.relative_to(REPO).as_posix())
    assert not disagreements, disagreements


def test_each_content_kind_has_a_real_file_the_editor_accepts() -> None:
    accepted: dict[str, list[str]] = {}
    for path in (REPO / "content").rglob("*.yaml"):
        document = _load(path)
        if not editor_errors(_modeline_schema(document), document.data):
            accepted.setdefault(document.data["kind"], []).append(path.name)
    kinds = {_load(p).data["kind"] for p in (REPO / "content").rglob("*.yaml")}
    assert kinds and kinds <= set(accepted), kinds - set(accepted)


def test_a_broken_file_gets_errors_where_it_is_broken(tmp_path: Path) -> None:
    source = next(p for p in sorted((REPO / "content").rglob("*.yaml"))
                  if _load(p).data["kind"] == "world-shard")
    document = _load(source)
    schema = _modeline_schema(document)
    assert editor_errors(schema, document.data) == []
    broken = copy.deepcopy(document.data)
    broken["number"] = 17  # shards are numbered 1 to 16
    broken["weather"] = "rain"  # no such property
    del broken["title"]
    errors = editor_errors(schema, broken)
    paths = {path for path, _ in errors}
    assert "$.number" in paths
    assert any("weather" in message for _, message in errors)
    assert any("'title' is a required property" in message for _, message in errors)
    ours = SchemaSet(SCHEMAS).validator("world-shard")
    assert sorted((e.json_path, e.message) for e in ours.iter_errors(broken)) == errors


# -- .vscode/settings.json -----------------------------------------------------------

def _glob(pattern: str) -> re.Pattern[str]:
    """VS Code glob semantics for what we use: '*' stays within one folder, '**/' spans any."""
    parts = re.split(r"(\*\*/|\*)", pattern)
    regex = "".join({"**/": "(?:.*/)?", "*": "[^/]*"}.get(p, re.escape(p)) for p in parts)
    return re.compile(regex + r"\Z")


def _mapping() -> dict[str, list[re.Pattern[str]]]:
    settings = json.loads(SETTINGS.read_text(encoding="utf-8"))
    return {schema: [_glob(g) for g in globs] for schema, globs in settings["yaml.schemas"].items()}


def _schemas_for(relative: str) -> list[Path]:
    return [(REPO / schema).resolve() for schema, globs in _mapping().items()
            if any(g.match(relative) for g in globs)]


# Kinds whose files live outside the repository's trees; such files carry a modeline.
UNMAPPED_KINDS = {
    "campaign-state": "the engine writes it wherever the players keep their campaign",
    "chapter-campaign-state": "the engine writes it wherever the players keep their campaign",
}


def test_settings_map_every_kind_that_lives_in_the_repository() -> None:
    mapped = {(REPO / schema).resolve() for schema in _mapping()}
    kinds = {p.resolve(): _kind_of(p) for p in SCHEMA_FILES if _kind_of(p)}
    assert mapped <= set(kinds), "settings name a schema that is not a kind's schema"
    unmapped = {kinds[p] for p in set(kinds) - mapped}
    assert unmapped <= set(UNMAPPED_KINDS), (
        f"map {sorted(unmapped - set(UNMAPPED_KINDS))} to their folders in .vscode/settings.json")


@pytest.mark.parametrize("path", MAPPED, ids=lambda p: p.relative_to(REPO).as_posix())
def test_modeline_matches_settings(path: Path) -> None:
    document = _load(path)
    relative = path.relative_to(REPO).as_posix()
    mapped = _schemas_for(relative)
    assert len(mapped) == 1, f"{relative} matches {len(mapped)} globs in .vscode/settings.json"
    assert _modeline_schema(document) == mapped[0]
    assert _kind_of(mapped[0]) == document.data["kind"]


def test_scaffolded_files_land_where_settings_expect_them(tmp_path: Path) -> None:
    (tmp_path / "schemas").symlink_to(SCHEMAS)
    wanderers = tmp_path / "content" / "wanderers"

    def new(**options: Any) -> list[Path]:
        result = run_new(NewOptions(directory=wanderers, schema_dir=tmp_path / "schemas",
                                    **options))
        return result.created

    created = new(what="wanderer", name="Ilse Marrow")
    for kind in CARD_KINDS:
        created += new(what="card", card_kind=kind, name=f"new {kind}", wanderer="ilse-marrow")
    for path in created:
        relative = path.relative_to(tmp_path).as_posix()
        mapped = _schemas_for(relative)
        assert len(mapped) == 1, relative
        assert _kind_of(mapped[0]) == _load(path).data["kind"]
