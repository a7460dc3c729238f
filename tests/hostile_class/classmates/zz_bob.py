# HOSTILE18-CLASSMATE: an honest classmate (the hostile files look for this mark).
"""Lesson 4, Part 2 -- my solution.

Plain Python, no numpy.  Tested with the examples from the page.
"""

import math


def _softmax_row(row):
    # subtract the max so exp() never overflows (see the table on the page)
    top = max(row)
    if top == -math.inf:
        raise ValueError("softmax: every score in this row is -inf")
    exps = []
    for s in row:
        exps.append(math.exp(s - top))   # exp(-inf) is 0.0, good
    total = math.fsum(exps)
    weights = []
    for e in exps:
        weights.append(e / total)
    return weights


def softmax(x, axis=-1):
    if not isinstance(x[0], list):
        return _softmax_row(x)
    if axis == 0 or axis == -2:
        # columns: transpose, do rows, transpose back
        columns = []
        for j in range(len(x[0])):
            column = []
            for i in range(len(x)):
                column.append(x[i][j])
            columns.append(_softmax_row(column))
        result = []
        for i in range(len(x)):
            result.append([columns[j][i] for j in range(len(x[0]))])
        return result
    out = []
    for row in x:
        out.append(_softmax_row(row))
    return out


def naive_softmax(x):
    # no max subtraction on purpose!!
    exps = []
    for s in x:
        exps.append(math.exp(s))
    total = sum(exps)
    return [e / total for e in exps]


def rows_normalised(W, tol=1e-9):
    if not isinstance(W[0], list):
        W = [W]
    for row in W:
        if abs(math.fsum(row) - 1.0) > tol:
            return False
    return True


def entropy(w):
    h = 0.0
    for p in w:
        if p > 0:            # 0 * ln 0 counts as 0
            h -= p * math.log(p)
    return h
