import math

NEG_INF = float("-inf")


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        if axis == 0:
            return [list(r) for r in zip(*[softmax(list(c)) for c in zip(*x)])]
        return [softmax(r) for r in x]
    finite = [v for v in x if v != NEG_INF]
    m = max(finite) if finite else 0.0
    e = [0.0 if v == NEG_INF else math.exp(v - m) for v in x]
    total = sum(e)
    return [v / total for v in e]     # all masked -> ZeroDivisionError, good enough?


def naive_softmax(x):
    e = [math.exp(v) for v in x]
    return [v / sum(e) for v in e]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(r) - 1) <= tol for r in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
