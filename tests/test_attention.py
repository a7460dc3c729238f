"""scaled_scores, causal_mask and attention, checked against the chapter."""

import math

import pytest

from lesson import attention, causal_mask, scaled_scores, softmax

NEG_INF = -math.inf
q, K, V = [1, 0], [[1, 0], [0, 1]], [[2, 0], [0, 2]]


def reference_attention(Q, K, V, M=None):
    """The chapter's reference recipe, written out independently."""
    out, weights = [], []
    for i, qi in enumerate(Q):
        scores = [sum(a * b for a, b in zip(qi, k)) / math.sqrt(len(qi)) for k in K]
        if M is not None:
            scores = [s + m for s, m in zip(scores, M[i])]
        top = max(scores)
        exps = [math.exp(s - top) for s in scores]
        w = [e / sum(exps) for e in exps]
        weights.append(w)
        out.append([sum(w[r] * V[r][j] for r in range(len(V))) for j in range(len(V[0]))])
    return out, weights


def test_worked_example_matches_the_seed():
    output, weights = attention(q, K, V)
    assert math.isclose(weights[0], 0.6697615493266569)
    assert math.isclose(output[0], 1.3395230986533138)
    assert math.isclose(output[1], 0.6604769013466862)
    assert [round(w, 6) for w in weights] == [0.669762, 0.330238]
    assert [round(o, 6) for o in output] == [1.339523, 0.660477]


def test_only_first_key_allowed_gives_exactly_its_value():
    assert attention(q, K, V, mask=causal_mask(1, 2)[0]) == ([2.0, 0.0], [1.0, 0.0])


def test_one_query_vector_and_a_one_row_matrix_agree():
    O1, A1 = attention(q, K, V)
    O2, A2 = attention([q], K, V)
    assert (O2, A2) == ([O1], [A1])


def test_scaled_scores_divide_dot_products_by_root_d_k():
    S = scaled_scores([[1, 2, 3, 4]], [[1, 1, 1, 1], [0, 0, 0, 2]])
    assert S == [[10 / 2, 8 / 2]]
    assert scaled_scores(q, K) == [1 / math.sqrt(2), 0.0]


def test_attention_agrees_with_the_reference_recipe(rng):
    for _ in range(100):
        n_q, n_k, d_k, d_v = (rng.randint(1, 6) for _ in range(4))
        Q = [[rng.gauss(0, 2) for _ in range(d_k)] for _ in range(n_q)]
        K_ = [[rng.gauss(0, 2) for _ in range(d_k)] for _ in range(n_k)]
        V_ = [[rng.gauss(0, 2) for _ in range(d_v)] for _ in range(n_k)]
        M = causal_mask(n_q, n_k) if n_q <= n_k and rng.random() < 0.5 else None
        O, A = attention(Q, K_, V_, mask=M)
        O_ref, A_ref = reference_attention(Q, K_, V_, M)
        assert len(A) == len(O) == n_q
        for got, want in zip(A + O, A_ref + O_ref):
            assert got == pytest.approx(want, rel=1e-12, abs=1e-12)


def test_causal_mask_shape_and_values():
    M = causal_mask(3, 4)
    assert M == [[0.0, NEG_INF, NEG_INF, NEG_INF],
                 [0.0, 0.0, NEG_INF, NEG_INF],
                 [0.0, 0.0, 0.0, NEG_INF]]
    assert causal_mask(0, 1) == []


def test_causal_attention_gives_masked_keys_exactly_zero():
    Q = [[1, 2], [3, 4], [5, 6]]
    O, A = attention(Q, Q, [[1], [10], [100]], mask=causal_mask(3, 3))
    assert A[0] == [1.0, 0.0, 0.0]
    assert A[1][2] == 0.0
    assert O[0] == [1.0]                      # query 0 sees only value 1
    assert all(math.isclose(math.fsum(row), 1) for row in A)


def test_a_finite_additive_mask_shifts_scores_before_softmax():
    bias = [0.0, math.log(2)]                 # doubles the second key's odds
    _, A = attention([0, 0], K, V, mask=bias)
    assert A[1] / A[0] == pytest.approx(2)


def test_masking_before_softmax_differs_from_zeroing_after():
    _, A = attention(q, K, V, mask=[0.0, NEG_INF])
    zeroed_after = [w if m == 0 else 0.0 for w, m in zip(softmax(scaled_scores(q, K)), [0, 1])]
    assert A == [1.0, 0.0]
    assert math.fsum(zeroed_after) < 1        # the mistake: weights no longer sum to 1


def test_a_fully_masked_query_is_an_error_naming_it():
    M = causal_mask(2, 2)
    M[1] = [NEG_INF, NEG_INF]
    with pytest.raises(ValueError, match=r"^attention: every key of query 1 is masked"):
        attention([[1, 0], [0, 1]], K, V, mask=M)
