"""The usual wrong answers, as data: each mistake, and each sign a value shows.

Each ``Mistake`` is the lesson's function with one thing done wrong, as
learners do it: what it returns on any check's input (``outcome``), and
the words that name it and say how to mend it.  Each ``Sign`` is a cause
that a value shows by itself (float32, rounding, a generator, the wrong
exception), and the sentence that names it.  Which of them a learner's
answers prove is for ``lesson.grader.diagnosis`` to work out.

MISTAKES       every usual mistake, by function
SIGNS_SHOWN    every sign a value can show

    >>> from lesson.grader.contract import check_named
    >>> log2 = next(m for m in MISTAKES if m.name == "entropy_log2")
    >>> log2.function, log2.what
    ('entropy', 'you take log base 2')
    >>> round(log2.outcome(check_named("uniform over 4 is ln 4"), log2.answers[0])["value"], 6)
    2.0
"""

import copy
import math
import weakref
from typing import NamedTuple

import lesson
from lesson.grader.contract import NEG_INF

_WORKED_OUT = weakref.WeakKeyDictionary()     # check -> {a mistake's answer: its outcome}


class NoSay(Exception):
    """Raised by a mistake's answer where that mistake decides nothing (a row
    of only -inf, for a mistake that is not about masking)."""


class RowForNumber(Exception):
    """Raised by a mistake's answer where lists meet a row where a number
    belongs: ``s - top`` with a list, which raises TypeError."""


# --- The lesson's softmax with one rule changed ------------------------------------------

def transpose(rows):
    """A matrix's columns as rows: [[1, 2], [3, 4]] -> [[1, 3], [2, 4]]."""
    return [list(column) for column in zip(*rows)]


def _softmax_with(matrix_rule, guarded=True):
    """softmax with ``matrix_rule`` (rows -> weights) in place of the right one:
    a flat list is one row, axis=0 works on the columns.  ``guarded``: a row
    of only -inf raises NoSay (the mistake is not about masking)."""
    def answer(x, axis=-1):
        flat = not isinstance(x[0], list)
        rows = [x] if flat else transpose(x) if axis == 0 else x
        if guarded and any(all(s == NEG_INF for s in row) for row in rows):
            raise NoSay
        out = matrix_rule(rows)
        return out[0] if flat else transpose(out) if axis == 0 else out
    return answer


def _each_row(row_rule, guarded=True):
    return _softmax_with(lambda rows: [row_rule(row) for row in rows], guarded)


def _divided(exps, total):
    return [e / total for e in exps]


def _shifted(row, shift):
    """exp(s - shift) / their sum, for each score s of the row."""
    exps = [math.exp(s - shift) for s in row]
    return _divided(exps, sum(exps))


def _no_exp(row):
    return _divided(row, sum(row))


def _no_exp_unmasked(row):
    """No exp, but a masked score kept out of the sum, with weight 0."""
    total = sum(s for s in row if s != NEG_INF)
    return [0.0 if s == NEG_INF else s / total for s in row]


def _whole_max(rows):
    top = max(s for row in rows for s in row)
    return [_shifted(row, top) for row in rows]


def _whole_array(rows):
    top = max(s for row in rows for s in row)
    exps = [[math.exp(s - top) for s in row] for row in rows]
    total = sum(e for row in exps for e in row)
    return [_divided(row, total) for row in exps]


def _whole_sum(rows):
    exps = [[math.exp(s - max(row)) for s in row] for row in rows]
    total = sum(e for row in exps for e in row)
    return [_divided(row, total) for row in exps]


def _mask_after(row):
    """Masked scores read as 0, the softmax taken, the masked weights then set to 0."""
    weights = _shifted([0.0 if s == NEG_INF else s for s in row],
                       max(0.0 if s == NEG_INF else s for s in row))
    return [0.0 if s == NEG_INF else w for s, w in zip(row, weights)]


def _floor_divided(row):
    exps = [math.exp(s - max(row)) for s in row]
    total = sum(exps)
    return [e // total for e in exps]


def _by_largest(row):
    exps = [math.exp(s - max(row)) for s in row]
    return _divided(exps, max(exps))


def _last_left_out(row):
    exps = [math.exp(s - max(row)) for s in row]
    return _divided(exps, sum(exps[:-1]))


def _unguarded(row):
    """The right rule, but a row of only -inf gives 0/0: nan, as -inf - -inf is."""
    top = max(row)
    if top == NEG_INF:
        return [math.nan] * len(row)
    return _shifted(row, top)


def _as_numpy_axes(sum_axis=None, max_axis=None):
    """NumPy's max and sum with a fixed axis (0) where ``axis`` belongs; a flat
    list has one axis, so only a matrix tells."""
    def answer(x, axis=-1):
        if not isinstance(x[0], list):
            return lesson.softmax(x)
        if any(all(s == NEG_INF for s in row) for row in x):
            raise NoSay
        tops = _along(x, max, axis if max_axis is None else max_axis)
        exps = [[math.exp(s - t) for s, t in zip(row, top_row)]
                for row, top_row in zip(x, tops)]
        totals = _along(exps, sum, axis if sum_axis is None else sum_axis)
        return [_divide_each(row, total_row) for row, total_row in zip(exps, totals)]
    return answer


def _along(matrix, reduce, axis):
    """reduce() along an axis, kept as a matrix of the same shape (keepdims)."""
    if axis == 0:
        columns = [reduce(column) for column in zip(*matrix)]
        return [columns for _ in matrix]
    return [[reduce(row)] * len(row) for row in matrix]


def _divide_each(row, totals):
    return [e / t for e, t in zip(row, totals)]


def _keepdims_forgotten(x, axis=-1):
    """x - x.max(axis) and e / e.sum(axis) without keepdims: for axis=-1 a
    matrix's row maxima line up with its columns (a square one; any other
    shape NumPy refuses, a ValueError)."""
    if not isinstance(x[0], list) or axis == 0:
        return lesson.softmax(x, axis=axis)
    if any(all(s == NEG_INF for s in row) for row in x):
        raise NoSay
    if len(x) != len(x[0]):
        raise ValueError("operands could not be broadcast together")
    tops = [max(row) for row in x]
    exps = [[math.exp(s - tops[j]) for j, s in enumerate(row)] for row in x]
    totals = [sum(row) for row in exps]
    return [[e / totals[j] for j, e in enumerate(row)] for row in exps]


def _one_row_only(x, axis=-1):
    """The softmax of one row, in lists: a list of rows raises TypeError."""
    if isinstance(x[0], list):
        raise RowForNumber
    return lesson.softmax(x)


def _axis0_transposed(x, axis=-1):
    out = lesson.softmax(x, axis=axis)
    return transpose(out) if axis == 0 and isinstance(x[0], list) else out


# --- naive_softmax, rows_normalised and entropy, each with one rule changed -------------

def _falls_back(catches):
    def answer(x):
        try:
            return lesson.naive_softmax(x)
        except catches:
            return lesson.softmax(x)
    return answer


def _hides_failure(x):
    """Where exp() overflows or the sum is 0, weights of 0 (nan_to_num, or an except)."""
    try:
        return lesson.naive_softmax(x)
    except (ArithmeticError, ValueError):
        return [0.0] * len(x)


def _rows(W):
    return W if isinstance(W[0], list) else [W]


def _within(total, tol, target=1.0):
    return abs(total - target) <= tol


def _grand_total(W, tol=1e-9):
    rows = _rows(W)
    return _within(math.fsum(w for row in rows for w in row), tol, len(rows))


def _whole_sum_is_one(W, tol=1e-9):
    return _within(math.fsum(w for row in _rows(W) for w in row), tol)


def _column_sums(W, tol=1e-9):
    columns = zip(*W) if isinstance(W[0], list) else [W]
    return all(_within(math.fsum(column), tol) for column in columns)


def _first_row_only(W, tol=1e-9):
    return _within(math.fsum(_rows(W)[0]), tol)


def _no_abs(W, tol=1e-9):
    return all(math.fsum(row) - 1 <= tol for row in _rows(W))


def _rows_of_one(W, tol=1e-9):
    if not isinstance(W[0], list):
        return all(_within(w, tol) for w in W)
    return lesson.rows_normalised(W, tol)


def _exact(W, tol=1e-9):
    return all(math.fsum(row) == 1 for row in _rows(W))


def _fixed_tol(W, tol=1e-9):
    return lesson.rows_normalised(W)


def _loose_fixed_tol(W, tol=1e-9):
    return lesson.rows_normalised(W, 1e-6)


def _allclose(W, tol=1e-9):
    """np.allclose(sums, 1, atol=tol): its default rtol=1e-5 is added to tol."""
    return all(_within(math.fsum(row), tol + 1e-5) for row in _rows(W))


def _per_row(W, tol=1e-9):
    return [_within(math.fsum(row), tol) for row in _rows(W)]


def _per_row_one_for_flat(W, tol=1e-9):
    """A bool per row, but one for a flat list, as NumPy compares row sums."""
    return _per_row(W, tol) if isinstance(W[0], list) else lesson.rows_normalised(W, tol)


def _log_of_zero(w):
    return -sum(p * math.log(p) for p in w)             # ValueError at log(0)


def _hides_log_of_zero(w):
    try:
        return _log_of_zero(w)
    except ValueError:
        return 0.0


def _unweighted(w):
    return -sum(math.log(p) for p in w if p > 0)


# --- The mistakes ------------------------------------------------------------------------

class Mistake:
    """One usual mistake: the ``function`` it is made in; ``answer``, what
    that function returns with the mistake on a check's input (a tuple: ways
    of writing it that answer differently); ``what`` names it, ``fix`` mends
    it, each a text or texts by dialect ({None: any code, "numpy": ...}),
    "{row}" in them a "row" or "column"; ``evidence``, a format with {got},
    {right} (to 4 figures) and {n} (the number of scores), said first when it
    is named alone; ``needs``, facts (``lesson.grader.reading.FACTS``) of which
    the learner's code must show one to make it (none: any code can)."""

    def __init__(self, name, function, answer, what, fix, evidence="", needs=()):
        self.name, self.function = name, function
        self.answers = answer if isinstance(answer, tuple) else (answer,)
        self.what, self.fix, self.evidence, self.needs = what, fix, evidence, frozenset(needs)

    def __repr__(self):
        return f"<Mistake {self.name}>"

    def said(self, dialect=None, line="row"):
        """(what, fix) in the learner's dialect ("lists", "numpy", or None
        when unknown), about each ``line`` ("row" or "column").

        >>> whole = next(m for m in MISTAKES if m.name == "softmax_whole_matrix_sum")
        >>> whole.said("lists", "column")[1]
        'divide each column by its own sum'
        """
        return tuple(_in(words, dialect).format(row=line) for words in (self.what, self.fix))

    def possible(self, code):
        """Could code with these facts make the mistake (None: code unread)?"""
        return code is None or not self.needs or bool(self.needs & code)

    def outcome(self, check, answer):
        """What ``answer`` (one of the mistake's ways of writing it) gives on a
        check, as the harness records a learner's outcome: {"value": ...} or
        {"error": {"type", "kinds"}}; None where the mistake has no say.
        Worked out once per check, while the check lives."""
        seen = _WORKED_OUT.setdefault(check, {})
        if answer not in seen:
            seen[answer] = self._outcome(check, answer)
        return seen[answer]

    @staticmethod
    def _outcome(check, answer):
        try:
            return {"value": answer(*copy.deepcopy(check.args), **check.kwargs)}
        except NoSay:
            return None
        except RowForNumber:
            return {"error": {"type": "TypeError", "kinds": ["TypeError", "Exception"]}}
        except (ArithmeticError, ValueError) as error:
            return {"error": {"type": type(error).__name__,
                              "kinds": [k.__name__ for k in type(error).__mro__]}}


def _in(words, dialect):
    """The words for a dialect: a text for any, or {None: ..., "numpy": ...}."""
    return words if isinstance(words, str) else words.get(dialect, words[None])


ROW_MAX = "subtract the {row} maximum before exponentiating"
# NumPy's way to each row's (or column's) own maximum and sum
KEEPDIMS = "x.max(axis=axis, keepdims=True) and e.sum(axis=axis, keepdims=True)"
MISTAKES = [
    # softmax: the shift
    Mistake("softmax_no_max", "softmax", _each_row(lambda row: _shifted(row, 0.0)),
            "you exponentiate the scores as they are", ROW_MAX + ", so the largest "
            "exponential is exp(0) = 1: exp(1000) cannot overflow, nor every "
            "exp(-1000) underflow to 0"),
    Mistake("softmax_minus_min", "softmax", _each_row(lambda row: _shifted(row, min(row))),
            "you subtract the {row}'s minimum", "subtract its maximum, so the largest "
            "exponential is exp(0) = 1 and none can overflow", needs=["min"]),
    Mistake("softmax_minus_mean", "softmax",
            _each_row(lambda row: _shifted(row, sum(row) / len(row))),
            "you subtract the {row}'s mean", "subtract its maximum: with a -inf score the "
            "mean is -inf, and every weight nan", needs=["mean"]),
    Mistake("softmax_max_of_abs", "softmax",
            _each_row(lambda row: _shifted(row, max(abs(s) for s in row))),
            "you subtract the largest absolute score", "subtract the largest score "
            "itself: max(abs(s)) of [-1000, -1001] is 1001, and exp(-2001) is 0"),
    Mistake("softmax_whole_matrix_max", "softmax", _softmax_with(_whole_max),
            "you subtract the whole matrix's maximum",
            {None: "subtract each {row}'s own maximum, or a {row} far below the others "
                   "underflows to 0/0",
             "numpy": "subtract each {row}'s own maximum, x.max(axis=axis, keepdims=True), "
                      "or a {row} far below the others underflows to 0/0"},
            needs=["max of all"]),
    Mistake("softmax_max_down_columns", "softmax", _as_numpy_axes(max_axis=0),
            {None: "you take the maximum down each column",
             "numpy": "you take the maximum down each column, axis=0"},
            {None: "take each row's own maximum",
             "numpy": "take it along axis, with keepdims=True, as the sum"},
            needs=["axis 0"]),
    Mistake("softmax_keepdims_forgotten", "softmax", _keepdims_forgotten,
            "you take the row maxima and sums without keepdims=True",
            "without it, a matrix's row maxima line up with its columns: "
            "write x.max(axis=axis, keepdims=True), and the same for the sum",
            needs=["axis, no keepdims"]),
    # softmax: the exponentials and their sum
    Mistake("softmax_no_exp", "softmax", (_each_row(_no_exp), _each_row(_no_exp_unmasked)),
            "your weights are the scores divided by their sum",
            "exponentiate each score first (exp(s - max)), then divide"),
    Mistake("softmax_whole_matrix_sum", "softmax", _softmax_with(_whole_sum),
            "you divide by the whole matrix's sum", "divide each {row} by its own sum"),
    Mistake("softmax_whole_array", "softmax", _softmax_with(_whole_array),
            "you take the maximum and the sum of the whole matrix",
            {None: "give each {row} its own maximum and its own sum, so each {row} "
                   "sums to 1",
             "numpy": "take each {row}'s own maximum and sum, " + KEEPDIMS + ", so each "
                      "{row} sums to 1"}),
    Mistake("softmax_sum_down_columns", "softmax", _as_numpy_axes(sum_axis=0),
            {None: "you divide by the sum down each column",
             "numpy": "you divide by the sum down each column, axis=0"},
            {None: "divide each row by its own sum",
             "numpy": "sum along axis, with keepdims=True, as the maximum"}),
    Mistake("softmax_divides_by_max", "softmax", _each_row(_by_largest),
            "you divide by the largest exponential", "divide by the sum of the "
            "exponentials, so the weights sum to 1"),
    Mistake("softmax_last_left_out", "softmax", _each_row(_last_left_out),
            "your sum leaves out the last exponential",
            "add every one, so the {row} sums to 1"),
    Mistake("softmax_floor_division", "softmax", _each_row(_floor_divided),
            "you divide with //, which rounds each weight down to a whole number",
            "use /"),
    Mistake("softmax_scales_by_sqrt_n", "softmax",
            _each_row(lambda row: lesson.softmax([s / math.sqrt(len(row)) for s in row])),
            "you divide the scores by sqrt(n) first", "softmax takes the scores as they "
            "are (scaling by sqrt(d_k) happens before, in attention)"),
    # softmax: one row, or many
    Mistake("softmax_one_row_only", "softmax", _one_row_only,
            "your softmax handles one row: given a list of rows, its arithmetic meets a "
            "whole row (a list) where a number belongs, and raises TypeError",
            "when x[0] is a list, give each {row} its own softmax"),
    # softmax: the axis
    Mistake("softmax_ignores_axis", "softmax", lambda x, axis=-1: lesson.softmax(x),
            "with axis=0 you normalised the rows, not the columns",
            "axis=0 runs down each column"),
    Mistake("softmax_axis0_transposed", "softmax", _axis0_transposed,
            "with axis=0 you return each column's weights as a row",
            "transpose them back, so each column of the answer sums to 1"),
    # softmax: the mask
    Mistake("softmax_masks_with_1e9", "softmax",
            _each_row(lambda row: lesson.softmax([-1e9 if s == NEG_INF else s
                                                  for s in row]), guarded=False),
            "you mask with -1e9 instead of -inf", "with -inf, a row with no key to see "
            "is found (its maximum is -inf) and must raise ValueError"),
    Mistake("softmax_masked_row_unguarded", "softmax", _each_row(_unguarded, guarded=False),
            "a row with every key masked goes on to 0/0 (nan, or ZeroDivisionError)",
            "check for it (its maximum is -inf) and raise ValueError"),
    Mistake("softmax_masks_after", "softmax", _each_row(_mask_after, guarded=False),
            "you set the masked weights to 0 after the softmax", "give the masked "
            "scores -inf before it (exp(-inf) is 0), so each row still sums to 1"),
    # naive_softmax
    Mistake("naive_subtracts_max", "naive_softmax", lesson.softmax,
            "naive_softmax subtracts the maximum, so it cannot fail",
            "the naive recipe is exp(x) / sum(exp(x)) with no subtraction", needs=["max"]),
    Mistake("naive_no_exp", "naive_softmax", _each_row(_no_exp),
            "naive_softmax divides the scores by their sum", "exponentiate each score "
            "first: exp(x) / sum(exp(x))"),
    Mistake("naive_falls_back", "naive_softmax", _falls_back((ArithmeticError, ValueError)),
            "naive_softmax falls back on the stable softmax where it fails",
            "let the error (or inf and nan) out: showing it is naive_softmax's job",
            needs=["try", "inf or nan", "calls softmax"]),
    Mistake("naive_catches_overflow", "naive_softmax", _falls_back(OverflowError),
            "naive_softmax catches the OverflowError and returns the stable softmax",
            "let the error out: showing it is naive_softmax's job"),
    Mistake("naive_hides_failure", "naive_softmax", _hides_failure,
            "naive_softmax turns its failure into weights of 0 (nan_to_num, or an "
            "except that returns zeros)", "let the error (or inf and nan) out"),
    # rows_normalised
    Mistake("rows_grand_total", "rows_normalised", _grand_total,
            "you compare the total of every weight with the number of rows",
            "each row must sum to 1 on its own"),
    Mistake("rows_whole_sum", "rows_normalised", _whole_sum_is_one,
            "you compare the sum of the whole matrix with 1",
            {None: "sum each row and compare each sum with 1",
             "numpy": "sum each row (W.sum(axis=-1)) and compare each sum with 1"}),
    Mistake("rows_column_sums", "rows_normalised", _column_sums,
            {None: "you sum down the columns", "numpy": "you sum down the columns, axis=0"},
            {None: "sum each row", "numpy": "sum each row, along the last axis (axis=-1)"}),
    Mistake("rows_first_row_only", "rows_normalised", _first_row_only,
            "you check only the first row",
            {None: "check every row: all(...)", "numpy": "check every row: np.all(...)"}),
    Mistake("rows_flat_as_rows_of_one", "rows_normalised", _rows_of_one,
            "you read a flat list as rows of one weight each", "a flat list is one row"),
    Mistake("rows_exact_equal_one", "rows_normalised", _exact,
            "you compare the sum with 1 exactly (== 1)", "compare abs(sum - 1) <= tol"),
    Mistake("rows_no_abs", "rows_normalised", _no_abs,
            {None: "you compare sum - 1 with tol without abs(), so a row short of 1 passes",
             "numpy": "you compare sums - 1 with tol without np.abs(), so a row short of "
                      "1 passes"},
            {None: "compare abs(sum - 1) <= tol", "numpy": "compare np.abs(sums - 1) <= tol"},
            needs=["compares without abs"]),
    Mistake("rows_fixed_tolerance", "rows_normalised", _fixed_tol,
            "you use a fixed tolerance of 1e-9", "use the tol argument the call gives"),
    Mistake("rows_loose_fixed_tolerance", "rows_normalised", _loose_fixed_tol,
            "you use a fixed, looser tolerance (such as 1e-6)", "use the tol argument",
            needs=["small number", "round", "ignores tol"]),
    Mistake("rows_allclose", "rows_normalised", _allclose,
            "np.allclose and np.isclose add their own relative tolerance (rtol=1e-5) "
            "to tol", "pass rtol=0, or compare np.abs(sums - 1) <= tol",
            needs=["np.isclose"]),
    Mistake("rows_bool_per_row", "rows_normalised", (_per_row, _per_row_one_for_flat),
            "you return a bool per row",
            {None: "return one bool for the whole matrix, True only if every row sums "
                   "to 1: all(...)",
             "numpy": "return one bool for the whole matrix, True only if every row "
                      "sums to 1: np.all(...), or .all()"}),
    # entropy
    Mistake("entropy_log2", "entropy", lambda w: lesson.entropy(w) / math.log(2),
            "you take log base 2", "use math.log, the natural log",
            "your entropy is {right} / ln 2 = {got}"),
    Mistake("entropy_log10", "entropy", lambda w: lesson.entropy(w) / math.log(10),
            "you take log base 10", "use math.log, the natural log",
            "your entropy is {right} / ln 10 = {got}"),
    Mistake("entropy_no_minus", "entropy", lambda w: -lesson.entropy(w),
            "you leave out the minus sign", "entropy is -sum(w * ln w), and the minus "
            "sign makes it 0 or more", "your entropy is {got}, minus the right {right}"),
    Mistake("entropy_over_ln_n", "entropy", lambda w: lesson.entropy(w) / math.log(len(w)),
            "you divide by ln n (normalised entropy)", "the lesson's entropy is in nats, "
            "not divided", "your entropy is {right} / ln {n} = {got}"),
    Mistake("entropy_mean", "entropy", lambda w: lesson.entropy(w) / len(w),
            "you take the mean of -w * ln w, not the sum", "add the terms up",
            "your entropy is {right} / {n} = {got}"),
    Mistake("entropy_unweighted", "entropy", _unweighted,
            "you add up -ln w without the weights", "each term is -w * ln w"),
    Mistake("entropy_log_of_zero", "entropy", _log_of_zero,
            "you take log(0) for a zero weight", "skip zero weights: 0 * ln 0 counts as 0"),
    Mistake("entropy_hides_log_of_zero", "entropy", _hides_log_of_zero,
            "log(0) fails on a zero weight and you return 0 instead",
            "skip zero weights (0 * ln 0 counts as 0) and keep the others' terms"),
]


# --- What an answer shows by itself --------------------------------------------------

class Sign(NamedTuple):
    """A cause that a value shows by itself: its ``name``, and the sentence
    that ``says`` it (a format, filled in by the diagnosis)."""
    name: str
    says: str


WRONG_ERROR = Sign("wrong_error_type", "you raise {type}, where the check wants {wanted}")
NOT_A_PARAMETER = Sign("not_a_parameter", "the call gives {name}=..., and {name} is not "
                                          "among your parameters: write def {signature}:")
FLOAT32 = Sign("float32", "your numbers are float32, which keeps about 7 significant digits "
                          "({got} for {right}): the checks want {tol}, so compute in float64, "
                          "NumPy's default (leave out dtype=np.float32)")
ROUNDED = Sign("rounded", "your numbers are the right ones rounded to {places} decimals: "
                          "return them as computed, and round only to print")
NOT_NUMBERS = Sign("not_numbers", "{function}() returned {got}, not {wanted}")
GENERATOR = ("a generator, which computes nothing until it is read: return a list "
             "([... for ...] or list(...))")
SIGNS_SHOWN = (WRONG_ERROR, NOT_A_PARAMETER, FLOAT32, ROUNDED, NOT_NUMBERS)
