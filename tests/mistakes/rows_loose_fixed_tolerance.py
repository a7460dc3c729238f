"""One typical mistake, in rows_normalised: a fixed tolerance of 1e-6. The rest is right."""

import math


def softmax(x, axis=-1):
    if x and isinstance(x[0], list):
        if axis == 0:
            return [list(r) for r in zip(*[softmax(list(c)) for c in zip(*x)])]
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
    rows = W if W and isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= 1e-6 for row in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
