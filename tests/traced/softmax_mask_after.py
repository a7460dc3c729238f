"""One mistake, in softmax: masks after the softmax: -inf is read as 0, and its weight set to 0 after. The rest is right."""

import math


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        if axis == 0:
            return [list(row) for row in zip(*[softmax(list(c)) for c in zip(*x)])]
        return [softmax(row) for row in x]
    scores = [0.0 if s == -math.inf else s for s in x]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = math.fsum(exps)
    weights = [e / total for e in exps]
    return [0.0 if s == -math.inf else w for s, w in zip(x, weights)]


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    total = math.fsum(exps)
    return [e / total for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    for row in rows:
        if abs(math.fsum(row) - 1) > tol:
            return False
    return True


def entropy(w):
    total = 0.0
    for p in w:
        if p > 0:
            total -= p * math.log(p)
    return total
