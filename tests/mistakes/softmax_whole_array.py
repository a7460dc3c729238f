"""One typical mistake, in softmax: the maximum and the sum of the whole array. The rest is right (NumPy)."""

import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    if np.isneginf(x.max(axis=axis)).any():
        raise ValueError("softmax: every key is masked")
    e = np.exp(x - np.max(x))
    return e / np.sum(e)


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
