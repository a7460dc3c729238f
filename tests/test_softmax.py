"""softmax, naive_softmax, rows_normalised, entropy and softmax_table."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lesson import (entropy, naive_softmax, rows_normalised, softmax,
                    softmax_row, softmax_table)

NEG_INF = -math.inf
ROOT_HALF = 1 / math.sqrt(2)


# --- softmax --------------------------------------------------------------

def test_worked_example_weights_match_the_closed_form():
    # For two scores a, b: the first weight is 1 / (1 + exp(b - a)).
    first, second = softmax([ROOT_HALF, 0.0])
    expected = 1 / (1 + math.exp(-ROOT_HALF))
    assert first == pytest.approx(expected, rel=1e-15)
    assert second == pytest.approx(1 - expected, rel=1e-14)
    assert round(first, 6) == 0.669762 and round(second, 6) == 0.330238


def test_lesson_table_weights_reproduce_the_seed():
    weights = softmax([ROOT_HALF, 0, -1])
    assert [round(w, 4) for w in weights] == [0.5972, 0.2945, 0.1083]


def test_large_equal_scores_give_equal_weights():
    assert softmax([1000, 1000]) == [0.5, 0.5]
    assert softmax([-1000, -1000, -1000]) == pytest.approx([1 / 3] * 3)


def test_huge_spread_does_not_overflow_or_nan():
    weights = softmax([1e300, -1e300, 0.0])
    assert weights == [1.0, 0.0, 0.0]


def test_neg_inf_gets_exactly_zero():
    weights = softmax([2.0, NEG_INF, 1.0])
    assert weights[1] == 0.0
    assert weights[0] / weights[2] == pytest.approx(math.e)


def test_ints_tuples_and_nesting_are_accepted_and_give_lists_of_floats():
    result = softmax(((0, 0), (0, 0)))
    assert result == [[0.5, 0.5], [0.5, 0.5]]
    assert all(type(w) is float for row in result for w in row)


def test_each_row_sums_to_one_but_the_matrix_does_not():
    W = softmax([[ROOT_HALF, 0], [3, -2]])
    assert [math.fsum(row) for row in W] == pytest.approx([1, 1])
    assert math.fsum(w for row in W for w in row) == pytest.approx(2)


@pytest.mark.parametrize("axis", [0, -2])
def test_axis_zero_normalises_columns(axis):
    x = [[1.0, 5.0], [3.0, -1.0]]
    W = softmax(x, axis=axis)
    for j in range(2):
        column = [x[i][j] for i in range(2)]
        assert [W[i][j] for i in range(2)] == softmax(column)


def test_axis_on_a_three_dimensional_array():
    x = [[[1, 2, 3], [4, 5, 6]], [[0, 0, 1], [1, 0, 0]]]
    W = softmax(x, axis=1)
    for a in range(2):
        for c in range(3):
            assert [W[a][b][c] for b in range(2)] == softmax([x[a][b][c] for b in range(2)])


def test_all_neg_inf_row_is_an_error_naming_the_row():
    with pytest.raises(ValueError, match=r"^softmax: row 2 is all -inf; every query"):
        softmax([[0, 1], [1, 0], [NEG_INF, NEG_INF]])
    with pytest.raises(ValueError, match=r"^softmax: column 1 is all -inf"):
        softmax([[0, NEG_INF], [0, NEG_INF]], axis=0)
    with pytest.raises(ValueError, match=r"^softmax: x\[1, :, 0\] is all -inf"):
        softmax([[[0, 0], [0, 0]], [[NEG_INF, 0], [NEG_INF, 0]]], axis=1)


def test_a_row_that_is_all_neg_inf_along_another_axis_is_fine():
    assert softmax([[0, NEG_INF], [0, NEG_INF]]) == [[1.0, 0.0], [1.0, 0.0]]


def outcome(f, *args):
    """What a call gives: its result, or its error's type and message."""
    try:
        return f(*args)
    except (TypeError, ValueError) as error:
        return type(error), str(error)


@given(st.lists(st.one_of(st.floats(), st.just(NEG_INF), st.integers(-5, 5),
                          st.booleans()), max_size=6))
def test_the_quick_path_gives_what_the_checked_path_gives(row):
    """A plain list of floats takes softmax's quick path; the same entries in
    a tuple take the checked path.  Same weights, same errors, same words."""
    assert outcome(softmax, row) == outcome(softmax, tuple(row))


def test_softmax_of_a_row_of_floats_is_softmax_row():
    row = [0.5, -3.25, NEG_INF, 12.0]
    assert softmax(row) == softmax_row(row)
    assert softmax(row) is not row


# --- naive_softmax --------------------------------------------------------

def test_naive_agrees_with_stable_on_small_scores(rng):
    for _ in range(200):
        row = [rng.uniform(-20, 20) for _ in range(rng.randint(1, 12))]
        assert naive_softmax(row) == pytest.approx(softmax(row), rel=1e-12, abs=1e-300)


def test_naive_overflows_on_large_scores_where_stable_does_not():
    with pytest.raises(OverflowError, match=r"^naive_softmax: exp\(1000.0\) overflows"):
        naive_softmax([1000, 1000])
    assert softmax([1000, 1000]) == [0.5, 0.5]


def test_naive_overflow_inside_the_sum_is_reported_too():
    # Each exp(709) is finite, but a thousand of them overflow the sum.
    with pytest.raises(OverflowError, match="subtract the row maximum"):
        naive_softmax([709.0] * 1000)


def test_naive_underflows_to_a_zero_sum_on_very_negative_scores():
    with pytest.raises(ValueError, match=r"^naive_softmax: every exp\(\) in row 1 is 0.0"):
        naive_softmax([[0, 0], [-1000, -1000]])


def test_naive_works_along_the_last_axis_only():
    assert naive_softmax([[0.0, 0.0], [1.0, 1.0]]) == [[0.5, 0.5], [0.5, 0.5]]


# --- rows_normalised ------------------------------------------------------

def test_rows_normalised_true_false_and_tolerance():
    assert rows_normalised(softmax([[1, 2, 3], [0, 0, 0]]))
    assert not rows_normalised([[0.5, 0.6]])
    assert not rows_normalised([0.25, 0.75, 0.5, 0.5])        # one row of four
    assert rows_normalised([1 / 3] * 3, tol=0)                 # fsum is exact
    assert rows_normalised([0.5, 0.5 + 1e-10])
    assert not rows_normalised([0.5, 0.5 + 1e-8])
    assert rows_normalised([0.5, 0.5 + 1e-8], tol=1e-7)


def test_rows_normalised_uses_an_exact_sum():
    # Adding one at a time gives 0.9999999999999999 here (so does sum()
    # before Python 3.12); fsum gives the true 1.
    row = [0.1] * 10
    total = 0.0
    for w in row:
        total += w
    assert total != 1.0
    assert rows_normalised([row], tol=0.0)


def test_rows_normalised_checks_every_row_of_a_3d_array():
    W = [[[0.5, 0.5], [1.0, 0.0]], [[0.2, 0.8], [0.3, 0.3]]]
    assert not rows_normalised(W)
    W[1][1] = [0.3, 0.7]
    assert rows_normalised(W)


# --- entropy --------------------------------------------------------------

def test_entropy_of_one_hot_is_zero_not_minus_zero():
    value = entropy([0.0, 1.0, 0.0])
    assert value == 0.0 and math.copysign(1, value) == 1


@pytest.mark.parametrize("n", [1, 2, 3, 10, 1000])
def test_entropy_of_uniform_weights_is_log_n(n):
    assert entropy([1 / n] * n) == pytest.approx(math.log(n), abs=1e-12)


def test_entropy_grows_as_weights_spread():
    focused = entropy(softmax([10, 0, 0]))
    spread = entropy(softmax([1, 0, 0]))
    assert 0 < focused < spread < math.log(3)


def test_entropy_of_the_worked_example():
    p = 1 / (1 + math.exp(-ROOT_HALF))
    expected = -(p * math.log(p) + (1 - p) * math.log(1 - p))
    assert entropy(softmax([ROOT_HALF, 0])) == pytest.approx(expected, rel=1e-14)


# --- softmax_table --------------------------------------------------------

def test_table_columns_are_the_steps_of_softmax():
    scores = [ROOT_HALF, 0, -1]
    rows = softmax_table(scores)
    assert [round(r[2], 4) for r in rows] == [1, 0.4931, 0.1814]
    assert [round(r[3], 4) for r in rows] == [0.5972, 0.2945, 0.1083]
    total = math.fsum(r[2] for r in rows)
    for score, shifted, e, weight in rows:
        assert shifted == score - max(scores)
        assert e == math.exp(shifted)
        assert weight == pytest.approx(e / total, rel=1e-15)


def test_table_of_a_masked_key():
    rows = softmax_table([1.0, NEG_INF])
    assert rows[1] == (NEG_INF, NEG_INF, 0.0, 0.0)
