"""Every verdict of impossibility `dmtool graph --format json` states carries a certificate,
and an independent checker (tests/certificate_checker.py: its own YAML reading, branch walk
and concrete evaluation of conditions) accepts each one: the closure it names holds every
root that can enter play and everything their branches lead to, and each claim follows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dmtool.model.content_index import default_content_dir
from dmtool.storygraph.commands import GraphOptions, run_graph
from tests.certificate_checker import (
    Content,
    Ranges,
    branches,
    check_closure,
    check_floors,
    check_knowledge,
    outcomes,
    taken,
)

CASES = Path(__file__).parent / "cases"
# The story graph's cases and their look-alikes (other codes' look-alikes hold no storybook).
FOLDERS = sorted(p for p in CASES.iterdir() if p.is_dir() and (
    p.name[:5] in ("DM303", "DM305", "DM307", "DM309", "DM315")
    or (p.name.startswith("legal-") and (p / "storybook.yaml").is_file())))
SAMPLE = default_content_dir() / "wanderers" / "hollis-brandt" / "storybook.yaml"
IMPOSSIBLE = {"DM303", "DM305", "DM307", "DM309", "DM315"}


def _certified(root: Path, book: Path) -> tuple[dict[str, Any], list[str]]:
    # A case folder is analysed as `dmtool check .` does it: the folder is the content tree.
    target = book if root == default_content_dir() else root
    data = json.loads(run_graph(GraphOptions(paths=(target,), fmt="json")).text)
    [found] = data["storybooks"]
    return found["certificates"], [f["code"] for f in found["findings"]]


def _recheck(root: Path, book: Path) -> list[str]:
    certificates, codes = _certified(root, book)
    content = Content(root, book)
    closure = certificates["closure"]
    ranges = Ranges(closure["ranges"], set(closure["codas"]), set(closure["reached"]),
                    closure["rounds"], closure["floors"], closure["ending_of"], closure["must"])
    reached = set(closure["reached"]) | set(closure["blocks"])
    roots = list(content.stage_roots())
    for letter in content.endings:
        roots += list(content.finale_roots(letter))
    problems = check_closure(content, reached, roots, ranges, awards=False)
    stage = set(closure["stage"]) | ({"setup"} & set(closure["blocks"]))
    problems += check_closure(content, stage, list(content.stage_roots()), ranges)
    problems += check_floors(content, closure)
    problems += check_knowledge(content, reached, roots, ranges, stage)
    for letter in content.endings:  # each finale's own closure (the floors rest on them)
        finale = set(closure["finale"][letter]) | {f"{letter}:setup", f"{letter}:event"}
        problems += check_closure(content, finale, list(content.finale_roots(letter)), ranges,
                                  awards=False)
    verdicts = certificates["verdicts"]
    # Every code of impossibility the analysis reports has a certificate behind it.
    problems += [f"{c} reported without a certificate" for c in set(codes) & IMPOSSIBLE
                 if not any(v["code"] == c for v in verdicts)]
    for verdict in verdicts:
        code = verdict["code"]
        if code == "DM303" and verdict["entry"] in reached:
            problems.append(f"entry {verdict['entry']} is in the closure")
        elif code == "DM305":
            letter = verdict["ending"]
            finale = set(closure["finale"][letter])
            if verdict["entry"] in finale:
                problems.append(f"conclusion {verdict['entry']} is in ending {letter}'s finale")
        elif code == "DM307":
            members = set(verdict["entries"])
            for node in members:
                for conds, kind, target, _, _ in branches(content.effects(node)):
                    if not taken(conds, ranges.reading(content, node)):
                        continue
                    if kind != "goto" or target not in members:
                        problems.append(f"entry {node} of the loop leaves it ({kind} {target})")
        elif code == "DM309" and verdict["coda"] in closure["codas"]:
            problems.append(f"coda {verdict['coda']} is among the closure's codas")
        elif code == "DM315":
            premises = Ranges({p["quantity"]: p["range"] for p in verdict["premises"]
                               if "quantity" in p}, None, None)
            for premise in verdict["premises"]:
                if "flag" in premise:
                    problems += _flag_premise(premise, ranges, closure)
                    premises.fixed[premise["flag"]] = premise["value"]
            if outcomes(verdict["condition"], premises) != {verdict["always"]}:
                problems.append(f"the condition {verdict['condition']} can change")
    return problems


def _flag_premise(premise: dict[str, Any], ranges: Ranges, closure: dict[str, Any]) -> list[str]:
    """A flag a DM315 certificate settles: true when every way to its node surely did it
    (the knowledge check_knowledge verifies), false when the closure never does it."""
    name, _, value = premise["flag"].partition(" ")
    held, seen = ranges.knows(premise["node"]) if premise["node"] is not None else ((), ())
    if premise["value"] is True and (
            (name == "has_coda" and value in held)
            or (name == "visited" and int(value) in seen)):
        return []
    if premise["value"] is False and (
            (name == "has_coda" and value not in closure["codas"])
            or (name == "visited" and int(value) not in closure["reached"])):
        return []
    return [f"the premise {premise} does not follow"]


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_each_case_folders_certificates_check(folder: Path) -> None:
    assert _recheck(folder, folder / "storybook.yaml") == []


def test_the_samples_certificates_check() -> None:
    assert _recheck(default_content_dir(), SAMPLE) == []


def test_the_checker_refuses_a_false_certificate(tmp_path: Path) -> None:
    """The checker is not a rubber stamp: a closure that leaves out a linked entry, or a
    condition said never true that can be, is refused."""
    folder = CASES / "DM303-unlinked"
    content = Content(folder, folder / "storybook.yaml")
    ranges = Ranges({"round": [1, 10]}, set(), set())
    assert check_closure(content, set(), list(content.stage_roots()), ranges) != []
    # Rounds that do not hold a root's are refused too: round 2's event read in round 1.
    folder = CASES / "DM315-round-context"
    content = Content(folder, folder / "storybook.yaml")
    members = {n for n in content.entries if n != 40}
    narrow = Ranges({}, set(), set(members), {str(n): [1, 1] for n in members})
    assert any("outside" in p for p in check_closure(
        content, members, list(content.stage_roots()), narrow))
    assert outcomes({"score_at_least": {"D": 2}}, Ranges({"score D": [0, 5]}, None, None)) == {
        False, True}
    assert outcomes({"score_at_least": {"D": 2}}, Ranges({"score D": [0, 1]}, None, None)) == {
        False}
