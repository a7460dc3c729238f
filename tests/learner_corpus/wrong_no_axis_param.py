import math


def softmax(x):
    """softmax of a row, or of each row of a matrix"""
    if isinstance(x[0], list):
        return [softmax(r) for r in x]
    m = max(x)
    if m == -math.inf:
        raise ValueError("softmax: all -inf")
    e = [math.exp(v - m) for v in x]
    s = math.fsum(e)
    return [v / s for v in e]


def naive_softmax(x):
    e = [math.exp(v) for v in x]
    return [v / sum(e) for v in e]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(r) - 1) <= tol for r in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
