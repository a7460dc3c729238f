"""softmax loops for ever on large scores; the other three are correct."""
import math


def softmax(x, axis=-1):
    exps = [math.exp(s) for s in x if s < 100]
    while len(exps) < len(x):      # waits for large scores to shrink: they never do
        pass
    total = sum(exps)
    return [e / total for e in exps]


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    return [e / sum(exps) for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    print("computing entropy of", w)          # a learner's debugging print
    return -math.fsum(p * math.log(p) for p in w if p > 0) + 0.0
