"""The checker's results in each platform's format, checked against the format
as the platform publishes it.

The schemas below are written from each platform's documentation: Gradescope's
"Autograder Specifications" (results.json), PrairieLearn's "External Grading"
(results.json), Exercism's test runner interface.md (version 3), and JUnit XML
as junitparser (a real consumer) reads it.  Each sample is graded once, in the
background, when the module starts.  What a run of the checker does with
the documents (output folders, one per file, exit codes) is test_session.py's.
"""

import concurrent.futures
import json
import os
import pathlib
import re

import junitparser
import pytest

from lesson.grader import contract as exercise, process as runner, report
from lesson.cli import main
from lesson.grader import formats

from conftest import SAMPLES      # tests/learner_corpus and the site's samples
from corpus import check         # python -m lesson check, as a teacher runs it
ROOT = pathlib.Path(__file__).resolve().parent.parent
FAST = 0.5                     # seconds per check for the files that hang

# --- The published formats -------------------------------------------------------
# key: (required, types, allowed values or None).  A key not listed is not in
# the format.

NUMBER = (int, float)
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}
TEXT_FORMATS = {"text", "html", "simple_format", "md", "ansi"}

GRADESCOPE = {
    "score": (True, NUMBER, None), "execution_time": (False, NUMBER, None),
    "output": (False, str, None), "output_format": (False, str, TEXT_FORMATS),
    "test_output_format": (False, str, TEXT_FORMATS),
    "test_name_format": (False, str, TEXT_FORMATS),
    "visibility": (False, str, VISIBILITY), "stdout_visibility": (False, str, VISIBILITY),
    "extra_data": (False, dict, None), "tests": (True, list, None),
    "leaderboard": (False, list, None),
}
# The issue asks for name, score, max_score, status, output and visibility on each.
GRADESCOPE_TEST = {
    "score": (True, NUMBER, None), "max_score": (True, NUMBER, None),
    "status": (True, str, {"passed", "failed"}), "name": (True, str, None),
    "name_format": (False, str, TEXT_FORMATS), "number": (False, str, None),
    "output": (True, str, None), "output_format": (False, str, TEXT_FORMATS),
    "tags": (False, list, None), "visibility": (True, str, VISIBILITY),
    "extra_data": (False, dict, None),
}

PRAIRIELEARN = {
    "gradable": (False, bool, None), "score": (False, NUMBER, None),
    "message": (False, str, None), "output": (False, str, None),
    "images": (False, list, None), "tests": (False, list, None),
    "format_errors": (False, (str, list), None),
}
PRAIRIELEARN_TEST = {
    "name": (True, str, None), "description": (True, str, None),
    "points": (True, NUMBER, None), "max_points": (True, NUMBER, None),
    "message": (True, str, None), "output": (True, str, None),
    "images": (False, list, None),
}
PRAIRIELEARN_MAX_BYTES = 1_000_000

EXERCISM = {
    "version": (True, int, {3}), "status": (True, str, {"pass", "fail", "error"}),
    "message": (False, (str, type(None)), None), "tests": (True, list, None),
}
EXERCISM_TEST = {
    "name": (True, str, None), "test_code": (True, str, None),
    "status": (True, str, {"pass", "fail", "error"}),
    "message": (False, (str, type(None)), None), "output": (False, (str, type(None)), None),
    "task_id": (True, int, {1, 2, 3, 4}),
}
EXERCISM_OUTPUT_CAP = 500


def problems(document, fields, where="the document"):
    """What in document breaks fields (see above): [] when it follows them."""
    if not isinstance(document, dict):
        return [f"{where} is a {type(document).__name__}, not an object"]
    found = [f"{where} has {key!r}, which the format does not have"
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


def gradescope_problems(text):
    document = json.loads(text)
    found = problems(document, GRADESCOPE)
    for i, test in enumerate(document.get("tests", [])):
        found += problems(test, GRADESCOPE_TEST, f"tests[{i}]")
        if not found and not 0 <= test["score"] <= test["max_score"]:
            found.append(f"tests[{i}] scores {test['score']} of {test['max_score']}")
    if not found and document["score"] != sum(t["score"] for t in document["tests"]):
        found.append("the score is not the sum of the tests' scores")
    return found


def prairielearn_problems(text):
    document = json.loads(text)
    found = problems(document, PRAIRIELEARN)
    if len(text.encode()) > PRAIRIELEARN_MAX_BYTES:
        found.append("results.json is over 1 MB")
    if document.get("gradable", True):
        if not (isinstance(document.get("score"), NUMBER) and 0 <= document["score"] <= 1):
            found.append("a gradable result needs a score in [0, 1]")
    elif "format_errors" not in document:
        found.append("a result that is not gradable says why in format_errors")
    for i, test in enumerate(document.get("tests", [])):
        found += problems(test, PRAIRIELEARN_TEST, f"tests[{i}]")
    return found


def exercism_problems(text):
    document = json.loads(text)
    found = problems(document, EXERCISM)
    if document.get("status") == "error" and not isinstance(document.get("message"), str):
        found.append("status error needs a message")
    for i, test in enumerate(document.get("tests", [])):
        found += problems(test, EXERCISM_TEST, f"tests[{i}]")
        if len(test.get("output") or "") > EXERCISM_OUTPUT_CAP:
            found.append(f"tests[{i}]['output'] is over {EXERCISM_OUTPUT_CAP} characters")
    return found


def junit_suites(text):
    """The document as junitparser reads it: [(suite, [(case, result kinds)])]."""
    document = junitparser.JUnitXml.fromstring(text)
    assert isinstance(document, junitparser.JUnitXml), "the root is not <testsuites>"
    return [(suite, [(case, [type(r).__name__ for r in case.result]) for case in suite])
            for suite in document]


# --- The samples, graded once -----------------------------------------------------

OVER_BUDGET = """\
import time
time.sleep(1.2)                 # each load takes 1.2 s; every function hangs


def softmax(x, axis=-1):
    while True:
        pass


naive_softmax = rows_normalised = entropy = softmax
"""
# sample: (path relative to SAMPLES, or None for OVER_BUDGET; the check's limit)
CASES = {
    "correct": ("correct_lists.py", exercise.TIME_LIMIT),
    "wrong": ("forgot_max.py", exercise.TIME_LIMIT),
    "does not load": ("syntax_error.py", exercise.TIME_LIMIT),
    "hangs": ("never_returns.py", FAST),
    "notebook": ("notebook.ipynb", exercise.TIME_LIMIT),
    "prints": ("prints_everywhere.py", exercise.TIME_LIMIT),
    "imports the lesson": ("uses_reference.py", exercise.TIME_LIMIT),
    "over budget": (None, 0.2),
}


@pytest.fixture(scope="module")
def grading(tmp_path_factory):
    folder = tmp_path_factory.mktemp("over_budget")
    (folder / "slow.py").write_text(OVER_BUDGET)

    def grade(name):
        path, limit = CASES[name]
        path = str(SAMPLES / path) if path else str(folder / "slow.py")
        return runner.run(path, limit, shown_as=os.path.basename(path))
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        futures = {name: pool.submit(grade, name) for name in sorted(
            CASES, key=lambda name: name != "over budget")}           # the slowest first
        yield futures


@pytest.fixture(scope="module")
def graded(grading):
    return {name: future.result() for name, future in grading.items()}


def documents(result, name):
    limit = CASES[name][1]
    return {"gradescope": formats.gradescope(result), "prairielearn": formats.prairielearn(result),
            "exercism": formats.exercism(result, limit), "junit": formats.junit([result], limit)}


# --- Every document follows its format ------------------------------------------

@pytest.mark.parametrize("name", CASES)
def test_every_document_follows_its_published_format(graded, name):
    result = graded[name]
    made = documents(result, name)
    assert gradescope_problems(made["gradescope"]) == []
    assert prairielearn_problems(made["prairielearn"]) == []
    assert exercism_problems(made["exercism"]) == []
    # Every check's entry was among those checked; PrairieLearn lists none it cannot grade.
    checks = len(exercise.CHECKS)
    assert [len(json.loads(made[form])["tests"]) for form in ("gradescope", "exercism")] == [checks] * 2
    prairielearn = json.loads(made["prairielearn"])
    assert len(prairielearn.get("tests", [])) == (checks if prairielearn["gradable"] else 0)
    [(suite, cases)] = junit_suites(made["junit"])
    assert suite.name == result["file"] and suite.tests == len(cases) == len(exercise.CHECKS)
    assert [(c.classname, c.name) for c, _ in cases] == [
        (check.function, check.name) for check in exercise.CHECKS]
    kinds = [kind for _, found in cases for kind in found]
    assert (suite.failures, suite.errors, suite.skipped) == (
        kinds.count("Failure"), kinds.count("Error"), kinds.count("Skipped"))
    assert suite.time == pytest.approx(result["seconds"])


def test_the_format_checks_find_what_breaks_a_format():
    """The checks above find a broken test entry, so a document that passes was read."""
    entry = {"name": "softmax: x", "status": "passed"}           # no score, no output
    for found in (gradescope_problems(json.dumps({"score": 0, "tests": [entry]})),
                  prairielearn_problems(json.dumps({"gradable": True, "score": 0, "tests": [entry]})),
                  exercism_problems(json.dumps({"version": 3, "status": "pass", "tests": [entry]}))):
        assert found and all(problem.startswith("tests[0]") for problem in found), found


def test_a_correct_file_scores_full_marks_everywhere(graded):
    result = graded["correct"]
    made = documents(result, "correct")
    gradescope = json.loads(made["gradescope"])
    assert gradescope["score"] == len(exercise.CHECKS)
    assert {t["status"] for t in gradescope["tests"]} == {"passed"}
    assert json.loads(made["prairielearn"])["score"] == 1
    assert json.loads(made["exercism"])["status"] == "pass"
    [(suite, cases)] = junit_suites(made["junit"])
    assert (suite.failures, suite.errors, suite.skipped) == (0, 0, 0)


def test_a_wrong_file_shows_input_expected_got_and_hint(graded):
    result = graded["wrong"]
    made = documents(result, "wrong")
    failing = [c for c in result["checks"] if not c["passed"]]
    assert [c["name"] for c in failing] == ["large scores", "very negative scores",
                                            "each row of a matrix"]
    first = failing[0]

    gradescope = json.loads(made["gradescope"])
    assert gradescope["score"] == result["passed"] == len(exercise.CHECKS) - 3
    test = next(t for t in gradescope["tests"] if t["name"] == "softmax: large scores")
    assert (test["score"], test["max_score"], test["status"]) == (0, 1, "failed")
    for text in (first["input"], first["expected"], first["got"], first["hint"]):
        assert text in test["output"]

    prairielearn = json.loads(made["prairielearn"])
    assert prairielearn["gradable"] is True
    assert prairielearn["score"] == pytest.approx(result["passed"] / len(exercise.CHECKS))
    test = next(t for t in prairielearn["tests"] if t["name"] == "softmax: large scores")
    assert (test["points"], test["max_points"], test["description"]) == (0, 1, first["input"])
    assert test["message"] == first["hint"]                 # what to do next

    exercism = json.loads(made["exercism"])
    assert exercism["status"] == "fail" and exercism["message"] is None
    test = exercism["tests"][2]
    assert (test["name"], test["status"], test["test_code"]) == (
        "softmax: large scores", "fail", "softmax([1000, 1000])")
    assert first["got"] in test["message"] and first["hint"] in test["message"]
    assert [t["task_id"] for t in exercism["tests"]] == [
        exercise.FUNCTIONS.index(c.function) + 1 for c in exercise.CHECKS]
    assert all(t["message"] is None for t in exercism["tests"] if t["status"] == "pass")

    [(suite, cases)] = junit_suites(made["junit"])
    case, kinds = cases[2]
    assert kinds == ["Failure"] and case.result[0].message == first["hint"]
    assert first["got"] in case.result[0].text
    assert (suite.failures, suite.errors) == (3, 0)


def test_a_file_that_does_not_load_scores_zero_and_says_why(graded):
    result = graded["does not load"]
    made = documents(result, "does not load")
    assert result["problem"].startswith("Your file has a syntax error")

    gradescope = json.loads(made["gradescope"])
    assert gradescope["score"] == 0 and gradescope["output"].startswith(result["problem"])

    prairielearn = json.loads(made["prairielearn"])
    assert prairielearn["gradable"] is False and "score" not in prairielearn
    assert prairielearn["format_errors"] == [result["problem"]]

    exercism = json.loads(made["exercism"])
    assert exercism["status"] == "error" and exercism["message"].startswith(result["problem"])

    [(suite, cases)] = junit_suites(made["junit"])
    assert suite.errors == len(exercise.CHECKS)
    assert {case.result[0].message for case, _ in cases} == {result["problem"]}


def test_a_hang_is_an_error_and_what_it_stopped_is_skipped(graded):
    result = graded["hangs"]
    made = documents(result, "hangs")
    statuses = [c["status"] for c in result["checks"] if c["function"] == "softmax"]
    assert statuses[:3] == ["pass", "pass", "timeout"] and set(statuses[3:]) == {"not run"}
    exercism = json.loads(made["exercism"])
    softmax = [t["status"] for t in exercism["tests"] if t["task_id"] == 1]
    assert softmax == ["pass", "pass"] + ["error"] * (len(softmax) - 2)
    assert exercism["status"] == "fail"                       # it ran within the budget
    [(suite, cases)] = junit_suites(made["junit"])
    kinds = [kinds for case, kinds in cases if case.classname == "softmax"]
    assert kinds == [[], [], ["Error"]] + [["Skipped"]] * (len(kinds) - 3)
    timed_out = next(case for case, kinds in cases if kinds == ["Error"])
    assert timed_out.time == FAST
    entropy = next(case for case, _ in cases if case.classname == "entropy")
    assert "computing entropy of" in entropy.system_out        # what the learner printed


def test_a_notebooks_failed_cell_is_said_at_the_top(graded):
    result = graded["notebook"]
    assert result["problem"].startswith("A cell raised an error")
    gradescope = json.loads(formats.gradescope(result))
    assert gradescope["output"].startswith("Note: " + result["problem"])  # as the report says it
    assert gradescope["score"] == result["passed"] > 0
    assert json.loads(formats.prairielearn(result))["gradable"] is True


def test_printed_output_is_capped_for_exercism_and_safe_in_xml(graded):
    result = graded["prints"]
    exercism = json.loads(formats.exercism(result, exercise.TIME_LIMIT))
    outputs = [t["output"] for t in exercism["tests"] if t["output"]]
    assert outputs and all(len(o) <= EXERCISM_OUTPUT_CAP for o in outputs)
    assert "\x1b" in result["stdout"] or any("\x1b" in c["stdout"] for c in result["checks"])
    [(suite, cases)] = junit_suites(formats.junit([result], exercise.TIME_LIMIT))
    assert "softmax got" in cases[0][0].system_out


def test_exercism_truncates_long_output_with_its_message():
    check = dict(formats._example()["checks"][0], stdout="x" * 2000)
    result = dict(formats._example(), checks=[check])
    [test] = json.loads(formats.exercism(result, 1.0))["tests"]
    assert len(test["output"]) == EXERCISM_OUTPUT_CAP
    assert test["output"].endswith("Output was truncated. Please limit to 500 chars")


def test_a_file_that_imports_the_lesson_says_so_and_scores_nothing(graded):
    result = graded["imports the lesson"]
    gradescope = json.loads(formats.gradescope(result))
    assert gradescope["score"] == 0 and report.REFERENCE in gradescope["output"]


def test_a_file_over_exercisms_budget_is_an_error(graded):
    result = graded["over budget"]
    limit = CASES["over budget"][1]
    assert result["seconds"] >= exercise.time_limits(limit)[2]
    exercism = json.loads(formats.exercism(result, limit))
    assert exercism["status"] == "error"
    assert exercism["message"].startswith("Your file used up the")


def test_points_weigh_each_functions_checks(graded):
    result = graded["wrong"]
    points = formats.points(["softmax=2", "entropy=0"])
    worth = {"softmax": 2, "entropy": 0}
    most = sum(worth.get(c.function, 1) for c in exercise.CHECKS)
    won = sum(worth.get(c["function"], 1) for c in result["checks"] if c["passed"])
    gradescope = json.loads(formats.gradescope(result, points))
    assert (gradescope["score"], sum(t["max_score"] for t in gradescope["tests"])) == (won, most)
    prairielearn = json.loads(formats.prairielearn(result, points))
    assert prairielearn["score"] == pytest.approx(won / most)
    assert prairielearn["message"].endswith(f"{won} of {most} points")


@pytest.mark.parametrize("texts, message", [
    (["soft=2"], "--points soft=2: no function soft"),
    (["softmax=two"], "--points softmax=two: give the points for each check of softmax"),
    (["softmax=-1"], "--points softmax=-1: give the points"),
    (["softmax=nan"], "--points softmax=nan: give the points"),
    ([f"{f}=0" for f in exercise.FUNCTIONS], "every function is worth 0"),
])
def test_bad_points_are_named_in_the_error(texts, message):
    with pytest.raises(ValueError) as error:
        formats.points(texts)
    assert message in str(error.value)


def test_the_exercism_limit_fits_a_whole_file_in_its_budget():
    for limit in (0.1, 0.5, 1.0, 2.0, 7.5):
        fits = formats.exercism_time_limit(limit)
        assert fits <= limit
        assert exercise.time_limits(fits)[2] <= formats.EXERCISM_BUDGET - formats.EXERCISM_MARGIN


def test_document_names_tell_every_submission_apart():
    from lesson.grader.classroom import Entry, document_names
    paths = ["class/ann/softmax_exercise.py", "class/bo/softmax_exercise.py",
             "class/bo/softmax_exercise.ipynb", "late/ann/softmax_exercise.py", "x.py", "x.py"]
    entries = [Entry(p, p, relative=p.split("/", 1)[-1]) for p in paths]
    names = document_names(entries)
    assert len(set(names)) == len(names) and all(n.endswith(".json") for n in names)
    assert names[0] == "class-ann-softmax_exercise.py.json"      # its twin is in late/
    assert names[1] == "bo-softmax_exercise.py.json"
    assert names[-2:] == ["x.py.json", "x.py-2.json"]


# --- Through the command line ------------------------------------------------------

def test_json_is_an_alias_of_format_json():
    old, new = (check(*flag, "--seed", "5", str(SAMPLES / "forgot_max.py"))
                for flag in (["--json"], ["--format", "json"]))
    assert old.returncode == new.returncode == 1
    strip = lambda text: [{k: v for k, v in f.items() if k != "seconds"}   # noqa: E731
                          for f in json.loads(text)["files"]]
    assert strip(old.stdout) == strip(new.stdout)


def test_junit_for_several_files_is_one_document():
    files = [str(SAMPLES / "forgot_max.py"), str(SAMPLES / "syntax_error.py")]
    done = check("--format", "junit", *files)
    assert done.returncode == 1
    suites = junit_suites(done.stdout)
    assert [suite.name for suite, _ in suites] == files
    document = junitparser.JUnitXml.fromstring(done.stdout)
    assert (document.tests, document.failures, document.errors) == (40, 3, 20)


def test_help_lists_every_format(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = capsys.readouterr().out
    for name in formats.FORMATS:
        assert name in out
    assert "--output-dir" in out and "--points" in out and "--json" in out



# --- The Exercises page shows real documents ---------------------------------------

def test_the_exercises_page_shows_each_document_for_the_same_wrong_file(graded):
    """Its examples are what the formats make of forgot_max.py, tests cut to one."""
    page = (ROOT / "docs" / "exercises.md").read_text()
    shown = re.findall(r"```(json|xml)\n(.+?)\n```", page[page.index("### On a grading"):], re.S)
    assert [kind for kind, _ in shown] == ["json"] * 3 + ["xml"]
    result = dict(graded["wrong"], file="softmax_exercise.py")
    made = [formats.gradescope(result), formats.prairielearn(result),
            formats.exercism(result, formats.exercism_time_limit(exercise.TIME_LIMIT))]
    for (_, text), real in zip(shown, made):
        example, real = json.loads(text), json.loads(real)
        names = [test["name"] for test in example["tests"]]
        real["tests"] = [test for test in real["tests"] if test["name"] in names]
        for document in (example, real):
            document.pop("execution_time", None)            # the time it took, here and there
        assert example == real
    [(suite, [(case, _)])] = junit_suites(shown[3][1])
    [(real_suite, real_cases)] = junit_suites(formats.junit([result], exercise.TIME_LIMIT))
    real_case = next(c for c, _ in real_cases if (c.classname, c.name) == (case.classname, case.name))
    assert [(s.name, s.tests, s.failures, s.errors, s.skipped) for s in (suite, real_suite)] == [
        (real_suite.name, 20, 3, 0, 0)] * 2
    assert [(r.message, r.text, r.type) for r in case.result] == [
        (r.message, r.text, r.type) for r in real_case.result]
