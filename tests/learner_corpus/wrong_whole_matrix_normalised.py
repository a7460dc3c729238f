import numpy as np

# softmax = exp(x) / sum(exp(x)), vectorised


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    if np.all(np.isneginf(x), axis=-1).any():
        raise ValueError("a query with every key masked")
    e = np.exp(x - x.max())
    return e / e.sum()          # all the weights add up to 1


def naive_softmax(x):
    e = np.exp(np.asarray(x, dtype=float))
    return e / e.sum()


def rows_normalised(W, tol=1e-9):
    return bool(abs(np.sum(W) - 1) <= tol)


def entropy(w):
    w = np.asarray(w, dtype=float)
    w = w[w > 0]
    return float(-np.sum(w * np.log(w)))
