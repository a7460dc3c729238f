import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    m = np.max(x, axis=axis, keepdims=True)
    if np.isneginf(m).any():
        raise ValueError("all -inf")
    e = np.exp(x - m)
    return e / np.sum(e, axis=axis, keepdims=True)


def naive_softmax(x):
    e = np.exp(np.asarray(x, dtype=float))
    return e / np.sum(e, axis=-1, keepdims=True)


def rows_normalised(W, tol=1e-9):
    # np.allclose is the proper way to compare floats
    return np.allclose(np.sum(W, axis=-1), 1.0, atol=tol)


def entropy(w):
    w = np.asarray(w, dtype=float)
    w = w[w > 0]
    return -np.sum(w * np.log(w))
