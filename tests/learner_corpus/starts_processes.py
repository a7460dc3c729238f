"""Correct softmax, but the file starts processes that would outlive a careless checker.

Each process it starts has the tests' marker on its command line, so the
tests can see that none is left running.
"""
import math
import multiprocessing
import os
import subprocess
import sys

MARK = "lesson-test-mark-starts-processes"
SLEEPER = [sys.executable, "-c", "import time; time.sleep(90)", MARK]

helper = subprocess.Popen(SLEEPER)                          # a helper left running
daemon = subprocess.Popen(SLEEPER, start_new_session=True,  # one that left the group
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _row(scores):
    top = max(scores)
    if top == -math.inf:
        raise ValueError("a row is all -inf")
    exps = [math.exp(s - top) for s in scores]
    return [e / math.fsum(exps) for e in exps]


def softmax(x, axis=-1):
    if not isinstance(x[0], list):
        return _row(x)
    if axis == 0:
        return [list(r) for r in zip(*softmax([list(c) for c in zip(*x)]))]
    with multiprocessing.Pool(2) as pool:                    # rows in parallel
        return pool.map(_row, x)


def naive_softmax(x):
    if os.fork() == 0:                                       # a forked child that sleeps
        os.execv(sys.executable, SLEEPER)
    exps = [math.exp(s) for s in x]
    return [e / sum(exps) for e in exps]


def rows_normalised(W, tol=1e-9):
    subprocess.run(SLEEPER)                                  # waits 90 s: never returns
    return True


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0) + 0.0
