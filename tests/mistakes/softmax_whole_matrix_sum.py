"""One typical mistake, in softmax: softmax whole matrix sum. The rest is right."""

import math


def softmax(x, axis=-1):
    if not (x and isinstance(x[0], list)):
        return softmax([x])[0]
    rows = [list(c) for c in zip(*x)] if axis == 0 else x
    for row in rows:
        if max(row) == -math.inf:
            raise ValueError("softmax: every key is masked")
    exps = [[math.exp(s - max(row)) for s in row] for row in rows]
    total = math.fsum(e for row in exps for e in row)    # one sum for the matrix
    out = [[e / total for e in row] for row in exps]
    return [list(r) for r in zip(*out)] if axis == 0 else out


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    total = math.fsum(exps)
    return [e / total for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if W and isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
