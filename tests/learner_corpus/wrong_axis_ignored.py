import math


def softmax(x, axis=-1):
    # TODO axis?? always rows for now
    if not isinstance(x[0], list):
        x = [x]
        flat = True
    else:
        flat = False
    out = []
    for row in x:
        m = max(row)
        if m == -math.inf:
            raise ValueError("masked row")
        e = [math.exp(v - m) for v in row]
        s = math.fsum(e)
        out.append([v / s for v in e])
    return out[0] if flat else out


def naive_softmax(x):
    e = [math.exp(v) for v in x]
    return [v / sum(e) for v in e]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(r) - 1) <= tol for r in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
