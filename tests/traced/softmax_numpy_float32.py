"""One mistake, in softmax: NumPy, in float32: about 7 digits. The rest is right."""

import math

import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float32)
    top = x.max(axis=axis, keepdims=True)
    if np.isneginf(top).any():
        raise ValueError("softmax: every key is masked")
    e = np.exp(x - top)
    return e / e.sum(axis=axis, keepdims=True)


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    total = math.fsum(exps)
    return [e / total for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    for row in rows:
        if abs(math.fsum(row) - 1) > tol:
            return False
    return True


def entropy(w):
    total = 0.0
    for p in w:
        if p > 0:
            total -= p * math.log(p)
    return total
