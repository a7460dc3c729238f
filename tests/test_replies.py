"""What a worker says is believed only in the shapes the harness writes
(lesson.grader.replies): every reply the harness gives fits; the forgeries a
learner's code can send do not; and whatever fits is judged and shown in
every format without an error, since the tests draw their replies from the
same shapes the checker reads them by."""

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from lesson.grader import formats, harness, plan as planning, process, replies, report
from lesson.grader.contract import CHECKS, TIME_LIMIT
from lesson.grader.replies import (SHAPES, Among, Either, Kind, ListOf, MapOf, Named, Pair,
                                   Record, Within)


def drawn(shape, depth=0):
    """A Hypothesis strategy for the values that fit ``shape``."""
    if isinstance(shape, Kind):
        return st.one_of([{str: st.text(max_size=30),
                           int: st.integers(-5, 10 ** 20) | st.just(-10 ** 400),
                           float: st.floats(), bool: st.booleans(),
                           type(None): st.none()}[kind] for kind in shape.types])
    if isinstance(shape, Within):
        return st.integers(shape.low, min(shape.high - 1, shape.low + 10 ** 6)) | st.just(
            shape.high - 1)
    if isinstance(shape, Among):
        return st.sampled_from(sorted(value + "" for value in shape.values))   # plain str, as JSON gives
    if isinstance(shape, Either):
        return st.one_of([drawn(s, depth) for s in shape.shapes
                          if depth < 3 or not isinstance(s, (ListOf, Named))])
    if isinstance(shape, ListOf):
        return st.lists(drawn(shape.item, depth + 1), max_size=3 if depth < 3 else 0)
    if isinstance(shape, MapOf):
        return st.dictionaries(st.text(max_size=10), drawn(shape.item, depth + 1), max_size=3)
    if isinstance(shape, Pair):
        return st.tuples(st.text(max_size=10), drawn(shape.item, depth + 1)).map(list)
    if isinstance(shape, Named):
        return st.deferred(lambda: drawn(SHAPES[shape.name], depth + 1))
    assert isinstance(shape, Record), shape
    optional = {k: v for k, v in shape.optional.items() if k not in shape.one_of}
    base = st.fixed_dictionaries({k: drawn(v, depth + 1) for k, v in shape.needed.items()},
                                 optional={k: drawn(v, depth + 1) for k, v in optional.items()})
    if not shape.one_of:
        return base
    one = st.sampled_from(shape.one_of).flatmap(
        lambda key: drawn(shape.optional[key], depth + 1).map(lambda v: {key: v}))
    return st.tuples(base, one).map(lambda pair: {**pair[0], **pair[1]})


def graded(load, outcomes, trace):
    """Drive a plan with these replies, as a worker's would come; judge the
    file and show it in every format."""
    plan = planning.Plan(TIME_LIMIT, CHECKS)
    step, answers = plan.next(), iter(outcomes)
    while step["do"] != "done":
        event = {"seconds": 0.01}
        if step["do"] == "load":
            event["loaded"] = load
        elif step["do"] in ("call", "trace"):
            event["reply"] = {"token": step["token"], "outcome": next(answers, outcomes[0])}
            if step["do"] == "trace":
                event["reply"]["trace"] = trace
        step = plan.next(event)
    result = dict(process.judged(plan.load, plan.outcomes, TIME_LIMIT, CHECKS, "mine.py"),
                  sandbox="bwrap", seed=1, seconds=0.1)
    report.wrapped(report.records(result), 80)
    json.dumps([formats.gradescope(result), formats.prairielearn(result),
                formats.exercism(result, TIME_LIMIT)])
    formats.junit([result], TIME_LIMIT)
    return result


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(load=drawn(SHAPES["load_record"]), outcomes=st.lists(drawn(SHAPES["outcome_record"]),
                                                            min_size=1, max_size=6),
       trace=drawn(SHAPES["trace"]))
def test_whatever_fits_is_judged_and_shown_in_every_format(load, outcomes, trace):
    assert replies.load(load) == load and all(map(replies.outcome, outcomes))
    result = graded(load, outcomes, trace)
    assert result["load"]["status"] not in [s for s in harness.Load if s.ours]


FORGED_LOADS = [
    {"status": "internal", "message": "RuntimeError()"},
    {"status": "unstarted", "message": "bwrap: No permissions to create a new namespace"},
    {"status": "ok", "line": "3"},
    {"status": "error", "error": {"type": "ValueError"}},
    {"status": "ok", "cells": [{"status": "internal"}]},
    {"status": "no such status"},
    {"status": "ok", "uses_reference": 1},
    {"status": "ok", "extra": True},
    ["status", "ok"], None, "ok",
]
FORGED_OUTCOMES = [
    {"value": {"other": 5}},
    {"value": {"other": "str"}},
    {"error": {"type": 7, "kinds": ["ValueError"], "message": "", "line": None,
               "where": None, "code": ""}},
    {"error": {"type": "MemoryError", "kinds": ["MemoryError"], "message": "", "line": 1,
               "where": "line 1", "code": "", "memory_limit": "lots"}},
    {"error": {"type": "ValueError", "kinds": ["ValueError"], "message": "x", "line": 3}},
    {"value": [0.5, 0.5], "error": harness.error_info(ValueError("x"))},
    {"value": [0.5], "uses_reference": "no"},
    {"missing": True, "value": None},
    {},
    {"value": [[0.5]] * 2, "trace": {}},
    {"value": json.loads("[" * 40 + "0.5" + "]" * 40)},
]


@pytest.mark.parametrize("load", FORGED_LOADS, ids=repr)
def test_a_load_in_no_shape_of_the_harness_is_garbled(load):
    assert replies.load(load) == {"status": "garbled"}
    result = graded(load, [{"value": [0.5, 0.5]}], None)
    assert result["load"]["status"] == "garbled" and result["passed"] == 0


@pytest.mark.parametrize("outcome", FORGED_OUTCOMES, ids=repr)
def test_an_outcome_in_no_shape_of_the_harness_is_garbled(outcome):
    assert not replies.outcome(outcome)
    result = graded({"status": "ok"}, [outcome], None)
    assert result["passed"] == 0
    assert "private pipe" in result["checks"][0]["message"], result["checks"][0]


def test_a_trace_in_no_shape_of_the_harness_ends_the_tracing():
    good = {"steps": [], "code": {}, "runs": {}, "cut": None}
    assert replies.trace(good)
    for bad in [{"steps": [{"line": "one"}], "code": {}, "runs": {}, "cut": None},
                dict(good, cut="because"), dict(good, runs={"line 1": "often"}), {}]:
        assert not replies.trace(bad)


def odd_values():
    """Results a learner's function may return, as the harness makes them plain."""
    import decimal
    import fractions

    class Loud(float):
        def __repr__(self):
            raise RuntimeError

    yield from [None, True, 3, 10 ** 400, 0.5, float("nan"), -float("inf"), Loud(0.5),
                "TODO", b"x", (0.5, [True, None]), [[[[[[[[[[[0.5]]]]]]]]]]], [0.1] * 2000,
                {"a": 1}, decimal.Decimal("0.5"), fractions.Fraction(1, 3), (x for x in []),
                object(), type, print, Ellipsis, range(3), {0.5}, 1j]


@pytest.mark.parametrize("value", list(odd_values()), ids=lambda v: type(v).__name__)
def test_every_outcome_the_harness_gives_fits(value):
    for outcome in (harness.call(lambda x: value, [[0.5]]),
                    harness.call(lambda x: exec("raise ValueError(x)"), [[0.5]])):
        assert replies.outcome(json.loads(json.dumps(outcome))), outcome
    module, _ = harness.load_learner("def f(x):\n    y = VALUE\n    return y\n", "mine.py")
    module.VALUE = value
    outcome, trace = harness.traced(module.f, [0.5])
    assert replies.trace(json.loads(json.dumps(trace))), trace


@pytest.mark.parametrize("source", [
    "def softmax(x):\n    return x\n", "def f(:\n", "import sys\nsys.exit(3)\n",
    "raise MemoryError\n", "x = 1 / 0\n", "exit()\n", "raise SystemExit('done')\n",
    "import lesson\n"])
def test_every_load_the_harness_gives_fits(source):
    _, load = harness.load_learner(source, "mine.py")
    assert replies.load(json.loads(json.dumps(load))) == load, load
