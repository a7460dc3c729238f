"""One typical mistake, in softmax: the mask applied after the softmax. The rest is right (NumPy)."""

import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    mask = np.isneginf(x)
    scores = np.where(mask, 0.0, x)
    e = np.exp(scores - scores.max(axis=axis, keepdims=True))
    weights = e / e.sum(axis=axis, keepdims=True)
    return np.where(mask, 0.0, weights)


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
