"""The lesson's own numbers: the table's scores and the worked example.

The command line, the site and the tests all read them from here, so a
number a learner sees is always one that ``lesson`` computed.

>>> [round(s, 4) for s in TABLE_SCORES]
[0.7071, 0.0, -1.0]
>>> for step, formula, values in worked_example():
...     print(f"{step:14} {[round(v, 6) for v in values]}")
...
dot scores     [1.0, 0.0]
scaled scores  [0.707107, 0.0]
weights        [0.669762, 0.330238]
output         [1.339523, 0.660477]
causal weights [1.0, 0.0]
causal output  [2.0, 0.0]
"""

import math

from lesson.head import attention, causal_mask, scaled_scores

# The worked example: one query, two keys, d_k = 2.
q = [1, 0]
K = [[1, 0], [0, 1]]
V = [[2, 0], [0, 2]]

# The table's scores: the first is the worked example's 1/sqrt(2), which the
# pages print to four places, 0.7071.
TABLE_SCORES = [1 / math.sqrt(2), 0.0, -1.0]

# A causal self-attention example: four tokens, each a 2-d vector used as
# query, key and value; token i may look at tokens 0..i only.
TOKENS = [[1, 0], [0, 2], [1, 1], [2, -1]]


def causal_example():
    """(weights, mask) of causal self-attention over TOKENS.

    >>> A, M = causal_example()
    >>> [round(w, 2) for w in A[1]], M[1]
    ([0.06, 0.94, 0.0, 0.0], [0.0, 0.0, -inf, -inf])
    """
    mask = causal_mask(len(TOKENS), len(TOKENS))
    _, weights = attention(TOKENS, TOKENS, TOKENS, mask=mask)
    return weights, mask


def worked_example():
    """The worked example's steps as (step, formula, values) triples.

    >>> step, formula, values = worked_example()[2]
    >>> step, [round(v, 6) for v in values]
    ('weights', [0.669762, 0.330238])
    """
    d_k = len(q)
    dots = [math.fsum(a * b for a, b in zip(q, k)) for k in K]
    scaled = scaled_scores(q, K)
    output, weights = attention(q, K, V)
    only_first = causal_mask(1, len(K))[0]     # query 0 may see key 0 only
    causal_output, causal_weights = attention(q, K, V, mask=only_first)
    return [
        ("dot scores", "q . k for each key", dots),
        ("scaled scores", f"divide by sqrt(d_k) = sqrt({d_k})", scaled),
        ("weights", "softmax of the scaled scores", weights),
        ("output", "sum of weight x value", output),
        ("causal weights", "mask [0, -inf] added before softmax", causal_weights),
        ("causal output", "only the first value is seen", causal_output),
    ]
