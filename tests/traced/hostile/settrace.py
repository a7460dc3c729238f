"""Takes the tracer away: sys.settrace replaced while loading, and called from
softmax (its own tracer, then None); entropy sets threading's too.  Wrong in
softmax and entropy: the grade is the untraced one's, and the trace stops
where it was taken away, saying so."""

import math
import sys
import threading

_real_settrace = sys.settrace
sys.settrace = lambda function: None          # what the harness saved is not this


def softmax(x, axis=-1):
    _real_settrace(lambda *args: None)
    top = max(x)
    exps = [math.exp(s - top) for s in x]
    _real_settrace(None)
    total = sum(x)
    return [e / total for e in exps]


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    return [e / math.fsum(exps) for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    threading.settrace(print)
    total = 0.0
    for p in w:
        if p > 0:
            total += p * math.log(p)
    return total
