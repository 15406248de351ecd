"""P10 of performance.md: `dmtool fmt --check` on a 15 MB storybook against `dmtool check`.

Both run on the same generated storybook (28,000 entries), each in a fresh process, best
of a few runs. Time is the process's CPU time (user + system), which the shared machine's
load disturbs far less than wall time; memory is the process's peak resident size, taken
from a wrapper process whose only child is the command.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out" / "fmt"
BIN = Path(sys.executable).parent
ENTRIES = 28_000  # about 15 MB of storybook YAML
_MEASURE = (
    "import json, resource, subprocess, sys\n"
    "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
    "used = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(json.dumps([used.ru_utime + used.ru_stime, used.ru_maxrss * 1024]))\n"
)


def measure(command: list[str], *, cwd: Path, runs: int = 2) -> tuple[float, int]:
    """Best CPU seconds and smallest peak resident bytes of `command` over `runs` runs."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    results = []
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-c", _MEASURE, *command], cwd=cwd, env=env,
                              capture_output=True, text=True, check=True)
        results.append(json.loads(done.stdout))
    return min(r[0] for r in results), min(r[1] for r in results)


def storybook() -> Path:
    """The generated 15 MB storybook inside a copy of content/ (built once, then reused)."""
    from bench.corpus import build_corpus

    book = OUT / "content" / "wanderers" / "bench-walker-000" / "storybook.yaml"
    if not book.is_file():
        OUT.mkdir(parents=True, exist_ok=True)
        (OUT / "schemas").unlink(missing_ok=True)
        (OUT / "schemas").symlink_to(ROOT / "schemas")
        build_corpus(OUT / "content", content=ROOT / "content", storybooks=1, entries=ENTRIES)
    return book


def flow_style(book: Path) -> Path:
    """The same storybook's data written as one line of JSON (JSON is YAML flow style), so
    `fmt --check` has to lay out every node anew and prove the data unchanged."""
    other = OUT / "flow-style.yaml"  # outside content/, so check's corpus stays as it was
    if not other.is_file():
        from dmtool.loading import load_text

        loaded = load_text(book.read_text(encoding="utf-8"))
        assert loaded.document is not None
        other.write_text(json.dumps(loaded.document.data, ensure_ascii=False) + "\n",
                         encoding="utf-8")
    return other


def main() -> None:
    dmtool = str(BIN / "dmtool")
    book = storybook()
    relative = book.relative_to(OUT).as_posix()
    size = book.stat().st_size
    check_cpu, check_peak = measure([dmtool, "check", "--no-cache", relative], cwd=OUT)
    fmt_cpu, fmt_peak = measure([dmtool, "fmt", "--check", relative], cwd=OUT)
    print(f"P10 fmt --check on a {size / 1e6:.1f} MB formatted storybook: {fmt_cpu:.1f} s CPU, "
          f"{fmt_peak / 1e6:.0f} MB = {fmt_cpu / check_cpu:.2f} x the time and "
          f"{fmt_peak / check_peak:.2f} x the memory of dmtool check on it ({check_cpu:.1f} s, "
          f"{check_peak / 1e6:.0f} MB) (target: <= 1 x the time, <= 4 x the memory)")
    other = flow_style(book)
    redo_cpu, redo_peak = measure([dmtool, "fmt", "--check", other.relative_to(OUT).as_posix()],
                                  cwd=OUT, runs=1)
    print(f"P10 fmt --check on the same data as one line of JSON ({other.stat().st_size / 1e6:.1f}"
          f" MB; every node laid out anew, the data proved unchanged): {redo_cpu:.1f} s CPU = "
          f"{redo_cpu / check_cpu:.2f} x check, {redo_peak / 1e6:.0f} MB = "
          f"{redo_peak / check_peak:.2f} x")


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    main()
