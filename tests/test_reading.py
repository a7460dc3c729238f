"""What the checker reads in a learner's code (lesson/grader/reading.py), never running it.

The diagnosis rules a usual mistake out where the code shows none of the
facts the mistake needs, so a fact missed costs the learner a wrong hint:
each fact is read the ways learners write it, and a file that cannot be
read gives no facts at all (every mistake stays possible).
"""

import json
import pathlib

import pytest

from lesson.grader import reading
from lesson.grader.mistakes import MISTAKES

ROOT = pathlib.Path(__file__).resolve().parent
NUMPY = "import numpy as np\n"


def facts_of(source, function="softmax", filename="mine.py"):
    return reading.facts(source.encode("utf-8"), filename)[function]


def body(function, line, parameters=None):
    """A one-line function of the exercise, with the starter's parameters."""
    parameters = parameters or {"softmax": "x, axis=-1", "naive_softmax": "x",
                                "rows_normalised": "W, tol=1e-9", "entropy": "w"}[function]
    return f"def {function}({parameters}):\n    return {line}\n"


# (the code, the function, a fact, whether the code shows it)
SHOWN = [
    (NUMPY + body("softmax", "np.exp(x - x.max(axis=0))"), "softmax", "axis 0", True),
    (NUMPY + body("softmax", "np.exp(x - np.max(x, 0))"), "softmax", "axis 0", True),
    (body("softmax", "[list(c) for c in zip(*x)]"), "softmax", "axis 0", True),
    (NUMPY + body("softmax", "np.exp(x.T - x.T.max())"), "softmax", "axis 0", True),
    (body("softmax", "[list(c) for c in zip(x, x)]"), "softmax", "axis 0", False),
    (NUMPY + body("softmax", "x - x.max(-1)"), "softmax", "axis, no keepdims", True),
    (NUMPY + body("softmax", "x - np.max(x, axis=axis)"), "softmax", "axis, no keepdims", True),
    (NUMPY + body("softmax", "x - np.max(x, axis=axis, keepdims=True)"), "softmax",
     "axis, no keepdims", False),
    (NUMPY + body("softmax", "x - np.max(x, axis=axis, keepdims=True)"), "softmax",
     "max of all", False),
    (NUMPY + body("softmax", "x - x.max()"), "softmax", "max of all", True),
    (body("softmax", "[s - max(x) for s in x]"), "softmax", "max of all", True),
    (body("softmax", "[s - max(x) for s in x]"), "softmax", "axis, no keepdims", False),
    (body("softmax", "[s - sorted(x)[0] for s in x]"), "softmax", "min", True),
    (body("softmax", "[s - sum(x) / len(x) for s in x]"), "softmax", "mean", True),
    (body("softmax", "[s - statistics.mean(x) for s in x]"), "softmax", "mean", True),
    (body("softmax", "[s - min(x) for s in x]"), "softmax", "mean", False),
    (body("rows_normalised", "all(sum(r) - 1 <= tol for r in W)"), "rows_normalised",
     "compares without abs", True),
    (body("rows_normalised", "all(abs(sum(r)) - 1 <= tol for r in W)"), "rows_normalised",
     "compares without abs", True),
    (NUMPY + body("rows_normalised", "bool(np.all(np.less_equal(W.sum(-1) - 1, tol)))"),
     "rows_normalised", "compares without abs", True),
    (body("rows_normalised", "all(abs(sum(r) - 1) <= tol for r in W)"), "rows_normalised",
     "compares without abs", False),
    (body("rows_normalised", "all(tol >= math.fabs(sum(r) - 1) for r in W)"),
     "rows_normalised", "compares without abs", False),
    (NUMPY + body("rows_normalised", "bool(np.allclose(np.sum(W, -1), 1, atol=tol))"),
     "rows_normalised", "np.isclose", True),
    ("from numpy import isclose\n" + body("rows_normalised", "all(isclose(sum(W), 1))"),
     "rows_normalised", "np.isclose", True),
    (body("rows_normalised", "all(math.isclose(sum(r), 1) for r in W)"), "rows_normalised",
     "np.isclose", False),
    (body("rows_normalised", "all(abs(sum(r) - 1) <= tol for r in W)"), "rows_normalised",
     "small number", False),                        # the starter's tol=1e-9 is not the code's
    (body("rows_normalised", "all(abs(sum(r) - 1) <= tol for r in W)", "W, tol=1e-6"),
     "rows_normalised", "small number", True),
    ("TOL = 0.001\n" + body("rows_normalised", "all(abs(sum(r) - 1) <= TOL for r in W)"),
     "rows_normalised", "small number", True),
    (body("rows_normalised", "all(round(sum(r), 6) == 1 for r in W)"), "rows_normalised",
     "round", True),
    (body("rows_normalised", "all(abs(sum(r) - 1) <= eps for r in W)", "W, eps=1e-9"),
     "rows_normalised", "ignores tol", False),     # a parameter is known by its place
    (body("rows_normalised", "all(abs(sum(r) - 1) <= 1e-9 for r in W)"), "rows_normalised",
     "ignores tol", True),
    (body("rows_normalised", "all(sum(r) == 1 for r in W)", "W"), "rows_normalised",
     "ignores tol", True),
    ("def _row(r):\n    return min(r)\n" + body("softmax", "[_row(r) for r in x]"), "softmax",
     "min", True),                                  # a helper's code is the function's
    ("def _row(r):\n    return min(r)\n" + body("softmax", "list(map(_row, x))"), "softmax",
     "min", True),
    (body("naive_softmax", "softmax(x)") + body("softmax", "min(x)"), "naive_softmax",
     "calls softmax", True),
    (body("naive_softmax", "softmax(x)") + body("softmax", "min(x)"), "naive_softmax",
     "min", False),                                 # the other three are judged alone
    (NUMPY + body("naive_softmax", "np.nan_to_num(np.exp(x))"), "naive_softmax",
     "inf or nan", True),
    ("def naive_softmax(x):\n    try:\n        return 1\n    except OverflowError:\n"
     "        return 0\n", "naive_softmax", "try", True),
    (NUMPY + body("entropy", "-np.sum(w * np.log(w))"), "entropy", "numpy", True),
    (NUMPY + body("entropy", "-sum(p * math.log(p) for p in w if p)"), "entropy", "numpy",
     False),                                        # NumPy imported, not used here
    (NUMPY + "EPS = np.finfo(float).eps\n" + body("entropy", "-sum(p for p in w)"), "entropy",
     "numpy", False),                               # the dialect is the function's own
    (body("softmax", "[s - min(x) for s in x]") + "if __name__ == '__main__':\n"
     "    print(softmax([1.0, 2.0]) == sorted([1.0, 2.0]))\n", "softmax", "max", False),
    ("from numpy import max as npmax\n" + body("softmax", "x - npmax(x)"), "softmax",
     "max of all", True),
]


@pytest.mark.parametrize("source, function, fact, shown", SHOWN,
                         ids=[f"{f}: {fact} {'shown' if s else 'not shown'} {i}"
                              for i, (_, f, fact, s) in enumerate(SHOWN)])
def test_what_a_function_s_code_shows(source, function, fact, shown):
    assert (fact in facts_of(source, function)) is shown, sorted(facts_of(source, function))


@pytest.mark.parametrize("data", [b"def softmax(x:\n", b"x = 1\0\n", b"\xff\xfe\x00",
                                  b"x = " + b"(" * 300 + b"1" + b")" * 300 + b"\n",
                                  b"x = " + b"-" * 100_000 + b"1\n",
                                  b"# " + b"x" * reading.MOST_READ + b"\n"],
                         ids=["syntax", "NUL", "not text", "nested", "deep", "too large"])
def test_a_file_that_cannot_be_read_gives_no_facts(data):
    assert reading.facts(data + b"def softmax(x, axis=-1):\n    return x\n", "mine.py") is None


def test_a_notebook_is_read_as_its_code_cells_joined():
    cells = [{"cell_type": "markdown", "source": "# softmax"},
             {"cell_type": "code", "source": ["%matplotlib inline\n", "import numpy as np\n"]},
             {"cell_type": "code", "source": body("softmax", "np.exp(x - x.max())")}]
    data = json.dumps({"cells": cells}).encode()
    assert "numpy" in reading.facts(data, "mine.ipynb")["softmax"]
    cells[2]["source"] = "def softmax(x:\n"
    assert reading.facts(json.dumps({"cells": cells}).encode(), "mine.ipynb") is None


def test_a_function_not_defined_at_the_top_level_has_no_facts():
    code = ("class Solution:\n    def softmax(self, x, axis=-1):\n        return x\n\n"
            "softmax = Solution().softmax\nentropy = lambda w: 0.0\n"
            + body("rows_normalised", "True"))
    assert set(reading.facts(code.encode(), "mine.py")) == {"rows_normalised"}


def test_every_fact_read_and_needed_is_declared():
    declared = set(reading.FACTS) - {"ignores ..."}
    needed = set().union(*(mistake.needs for mistake in MISTAKES))
    assert needed and needed <= declared | {"ignores tol", "ignores axis"}, needed - declared
    found = set()
    for path in sorted((ROOT / "learner_corpus").glob("*.py")) + sorted(
            (ROOT / "mistakes").glob("*.py")):
        for facts in (reading.facts(path.read_bytes(), path.name) or {}).values():
            found |= facts
    assert {fact for fact in found if not fact.startswith("ignores ")} <= declared
    assert len(found) >= 12, found                  # the corpus shows most of them
