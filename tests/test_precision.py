"""Precision: the exact reference, the bound of each step, and every weight correctly rounded."""

import math
from decimal import Decimal, localcontext
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lesson import softmax, softmax_compensated
from lesson import compensated
from lesson.bench import (SPREADS, accuracy_corpus, adversarial_corpus, exact_softmax,
                          near_midpoint, nearest_floats, ulp_error)
from lesson.compensated import (SCALE, WEIGHT_ERROR, exact_total, exp_parts, fast_weights,
                                reciprocal, two_product, two_sum)
from lesson_docs import benchmarks


@pytest.fixture(scope="module")
def report():
    """The accuracy benchmark on the random rows: the report the precision page
    shows, measured once a run (lesson_docs.build_cache) for the site's builds
    and these tests alike."""
    return benchmarks.measured("random")[1]


@pytest.fixture(scope="module")
def adversarial():
    return benchmarks.measured("adversarial")[1]


def test_two_sum_and_two_product_are_exact(rng):
    for _ in range(5000):
        a = rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)
        b = rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30)
        s, err = two_sum(a, b)
        assert Fraction(s) + Fraction(err) == Fraction(a) + Fraction(b)
        c, d = rng.random(), rng.uniform(1, 300)      # the sizes softmax meets
        p, perr = two_product(c, d)
        assert Fraction(p) + Fraction(perr) == Fraction(c) * Fraction(d)


EXP_ERROR = Decimal(2) ** -72           # exp_parts' bound, in its docstring


def test_exp_parts_reach_beyond_a_float(rng):
    """exp(s - top) to 2**-72 (math.exp: 2**-53), down to the smallest weights."""
    scores = [0.0] + [-rng.uniform(0, 746) for _ in range(300)] + [-745.9, -1e-300]
    his, los = exp_parts(scores, 0.0)
    assert len(his) == len(los) == len(scores)
    with localcontext() as ctx:
        ctx.prec = 40
        for s, hi, lo in zip(scores, his, los):
            exact = Decimal(s).exp() * Decimal(SCALE)
            assert abs((Decimal(hi) + Decimal(lo)) / exact - 1) < EXP_ERROR, s
    assert exp_parts([-math.inf, -747.0], 0.0) == ([0.0, 0.0], [0.0, 0.0])
    assert math.isnan(exp_parts([math.nan], 0.0)[1][0])


@settings(max_examples=300)
@given(top=st.floats(-1e6, 1e6), gap=st.one_of(st.floats(0, 746), st.floats(0, 1e-3)))
def test_every_exp_is_within_its_bound(top, gap):
    """Held by Hypothesis: exp(s - top) within 2**-72, s - top not even a float."""
    s = top - gap
    [hi], [lo] = exp_parts([s], top)
    with localcontext() as ctx:
        ctx.prec = 50
        exact = (Decimal(s) - Decimal(top)).exp() * Decimal(SCALE)
        assert abs((Decimal(hi) + Decimal(lo)) / exact - 1) < EXP_ERROR


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


@pytest.mark.slow             # the whole corpora: 215,000 weights
def test_no_compensated_weight_is_misrounded_on_either_corpus(report, adversarial):
    for measured in (report, adversarial):
        assert measured["softmax_compensated"]["misrounded"] == 0
        assert measured["softmax_compensated"]["max"] <= 0.5
        assert measured["softmax_compensated"]["failed"] == 0
    # ...where the plain recipe misrounds a third, and loses dozens of ulps.
    assert report["softmax"]["misrounded"] > report["softmax"]["weights"] // 3
    assert report["softmax"]["max"] > 30 and adversarial["softmax"]["max"] > 100


@pytest.mark.slow             # the whole corpora: 215,000 weights
def test_plain_error_grows_with_the_spread_of_the_scores(report):
    by_spread = report["softmax"]["by_group"]
    assert by_spread[100.0] > 10 * by_spread[0.1]
    assert [by_spread[s] for s in SPREADS] == sorted(by_spread[s] for s in SPREADS)
    # ...while the compensated one does not.
    assert max(report["softmax_compensated"]["by_group"].values()) <= 0.5


@pytest.mark.slow             # the whole corpora: 215,000 weights
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
def test_every_compensated_weight_is_the_nearest_float(row):
    """Row by row, weight by weight: the exact softmax, correctly rounded."""
    assert softmax_compensated(row) == nearest_floats(row), row


@settings(max_examples=100)
@given(row=hard_rows())
def test_each_weight_before_its_rounding_is_within_the_bound(row):
    """Held by Hypothesis: a + b, as fast_weights forms it, within WEIGHT_ERROR."""
    top = max(row)
    his, los = exp_parts(row, top)
    total, err = exact_total(his, los)
    r_hi, r_lo = reciprocal(total / SCALE, err / SCALE)
    exact = exact_softmax(row)
    assert len(his) == len(exact) == len(row)
    for hi, lo, w in zip(his, los, exact):
        if hi == 0:                               # masked, or 746 below: weight 0.0
            assert w * Decimal(SCALE) < Decimal(2) ** -476
            continue
        c = 134217729.0 * hi                      # as in fast_weights
        hi_a = c - (c - hi)
        a = hi_a * r_hi
        b = (hi - hi_a) * r_hi + (hi * r_lo + lo * (r_hi + r_lo))
        with localcontext() as ctx:
            ctx.prec = 60
            scaled = w * Decimal(SCALE)
            assert abs(Decimal(a) + Decimal(b) - scaled) <= Decimal(WEIGHT_ERROR) * scaled


@settings(max_examples=100)
@given(row=hard_rows(), data=st.data())
def test_the_rounding_test_passes_only_weights_it_rounds_right(row, data):
    """The fast path's own answer, wherever its test is sure, is the nearest float;
    rows with a weight put on a midpoint make it unsure there."""
    finite = [i for i, s in enumerate(row) if s > -math.inf]
    row = near_midpoint(row, data.draw(st.sampled_from(finite)))
    weights, doubtful, _ = fast_weights(row)
    nearest = nearest_floats(row)
    assert len(weights) == len(nearest) == len(row)
    assert [i for i, (w, n) in enumerate(zip(weights, nearest))
            if w != n and i not in doubtful] == []


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
    """Down to 2**-1074 and to 0.0: subnormal weights correctly rounded too,
    on the fixed spacing of the subnormal floats."""
    row = [0.0, -below, -below - 0.25]
    weights = softmax_compensated(row)
    assert len(weights) == len(row) and weights == nearest_floats(row)


def _mpmath_nearest(mpmath, row):
    """The correctly rounded softmax from mpmath at 100 digits, through a decimal string."""
    mpmath.mp.dps = 100
    top = max(row)
    exps = [mpmath.exp(mpmath.mpf(s) - top) if s > -math.inf else mpmath.mpf(0) for s in row]
    total = mpmath.fsum(exps)
    return [float(str(e / total)) for e in exps]


MIDPOINT_BASES = [([0.0, -1.0], 1), ([2.0] * 5, 0), ([-math.inf, 3.5, -math.inf, 1.25], 3),
                  ([0.1 * i for i in range(300)], 290), ([1e6 + 0.1, 1e6 - 12.5], 1),
                  ([0.0, -715.3, -3.0], 1), ([0.0, -740.1], 1), ([0.5, -0.25, -7.0], 2)]


def test_a_weight_at_a_midpoint_takes_the_fallback_and_rounds_right(monkeypatch):
    """Rows built so that a weight lies within 2**-60 of a midpoint between two
    floats: the rounding test cannot settle it, decimal does, and rightly."""
    mpmath = pytest.importorskip("mpmath")      # in the test extra
    calls, digits_used = [], set()
    real = compensated._settle
    monkeypatch.setattr(compensated, "_settle",
                        lambda found, doubtful, exps, total, error, digits:
                        calls.append((list(doubtful), digits))
                        or real(found, doubtful, exps, total, error, digits))
    for base, i in MIDPOINT_BASES:
        row = near_midpoint(base, i)
        mpmath.mp.dps = 100
        top = max(row)
        exps = [mpmath.exp(mpmath.mpf(s) - top) if s > -math.inf else 0 for s in row]
        w = exps[i] / mpmath.fsum(exps)
        f = float(str(w))
        gaps = [abs(w - (mpmath.mpf(f) + mpmath.mpf(math.nextafter(f, g))) / 2) for g in (0, 1)]
        assert min(gaps) < w * mpmath.mpf(2) ** -60, (base, i)      # at a midpoint
        assert i in fast_weights(row)[1], (base, i)                 # the test is unsure
        calls.clear()
        assert softmax_compensated(row) == _mpmath_nearest(mpmath, row), (base, i)
        assert calls and i in calls[0][0], (base, i)                # decimal settled it
        digits_used |= {digits for _, digits in calls}
    # Some were too close for decimal's first 28 digits: the loop raised them.
    assert digits_used == {28, 56}


def test_a_doubt_mostly_ends_with_one_exp_in_decimal(monkeypatch):
    """The first try keeps the fast total (within 2**-71 of exact) and redoes
    only the doubtful weight's exp: the whole row in decimal only if that fails."""
    rows = []
    real = compensated._settle
    monkeypatch.setattr(compensated, "_settle",
                        lambda found, doubtful, exps, total, error, digits:
                        rows.append(len(exps)) or real(found, doubtful, exps, total, error, digits))
    row = [0.0, -715.3, -3.0] + [-1.0] * 50        # a subnormal weight: always in doubt
    assert fast_weights(row)[1] == [1]
    assert softmax_compensated(row) == nearest_floats(row)
    assert rows == [1]                             # one exp, not 53


@pytest.mark.slow             # the whole corpora: 215,000 weights
def test_no_weight_is_misrounded_against_mpmath_on_200000_weights():
    """The issue's measure: both corpora, adversarial rows included, against
    mpmath at 100 digits, each weight converted through a decimal string."""
    mpmath = pytest.importorskip("mpmath")
    rows = [row for _, row in accuracy_corpus()] + [row for _, row in adversarial_corpus()]
    weights = misrounded = 0
    for row in rows:
        ours, theirs = softmax_compensated(row), _mpmath_nearest(mpmath, row)
        assert len(ours) == len(theirs) == len(row)
        misrounded += sum(a != b for a, b in zip(ours, theirs))
        weights += len(row)
    assert weights >= 200_000 and misrounded == 0


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
