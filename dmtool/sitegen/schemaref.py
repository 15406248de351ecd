"""The schema reference, generated from schemas/: each kind, each field, its description, and
the shared vocabulary of effects and conditions."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dmtool.sitegen.markdown import inline_prose, plain, slug, table

MAX_DEPTH = 2  # nested fields shown as 'a.b.c'; deeper structure is in the schema files
VOCABULARY = (("defs.schema.json", "effect", "Effects (Dawn of Madness)"),
              ("defs.schema.json", "condition", "Conditions (Dawn of Madness)"),
              ("deep-madness-defs.schema.json", "effect", "Effects (Deep Madness chapters)"),
              ("deep-madness-defs.schema.json", "condition", "Conditions (Deep Madness chapters)"))


def schema_page(schemas: Any) -> str:
    blocks = ["# Schemas",
              "Every kind of content document and its fields, from the JSON schemas in "
              "`schemas/` (editors show the same descriptions as hover help). Fields marked "
              "*required* must be present."]
    kinds = sorted(schemas.kinds.items())
    blocks.append("Kinds: " + ", ".join(f"[{plain(k)}](#kind-{slug(k)})" for k, _ in kinds) + ".")
    for kind, schema_id in kinds:
        schema = schemas.by_id[schema_id]
        blocks.append(f"## {plain(kind)} {{#kind-{slug(kind)}}}")
        if schema.get("description"):
            blocks.append(inline_prose(schema["description"]))
        rows = [[f"`{name}`", "required" if required else "", inline_prose(text)]
                for name, required, text in _fields(schemas, schema_id, schema, "", 0)]
        if rows:
            blocks.append(table(["Field", "", "Description"], rows))
    for file, name, title in VOCABULARY:
        definition = schemas.by_id[file]["$defs"][name]
        blocks.append(f"## {title} {{#{slug(title)}}}")
        rows = [[f"`{key}`", inline_prose(sub.get("description", ""))]
                for key, sub in sorted(definition.get("properties", {}).items())]
        blocks.append(table(["Name", "Description"], rows))
    return "\n\n".join(blocks) + "\n"


def _fields(schemas: Any, base: str, schema: Any, prefix: str,
            depth: int) -> Iterator[tuple[str, bool, str]]:
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return
    schema, base = _resolved(schemas, base, schema)
    required = set(schema.get("required", ()))
    for name, sub in schema.get("properties", {}).items():
        if name == "kind" and not prefix:
            continue
        resolved, sub_base = _resolved(schemas, base, sub)
        text = sub.get("description") or resolved.get("description", "")
        yield f"{prefix}{name}", name in required, text
        if _is_vocabulary(sub):
            continue
        items = resolved.get("items")
        inner = items if isinstance(items, dict) else resolved
        yield from _fields(schemas, sub_base, inner, f"{prefix}{name}{'[]' if items else ''}.",
                           depth + 1)


def _is_vocabulary(schema: dict[str, Any]) -> bool:
    ref = schema.get("$ref", "")
    return isinstance(ref, str) and ref.rsplit("/", 1)[-1] in (
        "effect", "effects", "condition", "conditions", "summarised_condition",
        "summarised_effects")


def _resolved(schemas: Any, base: str, schema: dict[str, Any]) -> tuple[dict[str, Any], str]:
    seen = 0
    while isinstance(schema.get("$ref"), str) and seen < 10:
        base, schema = schemas.resolve(base, schema["$ref"])
        seen += 1
    return schema, base
