"""One typical mistake, in softmax: softmax one row only. The rest is right."""

import math


def softmax(x, axis=-1):
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
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
