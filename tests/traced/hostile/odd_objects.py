"""Objects whose __repr__, __eq__, __len__ and tolist raise or lie, held in
softmax's variables (a wrong softmax): the trace shows them by their type
and never calls them; builtins patched while loading change nothing."""

import builtins
import math


class Liar(float):
    def __repr__(self):
        raise RuntimeError("no repr for you")

    def __eq__(self, other):
        raise RuntimeError("no eq for you")

    __hash__ = float.__hash__

    def __float__(self):
        return 12345.0


class FakeArray:
    __module__ = "numpy"

    def tolist(self):
        raise RuntimeError("no list for you")

    def __len__(self):
        return -1

    def __repr__(self):
        while True:
            pass


def softmax(x, axis=-1):
    if isinstance(x[0], list):
        return [softmax(row) for row in x]
    liar = Liar(max(x))
    fake = FakeArray()
    exps = [math.exp(s - liar) for s in x]
    total = sum(x)
    return [e / total for e in exps]


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    return [e / math.fsum(exps) for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    builtins.isinstance = lambda *args: True
    builtins.len = lambda thing: 0
    builtins.sorted = lambda thing, **kw: []
    return math.fsum(p * math.log(p) for p in w if p > 0)
