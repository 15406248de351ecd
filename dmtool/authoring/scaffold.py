"""`dmtool new`: scaffold wanderers, storybooks, chapters and cards that pass `dmtool check`.

A planner (see `_plans`) decides which files to create and which existing documents to
update (a new card is listed on its wanderer, an encounter card gets its storybook
entry). Everything is rendered first, with the schema modeline and through the
formatter, and only then written, each file atomically, so a refusal or a bug writes
nothing. Existing files are never replaced: `dmtool new` only creates files, and edits
the documents it wires a new one into only if they have not changed since it read them.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from dmtool.authoring._scalars import analysed_plain_ok
from dmtool.authoring.fmt import format_text
from dmtool.authoring.keyorder import KeyOrder
from dmtool.errors import UsageError
from dmtool.validation.schemas import default_schema_dir
from dmtool.writing import create_file, rewrite_file

WHAT = ("wanderer", "storybook", "chapter", "card")
DEFAULT_DIRS = {
    "wanderer": Path("content/wanderers"),
    "storybook": Path("content/wanderers"),
    "card": Path("content/wanderers"),
    "chapter": Path("content/deep-madness"),
}
MODELINE = "# yaml-language-server: $schema={path}"
ID_LIMIT = 80  # the schemas' maxLength of an id


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
    # path -> (its bytes as read, its new full text)
    updates: dict[Path, tuple[bytes, str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


@dataclass
class NewResult:
    """What `dmtool new` did."""

    created: list[Path] = field(default_factory=list)
    updated: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    exit_code: int = 0

    def summary(self) -> str:
        lines = [f"created {p.as_posix()}" for p in self.created]
        lines += [f"updated {p.as_posix()}" for p in self.updated]
        lines += [f"note: {n}" for n in self.notes]
        lines.append(f"{len(self.created)} file(s) written, "
                     f"{len(self.updated)} updated. Search them for 'TODO' to fill them in.")
        return "\n".join(lines)


def run_new(options: NewOptions) -> NewResult:
    """Plan, render and write; raises UsageError (writing nothing) if that is not possible."""
    from dmtool.authoring._plans import PLANNERS

    if options.what not in PLANNERS:
        raise UsageError(f"cannot scaffold {options.what!r}; choose one of {', '.join(WHAT)}")
    plan = PLANNERS[options.what](options)
    existing = [f.path for f in plan.files if os.path.lexists(f.path)]
    if existing:
        shown = ", ".join(p.as_posix() for p in existing[:3])
        more = f" and {len(existing) - 3} more" if len(existing) > 3 else ""
        raise UsageError(f"{shown}{more} already exist(s); 'dmtool new' never replaces a file. "
                         "Choose another name, or move the existing files away first")
    order = KeyOrder(options.schema_dir)
    rendered = [(f.path, render(f, schema_dir=options.schema_dir, order=order)) for f in plan.files]
    updated = [(path, before, format_text(text, order=order))
               for path, (before, text) in plan.updates.items()]
    result = NewResult(notes=list(plan.notes))
    for path, text in rendered:
        create_file(path, text)
        result.created.append(path)
    for path, before, text in updated:
        rewrite_file(path, text, expected=before)
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


def slug(name: str, *, limit: int = ID_LIMIT, fallback: str | None = None) -> str:
    """A kebab-case id from a name: 'Ilse Marrow' -> 'ilse-marrow', 'Mârrow' -> 'marrow'.

    Ids (and so file names) stay within `limit` characters: a longer one is cut at a
    hyphen and ends with a short hash of the whole name, so two long names still differ.
    A name with no Latin letters or digits (Hebrew, Greek, ...) gets `fallback` and such a
    hash; without a fallback it is refused. An id YAML would not read as a string
    ('null', '123') gets the fallback (or '-id') after it.
    """
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^a-z0-9]+", "-", plain.lower().replace("'", "")).strip("-")
    if not text:
        if fallback is None or not any(ch.isalnum() for ch in name):
            raise UsageError(f"{name!r} makes no id; use letters or digits, e.g. 'Ilse Marrow'")
        text = f"{fallback}-{_digest(name)}"
    if len(text) > limit:
        cut = text[:limit - len(_digest(name)) - 1]
        text = (cut.rsplit("-", 1)[0] if "-" in cut else cut) + "-" + _digest(name)
    if not analysed_plain_ok(text, flow=True):
        # 'null', 'true', '123', '1e5', 'on': YAML would read such an id as something other
        # than a string wherever it is written plain, so it gets a word after it.
        text = f"{text}-{fallback or 'id'}"
    return text


def _digest(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8")).hexdigest()[:6]


def display_name(name: str) -> str:
    """The name as people read it: 'ilse-marrow' -> 'Ilse Marrow'; 'Ilse Marrow' stays."""
    if name == name.lower() and " " not in name:
        return " ".join(part.capitalize() for part in re.split(r"[-_]+", name) if part)
    return name.strip()
