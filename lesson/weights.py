"""Softmax weights: turning one query's scores into weights.

A query's scores against its keys become weights in two steps: exponentiate
each score, then divide by the sum.  The weights are positive and add up to 1
across that query's keys.  Each row is normalised on its own.

>>> weights = softmax([1 / 2 ** 0.5, 0, -1])
>>> [round(w, 4) for w in weights]
[0.5972, 0.2945, 0.1083]
>>> rows_normalised([weights])
True

Functions
---------
softmax(x, axis=-1)        stable softmax along an axis of a nested list
naive_softmax(x)           exp(x) / sum(exp(x)) with no max subtraction
rows_normalised(W, tol)    does every row of W sum to 1?
entropy(w)                 how spread out one row of weights is, in nats
softmax_table(scores)      the lesson's table: score, score - max, exp, weight
"""

import math

from lesson import _checks

_NEG_INF = -math.inf
_ALL_MASKED = "every query needs at least one key it may see"
_USE_THE_MAX = "subtract the row maximum first, as softmax does"


# --8<-- [start:softmax]
def softmax(x, axis=-1):
    """Numerically stable softmax of x along axis.

    x is a list of scores, or a rectangular nested list of them.  The result
    has the same shape; along ``axis`` every slice is positive and sums to 1.
    The maximum of each slice is subtracted before ``exp``: that changes no
    weight (it cancels in the division) but keeps ``exp`` from overflowing.

    >>> [round(w, 6) for w in softmax([1 / 2 ** 0.5, 0])]
    [0.669762, 0.330238]
    >>> softmax([1000, 1000])
    [0.5, 0.5]

    A score of -inf is a masked key: its weight is exactly 0.

    >>> softmax([0.0, float("-inf")])
    [1.0, 0.0]

    Rows are normalised separately, so a 2 x 2 matrix of weights sums to 2.
    ``axis=0`` normalises the columns instead.

    >>> softmax([[0, 0], [1, 1]])
    [[0.5, 0.5], [0.5, 0.5]]
    >>> W = softmax([[0, 0], [1, 1]], axis=0)
    >>> [[round(w, 4) for w in row] for row in W]
    [[0.2689, 0.2689], [0.7311, 0.7311]]

    A row with no key to see has no weights: that is an error, never nan.

    >>> softmax([[0, 1], [float("-inf"), float("-inf")]])
    Traceback (most recent call last):
      ...
    ValueError: softmax: row 1 is all -inf; every query needs at least one key it may see
    """
    return _along_axis("softmax", "x", _softmax_row, x, axis)


def _softmax_row(scores):
    """Softmax of one row that holds at least one finite score."""
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]   # exp(-inf - top) is 0.0
    total = math.fsum(exps)                      # at least exp(0) = 1
    return [e / total for e in exps]
# --8<-- [end:softmax]


def _along_axis(name, arg, row_softmax, x, axis):
    """Check x, then apply row_softmax to every 1-D slice of x along axis."""
    shape, flat = _checks.array(name, arg, x, allow_neg_inf=True)
    axis = _checks.axis(name, axis, len(shape))
    weights = flat[:]
    for line in _lines(shape, axis):
        row = flat[line]
        if max(row) == _NEG_INF:
            where = _describe(line, shape, axis, arg)
            raise ValueError(f"{name}: {where} is all -inf; {_ALL_MASKED}")
        weights[line] = row_softmax(row)
    return _checks.nest(weights, shape)


def _lines(shape, axis):
    """Yield a slice of the flat row-major list for each 1-D line along axis.

    Stepping along ``axis`` moves by its stride, the product of the lengths
    after it.  Lines start in blocks of ``shape[axis] * stride`` entries,
    at every offset below the stride.
    """
    stride = math.prod(shape[axis + 1:])
    block = shape[axis] * stride
    for outer in range(0, math.prod(shape), block):
        for start in range(outer, outer + stride):
            yield slice(start, start + block, stride)


def _describe(line, shape, axis, arg):
    """Name a line for an error message: 'row 2', 'column 0', 'x[1, :, 0]'."""
    index, rest = [], line.start
    for n in reversed(shape):
        rest, i = divmod(rest, n)
        index.insert(0, i)
    if len(shape) == 1:
        return arg
    if len(shape) == 2:
        return f"row {index[0]}" if axis == 1 else f"column {index[1]}"
    parts = [":" if k == axis else str(i) for k, i in enumerate(index)]
    return f"{arg}[{', '.join(parts)}]"


# --8<-- [start:naive_softmax]
def naive_softmax(x):
    """Textbook softmax, exp(x) / sum(exp(x)) along the last axis, unprotected.

    It does not subtract the row maximum, so it works only while every
    ``exp`` stays inside the range of a float.  It is here to fail:

    >>> [round(w, 6) for w in naive_softmax([1 / 2 ** 0.5, 0])]
    [0.669762, 0.330238]
    >>> naive_softmax([1000, 1000])
    Traceback (most recent call last):
      ...
    OverflowError: naive_softmax: exp(1000.0) overflows a float in x; subtract the row maximum first, as softmax does

    Very negative scores fail the other way: every exp underflows to 0.0.

    >>> naive_softmax([-1000, -1000])
    Traceback (most recent call last):
      ...
    ValueError: naive_softmax: every exp() in x is 0.0, so each weight would be 0/0; subtract the row maximum first, as softmax does
    """
    shape, flat = _checks.array("naive_softmax", "x", x, allow_neg_inf=True)
    last = len(shape) - 1
    weights = []
    for line in _lines(shape, last):
        row = flat[line]
        try:
            exps = [math.exp(s) for s in row]
            total = math.fsum(exps)
        except OverflowError:
            where = _describe(line, shape, last, "x")
            raise OverflowError(f"naive_softmax: exp({max(row)}) overflows "
                                f"a float in {where}; {_USE_THE_MAX}") from None
        if total == 0.0:
            where = _describe(line, shape, last, "x")
            raise ValueError(f"naive_softmax: every exp() in {where} is 0.0, "
                             f"so each weight would be 0/0; {_USE_THE_MAX}")
        weights.extend(e / total for e in exps)
    return _checks.nest(weights, shape)
# --8<-- [end:naive_softmax]


# --8<-- [start:rows_normalised]
def rows_normalised(W, tol=1e-9):
    """True if every row of W (its last axis) sums to 1 within tol.

    A flat list counts as one row.  Sums use ``math.fsum``, so rounding in
    the sum itself cannot push a good row outside ``tol``.

    >>> rows_normalised([[0.25, 0.75], [0.5, 0.5]])
    True

    The weights of two queries sum to 1 per row, not over the whole matrix:

    >>> rows_normalised([0.25, 0.75, 0.5, 0.5])
    False
    >>> rows_normalised([0.3333, 0.3333, 0.3333], tol=1e-3)
    True
    """
    shape, flat = _checks.array("rows_normalised", "W", W)
    tol = _checks.tolerance("rows_normalised", tol)
    return all(abs(math.fsum(row) - 1.0) <= tol
               for row in _checks.rows(flat, shape[-1]))
# --8<-- [end:rows_normalised]


# --8<-- [start:entropy]
def entropy(w):
    """Entropy -sum(w * ln w) of one row of weights, in nats.

    Low entropy is focused attention, high entropy is spread out.  A weight
    of 0 adds nothing (``0 * ln 0`` is taken as 0, its limit).

    >>> entropy([1.0, 0.0, 0.0])
    0.0
    >>> import math
    >>> math.isclose(entropy([0.25] * 4), math.log(4))
    True
    >>> round(entropy(softmax([1 / 2 ** 0.5, 0])), 6)
    0.634347
    """
    shape, flat = _checks.array("entropy", "w", w)
    if len(shape) != 1:
        raise ValueError(f"entropy: w must be one row of weights, "
                         f"not a nested list of shape {shape}")
    for i, p in enumerate(flat):
        if p < 0:
            raise ValueError(f"entropy: w[{i}] is {p}; weights must be "
                             f"zero or more")
    # 0.0 - ... so that a one-hot row gives 0.0, not -0.0.
    return 0.0 - math.fsum(p * math.log(p) for p in flat if p > 0)
# --8<-- [end:entropy]


# --8<-- [start:softmax_table]
def softmax_table(scores):
    """The lesson's table for one row: (score, score - max, exp, weight) per key.

    Each column is one step of the stable softmax, so a learner can check
    a calculation by hand against it.

    >>> for row in softmax_table([1 / 2 ** 0.5, 0, -1]):
    ...     print([round(v, 4) for v in row])
    [0.7071, 0.0, 1.0, 0.5972]
    [0.0, -0.7071, 0.4931, 0.2945]
    [-1.0, -1.7071, 0.1814, 0.1083]
    """
    shape, flat = _checks.array("softmax_table", "scores", scores,
                                allow_neg_inf=True)
    if len(shape) != 1:
        raise ValueError(f"softmax_table: scores must be one row, "
                         f"not a nested list of shape {shape}")
    weights = _along_axis("softmax_table", "scores", _softmax_row, flat, -1)
    top = max(flat)
    return [(s, s - top, math.exp(s - top), w) for s, w in zip(flat, weights)]
# --8<-- [end:softmax_table]
