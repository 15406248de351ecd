"""Suite-wide settings: the check cache, dmtool's state and daemons live in temporary folders."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from dmtool.commands.rules import register_rules
from dmtool.engine import ENGINE, manifest
from dmtool.packaged import set_author_trees
from tests.site_support import BuiltSite, build_real_site

# Tests drive CheckSession and the pipeline directly, as the CLI does after registering the
# rules that live above validation (the story graph and scenario fixture rules).
register_rules()


def pytest_configure(config: pytest.Config) -> None:
    """Never test a stale compiled engine, nor quietly its fallback: a build older than the
    engine's sources (dmtool/engine/manifest.py) stops the run until it is rebuilt."""
    if os.environ.get(manifest.ENV) == "pure":
        return
    why = manifest.stale()
    if why and manifest.built_files():
        raise pytest.UsageError(
            "the compiled engine is older than its sources (" + "; ".join(why[:3]) + "): "
            "rebuild it with `make test` or `.venv/bin/python dmtool/engine/build.py`, "
            f"remove it with `--clean`, or set {manifest.ENV}=pure to test the pure engine")


def pytest_report_header() -> str:
    return f"dmtool engine: {ENGINE} ({manifest.running()} modules loaded)"


@pytest.fixture(autouse=True)
def _private_check_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DMTOOL_CACHE_DIR", str(tmp_path_factory.mktemp("dmtool-cache")))
    # Journals of temporaries (dmtool.writing) stay out of the user's own state folder.
    monkeypatch.setenv("DMTOOL_STATE_DIR", str(tmp_path_factory.getbasetemp() / "dmtool-state"))
    # A daemon the developer runs (dmtool daemon) never answers the suite's checks, and
    # the suite's own daemons stay out of the user's socket folder. (A short path: sockets'
    # paths are limited to 107 bytes.)
    monkeypatch.setenv("DMTOOL_DAEMON_DIR", str(tmp_path_factory.getbasetemp() / "daemons"))


@pytest.fixture(autouse=True)
def _default_author_trees() -> Iterator[None]:
    """Each test starts from the default content and schemas: a command run in process
    keeps the configured trees of the folder it ran in for the rest of the process (the
    CLI sets them once per command, dmtool/packaged.py), which would otherwise follow the
    worker into the next tests."""
    set_author_trees(schemas=None, content=None)
    yield
    set_author_trees(schemas=None, content=None)


@pytest.fixture(scope="session")
def real_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The site of the real content/ and docs/, built once for every test that reads it."""
    return build_real_site(tmp_path_factory)
