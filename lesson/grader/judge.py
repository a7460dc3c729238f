"""Judging: a learner's outcomes against the lesson's own answers.

This module never runs a line of the learner's code.  It reads the plain
data that ``lesson.grader.harness`` sent back and says, check by check,
what passed, by the rules of each check's kind (``contract.KINDS``); for a
failed check, ``lesson.grader.diagnosis`` says what the answers show.

expected(check)                      the right answer, from the lesson
passes_when(check)                   what passes, in words
judge(check, outcome)                -> (passed, got text, expected text)
results(load, outcomes, time_limit, checks, code)   one result per check (``result_record``)
counts(results)                      (passed, failed)

    >>> from lesson.grader.contract import check_named
    >>> judge(check_named("large scores"), {"value": [0.5, 0.5]})
    (True, '[0.5, 0.5]', '[0.5, 0.5]')
"""

import typing

from lesson.grader import diagnosis, problems, steps
from lesson.grader.harness import Load, Outcome, Verdict
from lesson.grader.contract import CHECKS, KINDS, TIME_LIMIT, right_answer
from lesson.grader.report import counts  # noqa: F401 - part of the judge's API


def expected(check):
    """The right answer, from the lesson's own function (None when it must fail).

    >>> from lesson.grader.contract import check_named
    >>> expected(check_named("large scores"))
    [0.5, 0.5]
    """
    return right_answer(check)


def passes_when(check):
    """What a passing answer is, in words, with the lesson's own numbers.

    >>> from lesson.grader.contract import check_named
    >>> passes_when(check_named("lesson's first weight"))
    'returns [0.670, 0.330] to 3 decimals'
    >>> passes_when(check_named("fails on [1000, 1000]"))
    'raises an ArithmeticError (such as OverflowError) or a ValueError, or returns inf or nan'
    """
    return KINDS[check.kind].says(expected(check))


# --- One result per check ------------------------------------------------------------

class ResultRecord(typing.TypedDict):
    """One check's result: what the report, the JSON, every platform's
    document and the page read (``result_record``; the report adds "line")."""
    function: str
    name: str
    input: str
    code: str
    passed: bool
    status: Verdict
    expected: typing.Optional[str]
    got: typing.Optional[str]
    hint: typing.Optional[str]
    mistakes: list
    message: typing.Optional[str]
    stdout: str
    stderr: str
    trace: typing.Optional[dict]


def result_record(check, *, status, passed=False, expected=None, got=None, hint=None,
                  mistakes=(), message=None, stdout="", stderr="", trace=None) -> ResultRecord:
    """One check's result, as plain data (``ResultRecord``).

    Keys: "function", "name", "input" (the call, as the lesson writes it),
    "code" (the call as Python runs it, pasted anywhere: float("-inf")),
    "passed", "status" (a ``Verdict``), "expected" and "got" (as text),
    "hint", "mistakes" (the names of the usual mistakes or signs the hint
    names: ``Diagnosis.names``), "message" (one line on what happened),
    "stdout" and "stderr" (what the call printed), and "trace": the
    learner's steps on the check's input beside the lesson's
    (``steps.trace_record``), for a function's first failing check, or None.
    """
    return {"function": check.function, "name": check.name, "input": check.call_text(),
            "code": check.call_text(code=True), "passed": passed, "status": status,
            "expected": expected, "got": got,
            "hint": hint, "mistakes": list(mistakes), "message": message,
            "stdout": stdout, "stderr": stderr, "trace": trace}


def results(load, outcomes, time_limit=TIME_LIMIT, checks=None, code=None):
    """One result per check (``result_record``), in the order of CHECKS.

    ``outcomes`` maps a check's index (an int, or its text after a trip
    through JSON) to its outcome; ``checks`` are this run's (default: the
    published ones); ``code`` is what the learner's code shows, by function
    (``reading.facts``; None: not read), for the hints.  A file that
    imports the lesson has no check passed.

    >>> load = {"status": "ok"}
    >>> first = results(load, {0: {"value": [0.67, 0.33]}})[0]
    >>> first["status"], first["got"], first["expected"]
    ('pass', '[0.670, 0.330]', '[0.670, 0.330]')
    >>> [r["status"] for r in results(load, {0: {"missing": True}})][:2]
    ['missing', 'not run']
    """
    outcomes = {int(index): outcome for index, outcome in outcomes.items()}  # JSON keys too
    loaded = problems.load_problem_text(load, time_limit) is None
    borrowed = uses_reference(load, outcomes)
    checks = checks or CHECKS
    answers = [(check, outcomes.get(index, {}), right_answer(check))
               for index, check in enumerate(checks)]
    out = []
    for index, (check, outcome, right) in enumerate(answers):
        outcome = outcomes.get(index, {Outcome.NOT_RUN: "the checker did not reach it"})
        same_function = [each for each in answers if each[0].function == check.function]
        result = _result(check, outcome, right, loaded, time_limit, same_function,
                         None if code is None else code.get(check.function))
        if borrowed and result["passed"]:
            result.update(passed=False, status=Verdict.FAIL, message=problems.NOT_COUNTED)
        out.append(result)
    return out


def uses_reference(load, outcomes):
    """Did the learner's code try to import the lesson, while loading or in a check?

    >>> uses_reference({"status": "ok"}, {4: {"value": [1.0], "uses_reference": True}})
    True
    """
    return bool(load.get("uses_reference")) or any(
        o.get("uses_reference") for o in outcomes.values())


def _result(check, outcome, right, loaded, time_limit, same_function=(), code=None):
    """One check's result from its outcome; ``same_function`` holds the
    (check, outcome, right answer) of each check of its function, ``code``
    the facts of its code."""
    printed = {"stdout": outcome.get("stdout", ""), "stderr": outcome.get("stderr", "")}
    wanted = KINDS[check.kind].wanted(right)
    status, message, got, ok = Verdict.FAIL, None, None, False
    answered = Outcome.VALUE in outcome or Outcome.ERROR in outcome
    if not loaded:
        status = Verdict.NOT_RUN
        message = "not run: the file itself could not be loaded (see above)"
    elif outcome.get(Outcome.MISSING):
        status = Verdict.MISSING
        message = f"not done yet: there is no function {check.function}() in your file"
    elif Outcome.NOT_RUN in outcome:
        status, message = Verdict.NOT_RUN, f"not run: {outcome[Outcome.NOT_RUN]}"
    elif outcome.get(Outcome.TIMEOUT):
        status = Verdict.TIMEOUT
        message = outcome.get("message") or (f"never returned: stopped after "
                                             f"{time_limit:g} s (an endless loop?)")
    elif Outcome.CRASHED in outcome:
        status, message = Verdict.ERROR, problems.crash_text(outcome[Outcome.CRASHED])
    elif Outcome.VALUE in outcome and outcome[Outcome.VALUE] is None:
        got, message = "None", f"not done yet: {check.function}() returns None"
    elif answered:
        ok, got, wanted = judge(check, outcome, right)
        status = (Verdict.PASS if ok else
                  Verdict.ERROR if Outcome.ERROR in outcome else Verdict.FAIL)
    else:
        status, message = Verdict.ERROR, problems.crash_text(Load.GARBLED)
    wrong = status in (Verdict.FAIL, Verdict.ERROR)
    found = diagnosis.NOTHING
    if wrong and answered:
        found = diagnosis.diagnose(check, outcome, right, same_function, code)
    said = status not in (Verdict.PASS, Verdict.NOT_RUN, Verdict.MISSING)
    hint = found.text or (check.hint if said else None)
    trace = steps.compared(check, outcome) if wrong else None
    return result_record(check, status=Verdict(status), passed=ok, expected=wanted, got=got,
                         hint=hint, mistakes=found.names, message=message, trace=trace,
                         **printed)


# --- Judging one answer ---------------------------------------------------------------

def judge(check, outcome, right=None):
    """Return (passed, what came back, what was expected) for one check.

    ``outcome`` is {"value": ...} or {"error": ...}, from the harness;
    ``right`` is the check's right answer (worked out when not given).
    When the answer is wrong, both are shown with enough digits to differ.

    >>> from lesson.grader.contract import check_named
    >>> judge(check_named("large scores"), {"value": [float("nan"), float("nan")]})
    (False, '[nan, nan]', '[0.5, 0.5]')
    >>> judge(check_named("weights sum to 1"), {"value": [0.659001, 0.242433, 0.0985659]})[1:]
    ('[0.659001, 0.242433, 0.0985659]', '[0.65900114, 0.24243297, 0.09856589]')
    """
    kind = KINDS[check.kind]
    right = expected(check) if right is None else right
    if Outcome.ERROR in outcome:
        return kind.accepts(outcome[Outcome.ERROR]), problems.error_text(outcome[Outcome.ERROR]), \
            kind.wanted(right)
    passed = kind.passes(outcome[Outcome.VALUE], right)
    return (passed, *kind.shown(outcome[Outcome.VALUE], right, passed))
