import numpy as np

# float32 is what the GPU uses, so let's be realistic


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float32)
    m = x.max(axis=axis, keepdims=True)
    if np.isneginf(m).any():
        raise ValueError("all -inf row")
    e = np.exp(x - m)
    return e / e.sum(axis=axis, keepdims=True)


def naive_softmax(x):
    e = np.exp(np.asarray(x, dtype=np.float32))
    return e / e.sum(axis=-1, keepdims=True)


def rows_normalised(W, tol=1e-9):
    s = np.asarray(W, dtype=np.float64).sum(axis=-1)
    return bool(np.all(np.abs(s - 1) <= tol))


def entropy(w):
    w = np.asarray(w, dtype=np.float32)
    w = w[w > 0]
    return -(w * np.log(w)).sum()
