"""The exercise's checker, graded as a learner and a teacher use it.

Every learner file this module needs from the corpus (tests/learner_corpus)
is checked once, through the real command line (``python -m lesson check``)
and the corpus's harness (tests/corpus.py), all at the same time: the slow
ones (files that hang) overlap, so the module stays quick.  Tests then read
the JSON results and reports, not re-parse them line by line.  The judge's
rules, on functions of the tests' own, are in test_judge.py; the checker's
options and the starter in test_cli.py; what the report says of a file's
mistakes and load problems in test_report.py.
"""

import ast
import json
import uuid

import pytest

from helpers import (FAST, checked, checked_at_once, closing_line, leftovers, passing,
                     statuses)

from lesson import softmax
from lesson.grader import contract
from lesson.grader.compare import matches

# What this module's copy of starts_processes.py marks its processes with: the
# learner corpus and the report's tests grade the same file on other workers
# meanwhile, and their processes are theirs to account for (tests/reaper.py).
OWN_MARK = f"lesson-test-exercise-mark-{uuid.uuid4().hex}"
HANG = "0.2"                                  # per check where every check hangs: nothing can time out by accident


# Each case: a sample and the options it is checked with.  Files that hang get
# short limits: the wall time at the default limit is bounded by the learner
# corpus's hang_four case (tests/test_learner_corpus.py), which mixes four kinds
# of hang.  Each hanging check spins a core for its whole limit.
CASES = {
    "correct_lists": [], "correct_numpy_arrays": [], "odd_returns": [],
    "dataclass_and_pool": [], "nan_when_masked": [], "notebook.ipynb": [],
    "never_returns": ["--time-limit", FAST], "starts_processes": [],
    "four_never_return": ["--time-limit", HANG],
}
# starts_processes.py at the default limit: its multiprocessing.Pool must start
# within one check's time even on a busy machine (at 0.5 s it sometimes did
# not), and its one hang sleeps rather than spins.


@pytest.fixture(scope="module", autouse=True)
def grading(tmp_path_factory):
    """Every case, checked in the background as the module starts."""
    yield from checked_at_once(CASES, tmp_path_factory, slowest=("four_never_return",),
                               mark=OWN_MARK)


@pytest.fixture(scope="module")
def graded(grading):
    """{case: (exit code, report, JSON result, seconds)}, once checked."""
    return checked(grading, CASES)


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
    assert leftovers(OWN_MARK) == []


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
    got, expected = json.loads(rounded["got"]), json.loads(rounded["expected"])
    assert len(got) == len(expected) > 0, rounded
    row = ast.literal_eval(rounded["input"][len("softmax("):-1])       # this run's fresh input
    returned = [round(w, 6) for w in softmax(row)]                       # what odd_returns gives
    differing = [i for i, w in enumerate(softmax(row)) if not matches(returned[i], w)]
    assert differing, rounded           # a weight the rounding moved (one may land on its value)
    for i in differing:
        assert got[i] != expected[i], (i, rounded)


def test_dataclasses_and_multiprocessing_work_as_outside_the_checker(graded):
    code, report, entry, _ = graded["dataclass_and_pool"]
    assert code == 0, report


def test_nan_for_a_fully_masked_row_fails(graded):
    pytest.importorskip("numpy")
    _, report, entry, _ = graded["nan_when_masked"]
    s = statuses(entry)
    assert s["all -inf row raises"] == "fail" and s["one-hot is 0"] == "fail"


def test_a_notebook_runs_cell_by_cell_and_names_its_cells(graded):
    _, report, entry, _ = graded["notebook.ipynb"]
    s = statuses(entry)
    assert s["large scores"] == "pass" and s["fails on [1000, 1000]"] == "pass"
    assert "cell 5, line 1" in report                         # a cell that failed: noted
    assert "(your cell 6, line 8: total -= p * math.log(p))" in report
    assert s["uniform over 4 is ln 4"] == "pass"


def test_no_process_is_left_running_after_the_whole_module(graded):
    assert leftovers(OWN_MARK) == []
