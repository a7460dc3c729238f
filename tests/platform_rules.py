"""The grading platforms' published rules, as data, each with the page and
section it is written in; and the checks that read a document against them.

Each platform is one dict: its rules (fields, allowed values, which status
applies when, null rather than empty, length caps, time budgets) and, under
"sources", where each rule is written.  A platform that changes a rule is
one edit here.  The pages were read on 2026-12-04:

Gradescope    gradescope/autograder_samples, docs/specs.md ("Autograder
              Specifications") and docs/troubleshooting.md
PrairieLearn  PrairieLearn/PrairieLearn, docs/externalGrading.md ("External Grading")
Exercism      exercism.org/docs/building/tooling/test-runners/interface (the
              test runner interface), building/tooling/docker.md, and
              exercism/tooling-invoker (what runs a test runner)
JUnit         jenkinsci/xunit-plugin's junit-10.xsd (tests/schemas/, its
              source and licence noted there), the schema Jenkins validates
              JUnit reports with; GitLab's reader (lib/gitlab/ci/parsers/test/
              junit.rb); and junitparser, a real reader

``gradescope_problems(text)`` and the others return [] for a document that
follows its platform's rules, else one line per rule it breaks.
"""

import json
import pathlib
import re
import xml.etree.ElementTree as ElementTree

import junitparser
import xmlschema

GRADESCOPE_SPECS = ("https://github.com/gradescope/autograder_samples/blob/master/docs/"
                    "specs.md")
GRADESCOPE_TROUBLE = ("https://github.com/gradescope/autograder_samples/blob/master/docs/"
                      "troubleshooting.md")
PRAIRIELEARN_DOC = ("https://github.com/PrairieLearn/PrairieLearn/blob/master/docs/"
                    "externalGrading.md")
EXERCISM_INTERFACE = "https://exercism.org/docs/building/tooling/test-runners/interface"
EXERCISM_DOCKER = ("https://github.com/exercism/docs/blob/main/building/tooling/"
                   "docker.md")
EXERCISM_INVOKER = ("https://github.com/exercism/tooling-invoker/blob/main/lib/"
                    "tooling_invoker/exec_docker.rb")
XUNIT_XSD = pathlib.Path(__file__).resolve().parent / "schemas" / "junit-10.xsd"

NUMBER = (int, float)
NONE = type(None)

# Fields: key -> (required, types, allowed values or None).  A key not listed
# is not in the format.

VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}
TEXT_FORMATS = {"text", "html", "simple_format", "md", "ansi"}

GRADESCOPE = {
    # "score": optional on top, "but required if not on each test case" (checked below)
    "fields": {
        "score": (False, NUMBER, None), "execution_time": (False, NUMBER, None),
        "output": (False, str, None), "output_format": (False, str, TEXT_FORMATS),
        "test_output_format": (False, str, TEXT_FORMATS),
        "test_name_format": (False, str, TEXT_FORMATS),
        "visibility": (False, str, VISIBILITY), "stdout_visibility": (False, str, VISIBILITY),
        "extra_data": (False, dict, None), "tests": (False, list, None),
        "leaderboard": (False, list, None),
    },
    "test fields": {
        "score": (False, NUMBER, None), "max_score": (False, NUMBER, None),
        "status": (False, str, {"passed", "failed"}), "name": (False, str, None),
        "name_format": (False, str, TEXT_FORMATS), "number": (False, str, None),
        "output": (False, str, None), "output_format": (False, str, TEXT_FORMATS),
        "tags": (False, list, None), "visibility": (False, str, VISIBILITY),
        "extra_data": (False, dict, None),
    },
    # How a text is rendered when its document names no format.
    "default formats": {"output": "simple_format", "test output": "text", "test name": "text"},
    # What the formats render: only "text" shows a learner's text as written.
    "rendered as written": {"text"},
    "failed run": "no results.json, or one that is not valid JSON",
    "timeout": 600,                       # seconds, the default overall timeout
    "sources": {
        "fields": f"{GRADESCOPE_SPECS}, Output format",
        "test fields": f"{GRADESCOPE_SPECS}, Output format; Test case status; "
                       f"Controlling Test Case Visibility",
        "default formats": f"{GRADESCOPE_SPECS}, Output String Formatting",
        "rendered as written": f"{GRADESCOPE_SPECS}, Output String Formatting (\"text\": "
                               f"no html, markdown, or ansi will be rendered)",
        "failed run": f"{GRADESCOPE_TROUBLE}, The autograder failed to execute correctly",
        "timeout": f"{GRADESCOPE_TROUBLE}, Your submission timed out",
    },
}

PRAIRIELEARN = {
    "fields": {
        "gradable": (False, bool, None), "score": (False, NUMBER, None),
        "message": (False, str, None), "output": (False, str, None),
        "images": (False, list, None), "tests": (False, list, None),
        "format_errors": (False, (str, list), None),
    },
    # "you may add any additional data to that object that you want"
    "extra keys": True,
    # The keys of a test in the results the <pl-external-grader-results> element
    # renders: an example of well-formed results, none of them required.
    "test fields": {
        "name": (False, str, None), "description": (False, str, None),
        "points": (False, NUMBER, None), "max_points": (False, NUMBER, None),
        "message": (False, str, None), "output": (False, str, None),
        "images": (False, list, None),
    },
    "score": (0.0, 1.0),                  # required when gradable
    "most bytes": 1_000_000,              # "this file should be limited to 1 MB"
    "timeout": 30,                        # seconds, the default of externalGradingOptions
    "sources": {
        "fields": f"{PRAIRIELEARN_DOC}, Grading results",
        "extra keys": f"{PRAIRIELEARN_DOC}, Grading results (As long as this field is "
                      f"present you may add any additional data)",
        "test fields": f"{PRAIRIELEARN_DOC}, Grading results (the example of well-formed "
                       f"results)",
        "score": f"{PRAIRIELEARN_DOC}, Grading results",
        "most bytes": f"{PRAIRIELEARN_DOC}, Grading results",
        "timeout": f"{PRAIRIELEARN_DOC}, Configuring and enabling external grader support",
    },
}

EXERCISM = {
    "fields": {
        "version": (True, int, {1, 2, 3}), "status": (True, str, {"pass", "fail", "error"}),
        "message": (False, (str, NONE), None), "tests": (False, list, None),
    },
    "test fields": {
        "name": (True, str, None), "test_code": (True, str, None),
        "status": (True, str, {"pass", "fail", "error"}),
        "message": (False, (str, NONE), None), "output": (False, (str, NONE), None),
        "task_id": (False, int, None),
    },
    "version": 3,                          # tests linked to tasks
    # status: "pass" all tests passed; "fail" at least one has the status fail
    # or error; "error" no test was executed, and only then (see exercism_status).
    "statuses": ("pass", "fail", "error"),
    "message cap": 65535,                  # characters of the top-level message
    "output cap": 500,                     # characters of a test's output
    "truncated": "Output was truncated. Please limit to 500 chars",
    "paths": "<solution-dir>/relative/path",   # how a message names a file, not /full/path
    # seconds a run may take, start to end (docker.md's "ten-second window" is
    # older: the invoker that runs test runners defaults to 20)
    "budget": 20,
    "most bytes": 500_000,                 # of results.json
    "most printed": 1 << 20,               # bytes of the runner's stdout and stderr
    "sources": {
        "fields": f"{EXERCISM_INTERFACE}, Output format: Top level (message: required "
                  f"if status = error; else null or omitted; tests: required if status "
                  f"= fail or pass)",
        "test fields": f"{EXERCISM_INTERFACE}, Output format: Per-test (test_code "
                       f"MUST be present for Concept Exercises; message: if there is "
                       f"no error message, null or omitted)",
        "version": f"{EXERCISM_INTERFACE}, Version",
        "statuses": f"{EXERCISM_INTERFACE}, Status (error: \"No test was executed\"; "
                    f"the error status should only be used if none of the tests were run)",
        "message cap": f"{EXERCISM_INTERFACE}, Message (the top level message value "
                       f"is limited to 65535 characters)",
        "output cap": f"{EXERCISM_INTERFACE}, Output",
        "truncated": f"{EXERCISM_INTERFACE}, Output",
        "paths": f"{EXERCISM_INTERFACE}, Message (simplify paths: <solution-dir>/"
                 f"relative/path instead of /full/path/to)",
        "budget": f"{EXERCISM_INTERFACE}, Allowed run time (a 20 second window per "
                  f"solution); {EXERCISM_INVOKER}, ExecDocker (@timeout_s = 20 unless a "
                  f"track sets one)",
        "most printed": f"{EXERCISM_DOCKER}, Stdout/stderr (up to a maximum of "
                        f"one-megabyte ... killed with a 413 error code)",
        "most bytes": f"{EXERCISM_DOCKER}, Results (no larger than 500 kilobytes)",
    },
}

GITLAB_JUNIT = ("https://gitlab.com/gitlab-org/gitlab/-/blob/master/lib/gitlab/ci/parsers/"
                "test/junit.rb")
JUNIT = {
    "schema": XUNIT_XSD,
    # GitLab shows a failure's, an error's or a skip's text, never its attributes:
    # an element with none shows GitLab's reader nothing (or its attributes, raw).
    "shown": ("failure", "error", "skipped"),
    # GitLab links [[ATTACHMENT|path]] in a failed case's system-out to that artifact.
    "attachment": "[[ATTACHMENT|",
    "sources": {"schema": "https://github.com/jenkinsci/xunit-plugin/blob/master/src/main/"
                          "resources/org/jenkinsci/plugins/xunit/types/model/xsd/"
                          "junit-10.xsd",
                "shown": f"{GITLAB_JUNIT}, create_test_case (system_output = data['failure'])",
                "attachment": f"{GITLAB_JUNIT}, ATTACHMENT_TAG_REGEX"},
}

PLATFORMS = {"gradescope": GRADESCOPE, "prairielearn": PRAIRIELEARN, "exercism": EXERCISM,
             "junit": JUNIT}


# --- The checks -------------------------------------------------------------------

def problems(document, fields, where="the document", extra=False):
    """What in document breaks fields (see above): [] when it follows them;
    a key not among them too, unless the format allows ``extra`` keys."""
    if not isinstance(document, dict):
        return [f"{where} is a {type(document).__name__}, not an object"]
    found = [] if extra else [f"{where} has {key!r}, which the format does not have"
                              for key in document if key not in fields]
    for key, (required, types, allowed) in fields.items():
        if key not in document:
            found += [f"{where} lacks {key!r}"] if required else []
            continue
        value = document[key]
        if isinstance(value, bool) and bool not in (types if isinstance(types, tuple)
                                                    else (types,)):
            found.append(f"{where}[{key!r}] is a bool")
        elif not isinstance(value, types):
            found.append(f"{where}[{key!r}] is a {type(value).__name__}")
        elif allowed is not None and value not in allowed:
            found.append(f"{where}[{key!r}] is {value!r}, not one of {sorted(allowed)}")
    return found


def gradescope_formats(document):
    """{where: the format Gradescope renders it in} for each text it shows."""
    default = GRADESCOPE["default formats"]
    shown = {"output": document.get("output_format", default["output"])}
    for i, test in enumerate(document.get("tests", [])):
        shown[f"tests[{i}]['output']"] = test.get(
            "output_format", document.get("test_output_format", default["test output"]))
        shown[f"tests[{i}]['name']"] = test.get(
            "name_format", document.get("test_name_format", default["test name"]))
    return shown


def gradescope_problems(text):
    document = json.loads(text)
    found = problems(document, GRADESCOPE["fields"])
    tests = document.get("tests", [])
    for i, test in enumerate(tests):
        found += problems(test, GRADESCOPE["test fields"], f"tests[{i}]")
    if "score" not in document and not (tests and all("score" in t for t in tests)):
        found.append("no score: the document or each test needs one")
    found += [f"{where} is rendered as {shown!r}, not as written"
              for where, shown in gradescope_formats(document).items()
              if shown not in GRADESCOPE["rendered as written"]]
    return found


def prairielearn_problems(text):
    document = json.loads(text)
    found = problems(document, PRAIRIELEARN["fields"], extra=PRAIRIELEARN["extra keys"])
    if len(text.encode()) > PRAIRIELEARN["most bytes"]:
        found.append(f"results.json is over {PRAIRIELEARN['most bytes']} bytes")
    low, high = PRAIRIELEARN["score"]
    if document.get("gradable", True):
        if not (isinstance(document.get("score"), NUMBER) and low <= document["score"] <= high):
            found.append(f"a gradable result needs a score in [{low}, {high}]")
    errors = document.get("format_errors", [])
    if isinstance(errors, list) and not all(isinstance(e, str) for e in errors):
        found.append("format_errors is a string or a list of strings")
    for i, test in enumerate(document.get("tests", [])):
        found += problems(test, PRAIRIELEARN["test fields"], f"tests[{i}]")
    return found


def exercism_status(statuses, ran):
    """The top-level status the interface gives a run whose tests have these
    statuses: ``ran`` is whether any test was executed (the file loaded)."""
    if not ran:
        return "error"
    return "pass" if statuses and all(s == "pass" for s in statuses) else "fail"


def exercism_problems(text, ran=None, solution=None):
    """What breaks Exercism's rules; with ``ran`` (whether the file loaded, so
    the tests ran), the status too must be the one the interface gives; with
    ``solution`` (the input folder), no message names a file by its full path."""
    document = json.loads(text)
    found = problems(document, EXERCISM["fields"])
    if solution is not None and str(solution).rstrip("/") in text:
        found.append(f"a full path: name a file as {EXERCISM['paths']}")
    elif FULL_PATH.search(text):                 # the worker's folder, say: not the learner's
        found.append(f"a full path ({FULL_PATH.search(text).group()}): name a file as "
                     f"{EXERCISM['paths']}")
    if len(text.encode()) > EXERCISM["most bytes"]:
        found.append(f"results.json is over {EXERCISM['most bytes']} bytes")
    if document.get("version") != EXERCISM["version"]:
        found.append(f"the version is not {EXERCISM['version']}")
    status, message = document.get("status"), document.get("message")
    if status == "error" and not (isinstance(message, str) and message):
        found.append("status error needs a message")
    if status != "error" and message is not None:
        found.append(f"status {status} has a message: it must be null or omitted")
    if isinstance(message, str) and len(message) > EXERCISM["message cap"]:
        found.append(f"the message is over {EXERCISM['message cap']} characters")
    if status in ("pass", "fail") and "tests" not in document:
        found.append(f"status {status} needs its tests")
    if status == "error" and document.get("tests"):
        found.append("status error lists tests: it means no test was executed")
    tests = document.get("tests", [])
    for i, test in enumerate(tests):
        found += problems(test, EXERCISM["test fields"], f"tests[{i}]")
        for key in ("message", "output"):
            if test.get(key) == "":
                found.append(f"tests[{i}][{key!r}] is empty: null or omitted when there is none")
        if len(test.get("output") or "") > EXERCISM["output cap"]:
            found.append(f"tests[{i}]['output'] is over {EXERCISM['output cap']} characters")
    if ran is not None and status != exercism_status([t.get("status") for t in tests], ran):
        found.append(f"status {status}, where the interface gives "
                     f"{exercism_status([t.get('status') for t in tests], ran)}")
    return found


# A path from the root to a Python file or notebook, as a traceback or a warning writes it.
FULL_PATH = re.compile(r"(?<![\w.])/(?:[^/\s\"']+/)+[^/\s\"']+\.(?:py|ipynb)\b")


_SCHEMA = []


def junit_problems(text):
    """What in a JUnit document Jenkins' schema (junit-10.xsd) refuses, and
    what GitLab's reader would show wrong."""
    if not _SCHEMA:
        _SCHEMA.append(xmlschema.XMLSchema(str(JUNIT["schema"])))
    found = [f"{error.reason} (at {error.path})" for error in _SCHEMA[0].iter_errors(text)]
    root = ElementTree.fromstring(text.encode())
    for case in root.iter("testcase"):
        for element in case:
            if element.tag in JUNIT["shown"] and not (element.text or "").strip():
                found.append(f"<{element.tag}> of {case.get('classname')} "
                             f"{case.get('name')!r} has no text: GitLab shows nothing")
    if JUNIT["attachment"] in "".join(root.itertext()):
        found.append("a [[ATTACHMENT|...]] that GitLab would link to a file of the job's")
    return found


def junit_suites(text):
    """The document as junitparser reads it: [(suite, [(case, result kinds)])]."""
    document = junitparser.JUnitXml.fromstring(text)
    assert isinstance(document, junitparser.JUnitXml), "the root is not <testsuites>"
    return [(suite, [(case, [type(r).__name__ for r in case.result]) for case in suite])
            for suite in document]
