"""Softmax exercise with type hints and a small dataclass.

(I'm practising typing for my internship.)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Sequence

Matrix = list[list[float]]


@dataclass
class Row:
    scores: list[float]
    weights: list[float] = field(default_factory=list)

    def normalise(self) -> Row:
        top: float = max(self.scores)
        if top == -math.inf:
            raise ValueError("softmax: this row is all -inf")
        exps: list[float] = [math.exp(s - top) for s in self.scores]
        total: float = math.fsum(exps)
        self.weights = [e / total for e in exps]
        return self


def _is_matrix(x: Sequence) -> bool:
    return isinstance(x[0], (list, tuple))


def softmax(x: list[float] | Matrix, axis: int = -1) -> list[float] | Matrix:
    if not _is_matrix(x):
        return Row(list(x)).normalise().weights
    if axis in (0, -2):
        cols: Matrix = [Row(list(c)).normalise().weights for c in zip(*x)]
        return [list(r) for r in zip(*cols)]
    return [Row(list(r)).normalise().weights for r in x]


def naive_softmax(x: list[float]) -> list[float]:
    exps: list[float] = [math.exp(s) for s in x]
    total: float = sum(exps)
    return [e / total for e in exps]


def rows_normalised(W: list[float] | Matrix, tol: float = 1e-9) -> bool:
    rows: Matrix = W if _is_matrix(W) else [W]  # type: ignore[assignment]
    return all(abs(math.fsum(r) - 1.0) <= tol for r in rows)


def entropy(w: Sequence[float]) -> float:
    return -math.fsum(p * math.log(p) for p in w if p > 0.0)
