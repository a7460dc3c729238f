import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    if np.isneginf(x).all(axis=axis).any():
        raise ValueError("every key masked")
    e = np.exp(x - x.min(axis=axis, keepdims=True))      # shift so every exponent is >= 0
    return e / e.sum(axis=axis, keepdims=True)


def naive_softmax(x):
    e = np.exp(np.asarray(x, dtype=float))
    return e / e.sum(axis=-1, keepdims=True)


def rows_normalised(W, tol=1e-9):
    W = np.atleast_2d(np.asarray(W, dtype=float))
    return bool(np.all(np.abs(W.sum(axis=-1) - 1.0) <= tol))


def entropy(w):
    w = np.asarray(w, dtype=float)
    nz = w[w > 0]
    return float(-np.sum(nz * np.log(nz)))

