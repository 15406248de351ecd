"""Suite-wide settings: the check cache lives in a temporary folder, never in the repo."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_check_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DMTOOL_CACHE_DIR", str(tmp_path_factory.mktemp("dmtool-cache")))
