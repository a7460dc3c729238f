# HOSTILE18-CLASSMATE: an honest classmate (the hostile files look for this mark).
import math

# softmax exercise - comprehension version (my TA said loops are "unpythonic" lol)

def softmax(x, axis=-1):
    def row(r):
        m = max(r)
        if m == float("-inf"):
            raise ValueError("all scores masked")
        e = [math.exp(v - m) for v in r]
        s = sum(e)
        return [v / s for v in e]
    if isinstance(x[0], (int, float)):
        return row(x)
    if axis in (0, -2):
        return [list(t) for t in zip(*[row(list(c)) for c in zip(*x)])]
    return [row(r) for r in x]

def naive_softmax(x):
    s = sum(math.exp(v) for v in x)
    return [math.exp(v) / s for v in x]

def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(sum(r) - 1) <= tol for r in rows)

def entropy(w):
    return -sum(p * math.log(p) for p in w if p != 0)
