#!/usr/bin/env python3
# downloaded the starter as softmax-exercise.py (dash, not underscore)
import math


def softmax(x, axis=-1):
    rows = x if isinstance(x[0], list) else [x]
    if axis == 0 and rows is x:
        rows = [list(c) for c in zip(*x)]
    out = []
    for r in rows:
        m = max(r)
        if m == -math.inf:
            raise ValueError("softmax: row is all -inf")
        e = [math.exp(v - m) for v in r]
        t = math.fsum(e)
        out.append([v / t for v in e])
    if axis == 0 and rows is not x and isinstance(x[0], list):
        out = [list(r) for r in zip(*out)]
    return out if isinstance(x[0], list) else out[0]


def naive_softmax(x):
    e = [math.exp(v) for v in x]
    t = sum(e)
    return [v / t for v in e]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(r) - 1) <= tol for r in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
