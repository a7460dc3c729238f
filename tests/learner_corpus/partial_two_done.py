"""Lesson 4 -- work in progress, only did the first two so far."""

import math


def softmax(x, axis=-1):
    """Numerically stable softmax of x along axis."""
    # TODO: axis=0 and matrices
    m = max(x)
    e = [math.exp(v - m) for v in x]
    s = sum(e)
    return [v / s for v in e]


def naive_softmax(x):
    """exp(x) / sum(exp(x)) along the last axis, with NO max subtraction."""
    e = [math.exp(v) for v in x]
    return [v / sum(e) for v in e]


def rows_normalised(W, tol=1e-9):
    """True if every row of W (its last axis) sums to 1 within tol."""
    pass


# entropy: haven't started
