"""NumPy, with arrays far bigger than a trace keeps, wrong in softmax."""

import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    scratch = np.zeros((1000, 1000))
    top = x.max(axis=axis, keepdims=True)
    if np.isneginf(top).any():
        raise ValueError("softmax: every key is masked")
    e = np.exp(x - top) + scratch.sum()
    return e / x.sum(axis=axis, keepdims=True)


def naive_softmax(x):
    e = np.exp(np.asarray(x, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)


def rows_normalised(W, tol=1e-9):
    sums = np.asarray(W, dtype=float).sum(axis=-1)
    return bool(np.all(np.abs(sums - 1) <= tol))


def entropy(w):
    w = np.asarray(w, dtype=float)
    w = w[w > 0]
    return float(-(w * np.log(w)).sum())
