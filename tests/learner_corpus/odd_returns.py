"""Answers that are not what they seem: strings, generators, Decimals, rounded floats."""
import math
from decimal import Decimal


class MaskedRowError(ValueError):
    """The learner's own kind of ValueError."""


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        if any(all(s == -math.inf for s in row) for row in x):
            raise MaskedRowError("no key is visible in a row")
        return [softmax(row) for row in x] if axis != 0 else "TODO"
    top = max(x)
    exps = [math.exp(s - top) for s in x]
    return [round(e / math.fsum(exps), 6) for e in exps]     # six decimals only


def naive_softmax(x):
    if x[0] > 0:
        return "TODO"
    if x[0] < -100:
        return (Decimal(1) / 2 for _ in x)                   # a generator
    exps = [math.exp(s) for s in x]
    return [e / sum(exps) for e in exps]


def rows_normalised(W, tol=1e-9):
    return 1                                                 # an int, not True


def entropy(w):
    return Decimal("0.5") if w[0] == 1.0 else -math.fsum(p * math.log(p) for p in w if p > 0)
