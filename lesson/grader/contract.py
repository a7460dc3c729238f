"""The exercise's contract: the starter file, the checks as data, the limits.

Nothing here runs a learner's code.  Each check says what to call and its
kind; each kind (``KINDS``) says, once for the judge and the mistakes
alike, how its right answer comes from the lesson's own functions, what
answer passes, and how the right answer is shown.

    >>> check = check_named("large scores")
    >>> check.function, check.call_text(), check.kind
    ('softmax', 'softmax([1000, 1000])', 'weights')
    >>> right = right_answer(check)
    >>> right, KINDS["weights"].passes([0.5, 0.5 + 1e-12], right)
    ([0.5, 0.5], True)

What counts as the same number is ``lesson.grader.compare``'s one rule.
"""

import copy
import math
import os
import random

import lesson
from lesson.grader.compare import (REL_TOL, digits_to_differ, matches, numbers, raised_one_of,
                                   rounded, shape)
from lesson.tables import show_value

FUNCTIONS = ("softmax", "naive_softmax", "rows_normalised", "entropy")
SOURCE_KINDS = (".py", ".ipynb")    # what the checker reads: Python files, notebooks
NEG_INF = -math.inf

# Seconds one check may take.  Every check's input has at most four numbers:
# a right answer takes microseconds, and a slow machine under load still
# answers in hundredths of a second.  Two seconds is a hundred times that,
# and a learner whose four functions all hang still waits only about 8 s.
TIME_LIMIT = 2.0

# Characters of the learner's output kept per stream and step (the load, or
# one check).  The terminal and the page both keep this many and count the rest.
OUTPUT_LIMIT = 2000

STARTER = '''\
"""Lesson 4, softmax weights: the four functions of Part 2.

Fill in each function, then check your work:

    softmax-lesson check {name}

Use plain lists and the math module, or NumPy if you prefer: the checker
turns a NumPy result into a list with .tolist().
"""

import math


def softmax(x, axis=-1):
    """Numerically stable softmax of x along axis.

    Subtract the maximum along that axis before exponentiating, then divide
    by the sum.  Entries equal to -inf get weight exactly 0.  If a whole
    row is -inf (no key may be seen), raise ValueError.

    softmax([0.7071, 0]) -> about [0.670, 0.330]
    softmax([1000, 1000]) -> [0.5, 0.5]
    softmax([[1, 2], [3, 4]], axis=0) normalises each column
    """


def naive_softmax(x):
    """exp(x) / sum(exp(x)) along the last axis, with NO max subtraction.

    Kept to see why stability matters: on [1000, 1000] it must fail
    (an OverflowError, or inf/nan with NumPy), not quietly give [0.5, 0.5].
    """


def rows_normalised(W, tol=1e-9):
    """True if every row of W (its last axis) sums to 1 within tol.

    A flat list is one row.  math.fsum adds without losing digits.
    """


def entropy(w):
    """-sum(w * ln w) of one weight vector, in nats, taking 0 * ln 0 as 0.

    entropy([1, 0, 0]) -> 0.0 (focused); entropy([0.25] * 4) -> ln 4.
    """
'''


def write_starter(path):
    """Write the starter file; refuse (FileExistsError) if path exists.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "softmax_exercise.py")
    >>> write_starter(path)
    >>> try:
    ...     write_starter(path)              # a second time: the file is kept
    ... except FileExistsError:
    ...     print("already there, left as it is")
    ...
    already there, left as it is
    """
    with open(path, "x", encoding="utf-8") as file:
        file.write(STARTER.format(name=os.path.basename(path)))


def time_limits(time_limit=TIME_LIMIT):
    """(one check, loading the file, the whole file) in seconds.

    Loading may import NumPy, so it gets five checks' worth, and at least
    5 s.  The whole file gets five checks' worth plus 4 s: room for each of
    the four functions to hang once, and for its file to load again after.

    >>> time_limits(2.0)
    (2.0, 10.0, 14.0)
    >>> time_limits(0.5)
    (0.5, 5.0, 6.5)
    """
    load = max(5 * time_limit, 5.0)
    return time_limit, load, max(5 * time_limit + 4, load + time_limit)


# --- What each kind of check wants ---------------------------------------------------

def _lesson_answer(check):
    """What the lesson's own function returns on the check's input (on a copy)."""
    return getattr(lesson, check.function)(*copy.deepcopy(check.args), **check.kwargs)


def _must_fail(check):
    return None


def _same_to_3dp(got, right):
    return (numbers(got) is not None and shape(got) == shape(right)
            and rounded(got, 3) == right)


def _fails_loudly(got, right):
    values = numbers(got)                   # inf or nan is failing loudly too
    return bool(values) and not all(math.isfinite(v) for v in values)


def _adds_up(got, right):
    values = numbers(got)
    return bool(values) and matches(math.fsum(values), right)


def _show_weights(got, right, passed):
    if passed or numbers(got) is None:
        return show_value(got), show_value(right)
    digits = digits_to_differ(got, right)
    return show_value(got, digits), show_value(right, digits)


def _show_3dp(got, right, passed):
    shown = show_value(got, 3, fixed=True) if numbers(got) is not None else show_value(got)
    return shown, show_value(right, 3, fixed=True)


def _show_sum(got, right, passed):
    values, wanted = numbers(got), f"weights summing to {right:g}"
    if not values:
        return show_value(got), wanted
    total = math.fsum(values)
    digits = digits_to_differ([total], [right])
    return f"{show_value(got, digits)} (sum {total:.{digits}g})", wanted


class Kind:
    """What one kind of check wants, read by the judge and the mistakes alike.

    right(check)             the right answer, by the lesson's own function
                             (None where the call must fail)
    passes(got, right)       is a returned value right?
    errors                   the exceptions that pass, by built-in class name
    wanted(right)            the right answer, as the report shows it
    says(right)              what passes, in words, for the table of checks
    returns                  what the function should return, in words
    shown(got, right, passed)  (got, wanted) as the report shows them, with
                             enough digits that a wrong answer looks wrong
    """

    def __init__(self, right, passes, wanted, says, errors=(), shown=None,
                 returns="a list of numbers"):
        self.right, self.passes, self.wanted, self.says = right, passes, wanted, says
        self.errors, self.returns = errors, returns
        self.shown = shown or (lambda got, right, passed: (show_value(got), wanted(right)))

    def accepts(self, error):
        """Does raising ``error`` (the harness's record of it) pass?"""
        return raised_one_of(error, self.errors)


FAILING = "an OverflowError or other ArithmeticError, a ValueError, or inf/nan"

KINDS = {
    # the same numbers as the lesson's function, to REL_TOL
    "weights": Kind(_lesson_answer, matches, show_value,
                    lambda right: f"returns {show_value(right)}, within {show(REL_TOL)}",
                    shown=_show_weights),
    # the same numbers to 3 decimals (the lesson's own answers)
    "3dp": Kind(lambda check: rounded(_lesson_answer(check), 3), _same_to_3dp,
                lambda right: show_value(right, 3, fixed=True),
                lambda right: f"returns {show_value(right, 3, fixed=True)} to 3 decimals",
                shown=_show_3dp),
    # the same True or False as the lesson's function (a real bool)
    "bool": Kind(_lesson_answer, matches, show_value, lambda right: f"returns {right}",
                returns="True or False"),
    # a ValueError, or a subclass of it, as the lesson's function raises
    "raises": Kind(_must_fail, lambda got, right: False, lambda right: "ValueError",
                   lambda right: "raises ValueError (or a subclass of it)",
                   errors=("ValueError",)),
    # failing loudly: an ArithmeticError or ValueError, or a result with inf or nan
    "fails": Kind(_must_fail, _fails_loudly, lambda right: FAILING,
                  lambda right: ("raises an ArithmeticError (such as OverflowError) or a "
                                 "ValueError, or returns inf or nan"),
                  errors=("ArithmeticError", "ValueError")),
    # numbers that add up to the check's ``total``
    "sums": Kind(lambda check: check.total, _adds_up,
                 lambda right: f"weights summing to {right:g}",
                 lambda right: f"returns weights that add up to {right:g}", shown=_show_sum),
}


def right_answer(check):
    """The check's right answer, by its kind's rule (None where it must fail).

    >>> right_answer(check_named("lesson's first weight")), right_answer(CHECKS[5])
    ([0.67, 0.33], None)
    """
    return KINDS[check.kind].right(check)


# --- The checks ---------------------------------------------------------------

class Check:
    """One call of a learner's function, and the kind of answer that is right.

    ``kind`` names its entry in KINDS, which says what answer is right;
    ``hint`` is what to do when it fails and no usual mistake explains why.

    >>> check_named("axis=0 normalises columns").call_text()
    'softmax([[1, 2], [3, 4]], axis=0)'
    """

    def __init__(self, function, name, args, kind, hint, kwargs=None, total=None):
        if function not in FUNCTIONS or kind not in KINDS:
            raise ValueError(f"Check: unknown function {function!r} or kind {kind!r}")
        self.function, self.name, self.args = function, name, args
        self.kwargs = kwargs or {}
        self.kind, self.hint, self.total = kind, hint, total

    def call_text(self, code=False):
        """The call as the lesson writes it; with ``code``, as Python runs it
        (``show``)."""
        parts = [show(a, code) for a in self.args]
        parts += [f"{k}={show(v, code)}" for k, v in self.kwargs.items()]
        return f"{self.function}({', '.join(parts)})"

    def __repr__(self):
        return f"<Check {self.function}: {self.name}>"

    def with_args(self, *args):
        """The same check, asked with other input."""
        return Check(self.function, self.name, args, self.kind, self.hint, self.kwargs,
                     self.total)


def show(value, code=False):
    """An input as the lesson writes it: -inf, 1e-7, nested lists; with
    ``code``, as Python runs it wherever it is pasted (no name to import).

    >>> show([[0.5, -math.inf], 1e-07]), show([0.5, -math.inf], code=True)
    ('[[0.5, -inf], 1e-7]', '[0.5, float("-inf")]')
    """
    if isinstance(value, float) and not math.isfinite(value):
        return f'float("{value!r}")' if code else repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(show(v, code) for v in value) + "]"
    return repr(value).replace("e-0", "e-")        # 1e-7, as the lesson writes it


STABILITY = ("exp(1000) overflows; with the row maximum subtracted first, the "
             "largest exponential is exp(0) = 1")

CHECKS = [
    Check("softmax", "lesson's first weight", ([0.7071, 0],), "3dp",
          "exponentiate each score, then divide by the sum of the exponentials"),
    Check("softmax", "weights sum to 1", ([2.0, 1.0, 0.1],), "weights",
          "each weight is exp(score - max) / sum of exp(score - max)"),
    Check("softmax", "large scores", ([1000, 1000],), "weights", STABILITY),
    Check("softmax", "very negative scores", ([-1000, -1000, -1001],), "weights",
          "exp(-1000) underflows to 0; with the row maximum subtracted first, the "
          "largest exponential is exp(0) = 1 and the sum is never 0"),
    Check("softmax", "-inf gets weight 0", ([1.0, NEG_INF, 0.5],), "weights",
          "exp(-inf) is 0, so a masked key gets weight exactly 0; the row's "
          "maximum is finite when any key is visible"),
    Check("softmax", "all -inf row raises", ([[0.0, 1.0], [NEG_INF, NEG_INF]],), "raises",
          "a row that is all -inf has no key to give weight to: softmax raises "
          "ValueError for it"),
    Check("softmax", "two queries: four weights sum to 2",
          ([[0.7071, 0.0], [0.0, 0.7071]],), "sums",
          "normalise each row on its own: every row sums to 1, so two rows sum to 2",
          total=2.0),
    Check("softmax", "each row of a matrix", ([[0.7071, 0.0], [3.0, -2.0]],), "weights",
          "with axis=-1, each row has its own maximum and its own sum"),
    Check("softmax", "axis=0 normalises columns", ([[1, 2], [3, 4]],), "weights",
          "axis=0 runs down each column: each column has its own maximum and "
          "its own sum", kwargs={"axis": 0}),
    Check("naive_softmax", "agrees on small scores", ([0.7071, 0],), "weights",
          "exp(x) / sum(exp(x)), with no subtraction"),
    Check("naive_softmax", "fails on [1000, 1000]", ([1000, 1000],), "fails",
          "naive_softmax exists to show exp(1000) overflowing: with no subtraction "
          "and nothing caught, it fails here"),
    Check("naive_softmax", "fails on [-1000, -1000]", ([-1000, -1000],), "fails",
          "without the subtraction, exp(-1000) underflows to 0 and the sum is 0"),
    Check("rows_normalised", "true for softmax rows", ([[0.25, 0.75], [0.5, 0.5]],),
          "bool", "sum each row (math.fsum) and compare with 1 within tol"),
    # Only the first row sums to 1, yet every column does, and all nine weights
    # add up to 3, the number of rows: summing the wrong way says True.
    Check("rows_normalised", "false for a bad row",
          ([[0.2, 0.3, 0.5], [0.5, 0.4, 0.3], [0.3, 0.3, 0.2]],),
          "bool", "every row must sum to 1 on its own: these rows sum to 1, 1.2 and "
                   "0.8, though each column sums to 1 and all nine weights to 3"),
    Check("rows_normalised", "a flat list is one row", ([0.125, 0.375, 0.5],),
          "bool", "a flat list is a single row: these three weights sum to 1"),
    # 1e-8 short of 1, so that sum - 1 <= tol without abs() says True
    Check("rows_normalised", "outside tol is false", ([0.5, 0.5 - 1e-8],),
          "bool", "compare abs(sum - 1) <= tol, with the default tol=1e-9"),
    Check("rows_normalised", "inside a looser tol", ([0.5, 0.5 + 1e-8],), "bool",
          "the call gives tol=1e-7: compare abs(sum - 1) <= tol with it",
          kwargs={"tol": 1e-7}),
    Check("entropy", "one-hot is 0", ([1.0, 0.0, 0.0],), "weights",
          "0 * ln 0 counts as 0, so a zero weight adds nothing, and 1 * ln 1 is 0"),
    Check("entropy", "uniform over 4 is ln 4", ([0.25, 0.25, 0.25, 0.25],), "weights",
          "entropy is -sum(w * ln w), with the natural log"),
    Check("entropy", "a zero weight adds nothing", ([0.5, 0.5, 0.0],), "weights",
          "0 * ln 0 counts as 0, so a zero weight adds nothing to -sum(w * ln w)"),
]


# Checks whose input is drawn afresh on every run (the same 20 checks, in the
# same order), so that a file that replays the published answers cannot pass.
# The lesson's own numbers stay fixed: the first weight, [1000, 1000], -inf.
def _scores(rng, n, low, high):
    return [round(rng.uniform(low, high), 2) for _ in range(n)]


def _weight_rows(rng):
    """Two rows of three weights that sum to 1, then one that sums to 1 only
    within 1e-9 (in floats, 0.08 + 0.57 + 0.35 is 0.9999999999999999)."""
    rows = []
    for _ in range(2):
        p = round(rng.uniform(0.05, 0.6), 2)
        q = round(rng.uniform(0.05, 0.9 - p), 2)
        rows.append([p, q, round(1 - p - q, 2)])
    return rows + [[0.08, 0.57, 0.35]]


def _with_a_zero(rng):
    p = round(rng.uniform(0.1, 0.9), 2)
    weights = [p, round(1 - p, 2), 0.0]
    rng.shuffle(weights)
    return weights


FRESH = {
    "weights sum to 1": lambda rng: _scores(rng, 3, -3.0, 3.0),
    # rows of very different scale: one row's maximum is no use for another's
    "each row of a matrix": lambda rng: [_scores(rng, 2, -2.0, 2.0),
                                         _scores(rng, 2, -1003.0, -997.0)],
    "agrees on small scores": lambda rng: _scores(rng, 3, -2.0, 2.0),
    "true for softmax rows": _weight_rows,
    "a zero weight adds nothing": _with_a_zero,
}


def new_seed():
    """A seed for a run: a number a teacher can give back as --seed."""
    return random.SystemRandom().randrange(1, 10 ** 6)


def checks_for(seed):
    """This run's checks: the published ones, those in FRESH asked with input
    drawn from ``seed`` (the same seed, the same input).

    >>> [c.name for c in checks_for(7)] == [c.name for c in CHECKS]
    True
    >>> checks_for(7)[1].args == checks_for(7)[1].args != checks_for(8)[1].args
    True
    """
    rng = random.Random(seed)
    return [check.with_args(FRESH[check.name](rng)) if check.name in FRESH else check
            for check in CHECKS]


def check_named(name):
    """The check called ``name`` (names are unique across the four functions).

    >>> check_named("one-hot is 0").function
    'entropy'
    """
    for check in CHECKS:
        if check.name == name:
            return check
    raise KeyError(f"check_named: no check is called {name!r}")


def checks_of(function):
    """The indices of one function's checks, in order.

    >>> checks_of("entropy")
    [17, 18, 19]
    """
    return [i for i, check in enumerate(CHECKS) if check.function == function]
