"""Schemas: every `schemas/*.schema.json` in one `referencing` registry, compiled once per run."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from dmtool.packaged import schema_dir

SCHEMA_SUFFIX = ".schema.json"
# jsonschema-rs needs absolute URIs; the schemas' relative `$id`s resolve against this.
_FAST_BASE = "https://schemas.dmtool.invalid/"
# The top-level list of numbered entries a storybook holds: its errors are explained per entry.
ENTRIES = "entries"


def default_schema_dir() -> Path:
    """The schemas to check with: the author's own, else those dmtool ships
    (dmtool/packaged.py says which)."""
    return schema_dir()


@dataclass
class SchemaSet:
    """All schemas of a folder, indexed by their `$id` and by the kind they describe.
    (No slots: its indexes are cached properties, kept in the instance's __dict__.)"""

    directory: Path
    _compiled: dict[str, Any] = field(default_factory=dict, repr=False)
    _screens: dict[str, Any] = field(default_factory=dict, repr=False)
    # The files each schema's `$ref`s name: the shared defs are reached from every kind,
    # and walking them again for each of its ~24 kinds was half of compiling their screens.
    _refs: dict[str, set[str]] = field(default_factory=dict, repr=False)
    # Helpers built from the schemas (a reference walker...), kept as long as the set.
    derived: dict[str, Any] = field(default_factory=dict, repr=False)
    # The screens' registry of every schema file, when one was built (before_workers).
    _shared_registry: Any = field(default=None, repr=False)

    @cached_property
    def by_id(self) -> dict[str, dict[str, Any]]:
        schemas: dict[str, dict[str, Any]] = {}
        for path in sorted(self.directory.glob("*" + SCHEMA_SUFFIX)):
            contents = json.loads(path.read_text(encoding="utf-8"))
            schemas[contents.get("$id", path.name)] = contents
        return schemas

    @cached_property
    def kinds(self) -> dict[str, str]:
        """kind -> schema `$id`, read from each schema's `properties.kind.const`."""
        found: dict[str, str] = {}
        for schema_id, contents in self.by_id.items():
            kind = contents.get("properties", {}).get("kind", {}).get("const")
            if isinstance(kind, str):
                found[kind] = schema_id
        return found

    @cached_property
    def registry(self) -> Any:
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012

        resources = [
            (schema_id, Resource.from_contents(contents, default_specification=DRAFT202012))
            for schema_id, contents in self.by_id.items()
        ]
        return Registry().with_resources(resources)

    def before_workers(self) -> None:
        """Read every schema and build the screens' registry of all of them, once, before
        forking the workers that check files: each would otherwise read the schemas and
        import jsonschema-rs for itself, and give every kind it screens a registry of its
        own (a worker screens about 20 kinds; one registry of every file costs about two
        of those, and compiling a kind's screen over it a third less)."""
        import jsonschema_rs

        self._shared_registry = jsonschema_rs.Registry(
            [(_FAST_BASE + schema_id, contents) for schema_id, contents in self.by_id.items()])

    def after_workers(self) -> None:
        """The workers are forked: this process lets go of their registry (it screens a
        file only if a worker failed, and then builds what that file's kind needs)."""
        self._shared_registry = None

    def schema_for(self, kind: str) -> dict[str, Any]:
        return self.by_id[self.kinds[kind]]

    def validator(self, kind: str) -> Any:
        """The compiled draft 2020-12 validator for a kind (built once, then reused)."""
        compiled = self._compiled.get(kind)
        if compiled is None:
            from jsonschema import Draft202012Validator

            compiled = Draft202012Validator(self.schema_for(kind), registry=self.registry)
            self._compiled[kind] = compiled
        return compiled

    def screen(self, kind: str) -> Any:
        """A compiled jsonschema-rs validator for a kind: a fast yes/no before the slow path.

        python-jsonschema stays the validator that explains failures (its errors carry
        the paths and keywords the messages need); jsonschema-rs only answers "valid?",
        about fifty times faster. tests/test_validation_equivalence.py proves they agree.
        """
        screen = self._screens.get(kind)
        if screen is None:
            import jsonschema_rs

            schema_id = self.kinds[kind]
            # Only the files this kind reaches: compiling a registry of every schema costs
            # more than checking a single changed file (a large check has one registry
            # of every file, see before_workers).
            registry = self._shared_registry or jsonschema_rs.Registry(
                [(_FAST_BASE + needed, self.by_id[needed]) for needed in self._reachable(schema_id)]
            )
            screen = jsonschema_rs.validator_for(
                self.by_id[schema_id], registry=registry, base_uri=_FAST_BASE + schema_id
            )
            self._screens[kind] = screen
        return screen

    def forget_compiled(self) -> int:
        """Drop the compiled validators (they are built again if asked for); how many
        kinds had one. A one-shot check is done with them once every file is checked,
        and jsonschema-rs's hold about 9 MB for the bench corpus's kinds (see heap.py)."""
        kinds = len(self._screens.keys() | self._compiled.keys())
        self._screens.clear()
        self._compiled.clear()
        self._shared_registry = None
        return kinds

    def _reachable(self, schema_id: str) -> list[str]:
        """Schema files reachable from one through `$ref`s (itself included)."""
        found, pending = [schema_id], [schema_id]
        while pending:
            current = pending.pop()
            refs = self._refs.get(current)
            if refs is None:
                refs = self._refs[current] = _ref_files(self.by_id[current])
            for target in refs:
                if target in self.by_id and target not in found:
                    found.append(target)
                    pending.append(target)
        return found

    def errors(self, kind: str, data: Any) -> list[Any]:
        """python-jsonschema errors for a document, computed only when the screen fails."""
        screen = self.screen(kind)
        if screen.is_valid(data):
            return []
        failing = _failing_entries(screen, data)
        if failing is None:
            return list(self.validator(kind).iter_errors(data))
        # Only the entries that fail go through the slow validator (a long book's other
        # entries cost it seconds), in the document as it is otherwise; each error's path
        # then names the entry's own index. Items are validated one by one (no keyword of
        # the schemas compares them), so the errors are those of the whole document.
        only = {**data, ENTRIES: [data[ENTRIES][index] for index in failing]}
        errors = list(self.validator(kind).iter_errors(only))
        for error in errors:
            path = error.path  # its context's errors extend it (absolute_path)
            if len(path) >= 2 and path[0] == ENTRIES and type(path[1]) is int:
                path[1] = failing[path[1]]
        return errors

    def resolve(self, base_id: str, ref: str) -> tuple[str, dict[str, Any]]:
        """Follow a `$ref` from the schema `base_id`; returns (new base id, subschema)."""
        target, _, fragment = ref.partition("#")
        schema_id = target or base_id
        node: Any = self.by_id[schema_id]
        for part in [p for p in fragment.split("/") if p]:
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return schema_id, node


def _failing_entries(screen: Any, data: Any) -> list[int] | None:
    """The indices of the entries jsonschema-rs finds errors in, when it finds them only
    inside entries (and there are entries it does not); else None."""
    entries = data.get(ENTRIES) if type(data) is dict else None
    if type(entries) is not list or len(entries) < 2:
        return None
    failing: set[int] = set()
    for error in screen.iter_errors(data):
        path = error.instance_path
        if len(path) < 2 or path[0] != ENTRIES or type(path[1]) is not int:
            return None
        failing.add(path[1])
    return sorted(failing) if len(failing) < len(entries) else None


def _ref_files(node: Any) -> set[str]:
    """The other schema files a schema's `$ref`s name (the part before '#')."""
    files: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and not ref.startswith("#"):
                files.add(ref.partition("#")[0])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return files
