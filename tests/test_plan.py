"""The grading plan, driven by a scripted worker: every rule of time, of checks
not run and of the file's budget, without a process or a browser.

Each script says, per step the plan asks for, what happened and how long it
took; the test then reads the plan's outcomes, and the report they make.
"""

import pytest

from lesson.grader import judge, problems, report
from lesson.grader.contract import CHECKS, checks_of, time_limits
from lesson.grader.plan import GARBLED, HUNG, NO_RELOAD, TIME_RAN_OUT, TIME_USED, Plan

LIMIT = 0.5
CHECK, LOAD, FILE = time_limits(LIMIT)


def drive(plan, worker):
    """Carry the plan out; ``worker(step)`` says what happened.  Returns the steps."""
    steps = [plan.next()]
    while steps[-1]["do"] != "done":
        step = steps[-1]
        event = worker(step) if step["do"] in ("load", "call") else {}
        steps.append(plan.next(event))
    return steps


def answering(hangs=(), load_seconds=0.01, reload=None, call_seconds=0.001):
    """A worker whose functions in ``hangs`` never return; others answer 0.0."""
    loads = []

    def worker(step):
        if step["do"] == "load":
            loads.append(step)
            if reload is not None and len(loads) > 1:
                return reload(step)
            took = min(load_seconds, step["seconds"])
            return ({"late": True, "seconds": step["seconds"]} if took < load_seconds
                    else {"loaded": {"status": "ok"}, "seconds": took})
        if step["function"] in hangs:
            return {"late": True, "seconds": step["seconds"]}
        return {"reply": {"token": step["token"], "outcome": {"value": 0.0}},
                "seconds": call_seconds}
    worker.loads = loads
    return worker


def kinds(plan):
    return {CHECKS[i].name: next(iter(set(o) - {"stdout", "stderr"})) for i, o in plan.outcomes.items()}


def test_every_check_is_asked_once_in_order_then_done():
    plan = Plan(LIMIT)
    steps = drive(plan, answering())
    calls = [s["check"] for s in steps if s["do"] == "call"]
    assert calls == list(range(len(CHECKS)))
    assert [s["do"] for s in steps][:2] == ["load", "call"] and steps[-2:] == [{"do": "stop"}, {"do": "done"}]
    assert all(s["seconds"] == CHECK for s in steps if s["do"] == "call")
    assert len({s["token"] for s in steps if s["do"] == "call"}) == len(CHECKS)


def test_a_function_that_hangs_is_stopped_and_its_other_checks_not_run():
    plan = Plan(LIMIT)
    worker = answering(hangs={"softmax"})
    steps = drive(plan, worker)
    first, *rest = checks_of("softmax")
    assert "timeout" in plan.outcomes[first]
    for index in rest:
        assert plan.outcomes[index] == {"not_run": HUNG.format(function="softmax",
                                                               name=CHECKS[first].name)}
    assert len(worker.loads) == 2                          # a fresh worker for the rest
    assert [s["do"] for s in steps].count("stop") == 2
    assert all("value" in plan.outcomes[i] for i in checks_of("entropy"))


def test_a_file_that_hangs_while_loading_is_not_loaded_again():
    plan = Plan(LIMIT)
    worker = answering(load_seconds=LOAD + 1)
    drive(plan, worker)
    assert plan.load["status"] == "timeout" and len(worker.loads) == 1
    assert worker.loads[0]["seconds"] == LOAD
    assert "did not finish loading within 5 s" in problems.load_problem_text(plan.load, LIMIT)
    assert all(r["status"] == "not run" for r in judge.results(plan.load, plan.outcomes, LIMIT))


def test_a_file_that_does_not_load_again_after_a_hang():
    plan = Plan(LIMIT)
    worker = answering(hangs={"softmax"}, reload=lambda step: {"crashed": 1, "seconds": 0.1})
    drive(plan, worker)
    for index in checks_of("naive_softmax") + checks_of("entropy"):
        assert plan.outcomes[index] == {"not_run": NO_RELOAD}


def test_the_files_budget_counts_every_step_and_runs_out():
    """Slow loads and four hangs: the file's seconds run out, and the checks
    left are not run because of it; a check running as they run out says so."""
    plan = Plan(LIMIT)
    slow = FILE / 4.6                                      # four loads and hangs overrun it
    worker = answering(hangs={"softmax", "naive_softmax", "rows_normalised", "entropy"},
                       load_seconds=slow)
    drive(plan, worker)
    assert plan.used == pytest.approx(FILE)
    statuses = kinds(plan)
    assert "not_run" in statuses.values()
    reasons = {o.get("not_run") for o in plan.outcomes.values()} | {
        o.get("message") for o in plan.outcomes.values()}
    assert reasons & {TIME_USED.format(file_limit=FILE), NO_RELOAD, TIME_RAN_OUT}
    assert all(s <= FILE + 1e-9 for s in [plan.used])


def test_a_check_running_when_the_budget_ends_says_so():
    plan = Plan(LIMIT)
    worker = answering(hangs={"entropy"}, load_seconds=LOAD - 0.1, call_seconds=0.09)
    drive(plan, worker)                # 17 calls leave 0.07 s for entropy's first
    first, *rest = checks_of("entropy")
    assert plan.outcomes[first]["message"] == TIME_RAN_OUT
    assert all(plan.outcomes[i] == {"not_run": TIME_USED.format(file_limit=FILE)} for i in rest)


def test_a_reply_to_another_call_or_a_malformed_one_is_a_crash_never_a_pass():
    for reply in ({"token": "forged", "outcome": {"value": [0.67, 0.33]}},
                  {"outcome": {"value": [0.67, 0.33]}}, "20 passed, 0 failed", None,
                  {"token": None, "outcome": {"value": 1, "error": {}}}):
        plan = Plan(LIMIT)

        def worker(step, reply=reply):
            if step["do"] == "load":
                return {"loaded": {"status": "ok"}, "seconds": 0.01}
            if isinstance(reply, dict) and reply.get("token") is None and "token" in reply:
                reply = dict(reply, token=step["token"])
            return {"reply": reply, "seconds": 0.01}
        drive(plan, worker)
        results = judge.results(plan.load, plan.outcomes, LIMIT)
        assert not any(r["passed"] for r in results), reply
        assert plan.outcomes[0]["crashed"] == "garbled"


def test_after_a_garbled_reply_the_file_is_not_loaded_again():
    """A forger writing into the private pipe would otherwise be loaded again
    for each check, its forgery run 20 times (tests/hostile_class)."""
    plan = Plan(LIMIT)
    loads = []

    def worker(step):
        if step["do"] == "load":
            loads.append(step)
            return {"loaded": {"status": "ok"}, "seconds": 0.01}
        return {"reply": "20 passed, 0 failed", "seconds": 0.01}
    drive(plan, worker)
    assert len(loads) == 1
    assert plan.outcomes[0]["crashed"] == "garbled"
    assert {o.get("not_run") for i, o in plan.outcomes.items() if i} == {GARBLED}


def test_printed_output_is_kept_to_the_limit_and_counted():
    plan = Plan(LIMIT)
    step = plan.next()
    step = plan.next({"loaded": {"status": "ok"}, "seconds": 0.01,
                      "stdout": ["x" * 5000, 12000], "stderr": ["", 0]})
    assert plan.load["stdout"].endswith("(10000 more characters not shown)")
    assert step["keep"] == len(plan.load["stdout"].split("\n")[0])
