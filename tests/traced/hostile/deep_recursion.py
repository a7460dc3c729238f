"""Recurses to near Python's limit in every call, and is wrong in softmax:
the tracer's own calls may need the last frames, and must not change what
the call does."""

import math
import sys


def _down(n, top):
    if n == 0:
        return top
    return _down(n - 1, top)


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        return [softmax(row) for row in x]
    top = _down(sys.getrecursionlimit() - 60, max(x))
    exps = [math.exp(s - top) for s in x]
    total = sum(x)
    return [e / total for e in exps]


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    return [e / math.fsum(exps) for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    try:
        return _bottomless(w)
    except RecursionError:
        return 0.0


def _bottomless(w):
    return _bottomless(w)
