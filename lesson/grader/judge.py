"""Judging: a learner's outcomes against the lesson's own answers.

This module never runs a line of the learner's code.  It reads the plain
data that ``lesson.grader.harness`` sent back, works out the right answers
from the lesson's own functions, and says, check by check, what passed.

expected(check)                      the right answer, from the lesson
judge(check, outcome)                -> (passed, got text, expected text)
results(load, outcomes, time_limit)  one result per check (``result_record``)
counts(results)                      (passed, failed)

    >>> from lesson.grader.contract import check_named
    >>> judge(check_named("large scores"), {"value": [0.5, 0.5]})
    (True, '[0.5, 0.5]', '[0.5, 0.5]')
"""

import copy
import math

from lesson.grader.contract import CHECKS, TIME_LIMIT
from lesson.grader import mistakes, report
from lesson.grader.report import counts  # noqa: F401 - part of the judge's API
from lesson.tables import show_value


def expected(check):
    """The right answer, from the lesson's own function (None when it must fail).

    >>> from lesson.grader.contract import check_named
    >>> expected(check_named("large scores"))
    [0.5, 0.5]
    """
    if check.kind == "sums":
        return check.total
    if check.kind in ("raises", "fails"):
        return None
    import lesson
    value = getattr(lesson, check.function)(*copy.deepcopy(check.args), **check.kwargs)
    return _round(value, 3) if check.kind == "3dp" else value


def passes_when(check):
    """What a passing answer is, in words, with the lesson's own numbers.

    >>> from lesson.grader.contract import check_named
    >>> passes_when(check_named("lesson's first weight"))
    'returns [0.670, 0.330] to 3 decimals'
    >>> passes_when(check_named("fails on [1000, 1000]"))
    'raises an ArithmeticError (such as OverflowError) or a ValueError, or returns inf or nan'
    """
    value = expected(check)
    return {
        "weights": lambda: f"returns {show_value(value)}, within 1e-9",
        "3dp": lambda: f"returns {show_value(value, 3, fixed=True)} to 3 decimals",
        "value": lambda: f"returns {value}",
        "raises": lambda: "raises ValueError (or a subclass of it)",
        "fails": lambda: ("raises an ArithmeticError (such as OverflowError) or a "
                          "ValueError, or returns inf or nan"),
        "sums": lambda: f"returns weights that add up to {value:g}",
    }[check.kind]()


def is_a(error, kind):
    """Was the error a ``kind`` (a built-in exception's name), by its class chain?

    >>> is_a({"type": "MyError", "kinds": ["softmax_exercise.MyError", "ValueError"]},
    ...      "ValueError")
    True
    """
    kinds = error.get("kinds")
    return isinstance(kinds, list) and kind in kinds


# --- One result per check ------------------------------------------------------------

def result_record(check, *, status, passed=False, expected=None, got=None, hint=None,
                  message=None, stdout="", stderr=""):
    """One check's result, as plain data.

    Keys: "function", "name", "input" (the call, as a learner types it),
    "passed", "status" ("pass", "fail", "error", "timeout", "not run" or
    "missing"), "expected" and "got" (as text), "hint", "message" (one line
    on what happened), "stdout" and "stderr" (what the call printed).
    """
    return {"function": check.function, "name": check.name, "input": check.call_text(),
            "passed": passed, "status": status, "expected": expected, "got": got,
            "hint": hint, "message": message, "stdout": stdout, "stderr": stderr}


def results(load, outcomes, time_limit=TIME_LIMIT, checks=None):
    """One result per check (``result_record``), in the order of CHECKS.

    ``outcomes`` maps a check's index (an int, or its text after a trip
    through JSON) to its outcome; ``checks`` are this run's (default: the
    published ones).  A file that imports the lesson has no check passed.

    >>> load = {"status": "ok"}
    >>> first = results(load, {0: {"value": [0.67, 0.33]}})[0]
    >>> first["status"], first["got"], first["expected"]
    ('pass', '[0.670, 0.330]', '[0.670, 0.330]')
    >>> [r["status"] for r in results(load, {0: {"missing": True}})][:2]
    ['missing', 'not run']
    """
    outcomes = {int(index): outcome for index, outcome in outcomes.items()}  # JSON keys too
    loaded = report.load_problem_text(load, time_limit) is None
    borrowed = uses_reference(load, outcomes)
    out = []
    checks = checks or CHECKS
    for index, check in enumerate(checks):
        outcome = outcomes.get(index, {"not_run": "the checker did not reach it"})
        others = [(c, outcomes.get(i, {})) for i, c in enumerate(checks)
                  if c.function == check.function]
        result = _result(check, outcome, loaded, time_limit, others)
        if borrowed and result["passed"]:
            result.update(passed=False, status="fail", message=report.NOT_COUNTED)
        out.append(result)
    return out


def uses_reference(load, outcomes):
    """Did the learner's code try to import the lesson, while loading or in a check?

    >>> uses_reference({"status": "ok"}, {4: {"value": [1.0], "uses_reference": True}})
    True
    """
    return bool(load.get("uses_reference")) or any(
        o.get("uses_reference") for o in outcomes.values())


def _result(check, outcome, loaded, time_limit, others=()):
    """One check's result from its outcome."""
    printed = {"stdout": outcome.get("stdout", ""), "stderr": outcome.get("stderr", "")}
    wanted = _wanted_text(check, expected(check))
    status, message, got, ok = "fail", None, None, False
    if not loaded:
        status, message = "not run", "not run: the file itself could not be loaded (see above)"
    elif outcome.get("missing"):
        status = "missing"
        message = f"not done yet: there is no function {check.function}() in your file"
    elif "not_run" in outcome:
        status, message = "not run", f"not run: {outcome['not_run']}"
    elif outcome.get("timeout"):
        status = "timeout"
        message = outcome.get("message") or (f"never returned: stopped after "
                                             f"{time_limit:g} s (an endless loop?)")
    elif "crashed" in outcome:
        status, message = "error", report.crash_text(outcome["crashed"])
    elif "value" in outcome and outcome["value"] is None:
        got, message = "None", f"not done yet: {check.function}() returns None"
    elif "value" in outcome or "error" in outcome:
        ok, got, wanted = judge(check, outcome)
        status = "pass" if ok else ("error" if "error" in outcome else "fail")
    else:
        status, message = "error", report.crash_text("garbled")
    hint = None
    if status in ("fail", "error") and ("value" in outcome or "error" in outcome):
        hint = mistakes.diagnose(check, outcome, others) or check.hint
    elif status not in ("pass", "not run", "missing"):
        hint = check.hint
    return result_record(check, status=status, passed=ok, expected=wanted, got=got,
                         hint=hint, message=message, **printed)


# --- Judging one answer ---------------------------------------------------------------

def judge(check, outcome):
    """Return (passed, what came back, what was expected) for one check.

    ``outcome`` is {"value": ...} or {"error": ...}, from the harness.
    When the answer is wrong, both are shown with enough digits to differ.

    >>> from lesson.grader.contract import check_named
    >>> judge(check_named("large scores"), {"value": [float("nan"), float("nan")]})
    (False, '[nan, nan]', '[0.5, 0.5]')
    >>> judge(check_named("weights sum to 1"), {"value": [0.659001, 0.242433, 0.0985659]})[1:]
    ('[0.659001, 0.242433, 0.0985659]', '[0.65900114, 0.24243297, 0.09856589]')
    """
    right = expected(check)
    if "error" in outcome:
        error = outcome["error"]
        passed = ((check.kind == "raises" and is_a(error, "ValueError"))
                  or (check.kind == "fails"
                      and (is_a(error, "ValueError") or is_a(error, "ArithmeticError"))))
        return passed, report.error_text(error), _wanted_text(check, right)
    got = outcome["value"]
    passed = _is_right(check, got, right)
    if check.kind in ("weights", "3dp") and not passed:
        got_text, wanted = _differing(got, right, 3 if check.kind == "3dp" else 6)
        return passed, got_text, wanted
    return passed, _got_text(check, got), _wanted_text(check, right)


def _is_right(check, got, right):
    """Is a returned value right for this check?"""
    if check.kind == "raises":
        return False                            # it should have raised
    if check.kind == "fails":                   # inf or nan is failing loudly too
        numbers = _numbers(got)
        return bool(numbers) and not all(math.isfinite(n) for n in numbers)
    if check.kind == "sums":
        numbers = _numbers(got)
        return bool(numbers) and abs(math.fsum(numbers) - right) <= 1e-9
    if check.kind == "3dp":
        return (_numbers(got) is not None and _shape_of(got) == _shape_of(right)
                and _round(got, 3) == right)
    if check.kind == "value":
        return type(got) is bool and got == right
    return _close(got, right)


def _got_text(check, got):
    numbers = _numbers(got)
    if check.kind == "3dp" and numbers:
        return show_value(_round(got, 3), 3, fixed=True)
    if check.kind == "sums" and numbers:
        total = math.fsum(numbers)
        digits = _digits_to_differ([total], [check.total], 6)
        return f"{show_value(got, digits)} (sum {total:.{digits}g})"
    return show_value(got)


def _wanted_text(check, right):
    if check.kind == "raises":
        return "ValueError"
    if check.kind == "fails":
        return "an OverflowError or other ArithmeticError, a ValueError, or inf/nan"
    if check.kind == "sums":
        return f"weights summing to {right:g}"
    if check.kind == "3dp":
        return show_value(right, 3, fixed=True)
    return show_value(right)


def _differing(got, right, digits):
    """Got and expected as text, with the fewest digits (from ``digits``) that differ."""
    if _numbers(got) is None:
        return show_value(got), show_value(right, digits, fixed=digits == 3)
    if digits == 3:
        return show_value(got, 3, fixed=True), show_value(right, 3, fixed=True)
    digits = _digits_to_differ(got, right, digits)
    return show_value(got, digits), show_value(right, digits)


def _digits_to_differ(got, right, digits):
    """The fewest digits (at least ``digits``) at which each wrong number shows wrong."""
    pairs = [(got, right)]
    flat_got, flat_right = _numbers(got), _numbers(right)
    if flat_got and flat_right and len(flat_got) == len(flat_right):
        pairs = [(g, e) for g, e in zip(flat_got, flat_right)
                 if not (g == e or math.isclose(g, e, rel_tol=1e-9, abs_tol=1e-12))]
    while digits < 17 and any(show_value(g, digits) == show_value(e, digits)
                              for g, e in pairs):
        digits += 1
    return digits


def _numbers(value):
    """All numbers in a nested list, or None if it holds anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        try:
            return [float(value)]
        except OverflowError:                   # an int too large for a float
            return [math.copysign(math.inf, value)]
    if isinstance(value, list):
        out = []
        for item in value:
            numbers = _numbers(item)
            if numbers is None:
                return None
            out += numbers
        return out
    return None


def _shape_of(value):
    return [_shape_of(v) for v in value] if isinstance(value, list) else 0


def _round(value, places):
    if isinstance(value, list):
        return [_round(v, places) for v in value]
    return round(value, places)


def _close(got, right):
    if isinstance(right, list):
        return (isinstance(got, list) and len(got) == len(right)
                and all(_close(g, e) for g, e in zip(got, right)))
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return False
    return math.isclose(got, right, rel_tol=1e-9, abs_tol=1e-12)
