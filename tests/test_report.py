"""lesson/grader/report.py: what the checker's report says, read as a learner reads it.

Each learner file (tests/learner_corpus and the site's samples) is checked
once, in the background as the module starts, through the real command line
(test_exercise.py's ``checked_at_once``): its report, and its JSON result.
The report's records against the page's drawing and the platforms' documents
are test_report_agreement.py's.
"""

import sys

import pytest

from lesson.grader import contract, judge, report

from helpers import FAST, checked, checked_at_once, closing_line, passing, statuses

# Each case: a sample and the options it is checked with.
CASES = {
    "forgot_max": [], "log_of_zero": [], "prints_everywhere": [], "uses_reference": [],
    "syntax_error": [], "nul_byte": [], "notes.txt": [], "writes_to_every_fd": [],
    "hang_top_level_loop": ["--time-limit", FAST],
}
# hang_top_level_loop: a loop at the top level runs until the 5 s floor of the
# load limit, once: its report and its JSON come from the same run.  Its loop
# sleeps a little each turn, so the 5 s leave the cores to the other tests;
# the report is the same for a loop that spins (loops_at_import, graded with
# every other file of the corpus in test_report_agreement.py).


@pytest.fixture(scope="module", autouse=True)
def grading(tmp_path_factory):
    """Every case, checked in the background as the module starts."""
    yield from checked_at_once(CASES, tmp_path_factory, slowest=("hang_top_level_loop",))


@pytest.fixture(scope="module")
def graded(grading):
    """{case: (exit code, report, JSON result, seconds)}, once checked."""
    return checked(grading, CASES)


# --- A file that loads: what failed, where, and what it printed -------------------

def test_forgetting_the_max_fails_only_on_extreme_scores(graded):
    code, report, entry, _ = graded["forgot_max"]
    failing = {r["name"] for r in entry["checks"] if not r["passed"]}
    assert failing == {"large scores", "very negative scores", "each row of a matrix"}
    assert code == 1                    # the matrix's second row is around -1000
    block = report[report.index("FAIL  large scores"):]
    assert "input:    softmax([1000, 1000])" in block
    assert "expected: [0.5, 0.5]" in block
    assert "OverflowError" in block and "your line 8" in block
    assert "subtract the row maximum" in block
    assert closing_line(report) == "17 passed, 3 failed"


def test_an_exception_is_reported_at_the_learners_line(graded):
    _, report, entry, _ = graded["log_of_zero"]
    assert "ValueError: math domain error (your line 8: total -= p * math.log(p))" in report
    assert statuses(entry)["lesson's first weight"] == "missing"
    assert "uniform over 4 is ln 4" in passing(entry)


def test_learner_output_never_breaks_the_report_and_is_shown_by_its_check(graded):
    code, report, entry, _ = graded["prints_everywhere"]
    assert code == 0 and entry["failed"] == 0
    assert "hello from the shell" in entry["stdout"] and "a child process prints" in entry["stdout"]
    assert "to the real stdout" in entry["stdout"]
    first = entry["checks"][0]
    assert first["stdout"] == "softmax got [0.7071, 0]\n"
    naive = next(r for r in entry["checks"] if r["function"] == "naive_softmax")
    assert naive["stdout"] == "naive via the shell\n"
    rows = next(r for r in entry["checks"] if r["function"] == "rows_normalised")
    assert rows["stderr"] == "warning from rows_normalised\n"
    entropy = next(r for r in entry["checks"] if r["function"] == "entropy")
    assert len(entropy["stdout"]) < 3000 and "more characters not shown" in entropy["stdout"]
    assert "\x1b" not in report and "\\x1b[H" in report       # the clear screen, made visible
    assert "        printed:  softmax got [0.7071, 0]" in report


def test_a_file_that_imports_the_lesson_scores_nothing(graded):
    code, report, entry, _ = graded["uses_reference"]
    assert entry["uses_reference"] is True and entry["passed"] == 0 and code == 1
    assert "imports the lesson's own code" in report


# --- A file that does not load: one clear sentence -------------------------------

def test_load_problems_are_one_clear_sentence(graded):
    # Python 3.9's parser reports the unclosed "[" of line 6 at line 7.
    line = 6 if sys.version_info >= (3, 10) else 7
    for name, words in [("syntax_error", f"syntax error on line {line}"),
                        ("nul_byte", "NUL byte"),
                        ("hang_top_level_loop", "did not finish loading within 5 s"),
                        ("notes.txt", "is not a Python file"),
                        ("writes_to_every_fd", "wrote into the checker's private pipe")]:
        code, report, entry, _ = graded[name]
        assert words in report and code == 1 and "Traceback" not in report, name
        if entry is not None:
            assert words in entry["problem"] and entry["passed"] == 0, name
        assert closing_line(report) == f"0 passed, {len(contract.CHECKS)} failed"
    assert "line 5" in graded["nul_byte"][2]["problem"]


# --- The report on a terminal ------------------------------------------------------

def test_a_wrapped_report_keeps_every_word_under_its_own_text():
    """Each record wrapped to a terminal's width: the same words in the same
    order, no line wider than the terminal unless one word is, and each line
    it goes on under its text (after the label), never under the label."""
    raised = {"error": {"type": "OverflowError", "message": "math range error",
                        "kinds": ["OverflowError", "ArithmeticError"], "line": 8,
                        "where": "line 8", "code": "exps = [math.exp(s) for s in scores]"},
              "stdout": "softmax got " + "[1000, 1000] " * 12}
    outcomes = {index: raised for index in range(len(contract.CHECKS))}
    load = {"status": "ok"}
    result = {"file": "softmax_exercise.py", "load": load,
              "checks": report.located(judge.results(load, outcomes), outcomes)}
    for width in (40, 60, 80):
        for record in report.records(result):
            text, lines = report.line_text(record), report.wrapped([record], width)
            assert " ".join(lines).split() == text.split(), (width, text)
            column = " " * report.wrap_indent(record)
            assert all(len(one) <= width or len(column + one.split()[-1]) > width
                       for one in lines), (width, lines)                 # a word too long
            assert all(one.startswith(column) and one[len(column)] != " " for one in lines[1:])
