import math


def softmax(x, axis=-1):
    if not isinstance(x[0], list):
        x, flat = [x], True
    else:
        flat = False
    if axis == 0 and not flat:
        return [list(r) for r in zip(*softmax([list(c) for c in zip(*x)]))]
    exps = []
    for row in x:
        top = max(row)
        if top == -math.inf:
            raise ValueError("masked row")
        exps.append([math.exp(s - top) for s in row])
    total = sum(sum(row) for row in exps)
    out = [[e / total for e in row] for row in exps]
    return out[0] if flat else out


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    total = sum(exps)
    return [e / total for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0) + 0.0

