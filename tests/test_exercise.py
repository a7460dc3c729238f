"""The exercise's checker, graded as a learner and a teacher use it.

Every learner file this module needs from the corpus (tests/learner_corpus)
is checked once, through the real command line (``python -m lesson check``)
and the corpus's harness (tests/corpus.py), all at the same time: the slow
ones (files that hang) overlap, so the module stays quick.  Tests then read
the JSON results and reports, not re-parse them line by line.
"""

import concurrent.futures
import json
import math
import subprocess
import sys

import pytest

from corpus import check, leftovers

import lesson
from lesson.grader import contract, harness, judge
from lesson.cli import main

from conftest import SAMPLES      # tests/learner_corpus and the site's samples
FAST = "0.5"                                  # seconds per check in the tests that hang
HANG = "0.2"                                  # per check where every check hangs: nothing can time out by accident


# Each case: a sample and the options it is checked with.  Files that hang get
# short limits: the wall time at the default limit is bounded by the learner
# corpus's hang_four case (tests/test_learner_corpus.py), which mixes four kinds
# of hang.  Each hanging check spins a core for its whole limit.
CASES = {
    "correct_lists": [], "correct_numpy_arrays": [], "forgot_max": [], "log_of_zero": [],
    "syntax_error": [], "nul_byte": [], "odd_returns": [], "uses_reference": [],
    "prints_everywhere": [], "dataclass_and_pool": [], "nan_when_masked": [],
    "notes.txt": [], "notebook.ipynb": [], "writes_to_every_fd": [],
    "never_returns": ["--time-limit", FAST], "loops_at_import": ["--time-limit", FAST],
    "starts_processes": [], "four_never_return": ["--time-limit", HANG],
}
# starts_processes.py at the default limit: its multiprocessing.Pool must start
# within one check's time even on a busy machine (at 0.5 s it sometimes did
# not), and its one hang sleeps rather than spins.
# loops_at_import: a loop at the top level spins until the 5 s floor of the
# load limit, once: its report and its JSON come from the same run.


@pytest.fixture(scope="module", autouse=True)
def grading(tmp_path_factory):
    """Start checking every case at once, in the background, as the module starts.

    Each case is checked once, as a teacher who keeps the JSON does: the
    report on stdout and, with --results DIR, the file's JSON result (what
    --json prints for it) written beside it.  Tests that need no case run
    meanwhile; ``graded`` waits for the results.
    """
    def grade(name):
        path = str(SAMPLES / (name if "." in name else f"{name}.py"))
        folder = tmp_path_factory.mktemp("results")
        done = check("--results", str(folder), *CASES[name], path)
        saved = sorted(folder.iterdir())
        assert len(saved) == 1, (name, saved)
        return done, json.loads(saved[0].read_text())["file"]
    slowest = ("loops_at_import", "four_never_return")
    names = sorted(CASES, key=lambda name: name not in slowest)         # the slowest first
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        yield {name: pool.submit(grade, name) for name in names}


@pytest.fixture(scope="module")
def graded(grading):
    """{case: (exit code, report, JSON result, seconds)} for every case."""
    done = {name: future.result() for name, future in grading.items()}
    return {name: (run.returncode, run.stdout, result, run.seconds)
            for name, (run, result) in done.items()}


def statuses(entry):
    return {r["name"]: r["status"] for r in entry["checks"]}


def passing(entry):
    return {r["name"] for r in entry["checks"] if r["passed"]}


def closing_line(text):
    return text.rstrip("\n").splitlines()[-1]


def call_check(function, check):
    """Call a function on a check's input in this process, as a worker does."""
    return harness.call(function, check.args, check.kwargs)


# --- One source of truth: the lesson's own code passes its own checks -------

@pytest.mark.parametrize("check_", contract.CHECKS, ids=lambda c: f"{c.function}: {c.name}")
def test_the_lessons_own_functions_pass_every_check(check_):
    outcome = call_check(getattr(lesson, check_.function), check_)
    passed, got, expected = judge.judge(check_, outcome)
    assert passed, (got, expected)


def test_checks_cover_the_contract():
    names = {(c.function, c.kind) for c in contract.CHECKS}
    assert {f for f, _ in names} == set(contract.FUNCTIONS)
    assert ("softmax", "raises") in names and ("naive_softmax", "fails") in names
    assert judge.expected(contract.CHECKS[0])[0] == 0.67          # the lesson's 0.670
    assert next(c for c in contract.CHECKS if c.kind == "sums").total == 2.0


def test_only_a_loud_failure_or_inf_nan_counts_as_failing():
    fails = next(c for c in contract.CHECKS if c.kind == "fails")

    def outcome(function):
        return call_check(function, fails)
    assert judge.judge(fails, outcome(lambda x: [math.exp(s) for s in x]))[0]
    assert judge.judge(fails, outcome(lambda x: [math.nan, math.nan]))[0]
    assert not judge.judge(fails, outcome(lambda x: undefined_name))[0]  # noqa: F821
    for not_a_number in ("TODO", (s for s in [1.0]), [json]):
        assert not judge.judge(fails, outcome(lambda x: not_a_number))[0]
    assert not judge.judge(fails, outcome(lambda x: [0.5, 0.5]))[0]


def test_a_value_error_subclass_is_a_value_error():
    raises = next(c for c in contract.CHECKS if c.kind == "raises")

    class Masked(ValueError):
        pass

    def softmax(x, axis=-1):
        raise Masked("no visible key")
    assert judge.judge(raises, call_check(softmax, raises))[0]


# --- Options ----------------------------------------------------------------------

@pytest.mark.parametrize("limit", ["inf", "0", "-1", "nan", "abc"])
def test_a_bad_time_limit_is_a_one_line_usage_error(limit):
    code, out, err, _ = check("--time-limit", limit, str(SAMPLES / "correct_lists.py"))
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("python -m lesson check: error: argument --time-limit")


def test_help_documents_batch_mode_and_json():
    result = subprocess.run([sys.executable, "-m", "lesson", "check", "--help"],
                            capture_output=True, text=True)
    assert "--json" in result.stdout and "folder" in result.stdout
    assert f"default: {contract.TIME_LIMIT:g}" in result.stdout


def test_check_of_a_missing_file_is_one_line(capsys):
    assert main(["check", "no/such/file.py"]) == 2
    assert capsys.readouterr().err.strip() == "python -m lesson check: error: no file no/such/file.py"


# --- Starter ------------------------------------------------------------------------

def test_untouched_starter_is_not_done_yet(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["starter"]) == 0
    assert (tmp_path / "softmax_exercise.py").exists()
    capsys.readouterr()
    assert main(["check", "softmax_exercise.py"]) == 1
    out = capsys.readouterr().out
    assert out.count("not done yet") == len(contract.CHECKS)
    assert out.splitlines()[-1] == f"0 passed, {len(contract.CHECKS)} failed"


def test_starter_never_overwrites(tmp_path, capsys):
    path = tmp_path / "mine.py"
    path.write_text("# my work\n")
    assert main(["starter", str(path)]) == 1
    assert path.read_text() == "# my work\n"
    assert "already exists" in capsys.readouterr().err


def test_starter_into_a_missing_folder_is_one_line(tmp_path, capsys):
    assert main(["starter", str(tmp_path / "no" / "such" / "ex.py")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_starter_holds_the_four_stubs_and_their_contracts(tmp_path):
    path = tmp_path / "ex.py"
    contract.write_starter(str(path))
    text = path.read_text()
    for name in contract.FUNCTIONS:
        assert f"def {name}(" in text
    assert "python -m lesson check ex.py" in text
    compile(text, str(path), "exec")


# --- Learners' files, checked through the command line ------------------------

def test_a_correct_file_passes_everything_quickly(graded):
    code, report, entry, seconds = graded["correct_lists"]
    assert code == 0 and entry["failed"] == 0 and entry["passed"] == len(contract.CHECKS)
    assert closing_line(report) == f"{len(contract.CHECKS)} passed, 0 failed"
    assert seconds < 10            # about 0.2 s alone; the bound allows for a busy machine


def test_a_numpy_solution_passes(graded):
    pytest.importorskip("numpy")
    code, report, entry, _ = graded["correct_numpy_arrays"]
    assert code == 0, report


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


def test_four_functions_that_never_return_cost_one_time_limit_each(graded):
    """Each function hangs once; its other checks are not run, so the report comes
    after four time limits and three restarts, well inside the file's limit."""
    code, report, entry, seconds = graded["four_never_return"]
    print(f"\nfour functions that never return, at --time-limit {HANG}: {seconds:.2f} s "
          f"(the file's budget is {contract.time_limits(float(HANG))[2]:g} s of its own time)")
    assert "the file used up its" not in report        # four hangs fit the budget
    hung = [r for r in entry["checks"] if r["status"] == "timeout"]
    assert [r["function"] for r in hung] == list(contract.FUNCTIONS)   # one each
    assert all(r["status"] in ("timeout", "not run") for r in entry["checks"])
    assert "softmax() did not return on 'lesson's first weight'" in report
    assert closing_line(report) == f"0 passed, {len(contract.CHECKS)} failed" and code == 1


def test_after_one_hang_the_rest_of_that_function_is_not_run(graded):
    _, report, entry, seconds = graded["never_returns"]
    s = statuses(entry)
    assert s["large scores"] == "timeout" and s["very negative scores"] == "not run"
    assert "never returned: stopped after 0.5 s" in report
    assert passing(entry) >= {"one-hot is 0", "a zero weight adds nothing",
                              "fails on [1000, 1000]", "lesson's first weight"}
    entropy = next(r for r in entry["checks"] if r["name"] == "one-hot is 0")
    assert entropy["stdout"] == "computing entropy of [1.0, 0.0, 0.0]\n"
    assert seconds < 15


def test_processes_the_learner_starts_do_not_outlive_the_checker(graded):
    _, report, entry, seconds = graded["starts_processes"]
    s = statuses(entry)
    assert s["true for softmax rows"] == "timeout"            # subprocess.run(sleep 90)
    assert s["each row of a matrix"] == "pass"                # multiprocessing.Pool
    assert s["agrees on small scores"] == "pass"              # os.fork()
    assert s["one-hot is 0"] == "pass"
    assert seconds < 20
    assert leftovers() == []


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


def test_odd_return_values_never_pass(graded):
    _, report, entry, _ = graded["odd_returns"]
    s = statuses(entry)
    assert s["fails on [1000, 1000]"] == "fail"               # "TODO"
    assert s["fails on [-1000, -1000]"] == "fail"             # a generator of Decimals
    assert s["one-hot is 0"] == "fail"                        # Decimal('0.5')
    assert s["true for softmax rows"] == "fail"               # 1, not True
    assert s["all -inf row raises"] == "pass"                 # a ValueError subclass
    assert s["lesson's first weight"] == "pass"               # 3 decimals asked for
    rounded = next(r for r in entry["checks"] if r["name"] == "weights sum to 1")
    assert rounded["expected"] != rounded["got"]              # six decimals, shown differing
    for got, expected in zip(json.loads(rounded["got"]), json.loads(rounded["expected"])):
        assert got != expected


def test_a_file_that_imports_the_lesson_scores_nothing(graded):
    code, report, entry, _ = graded["uses_reference"]
    assert entry["uses_reference"] is True and entry["passed"] == 0 and code == 1
    assert "imports the lesson's own code" in report


def test_dataclasses_and_multiprocessing_work_as_outside_the_checker(graded):
    code, report, entry, _ = graded["dataclass_and_pool"]
    assert code == 0, report


def test_nan_for_a_fully_masked_row_fails(graded):
    pytest.importorskip("numpy")
    _, report, entry, _ = graded["nan_when_masked"]
    s = statuses(entry)
    assert s["all -inf row raises"] == "fail" and s["one-hot is 0"] == "fail"


def test_load_problems_are_one_clear_sentence(graded):
    # Python 3.9's parser reports the unclosed "[" of line 6 at line 7.
    line = 6 if sys.version_info >= (3, 10) else 7
    for name, words in [("syntax_error", f"syntax error on line {line}"),
                        ("nul_byte", "NUL byte"),
                        ("loops_at_import", "did not finish loading within 5 s"),
                        ("notes.txt", "is not a Python file"),
                        ("writes_to_every_fd", "wrote into the checker's private pipe")]:
        code, report, entry, _ = graded[name]
        assert words in report and code == 1 and "Traceback" not in report, name
        if entry is not None:
            assert words in entry["problem"] and entry["passed"] == 0, name
        assert closing_line(report) == f"0 passed, {len(contract.CHECKS)} failed"
    assert "line 5" in graded["nul_byte"][2]["problem"]


def test_an_exception_is_reported_at_the_learners_line(graded):
    _, report, entry, _ = graded["log_of_zero"]
    assert "ValueError: math domain error (your line 8: total -= p * math.log(p))" in report
    assert statuses(entry)["lesson's first weight"] == "missing"
    assert "uniform over 4 is ln 4" in passing(entry)


def test_a_notebook_runs_cell_by_cell_and_names_its_cells(graded):
    _, report, entry, _ = graded["notebook.ipynb"]
    s = statuses(entry)
    assert s["large scores"] == "pass" and s["fails on [1000, 1000]"] == "pass"
    assert "cell 5, line 1" in report                         # a cell that failed: noted
    assert "(your cell 6, line 8: total -= p * math.log(p))" in report
    assert s["uniform over 4 is ln 4"] == "pass"


def test_no_process_is_left_running_after_the_whole_module(graded):
    assert leftovers() == []
