"""Running MkDocs on generated pages and putting the result in place without half-built sites.

Pages and the MkDocs configuration go to a private temporary folder (journaled, so the next
dmtool removes it after a kill); MkDocs builds into a
temporary folder beside the output, which `dmtool.writing.replace_folder` then swaps in.
Only a folder that is missing, empty or marked as an earlier dmtool site is ever replaced,
and never one holding content, docs/, schemas/, project files or version control.
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.exceptions import MkDocsException

from dmtool.errors import DmtoolError
from dmtool.sitegen.config import ASSETS, HOOKS, mkdocs_config
from dmtool.sitegen.pages import Nav, Page
from dmtool.writing import Marker, check_folder, private_folder, replace_folder

MARKER = ".dmtool-site"
MARKER_TEXT = ("This folder was built by 'dmtool site'. The whole folder is replaced on every "
               "build; do not keep your own files in it.\n")
SITE_MARKER = Marker(MARKER, MARKER_TEXT)
# The site's own scripts, styles and vendored libraries, copied into every build.
ASSET_SOURCE = Path(__file__).resolve().parent / "assets"
HOOKS_TEXT = ('"""MkDocs hooks of a dmtool site (see dmtool.sitegen.hooks)."""\n'
              "from dmtool.sitegen.hooks import on_page_content, on_post_page  # noqa: F401\n")


class SiteBuildError(DmtoolError):
    """MkDocs refused the generated pages (strict mode: a broken link or anchor, ...)."""


def check_output(out: Path, *, force: bool, protected: tuple[Path, ...]) -> None:
    """Refuse outputs that would replace something that is not a dmtool site."""
    check_folder(out, marker=SITE_MARKER, force=force, keep=protected)


def build_site(pages: list[Page], nav: Nav, *, out: Path, dry_run: bool, force: bool = False,
               protected: tuple[Path, ...] = ()) -> list[str]:
    """Build the pages with MkDocs into `out` (or only into a temporary folder when
    `dry_run`); returns MkDocs' warnings as plain messages."""
    with private_folder() as source:
        config = _write_sources(source, pages, nav)
        if dry_run:  # MkDocs builds into the private folder: nothing else is written
            return _mkdocs(config, source / "site")
        return replace_folder(out, lambda folder: _mkdocs(config, folder),
                              marker=SITE_MARKER, force=force, keep=protected)


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
    # Absolute: MkDocs reads a relative site_dir against its config file's folder.
    site_dir = site_dir.resolve()
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
