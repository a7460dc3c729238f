"""A correct solution whose author prints, clears the screen and shells out."""
import json
import math
import os
import subprocess
import sys

os.system("echo hello from the shell")
os.system("clear")
print("to the real stdout", file=sys.__stdout__)
sys.stdout = sys.__stdout__                   # "undo" someone's redirect
json.dumps = lambda *args, **kwargs: "patched!"
subprocess.run([sys.executable, "-c", "print('a child process prints')"])
print("loaded")


def softmax(x, axis=-1):
    print("softmax got", x)
    if not isinstance(x[0], list):
        top = max(x)
        if top == -math.inf:
            raise ValueError("a row is all -inf")
        exps = [math.exp(s - top) for s in x]
        return [e / math.fsum(exps) for e in exps]
    if axis == 0:
        return [list(r) for r in zip(*[softmax(list(c)) for c in zip(*x)])]
    return [softmax(row) for row in x]


def naive_softmax(x):
    os.system("echo naive via the shell")
    exps = [math.exp(s) for s in x]
    return [e / sum(exps) for e in exps]


def rows_normalised(W, tol=1e-9):
    print("warning from rows_normalised", file=sys.stderr)
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    print("x" * 100000)                        # far too much: capped in the report
    return -math.fsum(p * math.log(p) for p in w if p > 0) + 0.0
