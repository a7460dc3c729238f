import math

# softmax written in a hurry: two slips in one function


def _row(row):
    top = max(row)
    if top == -math.inf:
        raise ValueError("every key is masked")
    exps = [math.exp(s - top) for s in row]
    return [e / max(exps) for e in exps]      # the largest, not the sum


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        return [_row(row) for row in x]        # axis is never looked at
    return _row(x)


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    return [e / sum(exps) for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    return -sum(p * math.log(p) for p in w if p > 0)
