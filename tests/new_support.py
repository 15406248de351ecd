"""Running `dmtool new` in a throwaway project (shared by the `new` tests)."""

from __future__ import annotations

from pathlib import Path

from dmtool.authoring import NewOptions, run_new

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"


def empty_project(root: Path) -> Path:
    """An empty project at `root`: content/wanderers/ next to a schemas/ link, like the
    repository."""
    (root / "schemas").symlink_to(SCHEMAS)
    (root / "content" / "wanderers").mkdir(parents=True)
    return root


def new(tree: Path, what: str, name: str, **options: object) -> list[Path]:
    """`dmtool new WHAT NAME` in the project `tree`; the files it created or updated."""
    folder = "deep-madness" if what == "chapter" else "wanderers"
    result = run_new(NewOptions(what=what, name=name, directory=tree / "content" / folder,
                                schema_dir=tree / "schemas", **options))  # type: ignore[arg-type]
    assert result.exit_code == 0
    return result.created + result.updated
