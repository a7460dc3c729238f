import math
import os
from multiprocessing import Pool

# (corpus instrumentation, not the learner's: tell the test harness which
# process to look for afterwards)
def _tell_harness(*pids):
    import sys
    print(f"(corpus) started {len(pids)} process(es)", file=sys.stderr, flush=True)


def _row(r):
    m = max(r)
    if m == -math.inf:
        raise ValueError("softmax: all -inf row")
    e = [math.exp(v - m) for v in r]
    s = math.fsum(e)
    return [v / s for v in e]


pool = Pool(2)      # make it once, reuse it (closing it later... TODO)
_tell_harness(*(p.pid for p in pool._pool))


def softmax(x, axis=-1):
    if not isinstance(x[0], list):
        return _row(x)
    if axis == 0:
        cols = pool.map(_row, [list(c) for c in zip(*x)])
        return [list(r) for r in zip(*cols)]
    return pool.map(_row, x)


def naive_softmax(x):
    e = [math.exp(v) for v in x]
    return [v / sum(e) for v in e]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(r) - 1) <= tol for r in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
