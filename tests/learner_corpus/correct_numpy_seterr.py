# I turned on seterr so numpy screams instead of giving nan (tip from stackoverflow)
import numpy as np

np.seterr(all="raise")


def softmax(x, axis=-1):
    x = np.array(x, dtype=np.float64)
    mx = x.max(axis=axis, keepdims=True)
    if np.isneginf(mx).any():
        raise ValueError("row of all -inf")
    # exp(-inf - finite) = 0, no warning
    ex = np.exp(x - mx)
    return ex / ex.sum(axis=axis, keepdims=True)


def naive_softmax(x):
    x = np.array(x, dtype=np.float64)
    ex = np.exp(x)            # FloatingPointError: overflow with seterr
    return ex / ex.sum(axis=-1, keepdims=True)


def rows_normalised(W, tol=1e-9):
    sums = np.asarray(W, dtype=np.float64).sum(axis=-1)
    return bool(np.all(np.abs(sums - 1) <= tol))


def entropy(w):
    w = np.asarray(w, dtype=np.float64)
    return float(-(w[w > 0] * np.log(w[w > 0])).sum())
