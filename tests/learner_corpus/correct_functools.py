import functools
import math
import operator


def _row(r):
    top = functools.reduce(max, r)
    if top == -math.inf:
        raise ValueError("all -inf")
    ex = list(map(math.exp, map(functools.partial(operator.add, -top), r)))
    total = functools.reduce(operator.add, ex)
    return [e / total for e in ex]


@functools.lru_cache(maxsize=None)
def _log(p):
    return math.log(p)


def softmax(x, axis=-1):
    if not isinstance(x[0], list):
        return _row(x)
    if axis == 0:
        return list(map(list, zip(*map(_row, map(list, zip(*x))))))
    return list(map(_row, x))


def naive_softmax(x):
    ex = list(map(math.exp, x))
    total = functools.reduce(operator.add, ex)
    return [e / total for e in ex]


def rows_normalised(W, tol=1e-9):
    rows = W if isinstance(W[0], list) else [W]
    return functools.reduce(operator.and_, (abs(math.fsum(r) - 1) <= tol for r in rows), True)


def entropy(w):
    return -functools.reduce(operator.add, (p * _log(p) for p in w if p > 0), 0.0)
