import math


def softmax(x, axis=-1):
    m = x[0]
    for i in range(1, len(x)):
        if x[i] > m:
            m = x[i]
    if m == -math.inf:
        raise ValueError("all masked")
    out = []
    total = 0.0
    for i in range(len(x)):
        out.append(math.exp(x[i] - m))
        total += out[i]
    for i in range(len(out)):
        out[i] = out[i] / total
    return out


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    total = sum(exps)
    return [e / total for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0) + 0.0

