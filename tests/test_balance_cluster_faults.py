"""`dmtool balance --scheduler`: a scheduler is a service that can fail, and each way it
fails ends soon with one clear sentence, never a traceback; a cluster lost mid-run keeps
the games that finished and says the report is partial (exit 1).

The lost-mid-run tests start a real `dask scheduler` and `dask worker` (processes, no
nanny to restart what the test kills) and kill one of them while dmtool plays.
"""

from __future__ import annotations

import contextlib
import http.server
import io
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from distributed import Client

from dmtool.balance import cluster as cluster_module
from dmtool.cli import main

REPO = Path(__file__).resolve().parents[1]
DASK = Path(sys.executable).parent / "dask"
DMTOOL = Path(sys.executable).parent / "dmtool"
BUDGET = 35  # seconds: what any fault may take to be reported


def _balance(*args: str) -> tuple[int, str, float]:
    """The command as the console runs it (main() turns usage errors into exit 2)."""
    started = time.monotonic()
    out, err = io.StringIO(), io.StringIO()
    with (mock.patch.object(sys, "argv", ["dmtool", "balance", "--games", "40", *args]),
          contextlib.redirect_stdout(out), contextlib.redirect_stderr(err),
          pytest.raises(SystemExit) as exited):
        main()
    return int(exited.value.code or 0), out.getvalue() + err.getvalue(), (
        time.monotonic() - started)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("address", ["not a url", "tcp://10.0.0.5", "http//x:1", "x:99999"])
def test_a_malformed_address_is_a_usage_error(address: str) -> None:
    code, output, _ = _balance("--scheduler", address)
    assert code == 2, output
    assert "is not a scheduler address" in output and "Traceback" not in output


def test_a_refused_port_fails_at_once() -> None:
    code, output, seconds = _balance("--scheduler", f"tcp://127.0.0.1:{_free_port()}")
    assert code == 2 and "cannot reach a Dask scheduler" in output, output
    assert seconds < 5


def test_a_port_of_another_service_fails_within_the_timeout(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cluster_module, "CONNECT_SECONDS", 2)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        code, output, seconds = _balance("--scheduler", f"tcp://127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()
        server.server_close()
    assert code == 2 and "does not answer as a Dask scheduler" in output, output
    assert "Traceback" not in output and seconds < BUDGET


def test_a_listener_that_never_answers_fails_within_the_timeout(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The TCP connection is made (the kernel accepts it into the backlog) but nothing ever
    answers Dask's handshake: the timeout covers the handshake too."""
    monkeypatch.setattr(cluster_module, "CONNECT_SECONDS", 2)
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        code, output, seconds = _balance("--scheduler",
                                         f"tcp://127.0.0.1:{silent.getsockname()[1]}")
    assert code == 2 and "does not answer as a Dask scheduler" in output, output
    assert "Traceback" not in output and seconds < BUDGET


@pytest.fixture
def dask_cluster(tmp_path: Path) -> Iterator[tuple[str, subprocess.Popen[bytes],
                                                 subprocess.Popen[bytes]]]:
    """A scheduler and one worker, as separate processes; killed after the test."""
    env = {**os.environ, "DMTOOL_ENGINE": os.environ.get("DMTOOL_ENGINE", "pure")}
    port = _free_port()
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "env": env, "cwd": REPO}
    scheduler = subprocess.Popen([str(DASK), "scheduler", "--host", "127.0.0.1", "--port",
                                  str(port), "--no-dashboard"], **quiet)  # type: ignore[call-overload]
    address = f"tcp://127.0.0.1:{port}"
    worker = subprocess.Popen([str(DASK), "worker", address, "--nthreads", "1", "--no-nanny",
                               "--no-dashboard"], **quiet)  # type: ignore[call-overload]
    try:
        yield address, scheduler, worker
    finally:
        for process in (worker, scheduler):
            process.kill()
            process.wait(timeout=10)


def _worker_joined(address: str) -> None:
    """Wait until the scheduler knows a worker (the run should not start without one)."""
    with Client(address, timeout=30) as client:
        client.wait_for_workers(1, timeout=60)


def _chunks_finished(address: str, wanted: int, seconds: float) -> None:
    """Wait until the cluster holds `wanted` finished chunks of games (mid-run)."""
    def finished(dask_scheduler: Any) -> int:
        return sum(t.state == "memory" and str(t.key).startswith("play_chunk")
                   for t in dask_scheduler.tasks.values())

    deadline = time.monotonic() + seconds
    with Client(address, timeout=30) as client:
        while client.run_on_scheduler(finished) < wanted:
            assert time.monotonic() < deadline, "no chunk finished on the cluster"
            time.sleep(0.2)


@pytest.mark.parametrize("victim", ["worker", "scheduler"])
def test_a_cluster_lost_mid_run_keeps_the_finished_games(
        dask_cluster: tuple[str, subprocess.Popen[bytes], subprocess.Popen[bytes]],
        victim: str, tmp_path: Path) -> None:
    address, scheduler, worker = dask_cluster
    _worker_joined(address)
    report = tmp_path / "report.json"
    run = subprocess.Popen([str(DMTOOL), "balance", "--games", "100000", "--scheduler",
                            address, "--json", str(report)], cwd=REPO,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _chunks_finished(address, 2, 90)
    killed = time.monotonic()
    (worker if victim == "worker" else scheduler).send_signal(signal.SIGKILL)
    out, err = run.communicate(timeout=120)
    assert time.monotonic() - killed < BUDGET
    stdout, stderr = out.decode(), err.decode()
    assert run.returncode == 1, stdout + stderr
    lost = "every worker" if victim == "worker" else "the scheduler at"
    assert lost in stderr and "the report is partial" in stderr, stderr
    assert "Traceback" not in stderr + stdout
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["interrupted"] and data["lost"] and 0 < data["finished"] < 100000
    assert "interrupted" in stdout.lower()
