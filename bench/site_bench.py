"""P9: `dmtool site` on the real content/, branch pictures included (what `make site` runs)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "out" / "site-bench"
TARGET_SECONDS = 20.0


def main() -> None:
    dmtool = str(Path(sys.executable).parent / "dmtool")
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    times = []
    for _ in range(2):
        start = time.perf_counter()
        done = subprocess.run([dmtool, "site", str(ROOT / "content"), "-o", str(OUT / "site")],
                              cwd=ROOT, capture_output=True, text=True, check=False)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            print(f"P9 make site: failed (exit {done.returncode}): {done.stderr.strip()[-300:]}")
            return
    pictures = len(list((OUT / "site").rglob("maps/*.svg")))
    pages = len(list((OUT / "site").rglob("*.html")))
    best = min(times)
    print(f"P9 make site on content/: {best:.1f} s best of {len(times)} "
          f"({pages} HTML pages, {pictures} branch pictures drawn) (target < {TARGET_SECONDS:.0f} s)")


if __name__ == "__main__":
    main()
