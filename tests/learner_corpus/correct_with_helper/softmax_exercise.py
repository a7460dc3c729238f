import math

from my_softmax_helpers import _normalise, _stable_exp_row, transpose


def softmax(x, axis=-1):
    if not isinstance(x[0], list):
        return _normalise(_stable_exp_row(x))
    if axis == 0:
        return transpose([softmax(c) for c in transpose(x)])
    return [softmax(r) for r in x]


def naive_softmax(x):
    return _normalise([math.exp(s) for s in x])


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(r) - 1) <= tol for r in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
