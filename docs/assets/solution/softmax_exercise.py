"""Lesson 4, softmax weights: a solution of the exercise's four functions.

Plain lists and the math module, nothing else.  Check it with:

    softmax-lesson check softmax_exercise.py
"""

import math


def softmax_row(row):
    """Stable softmax of one row: exp(s - max) / sum; -inf gets weight 0."""
    top = max(row)
    if top == -math.inf:
        raise ValueError("softmax: a row is all -inf, so no key can take the weight")
    exps = [math.exp(s - top) for s in row]          # exp(-inf) is 0.0
    total = math.fsum(exps)                          # at least exp(0) = 1
    return [e / total for e in exps]


def softmax(x, axis=-1):
    """Numerically stable softmax of x, a list or a list of rows, along axis."""
    if not isinstance(x[0], list):                   # a flat list is one row
        return softmax_row(x)
    if axis in (-1, 1):                              # each row
        return [softmax_row(row) for row in x]
    if axis == 0:
        # Each column: zip(*x) turns the columns into rows, and zip(*...) back.
        columns = [softmax_row(list(column)) for column in zip(*x)]
        return [list(row) for row in zip(*columns)]
    raise ValueError(f"softmax: axis must be 0 or -1 for a list of rows, not {axis}")


def naive_softmax(x):
    """exp(x) / sum(exp(x)) of one row, with NO max subtraction."""
    exps = [math.exp(s) for s in x]                  # exp(1000): OverflowError
    total = math.fsum(exps)                          # exp(-1000) is 0.0: the sum is 0
    return [e / total for e in exps]                 # ... and 0/0: ZeroDivisionError


def rows_normalised(W, tol=1e-9):
    """True if every row of W sums to 1 within tol; a flat list is one row."""
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    """-sum(w ln w) of one row of weights, in nats, taking 0 ln 0 as 0."""
    return 0.0 - math.fsum(p * math.log(p) for p in w if p > 0)   # 0.0, not -0.0
