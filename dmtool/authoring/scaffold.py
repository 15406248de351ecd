"""`dmtool new`: scaffold wanderers, storybooks, chapters and cards that pass `dmtool check`.

A planner (see `_plans`) decides which files to create and which existing documents to
update (a new card is listed on its wanderer, an encounter card gets its storybook
entry). Everything is rendered first, with the schema modeline and through the
formatter, and only then written, each file atomically, so a refusal or a bug writes
nothing. Existing files are never replaced without `force`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from dmtool.authoring.fmt import format_text
from dmtool.authoring.keyorder import KeyOrder
from dmtool.errors import UsageError
from dmtool.util.atomic import write_text_atomic
from dmtool.validation.schemas import default_schema_dir

WHAT = ("wanderer", "storybook", "chapter", "card")
DEFAULT_DIRS = {
    "wanderer": Path("content/wanderers"),
    "storybook": Path("content/wanderers"),
    "card": Path("content/wanderers"),
    "chapter": Path("content/deep-madness"),
}
MODELINE = "# yaml-language-server: $schema={path}"


@dataclass(frozen=True, kw_only=True)
class NewOptions:
    """One `dmtool new` call. `directory` is the folder that holds wanderers (or, for a
    chapter, expansions); None means the default under content/."""

    what: str
    name: str
    card_kind: str | None = None
    wanderer: str | None = None
    expansion: str | None = None
    ending: str = "A"
    directory: Path | None = None
    force: bool = False
    schema_dir: Path = field(default_factory=default_schema_dir)

    @property
    def root(self) -> Path:
        return self.directory if self.directory is not None else DEFAULT_DIRS[self.what]


@dataclass(frozen=True)
class NewFile:
    """A file to create: its path, the kind of its document, and its YAML body."""

    path: Path
    kind: str
    body: str


@dataclass
class Plan:
    """What one `dmtool new` call will do."""

    files: list[NewFile] = field(default_factory=list)
    updates: dict[Path, str] = field(default_factory=dict)  # path -> new full text
    notes: list[str] = field(default_factory=list)


@dataclass
class NewResult:
    """What `dmtool new` did."""

    created: list[Path] = field(default_factory=list)
    overwritten: list[Path] = field(default_factory=list)
    updated: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    exit_code: int = 0

    def summary(self) -> str:
        lines = [f"created {p.as_posix()}" for p in self.created]
        lines += [f"overwrote {p.as_posix()}" for p in self.overwritten]
        lines += [f"updated {p.as_posix()}" for p in self.updated]
        lines += [f"note: {n}" for n in self.notes]
        lines.append(f"{len(self.created) + len(self.overwritten)} file(s) written, "
                     f"{len(self.updated)} updated. Search them for 'TODO' to fill them in.")
        return "\n".join(lines)


def run_new(options: NewOptions) -> NewResult:
    """Plan, render and write; raises UsageError (writing nothing) if that is not possible."""
    from dmtool.authoring._plans import PLANNERS

    if options.what not in PLANNERS:
        raise UsageError(f"cannot scaffold {options.what!r}; choose one of {', '.join(WHAT)}")
    plan = PLANNERS[options.what](options)
    existing = [f.path for f in plan.files if f.path.exists()]
    if existing and not options.force:
        shown = ", ".join(p.as_posix() for p in existing)
        raise UsageError(f"{shown} already exist(s); pass --force to overwrite")
    order = KeyOrder(options.schema_dir)
    rendered = [(f.path, render(f, schema_dir=options.schema_dir, order=order)) for f in plan.files]
    result = NewResult(notes=list(plan.notes))
    for path, text in rendered:
        (result.overwritten if path.exists() else result.created).append(path)
        write_text_atomic(path, text)
    for path, text in plan.updates.items():
        write_text_atomic(path, format_text(text, order=order))
        result.updated.append(path)
    return result


def render(file: NewFile, *, schema_dir: Path, order: KeyOrder) -> str:
    """The file's final text: modeline, body, canonical layout."""
    return format_text(modeline(file.path, file.kind, schema_dir) + "\n" + file.body, order=order)


def modeline(path: Path, kind: str, schema_dir: Path) -> str:
    """The yaml-language-server modeline of a file at `path` holding a `kind` document.

    A `schemas/` folder beside the content (found upward from the file) wins over dmtool's
    own, so a content repository that keeps its schemas gets short, portable modelines.
    """
    name = f"{kind}.schema.json"
    folder = os.path.abspath(path.parent)
    nearby = next((Path(p) / "schemas" for p in [folder, *map(str, Path(folder).parents)]
                   if (Path(p) / "schemas" / name).is_file()), None)
    # abspath, not resolve: a symlinked schemas/ folder should stay a short relative path.
    schema = os.path.relpath(os.path.abspath((nearby or schema_dir) / name),
                             os.path.abspath(path.parent))
    return MODELINE.format(path=Path(schema).as_posix())


def slug(name: str) -> str:
    """A kebab-case id from a name: 'Ilse Marrow' -> 'ilse-marrow'."""
    text = re.sub(r"[^a-z0-9]+", "-", name.lower().replace("'", "")).strip("-")
    if not text:
        raise UsageError(f"{name!r} makes no id; use letters or digits, e.g. 'Ilse Marrow'")
    return text


def display_name(name: str) -> str:
    """The name as people read it: 'ilse-marrow' -> 'Ilse Marrow'; 'Ilse Marrow' stays."""
    if name == name.lower() and " " not in name:
        return " ".join(part.capitalize() for part in re.split(r"[-_]+", name) if part)
    return name.strip()
