"""One attention head: scores, a mask, softmax weights, and the value mixture.

    S = Q K^T / sqrt(d_k) + M        A = softmax_rows(S)        O = A V

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

Functions
---------
scaled_scores(Q, K)            S = Q K^T / sqrt(d_k)
causal_mask(n_q, n_k)          0.0 where key j <= query i, -inf elsewhere
attention(Q, K, V, mask=None)  (O, A) for one head
"""

import math

from lesson import _checks
from lesson.weights import _softmax_row

_NEG_INF = -math.inf


# --8<-- [start:scaled_scores]
def scaled_scores(Q, K):
    """Scaled dot-product scores S = Q K^T / sqrt(d_k).

    Row i of S holds query i's score against every key.  Dividing by
    sqrt(d_k) keeps the scores' spread from growing with the dimension,
    which would push softmax towards one-hot weights.

    >>> S = scaled_scores([[1, 0], [0, 1]], [[1, 0], [0, 1], [1, 1]])
    >>> [[round(s, 6) for s in row] for row in S]
    [[0.707107, 0.0, 0.707107], [0.0, 0.707107, 0.707107]]

    One query vector gives one row of scores:

    >>> [round(s, 6) for s in scaled_scores([1, 0], [[1, 0], [0, 1]])]
    [0.707107, 0.0]
    """
    Q, K, one_query = _queries_and_keys("scaled_scores", Q, K)
    S = [_scaled_row(q, K) for q in Q]
    return S[0] if one_query else S


def _scaled_row(q, K):
    """One query's scores: q . k / sqrt(d_k) for every key k."""
    root_d_k = math.sqrt(len(q))
    return [math.fsum(a * b for a, b in zip(q, k)) / root_d_k for k in K]
# --8<-- [end:scaled_scores]


def _queries_and_keys(name, Q, K):
    """Check Q (one query or a matrix) and K; return (Q rows, K rows, one?)."""
    q_shape, q_flat = _checks.array(name, "Q", Q)
    k_shape, k_flat = _checks.array(name, "K", K)
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
    return _rows(q_flat, d_k), _rows(k_flat, d_k), len(q_shape) == 1


def _rows(flat, width):
    return [flat[i:i + width] for i in range(0, len(flat), width)]


# --8<-- [start:causal_mask]
def causal_mask(n_q, n_k):
    """Additive causal mask: 0.0 where query i may see key j (j <= i), else -inf.

    Add it to the scores before softmax: exp(-inf) is 0, so a masked key
    gets weight exactly 0.

    >>> causal_mask(3, 3)
    [[0.0, -inf, -inf], [0.0, 0.0, -inf], [0.0, 0.0, 0.0]]
    """
    n_q = _checks.size("causal_mask", "n_q", n_q)
    n_k = _checks.size("causal_mask", "n_k", n_k, least=1)
    return [[0.0 if j <= i else _NEG_INF for j in range(n_k)]
            for i in range(n_q)]
# --8<-- [end:causal_mask]


# --8<-- [start:attention]
def attention(Q, K, V, mask=None):
    """One attention head: return (O, A) with A = softmax(S + M), O = A V.

    Q may be one query vector, as in the chapter's worked example; then the
    output and the weights are single rows.

    >>> q, K, V = [1, 0], [[1, 0], [0, 1]], [[2, 0], [0, 2]]
    >>> output, weights = attention(q, K, V)
    >>> [round(w, 6) for w in weights], [round(o, 6) for o in output]
    ([0.669762, 0.330238], [1.339523, 0.660477])

    With only the first key allowed, the output is exactly that key's value:

    >>> attention(q, K, V, mask=[0.0, float("-inf")])
    ([2.0, 0.0], [1.0, 0.0])

    Our policy for a query whose keys are all masked: it is an error.
    (PyTorch's softmax would give nan; replacing masked scores with -1e9
    instead of -inf silently gives uniform weights; JAX's masked softmax
    gives zeros.)

    >>> attention([[1, 0], [0, 1]], K, V, mask=[[0, 0], [float("-inf")] * 2])
    Traceback (most recent call last):
      ...
    ValueError: attention: every key of query 1 is masked; every query needs at least one key it may see
    """
    Q, K, one_query = _queries_and_keys("attention", Q, K)
    V = _values("attention", V, len(K))
    S = [_scaled_row(q, K) for q in Q]
    if mask is not None:
        S = _add_mask("attention", S, mask, one_query)
    A = []
    for i, scores in enumerate(S):
        if max(scores) == _NEG_INF:
            raise ValueError(f"attention: every key of query {i} is masked; "
                             f"every query needs at least one key it may see")
        A.append(_softmax_row(scores))
    O = [_mix(weights, V) for weights in A]
    return (O[0], A[0]) if one_query else (O, A)


def _mix(weights, V):
    """Output row: the values averaged with these weights, sum_i w_i V[i]."""
    return [math.fsum(w * v[j] for w, v in zip(weights, V))
            for j in range(len(V[0]))]
# --8<-- [end:attention]


def _values(name, V, n_k):
    """Check V: a matrix with one value row per key."""
    shape, flat = _checks.array(name, "V", V)
    if len(shape) != 2:
        raise ValueError(f"{name}: V must be a matrix with one value per row, "
                         f"not of shape {shape}")
    if shape[0] != n_k:
        raise ValueError(f"{name}: V has {shape[0]} rows but there are "
                         f"{n_k} keys; each key needs one value")
    return _rows(flat, shape[1])


def _add_mask(name, S, mask, one_query):
    """Return S + M, after checking M has the scores' shape."""
    shape, flat = _checks.array(name, "mask", mask, allow_neg_inf=True)
    expected = (len(S[0]),) if one_query else (len(S), len(S[0]))
    if shape != expected:
        raise ValueError(f"{name}: mask has shape {shape} but the scores "
                         f"have shape {expected}")
    M = _rows(flat, len(S[0]))
    return [[s + m for s, m in zip(s_row, m_row)] for s_row, m_row in zip(S, M)]
