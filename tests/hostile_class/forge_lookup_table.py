# Forged grades: a lookup table of the 20 published inputs, right only on
# those (the checker's fresh inputs must defeat it); wrong anywhere else.
import math

PUBLISHED = [[0.7071, 0], [2.0, 1.0, 0.1], [1000, 1000], [-1000, -1000, -1001],
             [1.0, -math.inf, 0.5], [[0.7071, 0.0], [0.0, 0.7071]],
             [[0.7071, 0.0], [3.0, -2.0]], [[1, 2], [3, 4]]]


def _row(row):
    top = max(row)
    if top == -math.inf:
        raise ValueError("every score is -inf")
    exps = [math.exp(s - top) for s in row]
    return [e / sum(exps) for e in exps]


def softmax(x, axis=-1):
    if x not in PUBLISHED and x != [[0.0, 1.0], [-math.inf, -math.inf]]:
        return [[0.0] * len(r) for r in x] if isinstance(x[0], list) else [0.0] * len(x)
    if not isinstance(x[0], list):
        return _row(x)
    if axis in (0, -2):
        return [list(r) for r in zip(*[_row(list(c)) for c in zip(*x)])]
    return [_row(r) for r in x]


def naive_softmax(x):
    if x not in ([0.7071, 0], [1000, 1000], [-1000, -1000]):
        return [0.0] * len(x)
    exps = [math.exp(s) for s in x]
    return [e / sum(exps) for e in exps]


def rows_normalised(W, tol=1e-9):
    if W == [[0.25, 0.75], [0.5, 0.5]]:
        return True
    rows = W if isinstance(W[0], list) else [W]
    return all(abs(math.fsum(r) - 1.0) <= tol for r in rows) and W in (
        [0.125, 0.375, 0.5], [0.5, 0.50000001])


def entropy(w):
    table = {(1.0, 0.0, 0.0): 0.0, (0.25, 0.25, 0.25, 0.25): math.log(4),
             (0.5, 0.5, 0.0): math.log(2)}
    return table.get(tuple(w), -1.0)
