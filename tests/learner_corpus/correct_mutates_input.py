import math

# saves memory: works in place instead of making new lists


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        if axis == 0:
            for j in range(len(x[0])):
                col = [row[j] for row in x]
                softmax(col)
                for i, row in enumerate(x):
                    row[j] = col[i]
            return x
        for row in x:
            softmax(row)
        return x
    top = max(x)
    if top == -math.inf:
        raise ValueError("every score is -inf")
    for i in range(len(x)):
        x[i] = math.exp(x[i] - top)
    total = math.fsum(x)
    for i in range(len(x)):
        x[i] /= total
    return x


def naive_softmax(x):
    for i in range(len(x)):
        x[i] = math.exp(x[i])
    total = sum(x)
    for i in range(len(x)):
        x[i] = x[i] / total
    return x


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(r) - 1) <= tol for r in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
