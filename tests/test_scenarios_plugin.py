"""The pytest plugin collects fixtures only when the ini option names their folder."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

FIXTURE = """kind: scenario
id: {id}
rules: [R09]
setup:
  wanderers:
    mara:
      sentience: {{red: 2, blue: 1, green: 2, yellow: 1, purple: 1}}
      max_health: 6
      max_mental_capacity: 7
      shard: 1
steps:
  - do: {{wanderer: mara, move: {{to: 2}}}}
expect:
  wanderers.mara.mental_capacity: {mc}
"""


def _installed() -> bool:
    """Whether the package's pytest11 entry point already loads the plugin."""
    from importlib.metadata import entry_points

    return any(e.value == "dmtool.scenarios.pytest_plugin"
               for e in entry_points(group="pytest11"))


# Load the plugin by name only when the installed entry point does not (twice is an error).
PLUGIN = () if _installed() else ("-p", "dmtool.scenarios.pytest_plugin")


def pytest_run(folder: Path, ini: str) -> subprocess.CompletedProcess[str]:
    (folder / "pytest.ini").write_text("[pytest]\n" + ini)
    return subprocess.run(
        [sys.executable, "-m", "pytest",
         "-p", "no:cacheprovider", "-q", "-rs"],
        cwd=folder, capture_output=True, text=True, check=False, timeout=120)


def make(folder: Path) -> None:
    fixtures = folder / "fixtures"
    fixtures.mkdir()
    (fixtures / "good.yaml").write_text(FIXTURE.format(id="good-move", mc=6))
    (fixtures / "bad.yaml").write_text(FIXTURE.format(id="bad-move", mc=2))
    (fixtures / "other.yaml").write_text("kind: coda\nid: not-a-scenario\n")
    (folder / "test_plain.py").write_text("def test_plain():\n    assert True\n")


def test_plugin_collects_when_switched_on(tmp_path: Path) -> None:
    make(tmp_path)
    done = pytest_run(tmp_path, "dmtool_scenarios = fixtures\n")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "1 failed, 2 passed" in done.stdout
    assert "fixtures/bad.yaml" in done.stdout and "expected 2, got 6" in done.stdout


def test_plugin_does_nothing_when_off(tmp_path: Path) -> None:
    make(tmp_path)
    done = pytest_run(tmp_path, "")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout and "failed" not in done.stdout


def test_plugin_selects_by_rule_keyword(tmp_path: Path) -> None:
    make(tmp_path)
    (tmp_path / "pytest.ini").write_text("[pytest]\ndmtool_scenarios = fixtures\n")
    done = subprocess.run(
        [sys.executable, "-m", "pytest",
         "-p", "no:cacheprovider", "-q", "-k", "R09 and good"],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=120)
    assert "1 passed" in done.stdout, done.stdout + done.stderr
