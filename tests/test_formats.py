"""The checker's results in each platform's format, checked against the rules
the platform publishes, for every file of a corpus: honest, wrong, not
loading, timing out, printing HTML, hostile.

The rules are data in platform_rules.py, each with the page and section
it comes from: Gradescope's "Autograder Specifications", PrairieLearn's
"External Grading", Exercism's test runner interface (version 3), and
Jenkins' JUnit schema (junit-10.xsd, validated with xmlschema) as well as
junitparser, a real reader.  Each sample is graded once, in the background,
when the module starts.  What a run of the checker does with the documents
(output folders, one per file, exit codes) is test_session.py's; what the
platforms' runners do is test_bundle.py's.
"""

import concurrent.futures
import decimal
import json
import os
import pathlib
import re
import subprocess
import sys

import junitparser
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from lesson.grader import contract as exercise, problems, process as runner, report
from lesson.cli import main
from lesson.grader import formats

from helpers import SAMPLES      # tests/learner_corpus and the site's samples
from helpers import check         # python -m lesson check, as a teacher runs it
from platform_rules import (EXERCISM, GRADESCOPE, PLATFORMS, PRAIRIELEARN,   # the rules
                            exercism_problems, gradescope_problems, junit_problems,
                            junit_suites, prairielearn_problems)
ROOT = pathlib.Path(__file__).resolve().parent.parent
FAST = 0.5                     # seconds per check for the files that hang


# --- The samples, graded once -----------------------------------------------------

OVER_BUDGET = """\
import time
time.sleep(1.2)                 # each load takes 1.2 s; every function hangs


def softmax(x, axis=-1):
    while True:
        pass


naive_softmax = rows_normalised = entropy = softmax
"""
# A right answer that prints markup, at the top and in each call.
PRINTS_HTML = """\
import math

print("<h1>20/20</h1><script>alert('graded')</script>")


def softmax(x, axis=-1):
    print("<b>softmax</b> & <i>friends</i>")
    if isinstance(x[0], list):
        if axis == 0:
            return [list(r) for r in zip(*[softmax(list(c)) for c in zip(*x)])]
        return [softmax(r) for r in x]
    m = max(x)
    if m == -math.inf:
        raise ValueError("softmax: all -inf")
    e = [math.exp(v - m) for v in x]
    return [v / math.fsum(e) for v in e]
"""
# A syntax error whose line is markup to an HTML reader.
HTML_SYNTAX_ERROR = """\
def softmax(x, axis=-1):
    if a<b and c > 0
        return x
"""
# Characters XML 1.0 has no place for, markup, and a CDATA end, everywhere
# a learner's text goes: what it prints, and what its function raises.
CONTROL_CHARACTERS = """\
print("nul\\x00 escape\\x1b[2J tab\\t vt\\x0b ]]> &amp; \\ufffe")


def softmax(x, axis=-1):
    print("\\x07bell <tag attr='\\"'> \\x9b2J c1 \\u2028 separator \\u202e override")
    print("[[ATTACHMENT|../../grades.csv]]")
    raise ValueError("\\x00\\x1b[31mred\\x1b[0m <![CDATA[ ]]> \\"quoted\\" 'single' & "
                     "\\udcff lone \\ud800 surrogates \\x85 next line")


naive_softmax = rows_normalised = entropy = softmax
"""
WRITTEN = {"over_budget.py": OVER_BUDGET, "prints_html.py": PRINTS_HTML,
           "html_syntax_error.py": HTML_SYNTAX_ERROR,
           "control_characters.py": CONTROL_CHARACTERS}

# sample: (a file of SAMPLES, or one of WRITTEN; the check's limit)
CASES = {
    "correct": ("correct_lists.py", exercise.TIME_LIMIT),
    "NumPy warns": ("correct_numpy.py", exercise.TIME_LIMIT),
    "wrong": ("forgot_max.py", exercise.TIME_LIMIT),
    "wrong answers": ("wrong_entropy_bits.py", exercise.TIME_LIMIT),
    "does not load": ("syntax_error.py", exercise.TIME_LIMIT),
    "hangs": ("never_returns.py", FAST),
    "notebook": ("notebook.ipynb", exercise.TIME_LIMIT),
    "prints": ("prints_everywhere.py", exercise.TIME_LIMIT),
    "imports the lesson": ("uses_reference.py", exercise.TIME_LIMIT),
    "over budget": ("over_budget.py", 0.2),
    "prints HTML": ("prints_html.py", exercise.TIME_LIMIT),
    "HTML in a syntax error": ("html_syntax_error.py", exercise.TIME_LIMIT),
    "control characters": ("control_characters.py", exercise.TIME_LIMIT),
    "stops its process": ("hostile_os_exit_in_function.py", exercise.TIME_LIMIT),
    "exits while loading": ("hostile_sys_exit_top.py", exercise.TIME_LIMIT),
    "prints a flood": ("hostile_huge_print.py", exercise.TIME_LIMIT),
    "writes to every pipe": ("writes_to_every_fd.py", exercise.TIME_LIMIT),
}


@pytest.fixture(scope="module")
def grading(tmp_path_factory):
    folder = tmp_path_factory.mktemp("written")
    for name, text in WRITTEN.items():
        (folder / name).write_text(text)

    def grade(name):
        path, limit = CASES[name]
        path = str(folder / path) if path in WRITTEN else str(SAMPLES / path)
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


def loaded(result):
    return result["load"]["status"] == "ok"


# --- Every document follows its platform's rules -----------------------------------

@pytest.mark.parametrize("name", CASES)
def test_every_document_follows_its_platforms_rules(graded, name):
    result = graded[name]
    made = documents(result, name)
    assert gradescope_problems(made["gradescope"]) == []
    assert prairielearn_problems(made["prairielearn"]) == []
    assert exercism_problems(made["exercism"], ran=loaded(result)) == []
    assert junit_problems(made["junit"]) == []
    # Every check's entry was among those checked; PrairieLearn lists none it cannot grade.
    checks = len(exercise.CHECKS)
    assert len(json.loads(made["gradescope"])["tests"]) == checks
    assert len(json.loads(made["exercism"])["tests"]) == (checks if loaded(result) else 0)
    prairielearn = json.loads(made["prairielearn"])
    assert len(prairielearn.get("tests", [])) == (checks if prairielearn["gradable"] else 0)
    # Ours, beyond PrairieLearn's rules: every field its element renders, and why not.
    assert all(set(t) == set(PRAIRIELEARN["test fields"]) - {"images"}
               for t in prairielearn.get("tests", []))
    assert prairielearn["gradable"] or prairielearn["format_errors"]
    [(suite, cases)] = junit_suites(made["junit"])
    assert suite.name == result["file"] and suite.tests == len(cases) == len(exercise.CHECKS)
    assert [(c.classname, c.name) for c, _ in cases] == [
        (f"{result['file']}.{check.function}", check.name) for check in exercise.CHECKS]
    kinds = [kind for _, found in cases for kind in found]
    assert (suite.failures, suite.errors, suite.skipped) == (
        kinds.count("Failure"), kinds.count("Error"), kinds.count("Skipped"))
    assert suite.time == pytest.approx(result["seconds"])


def test_the_corpus_holds_every_kind_of_file(graded):
    """Honest, wrong, not loading, timing out, printing HTML, hostile: each
    kind is there, so the documents above were checked on it."""
    statuses = {c["status"] for r in graded.values() for c in r["checks"]}
    loads = {r["load"]["status"] for r in graded.values()}
    assert {"pass", "fail", "error", "timeout", "not run"} <= statuses
    assert {"ok", "syntax"} <= loads and len(loads) >= 3
    assert any(r["passed"] == len(exercise.CHECKS) for r in graded.values())
    printed = "".join(r["stdout"] + "".join(c["stdout"] for c in r["checks"])
                      for r in graded.values())
    assert "<h1>20/20</h1>" in printed and "\x00" in printed


def test_the_rule_checks_find_what_breaks_each_rule():
    """Each check above finds a document that breaks its platform's rules, so
    a document that passes them was read."""
    gradescope = {"tests": [{"name": "softmax: x", "status": "passd", "output": 3}],
                  "output": "<h1>20/20</h1>"}
    found = gradescope_problems(json.dumps(gradescope))
    assert any("'status'] is 'passd'" in f for f in found)
    assert any("'output'] is a int" in f for f in found) and any("no score" in f for f in found)
    assert "output is rendered as 'simple_format', not as written" in found
    assert gradescope_problems(json.dumps(dict(gradescope, tests=[], score=0, output_format="text"))) == []

    found = prairielearn_problems(json.dumps({"score": 1.5, "tests": [{"points": "1"}]}))
    assert "a gradable result needs a score in [0.0, 1.0]" in found
    assert "tests[0]['points'] is a str" in found
    assert prairielearn_problems(json.dumps({"gradable": False, "grader": "ours"})) == []

    test = {"name": "x", "test_code": "f()", "status": "fail", "message": "", "output": "y" * 501}
    found = exercism_problems(json.dumps({"version": 3, "status": "error", "tests": [test]}),
                              ran=True)
    assert "status error needs a message" in found
    assert any("'message'] is empty" in f for f in found)
    assert any("over 500 characters" in f for f in found)
    assert "status error, where the interface gives fail" in found
    found = exercism_problems(json.dumps({"version": 3, "status": "fail", "message": "",
                                          "tests": []}))
    assert "status fail has a message: it must be null or omitted" in found
    found = exercism_problems(json.dumps({"version": 3, "status": "error", "message":
                                          "No module in /mnt/solution/x.py"}), solution="/mnt/solution/")
    assert found == ["a full path: name a file as <solution-dir>/relative/path"]

    found = junit_problems('<testsuites skipped="0"><testsuite tests="1"><testcase/>'
                           '</testsuite></testsuites>')
    assert len(found) == 2 and "'skipped' attribute not allowed" in found[0]
    assert "missing required attribute 'name'" in found[1]


def test_every_rule_names_where_the_platform_writes_it():
    for name, rules in PLATFORMS.items():
        assert set(rules) - {"sources"} == set(rules["sources"]), name
        assert all(source.startswith("https://") for source in rules["sources"].values()), name


# --- Gradescope -------------------------------------------------------------------

@pytest.mark.parametrize("name, markup", [
    ("prints HTML", "<h1>20/20</h1><script>alert('graded')</script>"),
    ("prints HTML", "<b>softmax</b> & <i>friends</i>"),
    ("HTML in a syntax error", "if a<b and c > 0"),
    ("control characters", "<tag attr='\"'>"),
])
def test_a_learners_markup_is_shown_as_written_on_gradescope(graded, name, markup):
    """Gradescope renders its top-level output as HTML unless told: every text
    that holds what a learner's code wrote is declared plain text."""
    document = json.loads(formats.gradescope(graded[name]))
    texts = [document["output"]] + [t["output"] for t in document["tests"]]
    assert any(markup in text for text in texts)
    assert gradescope_problems(json.dumps(document)) == []     # each of them is "text"


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


@pytest.mark.parametrize("name", CASES)
def test_every_json_document_shows_a_learners_text_printable_and_sound(graded, name):
    """Whatever a learner's code printed or raised (a terminal's escapes, a
    NUL, a C1 control, a line separator, an override, a lone surrogate),
    each JSON document shows it escaped, as the report does, in text that
    strict readers decode: no control character but a line break or a tab,
    no lone surrogate."""
    result = graded[name]
    made = documents(result, name)
    texts = [made["gradescope"], made["prairielearn"], made["exercism"],
             formats.json_text({"files": [result]})]
    for text in texts:
        for string in _strings(json.loads(text)):
            string.encode("utf-8")                           # no lone surrogate
            if not text.startswith('{\n "files"'):          # the raw results keep them
                assert all(c in "\n\t" or c.isprintable() for c in string), repr(string)


def test_the_grader_failing_is_no_gradescope_document():
    """Gradescope has no document for a grader's own failure: a run with no
    valid results.json is a failed run, where any document would be a grade."""
    broken = dict(formats._example(), load={"status": "unstarted"},
                  problem="The checker failed, not your file: the sandbox could not start.")
    assert formats.gradescope(broken) is None                 # GRADESCOPE["failed run"]


@pytest.mark.parametrize("mode", ["bwrap", "user", "none"])
def test_a_file_graded_without_confinement_says_so_in_every_document_that_can(graded, mode):
    """A file that ran with the grader's own rights (mode "none") says so at
    the top of Gradescope's and PrairieLearn's outputs; a sandboxed one, or
    one run as a user of its own, does not.  JUnit names the mode as a
    property (valid where junit-10.xsd allows one); Exercism's top-level
    message is only for a file that did not load, so it has no place there."""
    result = dict(graded["correct"], sandbox=mode)
    made = documents(result, "correct")
    for form in ("gradescope", "prairielearn"):
        said = formats.UNCONFINED in json.loads(made[form])["output"]
        assert said == (mode == "none"), form
    assert junit_problems(made["junit"]) == []
    assert f'<property name="sandbox" value="{mode}"/>' in made["junit"]


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
    assert exercism["tests"] == [] and "failed" not in exercism["message"]   # none ran
    assert "failed" not in prairielearn["output"]

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
    kinds = [kinds for case, kinds in cases if case.classname.endswith(".softmax")]
    assert kinds == [[], [], ["Error"]] + [["Skipped"]] * (len(kinds) - 3)
    timed_out = next(case for case, kinds in cases if kinds == ["Error"])
    assert timed_out.time == FAST
    entropy = next(case for case, _ in cases if case.classname.endswith(".entropy"))
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
    assert outputs and all(len(o) <= EXERCISM["output cap"] for o in outputs)
    assert "\x1b" in result["stdout"] or any("\x1b" in c["stdout"] for c in result["checks"])
    [(suite, cases)] = junit_suites(formats.junit([result], exercise.TIME_LIMIT))
    assert "softmax got" in cases[0][0].system_out


def test_exercism_truncates_long_output_with_its_message():
    check = dict(formats._example()["checks"][0], stdout="x" * 2000)
    result = dict(formats._example(), checks=[check])
    [test] = json.loads(formats.exercism(result, 1.0))["tests"]
    assert len(test["output"]) == EXERCISM["output cap"]
    assert test["output"].endswith(EXERCISM["truncated"])


def test_a_file_that_imports_the_lesson_says_so_and_scores_nothing(graded):
    result = graded["imports the lesson"]
    gradescope = json.loads(formats.gradescope(result))
    assert gradescope["score"] == 0 and problems.REFERENCE in gradescope["output"]


def test_a_file_that_uses_up_its_time_fails_on_exercism_and_each_test_says_why(graded):
    """Its tests ran (they timed out): the status is fail, not error, with no
    message at the top; each test not run says why in its own message."""
    result = graded["over budget"]
    limit = CASES["over budget"][1]
    assert result["seconds"] >= exercise.time_limits(limit)[2]
    exercism = json.loads(formats.exercism(result, limit))
    assert (exercism["status"], exercism["message"]) == ("fail", None)
    assert {t["status"] for t in exercism["tests"]} == {"error"}
    assert all(t["message"].startswith(("input:", "not run:")) for t in exercism["tests"])


def test_exercisms_test_code_runs_as_python_pasted_as_it_is(graded):
    """The interface: test_code is "the body of the command that is being
    tested", which a learner pastes; -inf is Python only as float("-inf")."""
    import lesson
    document = json.loads(formats.exercism(graded["correct"], exercise.TIME_LIMIT))
    codes = [t["test_code"] for t in document["tests"]]
    assert any('float("-inf")' in code for code in codes)
    for code, check in zip(codes, exercise.CHECKS):
        call = compile(code, "<test_code>", "eval")          # nothing but the call
        assert set(call.co_names) <= {check.function, "float"}, code
        namespace = {check.function: getattr(lesson, check.function)}
        try:
            eval(call, namespace)
        except (ValueError, ArithmeticError):                # the checks that must fail
            assert check.kind in ("raises", "fails"), code


def test_exercism_cuts_a_message_past_its_cap():
    load = {"status": "syntax", "line": 3, "where": "line 3", "message": "x" * 70_000,
            "code": "("}
    broken = dict(formats._example(), load=load, problem=problems.problem(load))
    document = json.loads(formats.exercism(broken, 1.0))
    assert len(document["message"]) == EXERCISM["message cap"]
    assert exercism_problems(json.dumps(document), ran=False) == []


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


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(exercise.FUNCTIONS),
                       st.decimals(0, 1000, places=2, allow_nan=False, allow_infinity=False)))
def test_scores_are_the_sums_of_the_points_a_teacher_gave(graded, worth):
    """Points of 0.1 or 0.7 add up to what a teacher adds up (11, not
    10.999999999999998), in every score and total of both documents."""
    result = graded["wrong"]
    if worth and not any(worth.get(f, 1) for f in exercise.FUNCTIONS):
        return                                            # nothing to score: refused
    points = formats.points([f"{f}={w}" for f, w in worth.items()])
    exact = {f: decimal.Decimal(str(w)) for f, w in worth.items()}
    won = sum((exact.get(c["function"], 1) for c in result["checks"] if c["passed"]),
              decimal.Decimal(0))
    most = sum((exact.get(c.function, 1) for c in exercise.CHECKS), decimal.Decimal(0))
    gradescope = json.loads(formats.gradescope(result, points))
    assert decimal.Decimal(str(gradescope["score"])) == won
    assert sum(decimal.Decimal(str(t["max_score"])) for t in gradescope["tests"]) == most
    prairielearn = json.loads(formats.prairielearn(result, points))
    assert prairielearn["message"].endswith(f"{won.normalize():f} of {most.normalize():f} points")


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
    assert formats.EXERCISM_BUDGET == EXERCISM["budget"]
    assert formats.EXERCISM_OUTPUT == EXERCISM["output cap"]
    assert formats.EXERCISM_MESSAGE == EXERCISM["message cap"]
    assert formats.exercism_time_limit(exercise.TIME_LIMIT) == exercise.TIME_LIMIT
    for limit in (0.1, 0.5, 1.0, 2.0, 7.5):
        fits = formats.exercism_time_limit(limit)
        assert fits <= limit
        assert exercise.time_limits(fits)[2] <= EXERCISM["budget"] - formats.EXERCISM_MARGIN


def test_a_whole_file_fits_each_platforms_default_timeout():
    """With room for Python to start, as on Exercism: a file that uses up all
    its time still gets its results written."""
    whole = exercise.time_limits(exercise.TIME_LIMIT)[2] + formats.EXERCISM_MARGIN
    assert whole <= PRAIRIELEARN["timeout"] and whole <= GRADESCOPE["timeout"]


def test_the_exercises_page_states_exercisms_budget_as_the_code_has_it():
    page = (ROOT / "docs" / "exercises.md").read_text()
    limit = formats.exercism_time_limit(exercise.TIME_LIMIT)
    said = " ".join(page[page.index("#### Exercism"):page.index("#### GitLab")].split())
    assert (f"Exercism gives a whole run {EXERCISM['budget']:g} seconds" in said
            and f"each check gets {limit:g} seconds" in said
            and f"a whole file at most {exercise.time_limits(limit)[2]:g}" in said), said


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


def test_json_of_a_file_named_in_no_encoding_is_strict_utf8(tmp_path):
    """A file whose name is not UTF-8 (caf\\xe9.py, from a Latin-1 zip) and
    whose function raises lone surrogates: --format json and --results write
    text every JSON reader decodes, the byte shown as \\xe9."""
    folder = os.fsencode(tmp_path)
    path = os.path.join(folder, b"caf\xe9.py")
    with open(path, "w") as file:
        file.write('def softmax(x, axis=-1):\n    raise ValueError("\\udcff \\ud800")\n')
    results = tmp_path / "results"
    done = subprocess.run([sys.executable, "-m", "lesson", "check", "--format", "json",
                           "--results", os.fsencode(results), path], capture_output=True,
                          timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 1, done.stderr
    written = [done.stdout] + [p.read_bytes() for p in results.iterdir()]
    assert len(written) == 2
    for raw in written:
        document = json.loads(raw.decode("utf-8"))
        entry = document["files"][0] if "files" in document else document["file"]
        assert entry["file"].endswith("caf\\xe9.py")
        for string in _strings(document):
            string.encode("utf-8")                           # no lone surrogate
        assert "\\xff \\ud800" in entry["checks"][0]["got"]


def test_junit_for_several_files_is_one_document():
    files = [str(SAMPLES / "forgot_max.py"), str(SAMPLES / "syntax_error.py")]
    done = check("--format", "junit", *files)
    assert done.returncode == 1
    assert junit_problems(done.stdout) == []
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
