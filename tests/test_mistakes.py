"""Each usual mistake is caught, and its hint names it (tests/mistakes/).

Every file in tests/mistakes/ is right in three of the four functions and
makes one usual mistake in the fourth.  The checker names a mistake only
when it explains every answer the function gave and the function's code
could make it (lesson/grader/diagnosis.py), so each file's hints must name
its own mistake, and, where its answers are those of other mistakes too
(``ALIKE_IN_ANSWERS``) and its code does not rule them out
(``NOT_RULED_OUT_BY_CODE``), those as well, in one "either ... or ..."
sentence; no hint may name any other.  Without the code, the hints name
every mistake alike in answers.  Which mistakes a hint names is read from
the result's "mistakes" (``Diagnosis.names``), never from the hint's words.  The files are
graded in this process, by the checker's own harness and judge, so the
module stays quick; the page's editor runs the same grader
(tests/test_runner_browser.py checks three of these files there).
"""

import pathlib
import sys
import warnings

import pytest

from lesson.grader import contract, harness, judge, reading
from lesson.grader.diagnosis import Diagnosis, diagnose
from lesson.grader.mistakes import MISTAKES as USUAL, SIGNS_SHOWN

MISTAKES = pathlib.Path(__file__).parent / "mistakes"
SEED = 11

# Files not named after their mistake (a mistake's name, or a sign's).
MADE = {"softmax_nan_when_masked": "softmax_masked_row_unguarded",
        "softmax_zerodivision_on_masked_row": "softmax_masked_row_unguarded",
        "softmax_raises_runtimeerror": "wrong_error_type",
        "softmax_float32": "float32", "softmax_rounded": "rounded",
        "naive_generator": "not_numbers", "softmax_no_axis_parameter": "not_a_parameter"}

# Mistakes whose answers are the same on every check: where the learner's code
# is not read, a hint names them all.
ALIKE_IN_ANSWERS = [
    {"softmax_minus_min", "softmax_minus_mean"},         # both nan only beside a -inf
    {"softmax_whole_matrix_max", "softmax_max_down_columns", "softmax_keepdims_forgotten"},
    {"naive_subtracts_max", "naive_falls_back"},
    {"rows_grand_total", "rows_first_row_only"},
    {"rows_no_abs", "rows_loose_fixed_tolerance", "rows_allclose"},
]

# Files whose code cannot rule out a mistake alike in answers (lesson/grader/
# reading.py): a list softmax that transposes for axis=0 could take its maximum
# down the columns, and nothing in code tells a total compared with the number
# of rows from a check of the first row alone.
NOT_RULED_OUT_BY_CODE = {
    "softmax_whole_matrix_max": {"softmax_whole_matrix_max", "softmax_max_down_columns"},
    "rows_grand_total": {"rows_grand_total", "rows_first_row_only"},
    "rows_first_row_only": {"rows_grand_total", "rows_first_row_only"},
}

NAMES = [mistake.name for mistake in USUAL] + [sign.name for sign in SIGNS_SHOWN]


def alike(name):
    """The mistake and those whose answers it cannot be told from."""
    return next((group for group in ALIKE_IN_ANSWERS if name in group), {name})


def told(stem, read=True):
    """What the hints of a file must name: its mistake, and those neither its
    answers nor (when ``read``) its code tell it from."""
    return NOT_RULED_OUT_BY_CODE.get(stem, {made(stem)}) if read else alike(made(stem))


def made(stem):
    return MADE.get(stem, stem)


def code_of(path):
    """What a file's code shows, by function, as the checker reads it."""
    path = pathlib.Path(path)
    return reading.facts(path.read_bytes(), path.name)


def run_here(path, seed=SEED):
    """(load, outcomes, checks): one file loaded and called in this process as
    a worker does, for the checks ``seed`` draws.  For benign files only: no
    time limit, no sandbox."""
    import numpy
    checks = contract.checks_for(seed)
    saved = sys.argv[:], sys.path[:], numpy.geterr(), set(sys.modules)
    with warnings.catch_warnings():
        return _run_here(path, checks, saved)


def _run_here(path, checks, saved):
    import numpy
    try:
        warnings.simplefilter("ignore")           # NumPy's, which a worker sends to stderr
        module, load = harness.load_file(str(path))
        outcomes = {}
        for index, check in enumerate(checks):
            function = getattr(module, check.function, None)
            outcomes[index] = (harness.call(function, check.args, check.kwargs)
                               if callable(function) else {"missing": True})
    finally:
        sys.argv[:], sys.path[:] = saved[0], saved[1]
        numpy.seterr(**saved[2])
        for name in set(sys.modules) - saved[3]:
            if name.split(".")[0] != "numpy":
                del sys.modules[name]
    return load, outcomes, checks


@pytest.fixture(scope="module")
def graded():
    """{(file stem, its code read): its results}, for every file in tests/mistakes."""
    out = {}
    for path in sorted(MISTAKES.glob("*.py")):
        load, outcomes, checks = run_here(path)
        for read in (True, False):
            out[path.stem, read] = judge.results(load, outcomes, checks=checks,
                                                 code=code_of(path) if read else None)
    return out


def named(results):
    """For each failing check of one file's results, the names its hint names."""
    return [set(r["mistakes"]) for r in results if not r["passed"]]


def test_every_usual_mistake_has_a_file():
    stems = {made(path.stem) for path in MISTAKES.glob("*.py")}
    assert set(NAMES) <= stems
    assert len(stems) >= 40


def test_every_mistake_and_sign_has_a_name_of_its_own():
    assert len(NAMES) == len(set(NAMES)) > 40


@pytest.mark.parametrize("read", [True, False], ids=["code read", "answers alone"])
@pytest.mark.parametrize("stem", sorted(p.stem for p in MISTAKES.glob("*.py")))
def test_each_mistake_is_caught_and_its_hint_names_it(graded, stem, read):
    said = named(graded[stem, read])
    assert said, f"{stem} passed every check"
    wanted = told(stem, read)
    assert set().union(*said) == wanted, (stem, said)     # its own, and those alike
    for names in said:
        assert names in ({made(stem)}, wanted, set()), names
    for result in graded[stem, read]:
        assert not result["mistakes"] or result["hint"], result   # a name comes with its hint


# Words only NumPy code has: a list solution's hint holds none of them.
NUMPY_WORDS = ("np.", "NumPy", "keepdims", "axis=axis", "(axis=-1)")


def misspoken(results, code):
    """The hints that speak another dialect than the code they are about: NumPy's
    words to a function written with lists, or "each row" on a check of columns
    (axis=0, the check's "input" says so)."""
    wrong = []
    for result in results:
        facts = (code or {}).get(result["function"])
        hint = result["hint"] or ""
        if facts is not None and "numpy" not in facts and any(w in hint for w in NUMPY_WORDS):
            wrong.append(hint)
        if "axis=0" in result["input"] and "each row" in hint:
            wrong.append(hint)
    return wrong


@pytest.mark.parametrize("stem", sorted(p.stem for p in MISTAKES.glob("*.py")))
def test_each_hint_speaks_the_dialect_of_the_code(graded, stem):
    assert misspoken(graded[stem, True], code_of(MISTAKES / f"{stem}.py")) == []


def test_a_hint_names_mistakes_alike_in_one_record(graded):
    first = next(r for r in graded["naive_falls_back", False] if not r["passed"])
    assert set(first["mistakes"]) == {"naive_subtracts_max", "naive_falls_back"}
    first = next(r for r in graded["softmax_whole_matrix_max", True] if not r["passed"])
    assert set(first["mistakes"]) == NOT_RULED_OUT_BY_CODE["softmax_whole_matrix_max"]


def test_every_mistake_answers_every_check_of_its_function():
    """A mistake gives an answer, fails as its code would, or has no say:
    never a crash of its own, whatever the fresh inputs."""
    answered = set()                    # the mistakes that gave some check an answer
    for seed in (1, 2, 3, SEED):
        for check in contract.checks_for(seed):
            for mistake in (m for m in USUAL if m.function == check.function):
                for answer in mistake.answers:
                    outcome = mistake.outcome(check, answer)
                    assert outcome is None or set(outcome) <= {"value", "error"}
                    if outcome is not None:
                        answered.add(mistake.name)
    assert answered == {m.name for m in USUAL} != set(), "mistakes that answered no check"


ODD = [[], [[]], [[1.0], 0.5], [[0.5, 0.5], [1.0]], [True, False], 10 ** 400, [10 ** 400],
       [[[0.5]]], -1.0, float("nan"), [float("inf"), 0.0], {"other": "str", "repr": "'x'"},
       [{"other": "Decimal", "repr": "Decimal('1')"}], 1, "text"]
ODD_ERRORS = [{"type": "X"}, {"type": "TypeError", "kinds": ["TypeError"], "message": None},
              {"type": "E", "kinds": "ValueError"}]


@pytest.mark.parametrize("check", contract.CHECKS, ids=lambda c: f"{c.function}: {c.name}")
def test_a_hint_is_a_sentence_or_none_whatever_came_back(check):
    """Whatever a learner's function returns or raises, judging and diagnosing
    it never fails."""
    right = contract.right_answer(check)
    outcomes = [{"value": v} for v in ODD] + [{"error": e} for e in ODD_ERRORS]
    for outcome in outcomes:
        others = [(c, outcome, contract.right_answer(c)) for c in contract.CHECKS
                  if c.function == check.function]
        found = diagnose(check, outcome, right, others)
        assert isinstance(found, Diagnosis), (outcome, found)
        assert found.text is None or isinstance(found.text, str), (outcome, found)
        assert set(found.names) <= set(NAMES), found
        assert not found.names or found.text, found          # a name comes with its text
        if "value" in outcome:
            passed, got, wanted = judge.judge(check, outcome, right)
            assert isinstance(got, str) and isinstance(wanted, str)
