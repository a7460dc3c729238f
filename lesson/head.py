"""One attention head: scores, a mask, softmax weights, and the value mixture.

    S = Q K^T / sqrt(d_k) + M        A = softmax(S), row by row        O = A V

Q holds one query per row, K one key per row and V one value per row (the
i-th value belongs to the i-th key).  M is 0.0 where a query may see a key
and -inf where it may not.  Every row of A sums to 1, so each output row is
a weighted average of the values.

The worked example of the chapter, one query against two keys:

>>> output, weights = attention([1, 0], [[1, 0], [0, 1]], [[2, 0], [0, 2]])
>>> [round(w, 6) for w in weights]
[0.669762, 0.330238]
>>> [round(o, 6) for o in output]
[1.339523, 0.660477]

Each step comes twice.  The ``_row`` function is the math for one query,
with no checks, short enough to copy into a file of your own; the function
without ``_row`` checks its input and says what is wrong and where.

Functions
---------
scaled_scores_row(q, K)            one query's scores, q . k / sqrt(d_k)
scaled_scores(Q, K)                S = Q K^T / sqrt(d_k), checked
causal_mask(n_q, n_k)              0.0 where key j <= query i, -inf elsewhere
attention_row(q, K, V, mask=None)  (output, weights) for one query
attention(Q, K, V, mask=None)      (O, A) for one head, checked
"""

# --8<-- [start:imports]
import math
# --8<-- [end:imports]

from lesson import _validate
from lesson.weights import softmax_row


# --8<-- [start:scaled_scores_row]
def scaled_scores_row(q, K):
    """One query's scores: q . k / sqrt(d_k) for every key k.

    Dividing by sqrt(d_k) keeps the scores' spread from growing with the
    dimension, which would push softmax towards one-hot weights.

    >>> [round(s, 6) for s in scaled_scores_row([1, 0], [[1, 0], [0, 1]])]
    [0.707107, 0.0]
    """
    root_d_k = math.sqrt(len(q))
    return [math.fsum(a * b for a, b in zip(q, k)) / root_d_k for k in K]
# --8<-- [end:scaled_scores_row]


def scaled_scores(Q, K):
    """Scaled dot-product scores S = Q K^T / sqrt(d_k), with checked input.

    Row i of S is ``scaled_scores_row`` of query i: its score against
    every key.

    >>> S = scaled_scores([[1, 0], [0, 1]], [[1, 0], [0, 1], [1, 1]])
    >>> [[round(s, 6) for s in row] for row in S]
    [[0.707107, 0.0, 0.707107], [0.0, 0.707107, 0.707107]]

    One query vector gives one row of scores:

    >>> [round(s, 6) for s in scaled_scores([1, 0], [[1, 0], [0, 1]])]
    [0.707107, 0.0]
    """
    Q, K, one_query = _queries_and_keys("scaled_scores", Q, K)
    S = [scaled_scores_row(q, K) for q in Q]
    return S[0] if one_query else S


def causal_mask(n_q, n_k):
    """Additive causal mask: 0.0 where query i may see key j (j <= i), else -inf.

    Add it to the scores before softmax: exp(-inf) is 0, so a masked key
    gets weight exactly 0.

    >>> causal_mask(3, 3)
    [[0.0, -inf, -inf], [0.0, 0.0, -inf], [0.0, 0.0, 0.0]]
    """
    n_q = _validate.size("causal_mask", "n_q", n_q)
    n_k = _validate.size("causal_mask", "n_k", n_k, least=1)
    return [[0.0 if j <= i else -math.inf for j in range(n_k)]
            for i in range(n_q)]


# --8<-- [start:attention_row]
def attention_row(q, K, V, mask=None):
    """One query's attention: (output, weights), with no checks.

    The weights are the softmax of the query's scaled scores, plus the
    mask if there is one (0.0 where the query may see a key, -inf where
    not).  The output is the values averaged with those weights.

    >>> q, K, V = [1, 0], [[1, 0], [0, 1]], [[2, 0], [0, 2]]
    >>> output, weights = attention_row(q, K, V)
    >>> [round(w, 6) for w in weights], [round(o, 6) for o in output]
    ([0.669762, 0.330238], [1.339523, 0.660477])

    With only the first key allowed, the output is exactly that key's value:

    >>> attention_row(q, K, V, mask=[0.0, -math.inf])
    ([2.0, 0.0], [1.0, 0.0])
    """
    scores = scaled_scores_row(q, K)
    if mask is not None:
        scores = [s + m for s, m in zip(scores, mask)]
    weights = softmax_row(scores)
    output = [math.fsum(w * v[j] for w, v in zip(weights, V))    # sum_i w_i V[i]
              for j in range(len(V[0]))]
    return output, weights
# --8<-- [end:attention_row]


def attention(Q, K, V, mask=None):
    """One attention head: (O, A) with A = softmax(S + M), O = A V; checked.

    Row i of O and of A is ``attention_row`` of query i.  Q may be one
    query vector, as in the chapter's worked example; then the output and
    the weights are single rows.

    >>> q, K, V = [1, 0], [[1, 0], [0, 1]], [[2, 0], [0, 2]]
    >>> output, weights = attention(q, K, V)
    >>> [round(w, 6) for w in weights], [round(o, 6) for o in output]
    ([0.669762, 0.330238], [1.339523, 0.660477])

    Our policy for a query whose keys are all masked: it is an error.
    (PyTorch's softmax would give nan; replacing masked scores with -1e9
    instead of -inf silently gives uniform weights; JAX's masked softmax
    gives zeros.)

    >>> attention([[1, 0], [0, 1]], K, V, mask=[[0, 0], [-math.inf] * 2])
    Traceback (most recent call last):
      ...
    ValueError: attention: every key of query 1 is masked; every query needs at least one key it may see
    """
    Q, K, one_query = _queries_and_keys("attention", Q, K)
    V = _values("attention", V, len(K))
    M = _mask_rows("attention", mask, len(Q), len(K), one_query)
    O, A = [], []
    for i, (q, m) in enumerate(zip(Q, M)):
        try:
            output, weights = attention_row(q, K, V, m)
        except ValueError:
            raise ValueError(_no_weights("attention", i, q, K, m)) from None
        O.append(output)
        A.append(weights)
    return (O[0], A[0]) if one_query else (O, A)


# === Private utilities ===

def _queries_and_keys(name, Q, K):
    """Check Q (one query or a matrix) and K; return (Q rows, K rows, one?)."""
    q_shape, q_flat = _validate.array(name, "Q", Q)
    k_shape, k_flat = _validate.array(name, "K", K)
    if len(q_shape) > 2:
        raise ValueError(f"{name}: Q must be one query or a matrix of "
                         f"queries, not a nested list of shape {q_shape}")
    if len(k_shape) != 2:
        raise ValueError(f"{name}: K must be a matrix with one key per row, "
                         f"not of shape {k_shape}")
    d_k = k_shape[1]
    if q_shape[-1] != d_k:
        raise ValueError(f"{name}: queries have d_k = {q_shape[-1]} but keys "
                         f"have d_k = {d_k}; Q and K need the same width")
    return (_validate.rows(q_flat, d_k), _validate.rows(k_flat, d_k),
            len(q_shape) == 1)


def _values(name, V, n_k):
    """Check V: a matrix with one value row per key."""
    shape, flat = _validate.array(name, "V", V)
    if len(shape) != 2:
        raise ValueError(f"{name}: V must be a matrix with one value per row, "
                         f"not of shape {shape}")
    if shape[0] != n_k:
        raise ValueError(f"{name}: V has {_validate.count(shape[0], 'row')} but "
                         f"there are {_validate.count(n_k, 'key')}; each key "
                         f"needs one value")
    return _validate.rows(flat, shape[1])


def _mask_rows(name, mask, n_q, n_k, one_query):
    """Check the mask has the scores' shape; return one mask row per query.

    No mask is a row of None per query: attention_row adds nothing then.
    """
    if mask is None:
        return [None] * n_q
    shape, flat = _validate.array(name, "mask", mask, allow_neg_inf=True)
    expected = (n_k,) if one_query else (n_q, n_k)
    if shape != expected:
        raise ValueError(f"{name}: mask has shape {shape} but the scores "
                         f"have shape {expected}")
    return _validate.rows(flat, n_k)


def _no_weights(name, i, q, K, m):
    """Say why query i has no weights: every key masked, or scores overflow."""
    overflow = f"{name}: the scores of query {i} overflow a float; scale Q or K down"
    try:
        scores = scaled_scores_row(q, K)
    except ValueError:                 # math.fsum met both inf and -inf
        return overflow
    if m is not None:
        scores = [s + m_j for s, m_j in zip(scores, m)]
    if max(scores) == -math.inf:
        return f"{name}: every key of query {i} is masked; {_validate.ALL_MASKED}"
    return overflow
