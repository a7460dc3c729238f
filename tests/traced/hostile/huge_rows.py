"""Makes rows of 100,000 numbers and loops over them in every call, and is
wrong in softmax and naive_softmax: the trace is folded and bounded."""

import math


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        return [softmax(row) for row in x]
    padded = list(x) + [-math.inf] * 100_000
    top = max(padded)
    exps = []
    total = 0.0
    for s in padded:
        e = math.exp(s - top)
        exps.append(e)
        total += e
    return [e / (total + 1) for e in exps[:len(x)]]


def naive_softmax(x):
    big = [float(i) for i in range(100_000)]
    exps = [math.exp(s) for s in x]
    return [e / (math.fsum(exps) + big[1]) for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
