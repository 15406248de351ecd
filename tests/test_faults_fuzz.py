"""A fuzz of content files: 2,000 seeded mutations, each checked as the live check does
(issue #31, "a fault test suite").

Each mutant of a real content file is checked in process (loading, its schema, and for every
RULES_EVERY-th mutant the rules over the whole tree), within a deadline only a hang (or time
growing with the square of the input) crosses. Nothing may raise, and every finding is
located in the file. The mutations are what careless editing and hostile pasting make:
brackets nested deep, very long lines, cut and duplicated lines, stray indicators, bytes
YAML does not allow. The seed is fixed: the same mutants every run.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from fault_support import deadline

from dmtool.lsp.session import CheckSession

ROOT = Path(__file__).resolve().parents[1]
WANDERER = ROOT / "content" / "wanderers" / "hollis-brandt"
MUTANTS = int(os.environ.get("FB_MUTANTS", "2000"))
# The corpus rules run over every RULES_EVERY-th mutant (the rest are checked file by
# file): the whole fuzz stays well under a minute on a loaded two-core machine.
RULES_EVERY = 50
# Pieces a mutation pastes in: YAML's indicators, and what costs a careless parser most.
_PASTED = [
    "[" * 100_000 + "]" * 100_000, "{a: " * 5_000, "[" * 3_000, "]]]}}}", "&anchor ",
    "*alias", "!!str ", "? ", ": ", "- ", "|", ">-", "#", "'", '"', "%YAML 1.2\n---\n",
    "\t", "\x00", "\x07", "\ufeff", "\u2028", "1_000", "0b101", "{url: http://x}",
    "x" * 300_000, "k" * 2_000 + ": v", "\\", "é", "\U0001f600", "\r",
]


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    where = rng.randrange(len(lines))
    operation = rng.randrange(8)
    if operation == 0:  # paste into a line
        line = lines[where]
        cut = rng.randrange(len(line) + 1)
        lines[where] = line[:cut] + rng.choice(_PASTED) + line[cut:]
    elif operation == 1:  # cut a stretch of lines
        del lines[where:where + rng.randint(1, 20)]
    elif operation == 2:  # duplicate a line (a key twice, an entry twice)
        lines.insert(where, lines[where])
    elif operation == 3:  # indent or outdent a line
        lines[where] = " " * rng.randint(0, 9) + lines[where].lstrip(" ")
    elif operation == 4:  # end the file anywhere
        return text[:rng.randrange(len(text) + 1)]
    elif operation == 5:  # swap two lines
        other = rng.randrange(len(lines))
        lines[where], lines[other] = lines[other], lines[where]
    elif operation == 6:  # replace a value
        line = lines[where]
        if ": " in line:
            lines[where] = line.split(": ", 1)[0] + ": " + rng.choice(_PASTED + ["", "7"])
    else:  # several mutations at once
        for _ in range(rng.randint(2, 4)):
            text = _mutate(text, rng)
        return text
    return "\n".join(lines)


@pytest.fixture(scope="module")
def session() -> CheckSession:
    checked = CheckSession()
    checked.load([WANDERER])
    checked.diagnostics()
    return checked


def test_two_thousand_mutants_are_checked_in_time_and_reported_in_their_file(
        session: CheckSession) -> None:
    rng = random.Random(31)
    files = sorted(path for path in WANDERER.rglob("*.yaml"))
    originals = {path: path.read_text(encoding="utf-8") for path in files}
    for number in range(MUTANTS):
        path = rng.choice(files)
        mutant = _mutate(originals[path], rng)
        with deadline(10, f"mutant {number} of {path.name}"):
            session.update(path, mutant)
            if number % RULES_EVERY == 0:
                session.diagnostics()
        # (the end of a text cut short is reported on the line after its last one)
        lines = mutant.count("\n") + 2
        for diagnostic in session.files[path].result.diagnostics:
            place = diagnostic.location
            assert 1 <= place.line <= lines and place.column >= 1, (number, diagnostic)
        session.update(path, originals[path])
