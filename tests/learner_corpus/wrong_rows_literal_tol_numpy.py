import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    m = np.max(x, axis=axis, keepdims=True)
    if np.any(np.isneginf(m)):
        raise ValueError("softmax: a row is all -inf")
    e = np.exp(x - m)
    return e / np.sum(e, axis=axis, keepdims=True)


def naive_softmax(x):
    e = np.exp(np.asarray(x, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)


def rows_normalised(W, tol=1e-9):
    W = np.asarray(W, dtype=float)
    return bool(np.all(np.abs(W.sum(axis=-1) - 1) < 1e-6))    # float error is ~1e-16 anyway


def entropy(w):
    w = np.asarray(w, dtype=float)
    nz = w[w > 0]
    return float(-np.sum(nz * np.log(nz)))

