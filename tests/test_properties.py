"""Properties of softmax and attention over many seeded random rows.

Each property is something the math promises for every input, so a failure
names a real bug: rows sum to 1, weights lie in [0, 1], a constant shift
changes nothing, permuting keys permutes weights, masked keys get exactly 0.
"""

import math
import random

import pytest

from lesson import (attention, causal_mask, rows_normalised, softmax,
                    softmax_compensated)

NEG_INF = -math.inf
SOFTMAXES = [softmax, softmax_compensated]
ROWS = 3000


def random_row(rng, masked=False):
    """A row of 1 to 64 scores with a spread from 0.01 to 200."""
    n = rng.randint(1, 64)
    spread = 10 ** rng.uniform(-2, math.log10(200))
    centre = rng.uniform(-1000, 1000)
    row = [centre + rng.uniform(-spread, spread) for _ in range(n)]
    if masked and n > 1:
        for i in rng.sample(range(n), rng.randint(1, n - 1)):
            row[i] = NEG_INF
    return row


@pytest.fixture
def rows(rng):
    return [random_row(rng, masked=rng.random() < 0.3) for _ in range(ROWS)]


@pytest.mark.parametrize("f", SOFTMAXES)
def test_every_row_sums_to_one_and_weights_lie_in_0_1(f, rows):
    for row in rows:
        weights = f(row)
        assert abs(math.fsum(weights) - 1) <= 1e-12, row
        assert all(0.0 <= w <= 1.0 for w in weights), row
    assert rows_normalised([f(row) for row in rows if len(row) == 5], tol=1e-12)


@pytest.mark.parametrize("f", SOFTMAXES)
@pytest.mark.parametrize("shift", [-500.0, -1.0, 0.25, 500.0])
def test_shifting_a_row_by_a_constant_changes_nothing(f, rows, shift):
    for row in rows:
        shifted = [s + shift for s in row]
        for a, b in zip(f(row), f(shifted)):
            # The shift itself rounds each score by up to half an ulp of the
            # larger magnitude; exp turns that into a relative change of about
            # |score| * 2**-52 in the weight.
            scale = max(abs(s) for s in row + shifted if s != NEG_INF)
            assert b == pytest.approx(a, rel=4 * scale * 2 ** -52 + 1e-15, abs=1e-300)


@pytest.mark.parametrize("f", SOFTMAXES)
def test_permuting_keys_permutes_the_weights(f, rows, rng):
    for row in rows:
        order = list(range(len(row)))
        rng.shuffle(order)
        permuted = f([row[i] for i in order])
        weights = f(row)
        for position, i in enumerate(order):
            assert permuted[position] == pytest.approx(weights[i], rel=1e-13, abs=1e-300)


@pytest.mark.parametrize("f", SOFTMAXES)
def test_masked_keys_get_exactly_zero_and_the_rest_renormalise(f, rows):
    for row in rows:
        weights = f(row)
        visible = [s for s in row if s != NEG_INF]
        for s, w in zip(row, weights):
            if s == NEG_INF:
                assert w == 0.0
        kept = [w for s, w in zip(row, weights) if s != NEG_INF]
        assert kept == pytest.approx(f(visible), rel=1e-13, abs=1e-300)


@pytest.mark.parametrize("f", SOFTMAXES)
def test_matrices_along_both_axes(f, rng):
    for _ in range(300):
        n, m = rng.randint(1, 8), rng.randint(1, 8)
        x = [[rng.gauss(0, 30) for _ in range(m)] for _ in range(n)]
        by_rows = f(x)
        by_columns = f(x, axis=0)
        assert all(abs(math.fsum(row) - 1) <= 1e-12 for row in by_rows)
        for j in range(m):
            assert abs(math.fsum(by_columns[i][j] for i in range(n)) - 1) <= 1e-12


def test_attention_rows_are_convex_mixtures_of_values(rng):
    for _ in range(500):
        n_q, n_k, d_k, d_v = (rng.randint(1, 8) for _ in range(4))
        Q = [[rng.gauss(0, 3) for _ in range(d_k)] for _ in range(n_q)]
        K = [[rng.gauss(0, 3) for _ in range(d_k)] for _ in range(n_k)]
        V = [[rng.gauss(0, 3) for _ in range(d_v)] for _ in range(n_k)]
        causal = rng.random() < 0.5
        M = causal_mask(n_q, n_k) if causal else None
        O, A = attention(Q, K, V, mask=M)
        for i, (o, a) in enumerate(zip(O, A)):
            assert abs(math.fsum(a) - 1) <= 1e-12
            if causal:
                assert all(w == 0.0 for w in a[i + 1:])
            for j in range(d_v):    # each output lies within its column of V
                column = [V[r][j] for r in range(n_k) if a[r] > 0]
                assert min(column) - 1e-9 <= o[j] <= max(column) + 1e-9


def test_attention_permuting_keys_and_values_together_changes_no_output(rng):
    for _ in range(300):
        n_k, d = rng.randint(1, 8), rng.randint(1, 6)
        q = [rng.gauss(0, 2) for _ in range(d)]
        K = [[rng.gauss(0, 2) for _ in range(d)] for _ in range(n_k)]
        V = [[rng.gauss(0, 2) for _ in range(d)] for _ in range(n_k)]
        order = list(range(n_k))
        rng.shuffle(order)
        O1, _ = attention(q, K, V)
        O2, _ = attention(q, [K[i] for i in order], [V[i] for i in order])
        assert O2 == pytest.approx(O1, rel=1e-12, abs=1e-12)
