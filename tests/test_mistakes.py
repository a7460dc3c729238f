"""Each typical mistake is caught, and its hint names it (tests/mistakes/).

The checker compares what came back with what each usual mistake would give
(lesson/grader/mistakes.py).  Every file in tests/mistakes/ makes one mistake;
for each, some failing check's hint must hold the phrase below, and no hint
may name another mistake's phrase.  The page's editor runs the same grader:
tests/test_runner_browser.py checks these files there too.
"""

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
MISTAKES = pathlib.Path(__file__).parent / "mistakes"
SEED = 11

# file -> words the hint of a failing check must hold
PHRASES = {
    "entropy_no_minus": "the minus sign",
    "entropy_over_ln_n": "divides by ln n",
    "entropy_log2": "log base 2",
    "entropy_log10": "log base 10",
    "softmax_masks_with_1e9": "masking with -1e9",
    "softmax_raises_runtimeerror": "you raise RuntimeError",
    "softmax_zerodivision_on_masked_row": "you raise ZeroDivisionError",
    "softmax_scales_by_sqrt_n": "sqrt(n)",
    "softmax_whole_matrix_max": "whole matrix's maximum",
    "softmax_whole_matrix_sum": "whole matrix's sum",
    "softmax_no_exp": "exponentiate each score first",
    "softmax_ignores_axis": "with axis=0 you normalised each row",
    "softmax_minus_min": "the row's minimum",
    "softmax_nan_when_masked": "instead of returning nan",
    "naive_subtracts_max": "it subtracts the maximum",
    "rows_flat_as_rows_of_one": "rows of one weight",
    "rows_bool_per_row": "a bool per row",
    "rows_grand_total": "with the number of rows",
    "rows_exact_equal_one": "exactly (== 1)",
    "rows_fixed_tolerance": "fixed tolerance",
}


def hints(entry):
    """The hints of the failing checks of one file's result."""
    return [c["hint"] or "" for c in entry["checks"] if not c["passed"]]


@pytest.fixture(scope="module")
def graded():
    """Every mistake, graded in one run of the checker: {file stem: result}."""
    done = subprocess.run([sys.executable, "-m", "lesson", "check", "--json", "--seed",
                           str(SEED), str(MISTAKES)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    files = json.loads(done.stdout)["files"]
    return {pathlib.Path(f["file"]).stem: f for f in files}


def test_the_corpus_and_the_phrases_name_the_same_mistakes(graded):
    assert set(graded) == set(PHRASES) == {p.stem for p in MISTAKES.glob("*.py")}


@pytest.mark.parametrize("name", sorted(PHRASES))
def test_each_mistake_is_caught_and_its_hint_names_it(graded, name):
    entry = graded[name]
    assert entry["failed"] > 0, f"{name} passed every check"
    said = hints(entry)
    assert any(PHRASES[name] in hint for hint in said), said
    others = [p for n, p in PHRASES.items() if n != name and PHRASES[name] not in p]
    for hint in said:                       # never a diagnosis the value does not show
        assert not [p for p in others if p in hint and p not in PHRASES[name]], (hint, name)
