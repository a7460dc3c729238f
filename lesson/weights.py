"""Softmax weights: turning one query's scores into weights.

A query's scores against its keys become weights in two steps: exponentiate
each score, then divide by the sum.  The weights are positive and add up to 1
across that query's keys.  Each row is normalised on its own.

>>> weights = softmax([1 / 2 ** 0.5, 0, -1])
>>> [round(w, 4) for w in weights]
[0.5972, 0.2945, 0.1083]
>>> rows_normalised([weights])
True

Each idea comes twice.  The first function is the math for one row, with
no checks: short, and self-contained enough to copy into a file of your own.
The second checks its input, says what is wrong and where if anything is,
and applies the math to every row.

Functions
---------
softmax_row(scores)        stable softmax of one row: exp(s - max) / sum
softmax(x, axis=-1)        the same along an axis of a nested list, checked
naive_softmax_row(scores)  exp(s) / sum(exp(s)), no max subtraction
naive_softmax(x)           the same, checked, explaining how it fails
sums_to_one(row, tol)      does one row of weights add up to 1?
rows_normalised(W, tol)    does every row of W?  (checked)
entropy_row(weights)       how spread out one row of weights is, in nats
entropy(w)                 the same, checked
softmax_table(scores)      the lesson's table: score, score - max, exp, weight
"""

# --8<-- [start:imports]
import math
# --8<-- [end:imports]

from lesson import _validate

_USE_THE_MAX = "subtract the row maximum first, as softmax does"


# --8<-- [start:softmax_row]
def softmax_row(scores):
    """Numerically stable softmax of one row: exp(s - max) / sum of them.

    The scores are floats, finite or -inf.  Subtracting the maximum changes
    no weight (it cancels in the division) but keeps ``exp`` from
    overflowing.  A score of -inf is a masked key: its weight is exactly 0.

    >>> [round(w, 6) for w in softmax_row([1 / 2 ** 0.5, 0.0])]
    [0.669762, 0.330238]
    >>> softmax_row([1000.0, 1000.0])
    [0.5, 0.5]
    >>> softmax_row([0.0, -math.inf])
    [1.0, 0.0]

    A row with no finite score has no weights: an error, never nan.

    >>> softmax_row([-math.inf, -math.inf])
    Traceback (most recent call last):
      ...
    ValueError: softmax_row: scores must be finite or -inf, and not all -inf
    """
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]   # exp(-inf - top) is 0.0
    total = math.fsum(exps)                      # exp(top - top) = 1 is in it
    if not total >= 1.0:      # nan: a score was nan or inf, or all were -inf
        raise ValueError("softmax_row: scores must be finite or -inf, "
                         "and not all -inf")
    return [e / total for e in exps]
# --8<-- [end:softmax_row]


def softmax(x, axis=-1):
    """Numerically stable softmax of x along axis, with checked input.

    x is a list of scores, or a rectangular nested list of them.  The result
    has the same shape; along ``axis`` every slice is ``softmax_row`` of it,
    positive and summing to 1.

    >>> [round(w, 6) for w in softmax([1 / 2 ** 0.5, 0])]
    [0.669762, 0.330238]
    >>> softmax([1000, 1000])
    [0.5, 0.5]

    Rows are normalised separately, so a 2 x 2 matrix of weights sums to 2.
    ``axis=0`` normalises the columns instead.

    >>> softmax([[0, 0], [1, 1]])
    [[0.5, 0.5], [0.5, 0.5]]
    >>> W = softmax([[0, 0], [1, 1]], axis=0)
    >>> [[round(w, 4) for w in row] for row in W]
    [[0.2689, 0.2689], [0.7311, 0.7311]]

    Bad input is an error that says where it is, never nan.

    >>> softmax([[0, 1], [-math.inf, -math.inf]])
    Traceback (most recent call last):
      ...
    ValueError: softmax: row 1 is all -inf; every query needs at least one key it may see
    >>> softmax([0.5, math.nan])
    Traceback (most recent call last):
      ...
    ValueError: softmax: x[1] is nan; scores must be finite or -inf
    """
    # One row of floats, the common case, goes straight to softmax_row.
    return _validate.quick_along_axis("softmax", "x", softmax_row, x, axis)


# --8<-- [start:naive_softmax_row]
def naive_softmax_row(scores):
    """Textbook softmax of one row, exp(s) / sum(exp(s)), unprotected.

    It does not subtract the maximum, so it works only while every ``exp``
    stays inside the range of a float.  It is here to fail:

    >>> [round(w, 6) for w in naive_softmax_row([1 / 2 ** 0.5, 0.0])]
    [0.669762, 0.330238]
    >>> naive_softmax_row([1000.0, 1000.0])
    Traceback (most recent call last):
      ...
    OverflowError: math range error

    Very negative scores fail the other way: every exp underflows to 0.0.

    >>> naive_softmax_row([-1000.0, -1000.0])
    Traceback (most recent call last):
      ...
    ValueError: naive_softmax_row: the exps sum to 0.0; there are no weights
    """
    exps = [math.exp(s) for s in scores]   # OverflowError once s > 709.78
    total = math.fsum(exps)                # 0.0 once every s < -745.13
    if not 0.0 < total < math.inf:
        raise ValueError(f"naive_softmax_row: the exps sum to {total}; "
                         f"there are no weights")
    return [e / total for e in exps]
# --8<-- [end:naive_softmax_row]


def naive_softmax(x):
    """naive_softmax_row along the last axis of x, with checked input.

    Its failures say what went wrong, and where:

    >>> naive_softmax([[0, 0], [1000, 1000]])
    Traceback (most recent call last):
      ...
    OverflowError: naive_softmax: exp(1000.0) overflows a float in row 1; subtract the row maximum first, as softmax does
    >>> naive_softmax([-1000, -1000])
    Traceback (most recent call last):
      ...
    ValueError: naive_softmax: every exp() in x is 0.0, so each weight would be 0/0; subtract the row maximum first, as softmax does
    """
    shape, flat = _validate.array("naive_softmax", "x", x, allow_neg_inf=True)
    weights = []
    for line in _validate.lines(shape, len(shape) - 1):
        weights += _naive_row(flat[line], line, shape)
    return _validate.nest(weights, shape)


# --8<-- [start:sums_to_one]
def sums_to_one(row, tol=1e-9):
    """True if one row of weights adds up to 1, within tol.

    ``math.fsum`` adds exactly, so rounding in the sum itself cannot push
    a good row outside ``tol``.  (Adding 0.1 ten times, one at a time, gives
    0.9999999999999999; fsum gives 1.0.)

    >>> sums_to_one([0.25, 0.75]), sums_to_one([0.5, 0.6])
    (True, False)
    >>> sums_to_one([0.1] * 10, tol=0)
    True
    """
    return abs(math.fsum(row) - 1.0) <= tol
# --8<-- [end:sums_to_one]


def rows_normalised(W, tol=1e-9):
    """True if every row of W (its last axis) sums to 1 within tol; checked.

    A flat list counts as one row.

    >>> rows_normalised([[0.25, 0.75], [0.5, 0.5]])
    True

    The weights of two queries sum to 1 per row, not over the whole matrix:

    >>> rows_normalised([0.25, 0.75, 0.5, 0.5])
    False
    >>> rows_normalised([0.3333, 0.3333, 0.3333], tol=1e-3)
    True
    """
    shape, flat = _validate.array("rows_normalised", "W", W)
    tol = _validate.tolerance("rows_normalised", tol)
    return all(sums_to_one(row, tol) for row in _validate.rows(flat, shape[-1]))


# --8<-- [start:entropy_row]
def entropy_row(weights):
    """Entropy -sum(w * ln w) of one row of weights, in nats.

    Low entropy is focused attention, high entropy is spread out.  A weight
    of 0 adds nothing (``0 * ln 0`` is taken as 0, its limit).

    >>> entropy_row([1.0, 0.0, 0.0])
    0.0
    >>> round(entropy_row([0.25] * 4), 6), round(math.log(4), 6)
    (1.386294, 1.386294)
    """
    # 0.0 - ... so that a one-hot row gives 0.0, not -0.0.
    return 0.0 - math.fsum(w * math.log(w) for w in weights if w > 0)
# --8<-- [end:entropy_row]


def entropy(w):
    """entropy_row of one row of weights, with checked input.

    >>> entropy([1, 0])
    0.0
    >>> round(entropy(softmax([1 / 2 ** 0.5, 0])), 6)
    0.634347
    >>> entropy([0.5, -0.5, 1.0])
    Traceback (most recent call last):
      ...
    ValueError: entropy: w[1] is -0.5; weights must be zero or more
    """
    shape, flat = _validate.array("entropy", "w", w)
    if len(shape) != 1:
        raise ValueError(f"entropy: w must be one row of weights, "
                         f"not a nested list of shape {shape}")
    for i, p in enumerate(flat):
        if p < 0:
            raise ValueError(f"entropy: w[{i}] is {p}; weights must be "
                             f"zero or more")
    return entropy_row(flat)


def softmax_table(scores):
    """The lesson's table for one row: (score, score - max, exp, weight) per key.

    Each column is one step of the stable softmax, so a learner can check
    a calculation by hand against it.

    >>> for row in softmax_table([1 / 2 ** 0.5, 0, -1]):
    ...     print([round(v, 4) for v in row])
    ...
    [0.7071, 0.0, 1.0, 0.5972]
    [0.0, -0.7071, 0.4931, 0.2945]
    [-1.0, -1.7071, 0.1814, 0.1083]
    """
    shape, flat = _validate.array("softmax_table", "scores", scores,
                                allow_neg_inf=True)
    if len(shape) != 1:
        raise ValueError(f"softmax_table: scores must be one row, "
                         f"not a nested list of shape {shape}")
    weights = _validate.along_axis("softmax_table", "scores", softmax_row, flat, -1)
    top = max(flat)
    return [(s, s - top, math.exp(s - top), w) for s, w in zip(flat, weights)]


# === Private utilities ===

def _naive_row(row, line, shape):
    """naive_softmax_row of one checked row, its failures named and explained."""
    try:
        return naive_softmax_row(row)
    except OverflowError:
        where = _validate.describe(line, shape, len(shape) - 1, "x")
        raise OverflowError(f"naive_softmax: exp({max(row)}) overflows a "
                            f"float in {where}; {_USE_THE_MAX}") from None
    except ValueError:      # checked scores are finite or -inf: the sum is 0.0
        where = _validate.describe(line, shape, len(shape) - 1, "x")
        if all(s == -math.inf for s in row):       # no max to subtract helps here
            raise ValueError(f"naive_softmax: {where} is all -inf: no key may be "
                             f"seen, so there are no weights (softmax raises "
                             f"here too)") from None
        raise ValueError(f"naive_softmax: every exp() in {where} is 0.0, so "
                         f"each weight would be 0/0; {_USE_THE_MAX}") from None
