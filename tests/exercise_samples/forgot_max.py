"""softmax without the max subtraction: fine on small scores, not on large."""
import math


def softmax(x, axis=-1):
    exps = [math.exp(s) for s in x]
    total = sum(exps)
    return [e / total for e in exps]


def naive_softmax(x):
    return softmax(x)


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    return -sum(p * math.log(p) for p in w if p > 0) + 0.0
