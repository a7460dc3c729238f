"""Lesson 4: softmax weights, in plain Python.

How one query's scores against its keys become softmax weights (positive,
summing to 1 per query), why the code subtracts the row maximum before
``exp``, how a mask of -inf excludes keys, and how the weights mix the
value vectors into the output.  Standard library only, lists in, lists out.

Each idea comes twice: the math for one row, with no checks, short enough
to copy into a file of your own (``softmax_row``, ``sums_to_one``, ...); and
a function that checks its input, says what is wrong and where, and works on
every row (``softmax``, ``rows_normalised``, ...).

Softmax (lesson.weights)
------------------------
softmax_row(scores)       stable softmax of one row: exp(s - max) / sum
softmax(x, axis=-1)       the same along an axis of a nested list

    >>> [round(w, 6) for w in softmax([1 / 2 ** 0.5, 0])]
    [0.669762, 0.330238]

naive_softmax_row(scores), naive_softmax(x)
                          exp(x) / sum(exp(x)), no max subtraction: fails on
                          [1000, 1000] with OverflowError
sums_to_one(row, tol), rows_normalised(W, tol)
                          does one row, or every row, sum to 1?

    >>> rows_normalised(softmax([[0.7071, 0], [3, 4]]))
    True

entropy_row(weights), entropy(w)
                          how spread out one row of weights is, in nats

    >>> entropy([1.0, 0.0])
    0.0

softmax_table(scores)     the lesson's table: score, score - max, exp, weight

Going further (lesson.compensated)
----------------------------------
softmax_compensated_row(scores), softmax_compensated(x, axis=-1)
                          softmax with every weight correctly rounded: the
                          float nearest to the exact one, where the plain
                          recipe can be off by dozens of ulps

One attention head (lesson.head)
--------------------------------
scaled_scores_row(q, K), scaled_scores(Q, K)
                          S = Q K^T / sqrt(d_k), one row or all of it
causal_mask(n_q, n_k)     0.0 where key j <= query i, -inf elsewhere
attention_row(q, K, V, mask), attention(Q, K, V, mask)
                          (O, A) with A = softmax(S + M), O = A V

    >>> output, weights = attention([1, 0], [[1, 0], [0, 1]], [[2, 0], [0, 2]])
    >>> [round(o, 6) for o in output]
    [1.339523, 0.660477]

Bad input raises TypeError (wrong kind of thing) or ValueError (bad value)
with a message naming the function, the problem and where it is.
"""

from lesson.compensated import softmax_compensated, softmax_compensated_row
from lesson.head import (attention, attention_row, causal_mask, scaled_scores,
                         scaled_scores_row)
from lesson.weights import (entropy, entropy_row, naive_softmax,
                            naive_softmax_row, rows_normalised, softmax,
                            softmax_row, softmax_table, sums_to_one)

# In the order the lesson teaches them (the site's API page follows it).
__all__ = [
    "softmax_row", "softmax", "naive_softmax_row", "naive_softmax",
    "sums_to_one", "rows_normalised", "entropy_row", "entropy", "softmax_table",
    "scaled_scores_row", "scaled_scores", "causal_mask", "attention_row",
    "attention", "softmax_compensated_row", "softmax_compensated",
]
