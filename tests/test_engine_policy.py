"""Policies: scripted answers (strict where no default exists), seeded random, interactive."""

from __future__ import annotations

import pytest

from dmtool.engine.core.policy import REQUIRED
from dmtool.engine.dawn_of_madness import (
    InteractivePolicy,
    Question,
    RandomPolicy,
    ScriptedPolicy,
    ScriptError,
)

TIE = Question(("target",), "who?", ("mara", "ilse"))
DEFEND = Question(("defend",), "defend?", (True, False), default=False)


def test_scripted_answers_match_by_key_and_optional_questions_take_defaults() -> None:
    policy = ScriptedPolicy()
    policy.add({"target": "ilse"}, ("choices", 0))
    assert policy.ask(DEFEND) == ("defend", False)  # not scripted: the default
    assert policy.ask(TIE) == ("target", "ilse")
    assert policy.unused(every=True) == []


def test_required_question_without_answer_fails() -> None:
    with pytest.raises(ScriptError) as problem:
        ScriptedPolicy().ask(TIE)
    assert problem.value.code == "DM406" and "target" in problem.value.message


def test_invalid_answer_fails() -> None:
    policy = ScriptedPolicy()
    policy.add({"target": "tomas"}, ("choices", 0))
    with pytest.raises(ScriptError) as problem:
        policy.ask(TIE)
    assert problem.value.code == "DM408" and problem.value.where == ("choices", 0)


def test_checkpoint_and_restore() -> None:
    policy = ScriptedPolicy()
    policy.add({"target": "mara"}, ("choices", 0), step=1)
    mark = policy.checkpoint()
    policy.ask(TIE)
    assert policy.unused(step=1) == []
    policy.restore(mark)
    assert len(policy.unused(step=1)) == 1


def test_random_policy_is_seeded_and_uses_defaults_as_options() -> None:
    answers = [RandomPolicy(5).ask(TIE) for _ in range(3)]
    assert len(set(answers)) == 1
    picks = {RandomPolicy(seed).ask(DEFEND)[1] for seed in range(20)}
    assert picks == {True, False}
    assert Question(("x",), "free", default=REQUIRED).default is REQUIRED


def test_interactive_policy_asks_again_until_valid() -> None:
    replies = iter([("target", "nobody"), ("target", "mara")])
    policy = InteractivePolicy(lambda q: next(replies))
    assert policy.ask(TIE) == ("target", "mara")
