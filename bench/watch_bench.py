"""P2b in the live session: one storybook edited and re-checked by the session that
`dmtool check --watch` and the language server keep (dmtool/lsp/watch.py). Nothing that
did not change is read again; the rules that read storybooks run again (the changed
book's analysis included), the others' findings are reused (validation/rules/reads.py).

Usage: python bench/watch_bench.py CONTENT STORYBOOK [--runs N]
Prints the best wall time of one re-check in seconds, then the diagnostics' count, which
must equal a fresh `dmtool check` of the edited tree (bench/run.py compares them).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run as a script too

from bench.corpus import edit_prose
from dmtool.loading.collector import settle_lasting_state
from dmtool.lsp.watch import Watcher


def measure(content: Path, book: Path, runs: int) -> tuple[float, int]:
    """(best seconds of a re-check after an edit of `book`, diagnostics after the last)."""
    watcher = Watcher((content,))
    watcher.start()
    settle_lasting_state()  # as `dmtool check --watch` and the language server do
    best = float("inf")
    found = 0
    try:
        for attempt in range(runs):
            edit_prose(book, 1000 + attempt)  # texts no earlier run has seen
            start = time.perf_counter()
            run = watcher.changed([book])
            best = min(best, time.perf_counter() - start)
            found = len(run.report.diagnostics)
    finally:
        gc.unfreeze()  # called in-process (a test), the caller's objects are its own again
    return best, found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("content", type=Path)
    parser.add_argument("storybook", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    best, found = measure(args.content.resolve(), args.storybook.resolve(), args.runs)
    print(f"{best:.4f} {found}")


if __name__ == "__main__":
    main()
