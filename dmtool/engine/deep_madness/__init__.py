"""Deep Madness (Madness Reborn, Rise of Dagon) on the shared core: a chapter's state built
from content and a described setup, the chapter vocabulary's interpreter, and the rules
R49-R55. Importing the package registers every rule (through `engine`)."""

from __future__ import annotations

from dmtool.engine.deep_madness.catalog import ChapterCatalog
from dmtool.engine.deep_madness.dice import ScriptedDice
from dmtool.engine.deep_madness.engine import Applied, Rejected, apply
from dmtool.engine.deep_madness.errors import REJECTIONS, Reject
from dmtool.engine.deep_madness.registry import GAME, RULES
from dmtool.engine.deep_madness.state import ChapterState
from dmtool.engine.deep_madness.steps import Step, parse_step

__all__ = ["GAME", "REJECTIONS", "RULES", "Applied", "ChapterCatalog", "ChapterState",
           "Reject", "Rejected", "ScriptedDice", "Step", "apply", "parse_step"]
