import numpy as np


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    m = np.max(x, axis=axis, keepdims=True)
    if np.any(np.isneginf(m)):
        raise ValueError("softmax: a row is all -inf")
    e = np.exp(x - m)
    return e / np.sum(e, axis=axis, keepdims=True)


def naive_softmax(x):
    x = np.asarray(x, dtype=float)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        e = np.exp(x)
        out = e / e.sum(axis=-1, keepdims=True)
    if not np.all(np.isfinite(out)):
        return softmax(x)                  # never hand back nan
    return out


def rows_normalised(W, tol=1e-9):
    W = np.atleast_2d(np.asarray(W, dtype=float))
    return bool(np.all(np.abs(W.sum(axis=-1) - 1.0) <= tol))


def entropy(w):
    w = np.asarray(w, dtype=float)
    nz = w[w > 0]
    return float(-np.sum(nz * np.log(nz)))

