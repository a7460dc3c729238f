"""A correct solution with a dataclass (postponed annotations) and a process pool."""
from __future__ import annotations

import math
from dataclasses import dataclass
from multiprocessing import Pool


@dataclass
class Row:
    scores: list[float]

    def weights(self) -> list[float]:
        top = max(self.scores)
        if top == -math.inf:
            raise ValueError("a row is all -inf")
        exps = [math.exp(s - top) for s in self.scores]
        return [e / math.fsum(exps) for e in exps]


def _weights(scores):
    return Row(scores).weights()


def softmax(x, axis=-1):
    if not isinstance(x[0], list):
        return _weights(x)
    if axis == 0:
        return [list(r) for r in zip(*softmax([list(c) for c in zip(*x)]))]
    with Pool(2) as pool:
        return pool.map(_weights, x)


def naive_softmax(x):
    exps = [math.exp(s) for s in x]
    return [e / sum(exps) for e in exps]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(row) - 1) <= tol for row in rows)


def entropy(w):
    return -math.fsum(p * math.log(p) for p in w if p > 0) + 0.0
