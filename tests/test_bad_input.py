"""Bad input: a clear TypeError or ValueError, naming function, problem, place.

Each case is (call, arguments, exception, words the message must contain).
Every case also checks that the caller's arguments come back unchanged.
"""

import copy
import math

import pytest

import lesson
from lesson import (attention, attention_row, causal_mask, entropy,
                    entropy_row, naive_softmax, naive_softmax_row,
                    rows_normalised, scaled_scores, scaled_scores_row, softmax,
                    softmax_compensated, softmax_compensated_row, softmax_row,
                    softmax_table, sums_to_one)

# The math cores check nothing (their checked twins do); see the last tests.
CORES = {softmax_row, naive_softmax_row, sums_to_one, entropy_row,
         scaled_scores_row, attention_row, softmax_compensated_row}

NAN, INF, NEG_INF = math.nan, math.inf, -math.inf
K2 = [[1, 0], [0, 1]]
V2 = [[2, 0], [0, 2]]

CASES = [
    # softmax: kinds of thing
    (softmax, ("0.5, 1",), TypeError, "softmax: x must be a list of numbers, not str"),
    (softmax, (None,), TypeError, "softmax: x must be a list of numbers, not NoneType"),
    (softmax, (3.0,), TypeError, "not float"),
    (softmax, ([1, "2"],), TypeError, "softmax: x[1] is '2', not a number"),
    (softmax, ([1, None],), TypeError, "softmax: x[1] is None, not a number"),
    (softmax, ([True, 0],), TypeError, "softmax: x[0] is a bool, not a number"),
    (softmax, ([1, 1j],), TypeError, "x[1] is 1j, not a number"),
    (softmax, ([[1, 2], {3, 4}],), TypeError, "softmax: x[1] must be a list of numbers, not set"),
    # softmax: values
    (softmax, ([],), ValueError, "softmax: x is empty"),
    (softmax, ([[]],), ValueError, "softmax: x[0] is empty"),
    (softmax, ([[1, 2], [3]],), ValueError, "softmax: x is ragged: x[1] has 1 entry, x[0] has 2"),
    (softmax, ([[1, 2], 3],), ValueError, "softmax: x is ragged: x[1] is a number, x[0] is a list"),
    (softmax, ([1, [2]],), ValueError, "softmax: x is ragged: x[1] is a list, x[0] is a number"),
    (softmax, ([[[1], [2]], [[1], [2, 3]]],), ValueError, "x[1][1] has 2 entries, x[0][0] has 1"),
    (softmax, ([1, NAN],), ValueError, "softmax: x[1] is nan; scores must be finite or -inf"),
    (softmax, ([[0, 1], [INF, 0]],), ValueError, "softmax: x[1][0] is inf; scores must be finite or -inf"),
    (softmax, ([10 ** 400, 0],), ValueError, "softmax: x[0] is too large for a float"),
    (softmax, ([NEG_INF, NEG_INF],), ValueError, "softmax: x is all -inf; every query needs"),
    (softmax, ([[1, 2]], 2), ValueError, "softmax: axis 2 is out of range for x with 2 dimensions"),
    (softmax, ([1, 2], -2), ValueError, "softmax: axis -2 is out of range for x with 1 dimension"),
    (softmax, ([1, 2], 0.0), TypeError, "softmax: axis must be an int, not float"),
    (softmax, ([1, 2], "last"), TypeError, "softmax: axis must be an int, not str"),
    (softmax, ([1, 2], None), TypeError, "softmax: axis must be an int, not NoneType"),
    # naive_softmax
    (naive_softmax, ("12",), TypeError, "naive_softmax: x must be a list of numbers"),
    (naive_softmax, ([1, NAN],), ValueError, "naive_softmax: x[1] is nan"),
    (naive_softmax, ([[1], [2, 3]],), ValueError, "naive_softmax: x is ragged"),
    (naive_softmax, ([NEG_INF, NEG_INF],), ValueError, "naive_softmax: x is all -inf: no key may be seen"),
    (naive_softmax, ([-1000.0, -1000.0],), ValueError, "naive_softmax: every exp() in x is 0.0"),
    # rows_normalised
    (rows_normalised, (None,), TypeError, "rows_normalised: W must be a list of numbers"),
    (rows_normalised, ([0.5, NEG_INF],), ValueError, "rows_normalised: W[1] is -inf; numbers must be finite"),
    (rows_normalised, ([[0.5, 0.5], [1.0]],), ValueError, "rows_normalised: W is ragged"),
    (rows_normalised, ([1.0], -1e-9), ValueError, "rows_normalised: tol is -1e-09; it must be zero or more"),
    (rows_normalised, ([1.0], NAN), ValueError, "rows_normalised: tol is nan"),
    (rows_normalised, ([1.0], "1e-9"), TypeError, "rows_normalised: tol is '1e-9', not a number"),
    # entropy
    (entropy, ([0.5, -0.5, 1.0],), ValueError, "entropy: w[1] is -0.5; weights must be zero or more"),
    (entropy, ([[0.5, 0.5]],), ValueError, "entropy: w must be one row of weights"),
    (entropy, ([0.5, INF],), ValueError, "entropy: w[1] is inf; numbers must be finite"),
    (entropy, ([],), ValueError, "entropy: w is empty"),
    (entropy, ("abc",), TypeError, "entropy: w must be a list of numbers, not str"),
    # softmax_table
    (softmax_table, ([[1, 2]],), ValueError, "softmax_table: scores must be one row"),
    (softmax_table, ([NEG_INF],), ValueError, "softmax_table: scores is all -inf"),
    # scaled_scores
    (scaled_scores, ([1, 0], [[1, 0, 0]]), ValueError, "scaled_scores: queries have d_k = 2 but keys have d_k = 3"),
    (scaled_scores, ([1, 0], [1, 0]), ValueError, "scaled_scores: K must be a matrix with one key per row"),
    (scaled_scores, ([[[1, 0]]], K2), ValueError, "scaled_scores: Q must be one query or a matrix"),
    (scaled_scores, ([1, NEG_INF], K2), ValueError, "scaled_scores: Q[1] is -inf; numbers must be finite"),
    (scaled_scores, ([1, 0], "K"), TypeError, "scaled_scores: K must be a list of numbers, not str"),
    # causal_mask
    (causal_mask, (-1, 2), ValueError, "causal_mask: n_q is -1; it must be at least 0"),
    (causal_mask, (2, 0), ValueError, "causal_mask: n_k is 0; it must be at least 1"),
    (causal_mask, (2.0, 2), TypeError, "causal_mask: n_q must be an int, not float"),
    (causal_mask, (2, "3"), TypeError, "causal_mask: n_k must be an int, not str"),
    (causal_mask, (True, 2), TypeError, "causal_mask: n_q must be an int, not bool"),
    # attention
    (attention, ([1, 0], K2, [[2, 0]]), ValueError, "attention: V has 1 row but there are 2 keys"),
    (attention, ([1, 0], K2, [2, 0]), ValueError, "attention: V must be a matrix with one value per row"),
    (attention, ([1, 0], K2, [[2, 0], [0, NAN]]), ValueError, "attention: V[1][1] is nan"),
    (attention, ([1, 0], K2, V2, [0.0]), ValueError, "attention: mask has shape (1,) but the scores have shape (2,)"),
    (attention, ([[1, 0]], K2, V2, [0.0, 0.0]), ValueError, "attention: mask has shape (2,) but the scores have shape (1, 2)"),
    (attention, ([1, 0], K2, V2, [0.0, NAN]), ValueError, "attention: mask[1] is nan; scores must be finite or -inf"),
    (attention, ([1, 0], K2, V2, [INF, 0.0]), ValueError, "attention: mask[0] is inf"),
    (attention, ([1, 0], K2, V2, [NEG_INF, NEG_INF]), ValueError, "attention: every key of query 0 is masked"),
    (attention, ([1, 0], K2, V2, "causal"), TypeError, "attention: mask must be a list of numbers, not str"),
    (attention, ([], K2, V2), ValueError, "attention: Q is empty"),
    (attention, ([1, 0], [], V2), ValueError, "attention: K is empty"),
    (attention, ([1, 0], K2, None), TypeError, "attention: V must be a list of numbers, not NoneType"),
    # softmax_compensated: the same contract as softmax
    (softmax_compensated, ([1, NAN],), ValueError, "softmax_compensated: x[1] is nan"),
    (softmax_compensated, ([[NEG_INF], [NEG_INF]], 0), ValueError, "softmax_compensated: column 0 is all -inf"),
    (softmax_compensated, ([[1, 2], [3]],), ValueError, "softmax_compensated: x is ragged"),
    (softmax_compensated, ([1, 2], 1), ValueError, "softmax_compensated: axis 1 is out of range"),
    (softmax_compensated, ("1 2",), TypeError, "softmax_compensated: x must be a list of numbers"),
]


def case_id(case):
    function, args, error, _ = case
    return f"{function.__name__}-{error.__name__}-{CASES.index(case)}"


@pytest.mark.parametrize("function, args, error, words", CASES, ids=map(case_id, CASES))
def test_bad_input_raises_a_clear_error_and_changes_nothing(function, args, error, words):
    before = copy.deepcopy(args)
    with pytest.raises(error) as caught:
        function(*args)
    assert words in str(caught.value)
    assert str(caught.value).startswith(function.__name__ + ": ")
    assert _same(args, before), "the caller's arguments were changed"


def _same(a, b):
    """Equality that treats nan as equal to nan (deepcopy keeps the object)."""
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b


def test_there_are_at_least_forty_cases_covering_every_checked_function():
    assert len(CASES) >= 40
    covered = {function.__name__ for function, *_ in CASES}
    assert covered == set(lesson.__all__) - {core.__name__ for core in CORES}


def test_good_calls_never_change_their_inputs(rng):
    Q = [[rng.gauss(0, 1) for _ in range(3)] for _ in range(4)]
    K = [[rng.gauss(0, 1) for _ in range(3)] for _ in range(4)]
    V = [[rng.gauss(0, 1) for _ in range(2)] for _ in range(4)]
    M = causal_mask(4, 4)
    args = (Q, K, V, M)
    before = copy.deepcopy(args)
    attention(*args)
    scaled_scores(Q, K)
    softmax(Q, axis=0)
    naive_softmax(Q)
    rows_normalised(V)
    entropy(softmax(Q[0]))
    softmax_table(M[3])
    softmax_compensated(M, axis=0)
    assert args == before


JUNK = [None, 0, 1.5, "", "ab", [], [[]], [None], [[1], 2], [1, [2]], [NAN], [INF],
        [NEG_INF], {"a": 1}, b"12", [[1, 2], [3]], [[1, 2], [3, 4]], [0.5, 0.5], object()]


def test_junk_never_leaks_an_internal_error(rng):
    """Any mix of junk gives TypeError, ValueError or (naive only) OverflowError."""
    calls = [
        (softmax, 1), (naive_softmax, 1), (rows_normalised, 1), (entropy, 1),
        (softmax_table, 1), (scaled_scores, 2), (causal_mask, 2), (attention, 3),
        (softmax_compensated, 1),
    ]
    refused = set()                     # the functions whose error messages were read
    for _ in range(3000):
        function, n = rng.choice(calls)
        args = [rng.choice(JUNK) for _ in range(n)]
        try:
            function(*args)
        except (TypeError, ValueError) as error:
            assert str(error).startswith(function.__name__ + ": "), (function, args, error)
            refused.add(function)
    assert refused == {function for function, _ in calls}, "some function refused no junk"


@pytest.mark.parametrize("core", [softmax_row, softmax_compensated_row])
@pytest.mark.parametrize("scores", [[1.0, NAN], [NAN, 1.0], [INF, 0.0], [0.0, INF],
                                    [NEG_INF, NEG_INF], [NEG_INF, INF]])
def test_a_softmax_core_refuses_to_return_nan(core, scores):
    """The cores check nothing, but a score of nan or inf, or no finite score,
    leaves no weights to give: an error naming the core, never nan."""
    with pytest.raises(ValueError, match=f"^{core.__name__}: scores must be finite or -inf"):
        core(scores)


def test_the_naive_core_fails_loudly_on_overflow_and_underflow():
    with pytest.raises(OverflowError):
        naive_softmax_row([1000.0, 0.0])
    with pytest.raises(ValueError, match="^naive_softmax_row: the exps sum to 0.0"):
        naive_softmax_row([-1000.0, -1000.0])


def test_attention_names_a_query_whose_scores_overflow():
    with pytest.raises(ValueError, match="^attention: the scores of query 0 overflow"):
        attention([1e200, 1e200], [[1e200, 1e200], [0, 0]], V2)
    with pytest.raises(ValueError, match="^attention: the scores of query 0 overflow"):
        attention([1e200, 1e200], [[1e200, -1e200], [0, 0]], V2)
