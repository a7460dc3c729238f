import math


def softmax(x, axis=-1):
    rows = x if isinstance(x[0], list) else [x]
    if any(max(row) == -math.inf for row in rows):
        raise ValueError("a row is all -inf")
    top = max(max(row) for row in rows)
    exps = [[math.exp(s - top) for s in row] for row in rows]
    total = math.fsum(e for row in exps for e in row)     # normalise everything at once
    out = [[e / total for e in row] for row in exps]
    return out if isinstance(x[0], list) else out[0]


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    total = sum(exps)
    return [e / total for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0) + 0.0

