"""Properties of softmax and attention, over rows that Hypothesis chooses.

Each property is something the math promises for every input, so a failure
names a real bug, and Hypothesis shrinks it to the smallest row that shows
it: rows sum to 1, weights lie in [0, 1], a constant shift changes nothing,
permuting keys permutes weights, masked keys get exactly 0.

Permutation and masking are exact, so those tests assert ``==``:
``math.fsum`` rounds the exact sum once, whatever the order of its terms,
and a masked key adds exp(-inf) = 0.0 to it, which changes nothing.
Everything else each weight goes through is the same float operations on
the same floats.
"""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lesson import (attention, causal_mask, rows_normalised, softmax,
                    softmax_compensated)

SOFTMAXES = [softmax, softmax_compensated]
finite = st.floats(-1000, 1000)


@st.composite
def rows(draw, masked=True):
    """1 to 64 scores around a centre, spread from 0.01 to 200; some -inf."""
    centre = draw(finite)
    spread = 10 ** draw(st.floats(-2, math.log10(200)))
    offsets = draw(st.lists(st.floats(-1, 1), min_size=1, max_size=64))
    row = [centre + spread * offset for offset in offsets]
    if masked and len(row) > 1:
        hidden = draw(st.sets(st.integers(0, len(row) - 1), max_size=len(row) - 1))
        row = [-math.inf if i in hidden else s for i, s in enumerate(row)]
    return row


@pytest.mark.parametrize("f", SOFTMAXES)
@given(row=rows())
def test_every_row_sums_to_one_and_weights_lie_in_0_1(f, row):
    weights = f(row)
    assert abs(math.fsum(weights) - 1) <= 1e-12
    assert all(0.0 <= w <= 1.0 for w in weights)
    assert rows_normalised(weights, tol=1e-12)


@pytest.mark.parametrize("f", SOFTMAXES)
@given(row=rows(), shift=st.sampled_from([-500.0, -1.0, 0.25, 500.0]))
def test_shifting_a_row_by_a_constant_changes_nothing(f, row, shift):
    shifted = [s + shift for s in row]
    # The shift rounds each score by up to half an ulp of the larger
    # magnitude; exp turns that into a relative change of about
    # |score| * 2**-52 in the weight.
    scale = max(abs(s) for s in row + shifted if s != -math.inf)
    rel = 4 * scale * 2 ** -52 + 1e-15
    weights, moved = f(row), f(shifted)
    assert len(weights) == len(moved) == len(row)
    for a, b in zip(weights, moved):
        assert abs(b - a) <= rel * a + 1e-300


@pytest.mark.parametrize("f", SOFTMAXES)
@given(data=st.data())
def test_permuting_keys_permutes_the_weights_exactly(f, data):
    row = data.draw(rows())
    order = data.draw(st.permutations(range(len(row))))
    weights = f(row)
    assert f([row[i] for i in order]) == [weights[i] for i in order]


@pytest.mark.parametrize("f", SOFTMAXES)
@given(row=rows())
def test_masked_keys_get_exactly_zero_and_the_rest_is_the_visible_softmax(f, row):
    weights = f(row)
    assert all(w == 0.0 for s, w in zip(row, weights) if s == -math.inf)
    visible = [s for s in row if s != -math.inf]
    assert [w for s, w in zip(row, weights) if s != -math.inf] == f(visible)


matrices = st.integers(1, 8).flatmap(
    lambda m: st.lists(st.lists(st.floats(-90, 90), min_size=m, max_size=m),
                       min_size=1, max_size=8))


@pytest.mark.parametrize("f", SOFTMAXES)
@given(x=matrices)
def test_matrices_along_both_axes(f, x):
    by_rows, by_columns = f(x), f(x, axis=0)
    assert by_rows == [f(row) for row in x]
    columns = [f(list(column)) for column in zip(*x)]
    assert by_columns == [list(row) for row in zip(*columns)]
    assert all(abs(math.fsum(row) - 1) <= 1e-12 for row in by_rows)


def vectors(n, d):
    return st.lists(st.lists(st.floats(-9, 9), min_size=d, max_size=d),
                    min_size=n, max_size=n)


@st.composite
def heads(draw):
    """Q, K, V for one head: 1 to 8 queries and keys, widths 1 to 8."""
    n_q, n_k, d_k, d_v = (draw(st.integers(1, 8)) for _ in range(4))
    return draw(vectors(n_q, d_k)), draw(vectors(n_k, d_k)), draw(vectors(n_k, d_v))


@given(head=heads(), causal=st.booleans())
def test_attention_rows_are_convex_mixtures_of_values(head, causal):
    Q, K, V = head
    O, A = attention(Q, K, V, mask=causal_mask(len(Q), len(K)) if causal else None)
    assert len(O) == len(A) == len(Q)
    assert all(len(o) == len(V[0]) for o in O)
    for i, (o, a) in enumerate(zip(O, A)):
        assert abs(math.fsum(a) - 1) <= 1e-12
        if causal:
            assert all(w == 0.0 for w in a[i + 1:])
        for j, o_j in enumerate(o):     # each output lies within its column of V
            column = [V[r][j] for r in range(len(K)) if a[r] > 0]
            assert min(column) - 1e-9 <= o_j <= max(column) + 1e-9


@given(data=st.data())
def test_permuting_keys_and_values_together_changes_no_output_exactly(data):
    Q, K, V = data.draw(heads())
    order = data.draw(st.permutations(range(len(K))))
    O1, A1 = attention(Q, K, V)
    O2, A2 = attention(Q, [K[i] for i in order], [V[i] for i in order])
    # Each key's score is its own dot product; the weights are permuted
    # exactly (above), and each output is an fsum, which ignores order.
    assert A2 == [[a[i] for i in order] for a in A1]
    assert O2 == O1
