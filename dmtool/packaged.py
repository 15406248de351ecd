"""Where the schemas and the games' own content that ship with dmtool are.

A built distribution carries them as package data under `dmtool/_data/` (setup.py copies
`schemas/` and the games' folders of `content/` there); a source checkout, installed
editable, reads them where they are, beside the package. Either way the checker, the
engine and the site find the same files, so an author's repository needs neither.
"""

from __future__ import annotations

from collections.abc import Iterable
from hashlib import blake2b
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_DATA = _PACKAGE / "_data"
# The games shipped as content: folders of `content/`, each one game's own documents.
GAME_FOLDERS = ("dawn-of-madness", "deep-madness")


class _Chosen:
    """The author's own trees, when the configuration names them (set_author_trees)."""

    schemas: Path | None = None
    content: Path | None = None


def set_author_trees(*, schemas: Path | None, content: Path | None) -> None:
    """The author's schemas/ and content/ for this process (the CLI sets them from the
    configuration's `schemas` and `content` keys); None leaves the default."""
    _Chosen.schemas, _Chosen.content = schemas, content


def set_content_tree(content: Path) -> None:
    """The content tree for this process, as a command's --content names it (the
    configured schemas stay)."""
    _Chosen.content = content


def schema_dir() -> Path:
    """The schemas every command checks with: the configured folder; else a `schemas/`
    of the working folder that holds dmtool's kinds (the author's own copy, which takes
    precedence); else the packaged ones."""
    if _Chosen.schemas is not None:
        return _Chosen.schemas
    local = Path("schemas")
    if (local / "wanderer.schema.json").is_file():
        return local.resolve()
    return packaged_schema_dir()


def content_dir() -> Path:
    """The content tree when none is given: the configured folder; else `content/` of
    the working folder; else the packaged games' folder. The packaged games lie
    underneath whichever it is (games_underneath)."""
    if _Chosen.content is not None:
        return _Chosen.content
    local = Path("content")
    return local.resolve() if local.is_dir() else packaged_content_dir()


def checkout_content(path: Path) -> Path:
    """A content folder, or a checkout (such as a git worktree) that holds one."""
    return path / "content" if (path / "content").is_dir() else path


def games_underneath(roots: list[Path]) -> list[Path]:
    """The packaged games an author's content roots lack: each game's folder, unless a
    root has its own folder of that name (the author's copy takes precedence)."""
    if not roots:
        return []
    resolved = [root.resolve() for root in roots]
    found: list[Path] = []
    for game in packaged_games():
        if any(game == root or game.is_relative_to(root) or root.is_relative_to(game)
               or (root / game.name).is_dir() for root in resolved):
            continue
        found.append(game)
    return found


def packaged_schema_dir() -> Path:
    """The schemas dmtool was built with."""
    inside = _DATA / "schemas"
    return inside if inside.is_dir() else _PACKAGE.parent / "schemas"


def packaged_content_dir() -> Path:
    """The folder that holds the games' own content (GAME_FOLDERS) dmtool was built with."""
    inside = _DATA / "content"
    return inside if inside.is_dir() else _PACKAGE.parent / "content"


def packaged_games() -> list[Path]:
    """The games' own content folders, those present."""
    root = packaged_content_dir()
    return [root / name for name in GAME_FOLDERS if (root / name).is_dir()]


def content_digest(roots: Iterable[Path]) -> str:
    """A short digest of every YAML file under the folders (their paths relative to their
    folder, and their bytes): names one state of a content tree in reports and versions."""
    digest = blake2b(digest_size=6)
    for root in roots:
        files = sorted(root.rglob("*.y*ml")) if root.is_dir() else [root]
        for path in files:
            if path.suffix not in (".yaml", ".yml") or not path.is_file():
                continue
            name = path.relative_to(root).as_posix() if root.is_dir() else path.name
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def version_line(version: str) -> str:
    """`dmtool --version`: dmtool's version and that of the games' content it carries (the
    same release, and a digest that tells two builds of its content apart)."""
    games = packaged_games()
    names = ", ".join(game.name for game in games) or "none"
    return (f"dmtool, version {version}\ncontent {version}+{content_digest(games)} ({names}), "
            f"from {packaged_content_dir()}")
