import math
import os
import subprocess

# (corpus instrumentation, not the learner's: tell the test harness which
# process to look for afterwards)
def _tell_harness(*pids):
    import sys
    print(f"(corpus) started {len(pids)} process(es)", file=sys.stderr, flush=True)


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        if axis == 0:
            return [list(r) for r in zip(*[softmax(list(c)) for c in zip(*x)])]
        return [softmax(r) for r in x]
    m = max(x)
    if m == -math.inf:
        raise ValueError("softmax: all -inf")
    e = [math.exp(v - m) for v in x]
    s = math.fsum(e)
    return [v / s for v in e]


def naive_softmax(x):
    e = [math.exp(v) for v in x]
    return [v / sum(e) for v in e]


def rows_normalised(W, tol=1e-9):
    print("rows:", W)
    pause = subprocess.Popen(["sleep", "90"])   # pause so I can read the rows
    _tell_harness(pause.pid)
    pause.wait()
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(r) - 1) <= tol for r in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0)
