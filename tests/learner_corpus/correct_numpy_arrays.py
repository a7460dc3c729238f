"""A correct solution with NumPy, as the lesson page words it."""
import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    top = x.max(axis=axis, keepdims=True)
    if np.any(np.isneginf(top)):
        raise ValueError("a row is all -inf")
    e = np.exp(x - top)
    return e / e.sum(axis=axis, keepdims=True)


def naive_softmax(x):
    e = np.exp(np.asarray(x, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)


def rows_normalised(W, tol=1e-9):
    W = np.atleast_2d(np.asarray(W, dtype=float))
    return bool(np.all(np.abs(W.sum(axis=-1) - 1) <= tol))


def entropy(w):
    w = np.asarray(w, dtype=float)
    nz = w[w > 0]
    return float(-(nz * np.log(nz)).sum()) + 0.0
