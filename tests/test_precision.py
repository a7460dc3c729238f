"""Precision: the exact reference, the error-free steps, and the ulp goals."""

import math
from decimal import Decimal, localcontext
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson import softmax, softmax_compensated
from lesson.bench import (SPREADS, accuracy, accuracy_corpus, adversarial_corpus,
                          exact_softmax, softmax_methods, ulp_error)
from lesson.compensated import (SCALE, exact_total, exp_parts, reciprocal,
                                two_product, two_sum)


@pytest.fixture(scope="module")
def report():
    return accuracy(accuracy_corpus(), softmax_methods(optional=False))


@pytest.fixture(scope="module")
def adversarial():
    return accuracy(adversarial_corpus(), softmax_methods(optional=False))


def test_two_sum_and_two_product_are_exact(rng):
    for _ in range(5000):
        a = rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)
        b = rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)
        s, err = two_sum(a, b)
        assert Fraction(s) + Fraction(err) == Fraction(a) + Fraction(b)
        c, d = rng.random(), rng.uniform(1, 300)      # the sizes softmax meets
        p, perr = two_product(c, d)
        assert Fraction(p) + Fraction(perr) == Fraction(c) * Fraction(d)


def test_exp_parts_reach_beyond_a_float(rng):
    """exp(s - top) to 2**-56 (math.exp: 2**-53), down to the smallest weights."""
    scores = [0.0] + [-rng.uniform(0, 746) for _ in range(300)] + [-745.9, -1e-300]
    his, los = exp_parts(scores, 0.0)
    assert len(his) == len(los) == len(scores)
    with localcontext() as ctx:
        ctx.prec = 40
        for s, hi, lo in zip(scores, his, los):
            exact = Decimal(s).exp() * Decimal(SCALE)
            assert abs((Decimal(hi) + Decimal(lo)) / exact - 1) < Decimal(2) ** -56, s
    assert exp_parts([-math.inf, -747.0], 0.0) == ([0.0, 0.0], [0.0, 0.0])
    assert math.isnan(exp_parts([math.nan], 0.0)[1][0])


def test_the_total_and_its_reciprocal_carry_two_floats(rng):
    his = [rng.uniform(1, 2) for _ in range(100)]
    los = [h * rng.uniform(-0.01, 0.01) for h in his]
    total, err = exact_total(his, los)
    exact = sum(map(Fraction, his)) + sum(map(Fraction, los))
    assert abs(Fraction(total) + Fraction(err) - exact) < exact * Fraction(2) ** -58
    r_hi, r_lo = reciprocal(total, err)
    pair = Fraction(total) + Fraction(err)
    assert abs((Fraction(r_hi) + Fraction(r_lo)) * pair - 1) < Fraction(2) ** -75
    assert Fraction(r_hi).numerator.bit_length() <= 26         # so r_hi * hi is exact


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


def test_compensated_is_within_one_ulp_on_both_corpora(report, adversarial):
    for measured in (report, adversarial):
        assert measured["softmax_compensated"]["max"] <= 1.0
        assert measured["softmax_compensated"]["mean"] <= 0.3
        assert measured["softmax_compensated"]["failed"] == 0
    # ...where the plain recipe loses dozens, and more on the adversarial rows.
    assert report["softmax"]["max"] > 30 and adversarial["softmax"]["max"] > 100


def test_plain_error_grows_with_the_spread_of_the_scores(report):
    by_spread = report["softmax"]["by_group"]
    assert by_spread[100.0] > 10 * by_spread[0.1]
    assert [by_spread[s] for s in SPREADS] == sorted(by_spread[s] for s in SPREADS)
    # ...while the compensated one does not.
    assert max(report["softmax_compensated"]["by_group"].values()) <= 1.0


def test_naive_fails_on_the_rows_the_max_trick_exists_for(report):
    assert report["naive_softmax"]["failed"] >= 2
    assert report["softmax"]["failed"] == 0


@st.composite
def hard_rows(draw):
    """2 to 40 scores: spread up to 750 (so subnormal weights), ties, -inf."""
    centre = draw(st.floats(-1000, 1000))
    spread = 10 ** draw(st.floats(-3, math.log10(750)))
    offsets = draw(st.lists(st.floats(-0.5, 0.5), min_size=2, max_size=40))
    row = [centre + spread * offset for offset in offsets]
    tied = draw(st.sets(st.integers(1, len(row) - 1), max_size=len(row) // 2))
    masked = draw(st.sets(st.integers(1, len(row) - 1), max_size=len(row) // 2))
    row = [row[0] if i in tied else s for i, s in enumerate(row)]
    return [-math.inf if i in masked else s for i, s in enumerate(row)]


@settings(max_examples=150)
@given(row=hard_rows())
def test_every_compensated_weight_is_within_one_ulp(row):
    """Row by row, weight by weight: at most 1 ulp from the exact softmax."""
    exact = exact_softmax(row)
    errors = [ulp_error(w, t) for w, t in zip(softmax_compensated(row), exact)]
    assert max(errors) <= 1.0, (max(errors), row)


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


@pytest.mark.parametrize("below", [708.0, 740.0, 744.4, 744.6, 745.0, 745.1, 745.2, 746.5])
def test_the_smallest_weights_round_like_the_exact_ones(below):
    """Down to 2**-1074 and to 0.0: subnormal weights within 1 ulp too."""
    row = [0.0, -below, -below - 0.25]
    exact, weights = exact_softmax(row), softmax_compensated(row)
    assert len(weights) == len(exact) == len(row)
    assert all(ulp_error(w, t) <= 1.0 for w, t in zip(weights, exact))


def test_the_reference_agrees_with_mpmath():
    """exact_softmax (Decimal) against an independent reference (mpmath)."""
    mpmath = pytest.importorskip("mpmath")      # in the test extra
    mpmath.mp.dps = 50
    for row in ([0.1, -99.9], [1 / math.sqrt(2), 0.0, -1.0], [0.0, -745.0, -math.inf],
                [1e6 + 0.1, 1e6 - 123.456, 1e6]):
        top = max(row)
        exps = [mpmath.exp(mpmath.mpf(s) - top) for s in row]
        exact = exact_softmax(row)
        assert len(exact) == len(row)
        for ours, theirs in zip(exact, exps):
            theirs = theirs / mpmath.fsum(exps)
            assert abs(mpmath.mpf(str(ours)) - theirs) <= theirs * mpmath.mpf(10) ** -45


def _flatten(x):
    return [v for item in x for v in _flatten(item)] if isinstance(x, list) else [x]
