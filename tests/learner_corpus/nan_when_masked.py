"""Stable NumPy softmax that forgets the all -inf policy: it returns nan."""
import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def naive_softmax(x):
    e = np.exp(np.asarray(x, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)


def rows_normalised(W, tol=1e-9):
    W = np.atleast_2d(np.asarray(W, dtype=float))
    return bool(np.all(np.abs(W.sum(axis=-1) - 1) <= tol))


def entropy(w):
    w = np.asarray(w, dtype=float)
    return float(-(w * np.log(w)).sum())
