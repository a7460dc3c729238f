"""Prints on every step, to stdout and stderr, and is wrong in softmax: the
trace shows none of it, and the grade is the untraced one's."""

import math
import sys


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        return [softmax(row) for row in x]
    top = max(x)
    print("top is", top, "\x1b[2J" * 50)
    exps = [math.exp(s - top) for s in x]
    print("x" * 100000, file=sys.stderr)
    total = sum(x)
    return [e / total for e in exps]


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    print(exps)
    return [e / math.fsum(exps) for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    print("entropy of", w)
    return -math.fsum(p * math.log(p) for p in w if p > 0)
