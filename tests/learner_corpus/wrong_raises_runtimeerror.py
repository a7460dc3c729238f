import math


class AllMasked(RuntimeError):
    pass


def _row(r):
    m = max(r)
    if m == -math.inf:
        raise AllMasked("no key visible in this row")
    e = [math.exp(v - m) for v in r]
    s = math.fsum(e)
    return [v / s for v in e]


def softmax(x, axis=-1):
    if not isinstance(x[0], list):
        return _row(x)
    if axis == 0:
        return [list(r) for r in zip(*[_row(list(c)) for c in zip(*x)])]
    return [_row(r) for r in x]


def naive_softmax(x):
    e = [math.exp(v) for v in x]
    return [v / sum(e) for v in e]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(r) - 1) <= tol for r in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
