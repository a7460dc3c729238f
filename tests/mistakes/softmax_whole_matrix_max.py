"""One typical mistake, in softmax: softmax whole matrix max. The rest is right."""

import math


def softmax(x, axis=-1):
    rows = x if x and isinstance(x[0], list) else [x]
    if axis == 0 and rows is x:
        rows = [list(c) for c in zip(*x)]
    top = max(s for row in rows for s in row)            # one maximum for the matrix
    if top == -math.inf:
        raise ValueError("softmax: every key is masked")
    out = []
    for row in rows:
        if max(row) == -math.inf:
            raise ValueError("softmax: every key is masked")
        exps = [math.exp(s - top) for s in row]
        total = math.fsum(exps)
        out.append([e / total for e in exps])
    if axis == 0 and rows is not x:
        out = [list(r) for r in zip(*out)]
    return out if x and isinstance(x[0], list) else out[0]


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    total = math.fsum(exps)
    return [e / total for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if W and isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
