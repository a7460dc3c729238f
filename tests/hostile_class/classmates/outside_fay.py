# HOSTILE18-CLASSMATE: an honest classmate (the hostile files look for this mark).
import math

# returning tuples because they're immutable (weights shouldn't change)

def softmax(x, axis=-1):
    if isinstance(x[0], (list, tuple)):
        if axis == 0:
            cols = tuple(softmax(tuple(c)) for c in zip(*x))
            return tuple(zip(*cols))
        return tuple(softmax(r) for r in x)
    m = max(x)
    if m == -math.inf:
        raise ValueError("all -inf")
    e = tuple(math.exp(v - m) for v in x)
    s = math.fsum(e)
    return tuple(v / s for v in e)


def naive_softmax(x):
    e = tuple(math.exp(v) for v in x)
    return tuple(v / sum(e) for v in e)


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], (list, tuple)) else (W,)
    return all(abs(math.fsum(r) - 1) <= tol for r in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
