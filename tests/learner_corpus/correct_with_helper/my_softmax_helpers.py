"""Helpers I split out of my main file so it is shorter."""
import math

NEG_INF = float("-inf")


def _stable_exp_row(row):
    top = max(row)
    if top == NEG_INF:
        raise ValueError("row is all -inf")
    return [math.exp(s - top) for s in row]


def _normalise(values):
    total = math.fsum(values)
    return [v / total for v in values]


def transpose(m):
    return [list(c) for c in zip(*m)]
