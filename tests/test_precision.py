"""Precision: the exact reference, the error-free steps, and the ulp goals."""

import math
from decimal import Decimal, localcontext
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lesson import softmax, softmax_compensated
from lesson.bench import (SPREADS, accuracy, accuracy_corpus, exact_softmax,
                          softmax_methods, ulp_error)
from lesson.compensated import two_product, two_sum


@pytest.fixture(scope="module")
def report():
    return accuracy(accuracy_corpus(), softmax_methods(optional=False))


def test_two_sum_and_two_product_are_exact(rng):
    for _ in range(5000):
        a = rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)
        b = rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)
        s, err = two_sum(a, b)
        assert Fraction(s) + Fraction(err) == Fraction(a) + Fraction(b)
        c, d = rng.random(), rng.uniform(1, 300)      # the sizes softmax meets
        p, perr = two_product(c, d)
        assert Fraction(p) + Fraction(perr) == Fraction(c) * Fraction(d)


def test_exact_reference_against_closed_forms():
    assert exact_softmax([0.0, 0.0]) == [Decimal("0.5"), Decimal("0.5")]
    a = 1 / math.sqrt(2)
    first = exact_softmax([a, 0.0])[0]
    with localcontext() as ctx:
        ctx.prec = 60
        closed = 1 / (1 + (-Decimal(a)).exp())
    assert abs(first - closed) < Decimal("1e-55")
    assert exact_softmax([1.0, -math.inf]) == [1, 0]


def test_ulp_error_counts_units_in_the_last_place():
    assert ulp_error(1.0, 1.0) == 0.0
    assert ulp_error(1.0 + 2 ** -52, 1.0) == 1.0
    assert ulp_error(0.5 + 3 * 2 ** -53, Decimal("0.5")) == 3.0


def test_compensated_is_within_two_ulp_on_the_whole_corpus(report):
    assert report["softmax_compensated"]["max"] <= 2.0
    assert report["softmax_compensated"]["mean"] <= 0.5
    assert report["softmax_compensated"]["failed"] == 0


def test_plain_error_grows_with_the_spread_of_the_scores(report):
    by_spread = report["softmax"]["by_spread"]
    assert by_spread[100.0] > 10 * by_spread[0.1]
    assert [by_spread[s] for s in SPREADS] == sorted(by_spread[s] for s in SPREADS)
    # ...while the compensated one does not.
    assert max(report["softmax_compensated"]["by_spread"].values()) <= 2.0


def test_naive_fails_on_the_rows_the_max_trick_exists_for(report):
    assert report["naive_softmax"]["failed"] >= 2
    assert report["softmax"]["failed"] == 0


@given(centre=st.floats(-100, 100), spread=st.floats(-2, math.log10(300)),
       offsets=st.lists(st.floats(-0.5, 0.5), min_size=2, max_size=40))
def test_compensated_is_never_less_accurate_beyond_rounding(centre, spread, offsets):
    """Row by row: within 2 ulp, and never more than 1 ulp worse than plain.

    Where plain is already at rounding level (about 1 ulp), either can land
    closer by chance; wherever plain loses digits, compensated wins.
    """
    row = [centre + 10 ** spread * offset for offset in offsets]
    exact = exact_softmax(row)
    plain = max(ulp_error(w, t) for w, t in zip(softmax(row), exact))
    compensated = max(ulp_error(w, t) for w, t in zip(softmax_compensated(row), exact))
    assert compensated <= 2.0
    assert compensated <= plain + 1.0


def test_compensated_matches_softmax_on_every_axis(rng):
    for _ in range(200):
        shape = [rng.randint(1, 4) for _ in range(rng.randint(1, 3))]
        flat = [rng.gauss(0, 20) for _ in range(math.prod(shape))]
        x = flat
        for n in reversed(shape[1:]):
            x = [x[i:i + n] for i in range(0, len(x), n)]
        axis = rng.randrange(-len(shape), len(shape))
        a, b = softmax(x, axis=axis), softmax_compensated(x, axis=axis)
        assert _flatten(a) == pytest.approx(_flatten(b), rel=1e-12, abs=1e-300)


def test_compensated_handles_extremes():
    assert softmax_compensated([1e308, -1e308]) == [1.0, 0.0]
    assert softmax_compensated([-math.inf, 5.0, -math.inf]) == [0.0, 1.0, 0.0]
    weights = softmax_compensated([0.0, -745.0, -700.0])
    assert all(0.0 <= w <= 1.0 for w in weights) and weights[0] == 1.0


def _flatten(x):
    return [v for item in x for v in _flatten(item)] if isinstance(x, list) else [x]
