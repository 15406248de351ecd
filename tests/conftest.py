"""Suite-wide settings: the check cache and dmtool's state live in temporary folders."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_check_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DMTOOL_CACHE_DIR", str(tmp_path_factory.mktemp("dmtool-cache")))
    # Journals of temporaries (dmtool.writing) stay out of the user's own state folder.
    monkeypatch.setenv("DMTOOL_STATE_DIR", str(tmp_path_factory.getbasetemp() / "dmtool-state"))
