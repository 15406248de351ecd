"""`dmtool balance --scheduler`: a small sweep on a Dask cluster started inside the test on
127.0.0.1 gives exactly the report of the local pool."""

from __future__ import annotations

import json
import socket

import pytest
from distributed import LocalCluster

from dmtool.balance import cluster as cluster_module
from dmtool.balance.run import BalanceOptions, run_balance
from dmtool.errors import UsageError
from dmtool.model.content_index import default_content_dir

SWEEP = {"games": 25, "policies": ("random", "greedy"), "players": (1, 3)}


def test_a_sweep_on_a_local_dask_cluster_matches_the_local_pool() -> None:
    with LocalCluster(host="127.0.0.1", n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as dask:
        remote = run_balance(BalanceOptions(content=default_content_dir(),
                                            scheduler=dask.scheduler_address, **SWEEP))
    local = run_balance(BalanceOptions(content=default_content_dir(), jobs=2, **SWEEP))
    assert remote.workers.startswith("the Dask cluster at tcp://127.0.0.1:")
    assert len(remote.report["configurations"]) == 4
    assert json.dumps(remote.report, sort_keys=True) == json.dumps(local.report, sort_keys=True)


def test_an_unreachable_scheduler_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setattr(cluster_module, "CONNECT_SECONDS", 1)
    with pytest.raises(UsageError, match="cannot reach a Dask scheduler"):
        run_balance(BalanceOptions(content=default_content_dir(), games=1,
                                   scheduler=f"tcp://127.0.0.1:{port}"))
