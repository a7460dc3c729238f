"""The exercise: starter file and checker, graded as a teacher would."""

import math
import os
import pathlib
import subprocess
import sys

import pytest

import lesson
from lesson import exercise
from lesson.cli import main

SAMPLES = pathlib.Path(__file__).parent / "exercise_samples"


def grade(name, time_limit=3.0):
    lines, passed, failed = exercise.grade(str(SAMPLES / f"{name}.py"), time_limit)
    return "\n".join(lines), passed, failed


def verdicts(report):
    """{check name: 'PASS' or 'FAIL'} read back from a report."""
    out = {}
    for line in report.splitlines():
        if line.startswith(("  PASS  ", "  FAIL  ")):
            out[line[8:]] = line[2:6]
    return out


# --- One source of truth: the lesson's own code passes its own checks -------

@pytest.mark.parametrize("check", exercise.CHECKS, ids=lambda c: f"{c.function}: {c.name}")
def test_the_lessons_own_functions_pass_every_check(check):
    function = getattr(lesson, check.function)
    try:
        outcome = {"value": exercise._plain(function(*check.args, **check.kwargs))}
    except (ValueError, OverflowError) as error:
        outcome = {"error": {"type": type(error).__name__, "message": str(error)}}
    passed, got, expected = exercise.judge(check, outcome)
    assert passed, (got, expected)


def test_checks_cover_the_contract():
    names = {(c.function, c.expect) for c in exercise.CHECKS}
    assert {f for f, _ in names} == set(exercise.FUNCTIONS)
    assert ("softmax", "raises") in names and ("naive_softmax", "fails") in names
    lesson_number = exercise.CHECKS[0]
    assert lesson_number.expected()[0] == 0.67          # the lesson's 0.670
    four = next(c for c in exercise.CHECKS if c.expect == "sums")
    assert four.total == 2.0


def test_a_bug_is_not_a_loud_failure():
    check = next(c for c in exercise.CHECKS if c.expect == "fails")
    assert exercise.judge(check, {"error": {"type": "OverflowError", "message": ""}})[0]
    assert not exercise.judge(check, {"error": {"type": "NameError", "message": ""}})[0]
    assert exercise.judge(check, {"value": [math.nan, math.nan]})[0]
    assert not exercise.judge(check, {"value": [0.5, 0.5]})[0]


# --- Sample solutions ---------------------------------------------------------

def test_correct_list_solution_passes_everything():
    report, passed, failed = grade("correct_lists")
    assert failed == 0 and passed == len(exercise.CHECKS)
    assert report.splitlines()[-1] == f"{passed} passed, 0 failed"


def test_correct_numpy_solution_passes_everything():
    pytest.importorskip("numpy")
    report, passed, failed = grade("correct_numpy")
    assert failed == 0, report


def test_forgetting_the_max_fails_with_a_hint_that_teaches():
    report, passed, failed = grade("forgot_max")
    v = verdicts(report)
    assert v["large scores"] == "FAIL" and v["very negative scores"] == "FAIL"
    assert v["lesson's first weight"] == "PASS"
    block = report[report.index("FAIL  large scores"):]
    assert "input:    softmax([1000, 1000])" in block
    assert "expected: [0.5, 0.5]" in block
    assert "OverflowError" in block and "your line 6" in block
    assert "subtract the row maximum" in block
    assert failed > 0 and report.splitlines()[-1] == f"{passed} passed, {failed} failed"


def test_nan_for_a_fully_masked_row_fails():
    pytest.importorskip("numpy")
    report, _, _ = grade("nan_when_masked")
    v = verdicts(report)
    assert v["all -inf row raises"] == "FAIL"
    block = report[report.index("FAIL  all -inf row raises"):]
    assert "nan" in block.split("hint")[0] and "raise ValueError" in block
    assert v["one-hot is 0"] == "FAIL"                   # 0 * log 0 is nan in NumPy


def test_a_function_that_never_returns_is_stopped_and_the_rest_still_run():
    report, passed, failed = grade("never_returns", time_limit=1.0)
    v = verdicts(report)
    assert v["large scores"] == "FAIL"
    assert "never returned: stopped after 1 s" in report
    # checks after the endless one ran, and the learner's print did not break them
    assert v["one-hot is 0"] == "PASS" and v["a zero weight adds nothing"] == "PASS"
    assert passed + failed == len(exercise.CHECKS)


def test_a_syntax_error_is_reported_with_its_line():
    report, passed, _ = grade("syntax_error")
    assert "syntax error on line 6" in report
    assert passed == 0 and "Traceback" not in report


def test_an_exception_is_reported_at_the_learners_line():
    report, _, _ = grade("log_of_zero")
    assert "ValueError: math domain error (your line 8: total -= p * math.log(p))" in report
    assert "not done yet: there is no function softmax() in your file" in report
    assert verdicts(report)["uniform over 4 is ln 4"] == "PASS"


def test_a_loop_at_the_top_level_is_reported_once():
    report, passed, _ = grade("loops_at_import", time_limit=1.0)
    assert "did not finish loading within 1 s" in report and passed == 0


# --- Starter and command line ---------------------------------------------------

def test_untouched_starter_is_not_done_yet(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["starter"]) == 0
    assert (tmp_path / "softmax_exercise.py").exists()
    capsys.readouterr()
    assert main(["check", "softmax_exercise.py"]) == 1
    out = capsys.readouterr().out
    assert out.count("not done yet") == len(exercise.CHECKS)
    assert out.splitlines()[-1] == f"0 passed, {len(exercise.CHECKS)} failed"


def test_starter_never_overwrites(tmp_path, capsys):
    path = tmp_path / "mine.py"
    path.write_text("# my work\n")
    assert main(["starter", str(path)]) == 1
    assert path.read_text() == "# my work\n"
    assert "already exists" in capsys.readouterr().err


def test_starter_holds_the_four_stubs_and_their_contracts(tmp_path):
    path = tmp_path / "ex.py"
    exercise.write_starter(str(path))
    text = path.read_text()
    for name in exercise.FUNCTIONS:
        assert f"def {name}(" in text
    assert "python -m lesson check ex.py" in text
    compile(text, str(path), "exec")


def test_filling_in_the_starter_reaches_all_checks_passing(tmp_path):
    path = tmp_path / "softmax_exercise.py"
    exercise.write_starter(str(path))
    solution = (SAMPLES / "correct_lists.py").read_text()
    path.write_text(path.read_text().split("import math", 1)[0] + solution)
    result = subprocess.run([sys.executable, "-m", "lesson", "check", str(path)],
                            capture_output=True, text=True, timeout=120,
                            cwd=tmp_path, env=dict(os.environ))
    assert result.returncode == 0, result.stdout
    assert result.stdout.splitlines()[-1] == f"{len(exercise.CHECKS)} passed, 0 failed"


def test_check_of_a_missing_file_is_one_line(capsys):
    assert main(["check", "no/such/file.py"]) == 2
    assert capsys.readouterr().err.strip() == "python -m lesson check: no file no/such/file.py"
