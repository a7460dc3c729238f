"""lesson/grader/judge.py: a learner's outcomes against the lesson's own answers.

The judge reads plain data and never runs a learner's line, so these tests
call functions of the tests' own in this process (as the checker's worker
does, through the harness) and judge what they return.  What a learner's
whole file earns, through the command line, is in test_exercise.py.
"""

import json
import math

import pytest

import lesson
from lesson.grader import contract, judge

from helpers import call_check     # a check's input, called in this process


# --- One source of truth: the lesson's own code passes its own checks -------

@pytest.mark.parametrize("check_", contract.CHECKS, ids=lambda c: f"{c.function}: {c.name}")
def test_the_lessons_own_functions_pass_every_check(check_):
    outcome = call_check(getattr(lesson, check_.function), check_)
    passed, got, expected = judge.judge(check_, outcome)
    assert passed, (got, expected)


def test_checks_cover_the_contract():
    names = {(c.function, c.kind) for c in contract.CHECKS}
    assert {f for f, _ in names} == set(contract.FUNCTIONS)
    assert ("softmax", "raises") in names and ("naive_softmax", "fails") in names
    assert judge.expected(contract.CHECKS[0])[0] == 0.67          # the lesson's 0.670
    assert next(c for c in contract.CHECKS if c.kind == "sums").total == 2.0


def test_only_a_loud_failure_or_inf_nan_counts_as_failing():
    fails = next(c for c in contract.CHECKS if c.kind == "fails")

    def outcome(function):
        return call_check(function, fails)
    assert judge.judge(fails, outcome(lambda x: [math.exp(s) for s in x]))[0]
    assert judge.judge(fails, outcome(lambda x: [math.nan, math.nan]))[0]
    assert not judge.judge(fails, outcome(lambda x: undefined_name))[0]  # noqa: F821
    for not_a_number in ("TODO", (s for s in [1.0]), [json]):
        assert not judge.judge(fails, outcome(lambda x: not_a_number))[0]
    assert not judge.judge(fails, outcome(lambda x: [0.5, 0.5]))[0]


def test_a_value_error_subclass_is_a_value_error():
    raises = next(c for c in contract.CHECKS if c.kind == "raises")

    class Masked(ValueError):
        pass

    def softmax(x, axis=-1):
        raise Masked("no visible key")
    assert judge.judge(raises, call_check(softmax, raises))[0]
