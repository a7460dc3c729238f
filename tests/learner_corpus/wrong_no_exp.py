import math


def softmax(x, axis=-1):
    # normalise so the weights add to 1
    if isinstance(x[0], list):
        return [softmax(r) for r in x]
    total = sum(x)
    return [s / total for s in x]


def naive_softmax(x):
    total = sum(x)
    return [s / total for s in x]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(sum(r) - 1) <= tol for r in rows)


def entropy(w):
    return -sum(p * math.log(p) for p in w if p > 0)
