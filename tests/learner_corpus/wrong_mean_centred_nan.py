import math
import statistics

# I centre the scores on their mean: keeps the numbers small, same weights


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        if axis == 0:
            cols = [softmax(list(c)) for c in zip(*x)]
            return [list(r) for r in zip(*cols)]
        return [softmax(r) for r in x]
    centre = sum(x) / len(x)
    e = [math.exp(v - centre) for v in x]
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
