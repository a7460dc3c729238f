import math


def _row(scores):
    top = max(scores)
    if top == -math.inf:
        raise ValueError("a row is all -inf")
    exps = [math.exp(s - top) for s in scores]
    total = math.fsum(exps)
    return [e / total for e in exps]


def softmax(x, axis=-1):
    if not isinstance(x[0], list):
        return _row(x)
    if axis in (-1, 1):
        return [_row(row) for row in x]
    columns = [_row(list(col)) for col in zip(*x)]
    return [list(row) for row in zip(*columns)]


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    total = sum(exps)
    return [e / total for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    for row in rows:
        if math.fsum(row) - 1 > tol:
            return False
    return True


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0) + 0.0

