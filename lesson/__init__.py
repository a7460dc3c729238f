"""Lesson 4: softmax weights, in plain Python.

How one query's scores against its keys become softmax weights (positive,
summing to 1 per query), why the code subtracts the row maximum before
``exp``, how a mask of -inf excludes keys, and how the weights mix the
value vectors into the output.  Standard library only, lists in, lists out.

Softmax (lesson.weights)
------------------------
softmax(x, axis=-1)       stable softmax along an axis

    >>> [round(w, 6) for w in softmax([1 / 2 ** 0.5, 0])]
    [0.669762, 0.330238]

naive_softmax(x)          exp(x) / sum(exp(x)), no max subtraction: fails on
                          [1000, 1000] with OverflowError
rows_normalised(W, tol)   does every row sum to 1?

    >>> rows_normalised(softmax([[0.7071, 0], [3, 4]]))
    True

entropy(w)                how spread out one row of weights is, in nats

    >>> entropy([1.0, 0.0])
    0.0

softmax_table(scores)     the lesson's table: score, score - max, exp, weight

Going further (lesson.compensated)
----------------------------------
softmax_compensated(x, axis=-1)   softmax that also recovers the rounding of
                                  x - max: within about 1 ulp of exact, where
                                  the plain recipe can be off by dozens

One attention head (lesson.head)
-------------------------------------
scaled_scores(Q, K)       S = Q K^T / sqrt(d_k)
causal_mask(n_q, n_k)     0.0 where key j <= query i, -inf elsewhere
attention(Q, K, V, mask)  (O, A) with A = softmax(S + M), O = A V

    >>> output, weights = attention([1, 0], [[1, 0], [0, 1]], [[2, 0], [0, 2]])
    >>> [round(o, 6) for o in output]
    [1.339523, 0.660477]

Bad input raises TypeError (wrong kind of thing) or ValueError (bad value)
with a message naming the function, the problem and where it is.
"""

from lesson.compensated import softmax_compensated
from lesson.head import attention, causal_mask, scaled_scores
from lesson.weights import (entropy, naive_softmax, rows_normalised, softmax,
                            softmax_table)

# In the order the lesson teaches them (the site's API page follows it).
__all__ = [
    "softmax", "naive_softmax", "rows_normalised", "entropy", "softmax_table",
    "scaled_scores", "causal_mask", "attention", "softmax_compensated",
]
