"""Generators of its own in softmax (a wrong one), and naive_softmax returns
one: the trace follows them, or shows the generator for what it is."""

import math


def _exps(x, top):
    for s in x:
        yield math.exp(s - top)


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        return [softmax(row) for row in x]
    top = max(x)
    exps = list(_exps(x, top))
    total = sum(x)
    return [e / total for e in exps]


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    total = math.fsum(exps)
    return (e / total for e in exps)


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
