"""Running MkDocs on generated pages and putting the result in place without half-built sites.

Pages and the MkDocs configuration go to a private temporary folder; MkDocs builds into a
`<out>.tmp-XXXX` folder next to the output, which then replaces the output folder in two
renames. Only a folder that is empty or carries dmtool's marker file is ever replaced.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import MkDocsException

from dmtool.errors import DmtoolError, UsageError
from dmtool.sitegen.config import ASSETS, HOOKS, mkdocs_config
from dmtool.sitegen.pages import Nav, Page

MARKER = ".dmtool-site"
MARKER_TEXT = ("This folder was built by 'dmtool site'. The whole folder is replaced on every "
               "build; do not keep your own files in it.\n")
# The site's own scripts, styles and vendored libraries, copied into every build.
ASSET_SOURCE = Path(__file__).resolve().parent / "assets"
HOOKS_TEXT = ('"""MkDocs hooks of a dmtool site (see dmtool.sitegen.hooks)."""\n'
              "from dmtool.sitegen.hooks import on_page_content  # noqa: F401\n")


class SiteBuildError(DmtoolError):
    """MkDocs refused the generated pages (strict mode: a broken link or anchor, ...)."""


def check_output(out: Path, *, force: bool, protected: tuple[Path, ...]) -> None:
    """Refuse outputs that would replace something that is not a dmtool site."""
    resolved = out.resolve()
    for path in protected:
        inside = path.resolve()
        if resolved == inside or resolved in inside.parents:
            raise UsageError(f"cannot build the site into {out.as_posix()}: it holds "
                             f"{path.as_posix()}, which the build would replace; choose another "
                             "folder with -o, e.g. -o site")
    if out.is_symlink() or (out.exists() and not out.is_dir()):
        raise UsageError(f"{out.as_posix()} exists and is not a folder; remove it or choose "
                         "another output folder with -o")
    if out.is_dir() and not force and not (out / MARKER).is_file() and any(out.iterdir()):
        raise UsageError(f"{out.as_posix()} is not empty and was not built by dmtool (it has "
                         f"no {MARKER} file); empty it, choose another folder with -o, or "
                         "pass --force to replace it")


def build_site(pages: list[Page], nav: Nav, *, out: Path, dry_run: bool) -> list[str]:
    """Build the pages with MkDocs into `out` (or only into a temporary folder when
    `dry_run`); returns MkDocs' warnings as plain messages."""
    with tempfile.TemporaryDirectory(prefix="dmtool-site-src-") as source:
        config = _write_sources(Path(source), pages, nav)
        # Staged beside the output so the final rename stays on one file system; a dry run
        # stages in the private temporary folder and so writes nothing else at all.
        parent = Path(source) if dry_run else out.parent
        parent.mkdir(parents=True, exist_ok=True)
        # Absolute: MkDocs reads a relative site_dir against its config file's folder.
        staging = Path(tempfile.mkdtemp(prefix=f"{out.name}.tmp-", dir=parent.resolve()))
        staging.chmod(0o755)  # mkdtemp's 0700 would hide the site from a web server
        try:
            messages = _mkdocs(config, staging)
            (staging / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
            if not dry_run:
                _replace(staging, out)
        finally:
            if staging.exists():
                shutil.rmtree(staging)
    return messages


def _write_sources(root: Path, pages: list[Page], nav: Nav) -> Path:
    docs = root / "docs"
    for page in pages:
        target = docs / page.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(page.text, encoding="utf-8")
    shutil.copytree(ASSET_SOURCE, docs / ASSETS, ignore=shutil.ignore_patterns("*.md"))
    (root / HOOKS).write_text(HOOKS_TEXT, encoding="utf-8")
    path = root / "mkdocs.yml"
    # JSON is YAML, and json.dumps quotes every authored string safely.
    path.write_text(json.dumps(mkdocs_config(nav), indent=2), encoding="utf-8")
    return path


def _mkdocs(config_file: Path, site_dir: Path) -> list[str]:
    with _captured_logs() as messages:
        try:
            config = load_config(config_file=str(config_file), site_dir=str(site_dir))
            build(config)
        except MkDocsException as error:
            found = "; ".join(messages) or str(error)
            raise SiteBuildError(f"MkDocs could not build the site: {found}") from None
    return messages


@contextmanager
def _captured_logs() -> Iterator[list[str]]:
    """MkDocs logs to the 'mkdocs' logger; keep its warnings as messages, print nothing."""
    messages: list[str] = []

    class _Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.levelno >= logging.WARNING:
                messages.append(record.getMessage())

    logger = logging.getLogger("mkdocs")
    handler = _Collect()
    saved = (logger.handlers[:], logger.propagate, logger.level)
    logger.handlers = [handler]
    logger.propagate = False
    logger.setLevel(logging.WARNING)
    try:
        yield messages
    finally:
        logger.handlers, logger.propagate = saved[0], saved[1]
        logger.setLevel(saved[2])


def _replace(staging: Path, out: Path) -> None:
    """Swap the new site in: old output aside, new one in place, old one deleted."""
    if not out.exists():
        os.replace(staging, out)
        return
    old = Path(tempfile.mkdtemp(prefix=f"{out.name}.old-", dir=out.parent))
    os.replace(out, old / "site")
    try:
        os.replace(staging, out)
    except OSError:
        os.replace(old / "site", out)  # put the previous site back before giving up
        raise
    finally:
        shutil.rmtree(old, ignore_errors=True)
