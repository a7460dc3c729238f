# HOSTILE18-CLASSMATE: an honest classmate (the hostile files look for this mark).
import math

# softmax = exp / sum(exp), easy


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        if axis == 0:
            cols = [softmax(list(c)) for c in zip(*x)]
            return [list(r) for r in zip(*cols)]
        return [softmax(r) for r in x]
    exps = [math.exp(s) for s in x]
    total = sum(exps)
    return [e / total for e in exps]


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    total = sum(exps)
    return [e / total for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(r) - 1) <= tol for r in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
