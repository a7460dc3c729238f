"""The checker's results as each grading platform reads them.

Pure functions: the per-file result dicts of ``python -m lesson check`` in,
one platform's document (text) out.  Each document follows the platform's
published format, field by field.  What a document says in words is the
report's (``lesson.grader.report.records``): a test's details are its
check's records, the document's top the file's; so every platform shows a
check's details by the report's one rule.

gradescope(result, points, time_limit)    Gradescope's results.json: a score, a test per check
                                          (None when the checker failed: see below)
prairielearn(result, points, time_limit)  PrairieLearn's external grader results.json
exercism(result, time_limit)              Exercism's test runner results.json, version 3
junit(results, time_limit)                JUnit XML, as CI systems read it: a testsuite per file
points(texts)                             --points FUNCTION=POINTS -> {function: points a check}
exercism_time_limit(time_limit)           the check's limit that fits a file into Exercism's 20 s
checker_failed(result)                    did the checker fail on the file (no grade at all)?

``time_limit`` is always the check's limit the file was graded with.

    >>> passed = {"function": "entropy", "name": "uniform", "input": "entropy([0.5, 0.5])",
    ...           "code": "entropy([0.5, 0.5])", "passed": True, "status": "pass",
    ...           "expected": "0.693147", "got": "0.693147", "hint": None,
    ...           "message": None, "stdout": "", "stderr": ""}
    >>> result = {"file": "mine.py", "passed": 1, "failed": 0, "problem": None,
    ...           "uses_reference": False, "stdout": "", "stderr": "",
    ...           "checks": [passed], "load": {"status": "ok"}, "seconds": 0.1}
    >>> import json
    >>> json.loads(gradescope(result))["tests"][0]["status"]
    'passed'
    >>> json.loads(exercism(result, 1.0))["status"]
    'pass'

How each check's status reads on each platform (``STATUSES``):

    checker               Gradescope  PrairieLearn  Exercism  JUnit
    pass                  passed      full points   pass      (a plain testcase)
    fail, missing         failed      0 points      fail      <failure>
    error: it raised      failed      0 points      fail      <failure>
    error: a crash        failed      0 points      error     <error>
    timeout               failed      0 points      error     <error>
    not run               failed      0 points      error     <skipped>

An exception from the learner's function is a wrong answer (the check
says what was expected instead), so it fails; a crash (the process
stopped) and a time-out are errors, as JUnit and Exercism mean them.
A file that does not load scores 0 on Gradescope; on PrairieLearn it is
``gradable: false`` (the learner is not charged an attempt); on Exercism
its status is ``error``, the only case where no test ran, and no test is
listed; in JUnit each of its checks is an ``<error>``.  A file that loaded
is ``pass`` or ``fail`` on Exercism, however many of its checks errored or
were not run.

Gradescope renders its top-level output as HTML unless told otherwise
(``simple_format``); every text a learner's code may have written into
(what it printed, its exception, the line of a syntax error) is declared
``text`` (``GRADESCOPE_TEXT``), so it is shown as written.

A file the checker failed to grade (its sandbox did not start) is the
grader's error on every platform, never a grade: Gradescope gets no
document (a run without a valid results.json is a failed autograder run,
which is how Gradescope shows a grader's failure; ``bundle.run_gradescope``
says why on the run's output); PrairieLearn ``gradable: false``; Exercism
``error`` with the reason (``_grader_error``); JUnit an ``<error>`` per check.
"""

import json
import math
import re

from lesson.grader import report
from lesson.grader.contract import FUNCTIONS, TIME_LIMIT, time_limits
from lesson.grader.harness import Load, Verdict

FORMATS = ("text", "json", "gradescope", "prairielearn", "exercism", "junit")
PER_FILE = ("gradescope", "prairielearn", "exercism")   # one document per submission

# Each platform's own words (its specification's, not the checker's statuses).
EXERCISM_PASS, EXERCISM_FAIL, EXERCISM_ERROR = "pass", "fail", "error"   # interface.md
JUNIT_FAILURE, JUNIT_ERROR, JUNIT_SKIPPED = "failure", "error", "skipped"  # junit-10.xsd
RAISED, CRASH = "raised", "crash"          # an error check, told apart (see _status)

# a check's status (see _status) -> (Exercism status, JUnit element or None)
STATUSES = {Verdict.PASS: (EXERCISM_PASS, None), Verdict.FAIL: (EXERCISM_FAIL, JUNIT_FAILURE),
            Verdict.MISSING: (EXERCISM_FAIL, JUNIT_FAILURE), RAISED: (EXERCISM_FAIL, JUNIT_FAILURE),
            CRASH: (EXERCISM_ERROR, JUNIT_ERROR), Verdict.TIMEOUT: (EXERCISM_ERROR, JUNIT_ERROR),
            Verdict.NOT_RUN: (EXERCISM_ERROR, JUNIT_SKIPPED)}

# The report's records that speak for the whole file, not for one check or
# function: what a document says at its top.
FILE_ROLES = ("problem", "advice", "note", "printed", "text", "closing")

# How each platform reads its document (tests/platform_rules.py holds each
# platform's published rules as data, with their sources, and checks them).
GRADESCOPE_TEXT = "text"    # an output shown as it is written: no HTML, Markdown or ANSI
EXERCISM_BUDGET = 20.0      # seconds Exercism gives one run of its test runner
EXERCISM_MARGIN = 4.0       # of those, kept for Python to start and results.json to be written
EXERCISM_OUTPUT = 500       # characters of a test's output Exercism takes
EXERCISM_TRUNCATED = "\nOutput was truncated. Please limit to 500 chars"
EXERCISM_MESSAGE = 65535    # characters of the top-level message Exercism takes
EXERCISM_MESSAGE_CUT = f"\n... (the rest was cut: Exercism takes {EXERCISM_MESSAGE} characters)"
UNCONFINED = ("this file ran with the grader's own rights: it could be neither sandboxed "
              "nor run as a user of its own here (see check --help)")


# --- The platforms --------------------------------------------------------------

def gradescope(result, points=None, time_limit=TIME_LIMIT):
    """Gradescope's results.json for one file: a score, and one test per check.

    Each check is worth ``points[function]`` (1 unless given).  A test's
    output is its check's details in the report (input, expected answer,
    what came back, the hint, what the code printed); the top-level output
    says why a file that did not load scores 0.  Every output is declared
    plain text (``GRADESCOPE_TEXT``).  ``time_limit`` is the check's limit
    it was graded with.  None when the checker failed on the file: no
    document is Gradescope's failed autograder run, and any would be a grade.

    >>> doc = json.loads(gradescope(_example(), {"softmax": 2}))
    >>> doc["score"], [(t["name"], t["score"], t["max_score"], t["status"]) for t in doc["tests"]]
    (0, [('softmax: large scores', 0, 2, 'failed')])
    >>> print(doc["tests"][0]["output"])
    input:    softmax([1000, 1000])
    expected: [0.5, 0.5]
    got:      OverflowError: math range error
    hint:     subtract the row maximum
    printed:  hi
    >>> doc["output_format"], doc["tests"][0]["output_format"]
    ('text', 'text')
    """
    if checker_failed(result):
        return None
    top, details = _told(result, time_limit)
    tests = [{"name": _name(check), "score": _number(_worth(check, points) * check["passed"]),
              "max_score": _number(_worth(check, points)),
              "status": "passed" if check["passed"] else "failed",
              "output": _text(told), "output_format": GRADESCOPE_TEXT, "visibility": "visible"}
             for check, told in zip(result["checks"], details)]
    return json_text({"score": _number(sum(t["score"] for t in tests)),
                  "execution_time": result["seconds"],
                  "output": _text(top), "output_format": GRADESCOPE_TEXT, "tests": tests})


def prairielearn(result, points=None, time_limit=TIME_LIMIT):
    """PrairieLearn's external grader results.json for one file.

    ``score`` is the points won over the points there are, in [0, 1].  A
    file that did not load is ``gradable: false`` with the reason in
    ``format_errors``: no attempt is charged, and no test is listed.

    >>> doc = json.loads(prairielearn(_example()))
    >>> doc["gradable"], doc["score"], doc["message"]
    (True, 0.0, '0 passed, 1 failed: 0 of 1 points')
    >>> test = doc["tests"][0]
    >>> test["description"], test["points"], test["max_points"], test["message"]
    ('softmax([1000, 1000])', 0, 1, 'subtract the row maximum')
    >>> load = {"status": "syntax", "line": 3, "where": "line 3", "message": "bad", "code": "("}
    >>> from lesson.grader.problems import problem
    >>> broken = dict(_example(), load=load, problem=problem(load))
    >>> json.loads(prairielearn(broken))["format_errors"]
    ['Your file has a syntax error on line 3: bad, in the line: (']
    """
    if checker_failed(result):
        return json_text(_grader_error(result, "prairielearn"))
    top, details = _told(result, time_limit)
    if not _loaded(result):
        return json_text({"gradable": False, "format_errors": [result["problem"]],
                      "message": result["problem"], "output": _text(_uncounted(top))})
    tests = [{"name": _name(check), "description": check["input"],
              "points": _number(_worth(check, points) * check["passed"]),
              "max_points": _number(_worth(check, points)),
              "message": _verdict(check), "output": _text(told)}
             for check, told in zip(result["checks"], details)]
    won = sum(t["points"] for t in tests)
    most = sum(t["max_points"] for t in tests)
    return json_text({"gradable": True, "score": won / most if most else 0.0,
                  "message": f"{report.tally(result['passed'], result['failed'])}: "
                             f"{_number(won)} of {_number(most)} points",
                  "output": _text(top), "tests": tests})


def exercism(result, time_limit):
    """Exercism's test runner results.json (version 3) for one file.

    Tests come in check order, each with its call as Python runs it
    (``float("-inf")``, where the report writes -inf) as ``test_code`` and the
    function it checks as ``task_id`` (1 to 4); a test's message is null
    when it has none.  The status is ``error`` only when no test ran (the
    file did not load), with the reason as the message and no test listed
    (nor a count of tests "failed" that never ran); else ``pass`` when
    every test passed, ``fail`` when some failed or errored, and no message
    (a test not run, because the file used up its time, says why in its own).
    ``time_limit`` is the check's limit the file was graded with (see
    ``exercism_time_limit``).

    >>> doc = json.loads(exercism(_example(), 1.0))
    >>> doc["version"], doc["status"], doc["message"]
    (3, 'fail', None)
    >>> test = doc["tests"][0]
    >>> test["name"], test["status"], test["test_code"], test["task_id"], test["output"]
    ('softmax: large scores', 'fail', 'softmax([1000, 1000])', 1, 'hi')
    >>> load = {"status": "syntax", "line": 3, "where": "line 3", "message": "bad", "code": "("}
    >>> from lesson.grader.problems import problem
    >>> broken = dict(_example(), load=load, problem=problem(load))
    >>> doc = json.loads(exercism(broken, 1.0))
    >>> doc["status"], doc["message"].splitlines()[0], doc["tests"]
    ('error', 'Your file has a syntax error on line 3: bad, in the line: (', [])
    """
    if checker_failed(result):
        return json_text(_grader_error(result, "exercism"))
    top, details = _told(result, time_limit)
    if not _loaded(result):                       # no test was executed: none is listed
        return json_text({"version": 3, "status": EXERCISM_ERROR,
                      "message": _cut(_text(_uncounted(top)), EXERCISM_MESSAGE,
                                      EXERCISM_MESSAGE_CUT),
                      "tests": []})
    tests = [_exercism_test(check, told) for check, told in zip(result["checks"], details)]
    status = (EXERCISM_PASS if all(t["status"] == EXERCISM_PASS for t in tests)
              else EXERCISM_FAIL)
    return json_text({"version": 3, "status": status, "message": None, "tests": tests})


def junit(results, time_limit):
    """JUnit XML for several files: one <testsuite> per file, one <testcase> per check.

    A testcase's classname is the file and the function (``_classname``),
    its name the check.  The checker times files, not checks: a testcase's
    time is 0, except a time-out's, which is ``time_limit``, the check's
    limit (what it ran).

    >>> print(junit([_example()], 2.0))  # doctest: +NORMALIZE_WHITESPACE
    <?xml version="1.0" encoding="UTF-8"?>
    <testsuites name="lesson 4" tests="1" failures="1" errors="0" time="0.1">
      <testsuite name="mine.py" tests="1" failures="1" errors="0" skipped="0" time="0.1">
        <testcase classname="mine.py.softmax" name="large scores" time="0">
          <failure message="subtract the row maximum" type="raised">input:    softmax([1000, 1000])
    expected: [0.5, 0.5]
    got:      OverflowError: math range error
    hint:     subtract the row maximum</failure>
          <system-out>hi</system-out>
        </testcase>
      </testsuite>
    </testsuites>
    """
    suites = []
    totals = {"tests": 0, "failures": 0, "errors": 0}   # junit-10.xsd: no "skipped" here
    for result in results:
        cases, counts = [], {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        top, details = _told(result, time_limit)
        for check, told in zip(result["checks"], details):
            element = STATUSES[_status(check)][1] if _loaded(result) else JUNIT_ERROR
            counts["tests"] += 1
            if element is not None:
                counts[{JUNIT_FAILURE: "failures", JUNIT_ERROR: "errors", JUNIT_SKIPPED: "skipped"}[
                    element]] += 1
            cases.append(_testcase(result, check, told, element, time_limit))
        for key in totals:
            totals[key] += counts[key]
        lines = [f"  <testsuite name={_attr(result['file'])} {_counts(counts)} "
                 f"time=\"{result['seconds']:g}\">"]
        if result.get("sandbox"):                       # how its code was confined
            lines += ["    <properties>", f"      <property name=\"sandbox\" "
                      f"value={_attr(result['sandbox'])}/>", "    </properties>"]
        lines += cases
        above = _text(_uncounted(top))          # the count is in the attributes
        if above:
            lines.append(f"    <system-out>{_xml(above)}</system-out>")
        suites += lines + ["  </testsuite>"]
    seconds = round(sum(r["seconds"] for r in results), 3)
    return "\n".join(['<?xml version="1.0" encoding="UTF-8"?>',
                      f'<testsuites name="lesson 4" {_counts(totals)} time="{seconds:g}">']
                     + suites + ["</testsuites>"])


# --- What the command line and the bundles ask ----------------------------------

MOST_POINTS = 1_000_000      # a check worth more has no use, and its total may not be a float


def points(texts):
    """--points: each 'FUNCTION=POINTS' -> {function: points for each of its checks}.

    >>> points(["softmax=2", "entropy=0.5"])
    {'softmax': 2.0, 'entropy': 0.5}
    >>> points(["soft=2"])
    Traceback (most recent call last):
    ...
    ValueError: --points soft=2: no function soft (the functions are softmax, naive_softmax, rows_normalised, entropy)
    >>> points(["softmax=1e308"])
    Traceback (most recent call last):
    ...
    ValueError: --points softmax=1e308: give the points for each check of softmax as a number from 0 to 1,000,000, e.g. softmax=2
    """
    given = {}
    for text in texts:
        function, _, value = text.partition("=")
        if function not in FUNCTIONS:
            raise ValueError(f"--points {text}: no function {function} (the functions "
                             f"are {', '.join(FUNCTIONS)})")
        try:
            worth = float(value)
        except ValueError:
            worth = math.nan
        if not (math.isfinite(worth) and 0 <= worth <= MOST_POINTS):
            raise ValueError(f"--points {text}: give the points for each check of "
                             f"{function} as a number from 0 to {MOST_POINTS:,}, "
                             f"e.g. {function}=2")
        given[function] = worth
    if given and not any(given.get(f, 1.0) for f in FUNCTIONS):
        raise ValueError("--points: every function is worth 0, so there is nothing to score")
    return given


def exercism_time_limit(time_limit):
    """The check's limit to grade with on Exercism: ``time_limit``, or less, so
    that a whole file fits in Exercism's budget (20 s a run, 4 s kept back).

    >>> from lesson.grader.contract import time_limits
    >>> exercism_time_limit(2.0), time_limits(exercism_time_limit(2.0))[2]
    (2.0, 14.0)
    >>> exercism_time_limit(5.0), time_limits(exercism_time_limit(5.0))[2]
    (2.4, 16.0)
    """
    budget = EXERCISM_BUDGET - EXERCISM_MARGIN
    fits = time_limit
    while time_limits(fits)[2] > budget and fits > 0.1:
        fits = math.floor(fits * 10 - 1) / 10          # tenths of a second down
    return fits


# --- The grader's own failure ----------------------------------------------------

CHECKER_FAILURES = tuple(status for status in Load if status.ours)   # the checker's own fault


def checker_failed(result):
    """Did the checker fail on this file (its sandbox did not start, say), so
    that it has no grade at all?"""
    return result["load"]["status"] in CHECKER_FAILURES


def _grader_error(result, form):
    """A file the checker failed to grade, as PrairieLearn and Exercism read a
    grader's error: no grade is charged to the student, and the reason is
    given.  (Gradescope has no document for it: ``gradescope`` gives None.)

    >>> broken = dict(_example(), load={"status": "unstarted"},
    ...               problem="The checker failed, not your file: the sandbox could not start.")
    >>> json.loads(prairielearn(broken))["gradable"], json.loads(exercism(broken, 1.0))["status"]
    (False, 'error')
    >>> print(gradescope(broken))
    None
    """
    problem = result["problem"]
    return {"prairielearn": {"gradable": False, "format_errors": [problem],
                             "message": problem, "output": ""},
            "exercism": {"version": 3, "status": EXERCISM_ERROR,
                         "message": _cut(problem, EXERCISM_MESSAGE, EXERCISM_MESSAGE_CUT),
                         "tests": []},
            }[form]


# --- Private utilities ----------------------------------------------------------

def _loaded(result):
    return result["load"]["status"] == Load.OK


def _status(check):
    """The check's status, its "error" told apart: "raised" when the learner's
    function raised (what it raised is what it got), "crash" when the process
    stopped or garbled the checker's pipe (it got nothing)."""
    if check["status"] == Verdict.ERROR:
        return CRASH if check["got"] is None else RAISED
    return check["status"]


def _exercism_test(check, told):
    """One check as an Exercism test: its message null when it passed or has
    nothing to say, what it printed (its control characters escaped, as
    every output shows them) cut to Exercism's 500 characters."""
    status = STATUSES[_status(check)][0]
    message = None if status == EXERCISM_PASS else _text(told, printed=False) or None
    printed = _cut(report.visible(check["stdout"] + check["stderr"]), EXERCISM_OUTPUT,
                   EXERCISM_TRUNCATED)
    return {"name": _name(check), "status": status, "message": message,
            "output": printed or None, "test_code": check["code"],
            "task_id": FUNCTIONS.index(check["function"]) + 1}


def _name(check):
    return f"{check['function']}: {check['name']}"


def _worth(check, points):
    return (points or {}).get(check["function"], 1.0)


def _number(value):
    """A score as JSON shows it best: 2, not 2.0; 11, not the sum of 0.1s
    (10.999999999999998).  Points are given to at most 6 decimals' use.

    >>> _number(2.0), _number(sum([0.1] * 110)), _number(0.7 * 3)
    (2, 11, 2.1)
    """
    value = round(float(value), 6)
    return int(value) if value.is_integer() else value


def _verdict(check):
    """The one line beside a check: what happened, or what to do next."""
    if check["passed"]:
        return "passed"
    return check["message"] or check["hint"] or f"expected {check['expected']}"


def _told(result, time_limit):
    """What the report tells, split: (the file's records, each check's records
    below its verdict).  ``report.records`` makes them, once.  A file graded
    with neither a sandbox nor a user of its own (``result["sandbox"]`` is
    "none") says so first: the platform's reader cannot see the header a
    terminal prints."""
    top, details = [], [[] for _ in result["checks"]]
    if result.get("sandbox") == "none":
        top.append(report.line(UNCONFINED, role="note", label="Note:", pad=6))
    for record in report.records(result, time_limit):
        if record["check"] is not None and record["role"] != "verdict":
            details[record["check"]].append(record)
        elif record["check"] is None and record["role"] in FILE_ROLES:
            top.append(record)
    return top, details


def _uncounted(records):
    """The file's records but its count ("0 passed, 20 failed"): a file that
    did not load has no test that ran, so none that failed."""
    return [record for record in records if record["role"] != "closing"]


def _text(records, printed=True):
    """Records as a platform shows them: lines of text, not indented (each
    document has a place per check); what the code printed only if ``printed``."""
    return "\n".join(report.line_text(dict(record, indent=0)) for record in records
                     if printed or record["role"] != "printed")


def json_text(document):
    r"""A document as JSON text that every reader decodes: a lone surrogate (an
    undecodable byte of a file name, or one a learner's code wrote) is shown
    as the byte it stood for (``\xff``) or as its escape (``\ud800``), where
    ``json.dumps`` would write one that strict JSON readers refuse.

    >>> print(json_text({"file": "caf\udce9.py", "got": "\ud800"}))
    {
     "file": "caf\\xe9.py",
     "got": "\\ud800"
    }
    """
    return json.dumps(_sound(document), indent=1, allow_nan=False)


def _sound(value):
    """``value`` with each lone surrogate in its texts written out (see json_text)."""
    if isinstance(value, str):
        return _SURROGATE.sub(_written_out, value)
    if isinstance(value, dict):
        return {_sound(key): _sound(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_sound(item) for item in value]
    return value


_SURROGATE = re.compile("[\ud800-\udfff]")


def _written_out(match):
    code = ord(match.group())
    return f"\\x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"\\u{code:04x}"


def _cut(text, most, note):
    """Text in at most ``most`` characters: cut, with ``note`` at its end, if longer.

    >>> _cut("abcdef", 5, "~"), _cut("abc", 5, "~")
    ('abcd~', 'abc')
    """
    return text if len(text) <= most else text[:most - len(note)] + note


def _testcase(result, check, told, element, time_limit):
    seconds = time_limit if check["status"] == Verdict.TIMEOUT else 0
    lines = [f"    <testcase classname={_attr(_classname(result, check))} "
             f"name={_attr(check['name'])} time=\"{seconds:g}\">"]
    if element is not None:                 # its text too: GitLab shows only the text
        verdict = _verdict(check) if _loaded(result) else result["problem"]
        lines.append(f"      <{element} message={_attr(verdict)}"
                     + (f" type=\"{_status(check)}\">" if element != "skipped" else ">")
                     + _xml(_text(told, printed=False) or verdict) + f"</{element}>")
    for stream, tag in (("stdout", "system-out"), ("stderr", "system-err")):
        if check[stream]:
            lines.append(f"      <{tag}>{_xml(check[stream])}</{tag}>")
    return "\n".join(lines + ["    </testcase>"])


def _classname(result, check):
    """A testcase's class: the file, then the function (``ann/mine.py.softmax``).
    The file first, as the readers group and tell cases apart by class:
    Jenkins splits it at its last dot into a package (the file) and a class
    (the function); GitLab's test report shows it beside each case.  So a
    class's thirty students are thirty packages, not one class of 600 cases.

    >>> _classname({"file": "ann/mine.py"}, {"function": "softmax"})
    'ann/mine.py.softmax'
    """
    return f"{result['file']}.{check['function']}"


def _counts(counts):
    return " ".join(f'{key}="{value}"' for key, value in counts.items())


# XML 1.0 has no place for most control characters (a learner's clear-screen
# escape, a NUL): they are shown as \x1b, as the report shows them.
# (Written here, not taken from xml.sax.saxutils, whose import pulls in
# urllib and the email package: half the time `check` took to start.)
def _xml(text):
    """Text as XML character data; a learner's ``[[ATTACHMENT|path]]`` (which
    GitLab would turn into a link to that file of the job's) shown inert.

    >>> _xml("a < b & c"), _xml("[[ATTACHMENT|grades.csv]]")
    ('a &lt; b &amp; c', '[[ATTACHMENT\\\\|grades.csv]]')
    """
    text = report.visible(text, keep="\n\t\r").replace(ATTACHMENT, ATTACHMENT_SHOWN)
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# GitLab's JUnit reader links [[ATTACHMENT|path]] in a case's output to that
# file of the job's artifacts (lib/gitlab/ci/parsers/test/junit.rb).
ATTACHMENT, ATTACHMENT_SHOWN = "[[ATTACHMENT|", "[[ATTACHMENT\\|"


def _attr(text):
    r"""Text as a quoted XML attribute value, its line breaks and tabs kept:
    in single quotes if it holds a double quote and no single one.

    >>> print(_attr('say "hi"\n'), _attr("it's"), _attr('say "it\'s"'))
    'say "hi"&#10;' "it's" "say &quot;it's&quot;"
    """
    text = _xml(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


def _example():
    """A one-check result, for the examples above."""
    check = {"function": "softmax", "name": "large scores", "input": "softmax([1000, 1000])",
             "code": "softmax([1000, 1000])", "passed": False, "status": Verdict.ERROR,
             "expected": "[0.5, 0.5]", "got": "OverflowError: math range error",
             "hint": "subtract the row maximum", "message": None, "stdout": "hi", "stderr": ""}
    return {"file": "mine.py", "passed": 0, "failed": 1, "problem": None,
            "uses_reference": False, "stdout": "", "stderr": "", "checks": [check],
            "load": {"status": Load.OK}, "seconds": 0.1}
