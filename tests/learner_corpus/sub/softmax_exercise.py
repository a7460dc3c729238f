# week 4 homework, kept in my "sub" folder with its helper
import math

from stable_helpers import stable_row


def softmax(x, axis=-1):
    if not isinstance(x[0], list):
        return stable_row(x)
    if axis == 0:
        cols = [stable_row(list(c)) for c in zip(*x)]
        return [list(r) for r in zip(*cols)]
    return [stable_row(r) for r in x]


def naive_softmax(x):
    e = [math.exp(s) for s in x]
    return [v / sum(e) for v in e]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(r) - 1) <= tol for r in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
