"""Lesson 4, softmax weights: the four functions of Part 2.

Fill in each function, then check your work:

    softmax-lesson check starter_untouched.py

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
