"""One mistake, in rows_normalised: compares sum - 1 with tol, without abs(). The rest is right."""

import math


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        if axis == 0:
            return [list(row) for row in zip(*[softmax(list(c)) for c in zip(*x)])]
        return [softmax(row) for row in x]
    top = max(x)
    if top == -math.inf:
        raise ValueError("softmax: every key is masked")
    exps = [math.exp(s - top) for s in x]
    total = math.fsum(exps)
    return [e / total for e in exps]


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    total = math.fsum(exps)
    return [e / total for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    for row in rows:
        gap = math.fsum(row) - 1
        if gap > tol:
            return False
    return True


def entropy(w):
    total = 0.0
    for p in w:
        if p > 0:
            total -= p * math.log(p)
    return total
