import numpy as np


def softmax(x, axis=-1):
    x = np.array(x, dtype=float)
    e = np.exp(x - np.max(x))          # max of everything, should be fine??
    return e / np.sum(e, axis=axis, keepdims=True)


def naive_softmax(x):
    e = np.exp(np.array(x, dtype=float))
    return e / e.sum()


def rows_normalised(W, tol=1e-9):
    W = np.array(W, dtype=float)
    return bool(np.all(np.abs(W.sum(axis=-1) - 1) <= tol))


def entropy(w):
    w = np.array(w, dtype=float)
    w = w[w > 0]
    return float(-(w * np.log(w)).sum())
